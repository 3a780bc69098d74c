//! The samplers, one file per algorithm; each type is public at the crate's root.

pub(crate) mod best_candidate;
pub(crate) mod bridson;
pub(crate) mod dart_throwing;
pub(crate) mod fpo;
pub(crate) mod gaussian_blue_noise;
pub(crate) mod halton;
pub(crate) mod jittered_grid;
pub(crate) mod lloyd;
pub(crate) mod maximal;
pub(crate) mod pmj02;
pub(crate) mod sample_elimination;
mod sequence;
pub(crate) mod sobol;
mod sobol_directions;
pub(crate) mod white_noise;

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
