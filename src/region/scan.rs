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
    /// The cell number `next` names, kept in step with it (no division per cell).
    next_cell: [u64; D],
    pending: Option<Point<D>>,
    probes: usize,
    /// With one radius, cells whose centre some sample is known to be closer than r to (one
    /// bit a cell), so that the scan skips their conflict query; `None` when not kept.
    centre_covered: Option<Vec<u64>>,
    /// Each axis's cell centres, made by the first marking and kept for the later ones (a
    /// scan marks again after every seed's front).
    centres: Option<[Vec<f64>; D]>,
    /// The samples marked into `centre_covered` so far (a prefix of the run's points).
    marked: usize,
    radius: f64,
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
            next_cell: [0; D],
            pending: None,
            probes: probes_per_axis(D),
            centre_covered: None,
            centres: None,
            marked: 0,
            radius,
        }
    }

    /// Marks the cells whose centre is closer than r to one of `points[already marked..]`
    /// (the run's points, in the order they were stored), so that [`next_seed`](Self::next_seed)
    /// skips their conflict query. For one radius only: a witness at a marked centre is
    /// covered, the query would say so too (the same `d² < r²` test of the same centre), and
    /// points are only ever added, so a mark never goes stale. Each point is marked once; in
    /// 2D this replaces about five grid queries per point by 25 distance tests on a bit
    /// array. Kept up to 3D (the block of cells to test grows as 5^D) and for at most 2^32
    /// cells.
    pub(crate) fn mark_covered(&mut self, points: &[Point<D>]) {
        if D > 3 || self.total > 1 << 32 {
            return;
        }
        let total = self.total as usize;
        let mut bits = self.centre_covered.take().unwrap_or_else(|| vec![0; total.div_ceil(64)]);
        // Each axis's cell centres, computed as the witness centres are (so the sums below
        // are the witness test's own squared distance, term by term in axis order).
        let (origin, side, cells) = (self.origin, self.side, self.cells);
        let centres = self.centres.get_or_insert_with(|| {
            std::array::from_fn(|i| {
                (0..cells[i])
                    .map(|c| {
                        let lower = origin[i] + c as f64 * side[i];
                        let upper = origin[i] + (c + 1) as f64 * side[i];
                        0.5 * (lower + upper)
                    })
                    .collect()
            })
        });
        let r2 = self.radius * self.radius;
        // A centre closer than r lies at most ⌈r/side + ½⌉ cells from the point's own cell.
        let reach: [usize; D] =
            std::array::from_fn(|i| (self.radius / self.side[i] + 0.5).ceil() as usize);
        const SPAN: usize = 9;
        let mut first = [0usize; D];
        let mut count = [0usize; D];
        let mut terms = [[0.0f64; SPAN]; D];
        for p in &points[self.marked.min(points.len())..] {
            for i in 0..D {
                let home = ((p[i] - self.origin[i]) / self.side[i]).floor();
                let home = home.clamp(0.0, (self.cells[i] - 1) as f64) as usize;
                let lo = home.saturating_sub(reach[i]);
                let hi = (home + reach[i]).min(self.cells[i] as usize - 1);
                first[i] = lo;
                count[i] = (hi - lo + 1).min(SPAN);
                for (k, term) in terms[i].iter_mut().take(count[i]).enumerate() {
                    let d = p[i] - centres[i][lo + k];
                    *term = d * d;
                }
            }
            // Every combination of per-axis cells, axis 0 fastest, summing the terms in axis
            // order from 0.0 as `distance_squared` does.
            let mut at = [0usize; D];
            'block: loop {
                let mut sum = 0.0;
                for i in 0..D {
                    sum += terms[i][at[i]];
                }
                if sum < r2 {
                    let mut index = 0u64;
                    for i in (0..D).rev() {
                        index = index * self.cells[i] + (first[i] + at[i]) as u64;
                    }
                    bits[(index / 64) as usize] |= 1 << (index % 64);
                }
                for i in 0..D {
                    at[i] += 1;
                    if at[i] < count[i] {
                        continue 'block;
                    }
                    at[i] = 0;
                }
                break;
            }
        }
        self.centre_covered = Some(bits);
        self.marked = points.len();
    }

    /// Whether the centre of cell number `index` is marked covered.
    fn centre_marked(&self, index: u64) -> bool {
        self.centre_covered
            .as_ref()
            .is_some_and(|bits| bits[(index / 64) as usize] >> (index % 64) & 1 == 1)
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
        self.next_seed_skipping(shape, |_, _| false, covered, rng)
    }

    /// [`next_seed`](Self::next_seed) for a sampler that can tell, from a cell's box
    /// `[lower, upper]` alone, that `covered` holds at every point of it (`box_covered`): such
    /// a cell is passed over before its witness is looked for, which is what its witness test
    /// would decide, so the seeds and the darts drawn are the same.
    pub(crate) fn next_seed_skipping<R: Rng + ?Sized>(
        &mut self,
        shape: &Shape<D>,
        box_covered: impl Fn(&Point<D>, &Point<D>) -> bool,
        covered: impl Fn(&Point<D>) -> bool,
        rng: &mut R,
    ) -> Option<Point<D>> {
        if let Some(witness) = self.pending.take()
            && !covered(&witness)
        {
            return Some(witness);
        }
        while self.next < self.total {
            let index = self.next;
            let cell = self.next_cell;
            self.next += 1;
            for i in 0..D {
                self.next_cell[i] += 1;
                if self.next_cell[i] < self.cells[i] {
                    break;
                }
                self.next_cell[i] = 0;
            }
            let lower: Point<D> =
                std::array::from_fn(|i| self.origin[i] + cell[i] as f64 * self.side[i]);
            let upper: Point<D> =
                std::array::from_fn(|i| self.origin[i] + (cell[i] + 1) as f64 * self.side[i]);
            if box_covered(&lower, &upper) {
                continue;
            }
            let Some((witness, at_centre)) = self.witness(shape, &lower, &upper) else {
                continue;
            };
            if (at_centre && self.centre_marked(index)) || covered(&witness) {
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

    #[cfg(test)]
    fn cell(&self, index: u64) -> [u64; D] {
        let mut rest = index;
        std::array::from_fn(|i| {
            let c = rest % self.cells[i];
            rest /= self.cells[i];
            c
        })
    }

    /// A point of the region in the cell `[lower, upper]`: its centre when the cell is wholly
    /// inside (then with `true`), else the first probe of the lattice that the region contains.
    pub(crate) fn witness(
        &self,
        shape: &Shape<D>,
        lower: &Point<D>,
        upper: &Point<D>,
    ) -> Option<(Point<D>, bool)> {
        match shape.classify_box(lower, upper) {
            super::BoxClass::Outside => None,
            super::BoxClass::Inside => {
                let centre = std::array::from_fn(|i| 0.5 * (lower[i] + upper[i]));
                shape.sampling().contains(&centre).then_some((centre, true))
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
                found.map(|p| (p, false))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Domain;
    use crate::region::Ball;
    use crate::rng::rng_from_seed;
    use std::sync::Arc;

    /// A mark is never wrong: every marked cell's centre, computed as the scan computes a
    /// witness, is closer than r to a point (brute force), in 1D, 2D and 3D, in offset boxes,
    /// with points marked in two batches as a run adds them; and most covered centres are
    /// marked (the marks save queries).
    fn marks_are_sound<const D: usize>(r: f64) {
        let domain = Domain::<D>::from_origin_and_extent(
            [-0.3; D],
            std::array::from_fn(|i| 1.0 + 0.1 * i as f64),
        )
        .unwrap();
        let region: Arc<dyn Region<D>> = Arc::new(Ball::new([0.2; D], 0.6).unwrap());
        let shape = Shape::new(region, &domain).unwrap();
        let mut scan = Scan::new(&shape, r);
        let mut rng = rng_from_seed(D as u64);
        let points: Vec<Point<D>> =
            (0..400).map(|_| shape.sampling().uniform_point(&mut rng)).collect();
        scan.mark_covered(&points[..150]);
        scan.mark_covered(&points);
        let (mut covered, mut marked) = (0, 0);
        for index in 0..scan.total {
            let cell = scan.cell(index);
            let lower: Point<D> =
                std::array::from_fn(|i| scan.origin[i] + cell[i] as f64 * scan.side[i]);
            let upper: Point<D> =
                std::array::from_fn(|i| scan.origin[i] + (cell[i] + 1) as f64 * scan.side[i]);
            let centre: Point<D> = std::array::from_fn(|i| 0.5 * (lower[i] + upper[i]));
            let truth = points.iter().any(|p| crate::point::distance_squared(p, &centre) < r * r);
            covered += usize::from(truth);
            if scan.centre_marked(index) {
                marked += 1;
                assert!(truth, "{D}D: cell {cell:?} marked but its centre is uncovered");
            }
        }
        assert_eq!(marked, covered, "{D}D: every covered centre is marked");
    }

    #[test]
    fn marked_centres_are_covered() {
        marks_are_sound::<1>(0.01);
        marks_are_sound::<2>(0.05);
        marks_are_sound::<3>(0.12);
    }
}
