//! STL surfaces, ASCII or binary, read with `stl_io` into a welded [`TriangleMesh`].
//!
//! STL lists every facet with its own three corners, so identical corners are welded
//! (`TriangleMesh::welded`). Only positions are read: a facet normal belongs to a face, not
//! to its corners, so it is ignored (the corner order is kept as the winding), and STL has no
//! texture coordinates; `normals` and `uvs` are `None`. The 32-bit floats of STL convert
//! exactly to `f64`.
//!
//! A file that starts with `solid` is read as ASCII first. If that fails, or the file does not
//! start with `solid`, it is binary when its size is exactly `84 + 50·n` bytes, `n` being the
//! triangle count at bytes 80–83: binary headers are free text and some exporters start them
//! with `solid` too. A binary file whose count does not match its size is refused before
//! anything is allocated for it. Errors: not an STL, a facet that does not parse, no facets,
//! a corner that is not finite.

use super::mesh::TriangleMesh;
use super::{InputError, read_bytes};
use std::io::Cursor;
use std::path::Path;

/// Reads the STL file at `path`.
pub fn read_stl(path: &Path) -> Result<TriangleMesh, InputError> {
    decode_stl(&read_bytes(path)?, &path.display().to_string())
}

/// Reads a mesh from the bytes of an STL file; `name` is what messages call them.
///
/// ```
/// use experiments::inputs::stl::decode_stl;
/// let text = "solid t\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   \
///             vertex 0 1 0\n  endloop\n endfacet\nendsolid t\n";
/// let mesh = decode_stl(text.as_bytes(), "t.stl")?;
/// assert_eq!((mesh.vertices.len(), mesh.triangles.len()), (3, 1));
/// assert_eq!((mesh.normals, mesh.uvs), (None, None));
/// assert!(decode_stl(b"solid t\n facet normal\n", "t.stl").is_err());
/// # Ok::<(), experiments::inputs::InputError>(())
/// ```
pub fn decode_stl(bytes: &[u8], name: &str) -> Result<TriangleMesh, InputError> {
    mesh(bytes).map_err(|message| InputError::invalid(name, message))
}

/// [`decode_stl`] with the error as a message.
fn mesh(bytes: &[u8]) -> Result<TriangleMesh, String> {
    let mut ascii_error = None;
    if bytes.starts_with(b"solid") {
        let mut text = bytes.to_vec();
        if text.get(5).is_some_and(|&b| b == b'\n' || b == b'\r') {
            // A nameless "solid" line; stl_io wants a space after the keyword.
            text.insert(5, b' ');
        }
        match facets(&text) {
            Ok(corners) => return weld(corners),
            Err(e) => ascii_error = Some(e),
        }
    }
    match (binary_count(bytes), ascii_error) {
        (Some(_), _) => {
            // stl_io tells ASCII by a leading "solid "; a binary header is free text, so
            // its first bytes are blanked.
            let mut binary = bytes.to_vec();
            binary[..5].fill(b' ');
            weld(facets(&binary)?)
        }
        (None, Some(error)) => Err(error),
        (None, None) => Err("not an STL file (not ASCII starting with `solid`, and its size \
                             does not match a binary STL's triangle count)"
            .into()),
    }
}

/// The corners of every facet, or what went wrong.
fn facets(bytes: &[u8]) -> Result<Vec<[[f64; 3]; 3]>, String> {
    let mut cursor = Cursor::new(bytes);
    let reader = stl_io::create_stl_reader(&mut cursor)
        .map_err(|e| format!("not a readable STL file ({e})"))?;
    let mut corners = Vec::new();
    for (i, facet) in reader.enumerate() {
        let facet = facet.map_err(|e| format!("facet {i} does not parse ({e})"))?;
        let triangle = facet.vertices.map(|v| v.0.map(f64::from));
        if !triangle.iter().flatten().all(|x| x.is_finite()) {
            return Err(format!("facet {i} has a corner that is not finite: {triangle:?}"));
        }
        corners.push(triangle);
    }
    Ok(corners)
}

/// The welded mesh, or why there is none.
fn weld(corners: Vec<[[f64; 3]; 3]>) -> Result<TriangleMesh, String> {
    if corners.is_empty() {
        return Err("no triangles (the STL has no facets)".into());
    }
    TriangleMesh::welded(corners).ok_or_else(|| "more than 2^32 vertices".into())
}

/// The triangle count of a binary STL, when the file's size is exactly `84 + 50·count`.
fn binary_count(bytes: &[u8]) -> Option<usize> {
    let count = u32::from_le_bytes(bytes.get(80..84)?.try_into().ok()?) as usize;
    (count.checked_mul(50)?.checked_add(84)? == bytes.len()).then_some(count)
}
