//! One scalar metric per sampler as a dot chart, with optional error bars and a reference.

use super::spectrum::REFERENCE_GREY;
use super::{
    FONT, LegendMark, PlotError, draw_legend, finite_bounds, padded, render, require,
    sampler_colour,
};
use crate::format::short;
use plotters::prelude::*;

/// One sampler's value.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricEntry {
    /// The sampler: row label and colour.
    pub name: String,
    /// The value (e.g. the mean over realisations).
    pub value: f64,
    /// Half-length of the error bar (e.g. one standard deviation); `None` for none.
    pub error: Option<f64>,
}

/// A labelled reference value drawn as a dashed vertical line (e.g. the white-noise
/// expectation, or the relative radius of a saturated packing).
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    /// What the value is.
    pub label: String,
    /// The value.
    pub value: f64,
}

/// A metric across samplers.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricChart {
    /// Title above the chart.
    pub title: String,
    /// Label of the value axis (the metric and its unit).
    pub label: String,
    /// One row per sampler, drawn top to bottom in this order.
    pub entries: Vec<MetricEntry>,
    /// An optional reference line.
    pub reference: Option<Reference>,
    /// Whether the value axis starts at zero (for rates and fractions); otherwise it fits
    /// the data.
    pub from_zero: bool,
}

const WIDTH: u32 = 600;
const ROW: u32 = 30;

/// Draws a dot per sampler in its colour, with error bars where given, and the reference.
pub fn metric_chart(chart: &MetricChart) -> Result<String, PlotError> {
    const FIGURE: &str = "metric";
    require(FIGURE, !chart.entries.is_empty(), "no entries")?;
    let ends = chart.entries.iter().flat_map(|e| {
        let error = e.error.filter(|x| x.is_finite()).unwrap_or(0.0).abs();
        [e.value - error, e.value + error]
    });
    let reference = chart.reference.iter().map(|r| r.value);
    let zero = chart.from_zero.then_some(0.0);
    let Some((lo, hi)) = finite_bounds(ends.chain(reference).chain(zero)) else {
        return Err(PlotError { figure: FIGURE, message: "no finite values".into() });
    };
    let (mut x_lo, x_hi) = padded(lo, hi, 0.08);
    if chart.from_zero && lo >= 0.0 {
        x_lo = 0.0;
    }
    let rows = chart.entries.len();
    // A strip under the title holds the reference's legend, outside the plotting area.
    let strip = if chart.reference.is_some() { 22 } else { 0 };
    let size = (WIDTH, ROW * rows as u32 + 110 + strip);
    render(FIGURE, size, |root| {
        let root = root.titled(&chart.title, (FONT, 17))?;
        let (legend, plot) = root.split_vertically(strip);
        if let Some(reference) = &chart.reference {
            let label = format!("{} = {}", reference.label, short(reference.value));
            let (_, right) = legend.split_horizontally(152);
            draw_legend(&right, 10, &[(LegendMark::Dashed(REFERENCE_GREY), label, None)])?;
        }
        let mut ctx = ChartBuilder::on(&plot)
            .margin(12)
            .margin_top(4)
            .x_label_area_size(40)
            .y_label_area_size(140)
            .build_cartesian_2d(x_lo..x_hi, (0..rows - 1).into_segmented())?;
        let names: Vec<&str> = chart.entries.iter().map(|e| e.name.as_str()).collect();
        ctx.configure_mesh()
            .disable_y_mesh()
            .light_line_style(WHITE)
            .bold_line_style(BLACK.mix(0.08))
            .x_labels(6)
            .y_labels(rows)
            .y_label_formatter(&|v| match v {
                SegmentValue::CenterOf(row) if *row < rows => names[rows - 1 - row].to_string(),
                _ => String::new(),
            })
            .x_label_formatter(&|v| short(*v))
            .x_desc(chart.label.as_str())
            .label_style((FONT, 12))
            .axis_desc_style((FONT, 13))
            .draw()?;
        if let Some(reference) = &chart.reference {
            ctx.draw_series(DashedLineSeries::new(
                [(reference.value, SegmentValue::Exact(0)), (reference.value, SegmentValue::Last)],
                5,
                4,
                REFERENCE_GREY.stroke_width(1),
            ))?;
        }
        for (i, entry) in chart.entries.iter().enumerate() {
            let row = SegmentValue::CenterOf(rows - 1 - i);
            let colour = sampler_colour(&entry.name);
            if let Some(error) = entry.error.filter(|e| e.is_finite() && *e > 0.0) {
                let (a, b) = (entry.value - error, entry.value + error);
                ctx.draw_series(std::iter::once(PathElement::new(
                    [(a, row.clone()), (b, row.clone())],
                    colour.stroke_width(2),
                )))?;
                for end in [a, b] {
                    let cap = EmptyElement::at((end, row.clone()))
                        + PathElement::new([(0, -5), (0, 5)], colour.stroke_width(2));
                    ctx.draw_series(std::iter::once(cap))?;
                }
            }
            if entry.value.is_finite() {
                ctx.draw_series(std::iter::once(Circle::new(
                    (entry.value, row),
                    5,
                    colour.filled(),
                )))?;
            }
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dot_per_sampler() {
        let chart = MetricChart {
            title: "Relative radius".into(),
            label: "ρ_rel".into(),
            entries: vec![
                MetricEntry { name: "bridson".into(), value: 0.7, error: Some(0.01) },
                MetricEntry { name: "white-noise".into(), value: 0.02, error: None },
            ],
            reference: Some(Reference { label: "saturated RSA".into(), value: 0.777 }),
            from_zero: true,
        };
        let svg = metric_chart(&chart).unwrap();
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(svg.contains("bridson") && svg.contains("white-noise"));
        assert!(svg.contains("saturated RSA"));
        let single =
            MetricChart { entries: chart.entries[..1].to_vec(), reference: None, ..chart.clone() };
        assert_eq!(metric_chart(&single).unwrap().matches("<circle").count(), 1);
        assert!(metric_chart(&MetricChart { entries: vec![], ..chart }).is_err());
    }
}
