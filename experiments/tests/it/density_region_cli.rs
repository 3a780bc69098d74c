//! Density maps and regions through the binary: `sample --density` (PNG and NPY) keeps every
//! pair's rule, `sample --region` (GeoJSON, PNG mask, OBJ, STL, voxel NPY) keeps every point
//! inside with every kind of sampler, outputs round-trip through `analyze`, `analyze
//! --density` measures how the counts follow the map, and every error is one line with exit
//! code 2 and no file left behind.

use crate::experiments_text as run;
use crate::pictures::write_grey8;
use experiments::io::{PointFormat, read_points};
use experiments::metrics::{NeighbourIndex, PairRule, varying_radius_stats};
use poisson_nd::region::{Mask, Mesh, Polygons, Voxels};
use poisson_nd::{Domain, Point, Region};
use std::path::{Path, PathBuf};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Runs `args` and expects success; returns stdout.
fn ok(args: &[&str]) -> String {
    testkit::cli::expect_success(crate::EXE, args)
}

/// Exit code 2, nothing on stdout, one line on stderr containing `expected`, and no file at
/// `out`.
fn refused(args: &[&str], out: &Path, expected: &str) {
    testkit::cli::assert_refused(&format!("{args:?}"), &run(args), expected);
    assert!(!out.exists(), "{args:?} left {}", out.display());
}

/// An NPY file (version 1.0, little-endian float64, C order) of `shape`.
fn write_npy(path: &Path, shape: &[usize], values: &[f64]) {
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    let shape_text =
        if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
    let mut header = format!("{{'descr': '<f8', 'fortran_order': False, 'shape': {shape_text}, }}");
    // Magic (6) + version (2) + length (2) + header, padded with spaces to a multiple of 64,
    // ending in a newline.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    for v in values {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    std::fs::write(path, bytes).unwrap();
}

/// Points and their radius column, read back from `path`.
fn read_with_radii<const D: usize>(path: &Path) -> (Vec<Point<D>>, Vec<f64>) {
    let format = PointFormat::from_path(path).unwrap();
    let read = read_points::<D>(path, format, &["radius"]).unwrap();
    let radii = read.data.attribute("radius").expect("a radius column").values.clone();
    (read.data.points, radii)
}

fn points_of<const D: usize>(path: &Path) -> Vec<Point<D>> {
    let format = PointFormat::from_path(path).unwrap();
    read_points::<D>(path, format, &[]).unwrap().data.points
}

/// Every pair keeps `rule(r_i, r_j)`: the k-d tree count and a brute-force count agree on 0.
fn assert_rule_kept<const D: usize>(points: &[Point<D>], radii: &[f64], rule: PairRule) {
    let domain = Domain::<D>::from_origin_and_extent([-1e3; D], [2e3; D]).unwrap();
    let index = NeighbourIndex::new(points, &domain);
    assert_eq!(varying_radius_stats(&index, radii, rule).violations, 0);
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            let d2: f64 = (0..D).map(|a| (points[i][a] - points[j][a]).powi(2)).sum();
            let r = rule.distance(radii[i], radii[j]);
            assert!(d2 >= r * r, "points {i} and {j} closer than {r}");
        }
    }
}

/// A GeoJSON lake with a hole, and two islands; its bounding box is [10, 30] × [20, 32].
const LAKE: &str = r#"{"type": "FeatureCollection", "features": [
  {"type": "Feature", "properties": {}, "geometry": {"type": "Polygon", "coordinates": [
    [[10, 20], [20, 20], [20, 30], [10, 30], [10, 20]],
    [[13, 23], [17, 23], [17, 27], [13, 27], [13, 23]]]}},
  {"type": "Feature", "properties": {}, "geometry": {"type": "MultiPolygon", "coordinates": [
    [[[22, 20], [26, 20], [24, 24], [22, 20]]],
    [[[27, 28], [30, 28], [30, 32], [27, 32], [27, 28]]]]}}]}"#;

fn lake_region() -> Polygons {
    Polygons::new(&[
        vec![
            vec![[10.0, 20.0], [20.0, 20.0], [20.0, 30.0], [10.0, 30.0]],
            vec![[13.0, 23.0], [17.0, 23.0], [17.0, 27.0], [13.0, 27.0]],
        ],
        vec![vec![[22.0, 20.0], [26.0, 20.0], [24.0, 24.0]]],
        vec![vec![[27.0, 28.0], [30.0, 28.0], [30.0, 32.0], [27.0, 32.0]]],
    ])
    .unwrap()
}

/// A closed unit cube [0, 1]³ as OBJ text, twelve outward triangles.
fn cube_obj(scale: f64, shift: f64) -> String {
    let mut text = String::new();
    for k in 0..8 {
        let c = |bit: usize| shift + scale * ((k >> bit) & 1) as f64;
        text.push_str(&format!("v {} {} {}\n", c(0), c(1), c(2)));
    }
    for f in CUBE_FACES {
        text.push_str(&format!("f {} {} {}\n", f[0] + 1, f[1] + 1, f[2] + 1));
    }
    text
}

/// The cube's triangles over vertices numbered `x + 2y + 4z`, wound outwards.
const CUBE_FACES: [[usize; 3]; 12] = [
    [0, 2, 1],
    [1, 2, 3],
    [4, 5, 6],
    [5, 7, 6],
    [0, 1, 4],
    [1, 5, 4],
    [2, 6, 3],
    [3, 6, 7],
    [0, 4, 2],
    [2, 4, 6],
    [1, 3, 5],
    [3, 7, 5],
];

fn cube_mesh(scale: f64, shift: f64) -> Mesh {
    let vertices = (0..8)
        .map(|k: usize| std::array::from_fn(|bit| shift + scale * ((k >> bit) & 1) as f64))
        .collect();
    Mesh::new(vertices, CUBE_FACES.to_vec()).unwrap()
}

fn octahedron_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/data/octahedron.obj")
}

fn octahedron_mesh() -> Mesh {
    let v = vec![
        [1.0, 0.0, 0.0],
        [-1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, -1.0],
    ];
    let t = vec![
        [0, 2, 4],
        [2, 1, 4],
        [1, 3, 4],
        [3, 0, 4],
        [2, 0, 5],
        [1, 2, 5],
        [3, 1, 5],
        [0, 3, 5],
    ];
    Mesh::new(v, t).unwrap()
}

/// The octahedron as ASCII STL (each facet lists its corners).
fn octahedron_stl() -> String {
    let v = [
        [1.0, 0.0, 0.0],
        [-1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, -1.0],
    ];
    let t =
        [[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4], [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]];
    let mut text = String::from("solid octahedron\n");
    for f in t {
        text.push_str("facet normal 0 0 0\nouter loop\n");
        for k in f {
            let p: [f64; 3] = v[k];
            text.push_str(&format!("vertex {} {} {}\n", p[0], p[1], p[2]));
        }
        text.push_str("endloop\nendfacet\n");
    }
    text.push_str("endsolid octahedron\n");
    text
}

fn assert_inside<const D: usize>(points: &[Point<D>], region: &impl Region<D>, what: &str) {
    assert!(!points.is_empty(), "{what}: no points");
    for p in points {
        assert!(region.contains(p), "{what}: {p:?} outside the region");
    }
}

#[test]
fn a_png_density_run_keeps_every_pair_rule_and_writes_radii() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("map.png");
    // Dense on the right (white), sparse on the left.
    write_grey8(&map, 32, 16, |i, _| (i * 255 / 31) as u8);
    for (rule, lib) in [("max", PairRule::Max), ("min", PairRule::Min), ("mean", PairRule::Mean)] {
        let out = dir.path().join(format!("{rule}.csv"));
        ok(&[
            "sample",
            "bridson",
            "--density",
            s(&map),
            "--rmin",
            "0.02",
            "--rmax",
            "0.06",
            "--radius-rule",
            rule,
            "--seed",
            "4",
            "--out",
            s(&out),
        ]);
        let header = std::fs::read_to_string(&out).unwrap();
        assert!(header.lines().next().unwrap().ends_with(",radius"), "{header:.40}");
        let (points, radii) = read_with_radii::<2>(&out);
        assert!(points.len() > 150, "{}", points.len());
        assert!(radii.iter().all(|r| (0.02..=0.06).contains(r)));
        assert_rule_kept(&points, &radii, lib);
        // Denser where the picture is white: more points in the right half.
        let right = points.iter().filter(|p| p[0] > 0.5).count();
        assert!(right > points.len() - right, "{right} of {}", points.len());
        // analyze finds no violation either.
        let json = ok(&[
            "analyze",
            s(&out),
            "--dim",
            "2",
            "--radius-column",
            "radius",
            "--radius-rule",
            rule,
            "--json",
            "--reference-realisations",
            "0",
            "--probes",
            "1000",
        ]);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["varying_radius"]["violations"], 0, "{rule}");
        assert_eq!(value["varying_radius"]["rule"], rule);
    }
}

#[test]
fn an_npy_density_run_in_3d_with_dart_throwing() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("map.npy");
    // 3 × 4 × 2 values rising along axis 0.
    let values: Vec<f64> = (0..24).map(|k| (k / 8) as f64 / 2.0).collect();
    write_npy(&map, &[3, 4, 2], &values);
    for sampler in ["dart-throwing-grid", "bridson", "dart-throwing"] {
        let out = dir.path().join(format!("{sampler}.ply"));
        ok(&[
            "sample",
            sampler,
            "--dim",
            "3",
            "--density",
            s(&map),
            "--rmin",
            "0.08",
            "--rmax",
            "0.16",
            "--mapping",
            "inverse",
            "--seed",
            "2",
            "--out",
            s(&out),
        ]);
        let (points, radii) = read_with_radii::<3>(&out);
        assert!(points.len() > 50, "{sampler}: {}", points.len());
        assert!(radii.iter().all(|r| (0.08..=0.16).contains(r)));
        assert_rule_kept(&points, &radii, PairRule::Max);
    }
}

#[test]
fn regions_of_every_kind_with_every_sampler_keep_points_inside() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let lake = d.join("lake.geojson");
    std::fs::write(&lake, LAKE).unwrap();
    let region = lake_region();
    // GeoJSON, box defaulting to the bounding box [10, 30] × [20, 32]: every sampler kind.
    let samplers: &[&[&str]] = &[
        &["bridson", "--radius", "0.6"],
        &["dart-throwing-grid", "--radius", "0.8"],
        &["maximal", "--radius", "0.8"],
        &["halton", "--n", "300"],
        &["white-noise", "--n", "300"],
        &["jittered-grid", "--n", "300"],
        &["best-candidate", "--n", "200"],
        &["sample-elimination", "--n", "200"],
    ];
    for args in samplers {
        let out = d.join(format!("{}.csv", args[0]));
        let mut all = vec!["sample"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--region", s(&lake), "--seed", "9", "--out", s(&out)]);
        ok(&all);
        let points = points_of::<2>(&out);
        assert_inside(&points, &region, args[0]);
        // The box is the region's bounding box: points reach both islands.
        assert!(points.iter().any(|p| p[0] > 27.0 && p[1] > 28.0), "{}", args[0]);
        assert!(points.iter().any(|p| p[0] > 22.0 && p[0] < 26.0 && p[1] < 24.0), "{}", args[0]);
        if args[0] == "halton" || args[0] == "white-noise" {
            assert_eq!(points.len(), 300, "{}", args[0]);
        }
    }

    // A PNG mask over the default unit box: a disc.
    let mask = d.join("disc.png");
    let disc = |i: u32, j: u32| {
        let (x, y) = (i as f64 - 31.5, j as f64 - 31.5);
        if x * x + y * y < 24.0 * 24.0 { 255 } else { 0 }
    };
    write_grey8(&mask, 64, 64, disc);
    let rows: Vec<Vec<f64>> =
        (0..64).map(|j| (0..64).map(|i| f64::from(disc(i, j)) / 255.0).collect()).collect();
    let library_mask = Mask::from_grey_rows(&rows, [0.0, 0.0], [1.0, 1.0]).unwrap();
    for args in [&["bridson", "--radius", "0.03"][..], &["white-noise", "--n", "400"]] {
        let out = d.join(format!("mask-{}.csv", args[0]));
        let mut all = vec!["sample"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--region", s(&mask), "--out", s(&out)]);
        ok(&all);
        assert_inside(&points_of::<2>(&out), &library_mask, "mask");
    }

    // A mask over a given box.
    let out = d.join("mask-box.csv");
    ok(&[
        "sample",
        "jittered-grid",
        "--n",
        "300",
        "--region",
        s(&mask),
        "--box",
        "2,2",
        "--origin",
        "-1,-1",
        "--out",
        s(&out),
    ]);
    let shifted = Mask::from_grey_rows(&rows, [-1.0, -1.0], [1.0, 1.0]).unwrap();
    assert_inside(&points_of::<2>(&out), &shifted, "mask over a box");

    // An OBJ cube [2, 3]³ and the octahedron of the examples, an STL octahedron.
    let cube = d.join("cube.obj");
    std::fs::write(&cube, cube_obj(1.0, 2.0)).unwrap();
    let out = d.join("cube.npy");
    ok(&[
        "sample",
        "bridson",
        "--dim",
        "3",
        "--region",
        s(&cube),
        "--radius",
        "0.15",
        "--out",
        s(&out),
    ]);
    let points = points_of::<3>(&out);
    assert_inside(&points, &cube_mesh(1.0, 2.0), "cube");
    assert!(points.len() > 100, "{}", points.len());
    let out = d.join("octahedron.json");
    let octahedron = octahedron_path();
    ok(&[
        "sample",
        "halton",
        "--dim",
        "3",
        "--region",
        s(&octahedron),
        "--n",
        "200",
        "--out",
        s(&out),
    ]);
    let points = points_of::<3>(&out);
    assert_eq!(points.len(), 200);
    assert_inside(&points, &octahedron_mesh(), "octahedron");
    let stl = d.join("octahedron.stl");
    std::fs::write(&stl, octahedron_stl()).unwrap();
    let out = d.join("stl.csv");
    ok(&[
        "sample",
        "best-candidate",
        "--dim",
        "3",
        "--region",
        s(&stl),
        "--n",
        "150",
        "--out",
        s(&out),
    ]);
    assert_inside(&points_of::<3>(&out), &octahedron_mesh(), "stl");

    // A voxel mask in 3D over the unit box: the corner octant [0.5, 1)³ and one more voxel.
    let voxels = d.join("voxels.npy");
    let values: Vec<f64> = (0..8).map(|k| if k == 7 || k == 0 { 1.0 } else { 0.0 }).collect();
    write_npy(&voxels, &[2, 2, 2], &values);
    let library_voxels = Voxels::from_values([2, 2, 2], &values, [0.0; 3], [1.0; 3]).unwrap();
    for args in [&["sample-elimination", "--n", "100"][..], &["maximal", "--radius", "0.1"]] {
        let out = d.join(format!("voxels-{}.csv", args[0]));
        let mut all = vec!["sample", "--dim", "3"];
        all.extend_from_slice(args);
        all.extend_from_slice(&["--region", s(&voxels), "--out", s(&out)]);
        ok(&all);
        let points = points_of::<3>(&out);
        assert_inside(&points, &library_voxels, "voxels");
        // Both voxels are reached.
        assert!(points.iter().any(|p| p.iter().all(|&x| x < 0.5)), "{}", args[0]);
        assert!(points.iter().any(|p| p.iter().all(|&x| x > 0.5)), "{}", args[0]);
    }
}

#[test]
fn density_and_region_together_and_every_output_round_trips_through_analyze() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let lake = d.join("lake.geojson");
    std::fs::write(&lake, LAKE).unwrap();
    let map = d.join("map.npy");
    write_npy(&map, &[2, 2], &[0.0, 0.5, 0.5, 1.0]);
    // NPY holds the points only: a region without a map.
    let out = d.join("pts.npy");
    ok(&["sample", "dart-throwing", "--region", s(&lake), "--radius", "0.7", "--out", s(&out)]);
    let points = points_of::<2>(&out);
    assert_inside(&points, &lake_region(), "npy");
    let json = ok(&[
        "analyze",
        s(&out),
        "--dim",
        "2",
        "--box",
        "20,12",
        "--origin",
        "10,20",
        "--radius",
        "0.7",
        "--json",
        "--reference-realisations",
        "0",
        "--probes",
        "1000",
    ]);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["n"], points.len());
    assert_eq!(value["pairs_closer"], 0);
    for ext in ["npz", "ply", "json", "csv"] {
        let out = d.join(format!("pts.{ext}"));
        ok(&[
            "sample",
            "bridson",
            "--region",
            s(&lake),
            "--density",
            s(&map),
            "--rmin",
            "0.4",
            "--rmax",
            "1.2",
            "--seed",
            "1",
            "--out",
            s(&out),
        ]);
        let (points, radii) = read_with_radii::<2>(&out);
        assert_inside(&points, &lake_region(), ext);
        assert_rule_kept(&points, &radii, PairRule::Max);
        let json = ok(&[
            "analyze",
            s(&out),
            "--dim",
            "2",
            "--box",
            "20,12",
            "--origin",
            "10,20",
            "--radius-column",
            "radius",
            "--json",
            "--reference-realisations",
            "0",
            "--probes",
            "1000",
        ]);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["n"], points.len(), "{ext}");
        assert_eq!(value["varying_radius"]["violations"], 0, "{ext}");
    }
}

/// Under the inverse mapping the counts per cell follow the density: Bridson at a fixed
/// seed with about 2700 points, the mean |relative error| over the 8 × 8 cells below half the
/// Poisson sampling error `mean 1/√expected` (Poisson-disk counts vary much less than Poisson
/// ones: measured 0.043 against 0.163), while the same set compared with a uniform map is off
/// by more than 1.5 times it (measured 0.321): the check tells a right map from a wrong one.
#[test]
fn analyze_density_follow_under_the_inverse_mapping() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("ramp.png");
    // Density from 0.25 (left) to 1 (right), in steps of a pixel.
    write_grey8(&map, 16, 4, |i, _| (64 + i * 191 / 15) as u8);
    let out = dir.path().join("pts.csv");
    let flags = ["--density", s(&map), "--rmin", "0.012", "--rmax", "0.05", "--mapping", "inverse"];
    let mut args = vec!["sample", "bridson", "--seed", "11", "--out", s(&out)];
    args.extend_from_slice(&flags);
    ok(&args);
    let mut args = vec![
        "analyze",
        s(&out),
        "--dim",
        "2",
        "--json",
        "--reference-realisations",
        "0",
        "--probes",
        "1000",
        "--radius-column",
        "radius",
    ];
    args.extend_from_slice(&flags);
    let value: serde_json::Value = serde_json::from_str(&ok(&args)).unwrap();
    let follow = &value["density_follow"];
    assert_eq!(follow["cells"], 64);
    assert_eq!(follow["mapping"], "inverse");
    assert_eq!(follow["approximate"], false);
    let n = follow["n"].as_u64().unwrap();
    assert!((1500..4000).contains(&n), "{n}");
    let mean = follow["mean_abs_relative_error"].as_f64().unwrap();
    let sampling = follow["sampling_error"].as_f64().unwrap();
    eprintln!("density follow: n {n}, mean |relative error| {mean}, sampling error {sampling}");
    assert!(mean < 0.5 * sampling, "mean |relative error| {mean}, sampling error {sampling}");
    // The same set against a uniform map is far off: the check can fail.
    let flat = dir.path().join("flat.png");
    write_grey8(&flat, 2, 2, |_, _| 255);
    let at = args.len() - 7;
    args[at] = s(&flat);
    let value: serde_json::Value = serde_json::from_str(&ok(&args)).unwrap();
    let off = value["density_follow"]["mean_abs_relative_error"].as_f64().unwrap();
    eprintln!("against a uniform map: mean |relative error| {off}");
    assert!(off > 1.5 * sampling, "{off} against a uniform map");
    // The table names the section, and lerp says it is an approximation.
    let mut table: Vec<&str> = args.iter().copied().filter(|a| *a != "--json").collect();
    let at = table.iter().position(|a| *a == "inverse").unwrap();
    table[at] = "lerp";
    let text = ok(&table);
    assert!(text.contains("density follow (lerp mapping, 8×8 cells"), "{text}");
    assert!(text.contains("approximation"), "{text}");
}

#[test]
fn every_error_is_one_line_and_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = d.join("out.csv");
    let o = s(&out);
    let map = d.join("map.png");
    write_grey8(&map, 4, 4, |i, _| (i * 60) as u8);
    let m = s(&map);
    let missing = d.join("missing.png");
    let garbage = d.join("garbage.png");
    std::fs::write(&garbage, b"not a picture").unwrap();
    let text = d.join("map.txt");
    std::fs::write(&text, "0.5").unwrap();
    let wrong_axes = d.join("axes.npy");
    write_npy(&wrong_axes, &[2, 2, 2], &[0.5; 8]);
    let above = d.join("above.npy");
    write_npy(&above, &[2, 2], &[0.5, 0.5, 1.5, 0.5]);
    let nan = d.join("nan.npy");
    write_npy(&nan, &[2, 2], &[0.5, f64::NAN, 0.5, 0.5]);
    let bad_geojson = d.join("bad.geojson");
    std::fs::write(&bad_geojson, r#"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0]]]}"#)
        .unwrap();
    let black = d.join("black.png");
    write_grey8(&black, 4, 4, |_, _| 0);
    let open = d.join("open.obj");
    std::fs::write(&open, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\nf 1 3 4\n")
        .unwrap();
    let broken = d.join("broken.obj");
    std::fs::write(&broken, "v 0 0\nf 1 2 x\n").unwrap();
    let empty_voxels = d.join("empty.npy");
    write_npy(&empty_voxels, &[2, 2], &[0.0; 4]);
    let lake = d.join("lake.geojson");
    std::fs::write(&lake, LAKE).unwrap();
    let cube = d.join("cube.obj");
    std::fs::write(&cube, cube_obj(1.0, 0.0)).unwrap();

    let density = |file: &Path| -> Vec<String> {
        ["sample", "bridson", "--density", s(file), "--rmin", "0.02", "--rmax", "0.05", "--out", o]
            .map(String::from)
            .to_vec()
    };
    let cases: Vec<(Vec<String>, String)> = vec![
        (density(&missing), format!("cannot read {}", missing.display())),
        (density(&garbage), garbage.display().to_string()),
        (density(&text), "must be a .png or .npy file".into()),
        (density(&wrong_axes), "the array has 3 axes".into()),
        (density(&above), "is 1.5, outside [0, 1]".into()),
        (density(&nan), "is NaN".into()),
    ];
    for (args, expected) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&args, &out, expected);
    }
    // A varying radius cannot go into .npy (points only): refused before sampling.
    let npy = d.join("varying.npy");
    let args = ["sample", "bridson", "--density", s(&map), "--rmin", "0.02", "--rmax", "0.05"];
    let args: Vec<&str> = args.into_iter().chain(["--out", s(&npy)]).collect();
    refused(&args, &npy, "an .npy file holds the points only");
    let b = ["sample", "bridson"];
    let with = |extra: &[&str]| -> Vec<String> {
        b.iter().chain(extra).chain(&["--out", o]).map(|a| a.to_string()).collect()
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            with(&["--density", m, "--rmin", "0", "--rmax", "0.05"]),
            "--rmin must be finite and positive",
        ),
        (
            with(&["--density", m, "--rmin", "-1", "--rmax", "0.05"]),
            "--rmin must be finite and positive",
        ),
        (
            with(&["--density", m, "--rmin", "0.06", "--rmax", "0.05"]),
            "--rmin 0.06 is larger than --rmax 0.05",
        ),
        (
            with(&["--density", m, "--rmin", "0.02", "--rmax", "0.05", "--radius", "0.1"]),
            "--radius does not apply with --density",
        ),
        (with(&["--density", m, "--rmax", "0.05"]), "needs --rmin and --rmax"),
        (with(&["--density", m]), "needs --rmin and --rmax"),
        (with(&["--radius", "0.1", "--rmin", "0.02"]), "--rmin applies only with --density"),
        (with(&["--radius", "0.1", "--rmax", "0.02"]), "--rmax applies only with --density"),
        (
            with(&["--radius", "0.1", "--mapping", "inverse"]),
            "--mapping applies only with --density",
        ),
        (with(&["--region", s(&bad_geojson), "--radius", "0.1"]), "bad.geojson"),
        (with(&["--region", s(&black), "--radius", "0.1"]), "black.png: the region has no point"),
        (with(&["--dim", "3", "--region", s(&open), "--radius", "0.1"]), "the mesh is not closed"),
        (with(&["--dim", "3", "--region", s(&broken), "--radius", "0.1"]), "broken.obj"),
        (
            with(&["--region", s(&empty_voxels), "--radius", "0.1"]),
            "empty.npy: the region has no point",
        ),
        (
            with(&["--region", s(&lake), "--radius", "0.1", "--box", "1,1"]),
            "lake.geojson: the region's bounding box",
        ),
        (
            with(&["--region", s(&text), "--radius", "0.1"]),
            "a region must be a .geojson, .json, .png, .obj, .stl or .npy file, not .txt",
        ),
        (
            with(&["--region", s(&cube), "--radius", "0.1"]),
            "this kind of region is 3-dimensional; use --dim 3",
        ),
        (with(&["--dim", "3", "--region", s(&lake), "--radius", "0.1"]), "use --dim 2"),
        (
            with(&["--region", s(&lake), "--radius", "0.1", "--periodic"]),
            "--periodic does not apply with --region",
        ),
        (with(&["--region", s(&missing), "--radius", "0.1"]), "cannot read"),
    ];
    for (args, expected) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused(&args, &out, expected);
    }
    // A sampler that takes no density map, named.
    refused(
        &[
            "sample",
            "halton",
            "--n",
            "10",
            "--density",
            m,
            "--rmin",
            "0.1",
            "--rmax",
            "0.2",
            "--out",
            o,
        ],
        &out,
        "--density does not apply to 'halton'",
    );
    refused(
        &["sample", "maximal", "--density", m, "--rmin", "0.1", "--rmax", "0.2", "--out", o],
        &out,
        "--density does not apply to 'maximal'",
    );
    // analyze's density flags.
    let pts = d.join("pts.csv");
    std::fs::write(&pts, "0.5,0.5\n0.25,0.25\n").unwrap();
    let (code, _, stderr) =
        run(&["analyze", s(&pts), "--dim", "2", "--density", m, "--rmin", "0.1"]);
    assert_eq!(code, 2);
    assert_eq!(stderr.trim(), format!("error: --density {m} needs --rmin and --rmax"));
    let (code, _, stderr) = run(&["analyze", s(&pts), "--dim", "2", "--rmin", "0.1"]);
    assert_eq!(code, 2);
    assert_eq!(stderr.trim(), "error: --rmin applies only with --density");
}
