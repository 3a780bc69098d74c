//! The surface mesh readers: OBJ (with `vt`/`vn`), STL, PLY (ASCII and both binary byte
//! orders) and glTF/GLB into one `TriangleMesh` with optional normals and texture
//! coordinates, and every refusal. Fixtures are built here, byte by byte; files go to a
//! temporary directory where a path is needed.

use experiments::inputs::gltf_mesh::decode_gltf;
use experiments::inputs::obj::decode_obj;
use experiments::inputs::ply_mesh::decode_ply_mesh;
use experiments::inputs::stl::decode_stl;
use experiments::inputs::{InputError, TriangleMesh, decode_mesh, read_mesh};

/// A one-line message naming `name`.
fn message(error: InputError, name: &str) -> String {
    let text = error.to_string();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.contains(name), "{text}");
    text
}

/// The error message of `result`, checked to name `name` and to contain `expected`.
fn refused(result: Result<TriangleMesh, InputError>, name: &str, expected: &str) -> String {
    let text = message(result.expect_err(expected), name);
    assert!(text.contains(expected), "expected '{expected}' in: {text}");
    text
}

/// A tetrahedron with a right-angled corner at the origin, wound outwards, its vertices in
/// order of first use (so welding keeps their numbers).
const TETRA: [[f64; 3]; 4] = [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]];
const TETRA_FACES: [[u32; 3]; 4] = [[0, 1, 2], [0, 2, 3], [0, 3, 1], [1, 3, 2]];

/// The tetrahedron as a mesh without attributes.
fn tetra() -> TriangleMesh {
    TriangleMesh {
        vertices: TETRA.to_vec(),
        triangles: TETRA_FACES.to_vec(),
        normals: None,
        uvs: None,
    }
}

/// Six times the signed volume enclosed by `mesh` (positive for outward winding).
fn signed_volume6(mesh: &TriangleMesh) -> f64 {
    mesh.triangles
        .iter()
        .map(|t| {
            let [a, b, c] = t.map(|i| mesh.vertices[i as usize]);
            a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
                + a[2] * (b[0] * c[1] - b[1] * c[0])
        })
        .sum()
}

/// The triangles as corner positions, sorted: compares meshes whatever their vertex order.
fn corner_triangles(mesh: &TriangleMesh) -> Vec<[[u64; 3]; 3]> {
    let mut t: Vec<[[u64; 3]; 3]> = mesh
        .triangles
        .iter()
        .map(|t| t.map(|i| mesh.vertices[i as usize].map(|x| (x + 0.0).to_bits())))
        .collect();
    t.sort();
    t
}

fn assert_close(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-6, "{what}: got {got:?}, want {want:?}");
    }
}

// ---------------------------------------------------------------------------------------
// OBJ

/// A unit cube as Blender writes it: 8 positions, one normal per face, texture coordinates
/// per corner, quads.
fn blender_cube() -> String {
    let mut text = String::from("# cube\no Cube\n");
    for i in 0..8 {
        text += &format!("v {} {} {}\n", i & 1, (i >> 1) & 1, (i >> 2) & 1);
    }
    for uv in ["0 0", "1 0", "1 1", "0 1"] {
        text += &format!("vt {uv}\n");
    }
    let faces = [
        ([0, 2, 3, 1], "0 0 -1"),
        ([4, 5, 7, 6], "0 0 1"),
        ([0, 1, 5, 4], "0 -1 0"),
        ([2, 6, 7, 3], "0 1 0"),
        ([0, 4, 6, 2], "-1 0 0"),
        ([1, 3, 7, 5], "1 0 0"),
    ];
    for (_, normal) in &faces {
        text += &format!("vn {normal}\n");
    }
    text += "s 0\n";
    for (k, (q, _)) in faces.iter().enumerate() {
        text += "f";
        for (corner, v) in q.iter().enumerate() {
            text += &format!(" {}/{}/{}", v + 1, corner + 1, k + 1);
        }
        text += "\n";
    }
    text
}

#[test]
fn obj_with_normals_and_texture_coordinates_splits_corners_per_face() {
    let mesh = decode_obj(blender_cube().as_bytes(), "cube.obj").unwrap();
    // Every corner of every face is its own (position, uv, normal): 6 × 4 vertices.
    assert_eq!((mesh.vertices.len(), mesh.triangles.len()), (24, 12));
    let normals = mesh.normals.as_ref().unwrap();
    let uvs = mesh.uvs.as_ref().unwrap();
    assert_eq!((normals.len(), uvs.len()), (24, 24));
    // The first face (-z): corners 1, 3, 4, 2 with uvs (0,0), (1,0), (1,1), (0,1).
    assert_eq!(mesh.triangles[..2], [[0, 1, 2], [0, 2, 3]]);
    assert_eq!(
        &mesh.vertices[..4],
        &[[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0], [1.0, 0.0, 0.0]]
    );
    assert_eq!(&uvs[..4], &[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]);
    assert!(normals[..4].iter().all(|n| *n == [0.0, 0.0, -1.0]));
    // Each vertex's normal is its face's, and every face is a side of the cube.
    for t in &mesh.triangles {
        let n = normals[t[0] as usize];
        assert!(t.iter().all(|&i| normals[i as usize] == n));
    }
    // By position alone the cube is closed again.
    let solid = mesh.positions_only().unwrap();
    assert_eq!((solid.vertices.len(), solid.triangles.len(), solid.unpaired_edges()), (8, 12, 0));
    assert_eq!((&solid.normals, &solid.uvs), (&None, &None));
    assert!(signed_volume6(&solid) > 0.0);
}

#[test]
fn obj_attributes_only_some_faces_have_are_dropped() {
    let mut text = String::from("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nvn 0 0 1\nvt 0.5 0.5\n");
    text += "f 1/1/1 3/1/1 2/1/1\n"; // both
    text += "f 1//1 2//1 4//1\n"; // normal only
    text += "f 1/1 4/1 3/1\n"; // uv only
    text += "f 2 3 4\n"; // neither
    let mesh = decode_obj(text.as_bytes(), "mixed.obj").unwrap();
    assert_eq!((&mesh.normals, &mesh.uvs), (&None, &None));
    // Without attributes the corners weld by position: the closed tetrahedron.
    assert_eq!((mesh.vertices.len(), mesh.triangles.len(), mesh.unpaired_edges()), (4, 4, 0));
    // Only normals everywhere: normals kept, texture coordinates dropped.
    let normals_only = "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\nf 1/1/1 2//1 3//1\n";
    let mesh = decode_obj(normals_only.as_bytes(), "n.obj").unwrap();
    assert_eq!(mesh.normals, Some(vec![[0.0, 0.0, 1.0]; 3]));
    assert_eq!(mesh.uvs, None);
}

#[test]
fn obj_relative_indices_reach_texture_coordinates_and_normals() {
    let text = "v 0 0 0\nv 2 0 0\nv 0 2 0\nvt 0 0\nvt 1 0\nvt 0 1\nvn 0 0 2\n\
                f -3/-3/-1 -2/-2/-1 -1/-1/-1\n";
    let mesh = decode_obj(text.as_bytes(), "relative.obj").unwrap();
    assert_eq!(mesh.vertices, vec![[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [0.0, 2.0, 0.0]]);
    assert_eq!(mesh.uvs, Some(vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]));
    // Normals are the file's, not normalised.
    assert_eq!(mesh.normals, Some(vec![[0.0, 0.0, 2.0]; 3]));
}

#[test]
fn obj_polylines_of_three_points_are_not_faces_and_degenerate_faces_stay() {
    let text = "v 0 0 0\nv 1 0 0\nv 0 1 0\nl 1 2 3\nf 1 2 3\nf 1 1 2\n";
    let mesh = decode_obj(text.as_bytes(), "lines.obj").unwrap();
    assert_eq!(mesh.triangles, vec![[0, 1, 2], [0, 0, 1]]);
}

#[test]
fn obj_refusals_name_the_line_and_the_index() {
    let cases: [(&str, &str); 7] = [
        (
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 9\n",
            "line 4: vertex index 9 is out of bounds (the file has 3",
        ),
        (
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nf 1/2 2/1 3/1\n",
            "texture coordinate index 2 is out of bounds",
        ),
        (
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1//1 2//1 3//1\n",
            "normal index 1 is out of bounds (the file has 0",
        ),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 -99999999999999999\n", "out of bounds"),
        ("v 0 0 0\nv 1 0 0\n", "no triangles"),
        ("v 0 0 0\nv 1 0 0\nv 0 1 0\nvn nan 0 1\nf 1//1 2//1 3//1\n", "normal (vn) is not finite"),
        ("v 0 0 0\nv 1 0 inf\nv 0 1 0\nf 1 2 3\n", "position is not finite"),
    ];
    for (text, expected) in cases {
        refused(decode_obj(text.as_bytes(), "shape.obj"), "shape.obj", expected);
    }
}

// ---------------------------------------------------------------------------------------
// STL

fn binary_stl(triangles: &[[[f32; 3]; 3]]) -> Vec<u8> {
    let mut bytes = vec![b' '; 80];
    bytes.extend((triangles.len() as u32).to_le_bytes());
    for t in triangles {
        bytes.extend([0.0f32, 0.0, 1.0].iter().flat_map(|x| x.to_le_bytes())); // a facet normal
        bytes.extend(t.iter().flatten().flat_map(|x| x.to_le_bytes()));
        bytes.extend([0, 0]);
    }
    bytes
}

fn tetra_corners() -> Vec<[[f32; 3]; 3]> {
    TETRA_FACES.iter().map(|t| t.map(|i| TETRA[i as usize].map(|x| x as f32))).collect()
}

#[test]
fn stl_gives_positions_only() {
    let mesh = decode_stl(&binary_stl(&tetra_corners()), "tetra.stl").unwrap();
    assert_eq!((mesh.vertices.len(), mesh.triangles.len(), mesh.unpaired_edges()), (4, 4, 0));
    assert_eq!(mesh.vertices, TETRA.to_vec());
    assert_eq!(mesh.triangles, TETRA_FACES.to_vec());
    // Facet normals are per face: not vertex normals.
    assert_eq!((&mesh.normals, &mesh.uvs), (&None, &None));
    let mut nan = tetra_corners();
    nan[2][1][0] = f32::NAN;
    refused(decode_stl(&binary_stl(&nan), "nan.stl"), "nan.stl", "not finite");
    refused(decode_stl(&binary_stl(&[]), "empty.stl"), "empty.stl", "no triangles");
}

// ---------------------------------------------------------------------------------------
// PLY

/// A scalar value written in one of PLY's encodings.
#[derive(Clone, Copy)]
enum Value {
    F32(f32),
    F64(f64),
    U8(u8),
    I16(i16),
    U16(u16),
    I32(i32),
    U32(u32),
}

#[derive(Clone, Copy, PartialEq)]
enum Encoding {
    Ascii,
    Little,
    Big,
}

fn put(out: &mut Vec<u8>, encoding: Encoding, value: Value) {
    macro_rules! bytes {
        ($v:expr) => {
            match encoding {
                Encoding::Ascii => out.extend(format!("{} ", $v).bytes()),
                Encoding::Little => out.extend($v.to_le_bytes()),
                Encoding::Big => out.extend($v.to_be_bytes()),
            }
        };
    }
    match value {
        Value::F32(v) => bytes!(v),
        Value::F64(v) => bytes!(v),
        Value::U8(v) => bytes!(v),
        Value::I16(v) => bytes!(v),
        Value::U16(v) => bytes!(v),
        Value::I32(v) => bytes!(v),
        Value::U32(v) => bytes!(v),
    }
}

/// The tetrahedron with normals (from the centre outwards, unnormalised), texture
/// coordinates `s t`, a colour, an extra element with lists before the vertices, and faces
/// that also carry a per-face texture list and a flag. The faces come first.
fn tetra_ply(encoding: Encoding) -> Vec<u8> {
    let format = match encoding {
        Encoding::Ascii => "ascii",
        Encoding::Little => "binary_little_endian",
        Encoding::Big => "binary_big_endian",
    };
    let header = format!(
        "ply\nformat {format} 1.0\ncomment made by the test\nobj_info nothing\n\
         element face 4\nproperty uchar flag\nproperty list uchar uint vertex_indices\n\
         property list uchar float texcoord\n\
         element edge 2\nproperty list ushort int vertex_pair\nproperty short weight\n\
         element vertex 4\nproperty double x\nproperty float y\nproperty int z\n\
         property uchar red\nproperty float nx\nproperty float ny\nproperty float nz\n\
         property float s\nproperty double t\nend_header\n"
    );
    let mut out = header.into_bytes();
    let line = |out: &mut Vec<u8>| {
        if encoding == Encoding::Ascii {
            out.push(b'\n');
        }
    };
    for (k, face) in TETRA_FACES.iter().enumerate() {
        put(&mut out, encoding, Value::U8(k as u8));
        put(&mut out, encoding, Value::U8(3));
        for &i in face {
            put(&mut out, encoding, Value::U32(i));
        }
        put(&mut out, encoding, Value::U8(2));
        put(&mut out, encoding, Value::F32(0.5));
        put(&mut out, encoding, Value::F32(0.25));
        line(&mut out);
    }
    for pair in [[0, 1], [2, 3]] {
        put(&mut out, encoding, Value::U16(2));
        put(&mut out, encoding, Value::I32(pair[0]));
        put(&mut out, encoding, Value::I32(pair[1]));
        put(&mut out, encoding, Value::I16(-7));
        line(&mut out);
    }
    for (i, p) in TETRA.iter().enumerate() {
        put(&mut out, encoding, Value::F64(p[0]));
        put(&mut out, encoding, Value::F32(p[1] as f32));
        put(&mut out, encoding, Value::I32(p[2] as i32));
        put(&mut out, encoding, Value::U8(200));
        for c in p {
            put(&mut out, encoding, Value::F32((*c as f32 - 0.25) * 4.0));
        }
        put(&mut out, encoding, Value::F32(i as f32 / 4.0));
        put(&mut out, encoding, Value::F64(1.0 - i as f64 / 8.0));
        line(&mut out);
    }
    out
}

#[test]
fn ply_ascii_and_both_binary_orders_give_the_same_mesh() {
    for encoding in [Encoding::Ascii, Encoding::Little, Encoding::Big] {
        let mesh = decode_ply_mesh(&tetra_ply(encoding), "tetra.ply").unwrap();
        assert_eq!(mesh.vertices, TETRA.to_vec());
        assert_eq!(mesh.triangles, TETRA_FACES.to_vec());
        let normals = mesh.normals.as_ref().unwrap();
        assert_eq!(normals[0], [-1.0, -1.0, -1.0]);
        assert_eq!(normals[3], [-1.0, -1.0, 3.0]);
        let uvs = mesh.uvs.as_ref().unwrap();
        assert_eq!(uvs, &vec![[0.0, 1.0], [0.25, 0.875], [0.5, 0.75], [0.75, 0.625]]);
        assert!(signed_volume6(&mesh) > 0.0);
    }
}

#[test]
fn ply_polygons_become_fans_other_names_and_types() {
    // A square as one quad, indices as `vertex_index` with ushort items and an int count,
    // texture coordinates as `texture_u texture_v`, a normal missing `nz` (ignored).
    let text = "ply\nformat ascii 1.0\nelement vertex 5\nproperty float x\nproperty float y\n\
                property float z\nproperty float nx\nproperty float ny\n\
                property float texture_u\nproperty float texture_v\n\
                element face 3\nproperty list int ushort vertex_index\nend_header\n\
                0 0 0 0 0 0 0\n1 0 0 0 0 1 0\n1 1 0 0 0 1 1\n0 1 0 0 0 0 1\n9 9 9 0 0 0 0\n\
                4 0 1 2 3\n2 0 1\n3 0 0 1\n";
    let mesh = decode_ply_mesh(text.as_bytes(), "square.ply").unwrap();
    // The quad's fan, the two-corner face skipped, the degenerate triangle kept; the unused
    // fifth vertex dropped.
    assert_eq!(mesh.triangles, vec![[0, 1, 2], [0, 2, 3], [0, 0, 1]]);
    assert_eq!(mesh.vertices.len(), 4);
    assert_eq!(mesh.normals, None);
    assert_eq!(mesh.uvs.as_ref().unwrap()[2], [1.0, 1.0]);
}

#[test]
fn ply_refusals() {
    let header = |vertices: usize, faces: usize| {
        format!(
            "ply\nformat ascii 1.0\nelement vertex {vertices}\nproperty float x\n\
             property float y\nproperty float z\nelement face {faces}\n\
             property list uchar int vertex_indices\nend_header\n"
        )
    };
    let tri = "0 0 0\n1 0 0\n0 1 0\n";
    let cases: Vec<(String, &str)> = vec![
        (
            format!("{}{tri}3 0 1 7\n", header(3, 1)),
            "face 0: vertex index 7 is out of range (the file has 3 vertices)",
        ),
        (format!("{}{tri}3 0 -1 2\n", header(3, 1)), "vertex index -1 is out of range"),
        (format!("{}{tri}3 0 1.5 2\n", header(3, 1)), "not a whole number"),
        (
            format!("{}0 0 nan\n1 0 0\n0 1 0\n3 0 1 2\n", header(3, 1)),
            "vertex 0: the position [0.0, 0.0, NaN] is not finite",
        ),
        (format!("{}{tri}", header(3, 0)), "no triangles"),
        (format!("{}{tri}2 0 1\n", header(3, 1)), "no triangles"),
        (format!("{}{tri}3 0 1\n", header(3, 1)), "face 0: the file ends early"),
        // Counts that the bytes cannot hold, refused before anything is read.
        (format!("{}{tri}3 0 1 2\n", header(1_000_000_000, 1)), "more than the file holds"),
        (format!("{}{tri}3 0 1 2\n", header(3, usize::MAX)), "more than the file holds"),
        (tri.to_string(), "not a PLY file"),
        ("ply\nformat ascii 2.0\nend_header\n".into(), "unreadable PLY header line"),
        ("ply\nformat ebcdic 1.0\nend_header\n".into(), "unknown PLY format"),
        ("ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n".into(), "no `end_header`"),
        ("ply\nformat ascii 1.0\nelement vertex 0\nend_header\n".into(), "no faces"),
        ("ply\nformat ascii 1.0\nelement face 0\nend_header\n".into(), "no `vertex` element"),
        (
            "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\n\
             element face 0\nend_header\n0 0\n"
                .into(),
            "no scalar property 'z'",
        ),
        (
            "ply\nformat ascii 1.0\nelement vertex 0\nproperty float x\nproperty float y\n\
             property float z\nelement face 0\nproperty int vertex_indices\nend_header\n"
                .into(),
            "no list property `vertex_indices`",
        ),
    ];
    for (text, expected) in cases {
        refused(decode_ply_mesh(text.as_bytes(), "shape.ply"), "shape.ply", expected);
    }
    // A binary file whose vertex count × record size exceeds its bytes.
    let mut lie = tetra_ply(Encoding::Little);
    let at = lie.windows(14).position(|w| w == b"element vertex").unwrap();
    lie.splice(at..at + 16, b"element vertex 400000000".iter().copied());
    let text = refused(decode_ply_mesh(&lie, "lie.ply"), "lie.ply", "more than the file holds");
    assert!(text.contains("400000000 'vertex' records"), "{text}");
    // Truncated binary data.
    let cut = tetra_ply(Encoding::Big);
    let text = refused(decode_ply_mesh(&cut[..cut.len() - 3], "cut.ply"), "cut.ply", "ends early");
    assert!(text.contains("vertex 3"), "{text}");
}

// ---------------------------------------------------------------------------------------
// glTF and GLB

/// Builds glTF files: one buffer of accessors, each in its own buffer view.
#[derive(Default)]
struct Gltf {
    bin: Vec<u8>,
    views: Vec<String>,
    accessors: Vec<String>,
}

impl Gltf {
    /// Adds a buffer view of `bytes` (at a multiple of 4 in the buffer).
    fn view(&mut self, bytes: &[u8]) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.views.push(format!(
            r#"{{"buffer": 0, "byteOffset": {offset}, "byteLength": {}}}"#,
            bytes.len()
        ));
        self.views.len() - 1
    }

    /// Adds an accessor over a view of `bytes`; `extra` is more JSON members
    /// (`, "normalized": true`).
    fn accessor(
        &mut self,
        bytes: &[u8],
        component: u32,
        count: usize,
        ty: &str,
        extra: &str,
    ) -> usize {
        let view = self.view(bytes);
        self.accessors.push(format!(
            r#"{{"bufferView": {view}, "componentType": {component}, "count": {count},
                 "type": "{ty}"{extra}}}"#
        ));
        self.accessors.len() - 1
    }

    fn vec3(&mut self, values: &[[f64; 3]]) -> usize {
        let bytes: Vec<u8> =
            values.iter().flatten().flat_map(|&x| (x as f32).to_le_bytes()).collect();
        self.accessor(&bytes, 5126, values.len(), "VEC3", "")
    }

    fn vec2(&mut self, values: &[[f64; 2]]) -> usize {
        let bytes: Vec<u8> =
            values.iter().flatten().flat_map(|&x| (x as f32).to_le_bytes()).collect();
        self.accessor(&bytes, 5126, values.len(), "VEC2", "")
    }

    fn indices_u16(&mut self, indices: &[u16]) -> usize {
        let bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        self.accessor(&bytes, 5123, indices.len(), "SCALAR", "")
    }

    /// The JSON, with `rest` (meshes, nodes, scenes, ...) and the buffer at `uri` (none: GLB).
    fn json(&self, uri: Option<&str>, rest: &str) -> String {
        let uri = uri.map(|u| format!(r#", "uri": "{u}""#)).unwrap_or_default();
        format!(
            r#"{{"asset": {{"version": "2.0"}}, "buffers": [{{"byteLength": {}{uri}}}],
                "bufferViews": [{}], "accessors": [{}], {rest}}}"#,
            self.bin.len(),
            self.views.join(", "),
            self.accessors.join(", ")
        )
    }

    /// A `.gltf` with the buffer in a base64 data URI.
    fn gltf(&self, rest: &str) -> Vec<u8> {
        let uri = format!("data:application/octet-stream;base64,{}", base64(&self.bin));
        self.json(Some(&uri), rest).into_bytes()
    }

    /// A `.glb` with the buffer in its binary chunk.
    fn glb(&self, rest: &str) -> Vec<u8> {
        glb(self.json(None, rest).as_bytes(), Some(&self.bin))
    }
}

/// A GLB container of this JSON and binary chunk, each padded to 4 bytes.
fn glb(json: &[u8], bin: Option<&[u8]>) -> Vec<u8> {
    let mut chunks = Vec::new();
    let mut chunk = |data: &[u8], kind: &[u8; 4], pad: u8| {
        let mut data = data.to_vec();
        while !data.len().is_multiple_of(4) {
            data.push(pad);
        }
        chunks.extend((data.len() as u32).to_le_bytes());
        chunks.extend(kind);
        chunks.extend(data);
    };
    chunk(json, b"JSON", b' ');
    if let Some(bin) = bin {
        chunk(bin, b"BIN\0", 0);
    }
    let mut out = b"glTF".to_vec();
    out.extend(2u32.to_le_bytes());
    out.extend((12 + chunks.len() as u32).to_le_bytes());
    out.extend(chunks);
    out
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for group in bytes.chunks(3) {
        let n = group.iter().enumerate().fold(0u32, |n, (k, &b)| n | (b as u32) << (16 - 8 * k));
        for k in 0..=group.len() {
            out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
        }
        for _ in group.len()..3 {
            out.push('=');
        }
    }
    out
}

/// The tetrahedron, indexed, with normals (0, 0, 1) and texture coordinates; the JSON's
/// `meshes` member as `mesh` JSON.
fn tetra_gltf() -> (Gltf, String) {
    let mut g = Gltf::default();
    let position = g.vec3(&TETRA);
    let normal = g.vec3(&[[0.0, 0.0, 1.0]; 4]);
    let uv = g.vec2(&[[0.0, 0.0], [0.25, 0.75], [1.0, 0.0], [0.0, 1.0]]);
    let flat: Vec<u16> = TETRA_FACES.iter().flatten().map(|&i| i as u16).collect();
    let indices = g.indices_u16(&flat);
    let mesh = format!(
        r#""meshes": [{{"primitives": [{{"attributes": {{"POSITION": {position}, "NORMAL": {normal},
            "TEXCOORD_0": {uv}}}, "indices": {indices}}}]}}]"#
    );
    (g, mesh)
}

#[test]
fn gltf_node_hierarchy_transforms_positions_normals_and_flips_v() {
    let (g, meshes) = tetra_gltf();
    let half = std::f64::consts::FRAC_1_SQRT_2;
    // Parent: translate (10, 0, 0) · quarter turn about z · scale 2; child: translate (0, 0, 1).
    let rest = format!(
        r#"{meshes}, "nodes": [
            {{"children": [1], "translation": [10, 0, 0], "rotation": [0, 0, {half}, {half}],
              "scale": [2, 2, 2]}},
            {{"mesh": 0, "translation": [0, 0, 1]}}],
           "scenes": [{{"nodes": [0]}}], "scene": 0"#
    );
    let mesh = decode_gltf(&g.gltf(&rest), "scene.gltf").unwrap();
    assert_eq!((mesh.vertices.len(), mesh.triangles.len()), (4, 4));
    // (1, 0, 0) → child (1, 0, 1) → scaled (2, 0, 2) → turned (0, 2, 2) → moved (10, 2, 2).
    assert_close(&mesh.vertices[0], &[10.0, 0.0, 2.0], "the origin");
    assert_close(&mesh.vertices[1], &[8.0, 0.0, 2.0], "vertex (0, 1, 0)");
    assert_close(&mesh.vertices[2], &[10.0, 2.0, 2.0], "vertex (1, 0, 0)");
    assert_close(&mesh.vertices[3], &[10.0, 0.0, 4.0], "vertex (0, 0, 1)");
    // Normals through the inverse transpose: turned, divided by the scale, not normalised.
    for n in mesh.normals.as_ref().unwrap() {
        assert_close(n, &[0.0, 0.0, 0.5], "normal");
    }
    // glTF's v counts down: (0.25, 0.75) is stored as (0.25, 0.25).
    let uvs = mesh.uvs.as_ref().unwrap();
    assert_close(&uvs[1], &[0.25, 0.25], "uv of (0, 1, 0)");
    assert_close(&uvs[0], &[0.0, 1.0], "uv of the origin");
    assert!(signed_volume6(&mesh) > 0.0);
}

#[test]
fn gltf_mirrored_node_swaps_the_winding() {
    let (g, meshes) = tetra_gltf();
    let with = |node: &str| {
        let rest = format!(r#"{meshes}, "nodes": [{node}], "scenes": [{{"nodes": [0]}}]"#);
        decode_gltf(&g.gltf(&rest), "mirror.gltf").unwrap()
    };
    let plain = with(r#"{"mesh": 0}"#);
    assert_eq!(plain.triangles, TETRA_FACES.to_vec());
    // Each triangle of the mirror image is the mirrored triangle with two corners swapped.
    let corners = |mesh: &TriangleMesh, mirror: [f64; 3], swap: bool| -> Vec<[[f64; 3]; 3]> {
        let at = |i: u32| std::array::from_fn(|a| mesh.vertices[i as usize][a] * mirror[a] + 0.0);
        mesh.triangles
            .iter()
            .map(|&[a, b, c]| if swap { [at(a), at(c), at(b)] } else { [at(a), at(b), at(c)] })
            .collect()
    };
    for (node, mirror) in [
        (r#"{"mesh": 0, "scale": [-1, 1, 1]}"#, [-1.0, 1.0, 1.0]),
        // A mirroring matrix, column-major.
        (r#"{"mesh": 0, "matrix": [1,0,0,0, 0,-1,0,0, 0,0,1,0, 0,0,0,1]}"#, [1.0, -1.0, 1.0]),
    ] {
        let mirrored = with(node);
        assert_eq!(corners(&mirrored, [1.0; 3], false), corners(&plain, mirror, true), "{node}");
        // Still outward: the mirror image of a closed surface, wound consistently.
        assert!(signed_volume6(&plain) > 0.0 && signed_volume6(&mirrored) > 0.0, "{node}");
    }
    // A mirrored normal is mirrored.
    let normal = with(r#"{"mesh": 0, "scale": [1, 1, -1]}"#);
    assert_eq!(normal.normals.unwrap()[0], [0.0, 0.0, -1.0]);
}

#[test]
fn glb_with_strips_fans_points_and_two_scenes() {
    let mut g = Gltf::default();
    let square = g.vec3(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]]);
    let fan = g.vec3(&[[0.0, 0.0, 5.0], [1.0, 0.0, 5.0], [1.0, 1.0, 5.0], [0.0, 1.0, 5.0]]);
    let tetra = g.vec3(&TETRA);
    let flat: Vec<u8> = TETRA_FACES.iter().flatten().map(|&i| i as u8).collect();
    let indices = g.accessor(&flat, 5121, 12, "SCALAR", "");
    let meshes = format!(
        r#""meshes": [
            {{"primitives": [{{"attributes": {{"POSITION": {square}}}, "mode": 5}},
                             {{"attributes": {{"POSITION": {fan}}}, "mode": 6}},
                             {{"attributes": {{"POSITION": {square}}}, "mode": 0}}]}},
            {{"primitives": [{{"attributes": {{"POSITION": {tetra}}}, "indices": {indices}}}]}}]"#
    );
    let scenes = r#""nodes": [{"mesh": 0}, {"mesh": 1, "translation": [0, 0, -3]}],
                    "scenes": [{"nodes": [0]}, {"nodes": [1, 0]}]"#;
    let rest = format!("{meshes}, {scenes}");
    // No default scene: both scenes, node 0 once.
    let mesh = decode_gltf(&g.glb(&rest), "scene.glb").unwrap();
    assert_eq!(mesh.triangles.len(), 2 + 2 + 4);
    assert_eq!(mesh.vertices.len(), 4 + 4 + 4);
    assert_eq!((&mesh.normals, &mesh.uvs), (&None, &None));
    // The strip (0, 1, 2), (1, 3, 2) and the fan (1, 2, 0), (2, 3, 0) of the specification.
    let v = |i: u32| mesh.vertices[i as usize];
    let strip: Vec<[[f64; 3]; 3]> = mesh.triangles[..2].iter().map(|t| t.map(v)).collect();
    assert_eq!(strip[1], [[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]]);
    let fan: Vec<[[f64; 3]; 3]> = mesh.triangles[2..4].iter().map(|t| t.map(v)).collect();
    assert_eq!(fan[0], [[1.0, 0.0, 5.0], [1.0, 1.0, 5.0], [0.0, 0.0, 5.0]]);
    // With a default scene, only its nodes.
    let only = decode_gltf(&g.glb(&format!(r#"{rest}, "scene": 1"#)), "one.glb").unwrap();
    assert_eq!(only.triangles.len(), 8);
    let single = decode_gltf(&g.glb(&format!(r#"{rest}, "scene": 0"#)), "zero.glb").unwrap();
    assert_eq!(single.triangles.len(), 4);
    // Without scenes: every mesh once, untransformed.
    let loose = decode_gltf(&g.glb(&meshes), "loose.glb").unwrap();
    assert_eq!(loose.triangles.len(), 8);
    assert_eq!(loose.bounding_box().unwrap().lower, [0.0, 0.0, 0.0]);
    assert_eq!(decode_mesh(&g.glb(&rest), "scene.GLB", "GLB").unwrap(), mesh);
}

#[test]
fn gltf_quantized_and_sparse_accessors() {
    let mut g = Gltf::default();
    // Positions as normalised shorts: 32767 is 1.
    let shorts: Vec<u8> =
        [0i16, 0, 0, 32767, 0, 0, 0, 32767, 0].iter().flat_map(|x| x.to_le_bytes()).collect();
    let quantized = g.accessor(&shorts, 5122, 3, "VEC3", r#", "normalized": true"#);
    // Positions without a buffer view (zeros) but for a sparse (1, 0, 0) at 1, (0, 1, 0) at 2;
    // texture coordinates as unnormalised bytes.
    let sparse_indices: Vec<u8> = [1u16, 2].iter().flat_map(|x| x.to_le_bytes()).collect();
    let sparse_values: Vec<u8> =
        [1.0f32, 0.0, 0.0, 0.0, 1.0, 0.0].iter().flat_map(|x| x.to_le_bytes()).collect();
    let i_view = g.view(&sparse_indices);
    let v_view = g.view(&sparse_values);
    g.accessors.push(format!(
        r#"{{"componentType": 5126, "count": 3, "type": "VEC3", "sparse": {{"count": 2,
            "indices": {{"bufferView": {i_view}, "componentType": 5123}},
            "values": {{"bufferView": {v_view}}}}}}}"#
    ));
    let sparse = g.accessors.len() - 1;
    let uv = g.accessor(&[0, 0, 1, 0, 0, 1], 5121, 3, "VEC2", "");
    for position in [quantized, sparse] {
        let rest = format!(
            r#""meshes": [{{"primitives": [{{"attributes": {{"POSITION": {position},
                "TEXCOORD_0": {uv}}}}}]}}], "nodes": [{{"mesh": 0}}], "scenes": [{{"nodes": [0]}}]"#
        );
        let mesh = decode_gltf(&g.gltf(&rest), "packed.gltf").unwrap();
        assert_eq!(mesh.vertices, vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]);
        assert_eq!(mesh.uvs, Some(vec![[0.0, 1.0], [1.0, 1.0], [0.0, 0.0]]));
    }
}

#[test]
fn gltf_external_buffers_from_a_file_and_read_mesh_by_extension() {
    let dir = tempfile::tempdir().unwrap();
    let (g, meshes) = tetra_gltf();
    let rest = format!(r#"{meshes}, "nodes": [{{"mesh": 0}}], "scenes": [{{"nodes": [0]}}]"#);
    std::fs::write(dir.path().join("tetra data.bin"), &g.bin).unwrap();
    let json = g.json(Some("tetra%20data.bin"), &rest);
    let path = dir.path().join("Tetra.GLTF");
    std::fs::write(&path, &json).unwrap();
    let mesh = read_mesh(&path).unwrap();
    assert_eq!(mesh.vertices, TETRA.to_vec());
    // Given only bytes, the external file cannot be reached: the error names its URI.
    refused(
        decode_mesh(json.as_bytes(), "bytes.gltf", "gltf"),
        "bytes.gltf",
        "\"tetra%20data.bin\"",
    );
    std::fs::remove_file(dir.path().join("tetra data.bin")).unwrap();
    refused(read_mesh(&path), "Tetra.GLTF", "buffer 0: cannot read");
    // Every other reader by extension, in any case.
    let files: [(&str, Vec<u8>); 3] = [
        (
            "t.OBJ",
            b"v 0 0 0\nv 0 1 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\nf 1 3 4\nf 1 4 2\nf 2 4 3\n".to_vec(),
        ),
        ("t.Stl", binary_stl(&tetra_corners())),
        ("t.ply", tetra_ply(Encoding::Little)),
    ];
    for (name, bytes) in files {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let mesh = read_mesh(&path).unwrap();
        assert_eq!(corner_triangles(&mesh), corner_triangles(&tetra()), "{name}");
        assert_eq!(mesh.positions_only().unwrap(), tetra(), "{name}");
    }
    for name in ["t.dae", "t"] {
        let path = dir.path().join(name);
        let text = refused(read_mesh(&path), name, ".obj, .stl, .ply, .gltf, .glb");
        assert!(!text.contains("cannot read"), "checked before reading: {text}");
    }
    refused(read_mesh(&dir.path().join("missing.obj")), "missing.obj", "cannot read");
}

#[test]
fn gltf_refusals() {
    let (g, meshes) = tetra_gltf();
    let scene = r#""nodes": [{"mesh": 0}], "scenes": [{"nodes": [0]}]"#;
    let good = format!("{meshes}, {scene}");
    let check = |bytes: &[u8], expected: &str| {
        refused(decode_gltf(bytes, "bad.gltf"), "bad.gltf", expected);
    };
    // Only points.
    let points = good.replace(r#""indices": 3"#, r#""indices": 3, "mode": 0"#);
    assert_ne!(points, good);
    check(&g.gltf(&points), "no triangles (the glTF has only points or lines)");
    // No mesh at all, and no scene.
    check(br#"{"asset": {"version": "2.0"}}"#, "no triangles");
    // An index out of range.
    let mut h = Gltf::default();
    let position = h.vec3(&TETRA);
    let indices = h.indices_u16(&[0, 1, 9]);
    let rest = format!(
        r#""meshes": [{{"primitives": [{{"attributes": {{"POSITION": {position}}},
            "indices": {indices}}}]}}], {scene}"#
    );
    check(&h.gltf(&rest), "mesh 0 primitive 0: index 9 is out of range (it has 4 vertices)");
    // A NaN position.
    let mut n = Gltf::default();
    let position = n.vec3(&[[0.0, 0.0, 0.0], [f64::NAN, 0.0, 0.0], [0.0, 1.0, 0.0]]);
    let rest = format!(
        r#""meshes": [{{"primitives": [{{"attributes": {{"POSITION": {position}}}}}]}}], {scene}"#
    );
    check(&n.gltf(&rest), "POSITION 1 is not finite");
    // Accessor counts and lengths beyond the data.
    let many = edit(g.gltf(&good), "\"count\": 4,", "\"count\": 4000000000,");
    check(&many, "POSITION (accessor 0) needs 48000000000 bytes of its buffer view, which has 48");
    let length = format!("\"byteLength\": {}", g.bin.len());
    let short = edit(g.gltf(&good), &length, "\"byteLength\": 999999999");
    check(&short, "buffer 0 declares 999999999 bytes (byteLength), but its data has");
    let wide = edit(g.gltf(&good), "\"byteLength\": 48}", "\"byteLength\": 4800}");
    check(&wide, "goes past the end of buffer 0");
    let zeros = good.replace(r#""POSITION": 0"#, r#""POSITION": 4"#);
    let zeros = edit(
        g.json(None, &zeros).into_bytes(),
        "], \"meshes\"",
        r#", {"componentType": 5126, "count": 100000000000, "type": "VEC3"}], "meshes""#,
    );
    check(&glb(&zeros, Some(&g.bin)), "has no buffer view and 100000000000 elements");
    // A wrong accessor type, a missing accessor, an unknown mode.
    check(
        &g.gltf(&good.replace(r#""NORMAL": 1"#, r#""NORMAL": 2"#)),
        "NORMAL (accessor 2) is not of type VEC3",
    );
    check(
        &g.gltf(&good.replace(r#""NORMAL": 1"#, r#""NORMAL": 77"#)),
        "accessor 77 does not exist",
    );
    check(&g.gltf(&good.replace(r#""indices": 3"#, r#""indices": 3, "mode": 9"#)), "unknown mode");
    // A cycle in the node tree; a very deep tree is fine.
    let cycle = format!(
        r#"{meshes}, "nodes": [{{"children": [1]}}, {{"children": [0], "mesh": 0}}],
           "scenes": [{{"nodes": [0]}}]"#
    );
    check(&g.gltf(&cycle), "node 0 is reached twice in scene 0");
    let depth = 100_000;
    let mut nodes: Vec<String> = (0..depth - 1)
        .map(|i| format!(r#"{{"children": [{}], "translation": [1, 0, 0]}}"#, i + 1))
        .collect();
    nodes.push(r#"{"mesh": 0}"#.into());
    let deep = format!(r#"{meshes}, "nodes": [{}], "scenes": [{{"nodes": [0]}}]"#, nodes.join(","));
    let mesh = decode_gltf(&g.gltf(&deep), "deep.gltf").unwrap();
    assert_eq!(mesh.vertices[0], [(depth - 1) as f64, 0.0, 0.0]);
    // Other versions and geometry extensions.
    check(&edit(g.gltf(&good), "\"2.0\"", "\"1.0\""), "glTF version \"1.0\"");
    let draco = format!(r#"{good}, "extensionsRequired": ["KHR_draco_mesh_compression"]"#);
    check(&g.gltf(&draco), "requires the extension \"KHR_draco_mesh_compression\"");
    check(b"{not json", "not a readable glTF file");
}

/// `bytes` (text) with the first `from` replaced by `to`; `from` must be there.
fn edit(bytes: Vec<u8>, from: &str, to: &str) -> Vec<u8> {
    let text = String::from_utf8(bytes).unwrap();
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1).into_bytes()
}

#[test]
fn glb_container_refusals() {
    let (g, meshes) = tetra_gltf();
    let good =
        g.glb(&format!(r#"{meshes}, "nodes": [{{"mesh": 0}}], "scenes": [{{"nodes": [0]}}]"#));
    assert_eq!(decode_gltf(&good, "good.glb").unwrap().vertices, TETRA.to_vec());
    let check = |bytes: &[u8], expected: &str| {
        refused(decode_gltf(bytes, "bad.glb"), "bad.glb", expected);
    };
    // Cut anywhere: the header's length no longer matches.
    check(&good[..good.len() - 1], "the GLB header declares");
    check(&good[..10], "the GLB header is cut short");
    // A binary chunk that claims more than follows it (header length adjusted to match).
    let json_length = u32::from_le_bytes(good[12..16].try_into().unwrap()) as usize;
    let bin_at = 20 + json_length;
    let mut lie = good.clone();
    lie[bin_at..bin_at + 4].copy_from_slice(&1_000_000u32.to_le_bytes());
    check(&lie, "GLB chunk 1 declares 1000000 bytes, but only");
    let mut lie = good.clone();
    lie[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
    check(&lie, "GLB chunk 0 declares 4294967295 bytes");
    // A chunk header cut short.
    let mut cut = good[..bin_at + 4].to_vec();
    let length = cut.len() as u32;
    cut[8..12].copy_from_slice(&length.to_le_bytes());
    check(&cut, "GLB chunk 1's header is cut short");
    // Version 1, and a first chunk that is not JSON.
    let mut v1 = good.clone();
    v1[4] = 1;
    check(&v1, "GLB container version 1");
    let mut bin_first = good.clone();
    bin_first[16..20].copy_from_slice(b"BIN\0");
    check(&bin_first, "the first GLB chunk is not JSON");
    // No binary chunk for a buffer without uri.
    let json = &good[20..20 + json_length];
    check(&glb(json, None), "no GLB binary chunk");
}
