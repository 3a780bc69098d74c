//! The point file formats (CSV, NPY, NPZ, PLY, JSON): bit-exact round trips in 1D to 5D with
//! and without a radius, the exact layouts other tools rely on, files written by other tools,
//! and every refusal.

use experiments::io::{Attribute, PointData, PointFormat, ReadError, decode, encode};
use npyz::WriterBuilder;
use proptest::prelude::*;
use std::io::Read;

/// A finite double from raw bits (subnormals, huge, negative zero, ...), or a plain value.
fn finite(bits: u64) -> f64 {
    let x = f64::from_bits(bits);
    if x.is_finite() { x } else { (bits >> 12) as f64 * 1e-3 }
}

fn data<const D: usize>(raw: &[u64], radius: bool) -> PointData<D> {
    let n = raw.len() / (D + 1);
    let points = (0..n).map(|i| std::array::from_fn(|a| finite(raw[i * (D + 1) + a]))).collect();
    let mut data = PointData::new(points);
    if radius {
        let values = (0..n).map(|i| finite(raw[i * (D + 1) + D])).collect();
        data.attributes.push(Attribute { name: "radius".into(), values });
    }
    data
}

fn bits<const D: usize>(data: &PointData<D>) -> (Vec<[u64; D]>, Vec<Vec<u64>>) {
    (
        data.points.iter().map(|p| p.map(f64::to_bits)).collect(),
        data.attributes.iter().map(|a| a.values.iter().map(|x| x.to_bits()).collect()).collect(),
    )
}

fn round_trip<const D: usize>(raw: &[u64]) {
    for radius in [false, true] {
        let data = data::<D>(raw, radius);
        for &format in PointFormat::ALL {
            if format == PointFormat::Npy && radius {
                continue;
            }
            let mut bytes = Vec::new();
            encode(format, &mut bytes, &data).unwrap();
            let asked: &[&str] = if radius { &["radius"] } else { &[] };
            let back = decode::<D>(format, bytes.as_slice(), asked).unwrap();
            assert_eq!(bits(&back.data), bits(&data), "{format:?} D={D} radius={radius}");
            assert_eq!(back.positions.len(), data.points.len());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Any finite doubles, in 1D, 2D, 3D and 5D, with and without a radius column: every
    /// format gives back the same bits.
    #[test]
    fn every_format_round_trips_bit_for_bit(raw in prop::collection::vec(any::<u64>(), 6..60)) {
        round_trip::<1>(&raw);
        round_trip::<2>(&raw);
        round_trip::<3>(&raw);
        round_trip::<5>(&raw);
    }
}

#[test]
fn npy_has_the_standard_header_and_layout() {
    let points = vec![[0.5, -1.0, 2.0], [1e-300, 3.0, -0.0]];
    let mut bytes = Vec::new();
    encode(PointFormat::Npy, &mut bytes, &PointData::new(points.clone())).unwrap();
    assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    assert_eq!((10 + header_len) % 64, 0, "data aligned to 64 bytes");
    let header = std::str::from_utf8(&bytes[10..10 + header_len]).unwrap();
    let dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }";
    assert!(header.starts_with(dict), "{header:?}");
    assert!(header[dict.len()..header_len - 1].bytes().all(|b| b == b' '), "{header:?}");
    assert!(header.ends_with('\n'));
    let data = &bytes[10 + header_len..];
    assert_eq!(data.len(), 2 * 3 * 8);
    let values: Vec<f64> =
        data.chunks_exact(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect();
    let expected: Vec<f64> = points.iter().flatten().copied().collect();
    assert_eq!(
        values.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        expected.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
    // npyz reads the same header and values.
    let file = npyz::NpyFile::new(bytes.as_slice()).unwrap();
    assert_eq!(file.shape(), &[2, 3]);
    assert_eq!(file.order(), npyz::Order::C);
    assert_eq!(file.into_vec::<f64>().unwrap().len(), 6);
    // A 1D point set is (N, 1); the 1-tuple is spelled as Python spells it.
    assert!(experiments::io::npy::header(&[7]).windows(13).any(|w| w == b"'shape': (7,)"));
}

#[test]
fn npz_holds_numpy_arrays_by_name() {
    let data = PointData {
        points: vec![[0.25, 0.5], [0.75, 0.125], [0.0, 0.875]],
        attributes: vec![Attribute { name: "radius".into(), values: vec![0.1, 0.2, 0.3] }],
    };
    let mut bytes = Vec::new();
    encode(PointFormat::Npz, &mut bytes, &data).unwrap();
    let mut again = Vec::new();
    encode(PointFormat::Npz, &mut again, &data).unwrap();
    assert_eq!(bytes, again, "the same data gives the same bytes");
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes.as_slice())).unwrap();
    let names: Vec<String> = archive.file_names().map(|n| n.unwrap().into_owned()).collect();
    assert_eq!(names.len(), 2);
    assert!(names.contains(&"points.npy".into()) && names.contains(&"radius.npy".into()));
    for (name, shape, header) in [
        ("points.npy", vec![3u64, 2], experiments::io::npy::header(&[3, 2])),
        ("radius.npy", vec![3], experiments::io::npy::header(&[3])),
    ] {
        let mut entry = archive.by_name(name).unwrap();
        assert_eq!(entry.compression(), zip::CompressionMethod::Stored);
        let mut npy = Vec::new();
        entry.read_to_end(&mut npy).unwrap();
        assert!(npy.starts_with(&header), "{name}");
        let file = npyz::NpyFile::new(npy.as_slice()).unwrap();
        assert_eq!(file.shape(), shape.as_slice(), "{name}");
    }
    // An archive written elsewhere: deflated (numpy.savez_compressed), float32 points,
    // other arrays besides.
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    zip.start_file("labels.npy", deflated).unwrap();
    let mut w =
        npyz::WriteOptions::new().default_dtype().shape(&[2]).writer(&mut zip).begin_nd().unwrap();
    w.extend([1i64, 2]).unwrap();
    w.finish().unwrap();
    zip.start_file("points.npy", deflated).unwrap();
    let mut w = npyz::WriteOptions::new()
        .default_dtype()
        .shape(&[2, 2])
        .writer(&mut zip)
        .begin_nd()
        .unwrap();
    w.extend([0.5f32, 0.25, 0.125, 1.5]).unwrap();
    w.finish().unwrap();
    let archive = zip.finish().unwrap().into_inner();
    let read = decode::<2>(PointFormat::Npz, archive.as_slice(), &["radius"]).unwrap();
    assert_eq!(read.data.points, vec![[0.5, 0.25], [0.125, 1.5]]);
    assert!(read.data.attributes.is_empty());
}

#[test]
fn ply_header_is_exact_and_records_are_little_endian_doubles() {
    let data = PointData {
        points: vec![[0.5, 0.25, 1.0], [2.0, -3.0, 0.125]],
        attributes: vec![Attribute { name: "radius".into(), values: vec![0.01, 0.02] }],
    };
    let mut bytes = Vec::new();
    encode(PointFormat::Ply, &mut bytes, &data).unwrap();
    let header = "ply\nformat binary_little_endian 1.0\ncomment poisson-nd point set in 3 dimensions\n\
                  element vertex 2\nproperty double x\nproperty double y\nproperty double z\n\
                  property double radius\nend_header\n";
    assert!(bytes.starts_with(header.as_bytes()));
    let body = &bytes[header.len()..];
    assert_eq!(body.len(), 2 * 4 * 8);
    assert_eq!(f64::from_le_bytes(body[24..32].try_into().unwrap()), 0.01);
    assert_eq!(f64::from_le_bytes(body[32..40].try_into().unwrap()), 2.0);
    // Coordinate names by dimension.
    assert_eq!(experiments::io::ply::coordinate_names(1), vec!["x"]);
    assert_eq!(experiments::io::ply::coordinate_names(2), vec!["x", "y"]);
    assert_eq!(experiments::io::ply::coordinate_names(4), vec!["x0", "x1", "x2", "x3"]);
    let mut five = Vec::new();
    encode(PointFormat::Ply, &mut five, &PointData::new(vec![[1.0; 5]])).unwrap();
    let five = String::from_utf8_lossy(&five);
    assert!(five.contains("property double x0\n") && five.contains("property double x4\n"));
}

#[test]
fn ply_from_other_tools_reads() {
    // ASCII, float and uchar properties, normals not asked for, a face element after.
    let ascii = "ply\r\nformat ascii 1.0\r\ncomment made elsewhere\r\nelement vertex 3\r\n\
                 property float x\r\nproperty float y\r\nproperty float z\r\nproperty float nx\r\n\
                 property uchar red\r\nelement face 1\r\nproperty list uchar int vertex_indices\r\n\
                 end_header\r\n0.5 0.25 1 0 255\r\n1 2 3 0 0\r\n-1 -2 -3 1 7\r\n3 0 1 2\r\n";
    let read = decode::<3>(PointFormat::Ply, ascii.as_bytes(), &["red"]).unwrap();
    assert_eq!(read.data.points, vec![[0.5, 0.25, 1.0], [1.0, 2.0, 3.0], [-1.0, -2.0, -3.0]]);
    assert_eq!(read.data.attributes[0].values, vec![255.0, 0.0, 7.0]);
    // Big-endian binary, a list element *before* the vertices, int16 and double properties.
    let mut big =
        b"ply\nformat binary_big_endian 1.0\nelement camera 2\nproperty list uchar short view\n\
                    element vertex 2\nproperty short x\nproperty double y\nend_header\n"
            .to_vec();
    for view in [&[1i16, 2][..], &[3][..]] {
        big.push(view.len() as u8);
        for v in view {
            big.extend(v.to_be_bytes());
        }
    }
    for (x, y) in [(-5i16, 0.5f64), (7, 1e-300)] {
        big.extend(x.to_be_bytes());
        big.extend(y.to_be_bytes());
    }
    let read = decode::<2>(PointFormat::Ply, big.as_slice(), &[]).unwrap();
    assert_eq!(read.data.points, vec![[-5.0, 0.5], [7.0, 1e-300]]);
}

#[test]
fn json_layout_and_files_from_elsewhere() {
    let data = PointData {
        points: vec![[0.1, 0.7], [0.4, 5e-324]],
        attributes: vec![Attribute { name: "radius".into(), values: vec![0.05, 0.03] }],
    };
    let mut bytes = Vec::new();
    encode(PointFormat::Json, &mut bytes, &data).unwrap();
    assert_eq!(
        String::from_utf8(bytes).unwrap(),
        "{\n  \"dim\": 2,\n  \"points\": [\n    [0.1, 0.7],\n    [0.4, 5e-324]\n  ],\n  \
         \"radius\": [0.05, 0.03]\n}\n"
    );
    // Keys in any order, integers, other keys skipped, no "dim".
    let other = r#"{"meta": {"a": [1, 2]}, "radius": [1, 2], "points": [[1, 2], [3, 4.5]]}"#;
    let read = decode::<2>(PointFormat::Json, other.as_bytes(), &["radius"]).unwrap();
    assert_eq!(read.data.points, vec![[1.0, 2.0], [3.0, 4.5]]);
    assert_eq!(read.data.attributes[0].values, vec![1.0, 2.0]);
}

/// The message of a decoding error, which must be one line.
fn refusal<const D: usize>(format: PointFormat, bytes: &[u8], asked: &[&str]) -> String {
    let error: ReadError = decode::<D>(format, bytes, asked).unwrap_err();
    let message = error.to_string();
    assert_eq!(message.lines().count(), 1, "{message}");
    message
}

#[test]
fn malformed_files_are_refused_with_the_reason() {
    use PointFormat::*;
    let mut npy_3d = Vec::new();
    encode(Npy, &mut npy_3d, &PointData::new(vec![[1.0, 2.0, 3.0]])).unwrap();
    let cases: Vec<(PointFormat, Vec<u8>, &str)> = vec![
        (Npy, b"not an array".to_vec(), "not a readable NPY"),
        (Npy, npy_3d.clone(), "shape [1, 3]"),
        (Npy, npy_3d[..npy_3d.len() - 4].to_vec(), "only 20 bytes follow"),
        (Npz, b"PK but not really".to_vec(), "not a readable NPZ"),
        (Npz, npy_3d.clone(), "not a readable NPZ"),
        (Ply, b"plx\n".to_vec(), "not a PLY file"),
        (Ply, b"ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n".to_vec(), "end_header"),
        (Ply, b"ply\nformat ascii 1.0\nelement face 0\nend_header\n".to_vec(), "no `vertex` element"),
        (Ply, b"ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n1 2 3\n".to_vec(), "coordinate 'z' beyond 2 dimensions"),
        (Ply, b"ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n1\n".to_vec(), "lacks coordinates"),
        (Ply, b"ply\nformat ascii 1.0\nelement vertex 2\nproperty float x\nproperty float y\nend_header\n1 2\n3\n".to_vec(), "point 2: the file ends early"),
        (Ply, b"ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nend_header\n1 nan\n".to_vec(), "point 1: coordinates"),
        (Ply, b"ply\nformat binary_little_endian 1.0\nelement vertex 0\nproperty double x\nproperty double y\nend_header\n".to_vec(), "no points"),
        (Json, b"{\"points\": [[1, 2], [3]]}".to_vec(), "point 2 has 1 coordinates, expected 2"),
        (Json, b"{\"dim\": 3, \"points\": [[1, 2]]}".to_vec(), "\"dim\" is 3, expected 2"),
        (Json, b"{\"points\": [[1, 2]],".to_vec(), "not a JSON point file"),
        (Json, b"{\"points\": []}".to_vec(), "no points"),
        (Json, b"{\"dim\": 2}".to_vec(), "no \"points\""),
        (Json, b"{\"points\": [[1, 2]]} trailing".to_vec(), "trailing characters"),
        (Json, b"{\"points\": [[1, 1e999]]}".to_vec(), "not a JSON point file"),
    ];
    for (format, bytes, expected) in cases {
        let message = refusal::<2>(format, &bytes, &[]);
        assert!(message.contains(expected), "{format:?}: {message}");
    }
    // An asked-for column of the wrong length, or not finite.
    let radius_short = b"{\"points\": [[1, 2], [3, 4]], \"radius\": [1]}";
    assert!(refusal::<2>(Json, radius_short, &["radius"]).contains("has 1 values for 2 points"));
    let ply_nan_radius = b"ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float radius\nend_header\n1 2 nan\n";
    assert!(refusal::<2>(Ply, ply_nan_radius, &["radius"]).contains("'radius' is NaN"));
}

#[test]
fn unstorable_data_is_refused_before_writing() {
    let mut out = Vec::new();
    let nan = PointData::new(vec![[0.5, f64::NAN]]);
    for &format in PointFormat::ALL {
        out.clear();
        let error = encode(format, &mut out, &nan).unwrap_err();
        assert!(error.to_string().contains("point 1"), "{format:?}: {error}");
        assert!(out.is_empty(), "{format:?} wrote something");
    }
    for name in ["z", "x3", "points", "dim", "two words", "1st", ""] {
        let data = PointData {
            points: vec![[0.5, 0.5]],
            attributes: vec![Attribute { name: name.into(), values: vec![1.0] }],
        };
        assert!(encode(PointFormat::Csv, &mut out, &data).is_err(), "{name:?}");
    }
    let short = PointData {
        points: vec![[0.5, 0.5]; 2],
        attributes: vec![Attribute { name: "radius".into(), values: vec![1.0] }],
    };
    assert!(
        encode(PointFormat::Ply, &mut out, &short)
            .unwrap_err()
            .to_string()
            .contains("1 values for 2 points")
    );
}
