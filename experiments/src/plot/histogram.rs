//! Nearest-neighbour distance histograms, one panel per sampler, with the white-noise
//! expectation overlaid.

use super::{
    FONT, LegendMark, PlotError, draw_legend, finite_bounds, render, require, sampler_colour,
};
use crate::format::short;
use plotters::prelude::*;

/// One sampler's histogram.
#[derive(Debug, Clone, PartialEq)]
pub struct NnHistogram {
    /// The sampler: panel title and colour.
    pub name: String,
    /// Bin edges, increasing: one more than there are values.
    pub edges: Vec<f64>,
    /// Bar heights (counts or densities, as the expectation is scaled).
    pub values: Vec<f64>,
    /// The expected curve for white noise of the same density, in the bars' units; empty for
    /// none.
    pub expected: Vec<(f64, f64)>,
}

/// Histograms drawn as small multiples on shared axes.
#[derive(Debug, Clone, PartialEq)]
pub struct HistogramChart {
    /// Title above the panels.
    pub title: String,
    /// Label of the distance axis.
    pub x_label: String,
    /// Label of the height axis.
    pub y_label: String,
    /// The histograms, one panel each, in this order.
    pub histograms: Vec<NnHistogram>,
}

/// The colour of the expected (white-noise) curve.
pub const EXPECTED_COLOUR: RGBColor = RGBColor(0x22, 0x22, 0x22);
const PANEL: (u32, u32) = (300, 210);
const COLUMNS: usize = 3;
const TITLE: u32 = 30;
const LEGEND: u32 = 18;

/// Draws one panel per histogram (up to three per row), all with the same axes: bars in the
/// sampler's colour and the expected curve as a dark line, named in a legend under the title.
pub fn nn_histograms(chart: &HistogramChart) -> Result<String, PlotError> {
    const FIGURE: &str = "nearest-neighbour histogram";
    require(FIGURE, !chart.histograms.is_empty(), "no histograms")?;
    for h in &chart.histograms {
        require(FIGURE, h.edges.len() == h.values.len() + 1, "edges must be one more than values")?;
        require(FIGURE, h.edges.windows(2).all(|w| w[1] > w[0]), "edges must increase")?;
    }
    let edges = chart.histograms.iter().flat_map(|h| h.edges.iter().copied());
    let curve_x = chart.histograms.iter().flat_map(|h| h.expected.iter().map(|p| p.0));
    let heights = chart
        .histograms
        .iter()
        .flat_map(|h| h.values.iter().copied().chain(h.expected.iter().map(|p| p.1)));
    let (Some((x_lo, x_hi)), Some((_, y_hi))) =
        (finite_bounds(edges.chain(curve_x)), finite_bounds(heights))
    else {
        return Err(PlotError { figure: FIGURE, message: "no finite values".into() });
    };
    let x_hi = if x_hi > x_lo { x_hi } else { x_lo + 1.0 };
    let y_hi = if y_hi > 0.0 { y_hi * 1.08 } else { 1.0 };

    let columns = chart.histograms.len().min(COLUMNS);
    let rows = chart.histograms.len().div_ceil(columns);
    let size = (PANEL.0 * columns as u32, PANEL.1 * rows as u32 + TITLE + LEGEND);
    let with_curve = chart.histograms.iter().any(|h| !h.expected.is_empty());
    render(FIGURE, size, |root| {
        let root = root.titled(&chart.title, (FONT, 17))?;
        let (legend, root) = root.split_vertically(LEGEND);
        if with_curve {
            let (_, right) = legend.split_horizontally(size.0 / 2 - 90);
            let label = "white noise, same number of points".to_string();
            draw_legend(&right, 8, &[(LegendMark::Line(EXPECTED_COLOUR), label, None)])?;
        }
        let panels = root.split_evenly((rows, columns));
        for (histogram, panel) in chart.histograms.iter().zip(&panels) {
            let colour = sampler_colour(&histogram.name);
            let mut ctx = ChartBuilder::on(panel)
                .caption(&histogram.name, (FONT, 13))
                .margin(6)
                .x_label_area_size(34)
                .y_label_area_size(44)
                .build_cartesian_2d(x_lo..x_hi, 0.0..y_hi)?;
            ctx.configure_mesh()
                .disable_mesh()
                .x_labels(5)
                .y_labels(4)
                .x_label_formatter(&|v| short(*v))
                .y_label_formatter(&|v| short(*v))
                .x_desc(chart.x_label.as_str())
                .y_desc(chart.y_label.as_str())
                .label_style((FONT, 10))
                .axis_desc_style((FONT, 11))
                .draw()?;
            ctx.draw_series(
                histogram.values.iter().enumerate().filter(|(_, v)| v.is_finite()).map(
                    |(i, &v)| {
                        let (a, b) = (histogram.edges[i], histogram.edges[i + 1]);
                        Rectangle::new([(a, 0.0), (b, v)], colour.mix(0.75).filled())
                    },
                ),
            )?;
            if !histogram.expected.is_empty() {
                let curve = histogram
                    .expected
                    .iter()
                    .copied()
                    .filter(|p| p.0.is_finite() && p.1.is_finite());
                ctx.draw_series(LineSeries::new(curve, EXPECTED_COLOUR.stroke_width(2)))?;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::super::colour_hex;
    use super::*;

    fn histogram(name: &str) -> NnHistogram {
        NnHistogram {
            name: name.into(),
            edges: vec![0.0, 0.5, 1.0, 1.5],
            values: vec![0.2, 1.4, 0.4],
            expected: vec![(0.0, 0.0), (0.5, 0.9), (1.0, 0.6), (1.5, 0.2)],
        }
    }

    #[test]
    fn one_expected_curve_per_panel() {
        let chart = HistogramChart {
            title: "NN distance".into(),
            x_label: "d / r".into(),
            y_label: "density".into(),
            histograms: ["bridson", "white-noise", "bridson", "white-noise"]
                .map(histogram)
                .to_vec(),
        };
        let svg = nn_histograms(&chart).unwrap();
        let curve = format!("stroke=\"{}\"", colour_hex(EXPECTED_COLOUR));
        // One curve per panel and the legend's swatch.
        assert_eq!(svg.matches(&curve).count(), 5);
        let mut bad = chart.clone();
        bad.histograms[0].values.pop();
        assert!(nn_histograms(&bad).is_err());
    }
}
