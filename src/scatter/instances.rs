//! Instances: a ground point lifted onto the terrain, turned, tilted and scaled.

use crate::error::Error;
use crate::rng::{derive_seed, rng_from_seed, uniform01};
use nalgebra::{UnitQuaternion, Vector3};

/// One placed object, ready for GPU instancing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Instance {
    /// The class's index in the order the classes were declared.
    pub class: usize,
    /// `[x, y, z]`: the ground point `(x, z)` and the terrain's height `y` there.
    pub position: [f64; 3],
    /// The rotation `[x, y, z, w]` (a unit quaternion): a yaw about `+y`, then the tilt
    /// taking `+y` onto `normalize(lerp(+y, normal, align))`.
    pub rotation: [f64; 4],
    /// The uniform scale.
    pub scale: f64,
    /// The point's radius: the distance its own class keeps from it (before the pair rule).
    pub radius: f64,
}

/// How a class's instances stand: how far they lean with the terrain, and their scale range.
///
/// ```
/// use poisson_nd::scatter::Pose;
/// let upright = Pose::new(0.0, 0.8, 1.3)?;
/// assert_eq!(upright.align(), 0.0);
/// assert!(Pose::new(1.5, 1.0, 1.0).is_err());
/// assert!(Pose::new(0.5, 2.0, 1.0).is_err());
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    align: f64,
    scale_min: f64,
    scale_max: f64,
}

impl Default for Pose {
    /// Upright, scale 1.
    fn default() -> Self {
        Pose { align: 0.0, scale_min: 1.0, scale_max: 1.0 }
    }
}

impl Pose {
    /// `align` in `[0, 1]` (0: upright, 1: along the surface normal) and a scale drawn
    /// uniformly from `[scale_min, scale_max]`.
    ///
    /// Errors ([`Error::InvalidParameter`]): `align` outside `[0, 1]` or NaN; a scale that is
    /// not finite and positive; `scale_min > scale_max`.
    pub fn new(align: f64, scale_min: f64, scale_max: f64) -> Result<Self, Error> {
        if !(0.0..=1.0).contains(&align) {
            return Err(Error::InvalidParameter {
                name: "align",
                expected: "in [0, 1]",
                value: align,
            });
        }
        for (name, value) in [("scale_min", scale_min), ("scale_max", scale_max)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(Error::InvalidParameter { name, expected: "finite and > 0", value });
            }
            crate::limits::check_output_length(name, value, false)?;
        }
        if scale_min > scale_max {
            return Err(Error::InvalidParameter {
                name: "scale_min",
                expected: "at most scale_max",
                value: scale_min,
            });
        }
        Ok(Pose { align, scale_min, scale_max })
    }

    /// How far instances lean with the terrain, in `[0, 1]`.
    pub fn align(&self) -> f64 {
        self.align
    }

    /// The scale range `(min, max)`.
    pub fn scale_range(&self) -> (f64, f64) {
        (self.scale_min, self.scale_max)
    }

    /// The rotation and scale of instance number `index` of class `class` in a run seeded
    /// with `seed`, standing on ground whose unit normal is `normal`.
    ///
    /// The draws come from a generator seeded by `(seed, class, index)` alone, so an
    /// instance's yaw and scale do not depend on how many instances other classes have.
    /// The rotation is `tilt · yaw`: first `yaw` about `+y` by a uniform angle in `[0, 2π)`,
    /// then the shortest rotation taking `+y` onto `u = normalize((1 − align)·ŷ + align·n)`.
    /// With `ny > 0` (every terrain normal) `u` is never 0 and never `−ŷ`.
    pub fn orient(
        &self,
        seed: u64,
        class: usize,
        index: usize,
        normal: [f64; 3],
    ) -> (UnitQuaternion<f64>, f64) {
        let mut rng = rng_from_seed(derive_seed(derive_seed(seed, class as u64), index as u64));
        let angle = std::f64::consts::TAU * uniform01(&mut rng);
        let scale = self.scale_min + (self.scale_max - self.scale_min) * uniform01(&mut rng);
        let yaw = UnitQuaternion::from_axis_angle(&Vector3::y_axis(), angle);
        let up = Vector3::y();
        let n = Vector3::from(normal);
        let target = up * (1.0 - self.align) + n * self.align;
        let tilt =
            UnitQuaternion::rotation_between(&up, &target).unwrap_or_else(UnitQuaternion::identity);
        (tilt * yaw, scale.clamp(self.scale_min, self.scale_max))
    }
}

/// A unit quaternion as `[x, y, z, w]`.
pub fn quaternion_xyzw(q: &UnitQuaternion<f64>) -> [f64; 4] {
    let c = q.coords;
    [c[0], c[1], c[2], c[3]]
}
