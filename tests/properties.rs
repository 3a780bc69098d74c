//! Property tests over random boxes, origins, radii and seeds: Bridson's invariants hold for
//! every configuration, checked against a brute-force oracle.

mod common;

use common::close_pair;
use poisson_nd::{Bridson, Domain, FillSampler, Sampler, WhiteNoise};
use proptest::prelude::*;

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

fn bridson_invariants<const D: usize>(domain: Domain<D>, radius: f64, seed: u64) {
    let sampler = Bridson::new(domain, radius).expect("valid configuration");
    let set = sampler.fill_seeded(seed);
    assert!(!set.is_empty());
    for p in &set.points {
        assert!(domain.contains(p), "{p:?} outside {domain:?}");
    }
    let pair = close_pair(&domain, &set.points, radius);
    assert!(pair.is_none(), "pair closer than {radius} in {domain:?}: {pair:?}");
    assert_eq!(set.points, sampler.fill_seeded(seed).points, "not deterministic");
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
