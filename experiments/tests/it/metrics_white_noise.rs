//! White noise against its closed-form expectations. Slow statistical tests: run in release
//! mode. Every test has a fixed seed; the false-alarm rate of each check is stated with it
//! (it is the probability that a correct implementation fails for some other seed).

use crate::reference::{gamma_mean_bounds, white_noise_sets};
use experiments::metrics::baseline::simulate_white_noise;
use experiments::metrics::pairs::pairs_closer_than;
use experiments::metrics::{
    EdgeCorrection, SpectrumAccumulator, SpectrumOptions, WhiteNoiseTheory, cluster_rate,
    l2_star_discrepancy_squared, nearest_neighbour_distances, pair_correlation, unit_ball_volume,
};
use poisson_nd::Domain;

/// The radius at which the torus cluster rate of `n` points is `p`.
fn radius_for_cluster_rate(dim: usize, n: usize, p: f64) -> f64 {
    let q = 1.0 - (1.0 - p).powf(1.0 / (n as f64 - 1.0));
    (q / unit_ball_volume(dim)).powf(1.0 / dim as f64)
}

/// Mean NN, cluster rate and close pairs of white noise on the unit torus, D = 1..6, pooled
/// over 4 sets of 2000 points, against the exact torus formulas.
///
/// Standard errors: the mean NN uses `1.5 σ_NN / sqrt(N K)` and the cluster rate
/// `2 sqrt(p (1 − p) / (N K))`; the factors bound the correlation between points (close
/// points come in pairs), measured over 300 realisations per D at 0.81–1.24 and 1.27–1.46.
/// The pair count's standard deviation is exact (`docs/metrics.md`). Each check is at 5 of
/// these standard errors: false-alarm rate below 1e-6 per check (about 2e-5 for the 18).
macro_rules! white_noise_nn_case {
    ($name:ident, $d:literal) => {
        #[test]
        fn $name() {
            const D: usize = $d;
            let (n, k) = (2000, 4);
            let torus = Domain::<D>::unit().periodic();
            let theory = WhiteNoiseTheory::for_domain(&torus, n);
            let r = radius_for_cluster_rate(D, n, 0.2);
            let (mut mean_sum, mut clustered, mut pairs) = (0.0, 0.0, 0u64);
            for points in white_noise_sets(&torus, n, k, 1000 + D as u64) {
                let nn = nearest_neighbour_distances(&points, &torus);
                mean_sum += nn.iter().sum::<f64>() / n as f64;
                clustered += cluster_rate(&nn, r);
                pairs += pairs_closer_than(&points, &torus, r);
            }
            let total = (n * k) as f64;
            let mean = mean_sum / k as f64;
            let want = theory.mean_nn_torus();
            let se = 1.5 * theory.nn_std_torus() / total.sqrt();
            eprintln!("D={D} mean NN {mean:.6} theory {want:.6} z={:.2}", (mean - want) / se);
            assert!((mean - want).abs() < 5.0 * se, "D={D}: mean NN {mean} vs {want} ± {se}");

            let rate = clustered / k as f64;
            let p = theory.cluster_rate_torus(r);
            let se = 2.0 * (p * (1.0 - p) / total).sqrt();
            eprintln!("D={D} cluster rate {rate:.5} theory {p:.5} z={:.2}", (rate - p) / se);
            assert!((rate - p).abs() < 5.0 * se, "D={D}: cluster rate {rate} vs {p} ± {se}");

            let expected = theory.pairs_closer_torus(r);
            let (want, sd) = (expected.value * k as f64, expected.std_error * (k as f64).sqrt());
            eprintln!("D={D} pairs {pairs} theory {want:.1} z={:.2}", (pairs as f64 - want) / sd);
            assert!(
                (pairs as f64 - want).abs() < 5.0 * sd,
                "D={D}: pairs {pairs} vs {want} ± {sd}"
            );
        }
    };
}

white_noise_nn_case!(white_noise_nn_torus_1d, 1);
white_noise_nn_case!(white_noise_nn_torus_2d, 2);
white_noise_nn_case!(white_noise_nn_torus_3d, 3);
white_noise_nn_case!(white_noise_nn_torus_4d, 4);
white_noise_nn_case!(white_noise_nn_torus_5d, 5);
white_noise_nn_case!(white_noise_nn_torus_6d, 6);

/// In the closed unit square the expected number of pairs closer than r is exactly
/// `N(N−1)/2 · (π r² − 8 r³/3 + r⁴/2)` (the integral of the box's set covariance
/// `(1 − |h_x|)(1 − |h_y|)` over the disc). Both the measured count over 8 white-noise sets
/// and the simulated reference are checked against it at 5 standard errors (binomial
/// standard deviation times 1.5 for the correlation near the faces; false-alarm rate below
/// 1e-6 each). The simulated mean NN must exceed the infinite-plane formula (faces push
/// neighbours away; the excess, 1.3 %, is 7 of its standard errors here).
#[test]
fn closed_square_matches_border_formula() {
    let square = Domain::<2>::unit();
    let (n, k, r) = (2000, 8, 0.007);
    let q = std::f64::consts::PI * r * r - 8.0 * r.powi(3) / 3.0 + r.powi(4) / 2.0;
    let pairs_per_set = (n * (n - 1)) as f64 / 2.0;
    let want = pairs_per_set * q;
    let sd = 1.5 * (pairs_per_set * q * (1.0 - q)).sqrt();
    let observed: u64 =
        white_noise_sets(&square, n, k, 77).iter().map(|p| pairs_closer_than(p, &square, r)).sum();
    let per_set = observed as f64 / k as f64;
    eprintln!(
        "closed square pairs {per_set:.1} exact {want:.1} (torus would be {:.1})",
        pairs_per_set * std::f64::consts::PI * r * r
    );
    assert!((per_set - want).abs() < 5.0 * sd / (k as f64).sqrt(), "{per_set} vs {want}");

    let reference = simulate_white_noise(&square, n, Some(r), 16, 5);
    let sim = reference.pairs_closer.unwrap();
    eprintln!("simulated reference pairs {:.1} ± {:.1}", sim.value, sim.std_error);
    assert!((sim.value - want).abs() < 5.0 * sd / 4.0, "{} vs {want}", sim.value);
    let plane = WhiteNoiseTheory::for_domain(&square, n).mean_nn_infinite();
    eprintln!(
        "simulated mean NN {:.6} ± {:.6}, infinite plane {plane:.6}",
        reference.mean_nn.value, reference.mean_nn.std_error
    );
    assert!(reference.mean_nn.value > plane);
}

/// The mean periodogram of 16 white-noise sets of 1024 points on the unit torus is 1 at
/// every frequency. Each ring mean (of `16 × count/2` independent, nearly exponential
/// values) must lie within Chernoff bounds for a Gamma mean at a family-wise false-alarm
/// rate of 1e-6 for all 64 rings; the mean anisotropy over rings 8..64 must be within
/// 0.5 dB of −10 log10 16 = −12.04 dB; the effective Nyquist frequency is 0.
#[test]
fn white_noise_spectrum_is_flat_2d() {
    let torus = Domain::<2>::unit().periodic();
    let (n, k) = (1024, 16);
    let mut spectrum = SpectrumAccumulator::new(SpectrumOptions::for_points(2, n, 2.0));
    for points in white_noise_sets(&torus, n, k, 2024) {
        spectrum.add(&points, &torus);
    }
    let radial = spectrum.radial();
    assert_eq!(radial.k_max, 64);
    let alpha = 1e-6 / radial.rings.len() as f64;
    let mut worst: f64 = 0.0;
    for ring in &radial.rings {
        let shape = (k * ring.frequencies / 2) as f64;
        let (lo, hi) = gamma_mean_bounds(shape, alpha);
        worst = worst.max((ring.mean_power - 1.0).abs());
        assert!(
            ring.mean_power > lo && ring.mean_power < hi,
            "ring {}: {} outside [{lo}, {hi}]",
            ring.radius,
            ring.mean_power
        );
    }
    let tail: Vec<f64> = radial.rings[7..].iter().map(|r| r.anisotropy_db).collect();
    let anisotropy = tail.iter().sum::<f64>() / tail.len() as f64;
    eprintln!(
        "2D white noise: worst ring |P − 1| {worst:.3}, mean anisotropy {anisotropy:.2} dB, ν_eff {}",
        radial.effective_nyquist
    );
    assert!((anisotropy + 10.0 * 16f64.log10()).abs() < 0.5, "{anisotropy}");
    assert_eq!(radial.effective_nyquist, 0.0);
}

/// The same in 3D with spherical shells: 8 sets of 512 points, shells up to 16; ring
/// means within Chernoff bounds at a family-wise false-alarm rate of 1e-6.
#[test]
fn white_noise_spectrum_is_flat_3d() {
    let torus = Domain::<3>::unit().periodic();
    let (n, k) = (512, 8);
    let mut spectrum = SpectrumAccumulator::new(SpectrumOptions::for_points(3, n, 2.0));
    for points in white_noise_sets(&torus, n, k, 3033) {
        spectrum.add(&points, &torus);
    }
    let radial = spectrum.radial();
    assert_eq!(radial.k_max, 16);
    let alpha = 1e-6 / radial.rings.len() as f64;
    for ring in &radial.rings {
        let (lo, hi) = gamma_mean_bounds((k * ring.frequencies / 2) as f64, alpha);
        eprintln!("3D shell {:>2}: {:.3} in [{lo:.3}, {hi:.3}]", ring.radius, ring.mean_power);
        assert!(ring.mean_power > lo && ring.mean_power < hi, "shell {}", ring.radius);
    }
}

/// g(r) of white noise is 1. On the torus the pair count in each bin has expectation
/// `N(N−1)/2 · V_D (r₂^D − r₁^D)` and (as for close pairs) an exact binomial variance; in
/// the closed square the translation-corrected estimate is checked against 1 with the
/// reported standard error times 1.5. 5 standard errors per bin, family-wise false-alarm
/// rate below 1e-4.
#[test]
fn white_noise_pair_correlation_is_one() {
    let n = 3000;
    let torus = Domain::<2>::unit().periodic();
    let points = &white_noise_sets(&torus, n, 1, 99)[0];
    let pcf = pair_correlation(points, &torus, 0.005, 0.1);
    assert_eq!(pcf.edge_correction, EdgeCorrection::Periodic);
    assert_eq!(pcf.bins.len(), 20);
    let pairs_total = (n * (n - 1)) as f64 / 2.0;
    for bin in &pcf.bins {
        let q = std::f64::consts::PI * (bin.r_upper.powi(2) - bin.r_lower.powi(2));
        let (want, sd) = (pairs_total * q, (pairs_total * q * (1.0 - q)).sqrt());
        assert!((bin.pairs as f64 - want).abs() < 5.0 * sd, "torus bin {:?}", bin);
        assert!((bin.g - bin.pairs as f64 / want).abs() < 1e-9);
    }
    let square = Domain::<2>::unit();
    let pcf = pair_correlation(points, &square, 0.005, 0.1);
    assert_eq!(pcf.edge_correction, EdgeCorrection::Translation);
    let mean_g = pcf.bins.iter().map(|b| b.g).sum::<f64>() / pcf.bins.len() as f64;
    eprintln!("closed-square translation-corrected mean g {mean_g:.4}");
    for bin in &pcf.bins {
        assert!((bin.g - 1.0).abs() < 5.0 * 1.5 * bin.std_error, "square bin {:?}", bin);
    }
}

/// E[(L2*)²] = (2^−D − 3^−D)/N for white noise: the mean over 200 sets of 256 points must
/// be within 5 standard errors (sample standard deviation over the 200; the mean of 200 is
/// close to normal) of the formula, D = 1..4. False-alarm rate about 1e-6 per dimension.
#[test]
fn white_noise_discrepancy_matches_expectation() {
    fn case<const D: usize>() {
        let cube = Domain::<D>::unit();
        let (n, k) = (256, 200);
        let values: Vec<f64> = white_noise_sets(&cube, n, k, 4000 + D as u64)
            .iter()
            .map(|p| l2_star_discrepancy_squared(p, &cube))
            .collect();
        let mean = values.iter().sum::<f64>() / k as f64;
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (k - 1) as f64;
        let se = (var / k as f64).sqrt();
        let want = WhiteNoiseTheory::new(D, n, 1.0).l2_star_squared();
        eprintln!("D={D} E[L2*²] {mean:.4e} theory {want:.4e} z={:.2}", (mean - want) / se);
        assert!((mean - want).abs() < 5.0 * se, "D={D}: {mean} vs {want} ± {se}");
    }
    case::<1>();
    case::<2>();
    case::<3>();
    case::<4>();
}
