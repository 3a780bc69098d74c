//! The restart scan that makes a fill reach every piece of its area.
//!
//! When a fill's own process ends (Bridson's front dies, dart throwing misses too often), the
//! scan walks a grid of cells of side at most r/√D over the area's box, in a fixed order (axis
//! 0 fastest). In each cell it looks for a *witness*, a point of the area (see [`Witness`]).
//! A witness with no stored point closer than r is *uncovered*: the scan hands the fill a
//! seed in that cell (a uniform dart in the cell that the area admits and that keeps the
//! distance, drawn from the run's generator, or else the witness itself), and, once the fill
//! has grown from it, checks the witness again. Points are only ever added, so a covered
//! witness stays covered, and one pass leaves every witness closer than r to a stored point.
//! The guarantee that follows is in docs/algorithms.md ("Regions: every piece filled").
//!
//! One scan serves every fill: Bridson and dart throwing in a region, each class of a
//! scatter, a live set's fill, and a chunk cell, which asks for two extra rules
//! ([`ScanRules::chunk_cell`]): darts in every witness cell whether covered or not, and fresh
//! darts each time its witness is found uncovered again; with them a seam between chunks is
//! as dense as the chunks' interiors (docs/algorithms.md, "Chunked worlds").

use crate::point::Point;
use crate::region::shape::{for_lattice, probes_per_axis};
use crate::region::{BoxClass, Region};
use crate::rng::uniform01;
use rand::Rng;

/// Darts tried in a cell with an uncovered witness before the witness itself is the seed.
const DARTS_PER_CELL: usize = 8;

/// How a cell's witness is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Witness {
    /// By the area's box classification: the cell's centre (the midpoint of its faces) when
    /// the cell is wholly inside, else the first probe of a lattice that the area holds.
    ByClass,
    /// The cell's centre (its lower corner plus half a side) when the area holds it, else the
    /// first probe of the lattice that it holds: for areas that cannot classify boxes.
    #[cfg(feature = "chunked")]
    CentreFirst,
}

/// The rules of a scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ScanRules {
    /// How a cell's witness is found.
    pub(crate) witness: Witness,
    /// Darts thrown in every cell that has a witness, covered or not, before its witness is
    /// looked at; each that the area admits and that keeps the distance is a seed.
    pub(crate) extra_darts: usize,
    /// Whether a witness found uncovered again (after the fill grew from a dart in its cell)
    /// gets a fresh round of darts; otherwise it becomes the seed itself.
    pub(crate) redraw: bool,
    /// Whether the last cell along an axis ends at the box's face itself, rather than at
    /// `origin + cells·side` (which rounding can move by an ulp): a live set's scans.
    pub(crate) exact_end: bool,
}

impl ScanRules {
    /// The rules of a region's fill: witnesses by classification, one round of darts.
    pub(crate) const REGION: ScanRules =
        ScanRules { witness: Witness::ByClass, extra_darts: 0, redraw: false, exact_end: false };

    /// The rules of a live set's fill: a region's, with cells that end at the box's faces.
    #[cfg(feature = "live")]
    pub(crate) const LIVE: ScanRules = ScanRules { exact_end: true, ..ScanRules::REGION };

    /// The rules of a chunk cell of stratum `stratum` (0 for a chunk's interior, which gets no
    /// extra darts; a seam gets `seam_darts` in every cell).
    #[cfg(feature = "chunked")]
    pub(crate) fn chunk_cell(interior: bool, seam_darts: usize) -> ScanRules {
        ScanRules {
            witness: Witness::CentreFirst,
            extra_darts: if interior { 0 } else { seam_darts },
            redraw: true,
            exact_end: false,
        }
    }
}

/// The cell the scan is at: its box, its witness, and what has been done there.
#[derive(Debug, Clone, Copy)]
struct Current<const D: usize> {
    lower: Point<D>,
    witness: Point<D>,
    /// Extra darts still to throw.
    extra_left: usize,
    /// Whether the witness is known to be uncovered now (just tested).
    uncovered: bool,
    /// Whether a round of darts has been thrown for the witness.
    darted: bool,
}

/// Where a scan is: the next cell, and the cell being seeded.
#[derive(Debug, Clone)]
pub(crate) struct Scan<const D: usize> {
    origin: Point<D>,
    /// The box's upper corner.
    end: Point<D>,
    side: [f64; D],
    cells: [u64; D],
    total: u64,
    next: u64,
    /// The cell number `next` names, kept in step with it (no division per cell).
    next_cell: [u64; D],
    current: Option<Current<D>>,
    probes: usize,
    rules: ScanRules,
    /// Extra darts drawn and seeds handed out from a witness: what a fill counts as the
    /// scan's attempts.
    attempts: u64,
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
    /// The side a scan's cells have at most for `radius`: `r/√D` up to 4D, so that a cell's
    /// diagonal is at most r; `r/2` beyond, where `(√D/r)^D` cells would outnumber the points
    /// by thousands (`√8^8 = 4096`) and make the scan cost more than the whole fill
    /// (docs/algorithms.md, "Radius-driven samplers fill every piece").
    pub(crate) fn cell_side(radius: f64) -> f64 {
        radius / (D as f64).sqrt().min(2.0)
    }

    /// A scan of the box `[origin, origin + extent]` with cells of side at most
    /// [`Self::cell_side`], under `rules`.
    pub(crate) fn new(origin: Point<D>, extent: [f64; D], radius: f64, rules: ScanRules) -> Self {
        let target = Self::cell_side(radius);
        let cells: [u64; D] =
            std::array::from_fn(|i| (extent[i] / target).ceil().clamp(1.0, 1e18) as u64);
        let total = cells.iter().fold(1u64, |n, &c| n.saturating_mul(c));
        Scan {
            origin,
            end: std::array::from_fn(|i| origin[i] + extent[i]),
            side: std::array::from_fn(|i| extent[i] / cells[i] as f64),
            cells,
            total,
            next: 0,
            next_cell: [0; D],
            current: None,
            probes: probes_per_axis(D),
            rules,
            attempts: 0,
            centre_covered: None,
            centres: None,
            marked: 0,
            radius,
        }
    }

    /// A scan of a region's sampling box with [`ScanRules::REGION`].
    pub(crate) fn for_region(sampling: &crate::domain::Domain<D>, radius: f64) -> Self {
        Scan::new(*sampling.origin(), *sampling.extent(), radius, ScanRules::REGION)
    }

    /// Extra darts drawn and seeds handed out from a witness so far.
    #[cfg(any(feature = "chunked", feature = "live"))]
    pub(crate) fn attempts(&self) -> u64 {
        self.attempts
    }

    /// Marks the cells whose centre is closer than r to one of `points[already marked..]`
    /// (the run's points, in the order they were stored), so that [`next_seed`](Self::next_seed)
    /// skips their conflict query. For one radius and [`Witness::ByClass`] only: a witness at
    /// a marked centre is covered, the query would say so too (the same `d² < r²` test of the
    /// same centre), and points are only ever added, so a mark never goes stale. Each point is
    /// marked once; in 2D this replaces about five grid queries per point by 25 distance tests
    /// on a bit array. Kept up to 3D (the block of cells to test grows as 5^D) and for at most
    /// 2^32 cells.
    pub(crate) fn mark_covered(&mut self, points: &[Point<D>]) {
        if D > 3 || self.total > 1 << 32 || self.rules.witness != Witness::ByClass {
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

    /// The next seed: a point of `area` ([`Region::contains_box_point`]), inside the scanned
    /// box, with no stored point closer than r (`covered` tells whether some stored point is
    /// closer than r to a point); `None` when the scan is over. Draws darts from `rng`.
    pub(crate) fn next_seed<G: Region<D> + ?Sized, R: Rng + ?Sized>(
        &mut self,
        area: &G,
        covered: impl Fn(&Point<D>) -> bool,
        rng: &mut R,
    ) -> Option<Point<D>> {
        self.next_seed_skipping(area, |_, _| false, covered, rng)
    }

    /// [`next_seed`](Self::next_seed) for a fill that can tell, from a cell's box
    /// `[lower, upper]` alone, that `covered` holds at every point of it (`box_covered`): such
    /// a cell is passed over before its witness is looked for, which is what its witness test
    /// would decide, so the seeds and the darts drawn are the same.
    pub(crate) fn next_seed_skipping<G: Region<D> + ?Sized, R: Rng + ?Sized>(
        &mut self,
        area: &G,
        box_covered: impl Fn(&Point<D>, &Point<D>) -> bool,
        covered: impl Fn(&Point<D>) -> bool,
        rng: &mut R,
    ) -> Option<Point<D>> {
        loop {
            if let Some(seed) = self.seed_in_current(area, &covered, rng) {
                return Some(seed);
            }
            if !self.enter_next_cell(area, &box_covered, &covered) {
                return None;
            }
        }
    }

    /// A seed in the cell the scan is at, if it still needs one (the cell is left otherwise).
    fn seed_in_current<G: Region<D> + ?Sized, R: Rng + ?Sized>(
        &mut self,
        area: &G,
        covered: &impl Fn(&Point<D>) -> bool,
        rng: &mut R,
    ) -> Option<Point<D>> {
        let side = self.side;
        let darts = |cell: &Current<D>, rng: &mut R| -> Point<D> {
            std::array::from_fn(|i| cell.lower[i] + side[i] * uniform01(rng))
        };
        let cell = self.current.as_mut()?;
        while cell.extra_left > 0 {
            cell.extra_left -= 1;
            self.attempts += 1;
            let dart = darts(cell, rng);
            if area.contains_box_point(&dart) && !covered(&dart) {
                cell.uncovered = false;
                return Some(dart);
            }
        }
        if !cell.uncovered && covered(&cell.witness) {
            self.current = None;
            return None;
        }
        cell.uncovered = false;
        if !cell.darted || self.rules.redraw {
            cell.darted = true;
            for _ in 0..DARTS_PER_CELL {
                let dart = darts(cell, rng);
                if area.contains_box_point(&dart) && !covered(&dart) {
                    self.attempts += 1;
                    return Some(dart);
                }
            }
        }
        // The witness itself: once stored, it is covered, and the cell is done.
        let witness = cell.witness;
        self.current = None;
        self.attempts += 1;
        Some(witness)
    }

    /// Moves to the next cell that has a witness to seed (false when the scan is over).
    fn enter_next_cell<G: Region<D> + ?Sized>(
        &mut self,
        area: &G,
        box_covered: &impl Fn(&Point<D>, &Point<D>) -> bool,
        covered: &impl Fn(&Point<D>) -> bool,
    ) -> bool {
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
            let upper: Point<D> = std::array::from_fn(|i| {
                if self.rules.exact_end && cell[i] + 1 == self.cells[i] {
                    self.end[i]
                } else {
                    self.origin[i] + (cell[i] + 1) as f64 * self.side[i]
                }
            });
            if box_covered(&lower, &upper) {
                continue;
            }
            let Some((witness, at_centre)) = self.witness(area, &lower, &upper) else {
                continue;
            };
            let extra = self.rules.extra_darts;
            let mut uncovered = false;
            if extra == 0 {
                if (at_centre && self.centre_marked(index)) || covered(&witness) {
                    continue;
                }
                uncovered = true;
            }
            self.current =
                Some(Current { lower, witness, extra_left: extra, uncovered, darted: false });
            return true;
        }
        false
    }

    /// A point of the area in the cell `[lower, upper]` (see [`Witness`]), and whether it is
    /// the centre.
    pub(crate) fn witness<G: Region<D> + ?Sized>(
        &self,
        area: &G,
        lower: &Point<D>,
        upper: &Point<D>,
    ) -> Option<(Point<D>, bool)> {
        let probe = || {
            let mut found = None;
            for_lattice::<D>(self.probes, |offsets| {
                let p: Point<D> = std::array::from_fn(|i| lower[i] + offsets[i] * self.side[i]);
                let hit = area.contains_box_point(&p);
                if hit {
                    found = Some(p);
                }
                hit
            });
            found.map(|p| (p, false))
        };
        match self.rules.witness {
            Witness::ByClass => match area.classify_box(lower, upper) {
                BoxClass::Outside => None,
                BoxClass::Inside => {
                    let centre = std::array::from_fn(|i| 0.5 * (lower[i] + upper[i]));
                    area.contains_box_point(&centre).then_some((centre, true))
                }
                BoxClass::Straddling => probe(),
            },
            #[cfg(feature = "chunked")]
            Witness::CentreFirst => {
                let centre = std::array::from_fn(|i| lower[i] + 0.5 * self.side[i]);
                if area.contains_box_point(&centre) { Some((centre, true)) } else { probe() }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Domain;
    use crate::region::Ball;
    use crate::region::shape::Shape;
    use crate::rng::rng_from_seed;
    use std::sync::Arc;

    fn scan_of<const D: usize>(shape: &Shape<D>, r: f64) -> Scan<D> {
        let box_ = shape.sampling();
        Scan::new(*box_.origin(), *box_.extent(), r, ScanRules::REGION)
    }

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
        let mut scan = scan_of(&shape, r);
        let mut rng = rng_from_seed(D as u64);
        let points: Vec<Point<D>> =
            (0..400).map(|_| shape.sampling().uniform_point(&mut rng)).collect();
        scan.mark_covered(&points[..150]);
        scan.mark_covered(&points);
        let (mut covered, mut marked) = (0, 0);
        for index in 0..scan.total {
            let mut rest = index;
            let cell: [u64; D] = std::array::from_fn(|i| {
                let c = rest % scan.cells[i];
                rest /= scan.cells[i];
                c
            });
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

    /// After a scan has handed out every seed (each stored at once), every witness is
    /// covered, under both rule sets; the chunk rules throw their extra darts in every cell.
    #[test]
    fn every_witness_ends_covered() {
        #[cfg_attr(not(feature = "chunked"), allow(unused_mut))]
        let mut every = vec![ScanRules::REGION];
        #[cfg(feature = "chunked")]
        every.push(ScanRules::chunk_cell(false, 3));
        for rules in every {
            let domain = Domain::<2>::unit();
            let region: Arc<dyn Region<2>> = Arc::new(Ball::new([0.5, 0.5], 0.3).unwrap());
            let shape = Shape::new(region, &domain).unwrap();
            let r = 0.05;
            let box_ = shape.sampling();
            let mut scan = Scan::new(*box_.origin(), *box_.extent(), r, rules);
            let mut stored: Vec<Point<2>> = Vec::new();
            let mut rng = rng_from_seed(3);
            let covered = |stored: &[Point<2>], p: &Point<2>| {
                stored.iter().any(|q| crate::point::distance_squared(p, q) < r * r)
            };
            loop {
                let seed = scan.next_seed(&shape, |p| covered(&stored, p), &mut rng);
                let Some(seed) = seed else { break };
                assert!(shape.contains(&seed) && !covered(&stored, &seed));
                stored.push(seed);
            }
            let check = scan_of(&shape, r);
            for index in 0..check.total {
                let cell = [index % check.cells[0], index / check.cells[0]];
                let lower = [
                    check.origin[0] + cell[0] as f64 * check.side[0],
                    check.origin[1] + cell[1] as f64 * check.side[1],
                ];
                let upper = [lower[0] + check.side[0], lower[1] + check.side[1]];
                if let Some((witness, _)) = scan.witness(&shape, &lower, &upper) {
                    assert!(covered(&stored, &witness), "{rules:?}: {witness:?} uncovered");
                }
            }
        }
    }
}
