//! The conformance suite: every sampler × D = 1..=8, closed and periodic boxes.
//!
//! A sampler joins with one line `conformance!(module, factory, n = ..., exact_count = ...)`
//! where `factory::<D>(domain)` builds it for a test domain. Checks:
//! n = 0 and n = 1; every point inside the domain; same seed → identical output (also through
//! `Box<dyn DynSampler>`); different seeds → different output; exactly `n` points where the
//! sampler promises it; and, where the sampler promises a minimum distance, the exact
//! minimum pairwise distance (brute force, toroidal when periodic) is at least that.

mod common;

use common::{awkward_box, close_pair, radius_for_about};
use poisson_nd::{Bridson, Domain, DynSampler, Sampler, StopReason, WhiteNoise};

/// Runs every check for one sampler in one domain.
fn check<const D: usize, S: Sampler<D> + 'static>(sampler: S, n: usize, exact_count: bool) {
    let domain = *sampler.domain();
    let label = format!("{} D={D} periodic={}", sampler.name(), domain.is_periodic());

    let empty = sampler.sample_seeded(0, 1);
    assert!(empty.is_empty(), "{label}: n = 0 gave points");
    assert_eq!(empty.stop, StopReason::TargetReached, "{label}");

    let one = sampler.sample_seeded(1, 1);
    assert_eq!(one.len(), 1, "{label}: n = 1");
    assert!(domain.contains(&one.points[0]), "{label}: {:?} outside", one.points[0]);

    let a = sampler.sample_seeded(n, 11);
    assert!(a.len() >= 2, "{label}: only {} points", a.len());
    if exact_count {
        assert_eq!(a.len(), n, "{label}: count");
        assert_eq!(a.stop, StopReason::TargetReached, "{label}");
    } else {
        assert!(a.len() <= n, "{label}: more than n points");
    }
    assert!(a.attempts >= a.len() as u64, "{label}: attempts below points");
    for p in &a.points {
        assert!(domain.contains(p), "{label}: {p:?} outside {domain:?}");
    }
    assert_eq!(a.domain, domain, "{label}: point set carries another domain");

    let again = sampler.sample_seeded(n, 11);
    assert_eq!(a.points, again.points, "{label}: same seed, different output");
    let boxed: Box<dyn DynSampler<D>> = Box::new(sampler);
    let through_dyn = boxed.sample_seeded(n, 11);
    assert_eq!(a.points, through_dyn.points, "{label}: dyn mirror differs");

    let other = boxed.sample_seeded(n, 12);
    assert_ne!(a.points, other.points, "{label}: different seeds, same output");

    if let Some(r) = boxed.min_distance() {
        let pair = close_pair(&domain, &a.points, r);
        assert!(pair.is_none(), "{label}: pair closer than r = {r}: {pair:?}");
    }
}

macro_rules! conformance {
    ($module:ident, $factory:ident, n = $n:expr, exact_count = $exact:expr) => {
        mod $module {
            use super::*;

            fn run<const D: usize>() {
                let closed = awkward_box::<D>();
                check(super::$factory::<D>(closed), $n, $exact);
                check(super::$factory::<D>(closed.periodic()), $n, $exact);
                let unit = Domain::<D>::unit().expect("unit box");
                check(super::$factory::<D>(unit.periodic()), $n, $exact);
            }

            #[test]
            fn d1() {
                run::<1>();
            }
            #[test]
            fn d2() {
                run::<2>();
            }
            #[test]
            fn d3() {
                run::<3>();
            }
            #[test]
            fn d4() {
                run::<4>();
            }
            #[test]
            fn d5() {
                run::<5>();
            }
            #[test]
            fn d6() {
                run::<6>();
            }
            #[test]
            fn d7() {
                run::<7>();
            }
            #[test]
            fn d8() {
                run::<8>();
            }
        }
    };
}

// ---- the samplers -------------------------------------------------------------------------

fn bridson<const D: usize>(domain: Domain<D>) -> Bridson<D> {
    Bridson::new(domain, radius_for_about(&domain, 400.0)).expect("valid Bridson")
}
conformance!(bridson_suite, bridson, n = usize::MAX, exact_count = false);

fn white_noise<const D: usize>(domain: Domain<D>) -> WhiteNoise<D> {
    WhiteNoise::new(domain)
}
conformance!(white_noise_suite, white_noise, n = 300, exact_count = true);
