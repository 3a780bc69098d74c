//! Variable radius: every pair keeps its pair rule's distance (brute force, every rule ×
//! sampler × D = 1..5, closed and periodic shifted boxes, fast-changing and gridded fields);
//! the searches agree bit for bit; the radii column is the field; constant fields are the
//! plain samplers; runs resume; determinism.

use poisson_nd::field::{
    DensityField, DensityMapping, FnField, GriddedField, PairRule, RadiusField,
};
use poisson_nd::rng::rng_from_seed;
use poisson_nd::{
    Bridson, ConstantField, DartThrowing, Domain, FillSampler, GridResolution, Point, PointSet,
    Sampler, StopReason, Tuning,
};
use std::sync::Arc;
use testkit::domains::{awkward_box, radius_for_about};

const RULES: [PairRule; 3] = [PairRule::Max, PairRule::Min, PairRule::Mean];

/// The first pair closer than its rule's distance (toroidal in a periodic domain), by brute
/// force, with the same comparison the samplers promise: `d² ≥ rule(rᵢ, rⱼ)²`.
fn violation<const D: usize>(set: &PointSet<D>, rule: PairRule) -> Option<String> {
    let radii = set.radii.as_ref()?;
    for i in 0..set.len() {
        for j in i + 1..set.len() {
            let d2 = set.domain.distance_squared(&set.points[i], &set.points[j]);
            let s = rule.distance(radii[i], radii[j]);
            if d2 < s * s {
                return Some(format!(
                    "{:?} (r {}) and {:?} (r {}): d = {} < {s}",
                    set.points[i],
                    radii[i],
                    set.points[j],
                    radii[j],
                    d2.sqrt()
                ));
            }
        }
    }
    None
}

/// Every check a variable-radius set must pass: a radius per point, equal to the field's
/// value there (bit for bit) and within the bounds; every point in the domain; every pair
/// at its rule's distance; no field error on a valid field.
fn check_set<const D: usize>(
    set: &PointSet<D>,
    field: &dyn RadiusField<D>,
    rule: PairRule,
    what: &str,
) {
    let radii = set.radii.as_ref().unwrap_or_else(|| panic!("{what}: no radii column"));
    assert_eq!(radii.len(), set.len(), "{what}");
    assert!(set.field_error.is_none(), "{what}: {:?}", set.field_error);
    assert_ne!(set.stop, StopReason::InvalidField, "{what}");
    let (rmin, rmax) = field.bounds();
    for (p, &r) in set.points.iter().zip(radii) {
        assert!(set.domain.contains(p), "{what}: {p:?} outside");
        assert_eq!(r.to_bits(), field.radius(p).to_bits(), "{what}: radius at {p:?}");
        assert!((rmin..=rmax).contains(&r), "{what}: radius {r}");
    }
    if let Some(pair) = violation(set, rule) {
        panic!("{what}: {pair}");
    }
}

/// A field that changes on the scale of rmin: a sum of sines of every coordinate, clamped
/// to the bounds (rounding could otherwise carry it a hair past them).
fn wavy<const D: usize>(rmin: f64, rmax: f64) -> Arc<dyn RadiusField<D>> {
    let frequency = std::f64::consts::TAU / (1.5 * rmin);
    let f = move |p: &Point<D>| {
        let s: f64 = p.iter().enumerate().map(|(i, x)| x * (1.0 + 0.37 * i as f64)).sum();
        (rmin + (rmax - rmin) * (0.5 + 0.5 * (s * frequency).sin())).clamp(rmin, rmax)
    };
    Arc::new(FnField::new(f, rmin, rmax).expect("valid bounds"))
}

/// A field that jumps: rmin and rmax on a checkerboard of cells of side 2·rmin.
fn checkerboard<const D: usize>(rmin: f64, rmax: f64) -> Arc<dyn RadiusField<D>> {
    checkerboard_of_side(rmin, rmax, 2.0 * rmin)
}

/// rmin and rmax on a checkerboard of cells of side `side`.
fn checkerboard_of_side<const D: usize>(
    rmin: f64,
    rmax: f64,
    side: f64,
) -> Arc<dyn RadiusField<D>> {
    let f = move |p: &Point<D>| {
        let parity: i64 = p.iter().map(|x| (x / side).floor() as i64).sum();
        if parity.rem_euclid(2) == 0 { rmin } else { rmax }
    };
    Arc::new(FnField::new(f, rmin, rmax).expect("valid bounds"))
}

/// Radii on a small grid over the box (pseudo-random values in [rmin, rmax]).
fn gridded<const D: usize>(domain: &Domain<D>, rmin: f64, rmax: f64) -> Arc<dyn RadiusField<D>> {
    let n: usize = match D {
        1 | 2 => 9,
        3 => 5,
        _ => 3,
    };
    let count = n.pow(D as u32);
    let mut state = 12345u64;
    let values = (0..count)
        .map(|_| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            rmin + (rmax - rmin) * ((state >> 11) as f64 / (1u64 << 53) as f64)
        })
        .collect();
    Arc::new(GriddedField::new(domain, [n; D], values).expect("valid grid"))
}

/// The fields every sampler is checked with, with rmin at which Bridson would place about
/// `points` points.
fn fields<const D: usize>(
    domain: &Domain<D>,
    points: f64,
) -> Vec<(&'static str, Arc<dyn RadiusField<D>>)> {
    let rmin = radius_for_about(domain, points);
    let rmax = 2.5 * rmin;
    vec![
        ("wavy", wavy(rmin, rmax)),
        ("checkerboard", checkerboard(rmin, rmax)),
        ("gridded", gridded(domain, rmin, rmax)),
    ]
}

fn boxes<const D: usize>() -> [Domain<D>; 2] {
    [awkward_box::<D>(), awkward_box::<D>().periodic()]
}

#[test]
fn bridson_keeps_every_pair_rule_in_1d_to_5d() {
    fn check<const D: usize>() {
        for domain in boxes::<D>() {
            for (name, field) in fields(&domain, 1000.0) {
                for rule in RULES {
                    let sampler = Bridson::builder_with_field(domain, Arc::clone(&field))
                        .with_pair_rule(rule)
                        .build()
                        .expect("valid");
                    let set = sampler.fill_seeded(11);
                    let what =
                        format!("bridson {D}D {name} {rule} periodic={}", domain.is_periodic());
                    assert_eq!(set.stop, StopReason::Exhausted, "{what}");
                    assert!(set.len() > 10, "{what}: {} points", set.len());
                    check_set(&set, &*field, rule, &what);
                }
            }
        }
    }
    check::<1>();
    check::<2>();
    check::<3>();
    check::<4>();
    check::<5>();
}

#[test]
fn dart_throwing_keeps_every_pair_rule_and_both_searches_agree_in_1d_to_5d() {
    fn check<const D: usize>() {
        for domain in boxes::<D>() {
            for (name, field) in fields(&domain, 300.0) {
                for rule in RULES {
                    let naive = DartThrowing::builder_with_field(domain, Arc::clone(&field))
                        .with_pair_rule(rule)
                        .with_max_misses(300)
                        .build()
                        .expect("valid");
                    let set = naive.fill_seeded(3);
                    let what =
                        format!("darts {D}D {name} {rule} periodic={}", domain.is_periodic());
                    assert_eq!(set.stop, StopReason::Exhausted, "{what}");
                    // At least the count of rmax-spaced points a few hundred rmin-spaced
                    // ones thin out to in 5D (300 / 2.5^5).
                    assert!(set.len() >= 3, "{what}: {} points", set.len());
                    check_set(&set, &*field, rule, &what);
                    // The grid, dense or hashed, fine or coarse, answers the same questions
                    // (fine cells up to 3D: from 4D on their reach of 2.5·rmin spans
                    // thousands of cells per dart, too slow for a test).
                    let resolutions: &[GridResolution] = if D <= 3 {
                        &[GridResolution::Coarse, GridResolution::Fine]
                    } else {
                        &[GridResolution::Coarse]
                    };
                    for &resolution in resolutions {
                        for limit in [usize::MAX, 0] {
                            let grid = naive
                                .to_builder()
                                .with_grid(resolution)
                                .with_tuning(Tuning::default().with_dense_grid_limit(limit))
                                .build()
                                .expect("valid");
                            let other = grid.fill_seeded(3);
                            assert_eq!(other, set, "{what} {resolution:?} limit {limit}");
                        }
                    }
                }
            }
        }
    }
    check::<1>();
    check::<2>();
    check::<3>();
    check::<4>();
    check::<5>();
}

#[test]
fn bridson_grids_give_the_same_points_with_a_field() {
    // The search narrows per candidate and skips cells by their radius bound; any of that
    // hiding a conflict would change the points between grids that prune differently.
    fn check<const D: usize>() {
        for domain in boxes::<D>() {
            for (name, field) in fields(&domain, 500.0) {
                for rule in RULES {
                    let base = Bridson::builder_with_field(domain, Arc::clone(&field))
                        .with_pair_rule(rule)
                        .build()
                        .expect("valid");
                    let reference = base.fill_seeded(8);
                    for resolution in [GridResolution::Coarse, GridResolution::Fine] {
                        for limit in [usize::MAX, 0] {
                            let other = base
                                .to_builder()
                                .with_grid(resolution)
                                .with_tuning(Tuning::default().with_dense_grid_limit(limit))
                                .build()
                                .expect("valid");
                            assert_eq!(other.advanced_is_grid_dense(), limit > 0);
                            let what = format!("{D}D {name} {rule} {resolution:?} {limit}");
                            assert_eq!(other.fill_seeded(8), reference, "{what}");
                        }
                    }
                }
            }
        }
    }
    check::<1>();
    check::<2>();
    check::<3>();
    check::<4>();
}

#[test]
fn a_torus_a_few_cells_wide_keeps_the_rules() {
    // Wrapped offsets land on the same cells; the search must keep each cell's smallest bound.
    let domain =
        Domain::from_origin_and_extent([-0.3, 2.0], [0.5, 0.35]).expect("valid").periodic();
    for rule in RULES {
        for field in [wavy::<2>(0.04, 0.15), checkerboard::<2>(0.04, 0.15)] {
            let set = Bridson::builder_with_field(domain, Arc::clone(&field))
                .with_pair_rule(rule)
                .build()
                .expect("valid")
                .fill_seeded(2);
            check_set(&set, &*field, rule, &format!("small torus {rule}"));
        }
    }
}

#[test]
fn wide_ratios_keep_the_rules() {
    // rmax/rmin = 16 in 2D and 6 in 3D: far reaches, most cells skipped by their bounds.
    let domain = Domain::from_origin_and_extent([2.0, -1.0], [1.0, 0.7]).expect("valid");
    for rule in RULES {
        for field in [wavy::<2>(0.004, 0.064), checkerboard::<2>(0.004, 0.064)] {
            let set = Bridson::builder_with_field(domain, Arc::clone(&field))
                .with_pair_rule(rule)
                .build()
                .expect("valid")
                .fill_seeded(6);
            assert!(set.len() > 500, "{}", set.len());
            check_set(&set, &*field, rule, &format!("ratio 16 {rule}"));
        }
    }
    let cube = Domain::<3>::unit().periodic();
    for rule in RULES {
        let field = wavy::<3>(0.03, 0.18);
        let set = Bridson::builder_with_field(cube, Arc::clone(&field))
            .with_pair_rule(rule)
            .build()
            .expect("valid")
            .fill_seeded(6);
        check_set(&set, &*field, rule, &format!("3D ratio 6 {rule}"));
    }
}

#[test]
fn the_rules_order_the_point_counts() {
    // min ≤ mean ≤ max pairwise, so a jumping field packs most points under min and fewest
    // under max (one seed each, same field: a deterministic check of what each rule means).
    let domain = Domain::<2>::unit();
    let field = checkerboard_of_side::<2>(0.01, 0.04, 0.1);
    let count = |rule| {
        Bridson::builder_with_field(domain, Arc::clone(&field))
            .with_pair_rule(rule)
            .build()
            .expect("valid")
            .fill_seeded(4)
            .len()
    };
    let (max, mean, min) = (count(PairRule::Max), count(PairRule::Mean), count(PairRule::Min));
    assert!(max < mean && mean < min, "max {max}, mean {mean}, min {min}");
}

#[test]
fn a_constant_field_is_the_plain_sampler() {
    let domain = awkward_box::<3>();
    let r = radius_for_about(&domain, 500.0);
    for rule in RULES {
        let field = Bridson::builder_with_field(domain, ConstantField::new(r).expect("valid"))
            .with_pair_rule(rule)
            .build()
            .expect("valid");
        assert!(field.radius_field().is_none());
        let plain = Bridson::new(domain, r).expect("valid");
        assert_eq!(field.fill_seeded(9), plain.fill_seeded(9));
        assert!(field.fill_seeded(9).radii.is_none());
        let darts = DartThrowing::builder_with_field(domain, ConstantField::new(r).expect("valid"))
            .with_max_misses(200)
            .build()
            .expect("valid");
        let plain_darts = DartThrowing::builder(domain, r).with_max_misses(200).build();
        assert_eq!(darts.fill_seeded(2), plain_darts.expect("valid").fill_seeded(2));
    }
    // Also through a shared pointer, as the command line may hold it.
    let shared: Arc<dyn RadiusField<2>> = Arc::new(ConstantField::new(0.05).expect("valid"));
    let sampler = Bridson::builder_with_field(Domain::unit(), shared).build().expect("valid");
    assert_eq!(sampler.radius_bounds(), (0.05, 0.05));
}

#[test]
fn same_seed_same_points_and_radii_different_seeds_differ() {
    let domain = awkward_box::<2>().periodic();
    let field = wavy::<2>(0.02, 0.06);
    let bridson = Bridson::builder_with_field(domain, Arc::clone(&field)).build().expect("valid");
    let darts = DartThrowing::builder_with_field(domain, field)
        .with_grid(GridResolution::Coarse)
        .with_max_misses(500)
        .build()
        .expect("valid");
    for sampler in [&bridson as &dyn poisson_nd::DynSampler<2>, &darts] {
        let a = sampler.dyn_try_fill_seeded(5).expect("fills");
        assert_eq!(a, sampler.dyn_try_fill_seeded(5).expect("fills"), "{}", sampler.dyn_label());
        assert_ne!(a.points, sampler.dyn_try_fill_seeded(6).expect("fills").points);
        // A count cuts the same run short.
        let first = sampler.dyn_sample_seeded(40, 5);
        assert_eq!(first.points[..], a.points[..40]);
        assert_eq!(first.radii.as_deref(), a.radii.as_ref().map(|r| &r[..40]));
        assert_eq!(first.stop, StopReason::TargetReached);
    }
    assert_eq!(bridson.sample_seeded(0, 1).radii, Some(Vec::new()));
}

#[test]
fn a_field_run_taken_in_steps_equals_one_taken_at_once() {
    let domain = Domain::<2>::unit();
    let field = wavy::<2>(0.02, 0.05);
    let sampler = Bridson::builder_with_field(domain, Arc::clone(&field))
        .with_pair_rule(PairRule::Mean)
        .build()
        .expect("valid");
    let whole = sampler.fill_seeded(3);
    let mut fill = sampler.start_fill();
    let mut rng = rng_from_seed(3);
    assert!(fill.add_random(&mut rng));
    assert_eq!(fill.run_until(30, &mut rng), StopReason::TargetReached);
    while let poisson_nd::FillStep::Added(_) | poisson_nd::FillStep::Retired = fill.step(&mut rng) {
    }
    assert_eq!(fill.radii().map(<[f64]>::len), Some(fill.len()));
    let stepped = fill.into_point_set();
    assert_eq!(stepped.points, whole.points);
    assert_eq!(stepped.radii, whole.radii);
}

#[test]
fn given_points_take_the_field_and_keep_the_rule() {
    let domain = Domain::<2>::unit();
    // 0.05 on the left half, 0.2 on the right.
    let field = FnField::new(|p: &[f64; 2]| if p[0] < 0.5 { 0.05 } else { 0.2 }, 0.05, 0.2);
    let sampler = Bridson::builder_with_field(domain, field.expect("valid"))
        .with_pair_rule(PairRule::Max)
        .build()
        .expect("valid");
    let mut fill = sampler.start_fill();
    assert!(fill.add([0.4, 0.5]));
    // 0.15 away: more than its own 0.05, less than the right half's 0.2.
    assert!(!fill.add([0.55, 0.5]));
    assert!(fill.add([0.7, 0.5]));
    assert_eq!(fill.radii(), Some(&[0.05, 0.2][..]));
    let set = fill.into_point_set();
    assert_eq!(set.radii, Some(vec![0.05, 0.2]));
}

#[test]
fn min_distance_is_rmin_for_every_rule() {
    let domain = Domain::<2>::unit();
    for rule in RULES {
        let field = wavy::<2>(0.02, 0.07);
        let bridson = Bridson::builder_with_field(domain, Arc::clone(&field))
            .with_pair_rule(rule)
            .build()
            .expect("valid");
        assert_eq!(bridson.min_distance(), Some(0.02));
        assert_eq!((bridson.pair_rule(), bridson.radius_bounds()), (rule, (0.02, 0.07)));
        let darts = DartThrowing::builder_with_field(domain, field)
            .with_pair_rule(rule)
            .build()
            .expect("valid");
        assert_eq!(darts.min_distance(), Some(0.02));
        assert_eq!(darts.pair_rule(), rule);
        assert!(darts.radius_field().is_some());
    }
}

#[test]
fn inverse_mapping_makes_counts_follow_the_density() {
    // Density = x0 (a 64-column gridded gradient, exact between its outer centres), mapped
    // inversely to radii in [0.005, 0.02]: points per area ∝ r^(−2) ∝ density where the clamp
    // is inactive (x0 ≥ 1/16). Strips x0 ∈ [0.25, 0.45), [0.45, 0.65), [0.65, 0.85), counted
    // for x1 ∈ [0.1, 0.9) only (no face within 0.1 of a counted point, where a closed box
    // packs differently), should hold fractions ∝ ∫x dx = (0.07, 0.11, 0.15) / 0.33.
    //
    // Tolerance: 4 binomial standard deviations of each fraction, √(p(1−p)/n) with n the
    // pooled count of four seeds (about 26,000). A hard-core process's counts vary less than
    // independent points', so this bounds the sampling error from above (false alarm below
    // 1e-4 per strip); the bias from the gradient (r changes by under 2% between
    // neighbours) is far smaller. Measured: every strip within 0.7% of its target.
    let domain = Domain::<2>::unit();
    let values: Vec<f64> = (0..64).map(|k| (k as f64 + 0.5) / 64.0).collect();
    let density = GriddedField::new(&domain, [64, 1], values).expect("valid");
    let strips = [(0.25, 0.45), (0.45, 0.65), (0.65, 0.85)];
    let target: Vec<f64> = strips.iter().map(|&(a, b)| (b * b - a * a) / 2.0 / 0.33).collect();
    for rule in RULES {
        let field = DensityField::new(density.clone(), DensityMapping::Inverse, 0.005, 0.02);
        let sampler = Bridson::builder_with_field(domain, field.expect("valid"))
            .with_pair_rule(rule)
            .build()
            .expect("valid");
        let mut counts = [0usize; 3];
        for seed in 0..4 {
            for p in &sampler.fill_seeded(seed).points {
                if (0.1..0.9).contains(&p[1]) {
                    for (k, &(a, b)) in strips.iter().enumerate() {
                        counts[k] += usize::from((a..b).contains(&p[0]));
                    }
                }
            }
        }
        let n: usize = counts.iter().sum();
        assert!(n > 20_000, "{rule}: {n}");
        for k in 0..3 {
            let observed = counts[k] as f64 / n as f64;
            let p = target[k];
            let tolerance = 4.0 * (p * (1.0 - p) / n as f64).sqrt();
            assert!(
                (observed - p).abs() < tolerance,
                "{rule} strip {k}: {observed} against {p} ± {tolerance} ({counts:?})"
            );
        }
    }
}
