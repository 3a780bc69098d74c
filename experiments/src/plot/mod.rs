//! SVG figures for the report, drawn with plotters' SVG backend.
//!
//! Every function takes plain data (the structs of this module and its submodules) and returns
//! the SVG document as a `String`. Nothing here reads fonts or calls C libraries: text becomes
//! SVG `<text>` elements in a generic `sans-serif` family that the viewer lays out, and the one
//! raster (the periodogram image) is a PNG encoded by this module and embedded as a data URI.
//!
//! Colours: every sampler keeps one colour in every figure, chosen by its position in
//! [`crate::catalogue::names`], the order of the specification (see [`sampler_colour`]).
//!
//! | figure | function |
//! | --- | --- |
//! | 2D point set | [`scatter::scatter_2d`] |
//! | 3D point set, three slabs or projections | [`projections::projections_3d`] |
//! | 2D point set over a grey map and outlines | [`overlay::overlay_2d`] |
//! | radial power spectra | [`spectrum::radial_spectra`] |
//! | curves with marked abscissae (special frequencies) | [`spectrum::marked_curves`] |
//! | 2D power spectrum image | [`heat_map::heat_map`] |
//! | nearest-neighbour histograms | [`histogram::nn_histograms`] |
//! | one scalar metric per sampler | [`metric_chart::metric_chart`] |
//! | time against N, log–log, with power-law fits | [`scaling::scaling_chart`] |
#![deny(missing_docs)]

pub mod heat_map;
pub mod histogram;
pub mod metric_chart;
pub mod overlay;
pub(crate) mod png;
pub mod projections;
pub mod scaling;
pub mod scatter;
pub mod spectrum;

pub use heat_map::{ColourScale, HeatMap, heat_map};
pub use histogram::{HistogramChart, NnHistogram, nn_histograms};
pub use metric_chart::{MetricChart, MetricEntry, Reference, metric_chart};
pub use overlay::{Background, Overlay2d, overlay_2d};

pub use projections::{Projections3d, projections_3d};
pub use scaling::{ScalingChart, scaling_chart};

pub use scatter::{Scatter2d, scatter_2d};
pub use spectrum::{
    Band, MARK_COLOUR, SpectrumChart, VerticalMarks, marked_curves, radial_spectra,
};

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea, SVGBackend, WHITE};
use plotters::style::RGBColor;

/// A named curve or point cloud: `(x, y)` pairs in drawing order.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The sampler (or other) name shown in the legend; it also picks the colour.
    pub name: String,
    /// The points.
    pub points: Vec<(f64, f64)>,
}

/// A figure could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the {figure} figure: {message}")]
pub struct PlotError {
    /// Which figure.
    pub figure: &'static str,
    /// What went wrong.
    pub message: String,
}

/// The palette, in the order of [`crate::catalogue::names`] (Okabe–Ito colours first, readable for
/// colour-blind viewers, then a few more). Chunked Bridson's crimson sits next to Bridson's
/// blue, and the sequences' green, magenta and teal before the brown, so that the other
/// samplers kept their colours when they joined; the optimisers (FPO, Lloyd, Gaussian blue
/// noise) came last, in cyan, salmon and lavender, and Bridson with the recent front after them,
/// in a blue of its own.
pub const PALETTE: [RGBColor; 18] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xC0, 0x14, 0x3C), // crimson
    RGBColor(0x7F, 0x7F, 0x7F), // grey
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0x6A, 0x3D, 0x9A), // purple
    RGBColor(0x33, 0x6B, 0x1F), // dark green
    RGBColor(0xE7, 0x29, 0x8A), // magenta
    RGBColor(0x00, 0x5F, 0x5F), // dark teal
    RGBColor(0x8C, 0x56, 0x4B), // brown
    RGBColor(0xB8, 0xA9, 0x00), // olive
    RGBColor(0x17, 0xBE, 0xCF), // cyan
    RGBColor(0xF0, 0x8A, 0x80), // salmon
    RGBColor(0x9A, 0x6F, 0xE0), // lavender
    RGBColor(0x3B, 0x4C, 0xC0), // royal blue
];

/// Colours of the series that are not samplers (a target curve, the surface samplers), apart
/// from every sampler's.
pub const OTHER_COLOURS: [RGBColor; 6] = [
    RGBColor(0x00, 0x00, 0x00), // black
    RGBColor(0x8B, 0x1A, 0x1A), // dark red
    RGBColor(0x1F, 0x2A, 0x6B), // navy
    RGBColor(0xA0, 0x78, 0x10), // dark goldenrod
    RGBColor(0x4A, 0x55, 0x68), // slate
    RGBColor(0x7B, 0x1F, 0x5E), // dark magenta
];

/// The colour of a sampler in every figure: the palette entry at the sampler's position in
/// [`crate::catalogue::names`]; names outside that list get a fixed colour from their bytes, one of
/// [`OTHER_COLOURS`], so that they never take a sampler's.
pub fn sampler_colour(name: &str) -> RGBColor {
    match crate::catalogue::names().iter().position(|known| *known == name) {
        Some(index) => PALETTE[index % PALETTE.len()],
        None => {
            let sum: usize = name.bytes().map(usize::from).sum();
            OTHER_COLOURS[sum % OTHER_COLOURS.len()]
        }
    }
}

/// The colour as SVG writes it (`#RRGGBB`), for tests and the HTML page.
pub fn colour_hex(colour: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", colour.0, colour.1, colour.2)
}

/// The font family of all text.
pub(crate) const FONT: &str = "sans-serif";

/// A centred text style of `size` pixels, for titles drawn by hand.
pub(crate) fn centred_text(size: u32) -> plotters::style::TextStyle<'static> {
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    plotters::style::TextStyle::from((FONT, size)).pos(Pos::new(HPos::Center, VPos::Center))
}

/// How a legend entry is marked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum LegendMark {
    /// A solid line.
    Line(RGBColor),
    /// A dashed line (reference values).
    Dashed(RGBColor),
    /// A filled box (a band between two curves), in a colour with its opacity.
    Filled(plotters::style::RGBAColor),
}

/// The width of a legend column drawn by [`draw_legend`], in pixels.
pub(crate) const LEGEND_WIDTH: u32 = 170;

/// Draws a legend into `area` (outside the plotting area, so it can never hide data): one
/// entry per item, top to bottom from `top` pixels down, each a swatch and one or two lines of
/// text (the second, if any, smaller).
pub(crate) fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    top: i32,
    entries: &[(LegendMark, String, Option<String>)],
) -> DrawResult {
    use plotters::element::PathElement;
    use plotters::style::Color;
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    let text = |size: u32| {
        plotters::style::TextStyle::from((FONT, size)).pos(Pos::new(HPos::Left, VPos::Center))
    };
    let mut y = top;
    for (mark, label, detail) in entries {
        match *mark {
            LegendMark::Line(colour) => {
                area.draw(&PathElement::new([(4, y), (26, y)], colour.stroke_width(3)))?;
            }
            LegendMark::Dashed(colour) => {
                for x in [4, 13, 22] {
                    area.draw(&PathElement::new([(x, y), (x + 5, y)], colour.stroke_width(2)))?;
                }
            }
            LegendMark::Filled(colour) => {
                area.draw(&plotters::element::Rectangle::new(
                    [(4, y - 5), (26, y + 5)],
                    colour.filled(),
                ))?;
            }
        }
        area.draw_text(label, &text(12), (32, y))?;
        y += 16;
        if let Some(detail) = detail {
            area.draw_text(detail, &text(11), (32, y))?;
            y += 16;
        }
        y += 4;
    }
    Ok(())
}

/// Appends SVG elements (rasters drawn after the vector layers: dots, a heat map's image) just
/// before the end of the document `svg`, on top of everything plotters drew.
pub(crate) fn append_layers(
    svg: &mut String,
    figure: &'static str,
    layers: &[String],
) -> Result<(), PlotError> {
    if layers.is_empty() {
        return Ok(());
    }
    let end = svg
        .rfind("</svg>")
        .ok_or_else(|| PlotError { figure, message: "the SVG is not closed".into() })?;
    svg.insert_str(end, &layers.concat());
    Ok(())
}

/// The error of a drawing closure.
pub(crate) type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// Draws into a fresh white SVG of `size` pixels and returns the document.
pub(crate) fn render(
    figure: &'static str,
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> DrawResult,
) -> Result<String, PlotError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let drawn = root
            .fill(&WHITE)
            .map_err(|e| e.into())
            .and_then(|()| draw(&root))
            .and_then(|()| root.present().map_err(|e| e.into()));
        drawn.map_err(|e| PlotError { figure, message: e.to_string() })?;
    }
    Ok(svg)
}

/// A range `[lo, hi]` widened by `fraction` of its length on each side (a unit range
/// around a single value), so that marks on the edges stay visible.
pub(crate) fn padded(lo: f64, hi: f64, fraction: f64) -> (f64, f64) {
    if !(lo.is_finite() && hi.is_finite()) {
        return (0.0, 1.0);
    }
    if hi <= lo {
        return (lo - 0.5, lo + 0.5);
    }
    let pad = (hi - lo) * fraction;
    (lo - pad, hi + pad)
}

/// The smallest and largest finite value of an iterator, if any.
pub fn finite_bounds(values: impl IntoIterator<Item = f64>) -> Option<(f64, f64)> {
    values.into_iter().filter(|v| v.is_finite()).fold(None, |bounds, v| match bounds {
        None => Some((v, v)),
        Some((lo, hi)) => Some((lo.min(v), hi.max(v))),
    })
}

/// Checks that a figure has something to draw.
pub(crate) fn require(figure: &'static str, ok: bool, message: &str) -> Result<(), PlotError> {
    if ok { Ok(()) } else { Err(PlotError { figure, message: message.to_string() }) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_samplers_have_distinct_fixed_colours() {
        let colours: Vec<_> = crate::catalogue::names().iter().map(|n| sampler_colour(n)).collect();
        for (i, a) in colours.iter().enumerate() {
            for b in &colours[i + 1..] {
                assert_ne!(a, b);
            }
        }
        assert_eq!(sampler_colour("bridson"), PALETTE[0]);
        assert_eq!(sampler_colour("no-such"), sampler_colour("no-such"));
        assert!(OTHER_COLOURS.iter().all(|c| !colours.contains(c)));
        // The surface samplers and the density target, charted beside each other, differ.
        let others: Vec<_> =
            ["fill", "fill-fronts", "fill-boundary", "elimination", "uniform", "target"]
                .map(sampler_colour)
                .to_vec();
        for (i, a) in others.iter().enumerate() {
            assert!(others[i + 1..].iter().all(|b| a != b));
        }
        assert_eq!(colour_hex(PALETTE[0]), "#0072B2");
    }

    #[test]
    fn padding_handles_degenerate_ranges() {
        assert_eq!(padded(1.0, 1.0, 0.1), (0.5, 1.5));
        assert_eq!(padded(0.0, 10.0, 0.1), (-1.0, 11.0));
        assert_eq!(finite_bounds([3.0, f64::NAN, -1.0]), Some((-1.0, 3.0)));
        assert_eq!(finite_bounds([f64::NAN]), None);
    }
}
