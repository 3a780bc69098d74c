//! The background grid that answers "is any accepted point closer than r to this one?".
//!
//! [`GridLayout`] is the immutable geometry (cell sides, neighbour offsets), built and validated
//! once per sampler; [`Grid`] holds the points of one run. Cells keep the index of their newest
//! point and points chain to the previous point of the same cell, so one structure serves
//! both fine cells (side ≤ r/√D, at most one point each) and coarse cells (several points).
//! The correctness argument for the neighbourhood is in docs/algorithms.md.

use crate::domain::Domain;
use crate::error::Error;
use crate::point::{Point, distance_squared};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// How finely the background grid divides space, relative to the radius `r`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GridResolution {
    /// Cells of side at most r/√D: a cell holds at most one point, and the search reaches
    /// ⌈√D⌉ cells along each axis (pruned to the cells that can hold a point closer than r).
    /// Few distance tests, many cells: the fast choice up to D = 4.
    Fine,
    /// Cells of side at most r: a cell may hold several points, and the search covers the
    /// 3^D cells around the candidate. Fewer cells to visit, more distance tests: the fast
    /// choice from D = 5 on, where the fine neighbourhood has thousands of cells.
    Coarse,
}

impl GridResolution {
    /// The resolution used when none is chosen: [`Fine`](Self::Fine) up to D = 4,
    /// [`Coarse`](Self::Coarse) above.
    pub fn default_for(dim: usize) -> Self {
        if dim <= 4 { GridResolution::Fine } else { GridResolution::Coarse }
    }
}

/// Marks "no point" in cell heads and chains.
const NONE: u32 = u32::MAX;

/// The largest number of points a grid can index (point indices are `u32`, one value is NONE).
pub(crate) const MAX_GRID_POINTS: usize = (u32::MAX - 1) as usize;

/// Validates the point limit of a sampler whose points live in a grid: at least 1 and no more
/// than [`MAX_GRID_POINTS`].
pub(crate) fn check_grid_point_limit(max_points: usize) -> Result<(), Error> {
    if max_points == 0 {
        return Err(Error::ZeroCount("max_points"));
    }
    if max_points > MAX_GRID_POINTS {
        return Err(Error::InvalidParameter {
            name: "max_points",
            expected: "at most 4294967294",
            value: max_points as f64,
        });
    }
    Ok(())
}

/// The geometry of a background grid over a domain, for a given radius.
#[derive(Debug, Clone)]
pub(crate) struct GridLayout<const D: usize> {
    domain: Domain<D>,
    radius_squared: f64,
    /// Cells per unit length along each axis.
    inverse_side: [f64; D],
    /// Cells along each axis.
    cells: [u64; D],
    /// Empty cells added on both sides of each axis of a closed domain, so that every
    /// neighbour offset stays inside the (virtual) index space without bounds checks.
    padding: [u64; D],
    /// Strides of the linear cell key.
    strides: [u64; D],
    /// Neighbour offsets in cells, nearest first (periodic: one per distinct wrapped cell).
    offsets: Vec<[i64; D]>,
    /// The same offsets as differences of linear keys (closed domains).
    key_offsets: Vec<u64>,
    /// Whether cell heads live in a dense array rather than a hash map.
    dense: bool,
    /// Number of keys of the (padded) index space.
    key_count: u64,
}

impl<const D: usize> GridLayout<D> {
    /// Lays out a grid of the given resolution over `domain` for minimum distance `radius`.
    /// Cell heads are stored densely when that takes at most `dense_limit_bytes`, otherwise
    /// in a hash map whose size follows the number of points.
    pub(crate) fn new(
        domain: &Domain<D>,
        radius: f64,
        resolution: GridResolution,
        dense_limit_bytes: usize,
    ) -> Result<Self, Error> {
        let target_side = match resolution {
            GridResolution::Fine => radius / (D as f64).sqrt(),
            GridResolution::Coarse => radius,
        };
        let extent = domain.extent();
        let mut cells = [1u64; D];
        let mut side = [0.0; D];
        let mut inverse_side = [0.0; D];
        let mut total_cells = 1.0f64;
        for i in 0..D {
            let count = (extent[i] / target_side).ceil().max(1.0);
            total_cells *= count;
            if count > (1u64 << 40) as f64 {
                return Err(Error::GridTooLarge { cells: total_cells });
            }
            cells[i] = count as u64;
            if domain.is_periodic() {
                // Equal cells that tile the torus exactly, each no larger than the target
                // side, so that the gap argument holds across the seam too.
                side[i] = extent[i] / count;
                inverse_side[i] = count / extent[i];
            } else {
                // The target side; the last cell may be partial. It is never between two
                // other cells, so the gaps the search relies on are all whole cells.
                side[i] = target_side;
                inverse_side[i] = 1.0 / target_side;
            }
        }

        let offsets = neighbour_offsets(&side, radius, domain.is_periodic().then_some(&cells));

        let mut padding = [0u64; D];
        if !domain.is_periodic() {
            for o in &offsets {
                for i in 0..D {
                    padding[i] = padding[i].max(o[i].unsigned_abs());
                }
            }
        }
        let mut strides = [0u64; D];
        let mut key_count: u64 = 1;
        for i in (0..D).rev() {
            strides[i] = key_count;
            key_count = (cells[i] + 2 * padding[i])
                .checked_mul(key_count)
                .ok_or(Error::GridTooLarge { cells: total_cells })?;
        }
        let key_offsets = offsets
            .iter()
            .map(|o| {
                (0..D).fold(0u64, |k, i| k.wrapping_add((o[i] as u64).wrapping_mul(strides[i])))
            })
            .collect();
        let dense = key_count
            .checked_mul(std::mem::size_of::<u32>() as u64)
            .is_some_and(|bytes| bytes <= dense_limit_bytes as u64);

        Ok(GridLayout {
            domain: *domain,
            radius_squared: radius * radius,
            inverse_side,
            cells,
            padding,
            strides,
            offsets,
            key_offsets,
            dense,
            key_count,
        })
    }

    /// Number of neighbour cells searched per query.
    pub(crate) fn neighbourhood_len(&self) -> usize {
        self.offsets.len()
    }

    /// Whether cell heads are stored densely.
    pub(crate) fn is_dense(&self) -> bool {
        self.dense
    }

    /// The cell of a point inside the domain (rounding is clamped into range).
    #[inline]
    fn cell_of(&self, p: &Point<D>) -> [u64; D] {
        let origin = self.domain.origin();
        let mut cell = [0u64; D];
        for i in 0..D {
            let c = ((p[i] - origin[i]) * self.inverse_side[i]).max(0.0) as u64;
            cell[i] = c.min(self.cells[i] - 1);
        }
        cell
    }

    #[inline]
    fn key_of(&self, cell: &[u64; D]) -> u64 {
        (0..D).map(|i| (cell[i] + self.padding[i]) * self.strides[i]).sum()
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

/// The neighbour offsets, in cells, that can hold a point closer than `radius` to a point of
/// the centre cell, nearest first.
///
/// Along an axis, points of cells `d` apart are at least `(|d| − 1)·side` apart (0 for
/// adjacent cells), so an offset is needed exactly when `Σ ((|d_i| − 1)⁺ · side_i)² < r²`.
/// With `side = r/√D` this reaches ⌈√D⌉ cells along each axis. Cells whose bound is r² up to
/// rounding are left out: they could only hide a pair whose distance is r to within 1e-15
/// relative, below what the distance computation itself resolves. With `wrap_cells` (a periodic
/// domain) offsets that land on the same cell after wrapping are kept once.
pub(crate) fn neighbour_offsets<const D: usize>(
    side: &[f64; D],
    radius: f64,
    wrap_cells: Option<&[u64; D]>,
) -> Vec<[i64; D]> {
    let reach: [i64; D] = std::array::from_fn(|i| (radius / side[i]).ceil() as i64);
    let gap = |d: i64, i: usize| (d.abs() - 1).max(0) as f64 * side[i];
    // A cell whose bound equals r² (up to rounding) cannot hold a point closer than r, so
    // it is left out; the tolerance keeps rounding in the bound from adding it back.
    let limit = radius * radius * (1.0 - 8.0 * f64::EPSILON);
    let mut found: Vec<([i64; D], f64, f64)> = Vec::new();
    // Depth-first over axes, abandoning a prefix as soon as its lower bound reaches r².
    let mut stack: Vec<([i64; D], usize, f64)> = vec![([0; D], 0, 0.0)];
    while let Some((offset, axis, bound)) = stack.pop() {
        if axis == D {
            let centre: f64 = (0..D).map(|i| (offset[i] as f64 * side[i]).powi(2)).sum();
            found.push((offset, bound, centre));
            continue;
        }
        for d in -reach[axis]..=reach[axis] {
            let b = bound + gap(d, axis).powi(2);
            if b < limit {
                let mut next = offset;
                next[axis] = d;
                stack.push((next, axis + 1, b));
            }
        }
    }
    found.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.2.total_cmp(&b.2)).then(a.0.cmp(&b.0)));
    let mut offsets: Vec<[i64; D]> = found.into_iter().map(|(o, _, _)| o).collect();
    if let Some(cells) = wrap_cells {
        let mut seen = std::collections::HashSet::new();
        offsets.retain(|o| {
            let wrapped: [i64; D] = std::array::from_fn(|i| o[i].rem_euclid(cells[i] as i64));
            seen.insert(wrapped)
        });
    }
    offsets
}

/// A fast hasher for cell keys (multiplicative hashing with a final fold).
#[derive(Debug, Default, Clone, Copy)]
struct CellKeyHasher(u64);

impl Hasher for CellKeyHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 29)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = (self.0.rotate_left(5) ^ key).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

#[derive(Debug)]
enum Heads {
    Dense(Vec<u32>),
    Sparse(HashMap<u64, u32, BuildHasherDefault<CellKeyHasher>>),
}

/// The points of one sampling run, bucketed by cell.
#[derive(Debug)]
pub(crate) struct Grid<'a, const D: usize> {
    layout: &'a GridLayout<D>,
    heads: Heads,
    /// For each point, the previous point of its cell (or NONE).
    previous: Vec<u32>,
    points: Vec<Point<D>>,
}

impl<'a, const D: usize> Grid<'a, D> {
    /// An empty grid; `capacity` points are reserved up front.
    pub(crate) fn new(layout: &'a GridLayout<D>, capacity: usize) -> Self {
        let heads = if layout.dense {
            Heads::Dense(vec![NONE; layout.key_count as usize])
        } else {
            let mut map = HashMap::default();
            map.reserve(capacity);
            Heads::Sparse(map)
        };
        Grid {
            layout,
            heads,
            previous: Vec::with_capacity(capacity),
            points: Vec::with_capacity(capacity),
        }
    }

    /// The accepted points, in insertion order.
    pub(crate) fn points(&self) -> &[Point<D>] {
        &self.points
    }

    /// Gives up the grid, keeping its points.
    pub(crate) fn into_points(self) -> Vec<Point<D>> {
        self.points
    }

    #[inline]
    fn head(&self, key: u64) -> u32 {
        match &self.heads {
            Heads::Dense(cells) => cells[key as usize],
            Heads::Sparse(map) => map.get(&key).copied().unwrap_or(NONE),
        }
    }

    /// Whether any stored point is closer than r to `p` (toroidally in a periodic domain).
    /// `p` must lie inside the domain.
    #[inline]
    pub(crate) fn has_point_within_radius(&self, p: &Point<D>) -> bool {
        let layout = self.layout;
        let cell = layout.cell_of(p);
        if layout.domain.is_periodic() {
            for offset in &layout.offsets {
                let mut key = 0;
                for i in 0..D {
                    let n = layout.cells[i] as i64;
                    key += (cell[i] as i64 + offset[i]).rem_euclid(n) as u64 * layout.strides[i];
                }
                if self.chain_has_point_within_radius(key, p, true) {
                    return true;
                }
            }
        } else {
            let base = layout.key_of(&cell);
            for &delta in &layout.key_offsets {
                if self.chain_has_point_within_radius(base.wrapping_add(delta), p, false) {
                    return true;
                }
            }
        }
        false
    }

    #[inline]
    fn chain_has_point_within_radius(&self, key: u64, p: &Point<D>, periodic: bool) -> bool {
        let mut index = self.head(key);
        while index != NONE {
            let q = &self.points[index as usize];
            let d2 = if periodic {
                self.layout.domain.distance_squared(p, q)
            } else {
                distance_squared(p, q)
            };
            if d2 < self.layout.radius_squared {
                return true;
            }
            index = self.previous[index as usize];
        }
        false
    }

    /// Stores `p` (inside the domain) without checking distances; returns its index.
    #[inline]
    pub(crate) fn insert(&mut self, p: Point<D>) -> u32 {
        let key = self.layout.key_of(&self.layout.cell_of(&p));
        let index = self.points.len() as u32;
        let slot = match &mut self.heads {
            Heads::Dense(cells) => &mut cells[key as usize],
            Heads::Sparse(map) => map.entry(key).or_insert(NONE),
        };
        self.previous.push(*slot);
        *slot = index;
        self.points.push(p);
        index
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force in exact integer arithmetic: the offsets in a generous box around the
    /// centre whose cells of side r/√D can hold a pair closer than r, i.e.
    /// Σ ((|d_i| − 1)⁺)² · r²/D < r²  ⇔  Σ ((|d_i| − 1)⁺)² < D.
    fn brute_force_count<const D: usize>() -> usize {
        let reach = D as i64; // far more than needed
        let width = (2 * reach + 1) as usize;
        (0..width.pow(D as u32))
            .filter(|&code| {
                let mut c = code;
                let mut bound = 0;
                for _ in 0..D {
                    let d = (c % width) as i64 - reach;
                    c /= width;
                    bound += (d.abs() - 1).max(0).pow(2);
                }
                bound < D as i64
            })
            .count()
    }

    #[test]
    fn fine_neighbourhood_sizes_match_brute_force() {
        fn check<const D: usize>(expected: usize) {
            let side = 1.0 / (D as f64).sqrt();
            let offsets = neighbour_offsets::<D>(&[side; D], 1.0, None);
            assert_eq!(offsets.len(), expected, "D = {D}");
            assert_eq!(offsets.len(), brute_force_count::<D>(), "D = {D}");
        }
        check::<1>(3);
        check::<2>(21);
        check::<3>(117);
        check::<4>(609);
        check::<5>(3903);
    }

    #[test]
    fn fine_neighbourhood_reaches_ceil_sqrt_d_cells() {
        fn reach<const D: usize>() -> i64 {
            let side = 1.0 / (D as f64).sqrt();
            neighbour_offsets::<D>(&[side; D], 1.0, None)
                .iter()
                .flat_map(|o| o.iter().map(|d| d.abs()).collect::<Vec<_>>())
                .max()
                .unwrap_or(0)
        }
        assert_eq!(reach::<2>(), 2);
        assert_eq!(reach::<4>(), 2);
        // 5D needs cells three away: a 5^D (reach 2) neighbourhood misses close pairs.
        assert_eq!(reach::<5>(), 3);
        assert_eq!(reach::<8>(), 3);
    }

    #[test]
    fn offsets_are_sorted_nearest_first_and_start_at_the_centre() {
        let side = 1.0 / 3f64.sqrt();
        let offsets = neighbour_offsets::<3>(&[side; 3], 1.0, None);
        assert_eq!(offsets[0], [0, 0, 0]);
        let bound = |o: &[i64; 3]| -> f64 {
            o.iter().map(|d| ((d.abs() - 1).max(0) as f64 * side).powi(2)).sum()
        };
        assert!(offsets.windows(2).all(|w| bound(&w[0]) <= bound(&w[1])));
    }

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

    #[test]
    fn periodic_offsets_visit_each_cell_once() {
        let offsets = neighbour_offsets::<2>(&[0.5; 2], 1.0, Some(&[2, 2]));
        assert_eq!(offsets.len(), 4);
    }
}
