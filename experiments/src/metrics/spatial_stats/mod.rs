//! The summary functions of spatial statistics on a grid of distances `r`: Ripley's K and
//! L, the pair correlation g, the nearest-neighbour distance distribution G, the empty-space
//! function F and J = (1 − G)/(1 − F), with their edge corrections, in a closed or periodic
//! box of any dimension.
//!
//! The definitions and conventions are spatstat's (Baddeley, Rubak & Turner), so that in 2D
//! the numbers coincide with `Kest`, `Lest`, `pcf`, `Gest`, `Fest` and `Jest` given the same
//! points, grid and (for F) probes; docs/metrics.md ("Spatial statistics") writes them out
//! and gives the measured agreement. One call, [`spatial_stats`], computes every function
//! with every correction that applies:
//!
//! | function | closed box | periodic box |
//! | --- | --- | --- |
//! | K, L, g | `none`, `translation`, `isotropic` (2D) | `periodic` |
//! | G, F, J | `raw`, `rs` (border), `km` (Kaplan–Meier) | `periodic` |
//!
//! A periodic box needs no correction: toroidal (minimum-image) distances, every pair weight 1
//! (the translation weight is 1 there) and nothing censored.
//!
//! ```
//! use experiments::metrics::spatial_stats::{Correction, RGrid, SpatialStatsOptions, spatial_stats};
//! use poisson_nd::Domain;
//! let square = Domain::<2>::unit();
//! let points = [[0.2, 0.3], [0.25, 0.3], [0.7, 0.8], [0.5, 0.5]];
//! let grid = RGrid::uniform(0.25, 50)?;
//! let stats = spatial_stats(&points, &square, &grid, &SpatialStatsOptions::default())?;
//! let g = stats.nearest_neighbour.values(Correction::Raw).unwrap();
//! assert_eq!(g[0], 0.0);
//! assert_eq!(g[50], 0.5); // two of the four points have a neighbour closer than 0.25
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod censored;

use crate::format::exact;
use crate::metrics::edge_correction::{distance_to_boundary, isotropic_weight, translation_weight};
use crate::metrics::pair_correlation::{KernelPairCorrelation, STOYAN, stoyan_half_width};
pub use crate::metrics::r_grid::{GridError, RGrid};
use crate::metrics::{NeighbourIndex, unit_ball_volume};
use censored::distance_distribution;
use poisson_nd::{Domain, Point};
use serde::Serialize;
use std::io::{self, Write};

/// The default number of steps of the `r` grid (513 values, as spatstat's `Kest`).
pub const DEFAULT_STEPS: usize = 512;

/// The default number of probes of F, about `128²` in every dimension (spatstat's default
/// 128 × 128 pixels in 2D): per axis the smallest `m` with `m^D ≥ 16384`.
pub const DEFAULT_PROBES: u64 = 16_384;

/// The most probes F may use.
pub const MAX_PROBES: u64 = 100_000_000;

/// The expected number of neighbours within the default `r_max` is at most this (spatstat's
/// rule for K): it keeps the pair counting near `1000 N` pairs for large sets.
const NEIGHBOURS_AT_DEFAULT_RMAX: f64 = 1000.0;

/// What is wrong with a grid or the options; one line naming the value.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StatsError {
    /// The grid itself.
    #[error(transparent)]
    Grid(#[from] GridError),
    /// `r_max` beyond half the shortest side.
    #[error("r_max {r_max} exceeds half the shortest side of the box ({limit})")]
    RMaxTooLarge {
        /// The grid's largest `r`.
        r_max: f64,
        /// Half the shortest side.
        limit: f64,
    },
    /// The kernel coefficient or half-width is not finite and positive.
    #[error("the kernel {what} must be finite and positive, got {value}")]
    Kernel {
        /// `"coefficient"` or `"half-width"`.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// Too few or too many probes.
    #[error("{0} probes per axis: there must be at least 1, and at most {MAX_PROBES} in all")]
    Probes(usize),
}

/// The default grid for `n` points in `domain`: [`DEFAULT_STEPS`] steps up to
/// [`default_r_max`].
pub fn default_grid<const D: usize>(domain: &Domain<D>, n: usize) -> RGrid {
    RGrid::uniform(default_r_max(domain, n), DEFAULT_STEPS).expect("a positive default")
}

/// The default largest `r`: a quarter of the shortest side, or the radius holding 1000
/// neighbours on average (`λ V_D r^D = 1000`) if that is smaller. In 2D this is spatstat's
/// rule for K (`min(shortside/4, sqrt(1000/(π λ)))`); the same two limits in every dimension.
pub fn default_r_max<const D: usize>(domain: &Domain<D>, n: usize) -> f64 {
    let quarter = shortest_side(domain) / 4.0;
    let intensity = n as f64 / domain.volume();
    let crowded =
        (NEIGHBOURS_AT_DEFAULT_RMAX / (intensity * unit_ball_volume(D))).powf(1.0 / D as f64);
    if crowded.is_finite() && crowded > 0.0 { quarter.min(crowded) } else { quarter }
}

fn shortest_side<const D: usize>(domain: &Domain<D>) -> f64 {
    domain.extent().iter().copied().fold(f64::INFINITY, f64::min)
}

/// The knobs of [`spatial_stats`].
#[derive(Debug, Clone, PartialEq)]
pub struct SpatialStatsOptions {
    /// Coefficient of Stoyan's rule for the pair correlation's kernel half-width,
    /// `h = coefficient / λ^(1/D)` (spatstat's `stoyan`, default 0.15).
    pub stoyan: f64,
    /// The kernel half-width `h` itself, overriding the rule.
    pub half_width: Option<f64>,
    /// Probes of F per axis, on the centres of a regular grid of cells over the box; `None`:
    /// per axis the smallest `m` with `m^D ≥` [`DEFAULT_PROBES`] (128 in 2D, 26 in 3D).
    pub probes_per_axis: Option<usize>,
}

impl Default for SpatialStatsOptions {
    fn default() -> Self {
        SpatialStatsOptions { stoyan: STOYAN, half_width: None, probes_per_axis: None }
    }
}

/// The smallest `m` with `m^dim ≥ total`.
fn per_axis_for(total: u64, dim: usize) -> usize {
    let mut m = (total as f64).powf(1.0 / dim as f64).floor().max(1.0) as u64;
    while m.checked_pow(dim as u32).is_some_and(|p| p < total) {
        m += 1;
    }
    m as usize
}

/// An edge correction: how an estimate treats the boundary of the box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Correction {
    /// No correction (spatstat `un`): every pair weight 1, in a closed box.
    #[serde(rename = "none")]
    None,
    /// Translation (spatstat `trans`): pair weight `Π_a L_a / (L_a − |x_ia − x_ja|)`.
    #[serde(rename = "translation")]
    Translation,
    /// Ripley's isotropic correction (spatstat `iso`), 2D: pair weight 1 / the fraction of
    /// the circle about `x_i` through `x_j` inside the box.
    #[serde(rename = "isotropic")]
    Isotropic,
    /// Periodic box: toroidal distances, weight 1, nothing censored.
    #[serde(rename = "periodic")]
    Periodic,
    /// Uncorrected distance distribution (spatstat `raw`).
    #[serde(rename = "raw")]
    Raw,
    /// Border or reduced-sample estimate (spatstat `rs`): only items at least `r` from the
    /// boundary.
    #[serde(rename = "rs")]
    Border,
    /// Kaplan–Meier estimate (spatstat `km`), the boundary distance as censoring.
    #[serde(rename = "km")]
    KaplanMeier,
}

impl Correction {
    /// The name in JSON and in the CSV header.
    pub fn name(self) -> &'static str {
        match self {
            Correction::None => "none",
            Correction::Translation => "translation",
            Correction::Isotropic => "isotropic",
            Correction::Periodic => "periodic",
            Correction::Raw => "raw",
            Correction::Border => "rs",
            Correction::KaplanMeier => "km",
        }
    }
}

/// One estimate of a summary function: its correction and its values on the grid.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CorrectedEstimate {
    /// The edge correction.
    pub correction: Correction,
    /// One value per `r` of the grid (NaN where undefined: `null` in JSON).
    pub values: Vec<f64>,
}

/// A summary function on the grid: its value for a Poisson process and its estimates.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SummaryFunction {
    /// `"K"`, `"L"`, `"g"`, `"G"`, `"F"` or `"J"`.
    pub name: &'static str,
    /// The value for a Poisson process of the same intensity (spatstat's `theo`).
    pub poisson: Vec<f64>,
    /// The estimate to show when only one is shown: `periodic` in a periodic box, else
    /// `isotropic` (2D) or `translation` for K, L and g, `km` for G, F and J.
    pub preferred: Correction,
    /// The estimates, one per correction.
    pub estimates: Vec<CorrectedEstimate>,
}

impl SummaryFunction {
    /// The values of the estimate with `correction`, if computed.
    pub fn values(&self, correction: Correction) -> Option<&[f64]> {
        self.estimates.iter().find(|e| e.correction == correction).map(|e| e.values.as_slice())
    }

    /// The file `analyze --stats-out` writes it to: `K.csv`, `L.csv`, `pcf.csv` (g: a
    /// name that stays apart from `G.csv` on case-insensitive file systems), `G.csv`,
    /// `F.csv`, `J.csv`.
    pub fn file_name(&self) -> String {
        match self.name {
            "g" => "pcf.csv".to_string(),
            name => format!("{name}.csv"),
        }
    }

    /// The values of the preferred estimate.
    pub fn preferred_values(&self) -> &[f64] {
        self.values(self.preferred).expect("the preferred estimate is computed")
    }

    /// Writes the function as CSV: a header `r,poisson,<correction>...` and one row per `r`
    /// (docs/formats.md, "Spatial statistics"). Numbers in Rust's shortest round-trip form
    /// ([`exact`]), `NaN` where undefined.
    pub fn write_csv<W: Write>(&self, r: &[f64], out: W) -> io::Result<()> {
        let mut out = io::BufWriter::new(out);
        write!(out, "r,poisson")?;
        for e in &self.estimates {
            write!(out, ",{}", e.correction.name())?;
        }
        writeln!(out)?;
        for (k, &r) in r.iter().enumerate() {
            write!(out, "{},{}", exact(r), exact(self.poisson[k]))?;
            for e in &self.estimates {
                write!(out, ",{}", exact(e.values[k]))?;
            }
            writeln!(out)?;
        }
        out.flush()
    }
}

/// F's probes: the centres of `per_axis^D` equal cells over the box.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ProbeGrid {
    /// Cells per axis.
    pub per_axis: usize,
    /// Probes in all.
    pub count: u64,
}

/// Every summary function of a point set on one grid of `r`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpatialStats {
    /// Dimension.
    pub dim: usize,
    /// Number of points.
    pub n: usize,
    /// Volume (area in 2D) of the box.
    pub volume: f64,
    /// Intensity `λ = n / volume`.
    pub intensity: f64,
    /// Whether the box is periodic.
    pub periodic: bool,
    /// The grid.
    pub r: Vec<f64>,
    /// Half-width `h` of the pair correlation's Epanechnikov kernel.
    pub kernel_half_width: f64,
    /// F's probes.
    pub probes: ProbeGrid,
    /// Ripley's K: `K(r) = |W| / (n (n − 1)) · Σ_{i ≠ j, d_ij < r} w_ij`.
    #[serde(rename = "K")]
    pub k: SummaryFunction,
    /// L = (K / V_D)^(1/D) (`sqrt(K / π)` in 2D).
    #[serde(rename = "L")]
    pub l: SummaryFunction,
    /// The pair correlation function, Epanechnikov kernel, divisor `r`.
    #[serde(rename = "g")]
    pub pair_correlation: SummaryFunction,
    /// G, the distribution of the nearest-neighbour distance.
    #[serde(rename = "G")]
    pub nearest_neighbour: SummaryFunction,
    /// F, the empty-space function: the distribution of the distance from a probe to the
    /// nearest point.
    #[serde(rename = "F")]
    pub empty_space: SummaryFunction,
    /// J = (1 − G) / (1 − F), correction by correction (NaN where F = 1).
    #[serde(rename = "J")]
    pub j: SummaryFunction,
}

impl SpatialStats {
    /// The six functions, in the order K, L, g, G, F, J.
    pub fn functions(&self) -> [&SummaryFunction; 6] {
        [
            &self.k,
            &self.l,
            &self.pair_correlation,
            &self.nearest_neighbour,
            &self.empty_space,
            &self.j,
        ]
    }
}

/// Every summary function of `points` (inside `domain`) on `grid`, with every correction that
/// applies (see the module's table). Errors, naming the value, when the grid goes beyond half
/// the shortest side or an option is out of range.
///
/// Cost: one pass over the pairs closer than `r_max + h` (k-d tree), a nearest-neighbour
/// query per point and per probe.
pub fn spatial_stats<const D: usize>(
    points: &[Point<D>],
    domain: &Domain<D>,
    grid: &RGrid,
    options: &SpatialStatsOptions,
) -> Result<SpatialStats, StatsError> {
    spatial_stats_in(&NeighbourIndex::new(points, domain), grid, options)
}

/// [`spatial_stats`] on an index that is already built.
pub fn spatial_stats_in<const D: usize>(
    index: &NeighbourIndex<D>,
    grid: &RGrid,
    options: &SpatialStatsOptions,
) -> Result<SpatialStats, StatsError> {
    let domain = index.domain();
    let limit = shortest_side(domain) / 2.0;
    let r_max = grid.r_max();
    if r_max > limit {
        return Err(StatsError::RMaxTooLarge { r_max, limit });
    }
    if !(options.stoyan.is_finite() && options.stoyan > 0.0) {
        return Err(StatsError::Kernel { what: "coefficient", value: options.stoyan });
    }
    if let Some(h) = options.half_width
        && !(h.is_finite() && h > 0.0)
    {
        return Err(StatsError::Kernel { what: "half-width", value: h });
    }
    let per_axis = options.probes_per_axis.unwrap_or_else(|| per_axis_for(DEFAULT_PROBES, D));
    let count = (per_axis as u64).checked_pow(D as u32).filter(|&c| c <= MAX_PROBES);
    let Some(count) = count.filter(|_| per_axis >= 1) else {
        return Err(StatsError::Probes(per_axis));
    };
    let probes = ProbeGrid { per_axis, count };

    let r = grid.values();
    let n = index.len();
    let volume = domain.volume();
    let intensity = n as f64 / volume;
    let periodic = domain.is_periodic();
    let ball = unit_ball_volume(D);
    // With fewer than two points the rule has no spacing to scale; any positive width does.
    let half_width = options.half_width.unwrap_or_else(|| {
        let h = stoyan_half_width(options.stoyan, intensity, D);
        if h.is_finite() && h > 0.0 { h } else { r_max }
    });

    let pairs = pair_functions(index, grid, half_width);
    let preferred_pairs = if periodic {
        Correction::Periodic
    } else if D == 2 {
        Correction::Isotropic
    } else {
        Correction::Translation
    };
    let poisson_k: Vec<f64> = r.iter().map(|r| ball * r.powi(D as i32)).collect();
    let k = SummaryFunction {
        name: "K",
        poisson: poisson_k,
        preferred: preferred_pairs,
        estimates: pairs.k,
    };
    let l = SummaryFunction {
        name: "L",
        poisson: r.to_vec(),
        preferred: preferred_pairs,
        estimates: k
            .estimates
            .iter()
            .map(|e| CorrectedEstimate {
                correction: e.correction,
                values: e.values.iter().map(|k| (k / ball).powf(1.0 / D as f64)).collect(),
            })
            .collect(),
    };
    let pair_correlation = SummaryFunction {
        name: "g",
        poisson: vec![1.0; r.len()],
        preferred: preferred_pairs,
        estimates: pairs.g,
    };

    let poisson_cdf: Vec<f64> =
        r.iter().map(|r| 1.0 - (-intensity * ball * r.powi(D as i32)).exp()).collect();
    let preferred_distances = if periodic { Correction::Periodic } else { Correction::KaplanMeier };
    let nearest = {
        let nn = index.nearest_neighbour_distances();
        let boundary: Vec<f64> =
            index.points().iter().map(|p| distance_to_boundary(domain, p)).collect();
        distance_estimates(&nn, &boundary, grid, periodic)
    };
    let empty = {
        let (distances, boundary) = probe_distances(index, per_axis);
        distance_estimates(&distances, &boundary, grid, periodic)
    };
    let j_estimates = nearest
        .iter()
        .zip(&empty)
        .map(|(g, f)| CorrectedEstimate {
            correction: g.correction,
            values: g
                .values
                .iter()
                .zip(&f.values)
                .map(|(g, f)| if *f == 1.0 { f64::NAN } else { (1.0 - g) / (1.0 - f) })
                .collect(),
        })
        .collect();
    Ok(SpatialStats {
        dim: D,
        n,
        volume,
        intensity,
        periodic,
        r: r.to_vec(),
        kernel_half_width: half_width,
        probes,
        k,
        l,
        pair_correlation,
        nearest_neighbour: SummaryFunction {
            name: "G",
            poisson: poisson_cdf.clone(),
            preferred: preferred_distances,
            estimates: nearest,
        },
        empty_space: SummaryFunction {
            name: "F",
            poisson: poisson_cdf,
            preferred: preferred_distances,
            estimates: empty,
        },
        j: SummaryFunction {
            name: "J",
            poisson: vec![1.0; r.len()],
            preferred: preferred_distances,
            estimates: j_estimates,
        },
    })
}

/// K and g with their corrections.
struct PairFunctions {
    k: Vec<CorrectedEstimate>,
    g: Vec<CorrectedEstimate>,
}

/// One pass over the pairs closer than `r_max + h`: K's weighted counts per grid interval
/// and g's kernel sums, for every correction at once.
fn pair_functions<const D: usize>(
    index: &NeighbourIndex<D>,
    grid: &RGrid,
    half_width: f64,
) -> PairFunctions {
    let domain = index.domain();
    let corrections: &[Correction] = if domain.is_periodic() {
        &[Correction::Periodic]
    } else if D == 2 {
        &[Correction::None, Correction::Translation, Correction::Isotropic]
    } else {
        &[Correction::None, Correction::Translation]
    };
    let channels = corrections.len();
    let r = grid.values();
    let m = r.len();
    // counts[k · channels + c]: correction c's weight of the pairs in grid interval k.
    let mut counts = vec![0.0f64; (m + 1) * channels];
    let mut kernel = KernelPairCorrelation::new(grid, half_width, channels);
    let reach = kernel.reach();
    let extent = *domain.extent();
    let origin2 = [domain.origin()[0], domain.origin().get(1).copied().unwrap_or(0.0)];
    let extent2 = [extent[0], extent.get(1).copied().unwrap_or(0.0)];
    let sites = index.sites();
    let mut weights = [0.0f64; 3];
    let weights = &mut weights[..channels];
    index.for_each_pair_within(reach, |a, b, d2, pairs| {
        let d = d2.sqrt();
        let ordered = 2.0 * pairs as f64;
        for (c, w) in corrections.iter().zip(weights.iter_mut()) {
            *w = match c {
                Correction::Translation => {
                    ordered * translation_weight(&extent, &sites[a], &sites[b])
                }
                Correction::Isotropic => {
                    // Only in 2D: the slices have two coordinates.
                    let (p, q) = (&sites[a][..], &sites[b][..]);
                    let (p, q) = ([p[0], p[1]], [q[0], q[1]]);
                    pairs as f64
                        * (isotropic_weight(&origin2, &extent2, &p, d)
                            + isotropic_weight(&origin2, &extent2, &q, d))
                }
                _ => ordered,
            };
        }
        // K(r_k) counts d < r_k: from the first grid value above d on.
        let k = grid.count_at_most(d);
        for (count, w) in counts[k * channels..(k + 1) * channels].iter_mut().zip(weights.iter()) {
            *count += w;
        }
        kernel.add(d, weights);
    });
    let n = index.len() as f64;
    let scale = domain.volume() / (n * (n - 1.0));
    let k = corrections
        .iter()
        .enumerate()
        .map(|(c, &correction)| {
            let mut sum = 0.0;
            let values = (0..m)
                .map(|k| {
                    sum += counts[k * channels + c];
                    if n >= 2.0 { scale * sum } else { f64::NAN }
                })
                .collect();
            CorrectedEstimate { correction, values }
        })
        .collect();
    let g = corrections
        .iter()
        .enumerate()
        .map(|(c, &correction)| CorrectedEstimate {
            correction,
            values: kernel.finish(c, D, domain.volume(), index.len()),
        })
        .collect();
    PairFunctions { k, g }
}

/// The distance distribution's estimates: `raw`, `rs`, `km` in a closed box, the one
/// `periodic` estimate (all three coincide) in a periodic one.
fn distance_estimates(
    distances: &[f64],
    boundary: &[f64],
    grid: &RGrid,
    periodic: bool,
) -> Vec<CorrectedEstimate> {
    let est = distance_distribution(distances, boundary, grid);
    if periodic {
        return vec![CorrectedEstimate { correction: Correction::Periodic, values: est.raw }];
    }
    vec![
        CorrectedEstimate { correction: Correction::Raw, values: est.raw },
        CorrectedEstimate { correction: Correction::Border, values: est.border },
        CorrectedEstimate { correction: Correction::KaplanMeier, values: est.kaplan_meier },
    ]
}

/// The probes' distances to the nearest point and to the boundary: the centres of
/// `per_axis^D` equal cells, `origin_a + (j_a + ½) L_a / per_axis`.
fn probe_distances<const D: usize>(
    index: &NeighbourIndex<D>,
    per_axis: usize,
) -> (Vec<f64>, Vec<f64>) {
    let domain = index.domain();
    let (origin, extent) = (domain.origin(), domain.extent());
    let step: [f64; D] = std::array::from_fn(|a| extent[a] / per_axis as f64);
    let mut digits = [0usize; D];
    let mut distances = Vec::new();
    let mut boundary = Vec::new();
    loop {
        let q: Point<D> = std::array::from_fn(|a| origin[a] + (digits[a] as f64 + 0.5) * step[a]);
        distances.push(index.nearest(&q).map_or(f64::INFINITY, |(_, d)| d));
        boundary.push(distance_to_boundary(domain, &q));
        let mut a = 0;
        while a < D {
            digits[a] += 1;
            if digits[a] < per_axis {
                break;
            }
            digits[a] = 0;
            a += 1;
        }
        if a == D {
            return (distances, boundary);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_probes_per_axis() {
        let per_axis: Vec<usize> = (1..=8).map(|d| per_axis_for(DEFAULT_PROBES, d)).collect();
        assert_eq!(per_axis, [16384, 128, 26, 12, 7, 6, 4, 4]);
    }

    #[test]
    fn default_r_max_is_spatstats_rule_in_2d() {
        let rectangle = Domain::from_origin_and_extent([0.0, 0.0], [2.0, 1.0]).unwrap();
        assert_eq!(default_r_max(&rectangle, 100), 0.25);
        // 10^5 points: the radius holding 1000 neighbours, sqrt(1000 / (π λ)).
        let want = (1000.0 / (std::f64::consts::PI * 50_000.0)).sqrt();
        assert!((default_r_max(&rectangle, 100_000) - want).abs() < 1e-15);
        assert_eq!(default_r_max(&rectangle, 0), 0.25);
    }

    #[test]
    fn bad_options_are_refused() {
        let square = Domain::<2>::unit();
        let points = [[0.5, 0.5], [0.2, 0.7]];
        let grid = RGrid::uniform(0.6, 10).unwrap();
        let options = SpatialStatsOptions::default();
        let err = spatial_stats(&points, &square, &grid, &options).unwrap_err();
        assert_eq!(err, StatsError::RMaxTooLarge { r_max: 0.6, limit: 0.5 });
        let grid = RGrid::uniform(0.2, 10).unwrap();
        for (options, what) in [
            (SpatialStatsOptions { stoyan: 0.0, ..Default::default() }, "coefficient"),
            (
                SpatialStatsOptions { half_width: Some(f64::NAN), ..Default::default() },
                "half-width",
            ),
        ] {
            let err = spatial_stats(&points, &square, &grid, &options).unwrap_err();
            assert!(matches!(err, StatsError::Kernel { what: w, .. } if w == what), "{err}");
        }
        for m in [0, 10_001] {
            let options = SpatialStatsOptions { probes_per_axis: Some(m), ..Default::default() };
            let err = spatial_stats(&points, &square, &grid, &options).unwrap_err();
            assert_eq!(err, StatsError::Probes(m));
        }
    }
}
