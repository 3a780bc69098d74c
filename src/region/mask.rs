//! A 2D image mask: pixels of a grey image, inside where the grey value is at least ½.

use super::cells::Cells;
use super::{BoxClass, Region, check_corners};
use crate::error::Error;
use crate::point::Point;

/// A 2D mask from a grey image laid over the box `[lower, upper]`, following the project's
/// image convention: column `i` runs along axis 0, row 0 is at the top (the largest axis-1
/// value). Pixel `(i, j)` of a `W × H` image covers
/// `[o0 + i·L0/W, o0 + (i+1)·L0/W) × (o1 + L1 − (j+1)·L1/H, o1 + L1 − j·L1/H]`
/// (`o = lower`, `L = upper − lower`), and a point is inside when the pixel whose area holds it
/// has a grey value of at least 0.5.
///
/// A point's pixel is computed as `i = ⌊(x − o0)·W/L0⌋`, `j = ⌊(o1 + L1 − y)·H/L1⌋`; box
/// classification uses the same formulas on the box's corners and counts the inside pixels
/// between them (4 look-ups in a table of prefix counts). Decoding image files is left to the
/// caller (the experiments crate reads PNG). Memory: 5 bytes a pixel.
///
/// ```
/// use poisson_nd::region::{Mask, Region};
/// // Two rows of three pixels over [0, 3] × [0, 2]: the top-left and bottom-right are set.
/// let rows = vec![vec![1.0, 0.0, 0.0], vec![0.0, 0.2, 0.5]];
/// let mask = Mask::from_grey_rows(&rows, [0.0, 0.0], [3.0, 2.0])?;
/// assert!(mask.contains(&[0.5, 1.5])); // top-left pixel
/// assert!(mask.contains(&[2.5, 0.5])); // bottom-right pixel, value 0.5
/// assert!(!mask.contains(&[1.5, 0.5]));
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Mask {
    lower: Point<2>,
    upper: Point<2>,
    scale: [f64; 2],
    /// Pixels indexed `[i, j]` (column, row from the top).
    cells: Cells<2>,
}

impl Mask {
    /// A mask from rows of grey values in `[0, 1]`, row 0 the top one, over the box
    /// `[lower, upper]`. Errors: a bad box, no rows or empty rows, rows of different lengths,
    /// a value that is not finite or not in `[0, 1]`, or no pixel at 0.5 or above.
    pub fn from_grey_rows(
        rows: &[Vec<f64>],
        lower: Point<2>,
        upper: Point<2>,
    ) -> Result<Self, Error> {
        let width = rows.first().map_or(0, Vec::len);
        let mut values = Vec::with_capacity(width * rows.len());
        for (j, row) in rows.iter().enumerate() {
            if row.len() != width {
                return Err(Error::ShapeMismatch {
                    what: format!("mask row {j} (the rows must be as long as row 0)"),
                    expected: width,
                    got: row.len(),
                });
            }
            values.extend_from_slice(row);
        }
        Self::from_grey(width, rows.len(), &values, lower, upper)
    }

    /// A mask from `width × height` grey values in `[0, 1]`, row by row from the top (the
    /// value of pixel `(i, j)` is `values[j·width + i]`). Errors as
    /// [`from_grey_rows`](Self::from_grey_rows).
    pub fn from_grey(
        width: usize,
        height: usize,
        values: &[f64],
        lower: Point<2>,
        upper: Point<2>,
    ) -> Result<Self, Error> {
        check_corners(&lower, &upper)?;
        if width == 0 || height == 0 {
            return Err(Error::EmptyInput("the mask image"));
        }
        if values.len() != width * height {
            return Err(Error::ShapeMismatch {
                what: format!("mask of {width} × {height} pixels"),
                expected: width * height,
                got: values.len(),
            });
        }
        for (index, &value) in values.iter().enumerate() {
            if !value.is_finite() {
                return Err(Error::NonFinite { what: "mask value", index, value });
            }
            if !(0.0..=1.0).contains(&value) {
                return Err(Error::InvalidParameter {
                    name: "mask grey value",
                    expected: "in [0, 1]",
                    value,
                });
            }
        }
        // Stored column-major ([i, j] in C order) so that axis 0 comes first.
        let inside =
            (0..width * height).map(|k| values[(k % height) * width + k / height] >= 0.5).collect();
        let cells = Cells::new("mask", [width, height], inside)?;
        if !cells.any_inside() {
            return Err(Error::EmptyRegion("no mask pixel is at 0.5 or above".to_string()));
        }
        let scale = [width as f64 / (upper[0] - lower[0]), height as f64 / (upper[1] - lower[1])];
        Ok(Mask { lower, upper, scale, cells })
    }

    /// The image's width and height in pixels.
    pub fn size(&self) -> (usize, usize) {
        let shape = self.cells.shape();
        (shape[0], shape[1])
    }

    /// Pixel index along axis 0 (column) or 1 (row from the top): −1 before the first, `n`
    /// past the last.
    #[inline]
    fn index(&self, axis: usize, x: f64) -> i64 {
        let t = if axis == 0 {
            (x - self.lower[0]) * self.scale[0]
        } else {
            (self.upper[1] - x) * self.scale[1]
        };
        let n = self.cells.shape()[axis] as f64;
        if t >= n {
            n as i64
        } else if t >= 0.0 {
            t as i64
        } else {
            -1
        }
    }
}

impl Region<2> for Mask {
    #[inline]
    fn contains(&self, p: &Point<2>) -> bool {
        let (i, j) = (self.index(0, p[0]), self.index(1, p[1]));
        let (w, h) = self.size();
        i >= 0
            && j >= 0
            && i < w as i64
            && j < h as i64
            && self.cells.get(&[i as usize, j as usize])
    }

    fn bounding_box(&self) -> (Point<2>, Point<2>) {
        (self.lower, self.upper)
    }

    fn classify_box(&self, lower: &Point<2>, upper: &Point<2>) -> BoxClass {
        // Rows count downwards: the box's top corner has the smallest row.
        let lo = [self.index(0, lower[0]), self.index(1, upper[1])];
        let hi = [self.index(0, upper[0]), self.index(1, lower[1])];
        self.cells.class(&lo, &hi)
    }

    fn resolves_boundary(&self) -> bool {
        true
    }
}
