//! The conformance suite: every sampler × D = 1..=8, closed and periodic boxes.
//!
//! A sampler joins with one line `conformance!(module, factory, n = ..., exact_count = ...)`
//! where `factory::<D>(domain)` builds it for a test domain. Checks:
//! n = 0 and n = 1; every point inside the domain; same seed → identical output (also through
//! `Box<dyn DynSampler>`); different seeds → different output; exactly `n` points where the
//! sampler promises it; and, where the sampler promises a minimum distance, the exact
//! minimum pairwise distance (brute force, toroidal when periodic) is at least that.
//!
//! A deterministic sampler, which never reads the generator, skips "different seeds →
//! different output" explicitly with `seed_dependent = false, reason = "..."`; it is then
//! checked for the opposite, that every seed gives the same output.

mod common;

use common::{awkward_box, close_pair, radius_for_about};
use poisson_nd::{
    BestCandidate, Bridson, DartThrowing, Domain, DynSampler, GridResolution, Halton, JitteredGrid,
    Maximal, SampleElimination, Sampler, StopReason, WhiteNoise,
};

/// Whether a sampler's output depends on the generator.
#[derive(Debug, Clone, Copy)]
enum Seeds {
    /// Different seeds must give different output.
    Matter,
    /// The sampler is deterministic, for the reason given: every seed gives the same output.
    Ignored(&'static str),
}

/// Runs every check for one sampler in one domain.
fn check<const D: usize, S: Sampler<D> + 'static>(
    sampler: S,
    n: usize,
    exact_count: bool,
    seeds: Seeds,
) {
    let domain = *sampler.domain();
    let label = format!("{} D={D} periodic={}", sampler.label(), domain.is_periodic());

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
    match seeds {
        Seeds::Matter => {
            assert_ne!(a.points, other.points, "{label}: different seeds, same output")
        }
        Seeds::Ignored(reason) => {
            assert_eq!(a.points, other.points, "{label}: declared seed-independent ({reason})")
        }
    }

    if let Some(r) = boxed.min_distance() {
        let pair = close_pair(&domain, &a.points, r);
        assert!(pair.is_none(), "{label}: pair closer than r = {r}: {pair:?}");
    }
}

macro_rules! conformance {
    ($module:ident, $factory:ident, n = $n:expr, exact_count = $exact:expr) => {
        conformance!(@suite $module, $factory, $n, $exact, Seeds::Matter);
    };
    ($module:ident, $factory:ident, n = $n:expr, exact_count = $exact:expr,
     seed_dependent = false, reason = $reason:literal) => {
        conformance!(@suite $module, $factory, $n, $exact, Seeds::Ignored($reason));
    };
    (@suite $module:ident, $factory:ident, $n:expr, $exact:expr, $seeds:expr) => {
        mod $module {
            use super::*;

            fn run<const D: usize>() {
                let closed = awkward_box::<D>();
                check(super::$factory::<D>(closed), $n, $exact, $seeds);
                check(super::$factory::<D>(closed.periodic()), $n, $exact, $seeds);
                let unit = Domain::<D>::unit();
                check(super::$factory::<D>(unit.periodic()), $n, $exact, $seeds);
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

fn dart_throwing<const D: usize>(domain: Domain<D>) -> DartThrowing<D> {
    // Fewer misses than the default keep the suite fast; saturation is tested elsewhere.
    DartThrowing::builder(domain, radius_for_about(&domain, 400.0))
        .with_max_misses(1_000)
        .build()
        .expect("valid dart throwing")
}
conformance!(dart_throwing_suite, dart_throwing, n = usize::MAX, exact_count = false);

fn dart_throwing_grid<const D: usize>(domain: Domain<D>) -> DartThrowing<D> {
    dart_throwing(domain)
        .to_builder()
        .with_grid(GridResolution::default())
        .build()
        .expect("valid grid")
}
conformance!(dart_throwing_grid_suite, dart_throwing_grid, n = usize::MAX, exact_count = false);

fn best_candidate<const D: usize>(domain: Domain<D>) -> BestCandidate<D> {
    BestCandidate::new(domain)
}
conformance!(best_candidate_suite, best_candidate, n = 300, exact_count = true);

fn best_candidate_growing<const D: usize>(domain: Domain<D>) -> BestCandidate<D> {
    BestCandidate::new(domain).with_candidates(2).expect("m > 0").with_growing_candidates(true)
}
conformance!(best_candidate_growing_suite, best_candidate_growing, n = 150, exact_count = true);

fn halton<const D: usize>(domain: Domain<D>) -> Halton<D> {
    Halton::new(domain).expect("D <= 64")
}
conformance!(
    halton_suite,
    halton,
    n = 300,
    exact_count = true,
    seed_dependent = false,
    reason = "the plain Halton sequence is deterministic and never reads the generator"
);

fn halton_randomized<const D: usize>(domain: Domain<D>) -> Halton<D> {
    halton(domain).randomized()
}
conformance!(halton_randomized_suite, halton_randomized, n = 300, exact_count = true);

fn jittered_grid<const D: usize>(domain: Domain<D>) -> JitteredGrid<D> {
    JitteredGrid::new(domain)
}
// The count is the number of grid cells, at most n (see JitteredGrid).
conformance!(jittered_grid_suite, jittered_grid, n = 300, exact_count = false);

fn maximal<const D: usize>(domain: Domain<D>) -> Maximal<D> {
    // Few points from 5D on: a maximal set there needs hundreds of cells per point.
    let points = if D <= 4 { 400.0 } else { 30.0 };
    Maximal::new(domain, radius_for_about(&domain, points)).expect("valid maximal")
}

/// `Maximal` in D = 1..=6 only: in 7D and 8D a maximal set needs thousands of cells per point
/// and tens of seconds even at a few dozen points, too slow for this suite.
mod maximal_suite {
    use super::*;

    fn run<const D: usize>() {
        let closed = awkward_box::<D>();
        let unit = Domain::<D>::unit();
        for domain in [closed, closed.periodic(), unit.periodic()] {
            check(super::maximal::<D>(domain), usize::MAX, false, Seeds::Matter);
        }
    }

    #[test]
    fn d1_to_d3() {
        run::<1>();
        run::<2>();
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
}

fn sample_elimination<const D: usize>(domain: Domain<D>) -> SampleElimination<D> {
    SampleElimination::new(domain)
}
conformance!(sample_elimination_suite, sample_elimination, n = 300, exact_count = true);

fn sample_elimination_progressive<const D: usize>(domain: Domain<D>) -> SampleElimination<D> {
    SampleElimination::new(domain).with_ratio(3.0).expect("ratio >= 1").with_progressive(true)
}
conformance!(
    sample_elimination_progressive_suite,
    sample_elimination_progressive,
    n = 300,
    exact_count = true
);
