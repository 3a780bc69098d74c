//! The geometry of a background grid: cell sides, the cell and key of a point, the walks over
//! the cells a reach needs, and whether cells are stored densely.

use super::GridResolution;
use super::blocks::Block;
use super::conflict::ConflictRule;
use super::offsets::{
    Order, Row, RowGap, axis_gap, gap_squared, key_offset, neighbour_offsets, rows_of, warm_runs,
};
use crate::domain::Domain;
use crate::error::Error;
use crate::point::Point;

/// The geometry of a background grid over a domain. Fields are read by the storage and the
/// queries next door; nothing outside the grid module sees them.
#[derive(Debug, Clone)]
pub(crate) struct GridLayout<const D: usize> {
    pub(super) domain: Domain<D>,
    /// Cell side along each axis.
    pub(super) side: [f64; D],
    /// Cells per unit length along each axis.
    pub(super) inverse_side: [f64; D],
    /// Cells along each axis: cell `c` holds the points whose offset from the origin lies in
    /// `[c·side, (c + 1)·side)` (see [`cell_of`](Self::cell_of)).
    pub(super) cells: [u64; D],
    /// The last cell along each axis, `cells − 1` (kept so that `cell_of` clamps with one
    /// compare).
    last_cell: [u64; D],
    /// The key of cell (0, …, 0): empty cells are added on both sides of each axis of a
    /// closed domain, so that every neighbour offset stays inside the (virtual) index space
    /// without bounds checks.
    pub(super) key_base: u64,
    /// Empty cells on each side of each axis of a closed box (none on a torus).
    pub(super) padding: [u64; D],
    /// Strides of the linear cell key.
    pub(super) strides: [u64; D],
    /// Neighbour offsets in cells, in the layout's [`Order`] (periodic: one per distinct
    /// wrapped cell).
    pub(super) offsets: Vec<[i64; D]>,
    /// The same offsets as differences of linear keys (closed domains).
    pub(super) key_offsets: Vec<u64>,
    /// The same offsets grouped into runs of consecutive keys along the last axis, nearest
    /// run first (closed domains): one occupancy test covers a whole run.
    pub(super) rows: Vec<Row>,
    /// Key offsets of the runs of cells that [`Grid::warm_around`](super::Grid::warm_around)
    /// reads (closed domains).
    pub(super) warm_offsets: Vec<u64>,
    /// For each offset, the lower bound `B(d)` on the squared distance between points of
    /// the centre cell and of the offset cell: non-decreasing, as the offsets are sorted
    /// nearest first. Read by queries whose reach varies per candidate (radius fields).
    pub(super) offset_gaps: Vec<f64>,
    /// For each run of `rows`, what those queries need to bound its cells' distances.
    pub(super) row_gaps: Vec<RowGap>,
    /// `((|d| − 1)⁺ · side_last)²` for `|d|` = 0, 1, …: the last axis's share of `B(d)`.
    pub(super) last_gaps: Vec<f64>,
    /// Whether cell heads live in a dense array rather than a hash map.
    pub(super) dense: bool,
    /// Number of keys of the (padded) index space.
    pub(super) key_count: u64,
    /// The memory the grid's per-cell arrays may take, in bytes.
    pub(super) dense_limit: usize,
    /// For a layout in bricks ([`bricked`](Self::bricked)), the key stride of a brick along
    /// each axis; `None` for the linear order.
    bricks: Option<[u64; D]>,
}

/// Cells along each axis of a brick: 2^3.
const BRICK_BITS: u32 = 3;

impl<const D: usize> GridLayout<D> {
    /// Lays out a grid of the given resolution over `domain` for the conflict `rule`: cells
    /// from the rule's smallest distance, neighbour offsets from its reach (see
    /// [`super::conflict`]). Cell heads are stored densely when that takes at most
    /// `dense_limit_bytes`, otherwise in a hash map whose size follows the number of points.
    pub(crate) fn for_rule(
        domain: &Domain<D>,
        rule: &impl ConflictRule,
        resolution: GridResolution,
        dense_limit_bytes: usize,
    ) -> Result<Self, Error> {
        let target_side = match resolution {
            GridResolution::Fine => rule.cell_length() / (D as f64).sqrt(),
            GridResolution::Coarse => rule.cell_length(),
        };
        Self::new(domain, target_side, rule.reach(), dense_limit_bytes)
    }

    /// Lays out cells of side at most `target_side` (exactly that in a closed box) over
    /// `domain`, with the neighbour offsets that cover `reach` (none for a reach of 0: the
    /// caller then walks cells itself, as best candidate's nearest-neighbour search does).
    pub(crate) fn new(
        domain: &Domain<D>,
        target_side: f64,
        reach: f64,
        dense_limit_bytes: usize,
    ) -> Result<Self, Error> {
        let extent = domain.extent();
        let mut cells = [1u64; D];
        let mut side = [0.0; D];
        let mut inverse_side = [0.0; D];
        let mut total_cells = 1.0f64;
        for i in 0..D {
            let cells_in_box = extent[i] / target_side;
            let count = if domain.is_periodic() {
                cells_in_box.ceil().max(1.0)
            } else {
                // One cell past the last that rounding can reach (`cells_in_box` a hair
                // larger, floored, plus one): a point of the box never computes an index past
                // the last cell, so the closed box's queries need no clamp
                // ([`cell_in_closed_box`](Self::cell_in_closed_box)).
                (cells_in_box * (1.0 + 1e-12)).floor() + 1.0
            };
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
                // The target side: the last cell reaches past the box's upper face.
                side[i] = target_side;
                inverse_side[i] = 1.0 / target_side;
            }
        }
        let order = Order::NearestFirst;
        let layout =
            Self::with_cells(domain, side, inverse_side, cells, reach, order, dense_limit_bytes);
        if layout.key_count == u64::MAX {
            return Err(Error::GridTooLarge { cells: total_cells });
        }
        Ok(layout)
    }

    /// Lays out exactly `counts[i]` equal cells (each at least 1) tiling the box along axis
    /// `i`, with the neighbour offsets that cover `reach` in [`Order::Walk`]: for queries whose cells are chosen
    /// by the caller (maximal sampling's and sample elimination's buckets, at least as wide as
    /// their reach; best candidate's nearest-neighbour cells, with a reach of 0). Always
    /// dense.
    ///
    /// The caller bounds the cells: `Π (counts[i] + 2)` stays far below 2^64 (maximal sampling
    /// and sample elimination cap their cells at 2^32, best candidate at its point count).
    pub(crate) fn tiling(domain: &Domain<D>, counts: [u64; D], reach: f64) -> Self {
        let extent = domain.extent();
        let cells: [u64; D] = counts.map(|m| m.max(1));
        let side = std::array::from_fn(|i| extent[i] / cells[i] as f64);
        let inverse_side = std::array::from_fn(|i| cells[i] as f64 / extent[i]);
        let layout =
            Self::with_cells(domain, side, inverse_side, cells, reach, Order::Walk, usize::MAX);
        debug_assert!(layout.key_count < u64::MAX, "too many cells for a tiling");
        layout
    }

    /// The layout of `cells[i]` cells of side `side[i]` along each axis. A key space too
    /// large for 64 bits saturates its key count at `u64::MAX` (which [`new`](Self::new)
    /// refuses).
    fn with_cells(
        domain: &Domain<D>,
        side: [f64; D],
        inverse_side: [f64; D],
        cells: [u64; D],
        reach: f64,
        order: Order,
        dense_limit_bytes: usize,
    ) -> Self {
        let offsets = if reach > 0.0 {
            neighbour_offsets(&side, reach, &cells, domain.is_periodic(), order)
        } else {
            Vec::new()
        };

        let mut axis_reach = [0u64; D];
        for o in &offsets {
            for i in 0..D {
                axis_reach[i] = axis_reach[i].max(o[i].unsigned_abs());
            }
        }
        // Closed: as many empty cells on each side as the offsets reach.
        let padding = if domain.is_periodic() { [0; D] } else { axis_reach };
        let mut strides = [0u64; D];
        let mut key_count: u64 = 1;
        for i in (0..D).rev() {
            strides[i] = key_count;
            key_count = (cells[i] + 2 * padding[i]).saturating_mul(key_count);
        }
        let key_base = (0..D).map(|i| padding[i] * strides[i]).sum();
        let key_offsets = offsets.iter().map(|o| key_offset(o, &strides)).collect();
        let (rows, row_gaps) = if domain.is_periodic() {
            (Vec::new(), Vec::new())
        } else {
            rows_of(&offsets, &strides, &side)
        };
        let offset_gaps = offsets.iter().map(|o| gap_squared(o, &side)).collect();
        let last_reach = offsets.iter().map(|o| o[D - 1].unsigned_abs()).max().unwrap_or(0);
        let last_gaps = (0..=last_reach as i64).map(|d| axis_gap(d, side[D - 1]).powi(2)).collect();
        let warm_offsets = if domain.is_periodic() || reach <= 0.0 {
            Vec::new()
        } else {
            warm_runs(&side, reach, &cells).iter().map(|o| key_offset(o, &strides)).collect()
        };
        let dense = key_count
            .checked_mul(std::mem::size_of::<u32>() as u64)
            .is_some_and(|bytes| bytes <= dense_limit_bytes as u64);

        GridLayout {
            domain: *domain,
            side,
            inverse_side,
            cells,
            last_cell: cells.map(|n| n - 1),
            key_base,
            padding,
            strides,
            offsets,
            key_offsets,
            rows,
            warm_offsets,
            offset_gaps,
            row_gaps,
            last_gaps,
            dense,
            key_count,
            dense_limit: dense_limit_bytes,
            bricks: None,
        }
    }

    /// Cells of side `target_side` over a closed box, as [`new`](Self::new) lays them out,
    /// with no neighbour offsets (the queries walk with
    /// [`any_key_within`](Self::any_key_within)) and the keys in bricks of 8^D cells: the
    /// cells of a brick consecutive, the bricks in linear order. The cells around a point
    /// then lie in one or a few bricks, a few cache lines and one memory page, rather than a
    /// row, a plane and more apart (a surface's fill, whose points the dense array holds
    /// thinly: 4–7% faster at 10^6 points). With no offsets the neighbour queries of the other
    /// storages find nothing here, so the order cannot be misread by them.
    pub(crate) fn bricked(
        domain: &Domain<D>,
        target_side: f64,
        dense_limit_bytes: usize,
    ) -> Result<Self, Error> {
        debug_assert!(!domain.is_periodic());
        let mut layout = Self::new(domain, target_side, 0.0, dense_limit_bytes)?;
        let size = 1u64 << BRICK_BITS;
        let mut strides = [0u64; D];
        let mut count: u64 = 1 << (BRICK_BITS * D as u32);
        for i in (0..D).rev() {
            strides[i] = count;
            count = layout.cells[i].div_ceil(size).saturating_mul(count);
        }
        if count == u64::MAX {
            return Err(Error::GridTooLarge { cells: count as f64 });
        }
        layout.bricks = Some(strides);
        layout.key_count = count;
        layout.key_base = 0;
        layout.dense = count
            .checked_mul(std::mem::size_of::<u32>() as u64)
            .is_some_and(|bytes| bytes <= dense_limit_bytes as u64);
        Ok(layout)
    }

    /// Axis `i`'s share of the key of a cell `c` cells along it (in range).
    #[inline(always)]
    fn key_share(&self, i: usize, c: u64) -> u64 {
        match &self.bricks {
            None => c * self.strides[i],
            Some(bricks) => {
                let low = c & ((1 << BRICK_BITS) - 1);
                (c >> BRICK_BITS) * bricks[i] + (low << (BRICK_BITS * (D - 1 - i) as u32))
            }
        }
    }

    /// The domain the cells cover.
    pub(crate) fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    /// Number of neighbour cells searched per query.
    pub(crate) fn neighbourhood_len(&self) -> usize {
        self.offsets.len()
    }

    /// Whether cell heads are stored densely.
    pub(crate) fn is_dense(&self) -> bool {
        self.dense
    }

    /// Number of keys of the (padded) index space: the size of a dense per-cell array.
    pub(crate) fn key_count(&self) -> u64 {
        self.key_count
    }

    /// The cell of a point inside the domain.
    ///
    /// Cell `c` along an axis holds the points whose offset from the origin, in cells, has
    /// the integer part `c`: the interval `[c, c + 1)`. The offset is computed in floating
    /// point, so a point within rounding of a face may land in the cell on the other side
    /// (the neighbour offsets allow for it, see [`neighbour_offsets`]); past the last cell (a
    /// point a hair below the upper face of a torus) it is the last cell.
    #[inline]
    pub(crate) fn cell_of(&self, p: &Point<D>) -> [u64; D] {
        let cell = self.unclamped_cell(p);
        std::array::from_fn(
            |i| if cell[i] <= self.last_cell[i] { cell[i] } else { self.last_cell[i] },
        )
    }

    /// [`cell_of`](Self::cell_of) without its clamp, for a closed box laid out by
    /// [`new`](Self::new), whose cells reach a cell past every index rounding can compute (so
    /// the clamp never applies; in 3D it is about 2.5% of a Bridson run's instructions).
    #[inline]
    pub(super) fn cell_in_closed_box(&self, p: &Point<D>) -> [u64; D] {
        debug_assert!(!self.domain.is_periodic());
        let cell = self.unclamped_cell(p);
        debug_assert!((0..D).all(|i| cell[i] <= self.last_cell[i]));
        cell
    }

    /// The integer part of each coordinate's offset from the origin, in cells, unclamped.
    #[inline(always)]
    fn unclamped_cell(&self, p: &Point<D>) -> [u64; D] {
        let origin = self.domain.origin();
        std::array::from_fn(|i| {
            // The integer part of t ≥ 0 is t − ½ rounded to the nearest integer, which the
            // addition of 1.5·2^52 leaves in the low bits of the sum (two additions, where
            // a saturating conversion to an integer costs several compares). At an exact odd
            // integer the tie rounds down: a point on a face may belong to either cell.
            const ROUND: f64 = (3u64 << 51) as f64;
            let t = (p[i] - origin[i]) * self.inverse_side[i];
            ((t - 0.5) + ROUND).to_bits().wrapping_sub(ROUND.to_bits())
        })
    }

    /// The key of a cell (in range along every axis): linear, or in bricks.
    #[inline]
    pub(super) fn key_of(&self, cell: &[u64; D]) -> u64 {
        (0..D).fold(self.key_base, |key, i| key + self.key_share(i, cell[i]))
    }

    /// The cell of a key (a key of the box's cells, not of the padding around a closed box).
    pub(crate) fn cell_of_key(&self, key: u64) -> [u64; D] {
        assert!(self.bricks.is_none(), "cell_of_key on a layout in bricks");
        let mut rest = key;
        std::array::from_fn(|i| {
            let padded = rest / self.strides[i];
            rest %= self.strides[i];
            padded - self.padding[i]
        })
    }

    /// Prefetches the entries of `cells` (an array indexed by this layout's keys) at `base`
    /// plus each warm offset: the runs of cells the candidates around an active point in cell
    /// `base` will read ([`Grid::warm_around`](super::Grid::warm_around)). Prefetches, not
    /// loads: nothing waits for them, and an offset past the padding near the faces (outside
    /// the array) asks for nothing harmful.
    #[inline(always)]
    pub(super) fn prefetch_warm_runs<T>(&self, cells: &[T], base: u64) {
        for &offset in &self.warm_offsets {
            prefetch_index::prefetch_index(cells, base.wrapping_add(offset) as usize);
        }
    }

    /// The key of the cell of a point inside the domain.
    #[inline]
    pub(crate) fn key_near(&self, p: &Point<D>) -> u64 {
        self.key_of(&self.cell_of(p))
    }

    /// The differences between a cell's key and its neighbours' keys, in the layout's
    /// [`Order`], on a closed domain (whose padding keeps every neighbour in the key space);
    /// `None` on a torus, where neighbours wrap.
    #[inline(always)]
    pub(crate) fn closed_key_offsets(&self) -> Option<&[u64]> {
        (!self.domain.is_periodic()).then_some(&self.key_offsets[..])
    }

    /// The keys of the neighbour cells of `cell`: the layout's offsets, in its [`Order`],
    /// wrapped on a torus. The one walk every storage's neighbour query takes (a dense chained
    /// grid also has a faster one of its own for the same cells, by rows of its occupancy
    /// bitmap; a layout whose cells are at least as wide as its reach has [`Block`]).
    #[inline(always)]
    pub(crate) fn any_key_around(
        &self,
        cell: &[u64; D],
        mut visit: impl FnMut(u64) -> bool,
    ) -> bool {
        if !self.domain.is_periodic() {
            // The padding keeps every offset inside the key space: no bounds to check.
            let base = self.key_of(cell);
            return self.key_offsets.iter().any(|&delta| visit(base.wrapping_add(delta)));
        }
        self.offsets.iter().any(|o| {
            let mut key = 0;
            for i in 0..D {
                let n = self.cells[i] as i64;
                key += (cell[i] as i64 + o[i]).rem_euclid(n) as u64 * self.strides[i];
            }
            visit(key)
        })
    }

    /// The 3^D block of cells around `cell`, for a layout in [`Order::Walk`] whose cells are at
    /// least as wide as its reach (its offsets are that block): the same cells as
    /// [`any_key_around`](Self::any_key_around), in the same order, with each axis's cells
    /// worked out once.
    #[inline(always)]
    pub(crate) fn block_around(&self, cell: &[u64; D]) -> Block<D> {
        debug_assert!(self.offsets.len() <= 3usize.pow(D as u32));
        let periodic = self.domain.is_periodic();
        let mut along = [[0u64; 3]; D];
        let mut lens = [3u8; D];
        for i in 0..D {
            let (c, n, stride) = (cell[i], self.cells[i], self.strides[i]);
            if periodic {
                // The cell, the one below and the one above, each distinct one once.
                along[i] =
                    [c, if c > 0 { c - 1 } else { n - 1 }, if c + 1 < n { c + 1 } else { 0 }]
                        .map(|c| c * stride);
                lens[i] = n.min(3) as u8;
            } else {
                // Past the box's faces the padding's empty cells.
                along[i] = [c, c.wrapping_sub(1), c + 1].map(|c| c.wrapping_mul(stride));
            }
        }
        let base = if periodic { 0 } else { self.key_base };
        Block { base, along, lens }
    }

    /// For `p` in `cell`, each axis's share of a lower bound on the squared distance from `p`
    /// to the points of each cell of [`block_around`](Self::block_around)`(cell)`: per axis,
    /// for the cell, the one below and the one above (the block's order), the square of
    /// `p`'s distance to that side of its cell (0 for the cell itself), a hair less for the
    /// rounding of `(x − origin)/side` ([`WALK_SLACK`] cells, as
    /// [`any_key_within`](Self::any_key_within)). Summed over the axes, it bounds from below
    /// the squared distance from `p` to every point of that cell: a point in the cell below
    /// lies beyond `p`'s lower side, one in the cell above beyond its upper side, and on a
    /// torus of three or more cells an axis's nearest image is no nearer. Along a torus axis
    /// of fewer than three cells, where the cell below or above may be `p`'s own or its
    /// other side, every share is 0.
    #[inline(always)]
    pub(crate) fn block_gaps(&self, p: &Point<D>, cell: &[u64; D]) -> [[f64; 3]; D] {
        let periodic = self.domain.is_periodic();
        let origin = self.domain.origin();
        std::array::from_fn(|i| {
            let n = self.cells[i];
            if periodic && n < 3 {
                return [0.0; 3];
            }
            let t = (p[i] - origin[i]) * self.inverse_side[i];
            let slack = gap_slack(n, t);
            let within = t - cell[i] as f64;
            let below = ((within - slack).max(0.0) * self.side[i]).powi(2);
            let above = ((1.0 - within - slack).max(0.0) * self.side[i]).powi(2);
            [0.0, below, above]
        })
    }

    /// Calls `visit` with the key of every cell that may hold a point within `reach` of `p`
    /// (a hair more, for rounding), for a reach the neighbour offsets were not made for,
    /// until it returns true; returns `Some` of whether it did. `None` (nothing visited) when
    /// the walk would pass `max_cells` cells or 64 along an axis: the caller then looks at
    /// every point instead, which is cheaper. In a closed box `p` may lie anywhere; on a torus
    /// it must lie in the box.
    ///
    /// Per axis, the cells whose slab comes within `reach` of `p`; of their product, those
    /// whose lower bound on the distance to `p` (the root of the sum of squared per-axis gaps,
    /// a hair less) exceeds `reach` are skipped. On a torus an axis whose range spans all its
    /// cells is walked once, with no bound.
    pub(crate) fn any_key_within(
        &self,
        p: &Point<D>,
        reach: f64,
        max_cells: f64,
        mut visit: impl FnMut(u64) -> bool,
    ) -> Option<bool> {
        const MAX_AXIS_CELLS: f64 = 64.0;
        let periodic = self.domain.is_periodic();
        let origin = self.domain.origin();
        let mut first = [0i64; D];
        let mut last = [0i64; D];
        let mut at = [0.0f64; D];
        let mut whole = [false; D];
        let mut walk = 1.0f64;
        for i in 0..D {
            let n = self.cells[i] as f64;
            let t = (p[i] - origin[i]) * self.inverse_side[i];
            let span = reach * self.inverse_side[i];
            let slack = WALK_SLACK * (1.0 + n + t.abs() + span);
            let (mut lo, mut hi) = (floor_of(t - span - slack), floor_of(t + span + slack));
            if !(lo.is_finite() && hi.is_finite()) {
                return None;
            }
            if periodic {
                if hi - lo + 1.0 >= n {
                    whole[i] = true;
                    lo = 0.0;
                    hi = n - 1.0;
                }
            } else {
                lo = lo.max(0.0);
                hi = hi.min(n - 1.0);
                if lo > hi {
                    return Some(false);
                }
            }
            if hi - lo + 1.0 > MAX_AXIS_CELLS {
                return None;
            }
            first[i] = lo as i64;
            last[i] = hi as i64;
            at[i] = t;
            walk *= hi - lo + 1.0;
        }
        if walk > max_cells {
            return None;
        }
        // Tables of four cells an axis are cheap to set up, and hold nearly every walk.
        let reach_squared = reach * reach;
        let walk = if (0..D).all(|i| last[i] - first[i] < 4) {
            self.walk_within::<4>(&first, &last, &at, &whole, reach_squared, &mut visit)
        } else {
            self.walk_within::<{ MAX_AXIS_CELLS as usize }>(
                &first,
                &last,
                &at,
                &whole,
                reach_squared,
                &mut visit,
            )
        };
        Some(walk)
    }

    /// The walk of [`any_key_within`](Self::any_key_within) over the cells `first..=last`
    /// (at most `N` along each axis), `at` the point in cell units: per axis, each cell's
    /// share of the key and of the bound is worked out once, and a cell then costs D
    /// additions of each, with no division (a torus's wrap) and no branch per axis.
    fn walk_within<const N: usize>(
        &self,
        first: &[i64; D],
        last: &[i64; D],
        at: &[f64; D],
        whole: &[bool; D],
        reach_squared: f64,
        visit: &mut impl FnMut(u64) -> bool,
    ) -> bool {
        let mut key_share = [[0u64; N]; D];
        let mut gap_share = [[0.0f64; N]; D];
        let mut count = [0usize; D];
        for i in 0..D {
            let n = self.cells[i] as i64;
            for (c, j) in (first[i]..=last[i]).enumerate() {
                key_share[i][c] = self.key_share(i, j.rem_euclid(n) as u64);
                // A whole axis adds nothing to the bound (0 leaves the sum as it was).
                if !whole[i] {
                    let gap = (j as f64 - at[i]).max(at[i] - (j + 1) as f64);
                    let gap = (gap - gap_slack(self.cells[i], at[i])).max(0.0);
                    let gap = gap * self.side[i];
                    gap_share[i][c] = gap * gap;
                }
                count[i] = c + 1;
            }
        }
        let mut cell = [0usize; D];
        loop {
            let mut key = self.key_base;
            let mut bound = 0.0;
            for i in 0..D {
                key += key_share[i][cell[i]];
                bound += gap_share[i][cell[i]];
            }
            if bound <= reach_squared && visit(key) {
                return true;
            }
            let mut i = 0;
            loop {
                if i == D {
                    return false;
                }
                cell[i] += 1;
                if cell[i] < count[i] {
                    break;
                }
                cell[i] = 0;
                i += 1;
            }
        }
    }
}

/// `x.floor()` for every finite `x` and NaN for NaN (±0 may come back as the other zero), inline:
/// without SSE4.1, which the baseline x86-64 target lacks, `floor` is a call into `libm`.
#[inline]
fn floor_of(x: f64) -> f64 {
    // From 2^52 on every float is an integer.
    if x.abs() < 4_503_599_627_370_496.0 {
        let truncated = x as i64 as f64;
        if truncated > x { truncated - 1.0 } else { truncated }
    } else {
        x
    }
}

/// Slack, in cells, that [`GridLayout::any_key_within`] adds to each side of a walk's range and
/// takes from each cell's bound: covers the rounding of `(x − origin)/side`.
const WALK_SLACK: f64 = 1e-9;

/// The slack, in cells, taken from a cell's distance bound along an axis of `n` cells for a
/// point at `t` cells from the origin: [`WALK_SLACK`] scaled by the sizes that rounding scales
/// with.
#[inline(always)]
fn gap_slack(n: u64, t: f64) -> f64 {
    WALK_SLACK * (1.0 + n as f64 + t.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_of_is_floor() {
        let mut values = vec![0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.5, -2.5, 1e-300, -1e-300];
        values.extend([4503599627370495.5, -4503599627370495.5, 4503599627370496.0, 1e300, -1e300]);
        values.extend([f64::MAX, f64::MIN, f64::INFINITY, f64::NEG_INFINITY, f64::from_bits(1)]);
        values.extend([(1u64 << 53) as f64 - 1.0, -((1u64 << 53) as f64) + 1.0, 0.999_999_999_999]);
        for x in values.iter().flat_map(|&x| [x, x.next_up(), x.next_down()]) {
            let (got, want) = (floor_of(x), x.floor());
            assert!(
                got == want || (got.is_nan() && want.is_nan()),
                "{x:e}: {got:e} against {want:e}"
            );
        }
        assert!(floor_of(f64::NAN).is_nan());
    }

    #[test]
    fn offset_and_row_bounds_match_the_offsets() {
        // Cells of side 1 with a reach of 4 (a radius field with rmax/rmin = 4), closed box.
        let domain = Domain::from_origin_and_extent([0.0; 3], [20.0; 3]).expect("valid");
        let layout = GridLayout::new(&domain, 1.0, 4.0, usize::MAX).expect("valid");
        let side = layout.side;
        // Offset bounds are B(d), non-decreasing (the scans that stop early rely on it).
        assert_eq!(layout.offset_gaps.len(), layout.offsets.len());
        for (o, &g) in layout.offsets.iter().zip(&layout.offset_gaps) {
            assert_eq!(g, gap_squared(o, &side));
        }
        assert!(layout.offset_gaps.windows(2).all(|w| w[0] <= w[1]));
        // Each run's cells have bound prefix + last_gaps[|first + along|], the smallest of
        // which is the run's min; together the runs hold exactly the offsets.
        let mut cells = 0;
        for (row, gap) in layout.rows.iter().zip(&layout.row_gaps) {
            let bounds: Vec<f64> = (0..row.len as i64)
                .map(|along| {
                    gap.prefix + layout.last_gaps[(gap.first + along).unsigned_abs() as usize]
                })
                .collect();
            assert_eq!(bounds.iter().copied().fold(f64::INFINITY, f64::min), gap.min);
            for (along, bound) in bounds.iter().enumerate() {
                let key = row.start.wrapping_add(along as u64);
                let index = layout.key_offsets.iter().position(|&k| k == key).expect("listed");
                assert_eq!(*bound, layout.offset_gaps[index]);
            }
            cells += row.len as usize;
        }
        assert_eq!(cells, layout.offsets.len());
    }

    /// A block's walk visits the cells of the layout's own walk (`any_key_around`), in the
    /// same order, each with its place along every axis, in closed boxes and on tori of one to
    /// five cells an axis, from 1D to 4D.
    fn block_walks_as_the_layout<const D: usize>() {
        let mut rng = crate::rng::rng_from_seed(D as u64);
        for periodic in [false, true] {
            for round in 0..40 {
                let counts: [u64; D] = std::array::from_fn(|i| 1 + (round + 2 * i as u64) % 5);
                let mut domain = Domain::<D>::unit();
                if periodic {
                    domain = domain.periodic();
                }
                let layout = GridLayout::tiling(&domain, counts, 1.0 / 5.0);
                let cell: [u64; D] = std::array::from_fn(|i| {
                    (crate::rng::uniform01(&mut rng) * counts[i] as f64) as u64 % counts[i]
                });
                let mut expected = Vec::new();
                layout.any_key_around(&cell, |key| {
                    expected.push(key);
                    false
                });
                let block = layout.block_around(&cell);
                let walked: Vec<u64> = block.keys().collect();
                assert_eq!(walked, expected, "{D}D cells {counts:?} at {cell:?}");
                for (key, place) in block.cells() {
                    let at: [u64; D] = std::array::from_fn(|i| {
                        let n = counts[i];
                        [cell[i], (cell[i] + n - 1) % n, (cell[i] + 1) % n][usize::from(place[i])]
                    });
                    if periodic {
                        assert_eq!(layout.key_of(&at), key, "{D}D place {place:?}");
                    }
                }
                let mut visited = 0;
                assert!(!block.any(|_| {
                    visited += 1;
                    false
                }));
                assert_eq!(visited, expected.len());
            }
        }
    }

    #[test]
    fn block_walks_visit_the_layouts_cells_in_order() {
        block_walks_as_the_layout::<1>();
        block_walks_as_the_layout::<2>();
        block_walks_as_the_layout::<3>();
        block_walks_as_the_layout::<4>();
    }

    /// A layout in bricks numbers every cell of the box with its own key below its key
    /// count (bricks cut by the box's faces included), and its walk visits the cells the
    /// linear layout's walk visits, in the same order, at every reach and point tried.
    #[test]
    fn bricks_number_each_cell_once_and_walk_the_same_cells() {
        let domain =
            Domain::<3>::from_origin_and_extent([-0.2, 0.1, 0.0], [1.0, 0.6, 1.3]).unwrap();
        let side = 0.07;
        let linear = GridLayout::new(&domain, side, 0.0, usize::MAX).unwrap();
        let bricked = GridLayout::bricked(&domain, side, usize::MAX).unwrap();
        assert_eq!(bricked.cells, linear.cells);
        assert!(bricked.cells.iter().any(|&n| n % 8 != 0), "a brick cut by a face");
        let mut cell_of = std::collections::HashMap::new();
        for x in 0..linear.cells[0] {
            for y in 0..linear.cells[1] {
                for z in 0..linear.cells[2] {
                    let key = bricked.key_of(&[x, y, z]);
                    assert!(key < bricked.key_count);
                    assert!(cell_of.insert(key, [x, y, z]).is_none(), "key {key} twice");
                }
            }
        }
        let mut rng = crate::rng::rng_from_seed(4);
        for _ in 0..300 {
            let p: Point<3> = std::array::from_fn(|i| {
                domain.origin()[i]
                    + (crate::rng::uniform01(&mut rng) * 1.4 - 0.2) * domain.extent()[i]
            });
            let reach = 0.3 * crate::rng::uniform01(&mut rng);
            let (mut a, mut b) = (Vec::new(), Vec::new());
            linear.any_key_within(&p, reach, f64::INFINITY, |key| {
                a.push(linear.cell_of_key(key));
                false
            });
            bricked.any_key_within(&p, reach, f64::INFINITY, |key| {
                b.push(cell_of[&key]);
                false
            });
            assert_eq!(a, b, "{p:?} {reach}");
        }
    }
}
