//! The integration tests of `experiments`, as one test binary (one link instead of one per
//! file). Each module checks one behaviour; the shared brute-force oracles, test domains, the
//! command-line runner and the CSV point reader are in the dev-only `testkit` crate.

use std::process::Output;
use testkit::cli::Outcome;

mod analyze_cli;
mod catalogue;
mod conformance;
mod density_region_cli;
mod formats_cli;
mod front_order_quality;
mod fuzz;
mod input_readers;
mod metrics_exact;
mod metrics_lattices;
mod metrics_white_noise;
mod module_layers;
mod pictures;
mod point_formats;
mod point_io_round_trip;
mod reference;
mod report_end_to_end;
mod sample_chunked_cli;
mod sample_cli;
mod scatter_cli;
mod scatter_quality;
mod spatial_stats_cli;
mod spatial_stats_spatstat;
mod spatial_stats_theory;
mod surface_cli;
mod surface_readers;
mod varying_radius_search;
mod world_cli;

/// The `experiments` binary that this crate builds (the variable exists only in its tests).
const EXE: &str = env!("CARGO_BIN_EXE_experiments");

/// Runs the `experiments` binary with `args`, as a user would.
fn experiments(args: &[&str]) -> Output {
    testkit::cli::run(EXE, args)
}

/// Runs the `experiments` binary with `args`; its exit code and output as text.
fn experiments_text(args: &[&str]) -> Outcome {
    testkit::cli::run_text(EXE, args)
}
