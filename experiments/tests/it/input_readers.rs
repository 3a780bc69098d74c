//! The input readers: PNG, NPY, GeoJSON, OBJ and STL into neutral data. Fixtures are made
//! here with the same crates (written into a temporary directory where a path is needed);
//! every accepted kind and every refusal is checked.

use crate::pictures::{png8, png16};
use experiments::inputs::geojson::{bounding_box, decode_geojson, read_geojson};
use experiments::inputs::npy::{decode_npy, read_npy};
use experiments::inputs::obj::{decode_obj, read_obj};
use experiments::inputs::png::{decode_png, read_png};
use experiments::inputs::stl::{decode_stl, read_stl};
use experiments::inputs::{InputError, TriangleMesh};
use npyz::WriterBuilder;
use std::path::{Path, PathBuf};

fn data_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/data").join(name)
}

/// A one-line message naming `name`.
fn message(error: InputError, name: &str) -> String {
    let text = error.to_string();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.contains(name), "{text}");
    text
}

// ---------------------------------------------------------------------------------------
// PNG

#[test]
fn png_grey_and_colour_at_8_and_16_bits_give_exact_values() {
    // 3 × 2, row 0 on top: values chosen to cover 0, 1 and in between.
    let grey8: Vec<u8> = vec![0, 1, 127, 128, 254, 255];
    let expected8: Vec<f64> = grey8.iter().map(|&v| v as f64 / 255.0).collect();
    let grey16: Vec<u16> = vec![0, 1, 32767, 32768, 65534, 65535];
    let expected16: Vec<f64> = grey16.iter().map(|&v| v as f64 / 65535.0).collect();
    let other = |i: usize| (i * 37 % 256) as u8; // green, blue and alpha must not matter
    use png::ColorType::{Grayscale, GrayscaleAlpha, Rgb, Rgba};
    let cases: Vec<(&str, Vec<u8>, &Vec<f64>)> = vec![
        ("L8", png8(3, 2, Grayscale, &grey8), &expected8),
        (
            "LA8",
            png8(
                3,
                2,
                GrayscaleAlpha,
                &grey8.iter().enumerate().flat_map(|(i, &v)| [v, other(i)]).collect::<Vec<_>>(),
            ),
            &expected8,
        ),
        (
            "RGB8",
            png8(
                3,
                2,
                Rgb,
                &grey8
                    .iter()
                    .enumerate()
                    .flat_map(|(i, &v)| [v, other(i), 255 - v])
                    .collect::<Vec<_>>(),
            ),
            &expected8,
        ),
        (
            "RGBA8",
            png8(
                3,
                2,
                Rgba,
                &grey8
                    .iter()
                    .enumerate()
                    .flat_map(|(i, &v)| [v, other(i), 3, (i * 50) as u8])
                    .collect::<Vec<_>>(),
            ),
            &expected8,
        ),
        ("L16", png16(3, 2, Grayscale, &grey16), &expected16),
        (
            "RGB16",
            png16(3, 2, Rgb, &grey16.iter().flat_map(|&v| [v, 65535 - v, 7]).collect::<Vec<_>>()),
            &expected16,
        ),
        (
            "RGBA16",
            png16(3, 2, Rgba, &grey16.iter().flat_map(|&v| [v, 1, 2, 0]).collect::<Vec<_>>()),
            &expected16,
        ),
        (
            "LA16",
            png16(3, 2, GrayscaleAlpha, &grey16.iter().flat_map(|&v| [v, 9]).collect::<Vec<_>>()),
            &expected16,
        ),
    ];
    for (layout, bytes, expected) in cases {
        let raster = decode_png(&bytes, "map.png").unwrap();
        assert_eq!((raster.width, raster.height), (3, 2), "{layout}");
        assert_eq!(&raster.values, expected, "{layout}");
        assert_eq!(raster.get(0, 1), Some(expected[3]), "{layout}: row 1 is the bottom row");
        assert_eq!(raster.get(3, 0), None);
    }
}

/// A PNG written with the `png` crate directly: 1-bit grey and a palette.
fn png_raw(
    width: u32,
    color: png::ColorType,
    depth: png::BitDepth,
    palette: Option<&[u8]>,
    rows: &[u8],
) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, 1);
    encoder.set_color(color);
    encoder.set_depth(depth);
    if let Some(palette) = palette {
        encoder.set_palette(palette.to_vec());
    }
    let mut writer = encoder.write_header().unwrap();
    writer.write_image_data(rows).unwrap();
    writer.finish().unwrap();
    bytes
}

#[test]
fn png_one_bit_grey_and_palettes() {
    // 1-bit: black, white, white, black packed into one byte.
    let one_bit = png_raw(4, png::ColorType::Grayscale, png::BitDepth::One, None, &[0b0110_0000]);
    assert_eq!(decode_png(&one_bit, "mask.png").unwrap().values, vec![0.0, 1.0, 1.0, 0.0]);
    // A palette of red 51 and red 204: the red channel of each entry.
    let palette = [51, 0, 0, 204, 255, 255];
    let indexed =
        png_raw(3, png::ColorType::Indexed, png::BitDepth::Eight, Some(&palette), &[1, 0, 1]);
    assert_eq!(decode_png(&indexed, "map.png").unwrap().values, vec![0.8, 0.2, 0.8]);
}

#[test]
fn png_refusals_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("fake.png");
    std::fs::write(&fake, b"GIF89a not a png").unwrap();
    let text = message(read_png(&fake).unwrap_err(), "fake.png");
    assert!(text.contains("not a decodable PNG"), "{text}");
    let good = png8(4, 4, png::ColorType::Grayscale, &[7; 16]);
    let truncated = dir.path().join("truncated.png");
    std::fs::write(&truncated, &good[..good.len() / 2]).unwrap();
    message(read_png(&truncated).unwrap_err(), "truncated.png");
    let text = message(read_png(&dir.path().join("missing.png")).unwrap_err(), "missing.png");
    assert!(text.starts_with("cannot read"), "{text}");
    let written = dir.path().join("good.png");
    std::fs::write(&written, &good).unwrap();
    assert_eq!(read_png(&written).unwrap().values, vec![7.0 / 255.0; 16]);
}

/// A PNG whose header claims `width × height` pixels (a 1×1 picture with its IHDR rewritten
/// and its checksum recomputed): the readers must refuse it from the header alone.
fn png_claiming(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = png_raw(1, png::ColorType::Grayscale, png::BitDepth::Eight, None, &[0]);
    // Signature (8), length (4), "IHDR" (4), then width and height.
    bytes[16..20].copy_from_slice(&width.to_be_bytes());
    bytes[20..24].copy_from_slice(&height.to_be_bytes());
    let crc = crc32(&bytes[12..29]);
    bytes[29..33].copy_from_slice(&crc.to_be_bytes());
    bytes
}

/// The CRC-32 of PNG chunks (ISO 3309), bit by bit.
pub(crate) fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &byte in data {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

#[test]
fn png_that_claims_a_huge_picture_is_refused_before_decoding() {
    let huge = png_claiming(20_000, 20_000);
    let text = decode_png(&huge, "huge.png").unwrap_err().to_string();
    assert!(text.contains("20000×20000 = 400000000 pixels, more than the 67108864"), "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
    // The largest size a header can state is named as well (the decoder's own look at it
    // says only that a memory limit was exceeded).
    let largest = png_claiming(i32::MAX as u32, i32::MAX as u32);
    let text = decode_png(&largest, "largest.png").unwrap_err().to_string();
    assert!(text.contains("2147483647×2147483647 = 4611686014132420609 pixels"), "{text}");
    // At the limit the header is accepted, and the missing data is an ordinary decoding error.
    let at_limit = png_claiming(8192, 8192);
    let text = decode_png(&at_limit, "big.png").unwrap_err().to_string();
    assert!(text.contains("not a decodable PNG"), "{text}");
}

// ---------------------------------------------------------------------------------------
// NPY

fn npy<T: npyz::AutoSerialize + npyz::Serialize + Copy>(shape: &[u64], values: &[T]) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut w = npyz::WriteOptions::new()
        .default_dtype()
        .shape(shape)
        .writer(&mut bytes)
        .begin_nd()
        .unwrap();
    w.extend(values.iter().copied()).unwrap();
    w.finish().unwrap();
    bytes
}

fn npy_with(dtype: &str, order: npyz::Order, shape: &[u64], values: &[f64]) -> Vec<u8> {
    let mut bytes = Vec::new();
    let dtype = npyz::DType::Plain(dtype.parse().unwrap());
    let mut w = npyz::WriteOptions::new()
        .dtype(dtype)
        .order(order)
        .shape(shape)
        .writer(&mut bytes)
        .begin_nd()
        .unwrap();
    w.extend(values.iter().copied()).unwrap();
    w.finish().unwrap();
    bytes
}

#[test]
fn npy_element_types_read_exactly() {
    let expected = vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0];
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("f64", npy(&[2, 3], &[0.0f64, 1.0, 2.0, 3.0, 4.0, 5.0])),
        ("f32", npy(&[2, 3], &[0.0f32, 1.0, 2.0, 3.0, 4.0, 5.0])),
        ("i8", npy(&[2, 3], &[0i8, 1, 2, 3, 4, 5])),
        ("i16", npy(&[2, 3], &[0i16, 1, 2, 3, 4, 5])),
        ("i32", npy(&[2, 3], &[0i32, 1, 2, 3, 4, 5])),
        ("i64", npy(&[2, 3], &[0i64, 1, 2, 3, 4, 5])),
        ("u8", npy(&[2, 3], &[0u8, 1, 2, 3, 4, 5])),
        ("u16", npy(&[2, 3], &[0u16, 1, 2, 3, 4, 5])),
        ("u32", npy(&[2, 3], &[0u32, 1, 2, 3, 4, 5])),
        ("u64", npy(&[2, 3], &[0u64, 1, 2, 3, 4, 5])),
        ("big-endian f64", npy_with(">f8", npyz::Order::C, &[2, 3], &expected)),
    ];
    for (kind, bytes) in cases {
        let array = decode_npy(&bytes, "a.npy").unwrap();
        assert_eq!(array.shape, vec![2, 3], "{kind}");
        assert_eq!(array.values, expected, "{kind}");
    }
    let mask = decode_npy(&npy(&[2, 2], &[true, false, false, true]), "mask.npy").unwrap();
    assert_eq!((mask.values, mask.dtype.as_str()), (vec![1.0, 0.0, 0.0, 1.0], "|b1"));
    let negative = decode_npy(&npy(&[3], &[-128i8, -1, 127]), "a.npy").unwrap();
    assert_eq!(negative.values, vec![-128.0, -1.0, 127.0]);
    let float32 = decode_npy(&npy(&[1], &[0.1f32]), "a.npy").unwrap();
    assert_eq!(float32.values[0], f64::from(0.1f32));
    // Exact bits of float64, subnormals and negative zero included.
    let awkward = [5e-324, -0.0, 0.1 + 0.2, f64::MAX];
    let back = decode_npy(&npy(&[4], &awkward), "a.npy").unwrap();
    assert_eq!(
        back.values.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        awkward.map(f64::to_bits)
    );
}

#[test]
fn npy_fortran_order_and_many_axes() {
    // [[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], [[12 ...]]]: value = C-order index.
    let shape = [2u64, 3, 4];
    let c_order: Vec<f64> = (0..24).map(f64::from).collect();
    // The same array stored column-major: the first axis fastest.
    let mut fortran = Vec::new();
    for l in 0..4 {
        for j in 0..3 {
            for i in 0..2 {
                fortran.push(((i * 3 + j) * 4 + l) as f64);
            }
        }
    }
    let from_c = decode_npy(&npy_with("<f8", npyz::Order::C, &shape, &c_order), "c.npy").unwrap();
    let from_f =
        decode_npy(&npy_with("<f8", npyz::Order::Fortran, &shape, &fortran), "f.npy").unwrap();
    assert_eq!(from_c.values, c_order);
    assert_eq!(from_f.values, c_order, "Fortran order is reordered into C order");
    assert_eq!(from_f.get(&[1, 2, 3]), Some(23.0));
    assert_eq!(from_f.axes(), 3);
}

#[test]
fn npy_checks_name_the_first_bad_value() {
    let values = [0.0, 0.5, f64::NAN, 1.5, 1.0, 0.25];
    let array = decode_npy(&npy(&[2, 3], &values), "density.npy").unwrap();
    assert_eq!(
        message(array.check_unit_interval("density.npy").unwrap_err(), "density.npy"),
        "density.npy: the value at [0, 2] is NaN"
    );
    assert_eq!(
        message(array.check_finite("density.npy").unwrap_err(), "density.npy"),
        "density.npy: the value at [0, 2] is NaN"
    );
    let above = decode_npy(&npy(&[2, 2], &[0.0, 1.0, 0.5, -0.25]), "d.npy").unwrap();
    assert!(above.check_finite("d.npy").is_ok());
    assert_eq!(
        above.check_unit_interval("d.npy").unwrap_err().to_string(),
        "d.npy: the value at [1, 1] is -0.25, outside [0, 1]"
    );
    assert!(above.expect_axes(2, "d.npy").is_ok());
    assert_eq!(
        above.expect_axes(3, "d.npy").unwrap_err().to_string(),
        "d.npy: the array has 2 axes (shape [2, 2]); a map of a 3-dimensional box has 3"
    );
    let ok = decode_npy(&npy(&[3], &[0.0, 1.0, 0.5]), "d.npy").unwrap();
    assert!(ok.check_unit_interval("d.npy").is_ok());
}

/// An NPY file of two elements with the element type `descr` (a Python literal), by hand.
fn raw_npy(descr: &str, data: &[u8]) -> Vec<u8> {
    let mut header = format!("{{'descr': {descr}, 'fortran_order': False, 'shape': (2,), }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend((header.len() as u16).to_le_bytes());
    bytes.extend(header.as_bytes());
    bytes.extend(data);
    bytes
}

#[test]
fn npy_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let float64 = npy(&[2, 2], &[1.0f64, 2.0, 3.0, 4.0]);
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"\x89PNG not an array".to_vec(), "not a readable NPY file"),
        (Vec::new(), "not a readable NPY file"),
        (float64[..float64.len() - 1].to_vec(), "only 31 bytes follow"),
        (npy(&[2], &[i64::MAX, 0]), "beyond"),
        (npy(&[1], &[1u64 << 53]), "beyond"),
        (raw_npy("'<f2'", &[0; 4]), "unsupported element type <f2"),
        (raw_npy("'<c16'", &[0; 32]), "unsupported element type <c16"),
        (raw_npy("'<U3'", &[0; 24]), "unsupported element type <U3"),
        (raw_npy("[('a', '<f8'), ('b', '<i4')]", &[0; 24]), "unsupported element type"),
        (raw_npy("'|O'", &[0; 16]), "unsupported element type"),
        // Files that lie about their header's length: refused before it is allocated.
        (b"\x93NUMPY\x02\x00\xff\xff\xff\xff{'descr'".to_vec(), "more than the 10000"),
        (b"\x93NUMPY\x01\x00\xff\x0f{'descr': '<f8'}".to_vec(), "the header claims 4095 bytes"),
        (b"\x93NUMPY\x07\x00\x10\x00{}".to_vec(), "format version 7"),
        // A header Python cannot parse: one line with the column, not a caret diagram.
        (
            {
                let header = b"{'descr': '<f8', 'fortran_order': False, 'shape': (2,3 }\n";
                let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
                bytes.extend((header.len() as u16).to_le_bytes());
                bytes.extend(header);
                bytes.extend([0; 48]);
                bytes
            },
            "syntax error at column 56",
        ),
    ];
    for (i, (bytes, expected)) in cases.into_iter().enumerate() {
        let path = dir.path().join(format!("case{i}.npy"));
        std::fs::write(&path, &bytes).unwrap();
        let text = message(read_npy(&path).unwrap_err(), &format!("case{i}.npy"));
        assert!(text.contains(expected), "case {i}: {text}");
    }
    // 2^53 - 1 and -(2^53 - 1) are exact and accepted.
    let edge = decode_npy(&npy(&[2], &[(1i64 << 53) - 1, 1 - (1i64 << 53)]), "a.npy").unwrap();
    assert_eq!(edge.values, vec![9007199254740991.0, -9007199254740991.0]);
    // A bool that is neither 0 nor 1.
    let mut bad_bool = npy(&[1], &[true]);
    *bad_bool.last_mut().unwrap() = 2;
    assert!(decode_npy(&bad_bool, "m.npy").is_err());
}

// ---------------------------------------------------------------------------------------
// GeoJSON

#[test]
fn geojson_accepted_kinds() {
    let ring = "[[0, 0], [4, 0], [4, 4], [0, 4], [0, 0]]";
    let hole = "[[1, 1], [1, 2], [2, 2], [1, 1]]";
    let island = "[[10, 10], [11, 10], [10.5, 11, 99], [10, 10]]";
    let polygon = format!(r#"{{"type": "Polygon", "coordinates": [{ring}, {hole}]}}"#);
    let multi =
        format!(r#"{{"type": "MultiPolygon", "coordinates": [[{ring}, {hole}], [{island}]]}}"#);
    let feature = format!(r#"{{"type": "Feature", "properties": null, "geometry": {polygon}}}"#);
    let collection = format!(
        r#"{{"type": "FeatureCollection", "features": [{feature}, {{"type": "Feature", "properties": {{}}, "geometry": {multi}}}]}}"#
    );
    let geometries =
        format!(r#"{{"type": "GeometryCollection", "geometries": [{polygon}, {multi}]}}"#);
    let square = vec![[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]];
    let inner = vec![[1.0, 1.0], [1.0, 2.0], [2.0, 2.0]];
    for (kind, text, count) in [
        ("Polygon", &polygon, 1),
        ("MultiPolygon", &multi, 2),
        ("Feature", &feature, 1),
        ("FeatureCollection", &collection, 3),
        ("GeometryCollection", &geometries, 3),
    ] {
        let polygons = decode_geojson(text.as_bytes(), "region.geojson").unwrap();
        assert_eq!(polygons.len(), count, "{kind}");
        assert_eq!(polygons[0].exterior, square, "{kind}");
        assert_eq!(polygons[0].holes, vec![inner.clone()], "{kind}");
    }
    let polygons = decode_geojson(multi.as_bytes(), "region.geojson").unwrap();
    // The altitude of [10.5, 11, 99] is dropped.
    assert_eq!(polygons[1].exterior, vec![[10.0, 10.0], [11.0, 10.0], [10.5, 11.0]]);
    assert!(polygons[1].holes.is_empty());
    let bounds = bounding_box(&polygons);
    assert_eq!((bounds.lower, bounds.upper), ([0.0, 0.0], [11.0, 11.0]));
    // Coordinates keep their exact bits (0.1 + 0.2 is not 0.3).
    let exact = r#"{"type": "Polygon", "coordinates": [[[0.30000000000000004, 0], [1, 0], [1, 1], [0.30000000000000004, 0]]]}"#;
    assert_eq!(decode_geojson(exact.as_bytes(), "e.geojson").unwrap()[0].exterior[0][0], 0.1 + 0.2);
}

#[test]
fn geojson_example_lake() {
    let polygons = read_geojson(&data_file("lake.geojson")).unwrap();
    assert_eq!(polygons.len(), 2);
    assert_eq!(polygons[0].holes.len(), 1);
    assert!(polygons[1].holes.is_empty());
    let bounds = bounding_box(&polygons);
    assert_eq!((bounds.lower, bounds.upper), ([0.0, 0.0], [18.0, 10.0]));
}

#[test]
fn geojson_refusals_name_the_file_and_the_problem() {
    let cases = [
        ("{\"type\": \"Polygon\", \"coordinates\": [[[0, 0], [1, 0]", "malformed JSON"),
        ("[1, 2, 3]", "not GeoJSON"),
        ("{\"type\": \"Circle\", \"radius\": 1}", "not GeoJSON"),
        (
            r#"{"type": "LineString", "coordinates": [[0, 0], [1, 1]]}"#,
            "the geometry is a LineString, not a Polygon or MultiPolygon",
        ),
        (r#"{"type": "Point", "coordinates": [0, 0]}"#, "the geometry is a Point"),
        (
            r#"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "Point", "coordinates": [0, 0]}}]}"#,
            "feature 0 is a Point",
        ),
        (
            r#"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1]]]}"#,
            "exterior ring is not closed",
        ),
        (
            r#"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [0, 0]]]}"#,
            "has 3 positions; a ring needs at least 4",
        ),
        (
            r#"{"type": "Polygon", "coordinates": [[[0, 0], [4, 0], [4, 4], [0, 0]], [[1, 1], [2, 1], [1, 2], [1, 1.5]]]}"#,
            "hole 0 is not closed",
        ),
        (
            r#"{"type": "Polygon", "coordinates": [[[0, 0], [1e999, 0], [1, 1], [0, 0]]]}"#,
            "malformed JSON",
        ),
        (r#"{"type": "Polygon", "coordinates": []}"#, "has no rings"),
        (
            r#"{"type": "FeatureCollection", "features": []}"#,
            "the FeatureCollection has no features",
        ),
        (r#"{"type": "MultiPolygon", "coordinates": []}"#, "no polygons (an empty collection)"),
        (r#"{"type": "GeometryCollection", "geometries": []}"#, "no polygons"),
        (
            r#"{"type": "Feature", "properties": {}, "geometry": null}"#,
            "the feature has no geometry",
        ),
        (
            r#"{"type": "MultiPolygon", "coordinates": [[[[0, 0], [1, 0], [1, 1], [0, 0]]], [[[5, 5], [6, 5], [6, 6], [5, 6]]]]}"#,
            "polygon 1: exterior ring is not closed",
        ),
    ];
    for (text, expected) in cases {
        let error = decode_geojson(text.as_bytes(), "lake.geojson").unwrap_err();
        let text = message(error, "lake.geojson");
        assert!(text.contains(expected), "{text}");
    }
    let missing = read_geojson(Path::new("/nonexistent/lake.geojson")).unwrap_err();
    assert!(message(missing, "lake.geojson").starts_with("cannot read"));
}

// ---------------------------------------------------------------------------------------
// Meshes

/// The unit cube's 12 triangles, each by its corners, wound outwards.
fn cube_triangles() -> Vec<[[f64; 3]; 3]> {
    let corner = |i: usize| [(i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64];
    // Quads by corner bits, counter-clockwise seen from outside.
    let quads =
        [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]];
    quads
        .iter()
        .flat_map(|q| [[q[0], q[1], q[2]], [q[0], q[2], q[3]]])
        .map(|t| t.map(corner))
        .collect()
}

fn assert_closed_unit_cube(mesh: &TriangleMesh, what: &str) {
    assert_eq!(mesh.vertices.len(), 8, "{what}");
    assert_eq!(mesh.triangles.len(), 12, "{what}");
    assert_eq!(mesh.unpaired_edges(), 0, "{what}");
    let bounds = mesh.bounding_box().unwrap();
    assert_eq!((bounds.lower, bounds.upper), ([0.0; 3], [1.0; 3]), "{what}");
    // Every triangle, mapped back to corners, is one of the cube's.
    // 0.0 and -0.0 weld into the first one seen; compared here as numbers.
    let mut got: Vec<[[u64; 3]; 3]> = mesh
        .triangles
        .iter()
        .map(|t| t.map(|i| mesh.vertices[i as usize].map(|x| (x + 0.0).to_bits())))
        .collect();
    let mut want: Vec<[[u64; 3]; 3]> =
        cube_triangles().iter().map(|t| t.map(|c| c.map(f64::to_bits))).collect();
    got.sort();
    want.sort();
    assert_eq!(got, want, "{what}");
}

fn obj_of_cube_quads() -> String {
    let mut text = String::from("# unit cube\nmtllib missing.mtl\no cube\n");
    for i in 0..8 {
        text += &format!("v {} {} {}\n", i & 1, (i >> 1) & 1, (i >> 2) & 1);
    }
    text += "vn 0 0 1\nvt 0.5 0.5\n";
    for q in [[0, 2, 3, 1], [4, 5, 7, 6], [0, 1, 5, 4], [2, 6, 7, 3], [0, 4, 6, 2], [1, 3, 7, 5]] {
        text += &format!("f {} {} {} {}\n", q[0] + 1, q[1] + 1, q[2] + 1, q[3] + 1);
    }
    text + "l 1 2\n"
}

#[test]
fn obj_cube_from_quads_per_face_objects_and_relative_indices() {
    assert_closed_unit_cube(
        &decode_obj(obj_of_cube_quads().as_bytes(), "cube.obj").unwrap(),
        "quads",
    );
    // Every face its own object with its own copies of the corners: welded back to 8.
    let mut split = String::new();
    for (k, t) in cube_triangles().iter().enumerate() {
        split += &format!("o face{k}\n");
        for c in t {
            split += &format!("v {} {} {}\n", c[0], c[1], c[2]);
        }
        split += "f -3 -2 -1\n";
    }
    assert_closed_unit_cube(&decode_obj(split.as_bytes(), "split.obj").unwrap(), "split");
    // An open surface: one face missing.
    let open = obj_of_cube_quads().replace("f 2 4 8 6\n", "");
    let mesh = decode_obj(open.as_bytes(), "open.obj").unwrap();
    assert_eq!((mesh.triangles.len(), mesh.unpaired_edges()), (10, 4));
}

#[test]
fn obj_example_octahedron_is_closed_and_outward() {
    let mesh = read_obj(&data_file("octahedron.obj")).unwrap();
    assert_eq!((mesh.vertices.len(), mesh.triangles.len(), mesh.unpaired_edges()), (6, 8, 0));
    for t in &mesh.triangles {
        let [a, b, c] = t.map(|i| mesh.vertices[i as usize]);
        let (u, v) =
            ([b[0] - a[0], b[1] - a[1], b[2] - a[2]], [c[0] - a[0], c[1] - a[1], c[2] - a[2]]);
        let normal =
            [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
        let centre = [a[0] + b[0] + c[0], a[1] + b[1] + c[1], a[2] + b[2] + c[2]];
        assert!(normal.iter().zip(centre).map(|(n, c)| n * c).sum::<f64>() > 0.0, "{t:?}");
    }
}

#[test]
fn obj_refusals() {
    let cases: [(&[u8], &str); 7] = [
        (b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n", "out of bounds"),
        (b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", "out of bounds"),
        (b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf -4 1 2\n", "out of bounds"),
        (b"v 0 0 0\nv 1 0 0\nv 0 1 0\n", "no triangles"),
        (b"v 0 0 0\nv 1 0 0\nl 1 2\n", "no triangles"),
        (b"v 0 0 nan\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "not finite"),
        (b"v 0 zero 0\nf 1 1 1\n", "not a readable OBJ"),
    ];
    for (bytes, expected) in cases {
        let text = message(decode_obj(bytes, "shape.obj").unwrap_err(), "shape.obj");
        assert!(text.contains(expected), "{text}");
    }
    let binary = decode_obj(&[0xff, 0xfe, 0x00, 0x10, 0x80], "blob.obj").unwrap_err();
    message(binary, "blob.obj");
}

fn ascii_stl(triangles: &[[[f64; 3]; 3]], first_line: &str) -> String {
    let mut text = format!("{first_line}\n");
    for t in triangles {
        text += "  facet normal 0 0 0\n    outer loop\n";
        for c in t {
            text += &format!("      vertex {} {} {}\n", c[0], c[1], c[2]);
        }
        text += "    endloop\n  endfacet\n";
    }
    text + "endsolid cube\n"
}

fn binary_stl(triangles: &[[[f64; 3]; 3]]) -> Vec<u8> {
    let facets: Vec<stl_io::Triangle> = triangles
        .iter()
        .map(|t| stl_io::Triangle {
            normal: stl_io::Normal::new([0.0, 0.0, 0.0]),
            vertices: t.map(|c| stl_io::Vertex::new(c.map(|x| x as f32))),
        })
        .collect();
    let mut bytes = Vec::new();
    stl_io::write_stl(&mut bytes, facets.iter()).unwrap();
    bytes
}

#[test]
fn stl_cube_ascii_and_binary_weld_to_8_vertices() {
    let cube = cube_triangles();
    let dir = tempfile::tempdir().unwrap();
    let ascii = dir.path().join("cube-ascii.stl");
    std::fs::write(&ascii, ascii_stl(&cube, "solid cube")).unwrap();
    assert_closed_unit_cube(&read_stl(&ascii).unwrap(), "ascii");
    let binary = dir.path().join("cube-binary.stl");
    std::fs::write(&binary, binary_stl(&cube)).unwrap();
    assert_closed_unit_cube(&read_stl(&binary).unwrap(), "binary");
    // A binary header that starts with "solid", as some exporters write it.
    let mut solid_header = binary_stl(&cube);
    solid_header[..11].copy_from_slice(b"solid cube ");
    assert_closed_unit_cube(&decode_stl(&solid_header, "x.stl").unwrap(), "binary 'solid' header");
    // A nameless "solid" line, and -0.0 corners welded with 0.0.
    let mut signed = cube.clone();
    signed[0][0] = [-0.0, -0.0, -0.0];
    assert_closed_unit_cube(
        &decode_stl(ascii_stl(&signed, "solid").as_bytes(), "x.stl").unwrap(),
        "nameless",
    );
}

#[test]
fn stl_refusals() {
    let cube = cube_triangles();
    let mut truncated = binary_stl(&cube);
    truncated.truncate(truncated.len() - 10);
    let mut nan = binary_stl(&cube[..1]);
    nan[84 + 12..84 + 16].copy_from_slice(&f32::NAN.to_le_bytes());
    let mut lying_count = binary_stl(&cube[..1]);
    lying_count[80..84].copy_from_slice(&u32::MAX.to_le_bytes());
    let empty_binary = binary_stl(&[]);
    let broken_ascii = ascii_stl(&cube[..2], "solid cube").replace("outer loop", "outer lop");
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (b"hello, not a mesh".to_vec(), "not an STL file"),
        (truncated, "not an STL file"),
        (lying_count, "not an STL file"),
        (nan, "not finite"),
        (empty_binary, "no triangles"),
        (b"solid empty\nendsolid empty\n".to_vec(), "no triangles"),
        (broken_ascii.into_bytes(), "facet 0 does not parse"),
        (
            b"solid cube\n  facet normal 0 0 0\n    outer loop\n      vertex 0 0 inf\n".to_vec(),
            "does not parse",
        ),
    ];
    for (bytes, expected) in cases {
        let text = message(decode_stl(&bytes, "part.stl").unwrap_err(), "part.stl");
        assert!(text.contains(expected), "{expected}: {text}");
    }
    let missing = read_stl(Path::new("/nonexistent/part.stl")).unwrap_err();
    assert!(message(missing, "part.stl").starts_with("cannot read"));
}
