//! What the report computes from one point set: the seam between the runner and the metrics.
//!
//! The runner calls [`Analyzer::analyze`] on every realisation and aggregates the result:
//! scalars go to `results.csv`, the tables and the metric charts; curves are averaged over
//! realisations and drawn. [`StandardAnalyzer`] is the report's analyzer; the metrics module
//! fills it in (see its documentation), and tests can pass their own.

use crate::config::MetricsConfig;
use crate::plot::Reference;
use poisson_nd::{Point, PointSet};

/// What an analyzer knows about the point set besides its points.
#[derive(Debug, Clone)]
pub struct AnalysisContext<'a> {
    /// The sampler's name.
    pub sampler: &'a str,
    /// The dimension.
    pub dim: usize,
    /// The realisation, from 0.
    pub rep: usize,
    /// The Poisson-disk radius of this dimension (the one radius-driven samplers were given):
    /// the reference for cluster rates and histograms of every sampler.
    pub radius: f64,
    /// The radius the sampler itself promises, if any.
    pub sampler_radius: Option<f64>,
    /// The metric options of the configuration.
    pub options: &'a MetricsConfig,
}

/// A radial power spectrum: mean power against frequency.
#[derive(Debug, Clone, PartialEq)]
pub struct RadialSpectrum {
    /// Label of the frequency axis (its unit).
    pub x_label: String,
    /// (frequency, mean power).
    pub points: Vec<(f64, f64)>,
}

/// A 2D periodogram on a square grid of integer frequencies `-m..=m` on both axes.
#[derive(Debug, Clone, PartialEq)]
pub struct Periodogram {
    /// The largest frequency `m`; the grid has `2m + 1` cells a side.
    pub max_frequency: usize,
    /// Power, row by row from `k_y = -m`, each row from `k_x = -m`.
    pub values: Vec<f64>,
}

/// A nearest-neighbour distance histogram with the white-noise expectation.
#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    /// Label of the distance axis (its unit).
    pub x_label: String,
    /// Label of the height axis.
    pub y_label: String,
    /// Bin edges: one more than `values`.
    pub edges: Vec<f64>,
    /// Bar heights.
    pub values: Vec<f64>,
    /// The white-noise expectation in the same units; empty for none.
    pub expected: Vec<(f64, f64)>,
}

/// Everything computed from one point set.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Analysis {
    /// Named scalar metrics, in a fixed order (they become rows of `results.csv`).
    pub scalars: Vec<(String, f64)>,
    /// The radial power spectrum, if computed.
    pub radial_spectrum: Option<RadialSpectrum>,
    /// The 2D periodogram, if computed (2D only).
    pub periodogram: Option<Periodogram>,
    /// The nearest-neighbour histogram, if computed.
    pub nn_histogram: Option<Histogram>,
}

/// A scalar metric drawn as a chart across samplers.
#[derive(Debug, Clone, PartialEq)]
pub struct ChartSpec {
    /// The metric's name in [`Analysis::scalars`].
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
    fn analyze<const D: usize>(&self, set: &PointSet<D>, context: &AnalysisContext<'_>)
    -> Analysis;

    /// The scalar metrics charted (and shown in the terminal summary) for dimension `dim`.
    fn charts(&self, dim: usize) -> Vec<ChartSpec>;
}

/// The report's analyzer.
///
/// PLACEHOLDER until the metrics module (`experiments::metrics`) lands: it computes only the
/// minimum distance, by brute force. The integration replaces the body of
/// [`StandardAnalyzer::analyze`] with calls to the metrics (cluster rate at
/// `context.radius`, NN statistics and the histogram with its white-noise curve, relative
/// radius, packing, coverage with `options.coverage_probes`, the radial spectrum up to
/// `options.spectrum_max_frequency · √N` and, in 2D, the periodogram, anisotropy, effective
/// Nyquist, pair correlation, discrepancy), and [`StandardAnalyzer::charts`] with the
/// metrics worth a chart (cluster rate, relative radius) and their references.
#[derive(Debug, Clone, Copy, Default)]
pub struct StandardAnalyzer;

impl Analyzer for StandardAnalyzer {
    fn analyze<const D: usize>(
        &self,
        set: &PointSet<D>,
        _context: &AnalysisContext<'_>,
    ) -> Analysis {
        Analysis {
            scalars: vec![("min_distance".to_string(), placeholder_min_distance(set))],
            ..Analysis::default()
        }
    }

    fn charts(&self, _dim: usize) -> Vec<ChartSpec> {
        vec![ChartSpec {
            metric: "min_distance".into(),
            label: "minimum distance".into(),
            from_zero: true,
            reference: None,
        }]
    }
}

/// PLACEHOLDER (replaced by the metrics module): the smallest pairwise distance, measured in
/// the set's domain (toroidal when periodic), by brute force in O(N²). Infinite for fewer than
/// two points.
fn placeholder_min_distance<const D: usize>(set: &PointSet<D>) -> f64 {
    let points: &[Point<D>] = &set.points;
    let mut min = f64::INFINITY;
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            min = min.min(set.domain.distance_squared(p, q));
        }
    }
    min.sqrt()
}
