//! A region given by a signed-distance closure, in any dimension.

use super::{BoxClass, Region, check_corners};
use crate::error::Error;
use crate::point::Point;
use std::fmt;

/// The points of a box where a closure `f` is negative: `{p ∈ [lower, upper] : f(p) < 0}`.
///
/// `f` is meant to be a signed distance, or a bound on one: its value at `p` is at most the
/// distance from `p` to the boundary `f = 0`, in absolute value, times a Lipschitz constant `L`
/// (1 by default, [`with_lipschitz`](Self::with_lipschitz) to change it). Box classification
/// relies on that: a box whose centre has `|f| > L · half-diagonal` does not meet the boundary,
/// so it is wholly inside or outside. A closure that is **not** such a bound must say so with
/// [`without_distance_bound`](Self::without_distance_bound): every box is then straddling and
/// every test calls the closure (correct, only slower). Box classification keeps a relative
/// margin of 10⁻⁶ for rounding in the closure.
///
/// ```
/// use poisson_nd::region::{Region, Sdf};
/// // A torus in 3D: tube radius 0.1 around a circle of radius 0.3 in the xy-plane.
/// let torus = Sdf::new([-0.5, -0.5, -0.2], [0.5, 0.5, 0.2], |p: &[f64; 3]| {
///     let ring = (p[0].hypot(p[1]) - 0.3).hypot(p[2]);
///     ring - 0.1
/// })?;
/// assert!(torus.contains(&[0.3, 0.0, 0.0]));
/// assert!(!torus.contains(&[0.0, 0.0, 0.0]));
/// # Ok::<(), poisson_nd::Error>(())
/// ```
pub struct Sdf<const D: usize, F> {
    lower: Point<D>,
    upper: Point<D>,
    f: F,
    /// The Lipschitz constant, or `None` when `f` bounds no distance.
    lipschitz: Option<f64>,
}

impl<const D: usize, F> fmt::Debug for Sdf<D, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sdf")
            .field("lower", &self.lower)
            .field("upper", &self.upper)
            .field("lipschitz", &self.lipschitz)
            .finish_non_exhaustive()
    }
}

/// Relative margin of the box classification against rounding in the closure.
const MARGIN: f64 = 1e-6;

impl<const D: usize, F: Fn(&Point<D>) -> f64 + Send + Sync> Sdf<D, F> {
    /// The region where `f < 0` inside the closed box `[lower, upper]`, with `f` a signed
    /// distance bound of Lipschitz constant 1. Errors: a non-finite corner, or
    /// `upper ≤ lower` on an axis.
    pub fn new(lower: Point<D>, upper: Point<D>, f: F) -> Result<Self, Error> {
        check_corners(&lower, &upper)?;
        Ok(Sdf { lower, upper, f, lipschitz: Some(1.0) })
    }

    /// Declares `f` to be `lipschitz`-Lipschitz (|f(p) − f(q)| ≤ L·|p − q|). Errors unless
    /// `lipschitz` is finite and positive.
    pub fn with_lipschitz(mut self, lipschitz: f64) -> Result<Self, Error> {
        if !(lipschitz.is_finite() && lipschitz > 0.0) {
            return Err(Error::InvalidParameter {
                name: "Lipschitz constant",
                expected: "finite and > 0",
                value: lipschitz,
            });
        }
        self.lipschitz = Some(lipschitz);
        Ok(self)
    }

    /// Declares that `f` bounds no distance (only its sign means something): every box is
    /// then classified as straddling.
    #[must_use]
    pub fn without_distance_bound(mut self) -> Self {
        self.lipschitz = None;
        self
    }

    fn in_box(&self, p: &Point<D>) -> bool {
        (0..D).all(|i| p[i] >= self.lower[i] && p[i] <= self.upper[i])
    }
}

impl<const D: usize, F: Fn(&Point<D>) -> f64 + Send + Sync> Region<D> for Sdf<D, F> {
    #[inline]
    fn contains(&self, p: &Point<D>) -> bool {
        self.in_box(p) && (self.f)(p) < 0.0
    }

    fn bounding_box(&self) -> (Point<D>, Point<D>) {
        (self.lower, self.upper)
    }

    /// The closure's value divided by the Lipschitz constant (so a 1-Lipschitz bound), when
    /// it bounds a distance.
    fn signed_distance(&self, p: &Point<D>) -> Option<f64> {
        self.lipschitz.map(|l| (self.f)(p) / l)
    }

    fn classify_box(&self, lower: &Point<D>, upper: &Point<D>) -> BoxClass {
        let mut within = true;
        for i in 0..D {
            if upper[i] < self.lower[i] || lower[i] > self.upper[i] {
                return BoxClass::Outside;
            }
            within &= lower[i] >= self.lower[i] && upper[i] <= self.upper[i];
        }
        let Some(lipschitz) = self.lipschitz else { return BoxClass::Straddling };
        let centre: Point<D> = std::array::from_fn(|i| 0.5 * (lower[i] + upper[i]));
        let half_diagonal =
            (0..D).map(|i| (0.5 * (upper[i] - lower[i])).powi(2)).sum::<f64>().sqrt();
        let reach = lipschitz * half_diagonal * (1.0 + MARGIN);
        let value = (self.f)(&centre);
        if value.is_nan() {
            return BoxClass::Straddling;
        }
        if value - reach > 0.0 {
            // f > 0 throughout, inside the box of the region or not.
            BoxClass::Outside
        } else if value + reach < 0.0 && within {
            BoxClass::Inside
        } else {
            BoxClass::Straddling
        }
    }

    /// With a distance bound (the default), a box farther from the boundary than its
    /// half-diagonal (times the Lipschitz constant) is classified, so yes; without, no.
    fn resolves_boundary(&self) -> bool {
        self.lipschitz.is_some()
    }
}
