//! PLY (Stanford polygon format) surfaces into a welded [`TriangleMesh`], with normals and
//! texture coordinates when the vertices carry them; and the PLY header and body reader that
//! the point-set reader [`crate::io::ply`] shares.
//!
//! Accepted: `format ascii 1.0`, `binary_little_endian 1.0` and `binary_big_endian 1.0`;
//! `comment` and `obj_info` lines; elements in any order; every scalar type (`char`/`int8`,
//! `uchar`/`uint8`, `short`/`int16`, `ushort`/`uint16`, `int`/`int32`, `uint`/`uint32`,
//! `float`/`float32`, `double`/`float64`) for every property, list counts and items included.
//!
//! - The first element named `vertex` gives the vertices: scalar properties `x`, `y`, `z`
//!   (required); the normal `nx`, `ny`, `nz` (all three, or it is ignored); the texture
//!   coordinate from the first pair present of `u` `v`, `s` `t`, `texture_u` `texture_v`
//!   (`v` up, as [`TriangleMesh`] keeps it). Other vertex properties (colours, ...) are
//!   ignored.
//! - The first element named `face` gives the faces: its list property `vertex_indices` (or
//!   `vertex_index`), 0-based vertex numbers. A face of more than three corners is split into
//!   a fan from its first corner; a face of fewer than three is skipped. Its other properties
//!   are ignored.
//! - Other elements (edges, materials, a second `vertex` or `face` element, ...) are skipped,
//!   lists included, and so is anything after the last element. Per-face texture
//!   coordinates (MeshLab's `texcoord` list) are not read.
//!
//! The mesh is then welded ([`TriangleMesh::weld`]); vertices no face uses are dropped.
//!
//! Errors: not a PLY header (no `ply` line, an unknown or missing `format`, an unknown type,
//! no `end_header`); a header that declares more records than the bytes after it can hold
//! (checked before anything is allocated: in binary files the smallest record size, lists
//! empty, times the count; in ASCII files one value and one separator per property); data
//! that ends early or a value that does not parse, naming the element and record; no `vertex`
//! element or one without `x`, `y`, `z`; no `face` element, or one without an index list; a
//! position, normal or texture coordinate that is not finite (naming the vertex); a face
//! index that is not a whole number or not below the vertex count (naming the face, the
//! index and the count); no triangle at all.

use super::mesh::TriangleMesh;
use super::{InputError, read_bytes};
use std::path::Path;

/// Reads the PLY mesh file at `path`.
pub fn read_ply_mesh(path: &Path) -> Result<TriangleMesh, InputError> {
    decode_ply_mesh(&read_bytes(path)?, &path.display().to_string())
}

/// Reads a mesh from the bytes of a PLY file; `name` is what messages call them.
///
/// ```
/// use experiments::inputs::ply_mesh::decode_ply_mesh;
/// let square = "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\n\
///               property float y\nproperty float z\nproperty float s\nproperty float t\n\
///               element face 1\nproperty list uchar int vertex_indices\nend_header\n\
///               0 0 0 0 0\n1 0 0 1 0\n1 1 0 1 1\n0 1 0 0 1\n4 0 1 2 3\n";
/// let mesh = decode_ply_mesh(square.as_bytes(), "square.ply")?;
/// assert_eq!(mesh.triangles, vec![[0, 1, 2], [0, 2, 3]]);
/// assert_eq!(mesh.uvs.as_ref().unwrap()[2], [1.0, 1.0]);
/// assert_eq!(mesh.normals, None);
/// assert!(decode_ply_mesh(b"ply\nformat ascii 1.0\nend_header\n", "empty.ply").is_err());
/// # Ok::<(), experiments::inputs::InputError>(())
/// ```
pub fn decode_ply_mesh(bytes: &[u8], name: &str) -> Result<TriangleMesh, InputError> {
    mesh(bytes).map_err(|message| InputError::invalid(name, message))
}

/// Where the vertex element keeps what a mesh needs: property positions in its records.
#[derive(Debug)]
struct VertexLayout {
    position: [usize; 3],
    normal: Option<[usize; 3]>,
    uv: Option<[usize; 2]>,
}

impl VertexLayout {
    fn of(vertex: &Element) -> Result<VertexLayout, String> {
        let find = |name: &str| {
            vertex
                .properties
                .iter()
                .position(|p| p.name == name && matches!(p.kind, Kind::Scalar(_)))
        };
        let all = |names: &[&str]| names.iter().map(|n| find(n)).collect::<Option<Vec<usize>>>();
        let mut position = [0; 3];
        for (slot, axis) in position.iter_mut().zip(["x", "y", "z"]) {
            *slot = find(axis).ok_or_else(|| {
                format!(
                    "the vertex element has no scalar property '{axis}' (x, y and z are needed)"
                )
            })?;
        }
        let normal = all(&["nx", "ny", "nz"]).map(|k| [k[0], k[1], k[2]]);
        let uv = [["u", "v"], ["s", "t"], ["texture_u", "texture_v"]]
            .iter()
            .find_map(|pair| all(pair))
            .map(|k| [k[0], k[1]]);
        Ok(VertexLayout { position, normal, uv })
    }
}

/// [`decode_ply_mesh`] with the error as a message.
fn mesh(bytes: &[u8]) -> Result<TriangleMesh, String> {
    let header = parse_header(bytes)?;
    check_sizes(&header, bytes.len() - header.body)?;
    let elements = &header.elements;
    let vertex_at = elements
        .iter()
        .position(|e| e.name == "vertex")
        .ok_or("no `vertex` element (a PLY mesh needs vertices and faces)")?;
    let face_at = elements
        .iter()
        .position(|e| e.name == "face")
        .ok_or("no faces (the PLY has no `face` element; a point cloud is not a surface)")?;
    let layout = VertexLayout::of(&elements[vertex_at])?;
    let face = &elements[face_at];
    let list_at = face
        .properties
        .iter()
        .position(|p| {
            matches!(p.kind, Kind::List(..))
                && matches!(p.name.as_str(), "vertex_indices" | "vertex_index")
        })
        .ok_or("the face element has no list property `vertex_indices` (or `vertex_index`)")?;
    let vertex_count = elements[vertex_at].count;
    if vertex_count > u32::MAX as usize {
        return Err(format!("{vertex_count} vertices, more than a mesh holds (2^32 − 1)"));
    }
    // The counts were checked against the bytes: these hold at most a few times the file.
    let mut mesh = TriangleMesh {
        vertices: Vec::with_capacity(vertex_count),
        triangles: Vec::with_capacity(face.count),
        normals: layout.normal.map(|_| Vec::with_capacity(vertex_count)),
        uvs: layout.uv.map(|_| Vec::with_capacity(vertex_count)),
    };
    let mut body = Body::new(&header, bytes);
    for (e, element) in elements.iter().enumerate() {
        if e == vertex_at {
            read_vertices(&mut body, element, &layout, &mut mesh)?;
        } else if e == face_at {
            read_faces(&mut body, element, list_at, vertex_count, &mut mesh.triangles)?;
        } else if !element.properties.is_empty() {
            for i in 0..element.count {
                body.record(&element.properties, |_, _| {})
                    .map_err(|m| format!("element '{}' record {i}: {m}", element.name))?;
            }
        }
    }
    if mesh.triangles.is_empty() {
        return Err("no triangles (the face element has no face of three or more corners)".into());
    }
    mesh.weld()
}

/// Reads the vertex records into `mesh`: positions, and normals and texture coordinates when
/// the mesh has room for them.
fn read_vertices(
    body: &mut Body,
    vertex: &Element,
    layout: &VertexLayout,
    mesh: &mut TriangleMesh,
) -> Result<(), String> {
    let mut record = vec![0.0; vertex.properties.len()];
    for i in 0..vertex.count {
        body.record(&vertex.properties, |k, v| record[k] = v)
            .map_err(|m| format!("vertex {i}: {m}"))?;
        let finite = |what: &str, values: &[f64]| {
            if values.iter().all(|x| x.is_finite()) {
                Ok(())
            } else {
                Err(format!("vertex {i}: the {what} {values:?} is not finite"))
            }
        };
        let p = layout.position.map(|k| record[k]);
        finite("position", &p)?;
        mesh.vertices.push(p);
        if let (Some(k), Some(normals)) = (layout.normal, &mut mesh.normals) {
            let n = k.map(|k| record[k]);
            finite("normal", &n)?;
            normals.push(n);
        }
        if let (Some(k), Some(uvs)) = (layout.uv, &mut mesh.uvs) {
            let t = k.map(|k| record[k]);
            finite("texture coordinate", &t)?;
            uvs.push(t);
        }
    }
    Ok(())
}

/// Reads the face records, each list of vertex indices split into a fan of triangles.
fn read_faces(
    body: &mut Body,
    face: &Element,
    list_at: usize,
    vertex_count: usize,
    triangles: &mut Vec<[u32; 3]>,
) -> Result<(), String> {
    let mut corners = Vec::new();
    for f in 0..face.count {
        body.record_with_list(&face.properties, Some((list_at, &mut corners)), |_, _| {})
            .map_err(|m| format!("face {f}: {m}"))?;
        if corners.len() < 3 {
            continue;
        }
        let index = |x: f64| -> Result<u32, String> {
            if x.fract() != 0.0 {
                Err(format!("face {f}: vertex index {x} is not a whole number"))
            } else if !(0.0..vertex_count as f64).contains(&x) {
                Err(format!(
                    "face {f}: vertex index {x} is out of range (the file has {vertex_count} \
                     vertices)"
                ))
            } else {
                Ok(x as u32)
            }
        };
        let first = index(corners[0])?;
        for pair in corners[1..].windows(2) {
            triangles.push([first, index(pair[0])?, index(pair[1])?]);
        }
    }
    Ok(())
}

/// Checks, before anything is read or allocated, that the bytes after the header can hold the
/// records the header declares: at least the smallest record size (lists empty) times the
/// count in a binary file; at least one value and one separator per property in an ASCII
/// file.
fn check_sizes(header: &Header, available: usize) -> Result<(), String> {
    let ascii = header.encoding == Encoding::Ascii;
    let mut need: u128 = 0;
    for element in &header.elements {
        let smallest: u128 = if ascii {
            2 * element.properties.len() as u128
        } else {
            element
                .properties
                .iter()
                .map(|p| match p.kind {
                    Kind::Scalar(scalar) | Kind::List(scalar, _) => scalar.size() as u128,
                })
                .sum()
        };
        need = need.saturating_add(smallest.saturating_mul(element.count as u128));
        // The last ASCII value needs no separator after it.
        if need > available as u128 + u128::from(ascii) {
            return Err(format!(
                "the header declares {} '{}' records, more than the file holds: with the \
                 elements before them they need at least {need} bytes, and {available} bytes \
                 follow the header",
                element.count, element.name
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// The PLY header and body, shared with the point-set reader `crate::io::ply`.

/// How the body is stored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Encoding {
    Ascii,
    LittleEndian,
    BigEndian,
}

/// A scalar type of PLY.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Scalar {
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    F32,
    F64,
}

impl Scalar {
    fn parse(name: &str) -> Option<Scalar> {
        Some(match name {
            "char" | "int8" => Scalar::I8,
            "uchar" | "uint8" => Scalar::U8,
            "short" | "int16" => Scalar::I16,
            "ushort" | "uint16" => Scalar::U16,
            "int" | "int32" => Scalar::I32,
            "uint" | "uint32" => Scalar::U32,
            "float" | "float32" => Scalar::F32,
            "double" | "float64" => Scalar::F64,
            _ => return None,
        })
    }

    fn size(self) -> usize {
        match self {
            Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::F64 => 8,
        }
    }
}

/// A property: a scalar, or a list (its count type and item type).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    Scalar(Scalar),
    List(Scalar, Scalar),
}

/// A property of an element, as the header declares it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Property {
    pub(crate) name: String,
    pub(crate) kind: Kind,
}

/// An element: its name, its record count and the properties of each record.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Element {
    pub(crate) name: String,
    pub(crate) count: usize,
    pub(crate) properties: Vec<Property>,
}

/// The parsed header and where the body starts.
#[derive(Debug)]
pub(crate) struct Header {
    pub(crate) encoding: Encoding,
    pub(crate) elements: Vec<Element>,
    /// The offset of the body's first byte.
    pub(crate) body: usize,
}

/// Parses the header at the start of `bytes`; the error is a message.
pub(crate) fn parse_header(bytes: &[u8]) -> Result<Header, String> {
    if !bytes.starts_with(b"ply\n") && !bytes.starts_with(b"ply\r\n") {
        return Err("not a PLY file (it does not start with the line `ply`)".into());
    }
    let mut encoding = None;
    let mut elements: Vec<Element> = Vec::new();
    let mut offset = 0;
    loop {
        let end = bytes[offset..]
            .iter()
            .position(|&b| b == b'\n')
            .ok_or("the PLY header has no `end_header` line")?;
        let line = std::str::from_utf8(&bytes[offset..offset + end])
            .map_err(|_| "the PLY header is not text")?
            .trim_end_matches('\r');
        offset += end + 1;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["ply"] | [] => {}
            ["comment", ..] | ["obj_info", ..] => {}
            ["format", format, "1.0"] => {
                encoding = Some(match *format {
                    "ascii" => Encoding::Ascii,
                    "binary_little_endian" => Encoding::LittleEndian,
                    "binary_big_endian" => Encoding::BigEndian,
                    other => return Err(format!("unknown PLY format '{other}'")),
                });
            }
            ["element", name, count] => {
                let count = count
                    .parse()
                    .map_err(|_| format!("element '{name}' has a bad count '{count}'"))?;
                elements.push(Element { name: name.to_string(), count, properties: Vec::new() });
            }
            ["property", "list", count, item, name] => {
                let kind = match (Scalar::parse(count), Scalar::parse(item)) {
                    (Some(c), Some(i)) => Kind::List(c, i),
                    _ => return Err(format!("property '{name}' has an unknown type")),
                };
                let element = elements
                    .last_mut()
                    .ok_or_else(|| format!("property '{name}' comes before any element"))?;
                element.properties.push(Property { name: name.to_string(), kind });
            }
            ["property", ty, name] => {
                let scalar = Scalar::parse(ty)
                    .ok_or_else(|| format!("property '{name}' has unknown type '{ty}'"))?;
                let element = elements
                    .last_mut()
                    .ok_or_else(|| format!("property '{name}' comes before any element"))?;
                element
                    .properties
                    .push(Property { name: name.to_string(), kind: Kind::Scalar(scalar) });
            }
            ["end_header"] => break,
            _ => return Err(format!("unreadable PLY header line '{line}'")),
        }
    }
    let encoding = encoding.ok_or("the PLY header has no `format` line")?;
    Ok(Header { encoding, elements, body: offset })
}

/// Reads the body's values one at a time, in either encoding.
#[derive(Debug)]
pub(crate) struct Body<'a> {
    encoding: Encoding,
    bytes: &'a [u8],
    position: usize,
}

impl<'a> Body<'a> {
    /// The body of the file `bytes` whose header is `header`, at its first value.
    pub(crate) fn new(header: &Header, bytes: &'a [u8]) -> Body<'a> {
        Body { encoding: header.encoding, bytes, position: header.body }
    }

    /// The next value of type `scalar`, as `f64` (exact for every PLY type).
    pub(crate) fn next(&mut self, scalar: Scalar) -> Result<f64, String> {
        if self.encoding == Encoding::Ascii {
            let rest = &self.bytes[self.position..];
            let start =
                rest.iter().position(|b| !b.is_ascii_whitespace()).ok_or("the file ends early")?;
            let length = rest[start..]
                .iter()
                .position(|b| b.is_ascii_whitespace())
                .unwrap_or(rest.len() - start);
            self.position += start + length;
            let token =
                std::str::from_utf8(&rest[start..start + length]).map_err(|_| "not text")?;
            return token.parse::<f64>().map_err(|_| format!("'{token}' is not a number"));
        }
        let size = scalar.size();
        let raw =
            self.bytes.get(self.position..self.position + size).ok_or("the file ends early")?;
        self.position += size;
        let mut b = [0u8; 8];
        b[..size].copy_from_slice(raw);
        if self.encoding == Encoding::BigEndian {
            b[..size].reverse();
        }
        Ok(match scalar {
            Scalar::I8 => f64::from(b[0] as i8),
            Scalar::U8 => f64::from(b[0]),
            Scalar::I16 => f64::from(i16::from_le_bytes([b[0], b[1]])),
            Scalar::U16 => f64::from(u16::from_le_bytes([b[0], b[1]])),
            Scalar::I32 => f64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            Scalar::U32 => f64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            Scalar::F32 => f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            Scalar::F64 => f64::from_le_bytes(b),
        })
    }

    /// Reads one record of `properties`, calling `keep(k, value)` for scalar property `k`;
    /// lists are skipped.
    pub(crate) fn record(
        &mut self,
        properties: &[Property],
        keep: impl FnMut(usize, f64),
    ) -> Result<(), String> {
        self.record_with_list(properties, None, keep)
    }

    /// [`Body::record`], also keeping the items of the list property `list.0` in `list.1`
    /// (cleared first).
    pub(crate) fn record_with_list(
        &mut self,
        properties: &[Property],
        mut list: Option<(usize, &mut Vec<f64>)>,
        mut keep: impl FnMut(usize, f64),
    ) -> Result<(), String> {
        for (k, property) in properties.iter().enumerate() {
            match property.kind {
                Kind::Scalar(scalar) => keep(k, self.next(scalar)?),
                Kind::List(count, item) => {
                    let n = self.next(count)?;
                    if !(n >= 0.0 && n.fract() == 0.0) {
                        return Err(format!("list '{}' has a bad length {n}", property.name));
                    }
                    let mut items = match &mut list {
                        Some((at, items)) if *at == k => {
                            items.clear();
                            Some(items)
                        }
                        _ => None,
                    };
                    // A length past the data ends with "the file ends early": nothing is
                    // allocated for it up front.
                    for _ in 0..n as usize {
                        let value = self.next(item)?;
                        if let Some(items) = items.as_mut() {
                            items.push(value);
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
