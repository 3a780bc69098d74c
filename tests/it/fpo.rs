//! Farthest-point optimisation: every move goes to the centre of an empty circle whose radius
//! is the moved point's nearest distance (brute force, so the replica band is never too
//! narrow), the minimum distance never decreases, the spacing reaches the paper's values, and
//! the sampler keeps the library's promises (exact n, in the box, reproducible, no panic on
//! degenerate input).

use poisson_nd::{Domain, Error, Fpo, FpoOptimizer, Point, Sampler, WhiteNoise};
use testkit::oracle::{brute_nn, min_pair_distance};

/// The minimum distance of the hexagonal packing of `n` points in `area`.
fn hexagonal(area: f64, n: usize) -> f64 {
    (2.0 * area / (3f64.sqrt() * n as f64)).sqrt()
}

/// δX and δ̄X: the minimum and mean nearest-neighbour distances over the hexagonal one.
fn relative_radii(domain: &Domain<2>, points: &[Point<2>]) -> (f64, f64) {
    let nn = brute_nn(points, domain);
    let hex = hexagonal(domain.volume(), points.len());
    let min = nn.iter().copied().fold(f64::INFINITY, f64::min);
    let mean = nn.iter().sum::<f64>() / nn.len() as f64;
    (min / hex, mean / hex)
}

fn boxes() -> Vec<Domain<2>> {
    let square = Domain::<2>::unit();
    let wide = Domain::from_origin_and_extent([-3.0, 10.0], [2.5, 0.8]).unwrap();
    let tall = Domain::from_origin_and_extent([0.25, -1.0], [0.3, 1.1]).unwrap();
    vec![square, square.periodic(), wide, wide.periodic(), tall, tall.periodic()]
}

#[test]
fn every_move_goes_to_an_empty_circle_and_the_minimum_distance_never_drops() {
    for (b, domain) in boxes().into_iter().enumerate() {
        for (n, seed) in [(64, 1u64), (300, 2)] {
            let start = WhiteNoise::new(domain).sample_seeded(n, seed).points;
            let mut optimizer = FpoOptimizer::new(domain, start).unwrap();
            let mut dmin = min_pair_distance(&domain, optimizer.points());
            // Two iterations and a bit: the first moves fill white noise's large holes.
            for m in 0..(2 * n + n / 3) {
                let step = optimizer.step().expect("n ≥ 2");
                assert_eq!(step.index, m % n);
                let points = optimizer.points();
                assert_eq!(points[step.index], step.to);
                assert!(domain.contains(&step.to), "box {b}: {:?}", step.to);
                let nearest = points
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != step.index)
                    .map(|(_, q)| domain.distance_squared(&step.to, q))
                    .fold(f64::INFINITY, f64::min)
                    .sqrt();
                let label =
                    format!("box {b} n {n} move {m}: radius {} nearest {nearest}", step.radius);
                assert!((nearest - step.radius).abs() <= 1e-12 * step.radius, "{label}");
                let old_nearest = points
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != step.index)
                    .map(|(_, q)| domain.distance_squared(&step.from, q))
                    .fold(f64::INFINITY, f64::min)
                    .sqrt();
                assert!(step.radius >= old_nearest * (1.0 - 1e-12), "{label}: old {old_nearest}");
                let now = min_pair_distance(&domain, points);
                assert!(now >= dmin * (1.0 - 1e-12), "{label}: dmin {dmin} -> {now}");
                dmin = now;
            }
        }
    }
}

#[test]
fn closed_boxes_get_points_on_faces_and_corners() {
    // The largest empty circles of a closed box are often centred on its faces: FPO puts
    // points there (an upper face one float inside the half-open box).
    let domain = Domain::from_origin_and_extent([1.0, 2.0], [2.0, 1.0]).unwrap();
    let set = Fpo::builder(domain).with_iterations(10).build().unwrap().sample_seeded(200, 4);
    let on_lower = set.points.iter().filter(|p| p[0] == 1.0 || p[1] == 2.0).count();
    let near_upper = set.points.iter().filter(|p| 3.0 - p[0] < 1e-12 || 3.0 - p[1] < 1e-12).count();
    assert!(on_lower > 5 && near_upper > 5, "{on_lower} {near_upper}");
    assert!(set.points.iter().all(|p| domain.contains(p)));
    // Below zero the float under an upper face is the one farther from zero: a box whose
    // upper corner is negative keeps its points inside the half-open box too.
    for origin in [[-5.0, -5.0], [-1e6, -1e6]] {
        let domain = Domain::from_origin_and_extent(origin, [1.0, 1.0]).unwrap();
        let set = Fpo::builder(domain).with_iterations(10).build().unwrap().sample_seeded(300, 7);
        let upper = [origin[0] + 1.0, origin[1] + 1.0];
        let near_upper = set.points.iter().filter(|p| upper[0] - p[0] < 1e-9).count();
        assert!(near_upper > 5, "{origin:?}: {near_upper}");
        for p in &set.points {
            assert!((0..2).all(|k| origin[k] <= p[k] && p[k] < upper[k]), "{origin:?}: {p:?}");
        }
    }
}

#[test]
fn the_default_reaches_a_relative_radius_of_0_9() {
    let domain = Domain::<2>::unit().periodic();
    let set = Fpo::new(domain).unwrap().sample_seeded(1024, 11);
    let (dx, mean) = relative_radii(&domain, &set.points);
    assert!(dx >= 0.9, "δX = {dx}, δ̄X = {mean}");
}

#[test]
fn the_paper_s_convergence_is_reproduced() {
    // Schlömer et al. 2011, Figure 1 (1024 points, white-noise start): δX / δ̄X about 0.77 /
    // 0.865 after one iteration, 0.81 / 0.905 after two, 0.925 / 0.932 after 63. Loose bounds:
    // the paper's values are averages, these are one seed.
    let domain = Domain::<2>::unit().periodic();
    let start = WhiteNoise::new(domain).sample_seeded(1024, 5).points;
    let mut optimizer = FpoOptimizer::new(domain, start).unwrap();
    let mut seen = Vec::new();
    for (done, (min_dx, min_mean)) in [(1, (0.6, 0.83)), (2, (0.7, 0.87)), (63, (0.89, 0.91))] {
        let before = optimizer.moves() / 1024;
        optimizer.run_iterations(done - before);
        let (dx, mean) = relative_radii(&domain, optimizer.points());
        seen.push((done, dx, mean));
        assert!(dx >= min_dx && mean >= min_mean, "after {done}: {seen:?}");
        assert!(dx <= 1.0 && mean <= 1.0, "{seen:?}");
    }
}

#[test]
fn exact_counts_in_the_box_and_reproducible() {
    for domain in boxes() {
        let fpo = Fpo::builder(domain).with_iterations(3).build().unwrap();
        for n in [0, 1, 2, 3, 4, 5, 17, 150] {
            let set = fpo.sample_seeded(n, 9);
            assert_eq!(set.len(), n);
            assert!(set.points.iter().all(|p| domain.contains(p)), "{domain:?} {n}");
            assert_eq!(set.points, fpo.sample_seeded(n, 9).points, "bit for bit");
        }
    }
    let limited = Fpo::builder(Domain::<2>::unit()).with_max_points(10).build().unwrap();
    let set = limited.sample_seeded(50, 1);
    assert_eq!(set.len(), 10);
    assert_eq!(set.stop, poisson_nd::StopReason::PointLimit);
}

#[test]
fn degenerate_starts_do_not_panic() {
    for domain in [Domain::<2>::unit(), Domain::<2>::unit().periodic()] {
        let starts: Vec<Vec<Point<2>>> = vec![
            vec![],
            vec![[0.5, 0.5]],
            vec![[0.0, 0.0], [0.0, 0.0]],
            vec![[0.3, 0.7]; 50],
            (0..20).map(|k| [k as f64 / 20.0, 0.5]).collect(),
            (0..20).map(|k| [k as f64 / 20.0, k as f64 / 20.0]).collect(),
            (0..20).map(|k| [0.0, k as f64 / 20.0]).collect(),
            vec![[0.0, 0.0], [1e-300, 0.0], [0.0, 5e-324], [0.5, 0.5]],
            (0..16).map(|k| [(k % 4) as f64 / 4.0, (k / 4) as f64 / 4.0]).collect(),
        ];
        for start in starts {
            let n = start.len();
            let mut optimizer = FpoOptimizer::new(domain, start.clone()).unwrap();
            let mut dmin = min_pair_distance(&domain, optimizer.points());
            for _ in 0..3 * n.max(1) {
                optimizer.step();
                let now = min_pair_distance(&domain, optimizer.points());
                assert!(now >= dmin * (1.0 - 1e-12), "{start:?}");
                dmin = now;
            }
            let set = optimizer.into_point_set();
            assert_eq!(set.len(), n);
            assert!(set.points.iter().all(|p| domain.contains(p)), "{:?}", set.points);
            if (2..=20).contains(&n) {
                // Coincident and collinear points are separated.
                assert!(dmin > 0.0, "{start:?} -> {:?}", set.points);
            }
        }
    }
}

#[test]
fn tiny_and_huge_boxes_give_the_same_points_scaled() {
    let unit = Domain::<2>::unit().periodic();
    let reference = Fpo::builder(unit).with_iterations(4).build().unwrap();
    for scale in [1e-100, 1e100] {
        let domain = Domain::from_origin_and_extent([0.0, 0.0], [scale, scale]).unwrap().periodic();
        let fpo = Fpo::builder(domain).with_iterations(4).build().unwrap();
        let (a, b) = (reference.sample_seeded(100, 3), fpo.sample_seeded(100, 3));
        let dmin_a = min_pair_distance(&unit, &a.points);
        let dmin_b = min_pair_distance(&domain, &b.points) / scale;
        assert!((dmin_a - dmin_b).abs() < 1e-9 * dmin_a, "{scale}: {dmin_a} {dmin_b}");
        assert!(b.points.iter().all(|p| domain.contains(p)));
    }
}

#[test]
fn wrong_input_is_refused() {
    assert!(matches!(Fpo::new(Domain::<1>::unit()), Err(Error::InvalidParameter { .. })));
    assert!(matches!(Fpo::new(Domain::<3>::unit()), Err(Error::InvalidParameter { .. })));
    assert!(FpoOptimizer::new(Domain::<3>::unit(), vec![[0.5; 3]]).is_err());
    assert!(FpoOptimizer::new(Domain::<1>::unit(), vec![[0.5]]).is_err());
    let unit = Domain::<2>::unit();
    assert!(matches!(
        FpoOptimizer::new(unit, vec![[0.5, f64::NAN]]),
        Err(Error::NonFinite { index: 0, .. })
    ));
    assert!(FpoOptimizer::new(unit, vec![[0.5, 0.5], [1.0, 0.5]]).is_err());
    assert!(FpoOptimizer::new(unit, vec![[-1e-300, 0.5]]).is_err());
    let thin = Domain::from_origin_and_extent([0.0, 0.0], [1.0, 1.0 / 16.5]).unwrap();
    assert!(Fpo::new(thin).is_err());
    let region = poisson_nd::region::Ball::new([0.5, 0.5], 0.3).unwrap();
    assert!(matches!(
        Fpo::builder(unit).with_region(region).build(),
        Err(Error::Unsupported { sampler: "fpo", .. })
    ));
    assert_eq!(Fpo::new(unit).unwrap().name(), "fpo");
}

#[test]
fn thin_boxes_work() {
    // The longest side may be 16 times the shortest: the band then holds many replicas
    // along the short side (a move of one of 2 points takes milliseconds), and a handful of
    // points still finds its empty circles.
    for periodic in [false, true] {
        let thin = Domain::from_origin_and_extent([0.0, 0.0], [1.0, 1.0 / 16.0]).unwrap();
        let domain = if periodic { thin.periodic() } else { thin };
        for n in [2, 3, 10, 100] {
            let start = WhiteNoise::new(domain).sample_seeded(n, 1).points;
            let mut optimizer = FpoOptimizer::new(domain, start).unwrap();
            for _ in 0..2 * n {
                let step = optimizer.step().unwrap();
                let nearest = optimizer
                    .points()
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != step.index)
                    .map(|(_, q)| domain.distance_squared(&step.to, q))
                    .fold(f64::INFINITY, f64::min)
                    .sqrt();
                assert!((nearest - step.radius).abs() <= 1e-12 * step.radius, "{n} {periodic}");
            }
        }
    }
}
