//! Independent uniform points: the baseline every other sampler is compared with.

use crate::config::{Builder, Capabilities};
use crate::defaults;
use crate::domain::Domain;
use crate::error::Error;
use crate::point::Point;
use crate::region::shape::SamplerRegion;
use crate::sampler::{PointSet, Sampler, StopReason};
use rand::Rng;

/// White noise: `n` independent points, each uniform in the domain (a binomial point process).
///
/// O(n) time, no minimum distance: pairs closer than any radius occur at the rate
/// `1 − exp(−ρ V_D r^D)` per point. It is the reference the metrics compare against.
///
/// In a region ([`with_region`](Builder::with_region)) each point is drawn uniformly in the part
/// of the box the region's bounding box covers until one lands in the region (rejection):
/// exactly `n` independent points uniform in the region. [`PointSet::attempts`] counts the
/// draws.
///
/// ```
/// use poisson_nd::{Domain, Sampler, WhiteNoise};
/// let noise = WhiteNoise::new(Domain::<3>::unit());
/// let set = noise.sample_seeded(1000, 42);
/// assert_eq!(set.len(), 1000);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct WhiteNoise<const D: usize> {
    domain: Domain<D>,
    max_points: usize,
    region: SamplerRegion<D>,
}

/// White noise's own options: none beyond the shared settings of its [`Builder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WhiteNoiseOptions;

/// The configuration of [`WhiteNoise`] before it is checked: a region (points are drawn in
/// it by rejection) and the point limit.
pub type WhiteNoiseBuilder<const D: usize> = Builder<D, WhiteNoiseOptions>;

impl<const D: usize> Builder<D, WhiteNoiseOptions> {
    /// Checks the configuration. Errors: a point limit of 0 or above 2147483647; with a
    /// region, a periodic domain, a region that misses the domain's box, or one with no point
    /// found in it.
    ///
    /// ```
    /// use poisson_nd::region::{Ball, Region};
    /// use poisson_nd::{Domain, Sampler, WhiteNoise};
    /// let disc = Ball::new([0.5, 0.5], 0.3)?;
    /// let noise = WhiteNoise::builder(Domain::<2>::unit()).with_region(disc).build()?;
    /// let set = noise.sample_seeded(500, 1);
    /// assert_eq!(set.len(), 500);
    /// assert!(set.points.iter().all(|p| disc.contains(p)));
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn build(self) -> Result<WhiteNoise<D>, Error> {
        let checked = self.config.check("white-noise", &WhiteNoise::<D>::CAPABILITIES)?;
        Ok(WhiteNoise {
            domain: checked.domain,
            max_points: checked.max_points,
            region: checked.region,
        })
    }
}

impl<const D: usize> WhiteNoise<D> {
    /// What white noise supports: regions, any box and dimension.
    pub const CAPABILITIES: Capabilities = Capabilities::COUNT_DRIVEN;

    /// White noise in `domain` with every default.
    pub fn new(domain: Domain<D>) -> Self {
        WhiteNoise { domain, max_points: defaults::MAX_POINTS, region: SamplerRegion::Whole }
    }

    /// The configuration of white noise in `domain`; set what you need, then
    /// [`build`](Builder::build).
    pub fn builder(domain: Domain<D>) -> WhiteNoiseBuilder<D> {
        Builder::from_defaults(domain, None, WhiteNoiseOptions)
    }

    /// This sampler's configuration, to change and build again.
    pub fn to_builder(&self) -> WhiteNoiseBuilder<D> {
        let mut builder = Self::builder(self.domain).with_max_points(self.max_points);
        builder.config.region = self.region.user_region();
        builder
    }
}

impl<const D: usize> Sampler<D> for WhiteNoise<D> {
    fn name(&self) -> &'static str {
        "white-noise"
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D> {
        let SamplerRegion::Shape(shape) = &self.region else {
            let (points, stop) = uniform_start(&self.domain, n, self.max_points, rng);
            return PointSet::new_unrejected(points, self.domain, stop);
        };
        let count = n.min(self.max_points);
        let stop = if count == n { StopReason::TargetReached } else { StopReason::PointLimit };
        let mut points = Vec::with_capacity(count.min(1 << 20));
        let mut attempts = 0u64;
        let budget = shape.draw_budget();
        while points.len() < count {
            let (point, draws) = shape.draw_inside(rng, budget);
            attempts += draws;
            match point {
                Some(p) => points.push(p),
                // A region far too thin for its box: give up rather than loop for ever.
                None => return PointSet::new(points, self.domain, StopReason::Exhausted, attempts),
            }
        }
        PointSet::new(points, self.domain, stop, attempts)
    }
}

/// `n` uniform points of the box (at most `max_points`), and whether the count was reached:
/// white noise in a box, and the start of the optimisers (FPO, Lloyd, Gaussian blue noise).
pub(crate) fn uniform_start<const D: usize, R: Rng + ?Sized>(
    domain: &Domain<D>,
    n: usize,
    max_points: usize,
    rng: &mut R,
) -> (Vec<Point<D>>, StopReason) {
    let count = n.min(max_points);
    let stop = if count == n { StopReason::TargetReached } else { StopReason::PointLimit };
    ((0..count).map(|_| domain.uniform_point(rng)).collect(), stop)
}
