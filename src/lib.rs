//! # poisson-nd
//!
//! Poisson-disk (blue-noise) and comparison point samplers in any dimension `D`, behind one
//! [`Sampler`] trait, deterministic under a seed.
//!
//! ```
//! use poisson_nd::{Bridson, Domain, FillSampler};
//!
//! // A 3D box with a negative origin, points at least 0.1 apart.
//! let domain = Domain::from_origin_and_extent([-1.0, -1.0, 0.0], [2.0, 2.0, 0.5])?;
//! let set = Bridson::new(domain, 0.1)?.fill_seeded(42);
//! assert!(set.points.iter().all(|p| domain.contains(p)));
//! # Ok::<(), poisson_nd::Error>(())
//! ```
//!
//! - Poisson-disk samplers (a minimum distance is guaranteed): [`Bridson`], [`DartThrowing`]
//!   (naive or grid-accelerated), [`Maximal`] (saturated: not one more point fits). They
//!   fill the domain by themselves ([`FillSampler`]);
//!   [`BridsonFill`] is a Bridson run that can start from given points, go step by step and
//!   be resumed.
//! - Count-driven samplers (no minimum distance): [`SampleElimination`] (exactly N
//!   well-spread points), [`BestCandidate`], [`JitteredGrid`], [`WhiteNoise`], and the
//!   low-discrepancy sequences [`Halton`] (plain or randomized), [`Sobol`] (plain or
//!   Owen-scrambled, up to 1024 dimensions) and [`Pmj02`] (progressive multi-jittered (0,2)).
//! - Reproducibility: [`Sampler::sample_seeded`] uses [`rng::PortableRng`]; the same seed,
//!   configuration and version give bit-identical points on every platform.
//! - Errors: every constructor (or builder's `build`) validates its input and returns
//!   [`Error`]; sampling never panics and reports why it stopped in [`PointSet::stop`].
//! - Defaults live in [`defaults`]; grid tuning that changes speed but never points in
//!   [`Tuning`].
//! - Variable radius: a [`RadiusField`] (constant, closure, gridded, density map or image)
//!   with a [`PairRule`] gives each point its own radius in [`Bridson`] and [`DartThrowing`]
//!   (see [`field`]).
//! - The box is the metric space ([`Domain`]: distances, wrapping); where points may go is a
//!   [`Region`]: the whole box by default, or a ball, a box, a signed-distance closure,
//!   polygons (feature `geo`), an image mask, voxels, a closed triangle mesh, or their union,
//!   intersection and difference ([`region`]). Every sampler takes one with `with_region`;
//!   radius-driven samplers fill every piece of it, count-driven ones return exactly n points
//!   inside it.
//! - Live sets: [`PoissonSet`] keeps its grid and active front between calls — insert,
//!   remove, fill an area (a hole, a newly loaded piece) without moving existing points,
//!   nearest and range queries, stable ids; saved and loaded with the `serde` feature
//!   ([`live`]).
//! - Deterministic chunked worlds ([`chunked`]): the points of any chunk as a pure function of
//!   the seed and the chunk, in any order, joined without a close pair; and
//!   [`ChunkedBridson`], Bridson on all cores with the same points on every thread count.
//! - World scatter ([`scatter`]): several classes (trees, shrubs, rocks) on a heightmap, every
//!   distance within and across classes guaranteed, lifted onto the terrain as instances
//!   (position, rotation quaternion, scale).
#![deny(missing_docs)]
// User input reaches the library's code paths: no unwrap, expect or panic there.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

// The README's examples reach the world scatter: tested where that feature is on (the test
// command turns every feature on).
#[cfg(all(doctest, feature = "scatter"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod choice;
#[cfg(feature = "chunked")]
pub mod chunked;
pub mod config;
pub mod defaults;
pub mod domain;
pub(crate) mod engine;
pub mod error;
pub mod field;
pub(crate) mod geometry;
pub mod grid;
pub mod limits;
#[cfg(feature = "live")]
pub mod live;
pub mod packing;
pub mod point;
pub mod region;
pub mod rng;
pub mod sampler;
mod samplers;
#[cfg(feature = "scatter")]
pub mod scatter;
pub(crate) mod scratch;
pub mod surface;

pub use choice::Choice;
#[cfg(feature = "chunked")]
pub use chunked::{ChunkedBridson, ChunkedBridsonBuilder};
pub use config::{Builder, Capabilities, Config};
pub use domain::Domain;
pub use error::Error;
pub use field::{
    ConstantField, DensityField, DensityMapping, FnField, GriddedField, PairRule, RadiusField,
};
pub use grid::{GridResolution, Tuning};
#[cfg(feature = "live")]
pub use live::{PointId, PoissonSet, PoissonSetBuilder};
pub use point::Point;
pub use region::Region;
pub use sampler::{DynSampler, FillSampler, PointSet, Progress, Sampler, StopReason, Watch};
pub use samplers::{
    BestCandidate, BestCandidateBuilder, BestCandidateOptions, Bridson, BridsonBuilder,
    BridsonFill, BridsonOptions, CandidateDistance, DartThrowing, DartThrowingBuilder,
    DartThrowingOptions, FillStep, Fpo, FpoBuilder, FpoMove, FpoOptimizer, FpoOptions, FrontOrder,
    GaussianBlueNoise, GaussianBlueNoiseBuilder, GaussianBlueNoiseOptions, Halton, HaltonBuilder,
    HaltonOptions, JitteredGrid, JitteredGridBuilder, JitteredGridOptions, Lloyd, LloydBuilder,
    LloydOptions, Maximal, MaximalBuilder, MaximalOptions, Pmj02, Pmj02Builder, Pmj02Options,
    SampleElimination, SampleEliminationBuilder, SampleEliminationOptions, Sobol, SobolBuilder,
    SobolOptions, VoronoiCell, WhiteNoise, WhiteNoiseBuilder, WhiteNoiseOptions,
};
