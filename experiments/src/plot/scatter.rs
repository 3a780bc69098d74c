//! A 2D point set in its domain, at unit aspect with the domain box drawn.

use super::png::{image_element, palette_png};
use super::{
    DrawResult, FONT, PlotError, append_layers, centred_text, render, require, sampler_colour,
};
use crate::format::short;
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

/// A 2D point set to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Scatter2d {
    /// Title above the panel.
    pub title: String,
    /// The sampler: picks the colour.
    pub name: String,
    /// The points.
    pub points: Vec<[f64; 2]>,
    /// Lower corner of the domain.
    pub lo: [f64; 2],
    /// Upper corner of the domain.
    pub hi: [f64; 2],
}

/// The longer side of a point panel's plotting area, in pixels: every panel of every figure
/// uses the same scale, so point sets can be compared side by side.
pub(crate) const PANEL_SIDE: u32 = 280;
const MARGIN: u32 = 8;
const TITLE: u32 = 28;
const LEFT: u32 = 40;
const BOTTOM: u32 = 44;

/// Draws one 2D point set: the domain at unit aspect (its longer side `PANEL_SIDE` = 280 pixels),
/// the domain box in black, the points as dots in the sampler's colour.
pub fn scatter_2d(plot: &Scatter2d) -> Result<String, PlotError> {
    require("scatter", valid_box(plot.lo, plot.hi), "the domain box is empty or not finite")?;
    let size = panel_size(plot.lo, plot.hi);
    let mut layers = Vec::new();
    let mut svg = render("scatter", size, |root| {
        let panel = (plot.lo, plot.hi, ("x", "y"));
        point_panel(root, &plot.title, &plot.name, panel, &plot.points, &mut layers)
    })?;
    append_layers(&mut svg, "scatter", &layers)?;
    Ok(svg)
}

/// Up to this many points a panel draws its dots as SVG circles; above, as one embedded raster
/// (a PNG at two pixels per SVG pixel), so that a figure of tens of thousands of
/// points stays small. The data files hold every point either way.
pub const VECTOR_DOTS_UP_TO: usize = 100;

/// Raster pixels per SVG pixel of a dot layer: sharp at twice the page's size.
const SUPERSAMPLE: i32 = 2;

/// Draws `points` as dots of the sampler's `colour` into `chart` (whose axes span `lo..hi`),
/// their radius from the typical spacing so that dense and sparse sets both read well: as
/// circles up to [`VECTOR_DOTS_UP_TO`] points, else as a raster pushed onto `layers` (to be
/// appended to the document with [`append_layers`]).
pub(crate) fn draw_dots(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    points: &[[f64; 2]],
    colour: RGBColor,
    (lo, hi): ([f64; 2], [f64; 2]),
    layers: &mut Vec<String>,
) -> DrawResult {
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    let (width, height) = (xs.end - xs.start, ys.end - ys.start);
    let spacing = f64::from(width.min(height)) / (points.len().max(1) as f64).sqrt();
    let radius = (0.25 * spacing).clamp(1.0, 3.0).round() as i32;
    if points.len() <= VECTOR_DOTS_UP_TO {
        chart.draw_series(
            points.iter().map(|p| Circle::new((p[0], p[1]), radius, colour.filled())),
        )?;
        return Ok(());
    }
    let (w, h) = (width * SUPERSAMPLE, height * SUPERSAMPLE);
    let mut pixels = vec![0u8; (w * h) as usize];
    let r = f64::from(radius * SUPERSAMPLE);
    for p in points {
        // Pixel centres at half-integers; y grows downwards.
        let cx = (p[0] - lo[0]) / (hi[0] - lo[0]) * f64::from(w);
        let cy = (hi[1] - p[1]) / (hi[1] - lo[1]) * f64::from(h);
        if !(cx.is_finite() && cy.is_finite()) {
            continue;
        }
        let (x0, x1) = (((cx - r).floor() as i32).max(0), ((cx + r).ceil() as i32).min(w));
        let (y0, y1) = (((cy - r).floor() as i32).max(0), ((cy + r).ceil() as i32).min(h));
        for y in y0..y1 {
            for x in x0..x1 {
                let (dx, dy) = (f64::from(x) + 0.5 - cx, f64::from(y) + 0.5 - cy);
                if dx * dx + dy * dy <= r * r {
                    pixels[(y * w + x) as usize] = 1;
                }
            }
        }
    }
    let palette = [[255, 255, 255, 0], [colour.0, colour.1, colour.2, 255]];
    let png = palette_png(w as u32, h as u32, &pixels, &palette)?;
    layers.push(image_element(&png, (xs.start, ys.start, width, height), false));
    Ok(())
}

pub(crate) fn valid_box(lo: [f64; 2], hi: [f64; 2]) -> bool {
    (0..2).all(|i| lo[i].is_finite() && hi[i].is_finite() && hi[i] > lo[i])
}

/// Pixel size of one panel showing the box `[lo, hi]` at unit aspect.
pub(crate) fn panel_size(lo: [f64; 2], hi: [f64; 2]) -> (u32, u32) {
    let (plot_w, plot_h) = plot_area(lo, hi);
    (plot_w + LEFT + 2 * MARGIN, plot_h + TITLE + BOTTOM + MARGIN)
}

fn plot_area(lo: [f64; 2], hi: [f64; 2]) -> (u32, u32) {
    let (w, h) = (hi[0] - lo[0], hi[1] - lo[1]);
    let longer = w.max(h);
    let side = |extent: f64| ((f64::from(PANEL_SIDE) * extent / longer).round() as u32).max(20);
    (side(w), side(h))
}

/// Draws a point panel into `area` (sized by [`panel_size`]).
/// `panel` is the box `(lo, hi)` and the axes' names; dots past [`VECTOR_DOTS_UP_TO`] go to
/// `layers` as a raster.
pub(crate) fn point_panel(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    title: &str,
    name: &str,
    (lo, hi, axis_names): ([f64; 2], [f64; 2], (&str, &str)),
    points: &[[f64; 2]],
    layers: &mut Vec<String>,
) -> DrawResult {
    let colour = sampler_colour(name);
    let (plot_w, _) = plot_area(lo, hi);
    area.draw_text(
        title,
        &centred_text(15),
        ((LEFT + MARGIN + plot_w / 2) as i32, (TITLE / 2) as i32),
    )?;
    let mut chart = ChartBuilder::on(area)
        .margin(MARGIN)
        .margin_top(TITLE)
        .x_label_area_size(BOTTOM - MARGIN)
        .y_label_area_size(LEFT)
        .build_cartesian_2d(lo[0]..hi[0], lo[1]..hi[1])?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(3)
        .y_labels(3)
        .x_label_formatter(&|v| short(*v))
        .y_label_formatter(&|v| short(*v))
        .x_desc(axis_names.0)
        .y_desc(axis_names.1)
        .label_style((FONT, 11))
        .axis_desc_style((FONT, 12))
        .draw()?;
    draw_dots(&mut chart, points, colour, (lo, hi), layers)?;
    chart.draw_series(std::iter::once(Rectangle::new(
        [(lo[0], lo[1]), (hi[0], hi[1])],
        BLACK.stroke_width(1),
    )))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_every_point_at_unit_aspect() {
        let plot = Scatter2d {
            title: "bridson, N = 3".into(),
            name: "bridson".into(),
            points: vec![[0.1, 0.2], [0.5, 0.5], [0.9, 0.7]],
            lo: [0.0, 0.0],
            hi: [2.0, 1.0],
        };
        let svg = scatter_2d(&plot).unwrap();
        assert_eq!(svg.matches("<circle").count(), 3);
        assert!(svg.contains("bridson, N = 3"));
        assert_eq!(plot_area(plot.lo, plot.hi), (PANEL_SIDE, PANEL_SIDE / 2));
    }

    #[test]
    fn rejects_an_empty_box() {
        let plot = Scatter2d {
            title: String::new(),
            name: "bridson".into(),
            points: vec![],
            lo: [0.0, 0.0],
            hi: [0.0, 1.0],
        };
        assert!(scatter_2d(&plot).is_err());
    }
}
