//! The experiments crate of poisson-nd: the command-line tool, the metrics ([`metrics`],
//! defined in `docs/metrics.md`), and the comparison report with its configuration and figures.

pub mod analyze;
pub mod catalogue;
pub mod choices;
pub mod config;
pub mod dims;
pub mod domains;
pub mod fit;
pub mod format;
pub mod inputs;
pub mod inspect;
pub mod io;
pub mod metrics;
pub mod plot;
pub mod progress;
pub mod report;
pub mod sample;
pub mod scatter;
pub mod shapes;
pub mod spec;
pub mod surface;
pub mod world;
