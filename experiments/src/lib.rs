//! The experiments crate of poisson-nd: the command-line tool, the metrics
//! ([`metrics`], defined in `docs/metrics.md`), and (as they arrive) plots and the comparison
//! report.

pub mod analyze;
pub mod dims;
pub mod metrics;
pub mod points_csv;
pub mod registry;
