//! The pair correlation function (radial distribution function) g(r): binned
//! ([`pair_correlation`], the analysis and the report) and kernel-smoothed on a grid of `r`
//! as spatstat's `pcf` ([`KernelPairCorrelation`], for [`crate::metrics::spatial_stats`](mod@crate::metrics::spatial_stats)).

use crate::metrics::edge_correction::translation_weight;
use crate::metrics::r_grid::RGrid;
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
    /// keep both points inside (Ohser's translation correction,
    /// [`translation_weight`]). Unbiased for white noise.
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
        let w = if periodic { 1.0 } else { translation_weight(&extent, &sites[a], &sites[b]) };
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

/// Stoyan's rule of thumb for the kernel's half-width, spatstat's `pcf` default: 0.15.
pub const STOYAN: f64 = 0.15;

/// The half-width of the Epanechnikov kernel by Stoyan's rule, `h = c / λ^(1/D)` with `c`
/// the coefficient (`STOYAN`, 0.15) and `λ` the intensity: in 2D spatstat's
/// `stoyan / sqrt(λ)`, and in every dimension the same fraction of the mean spacing
/// `λ^(−1/D)`.
pub fn stoyan_half_width(coefficient: f64, intensity: f64, dim: usize) -> f64 {
    coefficient / intensity.powf(1.0 / dim as f64)
}

/// The pair correlation function smoothed with an Epanechnikov kernel on a grid of `r`, as
/// spatstat's `pcf` (divisor `r`): with the kernel `k_h(u) = 3/(4h) (1 − u²/h²)` for
/// `|u| < h` (0 beyond),
///
/// `g(r) = |W| / (N (N − 1)) · Σ_{i ≠ j} w_ij k_h(r − d_ij) / (s_D r^(D−1))`,
///
/// the sum over ordered pairs with their edge-correction weights, `s_D = D V_D` the area of
/// the unit sphere (2π in 2D). Mass the kernel puts below `r = 0` is lost, as in spatstat
/// 3.0, so `g` is biased low within `h` of 0; `g(0)` is undefined for `D ≥ 2` (NaN).
///
/// Several estimates (one per edge correction, "channels") are smoothed at once: feed every
/// pair closer than [`KernelPairCorrelation::reach`] with [`Self::add`], one weight per
/// channel, then read each channel's `g` with [`Self::finish`].
///
/// ```
/// use experiments::metrics::pair_correlation::KernelPairCorrelation;
/// use experiments::metrics::r_grid::RGrid;
/// let grid = RGrid::uniform(1.0, 2)?;
/// let mut g = KernelPairCorrelation::new(&grid, 0.25, 1);
/// g.add(0.5, &[2.0]); // one unordered pair at distance 0.5: two ordered pairs, weight 1
/// let values = g.finish(0, 2, 4.0, 2);
/// // 4 / (2 · 1) · 2 · (3 / (4 · 0.25)) / (2π · 0.5)
/// assert!((values[1] - 12.0 / std::f64::consts::PI).abs() < 1e-12);
/// assert_eq!(values[2], 0.0);
/// assert!(values[0].is_nan());
/// # Ok::<(), experiments::metrics::r_grid::GridError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct KernelPairCorrelation {
    grid: RGrid,
    half_width: f64,
    channels: usize,
    /// `sums[k · channels + c]`: channel `c`'s kernel sum at `r_k`.
    sums: Vec<f64>,
}

impl KernelPairCorrelation {
    /// An empty accumulator of `channels` estimates on `grid` with the kernel half-width `h`.
    /// Panics unless `h` is finite and positive and there is a channel.
    pub fn new(grid: &RGrid, half_width: f64, channels: usize) -> Self {
        assert!(half_width.is_finite() && half_width > 0.0, "kernel half-width must be positive");
        assert!(channels > 0, "at least one channel");
        let sums = vec![0.0; grid.values().len() * channels];
        KernelPairCorrelation { grid: grid.clone(), half_width, channels, sums }
    }

    /// The kernel's half-width `h`.
    pub fn half_width(&self) -> f64 {
        self.half_width
    }

    /// Pairs at least this far apart (`r_max + h`) add nothing.
    pub fn reach(&self) -> f64 {
        self.grid.r_max() + self.half_width
    }

    /// Adds pairs at distance `d` with total weight `weights[c]` in channel `c` (the sum of
    /// the ordered pairs' edge-correction weights).
    pub fn add(&mut self, d: f64, weights: &[f64]) {
        debug_assert_eq!(weights.len(), self.channels);
        let h = self.half_width;
        let r = self.grid.values();
        // The first grid value inside the kernel's support, r_k > d − h.
        let first = self.grid.count_at_most(d - h);
        for (k, &rk) in r.iter().enumerate().skip(first) {
            let u = (rk - d) / h;
            if u >= 1.0 {
                break;
            }
            let kernel = 0.75 / h * (1.0 - u * u);
            let sums = &mut self.sums[k * self.channels..(k + 1) * self.channels];
            for (sum, w) in sums.iter_mut().zip(weights) {
                *sum += w * kernel;
            }
        }
    }

    /// Channel `channel`'s `g` on the grid for `n` points in a box of volume `volume` in
    /// `dim` dimensions (NaN for fewer than two points, and at `r = 0` when `dim ≥ 2`).
    pub fn finish(&self, channel: usize, dim: usize, volume: f64, n: usize) -> Vec<f64> {
        let n = n as f64;
        let pairs = n * (n - 1.0);
        let sphere = dim as f64 * unit_ball_volume(dim);
        self.grid
            .values()
            .iter()
            .enumerate()
            .map(|(k, &r)| {
                let sum = self.sums[k * self.channels + channel];
                let shell = sphere * r.powi(dim as i32 - 1);
                if pairs > 0.0 && shell > 0.0 { volume / pairs * sum / shell } else { f64::NAN }
            })
            .collect()
    }
}
