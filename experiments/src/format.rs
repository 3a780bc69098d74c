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

/// A value with its standard error, `value ± error` (the error left out when it is 0).
pub fn with_error(value: f64, error: f64, digits: usize) -> String {
    if error > 0.0 {
        format!("{} ± {}", significant(value, digits), significant(error, digits))
    } else {
        significant(value, digits)
    }
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
        assert_eq!(with_error(2.0, 1.0, 4), "2 ± 1");
        assert_eq!(with_error(2.0, 0.0, 4), "2");
    }
}
