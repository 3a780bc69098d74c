//! The restart scan that makes radius-driven samplers fill every piece of a region.
//!
//! When a sampler's own process ends (Bridson's front dies, dart throwing misses too often),
//! the scan walks a grid of cells of side at most r/√D over the sampling box, in a fixed
//! order. In each cell it looks for a *witness*, a point of the region: the cell's centre when
//! the cell is wholly inside, else the first of a lattice of probes in the cell that the
//! region contains. A witness with no sample closer than r is *uncovered*: the scan hands the
//! sampler a seed in that cell (a uniform dart in the cell that the region admits and that
//! keeps the distance, drawn from the run's generator, or else the witness itself), and,
//! once the sampler has grown from it, checks the witness again, seeding it itself if it is
//! still uncovered. Points are only ever added, so a covered witness stays covered, and one
//! pass leaves every witness closer than r to a sample. The guarantee that follows is in
//! docs/algorithms.md ("Regions: every piece filled").

use super::Region;
use super::shape::{Shape, for_lattice};
use crate::point::Point;
use crate::rng::uniform01;
use rand::Rng;

/// Darts tried in a cell with an uncovered witness before the witness itself is the seed.
const DARTS_PER_CELL: usize = 8;

/// Probes per axis in a straddling cell: `k^D` probes on a lattice of spacing side/k.
pub(crate) fn probes_per_axis(dim: usize) -> usize {
    match dim {
        0..=2 => 4,
        3 => 3,
        _ => 2,
    }
}

/// Where a scan is: the next cell, and a witness to check again once the sampler has grown
/// from the seed it was given.
#[derive(Debug, Clone)]
pub(crate) struct Scan<const D: usize> {
    origin: Point<D>,
    side: [f64; D],
    cells: [u64; D],
    total: u64,
    next: u64,
    pending: Option<Point<D>>,
    probes: usize,
}

impl<const D: usize> Scan<D> {
    /// A scan of `shape`'s sampling box with cells of side at most `radius / √D`.
    pub(crate) fn new(shape: &Shape<D>, radius: f64) -> Self {
        let sampling = shape.sampling();
        let extent = sampling.extent();
        let target = radius / (D as f64).sqrt();
        let cells: [u64; D] =
            std::array::from_fn(|i| (extent[i] / target).ceil().clamp(1.0, 1e18) as u64);
        let total = cells.iter().fold(1u64, |n, &c| n.saturating_mul(c));
        Scan {
            origin: *sampling.origin(),
            side: std::array::from_fn(|i| extent[i] / cells[i] as f64),
            cells,
            total,
            next: 0,
            pending: None,
            probes: probes_per_axis(D),
        }
    }

    /// The next seed: a point of the region, inside the sampling box, with no sample closer
    /// than r (`covered` tells whether some sample is closer than r to a point); `None` when
    /// the scan is over. Draws darts from `rng`.
    pub(crate) fn next_seed<R: Rng + ?Sized>(
        &mut self,
        shape: &Shape<D>,
        covered: impl Fn(&Point<D>) -> bool,
        rng: &mut R,
    ) -> Option<Point<D>> {
        if let Some(witness) = self.pending.take()
            && !covered(&witness)
        {
            return Some(witness);
        }
        while self.next < self.total {
            let cell = self.cell(self.next);
            self.next += 1;
            let lower: Point<D> =
                std::array::from_fn(|i| self.origin[i] + cell[i] as f64 * self.side[i]);
            let upper: Point<D> =
                std::array::from_fn(|i| self.origin[i] + (cell[i] + 1) as f64 * self.side[i]);
            let Some(witness) = self.witness(shape, &lower, &upper) else { continue };
            if covered(&witness) {
                continue;
            }
            for _ in 0..DARTS_PER_CELL {
                let dart: Point<D> =
                    std::array::from_fn(|i| lower[i] + self.side[i] * uniform01(rng));
                if shape.sampling().contains(&dart) && shape.contains(&dart) && !covered(&dart) {
                    self.pending = Some(witness);
                    return Some(dart);
                }
            }
            return Some(witness);
        }
        None
    }

    fn cell(&self, index: u64) -> [u64; D] {
        let mut rest = index;
        std::array::from_fn(|i| {
            let c = rest % self.cells[i];
            rest /= self.cells[i];
            c
        })
    }

    /// A point of the region in the cell `[lower, upper]`: its centre when the cell is wholly
    /// inside, else the first probe of the lattice that the region contains.
    pub(crate) fn witness(
        &self,
        shape: &Shape<D>,
        lower: &Point<D>,
        upper: &Point<D>,
    ) -> Option<Point<D>> {
        match shape.classify_box(lower, upper) {
            super::BoxClass::Outside => None,
            super::BoxClass::Inside => {
                let centre = std::array::from_fn(|i| 0.5 * (lower[i] + upper[i]));
                shape.sampling().contains(&centre).then_some(centre)
            }
            super::BoxClass::Straddling => {
                let mut found = None;
                for_lattice::<D>(self.probes, |offsets| {
                    let p: Point<D> = std::array::from_fn(|i| lower[i] + offsets[i] * self.side[i]);
                    let hit = shape.sampling().contains(&p) && shape.contains(&p);
                    if hit {
                        found = Some(p);
                    }
                    hit
                });
                found
            }
        }
    }
}
