//! Point sets as NumPy `.npy`: one little-endian float64 array of shape (N, D), C order, the
//! points only; `numpy.load` gives the points as rows.
//!
//! The writer emits the header `numpy.save` writes (format version 1.0, the dictionary
//! `{'descr': '<f8', 'fortran_order': False, 'shape': (N, D), }` padded with spaces and a
//! newline so the data starts at a multiple of 64 bytes). It is written here rather than by
//! `npyz`, whose writer spells the shape `(N, D, )`: valid, but not what NumPy writes. The
//! reader is [`crate::inputs::npy`] (any float or integer type, either byte order, C or Fortran
//! order); it takes shape (N, D), or (N,) when D = 1.

use super::{PointData, ReadError, ReadPoints, indices};
use crate::inputs::npy::decode_npy;
use std::io::{self, Write};

/// Writes the points as an (N, D) float64 array. Attributes cannot be stored: data with
/// attributes is refused (use `.npz`).
pub fn encode<const D: usize, W: Write>(out: W, data: &PointData<D>) -> io::Result<()> {
    if let Some(attribute) = data.attributes.first() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("an .npy file holds the points only; write .npz to keep '{}'", attribute.name),
        ));
    }
    let mut out = io::BufWriter::new(out);
    write_float64_array(&mut out, &[data.points.len(), D], data.points.iter().flatten().copied())?;
    out.flush()
}

/// Writes one `.npy` array of little-endian float64 `values` (C order) with `shape`.
pub(crate) fn write_float64_array<W: Write>(
    out: &mut W,
    shape: &[usize],
    values: impl Iterator<Item = f64>,
) -> io::Result<()> {
    out.write_all(&header(shape))?;
    for v in values {
        out.write_all(&v.to_le_bytes())?;
    }
    Ok(())
}

/// The NPY 1.0 header of a C-order float64 array of `shape`: magic, version, length, the
/// dictionary, padding to a multiple of 64 bytes in all.
///
/// ```
/// let header = experiments::io::npy::header(&[3, 2]);
/// assert_eq!(header.len(), 128);
/// assert!(header.starts_with(b"\x93NUMPY\x01\x00\x76\x00{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), }"));
/// assert!(header.ends_with(b"    \n"));
/// ```
pub fn header(shape: &[usize]) -> Vec<u8> {
    let tuple = match shape {
        [n] => format!("({n},)"),
        _ => {
            let parts: Vec<String> = shape.iter().map(usize::to_string).collect();
            format!("({})", parts.join(", "))
        }
    };
    let mut dictionary =
        format!("{{'descr': '<f8', 'fortran_order': False, 'shape': {tuple}, }}").into_bytes();
    // 10 bytes come before the dictionary: magic (6), version (2), length (2).
    let total = (10 + dictionary.len() + 1).div_ceil(64) * 64;
    dictionary.resize(total - 10 - 1, b' ');
    dictionary.push(b'\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    // Shapes of a few numbers keep the dictionary far below the 65535 bytes of version 1.0.
    bytes.extend((dictionary.len() as u16).to_le_bytes());
    bytes.extend(dictionary);
    bytes
}

/// Reads points from the bytes of an `.npy` file.
pub fn decode<const D: usize>(bytes: &[u8]) -> Result<ReadPoints<D>, ReadError> {
    let array = decode_npy(bytes, "input").map_err(|e| match e {
        crate::inputs::InputError::Invalid { message, .. } => ReadError::invalid(message),
        crate::inputs::InputError::Io { source, .. } => {
            ReadError::Io { path: "input".into(), source }
        }
    })?;
    let points = points_from_array::<D>(&array.shape, &array.values, "the array")?;
    let n = points.len();
    Ok(ReadPoints { data: PointData::new(points), positions: indices(n), header: None })
}

/// Points from a (N, D) array (or (N,) when D = 1) in C order; `what` names it in messages.
pub(crate) fn points_from_array<const D: usize>(
    shape: &[usize],
    values: &[f64],
    what: &str,
) -> Result<Vec<[f64; D]>, ReadError> {
    let n = match *shape {
        [n, d] if d == D => n,
        [n] if D == 1 => n,
        _ => {
            return Err(ReadError::invalid(format!(
                "{what} has shape {shape:?}; points in {D} dimensions need (N, {D}) (--dim {D})"
            )));
        }
    };
    if n == 0 {
        return Err(ReadError::invalid(format!("no points ({what} has shape {shape:?})")));
    }
    let mut points = Vec::with_capacity(n);
    for (i, row) in values.chunks_exact(D).enumerate() {
        if !row.iter().all(|x| x.is_finite()) {
            return Err(ReadError::point(i + 1, format!("coordinates {row:?} are not all finite")));
        }
        let mut p = [0.0; D];
        p.copy_from_slice(row);
        points.push(p);
    }
    Ok(points)
}
