//! Jittered (stratified) sampling: one uniform point in each cell of a regular grid.

use crate::defaults;
use crate::domain::Domain;
use crate::error::Error;
use crate::point::Point;
use crate::rng::uniform01;
use crate::sampler::{PointSet, Sampler, StopReason};
use rand::Rng;

/// Jittered grid sampling (Cook 1986, "Stochastic sampling in computer graphics"; stratified
/// sampling): the box is cut into `m_0 × m_1 × … × m_{D−1}` equal cells and each cell gets
/// one point, uniform inside it.
///
/// **The count is the number of cells**, the largest the rule below finds that does not
/// exceed `n`; it may be smaller than `n` (300 in the unit square gives 17 × 17 = 289).
/// `n = 0` gives no points, `n = 1` one point uniform in the whole box.
/// The cells per axis for `n` points ([`grid_shape`](Self::grid_shape)):
/// 1. cubes of side `s`: an axis shorter than `s` gets one cell, and `s` is chosen so that on
///    the other axes the ideal counts `a_i = L_i / s` multiply to `n` (with every side at
///    least `s`, simply `s = (V/n)^(1/D)`);
/// 2. start from `m_i = max(1, ⌊a_i⌋)`, so `Π m_i ≤ n`;
/// 3. while one more cell on some axis keeps `Π m_i ≤ n`, add it to the axis, among those,
///    with the smallest `m_i / a_i` (the coarsest relative to cubic cells); ties go to the
///    lower axis.
///
/// So cells stay close to cubes, and the count is maximal in the sense that no single axis can
/// take another cell; it is not always the divisor of the box closest to `n`.
///
/// Points come cell by cell with **the first axis varying fastest** (x, then y, ...); each
/// draws its coordinates from the generator in axis order. A periodic box needs nothing
/// special: the cells tile the torus, and the points equal those of the closed box.
///
/// Guarantees: every point lies in its cell and in the box (a coordinate that rounds onto the
/// upper face is moved one float down), exactly one point per cell; O(n·D) time. There is
/// **no minimum distance**: points of neighbouring cells can be arbitrarily close.
///
/// ```
/// use poisson_nd::{Domain, JitteredGrid, Sampler};
/// let domain = Domain::from_origin_and_extent([0.0, 0.0], [2.0, 1.0])?;
/// let jittered = JitteredGrid::new(domain);
/// assert_eq!(jittered.grid_shape(200), [20, 10]);
/// let set = jittered.sample_seeded(200, 42);
/// assert_eq!(set.len(), 200);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct JitteredGrid<const D: usize> {
    domain: Domain<D>,
    max_points: usize,
}

impl<const D: usize> JitteredGrid<D> {
    /// A jittered grid in `domain`, with the point limit [`defaults::MAX_POINTS`].
    pub fn new(domain: Domain<D>) -> Self {
        JitteredGrid { domain, max_points: defaults::MAX_POINTS }
    }

    /// Caps the points one run may produce (default [`defaults::MAX_POINTS`]); a larger `n`
    /// is treated as the cap and the run reports [`StopReason::PointLimit`]. Errors when it
    /// is 0.
    pub fn with_max_points(mut self, max_points: usize) -> Result<Self, Error> {
        if max_points == 0 {
            return Err(Error::ZeroCount("max_points"));
        }
        self.max_points = max_points;
        Ok(self)
    }

    /// The cells per axis used for `n` points (see the rule above); all zero for `n = 0`.
    pub fn grid_shape(&self, n: usize) -> [usize; D] {
        if n == 0 {
            return [0; D];
        }
        let extent = self.domain.extent();
        let (mut cells, side) = cubic_cells(extent, n);
        let ideal: [f64; D] = std::array::from_fn(|i| extent[i] / side);
        let product = |cells: &[usize; D]| -> u128 {
            cells.iter().fold(1u128, |p, &m| p.saturating_mul(m as u128))
        };
        let target = n as u128;
        // The relative resolution of an axis: above 1 it has more cells than cubic ones.
        let ratio = |cells: &[usize; D], i: usize| cells[i] as f64 / ideal[i];
        // Only rounding in the cube side can put the start above n.
        while product(&cells) > target {
            let Some(axis) = (0..D)
                .filter(|&i| cells[i] > 1)
                .max_by(|&a, &b| ratio(&cells, a).total_cmp(&ratio(&cells, b)).then(b.cmp(&a)))
            else {
                break; // all ones: product 1 ≤ n
            };
            cells[axis] -= 1;
        }
        loop {
            let total = product(&cells);
            let Some(axis) = (0..D)
                .filter(|&i| (total / cells[i] as u128) * (cells[i] as u128 + 1) <= target)
                .min_by(|&a, &b| ratio(&cells, a).total_cmp(&ratio(&cells, b)).then(a.cmp(&b)))
            else {
                return cells;
            };
            cells[axis] += 1;
        }
    }
}

impl<const D: usize> Sampler<D> for JitteredGrid<D> {
    fn name(&self) -> &'static str {
        "jittered-grid"
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D> {
        let capped = n.min(self.max_points);
        let stop = if capped == n { StopReason::TargetReached } else { StopReason::PointLimit };
        let cells = self.grid_shape(capped);
        // At most `capped` cells by construction.
        let count: usize = if capped == 0 { 0 } else { cells.iter().product() };
        let origin = self.domain.origin();
        let extent = self.domain.extent();
        let side: [f64; D] = std::array::from_fn(|i| extent[i] / cells[i].max(1) as f64);
        let mut cell = [0usize; D];
        let mut points: Vec<Point<D>> = Vec::with_capacity(count);
        for _ in 0..count {
            points.push(std::array::from_fn(|i| {
                let upper = origin[i] + extent[i];
                let x = origin[i] + (cell[i] as f64 + uniform01(rng)) * side[i];
                if x < upper { x } else { upper.next_down() }
            }));
            // Next cell, first axis fastest.
            for i in 0..D {
                cell[i] += 1;
                if cell[i] < cells[i] {
                    break;
                }
                cell[i] = 0;
            }
        }
        PointSet::new_unrejected(points, self.domain, stop)
    }
}

/// Cells per axis for about `count` cells as near to cubes as the box allows, and the side
/// `s` of those cubes. Axes shorter than `s` get one cell; on the others the ideal counts
/// `L_i / s` multiply to `count` and each gets `⌊L_i / s⌋` (at least 1), so the total never
/// exceeds `count` (up to rounding in `s`). `count` must be at least 1.
pub(crate) fn cubic_cells<const D: usize>(extent: &[f64; D], count: usize) -> ([usize; D], f64) {
    let mut single = [false; D];
    loop {
        let free = single.iter().filter(|s| !**s).count();
        if free == 0 {
            return ([1; D], f64::INFINITY);
        }
        // In logarithms, so that no product of sides can overflow.
        let log_volume: f64 = (0..D).filter(|&i| !single[i]).map(|i| extent[i].ln()).sum();
        let side = ((log_volume - (count.max(1) as f64).ln()) / free as f64).exp();
        let mut changed = false;
        for i in 0..D {
            if !single[i] && extent[i] < side {
                single[i] = true;
                changed = true;
            }
        }
        if !changed {
            let cells = std::array::from_fn(|i| {
                // The nudge keeps an ideal count such as 9.999999999999998 at 10.
                let ideal = extent[i] / side * (1.0 + 1e-12);
                if single[i] { 1 } else { (ideal as usize).clamp(1, count.max(1)) }
            });
            return (cells, side);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cubic_cells_never_exceed_the_count() {
        assert_eq!(cubic_cells(&[1.0, 1.0], 100).0, [10, 10]);
        assert_eq!(cubic_cells(&[1e6, 1e-6], 100).0, [100, 1]);
        assert_eq!(cubic_cells(&[1.0, 1.0, 1.0], 1).0, [1, 1, 1]);
        assert_eq!(cubic_cells(&[1e300, 1e300], 4).0, [2, 2]);
        for n in [1usize, 2, 3, 7, 100, 12345] {
            let cells = cubic_cells(&[1.0, 2.5, 0.3], n).0;
            assert!(cells.iter().product::<usize>() <= n, "{n}: {cells:?}");
        }
    }
}
