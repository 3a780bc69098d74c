//! Every sampler × every region kind: all points inside (tested against the region's own
//! `contains`), the minimum distance kept (brute force) by the radius-driven samplers, exactly
//! n points from the count-driven ones; every piece filled; determinism under a seed.

use crate::shapes;
use poisson_nd::region::Ball;
use poisson_nd::{
    BestCandidate, Bridson, DartThrowing, Domain, FillSampler, FrontOrder, GridResolution, Halton,
    JitteredGrid, Maximal, Point, PointSet, Region, SampleElimination, Sampler, StopReason,
    WhiteNoise,
};
use std::sync::Arc;
use testkit::oracle::close_pair;

/// A radius-driven sampler's fill, by seed.
type Fill<const D: usize> = Box<dyn Fn(u64) -> PointSet<D>>;
/// A count-driven sampler's run, by count and seed.
type Draw<const D: usize> = Box<dyn Fn(usize, u64) -> PointSet<D>>;

/// Every radius-driven sampler in `region`.
fn radius_driven<const D: usize>(
    domain: Domain<D>,
    region: &Arc<dyn Region<D>>,
    r: f64,
) -> Vec<(&'static str, Fill<D>)> {
    let bridson = Bridson::builder(domain, r).with_region(Arc::clone(region)).build().unwrap();
    let recent = bridson.to_builder().with_front_order(FrontOrder::Recent).build().unwrap();
    let darts = DartThrowing::builder(domain, r)
        .with_max_misses(2_000)
        .with_region(Arc::clone(region))
        .build()
        .unwrap();
    let darts_grid = darts.to_builder().with_grid(GridResolution::Coarse).build().unwrap();
    let maximal = Maximal::builder(domain, r).with_region(Arc::clone(region)).build().unwrap();
    vec![
        ("bridson", Box::new(move |seed| bridson.fill_seeded(seed))),
        ("bridson-recent", Box::new(move |seed| recent.fill_seeded(seed))),
        ("dart-throwing", Box::new(move |seed| darts.fill_seeded(seed))),
        ("dart-throwing-grid", Box::new(move |seed| darts_grid.fill_seeded(seed))),
        ("maximal", Box::new(move |seed| maximal.fill_seeded(seed))),
    ]
}

/// Every count-driven sampler in `region`, drawing `n` points.
fn count_driven<const D: usize>(
    domain: Domain<D>,
    region: &Arc<dyn Region<D>>,
) -> Vec<(&'static str, Draw<D>)> {
    let r = || Arc::clone(region);
    let white = WhiteNoise::builder(domain).with_region(r()).build().unwrap();
    let halton = Halton::builder(domain).with_region(r()).build().unwrap();
    let scrambled = Halton::builder(domain).with_randomized(true).with_region(r()).build().unwrap();
    let jittered = JitteredGrid::builder(domain).with_region(r()).build().unwrap();
    let best = BestCandidate::builder(domain).with_region(r()).build().unwrap();
    let elimination = SampleElimination::builder(domain).with_region(r()).build().unwrap();
    vec![
        ("white-noise", Box::new(move |n, seed| white.sample_seeded(n, seed))),
        ("halton", Box::new(move |n, seed| halton.sample_seeded(n, seed))),
        ("halton-randomized", Box::new(move |n, seed| scrambled.sample_seeded(n, seed))),
        ("jittered-grid", Box::new(move |n, seed| jittered.sample_seeded(n, seed))),
        ("best-candidate", Box::new(move |n, seed| best.sample_seeded(n, seed))),
        ("sample-elimination", Box::new(move |n, seed| elimination.sample_seeded(n, seed))),
    ]
}

fn assert_inside<const D: usize>(what: &str, region: &dyn Region<D>, points: &[Point<D>]) {
    for p in points {
        assert!(region.contains(p), "{what}: {p:?} is outside the region");
    }
}

/// Runs every sampler in `region`: inside, distance, counts, and a filled piece.
fn check_every_sampler<const D: usize>(name: &str, region: Arc<dyn Region<D>>, r: f64, n: usize) {
    let domain = Domain::<D>::unit();
    for (sampler, run) in radius_driven(domain, &region, r) {
        let what = format!("{sampler} in {name} ({D}D)");
        let set = run(11);
        assert!(set.len() > 3, "{what}: only {} points", set.len());
        assert_eq!(set.stop, StopReason::Exhausted, "{what}");
        assert_eq!(set.domain, domain, "{what}: the point set keeps the metric box");
        assert_inside(&what, &*region, &set.points);
        assert_eq!(close_pair(&domain, &set.points, r), None, "{what}: pair closer than r");
    }
    for (sampler, run) in count_driven(domain, &region) {
        let what = format!("{sampler} in {name} ({D}D)");
        for count in [0, 1, n] {
            let set = run(count, 5);
            assert_eq!(set.len(), count, "{what}");
            assert_eq!(set.stop, StopReason::TargetReached, "{what}");
            assert_inside(&what, &*region, &set.points);
        }
    }
}

#[test]
fn every_sampler_in_every_2d_region() {
    for (name, region) in shapes::shapes_2d() {
        check_every_sampler::<2>(name, region, 0.04, 150);
    }
}

#[test]
fn every_sampler_in_every_3d_region() {
    for (name, region) in shapes::shapes_3d() {
        check_every_sampler::<3>(name, region, 0.1, 120);
    }
}

#[test]
fn every_sampler_in_balls_of_1d_and_4d() {
    let segment: Arc<dyn Region<1>> = Arc::new(Ball::new([0.4], 0.3).unwrap());
    check_every_sampler::<1>("ball-1d", segment, 0.03, 40);
    let ball: Arc<dyn Region<4>> = Arc::new(Ball::new([0.5; 4], 0.45).unwrap());
    check_every_sampler::<4>("ball-4d", ball, 0.2, 60);
}

/// Every island of the 12-island multipolygon receives points, from every radius-driven
/// sampler, with radii up to nearly the islands' size.
#[test]
fn every_island_gets_points() {
    let region: Arc<dyn Region<2>> = Arc::new(shapes::islands());
    for r in [0.02, 0.05, 0.09] {
        for (sampler, run) in radius_driven(Domain::unit(), &region, r) {
            for seed in [1, 2] {
                let set = run(seed);
                let mut per_island = [0usize; 12];
                for p in &set.points {
                    per_island[shapes::island_of(p)] += 1;
                }
                assert!(
                    per_island.iter().all(|&k| k > 0),
                    "{sampler} r = {r} seed {seed}: islands {per_island:?}"
                );
            }
        }
    }
}

/// Dense random probes of the region, and the distance from each to its nearest sample.
fn probe_distances(
    region: &dyn Region<2>,
    points: &[Point<2>],
    probes: usize,
    seed: u64,
) -> Vec<(Point<2>, f64)> {
    let mut rng = poisson_nd::rng::rng_from_seed(seed);
    let domain = Domain::<2>::unit();
    let mut out = Vec::new();
    while out.len() < probes {
        let x = domain.uniform_point(&mut rng);
        if region.contains(&x) {
            let nearest = points
                .iter()
                .map(|p| domain.distance_squared(p, &x))
                .fold(f64::INFINITY, f64::min)
                .sqrt();
            out.push((x, nearest));
        }
    }
    out
}

/// The documented rule: every point of the region whose ball of radius r/(2k) (k = 4 in
/// 2D) lies in the region is closer than 2r + r/8 to a sample; Maximal covers every point
/// within r. Checked with dense probes on a thin annulus, a dumbbell with a narrow neck and a
/// polygon with a hole, where fronts die and restarts must reach the far side.
#[test]
fn thin_and_necked_regions_are_filled_on_both_sides() {
    let r = 0.03;
    let depth = r / 8.0;
    let cases: Vec<(&str, Arc<dyn Region<2>>)> = vec![
        ("annulus", Arc::new(shapes::annulus(0.6 * r))),
        ("dumbbell", Arc::new(shapes::dumbbell(0.4 * r))),
        ("polygon-with-hole", Arc::new(shapes::polygon_with_hole())),
    ];
    for (name, region) in cases {
        for (sampler, run) in radius_driven(Domain::unit(), &region, r) {
            let set = run(3);
            assert!(set.points.iter().all(|p| region.contains(p)));
            let left = set.points.iter().filter(|p| p[0] < 0.35).count();
            let right = set.points.iter().filter(|p| p[0] > 0.65).count();
            assert!(left > 0 && right > 0, "{sampler} in {name}: {left} left, {right} right");
            for (x, nearest) in probe_distances(&*region, &set.points, 20_000, 9) {
                if sampler == "maximal" {
                    assert!(nearest < r, "{sampler} in {name}: {x:?} is {nearest} from a sample");
                    continue;
                }
                // Deep enough: the ball of radius r/8 around x lies in the region (checked on
                // its rim and centre, the shapes being round or straight at this scale).
                let deep = (0..16).all(|j| {
                    let t = j as f64 * std::f64::consts::TAU / 16.0;
                    region.contains(&[x[0] + depth * t.cos(), x[1] + depth * t.sin()])
                });
                if deep {
                    assert!(
                        nearest < 2.0 * r + depth,
                        "{sampler} in {name}: {x:?} is {nearest} from a sample (rule 2r + r/8)"
                    );
                }
            }
        }
    }
}

/// A neck thinner than any front can cross (0.1 r): both bulbs still fill, from separate
/// seeds of the restart scan.
#[test]
fn a_neck_no_front_crosses_is_seeded_from_both_sides() {
    let r = 0.05;
    let region: Arc<dyn Region<2>> = Arc::new(shapes::dumbbell(0.1 * r));
    let bridson = Bridson::builder(Domain::unit(), r).with_region(Arc::clone(&region)).build();
    for seed in 0..8 {
        let set = bridson.as_ref().unwrap().fill_seeded(seed);
        let left = set.points.iter().filter(|p| p[0] < 0.4).count();
        let right = set.points.iter().filter(|p| p[0] > 0.6).count();
        // Each disc of radius 0.18 holds well over ten points at r = 0.05.
        assert!(left > 10 && right > 10, "seed {seed}: {left} left, {right} right");
    }
}

#[test]
fn the_same_seed_gives_the_same_points_in_a_region() {
    let region: Arc<dyn Region<2>> = Arc::new(shapes::polygon_with_hole());
    for (sampler, run) in radius_driven(Domain::unit(), &region, 0.04) {
        assert_eq!(run(7).points, run(7).points, "{sampler}");
        assert_ne!(run(7).points, run(8).points, "{sampler}");
    }
    for (sampler, run) in count_driven(Domain::unit(), &region) {
        assert_eq!(run(50, 7).points, run(50, 7).points, "{sampler}");
        if sampler != "halton" {
            assert_ne!(run(50, 7).points, run(50, 8).points, "{sampler}");
        }
    }
}

/// A Bridson run in a region taken step by step (with the restart scan's seeds as steps)
/// gives the same points as one taken at once.
#[test]
fn a_region_run_in_steps_equals_one_at_once() {
    let region = shapes::islands();
    let bridson = Bridson::builder(Domain::unit(), 0.03).with_region(region).build().unwrap();
    let at_once = bridson.fill_seeded(4);
    let mut rng = poisson_nd::rng::rng_from_seed(4);
    let mut fill = bridson.start_fill();
    for _ in 0..64 {
        if fill.add_random(&mut rng) {
            break;
        }
    }
    while !matches!(fill.step(&mut rng), poisson_nd::FillStep::Exhausted) {}
    assert_eq!(fill.points(), &at_once.points[..]);
}

/// A region in a box that is far from the origin and much larger than the region: the
/// candidates come from the region's box, the metric box stays the domain.
#[test]
fn a_small_region_in_a_large_offset_box() {
    let domain = Domain::from_origin_and_extent([-50.0, 100.0], [200.0, 80.0]).unwrap();
    let ball = Ball::new([-20.0, 150.0], 1.0).unwrap();
    let set = Bridson::builder(domain, 0.1).with_region(ball).build().unwrap().fill_seeded(2);
    assert!(set.len() > 100);
    assert!(set.points.iter().all(|p| ball.contains(p)));
    assert_eq!(close_pair(&domain, &set.points, 0.1), None);
    let halton = Halton::builder(domain).with_region(ball).build().unwrap().sample_seeded(300, 0);
    assert_eq!(halton.len(), 300);
    assert!(halton.points.iter().all(|p| ball.contains(p)));
}

/// The radius is checked against the region's box, not the whole domain: a radius whose
/// densest packing would pass the point limit in the box is fine in a small region.
#[test]
fn the_point_budget_follows_the_region() {
    let domain = Domain::<2>::from_origin_and_extent([0.0, 0.0], [1000.0, 1000.0]).unwrap();
    assert!(Bridson::builder(domain, 0.01).with_max_points(1_000_000).build().is_err());
    let ball = Ball::new([500.0, 500.0], 1.0).unwrap();
    let bridson =
        Bridson::builder(domain, 0.01).with_max_points(1_000_000).with_region(ball).build();
    assert!(bridson.is_ok());
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        /// Random star-shaped polygons (random vertex counts, radii and an offset box):
        /// Bridson and dart throwing keep every point inside and r apart, white noise and
        /// best candidate return exactly n points inside.
        #[test]
        fn random_polygons_are_sampled_inside(
            radii in proptest::collection::vec(0.2f64..1.0, 3..40),
            origin in (-5.0f64..5.0, -5.0f64..5.0),
            seed in 0u64..1000,
        ) {
            let n = radii.len();
            let ring: Vec<[f64; 2]> = radii
                .iter()
                .enumerate()
                .map(|(j, rho)| {
                    let t = j as f64 * std::f64::consts::TAU / n as f64;
                    [origin.0 + 1.0 + rho * t.cos(), origin.1 + 1.0 + rho * t.sin()]
                })
                .collect();
            let polygon = Arc::new(poisson_nd::region::Polygons::new(&[vec![ring]]).unwrap());
            let region: Arc<dyn Region<2>> = polygon;
            let domain = Domain::from_origin_and_extent([origin.0, origin.1], [2.0, 2.0]).unwrap();
            let r = 0.08;
            let bridson =
                Bridson::builder(domain, r).with_region(Arc::clone(&region)).build().unwrap();
            let darts = DartThrowing::builder(domain, r)
                .with_max_misses(500)
                .with_region(Arc::clone(&region))
                .build()
                .unwrap();
            for set in [bridson.fill_seeded(seed), darts.fill_seeded(seed)] {
                prop_assert!(!set.points.is_empty());
                prop_assert!(set.points.iter().all(|p| region.contains(p)));
                prop_assert_eq!(close_pair(&domain, &set.points, r), None);
            }
            let white = WhiteNoise::builder(domain).with_region(Arc::clone(&region)).build();
            let white = white.unwrap();
            let best = BestCandidate::builder(domain).with_region(Arc::clone(&region)).build();
            let best = best.unwrap();
            for set in [white.sample_seeded(40, seed), best.sample_seeded(40, seed)] {
                prop_assert_eq!(set.len(), 40);
                prop_assert!(set.points.iter().all(|p| region.contains(p)));
            }
        }
    }
}
