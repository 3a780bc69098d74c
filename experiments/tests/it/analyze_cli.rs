//! `experiments analyze` end to end: output formats, and one-line errors with exit code 2.

use crate::experiments_text;
use crate::reference::hexagonal_lattice;
use std::path::{Path, PathBuf};
use testkit::cli::Outcome;

fn scratch(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("poisson-nd-analyze-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

fn analyze(args: &[&str]) -> Outcome {
    experiments_text(&[&["analyze"], args].concat())
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn malformed_files_give_one_line_with_the_line_number() {
    let cases = [
        ("columns.csv", "x,y\n0.1,0.2\n0.3,0.4,0.5\n", "line 3"),
        ("number.csv", "0.1,0.2\n0.3,abc\n", "line 2"),
        ("nan.csv", "0.1,0.2\n0.3,NaN\n", "line 2"),
        ("empty.csv", "", "line 1"),
        ("header-only.csv", "x,y\n", "line 1"),
        ("outside.csv", "0.1 0.2\n0.5 1.0\n", "line 2"),
        ("bad-utf8.csv", "0.1,0.2\n\u{FFFD}\n", "line 2"),
    ];
    for (name, contents, line) in cases {
        let file = scratch(name, contents);
        let (code, stdout, stderr) = analyze(&[path(&file), "--dim", "2"]);
        assert_eq!(code, 2, "{name}: {stderr}");
        assert!(stdout.is_empty(), "{name}");
        assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
        assert!(stderr.starts_with("error: ") && stderr.contains(line), "{name}: {stderr}");
    }
    let invalid = scratch("invalid-utf8.csv", "");
    std::fs::write(&invalid, b"0.1,0.2\n\xff\xfe,0.3\n").unwrap();
    let (code, _, stderr) = analyze(&[path(&invalid), "--dim", "2"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("line 2") && stderr.lines().count() == 1, "{stderr}");
    let (code, _, stderr) = analyze(&["/nonexistent/points.csv", "--dim", "2"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot read") && stderr.lines().count() == 1, "{stderr}");
    let dir = std::env::temp_dir();
    let (code, _, stderr) = analyze(&[path(&dir), "--dim", "2"]);
    assert_eq!((code, stderr.lines().count()), (2, 1), "{stderr}");
    let ok = scratch("ok.csv", "0.1,0.2\n0.3,0.4\n");
    for bad in [["--dim", "0"], ["--dim", "9"], ["--radius", "-1"]] {
        let mut args = vec![path(&ok), "--dim", "2"];
        args.extend(bad);
        let (code, _, stderr) = analyze(&args);
        assert_eq!((code, stderr.lines().count()), (2, 1), "{bad:?}: {stderr}");
    }
}

#[test]
fn json_reports_the_hexagonal_lattice_as_densest() {
    let (points, torus) = hexagonal_lattice(6);
    let mut csv = Vec::new();
    let data = experiments::io::PointData::new(points);
    experiments::io::encode(experiments::io::PointFormat::Csv, &mut csv, &data).unwrap();
    let file = scratch("hex.csv", std::str::from_utf8(&csv).unwrap());
    let extent = format!("{},{}", torus.extent()[0], torus.extent()[1]);
    let spectrum = file.with_file_name("hex-spectrum.csv");
    let (code, stdout, stderr) = analyze(&[
        path(&file),
        "--dim",
        "2",
        "--box",
        &extent,
        "--periodic",
        "--radius",
        // Lattice distances of 1 may round to just below 1.
        "0.999",
        "--json",
        "--spectrum-out",
        path(&spectrum),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["n"], 72);
    let rr = &json["relative_radius"];
    assert!((rr["relative_radius"].as_f64().unwrap() - 1.0).abs() < 1e-9);
    assert!((rr["packing_fraction"].as_f64().unwrap() - 0.9069).abs() < 1e-4);
    assert_eq!(json["pairs_closer"], 0);
    assert_eq!(json["cluster_rate"], 0.0);
    assert!(json["white_noise"]["mean_nn_torus"].is_number());
    assert!(json["spectrum"]["rings"].as_array().unwrap().len() > 10);
    assert_eq!(json["pair_correlation"]["edge_correction"], "periodic");
    let csv = std::fs::read_to_string(&spectrum).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("radius,radius_over_spacing,mean_power,anisotropy_db,frequencies")
    );
    assert_eq!(lines.count(), json["spectrum"]["k_max"].as_u64().unwrap() as usize);
}

#[test]
fn table_reads_other_tools_output() {
    // No header, whitespace and comma-space separators, CRLF, blank and comment lines,
    // no final newline; a closed box with a negative origin.
    let file =
        scratch("loose.csv", "# made elsewhere\r\n-0.5 0.25\r\n\r\n0.1, 0.7\n0.4,\t-0.9\n0.9 0.9");
    let (code, stdout, stderr) =
        analyze(&[path(&file), "--dim", "2", "--origin", "-1,-1", "--box", "2,2"]);
    assert_eq!(code, 0, "{stderr}");
    for section in [
        "nearest-neighbour distance",
        "cluster rate",
        "relative radius",
        "coverage",
        "power spectrum",
        "pair correlation",
        "L2-star discrepancy",
        "simulated",
    ] {
        assert!(stdout.contains(section), "missing {section}:\n{stdout}");
    }
    assert!(stdout.starts_with("4 points in 2 dimensions"), "{stdout}");
    // 1D and 4D run too.
    let line = scratch("line.csv", "0.1\n0.5\n0.77\n");
    assert_eq!(analyze(&[path(&line), "--dim", "1", "--periodic"]).0, 0);
    let four = scratch("four.csv", "0.1,0.2,0.3,0.4\n0.5,0.5,0.5,0.5\n0.9,0.1,0.8,0.3\n");
    assert_eq!(analyze(&[path(&four), "--dim", "4", "--json"]).0, 0);
}

/// `analyze --json`'s `metrics` and the report's scalars (what results.csv holds) agree to
/// the bit for the same set and the same options, in a periodic and in a closed box.
#[test]
fn analyze_json_and_the_report_give_the_same_metrics() {
    use experiments::config::MetricsConfig;
    use experiments::report::analysis::{
        AnalysisContext, Analyzer, StandardAnalyzer, coverage_seed,
    };
    use experiments::spec::{NoParams, SamplerSpec};
    let options = MetricsConfig { coverage_probes: 2000, ..MetricsConfig::default() };
    for periodic in [true, false] {
        let domain = experiments::domains::unit::<2>(periodic);
        let white = SamplerSpec::WhiteNoise(NoParams {}).build(domain, None, None).unwrap();
        let set = white.run(Some(400), 3);
        let context = AnalysisContext {
            sampler: "white-noise",
            dim: 2,
            rep: 0,
            seed: 3,
            radius: 0.03,
            nominal_count: set.len(),
            sampler_radius: None,
            options: &options,
        };
        let scalars = StandardAnalyzer.analyze(&set, &context).scalars;

        let mut csv = Vec::new();
        let data = experiments::io::PointData::new(set.points.clone());
        experiments::io::encode(experiments::io::PointFormat::Csv, &mut csv, &data).unwrap();
        let file = scratch(&format!("same-{periodic}.csv"), std::str::from_utf8(&csv).unwrap());
        let (probes, seed) = (options.coverage_probes.to_string(), coverage_seed(3).to_string());
        let multiple = options.spectrum_max_frequency.to_string();
        let mut args = vec![
            path(&file),
            "--dim",
            "2",
            "--radius",
            "0.03",
            "--probes",
            &probes,
            "--seed",
            &seed,
            "--spectrum-multiple",
            &multiple,
            "--reference-realisations",
            "0",
            "--json",
        ];
        args.push(if periodic { "--periodic" } else { "--exclude-axes" });
        let (code, stdout, stderr) = analyze(&args);
        assert_eq!(code, 0, "{stderr}");
        let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(scalars.len(), experiments::analyze::METRIC_NAMES.len());
        for (name, value) in &scalars {
            let from_json = json["metrics"][name].as_f64().unwrap_or(f64::NAN);
            assert_eq!(
                from_json.to_bits(),
                value.to_bits(),
                "periodic={periodic} {name}: analyze {from_json}, report {value}"
            );
        }
    }
}

/// A hundred thousand copies of one point are one location to the neighbour index: every
/// metric is measured (all pairs closer than r, at distance 0) in time linear in the copies.
/// A pile of distinct near-duplicates would cost time quadratic in its size: the pair
/// statistics are skipped with a note, the rest is measured, and --max-pairs brings them back.
#[test]
fn piles_of_duplicates_cost_linear_time() {
    let copies = 100_000u64;
    let file = scratch("copies.csv", &"0.5,0.5\n".repeat(copies as usize));
    let (code, stdout, stderr) =
        analyze(&[path(&file), "--dim", "2", "--json", "--reference-realisations", "0"]);
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["pairs_closer"], copies * (copies - 1) / 2);
    assert_eq!(json["min_distance"], 0.0);
    assert_eq!(json["cluster_rate"], 1.0);
    let bins = json["pair_correlation"]["bins"].as_array().unwrap();
    assert_eq!(bins[0]["pairs"], copies * (copies - 1) / 2);

    // 3,000 distinct points within 1e-9 of each other: 4.5 million pairs of locations.
    let near: String = (0..3000)
        .map(|i| format!("{},{}\n", 0.5 + (i % 61) as f64 * 1e-11, 0.5 + (i / 61) as f64 * 1e-11))
        .collect();
    let file = scratch("near.csv", &near);
    let args = [path(&file), "--dim", "2", "--json", "--reference-realisations", "0"];
    let (code, stdout, stderr) = analyze(&[&args[..], &["--max-pairs", "1000000"]].concat());
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(json["pairs_closer"].is_null() && json["pair_correlation"].is_null(), "{json}");
    let notes = json["notes"].as_array().unwrap();
    assert!(notes.iter().any(|n| n.as_str().unwrap().contains("--max-pairs")), "{notes:?}");
    assert_eq!(json["n"], 3000);
    assert!(json["nearest_neighbour"]["mean"].as_f64().unwrap() < 1e-10);
    let (code, stdout, stderr) = analyze(&[&args[..], &["--max-pairs", "10000000"]].concat());
    assert_eq!(code, 0, "{stderr}");
    let json: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["pairs_closer"], 3000 * 2999 / 2);
}
