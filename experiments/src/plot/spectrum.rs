//! Radial power spectra of several samplers on one chart.

use super::{
    FONT, PlotError, Series, finite_bounds, format_number, render, require, sampler_colour,
};
use plotters::prelude::*;

/// Radial power spectra to draw together.
#[derive(Debug, Clone, PartialEq)]
pub struct SpectrumChart {
    /// Title above the chart.
    pub title: String,
    /// Label of the frequency axis (its unit, e.g. "|k| / √N").
    pub x_label: String,
    /// One curve per sampler: (frequency, mean power).
    pub series: Vec<Series>,
    /// A horizontal reference line (white noise has power 1 at every frequency); `None` for
    /// none.
    pub reference: Option<f64>,
    /// Top of the power axis; `None` fits the data (and the reference line). Curves above it
    /// are cut at the frame.
    pub y_max: Option<f64>,
}

const SIZE: (u32, u32) = (680, 420);

/// Draws every series as a line in its sampler's colour, power axis from 0, the reference as
/// a dashed grey line, and a legend.
pub fn radial_spectra(chart: &SpectrumChart) -> Result<String, PlotError> {
    const FIGURE: &str = "radial spectrum";
    let xs = finite_bounds(chart.series.iter().flat_map(|s| s.points.iter().map(|p| p.0)));
    let ys = finite_bounds(chart.series.iter().flat_map(|s| s.points.iter().map(|p| p.1)));
    let (Some((x_lo, x_hi)), Some((_, y_hi))) = (xs, ys) else {
        return Err(PlotError { figure: FIGURE, message: "no finite points".into() });
    };
    let x_hi = if x_hi > x_lo { x_hi } else { x_lo + 1.0 };
    let top = chart.y_max.unwrap_or_else(|| {
        let reference = chart.reference.unwrap_or(0.0);
        (y_hi.max(reference) * 1.08).max(f64::MIN_POSITIVE)
    });
    require(FIGURE, top.is_finite() && top > 0.0, "the top of the power axis must be positive")?;
    render(FIGURE, SIZE, |root| {
        let mut ctx = ChartBuilder::on(root)
            .caption(&chart.title, (FONT, 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(52)
            .build_cartesian_2d(x_lo.min(0.0)..x_hi, 0.0..top)?;
        ctx.configure_mesh()
            .x_label_formatter(&|v| format_number(*v))
            .y_label_formatter(&|v| format_number(*v))
            .x_desc(chart.x_label.as_str())
            .y_desc("power")
            .label_style((FONT, 12))
            .axis_desc_style((FONT, 13))
            .light_line_style(WHITE)
            .bold_line_style(BLACK.mix(0.08))
            .draw()?;
        if let Some(reference) = chart.reference {
            ctx.draw_series(DashedLineSeries::new(
                [(x_lo.min(0.0), reference), (x_hi, reference)],
                6,
                4,
                RGBColor(0x55, 0x55, 0x55).stroke_width(1),
            ))?;
        }
        for series in &chart.series {
            let colour = sampler_colour(&series.name);
            let points =
                series.points.iter().copied().filter(|p| p.0.is_finite() && p.1.is_finite());
            ctx.draw_series(LineSeries::new(points, colour.stroke_width(2)))?
                .label(series.name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 18, y)], colour.stroke_width(2))
                });
        }
        ctx.configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.4))
            .label_font((FONT, 12))
            .draw()?;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_per_sampler_and_a_reference() {
        let chart = SpectrumChart {
            title: "Radial power spectrum, 2D".into(),
            x_label: "|k| / √N".into(),
            series: vec![
                Series { name: "bridson".into(), points: vec![(0.1, 0.0), (1.0, 1.6), (2.0, 1.0)] },
                Series {
                    name: "white-noise".into(),
                    points: vec![(0.1, 1.1), (1.0, 0.9), (2.0, 1.0)],
                },
            ],
            reference: Some(1.0),
            y_max: None,
        };
        let svg = radial_spectra(&chart).unwrap();
        for name in ["bridson", "white-noise"] {
            let stroke = format!("stroke=\"{}\"", super::super::colour_hex(sampler_colour(name)));
            // The curve and the legend swatch.
            assert!(svg.matches(&stroke).count() >= 2, "{name}");
            assert!(svg.contains(&format!(">{name}<")) || svg.contains(name));
        }
        let empty = SpectrumChart { series: vec![], ..chart };
        assert!(radial_spectra(&empty).is_err());
    }
}
