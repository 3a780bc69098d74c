//! Lattices and grids with known answers: relative radius and packing of the densest
//! lattices, the jittered grid's expected spectrum, the square grid's Nyquist frequency.

use crate::reference::{
    fcc_lattice, gamma_mean_bounds, hexagonal_lattice, jittered_grid, sinc, square_grid,
};
use experiments::metrics::pairs::pairs_closer_than;
use experiments::metrics::{
    SpectrumAccumulator, SpectrumOptions, WhiteNoiseTheory, clark_evans,
    nearest_neighbour_distances, nearest_neighbour_stats, pair_correlation, radial_spectrum,
    relative_radius,
};
use poisson_nd::Domain;
use std::f64::consts::PI;

/// The hexagonal lattice on its torus is the densest 2D packing: ρ_rel = 1 and packing
/// π/√12 = 0.9069, every point has six neighbours at the spacing, and Clark–Evans R is the
/// spacing over the Poisson mean NN `0.5/√ρ` at `ρ = 2/√3`: `2 √(2/√3) = 2.1491`.
#[test]
fn hexagonal_lattice_is_the_densest_packing() {
    let (points, torus) = hexagonal_lattice(8);
    assert_eq!(points.len(), 128);
    let rr = relative_radius(&points, &torus, Some(1.0)).unwrap();
    eprintln!("hexagonal: ρ_rel {:.12}, packing {:.12}", rr.relative_radius, rr.packing_fraction);
    assert!((rr.relative_radius - 1.0).abs() < 1e-12);
    assert!((rr.packing_fraction - PI / 12f64.sqrt()).abs() < 1e-12);
    assert!((rr.packing_fraction - 0.9069).abs() < 1e-4);
    assert!((rr.nominal_relative_radius.unwrap() - 1.0).abs() < 1e-12);
    assert_eq!(pairs_closer_than(&points, &torus, 0.999), 0);
    assert_eq!(pairs_closer_than(&points, &torus, 1.001), 3 * 128);
    let nn = nearest_neighbour_distances(&points, &torus);
    let stats = nearest_neighbour_stats(&nn, 10).unwrap();
    assert!((stats.min - 1.0).abs() < 1e-12 && (stats.max - 1.0).abs() < 1e-12);
    let expected = WhiteNoiseTheory::for_domain(&torus, points.len()).mean_nn_infinite();
    let r = clark_evans(stats.mean, expected);
    // Spacing 1 at density 2/√3: R = 1 / (0.5 √(√3/2)) = 2.1491.
    assert!((r - 2.0 / (3f64.sqrt() / 2.0).sqrt()).abs() < 1e-9, "{r}");
    // Its pair correlation is zero below the spacing and the first shell holds 3N pairs.
    let pcf = pair_correlation(&points, &torus, 0.03, 2.0);
    let below: u64 = pcf.bins.iter().filter(|b| b.r_upper <= 0.95).map(|b| b.pairs).sum();
    let first: u64 =
        pcf.bins.iter().filter(|b| b.r_lower < 1.0 && b.r_upper > 1.0).map(|b| b.pairs).sum();
    assert_eq!((below, first), (0, 3 * 128));
}

/// The fcc lattice on a cubic torus: packing π/√18 = 0.7405, ρ_rel = 1, twelve neighbours
/// per point at 1/√2.
#[test]
fn fcc_lattice_is_the_densest_3d_packing() {
    let (points, torus) = fcc_lattice(3);
    assert_eq!(points.len(), 108);
    let rr = relative_radius(&points, &torus, None).unwrap();
    eprintln!("fcc: ρ_rel {:.12}, packing {:.12}", rr.relative_radius, rr.packing_fraction);
    assert!((rr.relative_radius - 1.0).abs() < 1e-12);
    assert!((rr.packing_fraction - PI / 18f64.sqrt()).abs() < 1e-12);
    assert!((rr.packing_fraction - 0.7405).abs() < 1e-4);
    let d = 0.5f64.sqrt();
    assert_eq!(pairs_closer_than(&points, &torus, 0.999 * d), 0);
    assert_eq!(pairs_closer_than(&points, &torus, 1.001 * d), 6 * 108);
}

/// Averaged over 32 realisations, a 32 × 32 jittered grid's periodogram matches
/// `1 − sinc²(k_x/m) sinc²(k_y/m)` frequency by frequency and ring by ring.
///
/// Per frequency, `P(k) / E[P(k)]` is close to Exp(1) (a sum of 1024 independent zero-mean
/// terms, circular unless 2k ≡ 0 mod m, which is left out), so the mean of 32 lies within
/// Chernoff bounds for a Gamma(32) mean; the bounds are set for a family-wise false-alarm
/// rate of 1e-6 over the ~6400 frequencies. The mean ratio over all frequencies must be 1
/// within 5 standard errors `1/sqrt(32 · count)`, and each ring's mean ratio within its
/// Gamma(32 · count) bounds (family-wise 1e-6).
#[test]
fn jittered_grid_matches_sinc_formula() {
    let (m, k) = (32usize, 32usize);
    let torus = Domain::<2>::unit().periodic();
    let mut spectrum = SpectrumAccumulator::new(SpectrumOptions::new(2 * m));
    for seed in 0..k {
        spectrum.add(&jittered_grid(m, 500 + seed as u64), &torus);
    }
    let expected =
        |f: &[i64; 2]| 1.0 - (sinc(f[0] as f64 / m as f64) * sinc(f[1] as f64 / m as f64)).powi(2);
    let frequencies: Vec<([i64; 2], f64)> = spectrum
        .frequencies()
        .filter(|(f, _)| (2 * f[0]) % m as i64 != 0 || (2 * f[1]) % m as i64 != 0)
        .collect();
    let (lo, hi) = gamma_mean_bounds(k as f64, 1e-6 / frequencies.len() as f64);
    let mut ratio_sum = 0.0;
    let mut ring_sums = vec![(0.0, 0usize); 2 * m + 1];
    let (mut min_ratio, mut max_ratio) = (f64::INFINITY, 0.0f64);
    for (f, p) in &frequencies {
        let ratio = p / expected(f);
        min_ratio = min_ratio.min(ratio);
        max_ratio = max_ratio.max(ratio);
        assert!(ratio > lo && ratio < hi, "k = {f:?}: P = {p}, expected {}", expected(f));
        ratio_sum += ratio;
        let ring = ((f[0] * f[0] + f[1] * f[1]) as f64).sqrt().round() as usize;
        ring_sums[ring].0 += ratio;
        ring_sums[ring].1 += 1;
    }
    let count = frequencies.len() as f64;
    let mean_ratio = ratio_sum / count;
    let se = 1.0 / (k as f64 * count).sqrt();
    eprintln!(
        "jittered grid: {} frequencies, P/E in [{min_ratio:.3}, {max_ratio:.3}] (bounds [{lo:.3}, {hi:.3}]), mean {mean_ratio:.4} ± {se:.4}",
        frequencies.len()
    );
    assert!((mean_ratio - 1.0).abs() < 5.0 * se);
    for (ring, &(sum, c)) in ring_sums.iter().enumerate().skip(1) {
        let (lo, hi) = gamma_mean_bounds((k * c) as f64, 1e-6 / (2 * m) as f64);
        let mean = sum / c as f64;
        assert!(mean > lo && mean < hi, "ring {ring}: mean ratio {mean}");
    }
    // The radial mean itself follows the ring average of the formula.
    let radial = spectrum.radial();
    let ring4 = &radial.rings[3];
    eprintln!(
        "ring 4 mean power {:.4}, anisotropy {:.2} dB",
        ring4.mean_power, ring4.anisotropy_db
    );
}

/// A perfect 32 × 32 grid: power N at the multiples of m, 0 elsewhere, so C(f) jumps from 0
/// to above 0.5 at |k| = m = √N and ν_eff = (largest |k| < m)/2 ≈ √N/2 = 16; the peak
/// ring is 32.
#[test]
fn square_grid_nyquist_is_half_sqrt_n() {
    let torus = Domain::<2>::unit().periodic();
    let radial =
        radial_spectrum(&square_grid(32), &torus, SpectrumOptions::for_points(2, 1024, 2.0));
    eprintln!(
        "square grid: ν_eff {} (√N/2 = 16), peak {:?}",
        radial.effective_nyquist, radial.peak
    );
    assert!((radial.effective_nyquist - 16.0).abs() < 0.05, "{}", radial.effective_nyquist);
    assert_eq!(radial.peak.unwrap().radius, 32);
    assert!(radial.rings[..31].iter().all(|r| r.mean_power < 1e-20));
}
