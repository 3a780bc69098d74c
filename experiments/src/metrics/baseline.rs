//! The white-noise baseline: what a set of independent uniform points of the same size in
//! the same domain would show.
//!
//! Three kinds of reference, named in every report so a number is never compared with the
//! wrong one:
//! - **infinite**: the Poisson-process formula at the same density, no boundary
//!   ([`WhiteNoiseTheory::mean_nn_infinite`], [`WhiteNoiseTheory::cluster_rate_infinite`]);
//! - **torus**: exact for `N` independent uniform points on the periodic box, valid while
//!   the distances involved are at most half the shortest side
//!   ([`WhiteNoiseTheory::mean_nn_torus`], [`WhiteNoiseTheory::cluster_rate_torus`],
//!   [`WhiteNoiseTheory::pairs_closer_torus`]);
//! - **simulated**: the mean over seeded white-noise realisations in the very same domain
//!   ([`simulate_white_noise`]), which accounts for the faces of a closed box, where points
//!   have fewer close neighbours (larger mean NN, smaller cluster rate).

use crate::metrics::{Estimate, NeighbourIndex, cluster_rate, pairs, unit_ball_volume};
use poisson_nd::rng::derive_seed;
use poisson_nd::{Domain, Sampler, WhiteNoise};
use serde::Serialize;
use statrs::function::gamma::{gamma, ln_gamma};

/// Closed-form white-noise expectations for `n` points in a region of volume `volume` in
/// `dim` dimensions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WhiteNoiseTheory {
    /// Dimension.
    pub dim: usize,
    /// Number of points.
    pub n: usize,
    /// Volume of the region.
    pub volume: f64,
}

impl WhiteNoiseTheory {
    /// The expectations for `n` points in `dim` dimensions in a region of volume `volume`.
    pub fn new(dim: usize, n: usize, volume: f64) -> Self {
        WhiteNoiseTheory { dim, n, volume }
    }

    /// The expectations for `n` points in `domain`.
    pub fn for_domain<const D: usize>(domain: &Domain<D>, n: usize) -> Self {
        Self::new(D, n, domain.volume())
    }

    /// Density `ρ = N / V`.
    pub fn density(&self) -> f64 {
        self.n as f64 / self.volume
    }

    /// `V_D / V`: the fraction of the region a unit ball fills.
    fn ball_fraction(&self) -> f64 {
        unit_ball_volume(self.dim) / self.volume
    }

    /// Mean nearest-neighbour distance of a Poisson process of density `ρ` without boundary:
    /// `Γ(1 + 1/D) / (ρ V_D)^(1/D)` (`0.5/√ρ` in 2D).
    pub fn mean_nn_infinite(&self) -> f64 {
        let d = self.dim as f64;
        gamma(1.0 + 1.0 / d) / (self.density() * unit_ball_volume(self.dim)).powf(1.0 / d)
    }

    /// Mean nearest-neighbour distance of `N ≥ 2` independent uniform points on the torus:
    /// `Γ(1 + 1/D) Γ(N) / Γ(N + 1/D) · (V / V_D)^(1/D)`, from
    /// `P(NN > s) = (1 − V_D s^D / V)^(N−1)`. Exact while the nearest neighbour is closer
    /// than half the shortest side, which fails with negligible probability unless `N` is
    /// tiny.
    pub fn mean_nn_torus(&self) -> f64 {
        self.nn_moment_torus(1.0)
    }

    /// Standard deviation of one point's nearest-neighbour distance on the torus (same
    /// derivation as [`Self::mean_nn_torus`], from the second moment
    /// `Γ(1 + 2/D) Γ(N) / Γ(N + 2/D) · (V / V_D)^(2/D)`).
    pub fn nn_std_torus(&self) -> f64 {
        let m1 = self.nn_moment_torus(1.0);
        (self.nn_moment_torus(2.0) - m1 * m1).max(0.0).sqrt()
    }

    /// `E[NN^k]` on the torus.
    fn nn_moment_torus(&self, k: f64) -> f64 {
        let d = self.dim as f64;
        let n = self.n as f64;
        let ratio = (ln_gamma(n) - ln_gamma(n + k / d)).exp();
        gamma(1.0 + k / d) * ratio * self.ball_fraction().powf(-k / d)
    }

    /// Fraction of points with a neighbour closer than `r`, Poisson process without
    /// boundary: `1 − exp(−ρ V_D r^D)`.
    pub fn cluster_rate_infinite(&self, r: f64) -> f64 {
        -(-self.density() * unit_ball_volume(self.dim) * r.powi(self.dim as i32)).exp_m1()
    }

    /// Fraction of points with a neighbour closer than `r`, `N` independent uniform points on
    /// the torus: `1 − (1 − V_D r^D / V)^(N−1)`; exact for `r` up to half the shortest side.
    pub fn cluster_rate_torus(&self, r: f64) -> f64 {
        let q = self.pair_probability(r);
        if q >= 1.0 {
            return 1.0;
        }
        -((self.n.saturating_sub(1)) as f64 * (-q).ln_1p()).exp_m1()
    }

    /// Probability that two independent uniform points on the torus are closer than `r`:
    /// `V_D r^D / V` (capped at 1).
    pub fn pair_probability(&self, r: f64) -> f64 {
        (self.ball_fraction() * r.powi(self.dim as i32)).min(1.0)
    }

    /// Expected number of pairs closer than `r` on the torus, `N(N−1)/2 · V_D r^D / V`, and
    /// its standard deviation `sqrt(N(N−1)/2 · q(1−q))`. The variance is exact: on the torus
    /// two pairs that share a point are uncorrelated (given the shared point, the other two
    /// are independent and each is within `r` with probability `q`), and disjoint pairs are
    /// independent.
    pub fn pairs_closer_torus(&self, r: f64) -> Estimate {
        let q = self.pair_probability(r);
        let pairs = self.n as f64 * (self.n as f64 - 1.0) / 2.0;
        Estimate { value: pairs * q, std_error: (pairs * q * (1.0 - q)).sqrt() }
    }

    /// Expected squared L2-star discrepancy of `N` independent uniform points in the unit
    /// cube: `(2^−D − 3^−D) / N`.
    pub fn l2_star_squared(&self) -> f64 {
        let d = self.dim as i32;
        (2f64.powi(-d) - 3f64.powi(-d)) / self.n as f64
    }
}

/// White-noise statistics estimated by simulation in the very same domain.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SimulatedReference {
    /// Number of white-noise realisations averaged.
    pub realisations: usize,
    /// Points per realisation.
    pub n: usize,
    /// Mean nearest-neighbour distance (mean over realisations of each set's mean).
    pub mean_nn: Estimate,
    /// Cluster rate at the given radius, when one was given.
    pub cluster_rate: Option<Estimate>,
    /// Number of pairs closer than the given radius, when one was given.
    pub pairs_closer: Option<Estimate>,
}

/// Simulates `realisations` white-noise sets of `n` points in `domain` (realisation `k`
/// seeded with `derive_seed(seed, k)`) and averages their mean nearest-neighbour distance
/// and, for a radius `r`, their cluster rate and number of pairs closer than `r`. The
/// standard errors are the sample standard deviation over realisations divided by
/// `sqrt(realisations)`. This is the boundary-aware reference for closed boxes.
pub fn simulate_white_noise<const D: usize>(
    domain: &Domain<D>,
    n: usize,
    r: Option<f64>,
    realisations: usize,
    seed: u64,
) -> SimulatedReference {
    let noise = WhiteNoise::new(*domain);
    let mut mean_nn = Vec::with_capacity(realisations);
    let mut rates = Vec::with_capacity(realisations);
    let mut close = Vec::with_capacity(realisations);
    for k in 0..realisations {
        let set = noise.sample_seeded(n, derive_seed(seed, k as u64));
        let index = NeighbourIndex::new(&set.points, domain);
        let nn = index.nearest_neighbour_distances();
        let finite: Vec<f64> = nn.iter().copied().filter(|d| d.is_finite()).collect();
        if !finite.is_empty() {
            mean_nn.push(finite.iter().sum::<f64>() / finite.len() as f64);
        }
        if let Some(r) = r {
            rates.push(cluster_rate(&nn, r));
            close.push(pairs::pairs_closer_than_in(&index, r) as f64);
        }
    }
    SimulatedReference {
        realisations,
        n,
        mean_nn: mean_and_error(&mean_nn),
        cluster_rate: r.map(|_| mean_and_error(&rates)),
        pairs_closer: r.map(|_| mean_and_error(&close)),
    }
}

/// The mean of `values` and its standard error (sample standard deviation over `sqrt(n)`);
/// NaN for no values, an error of 0 for one.
///
/// ```
/// use experiments::metrics::baseline::mean_and_error;
/// assert_eq!(mean_and_error(&[1.0, 3.0]).pair(), (2.0, 1.0));
/// assert_eq!(mean_and_error(&[5.0]).pair(), (5.0, 0.0));
/// assert!(mean_and_error(&[]).value.is_nan());
/// ```
pub fn mean_and_error(values: &[f64]) -> Estimate {
    let n = values.len() as f64;
    if values.is_empty() {
        return Estimate { value: f64::NAN, std_error: f64::NAN };
    }
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return Estimate { value: mean, std_error: 0.0 };
    }
    let var = values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0);
    Estimate { value: mean, std_error: (var / n).sqrt() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_dimensional_formulas() {
        let t = WhiteNoiseTheory::new(2, 10_000, 1.0);
        // 0.5 / sqrt(ρ)
        assert!((t.mean_nn_infinite() - 0.5 / 100.0).abs() < 1e-15);
        // The torus value tends to the infinite one: Γ(N)N^(1/2)/Γ(N+1/2) = 1 + 1/(8N) + ...
        let ratio = t.mean_nn_torus() / t.mean_nn_infinite();
        assert!((ratio - (1.0 + 1.0 / 80_000.0)).abs() < 1e-8, "{ratio}");
        // Single-point NN variance of a 2D Poisson process: (4 − π) / (4π ρ).
        let var = (4.0 - std::f64::consts::PI) / (4.0 * std::f64::consts::PI * 10_000.0);
        assert!((t.nn_std_torus() / var.sqrt() - 1.0).abs() < 1e-3);
        let r = 0.005;
        let torus = t.cluster_rate_torus(r);
        let plane = t.cluster_rate_infinite(r);
        assert!((torus - plane).abs() < 1e-4, "{torus} {plane}");
        assert!((t.l2_star_squared() - (0.25 - 1.0 / 9.0) / 10_000.0).abs() < 1e-18);
    }

    #[test]
    fn one_dimensional_torus_mean_nn_is_exact() {
        // N points on a circle of length 1: the NN distance of a point is the smaller of two
        // spacings; P(NN > s) = (1 − 2s)^(N−1), so E[NN] = 1 / (2N).
        let t = WhiteNoiseTheory::new(1, 50, 1.0);
        assert!((t.mean_nn_torus() - 1.0 / 100.0).abs() < 1e-14);
    }
}
