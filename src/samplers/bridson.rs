//! Bridson's algorithm: fast Poisson-disk sampling in any dimension.
//!
//! [`Bridson`] is the validated configuration; [`BridsonFill`] the state of one run, which
//! can start from given points, advance a step at a time, stop and resume.
//! [`Bridson::sample`] is a [`BridsonFill`] run in one go.

use crate::config::{Builder, Capabilities, Config};
use crate::defaults;
use crate::domain::Domain;
pub use crate::engine::front::FrontOrder;
use crate::engine::front::{self, Grown, Rules, Step};
use crate::engine::scan::Scan;
pub use crate::engine::shell::CandidateDistance;
use crate::engine::shell::PairedShell;
use crate::engine::space::{DiskSpace, FieldSpace};
use crate::error::Error;
use crate::field::{FieldSetup, PairRule, RadiusField};
use crate::grid::{
    CellHeads, ConstantRadius, FieldRule, GridLayout, GridResolution, StoredGrid, Tuning,
    field_layout, with_storage,
};
use crate::packing::max_points_estimate;
use crate::point::Point;
use crate::region::shape::{SamplerRegion, Shape, ShellRegion};
use crate::region::{Region, WholeDomain};
use crate::sampler::{FillSampler, PointSet, Sampler, StopReason, Watch};
use rand::Rng;
use std::sync::Arc;

/// Bridson's algorithm (Bridson 2007, "Fast Poisson disk sampling in arbitrary dimensions").
///
/// Starts from one uniform point; repeatedly picks a random *active* point (any, or one of
/// the newest with [`FrontOrder::Recent`]) and tries up to
/// `k` candidates drawn uniformly by volume from the shell `[r, 2r]` around it. A candidate
/// with no point closer than `r` is accepted and becomes active; an active point whose `k`
/// candidates all fail retires. The run ends when no point is active (or at `n` points).
///
/// Guarantees: every pair of points is at least `r` apart (toroidally in a periodic domain)
/// and every point lies in the domain. O(N·k) expected time; memory O(N) plus the grid.
/// It does not guarantee maximality: with `k = 30` it stops well short of a maximal set.
///
/// The background grid has cells of side at most r (default) or r/√D (see
/// [`GridResolution`]), and the search covers exactly the cells that can hold a point closer
/// than `r`: with r/√D cells that is ⌈√D⌉ cells along an axis, not the 5^D block that is only
/// enough up to D = 4 (docs/algorithms.md).
///
/// Configured with [`Bridson::builder`] (or [`Bridson::new`] for the defaults), whose
/// [`build`](BridsonBuilder::build) checks everything once, the point limit included.
///
/// **Variable radius.** With a [`RadiusField`] ([`Bridson::builder_with_field`] or
/// [`BridsonBuilder::with_radius_field`]) each point `p` has its own radius `r(p)`, the
/// candidates around an active point `p` are drawn in the shell `[r(p), 2r(p)]`, and every
/// pair keeps the distance of the [`PairRule`] (`max(rᵢ, rⱼ)` by default). The output's
/// [`PointSet::radii`] holds each point's radius. A field value that is NaN, not positive
/// or outside the field's bounds stops the run with [`StopReason::InvalidField`]
/// (docs/algorithms.md, "Variable radius").
///
/// ```
/// use poisson_nd::{Bridson, Domain, FillSampler, Sampler};
/// let bridson = Bridson::new(Domain::<2>::unit(), 0.05)?;
/// let set = bridson.fill_seeded(7);
/// assert!(set.len() > 200);
/// // At most 100 points: the same run, cut short.
/// assert_eq!(bridson.sample_seeded(100, 7).points[..], set.points[..100]);
/// // A radius whose densest packing passes the default limit needs a higher one.
/// let fine = Bridson::builder(Domain::<2>::unit(), 1e-4).with_max_points(200_000_000).build()?;
/// assert_eq!(fine.max_points(), 200_000_000);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Bridson<const D: usize> {
    domain: Domain<D>,
    radius: f64,
    attempts: u32,
    max_points: usize,
    resolution: GridResolution,
    tuning: Tuning,
    /// Shared with every run's grid.
    layout: Arc<GridLayout<D>>,
    candidate_distance: CandidateDistance,
    front_order: FrontOrder,
    /// The radius field and pair rule, `None` for one radius (`radius` is then the field's
    /// rmin).
    field: Option<FieldSetup<D>>,
    /// Darts thrown when no point is active (radius fields only).
    restart_darts: u32,
    region: SamplerRegion<D>,
    /// The progress hook, if any.
    watch: Option<Watch>,
}

/// Bridson's own options, beside the shared settings of its [`Builder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BridsonOptions {
    candidate_distance: CandidateDistance,
    front_order: FrontOrder,
    restart_darts: u32,
}

impl Default for BridsonOptions {
    fn default() -> Self {
        BridsonOptions {
            candidate_distance: CandidateDistance::default(),
            front_order: FrontOrder::default(),
            restart_darts: defaults::RESTART_DARTS,
        }
    }
}

/// The configuration of a [`Bridson`] sampler before it is checked: the shared settings
/// ([`Builder`]: region, radius field, `k`, point limit, grid) and Bridson's own; every setter
/// is infallible and [`build`](Builder::build) validates the whole once.
pub type BridsonBuilder<const D: usize> = Builder<D, BridsonOptions>;

impl<const D: usize> Builder<D, BridsonOptions> {
    /// Sets how many uniform darts a run with a radius field throws when no point is active
    /// (default [`defaults::RESTART_DARTS`]): the first that keeps the pair rule's distance
    /// is stored and the run grows from it again; when all miss, the run ends. Where the
    /// field grows by more than 2× from one point to the next (3× under
    /// [`PairRule::Mean`]), no candidate of the shell `[r(p), 2r(p)]` can be accepted across
    /// the step, so regions behind such steps are reached only this way
    /// (docs/algorithms.md, "Variable radius"). 0 turns it off. Without a field (or with a
    /// constant one) it changes nothing.
    #[must_use]
    pub fn with_restart_darts(mut self, darts: u32) -> Self {
        self.options.restart_darts = darts;
        self
    }

    /// Chooses how candidates are spread over the shell `[r, 2r]` (default
    /// [`CandidateDistance::UniformInVolume`], Bridson's specification).
    #[must_use]
    pub fn with_candidate_distance(mut self, distance: CandidateDistance) -> Self {
        self.options.candidate_distance = distance;
        self
    }

    /// Chooses which active point each step works around (default [`FrontOrder::Uniform`],
    /// Bridson's rule). [`FrontOrder::Recent`] is faster where the grid outgrows the caches
    /// and gives other points for a seed, with the same guarantees.
    ///
    /// ```
    /// use poisson_nd::{Bridson, Domain, FrontOrder, Sampler};
    /// let uniform = Bridson::new(Domain::<3>::unit(), 0.1)?;
    /// let recent = uniform.to_builder().with_front_order(FrontOrder::Recent).build()?;
    /// assert_eq!(recent.front_order(), FrontOrder::Recent);
    /// let (a, b) = (uniform.sample_seeded(usize::MAX, 1), recent.sample_seeded(usize::MAX, 1));
    /// assert_ne!(a.points, b.points);
    /// // No pair closer than the radius, by brute force.
    /// let d2 = |p: &[f64; 3], q: &[f64; 3]| (0..3).map(|i| (p[i] - q[i]).powi(2)).sum::<f64>();
    /// for (i, p) in b.points.iter().enumerate() {
    ///     assert!(b.points[..i].iter().all(|q| d2(p, q) >= 0.01));
    /// }
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    #[must_use]
    pub fn with_front_order(mut self, order: FrontOrder) -> Self {
        self.options.front_order = order;
        self
    }

    /// Checks the configuration and lays out the grid.
    ///
    /// Errors: a radius that is not finite and positive; `k = 0`; a point limit of
    /// 0 or above 2147483647; a radius so small for the box that its densest packing would
    /// pass the point limit ([`Error::TooManyPoints`]); a grid with more cells than can be
    /// indexed. With a radius field: bounds that are not `0 < rmin ≤ rmax < ∞`
    /// ([`Error::InvalidRadiusBounds`]); `rmin` too small for the point limit (as a radius);
    /// `rmax/rmin` so large that the grid's search would be too wide
    /// ([`Error::RadiusRatioTooLarge`]). With a region: a periodic domain, a region that
    /// misses the domain's box, or one with no point found in it (the radius is then checked
    /// against the part of the box the region can occupy).
    pub fn build(self) -> Result<Bridson<D>, Error> {
        let checked = self.config.check("bridson", &Bridson::<D>::CAPABILITIES)?;
        checked.check_budget()?;
        let sampling = *checked.sampling_box();
        let (radius, rmax) = checked.radius_bounds();
        let region = checked.region.clone().with_shell(shell_reach(rmax));
        let resolution = checked.grid.unwrap_or_default();
        let layout = match &checked.field {
            None => GridLayout::for_rule(
                &sampling,
                &ConstantRadius::new(radius),
                resolution,
                checked.tuning.dense_grid_limit(),
            )?,
            Some(setup) => field_layout(&sampling, setup, resolution, checked.tuning)?,
        };
        Ok(Bridson {
            domain: checked.domain,
            radius,
            attempts: checked.attempts,
            max_points: checked.max_points,
            resolution,
            tuning: checked.tuning,
            layout: Arc::new(layout),
            candidate_distance: self.options.candidate_distance,
            front_order: self.options.front_order,
            field: checked.field,
            restart_darts: self.options.restart_darts,
            region,
            watch: checked.watch,
        })
    }
}

impl<const D: usize> Bridson<D> {
    /// What Bridson's sampler supports: a radius or a radius field, regions, closed and
    /// periodic boxes, `k`, the grid, every dimension.
    pub const CAPABILITIES: Capabilities = Capabilities {
        radius: true,
        field: true,
        region: true,
        periodic: true,
        attempts: true,
        grid: true,
        min_dimension: 1,
        max_dimension: usize::MAX,
    };

    /// The configuration of Bridson's sampler in `domain` with minimum distance `radius`,
    /// with every default; set what you need, then [`build`](BridsonBuilder::build).
    pub fn builder(domain: Domain<D>, radius: f64) -> BridsonBuilder<D> {
        Builder::from_defaults(domain, Some(radius), BridsonOptions::default())
    }

    /// The configuration of Bridson's sampler in `domain` with a radius field (see
    /// [`BridsonBuilder::with_radius_field`]), pair rule [`PairRule::Max`] and every other
    /// default.
    ///
    /// ```
    /// use poisson_nd::{Bridson, Domain, FillSampler, Sampler, field::{FnField, PairRule}};
    /// let domain = Domain::<2>::unit().periodic();
    /// // Finer towards the right.
    /// let field = FnField::new(|p: &[f64; 2]| 0.08 - 0.06 * p[0], 0.02, 0.08)?;
    /// let sampler = Bridson::builder_with_field(domain, field)
    ///     .with_pair_rule(PairRule::Mean)
    ///     .build()?;
    /// assert_eq!(sampler.min_distance(), Some(0.02)); // rmin, for every rule
    /// let set = sampler.fill_seeded(5);
    /// let radii = set.radii.expect("one radius per point");
    /// assert!(radii.iter().all(|r| (0.02..=0.08).contains(r)));
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn builder_with_field(
        domain: Domain<D>,
        field: impl RadiusField<D> + 'static,
    ) -> BridsonBuilder<D> {
        let (rmin, _) = field.bounds();
        Self::builder(domain, rmin).with_radius_field(field)
    }

    /// Bridson's sampler with every default: `Bridson::builder(domain, radius).build()`.
    /// Errors as [`BridsonBuilder::build`].
    pub fn new(domain: Domain<D>, radius: f64) -> Result<Self, Error> {
        Self::builder(domain, radius).build()
    }

    /// This sampler's configuration, to change and build again.
    pub fn to_builder(&self) -> BridsonBuilder<D> {
        let mut config = Config::new(self.domain, Some(self.radius));
        config.field = self.field.as_ref().map(|setup| Arc::clone(&setup.field));
        config.pair_rule = self.pair_rule();
        config.region = self.region.user_region();
        config.attempts = Some(self.attempts);
        config.max_points = self.max_points;
        config.grid = Some(self.resolution);
        config.tuning = self.tuning;
        config.watch = self.watch.clone();
        let options = BridsonOptions {
            candidate_distance: self.candidate_distance,
            front_order: self.front_order,
            restart_darts: self.restart_darts,
        };
        Builder { config, options }
    }

    /// Darts thrown when no point is active, in a run with a radius field.
    pub fn restart_darts(&self) -> u32 {
        self.restart_darts
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

    /// Whether a region smaller than the box was set.
    pub fn has_region(&self) -> bool {
        matches!(self.region, SamplerRegion::Shape(_))
    }

    /// The box candidates are drawn from: the domain's, or the part of it the region can
    /// occupy.
    fn sampling_box(&self) -> &Domain<D> {
        self.region.sampling_box(&self.domain)
    }

    /// How candidates are spread over the shell.
    pub fn candidate_distance(&self) -> CandidateDistance {
        self.candidate_distance
    }

    /// Which active point each step works around.
    pub fn front_order(&self) -> FrontOrder {
        self.front_order
    }

    /// The minimum distance: the radius, or with a radius field its lower bound rmin (the
    /// distance every pair keeps whatever the pair rule).
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// Candidates per active point.
    pub fn attempts(&self) -> u32 {
        self.attempts
    }

    /// The point limit.
    pub fn max_points(&self) -> usize {
        self.max_points
    }

    /// The grid resolution in use.
    pub fn resolution(&self) -> GridResolution {
        self.resolution
    }

    /// The state of a new run with no points yet: add points or seeds to it, then run it
    /// (see [`BridsonFill`]).
    pub fn start_fill(&self) -> BridsonFill<D> {
        let estimate = max_points_estimate(self.sampling_box(), self.radius) as usize;
        BridsonFill::new(self.clone(), estimate.min(1 << 16))
    }
}

/// Advanced: the background grid's internals, for tests and performance work.
impl<const D: usize> Bridson<D> {
    /// Number of cells searched around each candidate.
    pub fn advanced_neighbourhood_len(&self) -> usize {
        self.layout.neighbourhood_len()
    }

    /// Whether the background grid is a dense array (`false`: a hash map).
    pub fn advanced_is_grid_dense(&self) -> bool {
        self.layout.is_dense()
    }

    /// The grid tuning in use.
    pub fn advanced_tuning(&self) -> Tuning {
        self.tuning
    }
}

impl<const D: usize> Bridson<D> {
    /// How the front draws: `k` candidates per active point, Bridson's shell draw.
    pub(crate) fn rules(&self) -> Rules<PairedShell> {
        Rules {
            attempts: self.attempts,
            shell: PairedShell { distance: self.candidate_distance },
            order: self.front_order,
        }
    }

    /// When no point is active in a field run: up to `restart_darts` uniform darts in the
    /// sampling box; the first in the region that keeps the pair rule is stored and active
    /// (returns true). Each dart is an attempt.
    fn restart<H: CellHeads, G: ShellRegion<D>, R: Rng + ?Sized>(
        &self,
        space: &mut FieldSpace<'_, D, H, G>,
        active: &mut Vec<u32>,
        attempts: &mut u64,
        rng: &mut R,
    ) -> Result<bool, Error> {
        let sampling = *self.sampling_box();
        front::seed_by_darts(
            space,
            active,
            self.restart_darts as usize,
            attempts,
            rng,
            |rng| sampling.uniform_point(rng),
            |space, dart| {
                if space.region.contains_box_point(dart) {
                    space.seed_radius(dart)
                } else {
                    Ok(None)
                }
            },
        )
    }
}

impl<const D: usize> Sampler<D> for Bridson<D> {
    fn name(&self) -> &'static str {
        "bridson"
    }

    fn label(&self) -> String {
        let label = match self.front_order {
            FrontOrder::Uniform => "bridson",
            FrontOrder::Recent => "bridson-recent",
        };
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
        let target = n.min(self.max_points);
        if target == 0 {
            let mut set = PointSet::new(Vec::new(), self.domain, StopReason::TargetReached, 0);
            set.radii = self.field.as_ref().map(|_| Vec::new());
            return set;
        }
        let estimate = max_points_estimate(self.sampling_box(), self.radius) as usize;
        // With a field the estimate (at rmin) can be far above the count: reserve less.
        let capacity = if self.field.is_some() { estimate.min(1 << 16) } else { estimate };
        let mut fill = BridsonFill::new(self.clone(), target.min(capacity));
        if fill.scan.is_none() {
            fill.add_random(rng);
        } else {
            // A first seed drawn in the region's box; if none lands in the region, the
            // restart scan finds one.
            for _ in 0..FIRST_SEED_DRAWS {
                if fill.add_random(rng) {
                    break;
                }
            }
        }
        let stop = match fill.run_until(target, rng) {
            StopReason::TargetReached if target < n => StopReason::PointLimit,
            stop => stop,
        };
        fill.stop = stop;
        fill.into_point_set()
    }

    fn try_fill<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<PointSet<D>> {
        Some(self.fill(rng))
    }
}

impl<const D: usize> FillSampler<D> for Bridson<D> {
    fn fill<R: Rng + ?Sized>(&self, rng: &mut R) -> PointSet<D> {
        self.sample(usize::MAX, rng)
    }
}

/// Draws of a first seed in the region's box before the restart scan takes over.
const FIRST_SEED_DRAWS: usize = 64;

/// What one [`BridsonFill::step`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FillStep {
    /// A candidate was accepted: it is the point with this index, and active.
    Added(usize),
    /// All `k` candidates of the chosen active point failed; it is no longer active.
    Retired,
    /// No point is active (the front is dead) and, in a region, the restart scan has no
    /// uncovered part left to seed: the run cannot go on. Adding points revives it.
    Exhausted,
    /// The point limit is reached.
    PointLimit,
    /// The radius field gave an invalid value (see [`BridsonFill::field_error`]); the run
    /// cannot go on.
    InvalidField,
}

/// The grid of a run, with the sampler's conflict rule (in the storage its layout picked);
/// the loop is compiled once for each rule and storage.
#[derive(Debug)]
enum FillGrid<const D: usize> {
    Constant(StoredGrid<D, ConstantRadius>),
    Field(StoredGrid<D, FieldRule>),
}

/// Runs `$body` with `$grid` bound to the run's grid, whatever its storage and rule.
macro_rules! with_grid {
    ($fill:expr, $grid:ident => $body:expr) => {
        by_rule!($fill, $grid => constant: $body, field: $body)
    };
}

/// Runs `$constant` with `$grid` bound to a constant-radius grid, `$field` with it bound to
/// a radius field's grid.
macro_rules! by_rule {
    ($fill:expr, $grid:ident => constant: $constant:expr, field: $field:expr) => {
        match $fill {
            FillGrid::Constant(stored) => with_storage!(stored, $grid => $constant),
            FillGrid::Field(stored) => with_storage!(stored, $grid => $field),
        }
    };
}

/// How far from its active point a candidate can lie, in every coordinate: within 2r (2·rmax
/// with a field), a hair more for the rounding of the shell draw's arithmetic.
fn shell_reach(rmax: f64) -> f64 {
    2.0 * rmax * (1.0 + 1e-9)
}

/// The state of one run of Bridson's algorithm: the points so far, which of them are active,
/// and the work done. It can be built up and advanced piece by piece, stopped and resumed;
/// [`Bridson::sample`] is `add_random` then `run_until(n)` on a new one, so a run taken in
/// steps gives the same points as one taken at once, for the same generator.
///
/// - **Starting points.** [`add`](Self::add) stores a given point (wrapped into a periodic
///   box) when it is admissible and keeps the minimum distance to the points already there;
///   it becomes active, so the run grows around it. Stored points never move. Several seeds,
///   or a whole existing set, are several calls.
/// - **Running.** [`step`](Self::step) tries the candidates around one active point;
///   [`run_until`](Self::run_until) steps until a number of points; [`run`](Self::run) until
///   no point is active.
/// - **Result.** [`points`](Self::points) at any time; [`into_point_set`](Self::into_point_set)
///   at the end.
/// - **Regions** ([`BridsonBuilder::with_region`]): seeds and candidates must lie in the
///   region, and random seeds are drawn from its box. When no point is active, a restart
///   scan over cells of side r/√D seeds the next uncovered part of the region (a cell holding
///   a point of the region with no sample closer than r), in a fixed order with darts from
///   the run's generator, and the front grows again; the run is exhausted only when the scan
///   has passed every cell. Every piece of the region then holds samples: every point of the
///   region in a cell where the scan found a point of it is closer than 2r to a sample
///   (docs/algorithms.md, "Regions").
///
/// ```
/// use poisson_nd::{Bridson, Domain, StopReason};
/// use poisson_nd::rng::rng_from_seed;
/// let bridson = Bridson::new(Domain::<2>::unit(), 0.05)?;
/// let mut fill = bridson.start_fill();
/// // Two seeds far apart, and a point too close to the first one.
/// assert!(fill.add([0.1, 0.1]));
/// assert!(fill.add([0.9, 0.9]));
/// assert!(!fill.add([0.12, 0.1]));
/// let mut rng = rng_from_seed(3);
/// assert_eq!(fill.run_until(50, &mut rng), StopReason::TargetReached);
/// assert_eq!(fill.run(&mut rng), StopReason::Exhausted);
/// let set = fill.into_point_set();
/// assert_eq!(set.points[..2], [[0.1, 0.1], [0.9, 0.9]]);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug)]
pub struct BridsonFill<const D: usize> {
    sampler: Bridson<D>,
    region: WholeDomain<D>,
    grid: FillGrid<D>,
    /// Indices of the active points.
    active: Vec<u32>,
    attempts: u64,
    /// Why the latest run stopped.
    stop: StopReason,
    /// The radius field's invalid value that stopped the run, if any.
    field_error: Option<Error>,
    /// The restart scan, for a region smaller than the box.
    scan: Option<Scan<D>>,
}

impl<const D: usize> BridsonFill<D> {
    /// An empty run of `sampler`, with room for `capacity` points before it reallocates.
    fn new(sampler: Bridson<D>, capacity: usize) -> Self {
        let layout = Arc::clone(&sampler.layout);
        let grid = match &sampler.field {
            None => FillGrid::Constant(StoredGrid::new(
                layout,
                ConstantRadius::new(sampler.radius),
                capacity,
            )),
            Some(setup) => {
                let rule = FieldRule::for_layout(setup.rule, setup.rmin, setup.rmax, &layout);
                FillGrid::Field(StoredGrid::new(layout, rule, capacity))
            }
        };
        let scan = match &sampler.region {
            SamplerRegion::Whole => None,
            SamplerRegion::Shape(shape) => Some(Scan::for_region(shape.sampling(), sampler.radius)),
        };
        BridsonFill {
            region: WholeDomain::new(sampler.domain)
                .with_shell(shell_reach(sampler.radius_bounds().1)),
            scan,
            sampler,
            grid,
            active: Vec::new(),
            attempts: 0,
            stop: StopReason::TargetReached,
            field_error: None,
        }
    }

    /// Each point's radius, in the order of [`points`](Self::points), when the sampler has
    /// a radius field; `None` for one radius.
    pub fn radii(&self) -> Option<&[f64]> {
        match &self.grid {
            FillGrid::Constant(_) => None,
            FillGrid::Field(stored) => Some(with_storage!(stored, grid => grid.rule().radii())),
        }
    }

    /// The invalid radius-field value that stopped the run
    /// ([`Error::FieldValueOutOfBounds`]), if one did; the run cannot go on after it.
    pub fn field_error(&self) -> Option<&Error> {
        self.field_error.as_ref()
    }

    /// Records an invalid field value: the run stops for good.
    fn fail(&mut self, error: Error) -> StopReason {
        self.field_error = Some(error);
        self.stop = StopReason::InvalidField;
        self.stop
    }

    /// The points so far, in the order they were stored.
    pub fn points(&self) -> &[Point<D>] {
        with_grid!(&self.grid, grid => grid.points())
    }

    /// Number of points so far.
    pub fn len(&self) -> usize {
        self.points().len()
    }

    /// Whether no point is stored yet.
    pub fn is_empty(&self) -> bool {
        self.points().is_empty()
    }

    /// Number of active points: those around which candidates may still be tried.
    pub fn active_len(&self) -> usize {
        self.active.len()
    }

    /// Candidates drawn so far (given points are not counted; a random seed is).
    pub fn attempts(&self) -> u64 {
        self.attempts
    }

    /// The sampler this run belongs to.
    pub fn sampler(&self) -> &Bridson<D> {
        &self.sampler
    }

    /// Stores `p` as an active point, unless it lies outside the region (outside a closed
    /// box; a periodic box wraps it), is closer than `r` to a stored point, or the point
    /// limit is reached. Returns whether it was stored. Stored points are never moved.
    ///
    /// With a radius field, `p` takes the field's radius at its (wrapped) position and must
    /// keep the pair rule's distance to every stored point; an invalid field value there
    /// is not stored and stops the run ([`field_error`](Self::field_error)).
    pub fn add(&mut self, p: Point<D>) -> bool {
        if self.field_error.is_some() || self.len() >= self.sampler.max_points {
            return false;
        }
        let admitted = match &self.sampler.region {
            SamplerRegion::Whole => self.region.admit(&self.sampler.domain, &p),
            SamplerRegion::Shape(shape) => shape.admit(&self.sampler.domain, &p),
        };
        let Some(p) = admitted else { return false };
        let setup = self.sampler.field.as_ref();
        let stored = by_rule!(&mut self.grid, grid =>
            constant: {
                if grid.has_conflict(&p, ()) {
                    return false;
                }
                Ok(grid.insert(p, ()))
            },
            field: match setup.map(|setup| setup.radius_at(&p)) {
                Some(Ok(r)) if grid.has_conflict_within(&p, r) => return false,
                Some(Ok(r)) => Ok(grid.insert(p, r)),
                Some(Err(error)) => Err(error),
                // A field grid always has its field.
                None => return false,
            }
        );
        match stored {
            Ok(index) => {
                self.active.push(index);
                true
            }
            Err(error) => {
                self.fail(error);
                false
            }
        }
    }

    /// Draws one point uniformly in the domain (in a region: in the part of the domain's
    /// box its bounding box covers) and [`add`](Self::add)s it (one attempt): how a run
    /// starts without given points. Returns whether it was stored.
    pub fn add_random<R: Rng + ?Sized>(&mut self, rng: &mut R) -> bool {
        let p = self.sampler.sampling_box().uniform_point(rng);
        self.attempts += 1;
        self.add(p)
    }

    /// One step: picks an active point at random and tries up to `k` candidates around it;
    /// the first with no point closer than `r` is stored and becomes active, and if none
    /// is, the active point retires. When no point is active, a step restarts the run if it
    /// can: with a radius field by uniform darts (see
    /// [`BridsonBuilder::with_restart_darts`]), in a region by the restart scan's next seed
    /// ([`FillStep::Added`]).
    pub fn step<R: Rng + ?Sized>(&mut self, rng: &mut R) -> FillStep {
        if self.field_error.is_some() {
            return FillStep::InvalidField;
        }
        if self.len() >= self.sampler.max_points {
            self.stop = StopReason::PointLimit;
            return FillStep::PointLimit;
        }
        let shape = self.shape();
        let restart = self.active.is_empty();
        let added = if restart && self.sampler.field.is_none() {
            // One radius: only the restart scan can revive the run.
            Ok(false)
        } else {
            match &shape {
                None => {
                    let whole = self.region;
                    self.step_in(&whole, restart, rng)
                }
                Some(shape) => self.step_in(&**shape, restart, rng),
            }
        };
        let added = match (added, &shape) {
            (Ok(false), Some(shape)) if restart => self.seed_from_scan(shape, rng),
            (added, _) => added,
        };
        match added {
            Ok(true) => FillStep::Added(self.len() - 1),
            Ok(false) if restart => {
                self.stop = StopReason::Exhausted;
                FillStep::Exhausted
            }
            Ok(false) => FillStep::Retired,
            Err(error) => {
                self.fail(error);
                FillStep::InvalidField
            }
        }
    }

    /// The classified shape of a region smaller than the box, if any.
    fn shape(&self) -> Option<Arc<Shape<D>>> {
        match &self.sampler.region {
            SamplerRegion::Whole => None,
            SamplerRegion::Shape(shape) => Some(Arc::clone(shape)),
        }
    }

    /// [`step`](Self::step)'s work in `region`, compiled for it and for the grid's rule:
    /// candidates around an active point, or (`restart`, radius fields only) restart darts.
    fn step_in<G: ShellRegion<D>, R: Rng + ?Sized>(
        &mut self,
        region: &G,
        restart: bool,
        rng: &mut R,
    ) -> Result<bool, Error> {
        let sampler = &self.sampler;
        let (active, attempts) = (&mut self.active, &mut self.attempts);
        let (rules, domain) = (sampler.rules(), sampler.domain);
        by_rule!(&mut self.grid, grid =>
            constant: {
                let mut space = DiskSpace { grid, region, domain, radius: sampler.radius };
                let Ok(step) = front::step(&mut space, active, &rules, attempts, rng);
                Ok(step == Step::Added)
            },
            field: {
                // A field grid is only made for a sampler with a field.
                let Some(setup) = &sampler.field else { return Ok(false) };
                let mut space = FieldSpace { grid, region, domain, setup };
                if restart {
                    sampler.restart(&mut space, active, attempts, rng)
                } else {
                    Ok(front::step(&mut space, active, &rules, attempts, rng)? == Step::Added)
                }
            }
        )
    }

    /// Steps until there are `target` points ([`StopReason::TargetReached`]), no point is
    /// active ([`StopReason::Exhausted`]) or the point limit stops it first
    /// ([`StopReason::PointLimit`]). Can be called again, with a higher target or after
    /// adding points. A radius field's invalid value stops it for good
    /// ([`StopReason::InvalidField`]).
    pub fn run_until<R: Rng + ?Sized>(&mut self, target: usize, rng: &mut R) -> StopReason {
        if self.field_error.is_some() {
            return StopReason::InvalidField;
        }
        let limit = target.min(self.sampler.max_points);
        let grown = match self.shape() {
            None => {
                let whole = self.region;
                self.run_in(&whole, limit, rng)
            }
            Some(shape) => self.run_shape(&shape, limit, rng),
        };
        self.stop = match grown {
            Ok(Grown::FrontDied) => StopReason::Exhausted,
            Ok(Grown::Cancelled) => StopReason::Cancelled,
            Ok(Grown::AtLimit) if limit == target => StopReason::TargetReached,
            Ok(Grown::AtLimit) => StopReason::PointLimit,
            Err(error) => return self.fail(error),
        };
        self.stop
    }

    /// The loop in `region`, compiled for it and for the grid's rule: steps until `limit`
    /// points, until no point is active, or until the progress hook stops it; with a radius
    /// field, restart darts when the front dies.
    fn run_in<G: ShellRegion<D>, R: Rng + ?Sized>(
        &mut self,
        region: &G,
        limit: usize,
        rng: &mut R,
    ) -> Result<Grown, Error> {
        let sampler = &self.sampler;
        let (active, attempts) = (&mut self.active, &mut self.attempts);
        let (rules, domain, watch) = (sampler.rules(), sampler.domain, sampler.watch.as_ref());
        by_rule!(&mut self.grid, grid =>
            constant: {
                let mut space = DiskSpace { grid, region, domain, radius: sampler.radius };
                let Ok(grown) = front::grow(&mut space, active, &rules, limit, watch, attempts, rng);
                Ok(grown)
            },
            field: {
                let Some(setup) = &sampler.field else { return Ok(Grown::FrontDied) };
                let mut space = FieldSpace { grid, region, domain, setup };
                loop {
                    match front::grow(&mut space, active, &rules, limit, watch, attempts, rng)? {
                        Grown::FrontDied => {}
                        grown => break Ok(grown),
                    }
                    if !sampler.restart(&mut space, active, attempts, rng)? {
                        break Ok(Grown::FrontDied);
                    }
                }
            }
        )
    }

    /// The run in a region: the loop, compiled for the classified shape, and the restart
    /// scan's seeds each time the front dies, until the limit, the end of the scan (the front
    /// died for good) or the progress hook.
    fn run_shape<R: Rng + ?Sized>(
        &mut self,
        shape: &Shape<D>,
        limit: usize,
        rng: &mut R,
    ) -> Result<Grown, Error> {
        loop {
            match self.run_in(shape, limit, rng)? {
                Grown::FrontDied => {}
                grown => return Ok(grown),
            }
            if !self.seed_from_scan(shape, rng)? {
                return Ok(Grown::FrontDied);
            }
        }
    }

    /// Stores the restart scan's next seed as an active point (one attempt); false when the
    /// scan is over (or there is none: the whole box). With a radius field a point counts
    /// as covered where a point of its own radius would conflict, and the seed takes the
    /// field's radius; an invalid field value is the error.
    fn seed_from_scan<R: Rng + ?Sized>(
        &mut self,
        shape: &Shape<D>,
        rng: &mut R,
    ) -> Result<bool, Error> {
        let Some(scan) = self.scan.as_mut() else { return Ok(false) };
        let setup = self.sampler.field.as_ref();
        let failure = std::cell::RefCell::new(None);
        let seed = by_rule!(&self.grid, grid =>
            constant: {
                scan.mark_covered(grid.points());
                scan.next_seed(shape, |p| grid.has_conflict(p, ()), rng)
            },
            field: scan.next_seed(
                shape,
                |p| match setup.map(|setup| setup.radius_at(p)) {
                    Some(Ok(r)) => grid.has_conflict_within(p, r),
                    Some(Err(error)) => {
                        failure.borrow_mut().get_or_insert(error);
                        true
                    }
                    None => true,
                },
                rng,
            )
        );
        if let Some(error) = failure.into_inner() {
            return Err(error);
        }
        let Some(seed) = seed else { return Ok(false) };
        self.attempts += 1;
        let index = by_rule!(&mut self.grid, grid =>
            constant: grid.insert(seed, ()),
            field: match setup.map(|setup| setup.radius_at(&seed)) {
                Some(Ok(r)) => grid.insert(seed, r),
                Some(Err(error)) => return Err(error),
                None => return Ok(false),
            }
        );
        self.active.push(index);
        Ok(true)
    }

    /// Steps until no point is active ([`StopReason::Exhausted`]) or the point limit is
    /// reached ([`StopReason::PointLimit`]).
    pub fn run<R: Rng + ?Sized>(&mut self, rng: &mut R) -> StopReason {
        match self.run_until(usize::MAX, rng) {
            StopReason::TargetReached => StopReason::PointLimit,
            stop => stop,
        }
    }

    /// Ends the run: its points (and their radii, with a radius field), with the reason
    /// the latest run stopped, the attempts, and the field's invalid value if it stopped
    /// the run.
    pub fn into_point_set(self) -> PointSet<D> {
        let domain = self.sampler.domain;
        let (points, radii) = by_rule!(self.grid, grid =>
            constant: (grid.into_points(), None),
            field: {
                let (points, rule) = grid.into_points_and_rule();
                (points, Some(rule.into_radii()))
            }
        );
        let mut set = PointSet::new(points, domain, self.stop, self.attempts);
        set.radii = radii;
        set.field_error = self.field_error;
        set
    }
}
