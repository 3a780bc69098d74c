//! Halton: known values, skipping, the half-open box, stratification (plain and scrambled),
//! and L2-star discrepancy far below white noise.

use poisson_nd::{Domain, Error, Halton, Point, Sampler, StopReason, WhiteNoise};

fn unit<const D: usize>() -> Domain<D> {
    Domain::unit()
}

#[test]
fn first_points_in_bases_2_and_3() {
    let set = Halton::new(unit::<2>()).expect("valid").sample_seeded(8, 0);
    let expected = [
        [1.0 / 2.0, 1.0 / 3.0],
        [1.0 / 4.0, 2.0 / 3.0],
        [3.0 / 4.0, 1.0 / 9.0],
        [1.0 / 8.0, 4.0 / 9.0],
        [5.0 / 8.0, 7.0 / 9.0],
        [3.0 / 8.0, 2.0 / 9.0],
        [7.0 / 8.0, 5.0 / 9.0],
        [1.0 / 16.0, 8.0 / 9.0],
    ];
    // Correctly rounded: the same bits as the fractions.
    assert_eq!(set.points, expected);
    assert_eq!((set.stop, set.attempts), (StopReason::TargetReached, 8));
}

#[test]
fn the_first_point_is_one_over_each_prime_up_to_d_64() {
    fn check<const D: usize>() {
        let first = Halton::new(unit::<D>()).expect("valid").sample_seeded(1, 0).points[0];
        let mut primes = Vec::new();
        let mut candidate = 2u32;
        while primes.len() < D {
            if primes.iter().all(|p| !candidate.is_multiple_of(*p)) {
                primes.push(candidate);
            }
            candidate += 1;
        }
        let expected: Vec<f64> = primes.iter().map(|&p| 1.0 / p as f64).collect();
        assert_eq!(first.to_vec(), expected, "D = {D}");
    }
    check::<1>();
    check::<32>();
    check::<64>();
}

#[test]
fn too_many_dimensions_are_rejected() {
    let err = Halton::new(unit::<65>()).expect_err("65 > 64 bases");
    assert!(matches!(err, Error::InvalidParameter { .. }), "{err}");
    let halton = Halton::new(unit::<2>()).expect("valid");
    let zero = halton.to_builder().with_max_points(0).build();
    assert_eq!(zero.err(), Some(Error::ZeroCount("max_points")));
}

#[test]
fn skip_starts_later_in_the_sequence() {
    let plain = Halton::new(unit::<3>()).expect("valid");
    let long = plain.sample_seeded(120, 0).points;
    let skipped = skip(&plain, 100).sample_seeded(20, 0).points;
    assert_eq!(skipped[..], long[100..]);
    // Near the end of the index range the run stops at the last index.
    let last = skip(&plain, u64::MAX - 3).sample_seeded(10, 0);
    assert_eq!((last.len(), last.stop), (3, StopReason::PointLimit));
    assert!(last.points.iter().all(|p| unit::<3>().contains(p)));
}

#[test]
fn scaled_points_stay_strictly_inside_the_half_open_box() {
    // Two floats wide: most coordinates round onto the upper face and must be moved below it.
    let width = 2.0 * f64::EPSILON;
    let domain = Domain::from_origin_and_extent([1.0, -5.0], [width, 10.0]).expect("valid");
    for halton in
        [Halton::new(domain).expect("valid"), scrambled(&Halton::new(domain).expect("valid"))]
    {
        let set = halton.sample_seeded(500, 4);
        assert!(set.points.iter().all(|p| domain.contains(p)), "{}", halton.label());
    }
    // A negative origin, an offset box, and the sequence scaled in it.
    let domain = Domain::from_origin_and_extent([-3.0, 2.0], [2.0, 0.5]).expect("valid");
    let first = Halton::new(domain).expect("valid").sample_seeded(1, 0).points[0];
    assert_eq!(first, [-3.0 + 2.0 * 0.5, 2.0 + 0.5 / 3.0]);
}

/// Index of the box of a `cells[0] × cells[1] × ...` grid on the unit cube holding `p`.
fn elementary_box<const D: usize>(p: &Point<D>, cells: &[usize; D]) -> usize {
    (0..D).fold(0, |key, i| key * cells[i] + (p[i] * cells[i] as f64) as usize)
}

/// Any Π b_i^(k_i) consecutive points put exactly one point in each box of side b_i^(−k_i)
/// (a property of the digits, which the random digit permutations keep).
fn check_stratified<const D: usize>(halton: &Halton<D>, cells: [usize; D], skip: u64, seed: u64) {
    let count: usize = cells.iter().product();
    let set = self::skip(halton, skip).sample_seeded(count, seed);
    let mut hits = vec![0; count];
    for p in &set.points {
        hits[elementary_box(p, &cells)] += 1;
    }
    assert!(hits.iter().all(|&h| h == 1), "{} {cells:?} skip {skip}: {hits:?}", halton.label());
}

#[test]
fn plain_and_scrambled_sequences_are_stratified() {
    let plain = Halton::new(unit::<2>()).expect("valid");
    for halton in [plain.clone(), scrambled(&plain)] {
        for (skip, seed) in [(0, 1), (215, 2), (1000, 3)] {
            check_stratified(&halton, [8, 27], skip, seed);
        }
    }
    let plain = Halton::new(unit::<3>()).expect("valid");
    for halton in [plain.clone(), scrambled(&plain)] {
        for (skip, seed) in [(0, 1), (77, 2)] {
            check_stratified(&halton, [4, 9, 5], skip, seed);
        }
    }
}

/// Squared L2-star discrepancy of points in the unit cube, by Warnock's formula (O(N²)):
/// T² = 3^−D − (2^(1−D)/N) Σ_i Π_k (1 − x_ik²) + (1/N²) Σ_i Σ_j Π_k (1 − max(x_ik, x_jk)).
fn l2_star_squared<const D: usize>(points: &[Point<D>]) -> f64 {
    let n = points.len() as f64;
    let single: f64 = points.iter().map(|p| p.iter().map(|x| 1.0 - x * x).product::<f64>()).sum();
    let mut pairs = 0.0;
    for p in points {
        for q in points {
            pairs += (0..D).map(|k| 1.0 - p[k].max(q[k])).product::<f64>();
        }
    }
    3f64.powi(-(D as i32)) - 2f64.powi(1 - D as i32) / n * single + pairs / (n * n)
}

/// E[T²] for N independent uniform points: (2^−D − 3^−D)/N (REFERENCE.md).
fn white_noise_expectation(dim: usize, n: usize) -> f64 {
    (2f64.powi(-(dim as i32)) - 3f64.powi(-(dim as i32))) / n as f64
}

#[test]
fn warnock_formula_matches_known_cases() {
    // One point at x in 1D: T² = ∫ (1[t > x] − t)² dt = x³/3 + (1 − x)³/3.
    for x in [0.0, 0.25, 0.5, 0.9] {
        let expected = (x * x * x + (1.0 - x) * (1.0 - x) * (1.0 - x)) / 3.0;
        assert!((l2_star_squared(&[[x]]) - expected).abs() < 1e-15, "{x}");
    }
    // White noise averages to its expectation. 40 sets of 128 points in 2D: the mean of T²
    // has a relative standard error of about 0.16 (T² of one set has a coefficient of
    // variation near 1); the band ±50 % is three standard errors: a false-alarm rate below
    // 0.3 % for a new seed, and none for the fixed ones used here.
    let noise = WhiteNoise::new(unit::<2>());
    let mean: f64 =
        (0..40).map(|seed| l2_star_squared(&noise.sample_seeded(128, seed).points)).sum::<f64>()
            / 40.0;
    let expected = white_noise_expectation(2, 128);
    assert!((mean / expected - 1.0).abs() < 0.5, "mean {mean}, expected {expected}");
}

/// Halton's T² at N = 256 must be below `E[T²] / factor` of white noise, plain and for five
/// scrambling seeds.
fn check_discrepancy<const D: usize>(factor: f64) {
    let n = 256;
    let noise = white_noise_expectation(D, n);
    let plain = Halton::new(unit::<D>()).expect("valid");
    let t2 = l2_star_squared(&plain.sample_seeded(n, 0).points);
    assert!(t2 < noise / factor, "D={D} plain Halton T² = {t2}, white noise E[T²] = {noise}");
    for seed in 1..=5 {
        let t2 = l2_star_squared(&scrambled(&plain).sample_seeded(n, seed).points);
        assert!(t2 < noise / factor, "D={D} seed {seed}: T² = {t2}, white noise {noise}");
    }
}

#[test]
fn discrepancy_is_far_below_white_noise() {
    // Measured at N = 256: Halton's T² is about E[T²]/30 in 2D and E[T²]/6 to /8 in 4D,
    // plain or scrambled. White noise came no lower than 0.21·E[T²] (2D) and 0.35·E[T²] (4D)
    // in 200 seeded sets, so the bounds below (E/10 and E/4) separate the two by a wide
    // margin. Deterministic inputs (fixed seeds): no false alarms.
    check_discrepancy::<2>(10.0);
    check_discrepancy::<4>(4.0);
}

#[test]
fn scrambling_depends_on_the_seed_and_is_uniform() {
    let halton = scrambled(&Halton::new(unit::<3>()).expect("valid"));
    assert!(halton.is_randomized());
    assert_eq!((halton.name(), halton.label().as_str()), ("halton", "halton-randomized"));
    let a = halton.sample_seeded(50, 1);
    assert_eq!(a.points, halton.sample_seeded(50, 1).points);
    assert_ne!(a.points, halton.sample_seeded(50, 2).points);
    // The first point is uniform in the cube for a random seed: over 400 seeds each
    // coordinate's mean has standard deviation 0.289/√400 ≈ 0.0144; ±0.072 is five of them
    // (false-alarm rate below 1e-6 per coordinate for new seeds; fixed seeds here).
    let firsts: Vec<Point<3>> =
        (0..400).map(|seed| halton.sample_seeded(1, seed).points[0]).collect();
    for axis in 0..3 {
        let mean = firsts.iter().map(|p| p[axis]).sum::<f64>() / 400.0;
        assert!((mean - 0.5).abs() < 0.072, "axis {axis}: mean {mean}");
    }
}

/// The same sequence starting `s` points later.
fn skip<const D: usize>(halton: &Halton<D>, s: u64) -> Halton<D> {
    halton.to_builder().with_skip(s).build().expect("valid")
}

/// The same sequence, scrambled.
fn scrambled<const D: usize>(halton: &Halton<D>) -> Halton<D> {
    halton.to_builder().with_randomized(true).build().expect("valid")
}
