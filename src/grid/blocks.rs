//! The 3^D blocks of cells around a cell, and their walks: the keys of a block row by row, for
//! the queries that read a whole neighbourhood in the layout's walk order.

/// The 3^D block of cells around a cell
/// ([`GridLayout::block_around`](super::GridLayout::block_around)): per axis the key
/// contributions of the cell, the one below and the one above (how many are distinct).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Block<const D: usize> {
    pub(super) base: u64,
    pub(super) along: [[u64; 3]; D],
    pub(super) lens: [u8; D],
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
    /// [`GridLayout::block_gaps`](super::GridLayout::block_gaps).
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
