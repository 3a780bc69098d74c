//! `GaussianBlueNoise`: exact counts in the half-open box (closed and periodic, 1D to 5D,
//! boxes that are not cubes), bit-identical reruns, the energy against a brute-force oracle
//! and its descent, spectral quality against white noise and Bridson, hostile input.

use poisson_nd::{
    Bridson, Domain, Error, FillSampler, GaussianBlueNoise, Point, Sampler, StopReason, WhiteNoise,
};
use testkit::domains::awkward_box;

/// The energy by brute force over all ordered pairs, with the documented images: on a torus
/// the nearest image of each coordinate difference and the next one on either side; in a
/// closed box `x_j`, `−x_j` and `2L − x_j` per axis (box-relative), and each point's own
/// mirror images. The kernel is `exp(−r²/2σ²) − exp(−c²/2σ²)` for `r < c = 4σ`.
fn brute_energy<const D: usize>(domain: &Domain<D>, points: &[Point<D>], sigma: f64) -> f64 {
    let cutoff = GaussianBlueNoise::<D>::CUTOFF_SIGMAS;
    let reach = cutoff * sigma;
    let floor = (-0.5 * cutoff * cutoff).exp();
    let (origin, extent) = (domain.origin(), domain.extent());
    let mut energy = 0.0;
    for (i, p) in points.iter().enumerate() {
        for (j, q) in points.iter().enumerate() {
            if i == j && domain.is_periodic() {
                continue;
            }
            // Per axis, the candidate displacements p − q' and whether q' is q itself there.
            let axes: Vec<Vec<(f64, bool)>> = (0..D)
                .map(|a| {
                    let (u, v, side) = (p[a] - origin[a], q[a] - origin[a], extent[a]);
                    if domain.is_periodic() {
                        let mut d = u - v;
                        if d > 0.5 * side {
                            d -= side;
                        } else if d < -0.5 * side {
                            d += side;
                        }
                        vec![(d, false), (d - side, false), (d + side, false)]
                    } else {
                        vec![(u - v, true), (u + v, false), (u + v - 2.0 * side, false)]
                    }
                })
                .collect();
            for combo in 0..3usize.pow(D as u32) {
                let mut rest = combo;
                let mut d2 = 0.0;
                let mut itself = i == j;
                for axis in &axes {
                    let (d, same) = axis[rest % 3];
                    rest /= 3;
                    d2 += d * d;
                    itself &= same;
                }
                if !itself && d2 < reach * reach {
                    energy += (-d2 / (2.0 * sigma * sigma)).exp() - floor;
                }
            }
        }
    }
    energy
}

fn white<const D: usize>(domain: &Domain<D>, n: usize, seed: u64) -> Vec<Point<D>> {
    WhiteNoise::new(*domain).sample_seeded(n, seed).points
}

fn boxes<const D: usize>() -> Vec<Domain<D>> {
    let long = Domain::from_origin_and_extent(
        std::array::from_fn(|i| 10.0 * i as f64 - 3.0),
        std::array::from_fn(|i| if i == 0 { 2.5 } else { 0.4 + 0.3 * i as f64 }),
    )
    .expect("valid box");
    vec![awkward_box(), awkward_box::<D>().periodic(), long, long.periodic()]
}

fn exact_counts<const D: usize>(counts: &[usize], iterations: u32) {
    for domain in boxes::<D>() {
        let gbn = GaussianBlueNoise::builder(domain).with_iterations(iterations).build().unwrap();
        for &n in counts {
            let set = gbn.sample_seeded(n, 11);
            let label = format!("{D}D n={n} {domain:?}");
            assert_eq!(set.len(), n, "{label}");
            assert_eq!(set.stop, StopReason::TargetReached, "{label}");
            assert_eq!(set.domain, domain, "{label}");
            assert!(set.points.iter().all(|p| domain.contains(p)), "{label}");
        }
    }
}

#[test]
fn gbn_exactly_n_points_in_the_half_open_box() {
    exact_counts::<1>(&[0, 1, 2, 3, 50, 400], 300);
    exact_counts::<2>(&[0, 1, 2, 3, 37, 500], 300);
    exact_counts::<3>(&[0, 1, 2, 5, 300], 150);
    exact_counts::<5>(&[2, 200], 40);
    // Boxes smaller than the cutoff along every axis: every pair compared, the images per
    // pair capped.
    exact_counts::<8>(&[1, 40], 5);
    exact_counts::<16>(&[3, 20], 2);
}

#[test]
fn gbn_reruns_are_bit_identical() {
    for domain in boxes::<2>() {
        let gbn = GaussianBlueNoise::builder(domain).with_iterations(60).build().unwrap();
        let a = gbn.sample_seeded(300, 5);
        assert_eq!(a, gbn.sample_seeded(300, 5));
        assert_ne!(a.points, gbn.sample_seeded(300, 6).points);
        let start = white(&domain, 300, 9);
        assert_eq!(gbn.optimise(start.clone()).unwrap(), gbn.optimise(start).unwrap());
    }
    let gbn = GaussianBlueNoise::builder(awkward_box::<3>()).with_iterations(30).build().unwrap();
    assert_eq!(gbn.sample_seeded(200, 1), gbn.sample_seeded(200, 1));
}

/// The grid's energy is the brute-force one (every image within the cutoff found, none
/// counted twice), in boxes much larger than the cutoff and in boxes thinner than it.
fn energy_matches_brute_force<const D: usize>(domains: &[Domain<D>], n: usize) {
    for domain in domains {
        let gbn = GaussianBlueNoise::builder(*domain).with_iterations(40).build().unwrap();
        let sigma = gbn.kernel_sigma(n).unwrap();
        let start = white(domain, n, 3);
        let relaxed = gbn.optimise(start.clone()).unwrap().points;
        for points in [&start, &relaxed] {
            let brute = brute_energy(domain, points, sigma);
            let grid = gbn.energy(points).unwrap();
            assert!(
                (grid - brute).abs() <= 1e-9 * brute.abs().max(1.0),
                "{D}D n={n} {domain:?}: grid {grid} brute {brute}"
            );
        }
        let (before, after) =
            (brute_energy(domain, &start, sigma), brute_energy(domain, &relaxed, sigma));
        assert!(after < before, "{D}D {domain:?}: energy {before} -> {after}");
    }
}

#[test]
fn gbn_energy_is_the_brute_force_energy_and_falls_from_white_noise() {
    let thin2 = Domain::from_origin_and_extent([0.5, -2.0], [3.0, 0.05]).unwrap();
    energy_matches_brute_force::<1>(&boxes::<1>(), 40);
    energy_matches_brute_force::<2>(&boxes::<2>(), 150);
    energy_matches_brute_force::<2>(&[thin2, thin2.periodic()], 60);
    energy_matches_brute_force::<3>(&boxes::<3>(), 120);
    let slab = Domain::from_origin_and_extent([0.0; 3], [1.0, 1.0, 0.08]).unwrap();
    energy_matches_brute_force::<3>(&[slab, slab.periodic()], 80);
}

/// Each iteration's points have no more energy than the last's: a run of k + 1 iterations
/// continues the run of k, so the energies of runs of 0, 1, 2, … iterations from one start
/// are the energies along one descent.
#[test]
fn gbn_energy_never_increases_from_one_iteration_to_the_next() {
    fn check<const D: usize>(domain: Domain<D>, n: usize) {
        let start = white(&domain, n, 21);
        let mut last = f64::INFINITY;
        let mut first = None;
        for k in 0..60 {
            let gbn = GaussianBlueNoise::builder(domain).with_iterations(k).build().unwrap();
            let points = gbn.optimise(start.clone()).unwrap().points;
            let energy = gbn.energy(&points).unwrap();
            assert!(
                energy <= last * (1.0 + 1e-12),
                "{D}D {domain:?}: iteration {k}: {last} -> {energy}"
            );
            first.get_or_insert(energy);
            last = energy;
        }
        assert!(last < 0.9 * first.unwrap_or(0.0), "{D}D {domain:?}: {first:?} -> {last}");
    }
    check(Domain::<2>::unit(), 80);
    check(Domain::<2>::unit().periodic(), 80);
    check(awkward_box::<3>(), 60);
    check(awkward_box::<1>().periodic(), 30);
}

/// Relative radius δX = d_min / d_hex (d_hex = √(2/(√3 N)), the spacing of the hexagonal
/// lattice of N points in the unit square) and the mean nearest-neighbour distance in the
/// same unit, on the torus, by brute force.
fn spacing(domain: &Domain<2>, points: &[Point<2>]) -> (f64, f64) {
    let n = points.len();
    let d_hex = (2.0 / (3f64.sqrt() * n as f64)).sqrt();
    let mut min = f64::INFINITY;
    let mut sum = 0.0;
    for (i, p) in points.iter().enumerate() {
        let nearest = (0..n)
            .filter(|&j| j != i)
            .map(|j| domain.distance_squared(p, &points[j]))
            .fold(f64::INFINITY, f64::min)
            .sqrt();
        min = min.min(nearest);
        sum += nearest;
    }
    (min / d_hex, sum / n as f64 / d_hex)
}

/// The periodogram `P(k) = |Σ exp(−2πi k·x)|² / N` at the integer wave vectors of the unit
/// torus (one of each ±k pair): its mean over `0 < |k| < 0.5·√N` (white noise: 1) and its
/// largest value over `0 < |k| ≤ 2·√N` (a lattice would put about N there).
fn spectrum(points: &[Point<2>]) -> (f64, f64) {
    let n = points.len() as f64;
    let (low, high) = (0.5 * n.sqrt(), 2.0 * n.sqrt());
    let reach = high.ceil() as i64;
    let (mut sum, mut count, mut peak) = (0.0, 0usize, 0.0f64);
    for kx in 0..=reach {
        for ky in -reach..=reach {
            if kx == 0 && ky <= 0 {
                continue;
            }
            let k = ((kx * kx + ky * ky) as f64).sqrt();
            if k > high {
                continue;
            }
            let (mut re, mut im) = (0.0, 0.0);
            for p in points {
                let (s, c) =
                    (-2.0 * std::f64::consts::PI * (kx as f64 * p[0] + ky as f64 * p[1])).sin_cos();
                re += c;
                im += s;
            }
            let power = (re * re + im * im) / n;
            if k < low {
                sum += power;
                count += 1;
            }
            peak = peak.max(power);
        }
    }
    (sum / count as f64, peak)
}

/// Spectral quality in the periodic unit square, fixed seeds: the low-frequency power far
/// below white noise's 1 and a hundred times below a Bridson set of about the same density,
/// no lattice peak, and spacing far above white noise. Measured with the defaults (σ = 0.85,
/// 300 iterations), seed 1: N = 1024: δX 0.77, mean NN 0.85, low-frequency power 1.4e-5,
/// peak 18; N = 4096: δX 0.72, mean NN 0.85, power 1.5e-5, peak 21. White noise: δX < 0.01,
/// mean NN 0.46–0.47, power 0.92–1.01. Bridson (r = 0.75 d_hex, about 0.95 N points): δX
/// 0.73, mean NN 0.79, power 0.086–0.087.
#[test]
fn gbn_spectrum_and_spacing_beat_white_noise_and_bridson() {
    let domain = Domain::<2>::unit().periodic();
    for n in [1024usize, 4096] {
        let gbn = GaussianBlueNoise::new(domain).sample_seeded(n, 1).points;
        let noise = white(&domain, n, 1);
        let d_hex = (2.0 / (3f64.sqrt() * n as f64)).sqrt();
        let bridson = Bridson::new(domain, 0.75 * d_hex).unwrap().fill_seeded(1).points;
        let ((g_dx, g_nn), (w_dx, w_nn), (b_dx, b_nn)) =
            (spacing(&domain, &gbn), spacing(&domain, &noise), spacing(&domain, &bridson));
        let ((g_low, g_peak), (w_low, w_peak), (b_low, b_peak)) =
            (spectrum(&gbn), spectrum(&noise), spectrum(&bridson));
        eprintln!(
            "N={n}: gbn δX {g_dx:.3} NN {g_nn:.3} low {g_low:.2e} peak {g_peak:.1}; \
             white δX {w_dx:.3} NN {w_nn:.3} low {w_low:.3} peak {w_peak:.1}; \
             bridson ({} points) δX {b_dx:.3} NN {b_nn:.3} low {b_low:.3} peak {b_peak:.1}",
            bridson.len()
        );
        assert!(g_dx > 0.6 && g_nn > 0.8, "N={n}: δX {g_dx}, mean NN {g_nn}");
        assert!(w_dx < 0.1 && w_nn < 0.5, "N={n}: white δX {w_dx}, mean NN {w_nn}");
        assert!(g_low < 1e-4, "N={n}: low-frequency power {g_low}");
        assert!(w_low > 0.7, "N={n}: white noise's low-frequency power {w_low}");
        assert!(g_low < 0.01 * b_low, "N={n}: gbn {g_low} against Bridson {b_low}");
        assert!(g_peak < 40.0, "N={n}: a peak of {g_peak} (a lattice would give about {n})");
    }
}

/// In 3D the spacing is far above white noise's too.
#[test]
fn gbn_spreads_points_in_3d() {
    let domain = Domain::<3>::unit().periodic();
    let n = 1000;
    let h = (1.0 / n as f64).cbrt();
    let nearest = |points: &[Point<3>]| {
        let all: Vec<f64> = points
            .iter()
            .enumerate()
            .map(|(i, p)| {
                (0..n)
                    .filter(|&j| j != i)
                    .map(|j| domain.distance_squared(p, &points[j]))
                    .fold(f64::INFINITY, f64::min)
                    .sqrt()
                    / h
            })
            .collect();
        (all.iter().copied().fold(f64::INFINITY, f64::min), all.iter().sum::<f64>() / n as f64)
    };
    let (g_min, g_mean) = nearest(&GaussianBlueNoise::new(domain).sample_seeded(n, 2).points);
    let (w_min, w_mean) = nearest(&white(&domain, n, 2));
    assert!(g_min > 0.4 && g_mean > 0.8, "gbn: min {g_min}, mean {g_mean}");
    assert!(w_min < 0.2 && w_mean < 0.6, "white: min {w_min}, mean {w_mean}");
}

#[test]
fn gbn_tiny_and_huge_boxes_give_the_unit_box_pattern() {
    let unit = GaussianBlueNoise::builder(
        Domain::<2>::from_origin_and_extent([0.0; 2], [1.0, 0.5]).unwrap(),
    )
    .with_iterations(80)
    .build()
    .unwrap();
    let reference = unit.sample_seeded(200, 4).points;
    for (origin, scale) in [([1e-100, -3e-100], 2e-100), ([-1e100, 0.0], 1e100), ([7.0, -2.0], 3.0)]
    {
        let domain = Domain::from_origin_and_extent(origin, [scale, 0.5 * scale]).unwrap();
        for domain in [domain, domain.periodic()] {
            let gbn = GaussianBlueNoise::builder(domain)
                .with_iterations(unit.iterations())
                .build()
                .unwrap();
            let set = gbn.sample_seeded(200, 4);
            assert_eq!(set.len(), 200);
            assert!(set.points.iter().all(|p| domain.contains(p)), "{domain:?}");
            assert!(set.points.iter().flatten().all(|x| x.is_finite()));
            if !domain.is_periodic() {
                // The same pattern, to rounding, in the box's own units.
                for (p, r) in set.points.iter().zip(&reference) {
                    for a in 0..2 {
                        let u = (p[a] - origin[a]) / scale;
                        assert!((u - r[a]).abs() < 1e-6, "{domain:?}: {u} against {}", r[a]);
                    }
                }
            }
        }
    }
}

#[test]
fn gbn_hostile_start_sets() {
    let domain = Domain::<2>::from_origin_and_extent([-1.0, 2.0], [2.0, 1.0]).unwrap();
    for domain in [domain, domain.periodic()] {
        let gbn = GaussianBlueNoise::builder(domain).with_iterations(200).build().unwrap();
        // Every point on one spot, on the lower corner, on a face: they move apart.
        for spot in [[0.3, 2.4], [-1.0, 2.0], [0.9999999, 2.0]] {
            let set = gbn.optimise(vec![spot; 12]).unwrap();
            assert_eq!(set.len(), 12);
            assert!(set.points.iter().all(|p| domain.contains(p)));
            let closest = (0..12)
                .flat_map(|i| (0..i).map(move |j| (i, j)))
                .map(|(i, j)| domain.distance_squared(&set.points[i], &set.points[j]))
                .fold(f64::INFINITY, f64::min)
                .sqrt();
            assert!(closest > 0.05, "{domain:?} from {spot:?}: closest pair {closest}");
        }
        assert!(gbn.optimise(Vec::new()).unwrap().is_empty());
        assert_eq!(gbn.optimise(vec![[0.0, 2.5]]).unwrap().len(), 1);
        assert_eq!(gbn.optimise(vec![[0.0, 2.5]; 2]).unwrap().len(), 2);
        // NaN, infinite and outside points are refused by name.
        let nan = gbn.optimise(vec![[0.0, 2.5], [0.1, f64::NAN]]);
        assert!(matches!(nan, Err(Error::NonFinite { index: 3, .. })), "{nan:?}");
        assert!(matches!(gbn.optimise(vec![[f64::INFINITY, 2.5]]), Err(Error::NonFinite { .. })));
        assert!(matches!(gbn.optimise(vec![[1.0, 2.5]]), Err(Error::OutOfRange { .. })));
        assert!(matches!(gbn.optimise(vec![[0.0, 1.9]]), Err(Error::OutOfRange { .. })));
        assert!(matches!(gbn.energy(&[[0.0, f64::NAN]]), Err(Error::NonFinite { .. })));
    }
    let limited =
        GaussianBlueNoise::builder(Domain::<2>::unit()).with_max_points(3).build().unwrap();
    assert!(matches!(limited.optimise(vec![[0.5; 2]; 4]), Err(Error::InvalidParameter { .. })));
    let set = limited.sample_seeded(10, 1);
    assert_eq!((set.len(), set.stop), (3, StopReason::PointLimit));
}

#[test]
fn gbn_configuration_is_checked() {
    let domain = Domain::<2>::unit();
    let refused = |b: poisson_nd::GaussianBlueNoiseBuilder<2>| b.build().is_err();
    assert!(refused(GaussianBlueNoise::builder(domain).with_sigma(0.0)));
    assert!(refused(GaussianBlueNoise::builder(domain).with_sigma(f64::NAN)));
    assert!(refused(GaussianBlueNoise::builder(domain).with_sigma(2.5)));
    assert!(refused(GaussianBlueNoise::builder(domain).with_max_points(0)));
    let region = poisson_nd::region::Ball::new([0.5, 0.5], 0.2).unwrap();
    assert!(matches!(
        GaussianBlueNoise::builder(domain).with_region(region).build(),
        Err(Error::Unsupported { sampler: "gaussian-blue-noise", what: "a region" })
    ));
    let gbn = GaussianBlueNoise::builder(domain.periodic()).with_sigma(0.7).build().unwrap();
    assert_eq!(gbn.name(), "gaussian-blue-noise");
    assert_eq!(gbn.sigma(), 0.7);
    assert_eq!(gbn.to_builder().build().unwrap().sigma(), 0.7);
    let capabilities = GaussianBlueNoise::<4>::CAPABILITIES;
    assert!(capabilities.periodic && !capabilities.region && !capabilities.radius);
    assert!(GaussianBlueNoise::<4>::CAPABILITIES.takes_dimension(9));
    assert_eq!(gbn.kernel_sigma(0), None);
}
