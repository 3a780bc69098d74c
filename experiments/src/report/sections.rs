//! From measurements to the page's sections and the terminal summary.

use super::analysis::{Analyzer, ChartSpec};
use super::html::{Figure, Section, Table};
use super::{DimResult, ReportData, ReportError, SamplerResult};
use crate::config::Config;
use crate::plot::{
    self, ColourScale, HeatMap, HistogramChart, MetricChart, MetricEntry, NnHistogram,
    Projections3d, ScalingChart, Scatter2d, Series, SpectrumChart, format_number,
};

/// Mean and sample standard deviation (0 for fewer than two values).
pub(crate) fn mean_sd(values: &[f64]) -> (f64, f64) {
    if values.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, 0.0);
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, variance.sqrt())
}

fn mean_pm_sd(values: &[f64]) -> String {
    let (mean, sd) = mean_sd(values);
    if sd > 0.0 {
        format!("{} ± {}", format_number(mean), format_number(sd))
    } else {
        format_number(mean)
    }
}

/// The values of `metric` over a sampler's realisations.
fn metric_values(sampler: &SamplerResult, metric: &str) -> Vec<f64> {
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

/// The colour scale of periodogram images: log10, white noise (power 1) in the middle.
const PERIODOGRAM_SCALE: ColourScale = ColourScale::Log10 { min: 0.1, max: 10.0 };

pub(crate) fn sections<A: Analyzer>(
    config: &Config,
    data: &ReportData,
    analyzer: &A,
) -> Result<Vec<Section>, ReportError> {
    let mut sections = Vec::new();
    for dim in &data.dims {
        sections.push(dim_section(config, dim, &analyzer.charts(dim.dim))?);
    }
    if let Some(scaling) = &data.scaling {
        let chart = ScalingChart {
            title: format!("Sampling time against N, {}D", scaling.dim),
            series: scaling.series.clone(),
        };
        let mut table = Table {
            caption: "Power-law fits, time ≈ c · N^a (least squares on log–log axes)".into(),
            header: ["sampler", "a", "c [s]", "r²", "N", "runs"].map(String::from).to_vec(),
            rows: Vec::new(),
        };
        for (series, fit) in scaling.series.iter().zip(&scaling.fits) {
            let ns: Vec<f64> = series.points.iter().map(|p| p.0).collect();
            let range = plot::finite_bounds(ns.iter().copied())
                .map_or("—".to_string(), |(a, b)| {
                    format!("{}–{}", format_number(a), format_number(b))
                });
            let (a, c, r2) = match fit {
                Some(f) => (
                    format!("{:.3}", f.exponent),
                    format_number(f.prefactor),
                    format!("{:.4}", f.r_squared),
                ),
                None => ("—".into(), "—".into(), "—".into()),
            };
            table.rows.push(vec![
                series.name.clone(),
                a,
                c,
                r2,
                range,
                series.points.len().to_string(),
            ]);
        }
        sections.push(Section {
            heading: format!("Scaling: time against N ({}D)", scaling.dim),
            paragraphs: vec![
                "Each point is one timed sampling call (the points produced against wall-clock seconds); \
                 radius-driven samplers were given the radius relative_radius · d_max(N) for each target N. \
                 Lines are least-squares power laws; the exponent a is in the legend."
                    .into(),
            ],
            tables: vec![table],
            figures: vec![Figure {
                file: "scaling.svg".into(),
                caption: "Time against N on log–log axes, with fitted power laws.".into(),
                svg: plot::scaling_chart(&chart)?,
            }],
        });
    }
    Ok(sections)
}

fn dim_section(
    config: &Config,
    dim: &DimResult,
    charts: &[ChartSpec],
) -> Result<Section, ReportError> {
    let d = dim.dim;
    let names = |radius_driven: bool| {
        dim.samplers
            .iter()
            .filter(|s| s.radius_driven == radius_driven)
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
    };
    let mut paragraphs = vec![format!(
        "The unit box in {d}D, {}. {} realisation(s) per sampler; each realisation's seed is derived from the base \
         seed {} and written to results.csv.",
        if config.periodic {
            "periodic (distances and spectra on the torus)"
        } else {
            "closed (not periodic)"
        },
        config.realisations,
        config.seed
    )];
    let (radius_driven, count_driven) = (names(true), names(false));
    if !radius_driven.is_empty() {
        paragraphs.push(format!(
            "Radius-driven samplers ({}) fill the box at r = {}.",
            radius_driven.join(", "),
            format_number(dim.radius)
        ));
    }
    if let (false, Some(count)) = (count_driven.is_empty(), dim.count) {
        paragraphs.push(format!(
            "Count-driven samplers ({}) draw N = {count} points.",
            count_driven.join(", ")
        ));
    }

    let mut table = Table {
        caption: format!("Metrics in {d}D: mean ± standard deviation over realisations"),
        header: std::iter::once("metric".to_string())
            .chain(dim.samplers.iter().map(|s| s.name.clone()))
            .collect(),
        rows: Vec::new(),
    };
    let row = |label: &str, cell: &dyn Fn(&SamplerResult) -> String| {
        std::iter::once(label.to_string()).chain(dim.samplers.iter().map(cell)).collect::<Vec<_>>()
    };
    table.rows.push(row("points", &|s| {
        mean_pm_sd(&s.realisations.iter().map(|r| r.n as f64).collect::<Vec<_>>())
    }));
    table.rows.push(row("time [ms]", &|s| {
        mean_pm_sd(&s.realisations.iter().map(|r| r.seconds * 1e3).collect::<Vec<_>>())
    }));
    table.rows.push(row("stopped", &|s| {
        let mut reasons: Vec<&str> = s.realisations.iter().map(|r| r.stop.as_str()).collect();
        reasons.dedup();
        reasons.join(", ")
    }));
    table.rows.push(row("attempts", &|s| {
        mean_pm_sd(&s.realisations.iter().map(|r| r.attempts as f64).collect::<Vec<_>>())
    }));
    for metric in metric_names(dim) {
        table.rows.push(row(&metric, &|s| {
            let values = metric_values(s, &metric);
            if values.is_empty() { "—".to_string() } else { mean_pm_sd(&values) }
        }));
    }

    let mut figures = Vec::new();
    for sampler in &dim.samplers {
        let title = format!("{} (N = {})", sampler.name, sampler.first_points.len());
        let file = format!("{d}d-points-{}.svg", sampler.name);
        match d {
            2 => figures.push(Figure {
                file,
                caption: format!("{}: the first realisation.", sampler.name),
                svg: plot::scatter_2d(&Scatter2d {
                    title,
                    name: sampler.name.clone(),
                    points: sampler.first_points.iter().map(|p| [p[0], p[1]]).collect(),
                    lo: [0.0; 2],
                    hi: [1.0; 2],
                })?,
            }),
            3 => {
                let slab = dim.radius.min(1.0);
                figures.push(Figure {
                    file,
                    caption: format!(
                        "{}: the first realisation, central slabs r = {} thick seen along each axis.",
                        sampler.name,
                        format_number(slab)
                    ),
                    svg: plot::projections_3d(&Projections3d {
                        title,
                        name: sampler.name.clone(),
                        points: sampler.first_points.iter().map(|p| [p[0], p[1], p[2]]).collect(),
                        lo: [0.0; 3],
                        hi: [1.0; 3],
                        slab: Some(slab),
                    })?,
                });
            }
            _ => {}
        }
    }
    for spec in charts {
        let entries: Vec<MetricEntry> = dim
            .samplers
            .iter()
            .filter_map(|s| {
                let values = metric_values(s, &spec.metric);
                (!values.is_empty()).then(|| {
                    let (value, sd) = mean_sd(&values);
                    MetricEntry {
                        name: s.name.clone(),
                        value,
                        error: (values.len() > 1).then_some(sd),
                    }
                })
            })
            .collect();
        if entries.is_empty() {
            continue;
        }
        figures.push(Figure {
            file: format!("{d}d-metric-{}.svg", spec.metric),
            caption: format!(
                "{} in {d}D: mean over realisations, bars ± one standard deviation.",
                spec.label
            ),
            svg: plot::metric_chart(&MetricChart {
                title: format!("{} ({d}D)", spec.label),
                label: spec.label.clone(),
                entries,
                reference: spec.reference.clone(),
                from_zero: spec.from_zero,
            })?,
        });
    }
    let spectra: Vec<(&SamplerResult, &super::analysis::RadialSpectrum)> =
        dim.samplers.iter().filter_map(|s| s.spectrum.as_ref().map(|x| (s, x))).collect();
    if let Some((_, first)) = spectra.first() {
        let series: Vec<Series> = spectra
            .iter()
            .map(|(s, x)| Series { name: s.name.clone(), points: x.points.clone() })
            .collect();
        let highest = plot::finite_bounds(series.iter().flat_map(|s| s.points.iter().map(|p| p.1)));
        figures.push(Figure {
            file: format!("{d}d-spectrum.svg"),
            caption: format!(
                "Radial power spectra in {d}D, averaged over realisations; white noise has power 1 (dashed). \
                 Power above {SPECTRUM_CAP} is cut at the frame."
            ),
            svg: plot::radial_spectra(&SpectrumChart {
                title: format!("Radial power spectrum ({d}D)"),
                x_label: first.x_label.clone(),
                series,
                reference: Some(1.0),
                y_max: highest.filter(|(_, hi)| *hi > SPECTRUM_CAP).map(|_| SPECTRUM_CAP),
            })?,
        });
    }
    for sampler in &dim.samplers {
        let Some(periodogram) = &sampler.periodogram else {
            continue;
        };
        let side = 2 * periodogram.max_frequency + 1;
        let extent = periodogram.max_frequency as f64 + 0.5;
        figures.push(Figure {
            file: format!("{d}d-periodogram-{}.svg", sampler.name),
            caption: format!(
                "{}: periodogram averaged over realisations, log scale from 0.1 to 10 (white noise: 1).",
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
        });
    }
    let histograms: Vec<(&SamplerResult, &super::analysis::Histogram)> =
        dim.samplers.iter().filter_map(|s| s.histogram.as_ref().map(|h| (s, h))).collect();
    if let Some((_, first)) = histograms.first() {
        figures.push(Figure {
            file: format!("{d}d-nn-histogram.svg"),
            caption: format!(
                "Nearest-neighbour distances in {d}D, averaged over realisations; the dark line is the \
                 white-noise expectation."
            ),
            svg: plot::nn_histograms(&HistogramChart {
                title: format!("Nearest-neighbour distance ({d}D)"),
                x_label: first.x_label.clone(),
                y_label: first.y_label.clone(),
                histograms: histograms
                    .iter()
                    .map(|(s, h)| NnHistogram {
                        name: s.name.clone(),
                        edges: h.edges.clone(),
                        values: h.values.clone(),
                        expected: h.expected.clone(),
                    })
                    .collect(),
            })?,
        });
    }
    Ok(Section { heading: format!("Comparison in {d}D"), paragraphs, tables: vec![table], figures })
}

/// The summary printed to stdout: per dimension a table of points, time and the charted
/// metrics (means over realisations), then the scaling exponents.
pub(crate) fn summary<A: Analyzer>(config: &Config, data: &ReportData, analyzer: &A) -> String {
    let mut out = format!(
        "poisson-nd report: seed {}, {} realisation(s), {} box\n",
        config.seed,
        config.realisations,
        if config.periodic { "periodic" } else { "closed" }
    );
    for dim in &data.dims {
        let metrics: Vec<String> = analyzer
            .charts(dim.dim)
            .into_iter()
            .map(|c| c.metric)
            .filter(|m| dim.samplers.iter().any(|s| !metric_values(s, m).is_empty()))
            .collect();
        out.push_str(&format!("\n{}D, r = {}", dim.dim, format_number(dim.radius)));
        if let Some(count) = dim.count {
            out.push_str(&format!(", N = {count}"));
        }
        out.push('\n');
        out.push_str(&format!("  {:<20} {:>10} {:>12}", "sampler", "points", "time [ms]"));
        for metric in &metrics {
            out.push_str(&format!(" {metric:>16}"));
        }
        out.push('\n');
        for sampler in &dim.samplers {
            let (points, _) =
                mean_sd(&sampler.realisations.iter().map(|r| r.n as f64).collect::<Vec<_>>());
            let (ms, _) =
                mean_sd(&sampler.realisations.iter().map(|r| r.seconds * 1e3).collect::<Vec<_>>());
            out.push_str(&format!(
                "  {:<20} {:>10} {:>12}",
                sampler.name,
                format_number(points),
                format_number(ms)
            ));
            for metric in &metrics {
                let values = metric_values(sampler, metric);
                let text = if values.is_empty() {
                    "—".to_string()
                } else {
                    format_number(mean_sd(&values).0)
                };
                out.push_str(&format!(" {text:>16}"));
            }
            out.push('\n');
        }
    }
    if let Some(scaling) = &data.scaling {
        out.push_str(&format!("\nscaling in {}D: time ≈ c · N^a\n", scaling.dim));
        for (series, fit) in scaling.series.iter().zip(&scaling.fits) {
            match fit {
                Some(f) => out.push_str(&format!(
                    "  {:<20} a = {:.3}  c = {}  r² = {:.4}\n",
                    series.name,
                    f.exponent,
                    format_number(f.prefactor),
                    f.r_squared
                )),
                None => out.push_str(&format!("  {:<20} (no fit)\n", series.name)),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_sample_deviation() {
        assert_eq!(mean_sd(&[1.0, 3.0]), (2.0, 2f64.sqrt()));
        assert_eq!(mean_sd(&[5.0]), (5.0, 0.0));
        assert!(mean_sd(&[]).0.is_nan());
        assert_eq!(mean_pm_sd(&[1.0, 3.0]), "2 ± 1.414");
    }
}
