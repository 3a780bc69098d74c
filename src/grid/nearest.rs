//! The nearest-neighbour query of best candidate, on the same grid as the conflict query:
//! rings of cells around the query point, searched outwards until no closer point can remain.
//!
//! The grid is laid out by [`GridLayout::tiling`]: no neighbour offsets, cells of about
//! 2^(D/2) points, relaid as the set grows. Cells follow the grid's one convention (cell `c`
//! covers `[c·s, (c + 1)·s)` from the origin; see `GridLayout::cell_of`).

use super::conflict::NeverConflicts;
use super::layout::GridLayout;
use super::storage::{DenseHeads, Grid};
use crate::point::Point;

/// A grid of points for exact nearest-neighbour distances.
pub(crate) type NearestGrid<const D: usize> = Grid<D, DenseHeads, NeverConflicts>;

impl<const D: usize> Grid<D, DenseHeads, NeverConflicts> {
    /// The exact squared distance from `p` (inside the domain) to its nearest stored point,
    /// if it is greater than `threshold`; `None` as soon as a point at squared distance
    /// `threshold` or less turns up. Infinity when there are no points.
    ///
    /// Cells are searched in rings of growing Chebyshev distance around `p`'s cell. A cell
    /// `d_i` cells away along axis `i` is at least `(|d_i| − 1)·side_i + gap_i − slack_i` away
    /// along that axis, where `gap_i` is the distance from `p` to the face of its own cell on
    /// that side (periodic: the nearer face), and `slack_i` allows for rounding in the cell
    /// assignment. A cell whose bound reaches the nearest distance found is skipped, and the
    /// search ends after ring ℓ when every cell outside it is that far (ℓ·side + gap along
    /// some axis), or when every cell was searched (docs/algorithms.md, "Best candidate").
    pub(crate) fn nearest_beyond(&self, p: &Point<D>, threshold: f64) -> Option<f64> {
        let layout = self.layout();
        let domain = &layout.domain;
        let origin = domain.origin();
        let extent = domain.extent();
        let periodic = domain.is_periodic();
        let centre = layout.cell_of(p);
        let mut query = Query {
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
            let n = layout.cells[i] as i64;
            let c = centre[i] as i64;
            (query.low[i], query.high[i]) =
                if periodic { (-((n - 1) / 2), n / 2) } else { (-c, n - 1 - c) };
            last_ring = last_ring.max(-query.low[i]).max(query.high[i]);
            // Where `p` lies in its cell, from the cell's lower face.
            let relative = p[i] - origin[i] - centre[i] as f64 * layout.side[i];
            let slack = 1e-12 * (origin[i].abs() + extent[i]);
            let below = relative - slack;
            let above = layout.side[i] - relative - slack;
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
                let reach = ring as f64 * layout.side[i];
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
        let layout: &GridLayout<D> = self.layout();
        let periodic = layout.domain.is_periodic();
        let mut cell = [0u64; D];
        let mut bound = 0.0;
        for i in 0..D {
            let d = offset[i];
            if d != 0 {
                let gap = if d < 0 { query.gap_below[i] } else { query.gap_above[i] };
                let axis_bound = (d.abs() - 1) as f64 * layout.side[i] + gap;
                if axis_bound > 0.0 {
                    bound += axis_bound * axis_bound;
                }
            }
            let mut c = query.centre[i] as i64 + d;
            if periodic {
                let n = layout.cells[i] as i64;
                if c < 0 {
                    c += n;
                } else if c >= n {
                    c -= n;
                }
            }
            cell[i] = c as u64;
        }
        if bound >= query.nearest {
            // Every point here is at least as far as one already found (and so beyond the
            // threshold, which is below the nearest distance found).
            return true;
        }
        let points = self.points();
        self.all_in_cell(layout.key_of(&cell), |index| {
            let d2 = layout.domain.distance_squared(query.p, &points[index as usize]);
            if d2 <= query.threshold {
                return false;
            }
            query.nearest = query.nearest.min(d2);
            true
        })
    }
}

/// The state of one nearest-neighbour search.
struct Query<'a, const D: usize> {
    p: &'a Point<D>,
    centre: [u64; D],
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
#[inline(always)]
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
