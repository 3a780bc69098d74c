//! Vectors of 3D space as `[f64; 3]`: difference, cross and dot products, and a length that
//! neither overflows nor underflows and is the same on every platform.

use crate::limits::power_of_two;

#[inline]
pub(crate) fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

#[inline]
pub(crate) fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

#[inline(always)]
pub(crate) fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// The Euclidean length, without overflow or underflow for any finite vector: the root of the
/// sum of squares, of the vector scaled by a power of two (exactly) when its largest component
/// lies outside [2^-500, 2^500]. Only `+ × √`, correctly rounded, so the same on every
/// platform, which the platform's `hypot` need not be; and a tenth of its cost.
#[inline]
pub(crate) fn length(v: [f64; 3]) -> f64 {
    const BIG: f64 = power_of_two(500);
    const SMALL: f64 = power_of_two(-500);
    let largest = v[0].abs().max(v[1].abs()).max(v[2].abs());
    let norm = |v: [f64; 3]| (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if (SMALL..=BIG).contains(&largest) {
        return norm(v);
    }
    // 2^600 and 2^-600: the squares of the scaled vector stay normal and finite.
    let (up, down) = (power_of_two(600), power_of_two(-600));
    if largest > BIG { norm(v.map(|x| x * down)) * up } else { norm(v.map(|x| x * up)) * down }
}

/// `v` scaled to unit length; `None` for the zero vector.
pub(crate) fn normalised(v: [f64; 3]) -> Option<[f64; 3]> {
    let l = length(v);
    (l > 0.0 && l.is_finite()).then(|| v.map(|x| x / l))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{rng_from_seed, uniform01};

    /// The length is the root of the sum of squares where that cannot overflow or underflow,
    /// and the same scaled by 2^±600 beyond: exact on Pythagorean quadruples at every scale,
    /// within a few ulps of `hypot` on random vectors of any magnitude.
    #[test]
    fn lengths_hold_at_every_magnitude() {
        let two = |e: i32| 2f64.powi(e);
        for e in [-1074 + 20, -1000, -600, -501, -500, -499, 0, 499, 500, 501, 600, 1000, 1019] {
            let s = two(e);
            assert_eq!(length([3.0 * s, 4.0 * s, 12.0 * s]), 13.0 * s, "2^{e}");
            assert_eq!(length([-2.0 * s, -s, 2.0 * s]), 3.0 * s, "2^{e}");
        }
        assert_eq!(length([0.0; 3]), 0.0);
        assert_eq!(length([f64::MAX, 0.0, 0.0]), f64::MAX);
        assert_eq!(length([f64::from_bits(1), 0.0, 0.0]), f64::from_bits(1));
        assert_eq!(length([f64::INFINITY, 1.0, 0.0]), f64::INFINITY);
        assert!(length([f64::NAN, 1.0, 0.0]).is_nan());
        let mut rng = rng_from_seed(3);
        for _ in 0..20_000 {
            let e = (uniform01(&mut rng) * 2000.0) as i32 - 1000;
            let v: [f64; 3] = std::array::from_fn(|_| (uniform01(&mut rng) - 0.5) * two(e));
            let reference = v[0].hypot(v[1]).hypot(v[2]);
            let got = length(v);
            // Both round a few times: a few ulps apart at most.
            assert!(
                (got - reference).abs() <= 4.0 * f64::EPSILON * reference,
                "{v:?}: {got:e} against {reference:e}"
            );
        }
    }
}
