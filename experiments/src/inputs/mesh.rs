//! The triangle mesh that mesh files become (OBJ, STL, PLY, glTF): vertices, optional
//! per-vertex normals and texture coordinates, and index triples, with identical vertices
//! welded into one.
//!
//! Welding is exact: two corners are the same vertex when their coordinates are equal as
//! numbers (`0.0` and `-0.0` are equal) and, when the mesh has normals or texture coordinates,
//! when those are equal too (bitwise after `+ 0.0`, so again `0.0` equals `-0.0`). STL repeats
//! every corner in every facet, and OBJ files written per face or per object repeat them too;
//! after welding by position, each edge of a closed surface is shared by exactly two
//! triangles, which is what a closedness check downstream counts. A corner where two faces
//! meet with different normals or texture coordinates (a hard edge, a texture seam) stays two
//! vertices; [`TriangleMesh::positions_only`] gives the mesh welded by position alone, which is
//! what a closed-mesh region needs. No tolerance is applied: corners that differ in the last
//! bit stay apart. The triangles are kept as the file gives them, degenerate ones included (a
//! facet whose corners coincide keeps its repeated index).

use super::BoundingBox;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// A surface of triangles in world units, with optional per-vertex normals and texture
/// coordinates.
///
/// **Normals** are the file's, per vertex (transformed by a glTF node's inverse transpose),
/// neither normalised nor checked against the winding; every reader refuses a non-finite one.
///
/// **Texture coordinates** follow one convention whatever the file: `u` to the right, `v`
/// **up**, `(0, 0)` the bottom-left corner of the image (OBJ's and PLY's convention, also
/// OpenGL's). OBJ and PLY values are stored as the file gives them; glTF counts `v` down from
/// the top of the image, so a glTF `v` is stored as `1 − v`.
///
/// A reader gives a mesh whose triangles use every vertex, in order of first use, and whose
/// vertices are welded (see the module documentation).
#[derive(Debug, Clone, PartialEq)]
pub struct TriangleMesh {
    /// Distinct vertices, in order of first use.
    pub vertices: Vec<[f64; 3]>,
    /// Each triangle's three vertex indices, in the file's corner order.
    pub triangles: Vec<[u32; 3]>,
    /// One normal per vertex (as long as `vertices`), when the file gives one for every
    /// corner; `None` otherwise.
    pub normals: Option<Vec<[f64; 3]>>,
    /// One texture coordinate `[u, v]` per vertex (as long as `vertices`, `v` up), when the
    /// file gives one for every corner; `None` otherwise.
    pub uvs: Option<Vec<[f64; 2]>>,
}

impl TriangleMesh {
    /// Builds a welded mesh, without normals or texture coordinates, from triangles given by
    /// their corners. `None` when there are more than `u32::MAX` distinct vertices.
    ///
    /// ```
    /// use experiments::inputs::TriangleMesh;
    /// // Two triangles sharing an edge, each listing its own corners (as STL does).
    /// let a = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    /// let b = [[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, -0.0]];
    /// let mesh = TriangleMesh::welded([a, b]).unwrap();
    /// assert_eq!(mesh.vertices.len(), 4);
    /// assert_eq!(mesh.triangles, vec![[0, 1, 2], [1, 3, 2]]);
    /// assert_eq!((mesh.normals, mesh.uvs), (None, None));
    /// ```
    pub fn welded(corners: impl IntoIterator<Item = [[f64; 3]; 3]>) -> Option<TriangleMesh> {
        let mut welder = Welder::default();
        let mut triangles = Vec::new();
        for triangle in corners {
            let mut indices = [0u32; 3];
            for (slot, corner) in indices.iter_mut().zip(triangle) {
                *slot = welder.index(corner, None, None)?;
            }
            triangles.push(indices);
        }
        Some(welder.mesh(triangles, false, false))
    }

    /// This mesh with identical vertices merged: two vertices become one when their positions
    /// are equal and, where the mesh has them, their normals and their texture coordinates
    /// are equal too (see the module documentation). The vertices come in order of first
    /// use by the triangles, and vertices no triangle uses are dropped; the triangles keep
    /// their order and their corner order. The readers build their mesh as the file indexes
    /// it and end with this.
    ///
    /// Errors (a message): a triangle naming a vertex that does not exist, a normal or
    /// texture coordinate list whose length differs from the vertex count, more than
    /// `u32::MAX` distinct vertices. Values are assumed finite.
    ///
    /// ```
    /// use experiments::inputs::TriangleMesh;
    /// // A square of two triangles whose shared corners are listed twice; the corner at
    /// // (1, 1) is listed twice with different texture coordinates (a seam).
    /// let square = TriangleMesh {
    ///     vertices: vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0],
    ///                    [1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]],
    ///     triangles: vec![[0, 1, 2], [3, 4, 5]],
    ///     normals: None,
    ///     uvs: Some(vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.5, 0.5], [0.0, 1.0], [0.0, 0.0]]),
    /// };
    /// let welded = square.weld()?;
    /// assert_eq!(welded.vertices.len(), 5);
    /// assert_eq!(welded.triangles, vec![[0, 1, 2], [3, 4, 0]]);
    /// assert_eq!(welded.uvs.as_ref().unwrap()[3], [0.5, 0.5]);
    /// // By position alone the seam closes.
    /// assert_eq!(square.positions_only()?.vertices.len(), 4);
    /// # Ok::<(), String>(())
    /// ```
    pub fn weld(&self) -> Result<TriangleMesh, String> {
        self.welded_by(self.normals.as_deref(), self.uvs.as_deref())
    }

    /// The mesh welded by position alone, without normals or texture coordinates: the
    /// surface as a closed-mesh region sees it, where a hard edge or a texture seam must not
    /// split the surface. Errors as [`TriangleMesh::weld`].
    pub fn positions_only(&self) -> Result<TriangleMesh, String> {
        self.welded_by(None, None)
    }

    /// [`TriangleMesh::weld`] with these attributes (each `None` or as long as the vertices).
    fn welded_by(
        &self,
        normals: Option<&[[f64; 3]]>,
        uvs: Option<&[[f64; 2]]>,
    ) -> Result<TriangleMesh, String> {
        let n = self.vertices.len();
        for (what, length) in
            [("normals", normals.map(<[_]>::len)), ("texture coordinates", uvs.map(<[_]>::len))]
        {
            if let Some(length) = length.filter(|&length| length != n) {
                return Err(format!("the mesh has {length} {what} for {n} vertices"));
            }
        }
        let too_many = || "more than 2^32 distinct vertices".to_string();
        // Room for every vertex, but for no more than one per triangle: an indexed mesh has
        // about one vertex for two triangles, a triangle soup three for one, most welded.
        let mut welder = Welder::with_capacity(n.min(self.triangles.len()));
        // The welded index of each vertex, once known.
        let mut map: Vec<Option<u32>> = vec![None; n];
        let mut triangles = Vec::with_capacity(self.triangles.len());
        for (t, triangle) in self.triangles.iter().enumerate() {
            let mut indices = [0u32; 3];
            for (slot, &v) in indices.iter_mut().zip(triangle) {
                let i = v as usize;
                let known = map.get_mut(i).ok_or_else(|| {
                    format!("triangle {t} names vertex {v}, but the mesh has {n} vertices")
                })?;
                *slot = match *known {
                    Some(index) => index,
                    None => {
                        let index = welder
                            .index(self.vertices[i], normals.map(|a| a[i]), uvs.map(|a| a[i]))
                            .ok_or_else(too_many)?;
                        *known = Some(index);
                        index
                    }
                };
            }
            triangles.push(indices);
        }
        Ok(welder.mesh(triangles, normals.is_some(), uvs.is_some()))
    }

    /// The box of the vertices; `None` for a mesh without vertices (readers never return
    /// one).
    pub fn bounding_box(&self) -> Option<BoundingBox<3>> {
        BoundingBox::of_points(&self.vertices)
    }

    /// The number of edges not shared by exactly two triangles (0 for a closed, manifold
    /// surface): a quick check of what a mesh region needs. Edges are pairs of vertex
    /// indices, so a mesh split at a seam ([`TriangleMesh::weld`] keeps corners with
    /// different attributes apart) counts its seam edges here; count on
    /// [`TriangleMesh::positions_only`] for the surface's own closedness.
    ///
    /// ```
    /// use experiments::inputs::TriangleMesh;
    /// let open = TriangleMesh { vertices: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
    ///                           triangles: vec![[0, 1, 2]], normals: None, uvs: None };
    /// assert_eq!(open.unpaired_edges(), 3);
    /// ```
    pub fn unpaired_edges(&self) -> usize {
        let mut uses: HashMap<(u32, u32), usize> = HashMap::new();
        for t in &self.triangles {
            for k in 0..3 {
                let (a, b) = (t[k], t[(k + 1) % 3]);
                *uses.entry((a.min(b), a.max(b))).or_default() += 1;
            }
        }
        uses.values().filter(|&&n| n != 2).count()
    }
}

/// Assigns one index per distinct vertex: position, normal and texture coordinate.
/// Its table hashes with foldhash, seeded afresh in each process, so that a hostile file
/// cannot aim at collisions; welding takes a quarter of the instructions it took with the
/// standard SipHash on these 64-byte keys (docs/performance.md).
#[derive(Debug, Default)]
struct Welder {
    seen: foldhash::HashMap<[u64; 8], u32>,
    vertices: Vec<[f64; 3]>,
    normals: Vec<[f64; 3]>,
    uvs: Vec<[f64; 2]>,
}

impl Welder {
    /// A welder with room for `vertices` distinct vertices before its table grows.
    fn with_capacity(vertices: usize) -> Self {
        Welder {
            seen: foldhash::HashMap::with_capacity_and_hasher(vertices, Default::default()),
            ..Welder::default()
        }
    }

    /// The index of the vertex at `p` with these attributes, a new one if it was not seen
    /// before; `None` past `u32::MAX`. A mesh gives every vertex the same attributes (all
    /// with a normal or none), so an absent attribute never meets a present one.
    fn index(
        &mut self,
        p: [f64; 3],
        normal: Option<[f64; 3]>,
        uv: Option<[f64; 2]>,
    ) -> Option<u32> {
        // `+ 0.0` turns -0.0 into 0.0, so the two zeros weld; finite input is assumed
        // (the readers refuse NaN first).
        let bits = |x: f64| (x + 0.0).to_bits();
        let n = normal.unwrap_or_default();
        let t = uv.unwrap_or_default();
        let key = [p[0], p[1], p[2], n[0], n[1], n[2], t[0], t[1]].map(bits);
        let fresh = match self.seen.entry(key) {
            Entry::Occupied(seen) => return Some(*seen.get()),
            Entry::Vacant(fresh) => fresh,
        };
        let i = u32::try_from(self.vertices.len()).ok()?;
        fresh.insert(i);
        self.vertices.push(p);
        if let Some(normal) = normal {
            self.normals.push(normal);
        }
        if let Some(uv) = uv {
            self.uvs.push(uv);
        }
        Some(i)
    }

    /// The mesh of the vertices seen and these triangles.
    fn mesh(self, triangles: Vec<[u32; 3]>, normals: bool, uvs: bool) -> TriangleMesh {
        TriangleMesh {
            vertices: self.vertices,
            triangles,
            normals: normals.then_some(self.normals),
            uvs: uvs.then_some(self.uvs),
        }
    }
}
