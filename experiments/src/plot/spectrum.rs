//! Curves of several samplers on one chart: radial power spectra, pair correlation
//! functions.

use super::{
    FONT, LEGEND_WIDTH, LegendMark, PlotError, Reference, Series, draw_legend, finite_bounds,
    render, require, sampler_colour,
};
use crate::format::short;
use plotters::prelude::*;

/// Curves to draw together, one per sampler (radial power spectra, pair correlation).
#[derive(Debug, Clone, PartialEq)]
pub struct SpectrumChart {
    /// Title above the chart.
    pub title: String,
    /// Label of the x axis (e.g. "|k| / √N").
    pub x_label: String,
    /// Label of the y axis (e.g. "power").
    pub y_label: String,
    /// One curve per sampler: (x, y).
    pub series: Vec<Series>,
    /// A horizontal reference line, dashed (white noise has power 1 at every frequency and
    /// pair correlation 1 at every distance); `None` for none.
    pub reference: Option<Reference>,
    /// Top of the y axis; `None` fits the data (and the reference line). Curves above it
    /// are cut at the frame.
    pub y_max: Option<f64>,
    /// Bottom of the y axis; `None`: 0 (powers and pair correlations are never negative).
    /// Curves below it are cut at the frame.
    pub y_min: Option<f64>,
    /// A shaded band drawn under the curves (a simulation envelope); `None` for none.
    pub band: Option<Band>,
}

/// A shaded band between two curves sampled at the same abscissae: the pointwise range of
/// simulations of a reference model, for instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Band {
    /// The legend's text.
    pub label: String,
    /// The lower edge: (x, y) by increasing x.
    pub lower: Vec<(f64, f64)>,
    /// The upper edge, at the same x as `lower`.
    pub upper: Vec<(f64, f64)>,
}

/// The fill of [`Band`]: a light grey that every sampler colour shows against.
const BAND_FILL: RGBAColor = RGBAColor(0x55, 0x55, 0x55, 0.22);

/// Size of the plot, without the legend column to its right.
const SIZE: (u32, u32) = (680, 420);

/// The grey of reference lines.
pub(crate) const REFERENCE_GREY: RGBColor = RGBColor(0x55, 0x55, 0x55);

/// Vertical dashed lines at chosen abscissae (special frequencies), under one legend entry.
#[derive(Debug, Clone, PartialEq)]
pub struct VerticalMarks {
    /// The legend's text for all of them.
    pub label: String,
    /// Where they stand on the x axis; those outside the data's range are not drawn.
    pub at: Vec<f64>,
}

/// The colour of [`VerticalMarks`]: a dark red that no sampler has.
pub const MARK_COLOUR: RGBColor = RGBColor(0xA0, 0x1C, 0x1C);

/// Draws every series as a line in its sampler's colour, the y axis from 0, the reference as
/// a dashed grey line, and a legend in a column to the right of the plot.
pub fn radial_spectra(chart: &SpectrumChart) -> Result<String, PlotError> {
    draw_curves(chart, None)
}

/// [`radial_spectra`] with vertical dashed lines in [`MARK_COLOUR`] at `marks.at` (in the
/// data's x range), listed in the legend as `marks.label` over a line with their positions.
pub fn marked_curves(chart: &SpectrumChart, marks: &VerticalMarks) -> Result<String, PlotError> {
    draw_curves(chart, Some(marks))
}

fn draw_curves(chart: &SpectrumChart, marks: Option<&VerticalMarks>) -> Result<String, PlotError> {
    const FIGURE: &str = "radial spectrum";
    let xs = finite_bounds(chart.series.iter().flat_map(|s| s.points.iter().map(|p| p.0)));
    let ys = finite_bounds(chart.series.iter().flat_map(|s| s.points.iter().map(|p| p.1)));
    let (Some((x_lo, x_hi)), Some((_, y_hi))) = (xs, ys) else {
        return Err(PlotError { figure: FIGURE, message: "no finite points".into() });
    };
    let x_lo = x_lo.min(0.0);
    let x_hi = if x_hi > x_lo { x_hi } else { x_lo + 1.0 };
    let bottom = chart.y_min.unwrap_or(0.0);
    let top = chart.y_max.unwrap_or_else(|| {
        let reference = chart.reference.as_ref().map_or(0.0, |r| r.value);
        bottom + ((y_hi.max(reference) - bottom) * 1.08).max(f64::MIN_POSITIVE)
    });
    require(
        FIGURE,
        bottom.is_finite() && top.is_finite() && top > bottom,
        "the top of the y axis must be above its bottom",
    )?;
    let clamp = |y: f64| y.clamp(bottom, top);
    render(FIGURE, (SIZE.0 + LEGEND_WIDTH, SIZE.1), |root| {
        let root = root.titled(&chart.title, (FONT, 18))?;
        let (plot, legend) = root.split_horizontally(SIZE.0);
        let mut ctx = ChartBuilder::on(&plot)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(52)
            .build_cartesian_2d(x_lo..x_hi, bottom..top)?;
        ctx.configure_mesh()
            .x_label_formatter(&|v| short(*v))
            // A tick the axis reaches by adding steps can miss 0 by a rounding error.
            .y_label_formatter(&|v| short(if v.abs() < 1e-9 * (top - bottom) { 0.0 } else { *v }))
            .x_desc(chart.x_label.as_str())
            .y_desc(chart.y_label.as_str())
            .label_style((FONT, 12))
            .axis_desc_style((FONT, 13))
            .light_line_style(WHITE)
            .bold_line_style(BLACK.mix(0.08))
            .draw()?;
        let mut entries = Vec::new();
        if let Some(band) = &chart.band {
            // The lower edge forwards, the upper edge backwards: one closed polygon.
            let edge = |points: &[(f64, f64)]| -> Vec<(f64, f64)> {
                points
                    .iter()
                    .filter(|p| p.0.is_finite() && p.1.is_finite())
                    .map(|&(x, y)| (x, clamp(y)))
                    .collect()
            };
            let mut outline = edge(&band.lower);
            outline.extend(edge(&band.upper).into_iter().rev());
            if outline.len() >= 3 {
                ctx.draw_series(std::iter::once(Polygon::new(outline, BAND_FILL.filled())))?;
            }
            entries.push((LegendMark::Filled(BAND_FILL), band.label.clone(), None));
        }
        if let Some(reference) = &chart.reference {
            ctx.draw_series(DashedLineSeries::new(
                [(x_lo, reference.value), (x_hi, reference.value)],
                6,
                4,
                REFERENCE_GREY.stroke_width(1),
            ))?;
        }
        if let Some(marks) = marks {
            for &x in marks.at.iter().filter(|x| (x_lo..=x_hi).contains(*x)) {
                ctx.draw_series(DashedLineSeries::new(
                    [(x, bottom), (x, top)],
                    5,
                    4,
                    MARK_COLOUR.stroke_width(1),
                ))?;
            }
        }
        for series in &chart.series {
            let colour = sampler_colour(&series.name);
            // Points outside the frame are clipped to it, so a cut peak stays visible.
            let points = series
                .points
                .iter()
                .filter(|p| p.0.is_finite() && p.1.is_finite())
                .map(|&(x, y)| (x, clamp(y)));
            ctx.draw_series(LineSeries::new(points, colour.stroke_width(2)))?;
            entries.push((LegendMark::Line(colour), series.name.clone(), None));
        }
        if let Some(reference) = &chart.reference {
            entries.push((LegendMark::Dashed(REFERENCE_GREY), reference.label.clone(), None));
        }
        if let Some(marks) = marks {
            let shown: Vec<String> =
                marks.at.iter().filter(|x| (x_lo..=x_hi).contains(*x)).map(|&x| short(x)).collect();
            let detail = (!shown.is_empty()).then(|| format!("at {}", shown.join(", ")));
            entries.push((LegendMark::Dashed(MARK_COLOUR), marks.label.clone(), detail));
        }
        draw_legend(&legend, 24, &entries)
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
            y_label: "power".into(),
            series: vec![
                Series { name: "bridson".into(), points: vec![(0.1, 0.0), (1.0, 1.6), (2.0, 1.0)] },
                Series {
                    name: "white-noise".into(),
                    points: vec![(0.1, 1.1), (1.0, 0.9), (2.0, 1.0)],
                },
            ],
            reference: Some(Reference { label: "white noise".into(), value: 1.0 }),
            y_max: None,
            y_min: None,
            band: None,
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

    #[test]
    fn marks_are_dashed_lines_inside_the_range_with_a_legend_entry() {
        let chart = SpectrumChart {
            title: "Periodogram along k_x".into(),
            x_label: "k_x".into(),
            y_label: "power".into(),
            series: vec![Series {
                name: "bridson".into(),
                points: (1..=16).map(|j| (j as f64, 0.05 + 0.001 * j as f64)).collect(),
            }],
            reference: None,
            y_max: None,
            y_min: None,
            band: None,
        };
        let stroke = format!("stroke=\"{}\"", super::super::colour_hex(MARK_COLOUR));
        assert_eq!(radial_spectra(&chart).unwrap().matches(&stroke).count(), 0);
        let one = VerticalMarks { label: "chunk frequency".into(), at: vec![5.0] };
        let one_svg = marked_curves(&chart, &one).unwrap();
        assert!(one_svg.contains("chunk frequency"));
        // The legend's swatch is three dashes; a line from 0 to the top is more than three.
        let per_line = one_svg.matches(&stroke).count() - 3;
        assert!(per_line > 3, "{per_line}");
        let three =
            VerticalMarks { label: "chunk frequency".into(), at: vec![5.0, 10.0, 15.0, 99.0] };
        let three_svg = marked_curves(&chart, &three).unwrap();
        assert_eq!(three_svg.matches(&stroke).count(), 3 * per_line + 3, "99 is off the chart");
        // The legend lists the marks drawn (the text is written on a line of its own).
        assert!(three_svg.contains("\nat 5, 10, 15\n"));
    }
}
