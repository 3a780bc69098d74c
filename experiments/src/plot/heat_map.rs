//! A grid of values as an image (e.g. a 2D power spectrum), with a colour scale.

use super::png::{image_element, opaque, palette_png};
use super::{FONT, PlotError, append_layers, centred_text, render, require};
use crate::format::short;
use plotters::prelude::*;

/// How values map to colours. Values outside `[min, max]` take the end colours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ColourScale {
    /// Linear between `min` and `max`.
    Linear {
        /// The value of the first colour.
        min: f64,
        /// The value of the last colour.
        max: f64,
    },
    /// Linear in log10 between `min` and `max` (both positive); values at or below `min`,
    /// zero and negative ones included, take the first colour.
    Log10 {
        /// The value of the first colour.
        min: f64,
        /// The value of the last colour.
        max: f64,
    },
}

impl ColourScale {
    fn is_valid(&self) -> bool {
        match *self {
            ColourScale::Linear { min, max } => min.is_finite() && max.is_finite() && max > min,
            ColourScale::Log10 { min, max } => {
                min.is_finite() && max.is_finite() && min > 0.0 && max > min
            }
        }
    }

    /// The bar coordinate of a value (the value itself, or its log10) and the bar's ends.
    fn axis(&self, value: f64) -> f64 {
        match *self {
            ColourScale::Linear { .. } => value,
            ColourScale::Log10 { min, .. } => value.max(min).log10(),
        }
    }

    fn axis_range(&self) -> (f64, f64) {
        match *self {
            ColourScale::Linear { min, max } => (min, max),
            ColourScale::Log10 { min, max } => (min.log10(), max.log10()),
        }
    }

    /// Position of `value` on the scale, in `[0, 1]` (non-finite values map to 0).
    pub fn position(&self, value: f64) -> f64 {
        let (lo, hi) = self.axis_range();
        let t = (self.axis(value) - lo) / (hi - lo);
        if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) }
    }
}

/// A grid of values to draw as an image.
#[derive(Debug, Clone, PartialEq)]
pub struct HeatMap {
    /// Title above the image.
    pub title: String,
    /// Number of cells along x.
    pub columns: usize,
    /// Number of cells along y.
    pub rows: usize,
    /// The values, row by row, the first row at the lowest y: `values[row * columns + column]`.
    pub values: Vec<f64>,
    /// The x coordinates of the left edge of the first column and the right edge of the last.
    pub x_range: (f64, f64),
    /// The y coordinates of the bottom edge of the first row and the top edge of the last.
    pub y_range: (f64, f64),
    /// Label of the x axis.
    pub x_label: String,
    /// Label of the y axis.
    pub y_label: String,
    /// Label of the colour scale.
    pub colour_label: String,
    /// How values map to colours.
    pub scale: ColourScale,
}

const PLOT_SIDE: u32 = 300;
const MARGIN: u32 = 10;
const TITLE: u32 = 28;
const LEFT: u32 = 48;
const BOTTOM: u32 = 44;
const BAR_AREA: u32 = 96;
/// Levels of the colour map: 32 steps of viridis, each a step the eye can tell from the next,
/// and a third of the raster's bytes of 256 (whose steps it cannot); the data file beside the
/// figure holds the values.
const COLOURS: usize = 32;

/// Draws the grid as an image in the viridis colour map (embedded PNG, cells kept sharp),
/// with axes in the grid's coordinates and a colour bar labelled in values.
pub fn heat_map(map: &HeatMap) -> Result<String, PlotError> {
    const FIGURE: &str = "heat map";
    require(FIGURE, map.columns > 0 && map.rows > 0, "the grid is empty")?;
    require(
        FIGURE,
        map.values.len() == map.columns * map.rows,
        "the number of values is not columns × rows",
    )?;
    require(FIGURE, map.scale.is_valid(), "the colour scale needs finite min < max (> 0 for log)")?;
    let ranges_ok =
        [map.x_range, map.y_range].iter().all(|r| r.0.is_finite() && r.1.is_finite() && r.1 > r.0);
    require(FIGURE, ranges_ok, "the axis ranges must be finite and increasing")?;

    let colours: Vec<[u8; 3]> = (0..COLOURS)
        .map(|i| {
            let c: RGBColor = ViridisRGB.get_color(i as f64 / (COLOURS - 1) as f64);
            [c.0, c.1, c.2]
        })
        .collect();
    // PNG rows run top to bottom: the last row of values first.
    let mut pixels = Vec::with_capacity(map.values.len());
    for row in (0..map.rows).rev() {
        for value in &map.values[row * map.columns..(row + 1) * map.columns] {
            pixels.push((map.scale.position(*value) * (COLOURS - 1) as f64).round() as u8);
        }
    }
    let png = palette_png(map.columns as u32, map.rows as u32, &pixels, &opaque(&colours))
        .map_err(|message| PlotError { figure: FIGURE, message })?;

    let aspect = (map.y_range.1 - map.y_range.0) / (map.x_range.1 - map.x_range.0);
    let (plot_w, plot_h) = if aspect <= 1.0 {
        (PLOT_SIDE, ((f64::from(PLOT_SIDE) * aspect).round() as u32).max(20))
    } else {
        (((f64::from(PLOT_SIDE) / aspect).round() as u32).max(20), PLOT_SIDE)
    };
    let left_width = plot_w + LEFT + 2 * MARGIN;
    let size = (left_width + BAR_AREA, plot_h + TITLE + BOTTOM + MARGIN);
    let mut image_box = (0, 0, 0, 0);
    let mut svg = render(FIGURE, size, |root| {
        let (left, right) = root.split_horizontally(left_width);
        left.draw_text(
            &map.title,
            &centred_text(15),
            ((LEFT + MARGIN + plot_w / 2) as i32, (TITLE / 2) as i32),
        )?;
        let mut chart = ChartBuilder::on(&left)
            .margin(MARGIN)
            .margin_top(TITLE)
            .x_label_area_size(BOTTOM - MARGIN)
            .y_label_area_size(LEFT)
            .build_cartesian_2d(map.x_range.0..map.x_range.1, map.y_range.0..map.y_range.1)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(5)
            .y_labels(5)
            .x_label_formatter(&|v| short(*v))
            .y_label_formatter(&|v| short(*v))
            .x_desc(map.x_label.as_str())
            .y_desc(map.y_label.as_str())
            .label_style((FONT, 11))
            .axis_desc_style((FONT, 12))
            .draw()?;
        let (xs, ys) = chart.plotting_area().get_pixel_range();
        image_box = (xs.start, ys.start, xs.end - xs.start, ys.end - ys.start);

        let (lo, hi) = map.scale.axis_range();
        let mut bar = ChartBuilder::on(&right)
            .margin(MARGIN)
            .margin_top(TITLE)
            .margin_left(4)
            .x_label_area_size(BOTTOM - MARGIN)
            .right_y_label_area_size(56)
            .build_cartesian_2d(0.0..1.0, lo..hi)?;
        let log = matches!(map.scale, ColourScale::Log10 { .. });
        bar.configure_mesh()
            .disable_mesh()
            .disable_x_axis()
            .y_labels(6)
            .y_label_formatter(&|v| short(if log { 10f64.powf(*v) } else { *v }))
            .y_desc(map.colour_label.as_str())
            .label_style((FONT, 11))
            .axis_desc_style((FONT, 12))
            .draw()?;
        // The bar shows the image's levels: level i covers the values whose position rounds
        // to it.
        let steps = COLOURS;
        bar.draw_series((0..steps).map(|i| {
            let top = (steps - 1) as f64;
            let (a, b) = (((i as f64 - 0.5) / top).max(0.0), ((i as f64 + 0.5) / top).min(1.0));
            let colour: RGBColor = ViridisRGB.get_color(i as f64 / top);
            Rectangle::new([(0.0, lo + a * (hi - lo)), (1.0, lo + b * (hi - lo))], colour.filled())
        }))?;
        Ok(())
    })?;
    append_layers(&mut svg, FIGURE, &[image_element(&png, image_box, true)])?;
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(scale: ColourScale) -> HeatMap {
        HeatMap {
            title: "periodogram".into(),
            columns: 3,
            rows: 2,
            values: vec![0.0, 1.0, 10.0, 100.0, f64::NAN, 0.5],
            x_range: (-1.5, 1.5),
            y_range: (-1.0, 1.0),
            x_label: "kx".into(),
            y_label: "ky".into(),
            colour_label: "power".into(),
            scale,
        }
    }

    #[test]
    fn scales_clip_and_handle_zero() {
        let log = ColourScale::Log10 { min: 0.1, max: 10.0 };
        assert_eq!(log.position(0.0), 0.0);
        assert_eq!(log.position(1.0), 0.5);
        assert_eq!(log.position(1e9), 1.0);
        assert_eq!(log.position(f64::NAN), 0.0);
        let linear = ColourScale::Linear { min: 0.0, max: 2.0 };
        assert_eq!(linear.position(0.5), 0.25);
    }

    #[test]
    fn embeds_one_image() {
        let svg = heat_map(&map(ColourScale::Log10 { min: 0.1, max: 10.0 })).unwrap();
        assert_eq!(svg.matches("<image").count(), 1);
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(heat_map(&map(ColourScale::Log10 { min: 0.0, max: 10.0 })).is_err());
        let mut wrong = map(ColourScale::Linear { min: 0.0, max: 1.0 });
        wrong.values.pop();
        assert!(heat_map(&wrong).is_err());
    }
}
