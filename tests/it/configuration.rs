//! The one configuration: every sampler refuses, by name, each shared setting it does not
//! take ([`Capabilities`]), accepts each one it takes, and rebuilds from `to_builder` to the
//! same points.

use poisson_nd::field::{ConstantField, FnField};
use poisson_nd::region::Ball;
use poisson_nd::{
    BestCandidate, Bridson, Builder, Capabilities, DartThrowing, Domain, Error, GridResolution,
    Halton, JitteredGrid, Maximal, SampleElimination, Sampler, Tuning, WhiteNoise,
};

/// The unit square, closed or periodic.
fn square(periodic: bool) -> Domain<2> {
    let unit = Domain::unit();
    if periodic { unit.periodic() } else { unit }
}

type Setting<O> = (&'static str, fn(Builder<2, O>) -> Builder<2, O>);

/// Each shared setting that a sampler may not take, applied to a builder.
fn settings<O>() -> Vec<Setting<O>> {
    vec![
        ("field", |b| b.with_radius_field(FnField::new(|_: &[f64; 2]| 0.05, 0.04, 0.06).unwrap())),
        ("region", |b| b.with_region(Ball::new([0.5; 2], 0.4).unwrap())),
        ("attempts", |b| b.with_attempts(12)),
        ("grid", |b| b.with_grid(GridResolution::Fine)),
        ("tuning", |b| b.with_tuning(Tuning::default().with_dense_grid_limit(1 << 20))),
    ]
}

/// Whether the capabilities say the sampler takes the named setting.
fn takes(capabilities: &Capabilities, setting: &str) -> bool {
    match setting {
        "field" => capabilities.field,
        "region" => capabilities.region,
        "attempts" => capabilities.attempts,
        "grid" | "tuning" => capabilities.grid,
        _ => unreachable!("unknown setting {setting}"),
    }
}

/// Checks one sampler: `builder(periodic)` makes its builder with the defaults.
macro_rules! check_sampler {
    ($name:literal, $sampler:ty, $builder:expr) => {{
        let capabilities = <$sampler>::CAPABILITIES;
        let builder = $builder;
        for (setting, apply) in settings() {
            let built = apply(builder(false)).build();
            if takes(&capabilities, setting) {
                assert!(built.is_ok(), "{}: {setting} refused: {:?}", $name, built.err());
            } else {
                match built {
                    Err(Error::Unsupported { sampler, what }) => {
                        assert_eq!(sampler, $name);
                        assert!(!what.is_empty());
                    }
                    other => panic!("{}: {setting} not refused: {:?}", $name, other.err()),
                }
            }
        }
        // A periodic box.
        let built = builder(true).build();
        assert_eq!(built.is_ok(), capabilities.periodic, "{}: periodic", $name);
        // The built sampler's configuration builds it again, to the same points.
        let sampler = builder(false).with_max_points(5000).build().unwrap();
        let again = sampler.to_builder().build().unwrap();
        assert_eq!(
            sampler.sample_seeded(300, 9).points,
            again.sample_seeded(300, 9).points,
            "{}: to_builder",
            $name
        );
        assert_eq!(sampler.name(), $name);
    }};
}

#[test]
fn every_sampler_refuses_what_it_does_not_take_and_rebuilds_from_its_configuration() {
    check_sampler!("bridson", Bridson<2>, |p| Bridson::builder(square(p), 0.05));
    check_sampler!("dart-throwing", DartThrowing<2>, |p| DartThrowing::builder(square(p), 0.05));
    check_sampler!("maximal", Maximal<2>, |p| Maximal::builder(square(p), 0.05));
    check_sampler!("sample-elimination", SampleElimination<2>, |p| SampleElimination::builder(
        square(p)
    ));
    check_sampler!("best-candidate", BestCandidate<2>, |p| BestCandidate::builder(square(p)));
    check_sampler!("halton", Halton<2>, |p| Halton::builder(square(p)));
    check_sampler!("jittered-grid", JitteredGrid<2>, |p| JitteredGrid::builder(square(p)));
    check_sampler!("white-noise", WhiteNoise<2>, |p| WhiteNoise::builder(square(p)));
    #[cfg(feature = "chunked")]
    check_sampler!("chunked-bridson", poisson_nd::ChunkedBridson<2>, |p| {
        poisson_nd::ChunkedBridson::builder(square(p), 0.05)
    });
}

#[test]
fn a_constant_field_is_the_one_radius() {
    let plain = Bridson::new(square(false), 0.05).unwrap().sample_seeded(usize::MAX, 3);
    let constant = Bridson::builder(square(false), 0.05)
        .with_radius_field(ConstantField::new(0.05).unwrap())
        .build()
        .unwrap()
        .sample_seeded(usize::MAX, 3);
    assert_eq!(plain.points, constant.points);
    assert!(constant.radii.is_none());
}
