//! The samplers, one file per algorithm.

pub mod bridson;
pub mod white_noise;

pub use bridson::Bridson;
pub use white_noise::WhiteNoise;
