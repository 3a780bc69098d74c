//! Bad input gets a clear error naming the problem: never a panic, never a hang.

use poisson_nd::{Bridson, DartThrowing, Domain, Error, FillSampler, Sampler, WhiteNoise};

fn unit2() -> Domain<2> {
    Domain::unit()
}

#[test]
fn radius_must_be_finite_and_positive() {
    for r in [0.0, -0.1, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let err = Bridson::new(unit2(), r).expect_err("bad radius accepted");
        assert!(matches!(err, Error::InvalidRadius(_)), "{r}: {err:?}");
        assert!(err.to_string().contains("radius"), "{err}");
    }
}

#[test]
fn empty_or_inverted_boxes_are_rejected() {
    for side in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let err =
            Domain::from_origin_and_extent([0.0, 0.0], [1.0, side]).expect_err("bad side accepted");
        assert!(matches!(err, Error::InvalidExtent { axis: 1, .. }), "{side}: {err:?}");
        assert!(err.to_string().contains("box side 1"), "{err}");
    }
    // A side below the float spacing at the origin is empty too.
    let err = Domain::from_origin_and_extent([1e20], [1.0]).expect_err("empty box accepted");
    assert!(matches!(err, Error::InvalidExtent { axis: 0, .. }), "{err:?}");
}

#[test]
fn origins_must_be_finite_and_boxes_must_not_overflow() {
    let err = Domain::from_origin_and_extent([f64::NAN, 0.0], [1.0, 1.0])
        .expect_err("NaN origin accepted");
    assert!(matches!(err, Error::InvalidOrigin { axis: 0, .. }), "{err:?}");
    let err = Domain::from_origin_and_extent([f64::MAX], [f64::MAX])
        .expect_err("overflowing box accepted");
    assert!(matches!(err, Error::BoxOverflow { axis: 0 }), "{err:?}");
}

#[test]
fn zero_dimension_is_rejected() {
    // `Domain::<0>::unit()` does not compile; the fallible constructors say why.
    assert_eq!(Domain::<0>::from_origin_and_extent([], []), Err(Error::ZeroDimension));
    assert_eq!(Domain::<0>::from_corners([], []), Err(Error::ZeroDimension));
}

#[test]
fn corners_and_origin_with_extent_give_the_same_box() {
    let by_extent = Domain::from_origin_and_extent([-1.5, 2.0, 0.0], [3.0, 0.25, 8.0]);
    let by_corners = Domain::from_corners([-1.5, 2.0, 0.0], [1.5, 2.25, 8.0]);
    assert_eq!(by_extent.expect("valid"), by_corners.expect("valid"));
    assert_eq!(Domain::from_corners([0.0; 4], [1.0; 4]), Ok(Domain::<4>::unit()));
    assert_eq!(Domain::<2>::unit().extent(), &[1.0, 1.0]);
}

#[test]
fn corners_must_be_finite_and_ordered() {
    for upper in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let err = Domain::from_corners([0.0, 0.0], [1.0, upper]).expect_err("bad corner");
        assert!(matches!(err, Error::InvalidCorners { axis: 1, .. }), "{upper}: {err:?}");
        assert!(err.to_string().contains("upper corner"), "{err}");
    }
    let err = Domain::from_corners([f64::NAN], [1.0]).expect_err("NaN corner accepted");
    assert!(matches!(err, Error::InvalidOrigin { axis: 0, .. }), "{err:?}");
    let err = Domain::from_corners([-f64::MAX], [f64::MAX]).expect_err("overflow accepted");
    assert!(matches!(err, Error::InvalidExtent { axis: 0, .. }), "{err:?}");
}

#[test]
fn slices_must_match_the_dimension() {
    let err = Domain::<3>::from_origin_and_extent_slices(&[0.0; 3], &[1.0, 1.0])
        .expect_err("short box accepted");
    assert_eq!(err, Error::DimensionMismatch { what: "box", expected: 3, got: 2 });
    assert_eq!(err.to_string(), "box has 2 values but the dimension is 3");
    let err = Domain::<2>::from_origin_and_extent_slices(&[0.0; 3], &[1.0; 2])
        .expect_err("long origin accepted");
    assert_eq!(err, Error::DimensionMismatch { what: "origin", expected: 2, got: 3 });
}

#[test]
fn zero_attempts_are_rejected() {
    let err = Bridson::builder(unit2(), 0.1).with_attempts(0).build().expect_err("k = 0");
    assert!(matches!(err, Error::ZeroCount(_)), "{err:?}");
    assert!(err.to_string().starts_with("k "), "{err}");
}

#[test]
fn a_radius_too_small_for_the_box_names_points_and_bytes() {
    let err = Bridson::new(unit2(), 1e-6).expect_err("1e12 points accepted");
    let Error::TooManyPoints { estimated_points, estimated_bytes, limit, .. } = err else {
        panic!("wrong error {err:?}")
    };
    assert!(estimated_points > 1e12 && estimated_points < 1e13, "{estimated_points}");
    assert!(estimated_bytes > estimated_points * 16.0, "{estimated_bytes}");
    assert_eq!(limit, poisson_nd::defaults::MAX_POINTS);
    let message = err.to_string();
    assert!(message.contains("points") && message.contains("bytes"), "{message}");
    // The command line prints it as is: it names the setting, not a method.
    assert!(message.contains("raise the point limit") && !message.contains('`'), "{message}");

    // The limit is adjustable both ways.
    let big = Bridson::new(unit2(), 1e-3).expect("default limit fits a million points");
    assert!(big.to_builder().with_max_points(1000).build().is_err());
    assert!(big.to_builder().with_max_points(10_000_000).build().is_ok());
    let err = Bridson::new(Domain::<8>::unit(), 1e-3).expect_err("8D, tiny r");
    assert!(matches!(err, Error::TooManyPoints { .. }), "{err:?}");
}

#[test]
fn a_raised_limit_admits_a_radius_the_default_refuses() {
    // The limit is set before the radius is checked against it, so the advice in the
    // error can be followed.
    let r = 1e-4;
    assert!(matches!(Bridson::new(unit2(), r), Err(Error::TooManyPoints { .. })));
    let raised = Bridson::builder(unit2(), r).with_max_points(200_000_000).build();
    assert_eq!(raised.expect("raised limit").max_points(), 200_000_000);
    assert!(matches!(DartThrowing::new(unit2(), r), Err(Error::TooManyPoints { .. })));
    let darts = DartThrowing::builder(unit2(), r).with_max_points(200_000_000).build();
    assert_eq!(darts.expect("raised limit").max_points(), 200_000_000);
    // Each check runs once, in `build`, whatever order the settings came in.
    let err = Bridson::builder(unit2(), r).with_max_points(0).build().expect_err("limit 0");
    assert_eq!(err, Error::ZeroCount("max_points"));
}

#[test]
fn point_limits_stop_the_run_and_say_so() {
    let noise = WhiteNoise::new(unit2()).with_max_points(10).expect("valid");
    let set = noise.sample_seeded(usize::MAX, 1);
    assert_eq!(set.len(), 10);
    assert_eq!(set.stop, poisson_nd::StopReason::PointLimit);
    assert!(WhiteNoise::new(unit2()).with_max_points(0).is_err());
}

#[test]
fn extreme_but_valid_inputs_terminate() {
    // A radius far larger than the box: one point, the active list empties at once.
    let set = Bridson::new(unit2(), 1e6).expect("valid").fill_seeded(3);
    assert_eq!(set.len(), 1);
    // A box far from the origin and thinner than r: few shell candidates land inside, so
    // Bridson ends early (a known property of the algorithm), but it ends.
    let domain = Domain::from_origin_and_extent([1e9, -1e9], [1e-3, 10.0]).expect("valid");
    let set = Bridson::new(domain, 0.01).expect("valid").fill_seeded(3);
    assert!(!set.is_empty());
    assert!(set.points.iter().all(|p| domain.contains(p)));
}
