//! Reference constructions and brute-force versions of the metrics, shared by the tests.
#![allow(dead_code)]

use poisson_nd::rng::{derive_seed, rng_from_seed, uniform01};
use poisson_nd::{Domain, Point, Sampler, WhiteNoise};

/// Nearest-neighbour distance of every point by checking every pair.
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

/// Unordered pairs strictly closer than `r`, by checking every pair.
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

/// `realisations` white-noise sets of `n` points, seeded from `seed`.
pub fn white_noise_sets<const D: usize>(
    domain: &Domain<D>,
    n: usize,
    realisations: usize,
    seed: u64,
) -> Vec<Vec<Point<D>>> {
    (0..realisations)
        .map(|k| WhiteNoise::new(*domain).sample_seeded(n, derive_seed(seed, k as u64)).points)
        .collect()
}

/// A hexagonal lattice of spacing 1 with `m` columns and `2m` rows on the matching torus
/// `[0, m) × [0, √3 m)` (even row count, so alternate-row offsets close up).
pub fn hexagonal_lattice(m: usize) -> (Vec<Point<2>>, Domain<2>) {
    let h = 3f64.sqrt() / 2.0;
    let mut points = Vec::new();
    for row in 0..2 * m {
        for col in 0..m {
            let shift = if row % 2 == 1 { 0.5 } else { 0.0 };
            points.push([col as f64 + shift, row as f64 * h]);
        }
    }
    let domain = Domain::from_origin_and_extent([0.0, 0.0], [m as f64, 2.0 * m as f64 * h])
        .unwrap()
        .periodic();
    (points, domain)
}

/// A face-centred cubic lattice of `m³` unit cells (4 points each) on the cubic torus
/// `[0, m)³`; nearest-neighbour distance `1/√2`.
pub fn fcc_lattice(m: usize) -> (Vec<Point<3>>, Domain<3>) {
    let basis = [[0.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.5, 0.0, 0.5], [0.0, 0.5, 0.5]];
    let mut points = Vec::new();
    for x in 0..m {
        for y in 0..m {
            for z in 0..m {
                for b in &basis {
                    points.push([x as f64 + b[0], y as f64 + b[1], z as f64 + b[2]]);
                }
            }
        }
    }
    (points, Domain::from_origin_and_extent([0.0; 3], [m as f64; 3]).unwrap().periodic())
}

/// An `m × m` grid of cell centres in the unit square.
pub fn square_grid(m: usize) -> Vec<Point<2>> {
    (0..m * m)
        .map(|i| [((i % m) as f64 + 0.5) / m as f64, ((i / m) as f64 + 0.5) / m as f64])
        .collect()
}

/// An `m × m` jittered grid in the unit square: one uniform point per cell.
pub fn jittered_grid(m: usize, seed: u64) -> Vec<Point<2>> {
    let mut rng = rng_from_seed(seed);
    (0..m * m)
        .map(|i| {
            let x = ((i % m) as f64 + uniform01(&mut rng)) / m as f64;
            let y = ((i / m) as f64 + uniform01(&mut rng)) / m as f64;
            [x.min(1.0 - 1e-16), y.min(1.0 - 1e-16)]
        })
        .collect()
}

/// Bounds `[lo, hi]` for the mean of `shape` independent Exp(1) variables (a Gamma(shape,
/// 1/shape) variable) with `P(outside) ≤ alpha`, from the Chernoff bounds
/// `P(mean ≥ 1 + t) ≤ exp(−shape (t − ln(1 + t)))` and
/// `P(mean ≤ 1 − t) ≤ exp(−shape (−t − ln(1 − t)))`, each side given `alpha / 2`.
pub fn gamma_mean_bounds(shape: f64, alpha: f64) -> (f64, f64) {
    let target = (2.0 / alpha).ln() / shape;
    let solve = |f: &dyn Fn(f64) -> f64, hi: f64| {
        // f is increasing on (0, hi); find f(t) = target by bisection.
        let (mut a, mut b) = (0.0, hi);
        for _ in 0..200 {
            let mid = 0.5 * (a + b);
            if f(mid) < target {
                a = mid;
            } else {
                b = mid;
            }
        }
        b
    };
    let upper = solve(&|t: f64| t - (1.0 + t).ln(), 1e6);
    let lower = solve(&|t: f64| -t - (1.0 - t).ln(), 1.0 - 1e-15);
    (1.0 - lower, 1.0 + upper)
}

/// Normalised sinc, `sin(πx) / (πx)`.
pub fn sinc(x: f64) -> f64 {
    if x == 0.0 {
        1.0
    } else {
        let y = std::f64::consts::PI * x;
        y.sin() / y
    }
}

/// The first pair closer than `radius`, if any (brute force), for readable failures.
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

/// A box that has broken samplers before: negative origin, sides that are no multiple of
/// any cell size, different along each axis.
pub fn awkward_box<const D: usize>() -> Domain<D> {
    let origin: Vec<f64> = (0..D).map(|i| -0.37 - 0.11 * i as f64).collect();
    let extent: Vec<f64> = (0..D).map(|i| 1.0 + 0.173 * i as f64).collect();
    experiments::domains::from_slices(&origin, &extent, false).expect("valid box")
}

/// A radius at which Bridson fills `domain` with roughly `points` points.
pub fn radius_for_about<const D: usize>(domain: &Domain<D>, points: f64) -> f64 {
    let unit_ball = experiments::metrics::unit_ball_volume(D);
    // Bridson packs disjoint balls of radius r/2 to roughly 0.75 · 0.66^(D−1) of the volume
    // (about 0.5 in 2D, 0.04 in 8D); precision does not matter here.
    let fraction = 0.75 * 0.66f64.powi(D as i32 - 1);
    2.0 * (fraction * domain.volume() / (points * unit_ball)).powf(1.0 / D as f64)
}
