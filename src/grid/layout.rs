//! The geometry of a background grid: cell sides, the cell of a point, neighbour offsets, and
//! whether cells are stored densely.

use super::GridResolution;
use super::conflict::ConflictRule;
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

/// The 3^D block of cells around a cell ([`GridLayout::block_around`]): per axis the key
/// contributions of the cell, the one below and the one above (how many are distinct).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Block<const D: usize> {
    base: u64,
    along: [[u64; 3]; D],
    lens: [u8; D],
}

impl<const D: usize> Block<D> {
    /// Calls `visit` with the key of every cell of the block, in walk order (axis 0 most
    /// significant; along each axis the cell, the one below, the one above), until it returns
    /// true; returns whether it did.
    #[inline(always)]
    pub(crate) fn any(self, visit: impl FnMut(u64) -> bool) -> bool {
        self.keys().any(visit)
    }

    /// The keys of the block's cells, in walk order.
    #[inline(always)]
    pub(crate) fn keys(self) -> impl Iterator<Item = u64> {
        self.cells().map(|(key, _)| key)
    }

    /// The rows of the walk: for each place along the axes before the last (in walk order),
    /// the share of those axes in the keys of the row's cells. A row's cells are that plus
    /// each of [`last_shares`](Self::last_shares) in turn: the walk's keys in its order, with
    /// plain loops for the callers whose visits are too large to inline into an iterator's.
    #[inline(always)]
    pub(crate) fn rows(self) -> BlockRows<D> {
        BlockRows { block: self, at: [0; D], done: false }
    }

    /// The last axis's shares in the keys of a row's cells, in walk order: the first
    /// `.1` of `.0`.
    #[inline(always)]
    pub(crate) fn last_shares(&self) -> ([u64; 3], usize) {
        (self.along[D - 1], usize::from(self.lens[D - 1]))
    }

    /// The keys of the block's cells, in walk order, each with its place along every axis
    /// (0 the centre's cell, 1 the one below, 2 the one above), which indexes
    /// [`GridLayout::block_gaps`].
    #[inline(always)]
    pub(crate) fn cells(self) -> BlockKeys<D> {
        let row = self.row_key(&[0; D]);
        BlockKeys { block: self, at: [0; D], row, done: false }
    }

    /// The share of every axis but the last in the keys of the row of the walk at places
    /// `at` (the base included): a cell's key is this plus the last axis's share.
    #[inline(always)]
    fn row_key(&self, at: &[u8; D]) -> u64 {
        (0..D - 1).fold(self.base, |key, i| key.wrapping_add(self.along[i][usize::from(at[i])]))
    }
}

/// The rows of a [`Block`]'s walk ([`Block::rows`]).
#[derive(Debug, Clone)]
pub(crate) struct BlockRows<const D: usize> {
    block: Block<D>,
    /// The place along each axis before the last (the last stays 0).
    at: [u8; D],
    done: bool,
}

impl<const D: usize> Iterator for BlockRows<D> {
    type Item = u64;

    #[inline(always)]
    fn next(&mut self) -> Option<u64> {
        if self.done {
            return None;
        }
        let row = self.block.row_key(&self.at);
        self.done = !next_row(&mut self.at, &self.block.lens);
        Some(row)
    }
}

/// The keys of a [`Block`]'s cells and their places, in walk order (a loop over them inlines
/// where a closure handed to [`Block::any`] may not).
#[derive(Debug, Clone)]
pub(crate) struct BlockKeys<const D: usize> {
    block: Block<D>,
    at: [u8; D],
    /// [`Block::row_key`] of `at`: the next key is this plus the step along the last axis,
    /// so that a key costs one addition, and the axes before the last are summed once a row.
    row: u64,
    done: bool,
}

impl<const D: usize> Iterator for BlockKeys<D> {
    type Item = (u64, [u8; D]);

    #[inline(always)]
    fn next(&mut self) -> Option<(u64, [u8; D])> {
        if self.done {
            return None;
        }
        let block = &self.block;
        let last = D - 1;
        let key = self.row.wrapping_add(block.along[last][usize::from(self.at[last])]);
        let place = self.at;
        // Next combination, last axis fastest.
        self.at[last] += 1;
        if self.at[last] == block.lens[last] {
            self.at[last] = 0;
            if next_row(&mut self.at, &block.lens) {
                self.row = block.row_key(&self.at);
            } else {
                self.done = true;
            }
        }
        Some((key, place))
    }
}

/// Moves `at` (places along each axis of a block with `lens` places an axis; the last axis's
/// left alone) to the next row of the walk, the axis before the last fastest; false when the
/// walk is over.
#[inline(always)]
fn next_row<const D: usize>(at: &mut [u8; D], lens: &[u8; D]) -> bool {
    for i in (0..D - 1).rev() {
        at[i] += 1;
        if at[i] < lens[i] {
            return true;
        }
        at[i] = 0;
    }
    false
}

/// The longest run of cells one occupancy read covers (an 8-byte read shifted by up to 7).
pub(super) const MAX_ROW: i64 = 57;

/// A run of neighbour cells with consecutive keys: `len` cells from `start` (a key offset).
/// The scan starts at cell `turn` of the run, the one in line with the centre along the last
/// axis (the nearest of the run), goes up to the end and then wraps round to the start.
#[derive(Debug, Clone, Copy)]
pub(super) struct Row {
    pub(super) start: u64,
    pub(super) len: u32,
    pub(super) turn: u32,
}

/// What a query with a per-candidate reach needs to know of a run of cells: its cells'
/// `B(d)` is `prefix + last_gaps[|first + along|]` for the cell `along` steps from the run's
/// start, and `min` is the smallest of them.
#[derive(Debug, Clone, Copy)]
pub(super) struct RowGap {
    pub(super) prefix: f64,
    pub(super) first: i64,
    pub(super) min: f64,
}

/// `(|d| − 1)⁺ · side`: how far apart, at least, two points are along an axis when their
/// cells are `d` apart.
fn axis_gap(d: i64, side: f64) -> f64 {
    (d.abs() - 1).max(0) as f64 * side
}

/// `B(d) = Σ ((|d_i| − 1)⁺ · side_i)²`, computed as `sort_nearest_first` computes it.
fn gap_squared<const D: usize>(offset: &[i64; D], side: &[f64; D]) -> f64 {
    (0..D).map(|i| axis_gap(offset[i], side[i]).powi(2)).sum()
}

/// The difference of linear keys that an offset in cells makes (wrapping: negative offsets
/// become large keys that wrap back when added to a cell's key).
pub(super) fn key_offset<const D: usize>(offset: &[i64; D], strides: &[u64; D]) -> u64 {
    (0..D).fold(0u64, |k, i| k.wrapping_add((offset[i] as u64).wrapping_mul(strides[i])))
}

/// Groups offsets (sorted nearest first) into runs along the last axis. For fixed leading
/// coordinates the bound grows with |d_last|, so each group is one interval of d_last; groups
/// keep the order of their nearest member.
fn rows_of<const D: usize>(
    offsets: &[[i64; D]],
    strides: &[u64; D],
    side: &[f64; D],
) -> (Vec<Row>, Vec<RowGap>) {
    let mut groups: Vec<([i64; D], i64, i64)> = Vec::new();
    for o in offsets {
        let mut prefix = *o;
        prefix[D - 1] = 0;
        match groups.iter_mut().find(|g| g.0 == prefix) {
            Some(group) => {
                group.1 = group.1.min(o[D - 1]);
                group.2 = group.2.max(o[D - 1]);
            }
            None => groups.push((prefix, o[D - 1], o[D - 1])),
        }
    }
    let mut rows = Vec::new();
    let mut gaps = Vec::new();
    for (mut prefix, low, high) in groups {
        // Runs longer than one occupancy read (only in very high dimensions) are split.
        let mut first = low;
        while first <= high {
            prefix[D - 1] = first;
            let len = (high - first + 1).min(MAX_ROW);
            let turn = if (first..first + len).contains(&0) { -first } else { 0 };
            rows.push(Row {
                start: key_offset(&prefix, strides),
                len: len as u32,
                turn: turn as u32,
            });
            let last = first + len - 1;
            let nearest = if first <= 0 && 0 <= last { 0 } else { first.abs().min(last.abs()) };
            let mut leading = prefix;
            leading[D - 1] = 0;
            let prefix_gap = gap_squared(&leading, side);
            let min = prefix_gap + axis_gap(nearest, side[D - 1]).powi(2);
            gaps.push(RowGap { prefix: prefix_gap, first, min });
            first += len;
        }
    }
    (rows, gaps)
}

/// How many runs of cells [`Grid::warm_around`](super::Grid::warm_around) reads per active
/// point. Measured at 10^6 points in 3D (25 runs: 1.16–1.22× faster) and 2·10^5 in 4D (27
/// runs: 1.10×; all 125 runs within reach: 1.01×, and 5% slower at 2·10^4): past a few
/// dozen, the reads cost what they save.
pub(super) const WARM_RUNS: usize = 27;

/// The offsets of the cell in line with the centre (last axis offset 0) of each run of
/// cells that can hold a candidate, i.e. a point within 2r of a point of the centre cell:
/// prefixes of up to ⌈2r / side⌉ cells along each leading axis, nearest first, at most
/// [`WARM_RUNS`] of them.
fn warm_runs<const D: usize>(side: &[f64; D], radius: f64, cells: &[u64; D]) -> Vec<[i64; D]> {
    // Side ≤ r, so every leading axis reaches at least 2 cells. Prefixes within one cell of
    // the centre are all at gap 0 and come first: when there are enough of them, the others
    // need not be listed at all (this keeps 8D at 3^7 prefixes instead of 13^7).
    let near_enough = 3usize.checked_pow(D as u32 - 1).is_none_or(|n| n >= WARM_RUNS);
    let reach: [i64; D] = std::array::from_fn(|i| {
        if i + 1 == D {
            0
        } else if near_enough {
            1
        } else {
            // Never past the grid (a tiling's cells can be far narrower than the radius).
            let reach = (2.0 * radius / side[i]).ceil().min(i64::MAX as f64) as i64;
            reach.min(cells[i].min(i64::MAX as u64) as i64)
        }
    });
    let mut prefixes = Vec::new();
    let mut at = reach.map(|r| -r);
    'next: loop {
        prefixes.push(at);
        for i in (0..D).rev() {
            if at[i] < reach[i] {
                at[i] += 1;
                continue 'next;
            }
            at[i] = -reach[i];
        }
        break;
    }
    sort_nearest_first(&mut prefixes, side);
    prefixes.truncate(WARM_RUNS);
    prefixes
}

/// In what order a query meets the neighbour cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Order {
    /// Nearest first: by the lower bound `B(d)` below, then by the distance between the
    /// cells' centres (a conflict, when there is one, is found soonest).
    NearestFirst,
    /// By `B(d)`, then in *walk order*: axis 0 most significant, and along each axis the
    /// offsets 0, −1, +1, −2, +2, …, so that the 3^D block of cells at least as wide as the
    /// reach is walked centre first, then below, then above, along each axis in turn: the
    /// order in which maximal sampling meets close points and sample elimination sums its
    /// weights, which their value pins rest on.
    Walk,
}

/// The neighbour offsets, in cells, that can hold a point closer than `radius` (a rule's
/// reach) to a point of the centre cell, in `order`.
///
/// Along an axis, points of cells `d` apart are at least `(|d| − 1)·side` apart (0 for
/// adjacent cells), so an offset is needed exactly when `Σ ((|d_i| − 1)⁺ · side_i)² < r²`.
/// With `side = r/√D` this reaches ⌈√D⌉ cells along each axis. Cells whose bound is r² up to
/// rounding are left out: they could only hide a pair whose distance is r to within 1e-15
/// relative, below what the distance computation itself resolves. No offset passes `cells`
/// along its axis; in a `periodic` domain, offsets that land on the same cell after wrapping
/// are kept once.
pub(crate) fn neighbour_offsets<const D: usize>(
    side: &[f64; D],
    radius: f64,
    cells: &[u64; D],
    periodic: bool,
    order: Order,
) -> Vec<[i64; D]> {
    // No offset goes past the number of cells along its axis: in a closed box it would land
    // outside the grid, on a torus on a cell that a shorter offset with a smaller bound
    // already reaches (and would be dropped below). A radius far beyond the box would
    // otherwise enumerate (2r/side)^D offsets.
    let reach: [i64; D] = std::array::from_fn(|i| {
        let reach = (radius / side[i]).ceil().min(i64::MAX as f64) as i64;
        reach.min(cells[i].min(i64::MAX as u64) as i64)
    });
    let gap = |d: i64, i: usize| (d.abs() - 1).max(0) as f64 * side[i];
    // A cell whose bound equals r² (up to rounding) cannot hold a point closer than r, so
    // it is left out; the tolerance keeps rounding in the bound from adding it back.
    let limit = radius * radius * (1.0 - 8.0 * f64::EPSILON);
    let mut offsets: Vec<[i64; D]> = Vec::new();
    // Depth-first over axes, abandoning a prefix as soon as its lower bound reaches r².
    let mut stack: Vec<([i64; D], usize, f64)> = vec![([0; D], 0, 0.0)];
    while let Some((offset, axis, bound)) = stack.pop() {
        if axis == D {
            offsets.push(offset);
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
    match order {
        Order::NearestFirst => sort_nearest_first(&mut offsets, side),
        Order::Walk => sort_by_gap_then_walk(&mut offsets, side),
    }
    if periodic {
        let mut seen = std::collections::HashSet::new();
        offsets.retain(|o| {
            let wrapped: [i64; D] = std::array::from_fn(|i| o[i].rem_euclid(cells[i] as i64));
            seen.insert(wrapped)
        });
    }
    offsets
}

/// Sorts cell offsets by their lower bound `B(d)`, then in walk order (see
/// [`neighbour_offsets`]).
fn sort_by_gap_then_walk<const D: usize>(offsets: &mut [[i64; D]], side: &[f64; D]) {
    // Along one axis: 0, −1, +1, −2, +2, …
    let walk = |d: i64| 2 * d.unsigned_abs() - u64::from(d < 0);
    offsets.sort_by(|a, b| {
        gap_squared(a, side)
            .total_cmp(&gap_squared(b, side))
            .then_with(|| a.map(walk).cmp(&b.map(walk)))
    });
}

/// Sorts cell offsets nearest first: by the lower bound on the squared distance between points
/// of the centre cell and of the offset cell, `Σ ((|d_i| − 1)⁺ · side_i)²`, then by the squared
/// distance between the cells' centres, then lexicographically (so the order is total).
fn sort_nearest_first<const D: usize>(offsets: &mut [[i64; D]], side: &[f64; D]) {
    let nearness = |o: &[i64; D]| {
        let gap: f64 = (0..D).map(|i| ((o[i].abs() - 1).max(0) as f64 * side[i]).powi(2)).sum();
        let centre: f64 = (0..D).map(|i| (o[i] as f64 * side[i]).powi(2)).sum();
        (gap, centre)
    };
    let mut keyed: Vec<((f64, f64), [i64; D])> =
        offsets.iter().map(|o| (nearness(o), *o)).collect();
    keyed.sort_by(|(a, a_offset), (b, b_offset)| {
        a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a_offset.cmp(b_offset))
    });
    for (slot, (_, offset)) in offsets.iter_mut().zip(keyed) {
        *slot = offset;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a torus, the offsets are those of the plane with the wrapped duplicates dropped,
    /// in the same order, however far the radius reaches past the box; a radius of 1e16 in
    /// a box of one cell gives that one cell.
    #[test]
    fn torus_offsets_never_pass_the_cells() {
        let side = [0.3, 0.25];
        for cells in [[1u64, 1], [3, 5], [4, 2]] {
            for radius in [0.2, 0.7, 1.3, 2.9] {
                for order in [Order::NearestFirst, Order::Walk] {
                    let mut plane = neighbour_offsets(&side, radius, &[u64::MAX; 2], false, order);
                    let mut seen = std::collections::HashSet::new();
                    plane.retain(|o| {
                        seen.insert([
                            o[0].rem_euclid(cells[0] as i64),
                            o[1].rem_euclid(cells[1] as i64),
                        ])
                    });
                    let torus = neighbour_offsets(&side, radius, &cells, true, order);
                    assert_eq!(torus, plane, "cells {cells:?} radius {radius} {order:?}");
                }
            }
        }
        let far = neighbour_offsets(&[1.0, 1.0, 1.0], 1e16, &[1, 1, 1], true, Order::Walk);
        assert_eq!(far, vec![[0, 0, 0]]);
        let closed = neighbour_offsets(&[1.0], 1e16, &[3], false, Order::Walk);
        assert_eq!(closed, vec![[0], [-1], [1], [-2], [2], [-3], [3]]);
    }

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
            let offsets =
                neighbour_offsets::<D>(&[side; D], 1.0, &[u64::MAX; D], false, Order::NearestFirst);
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
            neighbour_offsets::<D>(&[side; D], 1.0, &[u64::MAX; D], false, Order::NearestFirst)
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
    fn warm_runs_cover_the_candidates_cells_nearest_first() {
        // Coarse cells (side r): candidates are at most 2r from the centre, two cells away.
        let all_2d = warm_runs::<2>(&[1.0; 2], 1.0, &[u64::MAX; 2]);
        assert_eq!(all_2d, vec![[0, 0], [-1, 0], [1, 0], [-2, 0], [2, 0]]);
        let all_3d = warm_runs::<3>(&[1.0; 3], 1.0, &[u64::MAX; 3]);
        assert_eq!(all_3d.len(), 25);
        assert_eq!(all_3d[0], [0, 0, 0]);
        assert!(all_3d.iter().all(|o| o[2] == 0 && o[0].abs() <= 2 && o[1].abs() <= 2));
        // From 4D on, the budget is spent on the 3^(D-1) runs next to the centre.
        for runs in [
            warm_runs::<4>(&[1.0; 4], 1.0, &[u64::MAX; 4]).len(),
            warm_runs::<8>(&[1.0; 8], 1.0, &[u64::MAX; 8]).len(),
        ] {
            assert_eq!(runs, WARM_RUNS);
        }
        assert!(
            warm_runs::<8>(&[1.0; 8], 1.0, &[u64::MAX; 8])
                .iter()
                .all(|o| o.iter().all(|d| d.abs() <= 1))
        );
        // Fine cells in 3D reach four cells; the nearest 27 of the 81 runs are kept, and no
        // kept run is farther (by its lower bound) than a dropped one.
        let side = [1.0 / 3f64.sqrt(); 3];
        let fine = warm_runs::<3>(&side, 1.0, &[u64::MAX; 3]);
        assert_eq!(fine.len(), WARM_RUNS);
        let gap = |o: &[i64; 3]| (0..3).map(|i| ((o[i].abs() - 1).max(0)).pow(2)).sum::<i64>();
        let widest_kept = fine.iter().map(gap).max().unwrap_or(0);
        let nearest_dropped = (-4..=4i64)
            .flat_map(|a| (-4..=4i64).map(move |b| [a, b, 0]))
            .filter(|o| !fine.contains(o))
            .map(|o| gap(&o))
            .min()
            .unwrap_or(i64::MAX);
        assert!(widest_kept <= nearest_dropped, "{widest_kept} > {nearest_dropped}");
    }

    #[test]
    fn offsets_are_sorted_nearest_first_and_start_at_the_centre() {
        let side = 1.0 / 3f64.sqrt();
        let offsets =
            neighbour_offsets::<3>(&[side; 3], 1.0, &[u64::MAX; 3], false, Order::NearestFirst);
        assert_eq!(offsets[0], [0, 0, 0]);
        let bound = |o: &[i64; 3]| -> f64 {
            o.iter().map(|d| ((d.abs() - 1).max(0) as f64 * side).powi(2)).sum()
        };
        assert!(offsets.windows(2).all(|w| bound(&w[0]) <= bound(&w[1])));
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

    #[test]
    fn periodic_offsets_visit_each_cell_once() {
        let offsets = neighbour_offsets::<2>(&[0.5; 2], 1.0, &[2, 2], true, Order::NearestFirst);
        assert_eq!(offsets.len(), 4);
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
