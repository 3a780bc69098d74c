//! Points on triangle surfaces: the skin of a character, a mesh terrain, a scanned part.
//!
//! - [`SurfaceMesh`]: any triangle mesh (open or closed, several pieces, any genus,
//!   non-manifold edges), degenerate triangles counted and ignored, with optional vertex
//!   normals and UVs;
//! - [`SurfacePoisson`]: a maximal Poisson-disk fill at a radius, or at a radius that follows
//!   a [`SurfaceDensity`] (per vertex, or a texture through the UVs);
//! - [`SurfaceElimination`]: exactly N well-spread points, optionally progressive;
//! - [`SurfacePoints`]: the points with their face and barycentric coordinates, from which
//!   normals and UVs follow;
//! - [`SurfaceMesh::nearest`]: the point of the surface nearest to a point in space
//!   ([`Nearest`]: face, barycentrics, distance).
//!
//! Distances are **Euclidean in 3D**, as in every peer (Open3D, CGAL, trimesh, Blender):
//! geodesic distance along the surface is not what "no two points closer than r" means here.
//! The arguments for maximality and for the elimination's constants are in
//! docs/algorithms.md ("On surfaces").
//!
//! ```
//! use poisson_nd::surface::{SurfaceElimination, SurfaceMesh, SurfacePoisson};
//! // A tetrahedron's surface.
//! let vertices = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
//! let mesh = SurfaceMesh::new(vertices, vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]])?;
//! let fill = SurfacePoisson::new(mesh.clone(), 0.1)?.fill_seeded(1);
//! let exact = SurfaceElimination::new(mesh.clone()).sample_seeded(200, 1);
//! assert_eq!(exact.len(), 200);
//! for (k, p) in fill.points.iter().enumerate() {
//!     assert_eq!(*p, mesh.point_at(fill.faces[k] as usize, fill.barycentrics[k]));
//! }
//! # Ok::<(), poisson_nd::Error>(())
//! ```

mod elimination;
mod fill;
mod mesh;
mod nearest;
mod points;
mod radius;
mod walk;

pub use elimination::SurfaceElimination;
pub use fill::{FRONT_ATTEMPTS, SurfaceFill, SurfacePoisson};
pub use mesh::{SurfaceMesh, triangle_area};
pub use nearest::Nearest;
pub use points::SurfacePoints;
pub use radius::SurfaceDensity;
