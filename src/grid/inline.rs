//! Cells that hold their first point inline: a storage for cells at least as wide as the
//! reach, where most cells hold one point or none and one read of the cell answers for it.

use super::layout::GridLayout;
use crate::point::Point;
use std::sync::Arc;

/// Marks "no further point" in a cell's chain.
const NONE: u32 = u32::MAX;

/// The first coordinate of an empty cell: a NaN, which no distance test passes.
const EMPTY: u64 = 0x7FF8_0000_0000_0000;

/// The first coordinate of a cell holding more than one point is a NaN of this form, the
/// low 32 bits the index of its chain's head in the overflow (another NaN payload than
/// [`EMPTY`]'s, and no distance test passes it either).
const CHAIN: u64 = 0x7FFC_0000_0000_0000;

/// Points bucketed by the cells of a layout. A cell is one point wide: the point itself
/// when it holds one, NaN coordinates when it holds none, and a NaN naming the head of its
/// chain in the overflow when it holds more, the chain running from the first point stored
/// through the newest to the second. So a cell costs 8·D bytes and one read answers for
/// most. A query meets a cell's points in the chain's order (maximal sampling's value pins
/// rest on it).
#[derive(Debug, Clone)]
pub(crate) struct InlineCells<const D: usize> {
    layout: Arc<GridLayout<D>>,
    cells: Vec<Point<D>>,
    /// The points of cells holding more than one, each with the link to the next one of its
    /// cell.
    overflow: Vec<(Point<D>, u32)>,
}

impl<const D: usize> InlineCells<D> {
    /// Empty cells over a dense `layout`.
    pub(crate) fn new(layout: Arc<GridLayout<D>>) -> Self {
        let empty = [f64::from_bits(EMPTY); D];
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
        let tag = cell[0].to_bits();
        let next = self.overflow.len() as u32;
        if tag == EMPTY {
            *cell = p;
        } else if names_chain(tag) {
            // After the head: the newest comes second.
            let after = std::mem::replace(&mut self.overflow[tag as u32 as usize].1, next);
            self.overflow.push((p, after));
        } else {
            // The cell's one point heads a chain, `p` after it.
            self.overflow.push((*cell, next + 1));
            self.overflow.push((p, NONE));
            cell[0] = f64::from_bits(CHAIN | u64::from(next));
        }
    }

    /// Calls `visit` with the points of the cells around `p`'s (a point of the domain), in
    /// the layout's order and each cell's, until it returns true; returns whether it did.
    #[inline(always)]
    pub(crate) fn any_near(&self, p: &Point<D>, mut visit: impl FnMut(&Point<D>) -> bool) -> bool {
        let layout = &*self.layout;
        if let Some(offsets) = layout.closed_key_offsets() {
            let base = layout.key_near(p);
            // A plain loop: through `Iterator::any` the walk was a call of its own per query.
            for &delta in offsets {
                if self.any_in_cell(base.wrapping_add(delta), &mut visit) {
                    return true;
                }
            }
            return false;
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
    /// guesses right, and writing every one would cost more (in 6D it ran 1.5× as slow).
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
    /// the domain), so that a test a few steps later finds them there. The same walk as
    /// `any_near`'s, written out: as one walk shared through a closure, maximal sampling ran
    /// 21% more instructions (the look-up's visit no longer inlined).
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
        // An empty cell's NaN, and a chain's, fail every test `visit` makes.
        if visit(cell) {
            return true;
        }
        let bits = cell[0].to_bits();
        if !names_chain(bits) {
            return false;
        }
        // A chain holds two points at least: its head is read without a test.
        let mut link = bits as u32;
        loop {
            let (q, next) = &self.overflow[link as usize];
            if visit(q) {
                return true;
            }
            if *next == NONE {
                return false;
            }
            link = *next;
        }
    }
}

/// Whether a cell's first coordinate `bits` names a chain (its head in the low 32 bits). One
/// comparison: as `i64`, negative coordinates are negative, positive ones and the empty NaN
/// lie below `CHAIN`, and nothing else is stored.
#[inline(always)]
fn names_chain(bits: u64) -> bool {
    bits as i64 >= CHAIN as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Domain;
    use crate::rng::{rng_from_seed, uniform01};

    /// The points of the cells around `p` as the block walk meets them (the order the key
    /// offsets of a closed box must keep).
    fn block_points<const D: usize>(cells: &InlineCells<D>, p: &Point<D>) -> Vec<Point<D>> {
        let layout = &*cells.layout;
        let mut met = Vec::new();
        for key in layout.block_around(&layout.cell_of(p)).keys() {
            cells.any_in_cell(key, &mut |q: &Point<D>| {
                met.push(*q);
                false
            });
        }
        met
    }

    /// `any_near` meets the block's points in the block's order, closed and periodic, and
    /// `collect_near` keeps exactly those `keep` passes, in that order, whatever its buffer
    /// held before.
    fn near_points_in_block_order<const D: usize>() {
        let mut rng = rng_from_seed(11);
        for periodic in [false, true] {
            let mut domain = Domain::<D>::from_origin_and_extent([-0.3; D], [1.1; D]).unwrap();
            if periodic {
                domain = domain.periodic();
            }
            let layout = GridLayout::tiling(&domain, [5; D], 0.2);
            let mut cells = InlineCells::new(Arc::new(layout));
            let inside = |rng: &mut _| -> Point<D> {
                std::array::from_fn(|_| -0.3 + 1.1 * uniform01(rng) * 0.999_999)
            };
            for _ in 0..60 * D {
                cells.insert(inside(&mut rng));
            }
            let mut buf = vec![[9.0; D]; 3];
            for _ in 0..200 {
                let p = inside(&mut rng);
                let expected = block_points(&cells, &p);
                let mut met = Vec::new();
                cells.any_near(&p, |q| {
                    met.push(*q);
                    false
                });
                let same = met.len() == expected.len()
                    && met
                        .iter()
                        .zip(&expected)
                        .all(|(a, b)| a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits()));
                assert!(same, "D={D} periodic={periodic}: {met:?} against {expected:?}");
                let keep = |q: &Point<D>| domain.distance_squared(&p, q) < 0.04;
                let n = cells.collect_near(&p, &mut buf, keep);
                let kept: Vec<Point<D>> = expected.iter().copied().filter(|q| keep(q)).collect();
                assert_eq!(&buf[..n], &kept[..], "D={D} periodic={periodic}");
            }
        }
    }

    /// A cell's points are met first stored first, then newest to second, however many it
    /// holds; the cells around keep theirs.
    #[test]
    fn a_cell_meets_its_points_in_the_chain_order() {
        let domain = Domain::<2>::from_origin_and_extent([0.0; 2], [1.0; 2]).unwrap();
        let mut cells = InlineCells::new(Arc::new(GridLayout::tiling(&domain, [4; 2], 0.25)));
        let key = cells.layout.key_near(&[0.4, 0.4]);
        let met = |cells: &InlineCells<2>, key: u64| {
            let mut met = Vec::new();
            cells.any_in_cell(key, &mut |q: &Point<2>| {
                met.push(*q);
                false
            });
            met
        };
        assert!(met(&cells, key)[0][0].is_nan());
        cells.insert([0.9, 0.9]);
        let stored: Vec<Point<2>> = (0..5).map(|i| [0.3 + 0.01 * i as f64, 0.4]).collect();
        for (n, &p) in stored.iter().enumerate() {
            cells.insert(p);
            let mut expected = vec![stored[0]];
            expected.extend(stored[1..=n].iter().rev());
            let mut got = met(&cells, key);
            if n > 0 {
                // The cell's own NaN (naming its chain) comes before its chain.
                assert!(got.remove(0)[0].is_nan());
            }
            assert_eq!(got, expected, "after {} points", n + 1);
        }
        assert_eq!(met(&cells, cells.layout.key_near(&[0.9, 0.9])), vec![[0.9, 0.9]]);
    }

    #[test]
    fn near_points_come_in_the_block_order() {
        near_points_in_block_order::<1>();
        near_points_in_block_order::<2>();
        near_points_in_block_order::<3>();
    }
}
