//! The one analysis of a point set: every metric of [`crate::metrics`], computed by
//! [`analyze`] for `experiments analyze` (as a table, [`table::render`], or JSON) and for
//! every realisation of the report (whose scalars are [`Analysis::metrics`]).
//!
//! Adding a metric: compute it in [`analyze`] (a field of [`Analysis`]), name it in
//! [`Analysis::metrics`] if it is a scalar (it then reaches `results.csv`, the report's tables
//! and `analyze --json`'s `metrics`), define it in the report's glossary and docs/metrics.md,
//! and show it in [`table::render`].

pub mod command;
pub mod table;

pub use command::{AnalyzeArgs, run};

use crate::dims::Dim;
use crate::format::short;
use crate::metrics::baseline::{SimulatedReference, WhiteNoiseTheory, simulate_white_noise};
use crate::metrics::nearest_neighbour::{NearestNeighbourStats, clark_evans, cluster_rate};
use crate::metrics::pair_correlation::stoyan_half_width;
use crate::metrics::relative_radius::{RelativeRadius, max_spacing, relative_radius_from};
use crate::metrics::spatial_stats::{
    RGrid, SpatialStats, SpatialStatsOptions, default_r_max, spatial_stats_in,
};
use crate::metrics::spectrum::{
    Periodogram, RadialSpectrum, SpectrumAccumulator, SpectrumOptions, half_lattice_size,
    periodogram_half_width,
};
use crate::metrics::{
    Coverage, Estimate, NeighbourIndex, PairCorrelation, PairRule, VaryingRadiusStats, coverage,
    l2_star_discrepancy_squared, nearest_neighbour_stats, pair_correlation_in,
    pairs::pairs_closer_than_in, unit_ball_volume, varying_radius_stats,
};
use poisson_nd::{Domain, Point};
use serde::Serialize;

/// A length the pair correlation's range is measured in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum LengthUnit {
    /// The analysis radius `r`.
    Radius,
    /// `d_max`, the spacing of as many points in the densest lattice packing.
    MaxSpacing,
}

/// The pair correlation function's bins.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairCorrelationOptions {
    /// Number of bins.
    pub bins: usize,
    /// Upper end, in `unit`s (capped at half the shortest side by the metric).
    pub range: f64,
    /// The unit of `range`.
    pub unit: LengthUnit,
}

/// The summary functions of spatial statistics to compute ([`AnalyzeOptions::spatial_stats`],
/// `analyze --stats`).
#[derive(Debug, Clone, PartialEq)]
pub struct StatsRequest {
    /// The largest `r`; `None`: [`default_r_max`].
    pub r_max: Option<f64>,
    /// Steps of the `r` grid.
    pub steps: usize,
    /// The kernel of g and the probes of F.
    pub options: SpatialStatsOptions,
}

impl Default for StatsRequest {
    fn default() -> Self {
        StatsRequest {
            r_max: None,
            steps: crate::metrics::spatial_stats::DEFAULT_STEPS,
            options: SpatialStatsOptions::default(),
        }
    }
}

/// The knobs of [`analyze`], with the command line's defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalyzeOptions {
    /// The radius of the r-dependent metrics (cluster rate, close pairs, coverage, the
    /// nominal relative radius); default half the densest-packing spacing, `d_max / 2`.
    pub radius: Option<f64>,
    /// Bins of the nearest-neighbour histogram.
    pub histogram_bins: usize,
    /// Upper end of the nearest-neighbour histogram in units of the radius; `None`: the
    /// largest nearest-neighbour distance.
    pub histogram_range: Option<f64>,
    /// Coverage probes.
    pub probes: usize,
    /// Seed of the coverage probes and of the simulated reference.
    pub seed: u64,
    /// Simulated white-noise realisations for closed boxes (0: none).
    pub reference_realisations: usize,
    /// Spectrum range in units of `N₀^(1/D)`.
    pub spectrum_multiple: f64,
    /// Leave the frequency axes out of the spectrum summary.
    pub exclude_axes: bool,
    /// 2D only: also keep the periodogram on `[-m, m]²`, `m` this multiple of `√N₀` (see
    /// [`periodogram_half_width`]); `None`: no periodogram.
    pub periodogram_multiple: Option<f64>,
    /// `N₀`, the count that sets the spectrum's range and the cost limits below; `None`:
    /// the number of points. The report passes its dimension's nominal count, so that every
    /// realisation gets the same frequencies and the same skips.
    pub nominal_count: Option<usize>,
    /// The spectrum is skipped when `N₀` × frequencies exceeds this (about a second of
    /// work per 10⁹).
    pub spectrum_budget: f64,
    /// The discrepancy (O(N²)) is skipped when `N₀` exceeds this.
    pub discrepancy_max_points: usize,
    /// The pair correlation function's bins.
    pub pair_correlation: PairCorrelationOptions,
    /// The pair statistics (close pairs, pair correlation, per-point radii) are skipped,
    /// with a note, when they would visit more pairs of distinct locations than this or 16
    /// times what a uniform set of as many points would have, whichever is larger: piles
    /// of near-duplicate points would otherwise cost time quadratic in their size.
    /// (Identical points are counted together and never cost more than one location.)
    pub pair_budget: u64,
    /// The summary functions of spatial statistics (K, L, g, G, F, J); `None`: not computed.
    /// They visit the pairs closer than `r_max + h` and are skipped, with a note, when those
    /// pass the pair budget.
    pub spatial_stats: Option<StatsRequest>,
}

/// The default [`AnalyzeOptions::pair_budget`]: pairs of locations, a few seconds of work.
pub const PAIR_BUDGET: u64 = 100_000_000;

/// The default spectrum budget (points × frequencies).
pub const SPECTRUM_BUDGET: f64 = 4e9;

/// The default largest `N₀` whose L2-star discrepancy is computed.
pub const DISCREPANCY_MAX_POINTS: usize = 20_000;

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions {
            radius: None,
            histogram_bins: 20,
            histogram_range: None,
            probes: 100_000,
            seed: 0,
            reference_realisations: 16,
            spectrum_multiple: crate::metrics::spectrum::DEFAULT_FREQUENCY_MULTIPLE,
            exclude_axes: false,
            periodogram_multiple: None,
            nominal_count: None,
            spectrum_budget: SPECTRUM_BUDGET,
            discrepancy_max_points: DISCREPANCY_MAX_POINTS,
            pair_correlation: PairCorrelationOptions {
                bins: 25,
                range: 2.5,
                unit: LengthUnit::MaxSpacing,
            },
            pair_budget: PAIR_BUDGET,
            spatial_stats: None,
        }
    }
}

/// The box the points were measured in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DomainInfo {
    /// Lower corner.
    pub origin: Vec<f64>,
    /// Side lengths.
    pub extent: Vec<f64>,
    /// Periodic (torus) or closed.
    pub periodic: bool,
    /// Volume.
    pub volume: f64,
}

/// The radius the r-dependent metrics use, and where it came from.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RadiusInfo {
    /// The radius.
    pub value: f64,
    /// `"given"` (from `--radius`) or `"d_max/2"` (half the densest-packing spacing).
    pub source: &'static str,
}

/// White-noise expectations at the same N in the same domain.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WhiteNoiseComparison {
    /// Mean NN distance of a Poisson process without boundary.
    pub mean_nn_infinite: f64,
    /// Exact mean NN on the torus (periodic domains).
    pub mean_nn_torus: Option<f64>,
    /// Clark–Evans R against the infinite formula.
    pub clark_evans_infinite: Option<f64>,
    /// Clark–Evans R against the boundary-aware reference (torus formula or simulation).
    pub clark_evans_boundary: Option<f64>,
    /// Cluster rate `1 − exp(−ρ V_D r^D)`.
    pub cluster_rate_infinite: f64,
    /// Exact cluster rate on the torus (periodic domains).
    pub cluster_rate_torus: Option<f64>,
    /// Pairs closer than r on the torus: mean and standard deviation (periodic domains).
    pub pairs_closer_torus: Option<Estimate>,
    /// Simulated reference in the same closed box.
    pub simulated: Option<SimulatedReference>,
    /// Whether r exceeds half the shortest side, where the torus formulas stop being exact.
    pub radius_exceeds_half_side: bool,
}

/// The L2-star discrepancy of the points mapped onto the unit cube.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct DiscrepancyReport {
    /// L2-star discrepancy.
    pub l2_star: f64,
    /// Its square.
    pub l2_star_squared: f64,
    /// `E[(L2*)²]` for white noise of the same size, `(2^−D − 3^−D) / N`.
    pub white_noise_squared: f64,
}

/// Per-point radii (a file's radius column) and the rule each pair is checked against.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointRadii<'a> {
    /// The column's name in the file.
    pub column: &'a str,
    /// One radius per point, finite and positive.
    pub values: &'a [f64],
    /// The distance a pair must keep.
    pub rule: PairRule,
}

/// The varying-radius section of an [`Analysis`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VaryingRadius {
    /// The column the radii came from.
    pub column: String,
    /// What the radii say about the set.
    #[serde(flatten)]
    pub stats: VaryingRadiusStats,
}

/// Every metric of one point set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Analysis {
    /// Dimension.
    pub dim: usize,
    /// Number of points.
    pub n: usize,
    /// The domain.
    pub domain: DomainInfo,
    /// The radius for the r-dependent metrics.
    pub radius: RadiusInfo,
    /// Nearest-neighbour statistics (`None` for a single point).
    pub nearest_neighbour: Option<NearestNeighbourStats>,
    /// Fraction of points whose nearest neighbour is closer than `radius` (`None` below
    /// two points).
    pub cluster_rate: Option<f64>,
    /// Unordered pairs closer than `radius` (`None` when the pair statistics were skipped,
    /// see [`AnalyzeOptions::pair_budget`]).
    pub pairs_closer: Option<u64>,
    /// Minimum pairwise distance.
    pub min_distance: Option<f64>,
    /// White-noise expectations.
    pub white_noise: WhiteNoiseComparison,
    /// Relative radius and packing fraction.
    pub relative_radius: Option<RelativeRadius>,
    /// Coverage at `radius`.
    pub coverage: Coverage,
    /// Radial power spectrum (skipped when too expensive).
    pub spectrum: Option<RadialSpectrum>,
    /// The 2D periodogram, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub periodogram: Option<Periodogram>,
    /// Pair correlation function.
    pub pair_correlation: Option<PairCorrelation>,
    /// L2-star discrepancy (skipped for large N).
    pub discrepancy: Option<DiscrepancyReport>,
    /// Pair-rule checks against per-point radii, when the file has a radius column.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub varying_radius: Option<VaryingRadius>,
    /// How the local counts follow a density map, when one is given (`analyze --density`;
    /// set by the command after [`analyze`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub density_follow: Option<crate::metrics::DensityFollow>,
    /// The summary functions of spatial statistics, when asked for
    /// ([`AnalyzeOptions::spatial_stats`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spatial_stats: Option<SpatialStats>,
    /// Remarks: what was skipped and why, what to keep in mind reading a number.
    pub notes: Vec<String>,
}

/// The names of [`Analysis::metrics`], in order: the rows of the report's `results.csv`
/// (after the runner's `attempts`) and the keys of `analyze --json`'s `metrics`.
pub const METRIC_NAMES: [&str; 14] = [
    "min_distance",
    "relative_radius",
    "packing_fraction",
    "cluster_rate",
    "pairs_closer",
    "mean_nn",
    "clark_evans",
    "coverage",
    "l2_star_discrepancy",
    "effective_nyquist",
    "effective_nyquist_over_spacing",
    "spectral_peak_frequency",
    "spectral_peak_power",
    "low_frequency_power",
];

/// The mean power over the lattice frequencies of the rings up to half the spacing frequency,
/// `0 < |k| ≤ ½ N^(1/D)` (cycles per box side): the band below the blue-noise peak, which
/// lies near `N^(1/D)`. White noise 1, step blue noise 0; `None` without such a ring.
pub fn low_frequency_power(spectrum: &RadialSpectrum) -> Option<f64> {
    let top = 0.5 * spectrum.mean_points.powf(1.0 / spectrum.dim as f64);
    let (sum, count) = spectrum
        .rings
        .iter()
        .filter(|ring| ring.radius as f64 <= top && ring.frequencies > 0)
        .fold((0.0, 0usize), |(sum, count), ring| {
            (sum + ring.mean_power * ring.frequencies as f64, count + ring.frequencies)
        });
    (count > 0).then(|| sum / count as f64)
}

impl Analysis {
    /// The scalar metrics under [`METRIC_NAMES`], NaN where a value does not exist or was
    /// skipped. `clark_evans` is against the exact torus mean in a periodic box and the
    /// infinite-plane mean in a closed one.
    pub fn metrics(&self) -> Vec<(&'static str, f64)> {
        let nn = self.nearest_neighbour.as_ref();
        let relative = self.relative_radius.as_ref();
        let spectrum = self.spectrum.as_ref();
        let peak = spectrum.and_then(|s| s.peak.as_ref());
        let white = &self.white_noise;
        let clark_evans = if self.domain.periodic {
            white.clark_evans_boundary
        } else {
            white.clark_evans_infinite
        };
        let values = [
            nn.map(|s| s.min),
            relative.map(|r| r.relative_radius),
            relative.map(|r| r.packing_fraction),
            self.cluster_rate,
            self.pairs_closer.map(|p| p as f64),
            nn.map(|s| s.mean),
            clark_evans,
            Some(self.coverage.fraction),
            self.discrepancy.map(|d| d.l2_star),
            spectrum.map(|s| s.effective_nyquist),
            spectrum.map(|s| s.effective_nyquist_over_spacing),
            peak.map(|p| p.radius as f64),
            peak.map(|p| p.power),
            spectrum.and_then(low_frequency_power),
        ];
        METRIC_NAMES.into_iter().zip(values.map(|v| v.unwrap_or(f64::NAN))).collect()
    }
}

/// Computes every metric of `points` (all inside `domain`).
pub fn analyze<const D: usize>(
    points: &[Point<D>],
    domain: &Domain<D>,
    options: &AnalyzeOptions,
) -> Analysis
where
    Dim<D>: AnalyzeIn<D>,
{
    analyze_with_radii(points, None, domain, options)
}

/// [`analyze`], and with per-point `radii` also the pair-rule checks
/// ([`Analysis::varying_radius`]). The r-dependent metrics keep using the single radius of
/// `options`.
pub fn analyze_with_radii<const D: usize>(
    points: &[Point<D>],
    radii: Option<PointRadii>,
    domain: &Domain<D>,
    options: &AnalyzeOptions,
) -> Analysis
where
    Dim<D>: AnalyzeIn<D>,
{
    Dim::<D>::analyze_with_radii(points, radii, domain, options)
}

/// The analysis, compiled in this crate once for each dimension ([`Dim`]):
/// [`analyze`] and [`analyze_with_radii`] need `Dim<D>: AnalyzeIn<D>`.
pub trait AnalyzeIn<const D: usize> {
    /// [`analyze_with_radii`].
    fn analyze_with_radii(
        points: &[Point<D>],
        radii: Option<PointRadii>,
        domain: &Domain<D>,
        options: &AnalyzeOptions,
    ) -> Analysis;
}

crate::for_every_dim!(impl AnalyzeIn {
    #[inline(never)]
    fn analyze_with_radii(
        points: &[Point<D>],
        radii: Option<PointRadii>,
        domain: &Domain<D>,
        options: &AnalyzeOptions,
    ) -> Analysis {
        analyze_in(points, radii, domain, options)
    }
});

fn analyze_in<const D: usize>(
    points: &[Point<D>],
    radii: Option<PointRadii>,
    domain: &Domain<D>,
    options: &AnalyzeOptions,
) -> Analysis {
    let n = points.len();
    let volume = domain.volume();
    let mut notes = Vec::new();
    let d_max = max_spacing(D, n, volume).unwrap_or(f64::NAN);
    let radius = match options.radius {
        Some(r) => RadiusInfo { value: r, source: "given" },
        None => RadiusInfo { value: d_max / 2.0, source: "d_max/2" },
    };
    let r = radius.value;
    let index = NeighbourIndex::new(points, domain);
    let nn = index.nearest_neighbour_distances();
    let stats = nearest_neighbour_stats(&nn, options.histogram_bins).map(|stats| {
        match options.histogram_range {
            Some(range) => stats.with_histogram_up_to(&nn, range * r, options.histogram_bins),
            None => stats,
        }
    });
    let min_distance = stats.as_ref().map(|s| s.min);
    let white_noise =
        white_noise_comparison(domain, n, r, stats.as_ref().map(|s| s.mean), options, &mut notes);
    let (spectrum, periodogram) = spectrum(points, domain, options, &mut notes);
    let pair_reach = pair_correlation_range(domain, r, d_max, options).max(r);
    let pairs_affordable = pairs_fit(&index, pair_reach, false, options)
        .map_err(|limit| {
            notes.push(format!(
                "the pair statistics (pairs closer than r, pair correlation) were skipped: more \
                 than {limit} pairs of distinct points are closer than {} (piles of \
                 near-duplicate points); raise --max-pairs to measure them anyway",
                short(pair_reach)
            ))
        })
        .is_ok();
    let radii = radii.filter(|radii| {
        let largest = radii.values.iter().copied().fold(0.0, f64::max);
        pairs_fit(&index, largest, true, options)
            .map_err(|limit| {
                notes.push(format!(
                    "the varying-radius checks were skipped: more than {limit} pairs of points \
                     are closer than the largest radius {} (near-duplicate or identical \
                     points); raise --max-pairs to check them anyway",
                    short(largest)
                ))
            })
            .is_ok()
    });
    let varying_radius = radii.map(|radii| {
        notes.push(format!(
            "the cluster rate, close pairs, coverage and nominal relative radius use the one \
             radius r; the '{}' column is checked pair by pair in the varying-radius section",
            radii.column
        ));
        VaryingRadius {
            column: radii.column.to_string(),
            stats: varying_radius_stats(&index, radii.values, radii.rule),
        }
    });
    let spatial_stats = options
        .spatial_stats
        .as_ref()
        .and_then(|request| spatial_stats_of(&index, request, options, &mut notes));
    Analysis {
        dim: D,
        n,
        domain: DomainInfo {
            origin: domain.origin().to_vec(),
            extent: domain.extent().to_vec(),
            periodic: domain.is_periodic(),
            volume,
        },
        radius,
        cluster_rate: (n >= 2).then(|| cluster_rate(&nn, r)),
        pairs_closer: pairs_affordable.then(|| pairs_closer_than_in(&index, r)),
        min_distance,
        nearest_neighbour: stats,
        white_noise,
        relative_radius: min_distance
            .and_then(|d| relative_radius_from(D, n, volume, d, options.radius)),
        coverage: coverage(points, domain, r, options.probes, options.seed),
        spectrum,
        periodogram,
        pair_correlation: pairs_affordable
            .then(|| pair_correlation_of(&index, r, d_max, options))
            .flatten(),
        discrepancy: discrepancy(points, domain, options, &mut notes),
        varying_radius,
        density_follow: None,
        spatial_stats,
        notes,
    }
}

/// The summary functions of spatial statistics, or a note saying why not: the grid is out of
/// range, or the pairs within `r_max + h` pass the pair budget.
fn spatial_stats_of<const D: usize>(
    index: &NeighbourIndex<D>,
    request: &StatsRequest,
    options: &AnalyzeOptions,
    notes: &mut Vec<String>,
) -> Option<SpatialStats> {
    let domain = index.domain();
    let r_max = request.r_max.unwrap_or_else(|| default_r_max(domain, index.len()));
    let grid = RGrid::uniform(r_max, request.steps)
        .map_err(|e| notes.push(format!("spatial statistics skipped: {e}")))
        .ok()?;
    let intensity = index.len() as f64 / domain.volume();
    let half_width = request
        .options
        .half_width
        .unwrap_or_else(|| stoyan_half_width(request.options.stoyan, intensity, D));
    let reach = r_max + if half_width.is_finite() { half_width } else { 0.0 };
    if let Err(limit) = pairs_fit(index, reach, false, options) {
        notes.push(format!(
            "spatial statistics skipped: more than {limit} pairs of distinct points are closer \
             than {} (piles of near-duplicate points); raise --max-pairs to compute them anyway",
            short(reach)
        ));
        return None;
    }
    spatial_stats_in(index, &grid, &request.options)
        .map_err(|e| notes.push(format!("spatial statistics skipped: {e}")))
        .ok()
}

/// The white-noise expectations at `n` points and radius `r`: closed forms, and in a closed
/// box a simulated reference when asked for.
fn white_noise_comparison<const D: usize>(
    domain: &Domain<D>,
    n: usize,
    r: f64,
    observed_mean: Option<f64>,
    options: &AnalyzeOptions,
    notes: &mut Vec<String>,
) -> WhiteNoiseComparison {
    let theory = WhiteNoiseTheory::for_domain(domain, n);
    let shortest = domain.extent().iter().copied().fold(f64::INFINITY, f64::min);
    let periodic = domain.is_periodic();
    let simulated = (!periodic && options.reference_realisations > 0 && n >= 2).then(|| {
        simulate_white_noise(domain, n, Some(r), options.reference_realisations, options.seed)
    });
    let mean_nn_torus = (periodic && n >= 2).then(|| theory.mean_nn_torus());
    let boundary_mean = mean_nn_torus.or(simulated.as_ref().map(|s| s.mean_nn.value));
    let comparison = WhiteNoiseComparison {
        mean_nn_infinite: theory.mean_nn_infinite(),
        mean_nn_torus,
        clark_evans_infinite: observed_mean.map(|m| clark_evans(m, theory.mean_nn_infinite())),
        clark_evans_boundary: observed_mean.zip(boundary_mean).map(|(m, e)| clark_evans(m, e)),
        cluster_rate_infinite: theory.cluster_rate_infinite(r),
        cluster_rate_torus: periodic.then(|| theory.cluster_rate_torus(r)),
        pairs_closer_torus: periodic.then(|| theory.pairs_closer_torus(r)),
        simulated,
        radius_exceeds_half_side: r > shortest / 2.0,
    };
    if periodic && comparison.radius_exceeds_half_side {
        notes.push("r exceeds half the shortest side: the torus formulas are not exact".into());
    }
    if !periodic && options.reference_realisations == 0 {
        notes.push(
            "closed box without a simulated reference: only the infinite-plane formulas, \
             which ignore the faces, are shown"
                .into(),
        );
    }
    comparison
}

/// The radial spectrum up to `spectrum_multiple · N₀^(1/D)`, and the 2D periodogram when
/// asked for; nothing when `N₀` × frequencies is over the budget.
fn spectrum<const D: usize>(
    points: &[Point<D>],
    domain: &Domain<D>,
    options: &AnalyzeOptions,
    notes: &mut Vec<String>,
) -> (Option<RadialSpectrum>, Option<Periodogram>) {
    if !domain.is_periodic() && !options.exclude_axes {
        notes.push(
            "closed box seen as a torus: its faces make a seam, with excess power on the \
             frequency axes (see --exclude-axes)"
                .into(),
        );
    }
    let nominal = options.nominal_count.unwrap_or(points.len());
    let spectrum_options = SpectrumOptions::for_points(D, nominal, options.spectrum_multiple)
        .exclude_axes(options.exclude_axes);
    let frequencies = half_lattice_size(D, spectrum_options.k_max);
    if frequencies * nominal as f64 > options.spectrum_budget {
        notes.push(format!(
            "spectrum skipped: {nominal} points × about {} frequencies is over the budget; \
             lower --spectrum-multiple",
            // Whole below 10^16, in exponent form beyond (not 39 digits).
            if frequencies < 1e16 {
                format!("{frequencies:.0}")
            } else {
                format!("{frequencies:.3e}")
            }
        ));
        return (None, None);
    }
    if points.is_empty() {
        return (None, None);
    }
    let k_max = spectrum_options.k_max;
    let mut accumulator = SpectrumAccumulator::new(spectrum_options);
    accumulator.add(points, domain);
    let periodogram = options
        .periodogram_multiple
        .filter(|_| D == 2)
        .map(|multiple| accumulator.periodogram(periodogram_half_width(nominal, multiple, k_max)));
    (Some(accumulator.radial()), periodogram)
}

/// The pair correlation function, its range in units of `r` or `d_max`.
fn pair_correlation_of<const D: usize>(
    index: &NeighbourIndex<D>,
    r: f64,
    d_max: f64,
    options: &AnalyzeOptions,
) -> Option<PairCorrelation> {
    let range = pair_correlation_range(index.domain(), r, d_max, options);
    let bin_width = range / options.pair_correlation.bins as f64;
    (index.len() >= 2 && bin_width > 0.0 && bin_width.is_finite())
        .then(|| pair_correlation_in(index, bin_width, range))
}

/// The pair correlation function's upper end as asked for (the metric then caps it at half
/// the shortest side).
fn pair_correlation_range<const D: usize>(
    domain: &Domain<D>,
    r: f64,
    d_max: f64,
    options: &AnalyzeOptions,
) -> f64 {
    let bins = &options.pair_correlation;
    let unit = match bins.unit {
        LengthUnit::Radius => r,
        LengthUnit::MaxSpacing => d_max,
    };
    let shortest = domain.extent().iter().copied().fold(f64::INFINITY, f64::min);
    (bins.range * unit).min(shortest / 2.0)
}

/// The most pairs the pair statistics may visit within `reach`: the budget, or 16 times the
/// pairs `n` uniform points would have (`n (n − 1) / 2 · V_D reach^D / V`), if larger.
fn pair_limit<const D: usize>(
    domain: &Domain<D>,
    n: usize,
    reach: f64,
    options: &AnalyzeOptions,
) -> u64 {
    let n = n as f64;
    let fraction = (unit_ball_volume(D) * reach.powi(D as i32) / domain.volume()).min(1.0);
    let uniform = n * (n - 1.0) / 2.0 * fraction;
    // `as` saturates: an infinite or huge product is simply no limit.
    options.pair_budget.max((16.0 * uniform) as u64)
}

/// Whether the pairs the pair statistics would visit within `reach` fit [`pair_limit`]:
/// pairs of distinct locations, and with `of_points` pairs of points too (a check per point
/// pair visits every copy). `Err(limit)` when not.
fn pairs_fit<const D: usize>(
    index: &NeighbourIndex<D>,
    reach: f64,
    of_points: bool,
    options: &AnalyzeOptions,
) -> Result<(), u64> {
    let limit = pair_limit(index.domain(), index.len(), reach, options);
    match index.pairs_within_up_to(reach, limit) {
        Some(counts) if !of_points || counts.points <= limit => Ok(()),
        _ => Err(limit),
    }
}

/// The L2-star discrepancy, unless `N₀` is over the limit.
fn discrepancy<const D: usize>(
    points: &[Point<D>],
    domain: &Domain<D>,
    options: &AnalyzeOptions,
    notes: &mut Vec<String>,
) -> Option<DiscrepancyReport> {
    let nominal = options.nominal_count.unwrap_or(points.len());
    if nominal > options.discrepancy_max_points {
        notes.push(format!(
            "L2-star discrepancy skipped: O(N²) above {} points",
            options.discrepancy_max_points
        ));
        return None;
    }
    if points.is_empty() {
        return None;
    }
    let squared = l2_star_discrepancy_squared(points, domain);
    Some(DiscrepancyReport {
        l2_star: squared.max(0.0).sqrt(),
        l2_star_squared: squared,
        white_noise_squared: WhiteNoiseTheory::for_domain(domain, points.len()).l2_star_squared(),
    })
}
