//! Progressive multi-jittered (0,2) sequences.

use crate::config::{Builder, Capabilities};
use crate::domain::Domain;
use crate::error::Error;
use crate::region::shape::SamplerRegion;
use crate::rng::{derive_seed, fraction_of};
use crate::sampler::{PointSet, Sampler};
use crate::samplers::sequence::run_sequence;
use crate::samplers::sobol::{direction_numbers, sobol_digits};
use rand::Rng;

/// Digits of a coordinate that are scrambled: every one an `f64` in `[0, 1)` keeps.
const DIGITS: u32 = 53;

/// A progressive multi-jittered (0,2) sequence (Christensen, Kensler and Kilpatrick 2018,
/// "Progressive multi-jittered sample sequences"), in the unit square scaled to the box: the
/// stratification of the best 2D sample sequences of production renderers.
///
/// - **(0,2) at every power of two.** For every `m`, the `2^m` points `q·2^m .. (q+1)·2^m`
///   put exactly one point in every elementary rectangle `[a 2^−k, (a+1) 2^−k) ×
///   [b 2^−(m−k)), (b+1) 2^−(m−k))` of area `2^−m`, for all `k = 0..=m` at once: the
///   square strata, every row and column stratum (multi-jittered), and all the shapes
///   between. Every prefix of `2^m` points is such a net, so the sequence is progressive.
/// - **Jittered.** Inside the strata its index decides, each point is uniform: the sequence
///   is a random one, different for every seed, and each point is uniform in the square.
///
/// The paper builds the sequence by placing each new point in the sub-square diagonally
/// opposite its parent and searching for a position that leaves every elementary interval
/// with one point. Here the same strata are reached without a search, so it can never
/// stall: the points are the 2D Sobol (0,2)-sequence (van der Corput, and Sobol's second
/// axis) under an **exact** nested uniform (Owen) scramble — every digit of every axis is
/// flipped by its own independent coin, one per node of the digit tree (a seeded SplitMix64
/// hash of the node), down to the 53rd digit. A nested scramble keeps every elementary
/// interval of the sequence, and below the digits the index fixes the coins make the point
/// uniform inside its strata: the defining properties of pmj02. (Helmer, Christensen and
/// Kensler 2021, "Stochastic generation of (t, s) sample sequences", relate the two
/// constructions.) [`Sobol`](crate::Sobol) with
/// [`with_owen_scrambling`](Builder::with_owen_scrambling) gives the same nets in two
/// dimensions, with hashed rather than independent flips.
///
/// Indices start at 0; [`with_skip(s)`](Builder::with_skip) starts at index `s` (the same
/// seed then continues the same sequence). One or two dimensions (in 1D, the first coordinate: a stratified (0,1)-sequence). Exactly
/// `n` points (up to the point limit), strictly inside the half-open box; O(n·53) hashes. In
/// a region the sequence is laid over the region's bounding box and its points inside the
/// region kept in order, as [`Halton`](crate::Halton) does. There is no minimum distance.
///
/// ```
/// use poisson_nd::{Domain, Pmj02, Sampler};
/// let pmj = Pmj02::new(Domain::<2>::unit())?;
/// let points = pmj.sample_seeded(16, 3).points;
/// // One point in each of the 16 columns, 16 rows, and 4×4 squares.
/// let mut columns: Vec<usize> = points.iter().map(|p| (p[0] * 16.0) as usize).collect();
/// let mut squares: Vec<usize> =
///     points.iter().map(|p| 4 * (p[1] * 4.0) as usize + (p[0] * 4.0) as usize).collect();
/// columns.sort();
/// squares.sort();
/// assert_eq!(columns, (0..16).collect::<Vec<_>>());
/// assert_eq!(squares, (0..16).collect::<Vec<_>>());
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Pmj02<const D: usize> {
    domain: Domain<D>,
    skip: u64,
    max_points: usize,
    region: SamplerRegion<D>,
}

/// PMJ02's own options, beside the shared settings of its [`Builder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pmj02Options {
    skip: u64,
}

/// The configuration of a [`Pmj02`] sequence before it is checked: a region, the point limit
/// and the skip.
pub type Pmj02Builder<const D: usize> = Builder<D, Pmj02Options>;

impl<const D: usize> Builder<D, Pmj02Options> {
    /// Skips the first `s` points of the sequence (the same seed continues the same
    /// sequence): the first point has index `s`.
    #[must_use]
    pub fn with_skip(mut self, s: u64) -> Self {
        self.options.skip = s;
        self
    }

    /// Checks the configuration. Errors: a dimension above 2; a point limit of 0 or above
    /// 2147483647; with a region, a periodic domain, a region that misses the domain's box,
    /// or one with no point found in it.
    pub fn build(self) -> Result<Pmj02<D>, Error> {
        if D > 2 {
            return Err(Error::InvalidParameter {
                name: "dimension (PMJ02)",
                expected: "1 or 2: a (0,2)-sequence is two-dimensional",
                value: D as f64,
            });
        }
        let checked = self.config.check("pmj02", &Pmj02::<D>::CAPABILITIES)?;
        Ok(Pmj02 {
            domain: checked.domain,
            skip: self.options.skip,
            max_points: checked.max_points,
            region: checked.region,
        })
    }
}

impl<const D: usize> Pmj02<D> {
    /// What PMJ02 supports: regions, any box, one or two dimensions.
    pub const CAPABILITIES: Capabilities =
        Capabilities { max_dimension: 2, ..Capabilities::COUNT_DRIVEN };

    /// PMJ02 in `domain`, with every default. Errors when `D` is above 2.
    pub fn new(domain: Domain<D>) -> Result<Self, Error> {
        Self::builder(domain).build()
    }

    /// The configuration of PMJ02 in `domain`; set what you need, then
    /// [`build`](Builder::build).
    pub fn builder(domain: Domain<D>) -> Pmj02Builder<D> {
        Builder::from_defaults(domain, None, Pmj02Options::default())
    }

    /// This sampler's configuration, to change and build again.
    pub fn to_builder(&self) -> Pmj02Builder<D> {
        let mut builder = Self::builder(self.domain).with_max_points(self.max_points);
        builder.config.region = self.region.user_region();
        builder.options = Pmj02Options { skip: self.skip };
        builder
    }

    /// The number of indices skipped.
    pub fn skip(&self) -> u64 {
        self.skip
    }
}

/// An exact nested uniform scramble of the digit string `x` keyed by `key`: digit `d`
/// (counted from the top, `d < 53`) is flipped by a coin of its own node of the digit tree,
/// the node being the `d` digits above it (tagged with a leading 1, so nodes of different
/// depths never share a name).
fn nested_uniform_scramble(x: u64, key: u64) -> u64 {
    let mut out = x;
    for d in 0..DIGITS {
        let prefix = x.checked_shr(64 - d).unwrap_or(0);
        let node = (1u64 << d) | prefix;
        if derive_seed(key, node) >> 63 == 1 {
            out ^= 1u64 << (63 - d);
        }
    }
    out
}

impl<const D: usize> Sampler<D> for Pmj02<D> {
    fn name(&self) -> &'static str {
        "pmj02"
    }

    fn domain(&self) -> &Domain<D> {
        &self.domain
    }

    fn sample<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> PointSet<D> {
        let directions: Vec<[u64; 64]> = (0..D).map(direction_numbers).collect();
        let keys: Vec<u64> = (0..D).map(|_| rng.next_u64()).collect();
        let available = u64::MAX - self.skip;
        run_sequence(&self.domain, &self.region, n, self.max_points, available, |j| {
            let index = self.skip + j;
            std::array::from_fn(|axis| {
                let digits = sobol_digits(index, &directions[axis]);
                fraction_of(nested_uniform_scramble(digits, keys[axis]))
            })
        })
    }
}
