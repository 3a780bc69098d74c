//! Dart throwing: the naive Poisson-disk baseline, and the same process sped up by a grid.

use crate::defaults;
use crate::domain::Domain;
use crate::error::Error;
use crate::grid::{
    CellHeads, ConstantRadius, DenseHeads, Grid, GridLayout, GridResolution, HashedHeads, Tuning,
};
use crate::packing::{check_radius, max_points_estimate};
use crate::point::{Point, distance_squared, toroidal_distance_squared};
use crate::region::scan::Scan;
use crate::region::shape::{SamplerRegion, Shape};
use crate::region::{Region, WholeDomain};
use crate::sampler::{FillSampler, PointSet, Sampler, StopReason};
use rand::Rng;
use std::sync::Arc;

/// Dart throwing (Cook 1986, "Stochastic sampling in computer graphics"; the random
/// sequential adsorption of physics): uniform candidates ("darts") anywhere in the domain,
/// each accepted when no accepted point is closer than `r`.
///
/// The run stops at `n` points ([`StopReason::TargetReached`]), at the point limit
/// ([`StopReason::PointLimit`]), or after `max_misses` rejections in a row
/// ([`StopReason::Exhausted`]; default [`defaults::MAX_MISSES`]).
/// [`PointSet::attempts`] counts every dart, accepted or rejected.
///
/// Guarantees: every pair of points is at least `r` apart (toroidally in a periodic domain),
/// every point lies in the domain, and the run ends after at most
/// `(N_max + 1) · max_misses` darts, where `N_max` is the densest-packing bound that the
/// constructor checks against the point limit. The set is not guaranteed to be maximal; the
/// more misses are allowed, the closer it gets (see [`defaults::MAX_MISSES`]).
///
/// Two ways to run the same process, with bit-identical output for the same seed (the same
/// darts, the same decisions); both are named `"dart-throwing"`:
/// - by default each dart is checked against **every** accepted point: O(N) per dart, O(A·N)
///   for A darts. This is the naive baseline, quadratic on purpose; its label is
///   `"dart-throwing"`.
/// - [`with_grid`](DartThrowingBuilder::with_grid) looks darts up in the background grid that
///   Bridson's algorithm uses: O(1) expected per dart for a fixed D, O(A) in all. Its label
///   is `"dart-throwing-grid"`; with a large `max_misses` it makes nearly maximal sets
///   (random sequential adsorption close to saturation) at moderate N.
///
/// Configured with [`DartThrowing::builder`] (or [`DartThrowing::new`] for the defaults),
/// whose [`build`](DartThrowingBuilder::build) checks everything once.
///
/// ```
/// use poisson_nd::{DartThrowing, Domain, FillSampler, GridResolution, Sampler};
/// let domain = Domain::<2>::unit();
/// let naive = DartThrowing::builder(domain, 0.05).with_max_misses(2_000).build()?;
/// let set = naive.fill_seeded(42);
/// assert!(set.len() > 200);
/// // The grid gives the same points, faster.
/// let fast = naive.to_builder().with_grid(GridResolution::Fine).build()?;
/// assert_eq!(fast.fill_seeded(42).points, set.points);
/// assert_eq!((fast.name(), fast.label().as_str()), ("dart-throwing", "dart-throwing-grid"));
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct DartThrowing<const D: usize> {
    domain: Domain<D>,
    radius: f64,
    max_misses: u64,
    max_points: usize,
    tuning: Tuning,
    /// The grid layout when accelerated, `None` for the naive search.
    grid: Option<(GridResolution, Arc<GridLayout<D>>)>,
    region: SamplerRegion<D>,
}

/// The configuration of a [`DartThrowing`] sampler before it is checked: every setter is
/// infallible and [`build`](Self::build) validates the whole once.
#[derive(Clone)]
pub struct DartThrowingBuilder<const D: usize> {
    domain: Domain<D>,
    radius: f64,
    max_misses: u64,
    max_points: usize,
    tuning: Tuning,
    grid: Option<GridResolution>,
    region: Option<Arc<dyn Region<D>>>,
}

impl<const D: usize> std::fmt::Debug for DartThrowingBuilder<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DartThrowingBuilder")
            .field("domain", &self.domain)
            .field("radius", &self.radius)
            .field("max_misses", &self.max_misses)
            .field("max_points", &self.max_points)
            .field("grid", &self.grid)
            .field("region", &self.region.as_ref().map(|r| r.bounding_box()))
            .finish_non_exhaustive()
    }
}

impl<const D: usize> DartThrowingBuilder<D> {
    /// Samples only the points of `region` instead of the whole box: darts are drawn from
    /// the part of the domain's box the region's bounding box covers, and a dart outside the
    /// region misses. When the misses end the run, a restart scan adds a point to every part
    /// of the region left uncovered (docs/algorithms.md, "Regions"). The domain stays the
    /// metric space and must be closed; [`build`](Self::build) checks the region against it.
    #[must_use]
    pub fn with_region(mut self, region: impl Region<D> + 'static) -> Self {
        self.region = Some(Arc::new(region));
        self
    }

    /// Samples the whole box again (the default).
    #[must_use]
    pub fn without_region(mut self) -> Self {
        self.region = None;
        self
    }

    /// Sets how many darts in a row may miss before the run ends with
    /// [`StopReason::Exhausted`] (default [`defaults::MAX_MISSES`]); 0 is an error at
    /// [`build`](Self::build).
    #[must_use]
    pub fn with_max_misses(mut self, max_misses: u64) -> Self {
        self.max_misses = max_misses;
        self
    }

    /// Sets the point limit (default [`defaults::MAX_POINTS`]). It must hold the densest
    /// packing of the box at the radius, which [`build`](Self::build) checks.
    #[must_use]
    pub fn with_max_points(mut self, max_points: usize) -> Self {
        self.max_points = max_points;
        self
    }

    /// Looks darts up in a background grid of the given resolution instead of testing every
    /// accepted point (see [`GridResolution`]; [`GridResolution::default`] is the usual
    /// choice). The points stay bit-identical; the label becomes `"dart-throwing-grid"`.
    #[must_use]
    pub fn with_grid(mut self, resolution: GridResolution) -> Self {
        self.grid = Some(resolution);
        self
    }

    /// Tests every accepted point (the default): the naive baseline.
    #[must_use]
    pub fn without_grid(mut self) -> Self {
        self.grid = None;
        self
    }

    /// Advanced: grid tuning that changes speed and memory, never the points.
    #[must_use]
    pub fn with_tuning(mut self, tuning: Tuning) -> Self {
        self.tuning = tuning;
        self
    }

    /// Checks the configuration and lays out the grid, if any.
    ///
    /// Errors: a radius that is not finite and positive; `max_misses = 0`; a point
    /// limit of 0 or above 2147483647; a radius so small for the box that its densest
    /// packing would pass the point limit ([`Error::TooManyPoints`]); a grid with more cells
    /// than can be indexed. With a region: a periodic domain, a region that misses the
    /// domain's box, or one with no point found in it.
    pub fn build(self) -> Result<DartThrowing<D>, Error> {
        let region = SamplerRegion::new(self.region.as_ref(), &self.domain)?;
        let sampling = *region.sampling_box(&self.domain);
        check_radius(&sampling, self.radius, self.max_points)?;
        if self.max_misses == 0 {
            return Err(Error::ZeroCount("max_misses"));
        }
        let grid = match self.grid {
            Some(resolution) => {
                let layout = GridLayout::for_rule(
                    &sampling,
                    &ConstantRadius::new(self.radius),
                    resolution,
                    self.tuning.dense_grid_limit(),
                )?;
                Some((resolution, Arc::new(layout)))
            }
            None => None,
        };
        Ok(DartThrowing {
            domain: self.domain,
            radius: self.radius,
            max_misses: self.max_misses,
            max_points: self.max_points,
            tuning: self.tuning,
            grid,
            region,
        })
    }
}

impl<const D: usize> DartThrowing<D> {
    /// The configuration of naive dart throwing in `domain` with minimum distance `radius`,
    /// with every default; set what you need, then [`build`](DartThrowingBuilder::build).
    pub fn builder(domain: Domain<D>, radius: f64) -> DartThrowingBuilder<D> {
        DartThrowingBuilder {
            domain,
            radius,
            max_misses: defaults::MAX_MISSES,
            max_points: defaults::MAX_POINTS,
            tuning: Tuning::default(),
            grid: None,
            region: None,
        }
    }

    /// Naive dart throwing with every default: `DartThrowing::builder(domain, radius).build()`.
    /// Errors as [`DartThrowingBuilder::build`].
    pub fn new(domain: Domain<D>, radius: f64) -> Result<Self, Error> {
        Self::builder(domain, radius).build()
    }

    /// This sampler's configuration, to change and build again.
    pub fn to_builder(&self) -> DartThrowingBuilder<D> {
        DartThrowingBuilder {
            domain: self.domain,
            radius: self.radius,
            max_misses: self.max_misses,
            max_points: self.max_points,
            tuning: self.tuning,
            grid: self.grid_resolution(),
            region: self.region.user_region(),
        }
    }

    /// Whether a region smaller than the box was set.
    pub fn has_region(&self) -> bool {
        matches!(self.region, SamplerRegion::Shape(_))
    }

    /// The point limit.
    pub fn max_points(&self) -> usize {
        self.max_points
    }

    /// The minimum distance.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// Rejections in a row that end a run.
    pub fn max_misses(&self) -> u64 {
        self.max_misses
    }

    /// The grid resolution when grid-accelerated, `None` for the naive search.
    pub fn grid_resolution(&self) -> Option<GridResolution> {
        self.grid.as_ref().map(|(resolution, _)| *resolution)
    }

    /// The dart-throwing loop, shared by both searches so that they make the same decisions:
    /// darts uniform in `darts` (the domain, or a region's box). Stops with `TargetReached`
    /// at `target` points or `Exhausted` after too many misses; returns the darts thrown.
    fn throw<R: Rng + ?Sized, A: AcceptedPoints<D>, G: Region<D>>(
        &self,
        accepted: &mut A,
        region: &G,
        darts: &Domain<D>,
        target: usize,
        rng: &mut R,
    ) -> (StopReason, u64) {
        let mut attempts = 0u64;
        let mut misses = 0u64;
        while accepted.len() < target {
            let dart = darts.uniform_point(rng);
            attempts += 1;
            // A dart outside the region misses (never for the whole box, where the test
            // compiles away).
            if !region.contains_box_point(&dart) || accepted.has_point_within_radius(&dart) {
                misses += 1;
                if misses >= self.max_misses {
                    return (StopReason::Exhausted, attempts);
                }
            } else {
                accepted.insert(dart);
                misses = 0;
            }
        }
        (StopReason::TargetReached, attempts)
    }

    /// A run in a region: the darts, then, if the misses ended them, the restart scan's
    /// seeds until it has passed every cell (or the target is reached).
    fn throw_in_shape<R: Rng + ?Sized, A: AcceptedPoints<D>>(
        &self,
        mut accepted: A,
        shape: &Shape<D>,
        target: usize,
        rng: &mut R,
    ) -> (Vec<Point<D>>, StopReason, u64) {
        let (mut stop, mut attempts) =
            self.throw(&mut accepted, shape, shape.sampling(), target, rng);
        if stop == StopReason::Exhausted {
            let mut scan = Scan::new(shape, self.radius);
            loop {
                if accepted.len() >= target {
                    stop = StopReason::TargetReached;
                    break;
                }
                let seed = scan.next_seed(shape, |p| accepted.has_point_within_radius(p), rng);
                let Some(seed) = seed else { break };
                accepted.insert(seed);
                attempts += 1;
            }
        }
        (accepted.into_points(), stop, attempts)
    }
}

/// The accepted points of one run, as the dart loop needs them.
trait AcceptedPoints<const D: usize> {
    fn len(&self) -> usize;
    /// Whether an accepted point is closer than r to `p` (toroidally when periodic).
    fn has_point_within_radius(&self, p: &Point<D>) -> bool;
    fn insert(&mut self, p: Point<D>);
    fn into_points(self) -> Vec<Point<D>>;
}

/// The naive search: every accepted point, in a plain list.
struct EveryPoint<const D: usize> {
    points: Vec<Point<D>>,
    radius_squared: f64,
    /// Side lengths of a periodic domain, `None` for a closed one.
    torus: Option<[f64; D]>,
}

impl<const D: usize> AcceptedPoints<D> for EveryPoint<D> {
    fn len(&self) -> usize {
        self.points.len()
    }
    #[inline]
    fn has_point_within_radius(&self, p: &Point<D>) -> bool {
        // The same distance functions, argument order and comparison as the grid's search.
        match &self.torus {
            Some(extent) => self
                .points
                .iter()
                .any(|q| toroidal_distance_squared(p, q, extent) < self.radius_squared),
            None => self.points.iter().any(|q| distance_squared(p, q) < self.radius_squared),
        }
    }
    fn insert(&mut self, p: Point<D>) {
        self.points.push(p);
    }
    fn into_points(self) -> Vec<Point<D>> {
        self.points
    }
}

impl<const D: usize, H: CellHeads> AcceptedPoints<D> for Grid<D, H, ConstantRadius> {
    fn len(&self) -> usize {
        self.points().len()
    }
    #[inline]
    fn has_point_within_radius(&self, p: &Point<D>) -> bool {
        self.has_conflict(p, ())
    }
    fn insert(&mut self, p: Point<D>) {
        Grid::insert(self, p, ());
    }
    fn into_points(self) -> Vec<Point<D>> {
        Grid::into_points(self)
    }
}

impl<const D: usize> Sampler<D> for DartThrowing<D> {
    fn name(&self) -> &'static str {
        "dart-throwing"
    }

    fn label(&self) -> String {
        let label = if self.grid.is_some() { "dart-throwing-grid" } else { "dart-throwing" };
        label.to_string()
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn min_distance(&self) -> Option<f64> {
        Some(self.radius)
    }

    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D> {
        let target = n.min(self.max_points);
        let sampling = self.region.sampling_box(&self.domain);
        let capacity = target.min(max_points_estimate(sampling, self.radius) as usize);
        let capacity = capacity.min(1 << 20);
        let rule = ConstantRadius::new(self.radius);
        let naive = || EveryPoint {
            points: Vec::with_capacity(capacity),
            radius_squared: self.radius * self.radius,
            torus: self.domain.is_periodic().then_some(*self.domain.extent()),
        };
        let (points, stop, attempts) = match &self.region {
            SamplerRegion::Whole => {
                let region = WholeDomain::new(self.domain);
                let finish = |(stop, attempts), points| (points, stop, attempts);
                match &self.grid {
                    Some((_, layout)) if layout.is_dense() => {
                        let mut grid =
                            Grid::<D, DenseHeads, _>::new(Arc::clone(layout), rule, capacity);
                        let run = self.throw(&mut grid, &region, &self.domain, target, rng);
                        finish(run, grid.into_points())
                    }
                    Some((_, layout)) => {
                        let mut grid =
                            Grid::<D, HashedHeads, _>::new(Arc::clone(layout), rule, capacity);
                        let run = self.throw(&mut grid, &region, &self.domain, target, rng);
                        finish(run, grid.into_points())
                    }
                    None => {
                        let mut accepted = naive();
                        let run = self.throw(&mut accepted, &region, &self.domain, target, rng);
                        finish(run, accepted.into_points())
                    }
                }
            }
            SamplerRegion::Shape(shape) => match &self.grid {
                Some((_, layout)) if layout.is_dense() => {
                    let grid = Grid::<D, DenseHeads, _>::new(Arc::clone(layout), rule, capacity);
                    self.throw_in_shape(grid, shape, target, rng)
                }
                Some((_, layout)) => {
                    let grid = Grid::<D, HashedHeads, _>::new(Arc::clone(layout), rule, capacity);
                    self.throw_in_shape(grid, shape, target, rng)
                }
                None => self.throw_in_shape(naive(), shape, target, rng),
            },
        };
        let stop = if stop == StopReason::TargetReached && target < n {
            StopReason::PointLimit
        } else {
            stop
        };
        PointSet::new(points, self.domain, stop, attempts)
    }

    fn try_fill<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<PointSet<D>> {
        Some(self.fill(rng))
    }
}

impl<const D: usize> FillSampler<D> for DartThrowing<D> {
    fn fill<R: Rng + ?Sized>(&self, rng: &mut R) -> PointSet<D> {
        self.sample(usize::MAX, rng)
    }
}
