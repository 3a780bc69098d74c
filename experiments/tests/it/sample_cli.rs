//! The `experiments sample` command, run as a user would run it.

use crate::experiments;
use std::path::PathBuf;
use testkit::csv::csv_points;

fn temp_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("poisson-nd-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

#[test]
fn bridson_sets_in_every_dimension_keep_their_distance() {
    for dim in 1..=8usize {
        // Radii that give a few hundred to a few thousand points.
        let radius = [0.002, 0.03, 0.08, 0.15, 0.25, 0.35, 0.4, 0.45][dim - 1];
        let path = temp_path(&format!("bridson-{dim}.csv"));
        let out = experiments(&[
            "sample",
            "bridson",
            "--dim",
            &dim.to_string(),
            "--radius",
            &radius.to_string(),
            "--seed",
            "7",
            "--out",
            path.to_str().expect("utf-8 path"),
        ]);
        assert!(out.status.success(), "D={dim}: {}", String::from_utf8_lossy(&out.stderr));
        let summary = String::from_utf8_lossy(&out.stderr);
        assert!(summary.starts_with(&format!("bridson D={dim} points=")), "{summary}");
        let points = csv_points(&std::fs::read_to_string(&path).expect("written"), dim);
        assert!(points.len() >= 20, "D={dim}: {} points", points.len());
        for (i, p) in points.iter().enumerate() {
            assert!(p.iter().all(|x| (0.0..1.0).contains(x)), "D={dim}: {p:?}");
            for q in &points[i + 1..] {
                let d2: f64 = p.iter().zip(q).map(|(a, b)| (a - b).powi(2)).sum();
                assert!(d2 >= radius * radius, "D={dim}: {p:?} {q:?} closer than {radius}");
            }
        }
    }
}

#[test]
fn stdout_output_and_options() {
    let out = experiments(&[
        "sample",
        "white-noise",
        "--dim",
        "3",
        "--n",
        "5",
        "--origin",
        "-1,-2,-3",
        "--box",
        "0.5,0.5,0.5",
        "--seed",
        "3",
        "--out",
        "-",
    ]);
    assert!(out.status.success());
    let points = csv_points(&String::from_utf8_lossy(&out.stdout), 3);
    assert_eq!(points.len(), 5);
    for p in points {
        assert!((-1.0..-0.5).contains(&p[0]) && (-2.0..-1.5).contains(&p[1]), "{p:?}");
        assert!((-3.0..-2.5).contains(&p[2]), "{p:?}");
    }
    // Without --out nothing is printed to stdout.
    let quiet = experiments(&["sample", "bridson", "--radius", "0.1", "--periodic", "--k", "5"]);
    assert!(quiet.status.success());
    assert!(quiet.stdout.is_empty());
}

#[test]
fn bad_arguments_exit_2_with_one_line_and_write_nothing() {
    let cases: &[(&[&str], &str)] = &[
        (&["--radius", "-1"], "radius must be finite and > 0, got -1"),
        (&["--radius", "nan"], "radius"),
        (&["--radius", "0.1", "--box", "1,0"], "box side 1"),
        (&["--radius", "0.1", "--box", "1,1,1"], "box has 3 values but the dimension is 2"),
        (&["--radius", "0.1", "--dim", "9"], "--dim must be between 1 and 8"),
        (&["--radius", "0.1", "--dim", "0"], "--dim must be between 1 and 8"),
        (&["--radius", "1e-9"], "over the limit"),
        (&["--radius", "0.1", "--k", "0"], "--k must be at least 1, got 0"),
        (&["--radius", "0.01", "--max-points", "100"], "raise --max-points"),
        (&["--radius", "0.1", "--candidates", "3"], "--candidates does not apply to 'bridson'"),
        (&["--radius", "0.1", "--format", "xyz"], "invalid value 'xyz'"),
        (&[], "needs --radius"),
        (&["--radius", "abc"], "invalid value 'abc'"),
        (&["--radious", "0.1"], "unexpected argument"),
    ];
    for (extra, expected) in cases {
        let path = temp_path("never.csv");
        let mut args = vec!["sample", "bridson", "--out", path.to_str().expect("utf-8")];
        args.extend_from_slice(extra);
        let out = experiments(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{extra:?}: {stderr}");
        assert!(stderr.contains(expected), "{extra:?}: {stderr}");
        assert!(!path.exists(), "{extra:?} wrote a file");
    }
    let too_small = experiments(&["sample", "bridson", "--radius", "1e-9"]);
    let stderr = String::from_utf8_lossy(&too_small.stderr);
    assert!(
        stderr.ends_with("use a larger --radius, a smaller --box, or raise --max-points\n"),
        "{stderr}"
    );
    let unknown = experiments(&["sample", "no-such-sampler", "--n", "3"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unknown sampler 'no-such-sampler'"));
    let unwritable =
        experiments(&["sample", "white-noise", "--n", "3", "--out", "/no/such/dir/x.csv"]);
    assert_eq!(unwritable.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&unwritable.stderr).contains("cannot write /no/such/dir/x.csv")
    );
}

#[test]
fn flags_that_do_not_apply_are_refused_by_name() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["white-noise", "--k", "5", "--radius", "0.1"],
            "error: --k does not apply to 'white-noise' (its own flags: none)",
        ),
        (
            &["white-noise", "--n", "5", "--radius", "0.1"],
            "error: --radius does not apply to 'white-noise', a count-driven sampler (give --n)",
        ),
        (
            &["halton", "--n", "5", "--randomize"],
            "error: --randomize does not apply to 'halton' (its own flags: --skip)",
        ),
        (
            &["dart-throwing", "--radius", "0.1", "--candidates", "3"],
            "error: --candidates does not apply to 'dart-throwing' (its own flags: --max-misses)",
        ),
        (
            &["maximal", "--radius", "0.1", "--k", "5"],
            "error: --k does not apply to 'maximal' (its own flags: none)",
        ),
        (
            &["sample-elimination", "--n", "50", "--k", "5"],
            "error: --k does not apply to 'sample-elimination' (its own flags: --ratio, \
             --progressive)",
        ),
        (
            &["bridson", "--radius", "0.1", "--ratio", "3"],
            "error: --ratio does not apply to 'bridson' (its own flags: --k, --grid)",
        ),
        (
            &["sample-elimination", "--n", "50", "--radius", "0.1"],
            "error: --radius does not apply to 'sample-elimination', a count-driven sampler",
        ),
        (
            &["sample-elimination", "--n", "50", "--ratio", "0.5"],
            "error: --ratio must be finite and at least 1, got 0.5",
        ),
        // The point limit counts the candidates: 10^8 points would draw 5·10^8.
        (
            &["sample-elimination", "--n", "100000000"],
            "error: --n 100000000 draws 500000000 candidates at --ratio 5, more than the point \
             limit of 100000000 (--max-points), which counts them too",
        ),
        (
            &["sample-elimination", "--n", "30", "--ratio", "2.5", "--max-points", "70"],
            "error: --n 30 draws 75 candidates at --ratio 2.5",
        ),
        // Past every count: the product, in exponent form, not 301 digits.
        (
            &["sample-elimination", "--n", "2", "--ratio", "1e300"],
            "error: --n 2 draws 2e300 candidates at --ratio 1e300, more than the point limit",
        ),
        // A sequence's indices end at 2^64 − 1: a skip near there leaves too few.
        (
            &["halton", "--n", "4", "--skip", "18446744073709551612"],
            "error: --skip 18446744073709551612 leaves 3 positions of the sequence 'halton', \
             fewer than --n 4",
        ),
        (
            &["pmj02", "--n", "1", "--skip", "18446744073709551615"],
            "error: --skip 18446744073709551615 leaves 0 positions of the sequence 'pmj02'",
        ),
        (&["maximal"], "error: 'maximal' needs --radius"),
        (&["maximal", "--radius", "1e-9"], "error: --radius 1e-9 in this box"),
        (&["white-noise"], "error: 'white-noise' needs --n"),
        (&["bridson", "--out", "points.xyz", "--radius", "0.1"], "error: cannot tell the format"),
    ];
    for (args, expected) in cases {
        let path = temp_path("refused.csv");
        let mut all = vec!["sample"];
        all.extend_from_slice(args);
        let out = experiments(&all);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with(expected), "{args:?}: {stderr}");
        assert!(!path.exists());
    }
    // The shared flags are taken before and after the sampler's name; a point limit below
    // --n is refused (a count-driven sampler makes exactly n points), one above it is kept.
    let refused = experiments(&[
        "sample",
        "--dim",
        "3",
        "best-candidate",
        "--n",
        "50",
        "--max-points",
        "20",
        "--out",
        "-",
    ]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(stderr.starts_with("error: --n 50 is more than the point limit of 20"), "{stderr}");
    assert!(refused.stdout.is_empty());
    let out = experiments(&[
        "sample",
        "--dim",
        "3",
        "best-candidate",
        "--candidates",
        "2",
        "--growing-candidates",
        "--n",
        "50",
        "--max-points",
        "50",
        "--seed",
        "1",
        "--out",
        "-",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("points=50 ") && stderr.contains("stop=target-reached"), "{stderr}");
    assert_eq!(csv_points(&String::from_utf8_lossy(&out.stdout), 3).len(), 50);
}

#[test]
fn maximal_and_sample_elimination_from_the_command_line() {
    // Maximal fills the box until no point fits: every location within r of a point.
    let out = experiments(&[
        "sample",
        "maximal",
        "--radius",
        "0.05",
        "--periodic",
        "--seed",
        "3",
        "--out",
        "-",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.starts_with("maximal D=2 points=") && stderr.contains("stop=exhausted"));
    let points = csv_points(&String::from_utf8_lossy(&out.stdout), 2);
    let torus = |a: f64, b: f64| {
        let d = (a - b).abs();
        d.min(1.0 - d)
    };
    let dist2 = |p: &[f64], q: &[f64]| torus(p[0], q[0]).powi(2) + torus(p[1], q[1]).powi(2);
    for (i, p) in points.iter().enumerate() {
        assert!(points[i + 1..].iter().all(|q| dist2(p, q) >= 0.05 * 0.05), "{p:?}");
    }
    for i in 0..40 {
        for j in 0..40 {
            let probe = [(i as f64 + 0.5) / 40.0, (j as f64 + 0.5) / 40.0];
            assert!(points.iter().any(|p| dist2(p, &probe) < 0.05 * 0.05), "{probe:?} uncovered");
        }
    }
    // Sample elimination gives exactly --n points; --ratio sets the candidates and a bare
    // --progressive orders them.
    let out = experiments(&[
        "sample",
        "sample-elimination",
        "--n",
        "200",
        "--ratio",
        "3",
        "--progressive",
        "--dim",
        "3",
        "--seed",
        "5",
        "--out",
        "-",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("points=200 ") && stderr.contains("attempts=600"), "{stderr}");
    assert_eq!(csv_points(&String::from_utf8_lossy(&out.stdout), 3).len(), 200);
}
