//! The samplers, one file per algorithm.

pub mod best_candidate;
pub mod bridson;
pub mod dart_throwing;
pub mod fpo;
pub mod gaussian_blue_noise;
pub mod halton;
pub mod jittered_grid;
pub mod lloyd;
pub mod maximal;
pub mod pmj02;
pub mod sample_elimination;
mod sequence;
pub mod sobol;
mod sobol_directions;
pub mod white_noise;

pub use best_candidate::{BestCandidate, BestCandidateBuilder, BestCandidateOptions};
pub use bridson::{
    Bridson, BridsonBuilder, BridsonFill, BridsonOptions, CandidateDistance, FillStep, FrontOrder,
};
pub use dart_throwing::{DartThrowing, DartThrowingBuilder, DartThrowingOptions};
pub use fpo::{Fpo, FpoBuilder, FpoMove, FpoOptimizer, FpoOptions};
pub use gaussian_blue_noise::{
    GaussianBlueNoise, GaussianBlueNoiseBuilder, GaussianBlueNoiseOptions,
};
pub use halton::{Halton, HaltonBuilder, HaltonOptions};
pub use jittered_grid::{JitteredGrid, JitteredGridBuilder, JitteredGridOptions};
pub use lloyd::{Lloyd, LloydBuilder, LloydOptions, VoronoiCell};
pub use maximal::{Maximal, MaximalBuilder, MaximalOptions};
pub use pmj02::{Pmj02, Pmj02Builder, Pmj02Options};
pub use sample_elimination::{
    SampleElimination, SampleEliminationBuilder, SampleEliminationOptions,
};
pub use sobol::{Sobol, SobolBuilder, SobolOptions};
pub use white_noise::{WhiteNoise, WhiteNoiseBuilder, WhiteNoiseOptions};
