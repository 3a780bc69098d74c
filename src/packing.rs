//! Packing facts: the unit-ball volume, the densest packing fractions, and how many points at
//! mutual distance ≥ r fit in a box (the point budget every radius-driven sampler checks before
//! it accepts a radius). The one place these constants live; the metrics use them too.

use crate::domain::Domain;

/// Density `η_D` of the densest lattice packing of equal balls in `dim` = 1..=8 dimensions,
/// in closed form (1, π/√12, π/√18, π²/16, π²/(15√2), π³/(48√3), π³/105, π⁴/384; to six digits
/// 1, 0.906900, 0.740480, 0.616850, 0.465260, 0.372950, 0.295300, 0.253670). `None` outside
/// 1..=8.
///
/// ```
/// assert!((poisson_nd::packing::densest_packing_fraction(2).unwrap() - 0.906900).abs() < 1e-6);
/// ```
pub fn densest_packing_fraction(dim: usize) -> Option<f64> {
    use std::f64::consts::PI;
    let value = match dim {
        1 => 1.0,
        2 => PI / 12f64.sqrt(),
        3 => PI / 18f64.sqrt(),
        4 => PI * PI / 16.0,
        5 => PI * PI / (15.0 * 2f64.sqrt()),
        6 => PI.powi(3) / (48.0 * 3f64.sqrt()),
        7 => PI.powi(3) / 105.0,
        8 => PI.powi(4) / 384.0,
        _ => return None,
    };
    Some(value)
}

/// An upper estimate of how many points at mutual distance ≥ r fit in the box: disjoint balls
/// of radius r/2 around them fill at most the densest-packing fraction η_D of the box grown
/// by r/2 on every side (1 beyond D = 8, where η_D is not tabulated).
pub(crate) fn max_points_estimate<const D: usize>(domain: &Domain<D>, radius: f64) -> f64 {
    max_points_in_extent(domain.extent(), radius)
}

/// [`max_points_estimate`] for a box of sides `extent` (flat sides allowed).
pub(crate) fn max_points_in_extent<const D: usize>(extent: &[f64; D], radius: f64) -> f64 {
    let eta = densest_packing_fraction(D).unwrap_or(1.0);
    let half = radius / 2.0;
    let grown: f64 = extent.iter().map(|l| l + radius).product();
    eta * grown / (unit_ball_volume(D) * half.powi(D as i32))
}

/// Volume of the unit ball in `d` dimensions, `V_d = π^(d/2) / Γ(d/2 + 1)`, by the recurrence
/// `V_d = V_{d−2} · 2π/d` (`V_1 = 2`, `V_2 = π`, `V_3 = 4π/3`).
pub fn unit_ball_volume(d: usize) -> f64 {
    match d {
        0 => 1.0,
        1 => 2.0,
        _ => unit_ball_volume(d - 2) * 2.0 * std::f64::consts::PI / d as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_ball_volumes() {
        assert_eq!(unit_ball_volume(1), 2.0);
        assert!((unit_ball_volume(2) - std::f64::consts::PI).abs() < 1e-15);
        assert!((unit_ball_volume(3) - 4.0 / 3.0 * std::f64::consts::PI).abs() < 1e-14);
    }

    #[test]
    fn estimate_bounds_a_square_lattice() {
        // A square lattice of spacing r in the unit square holds (1/r + 1)^2 points.
        let domain = Domain::<2>::unit();
        let r = 0.1;
        assert!(max_points_estimate(&domain, r) >= 121.0);
    }
}
