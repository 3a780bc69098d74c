//! Cells that hold their first point inline: a storage for cells at least as wide as the
//! reach, where most cells hold one point or none and one read of the cell answers for it.

use super::layout::GridLayout;
use crate::point::Point;
use std::sync::Arc;

/// Marks "no further point" in a cell's chain.
const NONE: u32 = u32::MAX;

/// A cell: its first point inline (NaN coordinates when empty, which no distance test
/// passes) and the chain of its further points.
#[derive(Debug, Clone, Copy)]
struct Cell<const D: usize> {
    first: Point<D>,
    more: u32,
}

/// Points bucketed by the cells of a layout, each cell holding its first point inline and
/// chaining the others, newest after the first. A query meets a cell's points in that order:
/// the first stored, then the newest to the second (maximal sampling's value pins rest on it).
#[derive(Debug, Clone)]
pub(crate) struct InlineCells<const D: usize> {
    layout: Arc<GridLayout<D>>,
    cells: Vec<Cell<D>>,
    /// Points beyond a cell's first, each with the link to the next one of its cell.
    overflow: Vec<(Point<D>, u32)>,
}

impl<const D: usize> InlineCells<D> {
    /// Empty cells over a dense `layout`.
    pub(crate) fn new(layout: Arc<GridLayout<D>>) -> Self {
        let empty = Cell { first: [f64::NAN; D], more: NONE };
        InlineCells {
            cells: vec![empty; layout.key_count() as usize],
            layout,
            overflow: Vec::new(),
        }
    }

    /// Stores `p` (inside the domain).
    #[inline]
    pub(crate) fn insert(&mut self, p: Point<D>) {
        let cell = &mut self.cells[self.layout.key_near(&p) as usize];
        if cell.first[0].is_nan() {
            cell.first = p;
        } else {
            self.overflow.push((p, cell.more));
            cell.more = (self.overflow.len() - 1) as u32;
        }
    }

    /// Calls `visit` with the points of the cells around `p`'s (a point of the domain), in
    /// the layout's order and each cell's, until it returns true; returns whether it did.
    #[inline(always)]
    pub(crate) fn any_near(&self, p: &Point<D>, mut visit: impl FnMut(&Point<D>) -> bool) -> bool {
        let layout = &*self.layout;
        if let Some(offsets) = layout.closed_key_offsets() {
            let base = layout.key_near(p);
            return offsets
                .iter()
                .any(|&delta| self.any_in_cell(base.wrapping_add(delta), &mut visit));
        }
        let block = layout.block_around(&layout.cell_of(p));
        let (shares, len) = block.last_shares();
        for row in block.rows() {
            for &share in &shares[..len] {
                if self.any_in_cell(row.wrapping_add(share), &mut visit) {
                    return true;
                }
            }
        }
        false
    }

    /// Writes into `buf` the points of the cells around `p` (a point of the domain) for
    /// which `keep` holds, in [`any_near`](Self::any_near)'s order, and returns how many:
    /// they are `buf[..n]`. In 1D and 2D without a branch on `keep`'s answer: each point is
    /// written at the end of the kept ones, which moves past it only if it is kept (where
    /// about half of the few points around are kept, a branch per point guesses wrong every
    /// other time). Above, most of the 3^D cells are empty or far, a branch that skips them
    /// guesses right, and writing every one would cost more (6D ran half as slow again).
    /// `buf` keeps its length from call to call, so that writing into it soon stops
    /// growing it.
    #[inline(always)]
    pub(crate) fn collect_near(
        &self,
        p: &Point<D>,
        buf: &mut Vec<Point<D>>,
        keep: impl Fn(&Point<D>) -> bool,
    ) -> usize {
        fn put<const D: usize>(buf: &mut Vec<Point<D>>, at: usize, q: &Point<D>) {
            match buf.get_mut(at) {
                Some(slot) => *slot = *q,
                None => buf.push(*q),
            }
        }
        let mut kept = 0;
        self.any_near(p, |q| {
            if D <= 2 {
                put(buf, kept, q);
                kept += usize::from(keep(q));
            } else if keep(q) {
                put(buf, kept, q);
                kept += 1;
            }
            false
        });
        kept
    }

    /// Asks the cache for the cells [`any_near`](Self::any_near) reads around `p` (a point of
    /// the domain), so that a test a few steps later finds them there.
    #[inline(always)]
    pub(crate) fn prefetch_near(&self, p: &Point<D>) {
        let layout = &*self.layout;
        if let Some(offsets) = layout.closed_key_offsets() {
            let base = layout.key_near(p);
            for &delta in offsets {
                prefetch_index::prefetch_index(&self.cells, base.wrapping_add(delta) as usize);
            }
            return;
        }
        let block = layout.block_around(&layout.cell_of(p));
        let (shares, len) = block.last_shares();
        for row in block.rows() {
            for &share in &shares[..len] {
                prefetch_index::prefetch_index(&self.cells, row.wrapping_add(share) as usize);
            }
        }
    }

    /// Calls `visit` with the points of cell `key` until it returns true; returns whether it
    /// did.
    #[inline(always)]
    fn any_in_cell(&self, key: u64, visit: &mut impl FnMut(&Point<D>) -> bool) -> bool {
        let cell = &self.cells[key as usize];
        // An empty cell's NaN fails every test `visit` makes.
        if visit(&cell.first) {
            return true;
        }
        let mut link = cell.more;
        while link != NONE {
            let (q, next) = &self.overflow[link as usize];
            if visit(q) {
                return true;
            }
            link = *next;
        }
        false
    }
}
