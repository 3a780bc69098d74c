//! What the report computes from one point set: the seam between the runner and the metrics.
//!
//! The runner calls [`Analyzer::analyze`] on every realisation and aggregates the
//! [`Measurements`]: scalars go to `results.csv`, the tables and the metric charts; curves
//! are averaged over realisations and drawn. [`StandardAnalyzer`] is the report's analyzer:
//! it calls [`crate::analyze::analyze`], the very analysis of `experiments analyze`, and
//! keeps its scalars and curves; tests can pass their own.

use crate::analyze::{
    AnalyzeIn, AnalyzeOptions, LengthUnit, PairCorrelationOptions, StatsRequest, analyze,
};
use crate::config::MetricsConfig;
use crate::dims::Dim;
use crate::metrics::spatial_stats::{SpatialStats, SpatialStatsOptions};
use crate::metrics::{Histogram, Periodogram, WhiteNoiseTheory, unit_ball_volume};
use crate::plot::Reference;
use poisson_nd::PointSet;
use poisson_nd::rng::derive_seed;

/// What an analyzer knows about the point set besides its points.
#[derive(Debug, Clone)]
pub struct AnalysisContext<'a> {
    /// The sampler's name.
    pub sampler: &'a str,
    /// The dimension.
    pub dim: usize,
    /// The realisation, from 0.
    pub rep: usize,
    /// The seed the realisation was sampled with (analyses that need random numbers derive
    /// theirs from it).
    pub seed: u64,
    /// The Poisson-disk radius of this dimension (the one radius-driven samplers were given):
    /// the reference for cluster rates, histograms and pair correlations of every sampler.
    pub radius: f64,
    /// The dimension's nominal point count: `dims.n` when given, otherwise the count whose
    /// `relative_radius · d_max` is `radius` ([`crate::report::nominal_count`]). The same
    /// for every sampler and realisation of the dimension, it fixes the frequency range of
    /// the spectra so that they can be averaged and compared.
    pub nominal_count: usize,
    /// The radius the sampler itself promises, if any.
    pub sampler_radius: Option<f64>,
    /// The metric options of the configuration.
    pub options: &'a MetricsConfig,
}

/// A curve: `(x, y)` pairs with the x axis's label.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    /// Label of the x axis (quantity and unit).
    pub x_label: String,
    /// The points, by increasing x.
    pub points: Vec<(f64, f64)>,
}

/// What the report keeps of one point set.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Measurements {
    /// Named scalar metrics, in a fixed order (they become rows of `results.csv`).
    pub scalars: Vec<(String, f64)>,
    /// The radial power spectrum, if computed.
    pub radial_spectrum: Option<Curve>,
    /// The 2D periodogram, if computed (2D only).
    pub periodogram: Option<Periodogram>,
    /// The nearest-neighbour distances' histogram in units of `r`, if computed.
    pub nn_histogram: Option<Histogram>,
    /// The white-noise density of the nearest-neighbour distance in units of `r`, drawn
    /// over the histogram; empty for none.
    pub nn_expected: Vec<(f64, f64)>,
    /// The pair correlation function, if computed.
    pub pair_correlation: Option<Curve>,
    /// `L(r) − r` in units of `r` against `r` in units of the comparison radius, if
    /// computed ([`spatial_curves`]).
    pub l_minus_r: Option<Curve>,
    /// `J(r)` against `r` in units of the comparison radius, if computed.
    pub j_function: Option<Curve>,
}

/// What a chart of one dimension is drawn against.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChartContext {
    /// The dimension.
    pub dim: usize,
    /// The comparison radius `r`.
    pub radius: f64,
    /// The point count of the comparison: that of the count-driven samplers, or the
    /// nominal count when none ran.
    pub count: usize,
    /// Whether the box is periodic.
    pub periodic: bool,
    /// The volume of the box.
    pub volume: f64,
}

/// A scalar metric drawn as a chart across samplers.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartSpec {
    /// The metric's name in [`Measurements::scalars`].
    pub metric: String,
    /// Axis label (name and unit).
    pub label: String,
    /// Whether the axis starts at zero.
    pub from_zero: bool,
    /// A reference value to draw.
    pub reference: Option<Reference>,
}

/// Computes metrics from point sets.
pub trait Analyzer {
    /// Analyses one realisation.
    fn analyze<const D: usize>(
        &self,
        set: &PointSet<D>,
        context: &AnalysisContext<'_>,
    ) -> Measurements
    where
        Dim<D>: AnalyzeIn<D>;

    /// The scalar metrics charted for a dimension.
    fn charts(&self, context: &ChartContext) -> Vec<ChartSpec>;

    /// The scalar metrics of the terminal summary, as `(metric, column heading)`; by
    /// default the charted ones.
    fn summary_columns(&self, context: &ChartContext) -> Vec<(String, String)> {
        self.charts(context).into_iter().map(|c| (c.metric.clone(), c.metric)).collect()
    }

    /// What each scalar metric means, as `(metric, definition)`, for the page's glossary;
    /// by default nothing.
    fn glossary(&self) -> Vec<(String, String)> {
        Vec::new()
    }
}

/// The report's analyzer: every metric of [`crate::metrics`], per realisation.
///
/// Scalars (in this order; NaN where a value does not exist, e.g. distances of a one-point
/// set, or was skipped as too expensive):
///
/// | metric | meaning |
/// | --- | --- |
/// | `min_distance` | smallest pairwise distance `d_min` |
/// | `relative_radius` | `ρ_rel = d_min / d_max` (Lagae & Dutré) |
/// | `packing_fraction` | `N V_D (d_min/2)^D / V` |
/// | `cluster_rate` | fraction of points whose nearest neighbour is closer than `r` |
/// | `pairs_closer` | unordered pairs closer than `r` |
/// | `mean_nn` | mean nearest-neighbour distance |
/// | `clark_evans` | `mean_nn` over the white-noise mean NN at the same `N` (torus formula in a periodic box, infinite-plane formula in a closed one) |
/// | `coverage` | fraction of the box within `r` of a point (Monte Carlo, `coverage_probes` probes seeded by [`coverage_seed`]) |
/// | `l2_star_discrepancy` | Warnock's L2-star discrepancy (skipped above [`crate::analyze::DISCREPANCY_MAX_POINTS`]) |
/// | `effective_nyquist` | ν_eff of Heck, Schlömer & Deussen, cycles per box side |
/// | `effective_nyquist_over_spacing` | `ν_eff / N^(1/D)` |
/// | `spectral_peak_frequency` | radius of the ring of highest mean power, cycles per box side |
/// | `spectral_peak_power` | that ring's mean power (white noise: 1) |
/// | `low_frequency_power` | mean power over the frequencies `0 < ‖k‖ ≤ ½ N^(1/D)` (white noise: 1) |
///
/// Curves: the radial power spectrum and, in 2D, the periodogram on a square (a spectrum is
/// skipped when points × frequencies exceeds [`crate::analyze::SPECTRUM_BUDGET`]); the histogram of
/// nearest-neighbour distances in units of `r` (as a density) with the white-noise density
/// ([`white_noise_nn_density`]); the pair correlation function against distance / `r`;
/// `L(r) − r` and `J(r)` on the grid of [`stats_request`] ([`spatial_curves`]).
/// In a closed box the radial spectrum and ν_eff leave out the frequency axes, where the
/// box's faces show as a seam.
#[derive(Debug, Clone, Copy, Default)]
pub struct StandardAnalyzer;

/// The stream that derives the coverage probes' seed from the realisation's seed.
const COVERAGE_STREAM: u64 = 0x636f_7665_7261_6765; // "coverage"

/// The seed of the coverage probes of a realisation sampled with `seed`:
/// `derive_seed(seed, 0x636f766572616765)` (the stream number spells "coverage").
pub fn coverage_seed(seed: u64) -> u64 {
    derive_seed(seed, COVERAGE_STREAM)
}

/// Relative radius of a saturated random sequential addition (dart throwing run to the
/// end) in `dim` dimensions, `(φ_sat / η_D)^(1/D)` from the saturation packing fractions
/// 0.7476 (1D, Rényi), 0.547, 0.384, 0.260, 0.171, 0.109 (2D–6D); `None` above 6D.
pub fn saturated_relative_radius(dim: usize) -> Option<f64> {
    let saturated = [0.747_6, 0.547, 0.384, 0.260, 0.171, 0.109];
    let fraction = *saturated.get(dim.checked_sub(1)?)?;
    let densest = crate::metrics::densest_packing_fraction(dim)?;
    Some((fraction / densest).powf(1.0 / dim as f64))
}

/// The density of the nearest-neighbour distance of white noise with `n` points in volume
/// `volume`, in units of `r`: at `x = d / r`,
///
/// - on the torus, the derivative of `1 − (1 − q x^D)^(N−1)` with `q = V_D r^D / V`:
///   `(N − 1) D q x^(D−1) (1 − q x^D)^(N−2)` (exact while `x r` is at most half a side);
/// - otherwise the Poisson process without boundary, the derivative of `1 − exp(−N q x^D)`.
pub fn white_noise_nn_density(
    dim: usize,
    n: usize,
    volume: f64,
    r: f64,
    torus: bool,
    x: f64,
) -> f64 {
    if n < 2 || x <= 0.0 {
        return 0.0;
    }
    let d = dim as f64;
    let q = unit_ball_volume(dim) * r.powi(dim as i32) / volume;
    let xd = x.powi(dim as i32);
    let slope = d * q * x.powi(dim as i32 - 1);
    let n = n as f64;
    if torus {
        if q * xd >= 1.0 {
            return 0.0;
        }
        (n - 1.0) * slope * ((n - 2.0) * (-q * xd).ln_1p()).exp()
    } else {
        n * slope * (-n * q * xd).exp()
    }
}

/// The highest ring of the spectra of a dimension: `⌈multiple · N^(1/D)⌉` for its nominal
/// count `N`.
pub fn spectrum_max_ring(dim: usize, nominal_count: usize, multiple: f64) -> usize {
    crate::metrics::SpectrumOptions::for_points(dim, nominal_count, multiple).k_max
}

/// The spatial statistics of the report at the comparison radius `radius`: the grid of `r`
/// is the pair correlation's (`pair_correlation_bins` steps up to `pair_correlation_range ·
/// radius`), so L, J and g are read on the same distances; spatstat's kernel and probe
/// defaults otherwise.
pub fn stats_request(radius: f64, options: &MetricsConfig) -> StatsRequest {
    StatsRequest {
        r_max: Some(options.pair_correlation_range * radius),
        steps: options.pair_correlation_bins,
        options: SpatialStatsOptions::default(),
    }
}

/// The two curves the report draws from the summary functions, both against `r / radius`
/// and from their preferred estimates (the periodic one on a torus): `(L(r) − r) / radius`,
/// 0 for white noise and negative where points keep apart, and `J(r)`, 1 for white noise
/// and above 1 for a regular pattern (NaN once every probe has a point within `r`).
pub fn spatial_curves(stats: &SpatialStats, radius: f64) -> (Curve, Curve) {
    let x_label = "distance / r".to_string();
    let l = stats.l.preferred_values();
    let j = stats.j.preferred_values();
    let curve = |y: &dyn Fn(usize, f64) -> f64| Curve {
        x_label: x_label.clone(),
        points: stats.r.iter().enumerate().map(|(k, &r)| (r / radius, y(k, r))).collect(),
    };
    (curve(&|k, r| (l[k] - r) / radius), curve(&|k, _| j[k]))
}

/// The options of [`analyze`] for one realisation of the report.
pub fn analyze_options(context: &AnalysisContext<'_>, periodic: bool) -> AnalyzeOptions {
    let options = context.options;
    AnalyzeOptions {
        radius: Some(context.radius),
        histogram_bins: options.histogram_bins,
        histogram_range: Some(options.histogram_range),
        probes: options.coverage_probes,
        seed: coverage_seed(context.seed),
        reference_realisations: 0,
        spectrum_multiple: options.spectrum_max_frequency,
        exclude_axes: !periodic,
        periodogram_multiple: Some(options.periodogram_max_frequency),
        nominal_count: Some(context.nominal_count),
        pair_correlation: PairCorrelationOptions {
            bins: options.pair_correlation_bins,
            range: options.pair_correlation_range,
            unit: LengthUnit::Radius,
        },
        spatial_stats: Some(stats_request(context.radius, options)),
        ..AnalyzeOptions::default()
    }
}

impl Analyzer for StandardAnalyzer {
    fn analyze<const D: usize>(
        &self,
        set: &PointSet<D>,
        context: &AnalysisContext<'_>,
    ) -> Measurements
    where
        Dim<D>: AnalyzeIn<D>,
    {
        let domain = &set.domain;
        let (n, volume, periodic) = (set.len(), domain.volume(), domain.is_periodic());
        let r = context.radius;
        let analysis = analyze(&set.points, domain, &analyze_options(context, periodic));
        let scalars = analysis.metrics().into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        let nn_histogram = analysis.nearest_neighbour.map(|stats| Histogram {
            lower: stats.histogram.lower / r,
            bin_width: stats.histogram.bin_width / r,
            ..stats.histogram
        });
        let top = context.options.histogram_range;
        let samples = 200;
        let nn_expected = match nn_histogram {
            Some(_) => (0..=samples)
                .map(|i| {
                    let x = top * i as f64 / samples as f64;
                    (x, white_noise_nn_density(D, n, volume, r, periodic, x))
                })
                .collect(),
            None => Vec::new(),
        };
        let radial_spectrum = analysis.spectrum.map(|radial| Curve {
            x_label: "frequency |k| [cycles per box side]".into(),
            points: radial.rings.iter().map(|ring| (ring.radius as f64, ring.mean_power)).collect(),
        });
        let pair_correlation =
            analysis.pair_correlation.filter(|p| !p.bins.is_empty()).map(|pcf| Curve {
                x_label: "distance / r".into(),
                points: pcf.bins.iter().map(|b| (0.5 * (b.r_lower + b.r_upper) / r, b.g)).collect(),
            });
        let (l_minus_r, j_function) =
            analysis.spatial_stats.as_ref().map(|stats| spatial_curves(stats, r)).unzip();
        Measurements {
            scalars,
            radial_spectrum,
            periodogram: analysis.periodogram,
            nn_histogram,
            nn_expected,
            pair_correlation,
            l_minus_r,
            j_function,
        }
    }

    fn charts(&self, context: &ChartContext) -> Vec<ChartSpec> {
        let theory = WhiteNoiseTheory::new(context.dim, context.count, context.volume);
        let white = if context.periodic {
            theory.cluster_rate_torus(context.radius)
        } else {
            theory.cluster_rate_infinite(context.radius)
        };
        vec![
            ChartSpec {
                metric: "cluster_rate".into(),
                label: "cluster rate: fraction of points with a neighbour closer than r".into(),
                from_zero: true,
                reference: Some(Reference { label: "white noise".into(), value: white }),
            },
            ChartSpec {
                metric: "relative_radius".into(),
                label: "relative radius ρ_rel = d_min / d_max".into(),
                from_zero: true,
                reference: saturated_relative_radius(context.dim)
                    .map(|value| Reference { label: "saturated dart throwing".into(), value }),
            },
        ]
    }

    fn summary_columns(&self, context: &ChartContext) -> Vec<(String, String)> {
        let nyquist = match context.dim {
            1 => "ν_eff/N".to_string(),
            2 => "ν_eff/√N".to_string(),
            3 => "ν_eff/∛N".to_string(),
            d => format!("ν_eff/N^(1/{d})"),
        };
        [
            ("cluster_rate", "cluster rate".to_string()),
            ("relative_radius", "ρ_rel".to_string()),
            ("clark_evans", "Clark-Evans R".to_string()),
            ("coverage", "coverage".to_string()),
            ("l2_star_discrepancy", "L2* discr.".to_string()),
            ("effective_nyquist_over_spacing", nyquist),
            ("low_frequency_power", "low-f power".to_string()),
        ]
        .into_iter()
        .map(|(metric, heading)| (metric.to_string(), heading))
        .collect()
    }

    fn glossary(&self) -> Vec<(String, String)> {
        [
            ("attempts", "candidates the sampler generated, accepted or not: the work done"),
            ("min_distance", "smallest distance between two points, d_min"),
            (
                "relative_radius",
                "ρ_rel = d_min / d_max, where d_max is the spacing of the same number of points \
                 in the densest lattice packing; 1 for that lattice, about 0.78 (2D) or 0.80 (3D) \
                 for saturated dart throwing, near 0 for white noise",
            ),
            (
                "packing_fraction",
                "fraction of the box filled by balls of diameter d_min around the points",
            ),
            (
                "cluster_rate",
                "fraction of points whose nearest neighbour is closer than r (0 for a Poisson-disk \
                 set of radius r)",
            ),
            ("pairs_closer", "number of pairs of points closer than r"),
            ("mean_nn", "mean distance from a point to its nearest neighbour"),
            (
                "clark_evans",
                "Clark–Evans R: mean_nn over the mean for white noise with as many points (exact \
                 torus formula in a periodic box, infinite-plane formula in a closed one); 1 for \
                 white noise, above 1 for even sets, 2.15 for the hexagonal lattice",
            ),
            (
                "coverage",
                "fraction of the box within r of some point (Monte Carlo estimate); 1 for a \
                 maximal Poisson-disk set",
            ),
            (
                "l2_star_discrepancy",
                "L2-star discrepancy (Warnock): how far the fraction of points in boxes [0, y) is \
                 from their volume, averaged over y; lower is more uniform",
            ),
            (
                "effective_nyquist",
                "effective Nyquist frequency ν_eff (Heck, Schlömer & Deussen 2013), cycles per \
                 box side: below it the spectrum has little power, so aliasing is low; 0 for \
                 white noise",
            ),
            (
                "effective_nyquist_over_spacing",
                "ν_eff / N^(1/D): about 0.5 for a square grid, at most about 0.3 for isotropic \
                 blue noise",
            ),
            (
                "spectral_peak_frequency",
                "frequency of the highest ring of the radial spectrum, cycles per box side",
            ),
            ("spectral_peak_power", "mean power of that ring (white noise: 1)"),
            (
                "low_frequency_power",
                "mean power over the frequencies 0 < |k| ≤ ½ N^(1/D), the band below the \
                 blue-noise peak: 1 for white noise, near 0 for a set without large-scale \
                 density fluctuations; lower is bluer",
            ),
        ]
        .into_iter()
        .map(|(metric, text)| (metric.to_string(), text.to_string()))
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::spectrum::periodogram_half_width;
    use crate::spec::{NoParams, SamplerSpec};

    #[test]
    fn white_noise_density_integrates_to_one() {
        for (dim, torus) in [(1, true), (2, true), (3, true), (2, false), (3, false)] {
            let (n, r) = (500, 0.05);
            let steps = 20_000;
            let top = 10.0;
            let h = top / steps as f64;
            let integral: f64 = (0..steps)
                .map(|i| white_noise_nn_density(dim, n, 1.0, r, torus, (i as f64 + 0.5) * h) * h)
                .sum();
            assert!((integral - 1.0).abs() < 1e-3, "{dim}D torus={torus}: {integral}");
        }
        assert_eq!(white_noise_nn_density(2, 1, 1.0, 0.1, true, 0.5), 0.0);
    }

    #[test]
    fn saturated_relative_radii_match_the_reference() {
        assert!((saturated_relative_radius(2).unwrap() - 0.777).abs() < 1e-3);
        assert!((saturated_relative_radius(3).unwrap() - 0.80).abs() < 5e-3);
        assert_eq!(saturated_relative_radius(7), None);
        assert_eq!(saturated_relative_radius(0), None);
    }

    #[test]
    fn periodogram_square_fits_inside_the_spectrum() {
        for (n, multiple) in [(4000, 1.5), (4000, 5.0), (10, 1.0), (1, 0.1)] {
            let k_max = spectrum_max_ring(2, n, 2.0);
            let m = periodogram_half_width(n, multiple, k_max);
            assert!(m >= 1 && 8 * m * m < (2 * k_max + 1) * (2 * k_max + 1), "{n} {multiple}");
        }
        assert_eq!(periodogram_half_width(10_000, 1.0, 200), 100);
        assert_eq!(periodogram_half_width(10_000, 1e300, 200), 141);
        assert_eq!(periodogram_half_width(1, 0.0, 1), 1);
    }

    #[test]
    fn every_metric_of_a_white_noise_set() {
        let torus = crate::domains::unit::<2>(true);
        let white = SamplerSpec::WhiteNoise(NoParams {}).build(torus, None, None).unwrap();
        let set = white.run(Some(400), 3);
        let options = MetricsConfig::default();
        let context = AnalysisContext {
            sampler: "white-noise",
            dim: 2,
            rep: 0,
            seed: 3,
            radius: 0.03,
            nominal_count: 400,
            sampler_radius: None,
            options: &options,
        };
        let analysis = StandardAnalyzer.analyze(&set, &context);
        let names: Vec<&str> = analysis.scalars.iter().map(|(n, _)| n.as_str()).collect();
        let glossary = StandardAnalyzer.glossary();
        for name in &names {
            assert!(glossary.iter().any(|(g, _)| g == name), "{name} has no definition");
        }
        assert!(analysis.scalars.iter().all(|(_, v)| v.is_finite()), "{:?}", analysis.scalars);
        let value = |name: &str| analysis.scalars.iter().find(|(n, _)| n == name).unwrap().1;
        // White noise: Clark–Evans near 1, cluster rate near 1 − (1 − π r²)^(N − 1) = 0.68.
        assert!((value("clark_evans") - 1.0).abs() < 0.15);
        assert!((value("cluster_rate") - 0.68).abs() < 0.1);
        let histogram = analysis.nn_histogram.unwrap();
        assert_eq!(histogram.edges().len(), options.histogram_bins + 1);
        assert!((histogram.edge(options.histogram_bins) - options.histogram_range).abs() < 1e-12);
        let periodogram = analysis.periodogram.unwrap();
        let side = 2 * periodogram.max_frequency + 1;
        assert_eq!(periodogram.values.len(), side * side);
        assert!(periodogram.values[side * side / 2].is_nan(), "k = 0");
        assert_eq!(periodogram.values.iter().filter(|v| v.is_nan()).count(), 1);
        assert_eq!(analysis.pair_correlation.unwrap().points.len(), options.pair_correlation_bins);
        assert!(analysis.radial_spectrum.unwrap().points.len() >= 40);
        // The same set gives the same numbers (the coverage probes are seeded).
        assert_eq!(StandardAnalyzer.analyze(&set, &context).scalars, analysis.scalars);
    }
}
