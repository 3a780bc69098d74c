//! `experiments sample <SAMPLER> [its flags] [--dim D --radius R --n N --box ... --out FILE]`:
//! one point set, written to a file.

use crate::domains::{self, BoxArgs};
use crate::io::{self, PointData, PointFormat};
use crate::spec::{BuildError, SamplerSpec};
use crate::with_dim;
use poisson_nd::Error;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `experiments sample`: the sampler with its own flags, then the flags every
/// sampler takes (accepted before or after the sampler's name).
#[derive(clap::Args, Debug, Clone)]
#[command(subcommand_value_name = "SAMPLER", subcommand_help_heading = "Samplers")]
#[command(disable_help_subcommand = true)]
pub struct SampleArgs {
    /// The sampler and its parameters.
    #[command(subcommand)]
    pub sampler: SamplerSpec,
    /// What every sampler takes.
    #[command(flatten)]
    pub run: RunArgs,
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
    /// The most points one run may produce (default: the library's limit, 10^8).
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
}

/// Runs `experiments sample`. Errors are one line; nothing is written on an error.
pub fn run(args: &SampleArgs) -> Result<(), String> {
    with_dim!(args.run.dim, D => sample_in::<D>(args), else Err(domains::dim_error(args.run.dim)))
}

fn sample_in<const D: usize>(args: &SampleArgs) -> Result<(), String> {
    let (spec, run) = (&args.sampler, &args.run);
    let name = spec.name();
    let n = match (spec.is_radius_driven(), run.radius, run.n) {
        (false, Some(_), _) => {
            return Err(format!(
                "--radius does not apply to '{name}', a count-driven sampler (give --n)"
            ));
        }
        (true, None, _) => return Err(format!("'{name}' needs --radius")),
        (false, None, None) => return Err(format!("'{name}' needs --n")),
        (_, _, n) => n,
    };
    // The format is settled before sampling, so that a bad name costs nothing.
    let format = match (&run.out, run.format) {
        (_, Some(format)) => Some(format),
        (Some(path), None) => Some(PointFormat::from_path(path)?),
        (None, None) => None,
    };
    let domain = run.domain.domain::<D>()?;
    let sampler = spec.build(domain, run.radius, run.max_points).map_err(cli_message)?;
    let start = Instant::now();
    let set = sampler.run(n, run.seed);
    let seconds = start.elapsed().as_secs_f64();
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

/// A build error in the command line's words: flags rather than keys or Rust methods.
fn cli_message(error: BuildError) -> String {
    match error {
        BuildError::Param(e) => format!("--{} {}", e.key.replace('_', "-"), e.message),
        BuildError::Invalid(Error::TooManyPoints {
            radius,
            estimated_points,
            estimated_bytes,
            limit,
        }) => format!(
            "--radius {radius} in this box could place about {estimated_points:.3e} points \
             ({estimated_bytes:.3e} bytes), over the limit of {limit} points; use a larger \
             --radius, a smaller --box, or raise --max-points"
        ),
        other => other.to_string(),
    }
}
