//! `experiments analyze --stats`, `--json` and `--stats-out`: the summary functions of spatial
//! statistics through the binary, the same numbers as the library, and one-line errors.

use crate::experiments_text;
use experiments::metrics::spatial_stats::{RGrid, SpatialStatsOptions, spatial_stats};
use poisson_nd::Domain;
use std::path::PathBuf;

fn bridson_file() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/spatstat/bridson.csv");
    path.to_str().unwrap().to_string()
}

const BOX: [&str; 4] = ["--origin=-0.5,0.25", "--box", "1,0.6", "--reference-realisations=0"];

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("poisson-nd-stats-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn analyze_writes_every_function_as_the_library_computes_it() {
    let file = bridson_file();
    let dir = scratch_dir("closed");
    let out = dir.to_str().unwrap();
    let mut args = vec!["analyze", &file, "--dim", "2", "--stats-out", out, "--stats-steps", "60"];
    args.extend(BOX);
    args.extend(["--stats-rmax", "0.12", "--json"]);
    let (code, stdout, stderr) = experiments_text(&args);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let stats = &json["spatial_stats"];
    assert_eq!(stats["r"].as_array().unwrap().len(), 61);

    let text = std::fs::read_to_string(&file).unwrap();
    let points: Vec<[f64; 2]> =
        testkit::csv::csv_points(&text, 2).into_iter().map(|p| [p[0], p[1]]).collect();
    let domain = Domain::from_origin_and_extent([-0.5, 0.25], [1.0, 0.6]).unwrap();
    let grid = RGrid::uniform(0.12, 60).unwrap();
    let library = spatial_stats(&points, &domain, &grid, &SpatialStatsOptions::default()).unwrap();

    for (function, file, header) in [
        (&library.k, "K.csv", "r,poisson,none,translation,isotropic"),
        (&library.l, "L.csv", "r,poisson,none,translation,isotropic"),
        (&library.pair_correlation, "pcf.csv", "r,poisson,none,translation,isotropic"),
        (&library.nearest_neighbour, "G.csv", "r,poisson,raw,rs,km"),
        (&library.empty_space, "F.csv", "r,poisson,raw,rs,km"),
        (&library.j, "J.csv", "r,poisson,raw,rs,km"),
    ] {
        let csv = std::fs::read_to_string(dir.join(file)).unwrap();
        let mut lines = csv.lines();
        assert_eq!(lines.next(), Some(header), "{file}");
        let rows: Vec<Vec<f64>> =
            lines.map(|l| l.split(',').map(|x| x.parse().unwrap()).collect()).collect();
        assert_eq!(rows.len(), 61, "{file}");
        let in_json = &stats[function.name]["estimates"];
        for (c, estimate) in function.estimates.iter().enumerate() {
            assert_eq!(in_json[c]["correction"], estimate.correction.name());
            for (k, row) in rows.iter().enumerate() {
                assert_eq!(row[0], library.r[k]);
                assert_eq!(row[1], function.poisson[k]);
                let want = estimate.values[k];
                // Bit for bit: the file and the JSON read back to the library's numbers.
                assert!(row[2 + c] == want || (row[2 + c].is_nan() && want.is_nan()), "{file}");
                let json_value = in_json[c]["values"][k].as_f64().unwrap_or(f64::NAN);
                assert!(json_value == want || (json_value.is_nan() && want.is_nan()), "{file}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn analyze_prints_a_compact_table() {
    let file = bridson_file();
    let mut args = vec!["analyze", file.as_str(), "--dim", "2", "--stats"];
    args.extend(BOX);
    let (code, stdout, stderr) = experiments_text(&args);
    assert_eq!(code, 0, "{stderr}");
    let section = stdout.split("spatial statistics").nth(1).expect("a spatial statistics section");
    assert!(section.contains("isotropic for K, L, g and km for G, F, J"), "{section}");
    assert!(section.contains("F probes 128×128"), "{section}");
    let rows = section.lines().filter(|l| l.trim_start().starts_with("0.")).count();
    assert_eq!(rows, 8, "{section}");
    // Without --stats there is no such section, nor the JSON key.
    let mut args = vec!["analyze", file.as_str(), "--dim", "2", "--json"];
    args.extend(BOX);
    let (code, stdout, _) = experiments_text(&args);
    assert_eq!(code, 0);
    assert!(!stdout.contains("spatial_stats"));
}

#[test]
fn a_periodic_3d_set_gets_one_estimate_per_function() {
    let dir = scratch_dir("torus");
    std::fs::create_dir_all(&dir).unwrap();
    let points = dir.join("points.csv");
    let mut text = String::from("x0,x1,x2\n");
    for i in 0..60 {
        let t = i as f64;
        text.push_str(&format!(
            "{},{},{}\n",
            (t * 0.618).fract(),
            (t * 0.414).fract(),
            (t * 0.732).fract()
        ));
    }
    std::fs::write(&points, text).unwrap();
    let out = dir.join("stats");
    let (code, _, stderr) = experiments_text(&[
        "analyze",
        points.to_str().unwrap(),
        "--dim",
        "3",
        "--periodic",
        "--stats-out",
        out.to_str().unwrap(),
        "--stats-probes",
        "10",
    ]);
    assert_eq!(code, 0, "{stderr}");
    for file in ["K.csv", "L.csv", "pcf.csv", "G.csv", "F.csv", "J.csv"] {
        let csv = std::fs::read_to_string(out.join(file)).unwrap();
        assert_eq!(csv.lines().next(), Some("r,poisson,periodic"), "{file}");
        assert_eq!(csv.lines().count(), 514, "{file}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_grids_and_probes_are_one_line_errors() {
    let file = bridson_file();
    let cases: [(&[&str], &str); 9] = [
        (&["--stats", "--stats-rmax", "-1"], "--stats-rmax must be finite and positive, got -1"),
        // Extreme values in exponent form, not hundreds of digits.
        (&["--stats", "--stats-rmax", "1e300"], "--stats-rmax 1e300 exceeds half the shortest"),
        (&["--stats", "--stats-rmax", "nan"], "--stats-rmax must be finite and positive"),
        (&["--stats", "--stats-rmax", "0.4"], "exceeds half the shortest side of the box (0.3)"),
        (&["--stats", "--stats-steps", "0"], "--stats-steps"),
        (&["--stats", "--stats-probes", "0"], "--stats-probes"),
        (&["--stats", "--stats-probes", "20000"], "20000^2 probes"),
        (&["--stats-rmax", "0.1"], "--stats-rmax applies only with --stats or --stats-out"),
        (&["--stats-steps", "10"], "--stats-steps applies only with --stats or --stats-out"),
    ];
    for (extra, expected) in cases {
        let mut args = vec!["analyze", file.as_str(), "--dim", "2"];
        args.extend(BOX);
        args.extend(extra);
        let (code, stdout, stderr) = experiments_text(&args);
        assert_eq!(code, 2, "{extra:?}: {stderr}");
        assert!(stdout.is_empty(), "{extra:?}");
        assert_eq!(stderr.lines().count(), 1, "{extra:?}: {stderr}");
        assert!(stderr.contains(expected), "{extra:?}: {stderr}");
    }
    let (code, _, stderr) =
        experiments_text(&["analyze", &file, "--mesh", "missing.obj", "--stats"]);
    assert_eq!((code, stderr.lines().count()), (2, 1), "{stderr}");
    assert!(stderr.contains("--stats does not apply with --mesh"), "{stderr}");
}
