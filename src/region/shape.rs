//! A region as a sampler holds it: the region, the box candidates are drawn from, and a table
//! that classifies the cells of a grid over that box once, so that the per-candidate test is a
//! look-up except near the boundary.

use super::{BoxClass, Region};
use crate::domain::Domain;
use crate::domain::cubic_cells;
use crate::error::Error;
use crate::point::Point;
use rand::Rng;
use std::fmt;
use std::sync::Arc;

/// Cells of the classification table (1 byte each): 1024² in 2D, 101³ in 3D, 32⁴ in 4D.
pub(crate) const TABLE_CELLS: usize = 1 << 20;

/// The table's cells over a box of `extent`: as cubic as [`TABLE_CELLS`] allows, but no
/// axis cut into more than 16 times the cells of a cubic box's (16,384 in 2D), the rest going
/// to the other axes. A thin box (a terrain 1000 m by 1 mm) would otherwise be cut only along
/// its length, and every cell's classification would read the region across the whole width:
/// all 256 rows of a heightmap, for each of 2^20 cells (20 s where it now takes 0.1 s).
fn table_cells<const D: usize>(extent: &[f64; D]) -> [usize; D] {
    let cap = if D == 1 {
        TABLE_CELLS
    } else {
        16 * (TABLE_CELLS as f64).powf(1.0 / D as f64).floor() as usize
    };
    let mut extent = *extent;
    let mut capped = [false; D];
    loop {
        let budget = TABLE_CELLS / cap.pow(capped.iter().filter(|&&c| c).count() as u32);
        // A capped axis takes its cells from `cap`; a tiny extent keeps it at one cell here.
        let free = cubic_cells(&extent, budget).0;
        let over: Vec<usize> = (0..D).filter(|&i| !capped[i] && free[i] > cap).collect();
        if over.is_empty() {
            return std::array::from_fn(|i| if capped[i] { cap } else { free[i] });
        }
        for i in over {
            capped[i] = true;
            extent[i] = f64::MIN_POSITIVE;
        }
    }
}

/// Probes tried when a region has no cell wholly inside, before it is called empty.
const EMPTY_PROBES: usize = 1 << 20;

const OUTSIDE: u8 = 0;
const INSIDE: u8 = 1;
const STRADDLING: u8 = 2;

/// What a sampler samples: the whole box of its domain (the default, with its own compiled
/// path), or a shape.
#[derive(Debug, Clone)]
pub(crate) enum SamplerRegion<const D: usize> {
    /// The whole box: samplers run exactly the code they ran before regions existed.
    Whole,
    /// A region smaller than the box.
    Shape(Arc<Shape<D>>),
}

impl<const D: usize> SamplerRegion<D> {
    /// The sampler's region for `domain`: the whole box without one, else the classified
    /// shape. Errors as [`Shape::new`].
    pub(crate) fn new(
        region: Option<&Arc<dyn Region<D>>>,
        domain: &Domain<D>,
    ) -> Result<Self, Error> {
        match region {
            None => Ok(SamplerRegion::Whole),
            Some(region) => {
                Ok(SamplerRegion::Shape(Arc::new(Shape::new(Arc::clone(region), domain)?)))
            }
        }
    }

    /// The same region, its shape prepared for shells of radius `reach` around points (see
    /// [`Shape::with_shell`]).
    pub(crate) fn with_shell(self, reach: f64) -> Self {
        match self {
            SamplerRegion::Whole => SamplerRegion::Whole,
            SamplerRegion::Shape(shape) => {
                let shape = Arc::try_unwrap(shape).unwrap_or_else(|shared| (*shared).clone());
                SamplerRegion::Shape(Arc::new(shape.with_shell(reach)))
            }
        }
    }

    /// The region as given by the user, if any.
    pub(crate) fn user_region(&self) -> Option<Arc<dyn Region<D>>> {
        match self {
            SamplerRegion::Whole => None,
            SamplerRegion::Shape(shape) => Some(Arc::clone(&shape.inner)),
        }
    }

    /// The box candidates are drawn from: the domain, or the shape's sampling box.
    pub(crate) fn sampling_box<'a>(&'a self, domain: &'a Domain<D>) -> &'a Domain<D> {
        match self {
            SamplerRegion::Whole => domain,
            SamplerRegion::Shape(shape) => &shape.sampling,
        }
    }
}

/// A region classified over a grid, with the box candidates are drawn from.
///
/// `contains` answers exactly as the region's own `contains`: in a cell classified inside or
/// outside, by the table; in a straddling cell (or off the table), by the region. Cells are
/// classified with their boxes grown by a slack that covers the rounding of the cell index
/// (docs/algorithms.md, "Regions"), so a point whose computed cell is classified lies in
/// the box that was classified.
#[derive(Clone)]
pub(crate) struct Shape<const D: usize> {
    inner: Arc<dyn Region<D>>,
    /// The region's bounding box ∩ the domain's box, closed (its upper faces moved a hair
    /// up, never past the domain's): every admissible point lies in it.
    sampling: Domain<D>,
    origin: Point<D>,
    side: [f64; D],
    inverse: [f64; D],
    cells: [usize; D],
    strides: [usize; D],
    slack: [f64; D],
    classes: Vec<u8>,
    inside_cells: usize,
    straddling_cells: usize,
    /// An estimate of the fraction of the sampling box that the region fills (from below,
    /// up to probing), for the budgets of rejection loops.
    fill_fraction: f64,
    /// One bit per table cell: every cell within `deep_cells` of it (per axis) is inside, so
    /// a Bridson shell around a point of the cell needs no region test. Empty when not made.
    deep: Vec<u64>,
}

impl<const D: usize> fmt::Debug for Shape<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shape")
            .field("sampling", &self.sampling)
            .field("cells", &self.cells)
            .field("inside_cells", &self.inside_cells)
            .field("straddling_cells", &self.straddling_cells)
            .finish_non_exhaustive()
    }
}

impl<const D: usize> Shape<D> {
    /// Classifies `region` for sampling in `domain`.
    ///
    /// Errors: a periodic domain ([`Error::PeriodicRegion`]); a bounding box with a NaN
    /// coordinate; a region whose bounding box misses the domain's box
    /// ([`Error::RegionOutsideDomain`]); a region with no point found in the domain
    /// ([`Error::EmptyRegion`]).
    pub(crate) fn new(inner: Arc<dyn Region<D>>, domain: &Domain<D>) -> Result<Self, Error> {
        if domain.is_periodic() {
            return Err(Error::PeriodicRegion);
        }
        let (lo, hi) = inner.bounding_box();
        for (i, &value) in lo.iter().chain(&hi).enumerate() {
            if value.is_nan() {
                return Err(Error::NonFinite {
                    what: "region bounding-box coordinate",
                    index: i,
                    value,
                });
            }
        }
        if (0..D).any(|i| lo[i] > hi[i]) {
            return Err(Error::EmptyRegion("its bounding box is empty".to_string()));
        }
        let origin = domain.origin();
        let end: Point<D> = std::array::from_fn(|i| origin[i] + domain.extent()[i]);
        let a: Point<D> = std::array::from_fn(|i| lo[i].max(origin[i]));
        let b: Point<D> = std::array::from_fn(|i| hi[i].min(end[i]));
        if (0..D).any(|i| a[i] > b[i] || a[i] >= end[i]) {
            return Err(Error::RegionOutsideDomain {
                lower: lo.to_vec(),
                upper: hi.to_vec(),
                origin: origin.to_vec(),
                end: end.to_vec(),
            });
        }
        // A hair above the box's upper faces, so that points on them are inside the
        // half-open sampling box (never past the domain's box, which is half-open itself).
        let upper: Point<D> = std::array::from_fn(|i| {
            let pad = (b[i] + (b[i] - a[i]) * 1e-9).max(b[i].next_up());
            pad.min(end[i])
        });
        let sampling = Domain::from_corners(a, upper).map_err(|_| {
            Error::EmptyRegion("its part of the domain's box is flat along an axis".to_string())
        })?;
        let extent = *sampling.extent();
        let cells = table_cells(&extent);
        let side: [f64; D] = std::array::from_fn(|i| extent[i] / cells[i] as f64);
        let inverse: [f64; D] = std::array::from_fn(|i| cells[i] as f64 / extent[i]);
        // Rounding of a cell index is below 3ε·(cells) in cell units, and of a cell face below
        // 2ε·(|origin| + |end|): both far below this.
        let slack: [f64; D] = std::array::from_fn(|i| {
            16.0 * f64::EPSILON * (a[i].abs() + upper[i].abs() + extent[i])
        });
        let mut strides = [0usize; D];
        let mut total = 1usize;
        for i in 0..D {
            strides[i] = total;
            total *= cells[i];
        }
        let mut shape = Shape {
            inner,
            sampling,
            origin: a,
            side,
            inverse,
            cells,
            strides,
            slack,
            classes: vec![OUTSIDE; total],
            inside_cells: 0,
            straddling_cells: 0,
            fill_fraction: 0.0,
            deep: Vec::new(),
        };
        shape.classify(&mut [0; D], &cells);
        shape.inside_cells = shape.classes.iter().filter(|&&c| c == INSIDE).count();
        shape.straddling_cells = shape.classes.iter().filter(|&&c| c == STRADDLING).count();
        shape.fill_fraction = shape.inside_cells as f64 / total as f64;
        if shape.inside_cells == 0 {
            shape.fill_fraction = shape.probe_straddling_cells()?;
        }
        Ok(shape)
    }

    /// Classifies the block of cells `[from, to)` (index ranges) and fills the table: the
    /// block's box at once, and halves of it only where it straddles.
    fn classify(&mut self, from: &mut [usize; D], to: &[usize; D]) {
        let (lower, upper) = self.block_box(from, to);
        let class = self.inner.classify_box(&lower, &upper);
        let widest = (0..D).max_by_key(|&i| to[i] - from[i]).unwrap_or(0);
        if class != BoxClass::Straddling || to[widest] - from[widest] == 1 {
            let value = match class {
                BoxClass::Inside => INSIDE,
                BoxClass::Outside => OUTSIDE,
                BoxClass::Straddling => STRADDLING,
            };
            self.fill_block(from, to, value);
            return;
        }
        let middle = from[widest] + (to[widest] - from[widest]) / 2;
        let mut first_to = *to;
        first_to[widest] = middle;
        self.classify(from, &first_to);
        let mut second_from = *from;
        second_from[widest] = middle;
        self.classify(&mut second_from, to);
    }

    /// The box of the block of cells `[from, to)`, grown by the slack.
    fn block_box(&self, from: &[usize; D], to: &[usize; D]) -> (Point<D>, Point<D>) {
        (
            std::array::from_fn(|i| self.origin[i] + from[i] as f64 * self.side[i] - self.slack[i]),
            std::array::from_fn(|i| self.origin[i] + to[i] as f64 * self.side[i] + self.slack[i]),
        )
    }

    fn fill_block(&mut self, from: &[usize; D], to: &[usize; D], value: u8) {
        if value == OUTSIDE {
            return; // the table starts outside
        }
        let mut at = *from;
        loop {
            let key: usize = (0..D).map(|i| at[i] * self.strides[i]).sum();
            self.classes[key] = value;
            let mut i = 0;
            loop {
                if i == D {
                    return;
                }
                at[i] += 1;
                if at[i] < to[i] {
                    break;
                }
                at[i] = from[i];
                i += 1;
            }
        }
    }

    /// For a region with no cell wholly inside: probes the straddling cells (their centres,
    /// then a finer lattice) for a point of the region. Returns the fraction of the box the
    /// hits suggest; errors when no probe hits.
    fn probe_straddling_cells(&self) -> Result<f64, Error> {
        if self.straddling_cells == 0 {
            return Err(Error::EmptyRegion(
                "every cell of its bounding box was classified outside".to_string(),
            ));
        }
        let total = self.classes.len();
        let per_cell = (EMPTY_PROBES / self.straddling_cells).max(1);
        let per_axis = ((per_cell as f64).powf(1.0 / D as f64).floor() as usize).clamp(1, 16);
        let (mut probes, mut hits) = (0usize, 0usize);
        for key in (0..total).filter(|&k| self.classes[k] == STRADDLING) {
            let cell = self.cell_of_key(key);
            let (lower, _) = self.cell_box(&cell);
            for_lattice::<D>(per_axis, |offsets| {
                let p: Point<D> = std::array::from_fn(|i| lower[i] + offsets[i] * self.side[i]);
                probes += 1;
                hits += usize::from(self.inner.contains(&p));
                false
            });
        }
        if hits == 0 {
            return Err(Error::EmptyRegion(format!(
                "no cell of its bounding box is wholly inside, and none of {probes} probe points \
                 near its boundary is inside"
            )));
        }
        Ok(self.straddling_cells as f64 / total as f64 * hits as f64 / probes as f64)
    }

    fn cell_of_key(&self, key: usize) -> [usize; D] {
        std::array::from_fn(|i| key / self.strides[i] % self.cells[i])
    }

    /// A table cell's box (not grown).
    fn cell_box(&self, cell: &[usize; D]) -> (Point<D>, Point<D>) {
        (
            std::array::from_fn(|i| self.origin[i] + cell[i] as f64 * self.side[i]),
            std::array::from_fn(|i| self.origin[i] + (cell[i] + 1) as f64 * self.side[i]),
        )
    }

    /// The table cell of `p`, or `None` off the table.
    #[inline(always)]
    fn cell_of(&self, p: &Point<D>) -> Option<[usize; D]> {
        let mut cell = [0; D];
        for i in 0..D {
            let t = (p[i] - self.origin[i]) * self.inverse[i];
            // Also false for NaN.
            if !(t >= 0.0 && t < self.cells[i] as f64) {
                return None;
            }
            cell[i] = t as usize;
        }
        Some(cell)
    }

    /// The table cell of `p` as a linear key, or `None` off the table.
    #[inline(always)]
    fn key_of(&self, p: &Point<D>) -> Option<usize> {
        let cell = self.cell_of(p)?;
        Some((0..D).map(|i| cell[i] * self.strides[i]).sum())
    }

    /// The closed box candidates are drawn from, as a (closed) domain.
    pub(crate) fn sampling(&self) -> &Domain<D> {
        &self.sampling
    }

    /// Marks the table cells around which a ball of radius `reach` lies inside the region:
    /// those whose neighbours up to `⌈reach/side⌉ + 1` cells away along every axis (a box
    /// that holds every point within `reach` of any point the table puts in the cell, with a
    /// cell to spare for rounding) are all inside. Two passes per axis of a sliding window over
    /// the table: the box is a product of intervals, so "every cell of the box is inside" is
    /// an erosion along each axis in turn.
    pub(crate) fn with_shell(mut self, reach: f64) -> Self {
        let k: [usize; D] = std::array::from_fn(|i| {
            let cells = (reach / self.side[i]).ceil();
            if cells.is_finite() { cells as usize + 1 } else { usize::MAX / 4 }
        });
        if (0..D).any(|i| 2 * k[i] + 1 > self.cells[i]) {
            return self;
        }
        let mut deep: Vec<bool> = self.classes.iter().map(|&c| c == INSIDE).collect();
        let mut line = Vec::new();
        for axis in 0..D {
            let (n, stride) = (self.cells[axis], self.strides[axis]);
            // Every line along `axis`: the cells whose index along it is 0.
            for start in 0..deep.len() {
                if start / stride % n != 0 {
                    continue;
                }
                // Prefix counts of cells that are not (yet) deep along this line.
                line.clear();
                line.push(0usize);
                for j in 0..n {
                    let shallow = usize::from(!deep[start + j * stride]);
                    line.push(line[j] + shallow);
                }
                for j in 0..n {
                    let lo = j.saturating_sub(k[axis]);
                    let hi = (j + k[axis] + 1).min(n);
                    // Near the table's edge the window is cut: cells beyond it are outside
                    // the sampling box, hence outside the region.
                    let cut = j < k[axis] || j + k[axis] + 1 > n;
                    deep[start + j * stride] = !cut && line[hi] - line[lo] == 0;
                }
            }
        }
        let mut bits = vec![0u64; deep.len().div_ceil(64)];
        for (key, _) in deep.iter().enumerate().filter(|(_, d)| **d) {
            bits[key / 64] |= 1 << (key % 64);
        }
        self.deep = bits;
        self
    }

    /// Whether the ball of the radius given to [`with_shell`](Self::with_shell) around `p`
    /// lies inside the region (false when unknown).
    #[inline(always)]
    pub(crate) fn holds_shell(&self, p: &Point<D>) -> bool {
        !self.deep.is_empty()
            && self.key_of(p).is_some_and(|key| self.deep[key / 64] >> (key % 64) & 1 == 1)
    }

    /// A point drawn uniformly in the sampling box until one is in the region: `None` after
    /// `budget` draws. Also returns the draws made.
    #[inline]
    pub(crate) fn draw_inside<R: Rng + ?Sized>(
        &self,
        rng: &mut R,
        budget: u64,
    ) -> (Option<Point<D>>, u64) {
        for tries in 1..=budget {
            let p = self.sampling.uniform_point(rng);
            if self.contains(&p) {
                return (Some(p), tries);
            }
        }
        (None, budget)
    }

    /// How many draws a rejection loop may make for one point before it gives up: a
    /// thousand times the expected number, at least a million and at most 10^8 (a region
    /// that needs more is too thin for its box to be sampled by rejection: the run stops
    /// short rather than seem to hang).
    pub(crate) fn draw_budget(&self) -> u64 {
        (1000.0 / self.fill_fraction.max(1e-12)).clamp(1e6, 1e8) as u64
    }
}

/// Probes per axis in a straddling cell: `k^D` probes on a lattice of spacing side/k, where a
/// cell that the region's classification cannot settle is searched for a point of the region.
pub(crate) fn probes_per_axis(dim: usize) -> usize {
    match dim {
        0..=2 => 4,
        3 => 3,
        _ => 2,
    }
}

/// Calls `visit` with the centres of a `per_axis^D` lattice of sub-cells, in units of the
/// cell's side (each coordinate `(j + ½)/per_axis`), axis 0 fastest, until it returns true;
/// returns whether it did.
pub(crate) fn for_lattice<const D: usize>(
    per_axis: usize,
    mut visit: impl FnMut(&[f64; D]) -> bool,
) -> bool {
    let mut at = [0usize; D];
    loop {
        let offsets = std::array::from_fn(|i| (at[i] as f64 + 0.5) / per_axis as f64);
        if visit(&offsets) {
            return true;
        }
        let mut i = 0;
        loop {
            if i == D {
                return false;
            }
            at[i] += 1;
            if at[i] < per_axis {
                break;
            }
            at[i] = 0;
            i += 1;
        }
    }
}

impl<const D: usize> Region<D> for Shape<D> {
    #[inline(always)]
    fn contains(&self, p: &Point<D>) -> bool {
        match self.key_of(p).map(|key| self.classes[key]) {
            Some(INSIDE) => true,
            Some(OUTSIDE) => false,
            _ => self.inner.contains(p),
        }
    }

    fn bounding_box(&self) -> (Point<D>, Point<D>) {
        let origin = self.sampling.origin();
        (*origin, std::array::from_fn(|i| origin[i] + self.sampling.extent()[i]))
    }

    /// The sampling box's test, then the region's: for darts drawn in the sampling box, where
    /// rounding may still land on an upper face.
    #[inline(always)]
    fn contains_box_point(&self, p: &Point<D>) -> bool {
        self.sampling.contains(p) && self.contains(p)
    }

    /// The region's test after the test of the sampling box, which lies in the domain's box
    /// (never periodic here) and holds every point of the region.
    #[inline(always)]
    fn admit(&self, _domain: &Domain<D>, p: &Point<D>) -> Option<Point<D>> {
        (self.sampling.contains(p) && self.contains(p)).then_some(*p)
    }

    fn signed_distance(&self, p: &Point<D>) -> Option<f64> {
        self.inner.signed_distance(p)
    }

    /// From the table when the box's cells agree (or are of both kinds, which makes it
    /// straddling); else, when the box meets a straddling cell, from the region itself, so
    /// that small boxes near the boundary are classified as finely as the region can.
    fn classify_box(&self, lower: &Point<D>, upper: &Point<D>) -> BoxClass {
        // Cell coordinates straight from the corners (no division of a linear key: this runs
        // once per cell of every restart scan).
        let (Some(from), Some(to)) = (self.cell_of(lower), self.cell_of(upper)) else {
            return self.inner.classify_box(lower, upper);
        };
        let mut seen = [false; 3];
        let mut at = from;
        'cells: loop {
            let key: usize = (0..D).map(|i| at[i] * self.strides[i]).sum();
            seen[self.classes[key] as usize] = true;
            if seen[STRADDLING as usize] || (seen[INSIDE as usize] && seen[OUTSIDE as usize]) {
                break;
            }
            for i in 0..D {
                at[i] += 1;
                if at[i] <= to[i] {
                    continue 'cells;
                }
                at[i] = from[i];
            }
            break;
        }
        if seen[STRADDLING as usize] {
            self.inner.classify_box(lower, upper)
        } else if seen[INSIDE as usize] && seen[OUTSIDE as usize] {
            BoxClass::Straddling
        } else if seen[INSIDE as usize] {
            BoxClass::Inside
        } else {
            BoxClass::Outside
        }
    }

    fn resolves_boundary(&self) -> bool {
        self.inner.resolves_boundary()
    }
}

/// What Bridson's loop asks of its region besides [`Region`]: whether the whole shell of
/// candidates around a point is inside, so that they need no test. The whole box answers
/// from the centre's distance to its faces (once built with the shell's reach), a shape from
/// its table's deep cells.
pub(crate) trait ShellRegion<const D: usize>: Region<D> {
    /// Whether every point within the prepared reach of `centre` is inside.
    #[inline(always)]
    fn holds_shell(&self, _centre: &Point<D>) -> bool {
        false
    }
}

impl<const D: usize> ShellRegion<D> for Shape<D> {
    #[inline(always)]
    fn holds_shell(&self, centre: &Point<D>) -> bool {
        Shape::holds_shell(self, centre)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::region::{Ball, BoxRegion};
    use crate::rng::{rng_from_seed, uniform01};

    /// A shell the table says is deep inside is inside: random points within the reach of
    /// random centres the deep bits accept all lie in the region (a ball with a hole, so the
    /// deep cells border the hole too); and the deep bits do accept most of the interior.
    #[test]
    fn deep_shells_lie_inside() {
        let domain = Domain::from_origin_and_extent([-1.0, -1.0], [2.0, 2.0]).unwrap();
        let ring = crate::region::Difference::new(
            Ball::new([0.1, -0.2], 0.7).unwrap(),
            Ball::new([0.2, -0.1], 0.2).unwrap(),
        );
        let region: Arc<dyn Region<2>> = Arc::new(ring);
        let reach = 0.02;
        let shape = Shape::new(Arc::clone(&region), &domain).unwrap().with_shell(reach);
        let mut rng = rng_from_seed(5);
        let (mut deep, mut inside) = (0, 0);
        for _ in 0..100_000 {
            let c = domain.uniform_point(&mut rng);
            inside += usize::from(region.contains(&c));
            if !shape.holds_shell(&c) {
                continue;
            }
            deep += 1;
            for _ in 0..8 {
                let p = [
                    c[0] + reach * (2.0 * uniform01(&mut rng) - 1.0),
                    c[1] + reach * (2.0 * uniform01(&mut rng) - 1.0),
                ];
                assert!(region.contains(&p), "{p:?} near deep {c:?} is outside");
            }
        }
        assert!(deep as f64 > 0.8 * inside as f64, "{deep} deep of {inside} inside");
    }

    #[test]
    fn the_table_answers_as_the_region_does() {
        let domain = Domain::from_origin_and_extent([-1.0, -1.0], [2.0, 2.0]).unwrap();
        let ball: Arc<dyn Region<2>> = Arc::new(Ball::new([0.1, -0.2], 0.7).unwrap());
        let shape = Shape::new(Arc::clone(&ball), &domain).unwrap();
        assert!(shape.inside_cells > 0 && shape.straddling_cells > 0);
        let mut rng = rng_from_seed(1);
        for _ in 0..200_000 {
            let p = domain.uniform_point(&mut rng);
            assert_eq!(shape.contains(&p), ball.contains(&p), "{p:?}");
        }
        // Points on cell faces.
        for k in 0..=1024 {
            let x = shape.origin[0] + k as f64 * shape.side[0];
            let p = [x, -0.2 + 0.7 * (uniform01(&mut rng) - 0.5)];
            assert_eq!(shape.contains(&p), ball.contains(&p), "{p:?}");
        }
    }

    #[test]
    fn regions_that_miss_the_domain_or_are_empty_are_refused() {
        let domain = Domain::<2>::unit();
        let far: Arc<dyn Region<2>> = Arc::new(BoxRegion::new([2.0, 2.0], [3.0, 3.0]).unwrap());
        assert!(matches!(Shape::new(far, &domain), Err(Error::RegionOutsideDomain { .. })));
        let torus = Domain::<2>::unit().periodic();
        let ball: Arc<dyn Region<2>> = Arc::new(Ball::new([0.5, 0.5], 0.2).unwrap());
        assert_eq!(Shape::new(ball, &torus).unwrap_err(), Error::PeriodicRegion);
    }

    /// The table is cut across thin boxes too, never past its cell count, and as before for
    /// boxes that are not thin.
    #[test]
    fn table_cells_cut_thin_boxes_across() {
        assert_eq!(table_cells(&[1.0, 1.0]), [1024, 1024]);
        assert_eq!(table_cells(&[1000.0, 0.001]), [16384, 64]);
        assert_eq!(table_cells(&[0.001, 1000.0]), [64, 16384]);
        assert_eq!(table_cells(&[1.0]), [TABLE_CELLS]);
        fn check<const D: usize>(extent: [f64; D]) {
            let cells = table_cells(&extent);
            let total: usize = cells.iter().product();
            assert!((TABLE_CELLS / 4..=TABLE_CELLS).contains(&total), "{extent:?}: {cells:?}");
            assert!(cells.iter().all(|&c| c >= 1));
        }
        for thin in [1.0, 1e-3, 1e-9, 1e-60] {
            check([1.0, thin, 1.0]);
            check([thin, thin, 1.0]);
            check([1.0, thin, thin, 1.0]);
            check([1.0, 1.0, 1.0, 1.0, thin, 1.0, 1.0, thin]);
        }
    }
}
