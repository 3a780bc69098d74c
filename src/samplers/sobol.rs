//! The Sobol sequence with Joe–Kuo direction numbers, plain or Owen-scrambled.

use crate::config::{Builder, Capabilities};
use crate::domain::Domain;
use crate::error::Error;
use crate::region::shape::SamplerRegion;
use crate::rng::fraction_of;
use crate::sampler::{PointSet, Sampler};
use crate::samplers::sequence::run_sequence;
use crate::samplers::sobol_directions::{INITIAL_NUMBERS, POLYNOMIALS};
use rand::Rng;

/// The largest dimension [`Sobol`] supports: axis 0 and the 1023 axes of the tabulated
/// Joe–Kuo direction numbers.
pub(crate) const MAX_DIM: usize = POLYNOMIALS.len() + 1;
const _: () = assert!(MAX_DIM == 1024, "the documentation says 1024 dimensions");

/// The Sobol sequence (Sobol' 1967) with the direction numbers of Joe and Kuo (2008,
/// "Constructing Sobol sequences with better two-dimensional projections", the table
/// `new-joe-kuo-6.21201`), plain or with Owen's nested uniform scrambling (Owen 1995) in its
/// hash-based form (Laine and Karras 2011; Burley 2020, "Practical hash-based Owen
/// scrambling").
///
/// The point with index `i` has, on axis `j`, the 64-bit digit string `⊕_k i_k v_{j,k}`:
/// the exclusive or of the direction numbers `v_{j,k}` of the bits `i_k` set in `i`, read as
/// a binary fraction (rounded down to 53 bits). Axis 0 is the van der Corput sequence; the
/// others come from a primitive polynomial over GF(2) and its initial numbers. Indices run in
/// their natural order from 0 (the corner `origin`, as in Joe and Kuo's and scipy's
/// sequences); [`with_skip(s)`](Builder::with_skip) starts at index `s`.
///
/// - **Nets.** For every `m`, the `2^m` points of indices `q·2^m .. (q+1)·2^m` form a
///   `(t, m, D)`-net in base 2: every elementary box `Π [a_j 2^−k_j, (a_j + 1) 2^−k_j)` of
///   volume `2^(t−m)` holds exactly `2^t` of them. Axes 0 and 1 alone have `t = 0`: one point
///   in every elementary rectangle of area `2^−m`. A count that is a power of two gets the
///   full balance; other counts are prefixes (progressive: the first `n` points of a longer
///   run are the points of a run of `n`).
/// - **Owen-scrambled** ([`with_owen_scrambling`](Builder::with_owen_scrambling), label
///   `"sobol-owen"`): every axis's digit string goes through a random permutation that flips each digit
///   depending only on the digits before it (a nested uniform scramble), keyed by one
///   64-bit seed per axis drawn from the generator handed to [`Sampler::sample`]. Such a
///   permutation maps elementary boxes onto elementary boxes, so every net above stays a
///   net; each point becomes uniform in the box, different seeds give independent sets, and
///   the digits past the index's own are random (the points are jittered inside their
///   finest strata). The flips come from a seeded hash of the preceding digits, not from
///   independent coins: the approximation of Burley (2020), here on 64 bits.
/// - The **plain** sequence is deterministic: it never reads the generator.
///
/// Guarantees: exactly `n` points (up to the point limit), strictly inside the half-open box.
/// O(n·D·log n) time, O(D) memory beyond the points. There is **no minimum distance**: the
/// sequence is evenly spread in the sense of discrepancy, not of spacing. In a region the
/// sequence is laid over the region's bounding box and its points that fall in the region are
/// kept in index order, as [`Halton`](crate::Halton) does.
///
/// ```
/// use poisson_nd::{Domain, Sampler, Sobol};
/// let sobol = Sobol::new(Domain::<2>::unit())?;
/// let set = sobol.sample_seeded(4, 0);
/// assert_eq!(set.points, vec![[0.0, 0.0], [0.5, 0.5], [0.25, 0.75], [0.75, 0.25]]);
/// // Owen-scrambled: a different net per seed, every point inside its own quarter.
/// let owen = sobol.to_builder().with_owen_scrambling(true).build()?;
/// let points = owen.sample_seeded(4, 7).points;
/// let mut quarters: Vec<usize> = points.iter().map(|p| (p[0] * 4.0) as usize).collect();
/// quarters.sort();
/// assert_eq!(quarters, vec![0, 1, 2, 3]);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Sobol<const D: usize> {
    domain: Domain<D>,
    skip: u64,
    owen: bool,
    max_points: usize,
    region: SamplerRegion<D>,
}

/// The Sobol sequence's own options, beside the shared settings of its [`Builder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SobolOptions {
    skip: u64,
    owen: bool,
}

/// The configuration of a [`Sobol`] sequence before it is checked: a region, the point limit,
/// the skip and the scrambling.
pub type SobolBuilder<const D: usize> = Builder<D, SobolOptions>;

impl<const D: usize> Builder<D, SobolOptions> {
    /// Skips the first `s` points of the sequence: the first point has index `s`.
    #[must_use]
    pub fn with_skip(mut self, s: u64) -> Self {
        self.options.skip = s;
        self
    }

    /// Whether the sequence is Owen-scrambled (a nested uniform scramble per axis, keyed by
    /// seeds drawn from the generator at each run; default no). The scrambled sequence's
    /// label is `"sobol-owen"`.
    #[must_use]
    pub fn with_owen_scrambling(mut self, scrambled: bool) -> Self {
        self.options.owen = scrambled;
        self
    }

    /// Checks the configuration. Errors: a dimension above 1024 ([`Capabilities::max_dimension`](crate::Capabilities::max_dimension)); a point limit of 0
    /// or above 2147483647; with a region, a periodic domain, a region that misses the
    /// domain's box, or one with no point found in it.
    pub fn build(self) -> Result<Sobol<D>, Error> {
        if D > MAX_DIM {
            return Err(Error::InvalidParameter {
                name: "dimension (Sobol)",
                expected: "at most 1024, the number of tabulated direction numbers",
                value: D as f64,
            });
        }
        let checked = self.config.check("sobol", &Sobol::<D>::CAPABILITIES)?;
        Ok(Sobol {
            domain: checked.domain,
            skip: self.options.skip,
            owen: self.options.owen,
            max_points: checked.max_points,
            region: checked.region,
        })
    }
}

impl<const D: usize> Sobol<D> {
    /// What the Sobol sequence supports: regions, any box, up to 1024 ([`Capabilities::max_dimension`](crate::Capabilities::max_dimension)) dimensions.
    pub const CAPABILITIES: Capabilities =
        Capabilities { max_dimension: MAX_DIM, ..Capabilities::COUNT_DRIVEN };

    /// The plain Sobol sequence in `domain`, from index 0, with every default. Errors when
    /// `D` is above 1024 ([`Capabilities::max_dimension`](crate::Capabilities::max_dimension)).
    pub fn new(domain: Domain<D>) -> Result<Self, Error> {
        Self::builder(domain).build()
    }

    /// The configuration of the Sobol sequence in `domain`; set what you need, then
    /// [`build`](Builder::build).
    pub fn builder(domain: Domain<D>) -> SobolBuilder<D> {
        Builder::from_defaults(domain, None, SobolOptions::default())
    }

    /// This sampler's configuration, to change and build again.
    pub fn to_builder(&self) -> SobolBuilder<D> {
        let mut builder = Self::builder(self.domain).with_max_points(self.max_points);
        builder.config.region = self.region.user_region();
        builder.options = SobolOptions { skip: self.skip, owen: self.owen };
        builder
    }

    /// The number of indices skipped.
    pub fn skip(&self) -> u64 {
        self.skip
    }

    /// Whether the sequence is Owen-scrambled.
    pub fn is_owen_scrambled(&self) -> bool {
        self.owen
    }
}

/// The 64 direction numbers of `axis` (below 1024 ([`Capabilities::max_dimension`](crate::Capabilities::max_dimension))), as 64-bit binary fractions:
/// entry `k` is the one index bit `k` contributes.
pub(crate) fn direction_numbers(axis: usize) -> [u64; 64] {
    let mut v = [0u64; 64];
    if axis == 0 {
        for (k, vk) in v.iter_mut().enumerate() {
            *vk = 1u64 << (63 - k);
        }
        return v;
    }
    let polynomial = u64::from(POLYNOMIALS[axis - 1]);
    let degree = (63 - polynomial.leading_zeros()) as usize;
    let start: usize =
        POLYNOMIALS[..axis - 1].iter().map(|p| (15 - p.leading_zeros()) as usize).sum();
    // v_k = m_k / 2^k, held as m_k · 2^(64−k) (k counted from 1).
    for k in 0..degree.min(64) {
        v[k] = u64::from(INITIAL_NUMBERS[start + k]) << (63 - k);
    }
    // The recurrence of the polynomial x^s + a_1 x^(s−1) + ... + a_(s−1) x + 1:
    // v_k = v_(k−s) ⊕ (v_(k−s) >> s) ⊕ ⊕_(j<s) a_j v_(k−j).
    for k in degree..64 {
        let mut value = v[k - degree] ^ (v[k - degree] >> degree);
        for j in 1..degree {
            if (polynomial >> (degree - j)) & 1 == 1 {
                value ^= v[k - j];
            }
        }
        v[k] = value;
    }
    v
}

/// The digit string of index `i` on the axis whose direction numbers are `v`.
#[inline]
pub(crate) fn sobol_digits(mut i: u64, v: &[u64; 64]) -> u64 {
    let mut x = 0;
    while i != 0 {
        x ^= v[i.trailing_zeros() as usize];
        i &= i - 1;
    }
    x
}

/// A nested uniform scramble of the digit string `x` (first digit in the top bit), keyed by
/// `seed`: with the digits reversed, every step below changes bit `k` by a function of bits
/// `0..k` only (adding, multiplying by an odd number, and xoring with a multiple by an even
/// number all do), so digit `k` of `x` is flipped according to the digits before it alone.
#[inline]
pub(crate) fn owen_scramble(x: u64, seed: u64) -> u64 {
    let mut v = x.reverse_bits();
    v ^= v.wrapping_mul(0x6c50_b47c_c3a1_e1b2);
    v = v.wrapping_add(seed);
    v = v.wrapping_mul((seed >> 31) | 1);
    v ^= v.wrapping_mul(0xb82f_1e52_9d6a_4c3e);
    v ^= v.wrapping_mul(0xc7af_e638_5b2d_81f4);
    v = v.wrapping_add(seed.rotate_left(17));
    v ^= v.wrapping_mul(0x8d22_f6e6_a3c1_7d0a);
    v.reverse_bits()
}

impl<const D: usize> Sampler<D> for Sobol<D> {
    fn name(&self) -> &'static str {
        "sobol"
    }

    fn label(&self) -> String {
        let label = if self.owen { "sobol-owen" } else { "sobol" };
        label.to_string()
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D> {
        let directions: Vec<[u64; 64]> = (0..D).map(direction_numbers).collect();
        // One scrambling key per axis, drawn at the start of every run.
        let seeds: Vec<u64> =
            if self.owen { (0..D).map(|_| rng.next_u64()).collect() } else { Vec::new() };
        let available = u64::MAX - self.skip;
        run_sequence(&self.domain, &self.region, n, self.max_points, available, |j| {
            let index = self.skip + j;
            std::array::from_fn(|axis| {
                let digits = sobol_digits(index, &directions[axis]);
                let digits = match seeds.get(axis) {
                    Some(&seed) => owen_scramble(digits, seed),
                    None => digits,
                };
                fraction_of(digits)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `p`, read as a polynomial over GF(2) of degree `s ≥ 1`, is primitive: x has
    /// order exactly `2^s − 1` modulo `p`.
    fn is_primitive(p: u64) -> bool {
        let s = 63 - p.leading_zeros();
        let order = (1u64 << s) - 1;
        let mul_x = |a: u64| {
            let b = a << 1;
            if b >> s & 1 == 1 { b ^ p } else { b }
        };
        // x^order = 1, and x^(order/q) ≠ 1 for every prime q dividing the order.
        let pow = |e: u64| (0..e).fold(1u64, |a, _| mul_x(a));
        let mut primes = Vec::new();
        let mut rest = order;
        let mut q = 2;
        while q * q <= rest {
            if rest.is_multiple_of(q) {
                primes.push(q);
                while rest.is_multiple_of(q) {
                    rest /= q;
                }
            }
            q += 1;
        }
        if rest > 1 {
            primes.push(rest);
        }
        pow(order) == 1 && primes.iter().all(|q| pow(order / q) != 1)
    }

    #[test]
    fn the_table_holds_primitive_polynomials_in_order_and_valid_initial_numbers() {
        let mut used = 0;
        let mut previous = 0u16;
        for &p in POLYNOMIALS.iter() {
            assert!(is_primitive(u64::from(p)), "{p} is not primitive");
            // Sorted by degree; within a degree Joe and Kuo list them in increasing order.
            assert!(p > previous, "{p} after {previous}");
            previous = p;
            let s = (15 - p.leading_zeros()) as usize;
            for k in 0..s {
                let m = INITIAL_NUMBERS[used + k];
                assert!(m % 2 == 1 && u32::from(m) < 1 << (k + 1), "m_{} = {m} for {p}", k + 1);
            }
            used += s;
        }
        assert_eq!(used, INITIAL_NUMBERS.len());
    }

    #[test]
    fn direction_numbers_end_on_the_diagonal() {
        // v_k = m_k / 2^k with m_k odd: its last digit is digit k + 1, so the generator
        // matrix is upper triangular with a unit diagonal and every axis alone is a
        // (0, 1)-sequence.
        for axis in [0, 1, 2, 7, 100, MAX_DIM - 1] {
            for (k, v) in direction_numbers(axis).iter().enumerate() {
                assert_eq!(v.trailing_zeros() as usize, 63 - k, "axis {axis}, k {k}");
            }
        }
    }

    #[test]
    fn the_second_axis_is_pascals_triangle_mod_2() {
        // Axis 1 (polynomial x + 1, m_1 = 1): v_k has the bits of row k of Pascal's triangle
        // modulo 2 at fraction digits 1..=k+1.
        let v = direction_numbers(1);
        for (k, &vk) in v.iter().enumerate().take(20) {
            let mut expected = 0u64;
            for j in 0..=k {
                // C(k, j) is odd when j's bits are a subset of k's.
                if j & k == j {
                    expected |= 1 << (63 - j);
                }
            }
            assert_eq!(vk, expected, "k {k}");
        }
    }

    #[test]
    fn scrambling_is_a_bijection_on_every_digit_prefix() {
        // A nested scramble maps the 2^m prefixes of m digits one to one for every m.
        for seed in [0u64, 1, 0xdead_beef, u64::MAX] {
            for m in [1u32, 3, 8] {
                let mut images: Vec<u64> = (0..1u64 << m)
                    .map(|prefix| owen_scramble(prefix << (64 - m), seed) >> (64 - m))
                    .collect();
                images.sort_unstable();
                assert_eq!(images, (0..1u64 << m).collect::<Vec<_>>(), "seed {seed}, m {m}");
            }
        }
    }
}
