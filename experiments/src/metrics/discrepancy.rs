//! L2-star discrepancy by Warnock's formula.

use crate::metrics::to_unit_cube;
use poisson_nd::{Domain, Point};

/// Squared L2-star discrepancy of the points mapped onto the unit cube by `domain`
/// (see [`crate::metrics::to_unit_cube`]), by Warnock's formula
///
/// `T² = 3^−D − (2^(1−D)/N) Σ_i Π_a (1 − u_ia²) + (1/N²) Σ_i Σ_j Π_a (1 − max(u_ia, u_ja))`,
///
/// the mean over anchored boxes `[0, y)` of (fraction of points in the box − its volume)².
/// O(N² D) time: meant for moderate N (a few ten thousand). NaN for an empty set.
///
/// ```
/// use experiments::metrics::l2_star_discrepancy_squared;
/// use poisson_nd::Domain;
/// // One point at u in 1D: T² = 1/3 − (1 − u²) + (1 − u).
/// let t2 = l2_star_discrepancy_squared(&[[0.25]], &Domain::<1>::unit());
/// assert!((t2 - (1.0 / 3.0 - (1.0 - 0.0625) + 0.75)).abs() < 1e-15);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
pub fn l2_star_discrepancy_squared<const D: usize>(points: &[Point<D>], domain: &Domain<D>) -> f64 {
    let u = to_unit_cube(points, domain);
    let n = u.len();
    if n == 0 {
        return f64::NAN;
    }
    let mut single = 0.0;
    for p in &u {
        single += p.iter().map(|x| 1.0 - x * x).product::<f64>();
    }
    // Off-diagonal pairs twice, diagonal once (1 − max(u, u) = 1 − u).
    let mut double = 0.0;
    for (i, p) in u.iter().enumerate() {
        double += p.iter().map(|x| 1.0 - x).product::<f64>();
        let mut row = 0.0;
        for q in &u[i + 1..] {
            let mut prod = 1.0;
            for a in 0..D {
                prod *= 1.0 - p[a].max(q[a]);
            }
            row += prod;
        }
        double += 2.0 * row;
    }
    let nf = n as f64;
    let d = D as i32;
    3f64.powi(-d) - 2f64.powi(1 - d) / nf * single + double / (nf * nf)
}

/// The L2-star discrepancy, `sqrt` of [`l2_star_discrepancy_squared`] (negative rounding
/// residue clamped to 0).
pub fn l2_star_discrepancy<const D: usize>(points: &[Point<D>], domain: &Domain<D>) -> f64 {
    l2_star_discrepancy_squared(points, domain).max(0.0).sqrt()
}
