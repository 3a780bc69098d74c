//! The preview: a top view of the hill-shaded terrain, north up, each class's instances as
//! discs of its colour (radius 0.3 of the instance's radius, so the terrain shows between
//! them), and a legend. On a mesh terrain the raster covers the ground rectangle, and where
//! the mesh has no ground (no upward-facing top surface) it is water blue.
//!
//! The picture is an SVG: the terrain and the discs are one raster (a PNG embedded as a
//! base64 data URI, so the file stays small whatever the count), the legend is SVG text and
//! shapes laid out by the viewer. Pixel row 0 is the north edge (the largest `z`), as in every
//! map the project reads.

use crate::plot::png::base64;
use poisson_nd::error::Short;
use poisson_nd::scatter::{Ground, Instance};
use std::fmt::Write as _;

/// The longest side of the raster, in pixels.
pub const PREVIEW_PIXELS: usize = 1024;

/// sRGB colours of the classes, by declaration index (repeating).
pub const COLOURS: [[u8; 3]; 6] = [
    [24, 100, 32],
    [150, 190, 40],
    [120, 110, 150],
    [30, 110, 200],
    [220, 120, 20],
    [200, 40, 120],
];

/// The colour of class `index`.
pub fn colour(index: usize) -> [u8; 3] {
    COLOURS[index % COLOURS.len()]
}

/// Where there is no ground.
const WATER: [u8; 3] = [168, 198, 224];

/// The preview's SVG text.
pub fn render(ground: &Ground, names: &[String], instances: &[Instance]) -> Result<String, String> {
    let ([x0, z0], [x1, z1]) = ground.rectangle();
    let (lx, lz) = (x1 - x0, z1 - z0);
    let scale = PREVIEW_PIXELS as f64 / lx.max(lz);
    let width = ((lx * scale).round() as usize).max(1);
    let height = ((lz * scale).round() as usize).max(1);
    let mut pixels = vec![0u8; width * height * 3];
    // Light from the north-west, 45° up: x east, y up, z north.
    let light = {
        let l = [-1.0, std::f64::consts::SQRT_2, 1.0];
        let n = (l[0] * l[0] + l[1] * l[1] + l[2] * l[2]).sqrt();
        [l[0] / n, l[1] / n, l[2] / n]
    };
    let (low, high) = ground.height_range();
    let span = (high - low).max(f64::MIN_POSITIVE);
    for row in 0..height {
        let z = z1 - (row as f64 + 0.5) / scale;
        for column in 0..width {
            let x = x0 + (column as f64 + 0.5) / scale;
            let at = (row * width + column) * 3;
            let Some(surface) = ground.surface(x, z) else {
                pixels[at..at + 3].copy_from_slice(&WATER);
                continue;
            };
            let n = surface.normal;
            let shade = 0.3 + 0.7 * (n[0] * light[0] + n[1] * light[1] + n[2] * light[2]).max(0.0);
            // A pale tint from low (sand) to high (white).
            let t = ((surface.height - low) / span).clamp(0.0, 1.0);
            let tint = [200.0 + 55.0 * t, 195.0 + 60.0 * t, 170.0 + 85.0 * t];
            for k in 0..3 {
                pixels[at + k] = (tint[k] * shade).clamp(0.0, 255.0) as u8;
            }
        }
    }
    for inst in instances {
        let [x, _, z] = inst.position;
        let (cx, cy) = ((x - x0) * scale, (z1 - z) * scale);
        let radius = (0.3 * inst.radius * scale).max(0.8);
        let c = colour(inst.class);
        let (x0, x1) =
            ((cx - radius).floor().max(0.0) as usize, ((cx + radius).ceil() as usize).min(width));
        let (y0, y1) =
            ((cy - radius).floor().max(0.0) as usize, ((cy + radius).ceil() as usize).min(height));
        for py in y0..y1 {
            for px in x0..x1 {
                let (dx, dy) = (px as f64 + 0.5 - cx, py as f64 + 0.5 - cy);
                if dx * dx + dy * dy <= radius * radius {
                    let at = (py * width + px) * 3;
                    pixels[at..at + 3].copy_from_slice(&c);
                }
            }
        }
    }
    let mut picture = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut picture, width as u32, height as u32);
        encoder.set_color(png::ColorType::Rgb);
        encoder
            .write_header()
            .and_then(|mut writer| writer.write_image_data(&pixels))
            .map_err(|e| format!("cannot encode the preview: {e}"))?;
    }
    let legend_width = 190;
    let mut svg = String::new();
    let total_width = width + legend_width;
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{total_width}" height="{height}" viewBox="0 0 {total_width} {height}">"#
    );
    let _ = writeln!(svg, r#"<rect width="{total_width}" height="{height}" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<image x="0" y="0" width="{width}" height="{height}" href="data:image/png;base64,{}"/>"#,
        base64(&picture)
    );
    let mut counts = vec![0usize; names.len()];
    for inst in instances {
        if let Some(count) = counts.get_mut(inst.class) {
            *count += 1;
        }
    }
    let x = width + 16;
    let _ = writeln!(
        svg,
        r#"<text x="{x}" y="24" font-family="sans-serif" font-size="15" font-weight="bold">N ↑  {} × {} m</text>"#,
        Short::of(&lx),
        Short::of(&lz)
    );
    for (i, name) in names.iter().enumerate() {
        let [r, g, b] = colour(i);
        let y = 52 + 26 * i;
        let _ = writeln!(
            svg,
            r#"<circle cx="{}" cy="{}" r="7" fill="rgb({r},{g},{b})"/>"#,
            x + 7,
            y - 5
        );
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{y}" font-family="sans-serif" font-size="14">{} ({})</text>"#,
            x + 22,
            escape(name),
            counts[i]
        );
    }
    svg.push_str("</svg>\n");
    Ok(svg)
}

/// Text safe inside SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}
