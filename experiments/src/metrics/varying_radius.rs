//! Point sets whose radius varies from point to point: each pair `{i, j}` must keep the
//! distance `rule(r_i, r_j)` (the library's [`PairRule`]). [`varying_radius_stats`] counts the pairs that
//! do not, finds the worst, and measures each point's nearest neighbour against its own
//! radius. Definitions in `docs/metrics.md`.
//!
//! Every pair closer than its rule distance is found with fixed-radius queries on the k-d
//! tree of [`NeighbourIndex`], each point searching no farther than the rule allows (a
//! bound on `rule(r_i, r_j)` over every `j`), so the work is `O(N log N)` plus the pairs
//! within reach, not `O(N²)`:
//!
//! - `max`: point `i` searches its own radius `r_i`. A violating pair has
//!   `d < max(r_i, r_j)`, so the point with the larger radius finds it; the pair is counted
//!   from that point (from the lower index on a tie).
//! - `min`: `min(r_i, r_j) ≤ r_i`, so both points find the pair within their own radius; it is
//!   counted from the lower index.
//! - `mean`: `(r_i + r_j) / 2 ≤ (r_i + r_max) / 2`, the search distance of `i` (rounding
//!   keeps the inequality: a sum and a halving are monotonic); counted from the lower index.

use super::NeighbourIndex;
use poisson_nd::Point;
pub use poisson_nd::field::PairRule;
use serde::Serialize;

/// A pair of points measured against the rule.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RulePair {
    /// The first point's index (0-based, file order), the smaller of the two.
    pub i: usize,
    /// The second point's index.
    pub j: usize,
    /// Their distance (toroidal in a periodic box).
    pub distance: f64,
    /// The distance the rule asks for, `rule(r_i, r_j)`.
    pub rule_distance: f64,
    /// `distance / rule_distance`: below 1 for a violation.
    pub ratio: f64,
}

/// A summary of a list of values: mean, sample standard deviation, extremes.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation (divisor `n − 1`; 0 for one value).
    pub std: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
}

impl Spread {
    /// The spread of `values`; `None` when empty.
    pub fn of(values: &[f64]) -> Option<Spread> {
        if values.is_empty() {
            return None;
        }
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let var = if values.len() > 1 {
            values.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        let min = values.iter().copied().fold(f64::INFINITY, f64::min);
        let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Some(Spread { mean, std: var.sqrt(), min, max })
    }
}

/// What a per-point radius says about a point set.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VaryingRadiusStats {
    /// The pair rule the pairs were checked against.
    #[serde(serialize_with = "crate::choices::by_name::serialize")]
    pub rule: PairRule,
    /// The radii: mean, spread and extremes.
    pub radius: Spread,
    /// Unordered pairs closer than their rule distance.
    pub violations: u64,
    /// Points that belong to at least one such pair.
    pub points_in_violations: usize,
    /// The violating pair with the smallest `distance / rule distance` (`None` without a
    /// violation); ties go to the pair with the smallest indices.
    pub worst: Option<RulePair>,
    /// Each point's nearest-neighbour distance over its own radius, `nn_i / r_i` (`None`
    /// below two points).
    pub nn_over_radius: Option<Spread>,
    /// Fraction of points whose nearest neighbour `j` is closer than `rule(r_i, r_j)` (`None`
    /// below two points).
    pub cluster_rate: Option<f64>,
}

/// Checks every pair of `index`'s points against `rule` with per-point `radii` (finite and
/// positive, one per point; the caller checks), and measures nearest neighbours against them.
/// Panics when `radii` and the index differ in length.
///
/// ```
/// use experiments::metrics::{NeighbourIndex, PairRule, varying_radius_stats};
/// use poisson_nd::Domain;
/// let points = [[0.1, 0.5], [0.3, 0.5], [0.8, 0.5]];
/// let index = NeighbourIndex::new(&points, &Domain::<2>::unit());
/// // 0.2 apart: fine for radii 0.1 and 0.2 under min, too close under max.
/// let radii = [0.1, 0.25, 0.1];
/// let max = varying_radius_stats(&index, &radii, PairRule::Max);
/// assert_eq!(max.violations, 1);
/// let worst = max.worst.unwrap();
/// assert_eq!((worst.i, worst.j), (0, 1));
/// assert!((worst.ratio - 0.8).abs() < 1e-12);
/// assert_eq!(varying_radius_stats(&index, &radii, PairRule::Min).violations, 0);
/// ```
pub fn varying_radius_stats<const D: usize>(
    index: &NeighbourIndex<D>,
    radii: &[f64],
    rule: PairRule,
) -> VaryingRadiusStats {
    assert_eq!(radii.len(), index.len(), "one radius per point");
    let points: &[Point<D>] = index.points();
    let r_max = radii.iter().copied().fold(0.0, f64::max);
    let mut violations = 0u64;
    let mut involved = vec![false; points.len()];
    let mut worst: Option<RulePair> = None;
    for (i, p) in points.iter().enumerate() {
        let ri = radii[i];
        let reach = match rule {
            PairRule::Max | PairRule::Min => ri,
            PairRule::Mean => (ri + r_max) / 2.0,
        };
        index.for_each_within(p, reach, |j, d2| {
            if j == i {
                return;
            }
            let rj = radii[j];
            let counted_here = match rule {
                PairRule::Max => ri > rj || (ri == rj && i < j),
                PairRule::Min | PairRule::Mean => i < j,
            };
            let rule_distance = rule.distance(ri, rj);
            if !counted_here || d2 >= rule_distance * rule_distance {
                return;
            }
            violations += 1;
            involved[i] = true;
            involved[j] = true;
            let distance = d2.sqrt();
            let pair = RulePair {
                i: i.min(j),
                j: i.max(j),
                distance,
                rule_distance,
                ratio: distance / rule_distance,
            };
            let better = worst.is_none_or(|w| (pair.ratio, pair.i, pair.j) < (w.ratio, w.i, w.j));
            if better {
                worst = Some(pair);
            }
        });
    }
    let mut nn_over_radius = Vec::with_capacity(points.len());
    let mut clustered = 0usize;
    for i in 0..points.len() {
        if let Some((j, d)) = index.nearest_other(i) {
            nn_over_radius.push(d / radii[i]);
            // The squared distance, as the pair check compares it.
            let d2 = index.domain().distance_squared(&points[i], &points[j]);
            let rule_distance = rule.distance(radii[i], radii[j]);
            if d2 < rule_distance * rule_distance {
                clustered += 1;
            }
        }
    }
    let with_neighbours = nn_over_radius.len();
    VaryingRadiusStats {
        rule,
        radius: Spread::of(radii).unwrap_or(Spread {
            mean: f64::NAN,
            std: f64::NAN,
            min: f64::NAN,
            max: f64::NAN,
        }),
        violations,
        points_in_violations: involved.iter().filter(|&&b| b).count(),
        worst,
        nn_over_radius: Spread::of(&nn_over_radius),
        cluster_rate: (with_neighbours > 0).then(|| clustered as f64 / points.len() as f64),
    }
}
