//! `experiments sample <SAMPLER> [its flags] [--dim D --radius R --n N --box ... --out FILE]`:
//! one point set, written to a file.

use crate::dims::Dim;
use crate::domains::{self, BoxArgs};
use crate::io::{self, PointData, PointFormat};
use crate::shapes::{self, Setup};
use crate::spec::{BuildError, BuildIn, SamplerSpec};
use crate::with_dim;
use poisson_nd::chunked::min_chunk_side;
use poisson_nd::error::Short;
use poisson_nd::field::{DensityMapping, PairRule, RadiusField};
use poisson_nd::{Error, StopReason};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Arguments of `experiments sample`: the sampler with its own flags, then the flags every
/// sampler takes (accepted before or after the sampler's name).
#[derive(clap::Args, Debug, Clone)]
#[command(subcommand_value_name = "SAMPLER", subcommand_help_heading = "Samplers")]
#[command(disable_help_subcommand = true)]
pub struct SampleArgs {
    /// The sampler and its parameters.
    #[command(subcommand)]
    pub sampler: SampleKind,
    /// What every sampler takes.
    #[command(flatten)]
    pub run: RunArgs,
}

/// What `sample` samples: a box (or a region in it) with one of the samplers, or the
/// surface of a mesh.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum SampleKind {
    /// Points on the surface of a triangle mesh: a maximal fill at --radius, or exactly --n
    /// points; each with its face, barycentric coordinates and normal.
    Surface(crate::surface::SurfaceArgs),
    /// A sampler of the box.
    #[command(flatten)]
    Box(SamplerSpec),
}

/// The flags of `sample` shared by every sampler.
#[derive(clap::Args, Debug, Clone)]
pub struct RunArgs {
    /// Dimension, 1 to 8.
    #[arg(long, default_value_t = 2, global = true)]
    pub dim: usize,
    /// Poisson-disk radius (radius-driven samplers only, and required by them).
    #[arg(long, allow_hyphen_values = true, global = true)]
    pub radius: Option<f64>,
    /// Number of points: a cap for radius-driven samplers, the count for the others.
    #[arg(long, global = true)]
    pub n: Option<usize>,
    /// The most points one run may produce (default: the library's limit, 10^8); a
    /// count-driven sampler's --n above it is refused.
    #[arg(long, global = true)]
    pub max_points: Option<usize>,
    /// The box.
    #[command(flatten)]
    pub domain: BoxArgs,
    /// Seed of the portable generator.
    #[arg(long, default_value_t = 0, global = true)]
    pub seed: u64,
    /// Output file ("-" for standard output); its format comes from the extension unless
    /// --format is given. Nothing is written without it.
    // Its own id: the report's `--out` (with a default) must not leak into it.
    #[arg(long = "out", id = "points_out", global = true)]
    pub out: Option<PathBuf>,
    /// The output format (default: from the extension of --out).
    #[arg(long, value_enum, global = true)]
    pub format: Option<PointFormat>,
    /// A density map in [0, 1] that varies the radius between --rmin and --rmax: a .png
    /// (over the box's first two axes, row 0 at the top) or a .npy array of D axes (axis k
    /// along box axis k). Taken by bridson, dart-throwing and dart-throwing-grid; the
    /// output gets a `radius` column.
    #[arg(long, global = true)]
    pub density: Option<PathBuf>,
    /// The radius where the density is 1 (with --density).
    #[arg(long, allow_hyphen_values = true, global = true)]
    pub rmin: Option<f64>,
    /// The radius where the density is 0 (with --density).
    #[arg(long, allow_hyphen_values = true, global = true)]
    pub rmax: Option<f64>,
    /// How a density becomes a radius (with --density; default lerp): linear from rmax at 0
    /// to rmin at 1, or inverse, rmin·density^(-1/D) clamped, so that points per volume
    /// follow the density.
    #[arg(long, global = true, value_parser = crate::choices::parser::<DensityMapping>())]
    pub mapping: Option<DensityMapping>,
    /// The distance a pair keeps with --density (default max): max(r_i, r_j), min(r_i, r_j)
    /// or their mean.
    #[arg(long, global = true, value_parser = crate::choices::parser::<PairRule>())]
    pub radius_rule: Option<PairRule>,
    /// Sample only inside this region: .geojson/.json polygons (D = 2, world units), a .png
    /// mask over the box (D = 2), a closed .obj or .stl mesh (D = 3), or a .npy voxel mask
    /// gridded over the box (any D). Without --box the box is the region's bounding box
    /// (the default box for masks). Every sampler but chunked-bridson takes it; the box must
    /// be closed.
    #[arg(long, global = true)]
    pub region: Option<PathBuf>,
}

/// Runs `experiments sample`. Errors are one line; nothing is written on an error.
pub fn run(args: &SampleArgs) -> Result<(), String> {
    match &args.sampler {
        SampleKind::Surface(surface) => crate::surface::run(surface, &surface_settings(&args.run)?),
        SampleKind::Box(spec) => with_dim!(
            args.run.dim,
            D => sample_in::<D>(spec, &args.run),
            else Err(domains::dim_error(args.run.dim))
        ),
    }
}

/// The flags of `sample` a surface takes; the box's flags are refused.
fn surface_settings(run: &RunArgs) -> Result<crate::surface::Settings, String> {
    let box_flags = [
        (run.domain.extent.is_some(), "--box"),
        (run.domain.origin.is_some(), "--origin"),
        (run.domain.periodic, "--periodic"),
        (run.region.is_some(), "--region"),
        (run.density.is_some(), "--density (a surface takes --density-texture)"),
    ];
    if let Some((_, flag)) = box_flags.iter().find(|(given, _)| *given) {
        return Err(format!("{flag} does not apply to 'surface': the mesh is the domain"));
    }
    if run.dim != 2 && run.dim != 3 {
        return Err(format!("--dim {} does not apply to 'surface': its points are 3D", run.dim));
    }
    Ok(crate::surface::Settings {
        radius: run.radius,
        n: run.n,
        max_points: run.max_points,
        seed: run.seed,
        out: run.out.clone(),
        format: run.format,
        rmin: run.rmin,
        rmax: run.rmax,
        mapping: run.mapping,
        radius_rule: run.radius_rule,
    })
}

fn sample_in<const D: usize>(spec: &SamplerSpec, run: &RunArgs) -> Result<(), String>
where
    Dim<D>: BuildIn<D>,
{
    let name = spec.name();
    check_density_flags(spec, run)?;
    let n = match (spec.is_radius_driven(), run.radius, run.n) {
        (false, Some(_), _) => {
            return Err(format!(
                "--radius does not apply to '{name}', a count-driven sampler (give --n)"
            ));
        }
        (true, None, _) if run.density.is_none() => return Err(format!("'{name}' needs --radius")),
        (false, None, None) => return Err(format!("'{name}' needs --n")),
        (_, _, n) => n,
    };
    // A count-driven sampler promises exactly n points: a limit below n (or below the
    // candidates drawn for them) would cut the set.
    let limit = run.max_points.unwrap_or(poisson_nd::defaults::MAX_POINTS);
    if let Some((n, over)) = n.and_then(|n| Some((n, spec.over_limit(n, limit)?))) {
        return Err(over.message(name, n, limit));
    }
    // Refused before the region's file is read.
    if run.region.is_some() && !spec.takes_region() {
        return Err(BuildError::RegionNotTaken(name, crate::spec::takers(|c| c.region)).to_string());
    }
    if run.region.is_some() && run.domain.periodic {
        return Err("--periodic does not apply with --region: a region needs a closed box".into());
    }
    // The format is settled before sampling, so that a bad name costs nothing.
    let format = match (&run.out, run.format) {
        (_, Some(format)) => Some(format),
        (Some(path), None) => Some(PointFormat::from_path(path)?),
        (None, None) => None,
    };
    // A varying radius needs a format with a radius column: refused before sampling.
    if let (Some(density), Some(PointFormat::Npy)) = (&run.density, format) {
        return Err(format!(
            "an .npy file holds the points only, not the radius --density {} gives each \
             point; write .npz (or .csv, .ply, .json) to keep it",
            density.display()
        ));
    }
    let given_box = match (&run.domain.extent, &run.domain.origin) {
        (None, None) => None,
        _ => Some(run.domain.domain::<D>()?),
    };
    let mut setup = Setup::<D>::default();
    let domain = match &run.region {
        Some(path) => {
            let input = shapes::region::<D>(path, given_box.as_ref())?;
            setup.region = Some(input.region);
            input.domain
        }
        None => run.domain.domain::<D>()?,
    };
    if let (Some(path), Some(rmin), Some(rmax)) = (&run.density, run.rmin, run.rmax) {
        let mapping = run.mapping.unwrap_or_default();
        let field = shapes::density_field::<D>(path, &domain, rmin, rmax, mapping)?;
        let field: Arc<dyn RadiusField<D>> = Arc::new(field);
        setup.field = Some((field, run.radius_rule.unwrap_or_default()));
    }
    let bar = crate::progress::spinner(name);
    setup.progress = Some(Arc::new(crate::progress::hook(&bar)));
    let sampler = spec
        .build_with(domain, run.radius, run.max_points, &setup)
        .map_err(|e| cli_message(e, run, D))?;
    let start = Instant::now();
    let set = sampler.run(n, run.seed);
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    if set.stop == StopReason::InvalidField {
        let why =
            set.field_error.as_ref().map_or("an invalid radius".to_string(), |e| e.to_string());
        let map = run.density.as_deref().map_or(String::new(), |p| format!("{}: ", p.display()));
        return Err(format!("{map}the density field stopped the run: {why}; nothing written"));
    }
    eprintln!(
        "{name} D={D} points={} time={seconds:.3}s stop={} attempts={}",
        set.len(),
        set.stop,
        set.attempts
    );
    if let (Some(path), Some(format)) = (&run.out, format) {
        io::write_points(path, format, &PointData::from_point_set(set))?;
    }
    Ok(())
}

/// The density flags go together: --density with --rmin and --rmax (and not --radius),
/// 0 < rmin ≤ rmax, and a sampler that takes a radius field.
fn check_density_flags(spec: &SamplerSpec, run: &RunArgs) -> Result<(), String> {
    let Some(path) = &run.density else {
        for (given, flag) in [
            (run.rmin.is_some(), "--rmin"),
            (run.rmax.is_some(), "--rmax"),
            (run.mapping.is_some(), "--mapping"),
            (run.radius_rule.is_some(), "--radius-rule"),
        ] {
            if given {
                return Err(format!("{flag} applies only with --density"));
            }
        }
        return Ok(());
    };
    if !spec.takes_radius_field() {
        return Err(format!(
            "--density does not apply to '{}' (the samplers that take it: bridson, \
             dart-throwing, dart-throwing-grid)",
            spec.name()
        ));
    }
    if run.radius.is_some() {
        return Err(format!(
            "--radius does not apply with --density {}: the radius comes from the map \
             (give --rmin and --rmax)",
            path.display()
        ));
    }
    let (Some(rmin), Some(rmax)) = (run.rmin, run.rmax) else {
        return Err(format!("--density {} needs --rmin and --rmax", path.display()));
    };
    shapes::check_radius_bounds(rmin, rmax)
}

/// A build error in the command line's words: flags rather than keys or Rust methods.
fn cli_message(error: BuildError, run: &RunArgs, dim: usize) -> String {
    let region = run.region.as_deref();
    // What the library says of a region is said of the region's file.
    if let (
        BuildError::Invalid(
            e @ (Error::RegionOutsideDomain { .. }
            | Error::EmptyRegion(_)
            | Error::UnsupportedRegion { .. }
            | Error::PeriodicRegion),
        ),
        Some(path),
    ) = (&error, region)
    {
        return format!("{}: {e}", path.display());
    }
    match error {
        BuildError::Param(e) => format!("--{} {}", e.key.replace('_', "-"), e.message),
        BuildError::Invalid(Error::TooManyPoints {
            radius,
            estimated_points,
            estimated_bytes,
            limit,
        }) => format!(
            "--radius {} in this box could place about {estimated_points:.3e} points \
             ({estimated_bytes:.3e} bytes), over the limit of {limit} points; use a larger \
             --radius, a smaller --box, or raise --max-points",
            Short::of(&radius)
        ),
        BuildError::Invalid(Error::ChunkSideTooSmall { side, radius, dim, min }) => format!(
            "--chunk-side {} is too small for --radius {} in {dim}D: it must be at least {} \
             (2 + √2·(D − 1) radii)",
            Short::of(&side),
            Short::of(&radius),
            Short::of(&min)
        ),
        // Only the radius and the box decide it: a side below half the box is rounded to
        // whole chunks, so --chunk-side cannot help.
        BuildError::Invalid(e @ Error::TorusNotTiled { axis, extent, .. }) => match run.radius {
            Some(radius) => format!(
                "--periodic needs two whole chunks along every axis, each at least {} long \
                 for --radius {} in {dim}D (2 + √2·(D − 1) radii), but axis {axis} is {} long; \
                 use a smaller --radius or a larger --box",
                Short::of(&min_chunk_side(dim, radius)),
                Short::of(&radius),
                Short::of(&extent)
            ),
            None => e.to_string(),
        },
        other => other.to_string(),
    }
}
