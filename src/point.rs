//! Points and the distances between them.

/// A point in `D` dimensions. Plain arrays keep point sets contiguous and easy to hand to any
/// other library; see [`to_vector`] for nalgebra.
pub type Point<const D: usize> = [f64; D];

/// Squared Euclidean distance between two points.
#[inline]
pub fn distance_squared<const D: usize>(a: &Point<D>, b: &Point<D>) -> f64 {
    let mut sum = 0.0;
    for i in 0..D {
        let d = a[i] - b[i];
        sum += d * d;
    }
    sum
}

/// Squared distance on the torus with the given side lengths (minimum-image convention):
/// along each axis the shorter of the direct and the wrapped-around separation counts.
///
/// Both points must lie in the same periodic cell, i.e. `|a[i] - b[i]| <= extent[i]`.
#[inline]
pub fn toroidal_distance_squared<const D: usize>(
    a: &Point<D>,
    b: &Point<D>,
    extent: &[f64; D],
) -> f64 {
    let mut sum = 0.0;
    for i in 0..D {
        let d = (a[i] - b[i]).abs();
        let d = d.min(extent[i] - d);
        sum += d * d;
    }
    sum
}

/// The point as an nalgebra column vector.
#[cfg(feature = "nalgebra")]
pub fn to_vector<const D: usize>(p: &Point<D>) -> nalgebra::SVector<f64, D> {
    nalgebra::SVector::from(*p)
}

/// The nalgebra vector as a point.
#[cfg(feature = "nalgebra")]
pub fn from_vector<const D: usize>(v: &nalgebra::SVector<f64, D>) -> Point<D> {
    (*v).into()
}
