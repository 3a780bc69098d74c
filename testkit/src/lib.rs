//! Test helpers shared by the integration tests of `poisson-nd` (`tests/it/`) and
//! `experiments` (`experiments/tests/it/`): brute-force oracles, test domains, a runner for
//! command-line binaries and a reader for CSV point files.
//!
//! Dev only (`publish = false`); used from integration tests, never from unit tests inside a
//! crate's `src/` (those compile their own copy of the crate, whose types differ from the ones
//! this crate links).
#![deny(missing_docs)]

pub mod cli;
pub mod csv;
pub mod domains;
pub mod layers;
pub mod oracle;
