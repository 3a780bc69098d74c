//! Candidates in the shell `[r, 2r]` around an active point: how the front draws them.
//!
//! One draw, [`Shell`], with three settings that decide how it consumes the generator; the
//! clients that were written before the front was one keep the settings their pinned outputs
//! rest on (docs/reproducibility.md): Bridson's runs and the chunk cells use [`PairedShell`],
//! the world scatter [`SingleShell`], live sets [`FineShell`]. Every setting gives the same
//! distribution: uniform by volume in the shell (or uniform in radius, on request).

use crate::point::Point;
use crate::rng::{fill_symmetric_32, standard_normal_pair, uniform_symmetric, uniform01};
use rand::Rng;

/// How far from its active point a candidate is drawn, within the shell `[r, 2r]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CandidateDistance {
    /// Uniform by volume in the shell, as Bridson (2007) specifies: the distance `d` has
    /// density ∝ d^(D−1), so most candidates land towards `2r`.
    #[default]
    UniformInVolume,
    /// Uniform distance in `[r, 2r)` and a uniform direction: candidates crowd towards `r`,
    /// which packs the output more densely (about 1.5% more points in 2D, 2% in 3D). This is
    /// what several other implementations do; use it to compare with them like for like.
    UniformInRadius,
}

/// How the front draws the candidates around an active point of radius `r`.
pub(crate) trait ShellDraw<P> {
    /// Whether each candidate is drawn one step ahead, before the previous one is tested:
    /// the draw (a chain of dependent arithmetic) then overlaps the test's memory waits,
    /// and the candidate drawn ahead of an accepted one is discarded.
    const AHEAD: bool;

    /// One candidate in the shell `[r, 2r]` around `centre`.
    fn draw<R: Rng + ?Sized>(&self, centre: &P, r: f64, rng: &mut R) -> P;
}

/// The shell draw, with the three choices that decide how it consumes the generator: whether
/// candidates are drawn ahead of their tests (`AHEAD`), how many candidates one rejection
/// round from the cube draws (`PER_ROUND`, 1 or 2; two make the loop's branch rarely
/// mispredict: both miss 17% of the time for the 2D shell, where one alone misses 41%), and
/// whether the cube's coordinates take 32 bits (two from one generator word) or 53 (`FINE`).
/// Up to 4D the draw is a rejection from the cube; beyond, a Gaussian direction and the
/// inverted volume distribution. Every choice gives the same distribution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Shell<const AHEAD: bool, const PER_ROUND: usize, const FINE: bool> {
    /// How candidates spread over the shell.
    pub(crate) distance: CandidateDistance,
}

/// Bridson's draw (also the chunk cells'): ahead, two per round, 32-bit coordinates.
pub(crate) type PairedShell = Shell<true, 2, false>;

/// The world scatter's draw: one per round, when needed, 32-bit coordinates.
#[cfg(feature = "scatter")]
pub(crate) type SingleShell = Shell<false, 1, false>;

/// A live set's draw: one per round, when needed, 53-bit coordinates.
#[cfg(feature = "live")]
pub(crate) type FineShell = Shell<false, 1, true>;

impl<const D: usize, const AHEAD: bool, const PER_ROUND: usize, const FINE: bool>
    ShellDraw<Point<D>> for Shell<AHEAD, PER_ROUND, FINE>
{
    const AHEAD: bool = AHEAD;

    #[inline(always)]
    fn draw<R: Rng + ?Sized>(&self, centre: &Point<D>, r: f64, rng: &mut R) -> Point<D> {
        let by_volume = self.distance == CandidateDistance::UniformInVolume;
        if D <= 4 && by_volume {
            // Uniform in the shell, by rejection from the cube [-2r, 2r)^D (in units of 2r):
            // accepts 59% in 2D, 29% in 4D, no transcendental functions.
            let (v, _) =
                cube_rejection::<D, PER_ROUND, FINE, R>(rng, |norm2| (0.25..1.0).contains(&norm2));
            return std::array::from_fn(|i| centre[i] + 2.0 * r * v[i]);
        }
        // A direction `v / |v|`: uniform in the unit ball by rejection up to 4D, Gaussian
        // beyond (where the ball fills too little of the cube).
        let (v, norm2, u) = if D <= 4 {
            let (v, norm2) =
                cube_rejection::<D, PER_ROUND, FINE, R>(rng, |norm2| norm2 > 0.0 && norm2 < 1.0);
            // For v uniform in the unit ball, |v|^D is uniform in [0, 1) and independent of
            // the direction: the same draw gives the distance.
            let u = match D {
                1 => norm2.sqrt(),
                2 => norm2,
                3 => norm2 * norm2.sqrt(),
                _ => norm2 * norm2,
            };
            (v, norm2, u)
        } else {
            let (v, norm2) = gaussian_direction::<D, R>(rng);
            (v, norm2, uniform01(rng))
        };
        let length = if by_volume { shell_length_by_volume::<D>(r, u) } else { r * (1.0 + u) };
        let factor = length / norm2.sqrt();
        std::array::from_fn(|i| centre[i] + factor * v[i])
    }
}

/// The distance from the centre that puts a fraction `u` of the shell's volume inside it:
/// the inverse of the shell's volume CDF `(d^D − r^D) / ((2r)^D − r^D)`.
#[inline(always)]
fn shell_length_by_volume<const D: usize>(r: f64, u: f64) -> f64 {
    r * libm::pow(1.0 + ((1u64 << D) as f64 - 1.0) * u, 1.0 / D as f64)
}

/// A nonzero vector with independent standard normal coordinates (a uniform direction once
/// normalised), and its squared length.
#[inline(always)]
fn gaussian_direction<const D: usize, R: Rng + ?Sized>(rng: &mut R) -> ([f64; D], f64) {
    let mut v = [0.0; D];
    let mut norm2 = 0.0;
    while norm2 == 0.0 {
        for pair in v.chunks_mut(2) {
            let (a, b) = standard_normal_pair(rng);
            pair[0] = a;
            if let Some(second) = pair.get_mut(1) {
                *second = b;
            }
        }
        norm2 = v.iter().map(|x| x * x).sum();
    }
    (v, norm2)
}

/// A point uniform in `[-1, 1)^D` conditioned on `keep(|v|²)`, and its `|v|²`, by rejection
/// with `PER_ROUND` (1 or 2) draws per round, the first kept one returned; coordinates of 32
/// bits, or 53 with `FINE`.
#[inline(always)]
fn cube_rejection<const D: usize, const PER_ROUND: usize, const FINE: bool, R: Rng + ?Sized>(
    rng: &mut R,
    keep: impl Fn(f64) -> bool,
) -> ([f64; D], f64) {
    loop {
        let mut draws = [[0.0; D]; PER_ROUND];
        if FINE {
            for x in draws.as_flattened_mut() {
                *x = uniform_symmetric(rng);
            }
        } else {
            fill_symmetric_32(rng, draws.as_flattened_mut());
        }
        let norms = draws.map(|v| v.iter().map(|x| x * x).sum::<f64>());
        let kept = norms.map(&keep);
        if kept[0] | kept[PER_ROUND - 1] {
            return first_kept(&draws, &norms, kept[0], pick_by_blend::<D>());
        }
    }
}

/// Whether [`first_kept`] blends rather than indexes on this target. On x86-64 the compiler
/// turned the pick by index into a jump, wrong about a third of the time, in the builds measured
/// (the baseline, -v2, -v3 and -v4 levels; 1D to 4D) except two: 2D on the baseline level (one
/// SSE2 and-or of the pair) and with AVX-512 (a mask blend). There the index stays (the blend
/// cost 6% and 9% of a 2D run); elsewhere the blend made Bridson 1.16× faster in 1D, 1.07× in
/// 3D, the same in 4D, and 1.22× in 2D built for x86-64-v2 or -v3 (docs/performance.md, "The
/// pick of a kept draw"). Other targets were not measured and keep the index.
const fn pick_by_blend<const D: usize>() -> bool {
    cfg!(target_arch = "x86_64")
        && !cfg!(target_feature = "avx512f")
        && (D != 2 || cfg!(target_feature = "sse4.1"))
}

/// The first of a round's draws that was kept (`kept_first` says whether the first was; one
/// of them was) and its `|v|²`, without a branch: by index, or by a blend. The blend is exact:
/// one factor is 1 and the other 0, and a draw is finite and never −0, so adding the zero
/// product leaves the kept value as it was.
#[inline(always)]
fn first_kept<const D: usize, const PER_ROUND: usize>(
    draws: &[[f64; D]; PER_ROUND],
    norms: &[f64; PER_ROUND],
    kept_first: bool,
    by_blend: bool,
) -> ([f64; D], f64) {
    let last = PER_ROUND - 1;
    if by_blend {
        let t = f64::from(u8::from(kept_first));
        let blend = |a: f64, b: f64| a * t + b * (1.0 - t);
        let (a, b) = (&draws[0], &draws[last]);
        (std::array::from_fn(|i| blend(a[i], b[i])), blend(norms[0], norms[last]))
    } else {
        let first = usize::from(!kept_first) * last;
        (draws[first], norms[first])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_from_seed;

    /// Every draw lies in the shell, for both draws, every dimension class and both spreads.
    fn in_shell<const D: usize>() {
        let centre = [0.25; D];
        let r = 0.1;
        let mut rng = rng_from_seed(D as u64);
        for distance in [CandidateDistance::UniformInVolume, CandidateDistance::UniformInRadius] {
            for _ in 0..2000 {
                let paired = PairedShell { distance }.draw(&centre, r, &mut rng);
                let single = Shell::<false, 1, false> { distance }.draw(&centre, r, &mut rng);
                let fine = Shell::<false, 1, true> { distance }.draw(&centre, r, &mut rng);
                for p in [paired, single, fine] {
                    let d = crate::point::distance_squared(&p, &centre).sqrt();
                    assert!(
                        (r * (1.0 - 1e-12)..=2.0 * r * (1.0 + 1e-12)).contains(&d),
                        "{D}D: {d}"
                    );
                }
            }
        }
    }

    /// The blend picks the same bits as the index, for the draws the rounds make (both
    /// resolutions, every sign and zero they can take) and either draw kept.
    fn blend_is_index<const D: usize>() {
        let mut rng = rng_from_seed(11 + D as u64);
        for round in 0..20_000 {
            let mut draws = [[0.0; D]; 2];
            if round % 2 == 0 {
                fill_symmetric_32(&mut rng, draws.as_flattened_mut());
            } else {
                for x in draws.as_flattened_mut() {
                    *x = uniform_symmetric(&mut rng);
                }
            }
            if round % 7 == 0 {
                // Zeros, which a draw can be (never −0).
                draws[round % 2][round % D] = 0.0;
            }
            let norms = draws.map(|v| v.iter().map(|x| x * x).sum::<f64>());
            for kept_first in [true, false] {
                let (v, n) = first_kept(&draws, &norms, kept_first, true);
                let (w, m) = first_kept(&draws, &norms, kept_first, false);
                assert_eq!(v.map(f64::to_bits), w.map(f64::to_bits), "{D}D round {round}");
                assert_eq!(n.to_bits(), m.to_bits());
            }
            let single = [draws[0]];
            let (v, _) = first_kept(&single, &[norms[0]], true, true);
            assert_eq!(v.map(f64::to_bits), draws[0].map(f64::to_bits));
        }
    }

    #[test]
    fn the_blend_picks_what_the_index_picks() {
        blend_is_index::<1>();
        blend_is_index::<2>();
        blend_is_index::<3>();
        blend_is_index::<4>();
    }

    #[test]
    fn draws_lie_in_the_shell() {
        in_shell::<1>();
        in_shell::<2>();
        in_shell::<3>();
        in_shell::<4>();
        in_shell::<5>();
        in_shell::<8>();
    }
}
