//! Points on a mesh's surface through the binary: `sample surface` (a maximal fill at a
//! radius, exactly n points, a density texture) writes every column in every format, the
//! points rebuild from their faces, `analyze --mesh` measures them, and every bad input is a
//! one-line error with exit code 2 and no file left behind.

use crate::experiments_text as run;
use experiments::io::{PointFormat, ReadPoints, read_points};
use experiments::surface::{COLUMNS, read_surface};
use poisson_nd::surface::SurfaceMesh;
use poisson_nd::{Domain, Point};
use std::f64::consts::TAU;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn ok(args: &[&str]) -> String {
    testkit::cli::expect_success(crate::EXE, args)
}

fn refused(args: &[&str], out: &Path, expected: &str) {
    testkit::cli::assert_refused(&format!("{args:?}"), &run(args), expected);
    assert!(!out.exists(), "{args:?} left {}", out.display());
}

/// A torus (major radius 1, minor 0.4) as OBJ, every corner with its normal and texture
/// coordinate; the seam's corners repeat the first row's positions with u or v = 1.
fn torus_obj(path: &Path, n: usize, m: usize) {
    let mut text = String::new();
    for i in 0..=n {
        let u = TAU * i as f64 / n as f64;
        for j in 0..=m {
            let v = TAU * j as f64 / m as f64;
            let ring = 1.0 + 0.4 * v.cos();
            let (x, y, z) = (ring * u.cos(), ring * u.sin(), 0.4 * v.sin());
            writeln!(text, "v {x} {y} {z}").unwrap();
            writeln!(text, "vn {} {} {}", v.cos() * u.cos(), v.cos() * u.sin(), v.sin()).unwrap();
            writeln!(text, "vt {} {}", i as f64 / n as f64, j as f64 / m as f64).unwrap();
        }
    }
    let at = |i: usize, j: usize| i * (m + 1) + j + 1;
    for i in 0..n {
        for j in 0..m {
            let [a, b, c, d] = [at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1)];
            writeln!(text, "f {a}/{a}/{a} {b}/{b}/{b} {c}/{c}/{c}").unwrap();
            writeln!(text, "f {a}/{a}/{a} {c}/{c}/{c} {d}/{d}/{d}").unwrap();
        }
    }
    std::fs::write(path, text).unwrap();
}

/// A unit square of two triangles as ASCII STL (no UVs).
fn square_stl(path: &Path) {
    let facet = |a: [f64; 3], b: [f64; 3], c: [f64; 3]| {
        format!(
            "facet normal 0 0 1\nouter loop\nvertex {} {} {}\nvertex {} {} {}\nvertex {} {} {}\n\
             endloop\nendfacet\n",
            a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]
        )
    };
    let text = format!(
        "solid square\n{}{}endsolid square\n",
        facet([0.0; 3], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0]),
        facet([0.0; 3], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0])
    );
    std::fs::write(path, text).unwrap();
}

fn read(path: &Path) -> ReadPoints<3> {
    read_points::<3>(path, PointFormat::from_path(path).unwrap(), &COLUMNS).unwrap()
}

fn column<'a>(read: &'a ReadPoints<3>, name: &str) -> &'a [f64] {
    &read.data.attribute(name).unwrap_or_else(|| panic!("no column {name}")).values
}

fn closest(points: &[Point<3>]) -> f64 {
    let widest = Domain::<3>::from_corners([-2.0; 3], [2.0; 3]).unwrap();
    testkit::oracle::min_pair_distance(&widest, points)
}

/// Every point rebuilds from its face and barycentrics, and its normal has unit length.
fn check_rebuild(read: &ReadPoints<3>, mesh: &SurfaceMesh) {
    let faces = column(read, "face");
    let (b0, b1, b2) = (column(read, "b0"), column(read, "b1"), column(read, "b2"));
    let normals = [column(read, "nx"), column(read, "ny"), column(read, "nz")];
    for (k, p) in read.data.points.iter().enumerate() {
        let q = mesh.point_at(faces[k] as usize, [b0[k], b1[k], b2[k]]);
        for i in 0..3 {
            assert!((p[i] - q[i]).abs() <= 1e-12 * (1.0 + p[i].abs()), "{p:?} vs {q:?}");
        }
        assert!((b0[k] + b1[k] + b2[k] - 1.0).abs() < 1e-12);
        let length: f64 = normals.iter().map(|n| n[k] * n[k]).sum::<f64>().sqrt();
        assert!((length - 1.0).abs() < 1e-12, "normal length {length}");
    }
}

#[test]
fn a_fill_writes_every_column_keeps_r_and_covers_the_surface() {
    let dir = tempfile::tempdir().unwrap();
    let mesh_path = dir.path().join("torus.obj");
    torus_obj(&mesh_path, 48, 24);
    let mesh = read_surface(&mesh_path).unwrap();
    assert!(mesh.normals().is_some() && mesh.uvs().is_some());
    let r = 0.1;
    let mut first: Option<ReadPoints<3>> = None;
    for ext in ["ply", "csv", "npz", "json"] {
        let out = dir.path().join(format!("fill.{ext}"));
        ok(&[
            "sample",
            "surface",
            "--mesh",
            s(&mesh_path),
            "--radius",
            "0.1",
            "--seed",
            "7",
            "--out",
            s(&out),
        ]);
        let points = read(&out);
        let names: Vec<&str> = points.data.attributes.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["nx", "ny", "nz", "face", "b0", "b1", "b2", "u", "v"], "{ext}");
        // Every format holds the same values to the last bit.
        match &first {
            None => first = Some(points),
            Some(reference) => assert_eq!(&points.data, &reference.data, "{ext}"),
        }
    }
    let points = first.unwrap();
    assert!(closest(&points.data.points) >= r);
    check_rebuild(&points, &mesh);
    // The interpolated normal points away from the tube's core circle.
    for (k, p) in points.data.points.iter().enumerate() {
        let ring = (p[0] * p[0] + p[1] * p[1]).sqrt();
        let out = [p[0] - p[0] / ring, p[1] - p[1] / ring, p[2]];
        let n = [column(&points, "nx")[k], column(&points, "ny")[k], column(&points, "nz")[k]];
        assert!(out.iter().zip(&n).map(|(a, b)| a * b).sum::<f64>() > 0.0);
    }
    // analyze --mesh: the same closest pair, covered within r, faces that place the points.
    let analyze = |name: &str| {
        let (points, m) = (dir.path().join(name), s(&mesh_path));
        let json = ok(&["analyze", s(&points), "--mesh", m, "--radius", "0.1", "--json"]);
        serde_json::from_str::<serde_json::Value>(&json).unwrap()
    };
    let value = analyze("fill.csv");
    let d_min = value["d_min"].as_f64().unwrap();
    assert!((d_min / closest(&points.data.points) - 1.0).abs() < 1e-12);
    assert_eq!(value["nominal"]["covered_fraction"].as_f64(), Some(1.0));
    assert!(value["coverage"]["largest_gap"].as_f64().unwrap() < r);
    assert!(value["face_offset"].as_f64().unwrap() <= 1e-12);
    let rho = value["relative_radius"].as_f64().unwrap();
    assert!((0.7..0.9).contains(&rho), "{rho}");
    let table = ok(&["analyze", s(&dir.path().join("fill.ply")), "--mesh", s(&mesh_path)]);
    assert!(table.contains("on the surface of") && table.contains("largest gap"), "{table}");
    assert!(table.contains("distance from the surface") && !table.contains("lie off"), "{table}");
    assert_eq!(value["off_surface"]["points_off"].as_u64(), Some(0));
    assert!(value["off_surface"]["largest"].as_f64().unwrap() <= 1e-12);
    // A point moved off the surface is measured and named, the rest taken as they are.
    let mut moved = String::from("x,y,z\n");
    for (k, p) in points.data.points.iter().take(40).enumerate() {
        let z = if k == 7 { p[2] + 0.5 } else { p[2] };
        moved.push_str(&format!("{:?},{:?},{:?}\n", p[0], p[1], z));
    }
    std::fs::write(dir.path().join("moved.csv"), moved).unwrap();
    let value = analyze("moved.csv");
    assert_eq!(value["off_surface"]["points_off"].as_u64(), Some(1));
    assert_eq!(value["off_surface"]["farthest"].as_u64(), Some(7));
    let largest = value["off_surface"]["largest"].as_f64().unwrap();
    assert!(largest > 0.1 && largest <= 0.5, "{largest}");
    let table = ok(&["analyze", s(&dir.path().join("moved.csv")), "--mesh", s(&mesh_path)]);
    assert!(table.contains("1 of 40 points lie off the surface"), "{table}");
    // --fill front: its own points, reproducible, the same guarantees; --fill darts is the
    // default.
    let fill = |method: &str, name: &str| {
        let out = dir.path().join(name);
        let (m, o) = (s(&mesh_path), s(&out));
        ok(&["sample", "surface", "--mesh", m, "--radius", "0.1", "--seed", "7"]
            .into_iter()
            .chain(["--fill", method, "--out", o])
            .collect::<Vec<_>>());
        read(&out)
    };
    assert_eq!(fill("darts", "darts.csv").data, points.data);
    let front = fill("front", "front.csv");
    assert_eq!(front.data, fill("front", "front2.csv").data);
    assert_ne!(front.data.points, points.data.points);
    assert!(closest(&front.data.points) >= r);
    check_rebuild(&front, &mesh);
    assert!(analyze("front.csv")["coverage"]["largest_gap"].as_f64().unwrap() < r);
}

#[test]
fn n_points_are_exactly_n_and_reproducible() {
    let dir = tempfile::tempdir().unwrap();
    let mesh_path = dir.path().join("torus.obj");
    torus_obj(&mesh_path, 40, 20);
    let mesh = read_surface(&mesh_path).unwrap();
    let sample = |seed: &str, name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        let mut args =
            vec!["sample", "surface", "--mesh", s(&mesh_path), "--n", "700", "--seed", seed];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", s(&out)]);
        ok(&args);
        read(&out)
    };
    let a = sample("3", "a.npz", &[]);
    let b = sample("3", "b.npz", &[]);
    let c = sample("4", "c.npz", &[]);
    assert_eq!(a.data.points.len(), 700);
    assert_eq!(a.data, b.data);
    assert_ne!(a.data.points, c.data.points);
    check_rebuild(&a, &mesh);
    // Progressive: the same points in another order, each prefix spread.
    let p = sample("3", "p.npz", &["--progressive"]);
    assert_eq!(p.data.points.len(), 700);
    let first = closest(&p.data.points[..70]);
    assert!(first > 1.5 * closest(&p.data.points), "{first}");
    // More candidates, better spread.
    let wide = sample("3", "w.npz", &["--ratio", "12"]);
    assert!(closest(&wide.data.points) > closest(&a.data.points));
}

#[test]
fn a_density_texture_varies_the_radius_through_the_uvs() {
    let dir = tempfile::tempdir().unwrap();
    let mesh_path = dir.path().join("torus.obj");
    torus_obj(&mesh_path, 48, 24);
    let texture = dir.path().join("density.png");
    // Dense (white) on the left half of the UV square, sparse (black) on the right.
    crate::pictures::write_grey8(&texture, 16, 4, |i, _| if i < 8 { 255 } else { 0 });
    let out = dir.path().join("dense.csv");
    ok(&[
        "sample",
        "surface",
        "--mesh",
        s(&mesh_path),
        "--density-texture",
        s(&texture),
        "--rmin",
        "0.06",
        "--rmax",
        "0.2",
        "--out",
        s(&out),
    ]);
    let points = read(&out);
    let radii = column(&points, "radius");
    let u = column(&points, "u");
    for (k, &r) in radii.iter().enumerate() {
        assert!((0.06..=0.2).contains(&r));
        if u[k] < 0.4 {
            assert!((r - 0.06).abs() < 1e-12, "{r}");
        }
    }
    // Max rule by default: every pair keeps the larger radius.
    let p = &points.data.points;
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            let d: f64 = (0..3).map(|a| (p[i][a] - p[j][a]).powi(2)).sum::<f64>().sqrt();
            assert!(d >= radii[i].max(radii[j]));
        }
    }
    let left = u.iter().filter(|&&u| u < 0.5).count();
    assert!(left > 3 * (u.len() - left), "{left} of {}", u.len());
}

#[test]
fn bad_input_is_one_line_and_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let torus = dir.path().join("torus.obj");
    torus_obj(&torus, 12, 6);
    let square = dir.path().join("square.stl");
    square_stl(&square);
    let png = dir.path().join("d.png");
    crate::pictures::write_grey8(&png, 2, 2, |_, _| 9);
    let nan = dir.path().join("nan.obj");
    std::fs::write(&nan, "v 0 0 0\nv 1 nan 0\nv 0 1 0\nf 1 2 3\n").unwrap();
    let far = dir.path().join("far.obj");
    std::fs::write(&far, "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n").unwrap();
    let flat = dir.path().join("flat.obj");
    std::fs::write(&flat, "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n").unwrap();
    let out = dir.path().join("out.csv");
    let (t, q, o) = (s(&torus), s(&square), s(&out));
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--mesh", t], "needs --radius"),
        (vec!["--mesh", t, "--radius", "0.1", "--n", "5"], "not both"),
        (vec!["--mesh", t, "--radius", "0.1", "--box", "1,1,1"], "--box does not apply"),
        (vec!["--mesh", t, "--radius", "0.1", "--dim", "4"], "--dim 4"),
        (vec!["--mesh", t, "--radius", "0.1", "--progressive"], "--progressive applies only"),
        (vec!["--mesh", t, "--radius", "0.1", "--mapping", "inverse"], "--mapping applies only"),
        (vec!["--mesh", t, "--radius", "-1"], "radius"),
        (vec!["--mesh", t, "--radius", "1e-9"], "could place about"),
        (vec!["--mesh", t, "--n", "5", "--ratio", "0.5"], "--ratio"),
        (vec!["--mesh", t, "--n", "5", "--fill", "front"], "--fill applies only"),
        // Exactly n points, or a one-line refusal: never fewer (nor, near the limit, five
        // times the memory it promises) with a zero exit.
        (
            vec!["--mesh", t, "--n", "30", "--max-points", "20"],
            "--n 30 is more than the point limit of 20 (--max-points)",
        ),
        (
            vec!["--mesh", t, "--n", "30", "--max-points", "100"],
            "--n 30 draws 150 candidates at --ratio 5, more than the point limit of 100",
        ),
        (vec!["--mesh", t, "--n", "1000000000000"], "is more than the point limit of 100000000"),
        (vec!["--mesh", t, "--n", "30000000"], "draws 150000000 candidates"),
        (vec!["--mesh", t, "--radius", "0.1", "--fill", "walk"], "walk"),
        (vec!["--mesh", t, "--density-texture", s(&png)], "needs --rmin and --rmax"),
        (
            vec!["--mesh", q, "--density-texture", s(&png), "--rmin", "0.1", "--rmax", "0.2"],
            "no texture coordinates",
        ),
        (
            vec!["--mesh", q, "--density-texture", "d.npy", "--rmin", "0.1", "--rmax", "0.2"],
            "d.npy: a density texture on a mesh is a .png",
        ),
        (vec!["--mesh", s(&nan), "--radius", "0.1"], "nan.obj"),
        (vec!["--mesh", s(&far), "--radius", "0.1"], "far.obj"),
        (vec!["--mesh", s(&flat), "--radius", "0.1"], "positive area"),
        (vec!["--mesh", "missing.ply", "--radius", "0.1"], "missing.ply"),
        (vec!["--mesh", "mesh.3ds", "--radius", "0.1"], "unknown mesh extension"),
    ];
    for (flags, expected) in cases {
        let mut args = vec!["sample", "surface"];
        args.extend(flags);
        args.extend(["--out", o]);
        refused(&args, &out, expected);
    }
    let npy = dir.path().join("out.npy");
    refused(&["sample", "surface", "--mesh", t, "--n", "5", "--out", s(&npy)], &npy, ".npz");
    // analyze --mesh: flags of the box are refused, a face out of range names the point.
    let points = dir.path().join("p.csv");
    ok(&["sample", "surface", "--mesh", t, "--n", "20", "--out", s(&points)]);
    let text = std::fs::read_to_string(&points).unwrap();
    let broken: String = text
        .lines()
        .enumerate()
        .map(|(k, line)| {
            if k == 3 {
                let mut fields: Vec<&str> = line.split(',').collect();
                fields[6] = "99999";
                fields.join(",") + "\n"
            } else {
                format!("{line}\n")
            }
        })
        .collect();
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, broken).unwrap();
    let analyze = |file: &PathBuf, extra: &[&str]| {
        let mut args = vec!["analyze", s(file), "--mesh", t];
        args.extend_from_slice(extra);
        run(&args)
    };
    testkit::cli::assert_refused("face", &analyze(&bad, &[]), "face 99999 is not a triangle");
    testkit::cli::assert_refused(
        "box",
        &analyze(&points, &["--periodic"]),
        "--periodic does not apply",
    );
    testkit::cli::assert_refused(
        "dim",
        &analyze(&points, &["--dim", "2"]),
        "--dim 2 does not apply",
    );
}
