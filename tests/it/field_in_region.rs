//! A radius field inside a region: every pair keeps the pair rule (brute force), every point
//! is inside, each point's radius is the field's, every island of a multipolygon is reached
//! and the restart scan covers with the field's own radius; the same for Bridson and both
//! dart throwings, in 2D and 3D.

use crate::shapes;
use poisson_nd::field::{FnField, PairRule, RadiusField};
use poisson_nd::region::Ball;
use poisson_nd::{
    Bridson, DartThrowing, Domain, FillSampler, GridResolution, Point, PointSet, Region, StopReason,
};
use std::sync::Arc;

/// Each sampler that takes both a field and a region, filled once with `seed`.
fn fills<const D: usize>(
    domain: Domain<D>,
    field: &Arc<dyn RadiusField<D>>,
    rule: PairRule,
    region: &Arc<dyn Region<D>>,
    seed: u64,
) -> Vec<(&'static str, PointSet<D>)> {
    let bridson = Bridson::builder_with_field(domain, Arc::clone(field))
        .with_pair_rule(rule)
        .with_region(Arc::clone(region))
        .build()
        .unwrap();
    let darts = DartThrowing::builder_with_field(domain, Arc::clone(field))
        .with_pair_rule(rule)
        .with_max_misses(2_000)
        .with_region(Arc::clone(region))
        .build()
        .unwrap();
    let darts_grid = darts.to_builder().with_grid(GridResolution::Coarse).build().unwrap();
    vec![
        ("bridson", bridson.fill_seeded(seed)),
        ("dart-throwing", darts.fill_seeded(seed)),
        ("dart-throwing-grid", darts_grid.fill_seeded(seed)),
    ]
}

/// Every invariant of a field run in a region, by brute force.
fn check<const D: usize>(
    what: &str,
    domain: &Domain<D>,
    field: &dyn RadiusField<D>,
    rule: PairRule,
    region: &dyn Region<D>,
    set: &PointSet<D>,
) {
    assert!(set.stop != StopReason::InvalidField, "{what}: {:?}", set.field_error);
    let radii = set.radii.as_ref().expect("a field run has radii");
    assert_eq!(radii.len(), set.len(), "{what}");
    for (i, p) in set.points.iter().enumerate() {
        assert!(region.contains(p), "{what}: {p:?} is outside");
        assert_eq!(radii[i].to_bits(), field.radius(p).to_bits(), "{what}: radius of {p:?}");
        for j in i + 1..set.len() {
            let d = domain.distance_squared(p, &set.points[j]).sqrt();
            let s = rule.distance(radii[i], radii[j]);
            assert!(d >= s, "{what}: {p:?} and {:?} are {d} apart, rule {s}", set.points[j]);
        }
    }
}

#[test]
fn field_runs_in_2d_regions_keep_every_rule() {
    let domain = Domain::<2>::unit();
    // Fine on the left, coarse on the right, with a ripple.
    let field: Arc<dyn RadiusField<2>> = Arc::new(
        FnField::new(
            |p: &Point<2>| 0.012 + 0.03 * p[0] + 0.004 * (17.0 * p[1]).sin(),
            0.008,
            0.046,
        )
        .unwrap(),
    );
    let regions: Vec<(&str, Arc<dyn Region<2>>)> = vec![
        ("polygon-with-hole", Arc::new(shapes::polygon_with_hole())),
        ("islands", Arc::new(shapes::islands())),
        ("annulus", Arc::new(shapes::annulus(0.05))),
    ];
    for (name, region) in &regions {
        for rule in [PairRule::Max, PairRule::Min, PairRule::Mean] {
            for (sampler, set) in fills(domain, &field, rule, region, 5) {
                let what = format!("{sampler} in {name} under {rule}");
                check(&what, &domain, &*field, rule, &**region, &set);
                if *name == "islands" {
                    let mut per_island = [0usize; 12];
                    for p in &set.points {
                        per_island[shapes::island_of(p)] += 1;
                    }
                    assert!(per_island.iter().all(|&k| k > 0), "{what}: {per_island:?}");
                }
            }
        }
    }
}

#[test]
fn field_runs_in_3d_regions_keep_every_rule() {
    let domain = Domain::from_origin_and_extent([-1.0, -1.0, -1.0], [2.0, 2.0, 2.0]).unwrap();
    let field: Arc<dyn RadiusField<3>> =
        Arc::new(FnField::new(|p: &Point<3>| 0.1 + 0.08 * (p[2] + 1.0) / 2.0, 0.1, 0.18).unwrap());
    let regions: Vec<(&str, Arc<dyn Region<3>>)> = vec![
        ("ball", Arc::new(Ball::new([0.0, 0.0, 0.0], 0.8).unwrap())),
        ("torus-mesh", Arc::new(shapes::torus_mesh(0.6, 0.25, 24, 12))),
    ];
    for (name, region) in &regions {
        for rule in [PairRule::Max, PairRule::Mean] {
            for (sampler, set) in fills(domain, &field, rule, region, 2) {
                let what = format!("{sampler} in {name} under {rule}");
                check(&what, &domain, &*field, rule, &**region, &set);
                assert!(set.len() > 20, "{what}: only {} points", set.len());
            }
        }
    }
}

/// After a field run in a region, no probe of the region is free: a point of the field's own
/// radius there would conflict with a sample, except within a cell of the scan near the
/// boundary (the scan looks at a lattice of probes per straddling cell).
#[test]
fn the_restart_scan_covers_with_the_fields_radius() {
    let domain = Domain::<2>::unit();
    let field: Arc<dyn RadiusField<2>> =
        Arc::new(FnField::new(|p: &Point<2>| 0.01 + 0.03 * p[1], 0.01, 0.04).unwrap());
    let region: Arc<dyn Region<2>> = Arc::new(shapes::polygon_with_hole());
    let set = &fills(domain, &field, PairRule::Max, &region, 11)[0].1;
    let radii = set.radii.as_ref().unwrap();
    let mut rng = poisson_nd::rng::rng_from_seed(1);
    let (mut probes, mut free) = (0, 0);
    while probes < 20_000 {
        let x = domain.uniform_point(&mut rng);
        // Deep inside: a disc of radius rmin around x lies in the region.
        let deep = (0..16).all(|j| {
            let t = j as f64 * std::f64::consts::TAU / 16.0;
            region.contains(&[x[0] + 0.01 * t.cos(), x[1] + 0.01 * t.sin()])
        });
        if !deep {
            continue;
        }
        probes += 1;
        let r = field.radius(&x);
        // Covered within twice the rule distance, as Bridson covers a box.
        let covered = set.points.iter().zip(radii).any(|(p, &rp)| {
            domain.distance_squared(p, &x).sqrt() < 2.0 * PairRule::Max.distance(r, rp)
        });
        if !covered {
            free += 1;
        }
    }
    assert_eq!(free, 0, "{free} of {probes} deep probes are farther than 2·rule from a sample");
}
