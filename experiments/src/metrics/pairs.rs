//! Exact pair measurements: the closest pair and the number of pairs closer than `r`.

use crate::metrics::NeighbourIndex;
use poisson_nd::{Domain, Point};

/// The closest pair `(i, j, distance)` with `i < j` (toroidal distance in a periodic
/// domain), or `None` with fewer than two points. Exact: a k-d tree query per point.
pub fn closest_pair<const D: usize>(
    points: &[Point<D>],
    domain: &Domain<D>,
) -> Option<(usize, usize, f64)> {
    let index = NeighbourIndex::new(points, domain);
    let mut best: Option<(usize, usize, f64)> = None;
    for i in 0..points.len() {
        if let Some((j, d)) = index.nearest_other(i)
            && best.is_none_or(|(_, _, b)| d < b)
        {
            best = Some((i.min(j), i.max(j), d));
        }
    }
    best
}

/// The minimum pairwise distance, or `None` with fewer than two points.
///
/// ```
/// use experiments::metrics::min_pair_distance;
/// use poisson_nd::Domain;
/// let points = [[0.1, 0.1], [0.9, 0.1], [0.5, 0.6]];
/// let closed = Domain::<2>::unit();
/// assert!((min_pair_distance(&points, &closed).unwrap() - 0.41f64.sqrt()).abs() < 1e-12);
/// let torus = closed.periodic();
/// assert!((min_pair_distance(&points, &torus).unwrap() - 0.2).abs() < 1e-12);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
pub fn min_pair_distance<const D: usize>(points: &[Point<D>], domain: &Domain<D>) -> Option<f64> {
    closest_pair(points, domain).map(|(_, _, d)| d)
}

/// The number of unordered pairs `{i, j}` strictly closer than `r` (toroidal distance in a
/// periodic domain). Exact; O(N log N + pairs of distinct locations) with a k-d tree.
pub fn pairs_closer_than<const D: usize>(points: &[Point<D>], domain: &Domain<D>, r: f64) -> u64 {
    let index = NeighbourIndex::new(points, domain);
    pairs_closer_than_in(&index, r)
}

/// [`pairs_closer_than`] on an index that is already built.
pub fn pairs_closer_than_in<const D: usize>(index: &NeighbourIndex<D>, r: f64) -> u64 {
    let mut count = 0u64;
    index.for_each_pair_within(r, |_, _, _, pairs| count += pairs);
    count
}
