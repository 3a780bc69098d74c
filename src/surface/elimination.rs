//! Exactly N points on a surface by weighted sample elimination.

use super::mesh::SurfaceMesh;
use super::points::SurfacePoints;
use crate::config::check_point_limit;
use crate::defaults::{ELIMINATION_RATIO, MAX_POINTS};
use crate::error::Error;
use crate::limits::elimination_candidates;
use crate::rng::rng_from_seed;
use crate::samplers::sample_elimination::{Elimination, count_within};
use rand::Rng;
use std::sync::Arc;

/// Exactly `n` well-spread points on a triangle surface: weighted sample elimination
/// (Yuksel 2015) of `ratio · n` candidates drawn uniformly over the surface's area.
///
/// The library's sample elimination ([`SampleElimination`](crate::SampleElimination)) run
/// on the candidates, with the paper's r_max for a **2-manifold**: r_max = √(A / (2√3·n)),
/// A the surface's area (as Yuksel's code does with its `dimensions` parameter set to 2);
/// neighbours within 2·r_max by Euclidean distance in 3D, found in a grid that keeps only
/// the cells the surface passes through. Exactly `n` points every time (up to the point
/// limit, which bounds the candidates too); with [`with_progressive`](Self::with_progressive) every prefix is itself well
/// spread. [`SurfacePoints::attempts`] counts the candidates.
///
/// ```
/// use poisson_nd::surface::{SurfaceElimination, SurfaceMesh};
/// let square = SurfaceMesh::new(
///     vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]],
///     vec![[0, 1, 2], [0, 2, 3]],
/// )?;
/// let points = SurfaceElimination::new(square).sample_seeded(500, 1);
/// assert_eq!(points.len(), 500);
/// assert_eq!(points.attempts, 2500);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SurfaceElimination {
    mesh: Arc<SurfaceMesh>,
    ratio: f64,
    progressive: bool,
    max_points: usize,
}

impl SurfaceElimination {
    /// Elimination on `mesh` with [`ELIMINATION_RATIO`] candidates per point, in the order
    /// drawn, and the point limit [`MAX_POINTS`].
    pub fn new(mesh: impl Into<Arc<SurfaceMesh>>) -> Self {
        SurfaceElimination {
            mesh: mesh.into(),
            ratio: ELIMINATION_RATIO,
            progressive: false,
            max_points: MAX_POINTS,
        }
    }

    /// Sets the candidates per output point (finite, at least 1).
    ///
    /// Errors: a ratio that is not finite and at least 1 ([`Error::InvalidParameter`]).
    pub fn with_ratio(mut self, ratio: f64) -> Result<Self, Error> {
        crate::limits::check_elimination_ratio(ratio)?;
        self.ratio = ratio;
        Ok(self)
    }

    /// With `true`, orders the output so that every prefix is well spread.
    #[must_use]
    pub fn with_progressive(mut self, progressive: bool) -> Self {
        self.progressive = progressive;
        self
    }

    /// Sets the point limit (between 1 and 2^31 − 1), which bounds the candidates as well as
    /// the output: an `n` whose [`candidates`](Self::candidates) pass it gives the most points
    /// whose candidates fit, with [`StopReason::PointLimit`](crate::StopReason::PointLimit).
    ///
    /// Errors: a limit out of range.
    pub fn with_max_points(mut self, max_points: usize) -> Result<Self, Error> {
        check_point_limit(max_points)?;
        self.max_points = max_points;
        Ok(self)
    }

    /// How many candidates `n` points are eliminated from: ⌈ratio · n⌉, at least `n`
    /// ([`elimination_candidates`]). Each takes about 100 bytes at the peak of a run.
    pub fn candidates(&self, n: usize) -> usize {
        elimination_candidates(self.ratio, n)
    }

    /// Candidates per output point.
    pub fn ratio(&self) -> f64 {
        self.ratio
    }

    /// The surface.
    pub fn mesh(&self) -> &Arc<SurfaceMesh> {
        &self.mesh
    }

    /// `n` points with [`rng_from_seed`]`(seed)`.
    pub fn sample_seeded(&self, n: usize, seed: u64) -> SurfacePoints {
        self.sample(n, &mut rng_from_seed(seed))
    }

    /// `n` points (fewer at the point limit, see [`with_max_points`](Self::with_max_points)).
    pub fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> SurfacePoints {
        let (count, stop) = count_within(self.ratio, n, self.max_points);
        let mesh = &*self.mesh;
        if count == 0 {
            return SurfacePoints::at(mesh, Vec::new(), stop, 0);
        }
        let m = elimination_candidates(self.ratio, count);
        let (drawn, candidates) = mesh.random_points(m, rng);
        let elimination = Elimination {
            grid_box: *mesh.margin_box(),
            measure: mesh.area(),
            dims: 2,
            sparse: true,
        };
        let order = elimination.order(&candidates, count, self.progressive);
        let kept = order.iter().map(|&k| drawn[k as usize]).collect();
        SurfacePoints::at(mesh, kept, stop, m as u64)
    }
}
