//! An axis-aligned box as a region, in any dimension.

use super::{BoxClass, Region, check_corners};
use crate::error::Error;
use crate::point::Point;

/// The axis-aligned box `[lower, upper)`, half-open like a [`Domain`](crate::Domain): a
/// point on an upper face is outside.
///
/// ```
/// use poisson_nd::region::{BoxRegion, Region};
/// let slab = BoxRegion::new([0.0, 0.25, 0.0], [1.0, 0.5, 1.0])?;
/// assert!(slab.contains(&[0.5, 0.25, 0.5]));
/// assert!(!slab.contains(&[0.5, 0.5, 0.5]));
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoxRegion<const D: usize> {
    lower: Point<D>,
    upper: Point<D>,
}

impl<const D: usize> BoxRegion<D> {
    /// The box `[lower, upper)`. Errors: a non-finite corner, or `upper ≤ lower` on an axis.
    pub fn new(lower: Point<D>, upper: Point<D>) -> Result<Self, Error> {
        check_corners(&lower, &upper)?;
        Ok(BoxRegion { lower, upper })
    }

    /// The lower corner.
    pub fn lower(&self) -> &Point<D> {
        &self.lower
    }

    /// The upper corner.
    pub fn upper(&self) -> &Point<D> {
        &self.upper
    }
}

impl<const D: usize> Region<D> for BoxRegion<D> {
    #[inline]
    fn contains(&self, p: &Point<D>) -> bool {
        (0..D).all(|i| p[i] >= self.lower[i] && p[i] < self.upper[i])
    }

    fn bounding_box(&self) -> (Point<D>, Point<D>) {
        (self.lower, self.upper)
    }

    /// The signed Euclidean distance to the box's boundary (exact).
    fn signed_distance(&self, p: &Point<D>) -> Option<f64> {
        let mut outside = 0.0;
        let mut inside = f64::NEG_INFINITY;
        for i in 0..D {
            // Positive beyond a face, negative within the slab of this axis.
            let d = (self.lower[i] - p[i]).max(p[i] - self.upper[i]);
            outside += d.max(0.0).powi(2);
            inside = inside.max(d);
        }
        Some(if outside > 0.0 { outside.sqrt() } else { inside })
    }

    fn classify_box(&self, lower: &Point<D>, upper: &Point<D>) -> BoxClass {
        let mut inside = true;
        for i in 0..D {
            if upper[i] < self.lower[i] || lower[i] >= self.upper[i] {
                return BoxClass::Outside;
            }
            inside &= lower[i] >= self.lower[i] && upper[i] < self.upper[i];
        }
        if inside { BoxClass::Inside } else { BoxClass::Straddling }
    }

    fn resolves_boundary(&self) -> bool {
        true
    }
}
