//! The numbers the library guarantees its results for, checked once where they enter.
//!
//! Every length (a box side, a radius, a field's bounds) and every coordinate lies within
//! [`MIN_LENGTH`]..=[`MAX_LENGTH`] in magnitude, and a radius is at least [`MIN_RESOLUTION`]
//! times the largest coordinate magnitude of its box. With these, every squared distance a
//! sampler computes (at most `D · (2·MAX_LENGTH)²` for `D ≤ 10^6`) is finite and normal, the
//! shell `[r, 2r]` around any point holds at least 2^12 distinct floating-point values along
//! each axis, and the guarantees (minimum distance, every piece filled) hold as stated. A
//! value outside is refused at construction ([`Error::OutOfRange`]); a user with tiny or huge
//! units rescales them (docs/limits.md).

use crate::error::Error;

/// 2^e, built from its bits (exact, and no call), for e in the normal range −1022..=1023.
#[inline]
pub(crate) const fn power_of_two(e: i32) -> f64 {
    f64::from_bits(((1023 + e) as u64) << 52)
}

/// The smallest length (box side, radius) and the smallest nonzero coordinate magnitude that
/// matters: `1e-100`. Its square, `1e-200`, is a normal number.
pub const MIN_LENGTH: f64 = 1e-100;

/// The largest length and coordinate magnitude: `1e100`. Squared and summed over any practical
/// dimension it stays far below the largest finite number.
pub const MAX_LENGTH: f64 = 1e100;

/// The smallest radius relative to the largest coordinate magnitude of its box: `2^-40`
/// (about `9.1e-13`), where the shell `[r, 2r]` still holds 2^12 distinct floating-point
/// values along an axis. Much below it the shell around a point far from the origin holds
/// too few for candidates to be drawn in it, and the restart scan's cells stop being distinct.
pub const MIN_RESOLUTION: f64 = 1.0 / (1u64 << 40) as f64;

/// Checks that a radius is finite and positive ([`Error::InvalidRadius`]): the first test
/// every radius passes, before [`check_length`] bounds its magnitude.
pub fn check_radius(radius: f64) -> Result<(), Error> {
    if radius.is_finite() && radius > 0.0 { Ok(()) } else { Err(Error::InvalidRadius(radius)) }
}

/// How many candidates the elimination of `n` points draws at `ratio` candidates per point:
/// ⌈ratio · n⌉, and at least `n`. The point limit bounds this count too (see
/// [`SampleElimination`](crate::SampleElimination)), so a caller can refuse a count before
/// anything is allocated.
pub fn elimination_candidates(ratio: f64, n: usize) -> usize {
    let wanted = (ratio * n as f64).ceil();
    // The conversion saturates: a count past usize is past every limit anyway.
    (wanted as usize).max(n)
}

/// Checks sample elimination's candidates per output point: finite and at least 1
/// ([`Error::InvalidParameter`]), in a box and on a surface alike.
pub fn check_elimination_ratio(ratio: f64) -> Result<(), Error> {
    if ratio.is_finite() && ratio >= 1.0 {
        Ok(())
    } else {
        Err(Error::InvalidParameter {
            name: "ratio (candidates per point)",
            expected: "finite and at least 1",
            value: ratio,
        })
    }
}

/// Checks that a length (a box side, a radius, a field's bound) lies in
/// `[MIN_LENGTH, MAX_LENGTH]`; NaN and infinities are refused too.
pub fn check_length(name: &'static str, value: f64) -> Result<(), Error> {
    if (MIN_LENGTH..=MAX_LENGTH).contains(&value) {
        Ok(())
    } else {
        Err(Error::OutOfRange { name, value, range: "between 1e-100 and 1e100" })
    }
}

/// Checks that a coordinate's magnitude is at most `MAX_LENGTH`; NaN and infinities are
/// refused too.
pub fn check_coordinate(name: &'static str, value: f64) -> Result<(), Error> {
    if value.abs() <= MAX_LENGTH {
        Ok(())
    } else {
        Err(Error::OutOfRange { name, value, range: "between -1e100 and 1e100" })
    }
}

/// Checks that `radius` is a length and at least `MIN_RESOLUTION` times `scale`, the largest
/// coordinate magnitude of the box it is used in.
pub fn check_radius_for_scale(name: &'static str, radius: f64, scale: f64) -> Result<(), Error> {
    check_length(name, radius)?;
    if radius >= MIN_RESOLUTION * scale {
        Ok(())
    } else {
        Err(Error::OutOfRange {
            name,
            value: radius,
            range: "at least 2^-40 times the largest coordinate of the box (move the origin \
                    nearer the box or rescale)",
        })
    }
}

/// The largest length a world scatter takes (terrain size, heights, radii, distances,
/// scales): `1e30`, so that every value it writes as a 32-bit float (glTF positions, scales,
/// mesh vertices) and their products stay finite.
pub const MAX_OUTPUT_LENGTH: f64 = 1e30;

/// The smallest nonzero length a world scatter takes: `1e-30`, a normal 32-bit float.
pub const MIN_OUTPUT_LENGTH: f64 = 1e-30;

/// Checks a length that ends up in 32-bit float output: in `[MIN_OUTPUT_LENGTH,
/// MAX_OUTPUT_LENGTH]` (or exactly 0 when `zero_allowed`).
pub fn check_output_length(
    name: &'static str,
    value: f64,
    zero_allowed: bool,
) -> Result<(), Error> {
    if (MIN_OUTPUT_LENGTH..=MAX_OUTPUT_LENGTH).contains(&value) || (zero_allowed && value == 0.0) {
        Ok(())
    } else {
        let range = if zero_allowed {
            "0 or between 1e-30 and 1e30 (the scatter writes 32-bit floats)"
        } else {
            "between 1e-30 and 1e30 (the scatter writes 32-bit floats)"
        };
        Err(Error::OutOfRange { name, value, range })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_range_ends_are_accepted_and_beyond_refused() {
        assert!(check_length("r", MIN_LENGTH).is_ok());
        assert!(check_length("r", MAX_LENGTH).is_ok());
        for bad in [0.0, 1e-101, 1e101, f64::NAN, f64::INFINITY, -1.0, 5e-324] {
            assert!(check_length("r", bad).is_err(), "{bad}");
        }
        assert!(check_coordinate("x", -1e100).is_ok());
        assert!(check_coordinate("x", f64::NAN).is_err());
        assert!(check_radius_for_scale("r", 1.0, 1e9).is_ok());
        assert!(check_radius_for_scale("r", 1e-4, 1e9).is_err());
        // Squares and sums of the extremes stay finite and normal.
        let far = (2.0 * MAX_LENGTH).powi(2) * 1e6;
        assert!(far.is_finite() && MIN_LENGTH.powi(2).is_normal());
    }
}
