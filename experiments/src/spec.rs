//! The one specification of every sampler: its name, its parameters with their defaults and
//! checks, what kind of sampler it is, and how it is built and run.
//!
//! [`SamplerSpec`] has one variant per sampler, each carrying its own parameter struct. The
//! same type is
//!
//! - the command line's `experiments sample <SAMPLER> [its flags]` (a clap subcommand whose
//!   variants carry their flags),
//! - a `[[samplers]]` table of the report's TOML configuration (serde, tagged by `name`; a key
//!   the sampler does not take is an error naming it),
//! - what the report, the benchmarks and the conformance suite build and run
//!   ([`SamplerSpec::build`], [`Built::run`]) and ask about ([`SamplerSpec::is_radius_driven`],
//!   [`SamplerSpec::count_note`], [`SamplerSpec::seed_note`], [`SamplerSpec::twin`]).
//!
//! Adding a sampler: its file in the library, one variant here (with its parameter struct,
//! or [`NoParams`]), the arms the compiler then asks for in this file, and its tests.
//!
//! ```
//! use experiments::spec::{BridsonParams, SamplerSpec};
//!
//! let spec: SamplerSpec = toml::from_str("name = \"bridson\"\nk = 12")?;
//! assert_eq!(spec, SamplerSpec::Bridson(BridsonParams { k: Some(12), grid: None }));
//! assert!(spec.is_radius_driven());
//! let sampler = spec.build(experiments::domains::unit::<2>(false), Some(0.1), None)?;
//! let set = sampler.run(None, 7); // fills the box
//! assert!(set.len() > 20);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

use crate::dims::Dim;
use crate::shapes::Setup;
use clap::{Args, Subcommand};
use poisson_nd::config::{Builder, Capabilities};
use poisson_nd::error::Short;
use poisson_nd::limits::elimination_candidates;
use poisson_nd::{
    BestCandidate, Bridson, ChunkedBridson, DartThrowing, Domain, DynSampler, Error, Fpo,
    FrontOrder, GaussianBlueNoise, GridResolution, Halton, JitteredGrid, Lloyd, Maximal, Pmj02,
    PointSet, SampleElimination, Sampler, Sobol, WhiteNoise,
};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A sampler and its parameters. A parameter left out (`None`) takes the library's default.
// Not `Eq`: sample elimination's ratio is a float.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Subcommand)]
#[serde(tag = "name", rename_all = "kebab-case")]
pub enum SamplerSpec {
    /// Bridson's algorithm: Poisson-disk, fills the box at the radius.
    Bridson(BridsonParams),
    /// Bridson's algorithm chunk by chunk on all cores: Poisson-disk, fills the box at
    /// the radius, the same points for every thread count (no region or density map).
    ChunkedBridson(ChunkedBridsonParams),
    /// Dart throwing, every dart checked against every point: Poisson-disk, O(N²).
    DartThrowing(DartThrowingParams),
    /// Dart throwing with a background grid: the same points as dart-throwing, in O(N).
    DartThrowingGrid(DartThrowingParams),
    /// Maximal Poisson-disk sampling: dart throwing run to saturation (Ebeida et al.), fills
    /// the box at the radius until not one more point fits.
    Maximal(NoParams),
    /// Mitchell's best candidate: the farthest of m candidates per point (count-driven).
    BestCandidate(BestCandidateParams),
    /// Weighted sample elimination (Yuksel 2015): exactly N well-spread points out of
    /// ratio·N uniform candidates (count-driven).
    SampleElimination(SampleEliminationParams),
    /// The Halton sequence, deterministic (count-driven).
    Halton(HaltonParams),
    /// The Halton sequence scrambled by random digit permutations (count-driven).
    HaltonRandomized(HaltonParams),
    /// The Sobol sequence with Joe–Kuo direction numbers, deterministic, up to 1024
    /// dimensions (count-driven).
    Sobol(SequenceParams),
    /// The Sobol sequence under a hash-based Owen (nested uniform) scramble (count-driven).
    SobolOwen(SequenceParams),
    /// A progressive multi-jittered (0,2) sequence, 1D or 2D: one point in every
    /// elementary rectangle at every power of two (count-driven).
    Pmj02(SequenceParams),
    /// One uniform point in each cell of a near-cubic grid (count-driven).
    JitteredGrid(NoParams),
    /// Independent uniform points, the baseline (count-driven).
    WhiteNoise(NoParams),
    /// Farthest-point optimisation (Schlömer, Heck & Deussen 2011): white noise whose points
    /// move, one by one, to the centre of the largest empty circle; 2D (count-driven).
    Fpo(IterationParams),
    /// Lloyd relaxation: every point moves to the centroid of its Voronoi cell, `iterations`
    /// times, from white noise; 2D, exact cells (count-driven).
    Lloyd(IterationParams),
    /// Gaussian blue noise (Ahmed, Ren & Wonka 2022): white noise descending the energy of
    /// Gaussian repulsions, any dimension (count-driven).
    GaussianBlueNoise(GaussianBlueNoiseParams),
    /// Bridson's algorithm, each step around one of the 16 newest active points: the same
    /// guarantees, other points, faster where the grid outgrows the caches. (Last, so that
    /// the samplers before it keep their colours in the figures.)
    BridsonRecent(BridsonParams),
}

/// Bridson's parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Args)]
#[serde(deny_unknown_fields)]
pub struct BridsonParams {
    /// Attempts per active point, k (default 30; at least 1).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k: Option<u32>,
    /// Background grid: coarse (cells of side r) or fine (side r/√D); the points are the
    /// same, only the speed differs (default coarse).
    #[arg(long, value_parser = crate::choices::parser::<GridResolution>())]
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::choices::by_name_opt"
    )]
    pub grid: Option<GridResolution>,
}

/// The chunked Bridson's parameters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Args)]
#[serde(deny_unknown_fields)]
pub struct ChunkedBridsonParams {
    /// Attempts per active point, k (default 30; at least 1).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k: Option<u32>,
    /// The side of a chunk, in the box's units (default 64 radii in 1D and 2D, 32 from 3D; at least the smallest side
    /// for the radius, (2 + √2·(D − 1))·r). A periodic box takes the nearest side that tiles
    /// it with whole chunks, at least two per axis.
    #[arg(long, allow_hyphen_values = true)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunk_side: Option<f64>,
    /// Threads (default all cores; 1 to 1024). The points are the same for every count.
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
}

/// The most threads a chunked run may ask for: far more than any machine's cores, and low
/// enough that a mistyped count does not start a million threads.
pub const MAX_THREADS: usize = 1024;

/// The most a sampler's count parameter may be (`k`, `max_misses`, `candidates`): 10^8, a
/// run of minutes at most per point or per stop, where the types would allow 2^32 or 2^64.
pub const MAX_COUNT: u64 = 100_000_000;

/// Dart throwing's parameters (both searches).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Args)]
#[serde(deny_unknown_fields)]
pub struct DartThrowingParams {
    /// Darts in a row that may miss before the run ends (default 10000; at least 1).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_misses: Option<u64>,
}

/// Best candidate's parameters.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Args)]
#[serde(deny_unknown_fields)]
pub struct BestCandidateParams {
    /// Candidates per new point, m (default 10; at least 1).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<u32>,
    /// m·i candidates for the i-th point (Mitchell 1991) instead of m (default false).
    // A bare `--growing-candidates` means true, as a flag reads.
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub growing_candidates: Option<bool>,
}

/// How a count-driven run would pass its point limit ([`SamplerSpec::over_limit`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OverLimit {
    /// More points asked for than the limit.
    Points,
    /// Sample elimination would draw more candidates than the limit.
    Candidates {
        /// Candidates per point.
        ratio: f64,
        /// Candidates the run would draw.
        candidates: usize,
    },
    /// A sequence whose skip leaves fewer positions than the points asked for (its indices
    /// end at 2^64 − 1).
    Positions {
        /// The skip.
        skip: u64,
    },
}

impl OverLimit {
    /// Whether exactly `n` points, eliminated from `ratio` candidates a point when given,
    /// pass the point limit `limit`, and how.
    pub fn of(n: usize, ratio: Option<f64>, limit: usize) -> Option<OverLimit> {
        if n > limit {
            return Some(OverLimit::Points);
        }
        let ratio = ratio?;
        let candidates = elimination_candidates(ratio, n);
        (candidates > limit).then_some(OverLimit::Candidates { ratio, candidates })
    }

    /// The command line's one-line refusal of `--n n` for the sampler `name`.
    pub fn message(&self, name: &str, n: usize, limit: usize) -> String {
        match self {
            OverLimit::Positions { skip } => format!(
                "--skip {skip} leaves {} positions of the sequence '{name}', fewer than --n {n}",
                u64::MAX - skip
            ),
            OverLimit::Points => format!(
                "--n {n} is more than the point limit of {limit} (--max-points); '{name}' makes \
                 exactly n points: raise --max-points or ask for fewer"
            ),
            OverLimit::Candidates { ratio, .. } => {
                // The product the count is made from (`limits::elimination_candidates`), so
                // that a count past every count (a ratio of 1e300) shows as itself, not
                // saturated.
                let wanted = (ratio * n as f64).ceil();
                format!(
                    "--n {n} draws {} candidates at --ratio {}, more than the point limit of \
                     {limit} (--max-points), which counts them too: ask for fewer, lower \
                     --ratio or raise --max-points",
                    Short::of(&wanted),
                    Short::of(ratio)
                )
            }
        }
    }
}

/// Sample elimination's parameters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Args)]
#[serde(deny_unknown_fields)]
pub struct SampleEliminationParams {
    /// Candidates per output point, M / N (default 5; finite and at least 1).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratio: Option<f64>,
    /// Order the output so that every prefix of N/2^k points is well spread (default false).
    // A bare `--progressive` means true, as a flag reads.
    #[arg(long, num_args = 0..=1, default_missing_value = "true")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progressive: Option<bool>,
}

/// The Halton sequence's parameters (plain and randomized).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Args)]
#[serde(deny_unknown_fields)]
pub struct HaltonParams {
    /// Indices skipped at the start of the sequence: the first point has index 1 + skip
    /// (default 0).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip: Option<u64>,
}

/// The parameters of Sobol (plain and Owen-scrambled) and PMJ02.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Args)]
#[serde(deny_unknown_fields)]
pub struct SequenceParams {
    /// Indices skipped at the start of the sequence: the first point has index skip
    /// (default 0; a skip that is a multiple of 2^m keeps the nets of 2^m points).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skip: Option<u64>,
}

/// The parameters of an optimiser that only takes its number of iterations (FPO, Lloyd).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Args)]
#[serde(deny_unknown_fields)]
pub struct IterationParams {
    /// Iterations: passes in which every point moves once (default: the library's, 100 for
    /// FPO and 50 for Lloyd; 0 returns the white-noise start).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iterations: Option<u32>,
}

/// Gaussian blue noise's parameters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, Args)]
#[serde(deny_unknown_fields)]
pub struct GaussianBlueNoiseParams {
    /// Iterations of the descent (default 300; 0 returns the white-noise start).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iterations: Option<u32>,
    /// The Gaussian's σ in units of the mean spacing (V/N)^(1/D) (default 0.85; in (0, 2]).
    #[arg(long)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma: Option<f64>,
}

/// The parameters of a sampler that has none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, Args)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}

/// A parameter whose value is out of range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{key} {message}")]
pub struct ParamError {
    /// The parameter, as its TOML key (`max_misses`); the command line writes it
    /// `--max-misses`.
    pub key: &'static str,
    /// What is wrong, with the value found.
    pub message: String,
}

/// Why a sampler could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BuildError {
    /// A radius-driven sampler was given no radius.
    #[error("'{0}' needs a radius")]
    MissingRadius(&'static str),
    /// A parameter is out of range.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// A region was given to a sampler that does not take one (and the samplers that do).
    #[error("'{0}' does not take a region (the samplers that do: {1})")]
    RegionNotTaken(&'static str, String),
    /// A radius field was given to a sampler that does not take one (and the samplers that
    /// do).
    #[error("'{0}' does not take a radius field (the samplers that do: {1})")]
    FieldNotTaken(&'static str, String),
    /// The library rejected the configuration.
    #[error(transparent)]
    Invalid(#[from] Error),
}

/// A keyword of another sampler's Python class that selects this sampler instead:
/// `Bridson(front="recent")` is `bridson-recent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Switch {
    /// The sampler whose class takes the keyword.
    pub base: &'static str,
    /// The keyword.
    pub keyword: &'static str,
    /// The keyword's value that selects the base sampler.
    pub base_value: SwitchValue,
    /// The keyword's value that selects this sampler.
    pub value: SwitchValue,
    /// Whether the keyword's default selects this sampler (`Sobol` scrambles by default, as
    /// scipy's does).
    pub default_selects: bool,
}

/// A value of a [`Switch`]'s keyword.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SwitchValue {
    /// A flag.
    Flag(bool),
    /// A word.
    Word(&'static str),
}

/// Another sampler that gives the same points from the same seed, and what differs.
#[derive(Debug, Clone, PartialEq)]
pub struct Twin {
    /// The other sampler, with the same parameters.
    pub spec: SamplerSpec,
    /// What differs between the two, in a phrase.
    pub difference: &'static str,
}

impl SamplerSpec {
    /// Every sampler, each with its default parameters, in the command line's order.
    pub fn all_defaults() -> Vec<SamplerSpec> {
        vec![
            SamplerSpec::Bridson(BridsonParams::default()),
            SamplerSpec::ChunkedBridson(ChunkedBridsonParams::default()),
            SamplerSpec::DartThrowing(DartThrowingParams::default()),
            SamplerSpec::DartThrowingGrid(DartThrowingParams::default()),
            SamplerSpec::Maximal(NoParams {}),
            SamplerSpec::BestCandidate(BestCandidateParams::default()),
            SamplerSpec::SampleElimination(SampleEliminationParams::default()),
            SamplerSpec::Halton(HaltonParams::default()),
            SamplerSpec::HaltonRandomized(HaltonParams::default()),
            SamplerSpec::Sobol(SequenceParams::default()),
            SamplerSpec::SobolOwen(SequenceParams::default()),
            SamplerSpec::Pmj02(SequenceParams::default()),
            SamplerSpec::JitteredGrid(NoParams {}),
            SamplerSpec::WhiteNoise(NoParams {}),
            SamplerSpec::Fpo(IterationParams::default()),
            SamplerSpec::Lloyd(IterationParams::default()),
            SamplerSpec::GaussianBlueNoise(GaussianBlueNoiseParams::default()),
            SamplerSpec::BridsonRecent(BridsonParams::default()),
        ]
    }

    /// The sampler's name: the subcommand, the TOML `name`, and the label in every CSV file,
    /// legend and seed of the report.
    pub fn name(&self) -> &'static str {
        match self {
            SamplerSpec::Bridson(_) => "bridson",
            SamplerSpec::BridsonRecent(_) => "bridson-recent",
            SamplerSpec::ChunkedBridson(_) => "chunked-bridson",
            SamplerSpec::DartThrowing(_) => "dart-throwing",
            SamplerSpec::DartThrowingGrid(_) => "dart-throwing-grid",
            SamplerSpec::Maximal(_) => "maximal",
            SamplerSpec::BestCandidate(_) => "best-candidate",
            SamplerSpec::SampleElimination(_) => "sample-elimination",
            SamplerSpec::Halton(_) => "halton",
            SamplerSpec::HaltonRandomized(_) => "halton-randomized",
            SamplerSpec::Sobol(_) => "sobol",
            SamplerSpec::SobolOwen(_) => "sobol-owen",
            SamplerSpec::Pmj02(_) => "pmj02",
            SamplerSpec::JitteredGrid(_) => "jittered-grid",
            SamplerSpec::WhiteNoise(_) => "white-noise",
            SamplerSpec::Fpo(_) => "fpo",
            SamplerSpec::Lloyd(_) => "lloyd",
            SamplerSpec::GaussianBlueNoise(_) => "gaussian-blue-noise",
        }
    }

    /// What the library's sampler supports ([`Capabilities`]): whether it is radius-driven,
    /// takes a radius field, a region, a periodic box, and up to which dimension. Read from
    /// the library, never restated here.
    pub fn capabilities(&self) -> Capabilities {
        match self {
            SamplerSpec::Bridson(_) | SamplerSpec::BridsonRecent(_) => Bridson::<1>::CAPABILITIES,
            SamplerSpec::ChunkedBridson(_) => ChunkedBridson::<1>::CAPABILITIES,
            SamplerSpec::DartThrowing(_) | SamplerSpec::DartThrowingGrid(_) => {
                DartThrowing::<1>::CAPABILITIES
            }
            SamplerSpec::Maximal(_) => Maximal::<1>::CAPABILITIES,
            SamplerSpec::BestCandidate(_) => BestCandidate::<1>::CAPABILITIES,
            SamplerSpec::SampleElimination(_) => SampleElimination::<1>::CAPABILITIES,
            SamplerSpec::Halton(_) | SamplerSpec::HaltonRandomized(_) => Halton::<1>::CAPABILITIES,
            SamplerSpec::Sobol(_) | SamplerSpec::SobolOwen(_) => Sobol::<1>::CAPABILITIES,
            SamplerSpec::Pmj02(_) => Pmj02::<1>::CAPABILITIES,
            SamplerSpec::JitteredGrid(_) => JitteredGrid::<1>::CAPABILITIES,
            SamplerSpec::WhiteNoise(_) => WhiteNoise::<1>::CAPABILITIES,
            SamplerSpec::Fpo(_) => Fpo::<1>::CAPABILITIES,
            SamplerSpec::Lloyd(_) => Lloyd::<1>::CAPABILITIES,
            SamplerSpec::GaussianBlueNoise(_) => GaussianBlueNoise::<1>::CAPABILITIES,
        }
    }

    /// Radius-driven samplers take a radius, promise that minimum distance and fill the box
    /// (a count is only a cap); the others are count-driven: they draw the points asked for.
    pub fn is_radius_driven(&self) -> bool {
        self.capabilities().radius
    }

    /// Why a count-driven run of `n` points would pass the point limit `limit`, if it would:
    /// the points themselves, or the candidates sample elimination draws for them (the limit
    /// bounds every point a run holds). `None` for a radius-driven sampler, whose count is
    /// only a cap.
    pub fn over_limit(&self, n: usize, limit: usize) -> Option<OverLimit> {
        let skip = match self {
            SamplerSpec::Halton(p) | SamplerSpec::HaltonRandomized(p) => p.skip,
            SamplerSpec::Sobol(p) | SamplerSpec::SobolOwen(p) | SamplerSpec::Pmj02(p) => p.skip,
            _ => None,
        };
        if let Some(skip) = skip
            && n as u64 > u64::MAX - skip
        {
            return Some(OverLimit::Positions { skip });
        }
        let ratio = match self {
            _ if self.is_radius_driven() => return None,
            SamplerSpec::SampleElimination(p) => {
                Some(p.ratio.unwrap_or(poisson_nd::defaults::ELIMINATION_RATIO))
            }
            _ => None,
        };
        OverLimit::of(n, ratio, limit)
    }

    /// Whether the sampler takes a radius field (a density map).
    pub fn takes_radius_field(&self) -> bool {
        self.capabilities().field
    }

    /// Whether the sampler takes a region.
    pub fn takes_region(&self) -> bool {
        self.capabilities().region
    }

    /// Why a count-driven sampler may give fewer points than asked for (a phrase that
    /// follows its name); `None` when it gives exactly that many.
    pub fn count_note(&self) -> Option<&'static str> {
        match self {
            SamplerSpec::JitteredGrid(_) => Some(
                "uses the largest near-cubic grid with at most N cells, so it may have a few \
                 points fewer",
            ),
            _ => None,
        }
    }

    /// How the sampler differs from the one it varies, when the two give other points from the
    /// same seed but are meant to be read side by side (a phrase that follows its name).
    pub fn variant_note(&self) -> Option<&'static str> {
        match self {
            SamplerSpec::BridsonRecent(_) => Some(
                "is Bridson's algorithm with each step around one of the 16 newest active points \
                 instead of any (faster where the grid outgrows the caches): the same guarantees, \
                 other points from the same seed, and its row beside bridson's shows the quality \
                 that order keeps",
            ),
            _ => None,
        }
    }

    /// Why the sampler's output does not depend on the seed; `None` when it does.
    pub fn seed_note(&self) -> Option<&'static str> {
        match self {
            SamplerSpec::Halton(_) => {
                Some("the plain Halton sequence is deterministic and never reads the generator")
            }
            SamplerSpec::Sobol(_) => {
                Some("the plain Sobol sequence is deterministic and never reads the generator")
            }
            _ => None,
        }
    }

    /// How another sampler's Python class selects this one by a keyword, if it does: each
    /// of these varies another sampler in one respect, and Python users reach it as that
    /// sampler's option as well as by its own class.
    pub fn switch(&self) -> Option<Switch> {
        let flag = |base, keyword, default_selects| Switch {
            base,
            keyword,
            base_value: SwitchValue::Flag(false),
            value: SwitchValue::Flag(true),
            default_selects,
        };
        match self {
            SamplerSpec::BridsonRecent(_) => Some(Switch {
                base: "bridson",
                keyword: "front",
                base_value: SwitchValue::Word("uniform"),
                value: SwitchValue::Word("recent"),
                default_selects: false,
            }),
            SamplerSpec::DartThrowingGrid(_) => Some(flag("dart-throwing", "grid", false)),
            SamplerSpec::HaltonRandomized(_) => Some(flag("halton", "randomized", false)),
            // Scrambled by default, as scipy's `Sobol` is.
            SamplerSpec::SobolOwen(_) => Some(flag("sobol", "scramble", true)),
            _ => None,
        }
    }

    /// The sampler that gives the same points as this one from the same seed, if any.
    pub fn twin(&self) -> Option<Twin> {
        match self {
            SamplerSpec::DartThrowingGrid(params) => Some(Twin {
                spec: SamplerSpec::DartThrowing(params.clone()),
                difference: "a different search (every point checked, or a grid lookup)",
            }),
            _ => None,
        }
    }

    /// Checks the parameters' values (the library checks them again when building).
    pub fn check(&self) -> Result<(), ParamError> {
        // Every count is bounded too: each multiplies a run's time, and a value near 2^32
        // or 2^64 would run for days instead of being refused.
        let within = |key: &'static str, value: Option<u64>, most: u64| match value {
            Some(0) => Err(ParamError { key, message: "must be at least 1, got 0".into() }),
            Some(v) if v > most => {
                Err(ParamError { key, message: format!("must be at most {most}, got {v}") })
            }
            _ => Ok(()),
        };
        let count = |key: &'static str, value: Option<u64>| within(key, value, MAX_COUNT);
        match self {
            SamplerSpec::Bridson(p) | SamplerSpec::BridsonRecent(p) => {
                count("k", p.k.map(u64::from))
            }
            SamplerSpec::ChunkedBridson(p) => {
                count("k", p.k.map(u64::from))?;
                within("threads", p.threads.map(|t| t as u64), MAX_THREADS as u64)?;
                match p.chunk_side {
                    // The smallest side depends on the radius and D: the library checks it.
                    Some(side) if !(side.is_finite() && side > 0.0) => Err(ParamError {
                        key: "chunk_side",
                        message: format!("must be finite and > 0, got {}", Short::of(&side)),
                    }),
                    _ => Ok(()),
                }
            }
            SamplerSpec::DartThrowing(p) | SamplerSpec::DartThrowingGrid(p) => {
                count("max_misses", p.max_misses)
            }
            SamplerSpec::BestCandidate(p) => count("candidates", p.candidates.map(u64::from)),
            SamplerSpec::SampleElimination(p) => match p.ratio {
                Some(ratio) if !(ratio.is_finite() && ratio >= 1.0) => Err(ParamError {
                    key: "ratio",
                    message: format!("must be finite and at least 1, got {}", Short::of(&ratio)),
                }),
                _ => Ok(()),
            },
            SamplerSpec::Maximal(_) => Ok(()),
            SamplerSpec::Halton(_) | SamplerSpec::HaltonRandomized(_) => Ok(()),
            SamplerSpec::Sobol(_) | SamplerSpec::SobolOwen(_) | SamplerSpec::Pmj02(_) => Ok(()),
            SamplerSpec::JitteredGrid(_) | SamplerSpec::WhiteNoise(_) => Ok(()),
            // Any count of iterations is valid; the library checks σ's range.
            SamplerSpec::Fpo(_) | SamplerSpec::Lloyd(_) => Ok(()),
            SamplerSpec::GaussianBlueNoise(p) => match p.sigma {
                Some(sigma) if !(sigma.is_finite() && sigma > 0.0) => Err(ParamError {
                    key: "sigma",
                    message: format!("must be finite and > 0, got {}", Short::of(&sigma)),
                }),
                _ => Ok(()),
            },
        }
    }

    /// Builds the sampler in `domain`. `radius` is required by radius-driven samplers and
    /// ignored by the others; `max_points` replaces the library's point limit.
    ///
    /// This, [`build_with`](Self::build_with) and [`Built::run`] are the only places that
    /// call the library's samplers, but for the white-noise references of the metrics
    /// (docs/design.md).
    pub fn build<const D: usize>(
        &self,
        domain: Domain<D>,
        radius: Option<f64>,
        max_points: Option<usize>,
    ) -> Result<Built<D>, BuildError>
    where
        Dim<D>: BuildIn<D>,
    {
        self.build_with(domain, radius, max_points, &Setup::default())
    }

    /// [`build`](Self::build) with a radius field and a region ([`Setup`]). A field replaces
    /// `radius` (which may then be `None`) and is taken by the samplers whose capabilities
    /// say so ([`BuildError::FieldNotTaken`] for the others); likewise a region
    /// ([`BuildError::RegionNotTaken`]). The default setup builds exactly what
    /// [`build`](Self::build) builds.
    pub fn build_with<const D: usize>(
        &self,
        domain: Domain<D>,
        radius: Option<f64>,
        max_points: Option<usize>,
        setup: &Setup<D>,
    ) -> Result<Built<D>, BuildError>
    where
        Dim<D>: BuildIn<D>,
    {
        Dim::<D>::build_with(self, domain, radius, max_points, setup)
    }
}

/// Building a sampler from its specification, compiled in this crate once for each
/// dimension ([`Dim`]): [`SamplerSpec::build_with`] and [`build`](SamplerSpec::build) need
/// `Dim<D>: BuildIn<D>`.
pub trait BuildIn<const D: usize> {
    /// [`SamplerSpec::build_with`].
    fn build_with(
        spec: &SamplerSpec,
        domain: Domain<D>,
        radius: Option<f64>,
        max_points: Option<usize>,
        setup: &Setup<D>,
    ) -> Result<Built<D>, BuildError>;
}

crate::for_every_dim!(impl BuildIn {
    #[inline(never)]
    fn build_with(
        spec: &SamplerSpec,
        domain: Domain<D>,
        radius: Option<f64>,
        max_points: Option<usize>,
        setup: &Setup<D>,
    ) -> Result<Built<D>, BuildError> {
        spec.build_in(domain, radius, max_points, setup)
    }
});

impl SamplerSpec {
    fn build_in<const D: usize>(
        &self,
        domain: Domain<D>,
        radius: Option<f64>,
        max_points: Option<usize>,
        setup: &Setup<D>,
    ) -> Result<Built<D>, BuildError> {
        self.check()?;
        if setup.field.is_some() && !self.takes_radius_field() {
            return Err(BuildError::FieldNotTaken(self.name(), takers(|c| c.field)));
        }
        if setup.region.is_some() && !self.takes_region() {
            return Err(BuildError::RegionNotTaken(self.name(), takers(|c| c.region)));
        }
        // The radius of a radius-driven sampler (a field's rmin when a field replaces it).
        let field_rmin = setup.field.as_ref().map(|(field, _)| field.bounds().0);
        let radius = || radius.or(field_rmin).ok_or(BuildError::MissingRadius(self.name()));
        let sampler: Box<dyn DynSampler<D>> = match self {
            SamplerSpec::Bridson(p) | SamplerSpec::BridsonRecent(p) => {
                let mut b = configure(Bridson::builder(domain, radius()?), max_points, setup);
                if let SamplerSpec::BridsonRecent(_) = self {
                    b = b.with_front_order(FrontOrder::Recent);
                }
                if let Some(k) = p.k {
                    b = b.with_attempts(k);
                }
                if let Some(grid) = p.grid {
                    b = b.with_grid(grid);
                }
                Box::new(b.build()?)
            }
            SamplerSpec::ChunkedBridson(p) => {
                let mut b =
                    configure(ChunkedBridson::builder(domain, radius()?), max_points, setup);
                if let Some(k) = p.k {
                    b = b.with_attempts(k);
                }
                if let Some(side) = p.chunk_side {
                    b = b.with_chunk_side(side);
                }
                if let Some(threads) = p.threads {
                    b = b.with_threads(threads);
                }
                Box::new(b.build()?)
            }
            SamplerSpec::DartThrowing(p) | SamplerSpec::DartThrowingGrid(p) => {
                let mut b = configure(DartThrowing::builder(domain, radius()?), max_points, setup);
                if let Some(misses) = p.max_misses {
                    b = b.with_max_misses(misses);
                }
                if let SamplerSpec::DartThrowingGrid(_) = self {
                    b = b.with_grid(GridResolution::default());
                }
                Box::new(b.build()?)
            }
            SamplerSpec::Maximal(_) => {
                Box::new(configure(Maximal::builder(domain, radius()?), max_points, setup).build()?)
            }
            SamplerSpec::SampleElimination(p) => {
                let mut b = configure(SampleElimination::builder(domain), max_points, setup)
                    .with_progressive(p.progressive.unwrap_or(false));
                if let Some(ratio) = p.ratio {
                    b = b.with_ratio(ratio);
                }
                Box::new(b.build()?)
            }
            SamplerSpec::BestCandidate(p) => {
                let mut b = configure(BestCandidate::builder(domain), max_points, setup)
                    .with_growing_candidates(p.growing_candidates.unwrap_or(false));
                if let Some(m) = p.candidates {
                    b = b.with_candidates(m);
                }
                Box::new(b.build()?)
            }
            SamplerSpec::Halton(p) => {
                let b = configure(Halton::builder(domain), max_points, setup)
                    .with_skip(p.skip.unwrap_or(0));
                Box::new(b.build()?)
            }
            SamplerSpec::HaltonRandomized(p) => {
                let b = configure(Halton::builder(domain), max_points, setup)
                    .with_skip(p.skip.unwrap_or(0));
                Box::new(b.with_randomized(true).build()?)
            }
            SamplerSpec::Sobol(p) => {
                let b = configure(Sobol::builder(domain), max_points, setup)
                    .with_skip(p.skip.unwrap_or(0));
                Box::new(b.build()?)
            }
            SamplerSpec::SobolOwen(p) => {
                let b = configure(Sobol::builder(domain), max_points, setup)
                    .with_skip(p.skip.unwrap_or(0));
                Box::new(b.with_owen_scrambling(true).build()?)
            }
            SamplerSpec::Pmj02(p) => {
                let b = configure(Pmj02::builder(domain), max_points, setup)
                    .with_skip(p.skip.unwrap_or(0));
                Box::new(b.build()?)
            }
            SamplerSpec::JitteredGrid(_) => {
                Box::new(configure(JitteredGrid::builder(domain), max_points, setup).build()?)
            }
            SamplerSpec::WhiteNoise(_) => {
                Box::new(configure(WhiteNoise::builder(domain), max_points, setup).build()?)
            }
            SamplerSpec::Fpo(p) => {
                let mut b = configure(Fpo::builder(domain), max_points, setup);
                if let Some(iterations) = p.iterations {
                    b = b.with_iterations(iterations);
                }
                Box::new(b.build()?)
            }
            SamplerSpec::Lloyd(p) => {
                let mut b = configure(Lloyd::builder(domain), max_points, setup);
                if let Some(iterations) = p.iterations {
                    b = b.with_iterations(iterations);
                }
                Box::new(b.build()?)
            }
            SamplerSpec::GaussianBlueNoise(p) => {
                let mut b = configure(GaussianBlueNoise::builder(domain), max_points, setup);
                if let Some(iterations) = p.iterations {
                    b = b.with_iterations(iterations);
                }
                if let Some(sigma) = p.sigma {
                    b = b.with_sigma(sigma);
                }
                Box::new(b.build()?)
            }
        };
        Ok(Built { spec: self.clone(), sampler })
    }
}

/// The names of the samplers whose capabilities pass `takes`, for an error that lists them.
pub fn takers(takes: impl Fn(&Capabilities) -> bool) -> String {
    SamplerSpec::all_defaults()
        .iter()
        .filter(|spec| takes(&spec.capabilities()))
        .map(|spec| spec.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A library builder with the shared settings of a run: the point limit, the setup's radius
/// field (with its pair rule) and region.
fn configure<const D: usize, O>(
    mut builder: Builder<D, O>,
    max_points: Option<usize>,
    setup: &Setup<D>,
) -> Builder<D, O> {
    if let Some((field, rule)) = &setup.field {
        builder = builder.with_radius_field(Arc::clone(field)).with_pair_rule(*rule);
    }
    if let Some(region) = &setup.region {
        builder = builder.with_region(Arc::clone(region));
    }
    if let Some(limit) = max_points {
        builder = builder.with_max_points(limit);
    }
    if let Some(hook) = &setup.progress {
        let hook = Arc::clone(hook);
        builder = builder.with_progress(move |progress| hook(progress));
    }
    builder
}

/// A sampler built from its specification, ready to run.
pub struct Built<const D: usize> {
    spec: SamplerSpec,
    sampler: Box<dyn DynSampler<D>>,
}

impl<const D: usize> std::fmt::Debug for Built<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Built").field("spec", &self.spec).finish_non_exhaustive()
    }
}

impl<const D: usize> Built<D> {
    /// The specification it was built from.
    pub fn spec(&self) -> &SamplerSpec {
        &self.spec
    }

    /// The domain it samples.
    pub fn domain(&self) -> &Domain<D> {
        self.sampler.domain()
    }

    /// The minimum distance it promises, if any.
    pub fn min_distance(&self) -> Option<f64> {
        self.sampler.min_distance()
    }

    /// One realisation from `seed`. `n = None` fills the box (radius-driven samplers; a
    /// count-driven one then draws nothing); `Some(n)` is a cap for radius-driven samplers
    /// and the count for the others.
    pub fn run(&self, n: Option<usize>, seed: u64) -> PointSet<D> {
        match n {
            Some(n) => self.sampler.sample_seeded(n, seed),
            // A count-driven sampler has no fill: without a count it gives no points (the
            // command line asks for --n before it gets here).
            None => self
                .sampler
                .try_fill_seeded(seed)
                .unwrap_or_else(|| self.sampler.sample_seeded(0, seed)),
        }
    }

    /// The library sampler itself, for code that drives it directly (the conformance suite's
    /// own checks of the trait).
    pub fn sampler(&self) -> &dyn DynSampler<D> {
        self.sampler.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use poisson_nd::Region;

    fn every_spec() -> Vec<SamplerSpec> {
        SamplerSpec::all_defaults()
    }

    #[test]
    fn names_agree_between_clap_serde_and_the_library() {
        let specs = every_spec();
        assert_eq!(
            crate::catalogue::names(),
            specs.iter().map(SamplerSpec::name).collect::<Vec<_>>()
        );
        let domain = crate::domains::unit::<2>(false);
        for spec in specs {
            let toml = toml::to_string(&spec).unwrap();
            assert_eq!(toml, format!("name = \"{}\"\n", spec.name()));
            assert_eq!(toml::from_str::<SamplerSpec>(&toml).unwrap(), spec);
            let built = spec.build(domain, Some(0.1), None).unwrap();
            // Until the library names variants itself, its name is the spec's.
            assert_eq!(built.sampler().dyn_label(), spec.name());
            assert_eq!(built.min_distance().is_some(), spec.is_radius_driven());
        }
    }

    #[test]
    fn every_parameter_is_a_toml_key_and_a_flag() {
        let expected: &[(&str, &[&str])] = &[
            ("bridson", &["k", "grid"]),
            ("bridson-recent", &["k", "grid"]),
            ("chunked-bridson", &["k", "chunk_side", "threads"]),
            ("dart-throwing", &["max_misses"]),
            ("best-candidate", &["candidates", "growing_candidates"]),
            ("maximal", &[]),
            ("sample-elimination", &["ratio", "progressive"]),
            ("halton-randomized", &["skip"]),
            ("sobol-owen", &["skip"]),
            ("pmj02", &["skip"]),
            ("white-noise", &[]),
            ("fpo", &["iterations"]),
            ("lloyd", &["iterations"]),
            ("gaussian-blue-noise", &["iterations", "sigma"]),
        ];
        use crate::catalogue::{catalogue, entry};
        for (name, keys) in expected {
            assert_eq!(entry(name).unwrap().keys().collect::<Vec<_>>(), *keys, "{name}");
        }
        for entry in catalogue() {
            for key in entry.keys() {
                let value = match key {
                    "growing_candidates" | "progressive" => "true",
                    "ratio" => "2.5",
                    "sigma" => "0.75",
                    "chunk_side" => "0.5",
                    "grid" => "\"fine\"",
                    _ => "3",
                };
                let text = format!("name = \"{}\"\n{key} = {value}\n", entry.name);
                let spec: SamplerSpec = toml::from_str(&text).unwrap();
                assert_eq!(toml::to_string(&spec).unwrap(), text);
            }
        }
    }

    #[test]
    fn values_and_radii_are_checked() {
        let domain = crate::domains::unit::<2>(false);
        let zero = SamplerSpec::DartThrowing(DartThrowingParams { max_misses: Some(0) });
        assert_eq!(zero.check().unwrap_err().to_string(), "max_misses must be at least 1, got 0");
        let endless = SamplerSpec::DartThrowing(DartThrowingParams { max_misses: Some(1 << 32) });
        assert_eq!(
            endless.check().unwrap_err().to_string(),
            "max_misses must be at most 100000000, got 4294967296"
        );
        for ratio in [0.5, f64::NAN, f64::INFINITY] {
            let spec = SamplerSpec::SampleElimination(SampleEliminationParams {
                ratio: Some(ratio),
                progressive: None,
            });
            let message = spec.check().unwrap_err().to_string();
            assert!(message.starts_with("ratio must be finite and at least 1, got"), "{message}");
        }
        let maximal = SamplerSpec::Maximal(NoParams {});
        assert_eq!(
            maximal.build(domain, None, None).unwrap_err(),
            BuildError::MissingRadius("maximal")
        );
        // The raised point limit is in place when the radius is checked.
        assert!(maximal.build(domain, Some(1e-4), None).is_err());
        assert!(maximal.build(domain, Some(1e-4), Some(200_000_000)).is_ok());
        let filled = maximal.build(domain, Some(0.1), None).unwrap().run(None, 1);
        assert_eq!(filled.stop, poisson_nd::StopReason::Exhausted);
        let elimination = SamplerSpec::SampleElimination(SampleEliminationParams {
            ratio: Some(3.0),
            progressive: Some(true),
        });
        let set = elimination.build(domain, None, None).unwrap().run(Some(40), 1);
        assert_eq!((set.len(), set.attempts), (40, 120));
        let bridson = SamplerSpec::Bridson(BridsonParams::default());
        assert_eq!(
            bridson.build(domain, None, None).unwrap_err(),
            BuildError::MissingRadius("bridson")
        );
        assert!(matches!(
            bridson.build(domain, Some(1e-9), None),
            Err(BuildError::Invalid(Error::TooManyPoints { .. }))
        ));
        let chunked = |k, chunk_side, threads| {
            SamplerSpec::ChunkedBridson(ChunkedBridsonParams { k, chunk_side, threads })
        };
        for (spec, message) in [
            (chunked(None, None, Some(0)), "threads must be at least 1, got 0"),
            (chunked(None, None, Some(1025)), "threads must be at most 1024, got 1025"),
            (chunked(Some(0), None, None), "k must be at least 1, got 0"),
            (chunked(None, Some(-1.0), None), "chunk_side must be finite and > 0, got -1"),
            (chunked(None, Some(f64::NAN), None), "chunk_side must be finite and > 0, got NaN"),
        ] {
            assert_eq!(spec.check().unwrap_err().to_string(), message);
            assert_eq!(spec.build(domain, Some(0.1), None).unwrap_err().to_string(), message);
        }
        // The smallest side depends on the radius and the dimension: the library's error.
        let min = poisson_nd::chunked::min_chunk_side(2, 0.01);
        assert_eq!(
            chunked(None, Some(0.5 * min), Some(2)).build(domain, Some(0.01), None).unwrap_err(),
            BuildError::Invalid(Error::ChunkSideTooSmall {
                side: 0.5 * min,
                radius: 0.01,
                dim: 2,
                min
            })
        );
        assert_eq!(
            chunked(None, None, None).build(domain, None, None).unwrap_err(),
            BuildError::MissingRadius("chunked-bridson")
        );
        // A torus needs two chunks of at least the smallest side along every axis.
        let torus = crate::domains::unit::<2>(true);
        assert!(matches!(
            chunked(None, None, None).build(torus, Some(0.2), None),
            Err(BuildError::Invalid(Error::TorusNotTiled { axis: 0, .. }))
        ));
        // Every parameter reaches the library: the same points as the library's own sampler.
        let spec = chunked(Some(12), Some(0.2), Some(3));
        let built = spec.build(torus, Some(0.02), Some(5_000)).unwrap();
        let library = poisson_nd::ChunkedBridson::builder(torus, 0.02)
            .with_attempts(12)
            .with_chunk_side(0.2)
            .with_threads(3)
            .with_max_points(5_000)
            .build()
            .unwrap();
        assert_eq!(built.run(None, 5).points, library.sample_seeded(usize::MAX, 5).points);
        // The point limit is checked against the densest packing of the box, like Bridson's.
        assert!(matches!(
            spec.build(torus, Some(0.02), Some(1_000)),
            Err(BuildError::Invalid(Error::TooManyPoints { .. }))
        ));
        let white = SamplerSpec::WhiteNoise(NoParams {});
        let limited = white.build(domain, None, Some(5)).unwrap();
        assert_eq!(limited.run(Some(10), 1).len(), 5);
        assert!(limited.run(None, 1).is_empty());
    }

    #[test]
    fn setups_reach_the_samplers() {
        use poisson_nd::field::{DensityField, DensityMapping, PairRule, RadiusField};
        use poisson_nd::region::Ball;
        let domain = crate::domains::unit::<2>(false);
        let field: Arc<dyn RadiusField<2>> = Arc::new(
            DensityField::from_fn(|p: &[f64; 2]| p[0], DensityMapping::Lerp, 0.03, 0.06).unwrap(),
        );
        let ball = Ball::new([0.5, 0.5], 0.3).unwrap();
        let check = ball;
        for spec in every_spec() {
            // The empty setup builds what `build` builds.
            let a = spec.build(domain, Some(0.05), None).unwrap().run(Some(50), 3);
            let b = spec
                .build_with(domain, Some(0.05), None, &Setup::default())
                .unwrap()
                .run(Some(50), 3);
            assert_eq!(a.points, b.points, "{}", spec.name());
            // A field: three samplers take it, the others say so.
            let field = Some((Arc::clone(&field), PairRule::Mean));
            let setup = Setup { field, ..Setup::default() };
            match spec.build_with(domain, None, None, &setup) {
                Ok(built) => {
                    assert!(spec.takes_radius_field(), "{}", spec.name());
                    let set = built.run(None, 1);
                    assert!(set.len() > 100, "{}", spec.name());
                    assert_eq!(set.radii.map(|r| r.len()), Some(set.points.len()));
                }
                Err(e) => {
                    assert!(!spec.takes_radius_field(), "{}", spec.name());
                    assert_eq!(e, BuildError::FieldNotTaken(spec.name(), takers(|c| c.field)));
                }
            }
            // A region: every sampler that takes one keeps its points inside; the others
            // say so.
            let setup = Setup { region: Some(Arc::new(ball)), ..Setup::default() };
            match spec.build_with(domain, Some(0.05), None, &setup) {
                Ok(built) => {
                    assert!(spec.takes_region(), "{}", spec.name());
                    let set = built.run(Some(40), 2);
                    assert!(!set.is_empty(), "{}", spec.name());
                    assert!(set.points.iter().all(|p| check.contains(p)), "{}", spec.name());
                }
                Err(e) => {
                    assert!(!spec.takes_region(), "{}", spec.name());
                    assert_eq!(e, BuildError::RegionNotTaken(spec.name(), takers(|c| c.region)));
                }
            }
        }
    }

    #[test]
    fn twins_give_the_same_points() {
        let domain = crate::domains::unit::<2>(true);
        for spec in every_spec() {
            if let Some(twin) = spec.twin() {
                let a = spec.build(domain, Some(0.05), None).unwrap().run(None, 3);
                let b = twin.spec.build(domain, Some(0.05), None).unwrap().run(None, 3);
                assert_eq!(a.points, b.points, "{}", spec.name());
            }
        }
    }
}
