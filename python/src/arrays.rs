//! Points between numpy and the library: `(n, d)` float64 arrays in, and out without a copy
//! (the library's `Vec<[f64; D]>` becomes the array's buffer).

use numpy::{IntoPyArray, PyArray2, PyArrayMethods, PyReadonlyArrayDyn};
use poisson_nd::Point;
use pyo3::exceptions::{PyMemoryError, PyTypeError};
use pyo3::prelude::*;
use std::cmp::Ordering;

/// The points as a `(n, D)` float64 array that owns the library's buffer (no copy).
pub(crate) fn points_array<'py, const D: usize>(
    py: Python<'py>,
    points: Vec<Point<D>>,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let n = points.len();
    points.into_flattened().into_pyarray(py).reshape([n, D])
}

/// The values of an array-like of any shape (a numpy array of any numeric dtype or memory
/// order, booleans as 0 and 1, nested lists) as float64 in C order (last axis fastest), with
/// the shape. Complex numbers, text and dates are refused, not converted (numpy would drop an
/// imaginary part with only a warning, and parse text). `what` names the argument in errors.
pub(crate) fn float_array(
    value: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<(Vec<usize>, Vec<f64>)> {
    float_array_within(value, what, usize::MAX)
}

/// The most values a gridded input (a field's grid, a mask) may have: an input picture's
/// limit, 2^26 (8192 × 8192; docs/limits.md).
pub(crate) const MAX_GRID_VALUES: usize = experiments::inputs::png::MAX_PIXELS as usize;

/// [`float_array`] of at most `most` values: a larger array (a broadcast view can claim
/// terabytes while holding one number) is refused by its shape before anything is copied,
/// and a copy that cannot be allocated is a `MemoryError`, not an abort.
pub(crate) fn float_array_within(
    value: &Bound<'_, PyAny>,
    what: &str,
    most: usize,
) -> PyResult<(Vec<usize>, Vec<f64>)> {
    let numpy = value.py().import("numpy")?;
    let not_numbers =
        |e: PyErr| PyTypeError::new_err(format!("{what} must be an array of numbers: {e}"));
    let array = numpy.call_method1("asarray", (value,)).map_err(not_numbers)?;
    let dtype = array.getattr("dtype")?;
    let kind: String = dtype.getattr("kind")?.extract()?;
    // Booleans, integers, floats, and objects that convert to floats one by one.
    if !matches!(kind.as_str(), "b" | "i" | "u" | "f" | "O") {
        return Err(PyTypeError::new_err(format!(
            "{what} must be an array of real numbers, got dtype {}",
            dtype.str()?
        )));
    }
    // Counted before numpy converts another dtype to float64, which copies.
    let shape: Vec<usize> = array.getattr("shape")?.extract()?;
    let count = shape.iter().try_fold(1usize, |n, &k| n.checked_mul(k)).unwrap_or(usize::MAX);
    if count > most {
        return Err(crate::value_error(format!(
            "{what} has {count} values (shape {}), more than the {most} it may have",
            shape_text(&shape)
        )));
    }
    let py = value.py();
    let array = numpy.call_method1("asarray", (array, "float64")).map_err(|e| {
        // numpy's own copy failing for memory stays a MemoryError.
        if e.is_instance_of::<PyMemoryError>(py) { e } else { not_numbers(e) }
    })?;
    let array: PyReadonlyArrayDyn<'_, f64> = array.extract()?;
    let view = array.as_array();
    let mut values = Vec::new();
    values.try_reserve_exact(view.len()).map_err(|_| {
        PyMemoryError::new_err(format!(
            "{what} has {} values (shape {}): their {} bytes as float64 could not be allocated",
            view.len(),
            shape_text(&shape),
            view.len() as f64 * 8.0
        ))
    })?;
    values.extend(view.iter().copied());
    Ok((shape, values))
}

/// Points from an array-like of shape `(n, D)`, checked finite. `what` names the argument in
/// errors.
pub(crate) fn read_points<const D: usize>(
    value: &Bound<'_, PyAny>,
    what: &str,
) -> PyResult<Vec<Point<D>>> {
    let (shape, values) = float_array(value, what)?;
    if shape.len() != 2 || shape[1] != D {
        return Err(crate::value_error(format!(
            "{what} must have shape (n, {D}), got {}",
            shape_text(&shape)
        )));
    }
    if let Some(i) = values.iter().position(|x| !x.is_finite()) {
        return Err(crate::value_error(format!(
            "{what}: point {} has a coordinate that is not finite ({})",
            i / D,
            values[i]
        )));
    }
    Ok(values.chunks_exact(D).map(|c| std::array::from_fn(|k| c[k])).collect())
}

/// Vertex index triples from an integer array-like of shape (t, 3), no index negative (the
/// mesh checks the upper end); `what` names the argument in errors.
pub(crate) fn index_triples(faces: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<[usize; 3]>> {
    let numpy = faces.py().import("numpy")?;
    let array = numpy.call_method1("asarray", (faces,))?;
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    // An empty list has dtype float64; its shape is refused below all the same.
    let size: usize = array.getattr("size")?.extract()?;
    if size > 0 && kind != "i" && kind != "u" {
        return Err(crate::value_error(format!(
            "{what} must be integer vertex indices, got an array of dtype {}",
            array.getattr("dtype")?.str()?
        )));
    }
    let shape: Vec<usize> = array.getattr("shape")?.extract()?;
    if shape.len() != 2 || shape[1] != 3 {
        return Err(crate::value_error(format!(
            "{what} must have shape (t, 3), got {}",
            shape_text(&shape)
        )));
    }
    let flat = array.call_method0("ravel")?;
    let values: Vec<usize> = if kind == "u" {
        let values: Vec<u64> = flat.call_method1("astype", ("uint64",))?.extract()?;
        // Indices past usize are out of range as much as any past the vertex count.
        values.into_iter().map(|v| usize::try_from(v).unwrap_or(usize::MAX)).collect()
    } else {
        let values: Vec<i64> = flat.call_method1("astype", ("int64",))?.extract()?;
        if let Some(i) = values.iter().position(|&v| v < 0) {
            return Err(crate::value_error(format!(
                "{what}: face {} has the negative vertex index {}",
                i / 3,
                values[i]
            )));
        }
        values.into_iter().map(|v| usize::try_from(v).unwrap_or(usize::MAX)).collect()
    };
    Ok(values.chunks_exact(3).map(|t| std::array::from_fn(|k| t[k])).collect())
}

/// `(3, 4)` for a shape.
pub(crate) fn shape_text(shape: &[usize]) -> String {
    match shape {
        [one] => format!("({one},)"),
        _ => format!("({})", shape.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")),
    }
}

/// A point of `D` coordinates from a list; `what` names it in errors.
pub(crate) fn point<const D: usize>(values: &[f64], what: &str) -> PyResult<Point<D>> {
    values.try_into().map_err(|_| {
        crate::value_error(format!("{what} must have {D} coordinates, got {}", values.len()))
    })
}

/// The box `[lower, upper)`, periodic or closed, with the library's checks.
pub(crate) fn domain<const D: usize>(
    lower: &[f64],
    upper: &[f64],
    periodic: bool,
) -> PyResult<poisson_nd::Domain<D>> {
    let lower: Point<D> = point(lower, "l_bounds")?;
    let upper: Point<D> = point(upper, "u_bounds")?;
    let extent: Vec<f64> = (0..D).map(|k| upper[k] - lower[k]).collect();
    if let Some(k) = (0..D).find(|&k| upper[k].partial_cmp(&lower[k]) != Some(Ordering::Greater)) {
        return Err(crate::value_error(format!(
            "u_bounds must be larger than l_bounds on every axis, but axis {k} has {} ≥ {}",
            lower[k], upper[k]
        )));
    }
    experiments::domains::from_slices::<D>(&lower, &extent, periodic).map_err(crate::value_error)
}
