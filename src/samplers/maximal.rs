//! Maximal Poisson-disk sampling: random sequential adsorption run to saturation, with the
//! active-cell bookkeeping of Ebeida et al. that tells when no room is left.
//!
//! Points are looked up in the crate's grid (`crate::grid`), in cells at least r wide that
//! hold their first point inline; the active cells that say where room may be left are this
//! file's own bookkeeping.

use crate::config::{Builder, Capabilities, Config};
use crate::domain::Domain;
use crate::error::Error;
use crate::grid::{GridLayout, InlineCells, radix_sort_by_key};
use crate::packing::max_points_estimate;
use crate::point::Point;
use crate::region::shape::SamplerRegion;
use crate::region::{BoxClass, Region, WholeDomain};
use crate::rng::{fraction_of, index_of};
use crate::sampler::{FillSampler, PointSet, Sampler, StopReason, Watch};
use rand::Rng;
use std::sync::Arc;

/// How many darts ahead of its test a dart's lookup cells are prefetched.
const AHEAD: usize = 8;

/// The highest dimension `Maximal` accepts. Halving the active cells chases thin uncovered
/// slivers whose count grows steeply with D: a 6D run of a few dozen points takes about a
/// second, a 7D one 10–36 s (measured 2026-12-01), so 7D and up are refused rather than left
/// to run that long.
pub(crate) const MAX_DIM: usize = 6;

// The refinement keeps a bit per half of a cell in one `u64`.
const _: () = assert!(1 << MAX_DIM <= u64::BITS);

/// Darts per active cell in one phase of dart throwing, before the phase's success is judged.
pub(crate) const DARTS_PER_CELL: f64 = 0.5;

/// A phase whose darts removed at least this fraction of its active cells is followed by
/// another phase at the same cell size; below it, the cells are refined. Refining costs about
/// as much per cell as a few darts, so it pays once darts mostly land in covered cells
/// (the constants were tuned on 2D runs of 10^6 points; they change speed, never the output's
/// distribution).
pub(crate) const REFINE_BELOW: f64 = 0.3;

/// Which cells of a phase are retired (covered, or holding a point): one bit per cell, and
/// how many are still live.
struct Retired {
    bits: Vec<u64>,
    live: u64,
}

impl Retired {
    /// `cells` cells, all live.
    fn new(cells: u64) -> Self {
        Retired { bits: vec![0; (cells as usize).div_ceil(64)], live: cells }
    }

    /// Whether cell `slot` is retired.
    #[inline]
    fn is(&self, slot: u64) -> bool {
        self.bits[slot as usize / 64] >> (slot % 64) & 1 == 1
    }

    /// The bits that hold the number of any cell.
    fn slot_bits(&self) -> u32 {
        u64::BITS - (self.bits.len() as u64 * 64).saturating_sub(1).leading_zeros()
    }

    /// Retires the live cell `slot`.
    #[inline]
    fn retire(&mut self, slot: u64) {
        self.bits[slot as usize / 64] |= 1 << (slot % 64);
        self.live -= 1;
    }
}

/// The room batches of darts are drawn and sorted in, kept from batch to batch and phase to
/// phase: the darts as drawn (`W` is what a dart is drawn as) and their double for the radix
/// sort, and the darts no earlier point turns down (each key, the lower corner of its cell
/// and the dart) with their double.
struct BatchScratch<const D: usize, W> {
    drawn: Vec<(u64, W)>,
    batch: Vec<(u64, W)>,
    open: Vec<(u64, [f64; D], Point<D>)>,
    sorted: Vec<(u64, [f64; D], Point<D>)>,
}

impl<const D: usize, W> BatchScratch<D, W> {
    fn new() -> Self {
        BatchScratch { drawn: Vec::new(), batch: Vec::new(), open: Vec::new(), sorted: Vec::new() }
    }
}

/// The darts of a phase tested together, in the order of their cells (`throw_darts`): 2^20
/// was as fast as whole phases in 2D, 2^17 slower. They take 8·(D + 1) bytes each in two
/// buffers (the radix sort's), and those no earlier point turns down 8·(2D + 1) more, in two
/// buffers too: at most 50 + 84 MB in 2D and 117 + 218 MB in 6D, whatever the run's size,
/// kept from phase to phase (a 10⁶-point run in 2D peaks at 261 MB, 213 MB with them given
/// back after each phase and 0.95× the time; 2^19 darts peaked at 233 MB but ran slower).
const DART_BATCH: u64 = 1 << ORDER_BITS;

/// The low bits of a batched dart's key, which hold its order of drawing (its cell above them).
const ORDER_BITS: u32 = 20;
const ORDER_MASK: u64 = (1 << ORDER_BITS) - 1;

/// Level-0 darts are drawn in the whole box while at least this fraction of the cells is
/// active; below it, most would land in retired cells, and darts pick from the list instead.
const BOX_DARTS_DOWN_TO: f64 = 0.3;

/// Refinements after which a cell still active is dropped: its side is then below
/// r·2^-40 (1e-12·r). Reaching this needs three disks to meet within rounding of one point,
/// which a random run does not do (docs/algorithms.md, "Maximal Poisson-disk sampling").
const MAX_REFINEMENTS: u32 = 40;

/// Cells of the point lookup are at least this much wider than r, so that rounding in the
/// cell index can never put two points closer than r two cells apart.
const LOOKUP_MARGIN: f64 = 1.0 + 1.0 / (1u64 << 20) as f64;

/// The largest number of level-0 cells (their indices are `u32`), and of lookup cells.
const MAX_CELLS: f64 = u32::MAX as f64;

/// A maximal Poisson-disk sampler (Ebeida, Patney, Mitchell, Davidson, Knupp, Owens 2011,
/// "Efficient maximal Poisson-disk sampling"; Ebeida, Mitchell, Patney, Davidson, Owens 2012,
/// "A simple algorithm for maximal Poisson-disk sampling in high dimensions").
///
/// The output is what random sequential adsorption (dart throwing) produces when run to
/// saturation, without the endless tail of misses:
/// - **minimum distance**: no pair closer than `r` (toroidally in a periodic box);
/// - **maximal**: every location of the domain ends within `r` of a point, so not one more
///   point fits;
/// - **unbiased**: each new point is uniform over the part of the domain not yet within `r`
///   of a point, exactly as in dart throwing.
///
/// How: the box is divided into cells of side below r/√D, so a cell holding a point is
/// covered by it. A list of *active* cells holds every location that may still be uncovered.
/// Darts pick an active cell uniformly and a location uniformly in it; a dart closer than `r`
/// to a point is rejected, otherwise accepted and its cell retires. A cell also retires when
/// the point that rejected a dart covers it whole. When darts stop paying, every active cell
/// is split into its 2^D halves and the halves that one point covers whole are dropped; the
/// run ends when no cell is left. The argument for maximality, unbiasedness and termination
/// is in docs/algorithms.md ("Maximal Poisson-disk sampling").
///
/// `sample(n, rng)` stops at `n` points ([`StopReason::TargetReached`]) or when the set is
/// maximal ([`StopReason::Exhausted`]); [`FillSampler::fill`] fills the domain. The point
/// limit (see [`Builder::with_max_points`]) stops it with [`StopReason::PointLimit`].
/// [`PointSet::attempts`] counts the darts. Memory: the cells, about (√D)^D / V_D · 2^D / η
/// per point (3 in 2D, 12 in 3D, 160 in 6D, a few thousand in 8D), 4 bytes each.
///
/// **In a region** ([`Builder::with_region`]) the cells tile the part of the box the
/// region's bounding box covers; a cell that the region's classification puts wholly outside
/// retires at the start (and a half at refinement), and a dart outside the region is a miss.
/// The invariant becomes "every uncovered point *of the region* lies in an active cell", so
/// the output is saturated relative to the region: every point of it is within r of a sample,
/// and the next point is uniform over its uncovered part (docs/algorithms.md, "Regions").
///
/// Configured with [`Maximal::builder`] (or [`Maximal::new`] for the defaults), whose
/// [`build`](MaximalBuilder::build) checks everything once, the point limit included.
///
/// ```
/// use poisson_nd::{Domain, FillSampler, Maximal, StopReason};
/// let maximal = Maximal::new(Domain::<2>::unit().periodic(), 0.05)?;
/// let set = maximal.fill_seeded(7);
/// assert_eq!(set.stop, StopReason::Exhausted); // saturated: no room for one more point
/// assert!(set.len() > 250);
/// // A radius whose densest packing passes the default limit needs a higher one.
/// let fine = Maximal::builder(Domain::<2>::unit(), 1e-4).with_max_points(200_000_000).build()?;
/// assert_eq!(fine.max_points(), 200_000_000);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Maximal<const D: usize> {
    domain: Domain<D>,
    /// The box the cells tile: the domain, or the part of its box a region can occupy.
    grid_domain: Domain<D>,
    radius: f64,
    max_points: usize,
    layout: Layout<D>,
    region: SamplerRegion<D>,
    /// The progress hook, if any.
    watch: Option<Watch>,
}

/// Maximal sampling's own options: none beyond the shared settings of its [`Builder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MaximalOptions;

/// The configuration of a [`Maximal`] sampler before it is checked: the shared settings
/// ([`Builder`]: region, point limit); the setters are infallible and
/// [`build`](Builder::build) validates the whole once. A region is sampled to saturation
/// relative to it (see [`Maximal`]).
pub type MaximalBuilder<const D: usize> = Builder<D, MaximalOptions>;

impl<const D: usize> Builder<D, MaximalOptions> {
    /// Checks the configuration and lays out the cells.
    ///
    /// Errors: a dimension above 6 ([`Capabilities::max_dimension`](crate::Capabilities::max_dimension)); a radius that is not finite and positive; a
    /// point limit of 0 or above
    /// 2147483647; a radius so small for the box that its densest packing would pass the
    /// point limit ([`Error::TooManyPoints`]); one that needs more than 2^32 − 1 cells (in
    /// high dimensions, long before memory runs out). With a region: a periodic domain, a
    /// region that misses the domain's box, one with no point found in it, or one whose box
    /// classification does not resolve its boundary ([`Error::UnsupportedRegion`]; see
    /// [`Region::resolves_boundary`]).
    pub fn build(self) -> Result<Maximal<D>, Error> {
        if D > MAX_DIM {
            return Err(Error::InvalidParameter {
                name: "dimension (maximal)",
                expected: "at most 6 (above it, refining the uncovered cells is too slow)",
                value: D as f64,
            });
        }
        if self.config.region.as_ref().is_some_and(|r| !r.resolves_boundary()) {
            return Err(Error::UnsupportedRegion {
                sampler: "maximal",
                reason: "saturation needs a region whose box classification resolves its \
                         boundary (Region::resolves_boundary), which an Sdf without a distance \
                         bound or a region that classifies no box does not",
            });
        }
        let checked = self.config.check("maximal", &Maximal::<D>::CAPABILITIES)?;
        checked.check_budget()?;
        let grid_domain = *checked.sampling_box();
        let layout = Layout::new(&grid_domain, checked.radius)?;
        Ok(Maximal {
            domain: checked.domain,
            grid_domain,
            radius: checked.radius,
            max_points: checked.max_points,
            layout,
            region: checked.region,
            watch: checked.watch,
        })
    }
}

/// The two grids of a run: level-0 cells (side below r/√D) for the active list, and the
/// lookup (cells at least r wide, the 3^D around a point's holding every point closer than
/// r) for finding points.
#[derive(Debug, Clone)]
struct Layout<const D: usize> {
    cells: [u64; D],
    cell_side: [f64; D],
    cell_count: u64,
    lookup: Arc<GridLayout<D>>,
}

impl<const D: usize> Layout<D> {
    fn new(domain: &Domain<D>, radius: f64) -> Result<Self, Error> {
        let extent = domain.extent();
        let sqrt_d = (D as f64).sqrt();
        let mut cells = [1u64; D];
        let mut cell_side = [0.0; D];
        let mut lookup = [1u64; D];
        let mut total_cells = 1.0f64;
        let mut total_lookup = 1.0f64;
        for i in 0..D {
            // floor + 1, not ceil: the side is then strictly below r/√D, so a cell's diagonal
            // is strictly below r and its point covers all of it (open disks).
            let count = (extent[i] * sqrt_d / radius).floor() + 1.0;
            total_cells *= count;
            if total_cells > MAX_CELLS {
                return Err(Error::GridTooLarge { cells: total_cells });
            }
            cells[i] = count as u64;
            cell_side[i] = extent[i] / count;
            let along = (extent[i] / (radius * LOOKUP_MARGIN)).floor().max(1.0);
            total_lookup *= along;
            if total_lookup > MAX_CELLS {
                return Err(Error::GridTooLarge { cells: total_lookup });
            }
            lookup[i] = along as u64;
        }
        Ok(Layout {
            cells,
            cell_side,
            cell_count: total_cells as u64,
            lookup: Arc::new(GridLayout::tiling(domain, lookup, radius)),
        })
    }
}

impl<const D: usize> Maximal<D> {
    /// What maximal sampling supports: a radius, regions (whose classification resolves their
    /// boundary), closed and periodic boxes, 1D to 6 ([`Capabilities::max_dimension`](crate::Capabilities::max_dimension)). No radius field: its
    /// saturation test retires a cell once one point's disk covers it whole, which with a
    /// radius per point would depend on the radius at every location of the cell (and on the
    /// pair rule), not on one disk; docs/algorithms.md ("Maximal Poisson-disk sampling").
    pub const CAPABILITIES: Capabilities = Capabilities {
        radius: true,
        field: false,
        region: true,
        periodic: true,
        attempts: false,
        grid: false,
        min_dimension: 1,
        max_dimension: MAX_DIM,
    };

    /// The configuration of a maximal Poisson-disk sampler in `domain` with minimum distance
    /// `radius`, with every default; set what you need, then
    /// [`build`](MaximalBuilder::build).
    pub fn builder(domain: Domain<D>, radius: f64) -> MaximalBuilder<D> {
        Builder::from_defaults(domain, Some(radius), MaximalOptions)
    }

    /// A maximal Poisson-disk sampler with every default: `Maximal::builder(domain,
    /// radius).build()`. Errors as [`MaximalBuilder::build`].
    ///
    /// ```
    /// use poisson_nd::{Domain, FillSampler, Maximal};
    /// let domain = Domain::from_origin_and_extent([-1.0, 0.0, 0.0], [2.0, 1.0, 0.5])?;
    /// let set = Maximal::new(domain, 0.2)?.fill_seeded(3);
    /// assert!(set.points.iter().all(|p| domain.contains(p)));
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn new(domain: Domain<D>, radius: f64) -> Result<Self, Error> {
        Self::builder(domain, radius).build()
    }

    /// This sampler's configuration, to change and build again.
    pub fn to_builder(&self) -> MaximalBuilder<D> {
        let mut config = Config::new(self.domain, Some(self.radius));
        config.region = self.region.user_region();
        config.max_points = self.max_points;
        config.watch = self.watch.clone();
        Builder { config, options: MaximalOptions }
    }

    /// The point limit.
    pub fn max_points(&self) -> usize {
        self.max_points
    }

    /// The minimum distance.
    pub fn radius(&self) -> f64 {
        self.radius
    }

    /// Number of level-0 cells (side below r/√D) a run starts from.
    pub fn cell_count(&self) -> u64 {
        self.layout.cell_count
    }
}

impl<const D: usize> Sampler<D> for Maximal<D> {
    fn name(&self) -> &'static str {
        "maximal"
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn min_distance(&self) -> Option<f64> {
        Some(self.radius)
    }

    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D> {
        match &self.region {
            SamplerRegion::Whole => self.run(&WholeDomain::new(self.domain), false, n, rng),
            SamplerRegion::Shape(shape) => self.run(&**shape, true, n, rng),
        }
    }

    fn try_fill<R: Rng + ?Sized>(&self, rng: &mut R) -> Option<PointSet<D>> {
        Some(self.fill(rng))
    }
}

impl<const D: usize> Maximal<D> {
    /// A run in `region` (`restricted`: a region smaller than the box, whose cells outside
    /// it retire), compiled once per region kind.
    fn run<G: Region<D>, R: Rng + ?Sized>(
        &self,
        region: &G,
        restricted: bool,
        n: usize,
        rng: &mut R,
    ) -> PointSet<D> {
        let target = n.min(self.max_points);
        let mut run = Run::new(self, target, region, restricted);
        let saturated = target == 0 || run.fill(target, rng);
        // `saturated` is false only when cells outlived MAX_REFINEMENTS, which a random run
        // does not reach; what they could still hold is below rounding, so it counts as full.
        let _ = saturated;
        let stop = if run.cancelled {
            StopReason::Cancelled
        } else if run.points.len() >= target {
            if target == n { StopReason::TargetReached } else { StopReason::PointLimit }
        } else {
            StopReason::Exhausted
        };
        PointSet::new(run.points, self.domain, stop, run.attempts)
    }
}

impl<const D: usize> FillSampler<D> for Maximal<D> {
    fn fill<R: Rng + ?Sized>(&self, rng: &mut R) -> PointSet<D> {
        self.sample(usize::MAX, rng)
    }
}

/// What a dart found.
enum Dart {
    /// No point closer than r: the dart becomes a point.
    Accepted,
    /// A point closer than r covers the dart's whole cell.
    CellCovered,
    /// Points closer than r, none covering the whole cell.
    Rejected,
}

/// The state of one run: the points, and the same points in the lookup.
struct Run<'a, const D: usize, G> {
    sampler: &'a Maximal<D>,
    /// Where points may go; `restricted` when it is smaller than the box.
    region: &'a G,
    restricted: bool,
    radius_squared: f64,
    lookup: InlineCells<D>,
    points: Vec<Point<D>>,
    attempts: u64,
    /// Whether the progress hook stopped the run.
    cancelled: bool,
}

impl<'a, const D: usize, G: Region<D>> Run<'a, D, G> {
    fn new(sampler: &'a Maximal<D>, target: usize, region: &'a G, restricted: bool) -> Self {
        let layout = &sampler.layout;
        let estimate = max_points_estimate(&sampler.grid_domain, sampler.radius) as usize;
        let capacity = target.min(estimate).min(1 << 24);
        Run {
            sampler,
            region,
            restricted,
            radius_squared: sampler.radius * sampler.radius,
            lookup: InlineCells::new(Arc::clone(&layout.lookup)),
            points: Vec::with_capacity(capacity),
            attempts: 0,
            cancelled: false,
        }
    }

    /// Runs dart phases and refinements until `target` points or no active cell is left.
    /// Returns whether the cells ran out (the set is maximal).
    fn fill<R: Rng + ?Sized>(&mut self, target: usize, rng: &mut R) -> bool {
        let sampler = self.sampler;
        let layout = &sampler.layout;
        let domain = &sampler.grid_domain;
        let origin = *domain.origin();
        let cells = layout.cells;
        let side = layout.cell_side;
        // Level 0: cells by linear index (first axis slowest), 4 bytes each.
        let lower_corner = |index: u32| -> [f64; D] {
            let mut rest = u64::from(index);
            let mut lo = [0.0; D];
            for i in (0..D).rev() {
                let c = rest % cells[i];
                rest /= cells[i];
                lo[i] = origin[i] + c as f64 * side[i];
            }
            lo
        };
        // While most cells are active, darts are drawn in the whole box and those landing in
        // a retired cell are misses: uniform over the active cells all the same, without
        // building the list of active cells (see `box_phase`).
        let mut retired = Retired::new(layout.cell_count);
        if self.restricted {
            // Cells wholly outside the region hold nothing to cover.
            for c in 0..layout.cell_count as u32 {
                let lo = lower_corner(c);
                let hi: [f64; D] = std::array::from_fn(|i| lo[i] + side[i]);
                if self.region.classify_box(&lo, &hi) == BoxClass::Outside {
                    retired.retire(u64::from(c));
                }
            }
            if retired.live == 0 {
                return true;
            }
        }
        let mut refine_now = false;
        let mut scratch = BatchScratch::new();
        while retired.live as f64 >= BOX_DARTS_DOWN_TO * layout.cell_count as f64 {
            let removed = self.box_phase(&mut retired, &mut scratch, target, rng);
            if self.full(target) || retired.live == 0 {
                return retired.live == 0;
            }
            if removed < REFINE_BELOW {
                refine_now = true;
                break;
            }
        }
        drop(scratch);
        let mut active: Vec<u32> =
            (0..layout.cell_count as u32).filter(|&c| !retired.is(u64::from(c))).collect();
        drop(retired);
        // One room for every later phase's batches: fresh memory for each is faulted in and
        // zeroed by the kernel again (page faults took a sixth of a 2D run; keeping this room
        // and the refinements' lists cut them by a third).
        let mut scratch = BatchScratch::new();
        while !refine_now {
            let removed =
                self.dart_phase(&mut active, &mut scratch, &side, &lower_corner, target, rng);
            if self.full(target) || active.is_empty() {
                return active.is_empty();
            }
            refine_now = removed < REFINE_BELOW;
        }
        // Deeper levels: cells by lower corner, all of one side per level.
        let mut children = Vec::new();
        self.refine(active.iter().map(|&c| lower_corner(c)), &side, &mut children);
        let (mut active, mut children) = (children, Vec::new());
        let mut side = side.map(|s| s * 0.5);
        let mut refinements = 1;
        loop {
            if active.is_empty() {
                return true;
            }
            let removed =
                self.dart_phase(&mut active, &mut scratch, &side, &|lo: [f64; D]| lo, target, rng);
            if self.full(target) || active.is_empty() {
                return active.is_empty();
            }
            if removed < REFINE_BELOW {
                if refinements == MAX_REFINEMENTS {
                    return false;
                }
                // The list before the last one is the room for the next (the lists shrink
                // from level to level): its pages are not faulted in again.
                self.refine(active.iter().copied(), &side, &mut children);
                std::mem::swap(&mut active, &mut children);
                side = side.map(|s| s * 0.5);
                refinements += 1;
            }
        }
    }

    /// One phase of darts drawn uniformly in the whole box, for the level-0 cells `retired`
    /// marks while most are active: as many darts as `DARTS_PER_CELL` times the active cells
    /// (fewer if the target is reached). A dart in a retired cell is a miss (that cell is
    /// covered); the others are the darts of `dart_phase`: uniform over the active cells.
    /// Thrown in batches (`throw_darts`). Returns the fraction of the starting cells removed.
    fn box_phase<R: Rng + ?Sized>(
        &mut self,
        retired: &mut Retired,
        scratch: &mut BatchScratch<D, Point<D>>,
        target: usize,
        rng: &mut R,
    ) -> f64 {
        let sampler = self.sampler;
        let layout = &sampler.layout;
        let domain = &sampler.grid_domain;
        let origin = *domain.origin();
        let start = retired.live;
        let darts = (start as f64 * DARTS_PER_CELL).ceil() as u64;
        // A dart's cell (level 0, by index) and the cell's lower corner.
        let cell_of = |dart: &Point<D>| -> (u64, [f64; D]) {
            let mut index = 0u64;
            let mut lo = [0.0; D];
            for i in 0..D {
                let t = ((dart[i] - origin[i]) / layout.cell_side[i]).max(0.0);
                let c = (t as u64).min(layout.cells[i] - 1);
                index = index * layout.cells[i] + c;
                lo[i] = origin[i] + c as f64 * layout.cell_side[i];
            }
            (index, lo)
        };
        let draw = |rng: &mut R| {
            let dart = domain.uniform_point(rng);
            (cell_of(&dart).0, dart)
        };
        let place = |_, dart: &Point<D>| Some((cell_of(dart).1, *dart));
        self.throw_darts(darts, draw, place, &layout.cell_side, retired, scratch, target, rng);
        (start - retired.live) as f64 / start.max(1) as f64
    }

    /// One phase of darts into the active cells (all of side `side`): as many darts as
    /// `DARTS_PER_CELL` times the cells at the start, each into one of those cells chosen
    /// uniformly (fewer if the target is reached). A dart into a cell retired earlier in the
    /// phase is a miss; the darts that are not are uniform over the cells still active, as
    /// Ebeida et al. (2012) throw them. Thrown in batches (`throw_darts`). The retired cells
    /// leave the list at the end of the phase, the others keeping their order: the list
    /// stays in the order of space (level 0 by index, deeper levels as the refinements made
    /// them), so a batch's darts sorted by cell, and a refinement's cells, come in the order
    /// of space. Returns the fraction of the starting cells removed.
    #[allow(clippy::too_many_arguments)]
    fn dart_phase<C: Copy, R: Rng + ?Sized>(
        &mut self,
        active: &mut Vec<C>,
        scratch: &mut BatchScratch<D, [u64; D]>,
        side: &[f64; D],
        lower_corner: &impl Fn(C) -> [f64; D],
        target: usize,
        rng: &mut R,
    ) -> f64 {
        let domain = self.sampler.grid_domain;
        let start = active.len();
        let darts = (start as f64 * DARTS_PER_CELL).ceil() as u64;
        let mut retired = Retired::new(start as u64);
        // A dart's cell in the list (equal cells chosen uniformly) and the words of its
        // place in the cell (uniform).
        let draw = |rng: &mut R| {
            let slot = index_of(rng.next_u64(), start) as u64;
            (slot, std::array::from_fn::<u64, D, _>(|_| rng.next_u64()))
        };
        let place = |slot: u64, at: &[u64; D]| {
            let lo = lower_corner(active[slot as usize]);
            let dart: Point<D> = std::array::from_fn(|i| lo[i] + side[i] * fraction_of(at[i]));
            // Rounding can put a dart on an upper face: outside a closed box (a miss, on a
            // set of measure zero), the lower face of a periodic one.
            domain.wrap(&dart).map(|dart| (lo, dart))
        };
        self.throw_darts(darts, draw, place, side, &mut retired, scratch, target, rng);
        let mut slot = 0;
        active.retain(|_| {
            let keep = !retired.is(slot);
            slot += 1;
            keep
        });
        (start as u64 - retired.live) as f64 / start.max(1) as f64
    }

    /// Throws `darts` darts, `DART_BATCH` at a time, each drawn by `draw` as its cell (`slot`,
    /// an index into `retired`) and what `place` needs to find its cell's lower corner and
    /// the dart (`None`: a miss). A dart in a retired cell is a miss. Stops early once the
    /// target is reached or no cell is live.
    ///
    /// Each batch in two passes (docs/algorithms.md, "Darts in batches"): the darts are first tested
    /// against the points stored before the batch in the order of their cells, so that the
    /// look-ups of one dart find the cache lines of the one before, not lines at random; a
    /// dart such a point turns down is decided there (and retires its cell if that point
    /// covers it). The others are tested again in their order of drawing, now against every
    /// point, each accepted one stored before the next is tested. So a dart is accepted
    /// exactly when its cell is not retired and no point stored before it, in the order of
    /// the darts, is closer than r: the points are those of throwing the darts one by one.
    #[allow(clippy::too_many_arguments)]
    fn throw_darts<W: Copy, R: Rng + ?Sized>(
        &mut self,
        darts: u64,
        mut draw: impl FnMut(&mut R) -> (u64, W),
        place: impl Fn(u64, &W) -> Option<([f64; D], Point<D>)>,
        side: &[f64; D],
        retired: &mut Retired,
        scratch: &mut BatchScratch<D, W>,
        target: usize,
        rng: &mut R,
    ) {
        let mut batch = std::mem::take(&mut scratch.drawn);
        let mut thrown = 0;
        while thrown < darts && retired.live > 0 && !self.full(target) {
            let size = (darts - thrown).min(DART_BATCH);
            thrown += size;
            batch.clear();
            batch.extend((0..size).map(|order| {
                let (slot, words) = draw(rng);
                // A slot indexes a list in memory, far below 2^(64 − ORDER_BITS).
                debug_assert!(slot >> (64 - ORDER_BITS) == 0);
                (slot << ORDER_BITS | order, words)
            }));
            self.throw_batch(&mut batch, scratch, &place, side, retired, target);
        }
        scratch.drawn = batch;
    }

    /// Throws one batch of [`throw_darts`](Self::throw_darts), each dart with its order of
    /// drawing in the low `ORDER_BITS` bits of its key and its cell (`slot`) above them, in
    /// the order of drawing: the first pass ([`first_pass`](Self::first_pass)), skipped
    /// while no point is stored (it would turn nothing down), then the second.
    fn throw_batch<W: Copy>(
        &mut self,
        batch: &mut Vec<(u64, W)>,
        scratch: &mut BatchScratch<D, W>,
        place: &impl Fn(u64, &W) -> Option<([f64; D], Point<D>)>,
        side: &[f64; D],
        retired: &mut Retired,
        target: usize,
    ) {
        let open = &mut scratch.open;
        open.clear();
        if self.points.is_empty() {
            // No point yet to turn a dart down: every dart goes to the second pass, and the
            // batch is already in the order of drawing.
            open.extend(batch.iter().filter_map(|(key, words)| {
                let (slot, order) = (key >> ORDER_BITS, key & ORDER_MASK);
                place(slot, words).map(|(lo, dart)| (order << (64 - ORDER_BITS) | slot, lo, dart))
            }));
        } else {
            self.first_pass(batch, scratch, place, side, retired);
        }
        let open = &scratch.open;
        self.attempts += batch.len() as u64;
        for (i, &(key, lo, dart)) in open.iter().enumerate() {
            let (order, slot) = (key >> (64 - ORDER_BITS), key & (u64::MAX >> ORDER_BITS));
            if let Some((.., ahead)) = open.get(i + AHEAD) {
                self.lookup.prefetch_near(ahead);
            }
            if retired.is(slot) {
                continue;
            }
            match self.test_dart(&dart, &lo, side) {
                Dart::Accepted => {
                    self.insert(dart);
                    retired.retire(slot);
                    if self.full(target) {
                        // The darts after the one that reached the target are not counted.
                        self.attempts -= (batch.len() - 1 - order as usize) as u64;
                        return;
                    }
                }
                Dart::CellCovered => retired.retire(slot),
                Dart::Rejected => {}
            }
        }
    }

    /// The first pass of [`throw_batch`](Self::throw_batch): tests the batch's darts against
    /// the points stored before it, in the order of their cells, retiring the cells a point
    /// covers, and leaves in `scratch.open` (empty) the darts no point turns down, in the
    /// order of drawing.
    fn first_pass<W: Copy>(
        &self,
        batch: &mut Vec<(u64, W)>,
        scratch: &mut BatchScratch<D, W>,
        place: &impl Fn(u64, &W) -> Option<([f64; D], Point<D>)>,
        side: &[f64; D],
        retired: &mut Retired,
    ) {
        // By cell, then order of drawing: the batch comes in the order of drawing, so a
        // stable sort by cell gives the order of the keys, in two streaming passes.
        radix_sort_by_key(batch, &mut scratch.batch, retired.slot_bits(), |&(key, _)| {
            key >> ORDER_BITS
        });
        let open = &mut scratch.open;
        // Each dart is placed AHEAD darts before its test and its lookup cells prefetched
        // then, so that the cache misses of several tests overlap.
        let mut ahead = [None; AHEAD];
        let placed =
            |i: usize| batch.get(i).and_then(|(key, words)| place(key >> ORDER_BITS, words));
        for (i, placement) in ahead.iter_mut().enumerate() {
            *placement = placed(i);
            if let Some((_, dart)) = placement {
                self.lookup.prefetch_near(dart);
            }
        }
        for (i, &(key, _)) in batch.iter().enumerate() {
            let (slot, order) = (key >> ORDER_BITS, key & ORDER_MASK);
            let next = placed(i + AHEAD);
            if let Some((_, dart)) = &next {
                self.lookup.prefetch_near(dart);
            }
            let this = std::mem::replace(&mut ahead[i % AHEAD], next);
            if retired.is(slot) {
                continue;
            }
            let Some((lo, dart)) = this else { continue };
            match self.test_dart(&dart, &lo, side) {
                Dart::Accepted => open.push((order << (64 - ORDER_BITS) | slot, lo, dart)),
                Dart::CellCovered => retired.retire(slot),
                Dart::Rejected => {}
            }
        }
        // Back to the order of drawing (unique in a batch).
        radix_sort_by_key(open, &mut scratch.sorted, ORDER_BITS, |&(key, ..)| {
            key >> (64 - ORDER_BITS)
        });
    }

    /// Splits every cell (given by lower corner, side `side`) into its 2^D halves and puts
    /// into `children` (emptied first) the halves that no single point covers whole.
    fn refine(
        &self,
        parents: impl ExactSizeIterator<Item = [f64; D]>,
        side: &[f64; D],
        children: &mut Vec<[f64; D]>,
    ) {
        let half = side.map(|s| s * 0.5);
        let domain = &self.sampler.grid_domain;
        let (periodic, extent) = (domain.is_periodic(), *domain.extent());
        // Room for every half of every parent: the pages never written cost nothing, and
        // growing the list by copying would fault in its pages twice (and hold both copies).
        // Where that much cannot be had, the list grows as it goes.
        children.clear();
        let _ = children.try_reserve_exact(parents.len() << D);
        let mut near = Vec::new();
        for lo in parents {
            // Every half has the parent's centre as a corner, so a point that covers a half
            // is closer than r to that centre.
            let centre: Point<D> = std::array::from_fn(|i| lo[i] + half[i]);
            let count = match domain.wrap(&centre) {
                Some(centre) => self.lookup.collect_near(&centre, &mut near, |q| {
                    domain.distance_squared(&centre, q) < self.radius_squared
                }),
                None => 0,
            };
            // A half's farthest-corner distance² is a sum over the axes of a term that
            // depends only on which half it takes along that axis: two terms per axis and
            // point, then a sum per half, and a point that covers no half costs no more.
            // A bit per half: 2^D ≤ 64 for every D maximal sampling takes.
            // In 1D and 2D, where a close point covers a half about as often as not, every
            // close point's sums are taken and the halves kept without a branch on the
            // outcome; above, most close points cover no half (the nearest half's sum rules
            // them out) and most halves are covered, which branches guess right.
            let mut covered = 0u64;
            for p in &near[..count] {
                // Plain loops: as `array::from_fn` closures this was a call per point (a
                // tenth of a 2D run's time).
                let mut terms = [[0.0; 2]; D];
                for i in 0..D {
                    let h = 0.5 * half[i];
                    for (b, term) in terms[i].iter_mut().enumerate() {
                        let mut d = (lo[i] + b as f64 * half[i] + h - p[i]).abs();
                        if periodic {
                            d = d.min(extent[i] - d);
                        }
                        *term = (d + h) * (d + h);
                    }
                }
                if D > 2 {
                    let nearest: f64 = terms.iter().map(|t| t[0].min(t[1])).sum();
                    if nearest >= self.radius_squared {
                        continue;
                    }
                }
                for bits in 0..1usize << D {
                    let farthest: f64 = (0..D).map(|i| terms[i][bits >> i & 1]).sum();
                    covered |= u64::from(farthest < self.radius_squared) << bits;
                }
            }
            for bits in 0..1usize << D {
                let child: [f64; D] =
                    std::array::from_fn(
                        |i| {
                            if bits >> i & 1 == 1 { lo[i] + half[i] } else { lo[i] }
                        },
                    );
                let mut keep = covered >> bits & 1 == 0;
                // A half wholly outside the region holds nothing to cover either.
                if self.restricted && keep {
                    let upper: [f64; D] = std::array::from_fn(|i| child[i] + half[i]);
                    keep = self.region.classify_box(&child, &upper) != BoxClass::Outside;
                }
                if D <= 2 {
                    children.push(child);
                    children.truncate(children.len() - usize::from(!keep));
                } else if keep {
                    children.push(child);
                }
            }
        }
    }

    /// Whether `p` covers the whole closed cell `[lo, lo + side]`: its open disk holds the
    /// cell's farthest corner, hence (the disk being convex) every corner and the whole cell.
    /// On a torus each axis takes the image of `p` nearest the cell's centre, which is the
    /// image nearest every corner's farthest coordinate, so no image covers more.
    #[inline]
    fn covers(&self, p: &Point<D>, lo: &[f64; D], side: &[f64; D]) -> bool {
        let domain = &self.sampler.grid_domain;
        let extent = domain.extent();
        let mut farthest = 0.0;
        for i in 0..D {
            let h = 0.5 * side[i];
            let mut d = (lo[i] + h - p[i]).abs();
            if domain.is_periodic() {
                d = d.min(extent[i] - d);
            }
            let reach = d + h;
            farthest += reach * reach;
        }
        farthest < self.radius_squared
    }

    /// Tests a dart in the cell `[lo, lo + side]`: whether a point is closer than r to it
    /// (toroidally in a periodic box) and, if so, whether the first such point found covers
    /// the whole cell. (Looking on for a cover among the other close points retired more
    /// cells per dart but cost more than it saved, in 2D and in 6D.)
    #[inline]
    fn test_dart(&self, dart: &Point<D>, lo: &[f64; D], side: &[f64; D]) -> Dart {
        // A dart outside the region misses (for the whole box the test compiles away).
        if !self.region.contains_box_point(dart) {
            return Dart::Rejected;
        }
        let domain = &self.sampler.grid_domain;
        let mut outcome = Dart::Accepted;
        self.any_near(dart, |q| {
            if domain.distance_squared(dart, q) < self.radius_squared {
                outcome = if self.covers(q, lo, side) { Dart::CellCovered } else { Dart::Rejected };
                return true;
            }
            false
        });
        outcome
    }

    /// Calls `visit` on the points of the lookup cells that can hold a point closer than r to
    /// `p` (a point of the domain), until it returns true; returns whether it did.
    #[inline(always)]
    fn any_near(&self, p: &Point<D>, visit: impl FnMut(&Point<D>) -> bool) -> bool {
        self.lookup.any_near(p, visit)
    }

    fn insert(&mut self, p: Point<D>) {
        self.lookup.insert(p);
        self.points.push(p);
        if Watch::every(self.sampler.watch.as_ref(), self.points.len()) {
            self.cancelled = true;
        }
    }

    /// Whether the run is to stop placing points: `target` reached, or the progress hook
    /// said so.
    #[inline(always)]
    fn full(&self, target: usize) -> bool {
        self.points.len() >= target || self.cancelled
    }
}
