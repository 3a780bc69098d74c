//! `experiments`: sample point sets from the command line and compare samplers.
//!
//! Without a subcommand it runs the default comparison report (`report`).

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Parser, Subcommand};
use experiments::catalogue;
use experiments::report::{self, ReportArgs};
use experiments::sample::{self, SampleArgs};
use std::process::ExitCode;

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
    /// Sample one point set and write it to a file.
    Sample(SampleArgs),
    /// Measure a point set read from a file: every metric, as a table or JSON.
    Analyze(experiments::analyze::AnalyzeArgs),
    /// Read an input file (picture, array, polygons, mesh) as the samplers will, and say
    /// what it holds.
    Inspect(experiments::inspect::InspectArgs),
    /// Scatter classes of objects on a terrain from a scene file: instances as JSON and
    /// glTF, and a preview picture.
    Scatter(experiments::scatter::ScatterArgs),
    /// Write chunks of a deterministic chunked world as CSV: a list of chunks or a block of
    /// them, each chunk's points the same whatever else is asked, in whatever run.
    World(experiments::world::WorldArgs),
    /// Compare the samplers and write the report (the default without a subcommand).
    Report(ReportArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version go to stdout as usual; a usage error becomes one line.
        Err(e) if !e.use_stderr() => e.exit(),
        Err(e) => {
            eprintln!("{}", usage_error(&e));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Some(Command::Sample(args)) => sample::run(&args),
        Some(Command::Analyze(args)) => experiments::analyze::run(&args),
        Some(Command::Inspect(args)) => experiments::inspect::run(&args),
        Some(Command::Scatter(args)) => experiments::scatter::run(&args),
        Some(Command::World(args)) => experiments::world::run(&args),
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

/// A usage error as one line. Under `sample`, another sampler's flag and a sampler that does
/// not exist are said in the samplers' terms.
fn usage_error(error: &clap::Error) -> String {
    let args: Vec<String> = std::env::args().collect();
    let sampler = args.iter().skip_while(|a| *a != "sample").nth(1).map(String::as_str);
    let context = |kind: ContextKind| match error.get(kind) {
        Some(ContextValue::String(text)) => Some(text.clone()),
        _ => None,
    };
    if args.iter().any(|a| a == "sample") {
        match (error.kind(), sampler.and_then(catalogue::entry)) {
            (ErrorKind::UnknownArgument, Some(entry)) => {
                // A flag of another sampler (or a retired one); a flag no sampler has stays clap's
                // message.
                let of_a_sampler = |flag: &str| {
                    let key = flag.trim_start_matches('-').replace('-', "_");
                    catalogue::retired_key(&key).is_some()
                        || catalogue::catalogue().iter().any(|e| e.takes(&key))
                };
                if let Some(flag) =
                    context(ContextKind::InvalidArg).filter(|flag| of_a_sampler(flag))
                {
                    return format!(
                        "error: {flag} does not apply to '{}' (its own flags: {})",
                        entry.name,
                        entry.flags()
                    );
                }
            }
            (ErrorKind::InvalidSubcommand, _) => {
                if let Some(name) = context(ContextKind::InvalidSubcommand) {
                    return format!(
                        "error: unknown sampler '{name}' (known: {})",
                        catalogue::names().join(", ")
                    );
                }
            }
            _ => {}
        }
    }
    let rendered = error.render().to_string();
    let first = rendered.lines().next().unwrap_or("error: bad arguments");
    // clap lists missing arguments on the lines after its first; keep them on the one line.
    if error.kind() == ErrorKind::MissingRequiredArgument
        && let Some(ContextValue::Strings(missing)) = error.get(ContextKind::InvalidArg)
    {
        return format!("{first} {}", missing.join(", "));
    }
    first.to_string()
}
