//! The pair correlation function (radial distribution function) g(r).

use crate::metrics::{NeighbourIndex, unit_ball_volume};
use poisson_nd::{Domain, Point};
use serde::Serialize;

/// How the estimator handles the boundary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EdgeCorrection {
    /// Periodic domain: toroidal distances, no boundary, no correction needed.
    Periodic,
    /// Closed box: each pair with difference vector `h` is weighted by
    /// `V / Π_a (L_a − |h_a|)`, the inverse of the fraction of translations of the box that
    /// keep both points inside (Ohser's translation correction). Unbiased for white noise.
    Translation,
}

/// One bin `[r_lower, r_upper)` of the pair correlation function.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PairCorrelationBin {
    /// Lower edge.
    pub r_lower: f64,
    /// Upper edge.
    pub r_upper: f64,
    /// The estimate of g over the bin (1 for white noise, 0 below a Poisson-disk radius).
    pub g: f64,
    /// Unordered pairs whose distance falls in the bin.
    pub pairs: u64,
    /// Approximate standard error `g / sqrt(pairs)` (Poisson counting; NaN for no pairs).
    pub std_error: f64,
}

/// A binned pair correlation function.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PairCorrelation {
    /// Width of every bin.
    pub bin_width: f64,
    /// Upper edge of the last bin (the requested range, capped at half the shortest side).
    pub r_max: f64,
    /// The boundary treatment.
    pub edge_correction: EdgeCorrection,
    /// The bins, from `r = 0` up.
    pub bins: Vec<PairCorrelationBin>,
}

/// Estimates g(r) on bins of width `bin_width` up to `r_max`, which is lowered to half the
/// shortest side of the box (on the torus the shell volume `V_D (r_2^D − r_1^D)` holds only
/// up to there; in a closed box it keeps the translation weights moderate). Only whole bins
/// are kept.
///
/// `g_b = V / (N (N − 1)) · Σ_{i ≠ j, d_ij in bin b} w_ij / (V_D (r_{b+1}^D − r_b^D))`
/// with `w_ij = 1` on the torus and the translation weight `V / Π_a (L_a − |h_a|)` in a
/// closed box ([`EdgeCorrection`]). For `N` independent uniform points the expectation
/// is exactly 1 in every bin. Panics unless `bin_width > 0`.
pub fn pair_correlation<const D: usize>(
    points: &[Point<D>],
    domain: &Domain<D>,
    bin_width: f64,
    r_max: f64,
) -> PairCorrelation {
    pair_correlation_in(&NeighbourIndex::new(points, domain), bin_width, r_max)
}

/// [`pair_correlation`] on an index that is already built.
pub fn pair_correlation_in<const D: usize>(
    index: &NeighbourIndex<D>,
    bin_width: f64,
    r_max: f64,
) -> PairCorrelation {
    let domain = index.domain();
    assert!(bin_width > 0.0, "bin width must be positive");
    let half_side = domain.extent().iter().copied().fold(f64::INFINITY, f64::min) / 2.0;
    let bins = ((r_max.min(half_side) / bin_width) * (1.0 + 1e-12)).floor() as usize;
    let r_max = bins as f64 * bin_width;
    let periodic = domain.is_periodic();
    let edge_correction =
        if periodic { EdgeCorrection::Periodic } else { EdgeCorrection::Translation };
    if bins == 0 {
        return PairCorrelation { bin_width, r_max, edge_correction, bins: Vec::new() };
    }
    let volume = domain.volume();
    let extent = *domain.extent();
    let mut weights = vec![0.0f64; bins];
    let mut counts = vec![0u64; bins];
    let sites = index.sites();
    index.for_each_pair_within(r_max, |a, b, d2, pairs| {
        let bin = ((d2.sqrt() / bin_width) as usize).min(bins - 1);
        let w = if periodic {
            1.0
        } else {
            let (p, q) = (&sites[a], &sites[b]);
            let mut overlap = 1.0;
            for a in 0..D {
                overlap *= extent[a] - (p[a] - q[a]).abs();
            }
            volume / overlap
        };
        weights[bin] += w * pairs as f64;
        counts[bin] += pairs;
    });
    let n = index.len() as f64;
    let vd = unit_ball_volume(D);
    let bins = (0..bins)
        .map(|b| {
            let lo = b as f64 * bin_width;
            let hi = lo + bin_width;
            let shell = vd * (hi.powi(D as i32) - lo.powi(D as i32));
            // Ordered pairs: each unordered pair counted twice.
            let g = volume / (n * (n - 1.0)) * 2.0 * weights[b] / shell;
            let std_error = if counts[b] > 0 { g / (counts[b] as f64).sqrt() } else { f64::NAN };
            PairCorrelationBin { r_lower: lo, r_upper: hi, g, pairs: counts[b], std_error }
        })
        .collect();
    PairCorrelation { bin_width, r_max, edge_correction, bins }
}
