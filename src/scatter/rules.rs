//! Where on the terrain a class may stand, and how its radius grows with the slope.

use super::terrain::{Surface, SurfaceBounds};
use crate::error::Error;
use crate::region::BoxClass;

/// A class's placement rules: a slope band and a height band outside which it places nothing,
/// and an optional growth of its radius with the slope.
///
/// - Slope band `[min_slope, max_slope]` in degrees (default `[0, 90]`: everywhere).
/// - Height band `[min_height, max_height]` in world units (default unbounded).
/// - Slope growth `k ≥ 0` (default 0): a point's radius is its base radius (constant, or
///   the class's field) times `1 + k·slope/90`, so on a 45° slope with `k = 1` instances
///   keep 1.5× their flat-ground distance. The factor is at most `1 + k·max_slope/90`, which
///   bounds the class's largest radius for the grid.
///
/// A point is admitted when both bands hold it (bounds included).
///
/// ```
/// use poisson_nd::scatter::PlacementRules;
/// let rules = PlacementRules::new().with_slope(0.0, 30.0)?.with_slope_radius(1.0)?;
/// assert_eq!(rules.radius_factor(45.0), 1.5);
/// assert_eq!(rules.largest_factor(), 1.0 + 30.0 / 90.0);
/// assert!(PlacementRules::new().with_slope(10.0, 95.0).is_err());
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacementRules {
    min_slope: f64,
    max_slope: f64,
    min_height: f64,
    max_height: f64,
    slope_radius: f64,
}

impl Default for PlacementRules {
    fn default() -> Self {
        PlacementRules::new()
    }
}

impl PlacementRules {
    /// No restriction: every slope and height, a radius that does not grow.
    pub fn new() -> Self {
        PlacementRules {
            min_slope: 0.0,
            max_slope: 90.0,
            min_height: f64::NEG_INFINITY,
            max_height: f64::INFINITY,
            slope_radius: 0.0,
        }
    }

    /// Places only where the slope lies in `[min, max]` degrees.
    ///
    /// Errors: a bound outside `[0, 90]` or NaN, or `min > max` ([`Error::InvalidParameter`]).
    pub fn with_slope(mut self, min: f64, max: f64) -> Result<Self, Error> {
        for (name, value) in [("min_slope", min), ("max_slope", max)] {
            if !(0.0..=90.0).contains(&value) {
                return Err(Error::InvalidParameter {
                    name,
                    expected: "in [0, 90] degrees",
                    value,
                });
            }
        }
        if min > max {
            return Err(Error::InvalidParameter {
                name: "min_slope",
                expected: "at most max_slope",
                value: min,
            });
        }
        self.min_slope = min;
        self.max_slope = max;
        Ok(self)
    }

    /// Places only where the height lies in `[min, max]` (either may be infinite).
    ///
    /// Errors: a NaN bound, or `min > max` ([`Error::InvalidParameter`]).
    pub fn with_height(mut self, min: f64, max: f64) -> Result<Self, Error> {
        for (name, value) in [("min_height", min), ("max_height", max)] {
            if value.is_nan() {
                return Err(Error::InvalidParameter { name, expected: "a number", value });
            }
        }
        if min > max {
            return Err(Error::InvalidParameter {
                name: "min_height",
                expected: "at most max_height",
                value: min,
            });
        }
        self.min_height = min;
        self.max_height = max;
        Ok(self)
    }

    /// Grows the radius with the slope: factor `1 + k·slope/90`.
    ///
    /// Errors: `k` negative, NaN or infinite ([`Error::InvalidParameter`]).
    pub fn with_slope_radius(mut self, k: f64) -> Result<Self, Error> {
        if !(k.is_finite() && k >= 0.0) {
            return Err(Error::InvalidParameter {
                name: "slope_radius",
                expected: "finite and >= 0",
                value: k,
            });
        }
        self.slope_radius = k;
        Ok(self)
    }

    /// The slope band `(min, max)` in degrees.
    pub fn slope_band(&self) -> (f64, f64) {
        (self.min_slope, self.max_slope)
    }

    /// The height band `(min, max)`.
    pub fn height_band(&self) -> (f64, f64) {
        (self.min_height, self.max_height)
    }

    /// The slope growth `k`.
    pub fn slope_radius(&self) -> f64 {
        self.slope_radius
    }

    /// Whether a point with this surface may hold an instance of the class.
    #[inline]
    pub fn admits(&self, surface: &Surface) -> bool {
        surface.slope >= self.min_slope
            && surface.slope <= self.max_slope
            && surface.height >= self.min_height
            && surface.height <= self.max_height
    }

    /// Whether the bands admit every surface (the slope factor aside).
    pub(crate) fn admits_everything(&self) -> bool {
        self.min_slope <= 0.0
            && self.max_slope >= 90.0
            && self.min_height == f64::NEG_INFINITY
            && self.max_height == f64::INFINITY
    }

    /// How the bands judge a box over which the surface stays within `bounds`: inside when
    /// they admit every surface within them, outside when none, else straddling. A margin of
    /// 1e-9 (relative) keeps the verdict sound against the rounding of a point's own slope
    /// and height.
    pub(crate) fn classify(&self, bounds: &SurfaceBounds) -> BoxClass {
        let slope = |g2: f64| g2.max(0.0).sqrt().atan().to_degrees();
        let [s_lo, s_hi] = bounds.steepness_squared.map(slope);
        let [h_lo, h_hi] = bounds.height;
        let margin = |v: f64| 1e-9 * (1.0 + v.abs());
        // Bounds that do not bound (0°, 90°, ±∞) admit everything and exclude nothing.
        let (low_slope, high_slope) = (self.min_slope > 0.0, self.max_slope < 90.0);
        let (low_height, high_height) =
            (self.min_height > f64::NEG_INFINITY, self.max_height < f64::INFINITY);
        let (s_min, s_max, h_min, h_max) =
            (self.min_slope, self.max_slope, self.min_height, self.max_height);
        let slopes_in = (!low_slope || s_lo > s_min + margin(s_min))
            && (!high_slope || s_hi < s_max - margin(s_max));
        let heights_in = (!low_height || h_lo > h_min + margin(h_min))
            && (!high_height || h_hi < h_max - margin(h_max));
        let slopes_out = (low_slope && s_hi < s_min - margin(s_min))
            || (high_slope && s_lo > s_max + margin(s_max));
        let heights_out = (low_height && h_hi < h_min - margin(h_min))
            || (high_height && h_lo > h_max + margin(h_max));
        if slopes_out || heights_out {
            BoxClass::Outside
        } else if slopes_in && heights_in {
            BoxClass::Inside
        } else {
            BoxClass::Straddling
        }
    }

    /// The factor `1 + k·slope/90` the base radius is multiplied by at `slope` degrees.
    #[inline]
    pub fn radius_factor(&self, slope: f64) -> f64 {
        1.0 + self.slope_radius * slope / 90.0
    }

    /// The smallest factor over the slope band, `1 + k·min_slope/90`.
    pub fn smallest_factor(&self) -> f64 {
        self.radius_factor(self.min_slope)
    }

    /// The largest factor over the slope band, `1 + k·max_slope/90`.
    pub fn largest_factor(&self) -> f64 {
        self.radius_factor(self.max_slope)
    }
}
