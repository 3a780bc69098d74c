//! Lloyd relaxation towards a centroidal Voronoi tessellation, with exact cells, in a 2D box.

use crate::config::{Builder, Capabilities};
use crate::defaults;
use crate::domain::Domain;
use crate::error::Error;
use crate::geometry::delaunay2::{Cell, Circle, Frame, Replicated, Widen};
use crate::point::Point;
use crate::sampler::{PointSet, Sampler, StopReason};
use crate::samplers::white_noise::uniform_start;
use rand::Rng;

/// Lloyd relaxation (Lloyd 1982, "Least squares quantization in PCM"): `n` white-noise points
/// each moved, every iteration, to the centroid of its Voronoi cell — the descent towards a
/// centroidal Voronoi tessellation (CVT), whose points are evenly spread and nearly
/// hexagonal after enough iterations.
///
/// The cells are exact: polygons read from the Delaunay triangulation's circumcentres, their
/// areas and centroids by the shoelace formulas. In a periodic box the cells are the torus's
/// (translated replicas around the box); in a closed box the points are mirrored across the
/// faces, so each cell is clipped to the box by the mirror bisector, the face itself, and the
/// cells tile the box exactly. The replicas lie in a band widened until every cell is certain
/// (the argument is in the triangulation's module docs). Every iteration lowers, or keeps, the
/// CVT energy `Σ ∫_cell |x − p|² dx`. Work is done in unit coordinates, so any box from 1e-100
/// to 1e100 works; its longest side may be at most 16 times its shortest.
///
/// Two dimensions only (other `D` are refused by `build`), no region. Exactly `n` points (up
/// to the point limit), in the half-open box, the same for the same seed bit for bit. Points
/// that coincide share one cell: the first of them (by index) moves to its centroid, the
/// others stay that iteration, which separates them. Cost: O(n log n) per iteration (the
/// triangulation is rebuilt each time). [`Lloyd::relax`] relaxes points of your own and
/// [`Lloyd::voronoi_cells`] gives the cells.
///
/// ```
/// use poisson_nd::{Domain, Lloyd, Sampler};
/// let domain = Domain::<2>::unit();
/// let set = Lloyd::builder(domain).with_iterations(30).build()?.sample_seeded(200, 5);
/// assert_eq!(set.len(), 200);
/// // The cells of the relaxed points tile the box.
/// let cells = Lloyd::voronoi_cells(&domain, &set.points)?;
/// let area: f64 = cells.iter().map(|c| c.area).sum();
/// assert!((area - 1.0).abs() < 1e-12);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Lloyd<const D: usize> {
    domain: Domain<D>,
    iterations: u32,
    max_points: usize,
}

/// Lloyd relaxation's own options, beside the shared settings of its [`Builder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LloydOptions {
    iterations: u32,
}

impl Default for LloydOptions {
    fn default() -> Self {
        LloydOptions { iterations: defaults::LLOYD_ITERATIONS }
    }
}

/// The configuration of a [`Lloyd`] sampler before it is checked: the point limit and the
/// number of iterations.
pub type LloydBuilder<const D: usize> = Builder<D, LloydOptions>;

impl<const D: usize> Builder<D, LloydOptions> {
    /// Sets the number of iterations, each moving every point to its cell's centroid
    /// (default [`defaults::LLOYD_ITERATIONS`]); 0 gives the white-noise start.
    #[must_use]
    pub fn with_iterations(mut self, iterations: u32) -> Self {
        self.options.iterations = iterations;
        self
    }

    /// Checks the configuration. Errors: a dimension other than 2; a box whose longest side
    /// is more than 16 times its shortest; a region; a point limit of 0 or above
    /// 2147483647.
    pub fn build(self) -> Result<Lloyd<D>, Error> {
        let checked = self.config.check("lloyd", &Lloyd::<D>::CAPABILITIES)?;
        Frame::new(&checked.domain, "dimension (Lloyd)")?;
        Ok(Lloyd {
            domain: checked.domain,
            iterations: self.options.iterations,
            max_points: checked.max_points,
        })
    }
}

/// A point's Voronoi cell in a box (the part of the box nearer to it than to any other point,
/// on the torus when the box is periodic): from [`Lloyd::voronoi_cells`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct VoronoiCell<const D: usize> {
    /// The polygon's corners, counter-clockwise around the point. In a periodic box they are
    /// not wrapped: the polygon may reach past the box's faces, around the point. Empty for a
    /// point that coincides with an earlier one (the earlier one holds the cell).
    pub vertices: Vec<Point<D>>,
    /// The cell's area (0 for an empty cell).
    pub area: f64,
    /// The cell's centroid, in the half-open box (wrapped when periodic); the point itself
    /// for an empty cell.
    pub centroid: Point<D>,
}

impl<const D: usize> Lloyd<D> {
    /// What Lloyd relaxation supports: closed and periodic 2D boxes, no region.
    pub const CAPABILITIES: Capabilities = Capabilities {
        min_dimension: 2,
        max_dimension: 2,
        region: false,
        ..Capabilities::COUNT_DRIVEN
    };

    /// Lloyd relaxation in `domain` with every default. Errors as [`build`](Builder::build).
    pub fn new(domain: Domain<D>) -> Result<Self, Error> {
        Self::builder(domain).build()
    }

    /// The configuration of Lloyd relaxation in `domain`; set what you need, then
    /// [`build`](Builder::build).
    pub fn builder(domain: Domain<D>) -> LloydBuilder<D> {
        Builder::from_defaults(domain, None, LloydOptions::default())
    }

    /// This sampler's configuration, to change and build again.
    pub fn to_builder(&self) -> LloydBuilder<D> {
        Self::builder(self.domain).with_max_points(self.max_points).with_iterations(self.iterations)
    }

    /// The number of iterations.
    pub fn iterations(&self) -> u32 {
        self.iterations
    }

    /// `points` after `iterations` Lloyd iterations in `domain` (one attempt per point,
    /// [`StopReason::TargetReached`]). Errors: a dimension other than 2; a box whose longest
    /// side is more than 16 times its shortest; a coordinate that is not finite or a point
    /// outside the half-open box; more than 2147483647 points.
    ///
    /// ```
    /// use poisson_nd::{Domain, Lloyd};
    /// let domain = Domain::<2>::unit();
    /// // Two points in a closed square settle where each owns half of it.
    /// let set = Lloyd::relax(domain, vec![[0.1, 0.5], [0.2, 0.5]], 100)?;
    /// assert!((set.points[0][0] - 0.25).abs() < 1e-9 && (set.points[1][0] - 0.75).abs() < 1e-9);
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn relax(
        domain: Domain<D>,
        points: Vec<Point<D>>,
        iterations: u32,
    ) -> Result<PointSet<D>, Error> {
        let frame = Frame::new(&domain, "dimension (Lloyd)")?;
        let unit = frame.unit_points(&points)?;
        let moved = relax_unit(frame, unit, iterations);
        let points = moved.into_iter().map(|q| frame.user_of(q)).collect();
        Ok(PointSet::new_unrejected(points, domain, StopReason::TargetReached))
    }

    /// The Voronoi cells of `points` in `domain`, in the order of the points. Errors as
    /// [`Lloyd::relax`].
    pub fn voronoi_cells(
        domain: &Domain<D>,
        points: &[Point<D>],
    ) -> Result<Vec<VoronoiCell<D>>, Error> {
        let frame = Frame::new(domain, "dimension (Lloyd)")?;
        let unit = frame.unit_points(points)?;
        if unit.is_empty() {
            return Ok(Vec::new());
        }
        let mut set = Replicated::new(frame, unit);
        Ok(cells(&mut set)
            .into_iter()
            .map(|cell| VoronoiCell {
                vertices: cell.polygon.iter().map(|&q| frame.user_of_unwrapped(q)).collect(),
                area: frame.user_area(cell.area),
                centroid: frame.user_of(frame.in_box(cell.centroid)),
            })
            .collect())
    }
}

/// Every site's cell, the band widened until all are certain.
fn cells(set: &mut Replicated) -> Vec<Cell> {
    let mut circles: Vec<Circle> = Vec::new();
    loop {
        let cells: Result<Vec<Cell>, Widen> =
            (0..set.len()).map(|i| set.cell(i, &mut circles)).collect();
        match cells {
            Ok(cells) => return cells,
            Err(Widen) => set.widen(),
        }
    }
}

/// `unit` (unit coordinates) after `iterations` iterations.
fn relax_unit(frame: Frame, unit: Vec<[f64; 2]>, iterations: u32) -> Vec<[f64; 2]> {
    if unit.is_empty() || iterations == 0 {
        return unit;
    }
    let mut set = Replicated::new(frame, unit);
    for iteration in 0..iterations {
        let centroids: Vec<[f64; 2]> =
            cells(&mut set).iter().map(|cell| frame.in_box(cell.centroid)).collect();
        if iteration + 1 == iterations {
            return centroids;
        }
        set.reset(centroids);
    }
    set.positions().to_vec()
}

impl<const D: usize> Sampler<D> for Lloyd<D> {
    fn name(&self) -> &'static str {
        "lloyd"
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D> {
        let (points, stop) = uniform_start(&self.domain, n, self.max_points, rng);
        match Lloyd::relax(self.domain, points.clone(), self.iterations) {
            Ok(set) => PointSet::new_unrejected(set.points, self.domain, stop),
            // Not reached: `build` checked the box and the points are in it.
            Err(_) => PointSet::new_unrejected(points, self.domain, stop),
        }
    }
}
