//! Weighted sample elimination (Yuksel 2015): draw many uniform candidates, then remove the
//! most crowded one at a time until the requested number remain.

use crate::defaults::MAX_POINTS;
use crate::domain::Domain;
use crate::error::Error;
use crate::grid::check_grid_point_limit;
use crate::packing::{densest_packing_fraction, unit_ball_volume};
use crate::point::Point;
use crate::sampler::{PointSet, Sampler, StopReason};
use rand::Rng;

/// Default number of candidates per output point, M / N = 5 (Yuksel 2015).
pub const DEFAULT_RATIO: f64 = 5.0;

/// The weight function's exponent α (Yuksel 2015).
const ALPHA: i32 = 8;
/// Weight limiting: exponent γ and factor β of r_min (Yuksel 2015).
const GAMMA: f64 = 1.5;
const BETA: f64 = 0.65;

/// Cells of the neighbour grid are at least this much wider than 2·r_max, so that rounding in
/// a cell index never puts two points closer than 2·r_max two cells apart.
const CELL_MARGIN: f64 = 1.0 + 1.0 / (1u64 << 20) as f64;

/// The largest number of candidates one run draws (indices are `u32`).
const MAX_CANDIDATES: usize = u32::MAX as usize - 1;

/// Weighted sample elimination (Cem Yuksel 2015, "Sample elimination for generating Poisson
/// disk sample sets", Computer Graphics Forum 34(2)).
///
/// For `n` points, draws M = ⌈ratio · n⌉ uniform candidates (`ratio` default
/// [`DEFAULT_RATIO`] = 5), gives each candidate a weight that measures how crowded it is, and
/// removes the heaviest candidate, one at a time, until `n` remain; each removal lowers the
/// weights of its neighbours. Exactly `n` points every time (up to the point limit):
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
/// With [`with_progressive(true)`](Self::with_progressive) the output is ordered so that
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
/// 3^D cells around a candidate in O(1) expected time; candidates are stored sorted by cell
/// for locality; and it needs no dependency (a k-d tree would buy nothing at a fixed radius).
/// The heap is an indexed binary max-heap whose keys only decrease (a removal lowers its
/// neighbours' weights), so every update is one sift-down. O(M log M) time, O(M) memory
/// (about 40 bytes per candidate in 2D). [`PointSet::attempts`] counts the candidates.
///
/// ```
/// use poisson_nd::{Domain, SampleElimination, Sampler};
/// let sampler = SampleElimination::new(Domain::<2>::unit().periodic()).with_progressive(true);
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
}

impl<const D: usize> SampleElimination<D> {
    /// Sample elimination in `domain` with [`DEFAULT_RATIO`] candidates per point, output in
    /// the order drawn, and the point limit [`MAX_POINTS`].
    pub fn new(domain: Domain<D>) -> Self {
        SampleElimination {
            domain,
            ratio: DEFAULT_RATIO,
            progressive: false,
            max_points: MAX_POINTS,
        }
    }

    /// Sets the candidates per output point, M / n (default 5). Larger ratios give a more even
    /// spacing, at a proportional cost; 1 eliminates nothing (white noise). Errors unless it is
    /// finite and at least 1.
    pub fn with_ratio(mut self, ratio: f64) -> Result<Self, Error> {
        if !(ratio.is_finite() && ratio >= 1.0) {
            return Err(Error::InvalidParameter {
                name: "ratio (candidates per point)",
                expected: "finite and at least 1",
                value: ratio,
            });
        }
        self.ratio = ratio;
        Ok(self)
    }

    /// With `true`, orders the output so that every prefix is well spread (see the type's
    /// documentation); with `false` (the default), the points come in the order drawn.
    #[must_use]
    pub fn with_progressive(mut self, progressive: bool) -> Self {
        self.progressive = progressive;
        self
    }

    /// Caps the points one run may produce (default [`MAX_POINTS`]); a larger `n`
    /// stops at the cap with [`StopReason::PointLimit`]. Errors when it is 0 or above
    /// 2147483647. The candidates of one run are also capped, at 2^32 − 2.
    pub fn with_max_points(mut self, max_points: usize) -> Result<Self, Error> {
        check_grid_point_limit(max_points)?;
        self.max_points = max_points;
        Ok(self)
    }

    /// Candidates per output point.
    pub fn ratio(&self) -> f64 {
        self.ratio
    }

    /// Whether the output is ordered progressively.
    pub fn progressive(&self) -> bool {
        self.progressive
    }

    /// r_max for `n` points in this box: the radius of `n` equal balls at the densest packing.
    fn r_max(&self, n: usize) -> f64 {
        let eta = densest_packing_fraction(D).unwrap_or(2f64.powi(1 - D as i32));
        (eta * self.domain.volume() / (n as f64 * unit_ball_volume(D))).powf(1.0 / D as f64)
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
        let count = n.min(self.max_points);
        let stop = if count == n { StopReason::TargetReached } else { StopReason::PointLimit };
        if count == 0 {
            return PointSet::new(Vec::new(), self.domain, stop, 0);
        }
        let wanted = (self.ratio * count as f64).ceil();
        let m = if wanted >= MAX_CANDIDATES as f64 { MAX_CANDIDATES } else { wanted as usize };
        let m = m.max(count);
        let candidates: Vec<Point<D>> = (0..m).map(|_| self.domain.uniform_point(rng)).collect();
        let all: Vec<u32> = (0..m as u32).collect();
        let (mut survivors, _) = self.eliminate(&candidates, &all, count);
        survivors.sort_unstable();
        let order = if self.progressive {
            // Groups of eliminated points, each in reverse elimination order, largest first.
            let mut groups = Vec::new();
            while survivors.len() > 1 {
                let (mut kept, mut eliminated) =
                    self.eliminate(&candidates, &survivors, survivors.len() / 2);
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
        } else {
            survivors
        };
        let points = order.iter().map(|&i| candidates[i as usize]).collect();
        PointSet::new(points, self.domain, stop, m as u64)
    }
}

impl<const D: usize> SampleElimination<D> {
    /// Eliminates candidates of `set` (indices into `points`) until `target` remain. Returns
    /// the survivors (in no particular order) and the eliminated, in elimination order.
    fn eliminate(&self, points: &[Point<D>], set: &[u32], target: usize) -> (Vec<u32>, Vec<u32>) {
        if set.len() <= target {
            return (set.to_vec(), Vec::new());
        }
        let d_max = 2.0 * self.r_max(target);
        let ratio = target as f64 / set.len() as f64;
        let d_min = d_max * (1.0 - ratio.powf(GAMMA)) * BETA;
        let mut grid = CellGrid::new(&self.domain, points, set, d_max);
        let m = grid.sorted.len();
        let weight = |d2: f64| {
            let d = d2.sqrt().max(d_min);
            (1.0 - d / d_max).powi(ALPHA)
        };
        let mut weights = vec![0.0; m];
        for k in 0..m {
            let mut sum = 0.0;
            grid.for_each_neighbour(k, |_, d2| sum += weight(d2));
            weights[k] = sum;
        }
        let (alive, eliminated) = run_queue(MaxHeap::build(weights), &mut grid, target, &weight);
        let survivors = (0..m).filter(|&k| alive[k]).map(|k| grid.original[k]).collect();
        (survivors, eliminated)
    }
}

/// Removes the heaviest candidate and lowers its neighbours' weights until `target` remain;
/// returns which are alive (by sorted index) and the eliminated, as original indices in
/// elimination order.
fn run_queue<const D: usize>(
    mut queue: MaxHeap,
    grid: &mut CellGrid<'_, D>,
    target: usize,
    weight: &impl Fn(f64) -> f64,
) -> (Vec<bool>, Vec<u32>) {
    let m = grid.sorted.len();
    let mut alive = vec![true; m];
    let mut eliminated = Vec::with_capacity(m - target);
    while eliminated.len() < m - target {
        let Some(k) = queue.pop() else { break };
        alive[k] = false;
        eliminated.push(grid.original[k]);
        grid.for_each_neighbour(k, |j, d2| queue.decrease(j, weight(d2)));
        // An eliminated candidate is no one's neighbour any more: NaN fails every distance
        // test, which spares the queries a look-up of who is alive.
        grid.sorted[k] = [f64::NAN; D];
    }
    (alive, eliminated)
}

/// Candidates bucketed in cells of side at least `reach`, stored sorted by cell.
struct CellGrid<'a, const D: usize> {
    domain: &'a Domain<D>,
    reach_squared: f64,
    /// Cells per axis, and the strides of the linear cell index.
    cells: [usize; D],
    strides: [usize; D],
    /// Candidates in cell order, their original indices, and where each cell's run starts.
    sorted: Vec<Point<D>>,
    original: Vec<u32>,
    cell: Vec<u32>,
    start: Vec<u32>,
}

impl<'a, const D: usize> CellGrid<'a, D> {
    fn new(domain: &'a Domain<D>, points: &[Point<D>], set: &[u32], reach: f64) -> Self {
        let extent = domain.extent();
        let mut cells = [1usize; D];
        let mut inverse_side = [0.0; D];
        // At most about as many cells as candidates, whatever the reach.
        let mut budget = set.len().max(1) as f64;
        for i in 0..D {
            let along = (extent[i] / (reach * CELL_MARGIN)).floor().clamp(1.0, budget.max(1.0));
            budget /= along;
            cells[i] = along as usize;
            inverse_side[i] = along / extent[i];
        }
        let mut strides = [0usize; D];
        let mut total = 1usize;
        for i in (0..D).rev() {
            strides[i] = total;
            total *= cells[i];
        }
        let origin = domain.origin();
        let cell_of = |p: &Point<D>| -> usize {
            (0..D)
                .map(|i| {
                    let t = ((p[i] - origin[i]) * inverse_side[i]).max(0.0);
                    (t as usize).min(cells[i] - 1) * strides[i]
                })
                .sum()
        };
        // Counting sort by cell.
        let keys: Vec<usize> = set.iter().map(|&i| cell_of(&points[i as usize])).collect();
        let mut start = vec![0u32; total + 1];
        for &key in &keys {
            start[key + 1] += 1;
        }
        for c in 0..total {
            start[c + 1] += start[c];
        }
        let mut fill = start.clone();
        let mut original = vec![0u32; set.len()];
        let mut cell = vec![0u32; set.len()];
        for (&i, &key) in set.iter().zip(&keys) {
            let at = fill[key] as usize;
            original[at] = i;
            cell[at] = key as u32;
            fill[key] += 1;
        }
        let sorted = original.iter().map(|&i| points[i as usize]).collect();
        CellGrid {
            domain,
            reach_squared: reach * reach,
            cells,
            strides,
            sorted,
            original,
            cell,
            start,
        }
    }

    /// Calls `visit(j, d²)` for every other candidate j closer than the reach to candidate
    /// `k` (toroidally in a periodic box).
    #[inline]
    fn for_each_neighbour(&self, k: usize, mut visit: impl FnMut(usize, f64)) {
        let periodic = self.domain.is_periodic();
        let p = self.sorted[k];
        let mut rest = self.cell[k] as usize;
        // Up to three distinct cells per axis, as index contributions.
        let mut along = [[0usize; 3]; D];
        let mut lens = [0usize; D];
        for i in 0..D {
            let c = rest / self.strides[i];
            rest %= self.strides[i];
            let m = self.cells[i];
            let mut len = 0;
            let mut push = |b: usize| {
                along[i][len] = b * self.strides[i];
                len += 1;
            };
            push(c);
            if c > 0 {
                push(c - 1);
            } else if periodic && m > 1 {
                push(m - 1);
            }
            if c + 1 < m {
                push(c + 1);
            } else if periodic && m > 2 {
                push(0);
            }
            lens[i] = len;
        }
        let mut at = [0usize; D];
        loop {
            let key: usize = (0..D).map(|i| along[i][at[i]]).sum();
            let (from, to) = (self.start[key] as usize, self.start[key + 1] as usize);
            for j in from..to {
                let d2 = self.domain.distance_squared(&p, &self.sorted[j]);
                if d2 < self.reach_squared && j != k {
                    visit(j, d2);
                }
            }
            let mut i = D;
            loop {
                if i == 0 {
                    return;
                }
                i -= 1;
                at[i] += 1;
                if at[i] < lens[i] {
                    break;
                }
                at[i] = 0;
            }
        }
    }
}

/// An indexed binary max-heap of items 0..m by weight (ties: the lower index first), whose
/// weights only decrease.
struct MaxHeap {
    /// (weight, item), heap-ordered.
    heap: Vec<(f64, u32)>,
    /// Position of each item in `heap` (stale once popped).
    position: Vec<u32>,
}

impl MaxHeap {
    fn build(weights: Vec<f64>) -> Self {
        let heap: Vec<(f64, u32)> =
            weights.into_iter().enumerate().map(|(i, w)| (w, i as u32)).collect();
        let position = (0..heap.len() as u32).collect();
        let mut this = MaxHeap { heap, position };
        for i in (0..this.heap.len() / 2).rev() {
            this.sift_down(i);
        }
        this
    }

    #[inline]
    fn above(a: (f64, u32), b: (f64, u32)) -> bool {
        a.0 > b.0 || (a.0 == b.0 && a.1 < b.1)
    }

    fn pop(&mut self) -> Option<usize> {
        let top = self.heap.first()?.1;
        let last = self.heap.len() - 1;
        self.heap.swap(0, last);
        self.heap.pop();
        if !self.heap.is_empty() {
            self.position[self.heap[0].1 as usize] = 0;
            self.sift_down(0);
        }
        Some(top as usize)
    }

    /// Lowers item's weight by `amount` (≥ 0).
    #[inline]
    fn decrease(&mut self, item: usize, amount: f64) {
        let at = self.position[item] as usize;
        self.heap[at].0 -= amount;
        self.sift_down(at);
    }

    #[inline]
    fn sift_down(&mut self, mut at: usize) {
        let len = self.heap.len();
        let entry = self.heap[at];
        loop {
            let left = 2 * at + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child = if right < len && Self::above(self.heap[right], self.heap[left]) {
                right
            } else {
                left
            };
            if !Self::above(self.heap[child], entry) {
                break;
            }
            self.heap[at] = self.heap[child];
            self.position[self.heap[at].1 as usize] = at as u32;
            at = child;
        }
        self.heap[at] = entry;
        self.position[entry.1 as usize] = at as u32;
    }
}
