//! The samplers, one file per algorithm.

pub mod best_candidate;
pub mod bridson;
pub mod dart_throwing;
pub mod halton;
pub mod jittered_grid;
pub mod maximal;
pub mod sample_elimination;
pub mod white_noise;

pub use best_candidate::BestCandidate;
pub use bridson::{Bridson, BridsonBuilder, BridsonFill, CandidateDistance, FillStep};
pub use dart_throwing::{DartThrowing, DartThrowingBuilder};
pub use halton::Halton;
pub use jittered_grid::JitteredGrid;
pub use maximal::{Maximal, MaximalBuilder};
pub use sample_elimination::SampleElimination;
pub use white_noise::WhiteNoise;
