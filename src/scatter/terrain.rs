//! A heightmap over a world rectangle: bilinear height, the surface normal and the slope.
//!
//! World axes: `x` is sample axis 0, `z` sample axis 1, `y` the height (up). The heightmap is
//! an image in the project's convention: column `i` of `W` runs along `x`, row `j` of `H` along
//! `z` with **row 0 at the largest `z`** (north up), and the value of pixel `(i, j)` belongs to
//! its centre `x = (i + ½)·Lx/W`, `z = Lz − (j + ½)·Lz/H`. Between centres the surface is the
//! bilinear patch of the four surrounding values; outside the centres (the outer half pixel)
//! each coordinate is clamped to the nearest centre (clamp-to-edge), so the rim is level along
//! the clamped axis. Values lie in `[0, 1]` and are scaled by the height scale (the height of
//! the brightest value).

use crate::error::Error;

/// The height, normal and slope of the terrain at one ground point.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Surface {
    /// The height `y` of the bilinear surface.
    pub height: f64,
    /// The unit normal `[nx, ny, nz]` of the bilinear surface (`ny > 0`: it points up).
    pub normal: [f64; 3],
    /// The angle between the normal and `+y`, in degrees, in `[0, 90)`.
    pub slope: f64,
}

/// A heightmap over the rectangle `[0, Lx) × [0, Lz)` of the ground plane (see the module
/// documentation for the conventions).
///
/// ```
/// use poisson_nd::scatter::Terrain;
/// // 2 × 2 pixels over 10 m × 10 m, 5 m high at white: the top (north) row is white.
/// let terrain = Terrain::from_image_rows(2, 2, vec![1.0, 1.0, 0.0, 0.0], [10.0, 10.0], 5.0)?;
/// assert_eq!(terrain.height(2.5, 7.5), 5.0); // a north pixel's centre
/// assert_eq!(terrain.height(2.5, 2.5), 0.0); // a south pixel's centre
/// assert_eq!(terrain.height(5.0, 5.0), 2.5); // halfway
/// // Between the centres the surface rises 5 m over 5 m northwards: 45° of slope.
/// let surface = terrain.surface(5.0, 5.0);
/// assert!((surface.slope - 45.0).abs() < 1e-12);
/// assert!(surface.normal[2] < 0.0); // the normal leans south, away from the rise
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Terrain {
    width: usize,
    depth: usize,
    /// Scaled heights by grid index: `heights[k₁·W + i]`, `k₁ = H − 1 − row` (south first).
    heights: Vec<f64>,
    size: [f64; 2],
    height_scale: f64,
    /// Pixels per metre along x and z.
    inverse_pixel: [f64; 2],
}

impl Terrain {
    /// A terrain from grey values given as image rows (`values[row·width + column]`, row 0 the
    /// top of the picture, at the largest `z`), over `[0, size[0]) × [0, size[1])`, the value
    /// 1 at `height_scale`.
    ///
    /// Errors: a width or height of 0 ([`Error::EmptyFieldAxis`]); `values.len()` not
    /// `width·height` ([`Error::FieldValueCount`]); a value that is NaN or outside `[0, 1]`
    /// ([`Error::InvalidFieldValue`], naming its index in `values`); a size that is not finite
    /// and positive ([`Error::InvalidExtent`]); a height scale that is not finite and `≥ 0`
    /// ([`Error::InvalidParameter`]).
    pub fn from_image_rows(
        width: usize,
        height: usize,
        values: Vec<f64>,
        size: [f64; 2],
        height_scale: f64,
    ) -> Result<Self, Error> {
        if width == 0 || height == 0 {
            return Err(Error::EmptyFieldAxis { axis: usize::from(width != 0) });
        }
        if width.checked_mul(height) != Some(values.len()) {
            return Err(Error::FieldValueCount {
                shape: vec![width, height],
                expected: width.saturating_mul(height),
                got: values.len(),
            });
        }
        if let Some(index) = values.iter().position(|v| !(0.0..=1.0).contains(v)) {
            return Err(Error::InvalidFieldValue {
                index,
                value: values[index],
                expected: "a height in [0, 1] (the height scale multiplies it)",
            });
        }
        for (axis, &value) in size.iter().enumerate() {
            if !(value.is_finite() && value > 0.0) {
                return Err(Error::InvalidExtent { axis, value });
            }
            crate::limits::check_output_length("the terrain size", value, false)?;
        }
        if !(height_scale.is_finite() && height_scale >= 0.0) {
            return Err(Error::InvalidParameter {
                name: "height_scale",
                expected: "finite and >= 0",
                value: height_scale,
            });
        }
        crate::limits::check_output_length("height_scale", height_scale, true)?;
        let mut heights = vec![0.0; values.len()];
        for row in 0..height {
            let k1 = height - 1 - row;
            for i in 0..width {
                heights[k1 * width + i] = values[row * width + i] * height_scale;
            }
        }
        Ok(Terrain {
            width,
            depth: height,
            heights,
            size,
            height_scale,
            inverse_pixel: [width as f64 / size[0], height as f64 / size[1]],
        })
    }

    /// The world extent `[Lx, Lz]`.
    pub fn size(&self) -> [f64; 2] {
        self.size
    }

    /// The height of the value 1.
    pub fn height_scale(&self) -> f64 {
        self.height_scale
    }

    /// The heightmap's `(width, height)` in pixels (along x, along z).
    pub fn resolution(&self) -> (usize, usize) {
        (self.width, self.depth)
    }

    /// The scaled height stored for pixel column `i` and row `row` (row 0 at the largest z).
    /// `None` outside the picture.
    pub fn pixel_height(&self, i: usize, row: usize) -> Option<f64> {
        (i < self.width && row < self.depth)
            .then(|| self.heights[(self.depth - 1 - row) * self.width + i])
    }

    /// The interpolation cell and weights along one axis: the lower centre's index, the
    /// weight of the upper one, and whether the coordinate lies between two centres (so that
    /// the surface's derivative along the axis is the slope of the patch, not 0).
    #[inline(always)]
    fn locate(&self, value: f64, axis: usize, count: usize) -> (usize, f64, bool) {
        let u = value * self.inverse_pixel[axis] - 0.5;
        let last = (count - 1) as f64;
        let clamped = u.clamp(0.0, last);
        // NaN stays NaN: the conversion gives 0 and the weight is NaN.
        let k = (clamped as usize).min(count.saturating_sub(2));
        let inner = count > 1 && u > 0.0 && u < last;
        (k, clamped - k as f64, inner)
    }

    /// The four heights around the cell `(i, k)` and the steps to the upper neighbours.
    #[inline(always)]
    fn corners(&self, i: usize, k: usize) -> [f64; 4] {
        let di = usize::from(self.width > 1);
        let dk = if self.depth > 1 { self.width } else { 0 };
        let base = k * self.width + i;
        [
            self.heights[base],
            self.heights[base + di],
            self.heights[base + dk],
            self.heights[base + dk + di],
        ]
    }

    /// The height at the ground point `(x, z)`.
    #[inline]
    pub fn height(&self, x: f64, z: f64) -> f64 {
        let (i, s, _) = self.locate(x, 0, self.width);
        let (k, t, _) = self.locate(z, 1, self.depth);
        let [h00, h10, h01, h11] = self.corners(i, k);
        (1.0 - t) * ((1.0 - s) * h00 + s * h10) + t * ((1.0 - s) * h01 + s * h11)
    }

    /// The gradient `[∂y/∂x, ∂y/∂z]` of the surface at `(x, z)`: the bilinear patch's
    /// derivatives between pixel centres, 0 along an axis on which the point lies in the
    /// clamped rim.
    #[inline]
    pub fn gradient(&self, x: f64, z: f64) -> [f64; 2] {
        let (i, s, inner_x) = self.locate(x, 0, self.width);
        let (k, t, inner_z) = self.locate(z, 1, self.depth);
        let [h00, h10, h01, h11] = self.corners(i, k);
        let gx = if inner_x {
            ((1.0 - t) * (h10 - h00) + t * (h11 - h01)) * self.inverse_pixel[0]
        } else {
            0.0
        };
        let gz = if inner_z {
            ((1.0 - s) * (h01 - h00) + s * (h11 - h10)) * self.inverse_pixel[1]
        } else {
            0.0
        };
        [gx, gz]
    }

    /// Height, unit normal and slope at `(x, z)` in one evaluation.
    ///
    /// The surface `y = h(x, z)` has tangents `(1, ∂h/∂x, 0)` and `(0, ∂h/∂z, 1)`, hence the
    /// normal `(−∂h/∂x, 1, −∂h/∂z)` normalised, and the slope `atan(|∇h|)` in degrees.
    #[inline]
    pub fn surface(&self, x: f64, z: f64) -> Surface {
        let height = self.height(x, z);
        let [gx, gz] = self.gradient(x, z);
        // Gradients of a height field are far from overflow: plain roots, not `hypot`,
        // which costs more than the rest of this function together.
        let steepness2 = gx * gx + gz * gz;
        let steepness = steepness2.sqrt();
        let norm = (steepness2 + 1.0).sqrt();
        Surface {
            height,
            normal: [-gx / norm, 1.0 / norm, -gz / norm],
            slope: steepness.atan().to_degrees(),
        }
    }

    /// The slope in degrees at `(x, z)` (see [`surface`](Self::surface)).
    #[inline]
    pub fn slope(&self, x: f64, z: f64) -> f64 {
        let [gx, gz] = self.gradient(x, z);
        (gx * gx + gz * gz).sqrt().atan().to_degrees()
    }

    /// The unit normal at `(x, z)` (see [`surface`](Self::surface)).
    pub fn normal(&self, x: f64, z: f64) -> [f64; 3] {
        self.surface(x, z).normal
    }

    /// Bounds on the height and the slope over the ground box `[lower, upper]`, from the
    /// bilinear patches it touches (`None` when it touches more than [`BOUNDED_PATCHES`]).
    ///
    /// A bilinear patch lies between its lowest and highest corner. Its x-derivative is
    /// linear in z alone, between the differences along its south and north edges, and its
    /// z-derivative linear in x alone; so over a patch `|∇h|²` lies between the sums of the
    /// two derivatives' smallest and largest squares. The clamped rim has a derivative of 0
    /// along its axis, which the ranges then include.
    pub(crate) fn bounds(&self, lower: &[f64; 2], upper: &[f64; 2]) -> Option<SurfaceBounds> {
        let span = |axis: usize, count: usize| {
            let scale = self.inverse_pixel[axis];
            let (u0, u1) = (lower[axis] * scale - 0.5, upper[axis] * scale - 0.5);
            let last = (count - 1) as f64;
            let top = count.saturating_sub(2);
            let first = (u0.clamp(0.0, last) as usize).min(top);
            let end = (u1.clamp(0.0, last) as usize).min(top);
            (first, end, !(u0 > 0.0 && u1 < last))
        };
        let (i0, i1, rim_x) = span(0, self.width);
        let (k0, k1, rim_z) = span(1, self.depth);
        if (i1 - i0 + 1) * (k1 - k0 + 1) > BOUNDED_PATCHES {
            return None;
        }
        // The smallest and largest square over `[min(a, b, 0 if rim), max(…)]`.
        let squares = |a: f64, b: f64, rim: bool| {
            let (mut lo, mut hi) = (a.min(b), a.max(b));
            if rim {
                (lo, hi) = (lo.min(0.0), hi.max(0.0));
            }
            let least = if lo <= 0.0 && hi >= 0.0 { 0.0 } else { (lo * lo).min(hi * hi) };
            (least, (lo * lo).max(hi * hi))
        };
        let [sx, sz] = self.inverse_pixel;
        let mut out = SurfaceBounds {
            height: [f64::INFINITY, f64::NEG_INFINITY],
            steepness_squared: [f64::INFINITY, f64::NEG_INFINITY],
        };
        for k in k0..=k1 {
            for i in i0..=i1 {
                let [h00, h10, h01, h11] = self.corners(i, k);
                let (gx_lo, gx_hi) = squares((h10 - h00) * sx, (h11 - h01) * sx, rim_x);
                let (gz_lo, gz_hi) = squares((h01 - h00) * sz, (h11 - h10) * sz, rim_z);
                let low = h00.min(h10).min(h01).min(h11);
                let high = h00.max(h10).max(h01).max(h11);
                out.height = [out.height[0].min(low), out.height[1].max(high)];
                out.steepness_squared = [
                    out.steepness_squared[0].min(gx_lo + gz_lo),
                    out.steepness_squared[1].max(gx_hi + gz_hi),
                ];
            }
        }
        Some(out)
    }
}

/// The most bilinear patches [`Terrain::bounds`] reads for one box.
pub(crate) const BOUNDED_PATCHES: usize = 4096;

/// Bounds on the surface over a box of the ground ([`Terrain::bounds`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct SurfaceBounds {
    /// The lowest and highest height.
    pub height: [f64; 2],
    /// The smallest and largest `|∇h|²` (the slope is `atan(|∇h|)`).
    pub steepness_squared: [f64; 2],
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_heightmaps_are_refused() {
        assert!(Terrain::from_image_rows(0, 1, vec![], [1.0, 1.0], 1.0).is_err());
        assert!(Terrain::from_image_rows(2, 1, vec![0.0], [1.0, 1.0], 1.0).is_err());
        assert!(Terrain::from_image_rows(1, 1, vec![1.5], [1.0, 1.0], 1.0).is_err());
        assert!(Terrain::from_image_rows(1, 1, vec![f64::NAN], [1.0, 1.0], 1.0).is_err());
        assert!(Terrain::from_image_rows(1, 1, vec![0.5], [0.0, 1.0], 1.0).is_err());
        assert!(Terrain::from_image_rows(1, 1, vec![0.5], [1.0, 1.0], -1.0).is_err());
    }

    #[test]
    fn box_bounds_hold_every_point_of_the_box() {
        use crate::rng::{rng_from_seed, uniform01};
        let (w, h) = (9, 7);
        let values: Vec<f64> = (0..w * h).map(|k| ((k * 7919) % 101) as f64 / 100.0).collect();
        let t = Terrain::from_image_rows(w, h, values, [9.0, 14.0], 30.0).unwrap();
        let mut rng = rng_from_seed(3);
        for _ in 0..300 {
            let a = [uniform01(&mut rng) * 11.0 - 1.0, uniform01(&mut rng) * 16.0 - 1.0];
            let size = [uniform01(&mut rng) * 3.0, uniform01(&mut rng) * 3.0];
            let b = [a[0] + size[0], a[1] + size[1]];
            let bounds = t.bounds(&a, &b).unwrap();
            for _ in 0..200 {
                let x = a[0] + uniform01(&mut rng) * size[0];
                let z = a[1] + uniform01(&mut rng) * size[1];
                let height = t.height(x, z);
                let [gx, gz] = t.gradient(x, z);
                let g2 = gx * gx + gz * gz;
                let slack = 1e-9 * (1.0 + g2);
                assert!(bounds.height[0] - 1e-9 <= height && height <= bounds.height[1] + 1e-9);
                assert!(bounds.steepness_squared[0] - slack <= g2);
                assert!(g2 <= bounds.steepness_squared[1] + slack, "{a:?} {b:?} {x} {z}");
            }
        }
        // A tilted plane: its one slope exactly, away from the rim.
        let plane: Vec<f64> = (0..16).map(|k| (k % 4) as f64 / 3.0).collect();
        let t = Terrain::from_image_rows(4, 4, plane, [4.0, 4.0], 3.0).unwrap();
        let bounds = t.bounds(&[1.0, 1.0], &[2.0, 2.0]).unwrap();
        assert!((bounds.steepness_squared[0] - 1.0).abs() < 1e-12);
        assert!((bounds.steepness_squared[1] - 1.0).abs() < 1e-12);
        assert_eq!(t.bounds(&[1.0, 1.0], &[2.0, 2.0]).unwrap().height, [0.0, 2.0]);
    }

    #[test]
    fn one_pixel_is_flat() {
        let t = Terrain::from_image_rows(1, 1, vec![0.25], [4.0, 4.0], 8.0).unwrap();
        for (x, z) in [(0.0, 0.0), (3.9, 1.0), (-5.0, 9.0)] {
            let s = t.surface(x, z);
            assert_eq!((s.height, s.normal, s.slope), (2.0, [0.0, 1.0, 0.0], 0.0));
        }
    }
}
