//! How numbers are written: [`exact`] in every file (it reads back to the same bits) and
//! [`significant`] wherever people read them (tables, labels, captions, the terminal).

/// A float in Rust's shortest round-trip form (`0.1`, `3.0`, `1e-7`, `-0.0`, `5e-324`,
/// `NaN`, `inf`): parsing it gives the same bits, and the same value always gives the same
/// text, so reruns give byte-identical files.
pub fn exact(x: f64) -> String {
    format!("{x:?}")
}

/// A float for reading: `digits` significant digits without trailing zeros, in scientific
/// notation outside `[1e-3, 1e5)`; `NaN`, `inf` and `-inf` as such.
///
/// ```
/// use experiments::format::significant;
/// assert_eq!(significant(0.05000000000000001, 4), "0.05");
/// assert_eq!(significant(1234.5678, 4), "1235");
/// assert_eq!(significant(1234.5678, 6), "1234.57");
/// assert_eq!(significant(-1.2345e6, 4), "-1.234e6");
/// assert_eq!(significant(f64::NAN, 4), "NaN");
/// ```
pub fn significant(x: f64, digits: usize) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = digits.max(1);
    let magnitude = x.abs();
    if !(1e-3..1e5).contains(&magnitude) {
        let text = format!("{x:.precision$e}", precision = digits - 1);
        return match text.split_once('e') {
            Some((mantissa, exponent)) if mantissa.contains('.') => {
                format!("{}e{exponent}", trim_zeros(mantissa))
            }
            _ => text,
        };
    }
    let decimals = (digits as i32 - 1 - magnitude.log10().floor() as i32).max(0) as usize;
    trim_zeros(&format!("{x:.decimals$}")).to_string()
}

/// [`significant`] with four digits: the figures' labels and the report's tables.
pub fn short(x: f64) -> String {
    significant(x, 4)
}

/// `2.500` → `2.5`, `3.000` → `3`; text without a decimal point is left alone.
fn trim_zeros(text: &str) -> &str {
    if text.contains('.') { text.trim_end_matches('0').trim_end_matches('.') } else { text }
}

/// A value with its standard error, `value ± error`, each written to the error's precision
/// (the Particle Data Group's rule): the error keeps two significant digits when its three
/// leading digits are 100–354, one when they are 355–949, and is rounded up to two digits
/// (1.0·10^k) from 950; the value is rounded to the same decimal place. Numbers outside
/// `[1e-3, 1e5)` are written `m·10ⁿ`. An error that is 0 or not finite is left out and the
/// value keeps four significant digits ([`short`]).
///
/// ```
/// use experiments::format::plus_minus;
/// assert_eq!(plus_minus(0.72917, 0.00162), "0.7292 ± 0.0016");
/// assert_eq!(plus_minus(0.72917, 7.403e-4), "0.7292 ± 0.0007");
/// assert_eq!(plus_minus(377_000.0, 31_320.0), "3.77·10⁵ ± 3.1·10⁴");
/// assert_eq!(plus_minus(3939.25, 5.4), "3939 ± 5");
/// assert_eq!(plus_minus(2.0, 0.0), "2");
/// ```
pub fn plus_minus(value: f64, error: f64) -> String {
    if !(error > 0.0 && error.is_finite() && value.is_finite()) {
        return short(value);
    }
    // The error's three leading digits decide how many it keeps.
    let mut exponent = error.log10().floor() as i32;
    let mut leading = (error / 10f64.powi(exponent - 2)).round();
    if leading >= 1000.0 {
        exponent += 1;
        leading = 100.0;
    }
    let kept = if leading < 355.0 {
        2
    } else if leading < 950.0 {
        1
    } else {
        exponent += 1;
        2
    };
    // The decimal place of the last digit kept.
    let place = exponent - (kept - 1);
    let round = |x: f64| (x / 10f64.powi(place)).round() * 10f64.powi(place);
    let (value, error) = (round(value), round(error));
    let largest = value.abs().max(error);
    if (1e-3..1e5).contains(&largest) && place >= -7 {
        let decimals = (-place).max(0) as usize;
        format!("{value:.decimals$} ± {error:.decimals$}")
    } else {
        format!("{} ± {}", scientific(value, place), scientific(error, place))
    }
}

/// `x` as `m·10ⁿ` with its last digit at the decimal place `place` (`0` for zero).
fn scientific(x: f64, place: i32) -> String {
    if x == 0.0 {
        return "0".to_string();
    }
    let exponent = x.abs().log10().floor() as i32;
    let decimals = (exponent - place).max(0) as usize;
    let mantissa = x / 10f64.powi(exponent);
    format!("{mantissa:.decimals$}·10{}", superscript(exponent))
}

/// An integer in superscript digits (`-7` → `⁻⁷`).
fn superscript(n: i32) -> String {
    n.to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            d => ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹']
                [d.to_digit(10).unwrap_or(0) as usize],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_text_reads_back_to_the_same_bits() {
        for x in [0.1 + 0.2, -0.0, 5e-324, 2.2250738585072014e-308, 1e300, f64::MAX, 1.0 / 3.0] {
            let text = exact(x);
            assert_eq!(text.parse::<f64>().unwrap().to_bits(), x.to_bits(), "{text}");
        }
        assert_eq!(exact(3.0), "3.0");
        assert_eq!(exact(1e-7), "1e-7");
    }

    #[test]
    fn significant_digits() {
        assert_eq!(significant(0.012345, 4), "0.01235");
        assert_eq!(significant(-2.0, 4), "-2");
        assert_eq!(significant(1.5e-7, 4), "1.5e-7");
        assert_eq!(significant(1e-4, 4), "1e-4");
        assert_eq!(significant(0.0, 4), "0");
        assert_eq!(significant(99999.4, 4), "99999");
        assert_eq!(plus_minus(2.0, 1.0), "2.0 ± 1.0");
        assert_eq!(plus_minus(2.0, 0.0), "2");
        assert_eq!(plus_minus(f64::NAN, 0.1), "NaN");
    }

    #[test]
    fn errors_set_the_precision() {
        // Two digits for leading digits 100-354, one for 355-949, 1.0 from 950 up.
        assert_eq!(plus_minus(0.123456, 0.00354), "0.1235 ± 0.0035");
        assert_eq!(plus_minus(0.123456, 0.00355), "0.123 ± 0.004");
        assert_eq!(plus_minus(0.123456, 0.00951), "0.123 ± 0.010");
        assert_eq!(plus_minus(17.87, 0.52), "17.9 ± 0.5");
        assert_eq!(plus_minus(-1.5, 0.25), "-1.50 ± 0.25");
        // Small and large numbers in m·10ⁿ, the value to the error's place.
        assert_eq!(plus_minus(1.234e-5, 3.1e-7), "1.234·10⁻⁵ ± 3.1·10⁻⁷");
        assert_eq!(plus_minus(2.5e6, 1.2e3), "2.5000·10⁶ ± 1.2·10³");
        // A value smaller than its error keeps the error's place.
        assert_eq!(plus_minus(0.0001, 0.0031), "0.0001 ± 0.0031");
        assert_eq!(plus_minus(0.0, 2e-5), "0 ± 2.0·10⁻⁵");
    }
}
