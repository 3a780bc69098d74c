//! Least-squares power-law fits, `y ≈ prefactor · x^exponent`, by linear regression of
//! `ln y` on `ln x` (for time-against-N scaling).
#![deny(missing_docs)]

/// A fitted power law `y = prefactor · x^exponent`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PowerLaw {
    /// The exponent: the slope on log–log axes.
    pub exponent: f64,
    /// The prefactor: `y` at `x = 1`.
    pub prefactor: f64,
    /// Coefficient of determination of the regression in log–log space (1 when every point
    /// lies on the line, including when all `y` are equal and fitted exactly).
    pub r_squared: f64,
}

impl PowerLaw {
    /// The fitted value at `x`.
    pub fn eval(&self, x: f64) -> f64 {
        self.prefactor * x.powf(self.exponent)
    }
}

/// Why a power law could not be fitted.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FitError {
    /// Fewer than two points.
    #[error("a power-law fit needs at least two points, got {0}")]
    TooFewPoints(usize),
    /// A coordinate that is zero, negative or not finite has no logarithm.
    #[error("a power-law fit needs finite positive coordinates, got ({0}, {1})")]
    NotPositive(f64, f64),
    /// All `x` are equal: the slope is undetermined.
    #[error("a power-law fit needs at least two distinct x values")]
    NoSpread,
}

/// Fits `y = prefactor · x^exponent` to `points` by ordinary least squares on
/// `(ln x, ln y)`. Every point counts once, so repeated measurements at one `x` weigh more.
///
/// ```
/// use experiments::fit::power_law;
/// let points: Vec<(f64, f64)> = [1.0, 10.0, 100.0].iter().map(|&n| (n, 3.0 * n * n)).collect();
/// let fit = power_law(&points).unwrap();
/// assert!((fit.exponent - 2.0).abs() < 1e-12 && (fit.prefactor - 3.0).abs() < 1e-9);
/// ```
pub fn power_law(points: &[(f64, f64)]) -> Result<PowerLaw, FitError> {
    if points.len() < 2 {
        return Err(FitError::TooFewPoints(points.len()));
    }
    if let Some(&(x, y)) =
        points.iter().find(|(x, y)| !(x.is_finite() && *x > 0.0 && y.is_finite() && *y > 0.0))
    {
        return Err(FitError::NotPositive(x, y));
    }
    let logs: Vec<(f64, f64)> = points.iter().map(|(x, y)| (x.ln(), y.ln())).collect();
    let count = logs.len() as f64;
    let mean_x = logs.iter().map(|p| p.0).sum::<f64>() / count;
    let mean_y = logs.iter().map(|p| p.1).sum::<f64>() / count;
    let sxx: f64 = logs.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    let sxy: f64 = logs.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    let syy: f64 = logs.iter().map(|p| (p.1 - mean_y).powi(2)).sum();
    if sxx <= f64::EPSILON * count * mean_x.abs().max(1.0) {
        return Err(FitError::NoSpread);
    }
    let exponent = sxy / sxx;
    let intercept = mean_y - exponent * mean_x;
    let residual: f64 = logs.iter().map(|p| (p.1 - intercept - exponent * p.0).powi(2)).sum();
    let r_squared = if syy > 0.0 { (1.0 - residual / syy).clamp(0.0, 1.0) } else { 1.0 };
    Ok(PowerLaw { exponent, prefactor: intercept.exp(), r_squared })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_an_exact_power_law() {
        let points: Vec<(f64, f64)> = [100.0, 300.0, 1000.0, 3000.0]
            .iter()
            .map(|&n| (n, 2e-7 * f64::powf(n, 1.25)))
            .collect();
        let fit = power_law(&points).unwrap();
        assert!((fit.exponent - 1.25).abs() < 1e-12, "{fit:?}");
        assert!((fit.prefactor / 2e-7 - 1.0).abs() < 1e-10, "{fit:?}");
        assert!((fit.r_squared - 1.0).abs() < 1e-12);
        assert!((fit.eval(1e4) / (2e-7 * 1e5) - 1.0).abs() < 1e-10);
    }

    #[test]
    fn matches_a_hand_computed_regression() {
        // ln-space points (0, 0), (1, 1), (2, 3): slope 1.5, intercept -1/6, r² = 27/28.
        let e = std::f64::consts::E;
        let fit = power_law(&[(1.0, 1.0), (e, e), (e * e, e.powi(3))]).unwrap();
        assert!((fit.exponent - 1.5).abs() < 1e-12);
        assert!((fit.prefactor.ln() + 1.0 / 6.0).abs() < 1e-12);
        assert!((fit.r_squared - 27.0 / 28.0).abs() < 1e-12);
    }

    #[test]
    fn flat_data_fits_exactly() {
        let fit = power_law(&[(1.0, 5.0), (10.0, 5.0)]).unwrap();
        assert!(fit.exponent.abs() < 1e-15 && fit.r_squared == 1.0);
    }

    #[test]
    fn rejects_what_has_no_log_or_no_slope() {
        assert_eq!(power_law(&[(1.0, 1.0)]), Err(FitError::TooFewPoints(1)));
        assert_eq!(power_law(&[(1.0, 1.0), (0.0, 2.0)]), Err(FitError::NotPositive(0.0, 2.0)));
        assert!(matches!(
            power_law(&[(2.0, 1.0), (2.0, f64::NAN)]),
            Err(FitError::NotPositive(..))
        ));
        assert_eq!(power_law(&[(2.0, 1.0), (2.0, 3.0)]), Err(FitError::NoSpread));
    }
}
