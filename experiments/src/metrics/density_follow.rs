//! How closely the local number of points follows a density map: the box is cut into a
//! coarse grid of cells (8 × 8 in 2D, 4^D otherwise), each cell's count is compared with
//! the count the map predicts, and the relative errors are summarised. Definitions in
//! `docs/metrics.md` ("Density follow").
//!
//! The prediction: a Poisson-disk set with a slowly varying radius `r(x)` has about
//! `c·r(x)^(−D)` points per volume, `c` the same everywhere, so the expected count of cell
//! `C` is `N·∫_C r^(−D) / ∫_box r^(−D)`. Under the inverse mapping `r^(−D) = density/rmin^D`
//! wherever the density is at least `(rmin/rmax)^D` (below it the clamp at `rmax` sets the
//! floor), so the prediction is the density's own share of the box: the mapping is built
//! for it. Under the linear mapping (`lerp`) the same formula is only an approximation of
//! how the count follows the map, and is reported as one. The integrals are midpoint sums
//! over `s^D` sub-cells of each cell ([`DensityFollow::subsamples_per_axis`]).
//!
//! A count of Poisson points in a cell with expectation `E` has relative standard
//! deviation `1/√E`; [`DensityFollow::sampling_error`] is its mean over the cells, the
//! scale a mean relative error is read against (Poisson-disk counts vary less than Poisson
//! ones, so it is generous).

use poisson_nd::field::{DensityField, DensityMapping, RadiusField};
use poisson_nd::{Domain, Point};
use serde::Serialize;

/// The most field evaluations the integrals may use, over every cell together.
const EVALUATION_BUDGET: f64 = 2.0e6;
/// The most sub-cells per axis of one cell.
const MAX_SUBSAMPLES: usize = 16;

/// The cell with the largest relative error.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FollowCell {
    /// The cell's index along each axis (0 at the box's origin).
    pub index: Vec<usize>,
    /// Points counted in it.
    pub measured: usize,
    /// Points the map predicts.
    pub expected: f64,
    /// `(measured − expected) / expected`.
    pub relative_error: f64,
}

/// How a point set's local counts follow a density map.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DensityFollow {
    /// The mapping from density to radius.
    #[serde(serialize_with = "crate::choices::by_name::serialize")]
    pub mapping: DensityMapping,
    /// Whether the prediction is only an approximation (the linear mapping).
    pub approximate: bool,
    /// Cells along each axis (8 in 2D, 4 otherwise).
    pub cells_per_axis: usize,
    /// Cells in all.
    pub cells: usize,
    /// Midpoint sub-cells per axis of each cell in the integrals.
    pub subsamples_per_axis: usize,
    /// Points counted.
    pub n: usize,
    /// Mean over the cells of `|measured − expected| / expected`.
    pub mean_abs_relative_error: f64,
    /// Mean over the cells of `1/√expected`: the relative error of Poisson counts.
    pub sampling_error: f64,
    /// The cell with the largest `|relative error|` (`None` without points).
    pub worst: Option<FollowCell>,
}

/// Cells per axis of the partition in `dim` dimensions: 8 in 2D, 4 otherwise.
pub fn cells_per_axis(dim: usize) -> usize {
    if dim == 2 { 8 } else { 4 }
}

/// Compares the counts of `points` per cell of `domain`'s box with the counts `field`
/// predicts (see the module's documentation).
///
/// ```
/// use experiments::metrics::density_follow::density_follow;
/// use poisson_nd::field::{DensityField, DensityMapping};
/// use poisson_nd::Domain;
/// // A uniform map: every one of the 64 cells expects N/64 points.
/// let field = DensityField::from_fn(|_| 1.0, DensityMapping::Inverse, 0.1, 0.2)?;
/// let points: Vec<[f64; 2]> =
///     (0..64).map(|k| [(k % 8) as f64 / 8.0 + 0.01, (k / 8) as f64 / 8.0 + 0.01]).collect();
/// let follow = density_follow(&points, &Domain::unit(), &field);
/// assert_eq!(follow.cells, 64);
/// assert!(follow.mean_abs_relative_error < 1e-12); // one point in each cell
/// assert!((follow.sampling_error - 1.0).abs() < 1e-12);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
pub fn density_follow<const D: usize>(
    points: &[Point<D>],
    domain: &Domain<D>,
    field: &DensityField<D>,
) -> DensityFollow {
    let m = cells_per_axis(D);
    let cells = m.pow(D as u32);
    let per_cell = EVALUATION_BUDGET / cells as f64;
    let s = (per_cell.powf(1.0 / D as f64).floor() as usize).clamp(1, MAX_SUBSAMPLES);
    let (origin, extent) = (domain.origin(), domain.extent());
    // The integral of r^(−D) over each cell, as a midpoint sum (the common volume factor
    // cancels in the shares).
    let mut weight = vec![0.0; cells];
    let sub = s.pow(D as u32);
    for (cell, w) in weight.iter_mut().enumerate() {
        let index = unflatten::<D>(cell, m);
        for k in 0..sub {
            let offset = unflatten::<D>(k, s);
            let p: Point<D> = std::array::from_fn(|a| {
                origin[a]
                    + extent[a] * (index[a] as f64 + (offset[a] as f64 + 0.5) / s as f64) / m as f64
            });
            *w += field.radius(&p).powi(-(D as i32));
        }
    }
    let total: f64 = weight.iter().sum();
    let mut counts = vec![0usize; cells];
    for p in points {
        let mut flat = 0;
        for a in 0..D {
            let t = ((p[a] - origin[a]) / extent[a] * m as f64).floor();
            flat = flat * m + (t.max(0.0) as usize).min(m - 1);
        }
        counts[flat] += 1;
    }
    let n = points.len();
    let (mut sum_abs, mut sum_sampling) = (0.0, 0.0);
    let mut worst: Option<FollowCell> = None;
    for cell in 0..cells {
        let expected = n as f64 * weight[cell] / total;
        let relative_error = (counts[cell] as f64 - expected) / expected;
        sum_abs += relative_error.abs();
        sum_sampling += 1.0 / expected.sqrt();
        if n > 0 && worst.as_ref().is_none_or(|w| relative_error.abs() > w.relative_error.abs()) {
            worst = Some(FollowCell {
                index: unflatten::<D>(cell, m).to_vec(),
                measured: counts[cell],
                expected,
                relative_error,
            });
        }
    }
    DensityFollow {
        mapping: field.mapping(),
        approximate: field.mapping() == DensityMapping::Lerp,
        cells_per_axis: m,
        cells,
        subsamples_per_axis: s,
        n,
        mean_abs_relative_error: sum_abs / cells as f64,
        sampling_error: sum_sampling / cells as f64,
        worst,
    }
}

/// The multi-index of `flat` in a grid of `m` per axis, the last axis fastest.
fn unflatten<const D: usize>(mut flat: usize, m: usize) -> [usize; D] {
    let mut index = [0; D];
    for a in (0..D).rev() {
        index[a] = flat % m;
        flat /= m;
    }
    index
}
