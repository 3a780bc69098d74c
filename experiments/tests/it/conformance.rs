//! The conformance suite: every sampler of the specification × D = 1..=8, closed and
//! periodic boxes.
//!
//! A sampler joins with one line `conformance!(module, spec, n = ...)`, where `spec` is its
//! [`SamplerSpec`] and `n` the count asked for (`None`: fill the box, for radius-driven
//! samplers). Checks: n = 0 and n = 1; every point inside the domain; same seed → identical
//! output, also through the object-safe mirror with a `dyn` generator; different seeds →
//! different output; exactly `n` points where the sampler promises it; and, where the
//! sampler promises a minimum distance, the exact minimum pairwise distance (brute force,
//! toroidal when periodic) is at least that.
//!
//! Explicit skips, with the reason the specification gives: a sampler with a
//! [`SamplerSpec::seed_note`] (deterministic: it never reads the generator) skips "different
//! seeds → different output" and is checked for the opposite, that every seed gives the same
//! output; one with a [`SamplerSpec::count_note`] skips "exactly n points" and is checked for
//! at most n. A suite declared `up_to_6d` runs D = 1..=6 and checks that 7D and 8D are refused
//! with an error that says why. A suite declared `torus_up_to = K` runs its periodic boxes in
//! D = 1..=K only and checks above that they are refused with an error that says why (its
//! closed box still runs in every D). A suite declared `dims_up_to = K` (PMJ02: K = 2) runs
//! D = 1..=K and checks above that the sampler is refused with an error naming the dimension.

use experiments::dims::Dim;
use experiments::spec::{
    BestCandidateParams, BridsonParams, BuildIn, ChunkedBridsonParams, DartThrowingParams,
    GaussianBlueNoiseParams, HaltonParams, IterationParams, NoParams, SampleEliminationParams,
    SamplerSpec, SequenceParams,
};
use poisson_nd::chunked::min_chunk_side;
use poisson_nd::rng::rng_from_seed;
use poisson_nd::{Domain, StopReason};
use testkit::domains::{awkward_box, radius_for_about};
use testkit::oracle::close_pair;

/// The radius the suite gives a radius-driven sampler in `domain`: about 400 of Bridson's
/// points, with exceptions that keep a run fast or possible.
fn suite_radius<const D: usize>(spec: &SamplerSpec, domain: &Domain<D>) -> f64 {
    let about = match spec {
        // A maximal set needs hundreds of cells per point from 5D on (160 in 6D): fewer
        // points keep those dimensions within a second.
        SamplerSpec::Maximal(_) if D >= 5 => 30.0,
        // The chunked fill packs far more points than Bridson in high dimensions (its seam
        // cells, most of a box smaller than one chunk, end with a scan and darts): about
        // 2,000 where Bridson has 170 in 8D. A quarter of the radius' count keeps 8D to
        // some 700 points and a fraction of a second per fill.
        SamplerSpec::ChunkedBridson(_) if D >= 8 => 100.0,
        _ => 400.0,
    };
    let radius = radius_for_about(domain, about);
    match spec {
        // A torus holds two chunks of at least `min_chunk_side` along every axis, which
        // takes a smaller radius (more points) from 3D on: about 560 points in the unit 3D
        // torus (the suite stops there: see its declaration).
        SamplerSpec::ChunkedBridson(_) if domain.is_periodic() => {
            radius.min(0.999 * largest_torus_radius(domain))
        }
        _ => radius,
    }
}

/// The largest radius at which chunked-bridson tiles the torus `domain` (two chunks of
/// `min_chunk_side` along its shortest axis; the side is proportional to the radius).
fn largest_torus_radius<const D: usize>(domain: &Domain<D>) -> f64 {
    let shortest = domain.extent().iter().copied().fold(f64::INFINITY, f64::min);
    shortest / (2.0 * min_chunk_side(D, 1.0))
}

/// The refusal of a torus too small for `spec` at the suite's usual radius: an error that
/// says why (`reason`, the declaration's, is reported when it does not).
fn refuses_torus<const D: usize>(spec: &SamplerSpec, domain: Domain<D>, reason: &str)
where
    Dim<D>: BuildIn<D>,
{
    let radius = radius_for_about(&domain, 400.0);
    assert!(radius > largest_torus_radius(&domain), "{D}D: the torus would be tiled");
    let error = spec.build(domain, Some(radius), None).err().map(|e| e.to_string());
    let error = error.unwrap_or_default();
    assert!(
        error.contains("at least two whole chunks along every axis"),
        "{} {D}D torus not refused ({reason}): {error}",
        spec.name()
    );
}

/// Runs every check for one sampler in one domain.
fn check<const D: usize>(spec: &SamplerSpec, domain: Domain<D>, n: Option<usize>)
where
    Dim<D>: BuildIn<D>,
{
    let radius = spec.is_radius_driven().then(|| suite_radius(spec, &domain));
    let sampler = spec.build(domain, radius, None).expect("valid sampler");
    let label = format!("{} D={D} periodic={}", spec.name(), domain.is_periodic());

    let empty = sampler.run(Some(0), 1);
    assert!(empty.is_empty(), "{label}: n = 0 gave points");
    assert_eq!(empty.stop, StopReason::TargetReached, "{label}");

    let one = sampler.run(Some(1), 1);
    assert_eq!(one.len(), 1, "{label}: n = 1");
    assert!(domain.contains(&one.points[0]), "{label}: {:?} outside", one.points[0]);

    let a = sampler.run(n, 11);
    assert!(a.len() >= 2, "{label}: only {} points", a.len());
    match (n, spec.count_note()) {
        (Some(n), None) => {
            assert_eq!(a.len(), n, "{label}: count");
            assert_eq!(a.stop, StopReason::TargetReached, "{label}");
        }
        // Skipped "exactly n", for the reason the specification gives.
        (Some(n), Some(_reason)) => assert!(a.len() <= n, "{label}: more than n points"),
        (None, _) => {}
    }
    assert!(a.attempts >= a.len() as u64, "{label}: attempts below points");
    for p in &a.points {
        assert!(domain.contains(p), "{label}: {p:?} outside {domain:?}");
    }
    assert_eq!(a.domain, domain, "{label}: point set carries another domain");

    let again = sampler.run(n, 11);
    assert_eq!(a.points, again.points, "{label}: same seed, different output");
    let cap = n.unwrap_or(usize::MAX);
    let through_dyn = sampler.sampler().dyn_sample(cap, &mut rng_from_seed(11));
    assert_eq!(a.points, through_dyn.points, "{label}: dyn mirror with a dyn generator differs");

    let other = sampler.run(n, 12);
    match spec.seed_note() {
        None => assert_ne!(a.points, other.points, "{label}: different seeds, same output"),
        Some(reason) => {
            assert_eq!(a.points, other.points, "{label}: declared seed-independent ({reason})")
        }
    }

    assert_eq!(sampler.min_distance(), radius, "{label}: promised distance");
    if let Some(r) = sampler.min_distance() {
        let pair = close_pair(&domain, &a.points, r);
        assert!(pair.is_none(), "{label}: pair closer than r = {r}: {pair:?}");
    }
}

macro_rules! conformance {
    ($module:ident, $spec:expr, n = $n:expr) => {
        conformance!($module, $spec, n = $n, d7_d8 = [], torus = [], dims = []);
    };
    // A sampler defined up to `$max`D: the suite runs up to there and checks the refusal above.
    ($module:ident, $spec:expr, n = $n:expr, dims_up_to = $max:literal, $reason:literal) => {
        conformance!($module, $spec, n = $n, d7_d8 = [], torus = [], dims = [$max = $reason]);
    };
    // A sampler that refuses 7D and 8D: the suite runs up to 6D and checks the refusal.
    ($module:ident, $spec:expr, n = $n:expr, up_to_6d = $reason:literal) => {
        conformance!($module, $spec, n = $n, d7_d8 = [refused = $reason], torus = [], dims = []);
    };
    // A sampler whose tori are too large to fill above `$max`D: the periodic boxes run up to
    // there and check the refusal above; the closed box runs in every D.
    ($module:ident, $spec:expr, n = $n:expr, torus_up_to = $max:literal, $reason:literal) => {
        conformance!($module, $spec, n = $n, d7_d8 = [], torus = [$max = $reason], dims = []);
    };
    (
        $module:ident,
        $spec:expr,
        n = $n:expr,
        d7_d8 = [$($refused:ident = $reason:literal)?],
        torus = [$($max_torus:literal = $torus_reason:literal)?],
        dims = [$($max_dim:literal = $dim_reason:literal)?]
    ) => {
        mod $module {
            use super::*;

            fn run<const D: usize>()
            where
                Dim<D>: BuildIn<D>,
            {
                let spec: SamplerSpec = $spec;
                let closed = awkward_box::<D>();
                $(
                    // Above the last dimension, and below the first (the planar optimisers).
                    if D > $max_dim || !spec.capabilities().takes_dimension(D) {
                        let error = spec.build(closed, Some(0.5), None).err();
                        let error = error.map(|e| e.to_string()).unwrap_or_default();
                        assert!(error.contains("dimension"), "{D}D not refused ({}): {error}", $dim_reason);
                        return;
                    }
                )?
                check(&spec, closed, $n);
                $(
                    if D > $max_torus {
                        refuses_torus(&spec, closed.periodic(), $torus_reason);
                        refuses_torus(&spec, experiments::domains::unit::<D>(true), $torus_reason);
                        return;
                    }
                )?
                check(&spec, closed.periodic(), $n);
                check(&spec, experiments::domains::unit::<D>(true), $n);
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
                high::<7>();
            }
            #[test]
            fn d8() {
                high::<8>();
            }

            /// Every check, or, for a sampler that refuses the dimension, the refusal.
            #[allow(unreachable_code)]
            fn high<const D: usize>()
            where
                Dim<D>: BuildIn<D>,
            {
                $(
                    let spec: SamplerSpec = $spec;
                    let built = spec.build(awkward_box::<D>(), Some(0.5), None);
                    let error = built.err().map(|e| e.to_string()).unwrap_or_default();
                    assert!(error.contains("at most 6"), "{D}D not refused ({}): {error}", $reason);
                    return;
                )?
                run::<D>();
            }
        }
    };
}

// ---- the samplers -------------------------------------------------------------------------

conformance!(bridson_suite, SamplerSpec::Bridson(BridsonParams::default()), n = None);
conformance!(bridson_recent_suite, SamplerSpec::BridsonRecent(BridsonParams::default()), n = None);
// Two threads, so that the suite runs the parallel path (the points are the same for any
// count; experiments/tests/it/sample_chunked_cli.rs compares 1, 2 and 7).
conformance!(
    chunked_bridson_suite,
    SamplerSpec::ChunkedBridson(ChunkedBridsonParams { threads: Some(2), ..Default::default() }),
    n = None,
    torus_up_to = 3,
    "a torus needs two chunks of (2 + √2 (D − 1)) r along every axis, so the smallest one \
     holds some 17,000 points in 4D (41,000 in the awkward box) and 740,000 in 5D, too many \
     for this suite's brute-force check; tests/it/chunked_worlds.rs checks a 4D torus"
);
conformance!(white_noise_suite, SamplerSpec::WhiteNoise(NoParams {}), n = Some(300));
// Fewer misses than the default keep the suite fast; saturation is tested elsewhere.
conformance!(
    dart_throwing_suite,
    SamplerSpec::DartThrowing(DartThrowingParams { max_misses: Some(1_000) }),
    n = None
);
conformance!(
    dart_throwing_grid_suite,
    SamplerSpec::DartThrowingGrid(DartThrowingParams { max_misses: Some(1_000) }),
    n = None
);
conformance!(
    best_candidate_suite,
    SamplerSpec::BestCandidate(BestCandidateParams::default()),
    n = Some(300)
);
conformance!(
    best_candidate_growing_suite,
    SamplerSpec::BestCandidate(BestCandidateParams {
        candidates: Some(2),
        growing_candidates: Some(true)
    }),
    n = Some(150)
);
conformance!(
    maximal_suite,
    SamplerSpec::Maximal(NoParams {}),
    n = None,
    up_to_6d = "a maximal set in 7D and 8D needs thousands of cells per point, so the sampler \
                refuses them"
);
conformance!(
    sample_elimination_suite,
    SamplerSpec::SampleElimination(SampleEliminationParams::default()),
    n = Some(300)
);
conformance!(
    sample_elimination_progressive_suite,
    SamplerSpec::SampleElimination(SampleEliminationParams {
        ratio: Some(3.0),
        progressive: Some(true)
    }),
    n = Some(300)
);
// Deterministic: skips "different seeds differ" (see SamplerSpec::seed_note); so is plain
// Sobol.
conformance!(halton_suite, SamplerSpec::Halton(HaltonParams::default()), n = Some(300));
conformance!(
    halton_randomized_suite,
    SamplerSpec::HaltonRandomized(HaltonParams::default()),
    n = Some(300)
);
conformance!(sobol_suite, SamplerSpec::Sobol(SequenceParams::default()), n = Some(300));
conformance!(sobol_owen_suite, SamplerSpec::SobolOwen(SequenceParams::default()), n = Some(300));
conformance!(
    pmj02_suite,
    SamplerSpec::Pmj02(SequenceParams::default()),
    n = Some(300),
    dims_up_to = 2,
    "a (0,2)-sequence is two-dimensional"
);
conformance!(
    fpo_suite,
    SamplerSpec::Fpo(IterationParams { iterations: Some(4) }),
    n = Some(300),
    dims_up_to = 2,
    "farthest-point optimisation is planar (2D only)"
);
conformance!(
    lloyd_suite,
    SamplerSpec::Lloyd(IterationParams { iterations: Some(4) }),
    n = Some(300),
    dims_up_to = 2,
    "Lloyd relaxation on exact Voronoi cells is planar (2D only)"
);
// 100 points: from 6D on, the 5^D cells around a cell outnumber the points and every pair is
// compared, in the awkward box through up to 243 images each (GaussianBlueNoise), so an iteration
// costs N²; 300 points took minutes in 8D for the same checks.
conformance!(
    gaussian_blue_noise_suite,
    SamplerSpec::GaussianBlueNoise(GaussianBlueNoiseParams { iterations: Some(20), sigma: None }),
    n = Some(100)
);
// The count is the number of grid cells, at most n (see SamplerSpec::count_note).
conformance!(jittered_grid_suite, SamplerSpec::JitteredGrid(NoParams {}), n = Some(300));

/// Every sampler of the specification has a suite above (a new variant fails here until
/// it joins).
#[test]
fn every_sampler_is_in_the_suite() {
    let suites = include_str!("conformance.rs");
    for name in experiments::catalogue::names() {
        let module = format!("{}_suite", name.replace('-', "_"));
        assert!(
            suites.contains(&format!("conformance!({module},"))
                || suites.contains(&format!("conformance!(\n    {module},")),
            "{name} has no conformance suite"
        );
    }
}
