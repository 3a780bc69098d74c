//! The whole box of a domain: the default region of every sampler.

use super::{BoxClass, Region};
use crate::domain::Domain;
use crate::point::Point;

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

    fn classify_box(&self, lower: &Point<D>, upper: &Point<D>) -> BoxClass {
        let origin = self.domain.origin();
        let extent = self.domain.extent();
        let mut inside = true;
        for i in 0..D {
            let hi = origin[i] + extent[i];
            if upper[i] < origin[i] || lower[i] >= hi {
                return BoxClass::Outside;
            }
            inside &= lower[i] >= origin[i] && upper[i] < hi;
        }
        if inside { BoxClass::Inside } else { BoxClass::Straddling }
    }

    fn resolves_boundary(&self) -> bool {
        true
    }
}
