//! Distribution functions of distances censored by the boundary, on a grid of `r`, in
//! spatstat's histogram convention: the nearest-neighbour distance distribution G (one
//! distance per point) and the empty-space function F (one per probe) are both this.

use crate::metrics::r_grid::RGrid;

/// The three estimates of a distance distribution function on a grid `r_0 = 0 < r_1 < …`.
#[derive(Debug, Clone, PartialEq)]
pub struct DistanceDistribution {
    /// Uncorrected: the fraction of all distances below `r`.
    pub raw: Vec<f64>,
    /// Border, or reduced-sample: among the items far enough from the boundary.
    pub border: Vec<f64>,
    /// Kaplan–Meier: the product-limit estimator with the boundary as censoring.
    pub kaplan_meier: Vec<f64>,
}

/// The estimates of `P(d < r)` from items with distances `d_i` (to the nearest point, possibly
/// infinite) and boundary distances `b_i` (infinite in a periodic box), on the grid `r`
/// (`r_0 = 0`, increasing).
///
/// Item `i` is observed at `o_i = min(d_i, b_i)` and uncensored when `d_i ≤ b_i`. A value
/// `v` falls in the grid interval `k = #{j : r_j ≤ v}`, i.e. `r_(k−1) ≤ v < r_k`, and counts
/// from `r_k` on; `r_(−1)` is below 0. With `N` items:
///
/// - raw: `#{d_i < r_k} / N`;
/// - border: `#{i uncensored : d_i < r_k, b_i ≥ r_(k−1)} / #{i : b_i ≥ r_(k−1)}` (NaN when
///   no item is that far from the boundary);
/// - Kaplan–Meier: `1 − Π_(j ≤ k) (1 − e_j / a_j)`, with `e_j` the uncensored items whose
///   `o_i` falls in interval `j` and `a_j = #{o_i ≥ r_(j−1)}` those at risk (a factor 1
///   when none is).
///
/// These are spatstat's `km.rs` on the histogram of the grid (its border set and risk set are
/// taken at the interval's lower end `r_(k−1)`, and values are counted when strictly below
/// `r_k`); as the grid is refined they tend to the textbook estimators with `b_i ≥ r`.
/// Without a boundary (`b_i = ∞`) all three are the raw fraction.
pub fn distance_distribution(
    distances: &[f64],
    boundary: &[f64],
    grid: &RGrid,
) -> DistanceDistribution {
    assert_eq!(distances.len(), boundary.len(), "one boundary distance per item");
    let m = grid.values().len();
    let interval = |v: f64| grid.count_at_most(v);
    // Per grid index k (0..=m; m is "beyond the grid"):
    let mut below = vec![0u64; m + 1]; // raw: d in interval k
    let mut numerator = vec![0i64; m + 2]; // border numerator, as a difference array
    let mut far = vec![0u64; m + 1]; // b in interval k
    let mut events = vec![0u64; m + 1]; // uncensored o in interval k
    let mut observed = vec![0u64; m + 1]; // o in interval k
    for (&d, &b) in distances.iter().zip(boundary) {
        let (kd, kb) = (interval(d), interval(b));
        below[kd] += 1;
        far[kb] += 1;
        let uncensored = d <= b;
        let ko = interval(d.min(b));
        observed[ko] += 1;
        if uncensored {
            events[ko] += 1;
            // Counts at every k with kd ≤ k ≤ kb.
            numerator[kd] += 1;
            numerator[kb + 1] -= 1;
        }
    }
    let n = distances.len() as f64;
    let total = distances.len() as u64;
    let mut raw = Vec::with_capacity(m);
    let mut border = Vec::with_capacity(m);
    let mut kaplan_meier = Vec::with_capacity(m);
    let (mut cum_below, mut cum_numerator) = (0u64, 0i64);
    // Items with b (resp. o) in an interval below k: not in the border (risk) set at k.
    let (mut near, mut gone) = (0u64, 0u64);
    let mut survival = 1.0;
    for k in 0..m {
        cum_below += below[k];
        cum_numerator += numerator[k];
        raw.push(cum_below as f64 / n);
        let border_set = total - near;
        border.push(if border_set > 0 {
            cum_numerator as f64 / border_set as f64
        } else {
            f64::NAN
        });
        let at_risk = total - gone;
        if at_risk > 0 {
            survival *= 1.0 - events[k] as f64 / at_risk as f64;
        }
        kaplan_meier.push(1.0 - survival);
        near += far[k];
        gone += observed[k];
    }
    DistanceDistribution { raw, border, kaplan_meier }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_boundary_all_three_are_the_raw_fraction() {
        let d = [0.05, 0.12, 0.12, 0.3, f64::INFINITY];
        let b = [f64::INFINITY; 5];
        let r = [0.0, 0.1, 0.2, 0.3, 0.4];
        let est = distance_distribution(&d, &b, &RGrid::from_values(r.to_vec()).unwrap());
        assert_eq!(est.raw, vec![0.0, 0.2, 0.6, 0.6, 0.8]);
        for k in 0..r.len() {
            assert!((est.border[k] - est.raw[k]).abs() < 1e-15);
            assert!((est.kaplan_meier[k] - est.raw[k]).abs() < 1e-15);
        }
    }

    #[test]
    fn censoring_by_hand() {
        // Three items: (d, b) = (0.15, 0.5) uncensored, (0.35, 0.25) censored at 0.25,
        // (0.05, 0.02) censored at 0.02. Grid 0, 0.1, …, 0.4.
        let d = [0.15, 0.35, 0.05];
        let b = [0.5, 0.25, 0.02];
        let r = [0.0, 0.1, 0.2, 0.3, 0.4];
        let est = distance_distribution(&d, &b, &RGrid::from_values(r.to_vec()).unwrap());
        assert_eq!(est.raw, vec![0.0, 1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0, 1.0]);
        // Border set at r_k: b ≥ r_(k−1): all three at k = 0, 1 (0.02 ≥ 0 at k = 1), then
        // items 0 and 1 at k = 2, 3 (b ≥ 0.1, 0.2), item 0 at k = 4 (0.5 ≥ 0.3).
        // Numerator: uncensored item 0 counts from r_2 (0.15 < 0.2) while 0.5 ≥ r_(k−1).
        assert_eq!(est.border, vec![0.0, 0.0, 0.5, 0.5, 1.0]);
        // Kaplan–Meier: o = 0.15 (event, interval 2), 0.25 (censored, 3), 0.02 (censored, 1).
        // At risk in interval 2: o ≥ 0.1 → 2 items, one event: S = 1/2.
        assert_eq!(est.kaplan_meier, vec![0.0, 0.0, 0.5, 0.5, 0.5]);
    }
}
