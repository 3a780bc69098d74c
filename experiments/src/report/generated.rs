//! The inputs the report makes for itself: a density map (a gradient with a bump), a polygon
//! with a hole and two islands, and a closed triangle mesh (a torus). All generated in code,
//! so the report needs no files.

use poisson_nd::Domain;
use poisson_nd::field::GriddedField;

/// Cells of the density map along each axis.
pub const DENSITY_CELLS: usize = 128;

/// The density at `(x, y)` of the unit square: a linear gradient along x from 0.1 to 0.8 plus
/// a Gaussian bump of height 0.2 and width 0.08 at (0.35, 0.5). Always in `[0.1, 1]`.
pub fn density(x: f64, y: f64) -> f64 {
    let (dx, dy) = (x - 0.35, y - 0.5);
    let bump = 0.2 * (-(dx * dx + dy * dy) / (2.0 * 0.08 * 0.08)).exp();
    (0.1 + 0.7 * x + bump).clamp(0.0, 1.0)
}

/// The density map as a grid over `domain`'s box: [`density`] at the centre of each of the
/// `DENSITY_CELLS²` cells, the last axis (y) fastest.
pub fn density_grid(domain: &Domain<2>) -> Result<GriddedField<2>, poisson_nd::Error> {
    let (o, l) = (domain.origin(), domain.extent());
    let n = DENSITY_CELLS;
    let centre = |axis: usize, k: usize| o[axis] + (k as f64 + 0.5) * l[axis] / n as f64;
    let values =
        (0..n).flat_map(|i| (0..n).map(move |j| density(centre(0, i), centre(1, j)))).collect();
    GriddedField::new(domain, [n, n], values)
}

/// A ring of `n` vertices around `centre`, at distance `radius(θ)` for θ evenly spaced.
fn ring(centre: [f64; 2], n: usize, radius: impl Fn(f64) -> f64) -> Vec<[f64; 2]> {
    (0..n)
        .map(|k| {
            let t = std::f64::consts::TAU * k as f64 / n as f64;
            let r = radius(t);
            [centre[0] + r * t.cos(), centre[1] + r * t.sin()]
        })
        .collect()
}

/// The pieces of the polygon region in the unit square, each as rings (exterior first, then
/// holes): a wavy disk with an off-centre hole, a triangle and a hexagon.
pub fn polygon_pieces() -> Vec<Vec<Vec<[f64; 2]>>> {
    let main = vec![
        ring([0.4, 0.5], 96, |t| 0.32 + 0.04 * (5.0 * t).sin()),
        // The hole runs clockwise, as holes conventionally do (either way is accepted).
        ring([0.45, 0.45], 48, |_| 0.11).into_iter().rev().collect(),
    ];
    let triangle = vec![vec![[0.78, 0.08], [0.96, 0.1], [0.86, 0.3]]];
    let hexagon = vec![ring([0.86, 0.82], 6, |_| 0.1)];
    vec![main, triangle, hexagon]
}

/// A closed torus of triangles around the centre of the unit cube, its axis along z: major
/// radius 0.3, minor radius 0.13, 48 × 24 quads split in two.
pub fn torus() -> (Vec<[f64; 3]>, Vec<[usize; 3]>) {
    let (major, minor) = (0.3, 0.13);
    let (nu, nv) = (48, 24);
    let mut vertices = Vec::with_capacity(nu * nv);
    for i in 0..nu {
        let u = std::f64::consts::TAU * i as f64 / nu as f64;
        for j in 0..nv {
            let v = std::f64::consts::TAU * j as f64 / nv as f64;
            let r = major + minor * v.cos();
            vertices.push([0.5 + r * u.cos(), 0.5 + r * u.sin(), 0.5 + minor * v.sin()]);
        }
    }
    let index = |i: usize, j: usize| (i % nu) * nv + j % nv;
    let mut triangles = Vec::with_capacity(2 * nu * nv);
    for i in 0..nu {
        for j in 0..nv {
            let (a, b, c, d) = (index(i, j), index(i + 1, j), index(i + 1, j + 1), index(i, j + 1));
            triangles.push([a, b, c]);
            triangles.push([a, c, d]);
        }
    }
    (vertices, triangles)
}

#[cfg(test)]
mod tests {
    use super::*;
    use poisson_nd::region::{Mesh, Polygons, Region};

    #[test]
    fn the_density_stays_in_range_and_rises_along_x() {
        for i in 0..=20 {
            for j in 0..=20 {
                let d = density(i as f64 / 20.0, j as f64 / 20.0);
                assert!((0.1..=1.0).contains(&d), "{d}");
            }
        }
        assert!(density(0.9, 0.1) > density(0.1, 0.1));
        assert!(density(0.35, 0.5) > density(0.35, 0.1) + 0.19);
        let grid = density_grid(&Domain::unit()).unwrap();
        assert_eq!(grid.shape(), [DENSITY_CELLS; 2]);
        let c = 0.5 / DENSITY_CELLS as f64;
        assert_eq!(grid.value(&[c, 3.0 * c]), density(c, 3.0 * c));
    }

    #[test]
    fn the_shapes_are_valid_regions_with_the_expected_pieces() {
        let pieces = polygon_pieces();
        let shape = Polygons::new(&pieces).unwrap();
        assert!(shape.contains(&[0.12, 0.5]) && !shape.contains(&[0.45, 0.45]));
        assert!(shape.contains(&[0.86, 0.15]) && shape.contains(&[0.86, 0.82]));
        let (lo, hi) = shape.bounding_box();
        assert!((0..2).all(|a| lo[a] > 0.0 && hi[a] < 1.0));
        let (vertices, triangles) = torus();
        let mesh = Mesh::new(vertices, triangles).unwrap();
        assert!(mesh.contains(&[0.8, 0.5, 0.5]) && !mesh.contains(&[0.5, 0.5, 0.5]));
        let (lo, hi) = mesh.bounding_box();
        assert!((0..3).all(|a| lo[a] > 0.0 && hi[a] < 1.0));
    }
}
