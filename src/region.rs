//! Where points may be placed, as opposed to how distances are measured.
//!
//! A [`Domain`] is the metric space: a box, closed or periodic, that measures distances and
//! maps points into itself. A [`Region`] is the set of admissible points inside it. Samplers
//! draw candidates in the domain and keep those the region admits; the grid and the distance
//! tests never look at the region. Today the only region is the whole box
//! ([`WholeDomain`]); shapes (balls, polygons, masks, meshes, signed distances) implement the
//! same trait.
//!
//! A region smaller than a *periodic* box is not supported: wrapping a candidate across the
//! seam could carry it from outside the region into it, and distances across the seam
//! would join parts of the shape that are not neighbours. When samplers take a region, that
//! combination will be rejected by their constructors with an error.

use crate::domain::Domain;
use crate::point::Point;

/// A set of admissible points inside a [`Domain`].
pub trait Region<const D: usize>: Send + Sync {
    /// Whether `p` is admissible.
    fn contains(&self, p: &Point<D>) -> bool;

    /// A box `(lower, upper)` that holds every admissible point (half-open, like a domain):
    /// samplers may draw candidates from it rather than from the whole domain.
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
}

/// The whole box of a domain: every point of it is admissible. The default region of every
/// sampler; it compiles to the box test alone.
///
/// ```
/// use poisson_nd::{Domain, region::{Region, WholeDomain}};
/// let torus = Domain::<2>::unit().periodic();
/// let whole = WholeDomain::new(torus);
/// assert!(whole.contains(&[0.5, 0.0]));
/// // Admission wraps on a torus: a candidate past the upper face comes back at the bottom.
/// assert_eq!(whole.admit(&torus, &[0.5, 1.25]), Some([0.5, 0.25]));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WholeDomain<const D: usize> {
    domain: Domain<D>,
}

impl<const D: usize> WholeDomain<D> {
    /// The whole box of `domain`.
    pub fn new(domain: Domain<D>) -> Self {
        WholeDomain { domain }
    }
}

impl<const D: usize> Region<D> for WholeDomain<D> {
    #[inline]
    fn contains(&self, p: &Point<D>) -> bool {
        self.domain.contains(p)
    }

    #[inline]
    fn contains_box_point(&self, _: &Point<D>) -> bool {
        true
    }

    fn bounding_box(&self) -> (Point<D>, Point<D>) {
        let (origin, extent) = (self.domain.origin(), self.domain.extent());
        (*origin, std::array::from_fn(|i| origin[i] + extent[i]))
    }

    /// Wrapping and the box test in one: inside points pass with a single test, outside
    /// ones are wrapped on a torus and rejected in a closed box. `domain` is this region's
    /// own domain.
    #[inline]
    fn admit(&self, domain: &Domain<D>, p: &Point<D>) -> Option<Point<D>> {
        domain.wrap_into_box(p)
    }
}
