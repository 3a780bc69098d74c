//! `experiments sample chunked-bridson`, run as a user would run it: every dimension, the
//! same file for every thread count, and its errors.

use crate::experiments;
use poisson_nd::chunked::min_chunk_side;
use std::path::{Path, PathBuf};
use testkit::csv::csv_points;

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("poisson-nd-chunked-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

fn path_str(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// Squared distance, on the torus of side `period` per axis when given.
fn distance_squared(p: &[f64], q: &[f64], period: Option<&[f64]>) -> f64 {
    p.iter()
        .zip(q)
        .enumerate()
        .map(|(i, (a, b))| {
            let d = (a - b).abs();
            let d = period.map_or(d, |side| d.min(side[i] - d));
            d * d
        })
        .sum()
}

/// Every pair at least `radius` apart, by checking every pair.
fn assert_no_close_pair(points: &[Vec<f64>], radius: f64, period: Option<&[f64]>, label: &str) {
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            let d2 = distance_squared(p, q, period);
            assert!(d2 >= radius * radius, "{label}: {p:?} {q:?} closer than {radius}");
        }
    }
}

#[test]
fn chunked_sets_in_every_dimension_keep_their_distance() {
    for dim in 1..=8usize {
        // Radii that give a few hundred to a few thousand points (the unit box holds one
        // chunk per axis from 4D on, 3^D cells).
        let radius = [0.002, 0.01, 0.06, 0.15, 0.25, 0.35, 0.4, 0.45][dim - 1];
        let path = temp_path(&format!("chunked-{dim}.csv"));
        let out = experiments(&[
            "sample",
            "chunked-bridson",
            "--dim",
            &dim.to_string(),
            "--radius",
            &radius.to_string(),
            "--threads",
            "2",
            "--seed",
            "7",
            "--out",
            path_str(&path),
        ]);
        let summary = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "D={dim}: {summary}");
        assert!(summary.starts_with(&format!("chunked-bridson D={dim} points=")), "{summary}");
        assert!(summary.contains("stop=exhausted"), "{summary}");
        let points = csv_points(&std::fs::read_to_string(&path).expect("written"), dim);
        assert!(points.len() >= 20, "D={dim}: {} points", points.len());
        for p in &points {
            assert!(p.iter().all(|x| (0.0..1.0).contains(x)), "D={dim}: {p:?} outside");
        }
        assert_no_close_pair(&points, radius, None, &format!("D={dim}"));
    }
}

#[test]
fn the_thread_count_does_not_change_a_byte() {
    // A closed box with a negative origin and uneven sides (several chunks per axis, a
    // chunk side that is no divisor of the box), and a torus of three chunks per axis.
    let cases: &[(&str, &[&str], usize)] = &[
        (
            "closed-2d",
            &[
                "--radius",
                "0.01",
                "--origin",
                "-0.3,0.2",
                "--box",
                "1.3,0.9",
                "--chunk-side",
                "0.37",
            ],
            2,
        ),
        ("torus-3d", &["--dim", "3", "--radius", "0.04", "--periodic", "--chunk-side", "0.3"], 3),
    ];
    for (label, flags, dim) in cases {
        let mut files = Vec::new();
        for threads in [None, Some("1"), Some("2"), Some("7")] {
            let path = temp_path(&format!("{label}-{}.csv", threads.unwrap_or("all")));
            let mut args = vec!["sample", "chunked-bridson", "--seed", "5"];
            args.extend_from_slice(flags);
            if let Some(threads) = threads {
                args.extend_from_slice(&["--threads", threads]);
            }
            args.extend_from_slice(&["--out", path_str(&path)]);
            let out = experiments(&args);
            assert!(out.status.success(), "{label}: {}", String::from_utf8_lossy(&out.stderr));
            files.push((threads, std::fs::read(&path).expect("written")));
        }
        let (_, first) = &files[0];
        for (threads, bytes) in &files[1..] {
            assert!(bytes == first, "{label}: --threads {threads:?} wrote another file");
        }
        // The file is a real fill: many points, the radius kept (on the torus too).
        let points = csv_points(&String::from_utf8_lossy(first), *dim);
        assert!(points.len() > 3000, "{label}: {} points", points.len());
        let period = (*dim == 3).then_some([1.0; 3]);
        let radius = if *dim == 3 { 0.04 } else { 0.01 };
        assert_no_close_pair(&points, radius, period.as_ref().map(|p| &p[..]), label);
    }
    // Another seed, another set.
    let other = experiments(&[
        "sample",
        "chunked-bridson",
        "--radius",
        "0.05",
        "--seed",
        "6",
        "--out",
        "-",
    ]);
    let same = experiments(&[
        "sample",
        "chunked-bridson",
        "--radius",
        "0.05",
        "--seed",
        "5",
        "--out",
        "-",
    ]);
    assert!(other.status.success() && same.status.success());
    assert_ne!(other.stdout, same.stdout);
}

#[test]
fn the_count_caps_and_the_chunk_side_changes_the_points() {
    let run = |extra: &[&str]| {
        let mut args = vec!["sample", "chunked-bridson", "--radius", "0.02", "--seed", "3"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", "-"]);
        let out = experiments(&args);
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(out.status.success(), "{extra:?}: {stderr}");
        (csv_points(&String::from_utf8_lossy(&out.stdout), 2), stderr)
    };
    let (full, _) = run(&[]);
    // --n keeps the first n points of the fill (cells in key order).
    let (capped, stderr) = run(&["--n", "50"]);
    assert!(stderr.contains("points=50 ") && stderr.contains("stop=target-reached"), "{stderr}");
    assert_eq!(capped[..], full[..50]);
    // The 2D default chunk side is 64 radii (1.28 here): asking for it changes nothing,
    // another side cuts other cells.
    assert_eq!(run(&["--chunk-side", "1.28"]).0, full);
    let (other, _) = run(&["--chunk-side", "0.2"]);
    assert_ne!(other, full);
    assert_no_close_pair(&other, 0.02, None, "--chunk-side 0.2");
    // --k reaches the sampler.
    assert_ne!(run(&["--k", "5"]).0, full);
}

#[test]
fn bad_flags_exit_2_with_one_line_and_write_nothing() {
    let min = min_chunk_side(2, 0.01);
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["--radius", "0.01", "--threads", "0"],
            "error: --threads must be at least 1, got 0".into(),
        ),
        (
            vec!["--radius", "0.01", "--threads", "5000"],
            "error: --threads must be at most 1024, got 5000".into(),
        ),
        (vec!["--radius", "0.01", "--k", "0"], "error: --k must be at least 1, got 0".into()),
        (
            vec!["--radius", "0.01", "--chunk-side", "0.02"],
            format!(
                "error: --chunk-side 0.02 is too small for --radius 0.01 in 2D: it must be at \
                 least {min} (2 + √2·(D − 1) radii)"
            ),
        ),
        (
            vec!["--radius", "0.01", "--chunk-side", "-1"],
            "error: --chunk-side must be finite and > 0, got -1".into(),
        ),
        (
            vec!["--radius", "0.2", "--periodic"],
            format!(
                "error: --periodic needs two whole chunks along every axis, each at least {} \
                 long for --radius 0.2 in 2D (2 + √2·(D − 1) radii), but axis 0 is 1 long; use \
                 a smaller --radius or a larger --box",
                min_chunk_side(2, 0.2)
            ),
        ),
        (
            vec!["--radius", "0.01", "--region", "no-such-region.geojson"],
            "error: 'chunked-bridson' does not take a region (the samplers that do: bridson,"
                .into(),
        ),
        (
            vec!["--density", "map.png", "--rmin", "0.01", "--rmax", "0.02"],
            "error: --density does not apply to 'chunked-bridson'".into(),
        ),
        (
            vec!["--radius", "0.01", "--grid", "fine"],
            "error: --grid does not apply to 'chunked-bridson' (its own flags: --k, \
             --chunk-side, --threads)"
                .into(),
        ),
        (vec!["--threads", "2"], "error: 'chunked-bridson' needs --radius".into()),
        (vec!["--radius", "0.0001"], "error: --radius 0.0001 in this box could place about".into()),
    ];
    for (extra, expected) in &cases {
        let path = temp_path("never.csv");
        let mut args = vec!["sample", "chunked-bridson", "--out", path_str(&path)];
        args.extend_from_slice(extra);
        let out = experiments(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{extra:?}: {stderr}");
        assert!(stderr.starts_with(expected.as_str()), "{extra:?}: {stderr}");
        assert!(!path.exists(), "{extra:?} wrote a file");
    }
    // Its flags are its own.
    let out = experiments(&["sample", "bridson", "--radius", "0.1", "--threads", "2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with(
            "error: --threads does not apply to 'bridson' (its own flags: --k, --grid)"
        ),
        "{stderr}"
    );
}
