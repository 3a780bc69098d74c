//! Magnitudes across the whole supported range (`poisson_nd::limits`, docs/limits.md): every
//! radius-driven sampler either refuses the configuration with an error that names the value,
//! or returns points inside the box whose closest pair keeps the radius. Boxes of side 1e-99
//! to 1e99 (radii from 1.2e-100, near the smallest length, to 1.2e98), at the origin, offset,
//! and a million sides away (refused where that passes 1e100), closed and periodic.

use poisson_nd::field::FnField;
use poisson_nd::{
    Bridson, DartThrowing, Domain, Error, FillSampler, GridResolution, Maximal, PointSet,
};
use testkit::oracle::min_pair_distance;

/// Checks a run's promise: inside the box, closest pair at least `r` (relative rounding of
/// the distance computation allowed), and some points.
fn assert_kept(what: &str, domain: &Domain<2>, set: &PointSet<2>, r: f64) {
    assert!(set.len() >= 2, "{what}: {} points", set.len());
    assert!(set.points.iter().all(|p| domain.contains(p)), "{what}: a point outside");
    let closest = min_pair_distance(domain, &set.points);
    assert!(closest >= r * (1.0 - 1e-12), "{what}: closest pair {closest:e} < r = {r:e}");
}

/// The boxes: side `s`, at the origin, offset by a fraction of the side, and far out (a
/// million sides from the origin).
fn boxes(s: f64) -> Vec<Domain<2>> {
    [[0.0, 0.0], [-0.3 * s, 0.45 * s], [1e6 * s, -2e6 * s]]
        .into_iter()
        .filter_map(|origin| Domain::from_origin_and_extent(origin, [s, s]).ok())
        .collect()
}

#[test]
fn every_radius_driven_sampler_keeps_its_radius_or_refuses_across_the_range() {
    for exponent in [-99, -60, -20, 0, 20, 60, 99] {
        let s: f64 = format!("1e{exponent}").parse().unwrap();
        let domains = boxes(s);
        assert!(!domains.is_empty(), "no box of side 1e{exponent}");
        for domain in domains {
            for torus in [false, true] {
                let domain = if torus { domain.periodic() } else { domain };
                let r = 0.12 * s;
                let what =
                    format!("side 1e{exponent}, origin {:?}, torus {torus}", domain.origin());
                let bridson = Bridson::new(domain, r).unwrap().fill_seeded(1);
                assert_kept(&format!("bridson, {what}"), &domain, &bridson, r);
                let darts = DartThrowing::builder(domain, r)
                    .with_grid(GridResolution::Coarse)
                    .build()
                    .unwrap()
                    .fill_seeded(2);
                assert_kept(&format!("dart throwing, {what}"), &domain, &darts, r);
                let maximal = Maximal::new(domain, r).unwrap().fill_seeded(3);
                assert_kept(&format!("maximal, {what}"), &domain, &maximal, r);
                #[cfg(feature = "chunked")]
                {
                    // Smaller, so that a torus holds two chunks (never below the range).
                    let rc = (0.02 * s).max(poisson_nd::limits::MIN_LENGTH);
                    let chunked = poisson_nd::ChunkedBridson::builder(domain, rc)
                        .with_threads(1)
                        .build()
                        .unwrap()
                        .fill_seeded(4);
                    assert_kept(&format!("chunked, {what}"), &domain, &chunked, rc);
                }
                #[cfg(feature = "live")]
                {
                    let mut live = poisson_nd::PoissonSet::new(domain, r).unwrap();
                    live.fill_all(&mut poisson_nd::rng::rng_from_seed(5)).unwrap();
                    let points: Vec<_> = live.iter().map(|(_, p)| *p).collect();
                    let set = PointSet::new(points, domain, poisson_nd::StopReason::Exhausted, 0);
                    assert_kept(&format!("live set, {what}"), &domain, &set, r);
                }
                if !torus {
                    // A radius field from 0.11 s to 0.2 s: every pair keeps at least rmin.
                    let (lo, hi) = (0.11 * s, 0.2 * s);
                    let origin = domain.origin()[0];
                    let field = FnField::new(
                        move |p: &[f64; 2]| lo + (hi - lo) * ((p[0] - origin) / s),
                        lo,
                        hi,
                    )
                    .unwrap();
                    let varied = Bridson::builder_with_field(domain, field).build().unwrap();
                    assert_kept(&format!("field, {what}"), &domain, &varied.fill_seeded(6), lo);
                }
            }
        }
    }
}

#[test]
fn values_outside_the_range_are_refused_by_name() {
    let unit = Domain::<2>::unit();
    let refused = |result: Result<Bridson<2>, Error>| match result {
        Err(Error::OutOfRange { name, .. }) => name,
        other => panic!("not refused as out of range: {other:?}"),
    };
    // Radii beyond the range, or too small for the box's coordinates.
    assert_eq!(refused(Bridson::builder(unit, 1e101).build()), "the radius");
    let far = Domain::from_origin_and_extent([1e12, 0.0], [1.0, 1.0]).unwrap();
    assert_eq!(refused(Bridson::builder(far, 1e-1).build()), "the radius");
    // Boxes beyond the range: huge or subnormal sides, coordinates past 1e100.
    for (origin, extent) in [
        ([0.0, 0.0], [1e101, 1.0]),
        ([0.0, 0.0], [5e-324, 1.0]),
        ([0.0, 0.0], [1e-101, 1.0]),
        ([1e100, 0.0], [1e99, 1.0]),
        ([-1e101, 0.0], [1e100, 1.0]),
    ] {
        match Domain::from_origin_and_extent(origin, extent) {
            Err(Error::OutOfRange { .. }) => {}
            other => panic!("box {origin:?} + {extent:?} accepted: {other:?}"),
        }
    }
    // The message names the value in short form.
    let message = Bridson::builder(unit, 1e160).build().unwrap_err().to_string();
    assert_eq!(message, "the radius must be between 1e-100 and 1e100, got 1e160");
    // Field bounds.
    let field = FnField::new(|_: &[f64; 2]| 1e-120, 1e-120, 1e-110);
    assert!(matches!(field, Err(Error::OutOfRange { name: "rmin", .. })));
}
