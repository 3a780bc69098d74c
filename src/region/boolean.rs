//! Union, intersection and difference of two regions.
//!
//! Each combines the two answers of [`Region::contains`], the two bounding boxes, the two box
//! classes (exactly: e.g. a box inside either part is inside the union) and, when both parts
//! know one, the two signed distances (min, max, and max(a, −b): 1-Lipschitz bounds, exact
//! away from where the parts' boundaries meet).

use super::{BoxClass, Region};
use crate::point::Point;

/// The points in `a` or in `b`.
///
/// ```
/// use poisson_nd::region::{Ball, Region, Union};
/// let dumbbell = Union::new(Ball::new([0.25, 0.5], 0.2)?, Ball::new([0.75, 0.5], 0.2)?);
/// assert!(dumbbell.contains(&[0.2, 0.5]) && dumbbell.contains(&[0.8, 0.5]));
/// assert!(!dumbbell.contains(&[0.5, 0.5]));
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Union<A, B> {
    a: A,
    b: B,
}

/// The points in both `a` and `b`.
///
/// ```
/// use poisson_nd::region::{Ball, BoxRegion, Intersection, Region};
/// let half_disc = Intersection::new(Ball::new([0.5, 0.5], 0.4)?, BoxRegion::new([0.0, 0.5], [1.0, 1.0])?);
/// assert!(half_disc.contains(&[0.5, 0.7]) && !half_disc.contains(&[0.5, 0.3]));
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Intersection<A, B> {
    a: A,
    b: B,
}

/// The points in `a` but not in `b`.
///
/// ```
/// use poisson_nd::region::{Ball, Difference, Region};
/// let ring = Difference::new(Ball::new([0.5, 0.5], 0.4)?, Ball::new([0.5, 0.5], 0.3)?);
/// assert!(ring.contains(&[0.85, 0.5]) && !ring.contains(&[0.5, 0.5]));
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Difference<A, B> {
    a: A,
    b: B,
}

impl<A, B> Union<A, B> {
    /// The union of `a` and `b`.
    pub fn new(a: A, b: B) -> Self {
        Union { a, b }
    }
}

impl<A, B> Intersection<A, B> {
    /// The intersection of `a` and `b` (it may be empty: samplers then refuse it).
    pub fn new(a: A, b: B) -> Self {
        Intersection { a, b }
    }
}

impl<A, B> Difference<A, B> {
    /// The points of `a` that are not in `b`.
    pub fn new(a: A, b: B) -> Self {
        Difference { a, b }
    }
}

fn both(a: Option<f64>, b: impl FnOnce() -> Option<f64>) -> Option<(f64, f64)> {
    let a = a?;
    Some((a, b()?))
}

impl<const D: usize, A: Region<D>, B: Region<D>> Region<D> for Union<A, B> {
    #[inline]
    fn contains(&self, p: &Point<D>) -> bool {
        self.a.contains(p) || self.b.contains(p)
    }

    fn bounding_box(&self) -> (Point<D>, Point<D>) {
        let (a_lo, a_hi) = self.a.bounding_box();
        let (b_lo, b_hi) = self.b.bounding_box();
        let a_empty = (0..D).any(|i| a_lo[i] > a_hi[i] || a_lo[i].is_nan() || a_hi[i].is_nan());
        let b_empty = (0..D).any(|i| b_lo[i] > b_hi[i] || b_lo[i].is_nan() || b_hi[i].is_nan());
        match (a_empty, b_empty) {
            (true, _) => (b_lo, b_hi),
            (_, true) => (a_lo, a_hi),
            _ => (
                std::array::from_fn(|i| a_lo[i].min(b_lo[i])),
                std::array::from_fn(|i| a_hi[i].max(b_hi[i])),
            ),
        }
    }

    fn signed_distance(&self, p: &Point<D>) -> Option<f64> {
        both(self.a.signed_distance(p), || self.b.signed_distance(p)).map(|(a, b)| a.min(b))
    }

    fn classify_box(&self, lower: &Point<D>, upper: &Point<D>) -> BoxClass {
        match self.a.classify_box(lower, upper) {
            BoxClass::Inside => BoxClass::Inside,
            a => match (a, self.b.classify_box(lower, upper)) {
                (_, BoxClass::Inside) => BoxClass::Inside,
                (BoxClass::Outside, BoxClass::Outside) => BoxClass::Outside,
                _ => BoxClass::Straddling,
            },
        }
    }

    fn resolves_boundary(&self) -> bool {
        self.a.resolves_boundary() && self.b.resolves_boundary()
    }
}

impl<const D: usize, A: Region<D>, B: Region<D>> Region<D> for Intersection<A, B> {
    #[inline]
    fn contains(&self, p: &Point<D>) -> bool {
        self.a.contains(p) && self.b.contains(p)
    }

    fn bounding_box(&self) -> (Point<D>, Point<D>) {
        let (a_lo, a_hi) = self.a.bounding_box();
        let (b_lo, b_hi) = self.b.bounding_box();
        (
            std::array::from_fn(|i| a_lo[i].max(b_lo[i])),
            std::array::from_fn(|i| a_hi[i].min(b_hi[i])),
        )
    }

    fn signed_distance(&self, p: &Point<D>) -> Option<f64> {
        both(self.a.signed_distance(p), || self.b.signed_distance(p)).map(|(a, b)| a.max(b))
    }

    fn classify_box(&self, lower: &Point<D>, upper: &Point<D>) -> BoxClass {
        match self.a.classify_box(lower, upper) {
            BoxClass::Outside => BoxClass::Outside,
            a => match (a, self.b.classify_box(lower, upper)) {
                (_, BoxClass::Outside) => BoxClass::Outside,
                (BoxClass::Inside, BoxClass::Inside) => BoxClass::Inside,
                _ => BoxClass::Straddling,
            },
        }
    }

    fn resolves_boundary(&self) -> bool {
        self.a.resolves_boundary() && self.b.resolves_boundary()
    }
}

impl<const D: usize, A: Region<D>, B: Region<D>> Region<D> for Difference<A, B> {
    #[inline]
    fn contains(&self, p: &Point<D>) -> bool {
        self.a.contains(p) && !self.b.contains(p)
    }

    fn bounding_box(&self) -> (Point<D>, Point<D>) {
        self.a.bounding_box()
    }

    fn signed_distance(&self, p: &Point<D>) -> Option<f64> {
        both(self.a.signed_distance(p), || self.b.signed_distance(p)).map(|(a, b)| a.max(-b))
    }

    fn classify_box(&self, lower: &Point<D>, upper: &Point<D>) -> BoxClass {
        match self.a.classify_box(lower, upper) {
            BoxClass::Outside => BoxClass::Outside,
            a => match (a, self.b.classify_box(lower, upper)) {
                (_, BoxClass::Inside) => BoxClass::Outside,
                (BoxClass::Inside, BoxClass::Outside) => BoxClass::Inside,
                _ => BoxClass::Straddling,
            },
        }
    }

    fn resolves_boundary(&self) -> bool {
        self.a.resolves_boundary() && self.b.resolves_boundary()
    }
}
