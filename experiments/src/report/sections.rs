//! From measurements to the page's sections, the figures' data files and the terminal
//! summary.

use super::analysis::{Analyzer, ChartContext, ChartSpec, Curve};
use super::csv::{float, table_text};
use super::html::{DataFile, Figure, Section, Table};
use super::{DimResult, ReportData, ReportError, SamplerResult, ScalingResult};
use crate::config::Config;
use crate::fit::PowerLaw;
use crate::plot::{
    self, ColourScale, HeatMap, HistogramChart, MetricChart, MetricEntry, NnHistogram,
    Projections3d, Reference, ScalingChart, Scatter2d, Series, SpectrumChart, format_number,
};

/// Mean and standard error of the mean, `s / √n` with the sample standard deviation `s`
/// (0 for one value, NaN for none).
pub(crate) fn mean_se(values: &[f64]) -> (f64, f64) {
    if values.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    if values.len() < 2 {
        return (mean, 0.0);
    }
    let variance = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (variance / n).sqrt())
}

fn mean_pm_se(values: &[f64]) -> String {
    let (mean, se) = mean_se(values);
    if se > 0.0 {
        format!("{} ± {}", format_number(mean), format_number(se))
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

/// The largest pair correlation drawn; higher peaks are cut at the frame.
const PAIR_CORRELATION_CAP: f64 = 4.0;

/// The colour scale of periodogram images: log10, white noise (power 1) in the middle.
const PERIODOGRAM_SCALE: ColourScale = ColourScale::Log10 { min: 0.1, max: 10.0 };

/// What the charts of a dimension are drawn against.
pub(crate) fn chart_context(config: &Config, dim: &DimResult) -> ChartContext {
    ChartContext {
        dim: dim.dim,
        radius: dim.radius,
        count: dim.count.unwrap_or(dim.nominal_count),
        periodic: config.periodic,
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
    if let Some(scaling) = &data.scaling {
        sections.push(scaling_section(config, scaling)?);
    }
    let glossary = analyzer.glossary();
    if !glossary.is_empty() {
        sections.push(Section {
            heading: "Metrics".into(),
            paragraphs: vec![
                "Every metric is measured on each realisation; the tables give the mean ± the standard \
                 error of the mean over realisations, results.csv every value. r is the comparison \
                 radius of the dimension, N the number of points; in a periodic box every distance is \
                 measured on the torus. The definitions are in docs/metrics.md and docs/report.md."
                    .into(),
            ],
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
    let d = dim.dim;
    let context = chart_context(config, dim);
    let names = |radius_driven: bool| {
        dim.samplers
            .iter()
            .filter(|s| s.radius_driven == radius_driven)
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
    };
    let has = |name: &str| dim.samplers.iter().any(|s| s.name == name);
    let mut paragraphs = vec![format!(
        "The unit box in {d}D, {}. {} realisation(s) per sampler; each realisation's seed is derived \
         from the base seed {} and written to results.csv.",
        if config.periodic {
            "periodic: a torus, where distances wrap around, so there are no faces, the white-noise \
             formulas are exact and the spectra have no seams"
        } else {
            "closed (not periodic): points near the faces have fewer neighbours, and the radial \
             spectra leave out the frequency axes, where the faces show as a seam"
        },
        config.realisations,
        config.seed
    )];
    let (radius_driven, count_driven) = (names(true), names(false));
    if !radius_driven.is_empty() {
        paragraphs.push(format!(
            "Radius-driven samplers ({}) fill the box at r = {} until their own rule stops them, so \
             their point counts differ a little (see the table).",
            radius_driven.join(", "),
            format_number(dim.radius)
        ));
    }
    if let (false, Some(count)) = (count_driven.is_empty(), dim.count) {
        let source = match (radius_driven.first(), config.dims.iter().find(|e| e.dim == d)) {
            (_, Some(entry)) if entry.n.is_some() => "as configured".to_string(),
            (Some(first), _) => {
                format!("the mean count of {first}, so all run at the same density")
            }
            (None, _) => "as configured".to_string(),
        };
        paragraphs.push(format!(
            "Count-driven samplers ({}) draw N = {count} points, {source}.",
            count_driven.join(", ")
        ));
    }
    if has("dart-throwing") && has("dart-throwing-grid") {
        paragraphs.push(
            "dart-throwing and dart-throwing-grid are the same algorithm with a different search (every \
             point checked, or a grid lookup): with the same seed they give identical points, so their \
             metrics agree up to the variation between realisations, and only their times differ."
                .into(),
        );
    }
    if has("jittered-grid") {
        paragraphs.push(
            "jittered-grid uses the largest near-cubic grid with at most N cells, so it may have a \
             few points fewer."
                .into(),
        );
    }

    let mut table = Table {
        caption: format!(
            "Metrics in {d}D: mean ± standard error over realisations (definitions under Metrics)"
        ),
        header: std::iter::once("metric".to_string())
            .chain(dim.samplers.iter().map(|s| s.name.clone()))
            .collect(),
        rows: Vec::new(),
        text: false,
    };
    let row = |label: &str, cell: &dyn Fn(&SamplerResult) -> String| {
        std::iter::once(label.to_string()).chain(dim.samplers.iter().map(cell)).collect::<Vec<_>>()
    };
    table.rows.push(row("points", &|s| {
        mean_pm_se(&s.realisations.iter().map(|r| r.n as f64).collect::<Vec<_>>())
    }));
    table.rows.push(row("time [ms]", &|s| {
        mean_pm_se(&s.realisations.iter().map(|r| r.seconds * 1e3).collect::<Vec<_>>())
    }));
    table.rows.push(row("stopped", &|s| {
        let mut reasons: Vec<&str> = s.realisations.iter().map(|r| r.stop.as_str()).collect();
        reasons.dedup();
        reasons.join(", ")
    }));
    table.rows.push(row("attempts", &|s| {
        mean_pm_se(&s.realisations.iter().map(|r| r.attempts as f64).collect::<Vec<_>>())
    }));
    for metric in metric_names(dim) {
        table.rows.push(row(&metric, &|s| {
            let values = metric_values(s, &metric);
            if values.is_empty() { "—".to_string() } else { mean_pm_se(&values) }
        }));
    }

    let mut subsections = Vec::new();
    if let Some(section) = points_section(dim)? {
        subsections.push(section);
    }
    if let Some(section) = histogram_section(dim)? {
        subsections.push(section);
    }
    if let Some(section) = metric_section(dim, &analyzer.charts(&context))? {
        subsections.push(section);
    }
    if let Some(section) = spectrum_section(dim)? {
        subsections.push(section);
    }
    if let Some(section) = pair_correlation_section(dim)? {
        subsections.push(section);
    }
    Ok(Section {
        heading: format!("Comparison in {d}D"),
        paragraphs,
        tables: vec![table],
        figures: Vec::new(),
        subsections,
    })
}

/// The first realisation of every sampler, 2D as a scatter, 3D as three slabs (other
/// dimensions: none).
fn points_section(dim: &DimResult) -> Result<Option<Section>, ReportError> {
    let d = dim.dim;
    if !(2..=3).contains(&d) {
        return Ok(None);
    }
    let mut figures = Vec::new();
    let slab = dim.radius.min(1.0);
    let window = scatter_window(dim.count.unwrap_or(dim.nominal_count));
    for sampler in &dim.samplers {
        let title = format!("{} (N = {})", sampler.name, sampler.first_points.len());
        let file = format!("{d}d-points-{}", sampler.name);
        let header = &["x", "y", "z"][..d];
        let rows: Vec<Vec<String>> =
            sampler.first_points.iter().map(|p| p.iter().map(|&x| float(x)).collect()).collect();
        let data = vec![DataFile { file: format!("{file}.csv"), text: table_text(header, &rows) }];
        let svg = match d {
            2 => {
                let points: Vec<[f64; 2]> = sampler
                    .first_points
                    .iter()
                    .filter(|p| p[0] < window && p[1] < window)
                    .map(|p| [p[0], p[1]])
                    .collect();
                let title =
                    if window < 1.0 { format!("{title}, {} in view", points.len()) } else { title };
                plot::scatter_2d(&Scatter2d {
                    title,
                    name: sampler.name.clone(),
                    points,
                    lo: [0.0; 2],
                    hi: [window; 2],
                })?
            }
            3 => plot::projections_3d(&Projections3d {
                title,
                name: sampler.name.clone(),
                points: sampler.first_points.iter().map(|p| [p[0], p[1], p[2]]).collect(),
                lo: [0.0; 3],
                hi: [1.0; 3],
                slab: Some(slab),
            })?,
            _ => continue,
        };
        let caption = match d {
            2 if window < 1.0 => format!(
                "{}: the first realisation, its corner [0, {w}) × [0, {w}) of the unit box.",
                sampler.name,
                w = format_number(window)
            ),
            2 => format!("{}: the first realisation.", sampler.name),
            _ => format!(
                "{}: the first realisation, the points of central slabs r = {} thick seen along \
                 each axis.",
                sampler.name,
                format_number(slab)
            ),
        };
        figures.push(Figure { file: format!("{file}.svg"), caption, svg, data });
    }
    let how = match d {
        2 if window < 1.0 => {
            "Each panel shows the first realisation of one sampler, all at the same \
              scale: the corner of the box that holds about a thousand points, so that single \
              points can be told apart (the CSV files hold every point)."
        }
        2 => "Each panel is the first realisation of one sampler, all at the same scale.",
        _ => {
            "Each figure shows the first realisation of one sampler through three thin central \
              slabs, one across each axis (a full projection of a 3D set is too crowded to show \
              its structure); all panels at the same scale."
        }
    };
    Ok(Some(Section {
        heading: "Point sets".into(),
        paragraphs: vec![format!(
            "{how} White noise shows clumps and empty patches; blue noise (Poisson-disk) is even \
             without being regular; a grid or a low-discrepancy sequence shows regular structure."
        )],
        figures,
        ..Section::default()
    }))
}

/// The side of the corner `[0, w)²` of the unit square that the 2D scatters show: the whole
/// square up to 1024 points, then `1 / ⌈√(N / 1024)⌉`, so that about a thousand points are
/// in view.
fn scatter_window(count: usize) -> f64 {
    1.0 / (count as f64 / 1024.0).sqrt().ceil().max(1.0)
}

fn histogram_section(dim: &DimResult) -> Result<Option<Section>, ReportError> {
    let d = dim.dim;
    let histograms: Vec<(&SamplerResult, &super::analysis::Histogram)> =
        dim.samplers.iter().filter_map(|s| s.histogram.as_ref().map(|h| (s, h))).collect();
    let Some((_, first)) = histograms.first() else {
        return Ok(None);
    };
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
        paragraphs: vec![
            "How far each point is from its nearest neighbour, as a density over distance / r. White \
             noise follows the dark curve, which starts at 0: some points nearly touch. A Poisson-disk \
             set has nothing below 1 (no pair closer than r) and a narrow peak just above it; the \
             narrower and further right the peak, the more even the set."
                .into(),
        ],
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
                    let (value, se) = mean_se(&values);
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
            format!(" The dashed line: {} ({}).", r.label, format_number(r.value))
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
        paragraphs: vec![
            "The cluster rate is the fraction of points with a neighbour closer than r: 0 for a \
             Poisson-disk set of radius r, high for white noise (dashed line). The relative radius \
             ρ_rel is the smallest distance between two points over the spacing of the densest \
             packing of as many points: 1 for that lattice, about 0.75 or more for good blue noise, \
             near 0 for white noise, which always has some close pair."
                .into(),
        ],
        figures,
        ..Section::default()
    }))
}

/// Whether a curve has a point to draw.
fn drawable(curve: &Curve) -> bool {
    curve.points.iter().any(|p| p.0.is_finite() && p.1.is_finite())
}

/// Whether a scaling series has a point a log–log chart can show.
fn positive(series: &[Series]) -> bool {
    series.iter().flat_map(|s| &s.points).any(|p| p.0 > 0.0 && p.1 > 0.0 && p.1.is_finite())
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
        let rows: Vec<Vec<String>> = periodogram
            .values
            .iter()
            .enumerate()
            .map(|(i, value)| {
                let (kx, ky) = ((i % side) as i64 - m, (i / side) as i64 - m);
                vec![kx.to_string(), ky.to_string(), float(*value)]
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
    let mut paragraphs = vec![
        "The power spectrum shows how much structure a point set has at each frequency (cycles per \
         unit length), averaged over directions. White noise is flat at 1. Blue noise has almost no \
         power at low frequencies (no large clumps or holes), a peak near the inverse of the point \
         spacing, then settles at 1; the wider the empty low band, the better it samples without \
         aliasing. Grids and sequences show tall spikes."
            .into(),
    ];
    if d == 2 {
        paragraphs.push(
            "The images are the full 2D periodograms (frequency k_x, k_y, centred on 0): white noise \
             is an even speckle, blue noise a dark disc inside a bright ring, a grid or a Halton set \
             isolated bright dots. A ring that is round means the set looks the same in every \
             direction."
                .into(),
        );
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
        paragraphs: vec![
            "The pair correlation g(d) is the density of pairs at distance d relative to white noise \
             with as many points: 1 at every distance for white noise. A Poisson-disk set has g = 0 \
             below r, a peak just above r (the nearest neighbours) and damped waves around 1 after \
             it."
                .into(),
        ],
        figures: vec![figure],
        ..Section::default()
    }))
}

fn fit_cells(fit: Option<&PowerLaw>) -> [String; 3] {
    match fit {
        Some(f) => [
            format!("{:.3}", f.exponent),
            format_number(f.prefactor),
            format!("{:.4}", f.r_squared),
        ],
        None => ["—".into(), "—".into(), "—".into()],
    }
}

fn fit_row(sampler: &str, quantity: &str, fit: Option<&PowerLaw>, runs: usize) -> Vec<String> {
    let (exponent, prefactor, r2) = match fit {
        Some(f) => (float(f.exponent), float(f.prefactor), float(f.r_squared)),
        None => ("NaN".into(), "NaN".into(), "NaN".into()),
    };
    vec![sampler.into(), quantity.into(), exponent, prefactor, r2, runs.to_string()]
}

fn scaling_section(config: &Config, scaling: &ScalingResult) -> Result<Section, ReportError> {
    let d = scaling.dim;
    let mut table = Table {
        caption:
            "Power-law fits, time ≈ c · N^a and attempts ≈ c' · N^b (least squares on log–log \
                  axes)"
                .into(),
        header: ["sampler", "a (time)", "c [s]", "r²", "b (attempts)", "c'", "r²", "N", "runs"]
            .map(String::from)
            .to_vec(),
        rows: Vec::new(),
        text: false,
    };
    let mut fit_rows = Vec::new();
    for (series, fit) in scaling.series.iter().zip(&scaling.fits) {
        let ns: Vec<f64> = series.points.iter().map(|p| p.0).collect();
        let range = plot::finite_bounds(ns.iter().copied()).map_or("—".to_string(), |(a, b)| {
            format!("{}–{}", format_number(a), format_number(b))
        });
        let attempts = scaling
            .attempts
            .iter()
            .zip(&scaling.attempts_fits)
            .find(|(s, _)| s.name == series.name)
            .and_then(|(_, fit)| fit.as_ref());
        let mut row = vec![series.name.clone()];
        row.extend(fit_cells(fit.as_ref()));
        row.extend(match attempts {
            Some(f) => fit_cells(Some(f)),
            None => ["—".into(), "—".into(), "—".into()],
        });
        row.extend([range, series.points.len().to_string()]);
        table.rows.push(row);
        fit_rows.push(fit_row(&series.name, "seconds", fit.as_ref(), series.points.len()));
        if scaling.attempts.iter().any(|s| s.name == series.name) {
            fit_rows.push(fit_row(&series.name, "attempts", attempts, series.points.len()));
        }
    }
    let runs: Vec<Vec<String>> = scaling
        .runs
        .iter()
        .map(|r| {
            vec![
                r.sampler.clone(),
                d.to_string(),
                r.target.to_string(),
                r.n.to_string(),
                r.rep.to_string(),
                r.seed.to_string(),
                r.attempts.to_string(),
                float(r.seconds),
            ]
        })
        .collect();
    let data = vec![
        DataFile {
            file: "scaling.csv".into(),
            text: table_text(
                &["sampler", "dim", "target", "n", "rep", "seed", "attempts", "seconds"],
                &runs,
            ),
        },
        DataFile {
            file: "scaling-fits.csv".into(),
            text: table_text(
                &["sampler", "quantity", "exponent", "prefactor", "r_squared", "runs"],
                &fit_rows,
            ),
        },
    ];
    let mut figures = Vec::new();
    if positive(&scaling.series) {
        figures.push(Figure {
            file: "scaling.svg".into(),
            caption:
                "Time against N on log–log axes, one dot per run, with fitted power laws (exponent \
                  in the legend)."
                    .into(),
            svg: plot::scaling_chart(&ScalingChart {
                title: format!("Sampling time against N ({d}D)"),
                y_label: "time [s]".into(),
                series: scaling.series.clone(),
            })?,
            data: data.clone(),
        });
    }
    if positive(&scaling.attempts) {
        figures.push(Figure {
            file: "scaling-attempts.svg".into(),
            caption: "Candidates generated (accepted or rejected) against N for the radius-driven \
                      samplers, log–log, with fitted power laws. dart-throwing and dart-throwing-grid \
                      throw darts the same way, so their marks lie together."
                .into(),
            svg: plot::scaling_chart(&ScalingChart {
                title: format!("Attempts against N ({d}D)"),
                y_label: "attempts (candidates generated)".into(),
                series: scaling.attempts.clone(),
            })?,
            data,
        });
    }
    let caps: Vec<String> = config
        .scaling
        .iter()
        .flat_map(|s| &s.max_n)
        .map(|(name, n)| format!("{name} up to N = {n}"))
        .collect();
    let mut paragraphs = vec![format!(
        "Each dot is one timed sampling call: the points produced against wall-clock seconds (the \
         sampling alone, no metrics). Radius-driven samplers were given the radius relative_radius · \
         d_max(N) = {} · d_max(N) for each target N and are drawn at the count they produced. A slope \
         of 1 on these axes is linear time, O(N); a slope of 2 is quadratic, O(N²).",
        format_number(config.relative_radius)
    )];
    paragraphs.push(
        "Naive dart throwing checks every dart against every point placed, so its time grows about as \
         N² although its number of darts grows about as N; the grid version answers the same question \
         in constant time per dart and is linear, like Bridson's algorithm and best candidate with a \
         fixed number of candidates. (Dart throwing's attempts grow a little slower than N: a run \
         ends after a fixed number of misses in a row, and a larger set, throwing more darts, meets \
         such a streak a little further from saturation.) Times of a few microseconds are dominated by overheads and \
         scatter more."
            .into(),
    );
    if !caps.is_empty() {
        paragraphs.push(format!(
            "Target counts are capped per sampler to keep the run short: {}.",
            caps.join(", ")
        ));
    }
    Ok(Section {
        heading: format!("Scaling: time against N ({d}D)"),
        paragraphs,
        tables: vec![table],
        figures,
        subsections: Vec::new(),
    })
}

/// The summary printed to stdout: per dimension a table of points, time and the summary
/// metrics (means over realisations), then the scaling exponents.
pub(crate) fn summary<A: Analyzer>(config: &Config, data: &ReportData, analyzer: &A) -> String {
    let mut out = format!(
        "poisson-nd report: seed {}, {} realisation(s) per sampler, {} unit box\n",
        config.seed,
        config.realisations,
        if config.periodic { "periodic" } else { "closed" }
    );
    for dim in &data.dims {
        let columns: Vec<(String, String)> = analyzer
            .summary_columns(&chart_context(config, dim))
            .into_iter()
            .filter(|(m, _)| dim.samplers.iter().any(|s| !metric_values(s, m).is_empty()))
            .collect();
        out.push_str(&format!("\n{}D, r = {}", dim.dim, format_number(dim.radius)));
        if let Some(count) = dim.count {
            out.push_str(&format!(", N = {count} for the count-driven samplers"));
        }
        out.push_str(" (means over realisations)\n");
        let width = |heading: &str| heading.chars().count().max(9);
        out.push_str(&format!("  {:<20} {:>9} {:>10}", "sampler", "points", "time [ms]"));
        for (_, heading) in &columns {
            out.push_str(&format!(" {heading:>w$}", w = width(heading)));
        }
        out.push('\n');
        for sampler in &dim.samplers {
            let (points, _) =
                mean_se(&sampler.realisations.iter().map(|r| r.n as f64).collect::<Vec<_>>());
            let (ms, _) =
                mean_se(&sampler.realisations.iter().map(|r| r.seconds * 1e3).collect::<Vec<_>>());
            out.push_str(&format!(
                "  {:<20} {:>9} {:>10}",
                sampler.name,
                format_number(points),
                format_number(ms)
            ));
            for (metric, heading) in &columns {
                let values = metric_values(sampler, metric);
                let text = if values.is_empty() {
                    "—".to_string()
                } else {
                    format_number(mean_se(&values).0)
                };
                out.push_str(&format!(" {text:>w$}", w = width(heading)));
            }
            out.push('\n');
        }
    }
    if let Some(scaling) = &data.scaling {
        out.push_str(&format!(
            "\nscaling in {}D: power laws fitted on log-log axes\n  {:<20} {:>10} {:>8} {:>14} {:>8}  {}\n",
            scaling.dim, "sampler", "time ~ N^a", "r²", "attempts ~ N^b", "r²", "N"
        ));
        for (series, fit) in scaling.series.iter().zip(&scaling.fits) {
            let attempts = scaling
                .attempts
                .iter()
                .zip(&scaling.attempts_fits)
                .find(|(s, _)| s.name == series.name)
                .and_then(|(_, f)| f.as_ref());
            let pair = |fit: Option<&PowerLaw>| match fit {
                Some(f) => (format!("{:.3}", f.exponent), format!("{:.4}", f.r_squared)),
                None => ("—".into(), "—".into()),
            };
            let (a, ra) = pair(fit.as_ref());
            let (b, rb) = pair(attempts);
            let range = plot::finite_bounds(series.points.iter().map(|p| p.0))
                .map_or("—".to_string(), |(lo, hi)| {
                    format!("{}–{}", format_number(lo), format_number(hi))
                });
            out.push_str(&format!(
                "  {:<20} {a:>10} {ra:>8} {b:>14} {rb:>8}  {range}\n",
                series.name
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_standard_error() {
        assert_eq!(mean_se(&[1.0, 3.0]), (2.0, 1.0));
        assert_eq!(mean_se(&[5.0]), (5.0, 0.0));
        assert!(mean_se(&[]).0.is_nan());
        assert_eq!(mean_pm_se(&[1.0, 3.0]), "2 ± 1");
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
