//! The experiments crate of poisson-nd: the command-line tool, the comparison report with its
//! configuration and figures, and (as they arrive) the metrics.

pub mod config;
pub mod dims;
pub mod fit;
pub mod plot;
pub mod points_csv;
pub mod registry;
pub mod report;
