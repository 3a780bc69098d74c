//! Mitchell's best-candidate algorithm, with an exact nearest-neighbour search in a grid whose
//! cells follow the shrinking spacing of the points.

use crate::domain::Domain;
use crate::error::Error;
use crate::grid::{check_grid_point_limit, cubic_cells};
use crate::point::Point;
use crate::sampler::{DEFAULT_MAX_POINTS, PointSet, Sampler, StopReason};
use rand::Rng;

/// Default number of candidates per point, m = 10 (Mitchell 1991).
pub const DEFAULT_CANDIDATES: u32 = 10;

/// Mitchell's best-candidate algorithm (Mitchell 1991, "Spectrally optimal sampling for
/// distribution ray tracing", SIGGRAPH): each new point is the one, among `m` uniform
/// candidates, that lies farthest from all points placed so far.
///
/// The first point is a single uniform draw (with no points placed every candidate is equally
/// far). For every later point, `m` candidates are drawn uniformly from the domain in turn;
/// the one with the largest distance to its nearest placed point wins, the earliest one on
/// a tie. With [`with_growing_candidates`](Self::with_growing_candidates) the `i`-th new
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
/// ```
/// use poisson_nd::{BestCandidate, Domain, Sampler};
/// let sampler = BestCandidate::new(Domain::<2>::unit()?).with_candidates(20)?;
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
}

impl<const D: usize> BestCandidate<D> {
    /// Best-candidate sampling in `domain` with [`DEFAULT_CANDIDATES`] candidates per point,
    /// a fixed number per point, and the point limit [`DEFAULT_MAX_POINTS`].
    pub fn new(domain: Domain<D>) -> Self {
        BestCandidate {
            domain,
            candidates: DEFAULT_CANDIDATES,
            growing: false,
            max_points: DEFAULT_MAX_POINTS,
        }
    }

    /// Sets `m`, the candidates per point (default 10). More candidates give a more even
    /// spacing at a proportional cost. Errors when `m = 0`.
    pub fn with_candidates(mut self, m: u32) -> Result<Self, Error> {
        if m == 0 {
            return Err(Error::ZeroCount("m (candidates per point)"));
        }
        self.candidates = m;
        Ok(self)
    }

    /// With `true`, the `i`-th new point (when `i` points are placed) is chosen from `m·i`
    /// candidates, as in Mitchell (1991); with `false` (the default) from `m`.
    #[must_use]
    pub fn with_growing_candidates(mut self, growing: bool) -> Self {
        self.growing = growing;
        self
    }

    /// Caps the points one run may produce (default [`DEFAULT_MAX_POINTS`]); a larger `n`
    /// stops at the cap with [`StopReason::PointLimit`]. Errors when it is 0 or above
    /// 2147483647.
    pub fn with_max_points(mut self, max_points: usize) -> Result<Self, Error> {
        check_grid_point_limit(max_points)?;
        self.max_points = max_points;
        Ok(self)
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
        let mut points: Vec<Point<D>> = Vec::with_capacity(count.min(1 << 20));
        let mut attempts = 0u64;
        let mut index = NearestGrid::new(&self.domain);
        while points.len() < count {
            if points.len() >= 2 * index.built_for {
                index.rebuild(&points);
            }
            let candidates = self.candidates_for(points.len());
            let mut best = self.domain.uniform_point(rng);
            // With no threshold the search always completes; infinity when nothing is placed.
            let mut best_distance =
                index.nearest_beyond(&points, &best, f64::NEG_INFINITY).unwrap_or(f64::INFINITY);
            for _ in 1..candidates {
                let candidate = self.domain.uniform_point(rng);
                if let Some(d2) = index.nearest_beyond(&points, &candidate, best_distance) {
                    best = candidate;
                    best_distance = d2;
                }
            }
            attempts = attempts.saturating_add(candidates);
            index.insert(&best, points.len());
            points.push(best);
        }
        PointSet { points, domain: self.domain, stop, attempts }
    }
}

/// Marks "no point" in cell heads and chains.
const NONE: u32 = u32::MAX;

/// A uniform grid over the domain holding the placed points, for exact nearest-neighbour
/// distances. Cells tile the box exactly (`cells[i]` equal cells along axis `i`); each cell
/// keeps its newest point and every point chains to the previous one of its cell.
#[derive(Debug)]
struct NearestGrid<const D: usize> {
    domain: Domain<D>,
    cells: [usize; D],
    side: [f64; D],
    inverse_side: [f64; D],
    /// Allowance for rounding in cell assignment and cell faces, per axis (length units).
    slack: [f64; D],
    strides: [usize; D],
    heads: Vec<u32>,
    previous: Vec<u32>,
    /// The number of points the current layout was made for.
    built_for: usize,
}

impl<const D: usize> NearestGrid<D> {
    /// A grid of one cell.
    fn new(domain: &Domain<D>) -> Self {
        let slack =
            std::array::from_fn(|i| 1e-12 * (domain.origin()[i].abs() + domain.extent()[i]));
        let mut grid = NearestGrid {
            domain: *domain,
            cells: [1; D],
            side: *domain.extent(),
            inverse_side: [0.0; D],
            slack,
            strides: [0; D],
            heads: Vec::new(),
            previous: Vec::new(),
            built_for: 1,
        };
        grid.lay_out([1; D]);
        grid
    }

    /// Sets the cell counts, sides and strides and empties the cells.
    fn lay_out(&mut self, cells: [usize; D]) {
        let extent = self.domain.extent();
        let mut total = 1usize;
        for i in (0..D).rev() {
            self.strides[i] = total;
            total = total.saturating_mul(cells[i]);
        }
        for i in 0..D {
            self.side[i] = extent[i] / cells[i] as f64;
            self.inverse_side[i] = cells[i] as f64 / extent[i];
        }
        self.cells = cells;
        self.heads.clear();
        self.heads.resize(total, NONE);
        self.previous.clear();
    }

    /// Lays the grid out again for the current number of points (cells as close to cubes as
    /// the box allows) and re-inserts them.
    fn rebuild(&mut self, points: &[Point<D>]) {
        let target = points.len().max(1);
        // About 2^(D/2) points per cell (2 in 2D, 16 in 8D): in higher dimensions a cell
        // visit costs more than a distance, and coarser cells mean fewer of them.
        let per_cell = 2f64.powf(D as f64 / 2.0);
        let cells = ((target as f64 / per_cell) as usize).max(1);
        self.lay_out(cubic_cells(self.domain.extent(), cells).0);
        for (i, p) in points.iter().enumerate() {
            self.insert(p, i);
        }
        self.built_for = target;
    }

    #[inline]
    fn cell_of(&self, p: &Point<D>) -> [usize; D] {
        let origin = self.domain.origin();
        std::array::from_fn(|i| {
            let c = ((p[i] - origin[i]) * self.inverse_side[i]).max(0.0) as usize;
            c.min(self.cells[i] - 1)
        })
    }

    /// Stores point number `index`, `p`.
    #[inline]
    fn insert(&mut self, p: &Point<D>, index: usize) {
        let cell = self.cell_of(p);
        let key: usize = (0..D).map(|i| cell[i] * self.strides[i]).sum();
        self.previous.push(self.heads[key]);
        self.heads[key] = index as u32;
    }

    /// The exact squared distance from `p` to its nearest point in `points` (all inserted),
    /// if it is greater than `threshold`; `None` as soon as a point at squared distance
    /// `threshold` or less turns up. Infinity when there are no points.
    ///
    /// Cells are searched in rings of growing Chebyshev distance around `p`'s cell. A cell
    /// `d_i` cells away along axis `i` is at least `(|d_i| − 1)·side_i + gap_i − slack_i` away
    /// along that axis, where `gap_i` is the distance from `p` to the face of its own cell on
    /// that side (periodic: the nearer face). A cell whose bound reaches the nearest distance
    /// found is skipped, and the search ends after ring ℓ when every cell outside it is that
    /// far (ℓ·side + gap along some axis), or when every cell was searched
    /// (docs/algorithms.md, "Best candidate").
    fn nearest_beyond(&self, points: &[Point<D>], p: &Point<D>, threshold: f64) -> Option<f64> {
        let centre = self.cell_of(p);
        let origin = self.domain.origin();
        let periodic = self.domain.is_periodic();
        let mut query = Query {
            points,
            p,
            centre,
            low: [0; D],
            high: [0; D],
            gap_below: [0.0; D],
            gap_above: [0.0; D],
            threshold,
            nearest: f64::INFINITY,
        };
        let mut last_ring = 0i64;
        for i in 0..D {
            // Offsets along the axis that name distinct cells: [low, high] around the centre.
            let n = self.cells[i] as i64;
            let c = centre[i] as i64;
            (query.low[i], query.high[i]) =
                if periodic { (-((n - 1) / 2), n / 2) } else { (-c, n - 1 - c) };
            last_ring = last_ring.max(-query.low[i]).max(query.high[i]);
            let face = origin[i] + centre[i] as f64 * self.side[i];
            let below = p[i] - face - self.slack[i];
            let above = face + self.side[i] - p[i] - self.slack[i];
            // On a torus a far cell may be nearer the other way round: use the nearer face.
            (query.gap_below[i], query.gap_above[i]) =
                if periodic { (below.min(above), below.min(above)) } else { (below, above) };
        }

        for ring in 0..=last_ring {
            let (low, high) = (query.low, query.high);
            if !visit_ring(ring, &low, &high, &mut |offset| self.scan_cell(&mut query, offset)) {
                return None;
            }
            // A lower bound on the distance to every cell outside rings 0..=ring.
            let mut bound = f64::INFINITY;
            for i in 0..D {
                let reach = ring as f64 * self.side[i];
                if -low[i] > ring {
                    bound = bound.min(reach + query.gap_below[i]);
                }
                if high[i] > ring {
                    bound = bound.min(reach + query.gap_above[i]);
                }
            }
            if bound > 0.0 && bound * bound >= query.nearest {
                break;
            }
        }
        Some(query.nearest)
    }

    /// Lowers `query.nearest` by the points of the cell at `offset` from the query's cell
    /// (wrapped in a periodic domain), unless the cell is too far to matter; `false` as soon
    /// as a point is at the threshold or closer.
    #[inline]
    fn scan_cell(&self, query: &mut Query<'_, D>, offset: &[i64; D]) -> bool {
        let mut key = 0usize;
        let mut bound = 0.0;
        for i in 0..D {
            let d = offset[i];
            if d != 0 {
                let gap = if d < 0 { query.gap_below[i] } else { query.gap_above[i] };
                let axis_bound = (d.abs() - 1) as f64 * self.side[i] + gap;
                if axis_bound > 0.0 {
                    bound += axis_bound * axis_bound;
                }
            }
            let mut c = query.centre[i] as i64 + d;
            if self.domain.is_periodic() {
                let n = self.cells[i] as i64;
                if c < 0 {
                    c += n;
                } else if c >= n {
                    c -= n;
                }
            }
            key += c as usize * self.strides[i];
        }
        if bound >= query.nearest {
            // Every point here is at least as far as one already found (and so beyond the
            // threshold, which is below the nearest distance found).
            return true;
        }
        let mut index = self.heads[key];
        while index != NONE {
            let d2 = self.domain.distance_squared(query.p, &query.points[index as usize]);
            if d2 <= query.threshold {
                return false;
            }
            query.nearest = query.nearest.min(d2);
            index = self.previous[index as usize];
        }
        true
    }
}

/// The state of one nearest-neighbour search.
struct Query<'a, const D: usize> {
    points: &'a [Point<D>],
    p: &'a Point<D>,
    centre: [usize; D],
    /// Offsets along each axis that name distinct cells.
    low: [i64; D],
    high: [i64; D],
    /// Distance from `p` to its cell's lower / upper face, less the rounding slack
    /// (periodic: the nearer of the two for both).
    gap_below: [f64; D],
    gap_above: [f64; D],
    threshold: f64,
    nearest: f64,
}

/// Calls `visit` on every offset of Chebyshev norm `ring` inside the per-axis offset ranges
/// `[low[i], high[i]]` (each containing 0), each exactly once; stops early when `visit`
/// returns `false` and then returns `false`.
///
/// An offset of norm ℓ ≥ 1 is counted under the first axis `j` where `|d_j| = ℓ`: axes
/// before `j` range over `|d| ≤ ℓ − 1`, axis `j` is `±ℓ`, axes after it over `|d| ≤ ℓ`.
fn visit_ring<const D: usize>(
    ring: i64,
    low: &[i64; D],
    high: &[i64; D],
    visit: &mut impl FnMut(&[i64; D]) -> bool,
) -> bool {
    if ring == 0 {
        return visit(&[0; D]);
    }
    for j in 0..D {
        for side in [-ring, ring] {
            if side < low[j] || side > high[j] {
                continue;
            }
            let mut from = [0i64; D];
            let mut to = [0i64; D];
            for i in 0..D {
                let reach = if i < j { ring - 1 } else { ring };
                from[i] = low[i].max(-reach);
                to[i] = high[i].min(reach);
            }
            from[j] = side;
            to[j] = side;
            let mut offset = from;
            loop {
                if !visit(&offset) {
                    return false;
                }
                // Odometer step; axis j is fixed (from = to) and simply carries.
                let mut axis = 0;
                loop {
                    if axis == D {
                        break;
                    }
                    if offset[axis] < to[axis] {
                        offset[axis] += 1;
                        break;
                    }
                    offset[axis] = from[axis];
                    axis += 1;
                }
                if axis == D {
                    break;
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rings_cover_every_offset_once() {
        fn check<const D: usize>(low: [i64; D], high: [i64; D]) {
            let mut seen = std::collections::HashMap::new();
            let last = (0..D).map(|i| (-low[i]).max(high[i])).max().unwrap_or(0);
            for ring in 0..=last {
                visit_ring(ring, &low, &high, &mut |o: &[i64; D]| {
                    let norm = o.iter().map(|d| d.abs()).max().unwrap_or(0);
                    assert_eq!(norm, ring, "{o:?} in ring {ring}");
                    *seen.entry(*o).or_insert(0) += 1;
                    true
                });
            }
            let expected: i64 = (0..D).map(|i| high[i] - low[i] + 1).product();
            assert_eq!(seen.len() as i64, expected);
            assert!(seen.values().all(|&count| count == 1));
            assert!(seen.keys().all(|o| (0..D).all(|i| low[i] <= o[i] && o[i] <= high[i])));
        }
        check::<1>([-3], [5]);
        check::<2>([0, -4], [6, 1]);
        check::<3>([-2, 0, -1], [3, 0, 4]);
        check::<4>([-1, -2, 0, -3], [2, 1, 2, 0]);
    }
}
