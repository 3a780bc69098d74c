//! The triangle mesh that OBJ and STL files become (3D regions): vertices and index
//! triples, with identical vertices welded into one.
//!
//! Welding is exact: two corners are the same vertex when their coordinates are equal as
//! numbers (`0.0` and `-0.0` are equal). STL repeats every corner in every facet, and OBJ
//! files written per face or per object repeat them too; after welding, each edge of a closed
//! surface is shared by exactly two triangles, which is what a closedness check downstream
//! counts. No tolerance is applied: corners that differ in the last bit stay apart. The
//! triangles are kept as the file gives them, degenerate ones included (a facet whose corners
//! coincide keeps its repeated index).

use super::BoundingBox;
use std::collections::HashMap;

/// A surface of triangles in world units.
#[derive(Debug, Clone, PartialEq)]
pub struct TriangleMesh {
    /// Distinct vertices, in order of first use.
    pub vertices: Vec<[f64; 3]>,
    /// Each triangle's three vertex indices, in the file's corner order.
    pub triangles: Vec<[u32; 3]>,
}

impl TriangleMesh {
    /// Builds a welded mesh from triangles given by their corners. `None` when there are
    /// more than `u32::MAX` distinct vertices.
    ///
    /// ```
    /// use experiments::inputs::TriangleMesh;
    /// // Two triangles sharing an edge, each listing its own corners (as STL does).
    /// let a = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    /// let b = [[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, -0.0]];
    /// let mesh = TriangleMesh::welded([a, b]).unwrap();
    /// assert_eq!(mesh.vertices.len(), 4);
    /// assert_eq!(mesh.triangles, vec![[0, 1, 2], [1, 3, 2]]);
    /// ```
    pub fn welded(corners: impl IntoIterator<Item = [[f64; 3]; 3]>) -> Option<TriangleMesh> {
        let mut welder = Welder::default();
        let mut triangles = Vec::new();
        for triangle in corners {
            let mut indices = [0u32; 3];
            for (slot, corner) in indices.iter_mut().zip(triangle) {
                *slot = welder.index(corner)?;
            }
            triangles.push(indices);
        }
        Some(TriangleMesh { vertices: welder.vertices, triangles })
    }

    /// The box of the vertices; `None` for a mesh without vertices (readers never return
    /// one).
    pub fn bounding_box(&self) -> Option<BoundingBox<3>> {
        BoundingBox::of_points(&self.vertices)
    }

    /// The number of edges not shared by exactly two triangles (0 for a closed, manifold
    /// surface): a quick check of what a mesh region needs.
    ///
    /// ```
    /// use experiments::inputs::TriangleMesh;
    /// let open = TriangleMesh { vertices: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
    ///                           triangles: vec![[0, 1, 2]] };
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

/// Assigns one index per distinct position.
#[derive(Debug, Default)]
pub(crate) struct Welder {
    seen: HashMap<[u64; 3], u32>,
    vertices: Vec<[f64; 3]>,
}

impl Welder {
    /// The index of `p`, a new one if it was not seen before; `None` past `u32::MAX`.
    pub(crate) fn index(&mut self, p: [f64; 3]) -> Option<u32> {
        // `+ 0.0` turns -0.0 into 0.0, so the two zeros weld; finite input is assumed
        // (the readers refuse NaN first).
        let key = p.map(|x| (x + 0.0).to_bits());
        if let Some(&i) = self.seen.get(&key) {
            return Some(i);
        }
        let i = u32::try_from(self.vertices.len()).ok()?;
        self.seen.insert(key, i);
        self.vertices.push(p);
        Some(i)
    }
}
