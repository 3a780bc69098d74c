//! The spatial statistics against R's spatstat: the point sets in
//! `experiments/tests/data/spatstat/` and spatstat's values for them, written by
//! `experiments/tools/spatstat_reference.R` and stored, so that R is not needed here.
//!
//! Where the definitions coincide the values must agree to 1e-6 relative: K, L (none,
//! translation, isotropic, periodic), G (raw, rs, km), F and J computed by spatstat's own
//! estimators on the exact distances from Fest's probes, and g from `pcf` on a fine grid.
//! Two of spatstat's defaults are approximations of the same definitions, checked at the
//! tolerance their approximation explains (docs/metrics.md, "Agreement with spatstat"):
//!
//! - `pcf` smooths with R's `density()`, which bins the pair distances linearly onto a grid of
//!   `max(512, 2^⌈log2 n⌉)` points and convolves by FFT. On the 251-value grid its error is
//!   up to 9e-3 of g's scale (2e-2 allowed); asked for 8192 times as many values (an FFT grid
//!   of 2^21 points) it agrees with the exact kernel sum to 1e-6.
//! - `Fest` takes the probe distances from `exactdt`, a two-pass propagation over the pixel
//!   raster that leaves a few pixels with a farther point than the nearest one (counted by
//!   the script: `exactdt_wrong_pixels`). F and J from `Fest`/`Jest` agree to within what
//!   those pixels can move.
//!
//! The uncorrected and periodic g come from `pcf`'s translation path with every offset 0
//! (weight 1): its `correction = "none"` divides g by the number of pairs in spatstat.explore
//! 3.0-6 (see the R script).
//!
//! `the_stored_point_sets_are_the_generated_ones` checks the stored sets against their
//! generator; with `POISSON_ND_WRITE_SPATSTAT_SETS=1` it writes them again; then run the R
//! script (see its header) and these tests.

use experiments::metrics::spatial_stats::{
    Correction, RGrid, SpatialStats, SpatialStatsOptions, SummaryFunction, spatial_stats,
};
use poisson_nd::rng::{rng_from_seed, uniform01};
use poisson_nd::{Bridson, Domain, FillSampler, Point, Sampler, WhiteNoise};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/spatstat")
}

/// One stored point set: its box and the grid the comparison uses.
struct Set {
    name: String,
    domain: Domain<2>,
    r_max: f64,
    steps: usize,
}

/// The point sets: Bridson (blue noise, a box with a negative origin), white noise, and a
/// clustered set (a Thomas-like process: uniform parents, Gaussian offspring kept inside).
/// Each grid reaches a quarter of the shorter side (spatstat's default for K); 250 steps keep
/// every grid value apart from the distances of the 128 × 128 pixel centres to the sides, so
/// that no comparison of F hangs on a tie.
fn sets() -> Vec<(Set, Vec<Point<2>>)> {
    let bridson_box = Domain::from_origin_and_extent([-0.5, 0.25], [1.0, 0.6]).unwrap();
    let bridson = Bridson::new(bridson_box, 0.045).unwrap().fill_seeded(2026).points;
    let white_box = Domain::from_origin_and_extent([2.0, -1.0], [1.5, 1.0]).unwrap();
    let white = WhiteNoise::new(white_box).sample_seeded(200, 7).points;
    let cluster_box = Domain::from_origin_and_extent([0.0, 0.0], [1.0, 0.8]).unwrap();
    let clustered = thomas(&cluster_box, 12, 16, 0.03, 11);
    let set = |name: &str, domain: Domain<2>| Set {
        name: name.to_string(),
        domain,
        r_max: domain.extent().iter().copied().fold(f64::INFINITY, f64::min) / 4.0,
        steps: 250,
    };
    vec![
        (set("bridson", bridson_box), bridson),
        (set("white_noise", white_box), white),
        (set("clustered", cluster_box), clustered),
    ]
}

/// `parents` uniform parents, each with `children` offspring displaced by a Gaussian of
/// standard deviation `sigma` per axis (Box–Muller), those outside the box dropped.
fn thomas(
    domain: &Domain<2>,
    parents: usize,
    children: usize,
    sigma: f64,
    seed: u64,
) -> Vec<Point<2>> {
    let mut rng = rng_from_seed(seed);
    let mut points = Vec::new();
    for _ in 0..parents {
        let centre = domain.uniform_point(&mut rng);
        for _ in 0..children {
            let (u, v) = (uniform01(&mut rng), uniform01(&mut rng));
            let radius = sigma * (-2.0 * (1.0 - u).ln()).sqrt();
            let angle = std::f64::consts::TAU * v;
            let p = [centre[0] + radius * angle.cos(), centre[1] + radius * angle.sin()];
            if domain.contains(&p) {
                points.push(p);
            }
        }
    }
    points
}

/// The stored point sets are the ones generated here, bit for bit (so the spatstat values
/// belong to these sets). With `POISSON_ND_WRITE_SPATSTAT_SETS=1` it writes them instead
/// (`NAME.csv`, header `x0,x1`, shortest round-trip decimals, and the manifest `sets.csv` with
/// each box and grid); then run `Rscript experiments/tools/spatstat_reference.R`.
#[test]
fn the_stored_point_sets_are_the_generated_ones() {
    let dir = data_dir();
    let mut manifest = String::from("name,x_origin,y_origin,x_extent,y_extent,r_max,steps\n");
    let mut files = Vec::new();
    for (set, points) in sets() {
        let mut text = String::from("x0,x1\n");
        for p in &points {
            text.push_str(&format!("{},{}\n", p[0], p[1]));
        }
        files.push((format!("{}.csv", set.name), text));
        let (o, e) = (set.domain.origin(), set.domain.extent());
        manifest.push_str(&format!(
            "{},{},{},{},{},{},{}\n",
            set.name, o[0], o[1], e[0], e[1], set.r_max, set.steps
        ));
    }
    files.push(("sets.csv".to_string(), manifest));
    let write = std::env::var("POISSON_ND_WRITE_SPATSTAT_SETS").is_ok_and(|v| v == "1");
    for (name, text) in files {
        if write {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(&name), text).unwrap();
        } else {
            let stored = std::fs::read_to_string(dir.join(&name)).unwrap();
            assert!(stored == text, "{name} differs from the generated set");
        }
    }
}

/// The stored sets with their points.
fn stored_sets() -> Vec<(Set, Vec<Point<2>>)> {
    let manifest = std::fs::read_to_string(data_dir().join("sets.csv")).unwrap();
    manifest
        .lines()
        .skip(1)
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            let x = |i: usize| f[i].parse::<f64>().unwrap();
            let domain = Domain::from_origin_and_extent([x(1), x(2)], [x(3), x(4)]).unwrap();
            let set =
                Set { name: f[0].to_string(), domain, r_max: x(5), steps: f[6].parse().unwrap() };
            let text =
                std::fs::read_to_string(data_dir().join(format!("{}.csv", set.name))).unwrap();
            let points =
                testkit::csv::csv_points(&text, 2).into_iter().map(|p| [p[0], p[1]]).collect();
            (set, points)
        })
        .collect()
}

/// A CSV of numbers with a header, by column name (`NA` and `Inf` as R writes them).
fn columns(path: &std::path::Path) -> BTreeMap<String, Vec<f64>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let names: Vec<String> = lines.next().unwrap().split(',').map(str::to_string).collect();
    let mut table: BTreeMap<String, Vec<f64>> =
        names.iter().map(|n| (n.clone(), Vec::new())).collect();
    for line in lines {
        for (name, value) in names.iter().zip(line.split(',')) {
            let v = match value {
                "NA" | "NaN" => f64::NAN,
                other => other.parse().unwrap(),
            };
            table.get_mut(name).unwrap().push(v);
        }
    }
    table
}

/// The largest difference between `ours` and `theirs` relative to `max(|theirs|, scale)`,
/// from grid index `from` on; both non-finite counts as equal, one of them as infinitely
/// different.
fn max_relative(ours: &[f64], theirs: &[f64], scale: f64, from: usize) -> f64 {
    assert_eq!(ours.len(), theirs.len());
    let mut worst = 0.0f64;
    for (a, b) in ours.iter().zip(theirs).skip(from) {
        let difference = match (a.is_finite(), b.is_finite()) {
            (true, true) => (a - b).abs() / b.abs().max(scale),
            (false, false) => 0.0,
            _ => f64::INFINITY,
        };
        worst = worst.max(difference);
    }
    worst
}

/// One comparison: our estimate, spatstat's column, the scale below which differences are
/// measured absolutely, the first grid index compared and the tolerance.
struct Check<'a> {
    what: String,
    ours: &'a [f64],
    theirs: &'a [f64],
    scale: f64,
    from: usize,
    tolerance: f64,
}

fn estimate(function: &SummaryFunction, correction: Correction) -> &[f64] {
    function.values(correction).unwrap_or_else(|| panic!("{} has no {correction:?}", function.name))
}

/// Every function of the three stored sets against spatstat (closed box: K, L, g with none,
/// translation, isotropic; G, F, J with raw, rs, km; the box as a torus: K, L, g periodic).
/// Tolerances in the module's documentation; the measured differences are printed.
#[test]
fn summary_functions_agree_with_spatstat() {
    let mut failures = Vec::new();
    for (set, points) in stored_sets() {
        let dir = data_dir();
        let theirs = columns(&dir.join(format!("{}.spatstat.csv", set.name)));
        let meta: BTreeMap<String, String> =
            std::fs::read_to_string(dir.join(format!("{}.meta.csv", set.name)))
                .unwrap()
                .lines()
                .skip(1)
                .filter_map(|l| l.split_once(',').map(|(k, v)| (k.to_string(), v.to_string())))
                .collect();
        let grid = RGrid::from_values(theirs["r"].clone()).unwrap();
        assert_eq!(grid.values().len(), set.steps + 1);
        assert_eq!(grid.r_max(), set.r_max);
        let options = SpatialStatsOptions::default();
        let closed: SpatialStats = spatial_stats(&points, &set.domain, &grid, &options).unwrap();
        let torus = spatial_stats(&points, &set.domain.periodic(), &grid, &options).unwrap();
        let half_width: f64 = meta["pcf_half_width"].parse().unwrap();
        assert!((closed.kernel_half_width - half_width).abs() < 1e-12 * half_width);
        assert_eq!(closed.probes.per_axis.to_string(), meta["probes_per_axis"]);
        let wrong_pixels: f64 = meta["exactdt_wrong_pixels"].parse().unwrap();
        let probes = closed.probes.count as f64;

        let mut checks: Vec<Check> = Vec::new();
        let col =
            |name: &str| theirs.get(name).unwrap_or_else(|| panic!("no column {name}")).as_slice();
        for (ours, theirs, correction) in [
            (&closed, "none", Correction::None),
            (&closed, "translation", Correction::Translation),
            (&closed, "isotropic", Correction::Isotropic),
            (&torus, "periodic", Correction::Periodic),
        ] {
            for (function, name) in [(&ours.k, "K"), (&ours.l, "L")] {
                checks.push(Check {
                    what: format!("{name} {theirs}"),
                    ours: estimate(function, correction),
                    theirs: col(&format!("{name}_{theirs}")),
                    scale: f64::MIN_POSITIVE,
                    from: 0,
                    tolerance: 1e-6,
                });
            }
            // g is undefined at r = 0; below 1 differences count on g's scale, 1.
            checks.push(Check {
                what: format!("g {theirs} (fine grid)"),
                ours: estimate(&ours.pair_correlation, correction),
                theirs: col(&format!("gfine_{theirs}")),
                scale: 1.0,
                from: 1,
                tolerance: 1e-6,
            });
            checks.push(Check {
                what: format!("g {theirs} (spatstat's default binning)"),
                ours: estimate(&ours.pair_correlation, correction),
                theirs: col(&format!("g_{theirs}")),
                scale: 1.0,
                from: 1,
                tolerance: 2e-2,
            });
        }
        for (correction, theirs) in
            [(Correction::Raw, "raw"), (Correction::Border, "rs"), (Correction::KaplanMeier, "km")]
        {
            checks.push(Check {
                what: format!("G {theirs}"),
                ours: estimate(&closed.nearest_neighbour, correction),
                theirs: col(&format!("G_{theirs}")),
                scale: f64::MIN_POSITIVE,
                from: 0,
                tolerance: 1e-6,
            });
            for (function, name) in [(&closed.empty_space, "F"), (&closed.j, "J")] {
                checks.push(Check {
                    what: format!("{name} {theirs} (exact probe distances)"),
                    ours: estimate(function, correction),
                    theirs: col(&format!("{name}exact_{theirs}")),
                    scale: f64::MIN_POSITIVE,
                    from: 0,
                    tolerance: 1e-6,
                });
            }
            // Each pixel the distance transform gets wrong can move F by one probe of those
            // counted: all of them (raw), or at least a quarter for r up to a quarter of the
            // shorter side (rs, km). Absolute differences (scale 1). J = (1 − G)/(1 − F) then
            // moves by at most that over 1 − F, relative: compared where F ≤ 0.9 (spatstat's
            // own range for plotting J), 10 times F's tolerance.
            let f_tolerance = 1e-12 + 4.0 * wrong_pixels / probes;
            let f = estimate(&closed.empty_space, correction);
            checks.push(Check {
                what: format!("F {theirs} (Fest, {wrong_pixels} wrong pixels)"),
                ours: f,
                theirs: col(&format!("F_{theirs}")),
                scale: 1.0,
                from: 0,
                tolerance: f_tolerance,
            });
            let until = f.iter().position(|f| f.is_nan() || *f > 0.9).unwrap_or(f.len());
            checks.push(Check {
                what: format!("J {theirs} (Jest, {wrong_pixels} wrong pixels, F ≤ 0.9)"),
                ours: &estimate(&closed.j, correction)[..until],
                theirs: &col(&format!("J_{theirs}"))[..until],
                scale: f64::MIN_POSITIVE,
                from: 0,
                tolerance: 10.0 * f_tolerance,
            });
        }
        for check in &checks {
            let worst = max_relative(check.ours, check.theirs, check.scale, check.from);
            eprintln!(
                "{:<12} {:<48} max difference {worst:.3e} (tolerance {:.1e})",
                set.name, check.what, check.tolerance
            );
            if worst.is_nan() || worst > check.tolerance {
                failures.push(format!(
                    "{} {}: {worst:e} > {:e}",
                    set.name, check.what, check.tolerance
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
