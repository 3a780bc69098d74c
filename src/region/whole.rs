//! The whole box of a domain: the default region of every sampler.

use super::shape::ShellRegion;
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
    /// How far from its active point a candidate can lie, for
    /// [`holds_shell`](ShellRegion::holds_shell) (infinite: never known to be inside).
    shell: f64,
}

impl<const D: usize> WholeDomain<D> {
    /// The whole box of `domain`.
    pub fn new(domain: Domain<D>) -> Self {
        WholeDomain { domain, shell: f64::INFINITY }
    }

    /// The whole box, knowing that candidates lie within `reach` of their active point.
    pub(crate) fn with_shell(self, reach: f64) -> Self {
        WholeDomain { shell: reach, ..self }
    }
}

impl<const D: usize> ShellRegion<D> for WholeDomain<D> {
    /// Whether every candidate within the shell's reach of `centre` (in every coordinate, as
    /// the shell draw computes it: `centre + x` with `|x|` at most the reach) lies in the box.
    /// Rounding is monotone, so such a candidate's coordinate lies between `centre − reach`
    /// and `centre + reach` as computed here; these passing the box's own test (lower face
    /// included, upper excluded) means the candidate does.
    #[inline(always)]
    fn holds_shell(&self, centre: &Point<D>) -> bool {
        let (origin, extent) = (self.domain.origin(), self.domain.extent());
        (0..D).fold(true, |inside, i| {
            inside
                & (centre[i] - self.shell >= origin[i])
                & (centre[i] + self.shell < origin[i] + extent[i])
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::shell::{CandidateDistance, PairedShell, Shell, ShellDraw};
    use crate::rng::{rng_from_seed, uniform01};

    /// Whenever the box says a centre's shell is inside, every candidate the front's draws
    /// make around it (both spreads, radii up to the reach's) passes the box's own test: near
    /// the faces, in boxes of ordinary and extreme magnitudes, closed and periodic.
    fn shell_inside_holds<const D: usize>() {
        let boxes = [
            ([0.0; D], [1.0; D]),
            ([-3.0; D], [0.5; D]),
            ([9e99; D], [1e99; D]),
            ([-1e-90; D], [1e-100; D]),
            ([1e15; D], [3.0; D]),
        ];
        let mut rng = rng_from_seed(D as u64 + 40);
        let mut inside_steps = 0;
        for (origin, extent) in boxes {
            for periodic in [false, true] {
                let domain = Domain::from_origin_and_extent(origin, extent).unwrap();
                let domain = if periodic { domain.periodic() } else { domain };
                let rmax = 0.07 * extent[0];
                let whole = WholeDomain::new(domain).with_shell(2.0 * rmax * (1.0 + 1e-9));
                for _ in 0..400 {
                    // Centres crowd the faces, where the answer changes.
                    let centre: Point<D> = std::array::from_fn(|i| {
                        let t = 2.0 * rmax / extent[i] + (uniform01(&mut rng) - 0.5) * 1e-3;
                        let t = if uniform01(&mut rng) < 0.5 { t } else { 1.0 - t };
                        origin[i] + t * extent[i]
                    });
                    if !whole.holds_shell(&centre) {
                        continue;
                    }
                    inside_steps += 1;
                    let r = rmax * (0.5 + 0.5 * uniform01(&mut rng));
                    for distance in
                        [CandidateDistance::UniformInVolume, CandidateDistance::UniformInRadius]
                    {
                        for _ in 0..50 {
                            let paired = PairedShell { distance }.draw(&centre, r, &mut rng);
                            let fine =
                                Shell::<false, 1, true> { distance }.draw(&centre, rmax, &mut rng);
                            for c in [paired, fine] {
                                assert!(domain.contains(&c), "{D}D {origin:?} {c:?}");
                                assert_eq!(whole.admit(&domain, &c), Some(c));
                            }
                        }
                    }
                }
            }
        }
        assert!(inside_steps > 50, "{D}D: only {inside_steps} centres inside");
    }

    #[test]
    fn a_shell_said_inside_admits_every_candidate_as_drawn() {
        shell_inside_holds::<1>();
        shell_inside_holds::<2>();
        shell_inside_holds::<3>();
        shell_inside_holds::<5>();
    }

    #[test]
    fn without_a_shell_nothing_is_said_inside() {
        let whole = WholeDomain::new(Domain::<2>::unit());
        assert!(!whole.holds_shell(&[0.5, 0.5]));
        assert_eq!(whole, WholeDomain::new(Domain::<2>::unit()));
    }
}
