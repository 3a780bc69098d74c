//! A 2D point set drawn over what it was sampled from: a grey image of a map (a density) in
//! the background, outlines (a region's boundary) as black lines, the points on top.

use super::png::{image_element, opaque, palette_png};
use super::scatter::draw_dots;
use super::{FONT, PlotError, append_layers, centred_text, render, require, sampler_colour};
use crate::format::short;
use plotters::prelude::*;

/// A grid of values shown in grey behind the points.
#[derive(Debug, Clone, PartialEq)]
pub struct Background {
    /// Number of cells along x.
    pub columns: usize,
    /// Number of cells along y.
    pub rows: usize,
    /// The values, row by row, the first row at the lowest y: `values[row * columns + column]`.
    pub values: Vec<f64>,
    /// The value drawn white; lower values are white too.
    pub min: f64,
    /// The value drawn darkest grey; higher values are too.
    pub max: f64,
}

/// A 2D point set over a background and outlines.
#[derive(Debug, Clone, PartialEq)]
pub struct Overlay2d {
    /// Title above the panel.
    pub title: String,
    /// The sampler: picks the colour of the points.
    pub name: String,
    /// The points.
    pub points: Vec<[f64; 2]>,
    /// Lower corner of the box drawn.
    pub lo: [f64; 2],
    /// Upper corner of the box drawn.
    pub hi: [f64; 2],
    /// The image behind the points, stretched over the box; `None` for none.
    pub background: Option<Background>,
    /// Closed rings (the last vertex joins the first), drawn as black lines.
    pub outlines: Vec<Vec<[f64; 2]>>,
}

/// The longer side of the plotting area, in pixels: larger than the comparison's panels,
/// because these sets are drawn whole.
const SIDE: u32 = 420;
const MARGIN: u32 = 8;
const TITLE: u32 = 28;
const LEFT: u32 = 40;
const BOTTOM: u32 = 44;
/// The background's greys: white for `min`, this grey for `max`, light enough that points in
/// every sampler colour stay visible on it.
const DARKEST: u8 = 140;
const GREYS: usize = 64;

/// Draws the box at unit aspect with the background image, the outlines and the points.
pub fn overlay_2d(plot: &Overlay2d) -> Result<String, PlotError> {
    const FIGURE: &str = "overlay";
    let ok_box = (0..2).all(|i| plot.lo[i].is_finite() && plot.hi[i].is_finite())
        && (0..2).all(|i| plot.hi[i] > plot.lo[i]);
    require(FIGURE, ok_box, "the box is empty or not finite")?;
    if let Some(map) = &plot.background {
        require(FIGURE, map.columns > 0 && map.rows > 0, "the background is empty")?;
        require(
            FIGURE,
            map.values.len() == map.columns * map.rows,
            "the number of background values is not columns × rows",
        )?;
        require(
            FIGURE,
            map.min.is_finite() && map.max.is_finite() && map.max > map.min,
            "the background's scale needs finite min < max",
        )?;
    }
    let (w, h) = (plot.hi[0] - plot.lo[0], plot.hi[1] - plot.lo[1]);
    let longer = w.max(h);
    let side = |extent: f64| ((f64::from(SIDE) * extent / longer).round() as u32).max(20);
    let (plot_w, plot_h) = (side(w), side(h));
    let size = (plot_w + LEFT + 2 * MARGIN, plot_h + TITLE + BOTTOM + MARGIN);
    let colour = sampler_colour(&plot.name);
    let mut image_box = (0, 0, 0, 0);
    let mut layers = Vec::new();
    let mut svg = render(FIGURE, size, |root| {
        root.draw_text(
            &plot.title,
            &centred_text(15),
            ((LEFT + MARGIN + plot_w / 2) as i32, (TITLE / 2) as i32),
        )?;
        let (lo, hi) = (plot.lo, plot.hi);
        let mut chart = ChartBuilder::on(root)
            .margin(MARGIN)
            .margin_top(TITLE)
            .x_label_area_size(BOTTOM - MARGIN)
            .y_label_area_size(LEFT)
            .build_cartesian_2d(lo[0]..hi[0], lo[1]..hi[1])?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(5)
            .y_labels(5)
            .x_label_formatter(&|v| short(*v))
            .y_label_formatter(&|v| short(*v))
            .x_desc("x")
            .y_desc("y")
            .label_style((FONT, 11))
            .axis_desc_style((FONT, 12))
            .draw()?;
        let (xs, ys) = chart.plotting_area().get_pixel_range();
        image_box = (xs.start, ys.start, xs.end - xs.start, ys.end - ys.start);
        for ring in plot.outlines.iter().filter(|r| !r.is_empty()) {
            let closed = ring.iter().chain(ring.first()).map(|p| (p[0], p[1]));
            chart.draw_series(std::iter::once(PathElement::new(
                closed.collect::<Vec<_>>(),
                BLACK.stroke_width(1),
            )))?;
        }
        draw_dots(&mut chart, &plot.points, colour, (lo, hi), &mut layers)?;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(lo[0], lo[1]), (hi[0], hi[1])],
            BLACK.stroke_width(1),
        )))?;
        Ok(())
    })?;
    append_layers(&mut svg, FIGURE, &layers)?;
    if let Some(map) = &plot.background {
        let image = background_image(map, image_box)
            .map_err(|message| PlotError { figure: FIGURE, message })?;
        // Behind everything: right after the white rectangle that fills the page.
        let at = svg
            .find("<rect")
            .and_then(|start| svg[start..].find("/>").map(|end| start + end + 2))
            .ok_or_else(|| PlotError { figure: FIGURE, message: "no page background".into() })?;
        svg.insert_str(at, &format!("\n{image}"));
    }
    Ok(svg)
}

/// The background as an SVG `<image>` (an embedded grey PNG) over the plotting area.
fn background_image(map: &Background, image_box: (i32, i32, i32, i32)) -> Result<String, String> {
    let greys: Vec<[u8; 3]> = (0..GREYS)
        .map(|i| {
            let t = i as f64 / (GREYS - 1) as f64;
            let g = (255.0 - t * f64::from(255 - DARKEST)).round() as u8;
            [g, g, g]
        })
        .collect();
    // PNG rows run top to bottom: the last row of values first.
    let mut pixels = Vec::with_capacity(map.values.len());
    for row in (0..map.rows).rev() {
        for value in &map.values[row * map.columns..(row + 1) * map.columns] {
            let t = ((value - map.min) / (map.max - map.min)).clamp(0.0, 1.0);
            let t = if t.is_nan() { 0.0 } else { t };
            pixels.push((t * (GREYS - 1) as f64).round() as u8);
        }
    }
    let png = palette_png(map.columns as u32, map.rows as u32, &pixels, &opaque(&greys))?;
    Ok(image_element(&png, image_box, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plot() -> Overlay2d {
        Overlay2d {
            title: "bridson".into(),
            name: "bridson".into(),
            points: vec![[0.1, 0.2], [0.5, 0.5], [0.9, 0.7]],
            lo: [0.0, 0.0],
            hi: [1.0, 1.0],
            background: Some(Background {
                columns: 2,
                rows: 2,
                values: vec![0.0, 1.0, 0.5, f64::NAN],
                min: 0.0,
                max: 1.0,
            }),
            outlines: vec![vec![[0.2, 0.2], [0.8, 0.2], [0.5, 0.8]]],
        }
    }

    #[test]
    fn draws_the_image_first_then_outlines_and_points() {
        let svg = overlay_2d(&plot()).unwrap();
        assert_eq!(svg.matches("<circle").count(), 3);
        assert_eq!(svg.matches("<image").count(), 1);
        let image = svg.find("<image").unwrap();
        assert!(image < svg.find("<circle").unwrap() && image < svg.find("<polyline").unwrap());
        assert!(svg.trim_end().ends_with("</svg>"));
        let mut bare = plot();
        bare.background = None;
        assert!(!overlay_2d(&bare).unwrap().contains("<image"));
    }

    #[test]
    fn rejects_bad_input() {
        let mut wrong = plot();
        wrong.background.as_mut().unwrap().values.pop();
        assert!(overlay_2d(&wrong).is_err());
        let mut flat = plot();
        flat.background.as_mut().unwrap().max = 0.0;
        assert!(overlay_2d(&flat).is_err());
        let mut empty = plot();
        empty.hi = [0.0, 1.0];
        assert!(overlay_2d(&empty).is_err());
    }
}
