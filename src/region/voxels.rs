//! A voxel mask in any dimension: the cells of a regular grid over a box, each inside or out.

use super::cells::Cells;
use super::{BoxClass, Region, check_corners};
use crate::error::Error;
use crate::point::Point;

/// A voxel mask: the box `[lower, upper)` cut into `shape[0] × shape[1] × …` equal cells,
/// gridded like density fields: cell `k` along axis `i` covers
/// `[lower_i + k·L_i/n_i, lower_i + (k+1)·L_i/n_i)` with `L_i = upper_i − lower_i`. A point is
/// inside when its cell is. Values are given in C order (the last axis varies fastest, as
/// NumPy stores arrays): cell `(k_0, …, k_{D−1})` is value number
/// `(…(k_0·n_1 + k_1)·n_2 + …)·n_{D−1} + k_{D−1}`.
///
/// A point's cell along axis `i` is computed as `⌊(x_i − lower_i)·n_i/L_i⌋`; box classification
/// uses the same formula on the box's corners and counts the inside cells of the block
/// between them with a table of prefix counts (2^D look-ups): inside when all are, outside
/// when none is. Memory: 5 bytes a cell.
///
/// ```
/// use poisson_nd::region::{Region, Voxels};
/// // A 2×2×2 grid over the unit cube with one voxel set: the corner cube [0.5, 1)^3.
/// let mut values = vec![0.0; 8];
/// values[7] = 1.0;
/// let voxels = Voxels::from_values([2, 2, 2], &values, [0.0; 3], [1.0; 3])?;
/// assert!(voxels.contains(&[0.75, 0.75, 0.75]));
/// assert!(!voxels.contains(&[0.25, 0.75, 0.75]));
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Voxels<const D: usize> {
    lower: Point<D>,
    upper: Point<D>,
    /// Cells per unit length along each axis.
    scale: [f64; D],
    cells: Cells<D>,
}

impl<const D: usize> Voxels<D> {
    /// A voxel mask from numeric values in C order: a voxel is inside when its value is
    /// above 0.5. Errors: a bad box (non-finite, or `upper ≤ lower`), a zero side, a value
    /// count that is not the product of the shape, a non-finite value, or no value above 0.5.
    pub fn from_values(
        shape: [usize; D],
        values: &[f64],
        lower: Point<D>,
        upper: Point<D>,
    ) -> Result<Self, Error> {
        if let Some((index, &value)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(Error::NonFinite { what: "voxel value", index, value });
        }
        Self::from_bools(shape, values.iter().map(|&v| v > 0.5).collect(), lower, upper)
    }

    /// A voxel mask from inside flags in C order. Errors as
    /// [`from_values`](Self::from_values).
    pub fn from_bools(
        shape: [usize; D],
        inside: Vec<bool>,
        lower: Point<D>,
        upper: Point<D>,
    ) -> Result<Self, Error> {
        check_corners(&lower, &upper)?;
        let cells = Cells::new("voxel grid", shape, inside)?;
        if !cells.any_inside() {
            return Err(Error::EmptyRegion("no voxel is inside".to_string()));
        }
        let scale = std::array::from_fn(|i| shape[i] as f64 / (upper[i] - lower[i]));
        Ok(Voxels { lower, upper, scale, cells })
    }

    /// The grid's shape.
    pub fn shape(&self) -> &[usize; D] {
        self.cells.shape()
    }

    /// The cell index of coordinate `x` along `axis`: −1 below the grid, `n` at or above it.
    #[inline]
    fn index(&self, axis: usize, x: f64) -> i64 {
        let t = (x - self.lower[axis]) * self.scale[axis];
        let n = self.cells.shape()[axis] as f64;
        if t >= n {
            n as i64
        } else if t >= 0.0 {
            t as i64
        } else {
            -1 // below the grid, or NaN
        }
    }
}

impl<const D: usize> Region<D> for Voxels<D> {
    #[inline]
    fn contains(&self, p: &Point<D>) -> bool {
        let mut cell = [0usize; D];
        for i in 0..D {
            let k = self.index(i, p[i]);
            if k < 0 || k >= self.cells.shape()[i] as i64 {
                return false;
            }
            cell[i] = k as usize;
        }
        self.cells.get(&cell)
    }

    fn bounding_box(&self) -> (Point<D>, Point<D>) {
        (self.lower, self.upper)
    }

    fn classify_box(&self, lower: &Point<D>, upper: &Point<D>) -> BoxClass {
        let lo = std::array::from_fn(|i| self.index(i, lower[i]));
        let hi = std::array::from_fn(|i| self.index(i, upper[i]));
        self.cells.class(&lo, &hi)
    }

    fn resolves_boundary(&self) -> bool {
        true
    }
}
