//! `experiments analyze FILE --dim D ...`: every metric of a point set read from a file,
//! as a table or as JSON.

use super::{AnalyzeIn, AnalyzeOptions, PointRadii, StatsRequest, analyze_with_radii, table};
use crate::dims::Dim;
use crate::domains::{self, BoxArgs};
use crate::io::{self, PointFormat};
use crate::metrics::density_follow;
use crate::metrics::spatial_stats::{MAX_PROBES, SpatialStats, SpatialStatsOptions};
use crate::metrics::surface::surface_metrics;
use crate::shapes;
use crate::with_dim;
use poisson_nd::Domain;
use poisson_nd::error::Short;
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
    /// Also the summary functions of spatial statistics, as spatstat defines them: Ripley's
    /// K and L, the pair correlation g, the nearest-neighbour distribution G, the
    /// empty-space function F and J = (1 − G)/(1 − F), with their edge corrections. A table
    /// at a few r; every r and correction with --json.
    #[arg(long)]
    pub stats: bool,
    /// Write the summary functions into this folder (created if needed), one CSV each:
    /// K.csv, L.csv, pcf.csv (g), G.csv, F.csv, J.csv, with columns r, poisson and one per
    /// correction. Implies --stats.
    #[arg(long)]
    pub stats_out: Option<PathBuf>,
    /// The largest r of the summary functions, at most half the shortest side (default: a
    /// quarter of the shortest side, or the radius holding 1000 neighbours on average if
    /// that is smaller).
    #[arg(long, allow_hyphen_values = true)]
    pub stats_rmax: Option<f64>,
    /// Steps of the summary functions' r grid, r_max/steps apart (1 to 10^6; default 512).
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000))]
    pub stats_steps: Option<usize>,
    /// Probes of the empty-space function F per axis, at the centres of equal cells
    /// (default: 128 in 2D, the smallest count with at least 16384 probes in all in any
    /// dimension); at most 10^8 probes in all.
    #[arg(long, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100_000_000))]
    pub stats_probes: Option<usize>,
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
        (args.stats, "--stats"),
        (args.stats_out.is_some(), "--stats-out"),
        (args.stats_rmax.is_some(), "--stats-rmax"),
        (args.stats_steps.is_some(), "--stats-steps"),
        (args.stats_probes.is_some(), "--stats-probes"),
    ];
    if let Some((_, flag)) = not_taken.iter().find(|(given, _)| *given) {
        return Err(format!("{flag} does not apply with --mesh"));
    }
    if let Some(r) = args.radius
        && !(r.is_finite() && r > 0.0)
    {
        return Err(format!("--radius must be finite and positive, got {}", Short::of(&r)));
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
        crate::io::print_out(&format!("{text}\n"))?;
    } else {
        crate::io::print_out(&table::render_surface(&metrics, &mesh_path.display().to_string()))?;
    }
    Ok(())
}

fn run_in<const D: usize>(args: &AnalyzeArgs) -> Result<(), String>
where
    Dim<D>: AnalyzeIn<D>,
{
    let domain = args.domain.domain::<D>()?;
    if let Some(r) = args.radius
        && !(r.is_finite() && r > 0.0)
    {
        return Err(format!("--radius must be finite and positive, got {}", Short::of(&r)));
    }
    if !(args.spectrum_multiple.is_finite() && args.spectrum_multiple > 0.0) {
        return Err(format!(
            "--spectrum-multiple must be finite and positive, got {}",
            Short::of(&args.spectrum_multiple)
        ));
    }
    let stats = stats_request::<D>(args, &domain)?;
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
        spatial_stats: stats,
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
    if let Some(dir) = &args.stats_out {
        let stats = analysis
            .spatial_stats
            .as_ref()
            .ok_or("the spatial statistics were skipped (see the notes); nothing to write")?;
        write_stats(stats, dir)?;
    }
    if args.json {
        crate::io::print_out(&table::json(&analysis)?)?;
    } else {
        crate::io::print_out(&table::render(&analysis))?;
    }
    Ok(())
}

/// The spatial statistics asked for by `--stats` / `--stats-out`, their grid and probes
/// checked here so that a bad value is a one-line error naming the flag.
fn stats_request<const D: usize>(
    args: &AnalyzeArgs,
    domain: &Domain<D>,
) -> Result<Option<StatsRequest>, String> {
    if !args.stats && args.stats_out.is_none() {
        for (given, flag) in [
            (args.stats_rmax.is_some(), "--stats-rmax"),
            (args.stats_steps.is_some(), "--stats-steps"),
            (args.stats_probes.is_some(), "--stats-probes"),
        ] {
            if given {
                return Err(format!("{flag} applies only with --stats or --stats-out"));
            }
        }
        return Ok(None);
    }
    let mut request = StatsRequest::default();
    if let Some(r) = args.stats_rmax {
        if !(r.is_finite() && r > 0.0) {
            return Err(format!("--stats-rmax must be finite and positive, got {}", Short::of(&r)));
        }
        let half = domain.extent().iter().copied().fold(f64::INFINITY, f64::min) / 2.0;
        if r > half {
            return Err(format!(
                "--stats-rmax {} exceeds half the shortest side of the box ({})",
                Short::of(&r),
                Short::of(&half)
            ));
        }
        request.r_max = Some(r);
    }
    if let Some(steps) = args.stats_steps {
        request.steps = steps;
    }
    if let Some(m) = args.stats_probes {
        if (m as u64).checked_pow(D as u32).is_none_or(|count| count > MAX_PROBES) {
            return Err(format!(
                "--stats-probes {m} makes {m}^{D} probes, more than {MAX_PROBES} in all"
            ));
        }
        request.options = SpatialStatsOptions { probes_per_axis: Some(m), ..request.options };
    }
    Ok(Some(request))
}

/// `--stats-out DIR`: one CSV per summary function.
fn write_stats(stats: &SpatialStats, dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for function in stats.functions() {
        let path = dir.join(function.file_name());
        let mut bytes = Vec::new();
        function
            .write_csv(&stats.r, &mut bytes)
            .and_then(|()| io::write_atomically(&path, &bytes))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
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
    let parts: Vec<String> = p.iter().map(|x| Short::of(x).to_string()).collect();
    format!("({})", parts.join(", "))
}

fn format_box<const D: usize>(domain: &Domain<D>) -> String {
    let parts: Vec<String> = (0..D)
        .map(|a| {
            let lo = domain.origin()[a];
            format!("[{}, {})", Short::of(&lo), Short::of(&(lo + domain.extent()[a])))
        })
        .collect();
    parts.join(" × ")
}
