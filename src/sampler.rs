//! The sampler trait, its object-safe mirror, and what a sampling run returns.

use crate::domain::Domain;
use crate::point::Point;
use crate::rng::rng_from_seed;
use rand::Rng;

/// Why a sampling run stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum StopReason {
    /// The requested number of points was reached.
    TargetReached,
    /// The algorithm's own termination rule ended the run before the requested number:
    /// Bridson's active list emptied, or a dart thrower missed too many times in a row.
    Exhausted,
    /// The sampler's point limit (see `with_max_points`) was reached first.
    PointLimit,
}

impl StopReason {
    /// A short lowercase name, for logs and CSV files.
    pub fn as_str(&self) -> &'static str {
        match self {
            StopReason::TargetReached => "target-reached",
            StopReason::Exhausted => "exhausted",
            StopReason::PointLimit => "point-limit",
        }
    }
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One realisation of a sampler: the points, the domain they belong to, and how the run went.
#[derive(Debug, Clone, PartialEq)]
pub struct PointSet<const D: usize> {
    /// The points, in the order they were generated.
    pub points: Vec<Point<D>>,
    /// The domain the points lie in (periodic or not, as sampled).
    pub domain: Domain<D>,
    /// Why sampling stopped.
    pub stop: StopReason,
    /// Candidates generated, accepted and rejected together: the work done. Equal to the
    /// number of points for samplers that never reject.
    pub attempts: u64,
}

impl<const D: usize> PointSet<D> {
    /// Number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether there are no points.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
}

/// The default safety limit on the number of points one run may produce (100 million).
/// Every sampler has `with_max_points` to change it.
pub const DEFAULT_MAX_POINTS: usize = 100_000_000;

/// A point sampler in `D` dimensions: an immutable, validated configuration that produces
/// point sets from a random-number generator it is handed.
///
/// Implementations never panic while sampling and always terminate; they report why they
/// stopped in [`PointSet::stop`]. Given the same generator state they produce bit-identical
/// output on every platform.
pub trait Sampler<const D: usize>: Send + Sync {
    /// The sampler's name in kebab case (`"bridson"`, `"white-noise"`, ...), as used by the
    /// command line, CSV files and plot legends.
    fn name(&self) -> &'static str;

    /// The domain the points are drawn from.
    fn domain(&self) -> &Domain<D>;

    /// The minimum distance every pair of output points keeps (toroidal in a periodic
    /// domain), if the sampler promises one.
    fn min_distance(&self) -> Option<f64> {
        None
    }

    /// One realisation with at most `n` points. For radius-driven samplers `n` is a cap and
    /// `usize::MAX` means "fill the domain"; for count-driven samplers it is the count.
    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D>;

    /// [`Sampler::sample`] with the project's portable generator seeded by `seed`:
    /// bit-reproducible across runs, platforms and releases of `rand`.
    fn sample_seeded(&self, n: usize, seed: u64) -> PointSet<D> {
        self.sample(n, &mut rng_from_seed(seed))
    }
}

/// The object-safe mirror of [`Sampler`], implemented for every sampler, so that a list of
/// different samplers can be held as `Vec<Box<dyn DynSampler<D>>>`.
///
/// Its methods carry a `dyn_` prefix so they never clash with [`Sampler`]'s when both traits
/// are in scope; a `Box<dyn DynSampler<D>>` itself implements [`Sampler`], so the usual
/// method names work on it.
///
/// ```
/// use poisson_nd::{Bridson, Domain, DynSampler, Sampler, WhiteNoise};
/// let domain = Domain::<2>::unit()?;
/// let samplers: Vec<Box<dyn DynSampler<2>>> =
///     vec![Box::new(Bridson::new(domain, 0.1)?), Box::new(WhiteNoise::new(domain))];
/// for sampler in &samplers {
///     let set = sampler.sample_seeded(50, 1);
///     assert!(set.len() <= 50, "{}", sampler.name());
/// }
/// # Ok::<(), poisson_nd::Error>(())
/// ```
pub trait DynSampler<const D: usize>: Send + Sync {
    /// See [`Sampler::name`].
    fn dyn_name(&self) -> &'static str;
    /// See [`Sampler::domain`].
    fn dyn_domain(&self) -> &Domain<D>;
    /// See [`Sampler::min_distance`].
    fn dyn_min_distance(&self) -> Option<f64>;
    /// See [`Sampler::sample`].
    fn dyn_sample(&self, n: usize, rng: &mut dyn Rng) -> PointSet<D>;
    /// See [`Sampler::sample_seeded`]; the generator is not behind a `dyn`, so this runs at
    /// full speed.
    fn dyn_sample_seeded(&self, n: usize, seed: u64) -> PointSet<D>;
}

impl<const D: usize, S: Sampler<D>> DynSampler<D> for S {
    fn dyn_name(&self) -> &'static str {
        self.name()
    }
    fn dyn_domain(&self) -> &Domain<D> {
        self.domain()
    }
    fn dyn_min_distance(&self) -> Option<f64> {
        self.min_distance()
    }
    fn dyn_sample(&self, n: usize, rng: &mut dyn Rng) -> PointSet<D> {
        self.sample(n, rng)
    }
    fn dyn_sample_seeded(&self, n: usize, seed: u64) -> PointSet<D> {
        self.sample_seeded(n, seed)
    }
}

impl<const D: usize> Sampler<D> for Box<dyn DynSampler<D>> {
    fn name(&self) -> &'static str {
        self.as_ref().dyn_name()
    }
    fn domain(&self) -> &Domain<D> {
        self.as_ref().dyn_domain()
    }
    fn min_distance(&self) -> Option<f64> {
        self.as_ref().dyn_min_distance()
    }
    fn sample<R: Rng + ?Sized>(&self, n: usize, mut rng: &mut R) -> PointSet<D> {
        self.as_ref().dyn_sample(n, &mut rng)
    }
    fn sample_seeded(&self, n: usize, seed: u64) -> PointSet<D> {
        self.as_ref().dyn_sample_seeded(n, seed)
    }
}
