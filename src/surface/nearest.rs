//! The point of a surface nearest to a point in space: its face, barycentric coordinates and
//! distance ([`SurfaceMesh::nearest`]).
//!
//! A bounding-volume hierarchy over the non-degenerate triangles (the mesh region's, built on
//! the first query and kept) is walked depth first, the nearer child first, passing over
//! every node whose box lies farther than the nearest triangle found so far; each triangle reached gives its nearest
//! point by the regions of its plane (a corner's, a side's or the inside's, as the signs of
//! the projections onto the sides decide). The box test only passes over nodes whose boxes are
//! strictly farther, so the distance is the least over all triangles of the per-triangle one;
//! where two triangles are as near, the one reached first is kept (the walk's order is fixed,
//! so the answer is the same on every run and platform).

use super::mesh::SurfaceMesh;
use crate::geometry::vector::{length, sub};
use crate::point::Point;
use crate::region::bvh::{Bvh, triangle_box};
use std::cell::Cell;

/// Where a point of a surface lies: the face, its barycentric coordinates (the mesh's order,
/// summing to 1, none negative) and the distance from the point asked about.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Nearest {
    /// The triangle, by its index in the mesh.
    pub face: usize,
    /// The barycentric coordinates of the nearest point in the face: it is
    /// [`SurfaceMesh::point_at`]`(face, barycentric)`.
    pub barycentric: [f64; 3],
    /// The Euclidean distance from the point asked about to that point.
    pub distance: f64,
}

impl SurfaceMesh {
    /// The point of the surface nearest to `p` in space: its face, barycentric coordinates
    /// and distance; `None` only for a point that is not finite. The distance is infinite
    /// where it passes the largest float (at such distances every face is as near, to
    /// rounding, and the face given is one of them). Degenerate triangles are never the
    /// answer. The first query builds an index of the faces (a hierarchy of boxes, about
    /// 32 bytes a triangle) and keeps it for the next (a clone of the mesh copies it); a
    /// query then reads the triangles near `p`. Where several faces are as near, the same one
    /// is given on every run.
    ///
    /// ```
    /// use poisson_nd::surface::SurfaceMesh;
    /// let vertices = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    /// let mesh = SurfaceMesh::new(vertices, vec![[0, 1, 2]])?;
    /// let near = mesh.nearest(&[0.25, 0.25, 2.0]).unwrap();
    /// assert_eq!((near.face, near.distance), (0, 2.0));
    /// assert_eq!(mesh.point_at(near.face, near.barycentric), [0.25, 0.25, 0.0]);
    /// # Ok::<(), poisson_nd::Error>(())
    /// ```
    pub fn nearest(&self, p: &Point<3>) -> Option<Nearest> {
        if !p.iter().all(|x| x.is_finite()) {
            return None;
        }
        let index = self.index.get_or_init(|| triangle_index(self));
        nearest(self, index, p)
    }

    /// Calls `visit` with every non-degenerate face whose box comes within `reach` of the
    /// box from `lower` to `upper` (and possibly a few farther ones), through the index
    /// [`nearest`](Self::nearest) builds: every face with a point within `reach` of a point
    /// of the box is among them.
    pub(crate) fn faces_near(
        &self,
        (lower, upper): (Point<3>, Point<3>),
        reach: f64,
        mut visit: impl FnMut(u32),
    ) {
        let index = self.index.get_or_init(|| triangle_index(self));
        index.any(
            |low, high| (0..3).all(|i| low[i] - upper[i] <= reach && lower[i] - high[i] <= reach),
            |item| {
                visit(self.faces[item as usize]);
                false
            },
        );
    }
}

/// The index of a mesh's non-degenerate triangles, by their boxes.
fn triangle_index(mesh: &SurfaceMesh) -> Bvh {
    let boxes: Vec<([f64; 3], [f64; 3])> =
        mesh.faces().iter().map(|&face| triangle_box(mesh.corners(face as usize))).collect();
    Bvh::new(&boxes)
}

/// The nearest point of `mesh` to `p` (finite), through the mesh's `index` of its faces.
///
/// Distances are compared at half their length (the same order: halving is exact above the
/// subnormals): a finite point and a vertex within ±1e99 differ by at most about 1.8·10³⁰⁸
/// along an axis, whose half-diagonal stays finite, so the walk tells nearer from farther
/// even where the distance itself passes the largest float (and is given as infinite).
fn nearest(mesh: &SurfaceMesh, index: &Bvh, p: &Point<3>) -> Option<Nearest> {
    let half_length = |v: [f64; 3]| length(v.map(|x| 0.5 * x));
    // The nearest face so far, its barycentrics and half its distance.
    let best: Cell<Option<(usize, [f64; 3], f64)>> = Cell::new(None);
    let bound = || best.get().map_or(f64::INFINITY, |(_, _, half)| half);
    index.nearest_first(
        // Half the distance to a node's box: none of its triangles is nearer.
        |lower, upper| {
            half_length(std::array::from_fn(|i| (lower[i] - p[i]).max(p[i] - upper[i]).max(0.0)))
        },
        bound,
        |item| {
            let face = mesh.faces()[item as usize] as usize;
            let barycentric = nearest_in_triangle(p, &mesh.corners(face));
            let half = half_length(sub(*p, mesh.point_at(face, barycentric)));
            if half < bound() {
                best.set(Some((face, barycentric, half)));
            }
        },
    );
    best.get().map(|(face, barycentric, _)| Nearest {
        face,
        barycentric,
        distance: length(sub(*p, mesh.point_at(face, barycentric))),
    })
}

/// The barycentric coordinates of the point of the triangle `corners` nearest to `p`.
///
/// The vectors are scaled by their largest component first, so that the products of four of
/// them (the regions' tests) can neither overflow nor, for a point near the triangle,
/// underflow. Where the triangle is smaller than 2^-1000 of its distance from `p`, products
/// may still underflow and pick a corner or side that is not the nearest: the point returned
/// then lies on the triangle within its diameter of the nearest, a relative error in the
/// distance below 2^-1000.
pub(crate) fn nearest_in_triangle(p: &Point<3>, corners: &[Point<3>; 3]) -> [f64; 3] {
    let [a, b, c] = *corners;
    let (ab, ac, ap) = (sub(b, a), sub(c, a), sub(*p, a));
    let largest = [ab, ac, ap].iter().flatten().fold(0.0f64, |m, x| m.max(x.abs()));
    if largest == 0.0 || !largest.is_finite() {
        return [1.0, 0.0, 0.0];
    }
    let scale = |v: [f64; 3]| v.map(|x| x / largest);
    let (ab, ac, ap) = (scale(ab), scale(ac), scale(ap));
    let dot = |u: [f64; 3], v: [f64; 3]| u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    // p − b and p − c, from the scaled vectors.
    let bp = sub(ap, ab);
    let cp = sub(ap, ac);
    let (d1, d2) = (dot(ab, ap), dot(ac, ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return [1.0, 0.0, 0.0];
    }
    let (d3, d4) = (dot(ab, bp), dot(ac, bp));
    if d3 >= 0.0 && d4 <= d3 {
        return [0.0, 1.0, 0.0];
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let t = d1 / (d1 - d3);
        return [1.0 - t, t, 0.0];
    }
    let (d5, d6) = (dot(ab, cp), dot(ac, cp));
    if d6 >= 0.0 && d5 <= d6 {
        return [0.0, 0.0, 1.0];
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let t = d2 / (d2 - d6);
        return [1.0 - t, 0.0, t];
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
        let t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        return [0.0, 1.0 - t, t];
    }
    // Inside: the projection onto the plane. The three weights are positive here, so their
    // sum is, and each share lies in [0, 1].
    let total = va + vb + vc;
    let (v, w) = (vb / total, vc / total);
    [(1.0 - v - w).max(0.0), v, w]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{rng_from_seed, uniform01};

    /// The nearest point of a triangle, by brute force over a fine lattice of its points: no
    /// lattice point is nearer than the one found, and one is within the lattice's spacing.
    #[test]
    fn the_triangle_point_is_the_nearest() {
        let mut rng = rng_from_seed(7);
        let mut u = || uniform01(&mut rng) * 2.0 - 1.0;
        for _ in 0..300 {
            let corners: [Point<3>; 3] = std::array::from_fn(|_| [u(), u(), u()]);
            let p = [u() * 2.0, u() * 2.0, u() * 2.0];
            let b = nearest_in_triangle(&p, &corners);
            assert!(b.iter().all(|&x| (0.0..=1.0).contains(&x)), "{b:?}");
            assert!((b.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            let at = |b: [f64; 3]| -> Point<3> {
                std::array::from_fn(|i| {
                    corners[0][i]
                        + b[1] * (corners[1][i] - corners[0][i])
                        + b[2] * (corners[2][i] - corners[0][i])
                })
            };
            let found = length(sub(p, at(b)));
            let steps = 60;
            let mut lattice = f64::INFINITY;
            for i in 0..=steps {
                for j in 0..=steps - i {
                    let (s, t) = (i as f64 / steps as f64, j as f64 / steps as f64);
                    lattice = lattice.min(length(sub(p, at([1.0 - s - t, s, t]))));
                }
            }
            assert!(found <= lattice + 1e-12, "found {found}, a lattice point at {lattice}");
            // The lattice's spacing: at most the longest side over `steps`.
            let side =
                (0..3).map(|k| length(sub(corners[k], corners[(k + 1) % 3]))).fold(0.0, f64::max);
            assert!(lattice <= found + side / steps as f64 + 1e-12);
        }
    }

    /// A point far from a small triangle (2^-600 of the distance) and one at the largest
    /// coordinates: finite distances, barycentrics on the triangle.
    #[test]
    fn extreme_scales_stay_finite() {
        let tiny = [[0.0, 0.0, 0.0], [1e-300, 0.0, 0.0], [0.0, 1e-300, 0.0]];
        let b = nearest_in_triangle(&[1.0, 1.0, 1.0], &tiny);
        assert!(b.iter().all(|&x| (0.0..=1.0).contains(&x)), "{b:?}");
        let huge = [[-1e99, 0.0, 0.0], [1e99, 0.0, 0.0], [0.0, 1e99, 0.0]];
        let b = nearest_in_triangle(&[0.0, 1e98, 1e308], &huge);
        assert!(b.iter().all(|&x| (0.0..=1.0).contains(&x)), "{b:?}");
        assert_eq!(nearest_in_triangle(&[0.0; 3], &[[0.0; 3]; 3]), [1.0, 0.0, 0.0]);
    }
}
