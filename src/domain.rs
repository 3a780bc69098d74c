//! The region points are sampled in.

use crate::error::Error;
use crate::point::{Point, distance_squared, toroidal_distance_squared};
use crate::rng::uniform01;
use rand::Rng;

/// An axis-aligned box `[origin, origin + extent)` in `D` dimensions, optionally periodic
/// (a torus: opposite faces are identified and distances wrap around).
///
/// The box is half-open: a point on an upper face is outside it (in a periodic box it is the
/// same point as the one on the lower face).
///
/// ```
/// use poisson_nd::Domain;
/// let unit = Domain::<2>::unit()?;
/// let slab = Domain::new([-1.0, 0.0, 5.0], [2.0, 1.0, 0.1])?.periodic();
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
    /// A closed (non-periodic) box with lower corner `origin` and side lengths `extent`.
    ///
    /// Errors: `D = 0`, a non-finite origin, a side that is not finite and positive, or an
    /// upper corner that overflows.
    pub fn new(origin: Point<D>, extent: [f64; D]) -> Result<Self, Error> {
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
            if upper <= origin[axis] {
                // The side is below the spacing of floats at the origin: an empty box.
                return Err(Error::InvalidExtent { axis, value: extent[axis] });
            }
        }
        Ok(Domain { origin, extent, periodic: false })
    }

    /// The unit cube `[0, 1)^D`.
    pub fn unit() -> Result<Self, Error> {
        Self::new([0.0; D], [1.0; D])
    }

    /// A box from slices, for callers that learn `D` at run time (command lines, files).
    /// Errors as [`Domain::new`], plus a slice whose length is not `D`.
    pub fn from_slices(origin: &[f64], extent: &[f64]) -> Result<Self, Error> {
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
        Self::new(origin, extent)
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

    /// Maps a point to its image inside a periodic box, or returns `None` when the box is
    /// closed and the point is outside it. Inside points come back unchanged.
    #[inline]
    pub fn wrap(&self, p: &Point<D>) -> Option<Point<D>> {
        if self.contains(p) {
            return Some(*p);
        }
        if !self.periodic {
            return None;
        }
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
