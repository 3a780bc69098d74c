//! Nearest-neighbour distances and what is read from them: minimum, mean, standard
//! deviation, median, histogram, cluster rate and the Clark–Evans ratio.

use crate::metrics::NeighbourIndex;
use poisson_nd::{Domain, Point};
use serde::Serialize;

/// The distance from every point to its nearest other point (toroidal in a periodic
/// domain), in input order. A one-point set gives `[f64::INFINITY]`, an empty set `[]`.
///
/// ```
/// use experiments::metrics::nearest_neighbour_distances;
/// use poisson_nd::Domain;
/// let d = nearest_neighbour_distances(&[[0.1], [0.2], [0.9]], &Domain::<1>::unit().periodic());
/// assert!((d[0] - 0.1).abs() < 1e-12 && (d[1] - 0.1).abs() < 1e-12);
/// assert!((d[2] - 0.2).abs() < 1e-12); // across the seam: 0.9 → 1.1
/// # Ok::<(), poisson_nd::Error>(())
/// ```
pub fn nearest_neighbour_distances<const D: usize>(
    points: &[Point<D>],
    domain: &Domain<D>,
) -> Vec<f64> {
    NeighbourIndex::new(points, domain).nearest_neighbour_distances()
}

/// Fraction of points whose nearest neighbour is strictly closer than `r`, from the
/// nearest-neighbour distances; 0 for an empty set.
pub fn cluster_rate(nn_distances: &[f64], r: f64) -> f64 {
    if nn_distances.is_empty() {
        return 0.0;
    }
    nn_distances.iter().filter(|&&d| d < r).count() as f64 / nn_distances.len() as f64
}

/// The Clark–Evans aggregation index `R = observed mean NN / expected mean NN`: about 1 for
/// white noise, below 1 for clustered and above 1 for regular sets (a hexagonal lattice
/// reaches 2.15 against the 2D Poisson formula).
pub fn clark_evans(observed_mean_nn: f64, expected_mean_nn: f64) -> f64 {
    observed_mean_nn / expected_mean_nn
}

/// Counts of values in equal-width bins `[lower + i·width, lower + (i+1)·width)`; the last
/// bin also holds values equal to its upper edge.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Histogram {
    /// Lower edge of the first bin.
    pub lower: f64,
    /// Width of every bin.
    pub bin_width: f64,
    /// Number of values in each bin.
    pub counts: Vec<u64>,
    /// Values below `lower` or above the last edge (not in any bin).
    pub outside: u64,
}

impl Histogram {
    /// A histogram of `values` over `[lower, upper]` with `bins` bins (at least one; a
    /// degenerate range gets width 1).
    pub fn new(values: &[f64], lower: f64, upper: f64, bins: usize) -> Self {
        let bins = bins.max(1);
        let width = if upper > lower { (upper - lower) / bins as f64 } else { 1.0 };
        let mut counts = vec![0u64; bins];
        let mut outside = 0;
        for &v in values {
            if !(v >= lower && v <= lower + width * bins as f64) {
                outside += 1;
                continue;
            }
            let i = (((v - lower) / width) as usize).min(bins - 1);
            counts[i] += 1;
        }
        Histogram { lower, bin_width: width, counts, outside }
    }

    /// The lower edge of bin `i`.
    pub fn edge(&self, i: usize) -> f64 {
        self.lower + self.bin_width * i as f64
    }
}

/// Summary of nearest-neighbour distances.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NearestNeighbourStats {
    /// Number of distances summarised (points with a neighbour).
    pub count: usize,
    /// Smallest nearest-neighbour distance: the minimum pairwise distance of the set.
    pub min: f64,
    /// Largest nearest-neighbour distance.
    pub max: f64,
    /// Mean.
    pub mean: f64,
    /// Sample standard deviation (divisor `count − 1`; 0 for one value).
    pub std: f64,
    /// Median (mean of the two middle values for an even count).
    pub median: f64,
    /// Histogram over `[0, max]` (see [`NearestNeighbourStats::with_histogram_up_to`]).
    pub histogram: Histogram,
}

/// Statistics of the finite nearest-neighbour distances (a one-point set has none: `None`),
/// with a histogram of `bins` bins over `[0, max]`.
pub fn nearest_neighbour_stats(nn_distances: &[f64], bins: usize) -> Option<NearestNeighbourStats> {
    let mut sorted: Vec<f64> = nn_distances.iter().copied().filter(|d| d.is_finite()).collect();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_by(f64::total_cmp);
    let count = sorted.len();
    let mean = sorted.iter().sum::<f64>() / count as f64;
    let var = if count > 1 {
        sorted.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / (count - 1) as f64
    } else {
        0.0
    };
    let median = if count % 2 == 1 {
        sorted[count / 2]
    } else {
        0.5 * (sorted[count / 2 - 1] + sorted[count / 2])
    };
    let max = sorted[count - 1];
    Some(NearestNeighbourStats {
        count,
        min: sorted[0],
        max,
        mean,
        std: var.sqrt(),
        median,
        histogram: Histogram::new(&sorted, 0.0, max, bins),
    })
}

impl NearestNeighbourStats {
    /// The same statistics with the histogram of `nn_distances` redrawn over `[0, upper]`
    /// in `bins` bins (distances above land in [`Histogram::outside`]).
    pub fn with_histogram_up_to(mut self, nn_distances: &[f64], upper: f64, bins: usize) -> Self {
        let finite: Vec<f64> = nn_distances.iter().copied().filter(|d| d.is_finite()).collect();
        self.histogram = Histogram::new(&finite, 0.0, upper, bins);
        self
    }
}

impl Histogram {
    /// The bin edges, one more than the bins.
    pub fn edges(&self) -> Vec<f64> {
        (0..=self.counts.len()).map(|i| self.edge(i)).collect()
    }

    /// Each bin's count as a density: count / (`total` · bin width), where `total` is the
    /// number of values histogrammed, those outside the bins included.
    pub fn densities(&self) -> Vec<f64> {
        let total = self.counts.iter().sum::<u64>() + self.outside;
        let scale = 1.0 / (total as f64 * self.bin_width);
        self.counts.iter().map(|&c| c as f64 * scale).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_of_a_small_list() {
        let s = nearest_neighbour_stats(&[1.0, 3.0, 2.0, 4.0, f64::INFINITY], 4).unwrap();
        assert_eq!(s.count, 4);
        assert_eq!((s.min, s.max, s.mean, s.median), (1.0, 4.0, 2.5, 2.5));
        assert!((s.std - (5.0f64 / 3.0).sqrt()).abs() < 1e-15);
        assert_eq!(s.histogram.counts, vec![0, 1, 1, 2]);
        assert_eq!(cluster_rate(&[1.0, 3.0, 2.0, 4.0], 2.0), 0.25);
    }
}
