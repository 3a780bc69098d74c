//! Mitchell's best-candidate algorithm, with an exact nearest-neighbour search in a grid whose
//! cells follow the shrinking spacing of the points.

use crate::config::{Builder, Capabilities};
use crate::defaults;
use crate::domain::Domain;
use crate::domain::cubic_cells;
use crate::error::Error;
use crate::grid::conflict::NeverConflicts;
use crate::grid::layout::GridLayout;
use crate::grid::nearest::NearestGrid;
use crate::point::Point;
use crate::region::shape::SamplerRegion;
use crate::sampler::{PointSet, Sampler, StopReason};
use rand::Rng;
use std::sync::Arc;

/// Mitchell's best-candidate algorithm (Mitchell 1991, "Spectrally optimal sampling for
/// distribution ray tracing", SIGGRAPH): each new point is the one, among `m` uniform
/// candidates, that lies farthest from all points placed so far.
///
/// The first point is a single uniform draw (with no points placed every candidate is equally
/// far). For every later point, `m` candidates are drawn uniformly from the domain in turn;
/// the one with the largest distance to its nearest placed point wins, the earliest one on
/// a tie. With [`with_growing_candidates`](Builder::with_growing_candidates) the `i`-th new
/// point (with `i` points placed) gets `m·i` candidates, as in Mitchell's paper: the spacing
/// then stays even as the set grows, at quadratic cost. Distances wrap around in a periodic
/// domain. [`PointSet::attempts`] counts the candidates.
///
/// Guarantees: exactly `n` points (up to the point limit), all in the domain, and the winner
/// of every round is the candidate with the largest **exact** nearest-neighbour distance
/// (the same value a brute-force search over all placed points computes). There is **no
/// minimum distance**: two points can be arbitrarily close, only rarely.
///
/// Complexity: the nearest-neighbour search runs in a grid of about 2^(D/2) points per cell,
/// rebuilt each time the number of points doubles, searched ring by ring outwards until no
/// closer point can remain, skipping cells too far to matter, and abandoned as soon as a
/// candidate cannot beat the best one so far. That is O(1) expected work per candidate for a
/// fixed D, O(N·m) for N points with a fixed `m` (100 000 points in 2D with m = 10 take
/// well under a second), and O(N²·m) with growing candidates. The constant grows like 3^D:
/// in 8D, below some 10^5 points, the grid saves little over scanning every point.
/// Memory O(N).
///
/// **In a region** ([`with_region`](Builder::with_region)) every candidate is drawn uniformly in
/// the region, by rejection from the part of the box its bounding box covers, and the
/// nearest-neighbour grid covers that part only: exactly `n` points in the region.
/// [`PointSet::attempts`] then counts the draws, rejected ones included.
///
/// ```
/// use poisson_nd::{BestCandidate, Domain, Sampler};
/// let sampler = BestCandidate::builder(Domain::<2>::unit()).with_candidates(20).build()?;
/// let set = sampler.sample_seeded(500, 42);
/// assert_eq!(set.len(), 500);
/// assert_eq!(set.attempts, 1 + 499 * 20);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct BestCandidate<const D: usize> {
    domain: Domain<D>,
    candidates: u32,
    growing: bool,
    max_points: usize,
    region: SamplerRegion<D>,
}

/// Best candidate's own options, beside the shared settings of its [`Builder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BestCandidateOptions {
    candidates: u32,
    growing: bool,
}

impl Default for BestCandidateOptions {
    fn default() -> Self {
        BestCandidateOptions { candidates: defaults::CANDIDATES, growing: false }
    }
}

/// The configuration of a [`BestCandidate`] sampler before it is checked: a region (every
/// candidate drawn in it), the point limit, and its own `m`.
pub type BestCandidateBuilder<const D: usize> = Builder<D, BestCandidateOptions>;

impl<const D: usize> Builder<D, BestCandidateOptions> {
    /// Sets `m`, the candidates per point (default 10). More candidates give a more even
    /// spacing at a proportional cost; 0 is an error at [`build`](Self::build).
    #[must_use]
    pub fn with_candidates(mut self, m: u32) -> Self {
        self.options.candidates = m;
        self
    }

    /// With `true`, the `i`-th new point (when `i` points are placed) is chosen from `m·i`
    /// candidates, as in Mitchell (1991); with `false` (the default) from `m`.
    #[must_use]
    pub fn with_growing_candidates(mut self, growing: bool) -> Self {
        self.options.growing = growing;
        self
    }

    /// Checks the configuration. Errors: `m = 0`; a point limit of 0 or above 2147483647;
    /// with a region, a periodic domain, a region that misses the domain's box, or one with
    /// no point found in it.
    ///
    /// ```
    /// use poisson_nd::region::{BoxRegion, Region};
    /// use poisson_nd::{BestCandidate, Domain, Sampler};
    /// let strip = BoxRegion::new([0.0, 0.4], [1.0, 0.6])?;
    /// let sampler = BestCandidate::builder(Domain::<2>::unit()).with_region(strip).build()?;
    /// let set = sampler.sample_seeded(200, 3);
    /// assert_eq!(set.len(), 200);
    /// assert!(set.points.iter().all(|p| strip.contains(p)));
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn build(self) -> Result<BestCandidate<D>, Error> {
        let checked = self.config.check("best-candidate", &BestCandidate::<D>::CAPABILITIES)?;
        if self.options.candidates == 0 {
            return Err(Error::ZeroCount("m (candidates per point)"));
        }
        Ok(BestCandidate {
            domain: checked.domain,
            candidates: self.options.candidates,
            growing: self.options.growing,
            max_points: checked.max_points,
            region: checked.region,
        })
    }
}

impl<const D: usize> BestCandidate<D> {
    /// What best candidate supports: regions, any box and dimension.
    pub const CAPABILITIES: Capabilities = Capabilities::COUNT_DRIVEN;

    /// Best-candidate sampling in `domain` with [`defaults::CANDIDATES`] candidates per point,
    /// a fixed number per point, and the point limit [`defaults::MAX_POINTS`].
    pub fn new(domain: Domain<D>) -> Self {
        BestCandidate {
            domain,
            candidates: defaults::CANDIDATES,
            growing: false,
            max_points: defaults::MAX_POINTS,
            region: SamplerRegion::Whole,
        }
    }

    /// The configuration of best candidate in `domain`; set what you need, then
    /// [`build`](Builder::build).
    pub fn builder(domain: Domain<D>) -> BestCandidateBuilder<D> {
        Builder::from_defaults(domain, None, BestCandidateOptions::default())
    }

    /// This sampler's configuration, to change and build again.
    pub fn to_builder(&self) -> BestCandidateBuilder<D> {
        let mut builder = Self::builder(self.domain)
            .with_max_points(self.max_points)
            .with_candidates(self.candidates)
            .with_growing_candidates(self.growing);
        builder.config.region = self.region.user_region();
        builder
    }

    /// Candidates per point, `m`.
    pub fn candidates(&self) -> u32 {
        self.candidates
    }

    /// Whether the number of candidates grows with the number of points.
    pub fn growing_candidates(&self) -> bool {
        self.growing
    }

    /// Candidates for the next point when `placed` points are placed (at least 1).
    fn candidates_for(&self, placed: usize) -> u64 {
        if placed == 0 {
            1
        } else if self.growing {
            u64::from(self.candidates).saturating_mul(placed as u64)
        } else {
            u64::from(self.candidates)
        }
    }
}

impl<const D: usize> Sampler<D> for BestCandidate<D> {
    fn name(&self) -> &'static str {
        "best-candidate"
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D> {
        let count = n.min(self.max_points);
        let stop = if count == n { StopReason::TargetReached } else { StopReason::PointLimit };
        match &self.region {
            SamplerRegion::Whole => {
                let draw = |rng: &mut R| Some((self.domain.uniform_point(rng), 1));
                let (points, attempts, _) = self.run(&self.domain, count, draw, rng);
                PointSet::new(points, self.domain, stop, attempts)
            }
            SamplerRegion::Shape(shape) => {
                let budget = shape.draw_budget();
                let draw = |rng: &mut R| match shape.draw_inside(rng, budget) {
                    (Some(p), draws) => Some((p, draws)),
                    (None, _) => None,
                };
                let (points, attempts, complete) = self.run(shape.sampling(), count, draw, rng);
                let stop = if complete { stop } else { StopReason::Exhausted };
                PointSet::new(points, self.domain, stop, attempts)
            }
        }
    }
}

impl<const D: usize> BestCandidate<D> {
    /// The algorithm over the grid `box_domain` (the domain, or a region's box), with
    /// candidates from `draw` (a point and the draws it took; `None` when a region's draws
    /// ran out). Returns the points, the attempts and whether all `count` were placed.
    fn run<R: Rng + ?Sized>(
        &self,
        box_domain: &Domain<D>,
        count: usize,
        mut draw: impl FnMut(&mut R) -> Option<(Point<D>, u64)>,
        rng: &mut R,
    ) -> (Vec<Point<D>>, u64, bool) {
        let capacity = count.min(1 << 20);
        let mut attempts = 0u64;
        let mut grid = nearest_grid(box_domain, Vec::new(), capacity);
        let mut built_for = 1;
        while grid.points().len() < count {
            let placed = grid.points().len();
            if placed >= 2 * built_for {
                // The cells follow the spacing of the points: relaid each time they double.
                grid = nearest_grid(box_domain, grid.into_points(), capacity);
                built_for = placed;
            }
            let candidates = self.candidates_for(placed);
            let Some((mut best, draws)) = draw(rng) else {
                return (grid.into_points(), attempts, false);
            };
            let mut used = draws;
            // With no threshold the search always completes; infinity when nothing is placed.
            let mut best_distance =
                grid.nearest_beyond(&best, f64::NEG_INFINITY).unwrap_or(f64::INFINITY);
            for _ in 1..candidates {
                let Some((candidate, draws)) = draw(rng) else {
                    return (grid.into_points(), attempts.saturating_add(used), false);
                };
                used = used.saturating_add(draws);
                if let Some(d2) = grid.nearest_beyond(&candidate, best_distance) {
                    best = candidate;
                    best_distance = d2;
                }
            }
            attempts = attempts.saturating_add(used);
            grid.insert(best, ());
        }
        (grid.into_points(), attempts, true)
    }
}

/// A nearest-neighbour grid over `domain` holding `points`, with cells as close to cubes as
/// the box allows and about 2^(D/2) points per cell (2 in 2D, 16 in 8D): in higher dimensions
/// a cell visit costs more than a distance, and coarser cells mean fewer of them.
fn nearest_grid<const D: usize>(
    domain: &Domain<D>,
    points: Vec<Point<D>>,
    capacity: usize,
) -> NearestGrid<D> {
    let per_cell = 2f64.powf(D as f64 / 2.0);
    let cells = ((points.len().max(1) as f64 / per_cell) as usize).max(1);
    let counts = cubic_cells(domain.extent(), cells).0.map(|m| m as u64);
    let layout = Arc::new(GridLayout::tiling(domain, counts, 0.0));
    let mut grid = NearestGrid::new(layout, NeverConflicts, capacity.max(points.len()));
    for p in points {
        grid.insert(p, ());
    }
    grid
}
