//! The Halton sequence: radical inverses in the first D primes, plain or randomly scrambled.

use crate::config::{Builder, Capabilities};
use crate::domain::Domain;
use crate::error::Error;
use crate::point::Point;
use crate::region::shape::SamplerRegion;
use crate::rng::uniform_index;
use crate::sampler::{PointSet, Sampler};
use crate::samplers::sequence::run_sequence;
use rand::Rng;

/// The first 64 primes: the bases of the Halton sequence, one per axis.
const PRIMES: [u32; 64] = [
    2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97,
    101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167, 173, 179, 181, 191, 193,
    197, 199, 211, 223, 227, 229, 233, 239, 241, 251, 257, 263, 269, 271, 277, 281, 283, 293, 307,
    311,
];

/// The largest dimension [`Halton`] supports: one prime base per axis from a table of 64.
pub(crate) const MAX_DIM: usize = PRIMES.len();
const _: () = assert!(MAX_DIM == 64, "the documentation says 64 dimensions");

/// The Halton sequence (Halton 1960, "On the efficiency of certain quasi-random sequences of
/// points in evaluating multi-dimensional integrals"): the point with index `i` has, on axis
/// `j`, the radical inverse of `i` in the `j`-th prime base (2, 3, 5, 7, ...): the base-`b`
/// digits of `i` mirrored behind the radix point, `Σ d_k b^(−k−1)`. Scaled to the domain.
///
/// - **Indices start at 1**, because index 0 is the corner `origin` on every axis; in 2D the
///   points are (1/2, 1/3), (1/4, 2/3), (3/4, 1/9), ... in the unit square.
///   [`with_skip(s)`](Builder::with_skip) starts at index `1 + s`.
/// - The **plain** sequence is deterministic: it never reads the generator, every seed gives
///   the same points.
/// - [`with_randomized`](Builder::with_randomized) applies a random digit permutation (Owen
///   2017, "A randomized Halton algorithm in R"): for every axis and every digit position an
///   independent, uniformly random permutation of the digits `0..b`, drawn from the
///   generator handed to [`Sampler::sample`] at the start of each run. All digit positions
///   down to `b^−K ≤ 2^−64` are permuted (the trailing zeros of an index too), so each point
///   is uniform in the box, different seeds give independent sets, and the stratification
///   that makes the sequence low-discrepancy is kept: any `b^k` consecutive indices still
///   put one point in each of the `b^k` intervals `[m/b^k, (m+1)/b^k)` of axis `j`.
///
/// Guarantees: exactly `n` points (up to the point limit), strictly inside the half-open box
/// (a coordinate that rounds onto the upper face is moved one float down), and the radical
/// inverse of the plain sequence is correctly rounded while `b^digits < 2^53`. O(n·D·log n)
/// time, plus O(Σ_j b_j · 64/log2 b_j) for the permutations of a randomized run. There is
/// **no minimum distance**: the points are evenly spread in the sense of discrepancy, not of
/// spacing, and axes with large bases are strongly correlated for the first indices
/// (visible in 2D projections of high dimensions).
///
/// **In a region** ([`with_region`](Builder::with_region)) the sequence is laid over the part of
/// the box the region's bounding box covers, and the points that fall in the region are kept,
/// in index order, until there are `n` (rejection along the sequence). The kept points are
/// the sequence's own, so its stratification survives wherever the boundary does not cut: over
/// any `Π b_j^(k_j)` consecutive indices, every elementary box of that size lying wholly in the
/// region still receives exactly one point; only the boxes the boundary cuts get their points
/// unevenly. (Warping the sequence into the region instead would keep the count without
/// rejection, but no map from a box onto a general shape keeps the boxes' volumes.)
/// [`PointSet::attempts`] counts the indices used.
///
/// ```
/// use poisson_nd::{Domain, Halton, Sampler};
/// let halton = Halton::new(Domain::<2>::unit())?;
/// let set = halton.sample_seeded(3, 42);
/// assert_eq!(set.points, vec![[0.5, 1.0 / 3.0], [0.25, 2.0 / 3.0], [0.75, 1.0 / 9.0]]);
/// // Scrambled: a different low-discrepancy set per seed.
/// let scrambled = halton.to_builder().with_randomized(true).build()?;
/// assert_ne!(scrambled.sample_seeded(100, 1).points, scrambled.sample_seeded(100, 2).points);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Halton<const D: usize> {
    domain: Domain<D>,
    skip: u64,
    randomized: bool,
    max_points: usize,
    region: SamplerRegion<D>,
}

/// The Halton sequence's own options, beside the shared settings of its [`Builder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HaltonOptions {
    skip: u64,
    randomized: bool,
}

/// The configuration of a [`Halton`] sequence before it is checked: a region (the sequence is
/// laid over its box and the points outside it dropped), the point limit, the skip and the
/// scrambling.
pub type HaltonBuilder<const D: usize> = Builder<D, HaltonOptions>;

impl<const D: usize> Builder<D, HaltonOptions> {
    /// Skips the first `s` points of the sequence: the first point has index `1 + s`.
    #[must_use]
    pub fn with_skip(mut self, s: u64) -> Self {
        self.options.skip = s;
        self
    }

    /// Whether the sequence is randomly scrambled (random digit permutations per axis and
    /// digit position, drawn from the generator at each run; default no). The scrambled
    /// sequence's label is `"halton-randomized"`.
    #[must_use]
    pub fn with_randomized(mut self, randomized: bool) -> Self {
        self.options.randomized = randomized;
        self
    }

    /// Checks the configuration. Errors: a dimension above 64 ([`Capabilities::max_dimension`](crate::Capabilities::max_dimension)); a point limit of 0
    /// or above 2147483647; with a region, a periodic domain, a region that misses the
    /// domain's box, or one with no point found in it.
    ///
    /// ```
    /// use poisson_nd::region::{Ball, Region};
    /// use poisson_nd::{Domain, Halton, Sampler};
    /// let ball = Ball::new([0.5, 0.5, 0.5], 0.4)?;
    /// let halton = Halton::builder(Domain::<3>::unit()).with_region(ball).build()?;
    /// let set = halton.sample_seeded(100, 0);
    /// assert_eq!(set.len(), 100);
    /// assert!(set.points.iter().all(|p| ball.contains(p)));
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn build(self) -> Result<Halton<D>, Error> {
        if D > MAX_DIM {
            return Err(Error::InvalidParameter {
                name: "dimension (Halton)",
                expected: "at most 64, the number of tabulated prime bases",
                value: D as f64,
            });
        }
        let checked = self.config.check("halton", &Halton::<D>::CAPABILITIES)?;
        Ok(Halton {
            domain: checked.domain,
            skip: self.options.skip,
            randomized: self.options.randomized,
            max_points: checked.max_points,
            region: checked.region,
        })
    }
}

impl<const D: usize> Halton<D> {
    /// What the Halton sequence supports: regions, any box, up to 64 ([`Capabilities::max_dimension`](crate::Capabilities::max_dimension)) dimensions
    /// (the tabulated prime bases).
    pub const CAPABILITIES: Capabilities =
        Capabilities { max_dimension: MAX_DIM, ..Capabilities::COUNT_DRIVEN };

    /// The plain Halton sequence in `domain`, starting at index 1, with every default.
    /// Errors when `D` is above 64 ([`Capabilities::max_dimension`](crate::Capabilities::max_dimension)) (a [`Domain`] has at least one dimension).
    pub fn new(domain: Domain<D>) -> Result<Self, Error> {
        Self::builder(domain).build()
    }

    /// The configuration of the Halton sequence in `domain`; set what you need, then
    /// [`build`](Builder::build).
    pub fn builder(domain: Domain<D>) -> HaltonBuilder<D> {
        Builder::from_defaults(domain, None, HaltonOptions::default())
    }

    /// This sampler's configuration, to change and build again.
    pub fn to_builder(&self) -> HaltonBuilder<D> {
        let mut builder = Self::builder(self.domain).with_max_points(self.max_points);
        builder.config.region = self.region.user_region();
        builder.options = HaltonOptions { skip: self.skip, randomized: self.randomized };
        builder
    }

    /// The number of indices skipped.
    pub fn skip(&self) -> u64 {
        self.skip
    }

    /// Whether the sequence is scrambled.
    pub fn is_randomized(&self) -> bool {
        self.randomized
    }
}

/// Digit positions a scrambled radical inverse in base `b` permutes: the smallest `K` with
/// `b^K ≥ 2^64`, enough for every `u64` index and finer than `f64` resolution.
fn scrambled_digits(base: u64) -> usize {
    let mut power: u128 = 1;
    let mut digits = 0;
    while power < 1u128 << 64 {
        power *= u128::from(base);
        digits += 1;
    }
    digits
}

/// The radical inverse of `index` in `base` (2..=311), in [0, 1). With `permutations`
/// (`digits` blocks of `base` entries, block `k` permuting digit `k`), every one of the
/// first `digits` digits is replaced by its image, trailing zeros included.
///
/// Computed as one integer fraction `num / base^K` (K = the digits used), so the plain value
/// has a single rounding while both fit in 53 bits.
fn radical_inverse(mut index: u64, base: u64, permutations: Option<(&[u16], usize)>) -> f64 {
    let b = u128::from(base);
    let (mut num, mut den) = (0u128, 1u128);
    match permutations {
        None => {
            while index > 0 {
                num = num * b + u128::from(index % base);
                den *= b;
                index /= base;
            }
        }
        Some((table, digits)) => {
            let width = base as usize;
            for k in 0..digits {
                let digit = (index % base) as usize;
                index /= base;
                num = num * b + u128::from(table[k * width + digit]);
                den *= b;
            }
        }
    }
    let x = num as f64 / den as f64;
    // num < den, but the quotient of their roundings may round up to 1.
    if x < 1.0 { x } else { 1.0f64.next_down() }
}

impl<const D: usize> Sampler<D> for Halton<D> {
    fn name(&self) -> &'static str {
        "halton"
    }

    fn label(&self) -> String {
        let label = if self.randomized { "halton-randomized" } else { "halton" };
        label.to_string()
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D> {
        let count = n.min(self.max_points);

        // Per axis: the base, and (randomized) the permutation table and its digit count.
        let tables: Vec<(Vec<u16>, usize)> = if self.randomized && count > 0 {
            PRIMES[..D]
                .iter()
                .map(|&base| {
                    let base = base as usize;
                    let digits = scrambled_digits(base as u64);
                    let mut table: Vec<u16> = Vec::with_capacity(digits * base);
                    for _ in 0..digits {
                        let start = table.len();
                        table.extend(0..base as u16);
                        let block = &mut table[start..];
                        // Fisher–Yates: a uniformly random permutation of the digits.
                        for i in (1..base).rev() {
                            block.swap(i, uniform_index(rng, i + 1));
                        }
                    }
                    (table, digits)
                })
                .collect()
        } else {
            Vec::new()
        };

        let point_at = |index: u64| -> Point<D> {
            std::array::from_fn(|axis| {
                let permutations = tables.get(axis).map(|(t, digits)| (t.as_slice(), *digits));
                radical_inverse(index, u64::from(PRIMES[axis]), permutations)
            })
        };
        // Indices run from 1 + skip to u64::MAX.
        let available = u64::MAX - self.skip;
        run_sequence(&self.domain, &self.region, n, self.max_points, available, |j| {
            point_at(1 + self.skip + j)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_holds_the_first_primes() {
        let mut primes = Vec::new();
        let mut candidate = 2u32;
        while primes.len() < PRIMES.len() {
            if primes.iter().all(|p| !candidate.is_multiple_of(*p)) {
                primes.push(candidate);
            }
            candidate += 1;
        }
        assert_eq!(primes, PRIMES);
    }

    #[test]
    fn radical_inverses_are_correctly_rounded_fractions() {
        assert_eq!(radical_inverse(0, 2, None), 0.0);
        assert_eq!(radical_inverse(1, 2, None), 0.5);
        assert_eq!(radical_inverse(6, 2, None), 0.375); // 110 → 0.011
        assert_eq!(radical_inverse(5, 3, None), 7.0 / 9.0); // 12 → 0.21
        assert_eq!(radical_inverse(7, 5, None), 11.0 / 25.0); // 12 → 0.21
        assert_eq!(radical_inverse(u64::MAX, 2, None), 1.0f64.next_down());
    }

    #[test]
    fn identity_permutations_give_the_plain_values() {
        for base in [2u64, 3, 7, 311] {
            let digits = scrambled_digits(base);
            let table: Vec<u16> = (0..digits).flat_map(|_| 0..base as u16).collect();
            for index in [1u64, 2, 17, 1000, 123_456_789] {
                let plain = radical_inverse(index, base, None);
                let scrambled = radical_inverse(index, base, Some((&table, digits)));
                assert!((plain - scrambled).abs() < 1e-15, "{base} {index}");
            }
        }
    }

    #[test]
    fn scrambled_digit_counts_reach_2_to_the_64() {
        assert_eq!(scrambled_digits(2), 64);
        assert_eq!(scrambled_digits(3), 41);
        assert_eq!(scrambled_digits(311), 8);
    }
}
