//! `experiments sample surface --mesh M (--radius R | --n N) [...] --out FILE`: points on the
//! surface of a triangle mesh, each with its face, barycentric coordinates and normal (and UV
//! when the mesh has them). Columns and formats: docs/formats.md, "Points on a surface".

use crate::inputs::png::read_png;
use crate::inputs::surface_mesh::read_mesh;
use crate::io::{self, Attribute, PointData, PointFormat};
use crate::shapes;
use crate::spec::OverLimit;
use poisson_nd::Error;
use poisson_nd::error::Short;
use poisson_nd::field::{DensityMapping, PairRule};
use poisson_nd::surface::{
    SurfaceDensity, SurfaceElimination, SurfaceFill, SurfaceMesh, SurfacePoints, SurfacePoisson,
};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// The flags of `sample surface`; with them, of the flags every sampler takes: `--radius`
/// (a maximal fill) or `--n` (exactly n points by sample elimination), `--seed`,
/// `--max-points`, `--out`, `--format`, and with `--density-texture`: `--rmin`, `--rmax`,
/// `--mapping`, `--radius-rule`.
#[derive(clap::Args, Debug, Clone)]
pub struct SurfaceArgs {
    /// The mesh whose surface is sampled: .obj, .stl, .ply (ASCII or binary), .gltf or .glb
    /// (every triangle primitive of the default scene, node transforms applied). Distances
    /// are Euclidean in 3D.
    #[arg(long)]
    pub mesh: PathBuf,
    /// A density map (.png, row 0 at the top, read through the mesh's UVs with v up) that
    /// varies the radius of a maximal fill between --rmin (density 1) and --rmax (density 0).
    #[arg(long)]
    pub density_texture: Option<PathBuf>,
    /// With --n: order the points so that every prefix is well spread.
    #[arg(long)]
    pub progressive: bool,
    /// With --n: candidates drawn per output point (default 5).
    #[arg(long)]
    pub ratio: Option<f64>,
    /// How a maximal fill is reached: `darts` (each sample uniform over the surface not yet
    /// covered; the default), `front` (Bridson's front walking on the surface, then darts
    /// into what it left; about 1.8× faster at 10^6 points) or `boundary` (each new sample
    /// just beyond the radius from an earlier one, wherever the edge of the covered surface is
    /// still open; faster still, about 30% more points, every point's nearest neighbour at the
    /// radius; with --density-texture it fills as `front`).
    #[arg(long, value_parser = crate::choices::parser::<SurfaceFill>())]
    pub fill: Option<SurfaceFill>,
}

/// The flags of `sample` that a surface takes (the rest are refused before).
#[derive(Debug, Clone, Default)]
pub struct Settings {
    /// `--radius`: a maximal fill at this radius.
    pub radius: Option<f64>,
    /// `--n`: exactly this many points by sample elimination.
    pub n: Option<usize>,
    /// `--max-points`.
    pub max_points: Option<usize>,
    /// `--seed`.
    pub seed: u64,
    /// `--out`.
    pub out: Option<PathBuf>,
    /// `--format`.
    pub format: Option<PointFormat>,
    /// `--rmin` (with `--density-texture`).
    pub rmin: Option<f64>,
    /// `--rmax` (with `--density-texture`).
    pub rmax: Option<f64>,
    /// `--mapping` (with `--density-texture`).
    pub mapping: Option<DensityMapping>,
    /// `--radius-rule` (with `--density-texture`).
    pub radius_rule: Option<PairRule>,
}

/// Reads a mesh file into the library's surface: its triangles (degenerate ones ignored),
/// and its vertex normals and UVs when the file gives them. Errors name the file.
pub fn read_surface(path: &Path) -> Result<SurfaceMesh, String> {
    let name = path.display();
    let mesh = read_mesh(path).map_err(|e| e.to_string())?;
    let triangles = mesh.triangles.iter().map(|t| t.map(|v| v as usize)).collect();
    let mut surface =
        SurfaceMesh::new(mesh.vertices, triangles).map_err(|e| format!("{name}: {e}"))?;
    if let Some(normals) = mesh.normals {
        surface = surface.with_normals(normals).map_err(|e| format!("{name}: {e}"))?;
    }
    if let Some(uvs) = mesh.uvs {
        surface = surface.with_uvs(uvs).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(surface)
}

/// The attribute columns a surface point set may have, in the order written.
pub const COLUMNS: [&str; 10] = ["nx", "ny", "nz", "face", "b0", "b1", "b2", "u", "v", "radius"];

/// The columns of a surface point set after x, y, z: `nx, ny, nz, face, b0, b1, b2`, then
/// `u, v` when the mesh has UVs and `radius` when the radius varies.
///
/// ```
/// use experiments::surface::point_data;
/// use poisson_nd::surface::{SurfaceElimination, SurfaceMesh};
/// let square = SurfaceMesh::new(
///     vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]],
///     vec![[0, 1, 2], [0, 2, 3]],
/// )?;
/// let points = SurfaceElimination::new(square.clone()).sample_seeded(10, 1);
/// let data = point_data(&square, points);
/// let names: Vec<&str> = data.attributes.iter().map(|a| a.name.as_str()).collect();
/// assert_eq!(names, ["nx", "ny", "nz", "face", "b0", "b1", "b2"]);
/// assert_eq!(data.attribute("nz").unwrap().values, vec![1.0; 10]);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
pub fn point_data(mesh: &SurfaceMesh, set: SurfacePoints) -> PointData<3> {
    let column = |name: &str, values: Vec<f64>| Attribute { name: name.into(), values };
    let normals = set.normals(mesh);
    let mut attributes: Vec<Attribute> = ["nx", "ny", "nz"]
        .iter()
        .enumerate()
        .map(|(axis, name)| column(name, normals.iter().map(|n| n[axis]).collect()))
        .collect();
    attributes.push(column("face", set.faces.iter().map(|&f| f as f64).collect()));
    for (k, name) in ["b0", "b1", "b2"].iter().enumerate() {
        attributes.push(column(name, set.barycentrics.iter().map(|b| b[k]).collect()));
    }
    if let Some(uvs) = set.uvs(mesh) {
        for (k, name) in ["u", "v"].iter().enumerate() {
            attributes.push(column(name, uvs.iter().map(|uv| uv[k]).collect()));
        }
    }
    if let Some(radii) = set.radii {
        attributes.push(column("radius", radii));
    }
    PointData { points: set.points, attributes }
}

/// Runs `experiments sample surface`. Errors are one line; nothing is written on an error.
pub fn run(args: &SurfaceArgs, run: &Settings) -> Result<(), String> {
    check_flags(args, run)?;
    let format = match (&run.out, run.format) {
        (_, Some(format)) => Some(format),
        (Some(path), None) => Some(PointFormat::from_path(path)?),
        (None, None) => None,
    };
    if format == Some(PointFormat::Npy) {
        return Err("an .npy file holds the positions only, not each point's face, \
                    barycentrics and normal; write .npz (or .csv, .ply, .json)"
            .into());
    }
    // Shared, not copied, by the sampler: a copy of the mesh would be timed with the sampling.
    let mesh = Arc::new(read_surface(&args.mesh)?);
    let mesh_name = args.mesh.display().to_string();
    let start = Instant::now();
    let (set, method) = sample(&mesh, &mesh_name, args, run)?;
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "surface {method} triangles={} degenerate={} area={} points={} time={seconds:.3}s \
         stop={} attempts={} unresolved={}",
        mesh.triangle_count(),
        mesh.degenerate_count(),
        Short::of(&mesh.area()),
        set.len(),
        set.stop,
        set.attempts,
        set.unresolved
    );
    if let (Some(path), Some(format)) = (&run.out, format) {
        io::write_points(path, format, &point_data(&mesh, set))?;
    }
    Ok(())
}

/// Samples `mesh` (named `mesh_name` in errors) as `sample surface` does with these flags:
/// exactly `--n` points by sample elimination, or a maximal fill at `--radius` or over
/// `--density-texture`. Returns the points and which it made (`"elimination"` or `"fill"`);
/// errors are the command line's one-line messages. The command line and the Python
/// package's `sample_surface` both run through here.
pub fn sample(
    mesh: &Arc<SurfaceMesh>,
    mesh_name: &str,
    args: &SurfaceArgs,
    run: &Settings,
) -> Result<(SurfacePoints, &'static str), String> {
    check_flags(args, run)?;
    Ok(match (run.radius, run.n) {
        (_, Some(n)) => {
            let mut sampler = SurfaceElimination::new(Arc::clone(mesh))
                .with_progressive(args.progressive)
                .with_ratio(args.ratio.unwrap_or(poisson_nd::defaults::ELIMINATION_RATIO))
                .map_err(|e| format!("--ratio: {e}"))?;
            if let Some(limit) = run.max_points {
                sampler =
                    sampler.with_max_points(limit).map_err(|e| format!("--max-points: {e}"))?;
            }
            // Exactly n points are promised: a limit below n, or below the candidates drawn
            // for them, would cut the set.
            let limit = run.max_points.unwrap_or(poisson_nd::defaults::MAX_POINTS);
            if let Some(over) = OverLimit::of(n, Some(sampler.ratio()), limit) {
                return Err(over.message("surface", n, limit));
            }
            (sampler.sample_seeded(n, run.seed), "elimination")
        }
        (radius, None) => {
            let sampler = match (&args.density_texture, radius) {
                (Some(texture), _) => {
                    let density = texture_density(texture, run)?;
                    let rule = run.radius_rule.unwrap_or_default();
                    SurfacePoisson::from_density(Arc::clone(mesh), density, rule)
                }
                (None, Some(r)) => SurfacePoisson::new(Arc::clone(mesh), r),
                (None, None) => unreachable!("checked: --radius, --n or --density-texture"),
            };
            let mut sampler = sampler.map_err(|e| fill_message(e, mesh_name, mesh))?;
            if let Some(limit) = run.max_points {
                sampler =
                    sampler.with_max_points(limit).map_err(|e| fill_message(e, mesh_name, mesh))?;
            }
            let method = args.fill.unwrap_or_default();
            (sampler.with_fill(method).fill_seeded(run.seed), "fill")
        }
    })
}

/// The flags `sample surface` takes, and how they go together.
fn check_flags(args: &SurfaceArgs, run: &Settings) -> Result<(), String> {
    let count_flags = [(args.progressive, "--progressive"), (args.ratio.is_some(), "--ratio")];
    if run.n.is_some() && args.fill.is_some() {
        return Err("--fill applies only to a maximal fill (--radius or --density-texture), \
                    not with --n"
            .into());
    }
    if run.n.is_none()
        && let Some((_, flag)) = count_flags.iter().find(|(given, _)| *given)
    {
        return Err(format!("{flag} applies only with --n (exactly n points)"));
    }
    match (&args.density_texture, run.radius, run.n) {
        (_, Some(_), Some(_)) => Err("give --radius (a maximal fill) or --n (exactly n \
                                      points by sample elimination), not both"
            .into()),
        (Some(texture), _, Some(_)) => Err(format!(
            "--density-texture {} varies the radius of a fill: give --rmin and --rmax, not --n",
            texture.display()
        )),
        (Some(texture), Some(_), None) => Err(format!(
            "--radius does not apply with --density-texture {}: the radius comes from the \
             map (give --rmin and --rmax)",
            texture.display()
        )),
        (Some(texture), None, None) => match (run.rmin, run.rmax) {
            (Some(rmin), Some(rmax)) => shapes::check_radius_bounds(rmin, rmax),
            _ => Err(format!("--density-texture {} needs --rmin and --rmax", texture.display())),
        },
        (None, radius, n) => {
            for (given, flag) in [
                (run.rmin.is_some(), "--rmin"),
                (run.rmax.is_some(), "--rmax"),
                (run.mapping.is_some(), "--mapping"),
                (run.radius_rule.is_some(), "--radius-rule"),
            ] {
                if given {
                    return Err(format!("{flag} applies only with --density-texture"));
                }
            }
            if radius.is_none() && n.is_none() {
                return Err("'surface' needs --radius (a maximal fill) or --n (exactly n \
                            points)"
                    .into());
            }
            Ok(())
        }
    }
}

/// The density texture as the library's density: the PNG's rows (top first) over the UV
/// square, mapped to `[rmin, rmax]`.
fn texture_density(path: &Path, run: &Settings) -> Result<SurfaceDensity, String> {
    let (Some(rmin), Some(rmax)) = (run.rmin, run.rmax) else {
        unreachable!("checked: --density-texture comes with --rmin and --rmax")
    };
    read_texture_density(path, run.mapping.unwrap_or_default(), rmin, rmax)
}

/// A density texture file (PNG, row 0 at v = 1) as a density over a mesh's UV square,
/// mapped to `[rmin, rmax]` by `mapping`. Errors name the file; a file that is not a `.png`
/// is refused by its name.
pub fn read_texture_density(
    path: &Path,
    mapping: DensityMapping,
    rmin: f64,
    rmax: f64,
) -> Result<SurfaceDensity, String> {
    // A texture is a picture, read through the mesh's UVs: an array has no such reading.
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if !extension.eq_ignore_ascii_case("png") {
        return Err(format!(
            "{}: a density texture on a mesh is a .png, read through the mesh's UVs (an \
             array or other file has no such reading)",
            path.display()
        ));
    }
    let raster = read_png(path).map_err(|e| e.to_string())?;
    SurfaceDensity::texture(raster.width, raster.height, raster.values, mapping, rmin, rmax)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// A fill's build error in the command line's words.
fn fill_message(error: Error, name: &str, mesh: &SurfaceMesh) -> String {
    match error {
        Error::TooManyPoints { radius, estimated_points, limit, .. } => format!(
            "--radius {} on {name} (area {}) could place about {estimated_points:.3e} points, \
             over the limit of {limit}; use a larger radius or raise --max-points",
            Short::of(&radius),
            Short::of(&mesh.area())
        ),
        Error::Unsupported { .. } => {
            format!("{name} has no texture coordinates (UVs), which --density-texture reads")
        }
        other => format!("{name}: {other}"),
    }
}
