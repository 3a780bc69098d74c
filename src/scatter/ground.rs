//! What a scatter's classes stand on: a heightmap, or the top surface of a triangle mesh.

use super::mesh_terrain::MeshTerrain;
use super::rules::PlacementRules;
use super::terrain::{Surface, Terrain};
use crate::domain::Domain;
use crate::error::Error;
use crate::region::BoxClass;

/// The ground of a [`Scatter`](super::Scatter): a [`Terrain`] (a heightmap, ground
/// everywhere over its rectangle) or a [`MeshTerrain`] (ground where the mesh's top surface
/// faces up). Both give the height, normal and slope the placement rules read; distances are
/// measured in the ground plane `(x, z)` on either.
#[derive(Debug, Clone)]
pub enum Ground {
    /// A heightmap over `[0, Lx) × [0, Lz)`.
    Heightmap(Terrain),
    /// The upward-facing top surface of a mesh.
    Mesh(MeshTerrain),
}

impl From<Terrain> for Ground {
    fn from(terrain: Terrain) -> Self {
        Ground::Heightmap(terrain)
    }
}

impl From<MeshTerrain> for Ground {
    fn from(terrain: MeshTerrain) -> Self {
        Ground::Mesh(terrain)
    }
}

impl Ground {
    /// The ground rectangle `(lower, upper)` in `(x, z)`: `([0, 0], [Lx, Lz])` for a
    /// heightmap, the box of the upward faces' projections for a mesh.
    pub fn rectangle(&self) -> ([f64; 2], [f64; 2]) {
        match self {
            Ground::Heightmap(terrain) => ([0.0, 0.0], terrain.size()),
            Ground::Mesh(terrain) => terrain.rectangle(),
        }
    }

    /// The rectangle as the domain the classes are sampled in (and regions and density
    /// maps over the ground are laid on).
    ///
    /// Errors: a rectangle that is not a valid box (docs/limits.md).
    pub fn domain(&self) -> Result<Domain<2>, Error> {
        match self {
            Ground::Heightmap(terrain) => {
                Domain::from_origin_and_extent([0.0, 0.0], terrain.size())
            }
            Ground::Mesh(terrain) => {
                let (lower, upper) = terrain.rectangle();
                Domain::from_corners(lower, upper)
            }
        }
    }

    /// The lowest and highest ground: `[0, height scale]` for a heightmap (its value range),
    /// the upward faces' corners for a mesh.
    pub fn height_range(&self) -> (f64, f64) {
        match self {
            Ground::Heightmap(terrain) => (0.0, terrain.height_scale()),
            Ground::Mesh(terrain) => terrain.height_range(),
        }
    }

    /// Height, normal and slope at `(x, z)`; `None` where there is no ground (only on a
    /// mesh: no upward-facing top surface there).
    #[inline(always)]
    pub fn surface(&self, x: f64, z: f64) -> Option<Surface> {
        match self {
            Ground::Heightmap(terrain) => Some(terrain.surface(x, z)),
            Ground::Mesh(terrain) => terrain.surface(x, z),
        }
    }

    /// Whether every point of the rectangle is ground.
    pub(crate) fn everywhere(&self) -> bool {
        matches!(self, Ground::Heightmap(_))
    }

    /// How the ground and a class's rules judge the box `[lower, upper]`: outside when no
    /// point of it is ground the rules admit, inside when every point is.
    pub(crate) fn classify(
        &self,
        rules: &PlacementRules,
        lower: &[f64; 2],
        upper: &[f64; 2],
    ) -> BoxClass {
        match self {
            Ground::Heightmap(terrain) => match terrain.bounds(lower, upper) {
                Some(bounds) => rules.classify(&bounds),
                None => BoxClass::Straddling,
            },
            Ground::Mesh(terrain) => terrain.classify(lower, upper, |b| rules.classify(b)),
        }
    }
}
