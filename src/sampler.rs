//! The sampler traits, their object-safe mirror, and what a sampling run returns.

use crate::domain::Domain;
use crate::error::Error;
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
    /// The sampler's point limit was reached first.
    PointLimit,
    /// The radius field gave a value that is NaN, not positive or outside its declared
    /// bounds: the run stopped before using it, and [`PointSet::field_error`] says where and
    /// what. The points so far keep the distance.
    InvalidField,
    /// The progress hook asked the run to stop ([`Progress`]): the points so far keep every
    /// guarantee but coverage.
    Cancelled,
}

impl StopReason {
    /// A short lowercase name, for logs and CSV files.
    pub fn as_str(&self) -> &'static str {
        match self {
            StopReason::TargetReached => "target-reached",
            StopReason::Exhausted => "exhausted",
            StopReason::PointLimit => "point-limit",
            StopReason::InvalidField => "invalid-field",
            StopReason::Cancelled => "cancelled",
        }
    }
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// How far a long run has come: what a progress hook ([`Watch`]) is shown.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Progress {
    /// Points placed so far (in a scatter, of the class being placed).
    pub points: usize,
    /// The share of the run done, in `[0, 1]`, when the run knows its whole (the cells of a
    /// chunked run); `None` when it does not (a fill ends when the domain is full).
    pub fraction: Option<f64>,
}

/// How often a run shows its progress: every this many points (and after every decided cell of
/// a chunked run).
pub const PROGRESS_EVERY: usize = 1 << 14;

/// A progress hook: called every [`PROGRESS_EVERY`] points of a long run (Bridson, dart
/// throwing, maximal sampling, a chunked run's cells, a scatter's classes) to show how far it
/// has come, and able to stop it by returning [`ControlFlow::Break`](std::ops::ControlFlow::Break): the run then ends with
/// [`StopReason::Cancelled`]. Unused, it costs one test per placed point. Samplers take it
/// with [`Builder::with_progress`](crate::Builder::with_progress).
///
/// ```
/// use poisson_nd::{Bridson, Domain, FillSampler, StopReason};
/// use std::ops::ControlFlow;
/// // Stop once 20,000 points are placed.
/// let sampler = Bridson::builder(Domain::<2>::unit(), 0.003)
///     .with_progress(|progress| {
///         if progress.points >= 20_000 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
///     })
///     .build()?;
/// let set = sampler.fill_seeded(1);
/// assert_eq!(set.stop, StopReason::Cancelled);
/// assert!(set.len() >= 20_000 && set.len() < 50_000);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Clone)]
pub struct Watch(std::sync::Arc<dyn Fn(Progress) -> std::ops::ControlFlow<()> + Send + Sync>);

impl Watch {
    /// A hook calling `hook`.
    pub fn new(
        hook: impl Fn(Progress) -> std::ops::ControlFlow<()> + Send + Sync + 'static,
    ) -> Self {
        Watch(std::sync::Arc::new(hook))
    }

    /// Shows `progress`; whether the run is to stop.
    #[inline]
    pub fn stop(&self, progress: Progress) -> bool {
        (self.0)(progress).is_break()
    }

    /// Shows the progress of a run that has placed `points` points, when that is a multiple
    /// of [`PROGRESS_EVERY`]; whether the run is to stop.
    #[inline(always)]
    pub(crate) fn every(watch: Option<&Watch>, points: usize) -> bool {
        match watch {
            Some(watch) if points.is_multiple_of(PROGRESS_EVERY) => {
                watch.stop(Progress { points, fraction: None })
            }
            _ => false,
        }
    }
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Watch")
    }
}

/// One realisation of a sampler: the points, the domain they belong to, and how the run went.
///
/// Open for extension (`#[non_exhaustive]`): samplers that give points a radius fill the
/// optional per-point column; code outside the library builds a set with
/// [`PointSet::new`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
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
    /// Each point's own radius, for samplers given a radius field (see [`crate::field`]);
    /// `None` when one radius holds for all.
    pub radii: Option<Vec<f64>>,
    /// Why a radius field stopped the run ([`Error::FieldValueOutOfBounds`]): `Some` exactly
    /// when [`stop`](Self::stop) is [`StopReason::InvalidField`].
    pub field_error: Option<Error>,
}

impl<const D: usize> PointSet<D> {
    /// A point set without per-point radii.
    pub fn new(points: Vec<Point<D>>, domain: Domain<D>, stop: StopReason, attempts: u64) -> Self {
        PointSet { points, domain, stop, attempts, radii: None, field_error: None }
    }

    /// A point set from a sampler that never rejects: one attempt per point.
    pub(crate) fn new_unrejected(
        points: Vec<Point<D>>,
        domain: Domain<D>,
        stop: StopReason,
    ) -> Self {
        let attempts = points.len() as u64;
        Self::new(points, domain, stop, attempts)
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether there are no points.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
}

/// A point sampler in `D` dimensions: an immutable, validated configuration that produces
/// point sets from a random-number generator it is handed.
///
/// Implementations never panic while sampling and always terminate; they report why they
/// stopped in [`PointSet::stop`]. Given the same generator state they produce bit-identical
/// output on every platform.
///
/// Radius-driven samplers (a minimum distance, [`Sampler::min_distance`]) stop by themselves
/// when the domain is full: they also implement [`FillSampler`], and
/// [`Sampler::try_fill`] gives their filled set through any sampler, boxed ones included.
pub trait Sampler<const D: usize>: Send + Sync {
    /// The algorithm's name in kebab case (`"bridson"`, `"dart-throwing"`, `"halton"`, ...):
    /// the same for every configuration of the sampler.
    fn name(&self) -> &'static str;

    /// The name with the configuration that sets this sampler apart from others of its
    /// algorithm (`"dart-throwing-grid"`, `"halton-randomized"`), as the command line, CSV
    /// files and plot legends show it. Defaults to [`Sampler::name`].
    fn label(&self) -> String {
        self.name().to_string()
    }

    /// The domain the points are drawn from.
    fn domain(&self) -> &Domain<D>;

    /// The minimum distance every pair of output points keeps (toroidal in a periodic
    /// domain), if the sampler promises one.
    fn min_distance(&self) -> Option<f64> {
        None
    }

    /// One realisation with **at most `n` points**. Count-driven samplers make exactly `n`
    /// (a jittered grid: the largest grid of at most `n` cells); radius-driven samplers stop
    /// earlier when the domain is full (see [`FillSampler::fill`] to fill it without a
    /// count). Every sampler also stops at its point limit.
    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D>;

    /// [`Sampler::sample`] with the project's portable generator seeded by `seed`:
    /// bit-reproducible across runs, platforms and releases of `rand`.
    fn sample_seeded(&self, n: usize, seed: u64) -> PointSet<D> {
        self.sample(n, &mut rng_from_seed(seed))
    }

    /// The filled set of a radius-driven sampler ([`FillSampler::fill`]); `None` for a
    /// sampler that needs a count.
    fn try_fill<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<PointSet<D>> {
        let _ = rng;
        None
    }

    /// [`Sampler::try_fill`] with the portable generator seeded by `seed`.
    fn try_fill_seeded(&self, seed: u64) -> Option<PointSet<D>> {
        self.try_fill(&mut rng_from_seed(seed))
    }
}

/// A sampler that stops by itself when the domain is full: Poisson-disk samplers, whose
/// radius bounds how many points fit.
///
/// ```
/// use poisson_nd::{Bridson, Domain, FillSampler};
/// let set = Bridson::new(Domain::<2>::unit(), 0.05)?.fill_seeded(7);
/// assert!(set.len() > 200);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
pub trait FillSampler<const D: usize>: Sampler<D> {
    /// One realisation that fills the domain: the run ends by the algorithm's own rule
    /// ([`StopReason::Exhausted`]) or at the point limit.
    fn fill<R: Rng + ?Sized>(&self, rng: &mut R) -> PointSet<D>;

    /// [`FillSampler::fill`] with the portable generator seeded by `seed`.
    fn fill_seeded(&self, seed: u64) -> PointSet<D> {
        self.fill(&mut rng_from_seed(seed))
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
/// let domain = Domain::<2>::unit();
/// let samplers: Vec<Box<dyn DynSampler<2>>> =
///     vec![Box::new(Bridson::new(domain, 0.1)?), Box::new(WhiteNoise::new(domain))];
/// for sampler in &samplers {
///     let set = sampler.sample_seeded(50, 1);
///     assert!(set.len() <= 50, "{}", sampler.label());
/// }
/// // Only the radius-driven one fills the box by itself.
/// assert!(samplers[0].try_fill_seeded(1).is_some());
/// assert!(samplers[1].try_fill_seeded(1).is_none());
/// # Ok::<(), poisson_nd::Error>(())
/// ```
pub trait DynSampler<const D: usize>: Send + Sync {
    /// See [`Sampler::name`].
    fn dyn_name(&self) -> &'static str;
    /// See [`Sampler::label`].
    fn dyn_label(&self) -> String;
    /// See [`Sampler::domain`].
    fn dyn_domain(&self) -> &Domain<D>;
    /// See [`Sampler::min_distance`].
    fn dyn_min_distance(&self) -> Option<f64>;
    /// See [`Sampler::sample`].
    fn dyn_sample(&self, n: usize, rng: &mut dyn Rng) -> PointSet<D>;
    /// See [`Sampler::sample_seeded`]; the generator is not behind a `dyn`, so this runs at
    /// full speed.
    fn dyn_sample_seeded(&self, n: usize, seed: u64) -> PointSet<D>;
    /// See [`Sampler::try_fill`].
    fn dyn_try_fill(&self, rng: &mut dyn Rng) -> Option<PointSet<D>>;
    /// See [`Sampler::try_fill_seeded`]; at full speed, like
    /// [`DynSampler::dyn_sample_seeded`].
    fn dyn_try_fill_seeded(&self, seed: u64) -> Option<PointSet<D>>;
}

impl<const D: usize, S: Sampler<D>> DynSampler<D> for S {
    fn dyn_name(&self) -> &'static str {
        self.name()
    }
    fn dyn_label(&self) -> String {
        self.label()
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
    fn dyn_try_fill(&self, rng: &mut dyn Rng) -> Option<PointSet<D>> {
        self.try_fill(rng)
    }
    fn dyn_try_fill_seeded(&self, seed: u64) -> Option<PointSet<D>> {
        self.try_fill_seeded(seed)
    }
}

impl<const D: usize> Sampler<D> for Box<dyn DynSampler<D>> {
    fn name(&self) -> &'static str {
        self.as_ref().dyn_name()
    }
    fn label(&self) -> String {
        self.as_ref().dyn_label()
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
    fn try_fill<R: Rng + ?Sized>(&self, mut rng: &mut R) -> Option<PointSet<D>> {
        self.as_ref().dyn_try_fill(&mut rng)
    }
    fn try_fill_seeded(&self, seed: u64) -> Option<PointSet<D>> {
        self.as_ref().dyn_try_fill_seeded(seed)
    }
}
