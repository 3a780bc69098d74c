//! A 3D point set as three orthogonal views: thin central slabs (or full projections).

use super::scatter::{panel_size, point_panel, valid_box};
use super::{PlotError, append_layers, centred_text, render, require};
use crate::format::short;

const TITLE: u32 = 24;

/// A 3D point set to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct Projections3d {
    /// Figure title (each panel adds which view it is).
    pub title: String,
    /// The sampler: picks the colour.
    pub name: String,
    /// The points.
    pub points: Vec<[f64; 3]>,
    /// Lower corner of the domain.
    pub lo: [f64; 3],
    /// Upper corner of the domain.
    pub hi: [f64; 3],
    /// Thickness of the central slab along the hidden axis, as a fraction of that axis's
    /// extent (in `(0, 1]`); `None` projects every point. A slab a few radii thick shows the
    /// blue-noise structure that a full projection hides.
    pub slab: Option<f64>,
}

/// The three views: (horizontal axis, vertical axis, hidden axis).
const VIEWS: [(usize, usize, usize); 3] = [(0, 1, 2), (0, 2, 1), (1, 2, 0)];
const AXES: [&str; 3] = ["x", "y", "z"];

/// Draws the x–y, x–z and y–z views side by side, each at unit aspect with the domain's face
/// drawn, in the sampler's colour.
pub fn projections_3d(plot: &Projections3d) -> Result<String, PlotError> {
    let ok_box =
        (0..3).all(|i| plot.lo[i].is_finite() && plot.hi[i].is_finite() && plot.hi[i] > plot.lo[i]);
    require("3D projections", ok_box, "the domain box is empty or not finite")?;
    if let Some(slab) = plot.slab {
        require("3D projections", slab > 0.0 && slab <= 1.0, "the slab must be in (0, 1]")?;
    }
    let sizes: Vec<(u32, u32)> = VIEWS
        .iter()
        .map(|&(a, b, _)| panel_size([plot.lo[a], plot.lo[b]], [plot.hi[a], plot.hi[b]]))
        .collect();
    let width = sizes.iter().map(|s| s.0).sum();
    let height = sizes.iter().map(|s| s.1).max().unwrap_or(1) + TITLE;
    let mut layers = Vec::new();
    let mut svg = render("3D projections", (width, height), |root| {
        let (top, mut rest) = root.split_vertically(TITLE);
        top.draw_text(&plot.title, &centred_text(16), ((width / 2) as i32, (TITLE / 2) as i32))?;
        for (view, &(a, b, hidden)) in VIEWS.iter().enumerate() {
            let (panel, remainder) = rest.split_horizontally(sizes[view].0);
            rest = remainder;
            let (lo, hi) = ([plot.lo[a], plot.lo[b]], [plot.hi[a], plot.hi[b]]);
            require("3D projections", valid_box(lo, hi), "empty face")?;
            let (keep, caption) = match plot.slab {
                Some(fraction) => {
                    let centre = 0.5 * (plot.lo[hidden] + plot.hi[hidden]);
                    let half = 0.5 * fraction * (plot.hi[hidden] - plot.lo[hidden]);
                    (
                        Some((centre - half, centre + half)),
                        format!(
                            "{}–{}, |{} − {}| < {}",
                            AXES[a],
                            AXES[b],
                            AXES[hidden],
                            short(centre),
                            short(half)
                        ),
                    )
                }
                None => (None, format!("{}–{} projection", AXES[a], AXES[b])),
            };
            let points: Vec<[f64; 2]> = plot
                .points
                .iter()
                .filter(|p| keep.is_none_or(|(l, h)| p[hidden] > l && p[hidden] < h))
                .map(|p| [p[a], p[b]])
                .collect();
            let title = format!("{caption} ({} points)", points.len());
            let box_and_axes = (lo, hi, (AXES[a], AXES[b]));
            point_panel(&panel, &title, &plot.name, box_and_axes, &points, &mut layers)?;
        }
        Ok(())
    })?;
    append_layers(&mut svg, "3D projections", &layers)?;
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slabs_keep_only_central_points() {
        let mut plot = Projections3d {
            title: "bridson".into(),
            name: "bridson".into(),
            points: vec![[0.5, 0.5, 0.5], [0.1, 0.1, 0.1]],
            lo: [0.0; 3],
            hi: [1.0; 3],
            slab: Some(0.2),
        };
        let svg = projections_3d(&plot).unwrap();
        assert_eq!(svg.matches("<circle").count(), 3);
        assert!(svg.contains("|z − 0.5| &lt; 0.1"), "{svg}");
        plot.slab = None;
        let svg = projections_3d(&plot).unwrap();
        assert_eq!(svg.matches("<circle").count(), 6);
        plot.slab = Some(0.0);
        assert!(projections_3d(&plot).is_err());
    }
}
