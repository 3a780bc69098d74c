//! Brute-force oracles: every pair checked, so that the library's grids and trees are tested
//! against code too simple to be wrong.

use poisson_nd::{Domain, Point};

/// The exact minimum pairwise distance (toroidal in a periodic domain), by brute force;
/// infinity for fewer than two points.
pub fn min_pair_distance<const D: usize>(domain: &Domain<D>, points: &[Point<D>]) -> f64 {
    let mut min = f64::INFINITY;
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            min = min.min(domain.distance_squared(p, q));
        }
    }
    min.sqrt()
}

/// The first pair closer than `radius`, if any, with its distance (brute force), for readable
/// failures.
pub fn close_pair<const D: usize>(
    domain: &Domain<D>,
    points: &[Point<D>],
    radius: f64,
) -> Option<(Point<D>, Point<D>, f64)> {
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            let d2 = domain.distance_squared(p, q);
            if d2 < radius * radius {
                return Some((*p, *q, d2.sqrt()));
            }
        }
    }
    None
}

/// The nearest-neighbour distance of every point, by checking every pair.
pub fn brute_nn<const D: usize>(points: &[Point<D>], domain: &Domain<D>) -> Vec<f64> {
    (0..points.len())
        .map(|i| {
            (0..points.len())
                .filter(|&j| j != i)
                .map(|j| domain.distance_squared(&points[i], &points[j]))
                .fold(f64::INFINITY, f64::min)
                .sqrt()
        })
        .collect()
}

/// The number of unordered pairs strictly closer than `r`, by checking every pair.
pub fn brute_pairs<const D: usize>(points: &[Point<D>], domain: &Domain<D>, r: f64) -> u64 {
    let mut count = 0;
    for i in 0..points.len() {
        for j in i + 1..points.len() {
            if domain.distance_squared(&points[i], &points[j]) < r * r {
                count += 1;
            }
        }
    }
    count
}
