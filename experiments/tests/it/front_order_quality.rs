//! Bridson's front worked among its newest points (`FrontOrder::Recent`, the sampler
//! `bridson-recent`) gives other points than the uniform order, but the same spectrum: every
//! ring of the mean periodogram and the rings' anisotropy agree within the noise of the
//! realisations.

use crate::reference::gamma_mean_bounds;
use experiments::metrics::{SpectrumAccumulator, SpectrumOptions};
use poisson_nd::{Bridson, Domain, FillSampler, FrontOrder};

/// 24 fills of the unit torus at r = 0.025 (about 1,000 points) in each order; spectra to
/// 2 N^(1/2). A ring's mean power over K sets and m frequencies is close to a Gamma(K m / 2)
/// mean (the periodogram of a stationary set is near exponential away from 0, and ±k are one
/// value), so the two orders' ratio lies within [lo/hi, hi/lo] of the Chernoff bounds at a
/// family-wise false-alarm rate of 1e-6.
#[test]
fn recent_front_has_the_uniform_front_spectrum() {
    let torus = Domain::<2>::unit().periodic();
    let (r, k) = (0.025, 24);
    let spectrum = |order: FrontOrder| {
        let sampler = Bridson::builder(torus, r).with_front_order(order).build().expect("valid");
        let mut accumulator = SpectrumAccumulator::new(SpectrumOptions::for_points(2, 1000, 2.0));
        for seed in 0..k {
            accumulator.add(&sampler.fill_seeded(seed).points, &torus);
        }
        accumulator.radial()
    };
    let (uniform, recent) = (spectrum(FrontOrder::Uniform), spectrum(FrontOrder::Recent));
    assert_eq!(uniform.rings.len(), recent.rings.len());
    let alpha = 1e-6 / uniform.rings.len() as f64;
    let mut worst: f64 = 0.0;
    for (a, b) in uniform.rings.iter().zip(&recent.rings) {
        let (lo, hi) = gamma_mean_bounds((k as usize * a.frequencies / 2) as f64, alpha / 2.0);
        let ratio = b.mean_power / a.mean_power;
        worst = worst.max((ratio - 1.0).abs());
        assert!(
            ratio > lo / hi && ratio < hi / lo,
            "ring {}: power {} (recent) against {} (uniform), ratio outside [{}, {}]",
            a.radius,
            b.mean_power,
            a.mean_power,
            lo / hi,
            hi / lo
        );
    }
    // Rings from 8 on hold enough frequencies for a steady anisotropy: −10 log10 K dB for an
    // isotropic set.
    let anisotropy = |rings: &[experiments::metrics::spectrum::Ring]| {
        rings[7..].iter().map(|ring| ring.anisotropy_db).sum::<f64>() / (rings.len() - 7) as f64
    };
    let (a, b) = (anisotropy(&uniform.rings), anisotropy(&recent.rings));
    eprintln!(
        "recent/uniform: worst ring |ratio − 1| {worst:.3}; mean anisotropy {b:.2} dB against \
         {a:.2} dB; ν_eff {} against {}",
        recent.effective_nyquist, uniform.effective_nyquist
    );
    assert!((b - a).abs() < 0.5, "anisotropy {b} dB against {a} dB");
}
