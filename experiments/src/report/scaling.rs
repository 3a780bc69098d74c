//! The scaling section of the page: the power-law fits as a table, the runs and fits as
//! data files, the two log–log charts, and the paragraphs that explain them.

use super::csv::table_text;
use super::html::{DataFile, Figure, Section, Table};
use super::{ReportError, ScalingResult, prose};
use crate::config::Config;
use crate::fit::PowerLaw;
use crate::format::{exact, short};
use crate::plot::{self, ScalingChart, Series};

/// The scaling section.
pub(crate) fn section(config: &Config, scaling: &ScalingResult) -> Result<Section, ReportError> {
    let data = data_files(scaling);
    Ok(Section {
        heading: format!("Scaling: time against N ({}D)", scaling.dim),
        paragraphs: paragraphs(config),
        tables: vec![fits_table(scaling)],
        figures: figures(config, scaling, data)?,
        subsections: Vec::new(),
    })
}

/// The fit of the attempts of the sampler whose time series is `series`, if it has one.
fn attempts_fit<'a>(scaling: &'a ScalingResult, series: &Series) -> Option<Option<&'a PowerLaw>> {
    scaling
        .attempts
        .iter()
        .zip(&scaling.attempts_fits)
        .find(|(s, _)| s.name == series.name)
        .map(|(_, fit)| fit.as_ref())
}

/// The range of N a series covers, as text.
pub(crate) fn n_range(series: &Series) -> String {
    plot::finite_bounds(series.points.iter().map(|p| p.0))
        .map_or("—".to_string(), |(lo, hi)| format!("{}–{}", short(lo), short(hi)))
}

/// One row per sampler: time exponent, prefactor, r², the same for attempts, N range, runs.
fn fits_table(scaling: &ScalingResult) -> Table {
    let cells = |fit: Option<&PowerLaw>| match fit {
        Some(f) => {
            [format!("{:.3}", f.exponent), short(f.prefactor), format!("{:.4}", f.r_squared)]
        }
        None => ["—".into(), "—".into(), "—".into()],
    };
    let rows = scaling
        .series
        .iter()
        .zip(&scaling.fits)
        .map(|(series, fit)| {
            let mut row = vec![series.name.clone()];
            row.extend(cells(fit.as_ref()));
            row.extend(cells(attempts_fit(scaling, series).flatten()));
            row.extend([n_range(series), series.points.len().to_string()]);
            row
        })
        .collect();
    Table {
        caption: "Power-law fits, time ≈ c · N^a and attempts ≈ c' · N^b (least squares on \
                  log–log axes)"
            .into(),
        header: ["sampler", "a (time)", "c [s]", "r²", "b (attempts)", "c'", "r²", "N", "runs"]
            .map(String::from)
            .to_vec(),
        rows,
        text: false,
    }
}

/// `scaling.csv` (every run) and `scaling-fits.csv` (every fit), behind both charts.
fn data_files(scaling: &ScalingResult) -> Vec<DataFile> {
    let fit_row = |sampler: &str, quantity: &str, fit: Option<&PowerLaw>, runs: usize| {
        let (exponent, prefactor, r2) = match fit {
            Some(f) => (exact(f.exponent), exact(f.prefactor), exact(f.r_squared)),
            None => ("NaN".into(), "NaN".into(), "NaN".into()),
        };
        vec![sampler.into(), quantity.into(), exponent, prefactor, r2, runs.to_string()]
    };
    let mut fits = Vec::new();
    for (series, fit) in scaling.series.iter().zip(&scaling.fits) {
        let runs = series.points.len();
        fits.push(fit_row(&series.name, "seconds", fit.as_ref(), runs));
        if let Some(attempts) = attempts_fit(scaling, series) {
            fits.push(fit_row(&series.name, "attempts", attempts, runs));
        }
    }
    let runs: Vec<Vec<String>> = scaling
        .runs
        .iter()
        .map(|r| {
            vec![
                r.sampler.clone(),
                scaling.dim.to_string(),
                r.target.to_string(),
                r.n.to_string(),
                r.rep.to_string(),
                r.seed.to_string(),
                r.attempts.to_string(),
                exact(r.seconds),
            ]
        })
        .collect();
    vec![
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
                &fits,
            ),
        },
    ]
}

/// Whether a scaling series has a point a log–log chart can show.
fn positive(series: &[Series]) -> bool {
    series.iter().flat_map(|s| &s.points).any(|p| p.0 > 0.0 && p.1 > 0.0 && p.1.is_finite())
}

/// Time against N, and attempts against N for the radius-driven samplers.
fn figures(
    config: &Config,
    scaling: &ScalingResult,
    data: Vec<DataFile>,
) -> Result<Vec<Figure>, ReportError> {
    let d = scaling.dim;
    let mut figures = Vec::new();
    if positive(&scaling.series) {
        figures.push(Figure {
            file: "scaling.svg".into(),
            caption: prose::SCALING_TIME_CAPTION.into(),
            svg: plot::scaling_chart(&ScalingChart {
                title: format!("Sampling time against N ({d}D)"),
                y_label: "time [s]".into(),
                series: scaling.series.clone(),
            })?,
            data: data.clone(),
        });
    }
    if positive(&scaling.attempts) {
        // Samplers that throw the same candidates as another one charted here.
        let charted = |name: &str| scaling.attempts.iter().any(|s| s.name == name);
        let twins: Vec<(&str, &str)> = config
            .samplers
            .iter()
            .filter(|spec| charted(spec.name()))
            .filter_map(|spec| Some((spec.twin()?.spec.name(), spec.name())))
            .filter(|(twin, _)| charted(twin))
            .collect();
        figures.push(Figure {
            file: "scaling-attempts.svg".into(),
            caption: prose::scaling_attempts_caption(&twins),
            svg: plot::scaling_chart(&ScalingChart {
                title: format!("Attempts against N ({d}D)"),
                y_label: "attempts (candidates generated)".into(),
                series: scaling.attempts.clone(),
            })?,
            data,
        });
    }
    Ok(figures)
}

/// How the experiment was run, why the samplers scale as they do, and the caps.
fn paragraphs(config: &Config) -> Vec<String> {
    let caps: Vec<String> = config
        .scaling
        .iter()
        .flat_map(|s| &s.max_n)
        .map(|(name, n)| format!("{name} up to N = {n}"))
        .collect();
    let mut paragraphs =
        vec![prose::scaling_method(config.relative_radius), prose::SCALING_WHY.to_string()];
    if !caps.is_empty() {
        paragraphs.push(prose::scaling_caps(&caps));
    }
    paragraphs
}
