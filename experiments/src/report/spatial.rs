//! The section "Spatial statistics": `L(r) − r` and `J(r)` of every sampler in every
//! dimension, against the pointwise envelope of white-noise simulations at the same count.
//!
//! The curves come from the analyzer ([`super::analysis::spatial_curves`], averaged over
//! realisations); the envelope is computed here: [`ENVELOPE_SIMULATIONS`] white-noise sets of
//! the comparison's count in the comparison's box, each through the same summary functions on
//! the same grid of `r`, and at each `r` the smallest and largest value. With 39 simulations
//! a white-noise curve leaves the envelope at a given `r` with probability 2/40 = 5 %
//! (the pointwise test of spatstat's `envelope` at `nsim = 39`).

use super::analysis::{Curve, spatial_curves, stats_request};
use super::csv::table_text;
use super::html::{DataFile, Figure, Section};
use super::{DimResult, ReportError, SamplerResult, realisation_seed};
use crate::config::MetricsConfig;
use crate::format::exact as float;
use crate::metrics::r_grid::RGrid;
use crate::metrics::spatial_stats::spatial_stats;
use crate::plot::{self, Band, Reference, Series, SpectrumChart};
use poisson_nd::{Domain, Sampler, WhiteNoise};

/// White-noise simulations behind each envelope: 39, the pointwise 5 % test.
pub const ENVELOPE_SIMULATIONS: usize = 39;

/// The largest `J` drawn; a regular pattern's `J` grows without bound as the empty space
/// closes, and the part near 1 is the readable one.
const J_CAP: f64 = 6.0;

/// The largest distance of the J figure, in units of r: beyond it hardly a probe is farther
/// than r from every point, so even white noise's J (the envelope) is mostly noise, and every
/// Poisson-disk curve has long left the frame.
const J_RANGE: f64 = 1.5;

/// The pointwise range of one function over the simulations.
#[derive(Debug, Clone, PartialEq)]
pub struct Range {
    /// The smallest value at each abscissa (NaN where no simulation had a finite value).
    pub lower: Vec<(f64, f64)>,
    /// The largest value at each abscissa.
    pub upper: Vec<(f64, f64)>,
}

/// The white-noise envelope of a dimension.
#[derive(Debug, Clone, PartialEq)]
pub struct Envelope {
    /// Simulations behind it.
    pub simulations: usize,
    /// Points in each simulation.
    pub count: usize,
    /// The range of `(L(r) − r) / r_c` against `r / r_c` (`r_c` the comparison radius).
    pub l_minus_r: Range,
    /// The range of `J(r)`.
    pub j: Range,
}

/// The seed of white-noise simulation `i` of the envelope in `D` dimensions.
pub fn envelope_seed(base: u64, dim: usize, i: usize) -> u64 {
    realisation_seed(base, "spatial-envelope", &format!("white-noise-{dim}d"), i)
}

/// The envelope of [`ENVELOPE_SIMULATIONS`] white-noise sets of `count` points in `domain`, on
/// the report's grid at the comparison radius `radius`; `None` when the summary functions
/// cannot be computed there (a grid beyond half the box).
pub fn white_noise_envelope<const D: usize>(
    domain: &Domain<D>,
    count: usize,
    radius: f64,
    options: &MetricsConfig,
    base_seed: u64,
) -> Option<Envelope> {
    let request = stats_request(radius, options);
    let grid = RGrid::uniform(request.r_max?, request.steps).ok()?;
    let noise = WhiteNoise::new(*domain);
    let mut curves = Vec::with_capacity(ENVELOPE_SIMULATIONS);
    for i in 0..ENVELOPE_SIMULATIONS {
        let set = noise.sample_seeded(count, envelope_seed(base_seed, D, i));
        let stats = spatial_stats(&set.points, domain, &grid, &request.options).ok()?;
        curves.push(spatial_curves(&stats, radius));
    }
    let range = |pick: fn(&(Curve, Curve)) -> &Curve| {
        let first = pick(&curves[0]);
        let at = |k: usize, fold: fn(f64, f64) -> f64, start: f64| {
            let value = curves
                .iter()
                .map(|c| pick(c).points[k].1)
                .filter(|v| v.is_finite())
                .fold(start, fold);
            if value.is_finite() { value } else { f64::NAN }
        };
        let xs = first.points.iter().map(|p| p.0).enumerate();
        Range {
            lower: xs.clone().map(|(k, x)| (x, at(k, f64::min, f64::INFINITY))).collect(),
            upper: xs.map(|(k, x)| (x, at(k, f64::max, f64::NEG_INFINITY))).collect(),
        }
    };
    Some(Envelope {
        simulations: ENVELOPE_SIMULATIONS,
        count,
        l_minus_r: range(|c| &c.0),
        j: range(|c| &c.1),
    })
}

/// The section: per dimension, `L(r) − r` and `J(r)` of every sampler with the envelope.
pub(crate) fn section(dims: &[DimResult], base_seed: u64) -> Result<Option<Section>, ReportError> {
    let mut figures = Vec::new();
    for dim in dims {
        figures.extend(dim_figures(dim, base_seed)?);
    }
    if figures.is_empty() {
        return Ok(None);
    }
    Ok(Some(Section {
        heading: "Spatial statistics".into(),
        paragraphs: vec![
            "The summary functions of spatial statistics, as spatstat defines them (validated \
             against it: docs/metrics.md), of the comparison's point sets, averaged over \
             realisations, against distance in units of the comparison radius r. \
             L(r) − r (in units of r) is 0 for white noise; a Poisson-disk set has no pair \
             closer than r, so its L(r) − r falls to −r at r and climbs back to 0 beyond it, \
             and the deeper and longer the dip, the more evenly the points keep apart. \
             J(r) = (1 − G(r)) / (1 − F(r)) compares nearest-neighbour distances (G) with \
             the distances from arbitrary places to the nearest point (F): 1 for white noise, \
             above 1 for a regular pattern, below 1 for a clustered one; it is drawn while \
             some place is still farther than r from every point (F < 1), and cut at "
                .to_string()
                + &format!(
                    "{J_CAP}. The grey band is the pointwise envelope of {ENVELOPE_SIMULATIONS} \
                     white-noise sets of the same count in the same box (the smallest and \
                     largest value at each r): a white-noise curve leaves it at a given r with \
                     probability 2/{} = 5 %. In a periodic box the estimates use toroidal \
                     distances (no edge correction needed); in a closed box, Ripley's \
                     isotropic correction (2D) or the translation correction for L and the \
                     Kaplan–Meier estimates for J.",
                    ENVELOPE_SIMULATIONS + 1
                ),
        ],
        figures,
        ..Section::default()
    }))
}

fn dim_figures(dim: &DimResult, base_seed: u64) -> Result<Vec<Figure>, ReportError> {
    let d = dim.dim;
    let Some(envelope) = &dim.envelope else {
        return Ok(Vec::new());
    };
    let curves = |pick: fn(&SamplerResult) -> Option<&Curve>| -> Vec<(&SamplerResult, &Curve)> {
        dim.samplers.iter().filter_map(|s| pick(s).map(|c| (s, c))).collect()
    };
    let l_curves = curves(|s| s.l_minus_r.as_ref());
    let within = |c: &Curve| Curve {
        x_label: c.x_label.clone(),
        points: c.points.iter().copied().filter(|p| p.0 <= J_RANGE).collect(),
    };
    let j_owned: Vec<(&SamplerResult, Curve)> =
        dim.samplers.iter().filter_map(|s| s.j_function.as_ref().map(|c| (s, within(c)))).collect();
    let j_curves: Vec<(&SamplerResult, &Curve)> = j_owned.iter().map(|(s, c)| (*s, c)).collect();
    let j_range = Range {
        lower: envelope.j.lower.iter().copied().filter(|p| p.0 <= J_RANGE).collect(),
        upper: envelope.j.upper.iter().copied().filter(|p| p.0 <= J_RANGE).collect(),
    };
    if l_curves.is_empty() {
        return Ok(Vec::new());
    }
    let seeds = format!(
        "envelope seeds: realisation_seed({base_seed}, \"spatial-envelope\", \
         \"white-noise-{d}d\", i), i = 0..{}",
        envelope.simulations
    );
    let band_label = format!("white noise, {} simulations", envelope.simulations);
    let lowest = plot::finite_bounds(
        l_curves
            .iter()
            .flat_map(|(_, c)| c.points.iter().map(|p| p.1))
            .chain(envelope.l_minus_r.lower.iter().map(|p| p.1)),
    )
    .map_or(-1.0, |(lo, _)| lo);
    let l_figure = figure(FigureSpec {
        file: format!("{d}d-l-minus-r"),
        title: format!("L(r) − r ({d}D)"),
        caption: format!(
            "L(r) − r in units of r in {d}D, averaged over realisations, with the pointwise \
             envelope of {} white-noise sets of {} points (grey; {seeds}).",
            envelope.simulations, envelope.count
        ),
        y_label: "(L(r) − r) / r",
        curves: &l_curves,
        range: &envelope.l_minus_r,
        band_label: band_label.clone(),
        reference: 0.0,
        y_limits: (lowest - 0.05, None),
        columns: ["sampler", "distance_over_r", "l_minus_r_over_r"],
    })?;
    let j_figure = figure(FigureSpec {
        file: format!("{d}d-j-function"),
        title: format!("J(r) ({d}D)"),
        caption: format!(
            "J(r) in {d}D up to r = {J_RANGE} r, averaged over realisations, while F(r) < 1, \
             with the pointwise envelope of {} white-noise sets of {} points (grey; {seeds}); values above \
             {J_CAP} are cut at the frame.",
            envelope.simulations, envelope.count
        ),
        y_label: "J(r)",
        curves: &j_curves,
        range: &j_range,
        band_label,
        reference: 1.0,
        y_limits: (0.0, Some(J_CAP)),
        columns: ["sampler", "distance_over_r", "j"],
    })?;
    Ok(vec![l_figure, j_figure])
}

struct FigureSpec<'a> {
    file: String,
    title: String,
    caption: String,
    y_label: &'a str,
    curves: &'a [(&'a SamplerResult, &'a Curve)],
    range: &'a Range,
    band_label: String,
    reference: f64,
    y_limits: (f64, Option<f64>),
    columns: [&'a str; 3],
}

fn figure(spec: FigureSpec<'_>) -> Result<Figure, ReportError> {
    let series: Vec<Series> = spec
        .curves
        .iter()
        .map(|(s, c)| Series { name: s.name.clone(), points: c.points.clone() })
        .collect();
    let rows: Vec<Vec<String>> = spec
        .curves
        .iter()
        .flat_map(|(s, c)| c.points.iter().map(|p| vec![s.name.clone(), float(p.0), float(p.1)]))
        .collect();
    let envelope_rows: Vec<Vec<String>> = spec
        .range
        .lower
        .iter()
        .zip(&spec.range.upper)
        .map(|(lo, hi)| vec![float(lo.0), float(lo.1), float(hi.1)])
        .collect();
    let svg = plot::radial_spectra(&SpectrumChart {
        title: spec.title,
        x_label: "distance / r".into(),
        y_label: spec.y_label.into(),
        series,
        reference: Some(Reference { label: "white noise, expected".into(), value: spec.reference }),
        y_max: spec.y_limits.1,
        y_min: Some(spec.y_limits.0),
        band: Some(Band {
            label: spec.band_label,
            lower: spec.range.lower.clone(),
            upper: spec.range.upper.clone(),
        }),
    })?;
    Ok(Figure {
        file: format!("{}.svg", spec.file),
        caption: spec.caption,
        svg,
        data: vec![
            DataFile { file: format!("{}.csv", spec.file), text: table_text(&spec.columns, &rows) },
            DataFile {
                file: format!("{}-envelope.csv", spec.file),
                text: table_text(&["distance_over_r", "lower", "upper"], &envelope_rows),
            },
        ],
    })
}
