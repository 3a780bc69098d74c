//! NumPy `.npy` arrays of any number of axes (density maps, masks, voxel grids), read with
//! `npyz` into an [`Array`]: the shape and every value as `f64`, in C (row-major) order.
//!
//! Accepted element types: `float32`, `float64`, `bool` (`false` → 0, `true` → 1) and the signed
//! and unsigned integers of 8 to 64 bits, in either byte order. A 64-bit integer of
//! magnitude 2⁵³ or more (where `f64` starts to round) is refused rather than rounded. Arrays stored in Fortran order
//! are reordered into C order, so `values` always runs fastest along the last axis.
//! `float16`, complex, string, object (pickled) and structured arrays are refused, naming the
//! type. Whether NaN or values outside `[0, 1]` are acceptable is the caller's to say:
//! [`Array::check_finite`], [`Array::check_unit_interval`], [`Array::expect_axes`].

use super::{InputError, multi_index, read_bytes};
use npyz::{DType, NpyFile, NpyHeader, Order, TypeChar};
use std::path::Path;

/// An n-dimensional array of numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct Array {
    /// The length of each axis, slowest first (NumPy's `shape`).
    pub shape: Vec<usize>,
    /// Every element, in C order: the last axis varies fastest.
    pub values: Vec<f64>,
    /// The element type as the file wrote it, e.g. `<f8`, `|b1`, `>i2`.
    pub dtype: String,
}

impl Array {
    /// The number of axes.
    pub fn axes(&self) -> usize {
        self.shape.len()
    }

    /// The value at `index` (one entry per axis), or `None` outside the array.
    ///
    /// ```
    /// use experiments::inputs::Array;
    /// let a = Array { shape: vec![2, 3], values: (0..6).map(f64::from).collect(), dtype: "<f8".into() };
    /// assert_eq!(a.get(&[1, 0]), Some(3.0));
    /// assert_eq!(a.get(&[2, 0]), None);
    /// ```
    pub fn get(&self, index: &[usize]) -> Option<f64> {
        if index.len() != self.shape.len() {
            return None;
        }
        let mut flat = 0usize;
        for (&i, &size) in index.iter().zip(&self.shape) {
            if i >= size {
                return None;
            }
            flat = flat * size + i;
        }
        self.values.get(flat).copied()
    }

    /// Checks that the array has `dim` axes (a density map or mask for a `dim`-dimensional
    /// box); `name` is the file, for the message.
    pub fn expect_axes(&self, dim: usize, name: &str) -> Result<(), InputError> {
        if self.axes() == dim {
            return Ok(());
        }
        Err(InputError::invalid(
            name,
            format!(
                "the array has {} axes (shape {:?}); a map of a {dim}-dimensional box has {dim}",
                self.axes(),
                self.shape
            ),
        ))
    }

    /// Checks that no value is NaN or infinite, naming the first that is.
    pub fn check_finite(&self, name: &str) -> Result<(), InputError> {
        match self.values.iter().position(|v| !v.is_finite()) {
            None => Ok(()),
            Some(i) => Err(InputError::invalid(
                name,
                format!("the value at {} is {}", multi_index(&self.shape, i), self.values[i]),
            )),
        }
    }

    /// Checks that every value lies in `[0, 1]` (a density or a mask weight) and none is NaN,
    /// naming the first that does not.
    ///
    /// ```
    /// use experiments::inputs::Array;
    /// let a = Array { shape: vec![2, 2], values: vec![0.0, 1.0, 0.5, 1.5], dtype: "<f8".into() };
    /// let error = a.check_unit_interval("density.npy").unwrap_err();
    /// assert_eq!(error.to_string(), "density.npy: the value at [1, 1] is 1.5, outside [0, 1]");
    /// ```
    pub fn check_unit_interval(&self, name: &str) -> Result<(), InputError> {
        match self.values.iter().position(|v| !(0.0..=1.0).contains(v)) {
            None => Ok(()),
            Some(i) => {
                let v = self.values[i];
                let at = multi_index(&self.shape, i);
                let message = if v.is_nan() {
                    format!("the value at {at} is NaN")
                } else {
                    format!("the value at {at} is {v}, outside [0, 1]")
                };
                Err(InputError::invalid(name, message))
            }
        }
    }
}

/// Reads the `.npy` file at `path`.
pub fn read_npy(path: &Path) -> Result<Array, InputError> {
    decode_npy(&read_bytes(path)?, &path.display().to_string())
}

/// Reads an array from the bytes of a `.npy` file; `name` is what messages call it.
///
/// ```
/// // A 2 × 3 float64 array, as `numpy.save` writes it.
/// let mut bytes = b"\x93NUMPY\x01\x00\x76\x00".to_vec();
/// let mut header = b"{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }".to_vec();
/// header.resize(117, b' ');
/// header.push(b'\n');
/// bytes.extend(header);
/// for v in [0.0f64, 0.25, 0.5, 0.75, 1.0, 0.125] {
///     bytes.extend(v.to_le_bytes());
/// }
/// let array = experiments::inputs::npy::decode_npy(&bytes, "density.npy")?;
/// assert_eq!(array.shape, vec![2, 3]);
/// assert_eq!(array.values[4], 1.0);
/// # Ok::<(), experiments::inputs::InputError>(())
/// ```
pub fn decode_npy(bytes: &[u8], name: &str) -> Result<Array, InputError> {
    let invalid = |message: String| InputError::invalid(name, message);
    check_header_length(bytes).map_err(&invalid)?;
    let mut rest = bytes;
    let header = NpyHeader::from_reader(&mut rest)
        .map_err(|e| invalid(format!("not a readable NPY file ({})", one_line(&e.to_string()))))?;
    let header_length = bytes.len() - rest.len();
    let file = NpyFile::with_header(header, rest);
    let dtype = file.dtype();
    // The type string as NumPy spells it (`<f8`); structured types as their description.
    let descr = match &dtype {
        DType::Plain(type_str) => type_str.to_string(),
        other => other.descr(),
    };
    let shape: Vec<usize> = file
        .shape()
        .iter()
        .map(|&n| usize::try_from(n))
        .collect::<Result<_, _>>()
        .map_err(|_| invalid(format!("shape {:?} is too large", file.shape())))?;
    let count = shape
        .iter()
        .try_fold(1usize, |count, &n| count.checked_mul(n))
        .filter(|&count| count as u64 == file.len())
        .ok_or_else(|| invalid(format!("shape {shape:?} is too large")))?;
    let kind = Kind::of(&dtype).ok_or_else(|| {
        invalid(format!(
            "unsupported element type {descr} (float32, float64, bool and integers are read)"
        ))
    })?;
    // The header's shape is checked against the data before anything is allocated for it.
    let needed = count.saturating_mul(kind.size);
    let available = bytes.len() - header_length;
    if available < needed {
        return Err(invalid(format!(
            "the header promises {count} values of {descr} ({needed} bytes) but only \
             {available} bytes follow"
        )));
    }
    let order = file.order();
    let values = read_values(file, kind).map_err(&invalid)?;
    let values = match order {
        Order::C => values,
        Order::Fortran => fortran_to_c(&values, &shape),
    };
    if kind.size == 8 && matches!(kind.type_char, TypeChar::Int | TypeChar::Uint) {
        check_exact_integers(&values, &shape).map_err(invalid)?;
    }
    Ok(Array { shape, values, dtype: descr })
}

/// A supported element type: its kind and byte size.
#[derive(Debug, Clone, Copy)]
struct Kind {
    type_char: TypeChar,
    size: usize,
}

impl Kind {
    /// The kind of a supported element type, `None` for anything else.
    fn of(dtype: &DType) -> Option<Kind> {
        let DType::Plain(type_str) = dtype else { return None };
        let size = type_str.size_field();
        let type_char = type_str.type_char();
        let supported = match type_char {
            TypeChar::Float => matches!(size, 4 | 8),
            TypeChar::Int | TypeChar::Uint => matches!(size, 1 | 2 | 4 | 8),
            TypeChar::Bool => size == 1,
            _ => false,
        };
        supported.then_some(Kind { type_char, size: size as usize })
    }
}

/// Every element as `f64`, in file order; an error for a truncated file or a bool that is
/// neither 0 nor 1.
/// A parser's message on one line: a header parse error comes as a caret diagram over
/// several lines (`--> 1:56`, the header, `^---`, `= expected …`); its position and what was
/// expected are what a one-line error keeps.
fn one_line(message: &str) -> String {
    let position = message.split("-->").nth(1).and_then(|rest| rest.split_whitespace().next());
    let expected = message.lines().find_map(|line| line.trim().strip_prefix("= "));
    let first = message.lines().next().unwrap_or("").split("-->").next().unwrap_or("").trim();
    let first = first.trim_end_matches(':').trim();
    match (position, expected) {
        (Some(at), Some(expected)) => format!("{first} at column {}: {expected}", after_colon(at)),
        _ => message.split_whitespace().collect::<Vec<_>>().join(" "),
    }
}

/// The column of a `line:column` position.
fn after_colon(position: &str) -> &str {
    position.rsplit(':').next().unwrap_or(position)
}

/// The longest header read, as NumPy caps it (`max_header_size`, 10,000 bytes): a header
/// that claims more is refused before anything is allocated for it.
const MAX_HEADER_BYTES: usize = 10_000;

/// Checks the header length the prefix states (magic, version, then a 2-byte length in
/// version 1 or a 4-byte one in versions 2 and 3) against the file and [`MAX_HEADER_BYTES`],
/// so that a file that lies about it is refused instead of allocated for.
fn check_header_length(bytes: &[u8]) -> Result<(), String> {
    const MAGIC: &[u8] = b"\x93NUMPY";
    if bytes.len() < 10 || &bytes[..6] != MAGIC {
        return Err("not a readable NPY file (no NPY magic string at the start)".into());
    }
    let (length, prefix) = match bytes[6] {
        1 => (usize::from(u16::from_le_bytes([bytes[8], bytes[9]])), 10),
        2 | 3 if bytes.len() >= 12 => {
            let length = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
            (usize::try_from(length).unwrap_or(usize::MAX), 12)
        }
        version => return Err(format!("not a readable NPY file (format version {version})")),
    };
    if length > MAX_HEADER_BYTES {
        return Err(format!(
            "the header claims {length} bytes, more than the {MAX_HEADER_BYTES} NumPy reads"
        ));
    }
    if prefix + length > bytes.len() {
        return Err(format!(
            "the header claims {length} bytes but the file has {} after its prefix",
            bytes.len() - prefix
        ));
    }
    Ok(())
}

fn read_values(file: NpyFile<&[u8]>, kind: Kind) -> Result<Vec<f64>, String> {
    fn all<T: npyz::Deserialize>(
        file: NpyFile<&[u8]>,
        convert: impl Fn(T) -> f64,
    ) -> Result<Vec<f64>, String> {
        let values = file.into_vec::<T>().map_err(|e| format!("cannot read the values ({e})"))?;
        Ok(values.into_iter().map(convert).collect())
    }
    let values = match (kind.type_char, kind.size) {
        (TypeChar::Float, 8) => all::<f64>(file, |v| v)?,
        (TypeChar::Float, _) => all::<f32>(file, f64::from)?,
        (TypeChar::Bool, _) => all::<bool>(file, |b| f64::from(u8::from(b)))?,
        (TypeChar::Int, 1) => all::<i8>(file, f64::from)?,
        (TypeChar::Int, 2) => all::<i16>(file, f64::from)?,
        (TypeChar::Int, 4) => all::<i32>(file, f64::from)?,
        (TypeChar::Int, _) => all::<i64>(file, |v| v as f64)?,
        (TypeChar::Uint, 1) => all::<u8>(file, f64::from)?,
        (TypeChar::Uint, 2) => all::<u16>(file, f64::from)?,
        (TypeChar::Uint, 4) => all::<u32>(file, f64::from)?,
        _ => all::<u64>(file, |v| v as f64)?,
    };
    Ok(values)
}

/// Refuses 64-bit integers that the conversion to `f64` may have rounded. Every integer of
/// magnitude up to 2⁵³ converts exactly; one beyond converts to at least 2⁵³ (rounding is
/// monotonic), so refusing converted magnitudes of 2⁵³ and more refuses every rounded value
/// (and 2⁵³ itself, a price worth the simple rule).
fn check_exact_integers(values: &[f64], shape: &[usize]) -> Result<(), String> {
    const LIMIT: f64 = 9_007_199_254_740_992.0; // 2^53
    match values.iter().position(|v| v.abs() >= LIMIT) {
        None => Ok(()),
        Some(i) => Err(format!(
            "the integer at {} is ±2^53 or beyond and cannot be held exactly as a float",
            multi_index(shape, i)
        )),
    }
}

/// Reorders `values`, stored with the first axis fastest, into C order.
fn fortran_to_c(values: &[f64], shape: &[usize]) -> Vec<f64> {
    let mut out = Vec::with_capacity(values.len());
    let mut index = vec![0usize; shape.len()];
    // Fortran strides: axis 0 has stride 1.
    let mut strides = vec![1usize; shape.len()];
    for axis in 1..shape.len() {
        strides[axis] = strides[axis - 1] * shape[axis - 1];
    }
    for _ in 0..values.len() {
        let offset: usize = index.iter().zip(&strides).map(|(i, s)| i * s).sum();
        out.push(values[offset]);
        // Advance the C-order multi-index: the last axis fastest.
        for axis in (0..shape.len()).rev() {
            index[axis] += 1;
            if index[axis] < shape[axis] {
                break;
            }
            index[axis] = 0;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fortran_order_is_transposed() {
        // A 2 × 3 array [[0, 1, 2], [3, 4, 5]] stored column by column.
        let fortran = [0.0, 3.0, 1.0, 4.0, 2.0, 5.0];
        assert_eq!(fortran_to_c(&fortran, &[2, 3]), vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
        // 3 axes against a direct formula.
        let shape = [2, 3, 4];
        let f: Vec<f64> = (0..24)
            .map(|k| {
                let (i, j, l) = (k % 2, (k / 2) % 3, k / 6);
                (i * 100 + j * 10 + l) as f64
            })
            .collect();
        let c = fortran_to_c(&f, &shape);
        for i in 0..2 {
            for j in 0..3 {
                for l in 0..4 {
                    assert_eq!(c[(i * 3 + j) * 4 + l], (i * 100 + j * 10 + l) as f64);
                }
            }
        }
    }
}
