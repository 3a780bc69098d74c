//! A quantity against N on log–log axes (time, attempts), one colour per sampler, with
//! fitted power laws.

use super::{
    FONT, LEGEND_WIDTH, LegendMark, PlotError, Series, draw_legend, finite_bounds, render, require,
    sampler_colour,
};
use crate::fit::{PowerLaw, power_law};
use crate::format::short;
use plotters::prelude::*;

/// Measurements to draw: one series of `(N, value)` per sampler (repeated runs as separate
/// points), e.g. seconds or attempts.
#[derive(Debug, Clone, PartialEq)]
pub struct ScalingChart {
    /// Title above the chart.
    pub title: String,
    /// Label of the value axis (e.g. `"time [s]"`).
    pub y_label: String,
    /// The measurements, one series per sampler.
    pub series: Vec<Series>,
}

/// Size of the plot, without the legend column to its right.
const SIZE: (u32, u32) = (680, 440);

/// The power law fitted to each series (by [`power_law`]), `None` where a fit is impossible
/// (fewer than two distinct N, or a zero time).
pub fn fits(chart: &ScalingChart) -> Vec<Option<PowerLaw>> {
    chart.series.iter().map(|s| power_law(&s.points).ok()).collect()
}

/// Draws the measurements as dots and each fitted power law as a line across the measured
/// range, both in the sampler's colour; the legend gives each sampler's exponent.
pub fn scaling_chart(chart: &ScalingChart) -> Result<String, PlotError> {
    const FIGURE: &str = "scaling";
    let positive = |p: &&(f64, f64)| p.0.is_finite() && p.0 > 0.0 && p.1.is_finite() && p.1 > 0.0;
    let all = || chart.series.iter().flat_map(|s| s.points.iter().filter(positive));
    let (Some((x_lo, x_hi)), Some((y_lo, y_hi))) =
        (finite_bounds(all().map(|p| p.0)), finite_bounds(all().map(|p| p.1)))
    else {
        return Err(PlotError { figure: FIGURE, message: "no positive measurements".into() });
    };
    require(FIGURE, x_lo > 0.0 && y_lo > 0.0, "log axes need positive values")?;
    let fitted = fits(chart);
    render(FIGURE, (SIZE.0 + LEGEND_WIDTH, SIZE.1), |root| {
        let root = root.titled(&chart.title, (FONT, 18))?;
        let (plot, legend) = root.split_horizontally(SIZE.0);
        let mut ctx = ChartBuilder::on(&plot)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(64)
            .build_cartesian_2d(
                (x_lo / 1.25..x_hi * 1.25).log_scale(),
                (y_lo / 1.6..y_hi * 1.6).log_scale(),
            )?;
        ctx.configure_mesh()
            .x_labels(6)
            .y_labels(6)
            .x_desc("number of points N")
            .y_desc(chart.y_label.as_str())
            .x_label_formatter(&|v| short(*v))
            .y_label_formatter(&|v| short(*v))
            .label_style((FONT, 12))
            .axis_desc_style((FONT, 13))
            .light_line_style(WHITE)
            .bold_line_style(BLACK.mix(0.08))
            .draw()?;
        let mut entries = Vec::new();
        for (series, fit) in chart.series.iter().zip(&fitted) {
            let colour = sampler_colour(&series.name);
            ctx.draw_series(
                series.points.iter().filter(positive).map(|&p| Circle::new(p, 3, colour.filled())),
            )?;
            let detail = fit.map(|f| format!("∝ N^{:.2} (r² {:.3})", f.exponent, f.r_squared));
            entries.push((
                LegendMark::Line(colour),
                series.name.clone(),
                Some(detail.unwrap_or_else(|| "no fit".into())),
            ));
            let Some(fit) = fit else {
                continue;
            };
            let Some((a, b)) = finite_bounds(series.points.iter().filter(positive).map(|p| p.0))
            else {
                continue;
            };
            let steps = 24;
            let line = (0..=steps).map(|i| {
                let x = a * (b / a).powf(i as f64 / steps as f64);
                (x, fit.eval(x))
            });
            ctx.draw_series(LineSeries::new(line, colour.stroke_width(2)))?;
        }
        draw_legend(&legend, 24, &entries)
    })
}

#[cfg(test)]
mod tests {
    use super::super::colour_hex;
    use super::*;

    #[test]
    fn a_fitted_line_per_sampler_with_its_slope() {
        let series = |name: &str, exponent: f64| Series {
            name: name.into(),
            points: [100.0, 1000.0, 10000.0]
                .iter()
                .map(|&n| (n, 1e-7 * f64::powf(n, exponent)))
                .collect(),
        };
        let chart = ScalingChart {
            title: "Time against N".into(),
            y_label: "time [s]".into(),
            series: vec![series("bridson", 1.0), series("white-noise", 1.5)],
        };
        let svg = scaling_chart(&chart).unwrap();
        assert!(svg.contains("N^1.00"), "{svg}");
        assert!(svg.contains("N^1.50"));
        for name in ["bridson", "white-noise"] {
            let stroke = format!(
                "<polyline fill=\"none\" opacity=\"1\" stroke=\"{}\"",
                colour_hex(sampler_colour(name))
            );
            assert!(svg.contains(&stroke), "{name}");
        }
        let fits = fits(&chart);
        assert!((fits[1].unwrap().exponent - 1.5).abs() < 1e-9);
    }
}
