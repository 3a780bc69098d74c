//! The cells a chunked world is decided in, and why cells of one stratum never conflict.
//!
//! Chunks of side `L` cut space along the planes `x_i = o_i + p·L_i`. Around them space is
//! split into *cells*, named by a key `m ∈ Z^D` on the doubled lattice: along axis `i` an
//! even `m_i = 2p` means "near plane `p`", an odd `m_i = 2c + 1` means "inside chunk interval
//! `c`, away from its planes". The *stratum* of a cell is how many planes it is near (the
//! number of even coordinates): 0 for the interior of a chunk, 1 for the slab along a face,
//! …, D for the box around a chunk corner.
//!
//! Which cell holds a point `x`: let `t_i` be its distance to the nearest plane along axis
//! `i`, sorted `t_(1) ≤ … ≤ t_(D)`, and `a_1 < … < a_D` the thresholds below. Its stratum is
//! the largest `k` with `t_(k) < a_k` (0 if none), and it is near the planes of the axes with
//! `t_i < a_k`. With `a_1 = r/2`, `a_{k+1} = a_k + r/√2` and `L ≥ 2·a_D + r`, two different
//! cells of one stratum are more than `r` apart (docs/algorithms.md, "Chunked worlds"), and
//! a cell can conflict only with cells whose key differs by at most 1 on every axis. So the
//! cells of one stratum can be decided independently, each given the cells of lower strata
//! around it: the dependency of a cell reaches at most `D` strata down and `D` keys away, that
//! is up to ⌈D/2⌉ chunks (docs/algorithms.md, "Chunked worlds").
//! Every threshold carries a relative slack of [`SLACK`], so that rounding in the
//! coordinates never brings two cells of a stratum closer than `r`.

use crate::point::Point;

/// Relative slack on the thresholds and on the smallest chunk side: it covers rounding of
/// coordinates up to about 10^8 radii from the origin.
pub(crate) const SLACK: f64 = 1e-7;

/// A cell key on the doubled lattice.
pub(crate) type CellKey<const D: usize> = [i64; D];

/// The smallest chunk side for radius `r` in dimension `dim`: `2·a_D + r`, with slack.
pub fn min_chunk_side(dim: usize, r: f64) -> f64 {
    let thresholds = thresholds(dim.max(1), r);
    (2.0 * thresholds[dim.max(1) - 1] + r) * (1.0 + SLACK)
}

/// Checks a chunk side for radius `r` in `D` dimensions: finite, at least
/// [`min_chunk_side`], a length (at most 1e100), and short enough that a cell's grid (the
/// side and [`CELL_GROWTH`] radii) stays within 1e100.
pub(crate) fn check_chunk_side<const D: usize>(side: f64, r: f64) -> Result<(), crate::Error> {
    let min = min_chunk_side(D, r);
    if !(side.is_finite() && side >= min) {
        return Err(crate::Error::ChunkSideTooSmall { side, radius: r, dim: D, min });
    }
    // A cell's grid spans its chunk grown by the radius on both sides, a length like any
    // other: past 1e100 it could not be laid out (the cell's points would be missing).
    let most = crate::limits::MAX_LENGTH - CELL_GROWTH * r;
    if min > most {
        return Err(crate::Error::InvalidParameter {
            name: "radius",
            expected: "small enough for a chunk (at least (2 + √2·(D − 1)) radii) grown by 2.5 \
                       radii to stay within 1e100",
            value: r,
        });
    }
    crate::limits::check_length("the chunk side", side)?;
    if side > most {
        return Err(crate::Error::OutOfRange {
            name: "the chunk side plus 2.5 radii",
            value: side + CELL_GROWTH * r,
            range: "at most 1e100",
        });
    }
    Ok(())
}

/// How many whole chunks of `side` a torus axis of `extent` holds, a chunk that falls short
/// of fitting by rounding alone (a billionth of the extent) counted as fitting: the one tiling
/// rule. [`World`](super::World) then asks that they tile the axis exactly, at least two of
/// them; [`ChunkedBridson`](super::ChunkedBridson) stretches them to tile it.
pub(crate) fn whole_chunks(extent: f64, side: f64) -> f64 {
    (extent / side * (1.0 + TILING_SLACK)).floor()
}

/// The relative rounding a torus's tiling forgives (see [`whole_chunks`]).
pub(crate) const TILING_SLACK: f64 = 1e-9;

/// How much longer than its chunk side a cell's grid may be, in radii: the radius (and its
/// slack) on both sides, and a margin.
pub(crate) const CELL_GROWTH: f64 = 2.5;

/// The thresholds `a_1, …, a_D` for radius `r`, with slack.
fn thresholds(dim: usize, r: f64) -> Vec<f64> {
    let step = r * std::f64::consts::FRAC_1_SQRT_2 * (1.0 + SLACK);
    let mut a = r * 0.5 * (1.0 + SLACK);
    (0..dim)
        .map(|_| {
            let current = a;
            a += step;
            current
        })
        .collect()
}

/// The number of even coordinates of a key: the stratum of its cell.
#[inline]
pub(crate) fn stratum<const D: usize>(key: &CellKey<D>) -> usize {
    key.iter().filter(|&&m| m & 1 == 0).count()
}

/// The planes of a chunked space and the thresholds of its cells.
#[derive(Debug, Clone)]
pub(crate) struct Cells<const D: usize> {
    origin: Point<D>,
    side: [f64; D],
    /// `a_1, …, a_D`.
    thresholds: Vec<f64>,
}

/// One cell's shape, prepared for the many membership tests of its fill.
#[derive(Debug, Clone)]
pub(crate) struct CellShape<const D: usize> {
    /// Per axis: the plane (near axes) or the interval's two ends (interior axes).
    low: [f64; D],
    high: [f64; D],
    near: [bool; D],
    /// `a_k` of the cell's stratum `k` (0 for stratum 0: no axis is near).
    near_limit: f64,
    /// The thresholds the sorted distances of the interior axes must reach: `a_{k+1}, …`.
    interior_limits: Vec<f64>,
    /// Bounding box of the cell.
    pub(crate) outer_low: Point<D>,
    pub(crate) outer_high: Point<D>,
    /// A box every point of which is in the cell (shrunk by a margin for rounding).
    inner_low: Point<D>,
    inner_high: Point<D>,
}

impl<const D: usize> Cells<D> {
    /// Chunks of side `side[i]` along axis `i` from `origin`, for radius `r`; each side must
    /// be at least [`min_chunk_side`] (checked by the caller).
    pub(crate) fn new(origin: Point<D>, side: [f64; D], r: f64) -> Self {
        Cells { origin, side, thresholds: thresholds(D, r) }
    }

    /// The chunk sides.
    pub(crate) fn side(&self) -> &[f64; D] {
        &self.side
    }

    /// The chunk holding `p`: the half-open box `[o + c·L, o + (c+1)·L)` it lies in.
    #[inline]
    pub(crate) fn chunk_of(&self, p: &Point<D>) -> [i64; D] {
        std::array::from_fn(|i| ((p[i] - self.origin[i]) / self.side[i]).floor() as i64)
    }

    /// The corners of chunk `c`, `o + c·L` and `o + (c+1)·L`.
    pub(crate) fn chunk_bounds(&self, c: &[i64; D]) -> (Point<D>, Point<D>) {
        let at = |i: usize, k: i64| self.origin[i] + k as f64 * self.side[i];
        (std::array::from_fn(|i| at(i, c[i])), std::array::from_fn(|i| at(i, c[i] + 1)))
    }

    /// The shape of cell `key`.
    pub(crate) fn shape(&self, key: &CellKey<D>) -> CellShape<D> {
        let k = stratum(key);
        let near_limit = if k == 0 { 0.0 } else { self.thresholds[k - 1] };
        let deepest = self.thresholds[D - 1];
        let first_interior = self.thresholds.get(k).copied().unwrap_or(f64::INFINITY);
        let mut shape = CellShape {
            low: [0.0; D],
            high: [0.0; D],
            near: [false; D],
            near_limit,
            interior_limits: self.thresholds[k..].to_vec(),
            outer_low: [0.0; D],
            outer_high: [0.0; D],
            inner_low: [0.0; D],
            inner_high: [0.0; D],
        };
        for i in 0..D {
            let (o, l) = (self.origin[i], self.side[i]);
            // Rounding of a coordinate near this cell, with room to spare.
            let margin = 4.0 * f64::EPSILON * (o.abs() + l * (key[i].unsigned_abs() as f64 + 2.0));
            if key[i] & 1 == 0 {
                let plane = o + (key[i] / 2) as f64 * l;
                shape.near[i] = true;
                shape.low[i] = plane;
                shape.high[i] = plane;
                shape.outer_low[i] = plane - near_limit;
                shape.outer_high[i] = plane + near_limit;
                shape.inner_low[i] = plane - near_limit + margin;
                shape.inner_high[i] = plane + near_limit - margin;
            } else {
                let c = (key[i] - 1) / 2;
                let (lo, hi) = (o + c as f64 * l, o + (c + 1) as f64 * l);
                shape.low[i] = lo;
                shape.high[i] = hi;
                shape.outer_low[i] = lo + first_interior.min(l / 2.0);
                shape.outer_high[i] = hi - first_interior.min(l / 2.0);
                shape.inner_low[i] = lo + deepest + margin;
                shape.inner_high[i] = hi - deepest - margin;
            }
        }
        shape
    }

    /// The key of the cell holding `p` (the definition the shapes' membership test follows;
    /// the tests hold one against the other).
    #[cfg(test)]
    pub(crate) fn cell_of(&self, p: &Point<D>) -> CellKey<D> {
        let mut t = [0.0; D];
        let mut plane = [0i64; D];
        let mut chunk = [0i64; D];
        for i in 0..D {
            let u = (p[i] - self.origin[i]) / self.side[i];
            chunk[i] = u.floor() as i64;
            plane[i] = u.round() as i64;
            t[i] = (u - plane[i] as f64).abs() * self.side[i];
        }
        let mut sorted = t;
        sorted.sort_unstable_by(f64::total_cmp);
        let k = (1..=D).rev().find(|&k| sorted[k - 1] < self.thresholds[k - 1]).unwrap_or(0);
        std::array::from_fn(|i| {
            if k > 0 && t[i] < self.thresholds[k - 1] { 2 * plane[i] } else { 2 * chunk[i] + 1 }
        })
    }
}

impl<const D: usize> CellShape<D> {
    /// Whether `p` lies in the cell.
    #[inline]
    pub(crate) fn contains(&self, p: &Point<D>) -> bool {
        if (0..D).all(|i| self.inner_low[i] <= p[i] && p[i] <= self.inner_high[i]) {
            return true;
        }
        if !(0..D).all(|i| self.outer_low[i] <= p[i] && p[i] <= self.outer_high[i]) {
            return false;
        }
        let mut interior = [0.0; D];
        let mut count = 0;
        for i in 0..D {
            if self.near[i] {
                if (p[i] - self.low[i]).abs() >= self.near_limit {
                    return false;
                }
            } else {
                if p[i] < self.low[i] || p[i] >= self.high[i] {
                    return false;
                }
                interior[count] = (p[i] - self.low[i]).min(self.high[i] - p[i]);
                count += 1;
            }
        }
        let interior = &mut interior[..count];
        interior.sort_unstable_by(f64::total_cmp);
        interior.iter().zip(&self.interior_limits).all(|(t, a)| t >= a)
    }

    /// Whether every point within `reach` of `centre` lies in the cell.
    #[inline]
    pub(crate) fn holds_ball(&self, centre: &Point<D>, reach: f64) -> bool {
        (0..D).all(|i| {
            self.inner_low[i] + reach <= centre[i] && centre[i] <= self.inner_high[i] - reach
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{rng_from_seed, uniform01};

    /// The shape's membership test and `cell_of` agree on random points, in 1D to 4D.
    fn agree<const D: usize>(r: f64, side: f64) {
        let cells = Cells::<D>::new([-0.3; D], [side; D], r);
        let mut rng = rng_from_seed(D as u64);
        let mut shapes = std::collections::HashMap::new();
        for _ in 0..20_000 {
            let p: Point<D> =
                std::array::from_fn(|_| -2.0 * side + 4.0 * side * uniform01(&mut rng));
            let key = cells.cell_of(&p);
            let shape = shapes.entry(key).or_insert_with(|| cells.shape(&key));
            assert!(shape.contains(&p), "{p:?} in {key:?}");
            // And no neighbouring cell claims it.
            for offset in 0..3i64.pow(D as u32) {
                let mut other = key;
                let mut rest = offset;
                for m in other.iter_mut() {
                    *m += rest % 3 - 1;
                    rest /= 3;
                }
                if other != key {
                    assert!(!cells.shape(&other).contains(&p), "{p:?} also in {other:?}");
                }
            }
        }
    }

    #[test]
    fn membership_agrees_with_the_cell_of_a_point() {
        agree::<1>(0.1, 0.5);
        agree::<2>(0.1, 0.4);
        agree::<3>(0.05, 0.3);
        agree::<4>(0.05, 0.4);
    }

    #[test]
    fn the_smallest_side_grows_with_the_dimension() {
        let r = 1.0;
        assert!((min_chunk_side(1, r) - 2.0).abs() < 1e-6);
        assert!((min_chunk_side(2, r) - (2.0 + std::f64::consts::SQRT_2)).abs() < 1e-6);
        assert!(min_chunk_side(8, r) < 12.0);
    }
}
