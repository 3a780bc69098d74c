//! Weighted sample elimination (Yuksel 2015): draw many uniform candidates, then remove the
//! most crowded one at a time until the requested number remain.

use crate::config::{Builder, Capabilities};
use crate::defaults::{self, MAX_POINTS};
use crate::domain::Domain;
use crate::error::Error;
use crate::grid::{GridLayout, SortedCells};
use crate::limits::elimination_candidates;
use crate::packing::{densest_packing_fraction, unit_ball_volume};
use crate::point::Point;
use crate::region::shape::SamplerRegion;
use crate::sampler::{PointSet, Sampler, StopReason};
use crate::scratch::Scratch;
use rand::Rng;
use tournament::{Repairs, Tournament};

mod tournament;

/// The weight function's exponent α (Yuksel 2015).
const ALPHA: i32 = 8;
/// Weight limiting: exponent γ and factor β of r_min (Yuksel 2015).
const GAMMA: f64 = 1.5;
const BETA: f64 = 0.65;

/// Cells of the neighbour grid are at least this much wider than 2·r_max, so that rounding in
/// a cell index never puts two points closer than 2·r_max two cells apart.
const CELL_MARGIN: f64 = 1.0 + 1.0 / (1u64 << 20) as f64;

/// The points a run asked for `n` makes when everything it holds, its candidates included,
/// stays within `max_points`: `n`, or the most whose candidates fit, with
/// [`StopReason::PointLimit`].
pub(crate) fn count_within(ratio: f64, n: usize, max_points: usize) -> (usize, StopReason) {
    if elimination_candidates(ratio, n) <= max_points {
        return (n, StopReason::TargetReached);
    }
    let mut count = ((max_points as f64 / ratio) as usize).min(n);
    while count > 0 && elimination_candidates(ratio, count) > max_points {
        count -= 1;
    }
    (count, StopReason::PointLimit)
}

/// Weighted sample elimination (Cem Yuksel 2015, "Sample elimination for generating Poisson
/// disk sample sets", Computer Graphics Forum 34(2)).
///
/// For `n` points, draws M = ⌈ratio · n⌉ uniform candidates (`ratio` default
/// [`defaults::ELIMINATION_RATIO`] = 5), gives each candidate a weight that measures how crowded it is, and
/// removes the heaviest candidate, one at a time, until `n` remain; each removal lowers the
/// weights of its neighbours. Exactly `n` points every time up to the point limit, which
/// bounds the M candidates as well as the output (an `n` whose candidates pass it gives the
/// most points whose candidates fit, with [`StopReason::PointLimit`]):
/// count-driven, so [`Sampler::min_distance`] is `None`, but the spacing comes close to a
/// Poisson-disk set's (relative radius ρ_rel about 0.75–0.8 in 2D, where best candidate
/// reaches about 0.65–0.7).
///
/// The paper's definitions, as used here, for `n` outputs from M candidates in a box of
/// volume V:
/// - r_max = (η_D · V / (n · V_D))^(1/D), the radius of `n` equal balls packed at the densest
///   known lattice density η_D ([`densest_packing_fraction`], 2^(1−D) beyond 8D); in 2D
///   √(V / (2√3 n)), in 3D ∛(V / (4√2 n)). Neighbours count within 2·r_max.
/// - weight of a candidate: the sum over its neighbours j of w(d_j) =
///   (1 − d̂_j / (2 r_max))^α with α = 8 and d̂ = max(d, 2·r_min) for neighbours closer than
///   2·r_max, where r_min = r_max · (1 − (n / M)^γ) · β, γ = 1.5, β = 0.65 (the paper's
///   weight limiting: pairs closer than 2·r_min all weigh the same, so a tight pair does not
///   outweigh a crowded neighbourhood).
///
/// With [`with_progressive(true)`](Builder::with_progressive) the output is ordered so that
/// every prefix is itself well spread (the paper's progressive sampling): after eliminating
/// down to `n`, elimination goes on from `n` to ⌊n/2⌋ (with r_max, r_min recomputed for
/// ⌊n/2⌋ outputs from `n` candidates), then to ⌊n/4⌋, …, down to 1; the output is the last
/// survivor followed by the points in the reverse of their elimination order. So the first
/// ⌊n/2^k⌋ points are exactly the set elimination left at that size. Without it the points
/// come in the order they were drawn (random, not spatial).
///
/// Distances are toroidal in a periodic box. In a closed box a candidate near a face has
/// fewer neighbours, so it is eliminated less often: the output is a little denser along the
/// faces (as in the paper, which leaves boundaries alone).
///
/// Neighbour search: a uniform grid of cells of side at least 2·r_max, kept in this file. The
/// search radius is fixed for a whole elimination, so the grid answers every query from the
/// 3^D cells around a candidate in O(1) expected time; candidates are renumbered in cell
/// order, so neighbours are near in memory; and it needs no dependency (a k-d tree would buy
/// nothing at a fixed radius). Each candidate is queried once: its neighbours and the weight
/// each contributes are kept in compressed rows, and a removal subtracts the stored weights.
/// The queue is a tournament tree with 8 children a node over the candidates in cell order,
/// so a removal's neighbours update nearby leaves. O(M log M) time, O(M) memory: the rows
/// take 12 bytes per neighbour pair (in 2D at the default ratio about 18 neighbours, 216 bytes
/// per candidate) and are kept while they fit 256 MiB (about 1.2·10^6 candidates); past that,
/// the neighbours alone (4 bytes a pair, the weights worked out again at each removal, about
/// 3.5·10^6 candidates); past that a removal finds its neighbours again. The rest is about
/// 56 bytes per candidate in 2D (560 MB peak for 2·10^6 points from 10^7 candidates).
/// [`PointSet::attempts`] counts the candidates.
///
/// **In a region** ([`with_region`](Builder::with_region)) the candidates are drawn uniformly in
/// the region, by rejection from the part of the box its bounding box covers; V in r_max is
/// the region's volume as those draws estimate it (that box's volume times the share of
/// draws kept), and the neighbour grid covers that box only. Exactly `n` points in the
/// region; as along a box's faces, candidates along the region's boundary have fewer
/// neighbours and survive a little more often. [`PointSet::attempts`] then counts the draws.
///
/// ```
/// use poisson_nd::{Domain, SampleElimination, Sampler};
/// let torus = Domain::<2>::unit().periodic();
/// let sampler = SampleElimination::builder(torus).with_progressive(true).build()?;
/// let set = sampler.sample_seeded(1000, 42);
/// assert_eq!(set.len(), 1000);
/// assert_eq!(set.attempts, 5000);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SampleElimination<const D: usize> {
    domain: Domain<D>,
    ratio: f64,
    progressive: bool,
    max_points: usize,
    region: SamplerRegion<D>,
}

/// Sample elimination's own options, beside the shared settings of its [`Builder`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SampleEliminationOptions {
    ratio: f64,
    progressive: bool,
}

impl Default for SampleEliminationOptions {
    fn default() -> Self {
        SampleEliminationOptions { ratio: defaults::ELIMINATION_RATIO, progressive: false }
    }
}

/// The configuration of [`SampleElimination`] before it is checked: a region (candidates
/// drawn in it), the point limit, the ratio and the progressive order.
pub type SampleEliminationBuilder<const D: usize> = Builder<D, SampleEliminationOptions>;

impl<const D: usize> Builder<D, SampleEliminationOptions> {
    /// Sets the candidates per output point, M / n (default 5). Larger ratios give a more even
    /// spacing, at a proportional cost; 1 eliminates nothing (white noise). It must be finite
    /// and at least 1 ([`build`](Self::build) checks it).
    #[must_use]
    pub fn with_ratio(mut self, ratio: f64) -> Self {
        self.options.ratio = ratio;
        self
    }

    /// With `true`, orders the output so that every prefix is well spread (see
    /// [`SampleElimination`]); with `false` (the default), the points come in the order drawn.
    #[must_use]
    pub fn with_progressive(mut self, progressive: bool) -> Self {
        self.options.progressive = progressive;
        self
    }

    /// Checks the configuration. Errors: a ratio that is not finite and at least 1; a point
    /// limit of 0 or above 2147483647 (the candidates of one run are also capped, at
    /// 2^32 − 2); with a region, a periodic domain, a region that misses the domain's box, or
    /// one with no point found in it.
    ///
    /// ```
    /// use poisson_nd::region::{Ball, Region};
    /// use poisson_nd::{Domain, SampleElimination, Sampler};
    /// let disc = Ball::new([0.5, 0.5], 0.4)?;
    /// let sampler = SampleElimination::builder(Domain::<2>::unit()).with_region(disc).build()?;
    /// let set = sampler.sample_seeded(300, 2);
    /// assert_eq!(set.len(), 300);
    /// assert!(set.points.iter().all(|p| disc.contains(p)));
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn build(self) -> Result<SampleElimination<D>, Error> {
        let checked =
            self.config.check("sample-elimination", &SampleElimination::<D>::CAPABILITIES)?;
        let ratio = self.options.ratio;
        crate::limits::check_elimination_ratio(ratio)?;
        Ok(SampleElimination {
            domain: checked.domain,
            ratio,
            progressive: self.options.progressive,
            max_points: checked.max_points,
            region: checked.region,
        })
    }
}

impl<const D: usize> SampleElimination<D> {
    /// What sample elimination supports: regions, any box and dimension.
    pub const CAPABILITIES: Capabilities = Capabilities::COUNT_DRIVEN;

    /// Sample elimination in `domain` with [`defaults::ELIMINATION_RATIO`] candidates per point, output in
    /// the order drawn, and the point limit [`MAX_POINTS`].
    pub fn new(domain: Domain<D>) -> Self {
        SampleElimination {
            domain,
            ratio: defaults::ELIMINATION_RATIO,
            progressive: false,
            max_points: MAX_POINTS,
            region: SamplerRegion::Whole,
        }
    }

    /// The configuration of sample elimination in `domain`; set what you need, then
    /// [`build`](Builder::build).
    pub fn builder(domain: Domain<D>) -> SampleEliminationBuilder<D> {
        Builder::from_defaults(domain, None, SampleEliminationOptions::default())
    }

    /// This sampler's configuration, to change and build again.
    pub fn to_builder(&self) -> SampleEliminationBuilder<D> {
        let mut builder = Self::builder(self.domain)
            .with_max_points(self.max_points)
            .with_ratio(self.ratio)
            .with_progressive(self.progressive);
        builder.config.region = self.region.user_region();
        builder
    }

    /// How many candidates `n` points are eliminated from: ⌈ratio · n⌉, at least `n`
    /// ([`limits::elimination_candidates`](crate::limits::elimination_candidates)).
    pub fn candidates(&self, n: usize) -> usize {
        elimination_candidates(self.ratio, n)
    }

    /// Candidates per output point.
    pub fn ratio(&self) -> f64 {
        self.ratio
    }

    /// Whether the output is ordered progressively.
    pub fn progressive(&self) -> bool {
        self.progressive
    }
}

impl<const D: usize> Sampler<D> for SampleElimination<D> {
    fn name(&self) -> &'static str {
        "sample-elimination"
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D> {
        let (count, stop) = count_within(self.ratio, n, self.max_points);
        if count == 0 {
            return PointSet::new(Vec::new(), self.domain, stop, 0);
        }
        let m = elimination_candidates(self.ratio, count);
        // Where the candidates come from: the box, or the region (by rejection), with the
        // volume r_max is computed for and the box the neighbour grid covers.
        let (candidates, volume, grid_box, draws) = match &self.region {
            SamplerRegion::Whole => {
                let candidates: Vec<Point<D>> =
                    (0..m).map(|_| self.domain.uniform_point(rng)).collect();
                (candidates, self.domain.volume(), self.domain, m as u64)
            }
            SamplerRegion::Shape(shape) => {
                let budget = shape.draw_budget();
                let mut candidates = Vec::with_capacity(m);
                let mut draws = 0u64;
                while candidates.len() < m {
                    let (point, tries) = shape.draw_inside(rng, budget);
                    draws += tries;
                    match point {
                        Some(p) => candidates.push(p),
                        None => {
                            return PointSet::new(
                                Vec::new(),
                                self.domain,
                                StopReason::Exhausted,
                                draws,
                            );
                        }
                    }
                }
                let sampling = *shape.sampling();
                (candidates, sampling.volume() * m as f64 / draws as f64, sampling, draws)
            }
        };
        let elimination = Elimination { grid_box, measure: volume, dims: D, sparse: false };
        let order = elimination.order(&candidates, count, self.progressive);
        let points = order.iter().map(|&i| candidates[i as usize]).collect();
        PointSet::new(points, self.domain, stop, draws)
    }
}

/// One weighted elimination setting: candidates spread over a set of dimension `dims` and
/// measure `measure` (the box's volume; a surface's area, `dims` 2, in 3D), inside the box
/// `grid_box` the neighbour grid covers. The paper's r_max, d_min and neighbour estimate take
/// `dims`, so one code serves boxes, regions and surfaces.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Elimination<const D: usize> {
    pub(crate) grid_box: Domain<D>,
    pub(crate) measure: f64,
    pub(crate) dims: usize,
    /// Whether the neighbour grid keeps only its occupied cells (for candidates on a
    /// surface, which leaves most cells of its box empty); a box's grid is dense.
    pub(crate) sparse: bool,
}

impl<const D: usize> Elimination<D> {
    /// r_max for `n` points: the radius of `n` equal balls of dimension `dims` packed at
    /// the densest density in the measure.
    fn r_max(&self, n: usize) -> f64 {
        let d = self.dims;
        let eta = densest_packing_fraction(d).unwrap_or(2f64.powi(1 - d as i32));
        (eta * self.measure / (n as f64 * unit_ball_volume(d))).powf(1.0 / d as f64)
    }

    /// The order of the output: the `count` survivors of all of `candidates`, or with
    /// `progressive` every prefix the survivors of a further halving (see
    /// [`SampleElimination`]). Indices into `candidates`.
    pub(crate) fn order(
        &self,
        candidates: &[Point<D>],
        count: usize,
        progressive: bool,
    ) -> Vec<u32> {
        let all: Vec<u32> = (0..candidates.len() as u32).collect();
        let (mut survivors, _) = self.eliminate(candidates, &all, count);
        survivors.sort_unstable();
        if !progressive {
            return survivors;
        }
        // Groups of eliminated points, each in reverse elimination order, largest first.
        let mut groups = Vec::new();
        while survivors.len() > 1 {
            let (mut kept, mut eliminated) =
                self.eliminate(candidates, &survivors, survivors.len() / 2);
            eliminated.reverse();
            groups.push(eliminated);
            kept.sort_unstable();
            survivors = kept;
        }
        let mut order = survivors;
        for group in groups.into_iter().rev() {
            order.extend(group);
        }
        order
    }

    /// Eliminates candidates of `set` (indices into `points`, all in the grid box) until
    /// `target` remain. Returns the survivors (in no particular order) and the eliminated,
    /// in elimination order.
    fn eliminate(&self, points: &[Point<D>], set: &[u32], target: usize) -> (Vec<u32>, Vec<u32>) {
        self.eliminate_within(points, set, target, ROWS_BUDGET)
    }

    /// [`eliminate`](Self::eliminate) keeping neighbour rows only if they fit `rows_budget`
    /// bytes.
    fn eliminate_within(
        &self,
        points: &[Point<D>],
        set: &[u32],
        target: usize,
        rows_budget: usize,
    ) -> (Vec<u32>, Vec<u32>) {
        if set.len() <= target {
            return (set.to_vec(), Vec::new());
        }
        let d_max = 2.0 * self.r_max(target);
        let ratio = target as f64 / set.len() as f64;
        let d_min = d_max * (1.0 - ratio.powf(GAMMA)) * BETA;
        let grid = neighbour_grid(&self.grid_box, points, set, d_max, self.sparse);
        let m = grid.points().len();
        let weight = |d2: f64| {
            let d = d2.sqrt().max(d_min);
            (1.0 - d / d_max).powi(ALPHA)
        };
        // Rows (with room for 5 % more than the expected neighbours) when they fit the budget:
        // with their weights (12 bytes a neighbour, the faster way) when those fit, else the
        // neighbours alone (4 bytes), their weights worked out again at each removal; given
        // up if they pass twice the budget (candidates far denser than average in places).
        let expected = expected_neighbours(self.dims, set.len(), target) * m as f64 * 1.05;
        let rows = [true, false].into_iter().find_map(|weights| {
            let bytes = RowRoom::bytes(weights);
            (expected * bytes <= rows_budget as f64).then(|| RowRoom {
                reserve: expected.ceil() as usize,
                most: (2.0 * rows_budget as f64 / bytes).min(u32::MAX as f64) as usize,
                weights,
            })
        });
        let (alive, mut eliminated) = run_queue(&grid, d_max * d_max, &weight, target, rows);
        // Mapped back only now: a look-up per pop would be one more cache miss in the loop.
        for k in &mut eliminated {
            *k = grid.original(*k as usize);
        }
        let survivors = (0..m).filter(|&k| alive[k]).map(|k| grid.original(k)).collect();
        (survivors, eliminated)
    }
}

/// The room for neighbour rows: how many neighbours to set room aside for, the most to keep
/// (at most `u32::MAX`, so that rows start at `u32` offsets), and whether their weights are
/// kept beside them.
#[derive(Debug, Clone, Copy)]
struct RowRoom {
    reserve: usize,
    most: usize,
    weights: bool,
}

impl RowRoom {
    /// The bytes of one kept neighbour: its index, and its weight if `weights`.
    fn bytes(weights: bool) -> f64 {
        if weights { 12.0 } else { 4.0 }
    }
}

/// Each candidate's total weight (the weights of its neighbours, summed in the layout's walk
/// order), and with room for rows ([`RowRoom`]) its neighbours as compressed rows: candidate
/// k's are `neighbour[start[k]..start[k + 1]]`, in walk order, with their weights at the same
/// places in `weight` if the room keeps them (otherwise `weight` is empty and a removal works
/// them out again from the two points, to the bit as the weighing did). Rows that would pass
/// the room's `most` are given up (`start` is then empty), and only the totals are kept.
struct Weighed {
    totals: Vec<f64>,
    start: Vec<u32>,
    neighbour: Scratch<u32>,
    weight: Scratch<f64>,
}

impl Weighed {
    fn new<const D: usize>(
        grid: &SortedCells<D>,
        reach_squared: f64,
        weight: &impl Fn(f64) -> f64,
        rows: Option<RowRoom>,
    ) -> Self {
        let points = grid.points();
        let layout = grid.layout();
        let domain = layout.domain();
        let m = points.len();
        let mut keep = rows.is_some();
        let weights = rows.is_some_and(|rows| rows.weights);
        let (room_for, most) = rows.map_or((0, 0), |rows| (rows.reserve, rows.most));
        let mut out = Weighed {
            totals: Vec::with_capacity(m),
            start: Vec::with_capacity(if keep { m + 1 } else { 0 }),
            neighbour: Scratch::zeroed(room_for),
            weight: Scratch::zeroed(if weights { room_for } else { 0 }),
        };
        out.start.extend(keep.then_some(0));
        // Filled without a branch on the distance test (a close pair is about a coin flip to
        // predict): every tried pair is written at `len` (its index in the rows, its squared
        // distance in the weights' row or, where weights are not kept, in a scratch row of
        // the candidate's own), which moves on only for a close one; the vectors are kept
        // longer than `len` and cut at the end. Without rows the one row is rewritten for
        // each candidate.
        let mut len = 0;
        let mut tried: Vec<f64> = Vec::new();
        let mut runs = Vec::new();
        // From `PASS_OVER_FROM` dimensions on, each run's place in the block, and the runs a
        // candidate does not pass over.
        let mut places: Vec<[u8; D]> = Vec::new();
        let mut near = Vec::new();
        // A sparse grid's cells by cursors, not by a binary search each.
        let mut cursors = grid.block_cursors();
        for (cell, run) in grid.occupied() {
            // The occupied cells around, in the layout's walk order.
            runs.clear();
            places.clear();
            for (at, (key, place)) in layout.block_around(&cell).cells().enumerate() {
                let run = match &mut cursors {
                    Some(cursors) => cursors.run(at, key),
                    None => grid.run(key),
                };
                if !run.is_empty() {
                    runs.push((run.start, run.end));
                    if D >= PASS_OVER_FROM {
                        places.push(place);
                    }
                }
            }
            let room: usize = runs.iter().map(|&(from, to)| to - from).sum();
            if tried.len() < room {
                tried.resize(room, 0.0);
            }
            for k in run {
                if keep && len + room > most {
                    // Rows past the most allowed are given up; the totals go on alone.
                    keep = false;
                    out.start = Vec::new();
                    out.neighbour = Scratch::default();
                    out.weight = Scratch::default();
                }
                if !keep {
                    len = 0;
                }
                if out.neighbour.len() < len + room {
                    let grown = (len + len / 2).min(most).max(len + room);
                    out.neighbour.resize(grown);
                    if weights {
                        out.weight.resize(grown);
                    }
                }
                let p = points[k];
                let mut close = 0;
                // Local slices: the compiler then knows the writes cannot touch the points.
                let neighbour = &mut out.neighbour[len..];
                let tried = if keep && weights { &mut out.weight[len..] } else { &mut tried[..] };
                // Cells beyond the reach passed over: none of their points would be close, so
                // the rows and totals are the same.
                let runs: &[(usize, usize)] = if D >= PASS_OVER_FROM {
                    let gaps = layout.block_gaps(&p, &cell);
                    near.clear();
                    near.extend(
                        runs.iter()
                            .zip(&places)
                            .filter(|&(_, &place)| !beyond(&gaps, place, reach_squared))
                            .map(|(&run, _)| run),
                    );
                    &near
                } else {
                    &runs
                };
                for &(from, to) in runs {
                    for (j, q) in (from..to).zip(&points[from..to]) {
                        let d2 = domain.distance_squared(&p, q);
                        neighbour[close] = j as u32;
                        tried[close] = d2;
                        close += usize::from(d2 < reach_squared && j != k);
                    }
                }
                // Weighed in a loop of their own, which the compiler vectorises (square roots
                // and divisions side by side), then summed in order.
                for w in &mut tried[..close] {
                    *w = weight(*w);
                }
                let sum = tried[..close].iter().fold(0.0, |sum, w| sum + w);
                len += close;
                out.totals.push(sum);
                if keep {
                    // At most `most`, itself at most `u32::MAX`.
                    out.start.push(len as u32);
                }
            }
        }
        out.neighbour.truncate(if keep { len } else { 0 });
        out.weight.truncate(if keep && weights { len } else { 0 });
        out
    }
}

/// The dimension from which the weighing and the removals pass over the cells of a block
/// that lie beyond the reach of a candidate. The block's cells that a ball of the reach can
/// meet are 76% of them in 3D, 61% in 4D and 47% in 5D (Steiner's formula, cells as wide as
/// the reach), so below 4D the bound costs more than it saves.
const PASS_OVER_FROM: usize = 4;

/// Whether the block's cell at `place` lies beyond the reach of the point whose
/// [`GridLayout::block_gaps`] these are (never below [`PASS_OVER_FROM`] dimensions).
#[inline(always)]
fn beyond<const D: usize>(gaps: &[[f64; 3]; D], place: [u8; D], reach_squared: f64) -> bool {
    D >= PASS_OVER_FROM
        && (0..D).map(|i| gaps[i][usize::from(place[i])]).sum::<f64>() >= reach_squared
}

/// About how many neighbours a candidate has when `set` candidates are eliminated down to
/// `target` in `dims` dimensions: 2^dims · η · set / target (the balls of radius 2·r_max
/// hold that many on average).
fn expected_neighbours(dims: usize, set: usize, target: usize) -> f64 {
    let eta = densest_packing_fraction(dims).unwrap_or(2f64.powi(1 - dims as i32));
    2f64.powi(dims as i32) * eta * set as f64 / target as f64
}

/// The most memory the neighbour rows may take (256 MiB, about 1.2·10^6 candidates in 2D at
/// the default ratio); past it a candidate's neighbours are found again when it is removed.
const ROWS_BUDGET: usize = 1 << 28;

/// Weighs every candidate, then removes the heaviest and lowers its living neighbours' weights
/// by the same weights until `target` remain; returns which are alive and the eliminated, in
/// elimination order (all by sorted index). With room for `rows`, and while they fit it, each
/// candidate's neighbours are kept from the weighing, with their weights (12 bytes a
/// neighbour, the fastest way) or alone (4 bytes, the weights worked out again from the two
/// points at each removal); otherwise a removed candidate's neighbours are found again in the
/// grid (no memory per neighbour). All three subtract the same weights from the same leaves,
/// each leaf in elimination order, and the tree's state depends on its leaves alone, so they
/// remove the same candidates in the same order.
fn run_queue<const D: usize>(
    grid: &SortedCells<D>,
    reach_squared: f64,
    weight: &impl Fn(f64) -> f64,
    target: usize,
    rows: Option<RowRoom>,
) -> (Vec<bool>, Vec<u32>) {
    let m = grid.points().len();
    let Weighed { totals, start, neighbour, weight: weights } =
        Weighed::new(grid, reach_squared, weight, rows);
    let kept = !start.is_empty();
    let mut queue = Tournament::build(totals);
    let mut eliminated = Vec::with_capacity(m - target);
    let mut repairs = Repairs::default();
    let mut lowered = Vec::new();
    let (points, layout) = (grid.points(), grid.layout());
    let domain = layout.domain();
    while eliminated.len() < m - target {
        let Some(k) = queue.pop() else { break };
        eliminated.push(k as u32);
        // The heaviest now is likely the next to go (unless one of k's neighbours was it):
        // what its removal reads first is prefetched, so that the cache misses overlap the
        // work on k's neighbours. With rows, the start of its row (and of its weights);
        // where the weights are worked out again, its point and its leaf too, beside which
        // lie the candidates of its cell. A load instead of a prefetch holds the work up once
        // the miss is the oldest instruction left (reading a row's first entry was no faster
        // than not at all).
        let next = queue.peek();
        let reads_points = !kept || weights.is_empty();
        if let Some(next) = next {
            if kept {
                let at = start[next] as usize;
                prefetch_index::prefetch_index(&neighbour[..], at);
                if !weights.is_empty() {
                    prefetch_index::prefetch_index(&weights[..], at);
                }
            }
            if reads_points {
                prefetch_index::prefetch_index(points, next);
                prefetch_index::prefetch_index(&queue.leaf, next);
            }
        }
        if kept {
            let range = start[k] as usize..start[k + 1] as usize;
            if !weights.is_empty() {
                let lowered = neighbour[range.clone()].iter().zip(&weights[range]);
                queue.decrease_many(lowered.map(|(&j, &w)| (j as usize, w)), &mut repairs);
                continue;
            }
        }
        // The living neighbours (k itself is no longer; a removed neighbour's point is not
        // even read), from k's row or from the cells around it (the cell `k` was sorted
        // into), with their weights worked out again as the weighing did: the same two
        // points in the same order.
        let p = points[k];
        lowered.clear();
        let mut lower = |j: usize| {
            if queue.alive(j) {
                let d2 = domain.distance_squared(&p, &points[j]);
                if d2 < reach_squared {
                    lowered.push((j, weight(d2)));
                }
            }
        };
        if kept {
            neighbour[start[k] as usize..start[k + 1] as usize]
                .iter()
                .for_each(|&j| lower(j as usize));
        } else {
            let cell = layout.cell_of(&p);
            let gaps =
                if D >= PASS_OVER_FROM { layout.block_gaps(&p, &cell) } else { [[0.0; 3]; D] };
            for (key, place) in layout.block_around(&cell).cells() {
                if !beyond(&gaps, place, reach_squared) {
                    grid.run(key).for_each(&mut lower);
                }
            }
        }
        // Without rows, the likely next one's point, prefetched above, has had time to
        // arrive: the first points and leaves of the cells around it, where its neighbours
        // lie, are prefetched in turn, to arrive while k's neighbours are lightened (1.4× for
        // 10^6 points of 5·10^6 in 2D; with rows of neighbours alone, no faster:
        // docs/performance.md).
        if let Some(next) = next.filter(|_| !kept) {
            for key in layout.block_around(&layout.cell_of(&points[next])).keys() {
                let run = grid.run(key);
                prefetch_index::prefetch_index(points, run.start);
                prefetch_index::prefetch_index(&queue.leaf, run.start);
            }
        }
        queue.decrease_many(lowered.iter().copied(), &mut repairs);
    }
    let alive = (0..m).map(|k| queue.alive(k)).collect();
    (alive, eliminated)
}

/// The candidates `set` (indices into `points`) sorted by cells of side at least `reach` over
/// `domain`: the cells around a candidate's hold every candidate closer than `reach`. A dense
/// grid has at most about as many cells as candidates; a `sparse` one has cells of side about
/// `reach` (at most 2^20 along an axis) and keeps only the occupied ones.
fn neighbour_grid<const D: usize>(
    domain: &Domain<D>,
    points: &[Point<D>],
    set: &[u32],
    reach: f64,
    sparse: bool,
) -> SortedCells<D> {
    let extent = domain.extent();
    let mut counts = [1u64; D];
    let mut budget = if sparse { f64::INFINITY } else { set.len().max(1) as f64 };
    for i in 0..D {
        let most = if sparse { SPARSE_AXIS_CELLS } else { budget.max(1.0) };
        let along = (extent[i] / (reach * CELL_MARGIN)).floor().clamp(1.0, most);
        budget /= along;
        counts[i] = along as u64;
    }
    SortedCells::new(GridLayout::tiling(domain, counts, reach), points, set)
}

/// The most cells along one axis of a sparse neighbour grid: keys stay below 2^64.
const SPARSE_AXIS_CELLS: f64 = (1u64 << 20) as f64;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{rng_from_seed, uniform01};
    use std::ops::Range;

    /// Rows with their weights, rows of neighbours alone (weights worked out again) and
    /// neighbours found again remove the same candidates in the same order: on a torus and in
    /// a closed box, in 2D and 3D, and on a surface-like sparse grid.
    #[test]
    fn rows_and_recomputed_neighbours_eliminate_alike() {
        fn check<const D: usize>(periodic: bool, sparse: bool, dims: usize) {
            let mut rng = rng_from_seed(5 + D as u64);
            let mut domain = Domain::<D>::unit();
            if periodic {
                domain = domain.periodic();
            }
            let points: Vec<Point<D>> = (0..6000)
                .map(|_| {
                    let mut p: Point<D> = std::array::from_fn(|_| uniform01(&mut rng));
                    if sparse {
                        p[D - 1] = 0.5 + 0.1 * (7.0 * p[0]).sin(); // a curved sheet
                    }
                    p
                })
                .collect();
            let measure = if sparse { 1.0 } else { domain.volume() };
            let elimination = Elimination { grid_box: domain, measure, dims, sparse };
            let set: Vec<u32> = (0..points.len() as u32).collect();
            let kept = elimination.eliminate_within(&points, &set, 1200, usize::MAX);
            // Room for the neighbours' indices (4 bytes each) but not their weights.
            let indices_only = expected_neighbours(dims, 6000, 1200) * 6000.0 * 1.05 * 4.0;
            let grid = neighbour_grid(&domain, &points, &set, 0.1, sparse);
            let room = RowRoom { reserve: 0, most: usize::MAX >> 32, weights: false };
            let rows = Weighed::new(&grid, 0.01, &|d2| d2, Some(room));
            assert!(rows.start.len() == 6001 && rows.weight.is_empty());
            let recomputed =
                elimination.eliminate_within(&points, &set, 1200, indices_only.ceil() as usize);
            let found = elimination.eliminate_within(&points, &set, 1200, 0);
            assert_eq!(kept, found, "D = {D}, periodic {periodic}, sparse {sparse}");
            assert_eq!(kept, recomputed, "D = {D}, periodic {periodic}, sparse {sparse}");
            assert_eq!(kept.0.len(), 1200);
        }
        check::<2>(true, false, 2);
        check::<2>(false, false, 2);
        check::<3>(true, false, 3);
        check::<3>(false, true, 2);
        check::<5>(true, false, 5);
        check::<4>(false, false, 4);
    }

    /// Every candidate's row holds exactly the others closer than the reach, found by brute
    /// force, with their squared distances: in 2D to 6D, in a closed box and on a torus
    /// (where cells beyond the reach are passed over from 4D on), with reaches that leave
    /// one, two, three and more cells along an axis, and on a sparse grid.
    #[test]
    fn rows_hold_every_close_pair() {
        fn check<const D: usize>(periodic: bool, sparse: bool, reach: f64, seed: u64) {
            let mut rng = rng_from_seed(seed);
            let mut domain = Domain::<D>::unit();
            if periodic {
                domain = domain.periodic();
            }
            let points: Vec<Point<D>> =
                (0..1500).map(|_| std::array::from_fn(|_| uniform01(&mut rng))).collect();
            let set: Vec<u32> = (0..points.len() as u32).collect();
            let grid = neighbour_grid(&domain, &points, &set, reach, sparse);
            let room = RowRoom { reserve: 0, most: usize::MAX >> 32, weights: true };
            let rows = Weighed::new(&grid, reach * reach, &|d2| d2, Some(room));
            let sorted = grid.points();
            for (k, p) in sorted.iter().enumerate() {
                let range = rows.start[k] as usize..rows.start[k + 1] as usize;
                let mut row: Vec<(u32, f64)> = rows.neighbour[range.clone()]
                    .iter()
                    .copied()
                    .zip(rows.weight[range].iter().copied())
                    .collect();
                row.sort_by_key(|&(j, _)| j);
                let brute: Vec<(u32, f64)> = (0..sorted.len())
                    .filter(|&j| j != k)
                    .map(|j| (j as u32, domain.distance_squared(p, &sorted[j])))
                    .filter(|&(_, d2)| d2 < reach * reach)
                    .collect();
                let what = format!("{D}D periodic {periodic} sparse {sparse} reach {reach}");
                assert_eq!(row, brute, "candidate {k}, {what}");
            }
        }
        for reach in [0.45, 0.3, 0.2, 0.12] {
            check::<2>(true, false, reach / 2.0, 1);
            check::<3>(false, false, reach / 1.5, 2);
            check::<4>(true, false, reach, 3);
            check::<4>(false, false, reach, 4);
            check::<5>(true, false, reach, 5);
            check::<5>(false, true, reach, 6);
            check::<6>(true, false, reach, 7);
            check::<6>(false, false, reach, 8);
        }
    }

    /// Rows that would pass twice the budget — candidates far denser than average in one
    /// place — are given up for the totals alone, and the elimination is the one without rows;
    /// the same candidates spread evenly keep theirs.
    #[test]
    fn rows_past_twice_the_budget_are_given_up() {
        let mut rng = rng_from_seed(11);
        let domain = Domain::<2>::unit();
        // Every other candidate in a speck where all are neighbours: 9·10^6 pairs.
        let spread: Vec<Point<2>> =
            (0..6000).map(|_| std::array::from_fn(|_| uniform01(&mut rng))).collect();
        let speck: Vec<Point<2>> = spread
            .iter()
            .enumerate()
            .map(|(k, p)| if k % 2 == 0 { *p } else { p.map(|x| 0.5 + 1e-3 * x) })
            .collect();
        let elimination = Elimination { grid_box: domain, measure: 1.0, dims: 2, sparse: false };
        let set: Vec<u32> = (0..6000).collect();
        let bytes = RowRoom::bytes(true);
        let budget = (expected_neighbours(2, 6000, 1200) * 6000.0 * 1.05 * bytes).ceil();
        let room = RowRoom { reserve: 0, most: (2.0 * budget / bytes) as usize, weights: true };
        let d_max = 2.0 * elimination.r_max(1200);
        let rows_of = |points: &[Point<2>]| {
            let grid = neighbour_grid(&domain, points, &set, d_max, false);
            Weighed::new(&grid, d_max * d_max, &|d2| d2, Some(room)).start.len()
        };
        assert_eq!(rows_of(&spread), 6001);
        assert_eq!(rows_of(&speck), 0);
        let budget = budget as usize;
        let given_up = elimination.eliminate_within(&speck, &set, 1200, budget);
        let found = elimination.eliminate_within(&speck, &set, 1200, 0);
        assert_eq!(given_up, found);
        assert_eq!(given_up.0.len(), 1200);
    }

    /// The cursors find the grid's own run for every cell of every block, over the occupied
    /// cells in key order: on a curved sheet and a scatter in 3D, with corners of the box
    /// among the points (blocks reaching into the padding), and in 2D.
    #[test]
    fn block_cursors_find_the_grids_runs() {
        /// Checks every block's runs; returns 1 when the grid was sparse (cursors made).
        fn check<const D: usize>(points: &[Point<D>], reach: f64) -> usize {
            let set: Vec<u32> = (0..points.len() as u32).collect();
            let grid = neighbour_grid(&Domain::<D>::unit(), points, &set, reach, true);
            let Some(mut cursors) = grid.block_cursors() else { return 0 };
            let mut found = 0;
            for (cell, _) in grid.occupied() {
                for (at, key) in grid.layout().block_around(&cell).keys().enumerate() {
                    // An empty run is an empty run wherever a dense grid says it starts.
                    let (run, expected) = (cursors.run(at, key), grid.run(key));
                    let nonempty = |r: Range<usize>| (!r.is_empty()).then_some(r);
                    assert_eq!(nonempty(run.clone()), nonempty(expected), "{D}D reach {reach}");
                    found += run.len();
                }
            }
            assert!(found >= points.len(), "{D}D reach {reach}");
            1
        }
        let mut rng = rng_from_seed(11);
        let mut sheet: Vec<Point<3>> = (0..4000)
            .map(|_| {
                let (x, y) = (uniform01(&mut rng), uniform01(&mut rng));
                [x, y, 0.5 + 0.3 * (5.0 * x).sin() * (3.0 * y).cos()]
            })
            .collect();
        sheet.extend([[0.0; 3], [1.0; 3], [0.0, 1.0, 0.0], [1.0, 0.0, 1.0]]);
        let scatter: Vec<Point<3>> =
            (0..3000).map(|_| std::array::from_fn(|_| uniform01(&mut rng))).collect();
        let plane: Vec<Point<2>> =
            (0..3000).map(|_| std::array::from_fn(|_| uniform01(&mut rng))).collect();
        let mut sparse = 0;
        for reach in [0.002, 0.004, 0.03, 0.2, 0.7] {
            sparse += check(&sheet, reach) + check(&scatter, reach) + check(&plane, reach);
        }
        // The fine reaches index sparsely: the cursors were checked there.
        assert!(sparse >= 3, "only {sparse} sparse grids");
    }
}
