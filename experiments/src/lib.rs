//! The experiments crate of poisson-nd: the command-line tool, and (as they arrive) the
//! metrics, plots and the comparison report.

pub mod dims;
pub mod points_csv;
pub mod registry;
