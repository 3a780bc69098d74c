//! Independent uniform points: the baseline every other sampler is compared with.

use crate::defaults;
use crate::domain::Domain;
use crate::error::Error;
use crate::sampler::{PointSet, Sampler, StopReason};
use rand::Rng;

/// White noise: `n` independent points, each uniform in the domain (a binomial point process).
///
/// O(n) time, no minimum distance: pairs closer than any radius occur at the rate
/// `1 − exp(−ρ V_D r^D)` per point. It is the reference the metrics compare against.
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
}

impl<const D: usize> WhiteNoise<D> {
    /// White noise in `domain`.
    pub fn new(domain: Domain<D>) -> Self {
        WhiteNoise { domain, max_points: defaults::MAX_POINTS }
    }

    /// Caps the points one run may produce (default [`defaults::MAX_POINTS`]); a larger `n`
    /// stops at the cap with [`StopReason::PointLimit`]. Errors when `max_points` is 0.
    pub fn with_max_points(mut self, max_points: usize) -> Result<Self, Error> {
        if max_points == 0 {
            return Err(Error::ZeroCount("max_points"));
        }
        self.max_points = max_points;
        Ok(self)
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
        let count = n.min(self.max_points);
        let points: Vec<_> = (0..count).map(|_| self.domain.uniform_point(rng)).collect();
        let stop = if count == n { StopReason::TargetReached } else { StopReason::PointLimit };
        PointSet::new_unrejected(points, self.domain, stop)
    }
}
