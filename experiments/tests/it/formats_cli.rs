//! The file formats through the binary: `sample --out` in every format, `analyze` reading
//! them (and a radius column), `inspect` on every input kind, and every error as one line
//! with exit code 2 and no file left behind.

use crate::experiments_text as run;
use experiments::io::{Attribute, PointData, PointFormat, encode, read_points};
use std::path::Path;
use testkit::cli::Outcome;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Exit code 2, nothing on stdout, one line on stderr containing `expected`.
fn assert_refused(outcome: Outcome, expected: &str) {
    testkit::cli::assert_refused("refused", &outcome, expected);
}

/// The files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn sample_writes_every_format_and_analyze_reads_each_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let sample = |out: &Path| {
        run(&[
            "sample",
            "bridson",
            "--dim",
            "3",
            "--radius",
            "0.15",
            "--seed",
            "3",
            "--out",
            s(out),
        ])
    };
    let csv = dir.path().join("pts.csv");
    assert_eq!(sample(&csv).0, 0);
    let reference = read_points::<3>(&csv, PointFormat::Csv, &[]).unwrap().data;
    let mut metrics = Vec::new();
    for &format in PointFormat::ALL {
        let path = dir.path().join(format!("pts.{}", format.extension()));
        let (code, _, stderr) = sample(&path);
        assert_eq!(code, 0, "{stderr}");
        let read = read_points::<3>(&path, format, &[]).unwrap().data;
        let bits = |d: &PointData<3>| -> Vec<[u64; 3]> {
            d.points.iter().map(|p| p.map(f64::to_bits)).collect()
        };
        assert_eq!(bits(&read), bits(&reference), "{format:?}");
        let (code, stdout, stderr) = run(&[
            "analyze",
            s(&path),
            "--dim",
            "3",
            "--probes",
            "500",
            "--reference-realisations",
            "0",
            "--json",
        ]);
        assert_eq!(code, 0, "{format:?}: {stderr}");
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert!(json.get("varying_radius").is_none(), "no radius column asked for");
        metrics.push(json["metrics"].to_string());
    }
    assert!(metrics.windows(2).all(|w| w[0] == w[1]), "the same points, the same metrics");
    // --format overrides the extension.
    let odd = dir.path().join("points.dat");
    let (code, _, stderr) =
        run(&["sample", "halton", "--n", "10", "--out", s(&odd), "--format", "ply"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(std::fs::read(&odd).unwrap().starts_with(b"ply\n"));
}

#[test]
fn sample_refuses_an_unknown_extension_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("pts.txt");
    assert_refused(
        run(&["sample", "white-noise", "--n", "5", "--out", s(&out)]),
        "pts.txt from its extension (known: .csv, .npy, .npz, .ply, .json)",
    );
    assert!(listing(dir.path()).is_empty());
}

/// Points 0 and 1 are 0.1 apart with radii 0.05 and 0.2: too close under max and mean,
/// fine under min. The others keep their distances.
fn set_with_one_violation() -> PointData<2> {
    PointData {
        points: vec![[0.1, 0.1], [0.2, 0.1], [0.8, 0.8], [0.5, 0.5]],
        attributes: vec![Attribute { name: "radius".into(), values: vec![0.05, 0.2, 0.1, 0.1] }],
    }
}

#[test]
fn analyze_checks_a_radius_column_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let data = set_with_one_violation();
    for &format in PointFormat::ALL.iter().filter(|&&f| f != PointFormat::Npy) {
        let path = dir.path().join(format!("set.{}", format.extension()));
        let mut bytes = Vec::new();
        encode(format, &mut bytes, &data).unwrap();
        std::fs::write(&path, bytes).unwrap();
        for (rule, violations) in [("max", 1), ("mean", 1), ("min", 0)] {
            let (code, stdout, stderr) = run(&[
                "analyze",
                s(&path),
                "--dim",
                "2",
                "--radius-column",
                "radius",
                "--radius-rule",
                rule,
                "--probes",
                "100",
                "--json",
            ]);
            assert_eq!(code, 0, "{format:?} {rule}: {stderr}");
            let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
            let v = &json["varying_radius"];
            assert_eq!(v["column"], "radius");
            assert_eq!(v["rule"], rule);
            assert_eq!(v["violations"], violations, "{format:?} {rule}");
            if violations == 1 {
                assert_eq!(
                    (v["worst"]["i"].as_u64(), v["worst"]["j"].as_u64()),
                    (Some(0), Some(1))
                );
                let rule_distance = if rule == "max" { 0.2 } else { 0.125 };
                assert_eq!(v["worst"]["rule_distance"], rule_distance);
                let ratio = v["worst"]["ratio"].as_f64().unwrap();
                assert!((ratio - 0.1 / rule_distance).abs() < 1e-12, "{ratio}");
                assert_eq!(v["points_in_violations"], 2);
            } else {
                assert!(v["worst"].is_null());
            }
            assert_eq!(v["radius"]["max"], 0.2);
        }
    }
    // The table shows the section.
    let csv = dir.path().join("set.csv");
    let (code, stdout, _) =
        run(&["analyze", s(&csv), "--dim", "2", "--radius-column", "radius", "--probes", "100"]);
    assert_eq!(code, 0);
    assert!(stdout.contains("varying radius (column 'radius', pairs must keep max(r_i, r_j))"));
    assert!(stdout.contains("pairs closer than their rule distance  1  (2 points involved)"));
    assert!(stdout.contains("worst pair: points 0 and 1"), "{stdout}");
}

#[test]
fn analyze_errors_are_one_line_and_leave_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let plain = write("plain.csv", b"0.1,0.2\n0.3,0.4\n");
    let zero = write("zero.csv", b"x0,x1,radius\n0.1,0.2,0.05\n0.3,0.4,0\n");
    let negative =
        write("negative.json", br#"{"points": [[0.1, 0.2], [0.3, 0.4]], "radius": [0.1, -1]}"#);
    let not_npy = write("junk.npy", b"junk");
    let not_ply = write("junk.ply", b"junk");
    let unknown = write("points.xyz", b"0.1 0.2\n");
    let spectrum = dir.path().join("spectrum.csv");
    let before = listing(dir.path());
    let cases: Vec<(Vec<&str>, String)> = vec![
        (vec!["/nonexistent/points.csv"], "cannot read /nonexistent/points.csv".into()),
        (vec![s(&not_npy)], format!("{}: not a readable NPY file", s(&not_npy))),
        (vec![s(&not_ply)], format!("{}: not a PLY file", s(&not_ply))),
        (vec![s(&unknown)], "points.xyz from its extension".into()),
        (
            vec![s(&plain), "--radius-column", "radius"],
            format!("{}: no radius column named 'radius'", s(&plain)),
        ),
        (
            vec![s(&zero), "--radius-column", "radius"],
            format!("{}: line 3: radius 0 is not positive", s(&zero)),
        ),
        (
            vec![s(&negative), "--radius-column", "radius"],
            format!("{}: point 2: radius -1 is not positive", s(&negative)),
        ),
        (vec![s(&plain), "--radius-rule", "min"], "--radius-column".into()),
        (vec![s(&plain), "--radius-column", "radius", "--radius-rule", "median"], "median".into()),
    ];
    for (mut args, expected) in cases {
        args.splice(0..0, ["analyze"]);
        args.extend(["--dim", "2", "--spectrum-out", s(&spectrum)]);
        assert_refused(run(&args), &expected);
        assert_eq!(listing(dir.path()), before, "{args:?} left a file");
    }
}

#[test]
fn inspect_reads_every_input_kind() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("map.png");
    std::fs::write(
        &png,
        crate::pictures::png8(2, 2, png::ColorType::Grayscale, &[0, 51, 102, 255]),
    )
    .unwrap();
    let (code, stdout, stderr) = run(&["inspect", s(&png)]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("picture of 2 × 2 pixels") && stdout.contains("mean 0.4"), "{stdout}");
    let npy = dir.path().join("mask.npy");
    std::fs::write(
        &npy,
        experiments::io::npy::header(&[2, 3])
            .into_iter()
            .chain([0.5f64, 1.0, 0.0, 0.25, f64::NAN, 1.0].iter().flat_map(|v| v.to_le_bytes()))
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let (code, stdout, _) = run(&["inspect", s(&npy), "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["kind"], "array");
    assert_eq!(json["shape"], serde_json::json!([2, 3]));
    assert_eq!(json["non_finite"], 1);
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/data");
    let (code, stdout, _) = run(&["inspect", s(&data.join("lake.geojson"))]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("2 polygons, 1 hole, 12 corners, area 111, bounding box [0, 18] × [0, 10]"),
        "{stdout}"
    );
    // Overlapping pieces are joined: their area counts once.
    let dir = tempfile::tempdir().unwrap();
    let overlapping = dir.path().join("overlapping.geojson");
    std::fs::write(
        &overlapping,
        r#"{"type": "MultiPolygon", "coordinates": [[[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]],
            [[[0.5, 0], [1.5, 0], [1.5, 1], [0.5, 1], [0.5, 0]]]]}"#,
    )
    .unwrap();
    let (code, stdout, _) = run(&["inspect", s(&overlapping)]);
    assert_eq!(code, 0);
    assert!(stdout.contains("2 polygons, 0 holes, 8 corners, area 1.5,"), "{stdout}");
    // Far from the origin for its size, a box keeps the digits that tell its bounds apart.
    let far = dir.path().join("far.geojson");
    std::fs::write(
        &far,
        r#"{"type": "Polygon", "coordinates": [[[1000000.25, 5], [1000001.25, 5],
            [1000001.25, 6], [1000000.25, 5]]]}"#,
    )
    .unwrap();
    let (code, stdout, _) = run(&["inspect", s(&far)]);
    assert_eq!(code, 0);
    assert!(stdout.contains("bounding box [1.00000025e6, 1.00000125e6] × [5, 6]"), "{stdout}");
    let (code, stdout, _) = run(&["inspect", s(&data.join("octahedron.obj")), "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!((json["vertices"].as_u64(), json["triangles"].as_u64()), (Some(6), Some(8)));
    assert_eq!(json["unpaired_edges"], 0);
    let stl = dir.path().join("tri.stl");
    std::fs::write(&stl, "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n").unwrap();
    let (code, stdout, _) = run(&["inspect", s(&stl)]);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("3 vertices and 1 triangles (0 of zero area), area 0.5, open (3 edges"),
        "{stdout}"
    );
    assert!(stdout.contains("positions only"), "{stdout}");
    // Every surface mesh format: a PLY with a degenerate face, an OBJ with texture coordinates.
    let ply = dir.path().join("fan.ply");
    std::fs::write(
        &ply,
        "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\n\
         property float z\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n\
         0 0 0\n2 0 0\n0 2 0\n1 0 0\n3 0 1 2\n3 0 1 3\n",
    )
    .unwrap();
    let (code, stdout, _) = run(&["inspect", s(&ply), "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!((json["triangles"].as_u64(), json["degenerate"].as_u64()), (Some(2), Some(1)));
    assert_eq!(json["area"].as_f64(), Some(2.0));
    let obj = dir.path().join("uv.obj");
    std::fs::write(&obj, "v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nf 1/1 2/2 3/3\n")
        .unwrap();
    let (code, stdout, _) = run(&["inspect", s(&obj)]);
    assert_eq!(code, 0);
    assert!(stdout.contains("with texture coordinates"), "{stdout}");
}

#[test]
fn inspect_errors_are_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let cases = [
        (write("fake.png", b"GIF89a"), "not a decodable PNG"),
        (write("fake.npy", b"\x93NUMPY junk"), "not a readable NPY file"),
        (write("broken.geojson", b"{\"type\": \"Polygon\", "), "malformed JSON"),
        (
            write("line.geojson", br#"{"type": "LineString", "coordinates": [[0, 0], [1, 1]]}"#),
            "LineString",
        ),
        (write("bad.obj", b"v 0 0 0\nf 1 2 3\n"), "out of bounds"),
        (
            write("bad.stl", b"solid x\nfacet normal 0 0 0\nouter loop\nvertex 1 2\n"),
            "does not parse",
        ),
        (write("blob.stl", b"\x00\x01\x02"), "not an STL file"),
        (
            write(
                "leaking.geojson",
                br#"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]],
                    [[0.5, 0.5], [2, 2], [0.5, 2], [0.5, 0.5]]]}"#,
            ),
            "polygon 0, ring 1: the hole reaches outside the polygon's exterior",
        ),
        (write("notes.txt", b"hello"), "known: .png, .npy, .geojson, .obj, .stl"),
        (dir.path().join("missing.png"), "cannot read"),
    ];
    for (path, expected) in cases {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let result = run(&["inspect", s(&path)]);
        assert!(result.2.contains(&name), "{}", result.2);
        assert_refused(result, expected);
    }
}
