//! Any mesh file whose surface is to be sampled, read by the reader its extension names into
//! one [`TriangleMesh`]: `.obj` ([`super::obj`]), `.stl` ([`super::stl`]), `.ply`
//! ([`super::ply_mesh`]), `.gltf` and `.glb` ([`super::gltf_mesh`]); the extension's case
//! does not matter. All give welded vertices and the file's triangles, degenerate ones
//! included; normals and texture coordinates (`v` up) when the file has them for every
//! corner (never for STL).

use super::mesh::TriangleMesh;
use super::{InputError, gltf_mesh, obj, ply_mesh, read_bytes, stl};
use std::path::Path;

/// The extensions [`read_mesh`] and [`decode_mesh`] take, lower case, without the dot.
pub const MESH_EXTENSIONS: [&str; 5] = ["obj", "stl", "ply", "gltf", "glb"];

/// Reads the mesh file at `path`, choosing the reader by its extension. A `.gltf` file's
/// external buffers are read from its folder. An unknown extension is refused, before the
/// file is read, with a message that lists the known ones.
pub fn read_mesh(path: &Path) -> Result<TriangleMesh, InputError> {
    let name = path.display().to_string();
    let extension = path.extension().map(|e| e.to_string_lossy()).unwrap_or_default();
    match known(&extension, &name)? {
        "gltf" | "glb" => gltf_mesh::read_gltf(path),
        kind => decode_known(&read_bytes(path)?, &name, kind),
    }
}

/// Reads a mesh from the bytes of a file of kind `extension` (`"obj"`, `".PLY"`, ...: case
/// and a leading dot do not matter); `name` is what messages call the bytes. A glTF file
/// read this way must hold its buffers (GLB binary chunk or `data:` URIs).
///
/// ```
/// use experiments::inputs::surface_mesh::decode_mesh;
/// let triangle = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
/// let mesh = decode_mesh(triangle.as_bytes(), "triangle.obj", "OBJ")?;
/// assert_eq!(mesh.triangles, vec![[0, 1, 2]]);
/// let error = decode_mesh(triangle.as_bytes(), "triangle.3ds", "3ds").unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "triangle.3ds: unknown mesh extension '.3ds' (known: .obj, .stl, .ply, .gltf, .glb)"
/// );
/// # Ok::<(), experiments::inputs::InputError>(())
/// ```
pub fn decode_mesh(bytes: &[u8], name: &str, extension: &str) -> Result<TriangleMesh, InputError> {
    let kind = known(extension.strip_prefix('.').unwrap_or(extension), name)?;
    decode_known(bytes, name, kind)
}

/// The reader's name for `extension`, or the error that lists the known ones.
fn known(extension: &str, name: &str) -> Result<&'static str, InputError> {
    let lower = extension.to_ascii_lowercase();
    MESH_EXTENSIONS.into_iter().find(|&e| e == lower).ok_or_else(|| {
        let list: Vec<String> = MESH_EXTENSIONS.iter().map(|e| format!(".{e}")).collect();
        let given = if extension.is_empty() {
            "no extension".to_string()
        } else {
            format!("unknown mesh extension '.{}'", extension.escape_debug())
        };
        InputError::invalid(name, format!("{given} (known: {})", list.join(", ")))
    })
}

/// Decodes `bytes` with the reader of `kind`, one of [`MESH_EXTENSIONS`].
fn decode_known(bytes: &[u8], name: &str, kind: &str) -> Result<TriangleMesh, InputError> {
    match kind {
        "obj" => obj::decode_obj(bytes, name),
        "stl" => stl::decode_stl(bytes, name),
        "ply" => ply_mesh::decode_ply_mesh(bytes, name),
        _ => gltf_mesh::decode_gltf(bytes, name),
    }
}
