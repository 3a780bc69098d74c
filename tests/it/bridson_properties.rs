//! Property tests over random boxes, origins, radii and seeds: Bridson's invariants hold for
//! every configuration, checked against a brute-force oracle.

use poisson_nd::{Bridson, Domain, FillSampler, FrontOrder, Sampler, WhiteNoise};
use proptest::prelude::*;
use testkit::oracle::close_pair;

/// A box with an origin anywhere in ±1000 and sides spanning two orders of magnitude,
/// and a radius between 1/40 and 1/3 of the shortest side (so a few to a few thousand points).
fn config<const D: usize>() -> impl Strategy<Value = (Domain<D>, f64, u64)> {
    (
        prop::array::uniform(-1000.0..1000.0f64).prop_map(|o: [f64; D]| o),
        prop::array::uniform(0.1..10.0f64).prop_map(|e: [f64; D]| e),
        0.0..1.0f64,
        any::<bool>(),
        any::<u64>(),
    )
        .prop_map(|(origin, extent, t, periodic, seed)| {
            let domain = Domain::from_origin_and_extent(origin, extent).expect("valid box");
            let shortest = extent.iter().copied().fold(f64::INFINITY, f64::min);
            let longest = extent.iter().copied().fold(0.0, f64::max);
            // Keep the count modest: the radius also follows the longest side.
            let radius = (shortest / 40.0 + t * shortest / 3.0).max(longest / 60.0);
            (if periodic { domain.periodic() } else { domain }, radius, seed)
        })
}

/// Both orders of the front keep every invariant.
fn bridson_invariants<const D: usize>(domain: Domain<D>, radius: f64, seed: u64) {
    for order in [FrontOrder::Uniform, FrontOrder::Recent] {
        let sampler = Bridson::builder(domain, radius)
            .with_front_order(order)
            .build()
            .expect("valid configuration");
        let set = sampler.fill_seeded(seed);
        assert!(!set.is_empty());
        for p in &set.points {
            assert!(domain.contains(p), "{order:?}: {p:?} outside {domain:?}");
        }
        let pair = close_pair(&domain, &set.points, radius);
        assert!(pair.is_none(), "{order:?}: pair closer than {radius} in {domain:?}: {pair:?}");
        assert_eq!(set.points, sampler.fill_seeded(seed).points, "{order:?}: not deterministic");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn bridson_2d((domain, radius, seed) in config::<2>()) {
        bridson_invariants(domain, radius, seed);
    }

    #[test]
    fn bridson_3d((domain, radius, seed) in config::<3>()) {
        bridson_invariants(domain, radius, seed);
    }

    #[test]
    fn bridson_5d((domain, radius, seed) in config::<5>()) {
        bridson_invariants(domain, radius.max(domain.extent().iter().copied().fold(0.0, f64::max) / 6.0), seed);
    }

    #[test]
    fn white_noise_stays_inside((domain, _radius, seed) in config::<3>(), n in 0usize..500) {
        let set = WhiteNoise::new(domain).sample_seeded(n, seed);
        prop_assert_eq!(set.len(), n);
        prop_assert!(set.points.iter().all(|p| domain.contains(p)));
    }

    #[test]
    fn wrap_lands_inside_the_torus(
        (domain, _radius, _seed) in config::<2>(),
        offset in prop::array::uniform2(-1e4..1e4f64),
    ) {
        let torus = domain.periodic();
        let p = [domain.origin()[0] + offset[0], domain.origin()[1] + offset[1]];
        let wrapped = torus.wrap(&p).expect("finite points wrap");
        prop_assert!(torus.contains(&wrapped), "{:?} -> {:?}", p, wrapped);
        // The image is the same point on the torus (up to rounding of the shift).
        let scale = 1e-9 * (1.0 + offset[0].abs() + offset[1].abs());
        for i in 0..2 {
            let turns = (p[i] - wrapped[i]) / domain.extent()[i];
            prop_assert!((turns - turns.round()).abs() * domain.extent()[i] < scale);
        }
    }
}

mod radius_fields {
    //! Random boxes, radius bounds, pair rules and fields: every pair keeps its rule, every
    //! radius is the field's value; gridded fields stay within their values.

    use super::config;
    use poisson_nd::field::{FnField, GriddedField, PairRule, RadiusField};
    use poisson_nd::{
        Bridson, DartThrowing, Domain, FillSampler, FrontOrder, GridResolution, PointSet,
    };
    use proptest::prelude::*;

    fn rule() -> impl Strategy<Value = PairRule> {
        prop_oneof![Just(PairRule::Max), Just(PairRule::Min), Just(PairRule::Mean)]
    }

    /// A field with a random ratio (1 to 8), waviness and phase, in rmin's units.
    fn wavy_field<const D: usize>(
        rmin: f64,
        ratio: f64,
        waves: f64,
        phase: f64,
    ) -> FnField<impl Fn(&[f64; D]) -> f64 + Send + Sync + Clone> {
        let rmax = rmin * ratio;
        let f = move |p: &[f64; D]| {
            let s: f64 = p.iter().sum::<f64>() * waves / rmin + phase;
            (rmin + (rmax - rmin) * (0.5 + 0.5 * s.sin())).clamp(rmin, rmax)
        };
        FnField::new(f, rmin, rmax).expect("valid bounds")
    }

    fn check<const D: usize>(set: &PointSet<D>, field: &dyn RadiusField<D>, rule: PairRule) {
        let radii = set.radii.as_ref().expect("radii");
        for (p, r) in set.points.iter().zip(radii) {
            assert!(set.domain.contains(p), "{p:?}");
            assert_eq!(field.radius(p), *r);
        }
        for i in 0..set.len() {
            for j in i + 1..set.len() {
                let d2 = set.domain.distance_squared(&set.points[i], &set.points[j]);
                let s = rule.distance(radii[i], radii[j]);
                assert!(d2 >= s * s, "{:?} {:?} {rule}", set.points[i], set.points[j]);
            }
        }
    }

    fn field_invariants<const D: usize>(
        domain: Domain<D>,
        radius: f64,
        seed: u64,
        (ratio, waves, phase, rule): (f64, f64, f64, PairRule),
    ) {
        // rmin at the constant tests' radius keeps the count (and the brute force) modest.
        let field = wavy_field::<D>(radius, ratio, waves, phase);
        for order in [FrontOrder::Uniform, FrontOrder::Recent] {
            let bridson = Bridson::builder_with_field(domain, field.clone())
                .with_pair_rule(rule)
                .with_front_order(order)
                .build()
                .expect("valid");
            check(&bridson.fill_seeded(seed), &field, rule);
        }
        let darts = DartThrowing::builder_with_field(domain, field.clone())
            .with_pair_rule(rule)
            .with_grid(GridResolution::Coarse)
            .with_max_misses(200)
            .build()
            .expect("valid");
        check(&darts.fill_seeded(seed), &field, rule);
    }

    fn shape() -> impl Strategy<Value = (f64, f64, f64, PairRule)> {
        (1.0..8.0f64, 0.0..2.0f64, 0.0..6.3f64, rule())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

        #[test]
        fn fields_2d((domain, radius, seed) in config::<2>(), field in shape()) {
            field_invariants(domain, radius, seed, field);
        }

        #[test]
        fn fields_3d((domain, radius, seed) in config::<3>(), field in shape()) {
            field_invariants(domain, radius, seed, field);
        }

        #[test]
        fn gridded_values_stay_between_the_extremes(
            values in prop::collection::vec(-10.0..10.0f64, 12),
            p in prop::array::uniform3(-3.0..3.0f64),
        ) {
            let domain = Domain::from_origin_and_extent([-1.0, 0.0, 0.5], [2.0, 1.5, 0.25])
                .expect("valid");
            let grid = GriddedField::new(&domain, [3, 2, 2], values.clone()).expect("valid");
            let v = grid.value(&p);
            let (lo, hi) = grid.value_range();
            prop_assert!(lo <= v && v <= hi, "{} outside [{}, {}]", v, lo, hi);
            // At every centre the field is its value.
            for k0 in 0..3 {
                for k1 in 0..2 {
                    for k2 in 0..2 {
                        let centre = [
                            -1.0 + (k0 as f64 + 0.5) * 2.0 / 3.0,
                            (k1 as f64 + 0.5) * 0.75,
                            0.5 + (k2 as f64 + 0.5) * 0.125,
                        ];
                        let expected = values[k0 * 4 + k1 * 2 + k2];
                        prop_assert!((grid.value(&centre) - expected).abs() < 1e-12);
                    }
                }
            }
        }
    }
}
