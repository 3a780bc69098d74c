//! Reference point sets with known answers (white noise, lattices, grids) and the bounds
//! and functions the metrics are checked against.

use poisson_nd::rng::{derive_seed, rng_from_seed, uniform01};
use poisson_nd::{Domain, Point, Sampler, WhiteNoise};

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
