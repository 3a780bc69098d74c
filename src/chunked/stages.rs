//! A range of chunks split into blocks and decided stratum by stratum, with only the points
//! near a block's faces passing between blocks: the plan a distributed engine follows when
//! it runs the strata as stages (docs/scaling.md, "One stage per stratum").
//!
//! The range `lo ≤ c < hi` needs the cells of its *cone*: per axis the keys `2lo − 1 …
//! 2hi + 1` (the cells over its chunks, `2lo … 2hi`, and what they depend on, one key
//! further out on each side; a cell's dependencies move a key by at most 1, and only from
//! an even key). Every cell of the cone is *owned* by one block: the block of its chunk
//! `⌊m/2⌋`, clamped into the range, so the blocks along the range's faces own the cone's
//! outer keys too. A block's stage `k` decides its cells of stratum `k` from its own
//! cells of lower strata and the *exports* of the blocks next to it: their cells cut to the
//! boxes the block's runs read (the rest of a neighbour's points plays no part in them).
//! Each cell is decided once, by the same run as in a [`World`], so the points are the
//! world's.

use super::cells::{CellKey, stratum};
use super::engine::{CellPoints, Engine, Tally};
use super::{ChunkPoints, World, cells_over, chunks_in, points_of_chunk};
use crate::domain::Domain;
use crate::error::Error;
use crate::point::Point;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

/// Cells by key (on the doubled lattice, docs/scaling.md) with their points in the order
/// they were placed: what a stage decides and what blocks send each other.
pub type CellMap<const D: usize> = BTreeMap<[i64; D], Vec<Point<D>>>;

/// The plan of a range of chunks split into blocks of `b^D` chunks, decided in `D + 1`
/// stages, made by [`World::stages`]. Blocks are named by their index `0 ≤ j < blocks` on
/// every axis; block `j` holds the chunks `lo + j·b ≤ c < min(lo + (j+1)·b, hi)`.
///
/// A run: for `k = 0 ..= D`, every block `j` calls [`decide`](Self::decide)`(j, k, given)`
/// with its own cells of strata below `k` and the [`export`](Self::export)s to it of the
/// cells its [`neighbours`](Self::neighbours) decided in earlier stages; then each block
/// gathers its own cells and the [`overlap`](Self::overlap)s of the blocks in
/// [`chunk_senders`](Self::chunk_senders) and makes its [`chunks`](Self::chunks): the
/// chunks a [`World`] with the same settings gives, bit for bit.
///
/// ```
/// use poisson_nd::chunked::{CellMap, World};
/// let world = World::<2>::builder(1.0, 7).with_chunk_side(8.0).build()?;
/// let stages = world.stages([0, 0], [4, 4], [2, 2])?;
/// let blocks = stages.blocks();
/// let mut owned: Vec<CellMap<2>> = vec![CellMap::new(); blocks.len()];
/// for k in 0..=2 {
///     let mut decided = Vec::new();
///     for (j, block) in blocks.iter().enumerate() {
///         let mut given = owned[j].clone();
///         for (i, other) in blocks.iter().enumerate() {
///             if i != j {
///                 given.extend(stages.export(&owned[i], *block));
///             }
///         }
///         decided.push(stages.decide(*block, k, given)?);
///     }
///     for (j, cells) in decided.into_iter().enumerate() {
///         owned[j].extend(cells);
///     }
/// }
/// let mut again = World::<2>::builder(1.0, 7).with_chunk_side(8.0).build()?;
/// for (j, block) in blocks.iter().enumerate() {
///     let mut cells = owned[j].clone();
///     for (i, other) in blocks.iter().enumerate() {
///         if i != j {
///             cells.extend(stages.overlap(&owned[i], *block));
///         }
///     }
///     let (lo, hi) = stages.chunks_of(*block);
///     assert_eq!(stages.chunks(*block, &cells)?, again.range(lo, hi)?);
/// }
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Stages<const D: usize> {
    engine: Engine<D>,
    bounds: Option<Domain<D>>,
    lo: [i64; D],
    hi: [i64; D],
    block: [i64; D],
    /// Per axis, the keys of the cone (canonical on a torus) and the index along the axis
    /// of the block that owns them.
    owners: [BTreeMap<i64, i64>; D],
}

impl<const D: usize> World<D> {
    /// The staged plan of the chunks `lo ≤ c < hi` split into blocks of `block` chunks
    /// along each axis (the last ones along an axis may be smaller). Errors: an empty
    /// range, a block side below 1, on a torus a range outside it.
    pub fn stages(&self, lo: [i64; D], hi: [i64; D], block: [i64; D]) -> Result<Stages<D>, Error> {
        if let Some(i) = (0..D).find(|&i| lo[i] >= hi[i]) {
            return Err(Error::Stages(format!(
                "the range {lo:?}..{hi:?} is empty along axis {i} (hi is excluded)"
            )));
        }
        if let Some(i) = (0..D).find(|&i| block[i] < 1) {
            return Err(Error::Stages(format!(
                "a block must hold at least one chunk along each axis, got {} along axis {i}",
                block[i]
            )));
        }
        let torus = self.torus_chunks();
        if let Some(n) = torus
            && let Some(c) = [lo, hi.map(|h| h - 1)]
                .into_iter()
                .find(|c| (0..D).any(|i| c[i] < 0 || c[i] >= n[i]))
        {
            return Err(Error::ChunkOutsideTorus { chunk: c.to_vec(), chunks: n.to_vec() });
        }
        let owners = std::array::from_fn(|i| {
            // A torus axis the range covers whole has no cells outside the range.
            let whole = torus.is_some_and(|n| hi[i] - lo[i] == n[i]);
            let (first, last) =
                if whole { (2 * lo[i], 2 * hi[i] - 1) } else { (2 * lo[i] - 1, 2 * hi[i] + 1) };
            let mut owners = BTreeMap::new();
            for m in first..=last {
                let key = torus.map_or(m, |n| m.rem_euclid(2 * n[i]));
                let chunk = m.div_euclid(2).clamp(lo[i], hi[i] - 1);
                // On a torus the first of two keys that wrap onto one cell owns it.
                owners.entry(key).or_insert((chunk - lo[i]) / block[i]);
            }
            owners
        });
        Ok(Stages { engine: self.engine.clone(), bounds: self.bounds, lo, hi, block, owners })
    }
}

impl<const D: usize> Stages<D> {
    /// The blocks along each axis.
    pub fn shape(&self) -> [i64; D] {
        std::array::from_fn(|i| (self.hi[i] - self.lo[i] + self.block[i] - 1) / self.block[i])
    }

    /// Every block, in lexicographic order (last axis fastest).
    pub fn blocks(&self) -> Vec<[i64; D]> {
        chunks_in([0; D], self.shape())
    }

    /// The chunks `lo ≤ c < hi` of block `block`.
    pub fn chunks_of(&self, block: [i64; D]) -> ([i64; D], [i64; D]) {
        let lo = std::array::from_fn(|i| self.lo[i] + block[i] * self.block[i]);
        let hi = std::array::from_fn(|i| (lo[i] + self.block[i]).min(self.hi[i]));
        (lo, hi)
    }

    /// The block that owns a (canonical) cell; `None` for a cell outside the range's cone.
    pub fn owner(&self, key: &[i64; D]) -> Option<[i64; D]> {
        let mut block = [0; D];
        for i in 0..D {
            block[i] = *self.owners[i].get(&key[i])?;
        }
        Some(block)
    }

    /// The cells `block` owns, of stratum `of_stratum` (all of them with `None`), in key order.
    pub fn cells(&self, block: [i64; D], of_stratum: Option<usize>) -> Vec<[i64; D]> {
        let keys: [Vec<i64>; D] = std::array::from_fn(|i| {
            self.owners[i].iter().filter(|&(_, &b)| b == block[i]).map(|(&m, _)| m).collect()
        });
        let counts: [i64; D] = std::array::from_fn(|i| keys[i].len() as i64);
        chunks_in([0; D], counts)
            .into_iter()
            .map(|index| std::array::from_fn(|i| keys[i][index[i] as usize]))
            .filter(|key| of_stratum.is_none_or(|k| stratum(key) == k))
            .collect()
    }

    /// The blocks other than `block` that own a cell one of `block`'s cells reads: the
    /// blocks whose [`export`](Self::export)s it needs.
    pub fn neighbours(&self, block: [i64; D]) -> Vec<[i64; D]> {
        let mut out = BTreeSet::new();
        for key in self.cells(block, None) {
            for dependency in self.engine.dependencies(&key) {
                if let Some(owner) = self.owner(&self.engine.canonical(&dependency).0) {
                    out.insert(owner);
                }
            }
        }
        out.remove(&block);
        out.into_iter().collect()
    }

    /// Decides `block`'s cells of stratum `stratum`. `given` must hold every cell they
    /// read: `block`'s own cells of lower strata and the neighbours' exports to it (more
    /// is fine). Errors: a block outside the plan, a stratum above `D`, a cell read that
    /// `given` lacks.
    pub fn decide(
        &self,
        block: [i64; D],
        stratum: usize,
        given: CellMap<D>,
    ) -> Result<CellMap<D>, Error> {
        self.check_block(block)?;
        if stratum > D {
            return Err(Error::Stages(format!("stratum {stratum} does not exist in {D}D")));
        }
        let keys = self.cells(block, Some(stratum));
        for key in &keys {
            for dependency in self.engine.dependencies(key) {
                let canonical = self.engine.canonical(&dependency).0;
                if !given.contains_key(&canonical) {
                    return Err(Error::Stages(format!(
                        "cell {canonical:?}, which cell {key:?} of block {block:?} reads, was not given"
                    )));
                }
            }
        }
        let have: HashMap<CellKey<D>, CellPoints<D>> =
            given.into_iter().map(|(key, points)| (key, Arc::new(points))).collect();
        let progress = Tally::new(keys.len(), None);
        let decided = self.engine.decide_cells(&keys, &have, &progress);
        drop(have);
        Ok(keys
            .into_iter()
            .zip(decided)
            .map(|(key, (points, _))| (key, Arc::unwrap_or_clone(points)))
            .collect())
    }

    /// What `block`'s runs read of `cells` (another block's cells): every one of them that
    /// a cell of `block` depends on, cut to the points inside the boxes those runs read
    /// (order kept). The cells are listed even when no point is left, to show that they
    /// were decided.
    pub fn export(&self, cells: &CellMap<D>, block: [i64; D]) -> CellMap<D> {
        let filler = self.engine.filler();
        let mut wanted: BTreeMap<CellKey<D>, Vec<bool>> = BTreeMap::new();
        for key in self.cells(block, None) {
            let read = filler.context_box(&key);
            for dependency in self.engine.dependencies(&key) {
                let (canonical, periods) = self.engine.canonical(&dependency);
                let Some(points) = cells.get(&canonical) else { continue };
                let keep = wanted.entry(canonical).or_insert_with(|| vec![false; points.len()]);
                let Some((low, high)) = read else { continue };
                let shift = self.engine.shift(&periods);
                for (kept, p) in keep.iter_mut().zip(points) {
                    *kept |=
                        (0..D).all(|i| low[i] <= p[i] + shift[i] && p[i] + shift[i] <= high[i]);
                }
            }
        }
        wanted
            .into_iter()
            .map(|(key, keep)| {
                let points = cells[&key].iter().zip(keep).filter(|(_, k)| *k).map(|(p, _)| *p);
                (key, points.collect())
            })
            .collect()
    }

    /// The blocks other than `block` that own a cell over one of its chunks: the blocks
    /// whose [`overlap`](Self::overlap)s its [`chunks`](Self::chunks) need.
    pub fn chunk_senders(&self, block: [i64; D]) -> Vec<[i64; D]> {
        let (lo, hi) = self.chunks_of(block);
        let mut out = BTreeSet::new();
        for c in chunks_in(lo, hi) {
            for key in cells_over(&c) {
                if let Some(owner) = self.owner(&self.engine.canonical(&key).0) {
                    out.insert(owner);
                }
            }
        }
        out.remove(&block);
        out.into_iter().collect()
    }

    /// The points of `cells` (another block's cells) that lie in `block`'s chunks, cell by
    /// cell (order kept), with every cell over one of those chunks listed even when none
    /// of its points is left.
    pub fn overlap(&self, cells: &CellMap<D>, block: [i64; D]) -> CellMap<D> {
        let (lo, hi) = self.chunks_of(block);
        let over: BTreeSet<CellKey<D>> = chunks_in(lo, hi)
            .iter()
            .flat_map(cells_over)
            .map(|key| self.engine.canonical(&key).0)
            .collect();
        let inside = |p: &Point<D>| {
            let p = match &self.bounds {
                Some(domain) if domain.is_periodic() => match domain.wrap(p) {
                    Some(q) => q,
                    None => return false,
                },
                _ => *p,
            };
            let c = self.engine.cells.chunk_of(&p);
            (0..D).all(|i| lo[i] <= c[i] && c[i] < hi[i])
        };
        cells
            .iter()
            .filter(|(key, _)| over.contains(*key))
            .map(|(key, points)| (*key, points.iter().copied().filter(|p| inside(p)).collect()))
            .collect()
    }

    /// The chunks of `block`, in lexicographic order, each with its points, from `cells`:
    /// `block`'s own cells and the [`overlap`](Self::overlap)s of the
    /// [`chunk_senders`](Self::chunk_senders). Errors: a block outside the plan, a cell
    /// over one of its chunks that `cells` lacks.
    pub fn chunks(
        &self,
        block: [i64; D],
        cells: &CellMap<D>,
    ) -> Result<Vec<ChunkPoints<D>>, Error> {
        self.check_block(block)?;
        let (lo, hi) = self.chunks_of(block);
        let chunks = chunks_in(lo, hi);
        for c in &chunks {
            for key in cells_over(c) {
                let canonical = self.engine.canonical(&key).0;
                if !cells.contains_key(&canonical) {
                    return Err(Error::Stages(format!(
                        "cell {canonical:?}, over chunk {c:?} of block {block:?}, was not given"
                    )));
                }
            }
        }
        let lookup = |key: &CellKey<D>| cells.get(key).map(Vec::as_slice);
        Ok(chunks
            .into_iter()
            .map(|c| {
                let points = points_of_chunk(&self.engine, self.bounds.as_ref(), &c, lookup);
                (c, points)
            })
            .collect())
    }

    /// Checks that `block` is one of the plan's.
    fn check_block(&self, block: [i64; D]) -> Result<(), Error> {
        let shape = self.shape();
        if (0..D).any(|i| block[i] < 0 || block[i] >= shape[i]) {
            return Err(Error::Stages(format!(
                "block {block:?} is not in the plan's {shape:?} blocks"
            )));
        }
        Ok(())
    }
}
