//! The one portable random-number generator and the uniform draws built on it.
//!
//! Reproducibility rests on three choices made here:
//! - [`PortableRng`] is Xoshiro256++, a generator with a published, fixed algorithm
//!   (unlike `StdRng`/`SmallRng`, which may change between `rand` releases);
//! - a seed becomes a generator state by SplitMix64 ([`rng_from_seed`]);
//! - uniform reals are made here from raw 64-bit words ([`uniform01`]) rather than by
//!   `rand`'s distributions, so a `rand` upgrade cannot change a sampler's output.
//!
//! Samplers accept any [`rand::Rng`]; only `sample_seeded` and the experiments fix this one.

use rand::{Rng, SeedableRng};

/// The generator behind every seeded call: Xoshiro256++ (Blackman & Vigna 2018).
pub type PortableRng = rand_xoshiro::Xoshiro256PlusPlus;

/// A generator whose whole output is determined by `seed`, on every platform and release.
pub fn rng_from_seed(seed: u64) -> PortableRng {
    PortableRng::seed_from_u64(seed)
}

/// A new seed for stream `stream` of a run seeded with `base`, for example one per
/// realisation or per sampler. Distinct streams give unrelated seeds (SplitMix64 finaliser
/// applied to a combination of both), and the map is fixed forever.
pub fn derive_seed(base: u64, stream: u64) -> u64 {
    splitmix64(base ^ splitmix64(stream.wrapping_add(0x9E37_79B9_7F4A_7C15)))
}

fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A uniform real in `[0, 1)` with 53 random bits.
#[inline]
pub fn uniform01<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    fraction_of(rng.next_u64())
}

/// The binary fraction `word / 2^64` rounded down to 53 bits: exact for words of at most 53
/// significant bits, always in `[0, 1)`.
#[inline]
pub(crate) fn fraction_of(word: u64) -> f64 {
    (word >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// A uniform real in `[-1, 1)`.
#[inline]
pub(crate) fn uniform_symmetric<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    // 53 bits scaled to [0, 2), shifted: exact, no rounding.
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 52) as f64) - 1.0
}

/// Fills `out` with uniform reals in `[-1, 1)` on a grid of step 2^-31, two from each
/// 64-bit word: half the generator calls of [`uniform_symmetric`], for offsets where 32 bits
/// are far more resolution than the geometry can use (a shell candidate's offset from its
/// centre, at most 2r, is then placed to within r·2^-30).
#[inline]
pub(crate) fn fill_symmetric_32<R: Rng + ?Sized>(rng: &mut R, out: &mut [f64]) {
    const STEP: f64 = 1.0 / (1u64 << 31) as f64;
    for pair in out.chunks_mut(2) {
        let word = rng.next_u64();
        // Each half read as a signed 32-bit integer: one exact conversion, no offset.
        pair[0] = ((word >> 32) as i32) as f64 * STEP;
        if let Some(second) = pair.get_mut(1) {
            *second = (word as i32) as f64 * STEP;
        }
    }
}

/// A uniform integer in `0..n` (Lemire's multiply-shift; the bias, below n / 2^64, is
/// negligible for any `n` a sampler uses). `n` must be positive.
#[inline]
pub fn uniform_index<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    index_of(rng.next_u64(), n)
}

/// The index in `0..n` that [`uniform_index`] makes of the generator word `word`.
#[inline(always)]
pub(crate) fn index_of(word: u64, n: usize) -> usize {
    ((word as u128 * n as u128) >> 64) as usize
}

/// A standard normal deviate (Marsaglia's polar method, with the portable `libm` logarithm so
/// results do not depend on the platform's math library). Returns two independent deviates.
#[inline]
pub(crate) fn standard_normal_pair<R: Rng + ?Sized>(rng: &mut R) -> (f64, f64) {
    loop {
        let u = uniform_symmetric(rng);
        let v = uniform_symmetric(rng);
        let s = u * u + v * v;
        if s > 0.0 && s < 1.0 {
            let factor = (-2.0 * libm::log(s) / s).sqrt();
            return (u * factor, v * factor);
        }
    }
}
