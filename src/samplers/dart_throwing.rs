//! Dart throwing: the naive Poisson-disk baseline, and the same process sped up by a grid.

use crate::config::{Builder, Capabilities, Config};
use crate::defaults;
use crate::domain::Domain;
use crate::engine::scan::Scan;
use crate::error::Error;
use crate::field::{FieldSetup, PairRule, RadiusField};
use crate::grid::{
    CellHeads, ConstantRadius, FieldRule, Grid, GridLayout, GridResolution, StoredGrid, Tuning,
    field_layout, with_storage,
};
use crate::packing::max_points_estimate;
use crate::point::{Point, distance_squared, toroidal_distance_squared};
use crate::region::shape::{SamplerRegion, Shape};
use crate::region::{Region, WholeDomain};
use crate::sampler::{FillSampler, PointSet, Sampler, StopReason, Watch};
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
/// **Variable radius.** With a [`RadiusField`] ([`DartThrowing::builder_with_field`] or
/// [`DartThrowingBuilder::with_radius_field`]) each dart takes the field's radius at its
/// position and is accepted when it keeps the [`PairRule`]'s distance to every accepted
/// point; [`PointSet::radii`] holds the radii. Both searches still give the same points. A
/// field value that is NaN, not positive or outside the bounds stops the run with
/// [`StopReason::InvalidField`].
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
    /// The radius field and pair rule, `None` for one radius (`radius` is then the field's
    /// rmin).
    field: Option<FieldSetup<D>>,
    region: SamplerRegion<D>,
    /// The progress hook, if any.
    watch: Option<Watch>,
}

/// Dart throwing's own options, beside the shared settings of its [`Builder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DartThrowingOptions {
    max_misses: u64,
}

impl Default for DartThrowingOptions {
    fn default() -> Self {
        DartThrowingOptions { max_misses: defaults::MAX_MISSES }
    }
}

/// The configuration of a [`DartThrowing`] sampler before it is checked: the shared settings
/// ([`Builder`]: region, radius field, point limit, grid) and dart throwing's own; every
/// setter is infallible and [`build`](Builder::build) validates the whole once. Without
/// [`with_grid`](Builder::with_grid) every dart is tested against every accepted point (the
/// naive baseline); with it, darts are looked up in a background grid of that resolution
/// (the same points; the label becomes `"dart-throwing-grid"`).
pub type DartThrowingBuilder<const D: usize> = Builder<D, DartThrowingOptions>;

impl<const D: usize> Builder<D, DartThrowingOptions> {
    /// Sets how many darts in a row may miss before the run ends with
    /// [`StopReason::Exhausted`] (default [`defaults::MAX_MISSES`]); 0 is an error at
    /// [`build`](Self::build).
    #[must_use]
    pub fn with_max_misses(mut self, max_misses: u64) -> Self {
        self.options.max_misses = max_misses;
        self
    }

    /// Checks the configuration and lays out the grid, if any.
    ///
    /// Errors: a radius that is not finite and positive; `max_misses = 0`; a point
    /// limit of 0 or above 2147483647; a radius so small for the box that its densest
    /// packing would pass the point limit ([`Error::TooManyPoints`]); a grid with more cells
    /// than can be indexed. With a radius field: bounds that are not `0 < rmin ≤ rmax < ∞`
    /// ([`Error::InvalidRadiusBounds`]); `rmin` too small for the point limit; with a grid,
    /// `rmax/rmin` so large that its search would be too wide
    /// ([`Error::RadiusRatioTooLarge`]). With a region: a periodic domain, a region that
    /// misses the domain's box, or one with no point found in it.
    pub fn build(self) -> Result<DartThrowing<D>, Error> {
        let checked = self.config.check("dart-throwing", &DartThrowing::<D>::CAPABILITIES)?;
        checked.check_budget()?;
        if self.options.max_misses == 0 {
            return Err(Error::ZeroCount("max_misses"));
        }
        let sampling = *checked.sampling_box();
        let radius = checked.radius;
        let grid = match (checked.grid, &checked.field) {
            (Some(resolution), None) => {
                let layout = GridLayout::for_rule(
                    &sampling,
                    &ConstantRadius::new(radius),
                    resolution,
                    checked.tuning.dense_grid_limit(),
                )?;
                Some((resolution, Arc::new(layout)))
            }
            (Some(resolution), Some(setup)) => {
                let layout = field_layout(&sampling, setup, resolution, checked.tuning)?;
                Some((resolution, Arc::new(layout)))
            }
            (None, _) => None,
        };
        Ok(DartThrowing {
            domain: checked.domain,
            radius,
            max_misses: self.options.max_misses,
            max_points: checked.max_points,
            tuning: checked.tuning,
            grid,
            field: checked.field,
            region: checked.region,
            watch: checked.watch,
        })
    }
}

impl<const D: usize> DartThrowing<D> {
    /// What dart throwing supports: a radius or a radius field, regions, closed and periodic
    /// boxes, the grid (or none), every dimension.
    pub const CAPABILITIES: Capabilities = Capabilities {
        radius: true,
        field: true,
        region: true,
        periodic: true,
        attempts: false,
        grid: true,
        min_dimension: 1,
        max_dimension: usize::MAX,
    };

    /// The configuration of naive dart throwing in `domain` with minimum distance `radius`,
    /// with every default; set what you need, then [`build`](DartThrowingBuilder::build).
    pub fn builder(domain: Domain<D>, radius: f64) -> DartThrowingBuilder<D> {
        Builder::from_defaults(domain, Some(radius), DartThrowingOptions::default())
    }

    /// The configuration of naive dart throwing in `domain` with a radius field (see
    /// [`DartThrowingBuilder::with_radius_field`]), pair rule [`PairRule::Max`] and every
    /// other default.
    pub fn builder_with_field(
        domain: Domain<D>,
        field: impl RadiusField<D> + 'static,
    ) -> DartThrowingBuilder<D> {
        let (rmin, _) = field.bounds();
        Self::builder(domain, rmin).with_radius_field(field)
    }

    /// Naive dart throwing with every default: `DartThrowing::builder(domain, radius).build()`.
    /// Errors as [`DartThrowingBuilder::build`].
    pub fn new(domain: Domain<D>, radius: f64) -> Result<Self, Error> {
        Self::builder(domain, radius).build()
    }

    /// This sampler's configuration, to change and build again.
    pub fn to_builder(&self) -> DartThrowingBuilder<D> {
        let mut config = Config::new(self.domain, Some(self.radius));
        config.field = self.field.as_ref().map(|setup| Arc::clone(&setup.field));
        config.pair_rule = self.pair_rule();
        config.region = self.region.user_region();
        config.max_points = self.max_points;
        config.grid = self.grid_resolution();
        config.tuning = self.tuning;
        config.watch = self.watch.clone();
        Builder { config, options: DartThrowingOptions { max_misses: self.max_misses } }
    }

    /// Whether a region smaller than the box was set.
    pub fn has_region(&self) -> bool {
        matches!(self.region, SamplerRegion::Shape(_))
    }

    /// The radius field, `None` for one radius (a constant field is one radius).
    pub fn radius_field(&self) -> Option<&dyn RadiusField<D>> {
        self.field.as_ref().map(|setup| &*setup.field)
    }

    /// The pair rule of the radius field ([`PairRule::Max`] without one).
    pub fn pair_rule(&self) -> PairRule {
        self.field.as_ref().map_or(PairRule::default(), |setup| setup.rule)
    }

    /// The radius bounds `(rmin, rmax)`: `(r, r)` for one radius.
    pub fn radius_bounds(&self) -> (f64, f64) {
        self.field.as_ref().map_or((self.radius, self.radius), |setup| (setup.rmin, setup.rmax))
    }

    /// The point limit.
    pub fn max_points(&self) -> usize {
        self.max_points
    }

    /// The minimum distance: the radius, or with a radius field its lower bound rmin.
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
                if Watch::every(self.watch.as_ref(), accepted.len()) {
                    return (StopReason::Cancelled, attempts);
                }
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
            let mut scan = Scan::for_region(shape.sampling(), self.radius);
            loop {
                if accepted.len() >= target {
                    stop = StopReason::TargetReached;
                    break;
                }
                accepted.mark_covered(&mut scan);
                let seed = scan.next_seed(shape, |p| accepted.has_point_within_radius(p), rng);
                let Some(seed) = seed else { break };
                accepted.insert(seed);
                attempts += 1;
            }
        }
        (accepted.into_points(), stop, attempts)
    }

    /// [`throw`](Self::throw) for a radius field: darts uniform in `darts`; each dart in
    /// the region takes the field's radius at its position (an invalid value ends the run
    /// with its error) and is tested with the pair rule.
    fn throw_field<R: Rng + ?Sized, A: FieldAccepted<D>, G: Region<D>>(
        &self,
        setup: &FieldSetup<D>,
        accepted: &mut A,
        region: &G,
        darts: &Domain<D>,
        target: usize,
        rng: &mut R,
    ) -> (StopReason, u64, Option<Error>) {
        let mut attempts = 0u64;
        let mut misses = 0u64;
        while accepted.len() < target {
            let dart = darts.uniform_point(rng);
            attempts += 1;
            // A conflict at the smallest radius is one at the field's (every pair rule grows
            // with the radius): most late darts miss without evaluating the field.
            let miss = if !region.contains_box_point(&dart) || accepted.conflicts(&dart, setup.rmin)
            {
                true
            } else {
                match setup.radius_at(&dart) {
                    Ok(r) if !accepted.conflicts(&dart, r) => {
                        accepted.insert(dart, r);
                        false
                    }
                    Ok(_) => true,
                    Err(e) => return (StopReason::InvalidField, attempts, Some(e)),
                }
            };
            if miss {
                misses += 1;
                if misses >= self.max_misses {
                    return (StopReason::Exhausted, attempts, None);
                }
            } else {
                misses = 0;
                if Watch::every(self.watch.as_ref(), accepted.len()) {
                    return (StopReason::Cancelled, attempts, None);
                }
            }
        }
        (StopReason::TargetReached, attempts, None)
    }

    /// A field run, in the region when there is one: the darts, then, if the misses ended
    /// them in a region, the restart scan's seeds, each with the field's radius and tested
    /// with the pair rule (a point is covered where a seed of its own radius would conflict).
    fn throw_field_run<R: Rng + ?Sized, A: FieldAccepted<D>>(
        &self,
        setup: &FieldSetup<D>,
        mut accepted: A,
        target: usize,
        rng: &mut R,
    ) -> FieldRun<D> {
        let (mut stop, mut attempts, mut error) = match &self.region {
            SamplerRegion::Whole => {
                let region = WholeDomain::new(self.domain);
                self.throw_field(setup, &mut accepted, &region, &self.domain, target, rng)
            }
            SamplerRegion::Shape(shape) => {
                self.throw_field(setup, &mut accepted, &**shape, shape.sampling(), target, rng)
            }
        };
        if let (StopReason::Exhausted, SamplerRegion::Shape(shape)) = (stop, &self.region) {
            let mut scan = Scan::for_region(shape.sampling(), self.radius);
            loop {
                if accepted.len() >= target {
                    stop = StopReason::TargetReached;
                    break;
                }
                let failure = std::cell::RefCell::new(None);
                let seed = scan.next_seed(
                    shape,
                    |p| match setup.radius_at(p) {
                        Ok(r) => accepted.conflicts(p, r),
                        Err(e) => {
                            failure.borrow_mut().get_or_insert(e);
                            true
                        }
                    },
                    rng,
                );
                if let Some(e) = failure.into_inner() {
                    (stop, error) = (StopReason::InvalidField, Some(e));
                    break;
                }
                let Some(seed) = seed else { break };
                match setup.radius_at(&seed) {
                    Ok(r) => accepted.insert(seed, r),
                    Err(e) => {
                        (stop, error) = (StopReason::InvalidField, Some(e));
                        break;
                    }
                }
                attempts += 1;
            }
        }
        let (points, radii) = accepted.into_parts();
        FieldRun { points, radii, stop, attempts, error }
    }
}

/// What a dart-throwing run with a radius field returns.
struct FieldRun<const D: usize> {
    points: Vec<Point<D>>,
    radii: Vec<f64>,
    stop: StopReason,
    attempts: u64,
    error: Option<Error>,
}

/// The accepted points of a run with a radius field, and their radii.
trait FieldAccepted<const D: usize> {
    fn len(&self) -> usize;
    /// Whether an accepted point is closer to `p` (of radius `r`) than the pair rule allows.
    fn conflicts(&self, p: &Point<D>, r: f64) -> bool;
    fn insert(&mut self, p: Point<D>, r: f64);
    fn into_parts(self) -> (Vec<Point<D>>, Vec<f64>);
}

/// The naive search with a radius field: every accepted point, in plain lists.
struct EveryPointField<const D: usize> {
    points: Vec<Point<D>>,
    radii: Vec<f64>,
    rule: PairRule,
    /// Side lengths of a periodic domain, `None` for a closed one.
    torus: Option<[f64; D]>,
}

impl<const D: usize> FieldAccepted<D> for EveryPointField<D> {
    fn len(&self) -> usize {
        self.points.len()
    }
    fn conflicts(&self, p: &Point<D>, r: f64) -> bool {
        // The same distances, argument order and comparison as the grid's rule.
        let too_close = |d2: f64, rj: f64| {
            let s = self.rule.distance(r, rj);
            d2 < s * s
        };
        let pairs = self.points.iter().zip(&self.radii);
        match &self.torus {
            Some(extent) => pairs
                .into_iter()
                .any(|(q, &rj)| too_close(toroidal_distance_squared(p, q, extent), rj)),
            None => pairs.into_iter().any(|(q, &rj)| too_close(distance_squared(p, q), rj)),
        }
    }
    fn insert(&mut self, p: Point<D>, r: f64) {
        self.points.push(p);
        self.radii.push(r);
    }
    fn into_parts(self) -> (Vec<Point<D>>, Vec<f64>) {
        (self.points, self.radii)
    }
}

impl<const D: usize, H: CellHeads> FieldAccepted<D> for Grid<D, H, FieldRule> {
    fn len(&self) -> usize {
        self.points().len()
    }
    fn conflicts(&self, p: &Point<D>, r: f64) -> bool {
        self.has_conflict_within(p, r)
    }
    fn insert(&mut self, p: Point<D>, r: f64) {
        Grid::insert(self, p, r);
    }
    fn into_parts(self) -> (Vec<Point<D>>, Vec<f64>) {
        let (points, rule) = self.into_points_and_rule();
        (points, rule.into_radii())
    }
}

/// The accepted points of one run, as the dart loop needs them.
trait AcceptedPoints<const D: usize> {
    fn len(&self) -> usize;
    /// Whether an accepted point is closer than r to `p` (toroidally when periodic).
    fn has_point_within_radius(&self, p: &Point<D>) -> bool;
    fn insert(&mut self, p: Point<D>);
    fn into_points(self) -> Vec<Point<D>>;
    /// Marks the accepted points' coverage into the restart scan (see `Scan::mark_covered`).
    fn mark_covered(&self, scan: &mut Scan<D>);
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
    fn mark_covered(&self, scan: &mut Scan<D>) {
        scan.mark_covered(&self.points);
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
    fn mark_covered(&self, scan: &mut Scan<D>) {
        scan.mark_covered(self.points());
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

    /// The radius; with a radius field, its lower bound rmin, which every pair keeps under
    /// every pair rule.
    fn min_distance(&self) -> Option<f64> {
        Some(self.radius)
    }

    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D> {
        if let Some(setup) = &self.field {
            return self.sample_field(setup, n, rng);
        }
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
                    Some((_, layout)) => {
                        with_storage!(StoredGrid::new(Arc::clone(layout), rule, capacity), grid => {
                            let mut grid = grid;
                            let run = self.throw(&mut grid, &region, &self.domain, target, rng);
                            finish(run, grid.into_points())
                        })
                    }
                    None => {
                        let mut accepted = naive();
                        let run = self.throw(&mut accepted, &region, &self.domain, target, rng);
                        finish(run, accepted.into_points())
                    }
                }
            }
            SamplerRegion::Shape(shape) => match &self.grid {
                Some((_, layout)) => {
                    with_storage!(StoredGrid::new(Arc::clone(layout), rule, capacity), grid =>
                        self.throw_in_shape(grid, shape, target, rng))
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

impl<const D: usize> DartThrowing<D> {
    /// [`Sampler::sample`] with a radius field.
    fn sample_field<R: Rng + ?Sized>(
        &self,
        setup: &FieldSetup<D>,
        n: usize,
        rng: &mut R,
    ) -> PointSet<D> {
        let target = n.min(self.max_points);
        // The estimate (at rmin) can be far above the count: reserve less.
        let sampling = self.region.sampling_box(&self.domain);
        let capacity = target.min(max_points_estimate(sampling, self.radius) as usize);
        let capacity = capacity.min(1 << 16);
        let (rule, rmin, rmax) = (setup.rule, setup.rmin, setup.rmax);
        let run = match &self.grid {
            Some((_, layout)) => {
                let rule = FieldRule::for_layout(rule, rmin, rmax, layout);
                with_storage!(StoredGrid::new(Arc::clone(layout), rule, capacity), grid =>
                    self.throw_field_run(setup, grid, target, rng))
            }
            None => {
                let accepted = EveryPointField {
                    points: Vec::with_capacity(capacity),
                    radii: Vec::with_capacity(capacity),
                    rule,
                    torus: self.domain.is_periodic().then_some(*self.domain.extent()),
                };
                self.throw_field_run(setup, accepted, target, rng)
            }
        };
        let stop = if run.stop == StopReason::TargetReached && target < n {
            StopReason::PointLimit
        } else {
            run.stop
        };
        let mut set = PointSet::new(run.points, self.domain, stop, run.attempts);
        set.radii = Some(run.radii);
        set.field_error = run.error;
        set
    }
}

impl<const D: usize> FillSampler<D> for DartThrowing<D> {
    fn fill<R: Rng + ?Sized>(&self, rng: &mut R) -> PointSet<D> {
        self.sample(usize::MAX, rng)
    }
}
