//! From measurements to the page's sections, the figures' data files and the terminal
//! summary.

use super::analysis::{Analyzer, ChartContext, ChartSpec, Curve};
use super::csv::table_text;
use super::html::{DataFile, Figure, Section, Table};
use super::prose;
use super::{DimResult, ReportData, ReportError, SamplerResult};
use crate::config::Config;
use crate::format::{exact as float, short, significant};
use crate::metrics::baseline::mean_and_error;
use crate::plot::{
    self, ColourScale, HeatMap, HistogramChart, MetricChart, MetricEntry, Projections3d, Reference,
    Scatter2d, Series, SpectrumChart,
};

fn mean_pm_se(values: &[f64]) -> String {
    let (mean, se) = mean_and_error(values).pair();
    crate::format::plus_minus(mean, se)
}

/// The values of `metric` over a sampler's realisations.
pub(crate) fn metric_values(sampler: &SamplerResult, metric: &str) -> Vec<f64> {
    sampler
        .realisations
        .iter()
        .filter_map(|r| r.scalars.iter().find(|(name, _)| name == metric).map(|(_, v)| *v))
        .collect()
}

/// The scalar metric names of a dimension, in order of first appearance.
fn metric_names(dim: &DimResult) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for (name, _) in
        dim.samplers.iter().flat_map(|s| s.realisations.iter().flat_map(|r| &r.scalars))
    {
        if !names.contains(name) {
            names.push(name.clone());
        }
    }
    names
}

/// The largest power drawn on the radial-spectrum chart: higher peaks (a grid's, Halton's)
/// are cut at the frame so that the blue-noise curves stay readable.
const SPECTRUM_CAP: f64 = 4.0;

/// The largest pair correlation drawn; higher peaks are cut at the frame.
const PAIR_CORRELATION_CAP: f64 = 4.0;

/// Significant digits of the periodogram data files: enough to redraw the image exactly at
/// its colour resolution.
const PERIODOGRAM_DIGITS: usize = 3;

/// The colour scale of periodogram images: log10, white noise (power 1) in the middle.
const PERIODOGRAM_SCALE: ColourScale = ColourScale::Log10 { min: 0.1, max: 10.0 };

/// What the charts of a dimension are drawn against.
pub(crate) fn chart_context(config: &Config, dim: &DimResult) -> ChartContext {
    ChartContext {
        dim: dim.dim,
        radius: dim.radius,
        count: dim.count.unwrap_or(dim.nominal_count),
        periodic: config.periodic,
        volume: dim.extent.iter().product(),
    }
}

pub(crate) fn sections<A: Analyzer>(
    config: &Config,
    data: &ReportData,
    analyzer: &A,
) -> Result<Vec<Section>, ReportError> {
    let mut sections = Vec::new();
    for dim in &data.dims {
        sections.push(dim_section(config, dim, analyzer)?);
    }
    sections.extend(super::spatial::section(&data.dims, config.seed)?);
    sections.push(super::frontier::section(&data.fpo_convergence, config.seed));
    if let Some(scaling) = &data.scaling {
        sections.push(super::scaling::section(config, scaling)?);
    }
    sections.push(super::variable_density::section(&data.variable_density)?);
    sections.push(super::regions::section(&data.regions)?);
    sections.push(super::surfaces::section(&data.surfaces)?);
    sections.push(super::chunked::section(&data.chunked, config.seed)?);
    let glossary = analyzer.glossary();
    if !glossary.is_empty() {
        sections.push(Section {
            heading: "Metrics".into(),
            paragraphs: vec![prose::METRICS.into()],
            tables: vec![Table {
                caption: String::new(),
                header: vec!["metric".into(), "meaning".into()],
                rows: glossary.into_iter().map(|(metric, text)| vec![metric, text]).collect(),
                text: true,
            }],
            ..Section::default()
        });
    }
    Ok(sections)
}

fn dim_section<A: Analyzer>(
    config: &Config,
    dim: &DimResult,
    analyzer: &A,
) -> Result<Section, ReportError> {
    let charts = analyzer.charts(&chart_context(config, dim));
    let subsections = [
        points_section(dim)?,
        histogram_section(dim)?,
        metric_section(dim, &charts)?,
        spectrum_section(dim)?,
        pair_correlation_section(dim)?,
    ];
    Ok(Section {
        heading: format!("Comparison in {}D", dim.dim),
        paragraphs: setup_paragraphs(config, dim),
        tables: std::iter::once(metrics_table(dim)).chain(ranking_table(dim)).collect(),
        figures: Vec::new(),
        subsections: subsections.into_iter().flatten().collect(),
    })
}

/// What was compared in a dimension and how: the box, the two kinds of sampler, and what
/// the specification says about particular samplers.
fn setup_paragraphs(config: &Config, dim: &DimResult) -> Vec<String> {
    let names = |radius_driven: bool| {
        dim.samplers
            .iter()
            .filter(|s| s.radius_driven == radius_driven)
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
    };
    let (radius_driven, count_driven) = (names(true), names(false));
    let mut paragraphs = vec![prose::setup(dim, config.periodic, config.realisations, config.seed)];
    if !radius_driven.is_empty() {
        paragraphs.push(prose::radius_driven(&radius_driven, dim.radius));
    }
    if let (false, Some(count)) = (count_driven.is_empty(), dim.count) {
        let configured = config.dims.iter().any(|e| e.dim == dim.dim && e.n.is_some());
        paragraphs.push(prose::count_driven(
            &count_driven,
            count,
            radius_driven.first().filter(|_| !configured).copied(),
        ));
    }
    for sampler in &dim.samplers {
        if let Some(twin) = sampler.spec.twin()
            && dim.samplers.iter().any(|s| s.spec == twin.spec)
        {
            paragraphs.push(prose::twins(twin.spec.name(), &sampler.name, twin.difference));
        }
    }
    for sampler in &dim.samplers {
        if let Some(note) = sampler.spec.variant_note() {
            paragraphs.push(format!("{} {note}.", sampler.name));
        }
    }
    for sampler in dim.samplers.iter().filter(|s| !s.radius_driven) {
        if let Some(note) = sampler.spec.count_note() {
            paragraphs.push(format!("{} {note}.", sampler.name));
        }
    }
    paragraphs
}

/// The metrics table of a dimension: points, time, stop reasons, attempts, then every
/// scalar metric, as mean ± standard error per sampler.
fn metrics_table(dim: &DimResult) -> Table {
    let row = |label: &str, cell: &dyn Fn(&SamplerResult) -> String| {
        std::iter::once(label.to_string()).chain(dim.samplers.iter().map(cell)).collect::<Vec<_>>()
    };
    let mean_of = |value: fn(&super::Realisation) -> f64| {
        move |s: &SamplerResult| mean_pm_se(&s.realisations.iter().map(value).collect::<Vec<_>>())
    };
    let mut rows = vec![
        row("points", &mean_of(|r| r.n as f64)),
        row("time [ms]", &mean_of(|r| r.seconds * 1e3)),
        row("stopped", &|s| {
            let mut reasons: Vec<&str> = s.realisations.iter().map(|r| r.stop.as_str()).collect();
            reasons.dedup();
            reasons.join(", ")
        }),
        row("attempts", &mean_of(|r| r.attempts as f64)),
    ];
    for metric in metric_names(dim) {
        rows.push(row(&metric, &|s| {
            let values = metric_values(s, &metric);
            if values.is_empty() { "—".to_string() } else { mean_pm_se(&values) }
        }));
    }
    Table {
        caption: format!(
            "Metrics in {}D: mean ± standard error over realisations (definitions under Metrics)",
            dim.dim
        ),
        header: std::iter::once("metric".to_string())
            .chain(dim.samplers.iter().map(|s| s.name.clone()))
            .collect(),
        rows,
        text: false,
    }
}

/// The samplers ranked twice: by relative radius (largest first: the even spacing a
/// Poisson-disk set promises) and by low-frequency power (smallest first: the blue-noise
/// property), each by its mean over realisations; `None` when neither metric was computed.
fn ranking_table(dim: &DimResult) -> Option<Table> {
    let ranked = |metric: &str, larger_first: bool| {
        let mut means: Vec<(&str, f64, f64)> = dim
            .samplers
            .iter()
            .filter_map(|s| {
                let values: Vec<f64> =
                    metric_values(s, metric).into_iter().filter(|v| v.is_finite()).collect();
                let (mean, se) = mean_and_error(&values).pair();
                mean.is_finite().then_some((s.name.as_str(), mean, se))
            })
            .collect();
        // Ties keep the configuration's order (a stable sort).
        means.sort_by(|a, b| if larger_first { b.1.total_cmp(&a.1) } else { a.1.total_cmp(&b.1) });
        means
    };
    let by_radius = ranked("relative_radius", true);
    let by_power = ranked("low_frequency_power", false);
    let rows: Vec<Vec<String>> = (0..by_radius.len().max(by_power.len()))
        .map(|i| {
            let cells = |list: &[(&str, f64, f64)]| match list.get(i) {
                Some((name, mean, se)) => [name.to_string(), crate::format::plus_minus(*mean, *se)],
                None => [String::new(), String::new()],
            };
            let published = by_radius
                .get(i)
                .and_then(|(name, ..)| published_relative_radius(name, dim.dim))
                .map_or(String::new(), |(value, source)| format!("{} ({source})", short(value)));
            std::iter::once((i + 1).to_string())
                .chain(cells(&by_radius))
                .chain(std::iter::once(published))
                .chain(cells(&by_power))
                .collect()
        })
        .collect();
    (!rows.is_empty()).then(|| Table {
        caption: format!(
            "Ranking in {}D: by relative radius ρ_rel = d_min / d_max (largest first) and by \
             low-frequency power (mean periodogram power over 0 < |k| ≤ ½ N^(1/D), smallest \
             first; white noise 1), mean ± standard error over realisations; beside ρ_rel the \
             published value where the literature gives one (FPO: Schlömer, Heck & Deussen \
             2011, Figure 1, 1024 points after 63 iterations; maximal: random sequential \
             addition at saturation, (φ_sat / η_D)^(1/D))",
            dim.dim
        ),
        header: ["rank", "sampler", "ρ_rel", "published ρ_rel", "sampler", "low-frequency power"]
            .map(String::from)
            .to_vec(),
        rows,
        text: true,
    })
}

/// The relative radius the literature gives for a sampler in `dim` dimensions, with its source
/// in a word: FPO's converged δX (Schlömer, Heck & Deussen 2011, 2D) and saturated random
/// sequential addition for maximal sampling.
fn published_relative_radius(name: &str, dim: usize) -> Option<(f64, &'static str)> {
    match name {
        "fpo" if dim == 2 => {
            let (.., delta, _) = super::frontier::PUBLISHED[super::frontier::PUBLISHED.len() - 1];
            Some((delta, "FPO paper"))
        }
        "maximal" => super::analysis::saturated_relative_radius(dim).map(|r| (r, "saturated RSA")),
        _ => None,
    }
}

/// The first realisation of every sampler, 2D as a scatter, 3D as three slabs (other
/// dimensions: none).
fn points_section(dim: &DimResult) -> Result<Option<Section>, ReportError> {
    let d = dim.dim;
    if !(2..=3).contains(&d) {
        return Ok(None);
    }
    let (lo, extent) = (&dim.origin, &dim.extent);
    let shortest = extent.iter().copied().fold(f64::INFINITY, f64::min);
    // Slabs at least r thick on every axis, as a fraction of each side.
    let slab = (dim.radius / shortest).min(1.0);
    let window = scatter_window(dim.count.unwrap_or(dim.nominal_count));
    let corner: Vec<f64> = (0..d).map(|a| lo[a] + window * extent[a]).collect();
    let mut figures = Vec::new();
    for sampler in &dim.samplers {
        let title = format!("{} (N = {})", sampler.name, sampler.first_points.len());
        let file = format!("{d}d-points-{}", sampler.name);
        let data =
            vec![DataFile { file: format!("{file}.csv"), text: sampler.first_points_file.clone() }];
        let (svg, caption) = if d == 2 {
            let points: Vec<[f64; 2]> = sampler
                .first_points
                .iter()
                .filter(|p| p[0] < corner[0] && p[1] < corner[1])
                .map(|p| [p[0], p[1]])
                .collect();
            let title =
                if window < 1.0 { format!("{title}, {} in view", points.len()) } else { title };
            let svg = plot::scatter_2d(&Scatter2d {
                title,
                name: sampler.name.clone(),
                points,
                lo: [lo[0], lo[1]],
                hi: [corner[0], corner[1]],
            })?;
            let caption = if window < 1.0 {
                format!(
                    "{}: the first realisation, its corner [{}, {}) × [{}, {}) of the box.",
                    sampler.name,
                    short(lo[0]),
                    short(corner[0]),
                    short(lo[1]),
                    short(corner[1])
                )
            } else {
                format!("{}: the first realisation.", sampler.name)
            };
            (svg, caption)
        } else {
            let svg = plot::projections_3d(&Projections3d {
                title,
                name: sampler.name.clone(),
                points: sampler.first_points.iter().map(|p| [p[0], p[1], p[2]]).collect(),
                lo: [lo[0], lo[1], lo[2]],
                hi: [lo[0] + extent[0], lo[1] + extent[1], lo[2] + extent[2]],
                slab: Some(slab),
            })?;
            let caption = format!(
                "{}: the first realisation, the points of central slabs {} of each side thick \
                 (r = {}) seen along each axis.",
                sampler.name,
                short(slab),
                short(dim.radius)
            );
            (svg, caption)
        };
        figures.push(Figure { file: format!("{file}.svg"), caption, svg, data });
    }
    let how = match d {
        2 if window < 1.0 => prose::POINTS_2D_CORNER,
        2 => prose::POINTS_2D,
        _ => prose::POINTS_3D,
    };
    Ok(Some(Section {
        heading: "Point sets".into(),
        paragraphs: vec![format!("{how} {}", prose::POINTS_LOOK_FOR)],
        figures,
        ..Section::default()
    }))
}

/// The fraction `w` of each side of the box that the 2D scatters show (the corner at the
/// origin): the whole box up to 1024 points, then `1 / ⌈√(N / 1024)⌉`, so that about a
/// thousand points are in view.
fn scatter_window(count: usize) -> f64 {
    1.0 / (count as f64 / 1024.0).sqrt().ceil().max(1.0)
}

fn histogram_section(dim: &DimResult) -> Result<Option<Section>, ReportError> {
    let d = dim.dim;
    let histograms: Vec<(&SamplerResult, &crate::plot::NnHistogram)> =
        dim.samplers.iter().filter_map(|s| s.histogram.as_ref().map(|h| (s, h))).collect();
    if histograms.is_empty() {
        return Ok(None);
    }
    let mut bars = Vec::new();
    let mut curves = Vec::new();
    for (sampler, h) in &histograms {
        for (i, value) in h.values.iter().enumerate() {
            bars.push(vec![
                sampler.name.clone(),
                float(h.edges[i]),
                float(h.edges[i + 1]),
                float(*value),
            ]);
        }
        for (x, y) in &h.expected {
            curves.push(vec![sampler.name.clone(), float(*x), float(*y)]);
        }
    }
    let figure = Figure {
        file: format!("{d}d-nn-histogram.svg"),
        caption: format!(
            "Nearest-neighbour distances in {d}D in units of r, averaged over realisations (bars); the \
             dark line is the density for white noise with as many points."
        ),
        svg: plot::nn_histograms(&HistogramChart {
            title: format!("Nearest-neighbour distance ({d}D)"),
            x_label: "nearest-neighbour distance / r".into(),
            y_label: "density".into(),
            histograms: histograms.iter().map(|(_, h)| (*h).clone()).collect(),
        })?,
        data: vec![
            DataFile {
                file: format!("{d}d-nn-histogram.csv"),
                text: table_text(&["sampler", "bin_lower", "bin_upper", "density"], &bars),
            },
            DataFile {
                file: format!("{d}d-nn-white-noise.csv"),
                text: table_text(&["sampler", "distance_over_r", "density"], &curves),
            },
        ],
    };
    Ok(Some(Section {
        heading: "Nearest-neighbour distances".into(),
        paragraphs: vec![prose::NEAREST_NEIGHBOUR.into()],
        figures: vec![figure],
        ..Section::default()
    }))
}

fn metric_section(dim: &DimResult, charts: &[ChartSpec]) -> Result<Option<Section>, ReportError> {
    let d = dim.dim;
    let mut figures = Vec::new();
    for spec in charts {
        let entries: Vec<(MetricEntry, usize)> = dim
            .samplers
            .iter()
            .filter_map(|s| {
                let values: Vec<f64> =
                    metric_values(s, &spec.metric).into_iter().filter(|v| v.is_finite()).collect();
                (!values.is_empty()).then(|| {
                    let (value, se) = mean_and_error(&values).pair();
                    let entry = MetricEntry {
                        name: s.name.clone(),
                        value,
                        error: (values.len() > 1).then_some(se),
                    };
                    (entry, values.len())
                })
            })
            .collect();
        if entries.is_empty() {
            continue;
        }
        let rows: Vec<Vec<String>> = entries
            .iter()
            .map(|(e, count)| {
                vec![
                    e.name.clone(),
                    float(e.value),
                    float(e.error.unwrap_or(0.0)),
                    count.to_string(),
                    spec.reference.as_ref().map_or(String::new(), |r| float(r.value)),
                ]
            })
            .collect();
        let reference = spec.reference.as_ref().map_or(String::new(), |r| {
            format!(" The dashed line: {} ({}).", r.label, short(r.value))
        });
        figures.push(Figure {
            file: format!("{d}d-metric-{}.svg", spec.metric),
            caption: format!(
                "{} in {d}D: mean over realisations, bars ± one standard error.{reference}",
                spec.label
            ),
            svg: plot::metric_chart(&MetricChart {
                title: format!("{} ({d}D)", spec.metric.replace('_', " ")),
                label: spec.label.clone(),
                entries: entries.into_iter().map(|(e, _)| e).collect(),
                reference: spec.reference.clone(),
                from_zero: spec.from_zero,
            })?,
            data: vec![DataFile {
                file: format!("{d}d-metric-{}.csv", spec.metric),
                text: table_text(
                    &["sampler", "mean", "std_error", "realisations", "reference"],
                    &rows,
                ),
            }],
        });
    }
    if figures.is_empty() {
        return Ok(None);
    }
    Ok(Some(Section {
        heading: "Cluster rate and relative radius".into(),
        paragraphs: vec![prose::CLUSTER_AND_RELATIVE_RADIUS.into()],
        figures,
        ..Section::default()
    }))
}

/// Whether a curve has a point to draw.
fn drawable(curve: &Curve) -> bool {
    curve.points.iter().any(|p| p.0.is_finite() && p.1.is_finite())
}

/// A line chart of one curve per sampler, with its data file.
fn curve_figure(
    file: &str,
    title: String,
    caption: String,
    y_label: &str,
    curves: &[(&SamplerResult, &Curve)],
    cap: f64,
    columns: [&str; 3],
) -> Result<Figure, ReportError> {
    let series: Vec<Series> = curves
        .iter()
        .map(|(s, c)| Series { name: s.name.clone(), points: c.points.clone() })
        .collect();
    let highest = plot::finite_bounds(series.iter().flat_map(|s| s.points.iter().map(|p| p.1)));
    let rows: Vec<Vec<String>> = curves
        .iter()
        .flat_map(|(s, c)| c.points.iter().map(|p| vec![s.name.clone(), float(p.0), float(p.1)]))
        .collect();
    Ok(Figure {
        file: format!("{file}.svg"),
        caption,
        svg: plot::radial_spectra(&SpectrumChart {
            title,
            x_label: curves.first().map_or(String::new(), |(_, c)| c.x_label.clone()),
            y_label: y_label.into(),
            series,
            reference: Some(Reference { label: "white noise, expected".into(), value: 1.0 }),
            y_max: highest.filter(|(_, hi)| *hi > cap).map(|_| cap),
            y_min: None,
            band: None,
        })?,
        data: vec![DataFile { file: format!("{file}.csv"), text: table_text(&columns, &rows) }],
    })
}

fn spectrum_section(dim: &DimResult) -> Result<Option<Section>, ReportError> {
    let d = dim.dim;
    let spectra: Vec<(&SamplerResult, &Curve)> = dim
        .samplers
        .iter()
        .filter_map(|s| s.spectrum.as_ref().filter(|c| drawable(c)).map(|x| (s, x)))
        .collect();
    if spectra.is_empty() {
        return Ok(None);
    }
    let mut figures = vec![curve_figure(
        &format!("{d}d-spectrum"),
        format!("Radial power spectrum ({d}D)"),
        format!(
            "Radial power spectra in {d}D, averaged over realisations; white noise has power 1 \
             (dashed). Power above {SPECTRUM_CAP} is cut at the frame."
        ),
        "power",
        &spectra,
        SPECTRUM_CAP,
        ["sampler", "frequency", "power"],
    )?];
    for sampler in &dim.samplers {
        let Some(periodogram) = &sampler.periodogram else {
            continue;
        };
        let m = periodogram.max_frequency as i64;
        let side = 2 * periodogram.max_frequency + 1;
        let extent = m as f64 + 0.5;
        // The periodogram of real points is even, P(-k) = P(k): the half plane k_y > 0 (and
        // k_x >= 0 on k_y = 0) holds the whole image. Three significant digits resolve the
        // colour scale (two decades) far below one colour step.
        let rows: Vec<Vec<String>> = periodogram
            .values
            .iter()
            .enumerate()
            .map(|(i, value)| ((i % side) as i64 - m, (i / side) as i64 - m, *value))
            .filter(|&(kx, ky, _)| ky > 0 || (ky == 0 && kx >= 0))
            .map(|(kx, ky, value)| {
                vec![kx.to_string(), ky.to_string(), significant(value, PERIODOGRAM_DIGITS)]
            })
            .collect();
        figures.push(Figure {
            file: format!("{d}d-periodogram-{}.svg", sampler.name),
            caption: format!(
                "{}: periodogram averaged over realisations, log colour scale from 0.1 to 10 \
                 (white noise: 1).",
                sampler.name
            ),
            svg: plot::heat_map(&HeatMap {
                title: format!("{} periodogram", sampler.name),
                columns: side,
                rows: side,
                values: periodogram.values.clone(),
                x_range: (-extent, extent),
                y_range: (-extent, extent),
                x_label: "k_x".into(),
                y_label: "k_y".into(),
                colour_label: "power".into(),
                scale: PERIODOGRAM_SCALE,
            })?,
            data: vec![DataFile {
                file: format!("{d}d-periodogram-{}.csv", sampler.name),
                text: table_text(&["k_x", "k_y", "power"], &rows),
            }],
        });
    }
    let mut paragraphs = vec![prose::SPECTRA.to_string()];
    if d == 2 {
        paragraphs.push(prose::PERIODOGRAMS.into());
    }
    Ok(Some(Section { heading: "Power spectra".into(), paragraphs, figures, ..Section::default() }))
}

fn pair_correlation_section(dim: &DimResult) -> Result<Option<Section>, ReportError> {
    let d = dim.dim;
    let curves: Vec<(&SamplerResult, &Curve)> = dim
        .samplers
        .iter()
        .filter_map(|s| s.pair_correlation.as_ref().filter(|c| drawable(c)).map(|x| (s, x)))
        .collect();
    if curves.is_empty() {
        return Ok(None);
    }
    let figure = curve_figure(
        &format!("{d}d-pair-correlation"),
        format!("Pair correlation ({d}D)"),
        format!(
            "Pair correlation g in {d}D against distance / r, averaged over realisations; white noise \
             has g = 1 (dashed). Values above {PAIR_CORRELATION_CAP} are cut at the frame."
        ),
        "pair correlation g",
        &curves,
        PAIR_CORRELATION_CAP,
        ["sampler", "distance_over_r", "g"],
    )?;
    Ok(Some(Section {
        heading: "Pair correlation".into(),
        paragraphs: vec![prose::PAIR_CORRELATION.into()],
        figures: vec![figure],
        ..Section::default()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_standard_error() {
        assert_eq!(mean_pm_se(&[1.0, 3.0]), "2.0 ± 1.0");
    }

    #[test]
    fn scatter_windows_hold_about_a_thousand_points() {
        assert_eq!(scatter_window(170), 1.0);
        assert_eq!(scatter_window(1024), 1.0);
        assert_eq!(scatter_window(1025), 0.5);
        assert_eq!(scatter_window(3949), 0.5);
        assert_eq!(scatter_window(10_000), 0.25);
    }
}
