//! World scatter: every distance within and across classes (brute force), heights and normals
//! against an independent bilinear surface, tilt and upright poses on a tilted plane, slope and
//! height rules, coverage of each class's area, determinism, and every configuration error.

use nalgebra::{UnitQuaternion, Vector3};
use poisson_nd::field::{DensityField, DensityMapping, FnField, GriddedField, PairRule};
use poisson_nd::region::{Ball, BoxRegion};
use poisson_nd::scatter::{
    Instance, PlacementRules, Pose, Scatter, ScatterClass, ScatterPoints, Terrain,
};
use poisson_nd::{Domain, Error};
use proptest::prelude::*;

/// A hilly heightmap: `w × h` rows of values in [0, 1].
fn hills(w: usize, h: usize) -> Vec<f64> {
    let mut v = Vec::with_capacity(w * h);
    for row in 0..h {
        for col in 0..w {
            let (x, y) = (col as f64 / w as f64, row as f64 / h as f64);
            let value =
                0.5 + 0.25 * (6.0 * x).sin() * (5.0 * y).cos() + 0.2 * (3.0 * x + 2.0 * y).sin();
            v.push(value.clamp(0.0, 1.0));
        }
    }
    v
}

/// Every pair of points, within and across classes, keeps the scatter's required distance.
pub(crate) fn assert_distances(scatter: &Scatter, points: &ScatterPoints) {
    let all: Vec<(usize, [f64; 2], f64)> = points
        .classes
        .iter()
        .enumerate()
        .flat_map(|(c, set)| set.points.iter().zip(&set.radii).map(move |(p, &r)| (c, *p, r)))
        .collect();
    for (i, &(a, p, ra)) in all.iter().enumerate() {
        for &(b, q, rb) in &all[i + 1..] {
            let d = (p[0] - q[0]).hypot(p[1] - q[1]);
            let need = scatter.required_distance(a, ra, b, rb);
            assert!(d >= need, "classes {a}/{b}: {p:?} and {q:?} are {d} apart, need {need}");
        }
    }
}

/// A three-class scene on hills: trees with a wetness field and a slope limit, shrubs with
/// slope growth and a height band, rocks in a disc with an override from trees.
fn forest(size: f64) -> Scatter {
    let terrain = Terrain::from_image_rows(40, 30, hills(40, 30), [size, size], 30.0).unwrap();
    let domain = Domain::from_origin_and_extent([0.0, 0.0], [size, size]).unwrap();
    let wet: Vec<f64> = (0..16 * 16).map(|i| (i % 16) as f64 / 15.0).collect();
    let image = GriddedField::from_image_rows(&domain, 16, 16, wet).unwrap();
    let field = DensityField::from_image(image, DensityMapping::Lerp, 4.0, 9.0).unwrap();
    Scatter::builder(terrain)
        // Vegetation: footprints of radius r/2 apart.
        .with_pair_rule(PairRule::Mean)
        .with_class(
            ScatterClass::from_field("tree", field)
                .unwrap()
                .with_rules(PlacementRules::new().with_slope(0.0, 30.0).unwrap())
                .with_pose(Pose::new(0.0, 0.8, 1.3).unwrap()),
        )
        .with_class(
            ScatterClass::new("shrub", 1.5)
                .unwrap()
                .with_rules(
                    PlacementRules::new()
                        .with_slope_radius(1.0)
                        .unwrap()
                        .with_height(5.0, 25.0)
                        .unwrap(),
                )
                .with_pose(Pose::new(0.3, 0.5, 1.0).unwrap()),
        )
        .with_class(
            ScatterClass::new("rock", 4.0)
                .unwrap()
                .with_region(Ball::new([size / 2.0, size / 2.0], size / 3.0).unwrap())
                .with_pose(Pose::new(1.0, 0.5, 2.0).unwrap()),
        )
        .with_distance("tree", "rock", 3.0)
        .build()
        .unwrap()
}

#[test]
fn every_distance_holds_within_and_across_classes() {
    let scatter = forest(120.0);
    // Trees (rmax 9) first, then rocks (4), then shrubs (rmax 1.5·(1 + 1) = 3).
    assert_eq!(scatter.order(), &[0, 2, 1]);
    for seed in [1, 2, 3] {
        let points = scatter.sample(seed).unwrap();
        let counts: Vec<usize> = points.classes.iter().map(|c| c.points.len()).collect();
        assert!(counts.iter().all(|&n| n > 10), "seed {seed}: {counts:?}");
        assert_distances(&scatter, &points);
        for (set, class) in points.classes.iter().zip(scatter.classes()) {
            let (rmin, rmax) = class.effective_bounds();
            assert!(set.radii.iter().all(|&r| r >= rmin && r <= rmax), "{}", set.name);
            assert!(set.points.iter().all(|p| scatter.domain().contains(p)));
        }
    }
}

#[test]
fn rules_and_regions_hold_for_every_instance() {
    let scatter = forest(120.0);
    let points = scatter.sample(5).unwrap();
    let instances = scatter.lift(&points, 5);
    let terrain = scatter.terrain();
    let disc = Ball::new([60.0, 60.0], 40.0).unwrap();
    use poisson_nd::Region;
    for inst in &instances {
        let [x, y, z] = inst.position;
        let surface = terrain.surface(x, z).unwrap();
        assert_eq!(y, surface.height);
        let class = &scatter.classes()[inst.class];
        let (smin, smax) = class.rules().slope_band();
        let (hmin, hmax) = class.rules().height_band();
        assert!(
            surface.slope >= smin && surface.slope <= smax,
            "{}: slope {}",
            class.name(),
            surface.slope
        );
        assert!(y >= hmin && y <= hmax, "{}: height {y}", class.name());
        let (lo, hi) = class.pose().scale_range();
        assert!(inst.scale >= lo && inst.scale <= hi);
        if class.name() == "rock" {
            assert!(disc.contains(&[x, z]));
        }
        if class.name() == "shrub" {
            // The radius grows with the slope: 1.5·(1 + slope/90).
            let expected = 1.5 * (1.0 + surface.slope / 90.0);
            assert!(
                (inst.radius - expected).abs() <= 1e-12 * expected,
                "{} vs {expected}",
                inst.radius
            );
        }
        let q = inst.rotation;
        assert!(
            ((q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt() - 1.0).abs() < 1e-12
        );
    }
    // Each class has instances, so every rule above was exercised.
    for c in 0..3 {
        assert!(instances.iter().any(|i| i.class == c));
    }
}

/// Bilinear interpolation written from the image convention directly: pixel (i, row) at
/// x = (i + ½)·L/W, z = L − (row + ½)·L/H, clamp-to-edge.
fn bilinear(values: &[f64], w: usize, h: usize, size: [f64; 2], scale: f64, x: f64, z: f64) -> f64 {
    let u = (x / size[0] * w as f64 - 0.5).clamp(0.0, (w - 1) as f64);
    // Measured from the southmost centre, in rows going north.
    let v = (z / size[1] * h as f64 - 0.5).clamp(0.0, (h - 1) as f64);
    let (i0, k0) = (u.floor() as usize, v.floor() as usize);
    let (i1, k1) = ((i0 + 1).min(w - 1), (k0 + 1).min(h - 1));
    let (s, t) = (u - i0 as f64, v - k0 as f64);
    let at = |i: usize, k: usize| values[(h - 1 - k) * w + i] * scale;
    let south = at(i0, k0) * (1.0 - s) + at(i1, k0) * s;
    let north = at(i0, k1) * (1.0 - s) + at(i1, k1) * s;
    south * (1.0 - t) + north * t
}

#[test]
fn heights_are_the_bilinear_heightmap() {
    let (w, h, size, scale) = (13, 9, [90.0, 70.0], 42.0);
    let values = hills(w, h);
    let terrain = Terrain::from_image_rows(w, h, values.clone(), size, scale).unwrap();
    for i in 0..=60 {
        for k in 0..=60 {
            let (x, z) = (-2.0 + i as f64 * 94.0 / 60.0, -2.0 + k as f64 * 74.0 / 60.0);
            let expected = bilinear(&values, w, h, size, scale, x, z);
            assert!((terrain.height(x, z) - expected).abs() < 1e-12, "({x}, {z})");
        }
    }
    // Pixel centres hold the pixel's value; the top row is the north edge.
    assert_eq!(terrain.height(0.5 * 90.0 / 13.0, 70.0 - 0.5 * 70.0 / 9.0), values[0] * scale);
    // Lifted instances stand on the same surface.
    let scatter = Scatter::builder(terrain.clone())
        .with_class(ScatterClass::new("a", 3.0).unwrap())
        .build()
        .unwrap();
    let points = scatter.sample(3).unwrap();
    for inst in scatter.lift(&points, 3) {
        let [x, y, z] = inst.position;
        assert!((y - bilinear(&values, w, h, size, scale, x, z)).abs() < 1e-12);
    }
}

/// A heightmap sampling the plane y = a·x + b·z + c at the pixel centres.
fn tilted_plane(a: f64, b: f64, c: f64) -> (Terrain, [f64; 3]) {
    let (w, h, size, scale) = (20, 16, [100.0, 80.0], 50.0);
    let mut values = Vec::new();
    for row in 0..h {
        for i in 0..w {
            let x = (i as f64 + 0.5) * size[0] / w as f64;
            let z = size[1] - (row as f64 + 0.5) * size[1] / h as f64;
            values.push((a * x + b * z + c) / scale);
        }
    }
    assert!(values.iter().all(|v| (0.0..=1.0).contains(v)));
    let norm = (a * a + b * b + 1.0).sqrt();
    (
        Terrain::from_image_rows(w, h, values, size, scale).unwrap(),
        [-a / norm, 1.0 / norm, -b / norm],
    )
}

#[test]
fn on_a_tilted_plane_align_one_follows_the_normal_and_align_zero_stays_upright() {
    let (terrain, normal) = tilted_plane(0.2, -0.15, 20.0);
    // Only between the outer pixel centres is the surface the plane (the rim is clamped):
    // rocks in the west half of that, trees in the east half.
    let west = BoxRegion::new([2.5, 2.5], [50.0, 77.5]).unwrap();
    let scatter = Scatter::builder(terrain)
        .with_class(
            ScatterClass::new("rock", 3.0)
                .unwrap()
                .with_region(west)
                .with_pose(Pose::new(1.0, 1.0, 1.0).unwrap()),
        )
        .with_class(
            ScatterClass::new("tree", 4.0)
                .unwrap()
                .with_region(BoxRegion::new([50.0, 2.5], [97.5, 77.5]).unwrap())
                .with_pose(Pose::new(0.0, 1.0, 1.0).unwrap()),
        )
        .build()
        .unwrap();
    let points = scatter.sample(11).unwrap();
    let instances = scatter.lift(&points, 11);
    let expected_slope = (0.2f64.hypot(0.15)).atan().to_degrees();
    let (mut rocks, mut trees) = (0, 0);
    for inst in &instances {
        let [x, _, z] = inst.position;
        let surface = scatter.terrain().surface(x, z).unwrap();
        for k in 0..3 {
            assert!(
                (surface.normal[k] - normal[k]).abs() < 1e-9,
                "normal {:?} vs {normal:?}",
                surface.normal
            );
        }
        assert!((surface.slope - expected_slope).abs() < 1e-9);
        let [qx, qy, qz, qw] = inst.rotation;
        let q = UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(qw, qx, qy, qz));
        let up = q * Vector3::y();
        let target = if inst.class == 0 { Vector3::from(normal) } else { Vector3::y() };
        assert!((up - target).norm() < 1e-9, "class {}: up {up:?} vs {target:?}", inst.class);
        if inst.class == 0 { rocks += 1 } else { trees += 1 }
    }
    assert!(rocks > 50 && trees > 20, "{rocks} rocks, {trees} trees");
    // Yaws differ from instance to instance: the rotations are not all the tilt alone.
    let first = instances[0].rotation;
    assert!(
        instances.iter().filter(|i| i.class == 0).any(|i| (i.rotation[3] - first[3]).abs() > 1e-3)
    );
}

#[test]
fn every_part_of_the_area_is_covered() {
    // One class on flat ground in a ring: every point of the ring is closer than 2r to a
    // sample (the restart scan leaves no witness uncovered; cells are r/√2 wide).
    let terrain = Terrain::from_image_rows(1, 1, vec![0.0], [100.0, 100.0], 1.0).unwrap();
    let r = 2.0;
    let scatter = Scatter::builder(terrain)
        .with_class(ScatterClass::new("big", 6.0).unwrap())
        .with_class(ScatterClass::new("small", r).unwrap().with_region(
            poisson_nd::region::Difference::new(
                Ball::new([50.0, 50.0], 45.0).unwrap(),
                Ball::new([50.0, 50.0], 20.0).unwrap(),
            ),
        ))
        .build()
        .unwrap();
    let points = scatter.sample(4).unwrap();
    let (big, small) = (&points.classes[0], &points.classes[1]);
    for i in 0..200 {
        for k in 0..200 {
            let p = [0.25 + i as f64 * 0.5, 0.25 + k as f64 * 0.5];
            let d = (p[0] - 50.0).hypot(p[1] - 50.0);
            if !(20.5..=44.5).contains(&d) {
                continue;
            }
            // Covered by a small point within 2r, or blocked by a big one within
            // max(6, 2) + 2r.
            let near_small =
                small.points.iter().any(|q| (p[0] - q[0]).hypot(p[1] - q[1]) < 2.0 * r);
            let near_big = big.points.iter().any(|q| (p[0] - q[0]).hypot(p[1] - q[1]) < 6.0 + r);
            assert!(near_small || near_big, "{p:?} is far from every point");
        }
    }
    // And the big class covers the whole square within 2·6.
    for i in 0..100 {
        for k in 0..100 {
            let p = [0.5 + i as f64, 0.5 + k as f64];
            assert!(big.points.iter().any(|q| (p[0] - q[0]).hypot(p[1] - q[1]) < 12.0), "{p:?}");
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_scatter() {
    let scatter = forest(80.0);
    let a = scatter.sample(9).unwrap();
    let b = scatter.sample(9).unwrap();
    assert_eq!(a, b);
    let ia: Vec<Instance> = scatter.lift(&a, 9);
    assert_eq!(ia, scatter.lift(&b, 9));
    let c = scatter.sample(10).unwrap();
    assert_ne!(a.classes[0].points, c.classes[0].points);
    // A class's yaw and scale depend on its index alone, not on the other classes' counts.
    let alone = Scatter::builder(scatter.terrain().clone())
        .with_class(
            ScatterClass::new("x", 5.0).unwrap().with_pose(Pose::new(0.5, 0.5, 1.5).unwrap()),
        )
        .build()
        .unwrap();
    let pose = alone.classes()[0].pose();
    let (q1, s1) = pose.orient(9, 0, 17, [0.0, 1.0, 0.0]);
    let (q2, s2) = pose.orient(9, 0, 17, [0.0, 1.0, 0.0]);
    assert_eq!((q1, s1), (q2, s2));
}

/// A field whose declared bounds are upside down.
#[derive(Debug)]
struct Inverted;
impl poisson_nd::RadiusField<2> for Inverted {
    fn radius(&self, _: &[f64; 2]) -> f64 {
        1.5
    }
    fn bounds(&self) -> (f64, f64) {
        (2.0, 1.0)
    }
}

#[test]
fn configuration_errors_are_named() {
    let terrain = || Terrain::from_image_rows(1, 1, vec![0.0], [10.0, 10.0], 1.0).unwrap();
    let class = |name: &str| ScatterClass::new(name, 1.0).unwrap();
    assert_eq!(
        Scatter::builder(terrain()).build().unwrap_err(),
        Error::EmptyInput("the list of classes")
    );
    assert_eq!(
        Scatter::builder(terrain())
            .with_class(class("a"))
            .with_class(class("a"))
            .build()
            .unwrap_err(),
        Error::DuplicateClass("a".into())
    );
    let unknown = Scatter::builder(terrain())
        .with_class(class("a"))
        .with_distance("a", "b", 2.0)
        .build()
        .unwrap_err();
    assert_eq!(unknown.to_string(), "no class named 'b' (classes: a)");
    let itself =
        Scatter::builder(terrain()).with_class(class("a")).with_distance("a", "a", 2.0).build();
    assert!(matches!(itself, Err(Error::InvalidClassPair { .. })));
    let twice = Scatter::builder(terrain())
        .with_class(class("a"))
        .with_class(class("b"))
        .with_distance("a", "b", 2.0)
        .with_distance("b", "a", 3.0)
        .build();
    assert!(matches!(twice, Err(Error::InvalidClassPair { .. })));
    let negative = Scatter::builder(terrain()).with_class(class("a")).with_class(class("b"));
    assert!(matches!(
        negative.with_distance("a", "b", -1.0).build(),
        Err(Error::InvalidParameter { name: "class distance", .. })
    ));
    assert!(Scatter::builder(terrain()).with_class(class("a")).with_attempts(0).build().is_err());
    assert!(ScatterClass::new("", 1.0).is_err());
    assert!(ScatterClass::new("a", 0.0).is_err());
    assert_eq!(
        ScatterClass::from_field("a", Inverted).unwrap_err(),
        Error::InvalidRadiusBounds { rmin: 2.0, rmax: 1.0 }
    );
    // Too many points for the limit, named by class.
    let tiny =
        Scatter::builder(terrain()).with_class(class("a")).with_max_points(3).build().unwrap_err();
    assert!(tiny.to_string().starts_with("class 'a': "), "{tiny}");
    // A field that breaks its bounds stops the run with the class named.
    let liar = FnField::new(|p: &[f64; 2]| if p[0] > 5.0 { 9.0 } else { 1.0 }, 1.0, 2.0).unwrap();
    let scatter = Scatter::builder(terrain())
        .with_class(ScatterClass::from_field("liar", liar).unwrap())
        .build()
        .unwrap();
    let error = scatter.sample(1).unwrap_err();
    assert!(matches!(&error, Error::InClass { class, .. } if class == "liar"), "{error}");
    // A region that misses the terrain is a mistake, named with its class, not an empty
    // class; rules that no ground meets leave the class empty, as they may.
    let elsewhere = class("far").with_region(Ball::new([1e15, 1e15], 1.0).unwrap());
    let error = Scatter::builder(terrain()).with_class(elsewhere).build().unwrap_err();
    assert!(
        matches!(&error, Error::InClass { class, source }
        if class == "far" && matches!(**source, Error::RegionOutsideDomain { .. })),
        "{error}"
    );
    let too_high =
        class("peaks").with_rules(PlacementRules::new().with_height(50.0, 60.0).unwrap());
    let scatter = Scatter::builder(terrain()).with_class(too_high).build().unwrap();
    assert!(scatter.sample(1).unwrap().classes[0].points.is_empty());
    assert!(PlacementRules::new().with_slope(-1.0, 10.0).is_err());
    assert!(PlacementRules::new().with_slope(20.0, 10.0).is_err());
    assert!(PlacementRules::new().with_height(20.0, 10.0).is_err());
    assert!(PlacementRules::new().with_slope_radius(f64::NAN).is_err());
    assert!(Pose::new(f64::NAN, 1.0, 1.0).is_err());
    assert!(Pose::new(0.5, 0.0, 1.0).is_err());
}

#[test]
fn a_class_with_nowhere_to_stand_places_nothing() {
    let (terrain, _) = tilted_plane(0.2, 0.0, 10.0);
    let scatter = Scatter::builder(terrain)
        .with_class(ScatterClass::new("flat-only", 3.0).unwrap().with_rules(
            PlacementRules::new().with_slope(0.0, 1.0).unwrap().with_height(0.0, 5.0).unwrap(),
        ))
        .with_class(ScatterClass::new("any", 3.0).unwrap())
        .build()
        .unwrap();
    let points = scatter.sample(1).unwrap();
    assert!(points.classes[0].points.is_empty());
    assert!(!points.classes[1].points.is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random classes, overrides and pair rules on random hills: every distance holds.
    #[test]
    fn random_scenes_keep_every_distance(
        seed in 0u64..1000,
        radii in proptest::collection::vec(1.0f64..6.0, 1..4),
        growth in 0.0f64..2.0,
        override_distance in proptest::option::of(0.5f64..10.0),
        rule in 0usize..3,
    ) {
        let terrain = Terrain::from_image_rows(12, 10, hills(12, 10), [60.0, 50.0], 20.0).unwrap();
        let rule = [poisson_nd::PairRule::Max, poisson_nd::PairRule::Min, poisson_nd::PairRule::Mean][rule];
        let mut builder = Scatter::builder(terrain).with_pair_rule(rule);
        for (i, &r) in radii.iter().enumerate() {
            let rules = PlacementRules::new().with_slope_radius(if i == 0 { growth } else { 0.0 }).unwrap();
            builder = builder.with_class(ScatterClass::new(format!("c{i}"), r).unwrap().with_rules(rules));
        }
        if let (Some(d), true) = (override_distance, radii.len() > 1) {
            builder = builder.with_distance("c0", "c1", d);
        }
        let scatter = builder.build().unwrap();
        let points = scatter.sample(seed).unwrap();
        assert_distances(&scatter, &points);
        prop_assert!(points.classes.iter().all(|c| !c.points.is_empty()) || radii.len() > 1);
    }
}
