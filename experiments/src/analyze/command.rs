//! `experiments analyze FILE --dim D ...`: every metric of a point set read from a file,
//! as a table or as JSON.

use super::{AnalyzeOptions, PointRadii, analyze_with_radii, table};
use crate::domains::{self, BoxArgs};
use crate::io::{self, PointFormat};
use crate::metrics::density_follow;
use crate::metrics::surface::surface_metrics;
use crate::shapes;
use crate::with_dim;
use poisson_nd::Domain;
use poisson_nd::field::{DensityMapping, PairRule};
use std::path::{Path, PathBuf};

/// Arguments of `experiments analyze`.
#[derive(clap::Args, Debug, Clone)]
pub struct AnalyzeArgs {
    /// File of points ("-" for standard input), in the format of its extension unless
    /// --format is given: .csv (one point per line, commas or whitespace between
    /// coordinates, an optional header line), .npy, .npz, .ply or .json.
    pub file: PathBuf,
    /// The file's format (default: from its extension).
    #[arg(long, value_enum)]
    pub format: Option<PointFormat>,
    /// Dimension, 1 to 8: the number of coordinates per line (3, and optional, with
    /// --mesh).
    #[arg(long, required_unless_present = "mesh")]
    pub dim: Option<usize>,
    /// The points lie on this mesh's surface (.obj, .stl, .ply, .gltf, .glb): measure them
    /// on it, by Euclidean distance in 3D — closest pair, nearest-neighbour statistics,
    /// relative radius against the densest packing of its area, coverage by --probes
    /// probes drawn uniformly over its area. Takes --radius (nominal), --probes, --seed,
    /// --bins, --json.
    #[arg(long)]
    pub mesh: Option<PathBuf>,
    /// The box.
    #[command(flatten)]
    pub domain: BoxArgs,
    /// Nominal Poisson-disk radius: used for the cluster rate, close pairs, coverage and the
    /// nominal relative radius (default: half the densest-packing spacing d_max / 2).
    #[arg(long, allow_hyphen_values = true)]
    pub radius: Option<f64>,
    /// Per-point radii: the file's column of this name (CSV header column, NPZ array, PLY
    /// vertex property, JSON key); every pair is then checked against --radius-rule.
    #[arg(long)]
    pub radius_column: Option<String>,
    /// The distance a pair must keep with per-point radii: max(r_i, r_j), min(r_i, r_j) or
    /// their mean.
    #[arg(
        long,
        default_value = "max",
        requires = "radius_column",
        value_parser = crate::choices::parser::<PairRule>()
    )]
    pub radius_rule: PairRule,
    /// A density map (.png or .npy, as `sample --density` takes it) to compare the local
    /// point counts with, over a coarse grid of cells (8×8 in 2D, 4^D otherwise).
    #[arg(long)]
    pub density: Option<PathBuf>,
    /// How the map's density became a radius (with --density; default lerp). The counts
    /// follow an inverse map by construction; for lerp the prediction is an approximation.
    #[arg(long, value_parser = crate::choices::parser::<DensityMapping>())]
    pub mapping: Option<DensityMapping>,
    /// The map's smallest radius (with --density).
    #[arg(long, allow_hyphen_values = true)]
    pub rmin: Option<f64>,
    /// The map's largest radius (with --density).
    #[arg(long, allow_hyphen_values = true)]
    pub rmax: Option<f64>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Write the radial power spectrum to this CSV file.
    #[arg(long)]
    pub spectrum_out: Option<PathBuf>,
    /// Leave the frequency axes (k_x = 0, k_y = 0, ...) out of the spectrum summary: for
    /// closed boxes, whose faces act as a seam on the torus.
    #[arg(long)]
    pub exclude_axes: bool,
    /// Spectrum up to this multiple of N^(1/D) (√N in 2D).
    #[arg(long, default_value_t = crate::metrics::spectrum::DEFAULT_FREQUENCY_MULTIPLE)]
    pub spectrum_multiple: f64,
    /// Monte-Carlo probes for the coverage (1 to 10^8).
    #[arg(long, default_value_t = 100_000,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000_000))]
    pub probes: usize,
    /// White-noise realisations simulated as the closed-box reference (0: none; at most
    /// 10,000).
    #[arg(long, default_value_t = 16,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=10_000))]
    pub reference_realisations: usize,
    /// Seed for the coverage probes and the simulated reference.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Bins of the nearest-neighbour histogram (1 to 10^6).
    #[arg(long, default_value_t = 20,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub bins: usize,
    /// The pair statistics (close pairs, pair correlation, per-point radii) are skipped,
    /// with a note, when they would visit more pairs of distinct locations than this or 16
    /// times what as many uniform points would have, whichever is larger (piles of
    /// near-duplicate points). Identical points are counted together and cost nothing.
    #[arg(long, default_value_t = super::PAIR_BUDGET)]
    pub max_pairs: u64,
}

/// Runs `experiments analyze`: reads the file, checks every point lies in the box, prints
/// the analysis. Errors are one line, naming the file and line where there is one.
pub fn run(args: &AnalyzeArgs) -> Result<(), String> {
    if let Some(mesh) = &args.mesh {
        return run_on_surface(args, mesh);
    }
    let dim = args.dim.unwrap_or_default();
    with_dim!(dim, D => run_in::<D>(args), else Err(domains::dim_error(dim)))
}

/// `analyze --mesh M`: the points on a surface.
fn run_on_surface(args: &AnalyzeArgs, mesh_path: &Path) -> Result<(), String> {
    if let Some(dim) = args.dim.filter(|&d| d != 3) {
        return Err(format!("--dim {dim} does not apply with --mesh: points on a surface are 3D"));
    }
    let not_taken = [
        (args.domain.extent.is_some(), "--box"),
        (args.domain.origin.is_some(), "--origin"),
        (args.domain.periodic, "--periodic"),
        (args.radius_column.is_some(), "--radius-column"),
        (args.density.is_some(), "--density"),
        (args.rmin.is_some(), "--rmin"),
        (args.rmax.is_some(), "--rmax"),
        (args.mapping.is_some(), "--mapping"),
        (args.spectrum_out.is_some(), "--spectrum-out"),
        (args.exclude_axes, "--exclude-axes"),
    ];
    if let Some((_, flag)) = not_taken.iter().find(|(given, _)| *given) {
        return Err(format!("{flag} does not apply with --mesh"));
    }
    if let Some(r) = args.radius
        && !(r.is_finite() && r > 0.0)
    {
        return Err(format!("--radius must be finite and positive, got {r}"));
    }
    let mesh = crate::surface::read_surface(mesh_path)?;
    let format = match args.format {
        Some(format) => format,
        None => PointFormat::from_path(&args.file)?,
    };
    let read = io::read_points::<3>(&args.file, format, &crate::surface::COLUMNS)
        .map_err(|e| e.to_string())?;
    let mut metrics = surface_metrics(
        &read.data.points,
        &mesh,
        args.probes.max(1),
        args.seed,
        args.bins.max(1),
        args.radius,
    );
    metrics.face_offset = face_offset(&read, &mesh, &args.file)?;
    if args.json {
        let text = serde_json::to_string_pretty(&metrics).map_err(|e| e.to_string())?;
        println!("{text}");
    } else {
        print!("{}", table::render_surface(&metrics, &mesh_path.display().to_string()));
    }
    Ok(())
}

fn run_in<const D: usize>(args: &AnalyzeArgs) -> Result<(), String> {
    let domain = args.domain.domain::<D>()?;
    if let Some(r) = args.radius
        && !(r.is_finite() && r > 0.0)
    {
        return Err(format!("--radius must be finite and positive, got {r}"));
    }
    if !(args.spectrum_multiple.is_finite() && args.spectrum_multiple > 0.0) {
        return Err(format!(
            "--spectrum-multiple must be finite and positive, got {}",
            args.spectrum_multiple
        ));
    }
    let density = match &args.density {
        None => {
            for (given, flag) in [
                (args.rmin.is_some(), "--rmin"),
                (args.rmax.is_some(), "--rmax"),
                (args.mapping.is_some(), "--mapping"),
            ] {
                if given {
                    return Err(format!("{flag} applies only with --density"));
                }
            }
            None
        }
        Some(path) => {
            let (Some(rmin), Some(rmax)) = (args.rmin, args.rmax) else {
                return Err(format!("--density {} needs --rmin and --rmax", path.display()));
            };
            shapes::check_radius_bounds(rmin, rmax)?;
            let mapping = args.mapping.unwrap_or_default();
            Some(shapes::density_field::<D>(path, &domain, rmin, rmax, mapping)?)
        }
    };
    let format = match args.format {
        Some(format) => format,
        None => PointFormat::from_path(&args.file)?,
    };
    let column: Vec<&str> = args.radius_column.as_deref().into_iter().collect();
    let read = io::read_points::<D>(&args.file, format, &column).map_err(|e| e.to_string())?;
    let at = format.position_name();
    for (p, position) in read.data.points.iter().zip(&read.positions) {
        if !domain.contains(p) {
            return Err(format!(
                "{}: {at} {position}: point {} lies outside the box {} (set --box/--origin)",
                args.file.display(),
                format_point(p),
                format_box(&domain)
            ));
        }
    }
    let radii = match &args.radius_column {
        None => None,
        Some(name) => {
            let column = read.data.attribute(name).ok_or_else(|| {
                format!("{}: no radius column named '{name}' in the file", args.file.display())
            })?;
            let bad = column.values.iter().position(|r| !(r.is_finite() && *r > 0.0));
            if let Some(i) = bad {
                return Err(format!(
                    "{}: {at} {}: radius {} is not positive",
                    args.file.display(),
                    read.positions[i],
                    column.values[i]
                ));
            }
            Some(PointRadii { column: name, values: &column.values, rule: args.radius_rule })
        }
    };
    let options = AnalyzeOptions {
        radius: args.radius,
        histogram_bins: args.bins.max(1),
        probes: args.probes.max(1),
        seed: args.seed,
        reference_realisations: args.reference_realisations,
        spectrum_multiple: args.spectrum_multiple,
        exclude_axes: args.exclude_axes,
        pair_budget: args.max_pairs,
        ..AnalyzeOptions::default()
    };
    let mut analysis = analyze_with_radii(&read.data.points, radii, &domain, &options);
    if let Some(field) = &density {
        analysis.density_follow =
            Some(density_follow::density_follow(&read.data.points, &domain, field));
    }
    if let Some(path) = &args.spectrum_out {
        let spectrum = analysis
            .spectrum
            .as_ref()
            .ok_or("the spectrum was skipped (see the notes); nothing to write")?;
        let mut bytes = Vec::new();
        spectrum
            .write_csv(&mut bytes)
            .and_then(|()| io::write_atomically(path, &bytes))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if args.json {
        print!("{}", table::json(&analysis)?);
    } else {
        print!("{}", table::render(&analysis));
    }
    Ok(())
}

/// With `face`, `b0`, `b1` and `b2` columns: the largest distance from a point to where its
/// face and barycentric coordinates place it on the mesh. A face that is not an index of the
/// mesh's triangles is an error naming the point.
fn face_offset(
    read: &io::ReadPoints<3>,
    mesh: &poisson_nd::surface::SurfaceMesh,
    file: &Path,
) -> Result<Option<f64>, String> {
    let column = |name: &str| read.data.attribute(name).map(|a| &a.values);
    let (Some(faces), Some(b0), Some(b1), Some(b2)) =
        (column("face"), column("b0"), column("b1"), column("b2"))
    else {
        return Ok(None);
    };
    let mut largest = 0.0f64;
    for (i, p) in read.data.points.iter().enumerate() {
        let face = faces[i];
        if !(face >= 0.0 && face.fract() == 0.0 && face < mesh.triangle_count() as f64) {
            return Err(format!(
                "{}: point {}: face {face} is not a triangle of the mesh (0 to {})",
                file.display(),
                read.positions[i],
                mesh.triangle_count() - 1
            ));
        }
        let q = mesh.point_at(face as usize, [b0[i], b1[i], b2[i]]);
        let d = (0..3).map(|k| (p[k] - q[k]) * (p[k] - q[k])).sum::<f64>().sqrt();
        largest = largest.max(d);
    }
    Ok(Some(largest))
}

fn format_point(p: &[f64]) -> String {
    let parts: Vec<String> = p.iter().map(|x| x.to_string()).collect();
    format!("({})", parts.join(", "))
}

fn format_box<const D: usize>(domain: &Domain<D>) -> String {
    let parts: Vec<String> = (0..D)
        .map(|a| {
            let lo = domain.origin()[a];
            format!("[{lo}, {})", lo + domain.extent()[a])
        })
        .collect();
    parts.join(" × ")
}
