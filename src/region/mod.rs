//! Where points may be placed, as opposed to how distances are measured.
//!
//! A [`Domain`] is the metric space: a box, closed or periodic, that measures distances and
//! maps points into itself. A [`Region`] is the set of admissible points inside it. Samplers
//! draw candidates in the part of the box the region can occupy and keep those the region
//! admits; the grid and the distance tests never look at the region.
//!
//! The kinds, one file each:
//! - [`WholeDomain`]: the whole box, every sampler's default (compiled to the box test alone);
//! - [`BoxRegion`] and [`Ball`] in any dimension;
//! - [`Sdf`]: inside where a signed-distance closure is negative, any dimension;
//! - `Polygons` (with the `geo` feature): 2D polygons with holes and multi-polygons;
//! - [`Mask`]: a 2D image mask (grey rows, pixel ≥ 0.5 inside);
//! - [`Voxels`]: a voxel mask in any dimension (value > 0.5 inside);
//! - [`Mesh`]: the inside of a closed 3D triangle mesh;
//! - [`Union`], [`Intersection`], [`Difference`] of any two regions.
//!
//! Besides [`Region::contains`] and a bounding box, a region classifies axis-aligned boxes
//! ([`Region::classify_box`]): wholly inside, wholly outside, or straddling its boundary. A
//! sampler classifies the cells of a grid over the region once, so that its per-candidate test
//! is a table look-up except near the boundary (docs/algorithms.md, "Regions").
//!
//! A region smaller than a *periodic* box is refused by the samplers' constructors
//! ([`Error::PeriodicRegion`](crate::Error::PeriodicRegion)): wrapping a candidate across the
//! seam could carry it from outside the region into it, and distances across the seam would
//! join parts of the shape that are not neighbours.
//!
//! ```
//! use poisson_nd::region::{Ball, BoxRegion, Difference};
//! use poisson_nd::{Bridson, Domain, FillSampler, Region};
//! // A square with a round hole, sampled at r = 0.05.
//! let square = BoxRegion::new([0.1, 0.1], [0.9, 0.9])?;
//! let hole = Ball::new([0.5, 0.5], 0.25)?;
//! let shape = Difference::new(square, hole);
//! let sampler = Bridson::builder(Domain::<2>::unit(), 0.05).with_region(shape).build()?;
//! let set = sampler.fill_seeded(7);
//! let check = Difference::new(BoxRegion::new([0.1, 0.1], [0.9, 0.9])?, Ball::new([0.5, 0.5], 0.25)?);
//! assert!(set.points.iter().all(|p| check.contains(p)));
//! # Ok::<(), poisson_nd::Error>(())
//! ```

mod aabb;
mod ball;
mod boolean;
pub(crate) mod bvh;
mod cells;
mod mask;
mod mesh;
#[cfg(feature = "geo")]
mod polygon;
mod sdf;
pub(crate) mod shape;
mod voxels;
mod whole;

pub use aabb::BoxRegion;
pub use ball::Ball;
pub use boolean::{Difference, Intersection, Union};
pub use mask::Mask;
pub use mesh::Mesh;
#[cfg(feature = "geo")]
pub use polygon::Polygons;
pub use sdf::Sdf;
pub use voxels::Voxels;
pub use whole::WholeDomain;

use crate::domain::Domain;
use crate::point::Point;
use std::sync::Arc;

/// How an axis-aligned box lies relative to a region.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoxClass {
    /// Every point of the closed box is in the region.
    Inside,
    /// No point of the closed box is in the region.
    Outside,
    /// The box may hold points of both kinds (always a safe answer).
    Straddling,
}

/// A set of admissible points inside a [`Domain`].
///
/// Implementations must keep [`classify_box`](Region::classify_box) consistent with
/// [`contains`](Region::contains): a box classified `Inside` holds only points for which
/// `contains` is true, one classified `Outside` only points for which it is false (the
/// default, `Straddling`, is always safe). Samplers rely on it to skip the exact test away
/// from the boundary; the tests check it against brute force for every kind.
pub trait Region<const D: usize>: Send + Sync {
    /// Whether `p` is admissible.
    fn contains(&self, p: &Point<D>) -> bool;

    /// A box `(lower, upper)` whose closure holds every admissible point: samplers draw
    /// candidates from it (intersected with the domain's box) rather than from the whole
    /// domain. `lower > upper` on some axis means the region is empty.
    fn bounding_box(&self) -> (Point<D>, Point<D>);

    /// [`Region::contains`] for a point known to lie in the box of the domain (a dart drawn
    /// uniformly from it): the whole box answers `true` without a test.
    #[inline]
    fn contains_box_point(&self, p: &Point<D>) -> bool {
        self.contains(p)
    }

    /// The candidate `p` as a sampler keeps it: mapped into `domain` (wrapped on a torus),
    /// if the result is admissible; `None` otherwise. `domain` is the domain the region lies
    /// in. Regions override this only to merge the two tests (as the whole box does).
    #[inline]
    fn admit(&self, domain: &Domain<D>, p: &Point<D>) -> Option<Point<D>> {
        domain.wrap(p).filter(|q| self.contains(q))
    }

    /// A signed distance to the region's boundary at `p` (negative inside), or a bound on it
    /// that is 1-Lipschitz, if the region knows one; `None` otherwise (the default).
    fn signed_distance(&self, p: &Point<D>) -> Option<f64> {
        let _ = p;
        None
    }

    /// How the closed box `[lower, upper]` lies relative to the region. The default,
    /// [`BoxClass::Straddling`], is always correct; kinds that can tell more cheaply say
    /// `Inside` or `Outside`, which must then hold for every point of the box.
    fn classify_box(&self, lower: &Point<D>, upper: &Point<D>) -> BoxClass {
        let _ = (lower, upper);
        BoxClass::Straddling
    }

    /// Whether [`classify_box`](Region::classify_box) resolves the boundary: every box at a
    /// positive distance from the region's boundary is classified inside or outside once it
    /// is small enough against that distance (so `Straddling` is said only near the
    /// boundary). True for every kind of this module (for [`Sdf`] only with a distance
    /// bound); false by default. Maximal sampling needs it to know when a region is saturated.
    fn resolves_boundary(&self) -> bool {
        false
    }
}

/// A region behind an `Arc` or a `Box` is the region itself, every method forwarded.
macro_rules! forward_region {
    ($($pointer:ident),*) => {$(
        impl<const D: usize, R: Region<D> + ?Sized> Region<D> for $pointer<R> {
            #[inline]
            fn contains(&self, p: &Point<D>) -> bool {
                (**self).contains(p)
            }
            fn bounding_box(&self) -> (Point<D>, Point<D>) {
                (**self).bounding_box()
            }
            #[inline]
            fn contains_box_point(&self, p: &Point<D>) -> bool {
                (**self).contains_box_point(p)
            }
            #[inline]
            fn admit(&self, domain: &Domain<D>, p: &Point<D>) -> Option<Point<D>> {
                (**self).admit(domain, p)
            }
            fn signed_distance(&self, p: &Point<D>) -> Option<f64> {
                (**self).signed_distance(p)
            }
            fn classify_box(&self, lower: &Point<D>, upper: &Point<D>) -> BoxClass {
                (**self).classify_box(lower, upper)
            }
            fn resolves_boundary(&self) -> bool {
                (**self).resolves_boundary()
            }
        }
    )*};
}

forward_region!(Arc, Box);

/// Checks that every coordinate of `points` is finite; the error names the first that is
/// not by its flat index (point · D + axis).
pub(crate) fn check_finite<const N: usize>(
    what: &'static str,
    points: &[[f64; N]],
) -> Result<(), crate::Error> {
    for (i, p) in points.iter().enumerate() {
        for (axis, &value) in p.iter().enumerate() {
            if !value.is_finite() {
                return Err(crate::Error::NonFinite { what, index: i * N + axis, value });
            }
        }
    }
    Ok(())
}

/// Checks a box given by its corners: finite, and `lower < upper` on every axis.
pub(crate) fn check_corners<const D: usize>(
    lower: &Point<D>,
    upper: &Point<D>,
) -> Result<(), crate::Error> {
    check_finite("box corner coordinate", &[*lower, *upper])?;
    for axis in 0..D {
        if lower[axis] >= upper[axis] {
            return Err(crate::Error::InvalidCorners {
                axis,
                lower: lower[axis],
                upper: upper[axis],
            });
        }
    }
    Ok(())
}
