//! glTF 2.0 surfaces, `.gltf` (JSON) or `.glb` (binary container), into one welded
//! [`TriangleMesh`] in world units, node transforms applied; the JSON is read with the
//! `gltf-json` crate, the container, buffers and accessors here with every size checked.
//!
//! **What is read.** The triangle primitives of every mesh that the default scene's node
//! trees reach (`scene`); without a default scene, those of every scene (a node in several
//! scenes counts once); without any scene, every mesh once, untransformed. A mesh used by
//! several nodes is read once per node. Each node's transform (`matrix`, or `translation`,
//! `rotation`, `scale` as `T·R·S`, the quaternion normalised; `matrix` wins when a node has
//! both) is composed down the hierarchy in `f64` and applied to the positions; normals go
//! through the inverse transpose of its upper 3×3 (through its cofactor matrix when that is
//! singular, a zero scale), not renormalised. A transform with a negative determinant
//! mirrors: the second and third corner of its triangles are swapped so the winding stays
//! consistent with the surface's outside.
//!
//! **Primitives.** Modes `TRIANGLES` (4, the default), `TRIANGLE_STRIP` (5) and
//! `TRIANGLE_FAN` (6), indexed or not, split into triangles as the glTF specification does;
//! points and lines (modes 0–3) are skipped. `POSITION` gives the vertices, `NORMAL` the
//! normals and `TEXCOORD_0` the texture coordinates, each kept only when every triangle
//! primitive has it. glTF's `v` counts down from the top of the image; it is stored as
//! `1 − v` (the convention of [`TriangleMesh`]). Accessors may be of any component type,
//! normalised or not (quantised data, `KHR_mesh_quantization`), and sparse. Materials,
//! textures, skins (a skinned mesh is read as stored, under its node's transform), morph
//! targets (the base shape), animations, cameras and other attributes are ignored.
//!
//! **Buffers.** The GLB binary chunk (buffer 0 without `uri`), `data:` URIs in base64, or
//! files named by a relative URI (percent-escapes decoded), found next to the `.gltf` file
//! by [`read_gltf`]; [`decode_gltf`], given only bytes, refuses external files, naming the
//! URI. Only the buffers the triangle primitives use are loaded.
//!
//! **Errors**, one line naming the file: not a GLB (bad version, a declared length other
//! than the file's, a chunk header cut short or a chunk longer than what follows it, a first
//! chunk that is not JSON); JSON that is not glTF; a glTF version other than 2; a required
//! extension that changes geometry or that this reader does not know (Draco and meshopt
//! compression, GPU instancing, ...); a reference to a scene, node, mesh, accessor, buffer
//! view or buffer that does not exist; a node reached twice (a cycle: the hierarchy is walked
//! without recursion, so depth cannot overflow the stack); a non-finite node transform;
//! an unknown primitive mode; an accessor of the wrong type (`POSITION` and `NORMAL` `VEC3`,
//! `TEXCOORD_0` `VEC2`, indices unsigned `SCALAR`) or an unknown component type; a buffer
//! whose data is shorter than its `byteLength`, a buffer view past its buffer, an accessor
//! past its buffer view, a byte stride shorter than an element, a sparse index past the
//! accessor, an accessor without a buffer view with more elements than the input has bytes
//! (all checked before anything is allocated for them); attribute counts that differ within
//! a primitive; a `TRIANGLES` index count that is not a multiple of 3; an index out of range
//! (naming it and the vertex count); a non-finite position, normal or texture coordinate;
//! no triangle at all (only points and lines, or no mesh in the scene).

use super::mesh::TriangleMesh;
use super::{InputError, read_bytes};
use gltf_json as json;
use json::accessor::{ComponentType, GenericComponentType, IndexComponentType, Type};
use json::mesh::{Mode, Semantic};
use json::validation::Checked;
use std::borrow::Cow;
use std::path::Path;

/// Reads the glTF (`.gltf` or `.glb`) file at `path`; buffers in external files are read from
/// its folder.
pub fn read_gltf(path: &Path) -> Result<TriangleMesh, InputError> {
    let bytes = read_bytes(path)?;
    let name = path.display().to_string();
    let folder = path.parent().unwrap_or(Path::new(""));
    decode(&bytes, Some(folder)).map_err(|message| InputError::invalid(&name, message))
}

/// Reads a mesh from the bytes of a glTF JSON or GLB file (told apart by GLB's magic bytes);
/// `name` is what messages call them. Buffers must be in the GLB or in `data:` URIs: there
/// is no folder to find other files in.
///
/// ```
/// use experiments::inputs::gltf_mesh::decode_gltf;
/// // One triangle: three float positions, not indexed, in a base64 data URI.
/// let floats: [f32; 9] = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
/// let bytes: Vec<u8> = floats.iter().flat_map(|x| x.to_le_bytes()).collect();
/// assert_eq!(bytes.len(), 36);
/// let data = "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAA"; // base64 of `bytes`
/// let gltf = format!(r#"{{
///   "asset": {{"version": "2.0"}},
///   "buffers": [{{"byteLength": 36, "uri": "data:application/octet-stream;base64,{data}"}}],
///   "bufferViews": [{{"buffer": 0, "byteLength": 36}}],
///   "accessors": [{{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3"}}],
///   "meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}}}]}}],
///   "nodes": [{{"mesh": 0, "translation": [0, 0, 5]}}],
///   "scenes": [{{"nodes": [0]}}]
/// }}"#);
/// let mesh = decode_gltf(gltf.as_bytes(), "triangle.gltf")?;
/// assert_eq!(mesh.vertices, vec![[0.0, 0.0, 5.0], [1.0, 0.0, 5.0], [0.0, 1.0, 5.0]]);
/// assert_eq!(mesh.triangles, vec![[0, 1, 2]]);
/// # Ok::<(), experiments::inputs::InputError>(())
/// ```
pub fn decode_gltf(bytes: &[u8], name: &str) -> Result<TriangleMesh, InputError> {
    decode(bytes, None).map_err(|message| InputError::invalid(name, message))
}

/// GLB's magic bytes and chunk types.
const GLB_MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

/// Required extensions that do not change geometry: the reader can ignore them (quantised
/// accessors are read like any other).
const HARMLESS_EXTENSIONS: &[&str] = &[
    "KHR_mesh_quantization",
    "KHR_texture_transform",
    "KHR_texture_basisu",
    "EXT_texture_webp",
    "KHR_lights_punctual",
    "KHR_materials_variants",
];

/// A node's transform, row-major; the last row is `[0, 0, 0, 1]` for every glTF node.
type Matrix = [[f64; 4]; 4];

const IDENTITY: Matrix =
    [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];

/// One triangle primitive to read: mesh, primitive and the node's world transform.
#[derive(Debug)]
struct Piece {
    mesh: usize,
    primitive: usize,
    transform: Matrix,
}

/// [`decode_gltf`] with the error as a message; external buffers are looked up in `folder`.
fn decode(bytes: &[u8], folder: Option<&Path>) -> Result<TriangleMesh, String> {
    let (text, bin) = if bytes.starts_with(GLB_MAGIC) { glb(bytes)? } else { (bytes, None) };
    let root = json::Root::from_slice(text)
        .map_err(|e| format!("not a readable glTF file ({})", one_line(&e.to_string())))?;
    check_version(&root)?;
    let mut pieces = Vec::new();
    let mut skipped = 0;
    for (mesh, transform) in instances(&root)? {
        let primitives = &root
            .meshes
            .get(mesh)
            .ok_or_else(|| format!("a node names mesh {mesh}, which does not exist"))?
            .primitives;
        for (primitive, p) in primitives.iter().enumerate() {
            match p.mode {
                Checked::Valid(Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan) => {
                    pieces.push(Piece { mesh, primitive, transform })
                }
                Checked::Valid(_) => skipped += 1,
                Checked::Invalid => {
                    return Err(format!("mesh {mesh} primitive {primitive} has an unknown mode"));
                }
            }
        }
    }
    if pieces.is_empty() {
        return Err(if skipped > 0 {
            "no triangles (the glTF has only points or lines)".into()
        } else {
            "no triangles (no mesh in the glTF's scene)".into()
        });
    }
    let primitive = |piece: &Piece| &root.meshes[piece.mesh].primitives[piece.primitive];
    let has = |semantic: Semantic| {
        pieces.iter().all(|piece| {
            primitive(piece).attributes.contains_key(&Checked::Valid(semantic.clone()))
        })
    };
    let (has_normals, has_uvs) = (has(Semantic::Normals), has(Semantic::TexCoords(0)));
    // The accessors to read, and from them the buffers to load.
    let mut accessors = Vec::new();
    for piece in &pieces {
        let p = primitive(piece);
        let mut wanted = vec![Semantic::Positions];
        wanted.extend(has_normals.then_some(Semantic::Normals));
        wanted.extend(has_uvs.then_some(Semantic::TexCoords(0)));
        accessors.extend(wanted.into_iter().filter_map(|s| p.attributes.get(&Checked::Valid(s))));
        accessors.extend(p.indices);
    }
    let reader = Reader::new(&root, &accessors, bytes.len(), bin, folder)?;
    let mut mesh = TriangleMesh {
        vertices: Vec::new(),
        triangles: Vec::new(),
        normals: has_normals.then(Vec::new),
        uvs: has_uvs.then(Vec::new),
    };
    for piece in &pieces {
        append(&reader, primitive(piece), piece, &mut mesh)?;
    }
    if mesh.triangles.is_empty() {
        return Err("no triangles (its triangle primitives have fewer than three vertices)".into());
    }
    mesh.weld()
}

/// `text` on one line: line breaks become spaces.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The JSON chunk and the binary chunk (if any) of a GLB container.
fn glb(bytes: &[u8]) -> Result<(&[u8], Option<&[u8]>), String> {
    let word = |at: usize| {
        let b = bytes.get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    let (Some(version), Some(length)) = (word(4), word(8)) else {
        return Err("the GLB header is cut short (it needs 12 bytes)".into());
    };
    if version != 2 {
        return Err(format!("GLB container version {version} (this reader reads version 2)"));
    }
    if length as usize != bytes.len() {
        return Err(format!(
            "the GLB header declares {length} bytes, but the file has {}",
            bytes.len()
        ));
    }
    let (mut at, mut chunk) = (12, 0);
    let (mut text, mut bin) = (None, None);
    while at < bytes.len() {
        let (Some(size), Some(kind)) = (word(at), word(at + 4)) else {
            return Err(format!("GLB chunk {chunk}'s header is cut short at byte {at}"));
        };
        let start = at + 8;
        let available = bytes.len() - start;
        if size as usize > available {
            return Err(format!(
                "GLB chunk {chunk} declares {size} bytes, but only {available} follow its header"
            ));
        }
        let data = &bytes[start..start + size as usize];
        match (chunk, kind) {
            (0, CHUNK_JSON) => text = Some(data),
            (0, _) => return Err("the first GLB chunk is not JSON".into()),
            (_, CHUNK_BIN) if bin.is_none() => bin = Some(data),
            _ => {} // other chunk types are skipped, as the specification asks
        }
        at = start + size as usize;
        chunk += 1;
    }
    let text = text.ok_or("the GLB has no JSON chunk")?;
    Ok((text, bin))
}

/// Refuses other glTF versions and required extensions that change geometry.
fn check_version(root: &json::Root) -> Result<(), String> {
    let major = |version: &str| version.split('.').next().map(str::to_string);
    let version = &root.asset.version;
    if major(version).as_deref() != Some("2") {
        return Err(format!("glTF version {version:?} (this reader reads glTF 2)"));
    }
    if let Some(min) = &root.asset.min_version
        && min != "2.0"
    {
        return Err(format!("the glTF needs a reader of version {min:?} (this one reads 2.0)"));
    }
    for extension in &root.extensions_required {
        if !HARMLESS_EXTENSIONS.contains(&extension.as_str())
            && !extension.starts_with("KHR_materials_")
        {
            return Err(format!(
                "the glTF requires the extension {extension:?}, which this reader does not \
                 support"
            ));
        }
    }
    Ok(())
}

/// Every mesh the scenes reach, with its node's world transform (see the module
/// documentation). The node trees are walked with a stack, not recursion; a node reached
/// twice within one scene is an error (a cycle, or a node with two parents).
fn instances(root: &json::Root) -> Result<Vec<(usize, Matrix)>, String> {
    if root.scenes.is_empty() {
        return Ok((0..root.meshes.len()).map(|m| (m, IDENTITY)).collect());
    }
    let scenes: Vec<usize> = match root.scene {
        Some(scene) if scene.value() >= root.scenes.len() => {
            return Err(format!("the default scene {} does not exist", scene.value()));
        }
        Some(scene) => vec![scene.value()],
        None => (0..root.scenes.len()).collect(),
    };
    // The scene (its place in `scenes`) in which each node was reached.
    let mut reached: Vec<Option<usize>> = vec![None; root.nodes.len()];
    let mut found = Vec::new();
    for (ordinal, &scene) in scenes.iter().enumerate() {
        let mut stack: Vec<(usize, Matrix)> =
            root.scenes[scene].nodes.iter().rev().map(|n| (n.value(), IDENTITY)).collect();
        while let Some((index, parent)) = stack.pop() {
            let node = root.nodes.get(index).ok_or_else(|| {
                format!("scene {scene} reaches node {index}, which does not exist")
            })?;
            match reached[index] {
                Some(earlier) if earlier == ordinal => {
                    return Err(format!(
                        "node {index} is reached twice in scene {scene} (the node hierarchy has \
                         a cycle, or a node with two parents)"
                    ));
                }
                Some(_) => continue, // already read with an earlier scene
                None => reached[index] = Some(ordinal),
            }
            let world = multiply(&parent, &local_transform(node, index)?);
            if !world.iter().flatten().all(|x| x.is_finite()) {
                return Err(format!("node {index}'s world transform is not finite"));
            }
            if let Some(mesh) = node.mesh {
                found.push((mesh.value(), world));
            }
            for child in node.children.iter().flatten().rev() {
                stack.push((child.value(), world));
            }
        }
    }
    Ok(found)
}

/// A node's own transform: its `matrix` (column-major in the file), or `T·R·S`.
fn local_transform(node: &json::scene::Node, index: usize) -> Result<Matrix, String> {
    let not_finite = || format!("node {index}'s transform is not finite");
    if let Some(m) = node.matrix {
        if !m.iter().all(|x| x.is_finite()) {
            return Err(not_finite());
        }
        return Ok(std::array::from_fn(|row| {
            std::array::from_fn(|col| f64::from(m[col * 4 + row]))
        }));
    }
    let t = node.translation.unwrap_or([0.0; 3]).map(f64::from);
    let s = node.scale.unwrap_or([1.0; 3]).map(f64::from);
    let q = node.rotation.map_or([0.0, 0.0, 0.0, 1.0], |q| q.0).map(f64::from);
    if !t.iter().chain(&s).chain(&q).all(|x| x.is_finite()) {
        return Err(not_finite());
    }
    let norm = q.iter().map(|x| x * x).sum::<f64>().sqrt();
    if norm == 0.0 {
        return Err(format!("node {index}'s rotation is the zero quaternion"));
    }
    let [x, y, z, w] = q.map(|c| c / norm);
    let r = [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w)],
        [2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w)],
        [2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y)],
    ];
    let mut m = IDENTITY;
    for row in 0..3 {
        for col in 0..3 {
            m[row][col] = r[row][col] * s[col];
        }
        m[row][3] = t[row];
    }
    Ok(m)
}

/// `a · b`.
fn multiply(a: &Matrix, b: &Matrix) -> Matrix {
    std::array::from_fn(|row| {
        std::array::from_fn(|col| (0..4).map(|k| a[row][k] * b[k][col]).sum())
    })
}

/// `a × b`.
fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// The matrix that carries normals under `m` (the inverse transpose of its upper 3×3, or its
/// cofactor matrix when that is singular), as columns; and whether `m` mirrors.
fn normal_matrix(m: &Matrix) -> ([[f64; 3]; 3], bool) {
    let column = |c: usize| [m[0][c], m[1][c], m[2][c]];
    let (a, b, c) = (column(0), column(1), column(2));
    let cofactor = [cross(b, c), cross(c, a), cross(a, b)];
    let det: f64 = a.iter().zip(&cofactor[0]).map(|(x, y)| x * y).sum();
    let scale = if det == 0.0 { 1.0 } else { 1.0 / det };
    (cofactor.map(|column| column.map(|x| x * scale)), det < 0.0)
}

/// Reads one triangle primitive and appends it, transformed, to `mesh`.
fn append(
    reader: &Reader,
    primitive: &json::mesh::Primitive,
    piece: &Piece,
    mesh: &mut TriangleMesh,
) -> Result<(), String> {
    let what = format!("mesh {} primitive {}", piece.mesh, piece.primitive);
    let attribute = |semantic: Semantic, label: &str, ty: Type| -> Result<Vec<f64>, String> {
        let index = primitive
            .attributes
            .get(&Checked::Valid(semantic))
            .ok_or_else(|| format!("{what} has no {label}"))?;
        reader.read(index.value(), &format!("{what} {label}"), ty)
    };
    let positions = attribute(Semantic::Positions, "POSITION", Type::Vec3)?;
    let count = positions.len() / 3;
    let same_count = |values: Vec<f64>, label: &str, size: usize| {
        if values.len() / size == count {
            Ok(values)
        } else {
            Err(format!("{what} has {} {label} values for {count} positions", values.len() / size))
        }
    };
    let normals = match mesh.normals {
        Some(_) => {
            Some(same_count(attribute(Semantic::Normals, "NORMAL", Type::Vec3)?, "NORMAL", 3)?)
        }
        None => None,
    };
    let uvs = match mesh.uvs {
        Some(_) => Some(same_count(
            attribute(Semantic::TexCoords(0), "TEXCOORD_0", Type::Vec2)?,
            "TEXCOORD_0",
            2,
        )?),
        None => None,
    };
    let indices: Vec<usize> = match primitive.indices {
        Some(index) => reader
            .read_indices(index.value(), &format!("{what} indices"))?
            .into_iter()
            .map(|i| {
                if i < count {
                    Ok(i)
                } else {
                    Err(format!("{what}: index {i} is out of range (it has {count} vertices)"))
                }
            })
            .collect::<Result<_, _>>()?,
        None => (0..count).collect(),
    };
    let corners: Vec<[usize; 3]> = match primitive.mode {
        Checked::Valid(Mode::TriangleStrip) => (0..indices.len().saturating_sub(2))
            .map(|i| {
                let v = &indices[i..i + 3];
                if i % 2 == 0 { [v[0], v[1], v[2]] } else { [v[0], v[2], v[1]] }
            })
            .collect(),
        Checked::Valid(Mode::TriangleFan) => (1..indices.len().saturating_sub(1))
            .map(|i| [indices[i], indices[i + 1], indices[0]])
            .collect(),
        _ => {
            if !indices.len().is_multiple_of(3) {
                return Err(format!(
                    "{what} has {} vertex indices, not a multiple of 3 (mode TRIANGLES)",
                    indices.len()
                ));
            }
            indices.chunks_exact(3).map(|t| [t[0], t[1], t[2]]).collect()
        }
    };
    let m = &piece.transform;
    let (normal_matrix, mirrored) = normal_matrix(m);
    let base = mesh.vertices.len();
    let too_many = || "more than 2^32 vertices".to_string();
    u32::try_from(base + count).map_err(|_| too_many())?;
    for (i, p) in positions.chunks_exact(3).enumerate() {
        if !p.iter().all(|x| x.is_finite()) {
            return Err(format!("{what}: POSITION {i} is not finite: {p:?}"));
        }
        let q: [f64; 3] =
            std::array::from_fn(|r| m[r][0] * p[0] + m[r][1] * p[1] + m[r][2] * p[2] + m[r][3]);
        if !q.iter().all(|x| x.is_finite()) {
            return Err(format!("{what}: POSITION {i} is not finite once transformed: {q:?}"));
        }
        mesh.vertices.push(q);
    }
    if let (Some(values), Some(normals)) = (normals, &mut mesh.normals) {
        for (i, n) in values.chunks_exact(3).enumerate() {
            let c = &normal_matrix;
            let q: [f64; 3] =
                std::array::from_fn(|r| c[0][r] * n[0] + c[1][r] * n[1] + c[2][r] * n[2]);
            if !q.iter().all(|x| x.is_finite()) {
                return Err(format!("{what}: NORMAL {i} is not finite: {n:?} → {q:?}"));
            }
            normals.push(q);
        }
    }
    if let (Some(values), Some(uvs)) = (uvs, &mut mesh.uvs) {
        for (i, t) in values.chunks_exact(2).enumerate() {
            if !t.iter().all(|x| x.is_finite()) {
                return Err(format!("{what}: TEXCOORD_0 {i} is not finite: {t:?}"));
            }
            uvs.push([t[0], 1.0 - t[1]]);
        }
    }
    // `base + count` fits in u32 (checked above), so every corner does.
    let corner = |i: usize| (base + i) as u32;
    for [a, b, c] in corners {
        let [a, b, c] = [a, b, c].map(corner);
        mesh.triangles.push(if mirrored { [a, c, b] } else { [a, b, c] });
    }
    Ok(())
}

/// Reads accessors from the loaded buffers, checking every size first.
#[derive(Debug)]
struct Reader<'a> {
    root: &'a json::Root,
    /// The data of each buffer the primitives use, cut to its `byteLength`.
    buffers: Vec<Option<Cow<'a, [u8]>>>,
    /// The most elements an accessor without a buffer view may have: the input's bytes.
    zeros_limit: usize,
}

impl<'a> Reader<'a> {
    /// Loads the buffers that `accessors` use (their buffer views and sparse views).
    fn new(
        root: &'a json::Root,
        accessors: &[json::Index<json::Accessor>],
        file_size: usize,
        bin: Option<&'a [u8]>,
        folder: Option<&Path>,
    ) -> Result<Reader<'a>, String> {
        let mut buffers: Vec<Option<Cow<'a, [u8]>>> = vec![None; root.buffers.len()];
        let mut zeros_limit = file_size;
        for accessor in accessors.iter().filter_map(|a| root.accessors.get(a.value())) {
            let mut views = vec![accessor.buffer_view];
            if let Some(sparse) = &accessor.sparse {
                views.extend([Some(sparse.indices.buffer_view), Some(sparse.values.buffer_view)]);
            }
            for view in views.into_iter().flatten().filter_map(|v| root.buffer_views.get(v.value()))
            {
                let index = view.buffer.value();
                let (Some(buffer), Some(slot)) = (root.buffers.get(index), buffers.get_mut(index))
                else {
                    continue; // reported when the accessor is read
                };
                if slot.is_none() {
                    let data = load_buffer(index, buffer, bin, folder)?;
                    zeros_limit = zeros_limit.saturating_add(data.len());
                    *slot = Some(data);
                }
            }
        }
        Ok(Reader { root, buffers, zeros_limit })
    }

    /// The values of accessor `index`, which must be of type `ty`, flattened and converted to
    /// `f64` (normalised integers mapped as glTF defines); `what` names it in messages.
    fn read(&self, index: usize, what: &str, ty: Type) -> Result<Vec<f64>, String> {
        let (accessor, component, name) = self.accessor(index, what, ty)?;
        let mut values = self.values(accessor, component, ty, &name)?;
        if accessor.normalized {
            let scale = |c: f64, max: f64| (c / max).max(-1.0);
            for v in &mut values {
                *v = match component {
                    ComponentType::I8 => scale(*v, 127.0),
                    ComponentType::U8 => scale(*v, 255.0),
                    ComponentType::I16 => scale(*v, 32767.0),
                    ComponentType::U16 => scale(*v, 65535.0),
                    ComponentType::U32 => scale(*v, 4294967295.0),
                    ComponentType::F32 => *v,
                };
            }
        }
        Ok(values)
    }

    /// The vertex indices in accessor `index`: unsigned integers, not normalised.
    fn read_indices(&self, index: usize, what: &str) -> Result<Vec<usize>, String> {
        let (accessor, component, name) = self.accessor(index, what, Type::Scalar)?;
        if !matches!(component, ComponentType::U8 | ComponentType::U16 | ComponentType::U32)
            || accessor.normalized
        {
            return Err(format!(
                "{name} are not unsigned bytes, shorts or ints (componentType 5121, 5123, 5125)"
            ));
        }
        // Whole numbers below 2^32: exact in f64 and in usize.
        Ok(self
            .values(accessor, component, Type::Scalar, &name)?
            .into_iter()
            .map(|i| i as usize)
            .collect())
    }

    /// Accessor `index`, checked to be of type `ty` with a known component type, and its name
    /// for messages.
    fn accessor(
        &self,
        index: usize,
        what: &str,
        ty: Type,
    ) -> Result<(&'a json::Accessor, ComponentType, String), String> {
        let accessor = self
            .root
            .accessors
            .get(index)
            .ok_or_else(|| format!("{what}: accessor {index} does not exist"))?;
        let name = format!("{what} (accessor {index})");
        if accessor.type_ != Checked::Valid(ty) {
            return Err(format!("{name} is not of type {}", type_name(ty)));
        }
        let Checked::Valid(GenericComponentType(component)) = accessor.component_type else {
            return Err(format!("{name} has an unknown componentType"));
        };
        Ok((accessor, component, name))
    }

    /// The raw values of an accessor: its elements, or zeros, with its sparse values put in.
    fn values(
        &self,
        accessor: &json::Accessor,
        component: ComponentType,
        ty: Type,
        name: &str,
    ) -> Result<Vec<f64>, String> {
        let size = ty.multiplicity() * component.size();
        let count = usize::try_from(accessor.count.0)
            .map_err(|_| format!("{name} has too many elements ({})", accessor.count.0))?;
        let mut values = match accessor.buffer_view {
            Some(view) => {
                let (data, stride) = self.view(view.value(), name)?;
                let stride = stride.unwrap_or(size);
                if stride < size {
                    return Err(format!(
                        "{name}: its buffer view's byteStride {stride} is shorter than an element \
                         ({size} bytes)"
                    ));
                }
                let offset = accessor.byte_offset.map_or(0, |o| o.0);
                elements(data, offset, stride, count, component, ty.multiplicity(), name)?
            }
            None => {
                if count > self.zeros_limit {
                    return Err(format!(
                        "{name} has no buffer view and {count} elements, more than the input has \
                         bytes ({})",
                        self.zeros_limit
                    ));
                }
                vec![0.0; count * ty.multiplicity()]
            }
        };
        if let Some(sparse) = &accessor.sparse {
            let n = usize::try_from(sparse.count.0).unwrap_or(usize::MAX);
            if n > count {
                return Err(format!("{name} has {n} sparse values for {count} elements"));
            }
            let Checked::Valid(IndexComponentType(index_type)) = sparse.indices.component_type
            else {
                return Err(format!("{name}: the sparse indices have an unknown componentType"));
            };
            let (data, _) = self.view(sparse.indices.buffer_view.value(), name)?;
            let indices = elements(
                data,
                sparse.indices.byte_offset.0,
                index_type.size(),
                n,
                index_type,
                1,
                &format!("{name} sparse indices"),
            )?;
            let (data, _) = self.view(sparse.values.buffer_view.value(), name)?;
            let replaced = elements(
                data,
                sparse.values.byte_offset.0,
                size,
                n,
                component,
                ty.multiplicity(),
                &format!("{name} sparse values"),
            )?;
            let k = ty.multiplicity();
            for (j, &i) in indices.iter().enumerate() {
                let i = i as usize;
                if i >= count {
                    return Err(format!(
                        "{name}: sparse index {i} is out of range (the accessor has {count} \
                         elements)"
                    ));
                }
                values[i * k..(i + 1) * k].copy_from_slice(&replaced[j * k..(j + 1) * k]);
            }
        }
        Ok(values)
    }

    /// The bytes of buffer view `index` and its stride.
    fn view(&self, index: usize, name: &str) -> Result<(&[u8], Option<usize>), String> {
        let view = self
            .root
            .buffer_views
            .get(index)
            .ok_or_else(|| format!("{name}: buffer view {index} does not exist"))?;
        let buffer = view.buffer.value();
        let data = self.buffers.get(buffer).and_then(Option::as_deref).ok_or_else(|| {
            format!("{name}: buffer view {index} names buffer {buffer}, which does not exist")
        })?;
        let offset = view.byte_offset.map_or(0, |o| o.0);
        let end = offset.saturating_add(view.byte_length.0);
        if end > data.len() as u64 {
            return Err(format!(
                "{name}: buffer view {index} (bytes {offset} to {end}) goes past the end of \
                 buffer {buffer} ({} bytes)",
                data.len()
            ));
        }
        Ok((&data[offset as usize..end as usize], view.byte_stride.map(|s| s.0)))
    }
}

/// The `count` elements of `comps` components each at `offset` in `data`, `stride` bytes
/// apart, flattened; an error when they do not fit (checked before allocating).
fn elements(
    data: &[u8],
    offset: u64,
    stride: usize,
    count: usize,
    component: ComponentType,
    comps: usize,
    name: &str,
) -> Result<Vec<f64>, String> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let size = component.size();
    let need = u128::from(offset) + (count as u128 - 1) * stride as u128 + (comps * size) as u128;
    if need > data.len() as u128 {
        return Err(format!(
            "{name} needs {need} bytes of its buffer view, which has {} (count {count})",
            data.len()
        ));
    }
    let mut values = Vec::with_capacity(count * comps);
    for i in 0..count {
        let at = offset as usize + i * stride;
        for c in 0..comps {
            let b = &data[at + c * size..at + (c + 1) * size];
            values.push(match component {
                ComponentType::I8 => f64::from(b[0] as i8),
                ComponentType::U8 => f64::from(b[0]),
                ComponentType::I16 => f64::from(i16::from_le_bytes([b[0], b[1]])),
                ComponentType::U16 => f64::from(u16::from_le_bytes([b[0], b[1]])),
                ComponentType::U32 => f64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
                ComponentType::F32 => f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            });
        }
    }
    Ok(values)
}

/// glTF's name of an accessor type.
fn type_name(ty: Type) -> &'static str {
    match ty {
        Type::Scalar => "SCALAR",
        Type::Vec2 => "VEC2",
        Type::Vec3 => "VEC3",
        Type::Vec4 => "VEC4",
        Type::Mat2 => "MAT2",
        Type::Mat3 => "MAT3",
        Type::Mat4 => "MAT4",
    }
}

/// The data of buffer `index`, cut to its `byteLength`; an error when it holds less.
fn load_buffer<'a>(
    index: usize,
    buffer: &json::Buffer,
    bin: Option<&'a [u8]>,
    folder: Option<&Path>,
) -> Result<Cow<'a, [u8]>, String> {
    let data: Cow<'a, [u8]> = match &buffer.uri {
        None if index == 0 => Cow::Borrowed(
            bin.ok_or("buffer 0 has no uri, and there is no GLB binary chunk to hold it")?,
        ),
        None => return Err(format!("buffer {index} has no uri (only buffer 0 may be GLB's)")),
        Some(uri) if uri.starts_with("data:") => Cow::Owned(data_uri(uri).ok_or_else(|| {
            format!("buffer {index}'s data: URI is not base64 data (`data:...;base64,...`)")
        })?),
        Some(uri) => {
            let relative = percent_decoded(uri)
                .filter(|path| !path.contains(':') && !path.starts_with('/'))
                .ok_or_else(|| {
                    format!(
                        "buffer {index}'s uri {uri:?} is neither a data: URI nor a relative file \
                         path"
                    )
                })?;
            let folder = folder.ok_or_else(|| {
                format!(
                    "buffer {index} is in the external file {uri:?}, which a glTF given as bytes \
                     cannot reach (read it from its file)"
                )
            })?;
            let path = folder.join(&relative);
            Cow::Owned(
                crate::inputs::read_file_bounded(&path)
                    .map_err(|e| format!("buffer {index}: cannot read {}: {e}", path.display()))?,
            )
        }
    };
    let declared = buffer.byte_length.0;
    if (data.len() as u64) < declared {
        return Err(format!(
            "buffer {index} declares {declared} bytes (byteLength), but its data has {}",
            data.len()
        ));
    }
    let declared = declared as usize;
    Ok(match data {
        Cow::Borrowed(data) => Cow::Borrowed(&data[..declared]),
        Cow::Owned(mut data) => {
            data.truncate(declared);
            Cow::Owned(data)
        }
    })
}

/// The bytes of a `data:[<media type>];base64,<data>` URI; `None` when it is not one.
fn data_uri(uri: &str) -> Option<Vec<u8>> {
    let (head, data) = uri.split_once(',')?;
    head.ends_with(";base64").then_some(())?;
    base64(data)
}

/// Decodes base64 (the standard or the URL-safe alphabet, padding optional).
fn base64(text: &str) -> Option<Vec<u8>> {
    let text = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 3);
    let (mut bits, mut held) = (0u32, 0u32);
    for byte in text.bytes() {
        let value = match byte {
            b'A'..=b'Z' => byte - b'A',
            b'a'..=b'z' => byte - b'a' + 26,
            b'0'..=b'9' => byte - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        bits = (bits << 6) | u32::from(value);
        held += 6;
        if held >= 8 {
            held -= 8;
            out.push((bits >> held) as u8);
            bits &= (1 << held) - 1;
        }
    }
    // Six bits left over means a lone character: not base64.
    (held < 6).then_some(out)
}

/// `uri` with its `%XX` escapes decoded; `None` when an escape is malformed or the result is
/// not UTF-8.
fn percent_decoded(uri: &str) -> Option<String> {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_decodes_with_and_without_padding() {
        assert_eq!(base64("TWFu").unwrap(), b"Man");
        assert_eq!(base64("TWE=").unwrap(), b"Ma");
        assert_eq!(base64("TWE").unwrap(), b"Ma");
        assert_eq!(base64("TQ==").unwrap(), b"M");
        assert_eq!(base64("").unwrap(), b"");
        assert_eq!(base64("TWFuT"), None);
        assert_eq!(base64("TW!u"), None);
    }

    #[test]
    fn percent_escapes() {
        assert_eq!(percent_decoded("a%20b.bin").as_deref(), Some("a b.bin"));
        assert_eq!(percent_decoded("a%2"), None);
        assert_eq!(percent_decoded("a%zz"), None);
    }

    #[test]
    fn trs_is_translation_rotation_scale() {
        let mut node: json::scene::Node = serde_json::from_str(
            r#"{"translation": [1, 2, 3], "scale": [2, 2, 2],
                "rotation": [0, 0, 0.7071067811865476, 0.7071067811865476]}"#,
        )
        .unwrap();
        let m = local_transform(&node, 0).unwrap();
        // (1, 0, 0) scaled to 2, turned a quarter about z to (0, 2, 0), moved by (1, 2, 3).
        let p: Vec<f64> = (0..3).map(|r| m[r][0] + m[r][3]).collect();
        assert!((p[0] - 1.0).abs() < 1e-6 && (p[1] - 4.0).abs() < 1e-6 && p[2] == 3.0, "{p:?}");
        node.rotation = Some(json::scene::UnitQuaternion([0.0; 4]));
        assert!(local_transform(&node, 4).unwrap_err().contains("node 4"));
    }
}
