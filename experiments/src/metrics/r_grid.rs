//! The grid of distances `r_0 = 0 < r_1 < … < r_m` the summary functions of spatial
//! statistics are evaluated on, and the one question every estimator asks of it: how many
//! grid values lie at or below a distance.

use serde::Serialize;

/// What is wrong with a grid; one line naming the value.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GridError {
    /// `r_max` is not finite and positive.
    #[error("r_max must be finite and positive, got {0}")]
    RMax(f64),
    /// The grid has no step.
    #[error("the r grid needs at least 1 step, got {0}")]
    Steps(usize),
    /// Values that do not start at 0, do not increase strictly or are not finite.
    #[error("the r grid must start at 0 and increase strictly: {0}")]
    Values(String),
}

/// The distances `r_0 = 0 < r_1 < … < r_m` a summary function is evaluated at.
///
/// ```
/// use experiments::metrics::r_grid::RGrid;
/// let grid = RGrid::uniform(0.25, 5)?;
/// assert_eq!(grid.values(), &[0.0, 0.05, 0.1, 0.15, 0.2, 0.25]);
/// assert_eq!(grid.count_at_most(0.1), 3); // 0, 0.05 and 0.1
/// assert_eq!(grid.count_at_most(0.12), 3);
/// # Ok::<(), experiments::metrics::r_grid::GridError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RGrid {
    values: Vec<f64>,
    /// The step when the values are (within rounding) equally spaced: a first guess for
    /// [`RGrid::count_at_most`], which then checks it against the values.
    #[serde(skip)]
    step: Option<f64>,
}

impl RGrid {
    /// `r_k = k · r_max / steps`, `k = 0..=steps` (the last exactly `r_max`).
    pub fn uniform(r_max: f64, steps: usize) -> Result<Self, GridError> {
        if !(r_max.is_finite() && r_max > 0.0) {
            return Err(GridError::RMax(r_max));
        }
        if steps == 0 {
            return Err(GridError::Steps(steps));
        }
        let values =
            (0..=steps).map(|k| if k == steps { r_max } else { r_max * k as f64 / steps as f64 });
        Ok(RGrid::with_step(values.collect()))
    }

    /// A grid given by its values: at least two, finite, the first 0, strictly increasing
    /// (as spatstat's argument `r`).
    pub fn from_values(values: Vec<f64>) -> Result<Self, GridError> {
        if values.len() < 2 {
            return Err(GridError::Values(format!("{} value(s), at least 2 needed", values.len())));
        }
        if let Some(bad) = values.iter().find(|v| !v.is_finite()) {
            return Err(GridError::Values(format!("{bad} is not finite")));
        }
        if values[0] != 0.0 {
            return Err(GridError::Values(format!("the first value is {}", values[0])));
        }
        if let Some(k) = (1..values.len()).find(|&k| values[k] <= values[k - 1]) {
            let (value, previous) = (values[k], values[k - 1]);
            return Err(GridError::Values(format!("value {k} is {value} after {previous}")));
        }
        Ok(RGrid::with_step(values))
    }

    fn with_step(values: Vec<f64>) -> Self {
        let steps = values.len() - 1;
        let r_max = values[steps];
        let step = r_max / steps as f64;
        let even =
            values.iter().enumerate().all(|(k, &r)| (r - k as f64 * step).abs() <= 1e-9 * r_max);
        RGrid { values, step: even.then_some(step) }
    }

    /// The values, from 0 up.
    pub fn values(&self) -> &[f64] {
        &self.values
    }

    /// The largest `r`.
    pub fn r_max(&self) -> f64 {
        self.values[self.values.len() - 1]
    }

    /// The number of grid values at or below `v`, `#{k : r_k ≤ v}`: the index of the first
    /// grid value above `v`, the grid interval `[r_(k−1), r_k)` that holds `v` (0 below 0,
    /// `m + 1` from `r_m` on). Exact; O(1) on an equally spaced grid, a binary search
    /// otherwise.
    pub fn count_at_most(&self, v: f64) -> usize {
        let r = &self.values;
        let Some(step) = self.step else {
            return r.partition_point(|&x| x <= v);
        };
        // A guess from the step (saturating: NaN and negatives give 0, huge values the
        // end), then corrected against the values themselves.
        let mut k = ((v / step) as usize).saturating_add(1).min(r.len());
        while k > 0 && (v.is_nan() || r[k - 1] > v) {
            k -= 1;
        }
        while k < r.len() && r[k] <= v {
            k += 1;
        }
        k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_at_most_is_the_binary_search() {
        let uneven = RGrid::from_values(vec![0.0, 0.01, 0.05, 0.3, 0.31]).unwrap();
        let even = RGrid::uniform(0.3, 7).unwrap();
        let almost = RGrid::from_values((0..=7).map(|k| 0.3 * k as f64 / 7.0).collect()).unwrap();
        for grid in [uneven, even, almost] {
            let r = grid.values().to_vec();
            let mut probes = vec![-1.0, 0.0, f64::INFINITY, f64::NAN, 1e300, 0.31, 0.3];
            probes.extend(r.iter().flat_map(|&x| [x, x.next_up(), x.next_down()]));
            probes.extend((0..1000).map(|i| i as f64 * 0.00037));
            for v in probes {
                assert_eq!(grid.count_at_most(v), r.partition_point(|&x| x <= v), "{v}");
            }
        }
    }

    #[test]
    fn bad_grids_say_why() {
        assert_eq!(RGrid::uniform(-1.0, 3), Err(GridError::RMax(-1.0)));
        assert_eq!(RGrid::uniform(1.0, 0), Err(GridError::Steps(0)));
        for values in [vec![0.0], vec![0.1, 0.2], vec![0.0, 0.2, 0.2], vec![0.0, f64::NAN]] {
            assert!(matches!(RGrid::from_values(values), Err(GridError::Values(_))));
        }
    }
}
