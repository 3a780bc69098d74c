//! `experiments`: sample point sets from the command line and compare samplers.
//!
//! Without a subcommand it runs the default comparison report (`report`).

use clap::{Args, Parser, Subcommand};
use experiments::registry::{self, SamplerParams};
use experiments::report::{self, ReportArgs};
use experiments::{points_csv, with_dim};
use poisson_nd::{Domain, Sampler};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser, Debug)]
#[command(
    name = "experiments",
    version,
    about = "Point samplers in any dimension: sample and compare"
)]
#[command(args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Without a subcommand: the report's options.
    #[command(flatten)]
    report: ReportArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Sample one point set and write it as CSV.
    Sample(SampleArgs),
    /// Measure a point set read from a CSV file: every metric, as a table or JSON.
    Analyze(experiments::analyze::AnalyzeArgs),
    /// Compare the samplers and write the report (the default without a subcommand).
    Report(ReportArgs),
}

#[derive(Args, Debug)]
struct SampleArgs {
    /// The sampler: bridson, dart-throwing, dart-throwing-grid, best-candidate, halton,
    /// halton-randomized, jittered-grid, white-noise.
    sampler: String,
    /// Dimension, 1 to 8.
    #[arg(long, default_value_t = 2)]
    dim: usize,
    /// Poisson-disk radius (radius-driven samplers).
    #[arg(long, allow_hyphen_values = true)]
    radius: Option<f64>,
    /// Number of points: a cap for radius-driven samplers, the count for the others.
    #[arg(long)]
    n: Option<usize>,
    /// Box side lengths, comma separated (default: 1 on every axis).
    #[arg(long = "box", value_delimiter = ',', allow_hyphen_values = true)]
    extent: Option<Vec<f64>>,
    /// Box origin, comma separated (default: 0 on every axis).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    origin: Option<Vec<f64>>,
    /// Periodic (toroidal) box.
    #[arg(long)]
    periodic: bool,
    /// Seed of the portable generator.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Attempts per active point (Bridson's k).
    #[arg(long)]
    k: Option<u32>,
    /// Dart throwing: rejections in a row that end the run (default 10000).
    #[arg(long)]
    max_misses: Option<u64>,
    /// Best candidate: candidates per point, m (default 10).
    #[arg(long)]
    candidates: Option<u32>,
    /// Best candidate: m·i candidates for the i-th point (Mitchell 1991) instead of m.
    #[arg(long)]
    growing_candidates: bool,
    /// Halton: skip this many indices at the start (the first point has index 1 + skip).
    #[arg(long)]
    skip: Option<u64>,
    /// Halton: scramble with random digit permutations drawn from the seed.
    #[arg(long)]
    randomize: bool,
    /// Output CSV file, "-" for standard output; nothing is written without it.
    #[arg(long)]
    out: Option<PathBuf>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version go to stdout as usual; a usage error becomes one line.
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            let rendered = e.render().to_string();
            eprintln!("{}", rendered.lines().next().unwrap_or("error: bad arguments"));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Some(Command::Sample(args)) => sample(&args),
        Some(Command::Analyze(args)) => experiments::analyze::run(&args),
        Some(Command::Report(args)) => report::run(&args),
        None => report::run(&cli.report),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn sample(args: &SampleArgs) -> Result<(), String> {
    with_dim!(args.dim, D => sample_in::<D>(args),
        else Err(format!("--dim must be between 1 and {}, got {}", experiments::dims::MAX_DIM, args.dim)))
}

fn sample_in<const D: usize>(args: &SampleArgs) -> Result<(), String> {
    let origin = args.origin.clone().unwrap_or_else(|| vec![0.0; D]);
    let extent = args.extent.clone().unwrap_or_else(|| vec![1.0; D]);
    let mut domain =
        Domain::<D>::from_origin_and_extent_slices(&origin, &extent).map_err(|e| e.to_string())?;
    if args.periodic {
        domain = domain.periodic();
    }
    let params = SamplerParams {
        radius: args.radius,
        attempts: args.k,
        max_misses: args.max_misses,
        candidates: args.candidates,
        growing_candidates: args.growing_candidates,
        skip: args.skip,
        randomize: args.randomize,
    };
    let sampler =
        registry::build::<D>(&args.sampler, domain, &params).map_err(|e| e.to_string())?;
    let n = match (args.n, sampler.min_distance()) {
        (Some(n), _) => n,
        (None, Some(_)) => usize::MAX,
        (None, None) => return Err(format!("sampler '{}' needs --n", args.sampler)),
    };
    let start = Instant::now();
    let set = sampler.sample_seeded(n, args.seed);
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "{} D={} points={} time={:.3}s stop={} attempts={}",
        sampler.label(),
        D,
        set.len(),
        seconds,
        set.stop,
        set.attempts
    );
    if let Some(path) = &args.out {
        points_csv::write_points_to(path, &set.points)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}
