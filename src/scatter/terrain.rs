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
        }
        if !(height_scale.is_finite() && height_scale >= 0.0) {
            return Err(Error::InvalidParameter {
                name: "height_scale",
                expected: "finite and >= 0",
                value: height_scale,
            });
        }
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
        let steepness = gx.hypot(gz);
        let norm = steepness.hypot(1.0);
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
        gx.hypot(gz).atan().to_degrees()
    }

    /// The unit normal at `(x, z)` (see [`surface`](Self::surface)).
    pub fn normal(&self, x: f64, z: f64) -> [f64; 3] {
        self.surface(x, z).normal
    }
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
    fn one_pixel_is_flat() {
        let t = Terrain::from_image_rows(1, 1, vec![0.25], [4.0, 4.0], 8.0).unwrap();
        for (x, z) in [(0.0, 0.0), (3.9, 1.0), (-5.0, 9.0)] {
            let s = t.surface(x, z);
            assert_eq!((s.height, s.normal, s.slope), (2.0, [0.0, 1.0, 0.0], 0.0));
        }
    }
}
