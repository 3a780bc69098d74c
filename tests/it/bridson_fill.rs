//! Bridson's resumable fill: a run taken step by step, in pieces or at once gives the same
//! points; given points and seeds are kept where they are, and the minimum distance holds
//! for the whole set (brute force).

use poisson_nd::FillStep;
use poisson_nd::rng::rng_from_seed;
use poisson_nd::{Bridson, Domain, FillSampler, Point, StopReason};
use testkit::domains::{awkward_box, radius_for_about};
use testkit::oracle::close_pair;

fn bridson<const D: usize>(domain: Domain<D>, points: f64) -> Bridson<D> {
    Bridson::new(domain, radius_for_about(&domain, points)).expect("valid")
}

#[test]
fn step_by_step_and_in_pieces_equal_one_shot() {
    fn check<const D: usize>() {
        for domain in [awkward_box::<D>(), awkward_box::<D>().periodic()] {
            let sampler = bridson(domain, 400.0);
            let one_shot = sampler.fill_seeded(8);

            let mut rng = rng_from_seed(8);
            let mut fill = sampler.start_fill();
            assert!(fill.add_random(&mut rng));
            let mut added = 1;
            loop {
                match fill.step(&mut rng) {
                    FillStep::Added(index) => {
                        assert_eq!(index, added, "D={D}");
                        added += 1;
                    }
                    FillStep::Retired => {}
                    FillStep::Exhausted => break,
                    other => panic!("D={D}: {other:?}"),
                }
            }
            assert_eq!(fill.active_len(), 0);
            let stepped = fill.into_point_set();
            assert_eq!(stepped.points, one_shot.points, "D={D} periodic={}", domain.is_periodic());
            assert_eq!(stepped.attempts, one_shot.attempts, "D={D}");
            assert_eq!(stepped.stop, StopReason::Exhausted);

            // Stopped at 10, 50 and 51 points and resumed: the same run again.
            let mut rng = rng_from_seed(8);
            let mut fill = sampler.start_fill();
            fill.add_random(&mut rng);
            for target in [10, 50, 51] {
                assert_eq!(fill.run_until(target, &mut rng), StopReason::TargetReached);
                assert_eq!(fill.len(), target);
                assert_eq!(fill.points(), &one_shot.points[..target], "D={D} at {target}");
            }
            assert_eq!(fill.run(&mut rng), StopReason::Exhausted);
            assert_eq!(fill.into_point_set().points, one_shot.points, "D={D} resumed");
        }
    }
    check::<1>();
    check::<2>();
    check::<3>();
    check::<5>();
}

#[test]
fn given_points_stay_put_and_the_distance_holds_everywhere() {
    fn check<const D: usize>() {
        for domain in [awkward_box::<D>(), awkward_box::<D>().periodic()] {
            let sampler = bridson(domain, 600.0);
            let r = sampler.radius();
            // An existing set twice as sparse, in the lower half of axis 0 only.
            let sparse = Bridson::new(domain, 2.0 * r).expect("valid").fill_seeded(1);
            let middle = domain.origin()[0] + 0.5 * domain.extent()[0];
            let given: Vec<Point<D>> =
                sparse.points.into_iter().filter(|p| p[0] < middle).collect();
            assert!(given.len() > 3, "D={D}");

            let mut fill = sampler.start_fill();
            for p in &given {
                assert!(fill.add(*p), "D={D}: {p:?} refused");
            }
            assert_eq!(fill.active_len(), given.len());
            // A point closer than r to a given one is refused, and nothing changes.
            let mut close = given[0];
            close[0] += 0.5 * r;
            assert!(!fill.add(close), "D={D}");
            assert_eq!(fill.len(), given.len());

            let stop = fill.run(&mut rng_from_seed(4));
            assert_eq!(stop, StopReason::Exhausted);
            let set = fill.into_point_set();
            assert_eq!(set.points[..given.len()], given[..], "D={D}: given points moved");
            assert!(set.len() > 2 * given.len(), "D={D}: the run did not grow");
            for p in &set.points {
                assert!(domain.contains(p), "D={D}: {p:?} outside");
            }
            let pair = close_pair(&domain, &set.points, r);
            assert!(pair.is_none(), "D={D} periodic={}: {pair:?}", domain.is_periodic());
            // The upper half, empty at the start, was filled too.
            assert!(set.points.iter().any(|p| p[0] > middle + r), "D={D}");
        }
    }
    check::<1>();
    check::<2>();
    check::<3>();
    check::<4>();
}

#[test]
fn several_seeds_grow_together() {
    let domain = Domain::<2>::unit();
    let sampler = Bridson::new(domain, 0.02).expect("valid");
    let seeds = [[0.1, 0.1], [0.9, 0.1], [0.5, 0.9]];
    let mut fill = sampler.start_fill();
    for seed in seeds {
        assert!(fill.add(seed));
    }
    assert_eq!(fill.attempts(), 0, "given points are not attempts");
    let mut rng = rng_from_seed(6);
    assert_eq!(fill.run_until(100, &mut rng), StopReason::TargetReached);
    assert_eq!(fill.run(&mut rng), StopReason::Exhausted);
    let set = fill.into_point_set();
    assert_eq!(set.points[..3], seeds[..]);
    assert!(close_pair(&domain, &set.points, 0.02).is_none());
    // As full as a run from one random seed, give or take a few percent.
    let single = sampler.fill_seeded(6).len() as f64;
    assert!((set.len() as f64 - single).abs() < 0.05 * single, "{} vs {single}", set.len());
}

#[test]
fn adding_wraps_on_a_torus_and_refuses_outside_a_closed_box() {
    let closed = Domain::<2>::unit();
    let mut fill = Bridson::new(closed, 0.1).expect("valid").start_fill();
    assert!(!fill.add([1.2, 0.5]));
    assert!(!fill.add([f64::NAN, 0.5]));
    assert!(fill.is_empty());
    let torus = closed.periodic();
    let mut fill = Bridson::new(torus, 0.1).expect("valid").start_fill();
    assert!(fill.add([1.25, -0.5]));
    assert_eq!(fill.points(), &[[0.25, 0.5]]);
    assert!(!fill.add([f64::INFINITY, 0.5]));
    // Across the seam: 0.05 away on the torus.
    assert!(!fill.add([0.25, 0.45 + 1.0]));
}

#[test]
fn runs_resume_after_the_front_dies_when_points_are_added() {
    let domain = Domain::<2>::unit();
    let sampler = Bridson::new(domain, 0.05).expect("valid");
    let mut rng = rng_from_seed(1);
    let mut fill = sampler.start_fill();
    assert_eq!(fill.step(&mut rng), FillStep::Exhausted, "nothing to grow from");
    assert!(fill.add([0.5, 0.5]));
    assert_eq!(fill.run(&mut rng), StopReason::Exhausted);
    let full = fill.len();
    assert_eq!(fill.step(&mut rng), FillStep::Exhausted);
    // A full set has no room left for a random point, but a given one that fits revives it.
    let gap = (0..10_000)
        .map(|i| [(i % 100) as f64 / 100.0, (i / 100) as f64 / 100.0])
        .find(|p| fill.points().iter().all(|q| domain.distance_squared(p, q) >= 0.05 * 0.05));
    if let Some(p) = gap {
        assert!(fill.add(p));
        fill.run(&mut rng);
        assert!(fill.len() > full);
    }
    let set = fill.into_point_set();
    assert!(close_pair(&domain, &set.points, 0.05).is_none());
}
