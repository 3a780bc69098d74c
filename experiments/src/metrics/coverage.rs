//! Coverage: the fraction of the domain within `r` of some point.

use crate::metrics::NeighbourIndex;
use poisson_nd::rng::rng_from_seed;
use poisson_nd::{Domain, Point};
use serde::Serialize;

/// A Monte-Carlo coverage estimate.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Coverage {
    /// The radius of the balls around the points.
    pub radius: f64,
    /// Fraction of the probes within `radius` of some point (distance `≤ radius`).
    pub fraction: f64,
    /// Binomial standard error `sqrt(f (1 − f) / probes)`.
    pub std_error: f64,
    /// Number of probes.
    pub probes: usize,
    /// Seed of the probes' generator.
    pub seed: u64,
}

/// The fraction of `domain` within distance `r` of some point (toroidal distance in a
/// periodic domain; in a closed box only the box counts), estimated with `probes` uniform
/// probes drawn by the project's portable generator seeded with `seed`. Each probe asks the
/// k-d tree for its nearest point. A maximal Poisson-disk set of radius `r` covers 1.
pub fn coverage<const D: usize>(
    points: &[Point<D>],
    domain: &Domain<D>,
    r: f64,
    probes: usize,
    seed: u64,
) -> Coverage {
    let index = NeighbourIndex::new(points, domain);
    let mut rng = rng_from_seed(seed);
    let mut hits = 0usize;
    for _ in 0..probes {
        let probe = domain.uniform_point(&mut rng);
        if index.nearest(&probe).is_some_and(|(_, d)| d <= r) {
            hits += 1;
        }
    }
    let fraction = if probes == 0 { f64::NAN } else { hits as f64 / probes as f64 };
    Coverage {
        radius: r,
        fraction,
        std_error: (fraction * (1.0 - fraction) / probes as f64).sqrt(),
        probes,
        seed,
    }
}
