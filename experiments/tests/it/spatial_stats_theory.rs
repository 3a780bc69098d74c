//! The spatial statistics against brute force (every pair, every probe, the estimators'
//! definitions written out) on tiny sets, and against theory for white noise. Statistical
//! tests have fixed seeds; each states its false-alarm rate (the probability that a correct
//! implementation fails with another seed).

use experiments::metrics::spatial_stats::{
    Correction, RGrid, SpatialStats, SpatialStatsOptions, spatial_stats,
};
use experiments::metrics::unit_ball_volume;
use poisson_nd::rng::{derive_seed, rng_from_seed};
use poisson_nd::{Domain, Point};
use std::f64::consts::TAU;
use testkit::domains::awkward_box;
use testkit::oracle::brute_nn;

/// `n` uniform points with an exact duplicate and a point on a face.
fn tiny_set<const D: usize>(domain: &Domain<D>, n: usize, seed: u64) -> Vec<Point<D>> {
    let mut rng = rng_from_seed(seed);
    let mut points: Vec<Point<D>> = (0..n).map(|_| domain.uniform_point(&mut rng)).collect();
    if n >= 4 {
        points[3] = points[1];
        points[2][0] = domain.origin()[0];
    }
    points
}

/// Ripley's weight from the arcs of the circle inside the box (independent of the library's
/// closed form): the angles where the circle crosses the four lines of the sides, sorted;
/// each arc between two of them is inside or outside as its midpoint is.
fn arc_isotropic_weight(domain: &Domain<2>, p: &Point<2>, d: f64) -> f64 {
    if d == 0.0 {
        return 1.0;
    }
    let (o, e) = (domain.origin(), domain.extent());
    let mut angles = vec![0.0, TAU];
    let mut crossing = |c: f64, base: f64| {
        // Angles t with cos(t − base) = c, in [0, 2π).
        if c.abs() <= 1.0 {
            for t in [base + c.acos(), base - c.acos()] {
                angles.push(t.rem_euclid(TAU));
            }
        }
    };
    crossing((o[0] - p[0]) / d, 0.0);
    crossing((o[0] + e[0] - p[0]) / d, 0.0);
    crossing((o[1] - p[1]) / d, TAU / 4.0);
    crossing((o[1] + e[1] - p[1]) / d, TAU / 4.0);
    angles.sort_by(f64::total_cmp);
    let inside: f64 = angles
        .windows(2)
        .filter(|w| {
            let t = 0.5 * (w[0] + w[1]);
            let (x, y) = (p[0] + d * t.cos(), p[1] + d * t.sin());
            x >= o[0] && x <= o[0] + e[0] && y >= o[1] && y <= o[1] + e[1]
        })
        .map(|w| w[1] - w[0])
        .sum();
    TAU / inside
}

/// The brute-force pair weight of the ordered pair (i, j) under `correction`.
fn pair_weight<const D: usize>(
    domain: &Domain<D>,
    p: &Point<D>,
    q: &Point<D>,
    correction: Correction,
) -> f64 {
    match correction {
        Correction::Translation => {
            let e = domain.extent();
            (0..D).map(|a| e[a] / (e[a] - (p[a] - q[a]).abs())).product()
        }
        Correction::Isotropic => {
            let d = domain.distance_squared(p, q).sqrt();
            let domain2 =
                Domain::from_origin_and_extent_slices(domain.origin(), domain.extent()).unwrap();
            arc_isotropic_weight(&domain2, &[p[0], p[1]], d)
        }
        _ => 1.0,
    }
}

/// F's probes, as documented: the centres of `m^D` equal cells.
fn probe_grid<const D: usize>(domain: &Domain<D>, m: usize) -> Vec<Point<D>> {
    let (o, e) = (domain.origin(), domain.extent());
    (0..m.pow(D as u32))
        .map(|mut index| {
            std::array::from_fn(|a| {
                let j = index % m;
                index /= m;
                o[a] + (j as f64 + 0.5) * (e[a] / m as f64)
            })
        })
        .collect()
}

fn boundary_distance<const D: usize>(domain: &Domain<D>, p: &Point<D>) -> f64 {
    if domain.is_periodic() {
        return f64::INFINITY;
    }
    let (o, e) = (domain.origin(), domain.extent());
    (0..D).map(|a| (p[a] - o[a]).min(o[a] + e[a] - p[a])).fold(f64::INFINITY, f64::min)
}

/// raw, rs and km from their definitions (docs/metrics.md), one grid value at a time.
fn brute_distribution(d: &[f64], b: &[f64], r: &[f64]) -> [Vec<f64>; 3] {
    let n = d.len() as f64;
    let below = |k: usize| if k == 0 { -1.0 } else { r[k - 1] };
    let raw = r.iter().map(|&rk| d.iter().filter(|&&x| x < rk).count() as f64 / n).collect();
    let rs = (0..r.len())
        .map(|k| {
            let set: Vec<usize> = (0..d.len()).filter(|&i| b[i] >= below(k)).collect();
            let hits = set.iter().filter(|&&i| d[i] <= b[i] && d[i] < r[k]).count();
            if set.is_empty() { f64::NAN } else { hits as f64 / set.len() as f64 }
        })
        .collect();
    let km = (0..r.len())
        .map(|k| {
            let mut survival = 1.0;
            for j in 0..=k {
                let at_risk = (0..d.len()).filter(|&i| d[i].min(b[i]) >= below(j)).count();
                let events = (0..d.len())
                    .filter(|&i| {
                        let o = d[i].min(b[i]);
                        d[i] <= b[i] && o >= below(j) && o < r[j]
                    })
                    .count();
                if at_risk > 0 {
                    survival *= 1.0 - events as f64 / at_risk as f64;
                }
            }
            1.0 - survival
        })
        .collect();
    [raw, rs, km]
}

fn assert_close(what: &str, ours: &[f64], want: &[f64], tolerance: f64) {
    for (k, (a, b)) in ours.iter().zip(want).enumerate() {
        let ok = (a.is_nan() && b.is_nan()) || (a - b).abs() <= tolerance * b.abs().max(1.0);
        assert!(ok, "{what}: at grid index {k} {a} vs brute force {b}");
    }
}

/// Every function and correction against brute force: D = 1, 2, 3, closed and periodic
/// boxes with a negative origin and unequal sides, 2 to 40 points with a duplicate and a
/// point on a face, a grid with unequal steps up to half the shortest side. Equal to 1e-12
/// relative (the isotropic weight from the circle's arcs inside the box, found from its
/// crossings with the sides).
#[test]
fn summary_functions_match_brute_force() {
    fn case<const D: usize>(periodic: bool, n: usize, seed: u64) {
        let mut domain = awkward_box::<D>();
        if periodic {
            domain = domain.periodic();
        }
        let points = tiny_set(&domain, n, seed);
        let half = domain.extent().iter().copied().fold(f64::INFINITY, f64::min) / 2.0;
        let r: Vec<f64> = (0..=24).map(|k| half * (k as f64 / 24.0).powf(1.3)).collect();
        let grid = RGrid::from_values(r.clone()).unwrap();
        let options = SpatialStatsOptions { probes_per_axis: Some(7), ..Default::default() };
        let stats = spatial_stats(&points, &domain, &grid, &options).unwrap();
        let label = format!("D={D} periodic={periodic} n={n}");
        let volume = domain.volume();
        let pairs = (n * (n - 1)) as f64;
        let h = stats.kernel_half_width;
        let lambda = n as f64 / volume;
        assert!((h - 0.15 / lambda.powf(1.0 / D as f64)).abs() < 1e-15 * h);
        let sphere = D as f64 * unit_ball_volume(D);
        for estimate in &stats.k.estimates {
            let c = estimate.correction;
            let tolerance = 1e-12;
            let mut k_want = vec![0.0; r.len()];
            let mut g_want = vec![0.0; r.len()];
            for i in 0..n {
                for j in (0..n).filter(|&j| j != i) {
                    let d = domain.distance_squared(&points[i], &points[j]).sqrt();
                    let w = pair_weight(&domain, &points[i], &points[j], c);
                    for (k, &rk) in r.iter().enumerate() {
                        if d < rk {
                            k_want[k] += volume / pairs * w;
                        }
                        let u = (rk - d) / h;
                        if u.abs() < 1.0 && (rk > 0.0 || D == 1) {
                            g_want[k] += volume / pairs * w * 0.75 / h * (1.0 - u * u)
                                / (sphere * rk.powi(D as i32 - 1));
                        }
                    }
                }
            }
            if D >= 2 {
                g_want[0] = f64::NAN;
            }
            assert_close(&format!("{label} K {c:?}"), &estimate.values, &k_want, tolerance);
            let l_want: Vec<f64> =
                k_want.iter().map(|k| (k / unit_ball_volume(D)).powf(1.0 / D as f64)).collect();
            let l = stats.l.values(c).unwrap();
            assert_close(&format!("{label} L {c:?}"), l, &l_want, tolerance);
            let g = stats.pair_correlation.values(c).unwrap();
            assert_close(&format!("{label} g {c:?}"), g, &g_want, tolerance);
        }
        let expected: &[Correction] = match (periodic, D) {
            (true, _) => &[Correction::Periodic],
            (false, 2) => &[Correction::None, Correction::Translation, Correction::Isotropic],
            (false, _) => &[Correction::None, Correction::Translation],
        };
        let got: Vec<Correction> = stats.k.estimates.iter().map(|e| e.correction).collect();
        assert_eq!(got, expected, "{label}");

        let nn = brute_nn(&points, &domain);
        let nn_boundary: Vec<f64> = points.iter().map(|p| boundary_distance(&domain, p)).collect();
        let probes = probe_grid(&domain, 7);
        assert_eq!(stats.probes.count, probes.len() as u64);
        let probe_d: Vec<f64> = probes
            .iter()
            .map(|q| {
                points
                    .iter()
                    .map(|p| domain.distance_squared(q, p))
                    .fold(f64::INFINITY, f64::min)
                    .sqrt()
            })
            .collect();
        let probe_b: Vec<f64> = probes.iter().map(|q| boundary_distance(&domain, q)).collect();
        let g_want = brute_distribution(&nn, &nn_boundary, &r);
        let f_want = brute_distribution(&probe_d, &probe_b, &r);
        let corrections: Vec<(Correction, usize)> = if periodic {
            vec![(Correction::Periodic, 0)]
        } else {
            vec![(Correction::Raw, 0), (Correction::Border, 1), (Correction::KaplanMeier, 2)]
        };
        for (c, at) in corrections {
            let g = stats.nearest_neighbour.values(c).unwrap();
            let f = stats.empty_space.values(c).unwrap();
            assert_close(&format!("{label} G {c:?}"), g, &g_want[at], 1e-12);
            assert_close(&format!("{label} F {c:?}"), f, &f_want[at], 1e-12);
            if periodic {
                // Nothing censored: the three estimators coincide.
                assert_close(&format!("{label} G rs"), g, &g_want[1], 1e-12);
                assert_close(&format!("{label} F km"), f, &f_want[2], 1e-12);
            }
            let j_want: Vec<f64> = g_want[at]
                .iter()
                .zip(&f_want[at])
                .map(|(g, f)| if *f == 1.0 { f64::NAN } else { (1.0 - g) / (1.0 - f) })
                .collect();
            assert_close(&format!("{label} J {c:?}"), stats.j.values(c).unwrap(), &j_want, 1e-12);
        }
    }
    for (k, n) in [2, 3, 12, 40].into_iter().enumerate() {
        for periodic in [false, true] {
            let seed = 100 + k as u64;
            case::<1>(periodic, n, seed);
            case::<2>(periodic, n, seed);
            case::<3>(periodic, n, seed);
        }
    }
}

/// Mean and standard error of the values at one grid index over realisations.
fn mean_and_se(values: &[f64]) -> (f64, f64) {
    let k = values.len() as f64;
    let mean = values.iter().sum::<f64>() / k;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (k - 1.0);
    (mean, (var / k).sqrt())
}

/// White noise on the unit torus, 1000 points, 40 realisations, D = 2 and 3, at the r where
/// the Poisson G is 0.2, 0.5 and 0.8.
///
/// On the torus the expectations are exact for `N` uniform points (`q = V_D r^D / V`, the
/// chance that a given other point is within `r`): `E[K] = V_D r^D`, `E[G] = 1 − (1 −
/// q)^(N−1)`, `E[F] = 1 − (1 − q)^N`, and so `(1 − E[G])/(1 − E[F]) = 1/(1 − q)`. The Poisson
/// process's `1 − exp(−λ V_D r^D)` and `J = 1` differ from these by O(1/N) (printed). K's
/// standard deviation is exact (pair indicators are pairwise uncorrelated on the torus,
/// docs/metrics.md): 5 of them, 6e-7 per check. G, F and J use the standard error over the 40
/// realisations: 6 of them, a t statistic with 39 degrees of freedom, 4e-7 per check. About
/// 1e-5 for the 24 checks.
#[test]
fn white_noise_on_the_torus_matches_theory() {
    fn case<const D: usize>(r_max: f64) {
        let (n, realisations) = (1000usize, 40);
        let torus = Domain::<D>::unit().periodic();
        let grid = RGrid::uniform(r_max, 200).unwrap();
        let r = grid.values().to_vec();
        let ball = unit_ball_volume(D);
        let lambda = n as f64;
        let runs: Vec<SpatialStats> = (0..realisations)
            .map(|k| {
                let mut rng = rng_from_seed(derive_seed(5000 + D as u64, k as u64));
                let points: Vec<Point<D>> = (0..n).map(|_| torus.uniform_point(&mut rng)).collect();
                spatial_stats(&points, &torus, &grid, &SpatialStatsOptions::default()).unwrap()
            })
            .collect();
        for target in [0.2f64, 0.5, 0.8] {
            let r_target = (-(1.0 - target).ln() / (lambda * ball)).powf(1.0 / D as f64);
            let k = r.partition_point(|&x| x < r_target);
            let rk = r[k];
            let q = ball * rk.powi(D as i32);
            let at = |f: fn(&SpatialStats) -> &[f64]| -> Vec<f64> {
                runs.iter().map(|s| f(s)[k]).collect()
            };
            // K: exact mean and standard deviation of the mean over the realisations.
            let pairs = (n * (n - 1)) as f64 / 2.0;
            let k_sd = 2.0 / (n * (n - 1)) as f64 * (pairs * q * (1.0 - q)).sqrt();
            let (k_mean, _) = mean_and_se(&at(|s| s.k.preferred_values()));
            let k_se = k_sd / (realisations as f64).sqrt();
            let z = (k_mean - q) / k_se;
            eprintln!("D={D} r={rk:.5} K {k_mean:.6e} theory {q:.6e} z={z:.2}");
            assert!(z.abs() < 5.0, "D={D} r={rk}: K {k_mean} vs {q} ± {k_se}");

            let poisson = 1.0 - (-lambda * q).exp();
            let g_want = 1.0 - (1.0 - q).powi(n as i32 - 1);
            let f_want = 1.0 - (1.0 - q).powi(n as i32);
            let j_want = 1.0 / (1.0 - q);
            for (name, values, want) in [
                ("G", at(|s| s.nearest_neighbour.preferred_values()), g_want),
                ("F", at(|s| s.empty_space.preferred_values()), f_want),
                ("J", at(|s| s.j.preferred_values()), j_want),
            ] {
                let (mean, se) = mean_and_se(&values);
                let z = (mean - want) / se;
                eprintln!(
                    "D={D} r={rk:.5} {name} {mean:.5} ± {se:.5}, torus theory {want:.5} \
                     (Poisson {:.5}) z={z:.2}",
                    if name == "J" { 1.0 } else { poisson }
                );
                assert!(z.abs() < 6.0, "D={D} r={rk}: {name} {mean} vs {want} ± {se}");
            }
            // g: the kernel sees the same pairs as K; its mean over r near 1.
        }
        // g ≈ 1 away from 0: the mean over the grid's upper half, across realisations.
        let upper: Vec<f64> = runs
            .iter()
            .map(|s| {
                let g = s.pair_correlation.preferred_values();
                g[g.len() / 2..].iter().sum::<f64>() / (g.len() - g.len() / 2) as f64
            })
            .collect();
        let (mean, se) = mean_and_se(&upper);
        eprintln!("D={D} mean g over the upper half of the grid {mean:.5} ± {se:.5}");
        assert!(((mean - 1.0) / se).abs() < 6.0, "D={D}: g {mean} ± {se}");
        assert!(runs.iter().all(|s| s.periodic && s.k.preferred == Correction::Periodic));
    }
    case::<2>(0.05);
    case::<3>(0.12);
}

/// White noise in a closed rectangle: the translation and isotropic estimates of K are
/// unbiased for uniform points (`E = V_D r^D`), the uncorrected one falls short near the
/// faces. 40 realisations of 500 points in `[0, 1.5] × [0, 1]`, at r = 0.05, 0.1, 0.2; 6
/// standard errors over the realisations (t with 39 degrees of freedom, 4e-7 per check).
#[test]
fn white_noise_in_a_closed_box_keeps_k_unbiased() {
    let domain = Domain::from_origin_and_extent([0.0, 0.0], [1.5, 1.0]).unwrap();
    let grid = RGrid::uniform(0.2, 40).unwrap();
    let runs: Vec<SpatialStats> = (0..40)
        .map(|k| {
            let mut rng = rng_from_seed(derive_seed(77, k));
            let points: Vec<Point<2>> = (0..500).map(|_| domain.uniform_point(&mut rng)).collect();
            let options = SpatialStatsOptions { probes_per_axis: Some(16), ..Default::default() };
            spatial_stats(&points, &domain, &grid, &options).unwrap()
        })
        .collect();
    for index in [10, 20, 40] {
        let r = grid.values()[index];
        let want = std::f64::consts::PI * r * r;
        for c in [Correction::Translation, Correction::Isotropic] {
            let values: Vec<f64> = runs.iter().map(|s| s.k.values(c).unwrap()[index]).collect();
            let (mean, se) = mean_and_se(&values);
            eprintln!("r={r} K {c:?} {mean:.6} ± {se:.6} vs πr² {want:.6}");
            assert!(((mean - want) / se).abs() < 6.0, "r={r} {c:?}: {mean} ± {se} vs {want}");
        }
        let none: Vec<f64> =
            runs.iter().map(|s| s.k.values(Correction::None).unwrap()[index]).collect();
        assert!(mean_and_se(&none).0 < want, "the uncorrected K falls short");
    }
}
