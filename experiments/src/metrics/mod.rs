//! The measuring instruments: every number the experiments report about a point set.
//!
//! Each function takes the points as `&[Point<D>]` together with their [`Domain`], and measures
//! distances with [`Domain::distance_squared`]: Euclidean in a closed box, on the torus
//! (minimum image) in a periodic one. The definitions, the white-noise baseline each number
//! is compared with, and the tolerances the tests use are written out in `docs/metrics.md`.
//!
//! | family | module |
//! | --- | --- |
//! | exact neighbour queries (k-d tree, periodic images) | [`neighbours`] |
//! | nearest-neighbour distances, statistics, histogram, cluster rate, Clark–Evans | [`nearest_neighbour`] |
//! | white-noise expectations: closed forms and a simulated reference | [`baseline`] |
//! | minimum pairwise distance, pairs closer than `r` | [`pairs`] |
//! | relative radius, packing fraction | [`relative_radius`](mod@relative_radius) |
//! | coverage | [`coverage`](mod@coverage) |
//! | power spectrum, radial average, anisotropy, effective Nyquist frequency | [`spectrum`] |
//! | pair correlation function (binned; kernel-smoothed as spatstat's `pcf`) | [`pair_correlation`](mod@pair_correlation) |
//! | edge-correction weights: translation, Ripley's isotropic, distance to the boundary | [`edge_correction`] |
//! | the grid of distances the summary functions are evaluated on | [`r_grid`] |
//! | spatial statistics: K, L, g, G, F, J with their edge corrections, as spatstat | [`spatial_stats`](mod@spatial_stats) |
//! | L2-star discrepancy | [`discrepancy`] |
//! | per-point radii: pair-rule violations, NN over own radius | [`varying_radius`] |

use poisson_nd::{Domain, Point};
use serde::Serialize;

pub mod baseline;
pub mod coverage;
pub mod density_follow;
pub mod discrepancy;
pub mod edge_correction;
pub mod nearest_neighbour;
pub mod neighbours;
pub mod pair_correlation;
pub mod pairs;
pub mod r_grid;
pub mod relative_radius;
pub mod spatial_stats;
pub mod spectrum;
pub mod surface;
pub mod varying_radius;

pub use baseline::{SimulatedReference, WhiteNoiseTheory, simulate_white_noise};
pub use coverage::{Coverage, coverage};
pub use density_follow::{DensityFollow, FollowCell, density_follow};
pub use discrepancy::{l2_star_discrepancy, l2_star_discrepancy_squared};
pub use nearest_neighbour::{
    Histogram, NearestNeighbourStats, clark_evans, cluster_rate, nearest_neighbour_distances,
    nearest_neighbour_stats,
};
pub use neighbours::{NeighbourIndex, PairCounts};
pub use pair_correlation::{
    EdgeCorrection, PairCorrelation, pair_correlation, pair_correlation_in,
};
pub use pairs::{closest_pair, min_pair_distance, pairs_closer_than};
pub use relative_radius::{RelativeRadius, densest_packing_fraction, max_spacing, relative_radius};
pub use spatial_stats::{
    Correction, RGrid, SpatialStats, SpatialStatsOptions, SummaryFunction, spatial_stats,
};
pub use spectrum::{
    Periodogram, RadialSpectrum, SpectrumAccumulator, SpectrumOptions, periodogram_at,
    radial_spectrum,
};
pub use varying_radius::{PairRule, RulePair, Spread, VaryingRadiusStats, varying_radius_stats};

pub use poisson_nd::packing::unit_ball_volume;

/// A number estimated from random draws, with its standard error.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    /// The estimate.
    pub value: f64,
    /// Its standard error (one standard deviation of the estimator).
    pub std_error: f64,
}

impl Estimate {
    /// The estimate and its standard error, as a pair.
    pub fn pair(self) -> (f64, f64) {
        (self.value, self.std_error)
    }
}

/// The points mapped affinely onto the unit cube `[0, 1)^D` by the domain's box:
/// `u = (x − origin) / extent`. Spectra and discrepancy are measured on these.
pub fn to_unit_cube<const D: usize>(points: &[Point<D>], domain: &Domain<D>) -> Vec<[f64; D]> {
    let origin = domain.origin();
    let extent = domain.extent();
    points
        .iter()
        .map(|p| {
            let mut u = [0.0; D];
            for a in 0..D {
                u[a] = (p[a] - origin[a]) / extent[a];
            }
            u
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_ball_volumes() {
        assert!((unit_ball_volume(1) - 2.0).abs() < 1e-14);
        assert!((unit_ball_volume(2) - std::f64::consts::PI).abs() < 1e-14);
        assert!((unit_ball_volume(3) - 4.0 / 3.0 * std::f64::consts::PI).abs() < 1e-13);
        let pi = std::f64::consts::PI;
        assert!((unit_ball_volume(4) - pi * pi / 2.0).abs() < 1e-13);
    }
}
