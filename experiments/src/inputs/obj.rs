//! Wavefront OBJ surfaces read with `tobj` (positions as `f64`) into a welded
//! [`TriangleMesh`].
//!
//! Only positions (`v`) and faces (`f`) matter: every object and group of the file joins one
//! mesh; faces of more than three corners are split into a fan from their first corner
//! (right for the convex faces modelling tools write); point and line elements, normals,
//! texture coordinates and materials (`mtllib` is not followed) are ignored. Negative
//! (relative) indices are resolved as OBJ defines them. Errors: a line `tobj` cannot parse,
//! a face index out of range, no triangle at all, a position that is not finite.

use super::mesh::TriangleMesh;
use super::{InputError, read_bytes};
use std::path::Path;

/// Reads the OBJ file at `path`.
pub fn read_obj(path: &Path) -> Result<TriangleMesh, InputError> {
    decode_obj(&read_bytes(path)?, &path.display().to_string())
}

/// Reads a mesh from the bytes of an OBJ file; `name` is what messages call them.
///
/// ```
/// use experiments::inputs::obj::decode_obj;
/// let square = "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n";
/// let mesh = decode_obj(square.as_bytes(), "square.obj")?;
/// assert_eq!(mesh.vertices.len(), 4);
/// assert_eq!(mesh.triangles, vec![[0, 1, 2], [0, 2, 3]]);
/// assert!(decode_obj(b"v 0 0 0\nf 1 2 3\n", "bad.obj").is_err());
/// # Ok::<(), experiments::inputs::InputError>(())
/// ```
pub fn decode_obj(bytes: &[u8], name: &str) -> Result<TriangleMesh, InputError> {
    let invalid = |message: String| InputError::invalid(name, message);
    let options = tobj::LoadOptions {
        triangulate: true,
        ignore_points: true,
        ignore_lines: true,
        ..Default::default()
    };
    let mut reader = bytes;
    let (models, _materials) =
        tobj::load_obj_buf(&mut reader, &options, |_| Err(tobj::LoadError::OpenFileFailed))
            .map_err(|e| invalid(format!("not a readable OBJ file ({e})")))?;
    let mut corners = Vec::new();
    for model in &models {
        let mesh = &model.mesh;
        let position = |index: u32| -> Result<[f64; 3], String> {
            let at = index as usize * 3;
            let p = mesh.positions.get(at..at + 3).ok_or_else(|| {
                format!("a face index is out of range in object '{}'", model.name)
            })?;
            if !p.iter().all(|x| x.is_finite()) {
                return Err(format!("a vertex position is not finite: {p:?}"));
            }
            Ok([p[0], p[1], p[2]])
        };
        for triangle in mesh.indices.chunks_exact(3) {
            corners.push([
                position(triangle[0]).map_err(&invalid)?,
                position(triangle[1]).map_err(&invalid)?,
                position(triangle[2]).map_err(&invalid)?,
            ]);
        }
    }
    if corners.is_empty() {
        return Err(invalid("no triangles (an OBJ region needs faces `f a b c ...`)".into()));
    }
    TriangleMesh::welded(corners).ok_or_else(|| invalid("more than 2^32 vertices".into()))
}
