//! Relative radius (Lagae & Dutré 2008) and packing fraction.

use crate::metrics::{min_pair_distance, unit_ball_volume};
pub use poisson_nd::packing::densest_packing_fraction;
use poisson_nd::{Domain, Point};
use serde::Serialize;

/// The spacing of `n` points in volume `volume` at the densest lattice packing:
/// `d_max = 2 (η_D V / (N V_D))^(1/D)` (`sqrt(2V / (√3 N))` in 2D, `V/N` in 1D).
/// `None` for a dimension outside 1..=8 or `n = 0`.
pub fn max_spacing(dim: usize, n: usize, volume: f64) -> Option<f64> {
    let eta = densest_packing_fraction(dim)?;
    if n == 0 {
        return None;
    }
    Some(2.0 * (eta * volume / (n as f64 * unit_ball_volume(dim))).powf(1.0 / dim as f64))
}

/// Packing fraction of `n` balls of diameter `r` (a Poisson-disk radius: pairs keep
/// distance `r`, so balls of radius `r/2` do not overlap) in volume `volume`:
/// `N V_D (r/2)^D / V`.
pub fn packing_fraction(dim: usize, n: usize, volume: f64, r: f64) -> f64 {
    n as f64 * unit_ball_volume(dim) * (r / 2.0).powi(dim as i32) / volume
}

/// Relative radius and packing fraction of a point set, measured and (when a nominal
/// Poisson-disk radius is known) nominal.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RelativeRadius {
    /// Minimum pairwise distance (toroidal in a periodic domain).
    pub d_min: f64,
    /// Densest-packing spacing at this density, see [`max_spacing`].
    pub d_max: f64,
    /// `ρ_rel = d_min / d_max`: 1 for the densest lattice, about 0.75–0.9 for good
    /// Poisson-disk sets.
    pub relative_radius: f64,
    /// `N V_D (d_min/2)^D / V` `= η_D ρ_rel^D`.
    pub packing_fraction: f64,
    /// The nominal radius the sampler was asked for, if given.
    pub nominal_radius: Option<f64>,
    /// `r_nominal / d_max`.
    pub nominal_relative_radius: Option<f64>,
    /// `N V_D (r_nominal/2)^D / V`.
    pub nominal_packing_fraction: Option<f64>,
}

/// Relative radius and packing fraction of `points` in `domain`; `None` with fewer than two
/// points or `D > 8`.
///
/// ```
/// use experiments::metrics::relative_radius;
/// use poisson_nd::Domain;
/// // A 4 × 4 square grid on the unit torus: d_min = 1/4, packing 16 π (1/8)² = π/4.
/// let grid: Vec<[f64; 2]> =
///     (0..16).map(|i| [(i % 4) as f64 / 4.0, (i / 4) as f64 / 4.0]).collect();
/// let rr = relative_radius(&grid, &Domain::unit().periodic(), None).unwrap();
/// assert!((rr.packing_fraction - std::f64::consts::PI / 4.0).abs() < 1e-12);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
pub fn relative_radius<const D: usize>(
    points: &[Point<D>],
    domain: &Domain<D>,
    nominal_radius: Option<f64>,
) -> Option<RelativeRadius> {
    let d_min = min_pair_distance(points, domain)?;
    relative_radius_from(D, points.len(), domain.volume(), d_min, nominal_radius)
}

/// [`relative_radius`] from a minimum distance that is already known.
pub fn relative_radius_from(
    dim: usize,
    n: usize,
    volume: f64,
    d_min: f64,
    nominal_radius: Option<f64>,
) -> Option<RelativeRadius> {
    let d_max = max_spacing(dim, n, volume)?;
    Some(RelativeRadius {
        d_min,
        d_max,
        relative_radius: d_min / d_max,
        packing_fraction: packing_fraction(dim, n, volume, d_min),
        nominal_radius,
        nominal_relative_radius: nominal_radius.map(|r| r / d_max),
        nominal_packing_fraction: nominal_radius.map(|r| packing_fraction(dim, n, volume, r)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_matches_reference_values() {
        let table = [1.0, 0.906900, 0.740480, 0.616850, 0.465260, 0.372950, 0.295300, 0.253670];
        for (i, want) in table.iter().enumerate() {
            let got = densest_packing_fraction(i + 1).unwrap();
            assert!((got - want).abs() < 5e-6, "D={} {got} {want}", i + 1);
        }
        assert_eq!(densest_packing_fraction(9), None);
        // 2D closed form of d_max.
        let d = max_spacing(2, 100, 3.0).unwrap();
        assert!((d - (2.0 * 3.0 / (3f64.sqrt() * 100.0)).sqrt()).abs() < 1e-14);
        assert!((max_spacing(1, 8, 2.0).unwrap() - 0.25).abs() < 1e-15);
    }
}
