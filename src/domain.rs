//! The space points live in: a box, closed or periodic, and its metric.
//!
//! Which points of that space a sampler may place is a separate question, answered by a
//! [`Region`](crate::region::Region); the default region is the whole box.

use crate::error::Error;
use crate::limits;
use crate::point::{Point, distance_squared, toroidal_distance_squared};
use crate::rng::uniform01;
use rand::Rng;

/// An axis-aligned box `[origin, origin + extent)` in `D` dimensions, optionally periodic
/// (a torus: opposite faces are identified and distances wrap around): the metric space
/// points live in. It measures distances ([`Domain::distance_squared`]) and maps points into
/// the box ([`Domain::wrap`]); which of its points may be sampled is a
/// [`Region`](crate::region::Region)'s business (by default the whole box).
///
/// The box is half-open: a point on an upper face is outside it (in a periodic box it is the
/// same point as the one on the lower face).
///
/// ```
/// use poisson_nd::Domain;
/// let unit = Domain::<2>::unit();
/// // The same slab twice: lower corner and side lengths, or both corners.
/// let slab = Domain::from_origin_and_extent([-1.0, 0.0, 5.0], [2.0, 1.0, 0.5])?.periodic();
/// let same = Domain::from_corners([-1.0, 0.0, 5.0], [1.0, 1.0, 5.5])?.periodic();
/// assert_eq!(slab, same);
/// assert!(slab.contains(&[-1.0, 0.5, 5.05]));
/// assert!(!unit.contains(&[1.0, 0.5]));
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Domain<const D: usize> {
    origin: Point<D>,
    extent: [f64; D],
    periodic: bool,
}

impl<const D: usize> Domain<D> {
    /// A closed (non-periodic) box with lower corner `origin` and side lengths `extent`: the
    /// box `[origin, origin + extent)`.
    ///
    /// Errors: `D = 0`, a non-finite origin, a side that is not finite and positive, or an
    /// upper corner that overflows.
    pub fn from_origin_and_extent(origin: Point<D>, extent: [f64; D]) -> Result<Self, Error> {
        if D == 0 {
            return Err(Error::ZeroDimension);
        }
        for axis in 0..D {
            if !origin[axis].is_finite() {
                return Err(Error::InvalidOrigin { axis, value: origin[axis] });
            }
            if !(extent[axis].is_finite() && extent[axis] > 0.0) {
                return Err(Error::InvalidExtent { axis, value: extent[axis] });
            }
            let upper = origin[axis] + extent[axis];
            if !upper.is_finite() {
                return Err(Error::BoxOverflow { axis });
            }
            // The numbers results are guaranteed for (crate::limits, docs/limits.md), checked
            // before the emptiness below so that a huge origin is named as such.
            limits::check_coordinate("a box coordinate", origin[axis])?;
            limits::check_coordinate("a box coordinate", upper)?;
            limits::check_length("a box side", extent[axis])?;
            if upper <= origin[axis] {
                // The side is below the spacing of floats at the origin: an empty box.
                return Err(Error::InvalidExtent { axis, value: extent[axis] });
            }
        }
        Ok(Domain { origin, extent, periodic: false })
    }

    /// A closed box from its lower and upper corners: `[lower, upper)`. The side lengths
    /// are `upper − lower`, rounded; the upper corner is then `lower + (upper − lower)`, which
    /// can differ from `upper` by rounding.
    ///
    /// Errors: `D = 0`, a non-finite corner coordinate, or an upper coordinate that is not
    /// above the lower one.
    pub fn from_corners(lower: Point<D>, upper: Point<D>) -> Result<Self, Error> {
        for axis in 0..D {
            // A non-finite lower corner is reported as an origin below.
            let upper_ok = upper[axis].is_finite() && upper[axis] > lower[axis];
            if lower[axis].is_finite() && !upper_ok {
                return Err(Error::InvalidCorners { axis, lower: lower[axis], upper: upper[axis] });
            }
        }
        Self::from_origin_and_extent(lower, std::array::from_fn(|i| upper[i] - lower[i]))
    }

    /// The unit cube `[0, 1)^D`. `D = 0` does not compile.
    pub fn unit() -> Self {
        const { assert!(D > 0, "a domain needs at least one dimension") };
        Domain { origin: [0.0; D], extent: [1.0; D], periodic: false }
    }

    /// [`Domain::from_origin_and_extent`] from slices, for callers that learn `D` at run time
    /// (command lines, files). Errors as that, plus a slice whose length is not `D`.
    pub fn from_origin_and_extent_slices(origin: &[f64], extent: &[f64]) -> Result<Self, Error> {
        let origin: Point<D> = origin.try_into().map_err(|_| Error::DimensionMismatch {
            what: "origin",
            expected: D,
            got: origin.len(),
        })?;
        let extent: [f64; D] = extent.try_into().map_err(|_| Error::DimensionMismatch {
            what: "box",
            expected: D,
            got: extent.len(),
        })?;
        Self::from_origin_and_extent(origin, extent)
    }

    /// The largest coordinate magnitude of the box's corners: the scale a radius is compared
    /// with ([`limits::MIN_RESOLUTION`]).
    pub fn coordinate_scale(&self) -> f64 {
        (0..D).fold(0.0, |scale: f64, i| {
            scale.max(self.origin[i].abs()).max((self.origin[i] + self.extent[i]).abs())
        })
    }

    /// The same box with periodic boundaries (a flat torus).
    #[must_use]
    pub fn periodic(mut self) -> Self {
        self.periodic = true;
        self
    }

    /// Whether the box is periodic.
    pub fn is_periodic(&self) -> bool {
        self.periodic
    }

    /// The lower corner.
    pub fn origin(&self) -> &Point<D> {
        &self.origin
    }

    /// The side lengths.
    pub fn extent(&self) -> &[f64; D] {
        &self.extent
    }

    /// The volume (product of the sides).
    pub fn volume(&self) -> f64 {
        self.extent.iter().product()
    }

    /// Whether `p` lies in `[origin, origin + extent)`.
    #[inline]
    pub fn contains(&self, p: &Point<D>) -> bool {
        // `&`, not `&&`: one branch for the whole test instead of one per face.
        (0..D).fold(true, |inside, i| {
            inside & (p[i] >= self.origin[i]) & (p[i] < self.origin[i] + self.extent[i])
        })
    }

    /// Distance squared between two points of the box: Euclidean, or on the torus when the
    /// box is periodic. Every metric and check in the project measures through this.
    #[inline]
    pub fn distance_squared(&self, a: &Point<D>, b: &Point<D>) -> f64 {
        if self.periodic {
            toroidal_distance_squared(a, b, &self.extent)
        } else {
            distance_squared(a, b)
        }
    }

    /// The point as the metric space sees it: on a torus its image inside the box, in a
    /// closed box the point itself (inside or not: whether it may be sampled is for a
    /// [`Region`](crate::region::Region) to say). `None` only for a non-finite coordinate
    /// on a torus, which has no image. Inside points come back unchanged.
    #[inline]
    pub fn wrap(&self, p: &Point<D>) -> Option<Point<D>> {
        if !self.periodic || self.contains(p) {
            return Some(*p);
        }
        self.wrap_outside(p)
    }

    /// The point inside the box that `p` stands for: itself when inside, its image on a
    /// torus, `None` outside a closed box. [`Domain::wrap`] and the whole-box
    /// [`Region`](crate::region::Region) test in one, with one branch for the common case.
    #[inline]
    pub(crate) fn wrap_into_box(&self, p: &Point<D>) -> Option<Point<D>> {
        if self.contains(p) {
            return Some(*p);
        }
        if !self.periodic {
            return None;
        }
        self.wrap_outside(p)
    }

    /// The image of a point outside a periodic box.
    #[inline]
    fn wrap_outside(&self, p: &Point<D>) -> Option<Point<D>> {
        let mut q = *p;
        for i in 0..D {
            let lo = self.origin[i];
            let hi = lo + self.extent[i];
            if !q[i].is_finite() {
                return None;
            }
            if q[i] < lo || q[i] >= hi {
                q[i] -= self.extent[i] * ((q[i] - lo) / self.extent[i]).floor();
                // Rounding can land exactly on (or a hair past) either face.
                if q[i] >= hi || q[i] < lo {
                    q[i] = lo;
                }
            }
        }
        Some(q)
    }

    /// A point drawn uniformly from the box. A draw that rounds onto the upper face is
    /// redrawn, so the result is always inside.
    pub fn uniform_point<R: Rng + ?Sized>(&self, rng: &mut R) -> Point<D> {
        let mut p = [0.0; D];
        for i in 0..D {
            let hi = self.origin[i] + self.extent[i];
            p[i] = loop {
                let x = self.origin[i] + self.extent[i] * uniform01(rng);
                if x < hi {
                    break x;
                }
            };
        }
        p
    }
}

/// Cells per axis for about `count` cells as near to cubes as the box allows, and the side
/// `s` of those cubes. Axes shorter than `s` get one cell; on the others the ideal counts
/// `L_i / s` multiply to `count` and each gets `⌊L_i / s⌋` (at least 1), so the total never
/// exceeds `count` (up to rounding in `s`). `count` must be at least 1.
pub(crate) fn cubic_cells<const D: usize>(extent: &[f64; D], count: usize) -> ([usize; D], f64) {
    let mut single = [false; D];
    loop {
        let free = single.iter().filter(|s| !**s).count();
        if free == 0 {
            return ([1; D], f64::INFINITY);
        }
        // In logarithms, so that no product of sides can overflow.
        let log_volume: f64 = (0..D).filter(|&i| !single[i]).map(|i| extent[i].ln()).sum();
        let side = ((log_volume - (count.max(1) as f64).ln()) / free as f64).exp();
        let mut changed = false;
        for i in 0..D {
            if !single[i] && extent[i] < side {
                single[i] = true;
                changed = true;
            }
        }
        if !changed {
            let cells = std::array::from_fn(|i| {
                // The nudge keeps an ideal count such as 9.999999999999998 at 10.
                let ideal = extent[i] / side * (1.0 + 1e-12);
                if single[i] { 1 } else { (ideal as usize).clamp(1, count.max(1)) }
            });
            return (cells, side);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cubic_cells_never_exceed_the_count() {
        assert_eq!(cubic_cells(&[1.0, 1.0], 100).0, [10, 10]);
        assert_eq!(cubic_cells(&[1e6, 1e-6], 100).0, [100, 1]);
        assert_eq!(cubic_cells(&[1.0, 1.0, 1.0], 1).0, [1, 1, 1]);
        assert_eq!(cubic_cells(&[1e300, 1e300], 4).0, [2, 2]);
        for n in [1usize, 2, 3, 7, 100, 12345] {
            let cells = cubic_cells(&[1.0, 2.5, 0.3], n).0;
            assert!(cells.iter().product::<usize>() <= n, "{n}: {cells:?}");
        }
    }
}
