//! What a surface sampler returns: points with the face and barycentric coordinates each
//! lies at, from which normals and texture coordinates follow.

use super::mesh::SurfaceMesh;
use crate::point::Point;
use crate::rng::rng_from_seed;
use crate::sampler::StopReason;

/// Points on a surface, each with the triangle it lies on and its barycentric coordinates
/// there: `points[k] == mesh.point_at(faces[k], barycentrics[k])` to the last bit.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SurfacePoints {
    /// The points, in the order they were placed (for sample elimination with the
    /// progressive order, every prefix is well spread).
    pub points: Vec<Point<3>>,
    /// The triangle (index into the mesh's triangles) each point lies on.
    pub faces: Vec<u32>,
    /// Each point's barycentric coordinates `[b0, b1, b2]` on its triangle (summing to 1).
    pub barycentrics: Vec<[f64; 3]>,
    /// Each point's radius, when the radius follows a density; `None` for one radius.
    pub radii: Option<Vec<f64>>,
    /// Why sampling stopped: [`StopReason::Exhausted`] for a maximal fill (no room left),
    /// [`StopReason::TargetReached`] for a count, [`StopReason::PointLimit`] at the limit.
    pub stop: StopReason,
    /// Darts or candidates drawn: the work done.
    pub attempts: u64,
    /// Pieces of surface a maximal fill gave up on, neither proven covered nor given a
    /// point: pieces at the deepest subdivision, or, for [`SurfaceFill::Boundary`], arcs of
    /// about 10⁻⁶ of a turn where rounding kept a point out, and triangles too thin to frame
    /// (0 in every run measured; see docs/algorithms.md, "On surfaces").
    ///
    /// [`SurfaceFill::Boundary`]: super::SurfaceFill::Boundary
    pub unresolved: u64,
}

impl SurfacePoints {
    /// `n` points uniform over the surface's area ([`SurfaceMesh::random_point`]), with
    /// [`rng_from_seed`]`(seed)`: white noise, the baseline a blue-noise set is read
    /// against.
    ///
    /// ```
    /// use poisson_nd::surface::{SurfaceMesh, SurfacePoints};
    /// let square = SurfaceMesh::new(
    ///     vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]],
    ///     vec![[0, 1, 2], [0, 2, 3]],
    /// )?;
    /// let noise = SurfacePoints::uniform(&square, 100, 1);
    /// assert_eq!(noise.len(), 100);
    /// assert_eq!(noise.points[7], square.point_at(noise.faces[7] as usize, noise.barycentrics[7]));
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn uniform(mesh: &SurfaceMesh, n: usize, seed: u64) -> SurfacePoints {
        let mut rng = rng_from_seed(seed);
        let (drawn, _) = mesh.random_points(n, &mut rng);
        SurfacePoints::at(mesh, drawn, StopReason::TargetReached, n as u64)
    }

    /// The points at these places (face, barycentrics) of `mesh`, in order.
    pub(crate) fn at(
        mesh: &SurfaceMesh,
        places: Vec<(usize, [f64; 3])>,
        stop: StopReason,
        attempts: u64,
    ) -> SurfacePoints {
        SurfacePoints {
            points: places.iter().map(|&(f, b)| mesh.point_at(f, b)).collect(),
            faces: places.iter().map(|&(f, _)| f as u32).collect(),
            barycentrics: places.into_iter().map(|(_, b)| b).collect(),
            radii: None,
            stop,
            attempts,
            unresolved: 0,
        }
    }

    /// Number of points.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }

    /// Each point's unit normal: the mesh's vertex normals interpolated when it has them,
    /// else the face normal (see [`SurfaceMesh::normal_at`]).
    pub fn normals(&self, mesh: &SurfaceMesh) -> Vec<[f64; 3]> {
        self.faces
            .iter()
            .zip(&self.barycentrics)
            .map(|(&f, &b)| mesh.normal_at(f as usize, b))
            .collect()
    }

    /// Each point's texture coordinates, when the mesh has them.
    pub fn uvs(&self, mesh: &SurfaceMesh) -> Option<Vec<[f64; 2]>> {
        mesh.uvs()?;
        self.faces
            .iter()
            .zip(&self.barycentrics)
            .map(|(&f, &b)| mesh.uv_at(f as usize, b))
            .collect()
    }
}
