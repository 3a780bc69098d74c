//! A triangle mesh as the ground: the classes stand on its upward-facing top surface.
//!
//! Seen from above, the ground at `(x, z)` is the **highest** triangle of the mesh over that
//! point (its projection on the ground plane holds the point). It is ground when that triangle
//! faces up (its normal has `y > 0`); where it faces down (the underside of an overhang, a
//! face wound the wrong way) or where no triangle lies above the point, there is no ground and
//! nothing stands. Height, normal and slope there are those of the flat triangle: the slope is
//! the angle between the face normal and `+y`. Triangles whose projection bounds no area
//! (vertical walls, degenerate triangles) are never ground.
//!
//! A 2D grid over the ground rectangle lists the triangles whose projected bounding box meets
//! each cell, so a query reads the few triangles of one cell. Its resolution starts at about
//! one cell per triangle and is halved until the lists hold at most
//! [`ENTRIES_PER_TRIANGLE`] entries per triangle (and [`MIN_ENTRIES`] in any case): a mesh
//! of large overlapping triangles gets a coarser grid, never more memory.

use super::terrain::{Surface, SurfaceBounds};
use crate::domain::Domain;
use crate::error::Error;
use crate::field::RadiusField;
use crate::point::Point;
use crate::region::BoxClass;
use crate::surface::{SurfaceDensity, SurfaceMesh};
use std::sync::Arc;

/// The axis a mesh file points up along, in its own right-handed frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UpAxis {
    /// `+y` up, `−z` north (glTF's frame, and most OBJ files): world `(x, y, −z)`.
    #[default]
    Y,
    /// `+z` up, `+y` north (many STL and PLY files, CAD and GIS tools): world `(x, z, y)`.
    Z,
}

impl UpAxis {
    /// A point (or vector) of the mesh's frame in the scatter's world frame (`x` east, `y`
    /// up, `z` north).
    pub fn to_world(self, p: [f64; 3]) -> [f64; 3] {
        match self {
            UpAxis::Y => [p[0], p[1], -p[2]],
            UpAxis::Z => [p[0], p[2], p[1]],
        }
    }
}

/// The most entries the grid keeps per indexed triangle (see the module documentation).
pub const ENTRIES_PER_TRIANGLE: usize = 16;

/// Entries the grid may always keep, however few triangles the mesh has.
pub const MIN_ENTRIES: usize = 1 << 16;

/// The most grid cells a box's bounds read ([`MeshTerrain::classify`]); larger boxes are
/// not judged.
const BOUNDED_CELLS: usize = 256;

/// A triangle whose projection on the ground bounds an area, ready for point location.
#[derive(Debug, Clone, Copy)]
struct GroundFace {
    /// The triangle's index in the mesh.
    face: u32,
    /// The projected corners `(x, z)`, as the mesh gives them.
    corners: [[f64; 2]; 3],
    /// The projected first corner `(x, z)` and the two edges from it.
    origin: [f64; 2],
    e1: [f64; 2],
    e2: [f64; 2],
    inverse_det: f64,
    /// The first corner's height and the height steps along the two edges.
    heights: [f64; 3],
    /// The lowest and highest corner.
    height_range: [f64; 2],
    /// The unit face normal; the face is ground where it is the top and `normal[1] > 0`.
    normal: [f64; 3],
    slope: f64,
    /// `tan²(slope)`: the squared gradient of the plane.
    steepness_squared: f64,
}

impl GroundFace {
    /// The barycentrics of the ground point `p` when the projection holds it.
    #[inline(always)]
    fn barycentrics(&self, p: [f64; 2]) -> Option<[f64; 3]> {
        let d = [p[0] - self.origin[0], p[1] - self.origin[1]];
        let b1 = (d[0] * self.e2[1] - d[1] * self.e2[0]) * self.inverse_det;
        let b2 = (self.e1[0] * d[1] - self.e1[1] * d[0]) * self.inverse_det;
        (b1 >= 0.0 && b2 >= 0.0 && b1 + b2 <= 1.0).then_some([1.0 - b1 - b2, b1, b2])
    }

    #[inline(always)]
    fn height_at(&self, b: [f64; 3]) -> f64 {
        self.heights[0] + b[1] * self.heights[1] + b[2] * self.heights[2]
    }

    fn up(&self) -> bool {
        self.normal[1] > 0.0
    }
}

#[derive(Debug)]
struct Index {
    faces: Vec<GroundFace>,
    lower: [f64; 2],
    upper: [f64; 2],
    cells: [usize; 2],
    inverse_cell: [f64; 2],
    /// The faces of cell `(i, k)` are `entries[starts[c]..starts[c + 1]]`, `c = k·cells₀ + i`.
    starts: Vec<u32>,
    entries: Vec<u32>,
    /// The lowest and highest corner of every upward face.
    heights: [f64; 2],
    /// How far each face's box is grown when it is listed: far beyond the rounding of the
    /// barycentric test, so a point the test accepts lies in a cell that lists the face.
    pad: f64,
    /// The boundary edges of the upward faces' union (see [`boundary_edges`]) as segments
    /// `[x0, z0, x1, z1]`, listed per cell as the faces are; `None` when they would pass the
    /// entry budget (boxes are then proven ground only inside one face).
    boundary: Option<Boundary>,
}

#[derive(Debug)]
struct Boundary {
    segments: Vec<[f64; 4]>,
    starts: Vec<u32>,
    entries: Vec<u32>,
}

/// A triangle mesh as the ground of a [`Scatter`](super::Scatter) (see the module
/// documentation for what is ground). Cloning shares the mesh and its index.
///
/// ```
/// use poisson_nd::scatter::{MeshTerrain, UpAxis};
/// use poisson_nd::surface::SurfaceMesh;
/// // A 10 m square ramp in glTF's frame (+y up, −z north), rising 5 m to the north.
/// let vertices = vec![[0.0, 0.0, 0.0], [10.0, 0.0, 0.0], [10.0, 5.0, -10.0], [0.0, 5.0, -10.0]];
/// let mesh = SurfaceMesh::new(vertices, vec![[0, 1, 2], [0, 2, 3]])?;
/// let terrain = MeshTerrain::new(mesh, UpAxis::Y)?;
/// assert_eq!(terrain.rectangle(), ([0.0, 0.0], [10.0, 10.0]));
/// let surface = terrain.surface(5.0, 4.0).unwrap(); // x = 5 m, 4 m north
/// assert!((surface.height - 2.0).abs() < 1e-12);
/// assert!((surface.slope - 0.5f64.atan().to_degrees()).abs() < 1e-12);
/// assert!(terrain.surface(5.0, 12.0).is_none()); // beyond the mesh
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct MeshTerrain {
    mesh: Arc<SurfaceMesh>,
    index: Arc<Index>,
}

impl MeshTerrain {
    /// The ground of `mesh`, given in its own right-handed frame with `up` up; faces point to
    /// the side from which their corners turn counter-clockwise (the right-hand rule, as in
    /// glTF, OBJ and STL). The mesh is turned into the scatter's world frame (`x` east, `y`
    /// up, `z` north; see [`UpAxis`]) with each triangle's corner order reversed, which keeps
    /// every face pointing to the same side: [`mesh`](Self::mesh) is the mesh in that frame.
    ///
    /// Errors: no triangle faces up ([`Error::EmptyInput`]); a vertex coordinate beyond
    /// ±1e30 or a side of the ground rectangle below 1e-30 ([`Error::OutOfRange`]: the
    /// scatter writes 32-bit floats, docs/limits.md).
    pub fn new(mesh: SurfaceMesh, up: UpAxis) -> Result<Self, Error> {
        for &c in mesh.vertices().iter().flatten() {
            if c.abs() > crate::limits::MAX_OUTPUT_LENGTH {
                return Err(Error::OutOfRange {
                    name: "a terrain mesh's vertex coordinate",
                    value: c,
                    range: "within ±1e30 (the scatter writes 32-bit floats)",
                });
            }
        }
        let vertices: Vec<Point<3>> = mesh.vertices().iter().map(|&p| up.to_world(p)).collect();
        let triangles: Vec<[usize; 3]> =
            mesh.triangles().iter().map(|t| [t[0], t[2], t[1]].map(|v| v as usize)).collect();
        let mut world = SurfaceMesh::new(vertices, triangles)?;
        if let Some(normals) = mesh.normals() {
            world = world.with_normals(normals.iter().map(|&n| up.to_world(n)).collect())?;
        }
        if let Some(uvs) = mesh.uvs() {
            world = world.with_uvs(uvs.to_vec())?;
        }
        let index = Index::new(&world)?;
        Ok(MeshTerrain { mesh: Arc::new(world), index: Arc::new(index) })
    }

    /// The mesh in the world frame (`x` east, `y` up, `z` north).
    pub fn mesh(&self) -> &SurfaceMesh {
        &self.mesh
    }

    /// The ground rectangle `(lower, upper)` in `(x, z)`: the bounding box of the upward
    /// faces' projections.
    pub fn rectangle(&self) -> ([f64; 2], [f64; 2]) {
        (self.index.lower, self.index.upper)
    }

    /// The lowest and highest corner of the upward faces.
    pub fn height_range(&self) -> (f64, f64) {
        (self.index.heights[0], self.index.heights[1])
    }

    /// The ground at `(x, z)` as `(face, barycentrics)` on the mesh, `None` where there is
    /// none (see the module documentation). [`SurfaceMesh::point_at`] gives the 3D point,
    /// [`SurfaceMesh::uv_at`] its texture coordinates.
    pub fn locate(&self, x: f64, z: f64) -> Option<(usize, [f64; 3])> {
        self.top(x, z).map(|(face, b)| (face.face as usize, b))
    }

    /// Height, unit face normal and slope of the ground at `(x, z)`; `None` where there is
    /// no ground.
    #[inline]
    pub fn surface(&self, x: f64, z: f64) -> Option<Surface> {
        let (face, b) = self.top(x, z)?;
        Some(Surface { height: face.height_at(b), normal: face.normal, slope: face.slope })
    }

    /// The top face over `(x, z)` and the point's barycentrics on it, when it faces up.
    #[inline]
    fn top(&self, x: f64, z: f64) -> Option<(&GroundFace, [f64; 3])> {
        let index = &*self.index;
        let cell = index.cell_of([x, z])?;
        let list = &index.entries[index.starts[cell] as usize..index.starts[cell + 1] as usize];
        let mut best: Option<(&GroundFace, [f64; 3], f64)> = None;
        for &f in list {
            let face = &index.faces[f as usize];
            let Some(b) = face.barycentrics([x, z]) else { continue };
            let height = face.height_at(b);
            // Higher wins; at one height (a shared edge, a silhouette) an upward face.
            let better = match best {
                None => true,
                Some((top, _, h)) => height > h || (height == h && face.up() && !top.up()),
            };
            if better {
                best = Some((face, b, height));
            }
        }
        best.filter(|(face, _, _)| face.up()).map(|(face, b, _)| (face, b))
    }

    /// How the ground judges the box `[lower, upper]` for a class whose rules judge surface
    /// bounds by `judge`: outside when no upward face that meets the box holds a height and
    /// slope the rules admit; inside when the rules admit every upward face that meets it,
    /// the upward faces cover the box (one holds it whole, or one holds a corner and no
    /// boundary edge of their union meets it: [`boundary_edges`]) and every downward face that
    /// meets it lies below every upward one (so the top face is upward everywhere); else
    /// straddling. Boxes over more than [`BOUNDED_CELLS`] cells are straddling unread.
    pub(crate) fn classify(
        &self,
        lower: &[f64; 2],
        upper: &[f64; 2],
        judge: impl Fn(&SurfaceBounds) -> BoxClass,
    ) -> BoxClass {
        let index = &*self.index;
        let Some((first, last)) = index.cell_range(lower, upper) else {
            return BoxClass::Outside;
        };
        let cells = (last[0] - first[0] + 1) * (last[1] - first[1] + 1);
        if cells > BOUNDED_CELLS {
            return BoxClass::Straddling;
        }
        let mut bounds = SurfaceBounds {
            height: [f64::INFINITY, f64::NEG_INFINITY],
            steepness_squared: [f64::INFINITY, f64::NEG_INFINITY],
        };
        let mut any = false;
        // The lowest corner of the upward faces meeting the box, the highest of the downward.
        let (mut up_bottom, mut down_top) = (f64::INFINITY, f64::NEG_INFINITY);
        // One upward face holds the whole box; one holds its first corner.
        let (mut held, mut corner_held) = (false, false);
        let box_corners = [
            [lower[0], lower[1]],
            [upper[0], lower[1]],
            [lower[0], upper[1]],
            [upper[0], upper[1]],
        ];
        for k in first[1]..=last[1] {
            for i in first[0]..=last[0] {
                let cell = k * index.cells[0] + i;
                for &f in
                    &index.entries[index.starts[cell] as usize..index.starts[cell + 1] as usize]
                {
                    let face = &index.faces[f as usize];
                    let [x0, x1, z0, z1] = face_box(face, index.pad);
                    if x1 < lower[0] || x0 > upper[0] || z1 < lower[1] || z0 > upper[1] {
                        continue;
                    }
                    if !face.up() {
                        down_top = down_top.max(face.height_range[1]);
                        continue;
                    }
                    any = true;
                    up_bottom = up_bottom.min(face.height_range[0]);
                    bounds.height[0] = bounds.height[0].min(face.height_range[0]);
                    bounds.height[1] = bounds.height[1].max(face.height_range[1]);
                    bounds.steepness_squared[0] =
                        bounds.steepness_squared[0].min(face.steepness_squared);
                    bounds.steepness_squared[1] =
                        bounds.steepness_squared[1].max(face.steepness_squared);
                    if !held {
                        held = box_corners.iter().all(|&c| face.barycentrics(c).is_some());
                        corner_held = corner_held || face.barycentrics(box_corners[0]).is_some();
                    }
                }
            }
        }
        if !any {
            return BoxClass::Outside;
        }
        let verdict = judge(&bounds);
        if verdict != BoxClass::Inside {
            return verdict;
        }
        // Every point of the box has an upward face over it, and every downward face that
        // meets the box lies below every upward one: the top face is upward everywhere.
        let covered = held || (corner_held && !index.boundary_meets(first, last, lower, upper));
        if covered && down_top < up_bottom { BoxClass::Inside } else { BoxClass::Straddling }
    }

    /// A radius field over the ground from a density over the mesh (per vertex, or a texture
    /// through its UVs): the radius at `(x, z)` is the density's where the ground is, and
    /// `rmax` where there is none (no class stands there).
    ///
    /// Errors: the mesh lacks what the density reads (UVs, a value per vertex).
    pub fn density_field(&self, density: SurfaceDensity) -> Result<GroundDensity, Error> {
        density.check_mesh(&self.mesh)?;
        Ok(GroundDensity { terrain: self.clone(), density })
    }

    /// The number of faces the index holds and its entries (for tests of its bound).
    #[doc(hidden)]
    pub fn index_size(&self) -> (usize, usize) {
        (self.index.faces.len(), self.index.entries.len())
    }
}

impl Index {
    fn new(mesh: &SurfaceMesh) -> Result<Self, Error> {
        let mut faces = Vec::new();
        for &f in mesh.faces() {
            let [a, b, c] = mesh.corners(f as usize);
            let e1 = [b[0] - a[0], b[2] - a[2]];
            let e2 = [c[0] - a[0], c[2] - a[2]];
            let det = e1[0] * e2[1] - e1[1] * e2[0];
            let normal = mesh.face_normal(f as usize);
            // A vertical (or degenerate) projection holds no area.
            if det == 0.0 || normal[1] == 0.0 || !(1.0 / det).is_finite() {
                continue;
            }
            let horizontal2 = normal[0] * normal[0] + normal[2] * normal[2];
            faces.push(GroundFace {
                face: f,
                corners: [[a[0], a[2]], [b[0], b[2]], [c[0], c[2]]],
                origin: [a[0], a[2]],
                e1,
                e2,
                inverse_det: 1.0 / det,
                heights: [a[1], b[1] - a[1], c[1] - a[1]],
                height_range: [a[1].min(b[1]).min(c[1]), a[1].max(b[1]).max(c[1])],
                normal,
                slope: horizontal2.sqrt().atan2(normal[1]).to_degrees(),
                steepness_squared: horizontal2 / (normal[1] * normal[1]),
            });
        }
        let mut lower = [f64::INFINITY; 2];
        let mut upper = [f64::NEG_INFINITY; 2];
        let mut heights = [f64::INFINITY, f64::NEG_INFINITY];
        for face in faces.iter().filter(|f| f.up()) {
            let [x0, x1, z0, z1] = face_box(face, 0.0);
            lower = [lower[0].min(x0), lower[1].min(z0)];
            upper = [upper[0].max(x1), upper[1].max(z1)];
            heights = [heights[0].min(face.height_range[0]), heights[1].max(face.height_range[1])];
        }
        if !lower[0].is_finite() {
            return Err(Error::EmptyInput("the terrain mesh's upward-facing triangles"));
        }
        // The rectangle must be a box the samplers take, and written as 32-bit floats.
        for axis in 0..2 {
            crate::limits::check_output_length(
                "a side of the terrain mesh's ground",
                upper[axis] - lower[axis],
                false,
            )?;
        }
        Domain::from_corners(lower, upper)?;
        let n = faces.len();
        let budget = n.saturating_mul(ENTRIES_PER_TRIANGLE).max(MIN_ENTRIES);
        let extent = [upper[0] - lower[0], upper[1] - lower[1]];
        // About one cell per face, square cells, at least one per axis.
        let side = (extent[0] * extent[1] / n as f64).sqrt();
        let mut cells = [0, 1].map(|a| ((extent[a] / side).ceil() as usize).clamp(1, 1 << 15));
        loop {
            let mut index = Index::empty(lower, upper, extent, cells, heights);
            let boxes: Vec<[f64; 4]> = faces.iter().map(|f| face_box(f, index.pad)).collect();
            if index.entries_for(&boxes) <= budget || cells == [1, 1] {
                (index.starts, index.entries) = index.lists(&boxes);
                let segments = boundary_edges(&faces);
                let boxes: Vec<[f64; 4]> =
                    segments.iter().map(|s| segment_box(s, index.pad)).collect();
                if index.entries_for(&boxes) <= budget {
                    let (starts, entries) = index.lists(&boxes);
                    index.boundary = Some(Boundary { segments, starts, entries });
                }
                index.faces = faces;
                return Ok(index);
            }
            cells = cells.map(|c| c.div_ceil(2));
        }
    }

    fn empty(
        lower: [f64; 2],
        upper: [f64; 2],
        extent: [f64; 2],
        cells: [usize; 2],
        heights: [f64; 2],
    ) -> Self {
        Index {
            faces: Vec::new(),
            lower,
            upper,
            cells,
            inverse_cell: [0, 1].map(|a| cells[a] as f64 / extent[a]),
            starts: Vec::new(),
            entries: Vec::new(),
            heights,
            boundary: None,
            pad: 1e-9
                * (lower[0].abs().max(lower[1].abs()).max(upper[0].abs()).max(upper[1].abs())
                    + extent[0].max(extent[1])),
        }
    }

    /// The entries listing every box `[x0, x1, z0, z1]` in the cells it meets would take.
    fn entries_for(&self, boxes: &[[f64; 4]]) -> usize {
        boxes
            .iter()
            .filter_map(|b| self.cell_range(&[b[0], b[2]], &[b[1], b[3]]))
            .map(|(first, last)| (last[0] - first[0] + 1) * (last[1] - first[1] + 1))
            .sum()
    }

    /// Every box listed in the cells it meets, by its index (a counting sort): the starts of
    /// each cell's list and the entries.
    fn lists(&self, boxes: &[[f64; 4]]) -> (Vec<u32>, Vec<u32>) {
        let count = self.cells[0] * self.cells[1];
        let mut starts = vec![0u32; count + 1];
        let ranges: Vec<Option<([usize; 2], [usize; 2])>> =
            boxes.iter().map(|b| self.cell_range(&[b[0], b[2]], &[b[1], b[3]])).collect();
        for (first, last) in ranges.iter().flatten() {
            for k in first[1]..=last[1] {
                for i in first[0]..=last[0] {
                    starts[k * self.cells[0] + i + 1] += 1;
                }
            }
        }
        for c in 0..count {
            starts[c + 1] += starts[c];
        }
        let mut next = starts.clone();
        let mut entries = vec![0u32; starts[count] as usize];
        for (item, range) in ranges.iter().enumerate() {
            let Some((first, last)) = range else { continue };
            for k in first[1]..=last[1] {
                for i in first[0]..=last[0] {
                    let slot = &mut next[k * self.cells[0] + i];
                    entries[*slot as usize] = item as u32;
                    *slot += 1;
                }
            }
        }
        (starts, entries)
    }

    /// Whether a boundary edge may meet the box `[lower, upper]` (grown by the pad), whose
    /// cells are `first..=last`; `true` when the edges are not known.
    fn boundary_meets(
        &self,
        first: [usize; 2],
        last: [usize; 2],
        lower: &[f64; 2],
        upper: &[f64; 2],
    ) -> bool {
        let Some(boundary) = &self.boundary else { return true };
        let lo = [lower[0] - self.pad, lower[1] - self.pad];
        let hi = [upper[0] + self.pad, upper[1] + self.pad];
        (first[1]..=last[1]).any(|k| {
            (first[0]..=last[0]).any(|i| {
                let cell = k * self.cells[0] + i;
                boundary.entries[boundary.starts[cell] as usize..boundary.starts[cell + 1] as usize]
                    .iter()
                    .any(|&e| segment_meets_box(&boundary.segments[e as usize], &lo, &hi))
            })
        })
    }

    /// The cell of a ground point, `None` outside the rectangle (or NaN).
    #[inline(always)]
    fn cell_of(&self, p: [f64; 2]) -> Option<usize> {
        if !(p[0] >= self.lower[0]
            && p[0] <= self.upper[0]
            && p[1] >= self.lower[1]
            && p[1] <= self.upper[1])
        {
            return None;
        }
        let [i, k] = [0, 1].map(|a| self.axis_cell(p[a], a));
        Some(k * self.cells[0] + i)
    }

    /// The cell along axis `a` of a coordinate (monotone in it, clamped to the grid).
    #[inline(always)]
    fn axis_cell(&self, value: f64, a: usize) -> usize {
        (((value - self.lower[a]) * self.inverse_cell[a]).max(0.0) as usize).min(self.cells[a] - 1)
    }

    /// The first and last cell a box meets, `None` when it misses the rectangle.
    fn cell_range(&self, lower: &[f64; 2], upper: &[f64; 2]) -> Option<([usize; 2], [usize; 2])> {
        let misses = (0..2).any(|a| !(upper[a] >= self.lower[a] && lower[a] <= self.upper[a]));
        if misses {
            return None;
        }
        let first = [0, 1].map(|a| self.axis_cell(lower[a], a));
        let last = [0, 1].map(|a| self.axis_cell(upper[a], a));
        Some((first, last))
    }
}

/// A face's projected box `[x0, x1, z0, z1]`, grown by `pad` on every side.
fn face_box(face: &GroundFace, pad: f64) -> [f64; 4] {
    let [a, b, c] = face.corners;
    [
        a[0].min(b[0]).min(c[0]) - pad,
        a[0].max(b[0]).max(c[0]) + pad,
        a[1].min(b[1]).min(c[1]) - pad,
        a[1].max(b[1]).max(c[1]) + pad,
    ]
}

/// A segment's box `[x0, x1, z0, z1]`, grown by `pad`.
fn segment_box(s: &[f64; 4], pad: f64) -> [f64; 4] {
    [s[0].min(s[2]) - pad, s[0].max(s[2]) + pad, s[1].min(s[3]) - pad, s[1].max(s[3]) + pad]
}

/// Whether the segment `[x0, z0, x1, z1]` meets the closed box `[lo, hi]` (Liang–Barsky).
fn segment_meets_box(s: &[f64; 4], lo: &[f64; 2], hi: &[f64; 2]) -> bool {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for axis in 0..2 {
        let (p, d) = (s[axis], s[axis + 2] - s[axis]);
        if d == 0.0 {
            if p < lo[axis] || p > hi[axis] {
                return false;
            }
            continue;
        }
        let (a, b) = ((lo[axis] - p) / d, (hi[axis] - p) / d);
        t0 = t0.max(a.min(b));
        t1 = t1.min(a.max(b));
        if t0 > t1 {
            return false;
        }
    }
    true
}

/// The edges of the upward faces that may bound their union's projection `U`: every edge
/// except those shared (by their corners' exact positions) by exactly two upward faces lying on
/// opposite sides of it, clearly (a face whose third corner is nearly on the edge's line counts
/// as undecided, hence the edge as boundary).
///
/// Why the rest cannot bound `U`: a point of `U`'s boundary lies on an edge of every face that
/// holds it. Inside such an edge shared by two faces on opposite sides, the two faces cover a
/// neighbourhood of it. At a corner whose every edge is of that kind, the faces around it,
/// each crossing into the next across their shared edge, turn one way around the corner until
/// they close, covering a whole neighbourhood too. So a box that no boundary edge meets and
/// that holds one point of `U` lies inside `U`.
fn boundary_edges(faces: &[GroundFace]) -> Vec<[f64; 4]> {
    use std::collections::HashMap;
    type Key = ([u64; 2], [u64; 2]);
    let bits = |p: [f64; 2]| p.map(f64::to_bits);
    // Per edge: faces on the positive side, on the negative side, undecided.
    let mut sides: HashMap<Key, ([f64; 4], [u32; 3])> = HashMap::new();
    for face in faces.iter().filter(|f| f.up()) {
        for k in 0..3 {
            let (p, q, r) = (face.corners[k], face.corners[(k + 1) % 3], face.corners[(k + 2) % 3]);
            let (p, q) = if bits(p) <= bits(q) { (p, q) } else { (q, p) };
            let cross = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]);
            let scale = ((q[0] - p[0]).abs() + (q[1] - p[1]).abs())
                * ((r[0] - p[0]).abs() + (r[1] - p[1]).abs());
            let entry =
                sides.entry((bits(p), bits(q))).or_insert(([p[0], p[1], q[0], q[1]], [0; 3]));
            let side = if cross > 1e-9 * scale {
                0
            } else if cross < -1e-9 * scale {
                1
            } else {
                2
            };
            entry.1[side] += 1;
        }
    }
    let mut edges: Vec<[f64; 4]> = sides
        .into_values()
        .filter(|(_, count)| *count != [1, 1, 0])
        .map(|(segment, _)| segment)
        .collect();
    // The map's order is not the run's to decide: sort for a reproducible index.
    edges.sort_by(|a, b| {
        a.iter()
            .zip(b)
            .map(|(x, y)| x.total_cmp(y))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    edges
}

/// A class's radius from a density over a [`MeshTerrain`]'s mesh
/// ([`MeshTerrain::density_field`]).
#[derive(Debug, Clone)]
pub struct GroundDensity {
    terrain: MeshTerrain,
    density: SurfaceDensity,
}

impl RadiusField<2> for GroundDensity {
    fn radius(&self, p: &Point<2>) -> f64 {
        match self.terrain.locate(p[0], p[1]) {
            Some((face, b)) => self.density.radius_at(&self.terrain.mesh, face, b),
            None => self.density.bounds().1,
        }
    }

    fn bounds(&self) -> (f64, f64) {
        self.density.bounds()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{rng_from_seed, uniform01};

    /// A bumpy `k × k` grid over `[0, 10]²` (world frame) with a hole, a roof facing down
    /// above one corner, a fold (a flap turned over onto its neighbour) and triangles given
    /// twice; without shared vertices (a soup), as STL files come.
    fn rough_ground(k: usize) -> MeshTerrain {
        let h = |x: f64, z: f64| (0.7 * x).sin() + (0.5 * z).cos() + 0.1 * x;
        let at = |i: usize| 10.0 * i as f64 / k as f64;
        let mut vertices = Vec::new();
        let mut triangles = Vec::new();
        let mut push = |t: [[f64; 3]; 3]| {
            let base = vertices.len();
            vertices.extend(t);
            triangles.push([base, base + 1, base + 2]);
        };
        for j in 0..k {
            for i in 0..k {
                let (x0, x1, z0, z1) = (at(i), at(i + 1), at(j), at(j + 1));
                if (4.0..6.0).contains(&x0) && (4.0..6.0).contains(&z0) {
                    continue; // the hole
                }
                let p = |x: f64, z: f64| [x, h(x, z), z];
                // In the file's frame (−z north) counter-clockwise from above; here, in the
                // world, the order that `MeshTerrain::new` gives back.
                push([p(x0, z0), p(x1, z1), p(x1, z0)]);
                push([p(x0, z0), p(x0, z1), p(x1, z1)]);
                if i == 1 && j == 1 {
                    push([p(x0, z0), p(x0, z1), p(x1, z1)]); // given twice
                }
            }
        }
        // The roof over [0, 2]², facing down, and a fold: a flap over [7, 8] × [0, 1]
        // turned onto [6, 7] × [0, 1], facing up, 5 m up.
        push([[0.0, 9.0, 0.0], [2.0, 9.0, 0.0], [2.0, 9.0, 2.0]]);
        push([[0.0, 9.0, 0.0], [2.0, 9.0, 2.0], [0.0, 9.0, 2.0]]);
        push([[7.0, 5.0, 0.0], [6.0, 5.0, 1.0], [7.0, 5.0, 1.0]]);
        // (Written in the world frame: undo the reflection `new` applies.)
        let file: Vec<Point<3>> = vertices.iter().map(|p| [p[0], p[1], -p[2]]).collect();
        let reversed = triangles.iter().map(|t| [t[0], t[2], t[1]]).collect();
        MeshTerrain::new(SurfaceMesh::new(file, reversed).unwrap(), UpAxis::Y).unwrap()
    }

    #[test]
    fn box_verdicts_hold_for_every_point_of_the_box() {
        let terrain = rough_ground(20);
        assert!(terrain.index.boundary.is_some());
        let mut rng = rng_from_seed(8);
        let mut verdicts = [0usize; 3];
        // Rules admitting slopes up to 40° only: a box inside holds only such ground.
        let band = |b: &SurfaceBounds| {
            let tan2 = 40f64.to_radians().tan().powi(2);
            if b.steepness_squared[0] > tan2 {
                BoxClass::Outside
            } else if b.steepness_squared[1] < tan2 {
                BoxClass::Inside
            } else {
                BoxClass::Straddling
            }
        };
        for _ in 0..3000 {
            let size = 0.02 + 2.0 * uniform01(&mut rng).powi(3);
            let lower = [uniform01(&mut rng) * 11.0 - 0.5, uniform01(&mut rng) * 11.0 - 0.5];
            let upper = [lower[0] + size, lower[1] + size * (0.5 + uniform01(&mut rng))];
            for (rules, judge) in [
                (
                    false,
                    &(|_: &SurfaceBounds| BoxClass::Inside) as &dyn Fn(&SurfaceBounds) -> BoxClass,
                ),
                (true, &band),
            ] {
                let verdict = terrain.classify(&lower, &upper, judge);
                verdicts[verdict as usize] += 1;
                for _ in 0..60 {
                    let x = lower[0] + (upper[0] - lower[0]) * uniform01(&mut rng);
                    let z = lower[1] + (upper[1] - lower[1]) * uniform01(&mut rng);
                    let admitted = terrain.surface(x, z).is_some_and(|s| !rules || s.slope <= 40.0);
                    match verdict {
                        BoxClass::Inside => assert!(admitted, "{lower:?} {upper:?}: ({x}, {z})"),
                        BoxClass::Outside => {
                            assert!(!admitted, "{lower:?} {upper:?}: ({x}, {z})")
                        }
                        BoxClass::Straddling => {}
                    }
                }
            }
        }
        // Each verdict is reached often.
        assert!(verdicts.iter().all(|&v| v > 300), "{verdicts:?}");
    }
}
