//! Every default value of the library, in one place. Each sampler's documentation says which
//! of these it uses and which builder or `with_` method changes it.
//!
//! Two defaults are values of library types and live beside them: the rule that gives a
//! pair of points with different radii its distance is [`PairRule::Max`](crate::field::PairRule::Max) (its `Default`,
//! the rule under which every pair is at least as far apart as either point's own radius),
//! and a chunked run's chunk side depends on the dimension (`default_chunk_side` in the `chunked` module).

/// The safety limit on the number of points one run may produce (100 million).
pub const MAX_POINTS: usize = 100_000_000;

/// Bridson's attempts per active point, `k` = 30 (Bridson 2007).
pub const ATTEMPTS: u32 = 30;

/// Darts a Bridson run with a radius field throws when no point is active, before it ends
/// (see `BridsonBuilder::with_restart_darts`): a region the front cannot reach (behind a
/// step of the field) that covers a fraction `f` of the box is found with probability
/// `1 − (1 − f)^100`, above 95 % for `f ≥ 3 %`.
pub const RESTART_DARTS: u32 = 100;

/// Consecutive rejected darts after which dart throwing gives up.
///
/// When a run stops this way, the darts that still could have landed (the uncovered part of
/// the domain) are likely a small fraction of it: if that fraction were `f`, `m` misses in a
/// row would happen with probability `(1 − f)^m`, below 5 % for `f ≥ 3/m`. With the default
/// the uncovered fraction is below 0.03 % at 95 % confidence.
pub const MAX_MISSES: u64 = 10_000;

/// Best candidate's candidates per point, `m` = 10 (Mitchell 1991).
pub const CANDIDATES: u32 = 10;

/// Farthest-point optimisation's iterations (each moves every point once): 100, where 4096
/// white-noise points in a periodic square reach a relative radius δX of about 0.91 (0.913
/// and 0.909 for seeds 1 and 2; 0.898 on average after 60, 0.905–0.909 after 80), in about
/// 1.4 s on one core.
pub const FPO_ITERATIONS: u32 = 100;

/// Lloyd relaxation's iterations (each moves every point to its cell's centroid): 50.
pub const LLOYD_ITERATIONS: u32 = 50;

/// Gaussian blue noise's σ, in units of the mean spacing `(V/N)^(1/D)`: 0.85 (measured best;
/// see [`GaussianBlueNoise`](crate::GaussianBlueNoise)).
pub const GAUSSIAN_BLUE_NOISE_SIGMA: f64 = 0.85;

/// Gaussian blue noise's iterations: 300.
pub const GAUSSIAN_BLUE_NOISE_ITERATIONS: u32 = 300;

/// Sample elimination's candidates per output point, M / N = 5 (Yuksel 2015).
pub const ELIMINATION_RATIO: f64 = 5.0;

/// The number of decided cells a chunked `World` keeps by default (a few megabytes of
/// points in 2D; evicted cells are decided again, to the same points, when asked for).
pub const WORLD_CACHE_CELLS: usize = 4096;

/// The memory a dense background grid may take before its cells go to a hash map whose size
/// follows the number of points (256 MiB). A tuning knob: see `Tuning`.
pub const DENSE_GRID_LIMIT: usize = 256 << 20;
