//! The summary `experiments report` prints to stdout: per dimension a table of points, time
//! and the summary metrics (means over realisations), then the scaling exponents.

use super::analysis::Analyzer;
use super::sections::{chart_context, metric_values};
use super::{DimResult, ReportData, ScalingResult};
use crate::config::Config;
use crate::fit::PowerLaw;
use crate::format::short;
use crate::metrics::baseline::mean_and_error;

/// The whole summary.
pub(crate) fn summary<A: Analyzer>(config: &Config, data: &ReportData, analyzer: &A) -> String {
    let mut out = format!(
        "poisson-nd report: seed {}, {} realisation(s) per sampler, {} box\n",
        config.seed,
        config.realisations,
        if config.periodic { "periodic" } else { "closed" }
    );
    for dim in &data.dims {
        out.push_str(&dim_table(config, dim, analyzer));
    }
    if let Some(scaling) = &data.scaling {
        out.push_str(&scaling_table(scaling));
    }
    out
}

/// One dimension: a row per sampler.
fn dim_table<A: Analyzer>(config: &Config, dim: &DimResult, analyzer: &A) -> String {
    let columns: Vec<(String, String)> = analyzer
        .summary_columns(&chart_context(config, dim))
        .into_iter()
        .filter(|(m, _)| dim.samplers.iter().any(|s| !metric_values(s, m).is_empty()))
        .collect();
    let mut out = format!("\n{}D, r = {}", dim.dim, short(dim.radius));
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
        let mean = |values: Vec<f64>| short(mean_and_error(&values).pair().0);
        let points = mean(sampler.realisations.iter().map(|r| r.n as f64).collect());
        let ms = mean(sampler.realisations.iter().map(|r| r.seconds * 1e3).collect());
        out.push_str(&format!("  {:<20} {points:>9} {ms:>10}", sampler.name));
        for (metric, heading) in &columns {
            let values = metric_values(sampler, metric);
            let text = if values.is_empty() { "—".to_string() } else { mean(values) };
            out.push_str(&format!(" {text:>w$}", w = width(heading)));
        }
        out.push('\n');
    }
    out
}

/// The scaling experiment: a row of exponents per sampler.
fn scaling_table(scaling: &ScalingResult) -> String {
    let mut out = format!(
        "\nscaling in {}D: power laws fitted on log-log axes\n  {:<20} {:>10} {:>8} {:>14} {:>8}  {}\n",
        scaling.dim, "sampler", "time ~ N^a", "r²", "attempts ~ N^b", "r²", "N"
    );
    let pair = |fit: Option<&PowerLaw>| match fit {
        Some(f) => (format!("{:.3}", f.exponent), format!("{:.4}", f.r_squared)),
        None => ("—".into(), "—".into()),
    };
    for (series, fit) in scaling.series.iter().zip(&scaling.fits) {
        let attempts = scaling
            .attempts
            .iter()
            .zip(&scaling.attempts_fits)
            .find(|(s, _)| s.name == series.name)
            .and_then(|(_, f)| f.as_ref());
        let (a, ra) = pair(fit.as_ref());
        let (b, rb) = pair(attempts);
        let range = super::scaling::n_range(series);
        out.push_str(&format!("  {:<20} {a:>10} {ra:>8} {b:>14} {rb:>8}  {range}\n", series.name));
    }
    out
}
