//! Jittered (stratified) sampling: one uniform point in each cell of a regular grid.

use crate::config::{Builder, Capabilities};
use crate::defaults;
use crate::domain::{Domain, cubic_cells};
use crate::error::Error;
use crate::point::Point;
use crate::region::shape::probes_per_axis;
use crate::region::shape::{SamplerRegion, Shape, for_lattice};
use crate::region::{BoxClass, Region};
use crate::rng::uniform01;
use crate::sampler::{PointSet, Sampler, StopReason};
use rand::Rng;

/// Jittered grid sampling (Cook 1986, "Stochastic sampling in computer graphics"; stratified
/// sampling): the box is cut into `m_0 × m_1 × … × m_{D−1}` equal cells and each cell gets
/// one point, uniform inside it.
///
/// **The count is the number of cells**, the largest the rule below finds that does not
/// exceed `n`; it may be smaller than `n` (300 in the unit square gives 17 × 17 = 289).
/// `n = 0` gives no points, `n = 1` one point uniform in the whole box.
/// The cells per axis for `n` points ([`grid_shape`](Self::grid_shape)):
/// 1. cubes of side `s`: an axis shorter than `s` gets one cell, and `s` is chosen so that on
///    the other axes the ideal counts `a_i = L_i / s` multiply to `n` (with every side at
///    least `s`, simply `s = (V/n)^(1/D)`);
/// 2. start from `m_i = max(1, ⌊a_i⌋)`, so `Π m_i ≤ n`;
/// 3. while one more cell on some axis keeps `Π m_i ≤ n`, add it to the axis, among those,
///    with the smallest `m_i / a_i` (the coarsest relative to cubic cells); ties go to the
///    lower axis.
///
/// So cells stay close to cubes, and the count is maximal in the sense that no single axis can
/// take another cell; it is not always the divisor of the box closest to `n`.
///
/// Points come cell by cell with **the first axis varying fastest** (x, then y, ...); each
/// draws its coordinates from the generator in axis order. A periodic box needs nothing
/// special: the cells tile the torus, and the points equal those of the closed box.
///
/// Guarantees: every point lies in its cell and in the box (a coordinate that rounds onto the
/// upper face is moved one float down), exactly one point per cell; O(n·D) time. There is
/// **no minimum distance**: points of neighbouring cells can be arbitrarily close.
///
/// **In a region** ([`with_region`](Builder::with_region)) the grid is laid over the part of the
/// box the region's bounding box covers, and a cell *takes part* when it holds a point of the
/// region (its centre when the cell is wholly inside, else one of a lattice of probes). The
/// grid is the smallest, by the rule above applied to counts c = n, 2n, 4n, … and then
/// bisected, whose taking-part cells number `K ≥ n`; `n` of them are chosen by systematic
/// sampling along the cell order (cell `⌊(j + u)·K/n⌋` for `j < n`, one uniform `u`), and each
/// gets one point uniform in its part of the region (by rejection within the cell, up to 64
/// draws, then the point found when the cell was tested). So a region gives **exactly `n`
/// points**, one per chosen cell. A cell the boundary cuts holds less of the region than a
/// whole one but still gets a point when chosen, so the density is a little higher along the
/// boundary (by at most the share of cut cells). [`PointSet::attempts`] counts the draws.
///
/// ```
/// use poisson_nd::{Domain, JitteredGrid, Sampler};
/// let domain = Domain::from_origin_and_extent([0.0, 0.0], [2.0, 1.0])?;
/// let jittered = JitteredGrid::new(domain);
/// assert_eq!(jittered.grid_shape(200), [20, 10]);
/// let set = jittered.sample_seeded(200, 42);
/// assert_eq!(set.len(), 200);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct JitteredGrid<const D: usize> {
    domain: Domain<D>,
    max_points: usize,
    region: SamplerRegion<D>,
}

/// A jittered grid's own options: none beyond the shared settings of its [`Builder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct JitteredGridOptions;

/// The configuration of a [`JitteredGrid`] before it is checked: a region (one point in
/// each of `n` cells that meet it: exactly `n` points) and the point limit.
pub type JitteredGridBuilder<const D: usize> = Builder<D, JitteredGridOptions>;

impl<const D: usize> Builder<D, JitteredGridOptions> {
    /// Checks the configuration. Errors: a point limit of 0 or above 2147483647; with a
    /// region, a periodic domain, a region that misses the domain's box, or one with no point
    /// found in it.
    ///
    /// ```
    /// use poisson_nd::region::{Ball, Region};
    /// use poisson_nd::{Domain, JitteredGrid, Sampler};
    /// let disc = Ball::new([0.5, 0.5], 0.45)?;
    /// let jittered = JitteredGrid::builder(Domain::<2>::unit()).with_region(disc).build()?;
    /// let set = jittered.sample_seeded(300, 4);
    /// assert_eq!(set.len(), 300);
    /// assert!(set.points.iter().all(|p| disc.contains(p)));
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn build(self) -> Result<JitteredGrid<D>, Error> {
        let checked = self.config.check("jittered-grid", &JitteredGrid::<D>::CAPABILITIES)?;
        Ok(JitteredGrid {
            domain: checked.domain,
            max_points: checked.max_points,
            region: checked.region,
        })
    }
}

/// Draws per chosen cell of a region before its probe point is taken instead.
const DRAWS_PER_CELL: usize = 64;

impl<const D: usize> JitteredGrid<D> {
    /// What a jittered grid supports: regions, any box and dimension.
    pub const CAPABILITIES: Capabilities = Capabilities::COUNT_DRIVEN;

    /// A jittered grid in `domain` with every default.
    pub fn new(domain: Domain<D>) -> Self {
        JitteredGrid { domain, max_points: defaults::MAX_POINTS, region: SamplerRegion::Whole }
    }

    /// The configuration of a jittered grid in `domain`; set what you need, then
    /// [`build`](Builder::build).
    pub fn builder(domain: Domain<D>) -> JitteredGridBuilder<D> {
        Builder::from_defaults(domain, None, JitteredGridOptions)
    }

    /// This sampler's configuration, to change and build again.
    pub fn to_builder(&self) -> JitteredGridBuilder<D> {
        let mut builder = Self::builder(self.domain).with_max_points(self.max_points);
        builder.config.region = self.region.user_region();
        builder
    }

    /// The cells per axis used for `n` points (see the rule above); all zero for `n = 0`.
    pub fn grid_shape(&self, n: usize) -> [usize; D] {
        if n == 0 {
            return [0; D];
        }
        let extent = self.domain.extent();
        let (mut cells, side) = cubic_cells(extent, n);
        let ideal: [f64; D] = std::array::from_fn(|i| extent[i] / side);
        let product = |cells: &[usize; D]| -> u128 {
            cells.iter().fold(1u128, |p, &m| p.saturating_mul(m as u128))
        };
        let target = n as u128;
        // The relative resolution of an axis: above 1 it has more cells than cubic ones.
        let ratio = |cells: &[usize; D], i: usize| cells[i] as f64 / ideal[i];
        // Only rounding in the cube side can put the start above n.
        while product(&cells) > target {
            let Some(axis) = (0..D)
                .filter(|&i| cells[i] > 1)
                .max_by(|&a, &b| ratio(&cells, a).total_cmp(&ratio(&cells, b)).then(b.cmp(&a)))
            else {
                break; // all ones: product 1 ≤ n
            };
            cells[axis] -= 1;
        }
        loop {
            let total = product(&cells);
            let Some(axis) = (0..D)
                .filter(|&i| (total / cells[i] as u128) * (cells[i] as u128 + 1) <= target)
                .min_by(|&a, &b| ratio(&cells, a).total_cmp(&ratio(&cells, b)).then(a.cmp(&b)))
            else {
                return cells;
            };
            cells[axis] += 1;
        }
    }
}

impl<const D: usize> Sampler<D> for JitteredGrid<D> {
    fn name(&self) -> &'static str {
        "jittered-grid"
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D> {
        let capped = n.min(self.max_points);
        let stop = if capped == n { StopReason::TargetReached } else { StopReason::PointLimit };
        if let SamplerRegion::Shape(shape) = &self.region {
            let (points, complete, attempts) = in_shape(shape, capped, rng);
            let stop = if complete { stop } else { StopReason::Exhausted };
            return PointSet::new(points, self.domain, stop, attempts);
        }
        let cells = self.grid_shape(capped);
        // At most `capped` cells by construction.
        let count: usize = if capped == 0 { 0 } else { cells.iter().product() };
        let origin = self.domain.origin();
        let extent = self.domain.extent();
        let side: [f64; D] = std::array::from_fn(|i| extent[i] / cells[i].max(1) as f64);
        let mut cell = [0usize; D];
        let mut points: Vec<Point<D>> = Vec::with_capacity(count);
        for _ in 0..count {
            points.push(std::array::from_fn(|i| {
                let upper = origin[i] + extent[i];
                let x = origin[i] + (cell[i] as f64 + uniform01(rng)) * side[i];
                if x < upper { x } else { upper.next_down() }
            }));
            // Next cell, first axis fastest.
            for i in 0..D {
                cell[i] += 1;
                if cell[i] < cells[i] {
                    break;
                }
                cell[i] = 0;
            }
        }
        PointSet::new_unrejected(points, self.domain, stop)
    }
}

/// The cells of a grid over `shape`'s box, `cells` per axis, that hold a point of the region,
/// in cell order (axis 0 fastest), each with that point.
fn cells_in_shape<const D: usize>(
    shape: &Shape<D>,
    cells: &[usize; D],
) -> Vec<(Point<D>, Point<D>)> {
    let sampling = shape.sampling();
    let (origin, extent) = (sampling.origin(), sampling.extent());
    let side: [f64; D] = std::array::from_fn(|i| extent[i] / cells[i] as f64);
    let probes = probes_per_axis(D);
    let mut found = Vec::new();
    let mut at = [0usize; D];
    let total: usize = cells.iter().product();
    for _ in 0..total {
        let lower: Point<D> = std::array::from_fn(|i| origin[i] + at[i] as f64 * side[i]);
        let upper: Point<D> = std::array::from_fn(|i| origin[i] + (at[i] + 1) as f64 * side[i]);
        let witness = match shape.classify_box(&lower, &upper) {
            BoxClass::Outside => None,
            BoxClass::Inside => Some(std::array::from_fn(|i| 0.5 * (lower[i] + upper[i]))),
            BoxClass::Straddling => {
                let mut hit = None;
                for_lattice::<D>(probes, |offsets| {
                    let p: Point<D> = std::array::from_fn(|i| lower[i] + offsets[i] * side[i]);
                    let inside = shape.contains_box_point(&p);
                    if inside {
                        hit = Some(p);
                    }
                    inside
                });
                hit
            }
        };
        if let Some(w) = witness.filter(|w| shape.contains_box_point(w)) {
            found.push((lower, w));
        }
        for i in 0..D {
            at[i] += 1;
            if at[i] < cells[i] {
                break;
            }
            at[i] = 0;
        }
    }
    found
}

/// `count` points of a jittered grid in `shape` (see [`JitteredGrid`]); whether all were
/// placed (a grid with enough cells was found), and the draws.
fn in_shape<const D: usize, R: Rng + ?Sized>(
    shape: &Shape<D>,
    count: usize,
    rng: &mut R,
) -> (Vec<Point<D>>, bool, u64) {
    if count == 0 {
        return (Vec::new(), true, 0);
    }
    let over_box = JitteredGrid::new(*shape.sampling());
    let taking_part = |c: usize| {
        let cells = over_box.grid_shape(c);
        (cells, cells_in_shape(shape, &cells))
    };
    // The smallest grid (by the count rule) with at least `count` cells in the region: double
    // until there are enough, then bisect between the last two counts.
    // Never more cells than 64 per point or 2^24, whichever is larger: a region too thin
    // for that many cells to meet it n times gets fewer points (exhausted), not a long wait.
    let limit = count.saturating_mul(64).max(1 << 24);
    let (mut low, mut high) = (0usize, count);
    let mut best = taking_part(high);
    while best.1.len() < count {
        if high.saturating_mul(2) > limit {
            break;
        }
        low = high;
        high *= 2;
        best = taking_part(high);
    }
    if best.1.len() >= count {
        while high - low > 1 {
            let middle = low + (high - low) / 2;
            let trial = taking_part(middle);
            if trial.1.len() >= count {
                high = middle;
                best = trial;
            } else {
                low = middle;
            }
        }
    }
    let (cells, found) = best;
    let sampling = shape.sampling();
    let side: [f64; D] = std::array::from_fn(|i| sampling.extent()[i] / cells[i] as f64);
    let chosen = count.min(found.len());
    let u = uniform01(rng);
    let mut points = Vec::with_capacity(chosen);
    let mut draws = 0u64;
    for j in 0..chosen {
        // Systematic sampling: distinct cells, since found.len() ≥ chosen.
        let k =
            (((j as f64 + u) * found.len() as f64 / chosen as f64) as usize).min(found.len() - 1);
        let (lower, witness) = &found[k];
        let mut point = *witness;
        for _ in 0..DRAWS_PER_CELL {
            draws += 1;
            let p: Point<D> = std::array::from_fn(|i| lower[i] + side[i] * uniform01(rng));
            if shape.contains_box_point(&p) {
                point = p;
                break;
            }
        }
        points.push(point);
    }
    (points, chosen == count, draws)
}
