//! Wavefront OBJ surfaces read with `tobj` (positions as `f64`) into a welded
//! [`TriangleMesh`], with normals (`vn`) and texture coordinates (`vt`) when every face corner
//! has them.
//!
//! Positions (`v`), normals (`vn`), texture coordinates (`vt`) and faces (`f`) matter: every
//! object and group of the file joins one mesh; faces of more than three corners are split
//! into a fan from their first corner (right for the convex faces modelling tools write).
//! Each distinct `v/vt/vn` triple of a face corner is a vertex; identical ones are then
//! welded ([`TriangleMesh::weld`]). Normals are kept when every corner of every face names
//! one (`f 1//1 ...` or `f 1/1/1 ...`), texture coordinates when every corner names one;
//! when only some do, that attribute is dropped for the whole mesh. A `vt`'s `w` is ignored;
//! its `v` counts up from the bottom of the image, the convention [`TriangleMesh`] keeps.
//! Points (`p`), polylines (`l`), faces of fewer than three corners, vertex colours and
//! materials (`mtllib` is not followed) are ignored. Negative (relative) indices count back
//! from the last element of their kind read so far, as OBJ defines.
//!
//! Errors: a line `tobj` cannot parse; a face index (of a position, a texture coordinate or a
//! normal) that is 0 or out of range, named with its line, before anything is built; no
//! triangle at all; a position, normal or texture coordinate that is not finite.

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
/// assert_eq!((mesh.normals, mesh.uvs), (None, None));
/// // With one normal and per-corner texture coordinates.
/// let textured = "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nvn 0 0 1\n\
///                 f 1/1/1 2/2/1 3/3/1\n";
/// let mesh = decode_obj(textured.as_bytes(), "textured.obj")?;
/// assert_eq!(mesh.normals, Some(vec![[0.0, 0.0, 1.0]; 3]));
/// assert_eq!(mesh.uvs, Some(vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]));
/// assert!(decode_obj(b"v 0 0 0\nf 1 2 3\n", "bad.obj").is_err());
/// # Ok::<(), experiments::inputs::InputError>(())
/// ```
pub fn decode_obj(bytes: &[u8], name: &str) -> Result<TriangleMesh, InputError> {
    let invalid = |message: String| InputError::invalid(name, message);
    let faces_only = checked_faces(bytes).map_err(invalid)?;
    let options = tobj::LoadOptions {
        single_index: true,
        triangulate: true,
        ignore_points: true,
        ignore_lines: true,
    };
    let mut reader = faces_only.as_slice();
    let (models, _materials) =
        tobj::load_obj_buf(&mut reader, &options, |_| Err(tobj::LoadError::OpenFileFailed))
            .map_err(|e| invalid(format!("not a readable OBJ file ({e})")))?;
    // With `single_index`, each model lists one position per vertex, and a normal or a
    // texture coordinate for each vertex that has one: all of them exactly when every
    // corner has one.
    let vertex_count = |m: &tobj::Model| m.mesh.positions.len() / 3;
    let has_normals = models.iter().all(|m| m.mesh.normals.len() / 3 == vertex_count(m));
    let has_uvs = models.iter().all(|m| m.mesh.texcoords.len() / 2 == vertex_count(m));
    let mut mesh = TriangleMesh {
        vertices: Vec::new(),
        triangles: Vec::new(),
        normals: has_normals.then(Vec::new),
        uvs: has_uvs.then(Vec::new),
    };
    for model in &models {
        let base = u32::try_from(mesh.vertices.len())
            .map_err(|_| invalid("more than 2^32 vertices".into()))?;
        let m = &model.mesh;
        for p in m.positions.chunks_exact(3) {
            if !p.iter().all(|x| x.is_finite()) {
                return Err(invalid(format!("a vertex position is not finite: {p:?}")));
            }
            mesh.vertices.push([p[0], p[1], p[2]]);
        }
        if let Some(normals) = &mut mesh.normals {
            for n in m.normals.chunks_exact(3) {
                if !n.iter().all(|x| x.is_finite()) {
                    return Err(invalid(format!("a normal (vn) is not finite: {n:?}")));
                }
                normals.push([n[0], n[1], n[2]]);
            }
        }
        if let Some(uvs) = &mut mesh.uvs {
            for t in m.texcoords.chunks_exact(2) {
                if !t.iter().all(|x| x.is_finite()) {
                    return Err(invalid(format!("a texture coordinate (vt) is not finite: {t:?}")));
                }
                uvs.push([t[0], t[1]]);
            }
        }
        for t in m.indices.chunks_exact(3) {
            let corner = |i: u32| {
                base.checked_add(i).ok_or_else(|| invalid("more than 2^32 vertices".into()))
            };
            mesh.triangles.push([corner(t[0])?, corner(t[1])?, corner(t[2])?]);
        }
    }
    if mesh.triangles.is_empty() {
        return Err(invalid("no triangles (an OBJ mesh needs faces `f a b c ...`)".into()));
    }
    mesh.weld().map_err(invalid)
}

/// The file without its point and polyline lines (`tobj` reads an `l` of three or more
/// points as a face), after checking that every index of every face (an `f` of three or
/// more corners) is in range; the error names the line and the index.
///
/// This is checked here rather than left to `tobj`, whose message does not say which
/// index, and whose arithmetic on an index far out of range is not overflow-checked.
fn checked_faces(bytes: &[u8]) -> Result<Vec<u8>, String> {
    // The number of positions, texture coordinates and normals read so far.
    let mut counts = [0usize; 3];
    const KINDS: [&str; 3] = ["vertex", "texture coordinate", "normal"];
    const LINES: [&str; 3] = ["v", "vt", "vn"];
    let mut kept = Vec::with_capacity(bytes.len());
    for (number, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        // Lines that are not text are left for tobj to refuse.
        let mut words = std::str::from_utf8(line).unwrap_or("").split_whitespace();
        match words.next() {
            Some("v") => counts[0] += 1,
            Some("vt") => counts[1] += 1,
            Some("vn") => counts[2] += 1,
            Some("l" | "p") => {
                kept.push(b'\n');
                continue;
            }
            Some("f") => {
                let corners: Vec<&str> = words.collect();
                for corner in corners.iter().filter(|_| corners.len() >= 3) {
                    for (kind, part) in corner.split('/').enumerate().take(3) {
                        // Empty parts (`1//3`) are absent; unparsable ones are tobj's to
                        // refuse.
                        let Ok(index) = part.parse::<i64>() else { continue };
                        let count = counts[kind] as u64;
                        if index == 0 || index.unsigned_abs() > count {
                            return Err(format!(
                                "line {}: {} index {index} is out of bounds (the file has {count} \
                                 `{}` lines before it)",
                                number + 1,
                                KINDS[kind],
                                LINES[kind]
                            ));
                        }
                    }
                }
            }
            _ => {}
        }
        kept.extend_from_slice(line);
    }
    Ok(kept)
}
