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
    let noise = WhiteNoise::builder(unit2()).with_max_points(10).build().expect("valid");
    let set = noise.sample_seeded(usize::MAX, 1);
    assert_eq!(set.len(), 10);
    assert_eq!(set.stop, poisson_nd::StopReason::PointLimit);
    assert!(WhiteNoise::builder(unit2()).with_max_points(0).build().is_err());
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

mod radius_fields {
    //! Radius fields: bad bounds, grids and densities are constructor errors; a field that
    //! misbehaves while sampling stops the run with a stop reason and the error, never a
    //! violated distance.

    use poisson_nd::FillStep;
    use poisson_nd::field::{
        ConstantField, DensityField, DensityMapping, FnField, GriddedField, PairRule, RadiusField,
    };
    use poisson_nd::{
        Bridson, DartThrowing, Domain, Error, FillSampler, GridResolution, Point, PointSet,
        StopReason,
    };

    const BAD_BOUNDS: [(f64, f64); 7] = [
        (0.0, 0.1),
        (-0.1, 0.1),
        (f64::NAN, 0.1),
        (0.1, f64::NAN),
        (0.2, 0.1),
        (0.1, f64::INFINITY),
        (f64::INFINITY, f64::INFINITY),
    ];

    fn is_bounds_error(result: Result<impl std::fmt::Debug, Error>) -> bool {
        match result {
            Err(err @ Error::InvalidRadiusBounds { .. }) => {
                err.to_string().contains("radius bounds must satisfy 0 < rmin <= rmax")
            }
            _ => false,
        }
    }

    #[test]
    fn bounds_must_be_positive_ordered_and_finite() {
        for (rmin, rmax) in BAD_BOUNDS {
            let what = format!("[{rmin}, {rmax}]");
            assert!(is_bounds_error(FnField::new(|_: &[f64; 2]| 0.1, rmin, rmax)), "{what}");
            let map = DensityMapping::Lerp;
            assert!(is_bounds_error(DensityField::from_fn(|_: &[f64; 2]| 0.5, map, rmin, rmax)));
            let image = GriddedField::from_image_rows(&Domain::<2>::unit(), 1, 1, vec![0.5]);
            let image = image.expect("valid image");
            assert!(is_bounds_error(DensityField::<2>::from_image(image, map, rmin, rmax)));
            let grid = GriddedField::new(&Domain::<2>::unit(), [1, 1], vec![0.5]);
            assert!(is_bounds_error(DensityField::new(grid.expect("valid"), map, rmin, rmax)));
        }
        assert!(matches!(ConstantField::new(0.0), Err(Error::InvalidRadius(_))));
        assert!(matches!(ConstantField::new(f64::NAN), Err(Error::InvalidRadius(_))));
    }

    /// A field implemented outside the library that declares whatever bounds it likes.
    #[derive(Debug)]
    struct Declared(f64, f64);
    impl RadiusField<2> for Declared {
        fn radius(&self, _: &Point<2>) -> f64 {
            self.0
        }
        fn bounds(&self) -> (f64, f64) {
            (self.0, self.1)
        }
    }

    #[test]
    fn samplers_check_the_bounds_a_field_declares() {
        let domain = Domain::<2>::unit();
        for (rmin, rmax) in BAD_BOUNDS {
            let bridson = Bridson::builder_with_field(domain, Declared(rmin, rmax)).build();
            assert!(is_bounds_error(bridson), "bridson [{rmin}, {rmax}]");
            for grid in [None, Some(GridResolution::Coarse)] {
                let mut builder = DartThrowing::builder_with_field(domain, Declared(rmin, rmax));
                if let Some(resolution) = grid {
                    builder = builder.with_grid(resolution);
                }
                assert!(is_bounds_error(builder.build()), "darts [{rmin}, {rmax}] {grid:?}");
            }
        }
        // A gridded radius field with a value ≤ 0 declares rmin ≤ 0.
        let grid = GriddedField::new(&domain, [2, 1], vec![0.0, 0.1]).expect("finite values");
        assert!(is_bounds_error(Bridson::builder_with_field(domain, grid).build()));
        // The point limit is checked at rmin, as a radius.
        let field = FnField::new(|_: &[f64; 2]| 0.5, 1e-5, 0.5).expect("valid");
        let err = Bridson::builder_with_field(domain, field).build().expect_err("too many");
        assert!(matches!(err, Error::TooManyPoints { radius: 1e-5, .. }), "{err:?}");
    }

    #[test]
    fn bounds_too_far_apart_for_a_grid_are_refused() {
        let domain = Domain::<3>::unit();
        // Cells of side √(rmin·rmax) = 0.158 and a reach of 25: about 6·10⁶ cells to search.
        let field = FnField::new(|_: &[f64; 3]| 0.5, 0.002, 25.0).expect("valid");
        let builder = Bridson::builder_with_field(domain, field).with_max_points(200_000_000);
        let err = builder.build().expect_err("ratio 12500 in 3D");
        assert!(matches!(err, Error::RadiusRatioTooLarge { .. }), "{err:?}");
        assert!(err.to_string().contains("rmax/rmin = 12500"), "{err}");
        // The naive dart thrower keeps no grid, so nothing to refuse there.
        let field = FnField::new(|_: &[f64; 3]| 0.5, 0.002, 25.0).expect("valid");
        let darts = DartThrowing::builder_with_field(domain, field).with_max_points(200_000_000);
        assert!(darts.build().is_ok());
    }

    #[test]
    fn gridded_fields_check_shape_and_values() {
        let domain = Domain::<3>::unit();
        let err = GriddedField::new(&domain, [2, 0, 2], vec![]).expect_err("empty axis");
        assert_eq!(err, Error::EmptyFieldAxis { axis: 1 });
        assert!(err.to_string().contains("axis 1 has none"), "{err}");
        let err = GriddedField::new(&domain, [2, 2, 2], vec![0.5; 7]).expect_err("7 of 8");
        assert_eq!(err, Error::FieldValueCount { shape: vec![2, 2, 2], expected: 8, got: 7 });
        assert!(err.to_string().contains("needs 8 values, got 7"), "{err}");
        let huge = GriddedField::new(&domain, [usize::MAX, 2, 2], vec![0.5]);
        assert!(matches!(huge, Err(Error::FieldValueCount { .. })), "{huge:?}");
        for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            let mut values = vec![0.5; 8];
            values[5] = bad;
            let err = GriddedField::new(&domain, [2, 2, 2], values).expect_err("non-finite");
            assert!(matches!(err, Error::InvalidFieldValue { index: 5, .. }), "{err:?}");
            assert!(err.to_string().contains("value number 5"), "{err}");
        }
    }

    #[test]
    fn images_check_size_values_and_dimension() {
        let domain = Domain::<2>::unit();
        let err = GriddedField::from_image_rows(&domain, 0, 3, vec![]).expect_err("no width");
        assert_eq!(err, Error::EmptyFieldAxis { axis: 0 });
        let err = GriddedField::from_image_rows(&domain, 3, 0, vec![]).expect_err("no height");
        assert_eq!(err, Error::EmptyFieldAxis { axis: 1 });
        let err = GriddedField::from_image_rows(&domain, 3, 2, vec![0.5; 5]).expect_err("count");
        assert_eq!(err, Error::FieldValueCount { shape: vec![3, 2], expected: 6, got: 5 });
        // A NaN at row 1, column 2 of a 3-wide image is value number 5 as given.
        let mut rows = vec![0.5; 6];
        rows[5] = f64::NAN;
        let err = GriddedField::from_image_rows(&domain, 3, 2, rows).expect_err("NaN");
        assert!(matches!(err, Error::InvalidFieldValue { index: 5, .. }), "{err:?}");
        let line = Domain::<1>::unit();
        let err = GriddedField::from_image_rows(&line, 1, 1, vec![0.5]).expect_err("1D box");
        assert!(matches!(err, Error::DimensionMismatch { expected: 2, got: 1, .. }), "{err:?}");
        let image = GriddedField::from_image_rows(&domain, 1, 1, vec![0.5]).expect("valid");
        let err = DensityField::<1>::from_image(image, DensityMapping::Lerp, 0.1, 0.2);
        assert!(matches!(err, Err(Error::DimensionMismatch { expected: 2, got: 1, .. })));
    }

    #[test]
    fn densities_must_lie_in_zero_one() {
        let domain = Domain::<2>::unit();
        for bad in [-0.01, 1.01, 2.0] {
            let grid = GriddedField::new(&domain, [2, 2], vec![0.0, 0.5, bad, 1.0]).expect("ok");
            let err = DensityField::new(grid, DensityMapping::Inverse, 0.1, 0.2).expect_err("bad");
            assert!(matches!(err, Error::InvalidFieldValue { index: 2, .. }), "{err:?}");
            assert!(err.to_string().contains("a density in [0, 1]"), "{err}");
            // An image reports the pixel as numbered in its rows.
            let rows = vec![0.0, 0.5, 1.0, bad];
            let image = GriddedField::from_image_rows(&domain, 2, 2, rows).expect("finite");
            let err = DensityField::<2>::from_image(image, DensityMapping::Lerp, 0.1, 0.2);
            assert!(matches!(err, Err(Error::InvalidFieldValue { index: 3, .. })), "{err:?}");
        }
    }

    /// A field valid on the left half and `bad` from x0 = 0.6 on.
    fn goes_bad(bad: f64) -> FnField<impl Fn(&Point<2>) -> f64 + Send + Sync + Clone> {
        FnField::new(move |p: &Point<2>| if p[0] < 0.6 { 0.05 } else { bad }, 0.05, 0.1)
            .expect("valid bounds")
    }

    /// What the caller sees: the stop reason, the error naming the value, and points so far
    /// that keep the distance.
    fn check_stopped(set: &PointSet<2>, bad: f64, what: &str) {
        assert_eq!(set.stop, StopReason::InvalidField, "{what}");
        assert_eq!(set.stop.as_str(), "invalid-field");
        let Some(Error::FieldValueOutOfBounds { point, value, rmin, rmax }) = &set.field_error
        else {
            panic!("{what}: {:?}", set.field_error);
        };
        assert!(value.to_bits() == bad.to_bits() || (value.is_nan() && bad.is_nan()), "{what}");
        assert_eq!((*rmin, *rmax), (0.05, 0.1), "{what}");
        assert!(point[0] >= 0.6, "{what}: {point:?}");
        let message = set.field_error.as_ref().map(ToString::to_string).unwrap_or_default();
        assert!(message.contains("the radius field gave"), "{message}");
        let radii = set.radii.as_ref().expect("radii");
        assert!(radii.iter().all(|&r| r == 0.05), "{what}");
        for i in 0..set.len() {
            for j in i + 1..set.len() {
                let d2 = set.domain.distance_squared(&set.points[i], &set.points[j]);
                assert!(d2 >= 0.05 * 0.05, "{what}");
            }
        }
    }

    #[test]
    fn a_field_that_misbehaves_while_sampling_stops_the_run() {
        let domain = Domain::<2>::unit();
        for bad in [f64::NAN, 0.0, -0.05, 0.04, 0.2, f64::INFINITY] {
            let what = format!("bridson, field gives {bad}");
            let bridson = Bridson::builder_with_field(domain, goes_bad(bad)).build();
            let set = bridson.expect("valid").fill_seeded(1);
            check_stopped(&set, bad, &what);
            for grid in [None, Some(GridResolution::Coarse)] {
                let mut builder = DartThrowing::builder_with_field(domain, goes_bad(bad));
                if let Some(resolution) = grid {
                    builder = builder.with_grid(resolution);
                }
                let set = builder.build().expect("valid").fill_seeded(1);
                check_stopped(&set, bad, &format!("darts {grid:?}, field gives {bad}"));
            }
        }
    }

    #[test]
    fn a_density_closure_outside_zero_one_stops_the_run() {
        let density = |p: &Point<2>| if p[0] < 0.6 { 1.0 } else { 1.5 };
        let field = DensityField::from_fn(density, DensityMapping::Lerp, 0.05, 0.1).expect("ok");
        let set = Bridson::builder_with_field(Domain::unit(), field)
            .with_pair_rule(PairRule::Min)
            .build()
            .expect("valid")
            .fill_seeded(3);
        check_stopped(&set, f64::NAN, "density 1.5");
    }

    #[test]
    fn a_run_state_reports_the_invalid_value_and_stays_stopped() {
        let sampler = Bridson::builder_with_field(Domain::<2>::unit(), goes_bad(f64::NAN))
            .build()
            .expect("valid");
        let mut fill = sampler.start_fill();
        assert!(fill.add([0.2, 0.2]));
        assert!(fill.field_error().is_none());
        // A given point where the field is NaN is not stored, and stops the run.
        assert!(!fill.add([0.8, 0.8]));
        assert!(matches!(fill.field_error(), Some(Error::FieldValueOutOfBounds { .. })));
        let mut rng = poisson_nd::rng::rng_from_seed(1);
        assert_eq!(fill.step(&mut rng), FillStep::InvalidField);
        assert_eq!(fill.run(&mut rng), StopReason::InvalidField);
        assert!(!fill.add([0.3, 0.3]));
        assert_eq!(fill.len(), 1);
        let set = fill.into_point_set();
        assert_eq!(set.stop, StopReason::InvalidField);
        assert!(set.field_error.is_some());
    }
}
