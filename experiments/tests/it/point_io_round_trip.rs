//! The point I/O layer: what is written reads back bit for bit, through memory and through
//! files, and a failed write leaves no file.

use experiments::io::{
    Attribute, PointData, PointFormat, decode, encode, read_points, write_points,
};

/// Floats that have tripped up writers: subnormals, the smallest normal, 0.1 + 0.2, −0.0,
/// huge and tiny exponents, the largest finite value, a third.
const AWKWARD: [f64; 12] = [
    5e-324,
    2.2250738585072014e-308,
    2.225073858507201e-308,
    0.1 + 0.2,
    -0.0,
    0.0,
    1e300,
    -1.7976931348623157e308,
    1e-300,
    1.0 / 3.0,
    123456789012345680.0,
    -7.0,
];

fn bits<const D: usize>(points: &[[f64; D]]) -> Vec<[u64; D]> {
    points.iter().map(|p| p.map(f64::to_bits)).collect()
}

fn awkward_points() -> Vec<[f64; 3]> {
    (0..AWKWARD.len())
        .map(|i| [AWKWARD[i], AWKWARD[(i + 5) % AWKWARD.len()], AWKWARD[(i + 7) % AWKWARD.len()]])
        .collect()
}

#[test]
fn awkward_floats_read_back_bit_identically() {
    let points = awkward_points();
    let radius = Attribute { name: "radius".into(), values: AWKWARD.to_vec() };
    let data = PointData { points: points.clone(), attributes: vec![radius] };
    for format in PointFormat::ALL.iter().copied() {
        let mut bytes = Vec::new();
        if format == PointFormat::Npy {
            // NPY holds the points only: data with a radius is refused, not cut.
            let error = encode(format, &mut bytes, &data).unwrap_err();
            assert!(error.to_string().contains(".npz"), "{error}");
            continue;
        }
        encode(format, &mut bytes, &data).unwrap();
        let back = decode::<3>(format, bytes.as_slice(), &["radius"]).unwrap();
        assert_eq!(bits(&back.data.points), bits(&points), "{format:?}");
        let radii: Vec<u64> = back.data.attributes[0].values.iter().map(|x| x.to_bits()).collect();
        assert_eq!(radii, AWKWARD.map(f64::to_bits).to_vec(), "{format:?}");
        let without = decode::<3>(format, bytes.as_slice(), &[]);
        if format == PointFormat::Csv {
            // An extra CSV column not asked for is an error, not a coordinate.
            assert!(without.is_err(), "{format:?}");
        } else {
            // The named formats skip what was not asked for.
            let without = without.unwrap();
            assert!(without.data.attributes.is_empty(), "{format:?}");
            assert_eq!(bits(&without.data.points), bits(&points), "{format:?}");
        }
        // Writing what was read gives the same bytes.
        let mut again = Vec::new();
        encode(format, &mut again, &back.data).unwrap();
        assert_eq!(again, bytes, "{format:?}");
    }
}

#[test]
fn files_round_trip_and_failed_writes_leave_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = PointData::new(awkward_points());
    for format in PointFormat::ALL.iter().copied() {
        let path = dir.path().join(format!("points.{}", format.extension()));
        assert_eq!(PointFormat::from_path(&path), Ok(format));
        write_points(&path, format, &data).unwrap();
        let back = read_points::<3>(&path, format, &[]).unwrap();
        assert_eq!(bits(&back.data.points), bits(&data.points));
        assert_eq!(back.positions.len(), data.points.len());
    }
    let missing = dir.path().join("no/such/dir/points.csv");
    let error = write_points(&missing, PointFormat::Csv, &data).unwrap_err();
    assert!(error.starts_with("cannot write ") && !error.contains('\n'), "{error}");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).collect();
    assert!(left.iter().all(|p| !p.to_string_lossy().ends_with(".partial")), "{left:?}");
}

#[test]
fn the_sample_command_writes_what_it_sampled_bit_for_bit() {
    use experiments::spec::{BridsonParams, SamplerSpec};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("pts.csv");
    let out = crate::experiments(&[
        "sample",
        "bridson",
        "--dim",
        "3",
        "--radius",
        "0.1",
        "--seed",
        "7",
        "--origin",
        "-1,-1,-1",
        "--box",
        "0.7,1.3,1",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let domain =
        experiments::domains::from_slices::<3>(&[-1.0; 3], &[0.7, 1.3, 1.0], false).unwrap();
    let spec = SamplerSpec::Bridson(BridsonParams::default());
    let expected = spec.build(domain, Some(0.1), None).unwrap().run(None, 7);
    let read = read_points::<3>(&path, PointFormat::Csv, &[]).unwrap();
    assert_eq!(bits(&read.data.points), bits(&expected.points));
}
