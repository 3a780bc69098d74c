//! Bridson-specific checks beyond the conformance suite: grid choices change nothing but speed,
//! the neighbourhood is right in 5D and above, faces and seams are handled, candidates are
//! uniform in the shell.

use poisson_nd::{
    Bridson, CandidateDistance, Domain, FillSampler, FrontOrder, GridResolution, Sampler,
    StopReason, Tuning,
};
use testkit::domains::{awkward_box, radius_for_about};
use testkit::oracle::{close_pair, min_pair_distance};

fn bridson<const D: usize>(domain: Domain<D>, points: f64) -> Bridson<D> {
    Bridson::new(domain, radius_for_about(&domain, points)).expect("valid")
}

#[test]
fn grid_resolution_and_storage_do_not_change_the_points() {
    fn check<const D: usize>() {
        for domain in [awkward_box::<D>(), awkward_box::<D>().periodic()] {
            let base = bridson(domain, 300.0);
            let reference = base.fill_seeded(5).points;
            for resolution in [GridResolution::Fine, GridResolution::Coarse] {
                let builder = base.to_builder().with_grid(resolution);
                let fine_or_coarse = builder.clone().build().expect("valid");
                assert_eq!(fine_or_coarse.fill_seeded(5).points, reference, "D={D}");
                let tuning = Tuning::default().with_dense_grid_limit(0);
                let hashed = builder.with_tuning(tuning).build().expect("valid");
                assert!(!hashed.advanced_is_grid_dense());
                assert_eq!(hashed.fill_seeded(5).points, reference, "D={D} hashed");
            }
        }
    }
    check::<1>();
    check::<2>();
    check::<3>();
    check::<4>();
    check::<5>();
    check::<6>();
}

/// The covered sub-cells of a dense grid (1D and 2D) answer most candidates without a search;
/// a hashed grid keeps none. At tens of thousands of points, where most candidates are
/// answered that way, both give the same points, in boxes at the origin, far from it and at
/// small and large scales, and no pair is closer than r.
#[test]
fn covered_sub_cells_change_no_point() {
    fn check<const D: usize>(domain: Domain<D>, points: f64, seed: u64) {
        let dense = bridson(domain, points);
        assert!(dense.advanced_is_grid_dense());
        let hashed = dense
            .to_builder()
            .with_tuning(Tuning::default().with_dense_grid_limit(0))
            .build()
            .expect("valid");
        let set = dense.fill_seeded(seed);
        assert!(set.len() as f64 > points / 2.0, "{D}D: {} points", set.len());
        assert_eq!(set.points, hashed.fill_seeded(seed).points, "{D}D seed {seed}");
        assert!(close_pair(&set.domain, &set.points, dense.radius()).is_none(), "{D}D seed {seed}");
    }
    for seed in 1..=3 {
        check(Domain::<2>::unit(), 30_000.0, seed);
        check(Domain::<1>::unit(), 20_000.0, seed);
    }
    let far = Domain::from_origin_and_extent([1e6, -3e6], [0.5, 0.25]).expect("valid");
    check(far, 20_000.0, 4);
    let tiny = Domain::from_origin_and_extent([-1e-90, 0.0], [3e-90, 2e-90]).expect("valid");
    check(tiny, 20_000.0, 5);
    let huge = Domain::from_origin_and_extent([0.0, 5e95], [1e96, 7e95]).expect("valid");
    check(huge, 20_000.0, 6);
}

#[test]
fn fine_grid_is_exact_in_five_and_six_dimensions() {
    // With cells of side r/√D a point closer than r can be three cells away from D = 5 on; a
    // search limited to the 5^D block around the candidate lets such pairs through.
    fn check<const D: usize>(points: f64) {
        let sampler = bridson(Domain::<D>::unit(), points)
            .to_builder()
            .with_grid(GridResolution::Fine)
            .build()
            .expect("valid");
        assert_eq!(sampler.resolution(), GridResolution::Fine);
        let set = sampler.fill_seeded(9);
        assert!(set.len() > points as usize / 3, "D={D}: {} points", set.len());
        let pair = close_pair(&set.domain, &set.points, sampler.radius());
        assert!(pair.is_none(), "D={D}: pair closer than r: {pair:?}");
    }
    check::<5>(2500.0);
    check::<6>(1500.0);
}

#[test]
fn neighbourhood_sizes() {
    let len = |r, resolution| {
        let builder = Bridson::builder(Domain::<5>::unit(), r).with_grid(resolution);
        builder.build().expect("valid").advanced_neighbourhood_len()
    };
    assert_eq!(len(0.1, GridResolution::Fine), 3903);
    assert_eq!(len(0.1, GridResolution::Coarse), 243);
    let two_d = Bridson::new(Domain::<2>::unit(), 0.01).expect("valid");
    assert_eq!(two_d.resolution(), GridResolution::Coarse);
    assert_eq!(two_d.advanced_neighbourhood_len(), 9);
    let fine = two_d.to_builder().with_grid(GridResolution::Fine).build().expect("ok");
    assert_eq!(fine.advanced_neighbourhood_len(), 21);
}

#[test]
fn points_reach_every_face_of_an_awkward_box() {
    // A grid that drops the last, partial cell or mishandles a negative origin leaves a band
    // along the upper or lower faces empty. Bridson leaves no gap much wider than 2r (the runs
    // are seeded, so this is deterministic).
    fn check<const D: usize>() {
        let domain = awkward_box::<D>();
        let sampler = bridson(domain, 2000.0);
        let r = sampler.radius();
        let set = sampler.fill_seeded(21);
        for axis in 0..D {
            let lo = domain.origin()[axis];
            let hi = lo + domain.extent()[axis];
            let min = set.points.iter().map(|p| p[axis]).fold(f64::INFINITY, f64::min);
            let max = set.points.iter().map(|p| p[axis]).fold(f64::NEG_INFINITY, f64::max);
            assert!(min >= lo && min < lo + 2.0 * r, "D={D} axis {axis}: lowest {min}, face {lo}");
            assert!(max < hi && max > hi - 2.0 * r, "D={D} axis {axis}: highest {max}, face {hi}");
        }
    }
    check::<1>();
    check::<2>();
    check::<3>();
}

#[test]
fn upper_faces_are_outside_and_wrap_in_periodic_boxes() {
    let closed = Domain::from_origin_and_extent([-2.0, 3.0], [1.5, 0.25]).expect("valid");
    assert!(closed.contains(&[-2.0, 3.0]));
    assert!(!closed.contains(&[-0.5, 3.1]));
    assert!(!closed.contains(&[-1.0, 3.25]));
    // A closed box does not wrap: the point stays outside (a region rejects it).
    assert_eq!(closed.wrap(&[-0.5, 3.1]), Some([-0.5, 3.1]));
    let torus = closed.periodic();
    assert_eq!(torus.wrap(&[-0.5, 3.1]), Some([-2.0, 3.1]));
    assert_eq!(torus.wrap(&[-2.25, 3.3]), Some([-0.75, 3.05]));
    // A point a hair below the lower face wraps to just under the upper face, never onto it.
    let wrapped = torus.wrap(&[-2.0 - 1e-17, 3.0]).expect("periodic");
    assert!(torus.contains(&wrapped), "{wrapped:?}");
    // Toroidal distance across the seam.
    let d2 = torus.distance_squared(&[-1.95, 3.0], &[-0.55, 3.2]);
    assert!((d2 - (0.1f64.powi(2) + 0.05f64.powi(2))).abs() < 1e-12, "{d2}");
}

#[test]
fn periodic_sets_keep_their_distance_across_the_seam() {
    fn check<const D: usize>() {
        // Sides that are not multiples of r/√D, so the torus grid has unequal-looking cells.
        let domain = awkward_box::<D>().periodic();
        let sampler = bridson(domain, 1500.0);
        let set = sampler.fill_seeded(4);
        let min = min_pair_distance(&domain, &set.points);
        assert!(min >= sampler.radius(), "D={D}: toroidal min {min} < {}", sampler.radius());
        // Points do get near the seam on both sides.
        let r = sampler.radius();
        let lo = domain.origin()[0];
        let hi = lo + domain.extent()[0];
        assert!(set.points.iter().any(|p| p[0] < lo + 2.0 * r), "D={D}");
        assert!(set.points.iter().any(|p| p[0] > hi - 2.0 * r), "D={D}");
    }
    check::<1>();
    check::<2>();
    check::<3>();
    check::<4>();
}

#[test]
fn a_cap_on_n_is_honoured() {
    let sampler = Bridson::new(Domain::<3>::unit(), 0.05).expect("valid");
    let full = sampler.fill_seeded(2);
    assert_eq!(full.stop, StopReason::Exhausted);
    let capped = sampler.sample_seeded(100, 2);
    assert_eq!(capped.len(), 100);
    assert_eq!(capped.stop, StopReason::TargetReached);
    // The cap cuts the same run short: its points are the full run's first points.
    assert_eq!(capped.points[..], full.points[..100]);
}

#[test]
fn two_dimensional_fill_density_is_as_published() {
    // Bridson with k = 30 on a torus packs below saturated RSA (0.547) and well above half of
    // it; the fraction is stable to about ±0.005 at this size, so [0.45, 0.547) never fails.
    let r = 0.01;
    let domain = Domain::<2>::unit().periodic();
    let set = Bridson::new(domain, r).expect("valid").fill_seeded(17);
    let packing = set.len() as f64 * std::f64::consts::PI * (r / 2.0).powi(2);
    assert!((0.45..0.547).contains(&packing), "packing fraction {packing}");
}

/// Kolmogorov–Smirnov check that the second point of a run (a candidate from the first point's
/// shell, accepted at once in an empty box) has distance CDF `cdf` on [r, 2r]. 4000 seeds; the
/// critical value 1.95/√n has a false-alarm rate of 0.1%.
fn shell_distances_follow<const D: usize>(
    distance: CandidateDistance,
    cdf: impl Fn(f64, f64) -> f64,
) {
    // 2r < 1/2: the toroidal distance is the distance the candidate was drawn at.
    let r = 0.2;
    let domain = Domain::<D>::unit().periodic();
    let builder = Bridson::builder(domain, r).with_candidate_distance(distance);
    let sampler = builder.build().expect("valid");
    let n = 4000;
    let mut distances: Vec<f64> = (0..n)
        .map(|seed| {
            let set = sampler.sample_seeded(2, seed);
            domain.distance_squared(&set.points[0], &set.points[1]).sqrt()
        })
        .collect();
    distances.sort_by(f64::total_cmp);
    let ks = distances
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            let f = cdf(d, r);
            (f - i as f64 / n as f64).abs().max(((i + 1) as f64 / n as f64 - f).abs())
        })
        .fold(0.0, f64::max);
    assert!(ks < 1.95 / (n as f64).sqrt(), "D={D} {distance:?}: KS statistic {ks}");
    assert!(distances[0] >= r && distances[n as usize - 1] <= 2.0 * r, "D={D}");
}

fn shell_distances_are_uniform_by_volume<const D: usize>() {
    let powi = |x: f64| x.powi(D as i32);
    shell_distances_follow::<D>(CandidateDistance::UniformInVolume, |d, r| {
        (powi(d) - powi(r)) / (powi(2.0 * r) - powi(r))
    });
}

#[test]
fn shell_candidates_are_uniform_by_volume() {
    shell_distances_are_uniform_by_volume::<1>();
    shell_distances_are_uniform_by_volume::<2>();
    shell_distances_are_uniform_by_volume::<4>();
    shell_distances_are_uniform_by_volume::<5>();
    shell_distances_are_uniform_by_volume::<8>();
}

#[test]
fn shell_candidates_can_be_uniform_in_radius() {
    let uniform = |d: f64, r: f64| (d - r) / r;
    shell_distances_follow::<2>(CandidateDistance::UniformInRadius, uniform);
    shell_distances_follow::<3>(CandidateDistance::UniformInRadius, uniform);
    shell_distances_follow::<6>(CandidateDistance::UniformInRadius, uniform);
}

/// The front worked among its newest points packs as Bridson's does: the packing fraction of
/// 8 seeds on a torus within 1% of the uniform order's (their spread is about 0.3%), each
/// fill stopping only when no point is active.
#[test]
fn recent_front_packs_as_the_uniform_one() {
    let r = 0.01;
    let domain = Domain::<2>::unit().periodic();
    let uniform = Bridson::new(domain, r).expect("valid");
    let recent = uniform.to_builder().with_front_order(FrontOrder::Recent).build().expect("valid");
    assert_eq!((uniform.label(), recent.label()), ("bridson".into(), "bridson-recent".into()));
    let mean = |sampler: &Bridson<2>| {
        let counts = (0..8).map(|seed| {
            let set = sampler.sample_seeded(usize::MAX, seed);
            assert_eq!(set.stop, StopReason::Exhausted);
            set.len() as f64
        });
        counts.sum::<f64>() / 8.0
    };
    let (a, b) = (mean(&uniform), mean(&recent));
    assert!((b / a - 1.0).abs() < 0.01, "{b} points against {a}");
}

#[test]
fn uniform_radius_candidates_pack_more_densely() {
    let domain = Domain::<2>::unit().periodic();
    let by_volume = Bridson::new(domain, 0.01).expect("valid");
    let by_radius = by_volume
        .to_builder()
        .with_candidate_distance(CandidateDistance::UniformInRadius)
        .build()
        .expect("valid");
    let (a, b) = (by_volume.fill_seeded(3), by_radius.fill_seeded(3));
    // About 1.5% more points; the count varies by ~0.3% between seeds.
    assert!(b.len() as f64 > 1.007 * a.len() as f64, "{} vs {}", b.len(), a.len());
    let pair = close_pair(&domain, &b.points, 0.01);
    assert!(pair.is_none(), "{pair:?}");
}
