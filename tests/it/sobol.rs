//! Sobol (plain and Owen-scrambled) and PMJ02: the published sequence bit for bit, the nets
//! at every power of two (every elementary box of every shape), progressive prefixes, the
//! randomisation's uniformity and its variance reduction, regions, and the dimension limits.

use poisson_nd::region::Ball;
use poisson_nd::{Domain, Error, Pmj02, Region, Sampler, Sobol, StopReason};

fn unit<const D: usize>() -> Domain<D> {
    Domain::unit()
}

/// The `m`-digit strata of the points on `axis`, as integers `floor(x 2^m)`.
fn strata<const D: usize>(points: &[[f64; D]], axis: usize, digits: u32) -> Vec<u64> {
    points.iter().map(|p| (p[axis] * (1u64 << digits) as f64) as u64).collect()
}

/// Whether the points (2^m of them) put exactly one point in every elementary rectangle of
/// area 2^−m of axes `a` and `b`, for every shape 2^−k × 2^−(m−k) (a (0, m, 2)-net).
fn is_02_net<const D: usize>(points: &[[f64; D]], a: usize, b: usize) -> bool {
    let m = points.len().trailing_zeros();
    assert_eq!(points.len(), 1 << m);
    (0..=m).all(|k| {
        let xs = strata(points, a, k);
        let ys = strata(points, b, m - k);
        let mut seen = vec![false; points.len()];
        xs.iter().zip(&ys).all(|(&x, &y)| {
            let cell = (x << (m - k)) | y;
            !std::mem::replace(&mut seen[cell as usize], true)
        })
    })
}

/// The t of the 2D projection on axes `a` and `b` of 2^m points: the smallest t with 2^t
/// points in every elementary rectangle of area 2^(t−m).
fn projection_t<const D: usize>(points: &[[f64; D]], a: usize, b: usize) -> u32 {
    let m = points.len().trailing_zeros();
    (0..=m)
        .find(|&t| {
            (0..=m - t).all(|k| {
                let xs = strata(points, a, k);
                let ys = strata(points, b, m - t - k);
                let mut counts = vec![0usize; 1 << (m - t)];
                for (&x, &y) in xs.iter().zip(&ys) {
                    counts[((x << (m - t - k)) | y) as usize] += 1;
                }
                counts.iter().all(|&c| c == 1 << t)
            })
        })
        .expect("t = m always holds")
}

#[test]
fn the_first_points_are_the_published_ones() {
    // Joe and Kuo's sequence as scipy.stats.qmc.Sobol(d=8, scramble=False) lists it (in Gray
    // code order: its j-th point is index j ^ (j >> 1) here).
    let scipy: [[f64; 8]; 8] = [
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5],
        [0.75, 0.25, 0.25, 0.25, 0.75, 0.75, 0.25, 0.75],
        [0.25, 0.75, 0.75, 0.75, 0.25, 0.25, 0.75, 0.25],
        [0.375, 0.375, 0.625, 0.875, 0.375, 0.125, 0.375, 0.875],
        [0.875, 0.875, 0.125, 0.375, 0.875, 0.625, 0.875, 0.375],
        [0.625, 0.125, 0.875, 0.625, 0.625, 0.875, 0.125, 0.125],
        [0.125, 0.625, 0.375, 0.125, 0.125, 0.375, 0.625, 0.625],
    ];
    let points = Sobol::new(unit::<8>()).expect("valid").sample_seeded(8, 0).points;
    for (j, expected) in scipy.iter().enumerate() {
        assert_eq!(points[j ^ (j >> 1)], *expected, "scipy's point {j}");
    }
}

#[test]
fn all_1024_axes_match_scipys_joe_kuo_sequence() {
    // FNV-1a over the 12-bit integers round(x · 4096) of scipy's first 4096 points in 1024
    // dimensions (scipy 1.17.1, in its Gray code order), as little-endian u16s.
    const SCIPY_FINGERPRINT: u64 = 0xc710_1e7c_9985_0da5;
    let points = Sobol::new(unit::<1024>()).expect("valid").sample_seeded(4096, 0).points;
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for j in 0..4096usize {
        for &x in &points[j ^ (j >> 1)] {
            let v = (x * 4096.0) as u16;
            assert_eq!(f64::from(v) / 4096.0, x, "12 digits at most in 4096 points");
            for byte in v.to_le_bytes() {
                hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
    }
    assert_eq!(hash, SCIPY_FINGERPRINT);
}

#[test]
fn every_block_of_a_power_of_two_is_a_net() {
    let plain = Sobol::new(unit::<8>()).expect("valid");
    let owen = plain.to_builder().with_owen_scrambling(true).build().expect("valid");
    for (sampler, seed) in [(&plain, 0), (&owen, 1), (&owen, 2)] {
        let points = sampler.sample_seeded(1 << 12, seed).points;
        for m in [0u32, 1, 4, 7, 10] {
            for block in points.chunks(1 << m).take(3) {
                // Axes 0 and 1: a (0, m, 2)-net, every shape at once.
                assert!(is_02_net(block, 0, 1), "{} m {m}", sampler.label());
                // Every axis alone: one point per stratum of width 2^−m.
                for axis in 0..8 {
                    let mut s = strata(block, axis, m);
                    s.sort_unstable();
                    assert_eq!(s, (0..1u64 << m).collect::<Vec<_>>(), "axis {axis}, m {m}");
                }
            }
        }
        // The 2D projections of Joe and Kuo's first axes have small t: at most 3 among the
        // first 8 axes at 2^10 points (their table is built to keep these low), the same
        // with and without the scramble.
        let first = &points[..1 << 10];
        let worst = (0..8).flat_map(|a| (a + 1..8).map(move |b| (a, b)));
        let worst = worst.map(|(a, b)| projection_t(first, a, b)).max().unwrap();
        assert!(worst <= 3, "{}: t = {worst}", sampler.label());
    }
}

#[test]
fn scrambling_keeps_t_exactly() {
    let plain = Sobol::new(unit::<4>()).expect("valid").sample_seeded(1 << 10, 0).points;
    let owen = Sobol::builder(unit::<4>()).with_owen_scrambling(true).build().expect("valid");
    let scrambled = owen.sample_seeded(1 << 10, 9).points;
    for a in 0..4 {
        for b in a + 1..4 {
            assert_eq!(projection_t(&plain, a, b), projection_t(&scrambled, a, b), "{a} {b}");
        }
    }
}

#[test]
fn runs_are_progressive_and_skips_continue_the_sequence() {
    let owen = Sobol::builder(unit::<5>()).with_owen_scrambling(true).build().expect("valid");
    let long = owen.sample_seeded(1000, 4).points;
    assert_eq!(owen.sample_seeded(300, 4).points, long[..300]);
    let plain = Sobol::new(unit::<5>()).expect("valid");
    let all = plain.sample_seeded(700, 0).points;
    let skipped = plain.to_builder().with_skip(256).build().expect("valid");
    assert_eq!(skipped.sample_seeded(444, 0).points, all[256..]);
    let pmj = Pmj02::new(unit::<2>()).expect("valid");
    let whole = pmj.sample_seeded(1000, 5).points;
    assert_eq!(pmj.sample_seeded(77, 5).points, whole[..77]);
    let rest = pmj.to_builder().with_skip(77).build().expect("valid").sample_seeded(923, 5);
    assert_eq!(rest.points, whole[77..]);
}

#[test]
fn pmj02_prefixes_are_nets_at_every_power_of_two() {
    let pmj = Pmj02::new(unit::<2>()).expect("valid");
    for seed in 0..4 {
        let points = pmj.sample_seeded(1 << 13, seed).points;
        for m in 0..=13u32 {
            assert!(is_02_net(&points[..1 << m], 0, 1), "seed {seed}, prefix 2^{m}");
        }
        // And the second block of every size too: the sequence is a (0, 2)-sequence.
        for m in 0..=12u32 {
            assert!(is_02_net(&points[1 << m..2 << m], 0, 1), "seed {seed}, block 2^{m}");
        }
    }
}

/// Mean and variance of `values`.
fn mean_variance(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    (mean, values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0))
}

#[test]
fn randomised_points_are_uniform_in_their_strata() {
    // Over seeds, point i of a randomised sequence is uniform in the square: its coordinates
    // have mean 1/2 and variance 1/12, and fall evenly in 8 bins per axis (chi-square).
    let owen = Sobol::builder(unit::<2>()).with_owen_scrambling(true).build().expect("valid");
    let pmj = Pmj02::new(unit::<2>()).expect("valid");
    let runs = 4000u64;
    let owen_draw = |seed| owen.sample_seeded(6, seed).points;
    let pmj_draw = |seed| pmj.sample_seeded(6, seed).points;
    type Draw<'a> = &'a dyn Fn(u64) -> Vec<[f64; 2]>;
    let draws: [(&str, Draw); 2] = [("sobol-owen", &owen_draw), ("pmj02", &pmj_draw)];
    for (name, draw) in draws {
        let sets: Vec<Vec<[f64; 2]>> = (0..runs).map(|seed| draw(1000 + seed)).collect();
        for i in [0usize, 1, 5] {
            for axis in 0..2 {
                let values: Vec<f64> = sets.iter().map(|s| s[i][axis]).collect();
                let (mean, variance) = mean_variance(&values);
                // Standard error of the mean sqrt(1/12/4000) = 0.0046: 5 of them.
                assert!((mean - 0.5).abs() < 0.023, "{name} point {i} axis {axis}: {mean}");
                assert!((variance - 1.0 / 12.0).abs() < 0.01, "{name}: variance {variance}");
                let mut bins = [0f64; 8];
                for v in &values {
                    bins[(v * 8.0) as usize] += 1.0;
                }
                let expected = runs as f64 / 8.0;
                let chi2: f64 = bins.iter().map(|b| (b - expected).powi(2) / expected).sum();
                // 7 degrees of freedom: P(χ² > 24.3) = 0.001.
                assert!(chi2 < 24.3, "{name} point {i} axis {axis}: χ² {chi2}");
            }
        }
        assert_ne!(sets[0], sets[1], "{name}: seeds give different sets");
    }
}

#[test]
fn owen_scrambling_cuts_integration_variance_far_below_monte_carlo() {
    // ∫ f over [0,1]^3 for the smooth f = x y z + sin(2π x) y: estimates from 1024 scrambled
    // points vary at O(N^−3) (Owen 1997), white noise's at O(N^−1).
    fn f(p: &[f64; 3]) -> f64 {
        p[0] * p[1] * p[2] + (std::f64::consts::TAU * p[0]).sin() * p[1]
    }
    let exact = 1.0 / 8.0;
    let owen = Sobol::builder(unit::<3>()).with_owen_scrambling(true).build().expect("valid");
    let white = poisson_nd::WhiteNoise::new(unit::<3>());
    let estimate = |points: &[[f64; 3]]| points.iter().map(f).sum::<f64>() / points.len() as f64;
    let scrambled: Vec<f64> =
        (0..64).map(|s| estimate(&owen.sample_seeded(1024, s).points)).collect();
    let random: Vec<f64> =
        (0..64).map(|s| estimate(&white.sample_seeded(1024, s).points)).collect();
    let (mean, owen_variance) = mean_variance(&scrambled);
    let (_, white_variance) = mean_variance(&random);
    // Unbiased: the mean of 64 estimates is within 5 standard errors of the integral.
    assert!((mean - exact).abs() < 5.0 * (owen_variance / 64.0).sqrt() + 1e-12, "{mean}");
    // White noise's variance is about 0.06/1024; scrambled nets are at least 1000× lower.
    assert!(owen_variance < white_variance * 1e-3, "{owen_variance} vs {white_variance}");
}

#[test]
fn the_plain_sequence_never_reads_the_generator() {
    let plain = Sobol::new(unit::<3>()).expect("valid");
    assert_eq!(plain.sample_seeded(50, 1).points, plain.sample_seeded(50, 2).points);
    let owen = plain.to_builder().with_owen_scrambling(true).build().expect("valid");
    assert_ne!(owen.sample_seeded(50, 1).points, owen.sample_seeded(50, 2).points);
    assert_eq!((owen.name(), owen.label()), ("sobol", "sobol-owen".to_string()));
    assert!(owen.is_owen_scrambled() && !plain.is_owen_scrambled());
}

#[test]
fn points_stay_in_the_half_open_box_and_in_a_region() {
    let domain =
        Domain::from_origin_and_extent([-2.0, 1e-90, 5.0], [3.0, 1e-90, 1e99]).expect("valid");
    for points in [
        Sobol::new(domain).expect("valid").sample_seeded(3000, 0).points,
        Sobol::builder(domain)
            .with_owen_scrambling(true)
            .build()
            .expect("valid")
            .sample_seeded(3000, 1)
            .points,
    ] {
        assert_eq!(points.len(), 3000);
        assert!(points.iter().all(|p| domain.contains(p)));
    }
    let ball = Ball::new([0.5, 0.5], 0.3).expect("valid");
    for sampler in [
        Box::new(Sobol::builder(unit::<2>()).with_region(ball).build().expect("valid"))
            as Box<dyn poisson_nd::DynSampler<2>>,
        Box::new(Pmj02::builder(unit::<2>()).with_region(ball).build().expect("valid")),
    ] {
        let set = sampler.sample_seeded(500, 3);
        assert_eq!((set.len(), set.stop), (500, StopReason::TargetReached));
        assert!(set.points.iter().all(|p| ball.contains(p)));
        // Laid over the ball's bounding box, of which the ball is π/4: 500 kept of about
        // 637 used (the nets spread them evenly, so the count is close).
        assert!((610..665).contains(&set.attempts), "{}", set.attempts);
    }
}

#[test]
fn dimension_limits_are_errors() {
    let err = Pmj02::new(unit::<3>()).expect_err("pmj02 is 2D");
    assert!(matches!(err, Error::InvalidParameter { name: "dimension (PMJ02)", .. }), "{err}");
    let err = Sobol::new(unit::<1025>()).expect_err("1024 axes tabulated");
    assert!(matches!(err, Error::InvalidParameter { name: "dimension (Sobol)", .. }), "{err}");
    let one = Pmj02::new(unit::<1>()).expect("1D is the first coordinate");
    let mut s = strata(&one.sample_seeded(64, 0).points, 0, 6);
    s.sort_unstable();
    assert_eq!(s, (0..64).collect::<Vec<_>>());
}
