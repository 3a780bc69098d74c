//! Radius fields: a minimum distance that varies over the box.
//!
//! A [`RadiusField`] gives the radius `r(x)` at every point and declares bounds
//! `rmin ≤ r(x) ≤ rmax`. Samplers that take a field ([`Bridson`](crate::Bridson),
//! [`DartThrowing`](crate::DartThrowing)) keep every pair of points at least the distance a
//! [`PairRule`] makes of the two points' radii: `max(rᵢ, rⱼ)` by default, `min` or the mean.
//! They size their background grid from the bounds (cells from `√(rmin·rmax)`, search reach from
//! `rmax`; docs/algorithms.md, "Variable radius"), so the bounds must hold: a value that is NaN,
//! not positive or outside them stops a run with [`StopReason::InvalidField`] and the error in
//! [`PointSet::field_error`], never a violated distance.
//!
//! The fields:
//! - [`ConstantField`]: one radius everywhere; samplers run their constant-radius code on it,
//!   with exactly the points of `Bridson::new(domain, r)`.
//! - [`FnField`]: any closure `Fn(&Point<D>) -> f64` with declared bounds.
//! - [`GriddedField`]: values on a regular grid of any dimension over the box, multilinear
//!   between cell centres and clamped to the edge values outside them. Used directly, its
//!   values are radii; as a density it feeds a [`DensityField`]. 2D images enter through
//!   [`GriddedField::from_image_rows`] (row 0 at the top, north up).
//! - [`DensityField`]: a density in `[0, 1]` (gridded, an image over the first two axes, or a
//!   closure) mapped to a radius in `[rmin, rmax]` by a [`DensityMapping`]: `Lerp` (density 1
//!   → rmin, 0 → rmax) or `Inverse` (points per volume follow the density).
//!
//! ```
//! use poisson_nd::{Bridson, Domain, FillSampler};
//! use poisson_nd::field::{DensityField, DensityMapping, GriddedField, PairRule};
//!
//! let domain = Domain::<2>::unit();
//! // A 2×1 image: the left pixel white (density 1, radius rmin), the right one black.
//! let image = GriddedField::from_image_rows(&domain, 2, 1, vec![1.0, 0.0])?;
//! let field = DensityField::new(image, DensityMapping::Lerp, 0.02, 0.08)?;
//! let sampler = Bridson::builder_with_field(domain, field).with_pair_rule(PairRule::Max).build()?;
//! let set = sampler.fill_seeded(1);
//! let radii = set.radii.as_ref().expect("a field fills the radii column");
//! assert_eq!(radii.len(), set.len());
//! // Every pair keeps the larger of its two radii.
//! for i in 0..set.len() {
//!     for j in i + 1..set.len() {
//!         let d2 = domain.distance_squared(&set.points[i], &set.points[j]);
//!         assert!(d2 >= PairRule::Max.distance(radii[i], radii[j]).powi(2));
//!     }
//! }
//! # Ok::<(), poisson_nd::Error>(())
//! ```
//!
//! [`StopReason::InvalidField`]: crate::StopReason::InvalidField
//! [`PointSet::field_error`]: crate::PointSet::field_error

use crate::choice::Choice;
use crate::domain::Domain;
use crate::error::Error;
use crate::point::Point;
use std::sync::Arc;

/// A minimum distance that varies over space: the radius at a point and its bounds.
///
/// Implementations must keep `rmin ≤ radius(p) ≤ rmax` for every point `p` of the box, with
/// `0 < rmin ≤ rmax < ∞` as [`bounds`](Self::bounds) declares them. Samplers check both: bad
/// bounds are an error when the sampler is built, and a value that breaks them at run time
/// (NaN, `≤ 0`, outside the bounds) stops the run with
/// [`StopReason::InvalidField`](crate::StopReason::InvalidField).
///
/// Evaluated once per candidate, through one virtual call: keep `radius` cheap.
///
/// ```
/// use poisson_nd::{Point, field::RadiusField};
///
/// /// Radius growing with the distance from the origin's axis.
/// #[derive(Debug)]
/// struct Ramp;
/// impl RadiusField<2> for Ramp {
///     fn radius(&self, p: &Point<2>) -> f64 {
///         0.01 + 0.03 * p[0].clamp(0.0, 1.0)
///     }
///     fn bounds(&self) -> (f64, f64) {
///         (0.01, 0.04)
///     }
/// }
/// assert_eq!(Ramp.radius(&[0.0, 0.5]), 0.01);
/// ```
pub trait RadiusField<const D: usize>: Send + Sync + std::fmt::Debug {
    /// The radius at `p`.
    fn radius(&self, p: &Point<D>) -> f64;

    /// The declared bounds `(rmin, rmax)`: every value of [`radius`](Self::radius) lies in
    /// `[rmin, rmax]`.
    fn bounds(&self) -> (f64, f64);

    /// `Some(r)` when the field is `r` everywhere by construction ([`ConstantField`]):
    /// samplers then run their constant-radius code, with the same points and speed as a
    /// plain radius. Other fields keep the default `None`.
    fn constant_radius(&self) -> Option<f64> {
        None
    }
}

/// A field behind an `Arc` or a `Box` is the field itself, every method forwarded.
macro_rules! forward_field {
    ($($pointer:ident),*) => {$(
        impl<const D: usize, F: RadiusField<D> + ?Sized> RadiusField<D> for $pointer<F> {
            fn radius(&self, p: &Point<D>) -> f64 {
                (**self).radius(p)
            }
            fn bounds(&self) -> (f64, f64) {
                (**self).bounds()
            }
            fn constant_radius(&self) -> Option<f64> {
                (**self).constant_radius()
            }
        }
    )*};
}

forward_field!(Arc, Box);

/// Checks declared bounds: `0 < rmin ≤ rmax`, both finite.
///
/// ```
/// use poisson_nd::field::check_bounds;
/// assert!(check_bounds(0.1, 0.4).is_ok());
/// assert!(check_bounds(0.0, 0.4).is_err());
/// assert!(check_bounds(0.5, 0.4).is_err());
/// ```
pub fn check_bounds(rmin: f64, rmax: f64) -> Result<(), Error> {
    let ok = rmin.is_finite() && rmin > 0.0 && rmax.is_finite() && rmax >= rmin;
    if !ok {
        return Err(Error::InvalidRadiusBounds { rmin, rmax });
    }
    crate::limits::check_length("rmin", rmin)?;
    crate::limits::check_length("rmax", rmax)
}

/// One radius everywhere: the constant-radius sampler, reached through the field API.
///
/// ```
/// use poisson_nd::{Bridson, Domain, Sampler, field::ConstantField};
/// let domain = Domain::<2>::unit();
/// let field = Bridson::builder_with_field(domain, ConstantField::new(0.1)?).build()?;
/// let plain = Bridson::new(domain, 0.1)?;
/// // The same points, bit for bit, and no radii column.
/// let set = field.sample_seeded(20, 3);
/// assert_eq!(set.points, plain.sample_seeded(20, 3).points);
/// assert!(set.radii.is_none());
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConstantField {
    radius: f64,
}

impl ConstantField {
    /// The field `radius` everywhere. Errors: a radius that is not finite and positive.
    pub fn new(radius: f64) -> Result<Self, Error> {
        crate::limits::check_radius(radius)?;
        Ok(ConstantField { radius })
    }
}

impl<const D: usize> RadiusField<D> for ConstantField {
    fn radius(&self, _: &Point<D>) -> f64 {
        self.radius
    }
    fn bounds(&self) -> (f64, f64) {
        (self.radius, self.radius)
    }
    fn constant_radius(&self) -> Option<f64> {
        Some(self.radius)
    }
}

/// A closure as a radius field, with its declared bounds.
///
/// The closure is trusted for nothing: a value that is NaN, not positive or outside
/// `[rmin, rmax]` stops a sampler's run with
/// [`StopReason::InvalidField`](crate::StopReason::InvalidField).
///
/// ```
/// use poisson_nd::{Domain, DartThrowing, FillSampler, field::FnField};
/// // Radius 0.02 on the left, 0.06 on the right.
/// let field = FnField::new(|p: &[f64; 2]| if p[0] < 0.5 { 0.02 } else { 0.06 }, 0.02, 0.06)?;
/// let sampler = DartThrowing::builder_with_field(Domain::unit(), field)
///     .with_max_misses(500)
///     .build()?;
/// let set = sampler.fill_seeded(4);
/// assert!(set.radii.as_ref().is_some_and(|r| r.iter().all(|&r| r == 0.02 || r == 0.06)));
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Clone)]
pub struct FnField<F> {
    function: F,
    rmin: f64,
    rmax: f64,
}

impl<F> FnField<F> {
    /// The field `function` with declared bounds `[rmin, rmax]`.
    ///
    /// Errors: bounds that are not `0 < rmin ≤ rmax < ∞` ([`Error::InvalidRadiusBounds`]).
    pub fn new<const D: usize>(function: F, rmin: f64, rmax: f64) -> Result<Self, Error>
    where
        F: Fn(&Point<D>) -> f64 + Send + Sync,
    {
        check_bounds(rmin, rmax)?;
        Ok(FnField { function, rmin, rmax })
    }
}

impl<F> std::fmt::Debug for FnField<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FnField")
            .field("rmin", &self.rmin)
            .field("rmax", &self.rmax)
            .finish_non_exhaustive()
    }
}

impl<const D: usize, F: Fn(&Point<D>) -> f64 + Send + Sync> RadiusField<D> for FnField<F> {
    fn radius(&self, p: &Point<D>) -> f64 {
        (self.function)(p)
    }
    fn bounds(&self) -> (f64, f64) {
        (self.rmin, self.rmax)
    }
}

/// Values on a regular grid over a box, in any dimension, interpolated multilinearly.
///
/// The grid has shape `(n₀, …, n_{D−1})` over the box `[o, o + L)`. Value `k = (k₀, …)`
/// belongs to the centre of its cell, `x_i = o_i + (k_i + ½)·L_i/n_i`. Between centres the
/// field is multilinear (bilinear in 2D, trilinear in 3D); outside them (the outer half cell
/// along each face, and beyond the box) each coordinate is clamped to the nearest centre, so
/// the field takes the edge values there (clamp-to-edge). An axis with one value is constant
/// along it.
///
/// Values are stored as NumPy stores an array of that shape (C order): the **last axis varies
/// fastest**, `index = ((k₀·n₁ + k₁)·n₂ + k₂)…`. Images use
/// [`from_image_rows`](Self::from_image_rows), which applies the image convention.
///
/// As a [`RadiusField`] its values are radii and its bounds are their minimum and maximum
/// (interpolation stays between them); a value `≤ 0` then makes the bounds invalid, which a
/// sampler's `build` reports. As a density it goes into a [`DensityField`], which requires
/// values in `[0, 1]`.
///
/// ```
/// use poisson_nd::{Domain, field::GriddedField};
/// // A 2×2 grid over [0, 2)²: centres at 0.5 and 1.5 along each axis.
/// let box2 = Domain::from_origin_and_extent([0.0, 0.0], [2.0, 2.0])?;
/// let grid = GriddedField::new(&box2, [2, 2], vec![0.0, 1.0, 2.0, 3.0])?;
/// assert_eq!(grid.value(&[0.5, 0.5]), 0.0); // value (0, 0)
/// assert_eq!(grid.value(&[0.5, 1.5]), 1.0); // value (0, 1): the last axis is fastest
/// assert_eq!(grid.value(&[1.0, 1.0]), 1.5); // the middle: mean of the four
/// assert_eq!(grid.value(&[-5.0, 0.0]), 0.0); // clamped to the edge
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct GriddedField<const D: usize> {
    origin: [f64; D],
    /// Cells per unit length along each axis, `n_i / L_i`.
    inverse_cell: [f64; D],
    shape: [usize; D],
    /// Index strides (C order: the last axis has stride 1).
    strides: [usize; D],
    values: Vec<f64>,
    min: f64,
    max: f64,
}

impl<const D: usize> GriddedField<D> {
    /// `values` of the given `shape` over the box of `domain` (its origin and extent; whether
    /// the domain is periodic does not matter: the field is clamped at the faces, not
    /// wrapped). `values[index]` with the last axis fastest (see the type's documentation).
    ///
    /// Errors: an axis of size 0 ([`Error::EmptyFieldAxis`]); `values.len()` not the product
    /// of the shape ([`Error::FieldValueCount`]); a value that is NaN or infinite
    /// ([`Error::InvalidFieldValue`]).
    pub fn new(domain: &Domain<D>, shape: [usize; D], values: Vec<f64>) -> Result<Self, Error> {
        Self::over_box(domain.origin(), domain.extent(), shape, values)
    }

    /// [`new`](Self::new) over the box `[origin, origin + extent)`, which must be valid
    /// as a [`Domain`]'s.
    fn over_box(
        origin: &[f64; D],
        extent: &[f64; D],
        shape: [usize; D],
        values: Vec<f64>,
    ) -> Result<Self, Error> {
        if let Some(axis) = shape.iter().position(|&n| n == 0) {
            return Err(Error::EmptyFieldAxis { axis });
        }
        let expected = shape.iter().try_fold(1usize, |product, &n| product.checked_mul(n));
        if expected != Some(values.len()) {
            return Err(Error::FieldValueCount {
                shape: shape.to_vec(),
                expected: expected.unwrap_or(usize::MAX),
                got: values.len(),
            });
        }
        if let Some(index) = values.iter().position(|v| !v.is_finite()) {
            return Err(Error::InvalidFieldValue {
                index,
                value: values[index],
                expected: "a finite number",
            });
        }
        let mut strides = [1usize; D];
        for i in (0..D.saturating_sub(1)).rev() {
            strides[i] = strides[i + 1] * shape[i + 1];
        }
        let (min, max) = values
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        Ok(GriddedField {
            origin: *origin,
            inverse_cell: std::array::from_fn(|i| shape[i] as f64 / extent[i]),
            shape,
            strides,
            values,
            min,
            max,
        })
    }

    /// The grid's shape `(n₀, …, n_{D−1})`.
    pub fn shape(&self) -> [usize; D] {
        self.shape
    }

    /// The values, last axis fastest.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The smallest and the largest value: bounds of the interpolated field.
    pub fn value_range(&self) -> (f64, f64) {
        (self.min, self.max)
    }

    /// The interpolated value at `p` (multilinear between cell centres, clamped to the edge
    /// values outside them). Always between the smallest and the largest value, for any
    /// finite `p`; NaN for a NaN coordinate.
    pub fn value(&self, p: &Point<D>) -> f64 {
        // Per axis: the lower corner's index and the weight of the upper corner.
        let mut base = 0usize;
        let mut weight = [0.0; D];
        let mut step = [0usize; D];
        for i in 0..D {
            let n = self.shape[i];
            // Position in units of cells, measured from the first centre.
            let t =
                ((p[i] - self.origin[i]) * self.inverse_cell[i] - 0.5).clamp(0.0, (n - 1) as f64);
            if t.is_nan() {
                return f64::NAN;
            }
            // `t` ≥ 0, so the conversion truncates towards the floor; the last centre has
            // no upper neighbour, so it is the upper corner of the last interval.
            let k = (t as usize).min(n.saturating_sub(2));
            weight[i] = t - k as f64;
            base += k * self.strides[i];
            step[i] = if n > 1 { self.strides[i] } else { 0 };
        }
        // Sum over the 2^D corners of the cell of centres around p.
        let mut sum = 0.0;
        for corner in 0..1usize << D {
            let mut w = 1.0;
            let mut index = base;
            for i in 0..D {
                if corner >> i & 1 == 1 {
                    w *= weight[i];
                    index += step[i];
                } else {
                    w *= 1.0 - weight[i];
                }
            }
            if w != 0.0 {
                sum += w * self.values[index];
            }
        }
        // Rounding must not carry the result past the values it interpolates.
        sum.clamp(self.min, self.max)
    }
}

impl GriddedField<2> {
    /// A 2D image over the first two axes of `domain`'s box, from grey values given as rows:
    /// `values[j·width + i]` is pixel column `i` of row `j`, **row 0 at the top** (the
    /// largest axis-1 value, north up). This is the image convention of the whole project:
    /// column `i` of `W` runs along axis 0, row `j` of `H` along axis 1, and the centre of
    /// pixel `(i, j)` is at `x₀ = o₀ + (i + ½)·L₀/W`, `x₁ = o₁ + L₁ − (j + ½)·L₁/H`; bilinear
    /// between pixel centres, clamp-to-edge outside them. Decoding a file (PNG) is left to
    /// the caller; grey values for a density belong in `[0, 1]`.
    ///
    /// For a box of more than two axes the image is a field of the first two coordinates:
    /// use it through [`DensityField::from_image`].
    ///
    /// Errors: a width or height of 0; `values.len() != width·height`; a non-finite value.
    ///
    /// ```
    /// use poisson_nd::{Domain, field::GriddedField};
    /// let domain = Domain::<2>::unit();
    /// // Two rows: the top row white, the bottom row black.
    /// let image = GriddedField::from_image_rows(&domain, 2, 2, vec![1.0, 1.0, 0.0, 0.0])?;
    /// assert_eq!(image.value(&[0.25, 0.75]), 1.0); // top pixel centres are at y = 0.75
    /// assert_eq!(image.value(&[0.25, 0.25]), 0.0);
    /// assert_eq!(image.value(&[0.5, 0.5]), 0.5);
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn from_image_rows<const E: usize>(
        domain: &Domain<E>,
        width: usize,
        height: usize,
        values: Vec<f64>,
    ) -> Result<Self, Error> {
        if E < 2 {
            return Err(Error::DimensionMismatch { what: "an image's box", expected: 2, got: E });
        }
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
        // Grid value (k₀, k₁) with the last axis fastest is values[k₀·H + k₁]; axis 1 runs
        // north, so k₁ = H − 1 − j.
        let mut grid = vec![0.0; values.len()];
        for j in 0..height {
            for i in 0..width {
                grid[i * height + (height - 1 - j)] = values[j * width + i];
            }
        }
        let (origin, extent) = (domain.origin(), domain.extent());
        Self::over_box(&[origin[0], origin[1]], &[extent[0], extent[1]], [width, height], grid)
            .map_err(|e| match e {
                // Report the pixel as the caller numbered it.
                Error::InvalidFieldValue { index, value, expected } => {
                    let (i, k1) = (index / height, index % height);
                    let index = (height - 1 - k1) * width + i;
                    Error::InvalidFieldValue { index, value, expected }
                }
                other => other,
            })
    }
}

impl<const D: usize> RadiusField<D> for GriddedField<D> {
    fn radius(&self, p: &Point<D>) -> f64 {
        self.value(p)
    }
    fn bounds(&self) -> (f64, f64) {
        (self.min, self.max)
    }
}

/// How a density in `[0, 1]` becomes a radius in `[rmin, rmax]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DensityMapping {
    /// `r = rmax + (rmin − rmax)·density`: density 1 → rmin, 0 → rmax, linear between
    /// (computed as `rmin·density + rmax·(1 − density)`, exact at both ends).
    #[default]
    Lerp,
    /// `r = clamp(rmin·density^(−1/D), rmin, rmax)`: the expected number of points per
    /// volume (∝ r^(−D)) follows the density, up to the clamp; density 0 → rmax.
    Inverse,
}

impl DensityMapping {
    /// The radius for `density` in `D` dimensions; NaN for a density that is NaN or outside
    /// `[0, 1]` (samplers then stop with
    /// [`StopReason::InvalidField`](crate::StopReason::InvalidField)).
    ///
    /// ```
    /// use poisson_nd::field::DensityMapping;
    /// assert_eq!(DensityMapping::Lerp.radius::<2>(0.25, 1.0, 3.0), 2.5);
    /// assert_eq!(DensityMapping::Inverse.radius::<2>(0.25, 1.0, 3.0), 2.0);
    /// assert_eq!(DensityMapping::Inverse.radius::<2>(0.0, 1.0, 3.0), 3.0);
    /// assert!(DensityMapping::Lerp.radius::<2>(1.5, 1.0, 3.0).is_nan());
    /// ```
    pub fn radius<const D: usize>(self, density: f64, rmin: f64, rmax: f64) -> f64 {
        if !(0.0..=1.0).contains(&density) {
            return f64::NAN;
        }
        let r = match self {
            DensityMapping::Lerp => rmin * density + rmax * (1.0 - density),
            // The portable power (libm), so results match on every platform; 0^(−1/D) = ∞.
            DensityMapping::Inverse => rmin * libm::pow(density, -1.0 / D as f64),
        };
        // Rounding must not carry a radius past the bounds the grid was sized for.
        r.clamp(rmin, rmax)
    }
}

/// Where a [`DensityField`] reads its density.
#[derive(Clone)]
enum Density<const D: usize> {
    /// A grid of the box's dimension.
    Gridded(GriddedField<D>),
    /// A 2D grid (an image) over the first two axes.
    Image(GriddedField<2>),
    /// A closure, checked at every call.
    Function(Arc<dyn Fn(&Point<D>) -> f64 + Send + Sync>),
}

impl<const D: usize> std::fmt::Debug for Density<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Density::Gridded(g) => f.debug_tuple("Gridded").field(&g.shape()).finish(),
            Density::Image(g) => f.debug_tuple("Image").field(&g.shape()).finish(),
            Density::Function(_) => f.write_str("Function"),
        }
    }
}

/// A density in `[0, 1]` mapped to a radius in `[rmin, rmax]`: density maps and images as
/// radius fields.
///
/// ```
/// use poisson_nd::{Domain, field::{DensityField, DensityMapping, GriddedField, RadiusField}};
/// let domain = Domain::<2>::unit();
/// // A gradient along axis 0: density 0 at the left centre, 1 at the right one.
/// let density = GriddedField::new(&domain, [2, 1], vec![0.0, 1.0])?;
/// let field = DensityField::new(density, DensityMapping::Lerp, 0.01, 0.04)?;
/// assert_eq!(field.radius(&[0.25, 0.5]), 0.04);
/// assert_eq!(field.radius(&[0.75, 0.5]), 0.01);
/// assert_eq!(field.bounds(), (0.01, 0.04));
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct DensityField<const D: usize> {
    density: Density<D>,
    mapping: DensityMapping,
    rmin: f64,
    rmax: f64,
}

impl<const D: usize> DensityField<D> {
    /// A gridded density (values in `[0, 1]`) mapped to radii in `[rmin, rmax]`.
    ///
    /// Errors: bad bounds ([`Error::InvalidRadiusBounds`]); a value outside `[0, 1]`
    /// ([`Error::InvalidFieldValue`], naming its index).
    pub fn new(
        density: GriddedField<D>,
        mapping: DensityMapping,
        rmin: f64,
        rmax: f64,
    ) -> Result<Self, Error> {
        check_bounds(rmin, rmax)?;
        check_density_values(density.values())?;
        Ok(DensityField { density: Density::Gridded(density), mapping, rmin, rmax })
    }

    /// An image (see [`GriddedField::from_image_rows`]) as the density over the box's first
    /// two axes, constant along the others. Values in `[0, 1]`.
    ///
    /// Errors: as [`new`](Self::new), with a value's index counted as in the rows given to
    /// [`GriddedField::from_image_rows`] (`row · width + column`); a box of one dimension
    /// ([`Error::DimensionMismatch`]).
    pub fn from_image(
        image: GriddedField<2>,
        mapping: DensityMapping,
        rmin: f64,
        rmax: f64,
    ) -> Result<Self, Error> {
        if D < 2 {
            return Err(Error::DimensionMismatch { what: "an image's box", expected: 2, got: D });
        }
        check_bounds(rmin, rmax)?;
        check_density_values(image.values()).map_err(|e| match e {
            // Name the pixel as the image's rows number it.
            Error::InvalidFieldValue { index, value, expected } => {
                let [width, height] = image.shape();
                let (column, k1) = (index / height, index % height);
                let index = (height - 1 - k1) * width + column;
                Error::InvalidFieldValue { index, value, expected }
            }
            other => other,
        })?;
        Ok(DensityField { density: Density::Image(image), mapping, rmin, rmax })
    }

    /// A density given by a closure. It is checked at every call: a value that is NaN or
    /// outside `[0, 1]` makes the radius NaN, and samplers stop with
    /// [`StopReason::InvalidField`](crate::StopReason::InvalidField).
    ///
    /// Errors: bad bounds ([`Error::InvalidRadiusBounds`]).
    pub fn from_fn(
        density: impl Fn(&Point<D>) -> f64 + Send + Sync + 'static,
        mapping: DensityMapping,
        rmin: f64,
        rmax: f64,
    ) -> Result<Self, Error> {
        check_bounds(rmin, rmax)?;
        Ok(DensityField { density: Density::Function(Arc::new(density)), mapping, rmin, rmax })
    }

    /// The density at `p`.
    pub fn density(&self, p: &Point<D>) -> f64 {
        match &self.density {
            Density::Gridded(grid) => grid.value(p),
            Density::Image(image) => image.value(&[p[0], p[1]]),
            Density::Function(f) => f(p),
        }
    }

    /// The mapping from density to radius.
    pub fn mapping(&self) -> DensityMapping {
        self.mapping
    }
}

impl<const D: usize> RadiusField<D> for DensityField<D> {
    fn radius(&self, p: &Point<D>) -> f64 {
        self.mapping.radius::<D>(self.density(p), self.rmin, self.rmax)
    }
    fn bounds(&self) -> (f64, f64) {
        (self.rmin, self.rmax)
    }
}

/// Densities must lie in `[0, 1]`.
pub(crate) fn check_density_values(values: &[f64]) -> Result<(), Error> {
    match values.iter().position(|v| !(0.0..=1.0).contains(v)) {
        Some(index) => Err(Error::InvalidFieldValue {
            index,
            value: values[index],
            expected: "a density in [0, 1]",
        }),
        None => Ok(()),
    }
}

/// Which distance two points with radii `rᵢ` and `rⱼ` must keep.
///
/// | rule   | distance        | what it guarantees                                          |
/// |--------|-----------------|-------------------------------------------------------------|
/// | `Max`  | `max(rᵢ, rⱼ)`   | no point lies within any point's own radius                 |
/// | `Min`  | `min(rᵢ, rⱼ)`   | each point keeps its radius from points of larger radius   |
/// | `Mean` | `(rᵢ + rⱼ)/2`   | balls of radius `rᵢ/2` are disjoint (a packing)             |
///
/// Every rule keeps every pair at least `rmin` apart. docs/algorithms.md ("Variable
/// radius") says how each behaves where the field changes fast.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PairRule {
    /// `max(rᵢ, rⱼ)` (the default).
    #[default]
    Max,
    /// `min(rᵢ, rⱼ)`.
    Min,
    /// The mean, `(rᵢ + rⱼ)/2`.
    Mean,
}

impl PairRule {
    /// The distance two points with radii `ri` and `rj` must keep: a pair conflicts when
    /// `d² < distance(ri, rj)²`. Symmetric, and non-decreasing in each radius.
    ///
    /// ```
    /// use poisson_nd::field::PairRule;
    /// assert_eq!(PairRule::Max.distance(1.0, 3.0), 3.0);
    /// assert_eq!(PairRule::Min.distance(1.0, 3.0), 1.0);
    /// assert_eq!(PairRule::Mean.distance(1.0, 3.0), 2.0);
    /// ```
    #[inline(always)]
    pub fn distance(self, ri: f64, rj: f64) -> f64 {
        match self {
            PairRule::Max => ri.max(rj),
            PairRule::Min => ri.min(rj),
            PairRule::Mean => 0.5 * (ri + rj),
        }
    }

    /// The rule's name in kebab case: `"max"`, `"min"`, `"mean"`.
    pub fn as_str(self) -> &'static str {
        self.name()
    }
}

impl Choice for PairRule {
    const ALL: &'static [Self] = &[PairRule::Max, PairRule::Min, PairRule::Mean];

    fn name(self) -> &'static str {
        match self {
            PairRule::Max => "max",
            PairRule::Min => "min",
            PairRule::Mean => "mean",
        }
    }

    fn description(self) -> &'static str {
        match self {
            PairRule::Max => "`max(r_i, r_j)`: each point keeps every other out of its own disk",
            PairRule::Min => "`min(r_i, r_j)`: the smaller radius decides",
            PairRule::Mean => "`(r_i + r_j) / 2`: disks of radius `r/2` do not overlap",
        }
    }
}

impl Choice for DensityMapping {
    const ALL: &'static [Self] = &[DensityMapping::Lerp, DensityMapping::Inverse];

    fn name(self) -> &'static str {
        match self {
            DensityMapping::Lerp => "lerp",
            DensityMapping::Inverse => "inverse",
        }
    }

    fn description(self) -> &'static str {
        match self {
            DensityMapping::Lerp => "`r = rmax + (rmin − rmax)·density`",
            DensityMapping::Inverse => {
                "`r = clamp(rmin·density^(−1/D), rmin, rmax)`: points per volume follow the \
                 density"
            }
        }
    }
}

impl std::fmt::Display for PairRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A field as samplers hold it: shared, with its checked bounds and the pair rule.
#[derive(Debug, Clone)]
pub(crate) struct FieldSetup<const D: usize> {
    pub(crate) field: Arc<dyn RadiusField<D>>,
    pub(crate) rule: PairRule,
    pub(crate) rmin: f64,
    pub(crate) rmax: f64,
}

impl<const D: usize> FieldSetup<D> {
    /// Checks the field's bounds.
    pub(crate) fn new(field: Arc<dyn RadiusField<D>>, rule: PairRule) -> Result<Self, Error> {
        let (rmin, rmax) = field.bounds();
        check_bounds(rmin, rmax)?;
        Ok(FieldSetup { field, rule, rmin, rmax })
    }

    /// The radius at `p` if it is valid (a number within the declared bounds, hence
    /// positive); otherwise the error that stops the run.
    #[inline]
    pub(crate) fn radius_at(&self, p: &Point<D>) -> Result<f64, Error> {
        let r = self.field.radius(p);
        // NaN fails both comparisons.
        if r >= self.rmin && r <= self.rmax {
            Ok(r)
        } else {
            Err(Error::FieldValueOutOfBounds {
                point: p.to_vec(),
                value: r,
                rmin: self.rmin,
                rmax: self.rmax,
            })
        }
    }
}

/// The radius and field a sampler runs with: a constant field becomes its radius (and the
/// constant-radius code); any other field is checked and kept, with its rmin as the radius.
pub(crate) fn resolve_field<const D: usize>(
    radius: f64,
    field: Option<Arc<dyn RadiusField<D>>>,
    rule: PairRule,
) -> Result<(f64, Option<FieldSetup<D>>), Error> {
    let Some(field) = field else { return Ok((radius, None)) };
    if let Some(r) = field.constant_radius() {
        return Ok((r, None));
    }
    let setup = FieldSetup::new(field, rule)?;
    Ok((setup.rmin, Some(setup)))
}
