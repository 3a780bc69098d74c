//! Per-point radii against pair rules: the k-d tree search agrees exactly with checking every
//! pair, in closed and periodic boxes, for every rule.

use experiments::metrics::{
    NeighbourIndex, PairRule, RulePair, Spread, VaryingRadiusStats, varying_radius_stats,
};
use poisson_nd::{Domain, Point};
use proptest::prelude::*;

/// The same statistics by checking every pair.
fn brute<const D: usize>(
    points: &[Point<D>],
    radii: &[f64],
    domain: &Domain<D>,
    rule: PairRule,
) -> VaryingRadiusStats {
    let n = points.len();
    let mut violations = 0;
    let mut involved = vec![false; n];
    let mut worst: Option<RulePair> = None;
    for i in 0..n {
        for j in i + 1..n {
            let d2 = domain.distance_squared(&points[i], &points[j]);
            let rule_distance = rule.distance(radii[i], radii[j]);
            if d2 < rule_distance * rule_distance {
                violations += 1;
                involved[i] = true;
                involved[j] = true;
                let distance = d2.sqrt();
                let ratio = distance / rule_distance;
                if worst.is_none_or(|w| ratio < w.ratio) {
                    worst = Some(RulePair { i, j, distance, rule_distance, ratio });
                }
            }
        }
    }
    let mut nn_over_radius = Vec::new();
    let mut clustered = 0;
    for i in 0..n {
        let nearest = (0..n)
            .filter(|&j| j != i)
            .map(|j| (domain.distance_squared(&points[i], &points[j]), j))
            .min_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((d2, j)) = nearest {
            nn_over_radius.push(d2.sqrt() / radii[i]);
            let rule_distance = rule.distance(radii[i], radii[j]);
            if d2 < rule_distance * rule_distance {
                clustered += 1;
            }
        }
    }
    VaryingRadiusStats {
        rule,
        radius: Spread::of(radii).unwrap(),
        violations,
        points_in_violations: involved.iter().filter(|&&b| b).count(),
        worst,
        nn_over_radius: Spread::of(&nn_over_radius),
        cluster_rate: (n >= 2).then(|| clustered as f64 / n as f64),
    }
}

fn check<const D: usize>(raw: &[(f64, f64)], periodic: bool) {
    let domain = Domain::from_origin_and_extent([-0.5; D], [1.0; D]).unwrap();
    let domain = if periodic { domain.periodic() } else { domain };
    let n = raw.len() / D;
    let points: Vec<Point<D>> =
        (0..n).map(|i| std::array::from_fn(|a| raw[i * D + a].0 - 0.5)).collect();
    // Radii spread over a factor of ten, so the rules disagree.
    let radii: Vec<f64> = (0..n).map(|i| 0.02 + 0.2 * raw[i * D].1).collect();
    let index = NeighbourIndex::new(&points, &domain);
    for rule in [PairRule::Max, PairRule::Min, PairRule::Mean] {
        let fast = varying_radius_stats(&index, &radii, rule);
        let slow = brute(&points, &radii, &domain, rule);
        assert_eq!(fast.violations, slow.violations, "{rule:?} periodic={periodic}");
        assert_eq!(fast.points_in_violations, slow.points_in_violations, "{rule:?}");
        assert_eq!(fast.cluster_rate, slow.cluster_rate, "{rule:?}");
        assert_eq!(fast.radius, slow.radius);
        match (fast.worst, slow.worst) {
            (Some(f), Some(s)) => {
                // The same ratio; the pair too unless two pairs tie exactly.
                assert_eq!(f.ratio, s.ratio, "{rule:?}");
                assert_eq!(f.distance * s.rule_distance, s.distance * f.rule_distance);
            }
            (f, s) => assert_eq!(f, s, "{rule:?}"),
        }
        let (f, s) = (fast.nn_over_radius.unwrap(), slow.nn_over_radius.unwrap());
        assert_eq!((f.min, f.max), (s.min, s.max), "{rule:?}");
        assert!((f.mean - s.mean).abs() <= 1e-12 * s.mean.abs(), "{rule:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn tree_search_matches_every_pair_2d(raw in prop::collection::vec((0.0..1.0f64, 0.0..1.0f64), 4..240)) {
        check::<2>(&raw, false);
        check::<2>(&raw, true);
    }

    #[test]
    fn tree_search_matches_every_pair_3d(raw in prop::collection::vec((0.0..1.0f64, 0.0..1.0f64), 6..240)) {
        check::<3>(&raw, false);
        check::<3>(&raw, true);
    }
}

#[test]
fn a_hand_made_set_with_one_known_violation() {
    // On a line: 0 and 1 are 0.3 apart with radii 0.2 and 0.4; 2 is far from both.
    let points = [[0.1], [0.4], [0.9]];
    let radii = [0.2, 0.4, 0.05];
    let index = NeighbourIndex::new(&points, &Domain::<1>::unit());
    let max = varying_radius_stats(&index, &radii, PairRule::Max);
    assert_eq!((max.violations, max.points_in_violations), (1, 2));
    let worst = max.worst.unwrap();
    assert_eq!((worst.i, worst.j, worst.rule_distance), (0, 1, 0.4));
    assert!((worst.ratio - 0.75).abs() < 1e-12);
    // NN over own radius: 0.3/0.2, 0.3/0.4, 0.5/0.05.
    let q = max.nn_over_radius.unwrap();
    assert!((q.min - 0.75).abs() < 1e-12 && (q.max - 10.0).abs() < 1e-9);
    assert_eq!(max.cluster_rate, Some(2.0 / 3.0));
    // min: 0.2 ≤ 0.3, no violation.
    let min = varying_radius_stats(&index, &radii, PairRule::Min);
    assert_eq!(min.violations, 0);
    assert_eq!(min.worst, None);
    assert_eq!(min.cluster_rate, Some(0.0));
}
