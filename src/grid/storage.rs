//! Where the points of one run live: cell heads (dense array or hash map), per-point chains,
//! and the conflict query.

use super::conflict::{ConflictRule, FieldRule};
use super::cover::Cover;
use super::layout::GridLayout;
use super::{MORE, NONE};
use crate::point::{Point, distance_squared};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

/// A fast hasher for cell keys (multiplicative hashing with a final fold).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct CellKeyHasher(u64);

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

/// Where a grid keeps the newest point of each cell. The two implementations are separate
/// types, not an enum, so that the sampling loop is compiled once for each and the lookup in
/// its innermost loop has no branch on the storage kind.
pub(crate) trait CellHeads {
    /// Empty storage for `layout`, ready for about `capacity` points.
    fn for_layout<const D: usize>(layout: &GridLayout<D>, capacity: usize) -> Self;
    /// The newest point of cell `key`, or NONE.
    fn head(&self, key: u64) -> u32;
    /// The slot for cell `key`'s newest point (created empty if missing).
    fn head_mut(&mut self, key: u64) -> &mut u32;
    /// Asks the cache for the heads at `base` plus each of the layout's warm offsets (see
    /// [`Grid::warm_around`]); storage where that would cost more than it saves asks nothing.
    fn warm<const D: usize>(&self, layout: &GridLayout<D>, base: u64);
    /// Calls `visit` with the newest point of each occupied neighbour cell of cell `base` in
    /// a closed domain, nearest first, until it returns true; returns whether it did.
    fn any_neighbour<const D: usize>(
        &self,
        layout: &GridLayout<D>,
        base: u64,
        visit: impl FnMut(u32) -> bool,
    ) -> bool;
    /// [`any_neighbour`](Self::any_neighbour) for a query whose reach varies: only the
    /// occupied cells whose lower bound `B(d)` is below `reach_squared` and that `may_hold`
    /// (given the cell's key and bound) are visited.
    fn any_neighbour_within<const D: usize>(
        &self,
        layout: &GridLayout<D>,
        base: u64,
        reach_squared: f64,
        may_hold: impl Fn(u64, f64) -> bool,
        visit: impl FnMut(u32) -> bool,
    ) -> bool;
}

/// Cell heads in an array over the whole (padded) index space, with an occupancy bitmap.
///
/// The bitmap (one bit per cell) stays in cache where the heads do not, and one read of it
/// tests a whole run of neighbour cells: most neighbour cells are empty (nine in ten for fine
/// cells in 3D), and they now cost neither a memory access nor a branch each.
#[derive(Debug)]
pub(crate) struct DenseHeads {
    heads: Vec<u32>,
    /// Bit `key % 8` of byte `key / 8` is set when cell `key` holds a point.
    occupied: Vec<u8>,
}

impl DenseHeads {
    /// The occupancy bits of `len` (≤ [`MAX_ROW`](super::offsets::MAX_ROW)) cells from `key`
    /// on, lowest bit first:
    /// one unaligned 8-byte read from the byte that holds the first bit.
    #[inline(always)]
    fn occupancy(&self, key: u64, len: u32) -> u64 {
        let byte = (key >> 3) as usize;
        // The bitmap has 8 spare bytes at the end, so the slice is always in range and
        // always 8 bytes long (the fallback is never taken).
        let word = self.occupied[byte..byte + 8].try_into().map_or(0, u64::from_le_bytes);
        (word >> (key & 7)) & (u64::MAX >> (64 - len))
    }
}

impl CellHeads for DenseHeads {
    fn for_layout<const D: usize>(layout: &GridLayout<D>, _capacity: usize) -> Self {
        let cells = layout.key_count as usize;
        DenseHeads { heads: vec![NONE; cells], occupied: vec![0; cells / 8 + 9] }
    }
    #[inline(always)]
    fn head(&self, key: u64) -> u32 {
        self.heads[key as usize]
    }
    #[inline(always)]
    fn warm<const D: usize>(&self, layout: &GridLayout<D>, base: u64) {
        layout.prefetch_warm_runs(&self.heads, base);
    }
    #[inline(always)]
    fn head_mut(&mut self, key: u64) -> &mut u32 {
        self.occupied[(key >> 3) as usize] |= 1 << (key & 7);
        &mut self.heads[key as usize]
    }
    #[inline(always)]
    fn any_neighbour<const D: usize>(
        &self,
        layout: &GridLayout<D>,
        base: u64,
        mut visit: impl FnMut(u32) -> bool,
    ) -> bool {
        for row in &layout.rows {
            let first = base.wrapping_add(row.start);
            // Rotated so that the scan starts with the cell in line with the centre: it is
            // the likeliest to hold a conflict (in the centre row, the candidate's own cell).
            let mut bits = self.occupancy(first, row.len).rotate_right(row.turn);
            while bits != 0 {
                let along = (bits.trailing_zeros() + row.turn) & 63;
                if visit(self.heads[(first + along as u64) as usize]) {
                    return true;
                }
                bits &= bits - 1;
            }
        }
        false
    }
    #[inline(always)]
    fn any_neighbour_within<const D: usize>(
        &self,
        layout: &GridLayout<D>,
        base: u64,
        reach_squared: f64,
        may_hold: impl Fn(u64, f64) -> bool,
        mut visit: impl FnMut(u32) -> bool,
    ) -> bool {
        for (row, gap) in layout.rows.iter().zip(&layout.row_gaps) {
            if gap.min >= reach_squared {
                continue;
            }
            let first = base.wrapping_add(row.start);
            let mut bits = self.occupancy(first, row.len).rotate_right(row.turn);
            while bits != 0 {
                let along = (bits.trailing_zeros() + row.turn) & 63;
                let key = first + along as u64;
                let d_last = (gap.first + along as i64).unsigned_abs() as usize;
                let bound = gap.prefix + layout.last_gaps[d_last];
                if bound < reach_squared && may_hold(key, bound) && visit(self.heads[key as usize])
                {
                    return true;
                }
                bits &= bits - 1;
            }
        }
        false
    }
}

/// Cell heads in a hash map: memory follows the number of points, not the box volume.
#[derive(Debug)]
pub(crate) struct HashedHeads(HashMap<u64, u32, BuildHasherDefault<CellKeyHasher>>);

impl CellHeads for HashedHeads {
    fn for_layout<const D: usize>(_layout: &GridLayout<D>, capacity: usize) -> Self {
        let mut map = HashMap::default();
        map.reserve(capacity);
        HashedHeads(map)
    }
    #[inline(always)]
    fn head(&self, key: u64) -> u32 {
        self.0.get(&key).copied().unwrap_or(NONE)
    }
    fn warm<const D: usize>(&self, _layout: &GridLayout<D>, _base: u64) {
        // A hashed lookup per run would cost what it saves.
    }
    #[inline(always)]
    fn head_mut(&mut self, key: u64) -> &mut u32 {
        self.0.entry(key).or_insert(NONE)
    }
    #[inline(always)]
    fn any_neighbour<const D: usize>(
        &self,
        layout: &GridLayout<D>,
        base: u64,
        mut visit: impl FnMut(u32) -> bool,
    ) -> bool {
        layout.key_offsets.iter().any(|&delta| match self.0.get(&base.wrapping_add(delta)) {
            Some(&head) => visit(head),
            None => false,
        })
    }
    #[inline(always)]
    fn any_neighbour_within<const D: usize>(
        &self,
        layout: &GridLayout<D>,
        base: u64,
        reach_squared: f64,
        may_hold: impl Fn(u64, f64) -> bool,
        mut visit: impl FnMut(u32) -> bool,
    ) -> bool {
        // The offsets are sorted by their bound: the first one out of reach ends the search.
        layout
            .key_offsets
            .iter()
            .zip(&layout.offset_gaps)
            .take_while(|&(_, &bound)| bound < reach_squared)
            .any(|(&delta, &bound)| {
                let key = base.wrapping_add(delta);
                match self.0.get(&key) {
                    Some(&head) => may_hold(key, bound) && visit(head),
                    None => false,
                }
            })
    }
}

/// A grid in the storage its layout picked: dense heads where they fit the layout's memory
/// budget, hashed ones past it. This is the one place the pick is made; a client runs its
/// loop on either grid through [`with_storage!`](crate::grid::with_storage), which compiles the
/// loop once for each storage.
#[derive(Debug)]
pub(crate) enum StoredGrid<const D: usize, C> {
    /// Heads in one array over every cell.
    Dense(Grid<D, DenseHeads, C>),
    /// Heads in a hash map of the occupied cells.
    Hashed(Grid<D, HashedHeads, C>),
}

impl<const D: usize, C: ConflictRule> StoredGrid<D, C> {
    /// An empty grid in the storage `layout` picked; `capacity` points are reserved up front.
    pub(crate) fn new(layout: Arc<GridLayout<D>>, rule: C, capacity: usize) -> Self {
        if layout.is_dense() {
            StoredGrid::Dense(Grid::new(layout, rule, capacity))
        } else {
            StoredGrid::Hashed(Grid::new(layout, rule, capacity))
        }
    }
}

/// A run over grids that must share one storage (the scatter's classes, each on a grid of
/// its own), compiled once for each storage: see [`run_in_storage`].
#[cfg(feature = "scatter")]
pub(crate) trait StorageRun {
    /// What the run gives.
    type Output;
    /// The run, with every grid's heads of type `H`.
    fn run<H: CellHeads>(self) -> Self::Output;
}

/// Runs `run` in the storage every one of `layouts` can take: dense heads when they all fit
/// their budgets, hashed ones otherwise (the pick of [`StoredGrid`] for several grids).
#[cfg(feature = "scatter")]
pub(crate) fn run_in_storage<'a, const D: usize, R: StorageRun>(
    layouts: impl IntoIterator<Item = &'a GridLayout<D>>,
    run: R,
) -> R::Output {
    if layouts.into_iter().all(GridLayout::is_dense) {
        run.run::<DenseHeads>()
    } else {
        run.run::<HashedHeads>()
    }
}

/// Evaluates `$body` with `$grid` bound to the [`Grid`] inside the [`StoredGrid`] `$stored`
/// (by value, `&` or `&mut`, as `$stored` is given), whatever its storage.
macro_rules! with_storage {
    ($stored:expr, $grid:ident => $body:expr) => {
        match $stored {
            $crate::grid::StoredGrid::Dense($grid) => $body,
            $crate::grid::StoredGrid::Hashed($grid) => $body,
        }
    };
}
pub(crate) use with_storage;

/// The points of one sampling run, bucketed by cell, with the conflict rule that decides
/// which pairs are too close.
///
/// The grid owns its points and shares its layout (an `Arc`), so a run's state can outlive
/// the call that started it (see `BridsonFill`).
#[derive(Debug)]
pub(crate) struct Grid<const D: usize, H, C> {
    layout: Arc<GridLayout<D>>,
    heads: H,
    /// For each point, the link to the previous point of its cell (or NONE), read only when
    /// the point's own link carries [`MORE`].
    previous: Vec<u32>,
    points: Vec<Point<D>>,
    rule: C,
    /// The sub-cells the points cover whole, for a rule with one conflict distance.
    cover: Option<Cover<D>>,
}

impl<const D: usize, H: CellHeads, C: ConflictRule> Grid<D, H, C> {
    /// An empty grid; `capacity` points are reserved up front.
    pub(crate) fn new(layout: Arc<GridLayout<D>>, rule: C, capacity: usize) -> Self {
        let cover = Cover::new(&layout, &rule.cover_radii_squared(), layout.dense_limit);
        Grid {
            heads: H::for_layout(&layout, capacity),
            layout,
            previous: Vec::with_capacity(capacity),
            points: Vec::with_capacity(capacity),
            cover,
            rule,
        }
    }

    /// The layout the grid was made for.
    pub(crate) fn layout(&self) -> &GridLayout<D> {
        &self.layout
    }

    /// The stored points, in insertion order.
    pub(crate) fn points(&self) -> &[Point<D>] {
        &self.points
    }

    /// Gives up the grid, keeping its points.
    pub(crate) fn into_points(self) -> Vec<Point<D>> {
        self.points
    }

    /// Whether any stored point conflicts with `p` under the rule (distances toroidal in a
    /// periodic domain). `p` must lie inside the domain.
    #[inline(always)]
    pub(crate) fn has_conflict(&self, p: &Point<D>, spacing: C::Spacing) -> bool {
        // Most candidates fall where a stored point covers them: one bit read answers.
        if self.cover.as_ref().is_some_and(|cover| cover.covers(p)) {
            return true;
        }
        // From 3D on no cover is made and every candidate is searched: the search inlined
        // into the caller's loop made Bridson 1.20× faster in 3D at 10⁶ points. In 1D and 2D,
        // where the cover answers most candidates, it stays out of line (inlined, 2D was 5%
        // slower).
        if D >= 3 { self.search(p, spacing) } else { self.searched(p, spacing) }
    }

    /// [`search`](Self::search), out of line.
    #[inline(never)]
    fn searched(&self, p: &Point<D>, spacing: C::Spacing) -> bool {
        self.search(p, spacing)
    }

    /// [`has_conflict`](Self::has_conflict) by searching the neighbour cells.
    #[inline(always)]
    fn search(&self, p: &Point<D>, spacing: C::Spacing) -> bool {
        let layout = &*self.layout;
        if layout.domain.is_periodic() {
            let toroidal = |a: &Point<D>, b: &Point<D>| layout.domain.distance_squared(a, b);
            layout.any_key_around(&layout.cell_of(p), |key| {
                let head = self.heads.head(key);
                head != NONE && self.chain_conflicts(head, p, spacing, toroidal)
            })
        } else {
            let key = layout.key_of(&layout.cell_in_closed_box(p));
            self.heads.any_neighbour(layout, key, |head| {
                self.chain_conflicts(head, p, spacing, distance_squared)
            })
        }
    }

    /// [`has_conflict`](Self::has_conflict) in a closed domain with the search cut at
    /// `reach_squared` (which must bound, rounding included, the squared distance of every pair
    /// the rule can call a conflict for this `spacing`): cells whose lower bound `B(d)` is not
    /// below it are skipped, so the answer is a full search's. For queries whose reach varies
    /// per candidate under any rule (the scatter's classes). A periodic domain gets the full
    /// search.
    #[inline]
    #[cfg(feature = "scatter")]
    pub(crate) fn has_conflict_reaching(
        &self,
        p: &Point<D>,
        spacing: C::Spacing,
        reach_squared: f64,
    ) -> bool {
        let layout = &*self.layout;
        if layout.domain.is_periodic() {
            return self.has_conflict(p, spacing);
        }
        self.heads.any_neighbour_within(
            layout,
            layout.key_of(&layout.cell_in_closed_box(p)),
            reach_squared,
            |_, _| true,
            |head| self.chain_conflicts(head, p, spacing, distance_squared),
        )
    }

    /// Prefetches the cell heads that the candidates around `centre` (an active point) are
    /// about to test, all at once, so that their cache misses overlap one another and the
    /// candidates' draws instead of each stalling one candidate's test in turn (a prefetch,
    /// unlike a load, holds nothing up while it is under way). The active point was picked at
    /// random along the whole front, so its cells are usually not in the nearer caches (1.2× in
    /// 3D at 10^6 points as loads, 1.09× more as prefetches; docs/performance.md). Closed
    /// domains only; elsewhere it asks nothing.
    #[inline]
    pub(crate) fn warm_around(&self, centre: &Point<D>) {
        let layout = &*self.layout;
        if !layout.warm_offsets.is_empty() {
            let base = layout.key_of(&layout.cell_in_closed_box(centre));
            self.heads.warm(layout, base);
            if let Some(cover) = &self.cover {
                cover.warm(layout, base);
            }
        }
    }

    /// Whether the point of link `head` or an older point of its cell conflicts with `p`.
    #[inline(always)]
    fn chain_conflicts(
        &self,
        head: u32,
        p: &Point<D>,
        spacing: C::Spacing,
        distance_squared: impl Fn(&Point<D>, &Point<D>) -> f64,
    ) -> bool {
        let mut link = head;
        loop {
            let index = link & !MORE;
            let d2 = distance_squared(p, &self.points[index as usize]);
            if self.rule.conflicts(spacing, d2, index) {
                return true;
            }
            // Fine cells are walked too: two points exactly r apart (to rounding) may share
            // one, since cells are closed at one end or both (see `cell_of`).
            if link & MORE == 0 {
                return false;
            }
            link = self.previous[index as usize];
        }
    }

    /// Calls `visit` with the index of every point of cell `key`, newest first, until it
    /// returns false; returns whether it never did.
    #[inline]
    pub(crate) fn all_in_cell(&self, key: u64, mut visit: impl FnMut(u32) -> bool) -> bool {
        let mut link = self.heads.head(key);
        if link == NONE {
            return true;
        }
        loop {
            let index = link & !MORE;
            if !visit(index) {
                return false;
            }
            if link & MORE == 0 {
                return true;
            }
            link = self.previous[index as usize];
        }
    }

    /// Calls `visit` with the index of every stored point that may lie within `reach` of
    /// `p` (and possibly others), until it returns true; returns whether it did. Walks only
    /// the cells whose lower bound on the distance to `p` is within `reach`
    /// ([`GridLayout::any_key_within`]): with cells twice the reach, about 8 of the 27
    /// around `p`. `p` lies in the box.
    pub(crate) fn any_point_within(
        &self,
        p: &Point<D>,
        reach: f64,
        mut visit: impl FnMut(u32) -> bool,
    ) -> bool {
        let walked = self.layout.any_key_within(p, reach, f64::INFINITY, |key| {
            let mut link = self.heads.head(key);
            if link == NONE {
                return false;
            }
            loop {
                let index = link & !MORE;
                if visit(index) {
                    return true;
                }
                if link & MORE == 0 {
                    return false;
                }
                link = self.previous[index as usize];
            }
        });
        // A reach of more than 64 cells along an axis: every point.
        walked.unwrap_or_else(|| (0..self.points.len() as u32).any(visit))
    }

    /// Stores `p` (inside the domain) with its spacing, without checking for conflicts;
    /// returns its index.
    #[inline]
    pub(crate) fn insert(&mut self, p: Point<D>, spacing: C::Spacing) -> u32 {
        let key = self.layout.key_of(&self.layout.cell_of(&p));
        let index = self.points.len() as u32;
        let slot = self.heads.head_mut(key);
        self.previous.push(*slot);
        *slot = if *slot == NONE { index } else { index | MORE };
        self.points.push(p);
        self.rule.record(index, key, spacing);
        if let Some(cover) = &mut self.cover
            && let Some(table) = self.rule.cover_table(spacing)
        {
            cover.mark(&p, table);
        }
        index
    }

    /// The conflict rule, with whatever it keeps per point.
    pub(crate) fn rule(&self) -> &C {
        &self.rule
    }

    /// Gives up the grid, keeping its points and its rule.
    pub(crate) fn into_points_and_rule(self) -> (Vec<Point<D>>, C) {
        (self.points, self.rule)
    }
}

impl<const D: usize, H: CellHeads> Grid<D, H, FieldRule> {
    /// Whether a stored point conflicts with a candidate `p` of radius `r` under the field's
    /// pair rule: [`has_conflict`](Self::has_conflict) with the search narrowed to what
    /// this candidate can conflict with. Offsets and runs of cells beyond the reach
    /// `rule(r, largest radius stored)` are skipped, and on a dense grid so are occupied cells
    /// whose radius bound keeps them out of reach (see `FieldRule`). Every skipped cell's
    /// lower bound clears the pair distance of any point it could hold, so the answer is
    /// the same as a full search's (docs/algorithms.md, "Variable radius").
    #[inline(always)]
    pub(crate) fn has_conflict_within(&self, p: &Point<D>, r: f64) -> bool {
        // As in `has_conflict`: the cover's bit answers most candidates, the search stays out
        // of line.
        if self.cover.as_ref().is_some_and(|cover| cover.covers(p)) {
            return true;
        }
        self.searched_within(p, r)
    }

    /// [`has_conflict_within`](Self::has_conflict_within) by searching the neighbour cells.
    #[inline(never)]
    fn searched_within(&self, p: &Point<D>, r: f64) -> bool {
        let layout = &*self.layout;
        let rule = &self.rule;
        let reach_squared = rule.reach_squared(r);
        let cell = layout.cell_of(p);
        let may_hold = |key: u64, bound: f64| rule.cell_may_conflict(r, key, bound);
        if layout.domain.is_periodic() {
            let toroidal = |a: &Point<D>, b: &Point<D>| layout.domain.distance_squared(a, b);
            layout
                .offsets
                .iter()
                .zip(&layout.offset_gaps)
                .take_while(|&(_, &bound)| bound < reach_squared)
                .any(|(offset, &bound)| {
                    let mut key = 0;
                    for i in 0..D {
                        let n = layout.cells[i] as i64;
                        key +=
                            (cell[i] as i64 + offset[i]).rem_euclid(n) as u64 * layout.strides[i];
                    }
                    let head = self.heads.head(key);
                    head != NONE
                        && may_hold(key, bound)
                        && self.chain_conflicts(head, p, r, toroidal)
                })
        } else {
            self.heads.any_neighbour_within(
                layout,
                layout.key_of(&cell),
                reach_squared,
                may_hold,
                |head| self.chain_conflicts(head, p, r, distance_squared),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Domain;
    use crate::grid::{ConstantRadius, GridResolution};

    #[test]
    fn a_close_point_three_fine_cells_away_is_found_in_5d() {
        let domain = Domain::<5>::unit();
        let r = 0.1;
        let side = r / 5f64.sqrt();
        let rule = ConstantRadius::new(r);
        let layout = GridLayout::for_rule(&domain, &rule, GridResolution::Fine, usize::MAX);
        let layout = Arc::new(layout.unwrap());
        let mut grid = Grid::<5, DenseHeads, _>::new(layout.clone(), rule, 2);
        let p = [10.95 * side, 0.5, 0.5, 0.5, 0.5];
        let q = [p[0] + 0.95 * r, 0.5, 0.5, 0.5, 0.5];
        assert_eq!(layout.cell_of(&q)[0] - layout.cell_of(&p)[0], 3);
        grid.insert(p, ());
        assert!(grid.has_conflict(&q, ()), "a 5^D search would miss this pair");
        // And just beyond r it is not reported.
        let far = [p[0] + 1.0001 * r, 0.5, 0.5, 0.5, 0.5];
        assert!(!grid.has_conflict(&far, ()));
    }
}
