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

/// A sphere with bumps of varying curvature around the centre of the unit cube: an
/// icosahedron whose triangles are split in four `subdivisions` times (20·4^s triangles),
/// each vertex at radius `0.35·(1 + 0.15·sin 5x·sin 5y·sin 5z + 0.05·sin(12x + 3y))` along
/// its unit direction `(x, y, z)`. (`python/benches/surface_peers.py` builds the same
/// surface, centred at the origin with radius 1.)
pub fn displaced_sphere(subdivisions: u32) -> (Vec<[f64; 3]>, Vec<[usize; 3]>) {
    let t = (1.0 + 5f64.sqrt()) / 2.0;
    let unit = |v: [f64; 3]| {
        let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
        v.map(|x| x / l)
    };
    let mut directions: Vec<[f64; 3]> = [
        [-1.0, t, 0.0],
        [1.0, t, 0.0],
        [-1.0, -t, 0.0],
        [1.0, -t, 0.0],
        [0.0, -1.0, t],
        [0.0, 1.0, t],
        [0.0, -1.0, -t],
        [0.0, 1.0, -t],
        [t, 0.0, -1.0],
        [t, 0.0, 1.0],
        [-t, 0.0, -1.0],
        [-t, 0.0, 1.0],
    ]
    .map(unit)
    .to_vec();
    let mut triangles: Vec<[usize; 3]> = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    for _ in 0..subdivisions {
        // Each edge's midpoint once, shared by the two triangles along it.
        let mut midpoints = std::collections::HashMap::new();
        let mut midpoint = |a: usize, b: usize, directions: &mut Vec<[f64; 3]>| {
            *midpoints.entry((a.min(b), a.max(b))).or_insert_with(|| {
                let (p, q) = (directions[a], directions[b]);
                directions.push(unit(std::array::from_fn(|i| p[i] + q[i])));
                directions.len() - 1
            })
        };
        let mut finer = Vec::with_capacity(4 * triangles.len());
        for [a, b, c] in triangles {
            let ab = midpoint(a, b, &mut directions);
            let bc = midpoint(b, c, &mut directions);
            let ca = midpoint(c, a, &mut directions);
            finer.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
        }
        triangles = finer;
    }
    let vertices = directions
        .iter()
        .map(|&[x, y, z]| {
            let bump = 0.15 * (5.0 * x).sin() * (5.0 * y).sin() * (5.0 * z).sin()
                + 0.05 * (12.0 * x + 3.0 * y).sin();
            let r = 0.35 * (1.0 + bump);
            [0.5 + r * x, 0.5 + r * y, 0.5 + r * z]
        })
        .collect();
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

    #[test]
    fn the_displaced_sphere_is_closed_and_inside_the_cube() {
        let (vertices, triangles) = displaced_sphere(3);
        assert_eq!((vertices.len(), triangles.len()), (642, 1280));
        assert!(vertices.iter().flatten().all(|x| (0.0..1.0).contains(x)));
        // Closed: every edge is shared by two triangles, in opposite directions.
        let mut edges = std::collections::HashSet::new();
        for t in &triangles {
            for k in 0..3 {
                assert!(edges.insert((t[k], t[(k + 1) % 3])));
            }
        }
        assert!(edges.iter().all(|&(a, b)| edges.contains(&(b, a))));
    }
}
