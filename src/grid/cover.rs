//! Sub-cells that one stored point covers whole: a candidate that falls in one conflicts with
//! that point, so the grid turns it down by reading one bit instead of searching its
//! neighbour cells.
//!
//! A point covers the ball within which it conflicts with every candidate: radius `r` for one
//! radius, and under a radius field the pair distance of its own radius with the smallest the
//! field can give (every candidate's radius is at least that one). The cover keeps one table
//! of marks per covering radius the rule names
//! ([`cover_radii_squared`](super::ConflictRule::cover_radii_squared)); a point marks with the
//! largest table radius not above its own, so that what it marks it covers.
//!
//! Each cell of a dense grid in a closed box is split into 64 sub-cells (64 along the line
//! in 1D, 8 × 8 in 2D) and keeps one `u64` whose bit `b` says that sub-cell `b` lies wholly
//! within the conflict distance of some stored point. Storing a point sets, in the 3^D
//! cells around its own, the bits of the sub-cells it covers whole, judged from its own
//! sub-cell alone: a table, built once per grid, lists for each of the 64 sub-cells a point
//! can lie in the cells to change and their bits (9 in 2D).
//!
//! In a Bridson run in 2D about 96% of the candidates that a stored point turns down fall in
//! a covered sub-cell (measured on a finished 2D set), and the search of the neighbour cells
//! runs for the rest only: 1.3× faster at 10^6 points (docs/performance.md). In 3D, 4 × 4 × 4
//! sub-cells catch half the conflicts and 8 × 8 × 8 (a cache line a cell) miss the cache
//! more than the search they save: both were slower, so no cover is made from 3D up.
//!
//! # Why a set bit is always a conflict the full search would find
//!
//! Let `t = (x − origin) · q` be a coordinate's offset in sub-cells (`q` the sub-cells per unit
//! length, as stored), and `G` the index computed from the rounded `t'`: `⌊t'⌋`, or `t' − 1`
//! where `t'` is an integer (the rounding that finds it may tie downwards). Rounding moves
//! `t'` from `t` by at most `2.3·10⁻¹⁶ · t`, which is below `e = 10⁻⁶` sub-cells while
//! indices stay below 2^31 (checked when the cover is made), so `t ∈ [G − e, G + 1 + e]`. For
//! a stored point `p` and a candidate `x` whose indices differ by `Δ` along an axis,
//! `|x − p| ≤ (|Δ| + 1 + 2e) / q` along it. A sub-cell is marked only when
//! `Σ ((|Δ_i| + 1 + ETA) / q_i)² ≤ r²·(1 − SLACK)` (with `ETA = 10⁻⁴ > 2e` and `SLACK = 10⁻⁹`,
//! evaluated in floating point, whose error is far below the slack), so the exact squared
//! distance is at most `r²·(1 − 10⁻⁹)`, and the grid's own computation of it, off by a few
//! units in the last place, stays below `r²`: the search would report `p`. Marks are never
//! cleared, which is right for a grid whose points are never removed.
//!
//! Only cells of the 3^D block around the point's cell are marked; a point that covers
//! sub-cells farther out (cells narrower than the radius) leaves them to the search.

use super::layout::GridLayout;
use super::offsets::key_offset;
use crate::point::Point;

/// How far, in sub-cells, a rounded sub-cell offset may be from the true one (see the
/// module's argument): `e = 10⁻⁶` for either point, doubled, with room to spare.
const ETA: f64 = 1e-4;

/// The relative margin below `r²` that a marked sub-cell's farthest distance keeps, far more
/// than the rounding of a distance computation.
const SLACK: f64 = 1e-9;

/// log2 of the sub-cells per cell along each axis in `D` dimensions, or `None` where no cover
/// is made: 64 in 1D, 8 in 2D (one `u64` a cell).
const fn subdivision_shift(d: usize) -> Option<u32> {
    match d {
        1 => Some(6),
        2 => Some(3),
        _ => None,
    }
}

/// The covered sub-cells of a dense grid's cells (see the module documentation).
///
/// The origin, key base and strides are the layout's, kept beside the masks so that the
/// per-candidate test reads one struct: asking the layout (behind the grid's `Arc`) for them
/// made Bridson 2% slower in 2D (0.673 s against 0.660 s, medians of 5 interleaved runs).
#[derive(Debug, Clone)]
pub(crate) struct Cover<const D: usize> {
    origin: [f64; D],
    key_base: u64,
    strides: [u64; D],
    /// Sub-cells per unit length along each axis.
    per_length: [f64; D],
    /// One mask per key of the layout: bit `b` set when the cell's sub-cell `b` (numbered
    /// axis 0 fastest) is covered.
    masks: Vec<u64>,
    /// What a point marks, for each covering radius `t` and each sub-cell `a` it can lie in
    /// within its cell (numbered as the bits): `marks[starts[t·S + a]..starts[t·S + a + 1]]`
    /// (`S` the sub-cells of a cell), each the key offset (wrapping) of a cell from the
    /// point's cell and the bits to set in its mask.
    marks: Vec<(u64, u64)>,
    starts: Vec<usize>,
}

impl<const D: usize> Cover<D> {
    /// log2 of the sub-cells per cell along an axis (a constant, so that the shifts and masks
    /// of the test are immediates).
    const SHIFT: u32 = match subdivision_shift(D) {
        Some(shift) => shift,
        None => 0,
    };

    /// The cover of `layout`'s cells for points that conflict closer than the square roots of
    /// `radii_squared` (one table of marks each; none, no cover), or `None` where none is made: from 3D up, in a periodic box, for a hashed grid, when
    /// the layout has no padding cell around the box or too many sub-cells along an axis for
    /// the rounding argument, or when the masks would pass `limit_bytes` together with the
    /// heads (4 bytes a cell).
    pub(crate) fn new(
        layout: &GridLayout<D>,
        radii_squared: &[f64],
        limit_bytes: usize,
    ) -> Option<Self> {
        let shift = subdivision_shift(D)?;
        debug_assert_eq!(shift, Self::SHIFT);
        let sub = 1u64 << shift;
        let bytes = layout.key_count.checked_mul(4 + 8)?;
        if !layout.dense
            || layout.domain.is_periodic()
            || bytes > limit_bytes as u64
            || radii_squared.is_empty()
            || radii_squared.iter().any(|&r2| !(r2.is_finite() && r2 > 0.0))
            || (0..D).any(|i| layout.padding[i] == 0)
            || (0..D).any(|i| layout.cells[i].checked_mul(sub).is_none_or(|n| n >= 1 << 31))
        {
            return None;
        }
        let per_length = layout.inverse_side.map(|q| q * sub as f64);
        let sub_side = per_length.map(|q| 1.0 / q);
        let (mut marks, mut starts) = (Vec::new(), vec![0]);
        for &radius_squared in radii_squared {
            marks_table(&layout.strides, shift, &sub_side, radius_squared, &mut marks, &mut starts);
        }
        Some(Cover {
            origin: *layout.domain.origin(),
            key_base: layout.key_base,
            strides: layout.strides,
            per_length,
            masks: vec![0; layout.key_count as usize],
            marks,
            starts,
        })
    }

    /// The sub-cell of `p` (a point of the box) along each axis: the integer part of its
    /// offset `t ≥ 0` in sub-cells, as the grid's cells are found (`t − ½` rounded by adding
    /// 1.5·2^52, no conversion or clamp). At an exact integer it may round down, and a point
    /// within rounding of the upper face may get the index one past the last sub-cell: both
    /// lie within `e` of `t`, as the module's argument allows, and the one past lies in the
    /// padding cell every covered layout has (`new`).
    #[inline(always)]
    fn sub_cell(&self, p: &Point<D>) -> [u64; D] {
        const ROUND: f64 = (3u64 << 51) as f64;
        std::array::from_fn(|i| {
            let t = (p[i] - self.origin[i]) * self.per_length[i];
            ((t - 0.5) + ROUND).to_bits().wrapping_sub(ROUND.to_bits())
        })
    }

    /// The key of sub-cell `g`'s cell and the sub-cell's number in it (its bit).
    #[inline(always)]
    fn locate(&self, g: &[u64; D]) -> (u64, u32) {
        let low = (1u64 << Self::SHIFT) - 1;
        let mut key = self.key_base;
        let mut bit = 0u32;
        for i in 0..D {
            key += (g[i] >> Self::SHIFT) * self.strides[i];
            bit |= ((g[i] & low) as u32) << (Self::SHIFT * i as u32);
        }
        (key, bit)
    }

    /// Whether `p` (a point of the box) lies in a sub-cell that a stored point covers whole.
    #[inline(always)]
    pub(crate) fn covers(&self, p: &Point<D>) -> bool {
        let (key, bit) = self.locate(&self.sub_cell(p));
        self.masks[key as usize] >> bit & 1 == 1
    }

    /// Prefetches the masks of the runs of cells around cell `base` whose heads
    /// [`Grid::warm_around`](super::Grid::warm_around) prefetches.
    #[inline(always)]
    pub(crate) fn warm(&self, layout: &GridLayout<D>, base: u64) {
        layout.prefetch_warm_runs(&self.masks, base);
    }

    /// Marks the sub-cells, in the 3^D cells around its own, that the stored point `p`
    /// covers whole at covering radius number `table`.
    #[inline]
    pub(crate) fn mark(&mut self, p: &Point<D>, table: usize) {
        let (key, own) = self.locate(&self.sub_cell(p));
        let a = (table << (Self::SHIFT as usize * D)) + own as usize;
        for &(offset, bits) in &self.marks[self.starts[a]..self.starts[a + 1]] {
            self.masks[key.wrapping_add(offset) as usize] |= bits;
        }
    }
}

/// The table of what a point marks from each sub-cell of its cell (see [`Cover::marks`]) at
/// one covering radius, appended to `marks` and `starts`.
///
/// A sub-cell at offset `Δ` (in sub-cells, along each axis) from the point's is covered when
/// `Σ ((|Δ_i| + 1 + ETA) · sub_side_i)² ≤ r²·(1 − SLACK)`; the covered offsets of each row
/// along axis 0 form a run `|Δ_0| ≤ w`, found once per row.
fn marks_table<const D: usize>(
    strides: &[u64; D],
    shift: u32,
    sub_side: &[f64; D],
    radius_squared: f64,
    marks: &mut Vec<(u64, u64)>,
    starts: &mut Vec<usize>,
) {
    let sub = 1i64 << shift;
    let bound = radius_squared * (1.0 - SLACK);
    let term = |i: usize, delta: i64| {
        let reach = (delta.unsigned_abs() as f64 + 1.0 + ETA) * sub_side[i];
        reach * reach
    };
    // Row offsets along axes 1.. within the 3^D block (at most 2·sub − 1 sub-cells away),
    // with the half-width of their run along axis 0.
    let mut rows: Vec<([i64; D], i64)> = Vec::new();
    let mut delta = [-(2 * sub - 1); D];
    delta[0] = 0;
    'rows: loop {
        let rest = bound - (1..D).map(|i| term(i, delta[i])).sum::<f64>();
        if rest >= term(0, 0) {
            let mut w =
                ((rest.sqrt() / sub_side[0]) - 1.0 - ETA).floor().min(2.0 * sub as f64) as i64;
            while w >= 0 && term(0, w) > rest {
                w -= 1;
            }
            if w >= 0 {
                rows.push((delta, w));
            }
        }
        for axis in 1..D {
            if delta[axis] < 2 * sub - 1 {
                delta[axis] += 1;
                continue 'rows;
            }
            delta[axis] = -(2 * sub - 1);
        }
        break;
    }
    // For each sub-cell `a` of the point's cell (the middle cell of the 3^D block, whose
    // sub-cells are numbered 0..3·sub along each axis), the masks of the block it changes.
    let block = 3usize.pow(D as u32);
    let mut acc = vec![0u64; block];
    for a in 0..1usize << (shift as usize * D) {
        acc.iter_mut().for_each(|m| *m = 0);
        let own: [i64; D] = std::array::from_fn(|i| sub + (a >> (shift as usize * i)) as i64 % sub);
        for (delta, w) in &rows {
            let mut at: [i64; D] = std::array::from_fn(|i| own[i] + delta[i]);
            if (1..D).any(|i| at[i] < 0 || at[i] >= 3 * sub) {
                continue;
            }
            for x in (own[0] - w).max(0)..=(own[0] + w).min(3 * sub - 1) {
                at[0] = x;
                let mut cell = 0usize;
                let mut bit = 0usize;
                for i in (0..D).rev() {
                    cell = cell * 3 + (at[i] / sub) as usize;
                }
                for i in 0..D {
                    bit |= ((at[i] % sub) as usize) << (shift as usize * i);
                }
                acc[cell] |= 1 << bit;
            }
        }
        for (cell, &bits) in acc.iter().enumerate() {
            if bits != 0 {
                // The cell's offset in keys: its position in the block, centred.
                let offset = std::array::from_fn(|i| (cell / 3usize.pow(i as u32) % 3) as i64 - 1);
                marks.push((key_offset(&offset, strides), bits));
            }
        }
        starts.push(marks.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Domain;
    use crate::point::distance_squared;
    use crate::rng::{rng_from_seed, uniform01};

    /// A set bit is always a conflict: points stored in a grid, then candidates all over the
    /// box and, above all, where rounding could tell: at distance r·(1 ± a few ulps) from a
    /// stored point, on sub-cell faces and corners, on the box's faces. Each candidate the
    /// cover calls covered must have a stored point whose distance, computed as the grid
    /// computes it, is below r; and the cover must answer for most conflicts.
    fn a_set_bit_is_a_conflict<const D: usize>(radius: f64, extent: f64, origin: f64) {
        let domain = Domain::<D>::from_origin_and_extent([origin; D], [extent; D]).unwrap();
        let layout = GridLayout::new(&domain, radius, radius, usize::MAX).unwrap();
        let mut cover = Cover::new(&layout, &[radius * radius], usize::MAX).unwrap();
        let mut rng = rng_from_seed(D as u64 + 10);
        let inside = |x: f64| x.clamp(origin, origin + extent);
        let stored: Vec<Point<D>> = (0..200)
            .map(|_| std::array::from_fn(|_| origin + extent * uniform01(&mut rng)))
            .collect();
        for p in &stored {
            cover.mark(p, 0);
        }
        let sub = cover.per_length;
        let mut candidates: Vec<Point<D>> = Vec::new();
        for p in &stored {
            for _ in 0..400 {
                // A direction, and a distance within a few ulps of r or anywhere in [0, 1.5r].
                let mut v: [f64; D] = std::array::from_fn(|_| uniform01(&mut rng) - 0.5);
                let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
                v.iter_mut().for_each(|x| *x /= norm);
                let d = match candidates.len() % 3 {
                    0 => radius * (1.0 + (uniform01(&mut rng) - 0.5) * 1e-14),
                    1 => radius * 1.5 * uniform01(&mut rng),
                    _ => radius * (1.0 - uniform01(&mut rng) * 0.2),
                };
                let mut x: Point<D> = std::array::from_fn(|i| inside(p[i] + d * v[i]));
                // Every other one moved onto the nearest sub-cell face along an axis.
                if candidates.len().is_multiple_of(2) {
                    let i = candidates.len() / 2 % D;
                    let t = ((x[i] - origin) * sub[i]).round();
                    x[i] = inside(origin + t / sub[i]);
                }
                candidates.push(x);
            }
        }
        let (mut covered, mut conflicts) = (0, 0);
        for x in &candidates {
            let conflict = stored.iter().any(|q| distance_squared(x, q) < radius * radius);
            conflicts += usize::from(conflict);
            if cover.covers(x) {
                covered += 1;
                assert!(conflict, "{D}D: {x:?} is covered but no stored point is closer than r");
            }
        }
        assert!(covered * 4 > conflicts, "{D}D: only {covered} of {conflicts} conflicts covered");
    }

    #[test]
    fn a_set_bit_is_always_a_conflict() {
        a_set_bit_is_a_conflict::<1>(0.01, 1.0, 0.0);
        a_set_bit_is_a_conflict::<2>(0.05, 1.0, 0.0);
        a_set_bit_is_a_conflict::<2>(0.03, 0.7, -0.35);
        // Far from the origin, where the offset loses low bits.
        a_set_bit_is_a_conflict::<2>(1e-3, 0.1, 1e6);
        // Tiny and huge scales, at the limits the domain allows.
        a_set_bit_is_a_conflict::<2>(2e-100, 1e-98, 0.0);
        a_set_bit_is_a_conflict::<2>(2e97, 1e99, -3e98);
    }

    /// No cover where it would not pay or cannot be made: 3D and up, a torus, a hashed grid,
    /// masks past the memory limit.
    #[test]
    fn no_cover_where_none_is_made() {
        let r = 0.05;
        let layout3 = GridLayout::new(&Domain::<3>::unit(), r, r, usize::MAX).unwrap();
        assert!(Cover::new(&layout3, &[r * r], usize::MAX).is_none());
        let torus = GridLayout::new(&Domain::<2>::unit().periodic(), r, r, usize::MAX).unwrap();
        assert!(Cover::new(&torus, &[r * r], usize::MAX).is_none());
        let hashed = GridLayout::new(&Domain::<2>::unit(), r, r, 0).unwrap();
        assert!(Cover::new(&hashed, &[r * r], usize::MAX).is_none());
        let dense = GridLayout::new(&Domain::<2>::unit(), r, r, usize::MAX).unwrap();
        assert!(Cover::new(&dense, &[r * r], 1000).is_none());
        assert!(Cover::new(&dense, &[r * r], usize::MAX).is_some());
    }
}
