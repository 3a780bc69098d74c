//! A ball as a region, in any dimension.

use super::{BoxClass, Region, check_finite};
use crate::error::Error;
use crate::point::{Point, distance_squared};

/// The open ball of points closer than `radius` to `centre`, in any dimension.
///
/// Box classification compares the nearest and farthest points of the box with the radius,
/// with a relative margin of 10⁻⁹ that covers the rounding of both sides.
///
/// ```
/// use poisson_nd::region::{Ball, Region};
/// let ball = Ball::new([0.5; 4], 0.5)?;
/// assert!(ball.contains(&[0.5, 0.5, 0.5, 0.9]));
/// assert!(!ball.contains(&[0.9, 0.9, 0.5, 0.5]));
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ball<const D: usize> {
    centre: Point<D>,
    radius: f64,
    radius_squared: f64,
}

/// Relative margin of the box classification against rounding.
const MARGIN: f64 = 1e-9;

impl<const D: usize> Ball<D> {
    /// The open ball around `centre` of radius `radius`. Errors: a non-finite centre, or a
    /// radius that is not finite and positive.
    pub fn new(centre: Point<D>, radius: f64) -> Result<Self, Error> {
        check_finite("ball centre coordinate", &[centre])?;
        if !(radius.is_finite() && radius > 0.0) {
            return Err(Error::InvalidParameter {
                name: "ball radius",
                expected: "finite and > 0",
                value: radius,
            });
        }
        Ok(Ball { centre, radius, radius_squared: radius * radius })
    }

    /// The centre.
    pub fn centre(&self) -> &Point<D> {
        &self.centre
    }

    /// The radius.
    pub fn radius(&self) -> f64 {
        self.radius
    }
}

impl<const D: usize> Region<D> for Ball<D> {
    #[inline]
    fn contains(&self, p: &Point<D>) -> bool {
        distance_squared(p, &self.centre) < self.radius_squared
    }

    fn bounding_box(&self) -> (Point<D>, Point<D>) {
        (
            std::array::from_fn(|i| self.centre[i] - self.radius),
            std::array::from_fn(|i| self.centre[i] + self.radius),
        )
    }

    /// The exact signed distance `|p − centre| − radius`.
    fn signed_distance(&self, p: &Point<D>) -> Option<f64> {
        Some(distance_squared(p, &self.centre).sqrt() - self.radius)
    }

    fn classify_box(&self, lower: &Point<D>, upper: &Point<D>) -> BoxClass {
        let (mut near, mut far) = (0.0, 0.0);
        for i in 0..D {
            let (a, b) = (lower[i] - self.centre[i], upper[i] - self.centre[i]);
            let gap = if a > 0.0 {
                a
            } else if b < 0.0 {
                -b
            } else {
                0.0
            };
            near += gap * gap;
            let reach = a.abs().max(b.abs());
            far += reach * reach;
        }
        if far < self.radius_squared * (1.0 - MARGIN) {
            BoxClass::Inside
        } else if near > self.radius_squared * (1.0 + MARGIN) {
            BoxClass::Outside
        } else {
            BoxClass::Straddling
        }
    }

    fn resolves_boundary(&self) -> bool {
        true
    }
}
