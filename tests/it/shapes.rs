//! Test regions of every kind, each with a name, built from the library's constructors.

use poisson_nd::region::{
    Ball, BoxRegion, Difference, Intersection, Mask, Mesh, Polygons, Sdf, Union, Voxels,
};
use poisson_nd::{Point, Region};
use std::f64::consts::TAU;
use std::sync::Arc;

/// A named region.
pub type Shape<const D: usize> = (&'static str, Arc<dyn Region<D>>);

/// A star-shaped ring of `n` vertices around `centre` with radius `r(1 + a sin(7θ))`.
pub fn wavy_ring(centre: [f64; 2], r: f64, a: f64, n: usize) -> Vec<[f64; 2]> {
    (0..n)
        .map(|j| {
            let t = j as f64 * TAU / n as f64;
            let rho = r * (1.0 + a * (7.0 * t).sin());
            [centre[0] + rho * t.cos(), centre[1] + rho * t.sin()]
        })
        .collect()
}

/// A square ring, counter-clockwise.
pub fn square_ring(lo: [f64; 2], hi: [f64; 2]) -> Vec<[f64; 2]> {
    vec![lo, [hi[0], lo[1]], hi, [lo[0], hi[1]]]
}

/// A wavy polygon with a square hole (clockwise given: orientation is fixed by the library).
pub fn polygon_with_hole() -> Polygons {
    let mut hole = square_ring([0.4, 0.4], [0.6, 0.6]);
    hole.reverse();
    Polygons::new(&[vec![wavy_ring([0.5, 0.5], 0.38, 0.15, 200), hole]]).expect("valid polygon")
}

/// Twelve separate wavy islands in the unit square, 3 rows of 4.
pub fn islands() -> Polygons {
    let polygons: Vec<Vec<Vec<[f64; 2]>>> = (0..12)
        .map(|k| {
            let centre = [0.125 + 0.25 * (k % 4) as f64, 1.0 / 6.0 + (k / 4) as f64 / 3.0];
            vec![wavy_ring(centre, 0.07, 0.2, 60)]
        })
        .collect();
    Polygons::new(&polygons).expect("valid islands")
}

/// The island index (0..12) of a point near island k's centre.
pub fn island_of(p: &Point<2>) -> usize {
    let column = ((p[0] / 0.25) as usize).min(3);
    let row = ((p[1] * 3.0) as usize).min(2);
    row * 4 + column
}

/// A blob as a 64 × 48 grey image over [0.05, 0.95] × [0.1, 0.9]: a disc and a bar.
pub fn mask() -> Mask {
    let (w, h) = (64usize, 48usize);
    let rows: Vec<Vec<f64>> = (0..h)
        .map(|j| {
            (0..w)
                .map(|i| {
                    let (x, y) = ((i as f64 + 0.5) / w as f64, 1.0 - (j as f64 + 0.5) / h as f64);
                    let disc = (x - 0.35).hypot(y - 0.5) < 0.3;
                    let bar = (0.6..0.9).contains(&x) && (0.2..0.8).contains(&y);
                    if disc || bar { 0.9 } else { 0.1 }
                })
                .collect()
        })
        .collect();
    Mask::from_grey_rows(&rows, [0.05, 0.1], [0.95, 0.9]).expect("valid mask")
}

/// An annulus (a thin ring) of the given width around the centre of the unit square.
pub fn annulus(width: f64) -> Difference<Ball<2>, Ball<2>> {
    Difference::new(
        Ball::new([0.5, 0.5], 0.35 + width / 2.0).expect("ball"),
        Ball::new([0.5, 0.5], 0.35 - width / 2.0).expect("ball"),
    )
}

/// Two discs joined by a neck of the given width.
pub fn dumbbell(neck: f64) -> Union<Union<Ball<2>, Ball<2>>, BoxRegion<2>> {
    Union::new(
        Union::new(
            Ball::new([0.22, 0.5], 0.18).expect("ball"),
            Ball::new([0.78, 0.5], 0.18).expect("ball"),
        ),
        BoxRegion::new([0.2, 0.5 - neck / 2.0], [0.8, 0.5 + neck / 2.0]).expect("box"),
    )
}

/// An SDF: a rounded square of half-side 0.3 and rounding 0.1 around (0.5, 0.5).
pub fn rounded_square() -> impl Region<2> {
    Sdf::new([0.0; 2], [1.0; 2], |p: &[f64; 2]| {
        let q = [(p[0] - 0.5).abs() - 0.2, (p[1] - 0.5).abs() - 0.2];
        let outside = q[0].max(0.0).hypot(q[1].max(0.0));
        outside + q[0].max(q[1]).min(0.0) - 0.1
    })
    .expect("valid sdf")
}

/// Every 2D kind.
pub fn shapes_2d() -> Vec<Shape<2>> {
    vec![
        ("box", Arc::new(BoxRegion::new([0.1, 0.2], [0.8, 0.9]).expect("box"))),
        ("ball", Arc::new(Ball::new([0.45, 0.55], 0.4).expect("ball"))),
        ("sdf", Arc::new(rounded_square())),
        ("polygon-with-hole", Arc::new(polygon_with_hole())),
        ("multipolygon", Arc::new(islands())),
        ("mask", Arc::new(mask())),
        ("voxels-2d", Arc::new(voxels_2d())),
        ("union", Arc::new(dumbbell(0.06))),
        (
            "intersection",
            Arc::new(Intersection::new(
                Ball::new([0.5, 0.5], 0.45).expect("ball"),
                BoxRegion::new([0.0, 0.3], [1.0, 0.7]).expect("box"),
            )),
        ),
        ("difference", Arc::new(annulus(0.12))),
    ]
}

/// A 2D voxel grid: a checkerboard of 6 × 6 with one corner cleared.
pub fn voxels_2d() -> Voxels<2> {
    let values: Vec<f64> =
        (0..36).map(|k| if (k / 6 + k % 6) % 2 == 0 && k != 0 { 1.0 } else { 0.0 }).collect();
    Voxels::from_values([6, 6], &values, [0.1, 0.1], [0.9, 0.9]).expect("valid voxels")
}

/// An octahedron |x − c| + |y − c| + |z − c| < s as a closed mesh (8 triangles).
pub fn octahedron(c: f64, s: f64) -> Mesh {
    let vertices = vec![
        [c + s, c, c],
        [c - s, c, c],
        [c, c + s, c],
        [c, c - s, c],
        [c, c, c + s],
        [c, c, c - s],
    ];
    let mut triangles = Vec::new();
    for &x in &[0usize, 1] {
        for &y in &[2usize, 3] {
            for &z in &[4usize, 5] {
                triangles.push([x, y, z]);
            }
        }
    }
    Mesh::new(vertices, triangles).expect("closed octahedron")
}

/// The box [lo, hi]^3 as a mesh whose faces are each split into `m × m` squares (so rays hit
/// many shared edges and vertices).
pub fn subdivided_cube(lo: f64, hi: f64, m: usize) -> Mesh {
    let mut vertices: Vec<[f64; 3]> = Vec::new();
    let mut index = std::collections::HashMap::new();
    let mut vertex = |p: [i64; 3]| -> usize {
        *index.entry(p).or_insert_with(|| {
            let f = |k: i64| lo + (hi - lo) * k as f64 / m as f64;
            vertices.push([f(p[0]), f(p[1]), f(p[2])]);
            vertices.len() - 1
        })
    };
    let m = m as i64;
    let mut triangles = Vec::new();
    for axis in 0..3 {
        for side in [0, m] {
            for a in 0..m {
                for b in 0..m {
                    let corner = |da: i64, db: i64| {
                        let mut p = [0i64; 3];
                        p[axis] = side;
                        p[(axis + 1) % 3] = a + da;
                        p[(axis + 2) % 3] = b + db;
                        p
                    };
                    let q = [corner(0, 0), corner(1, 0), corner(1, 1), corner(0, 1)];
                    let v = q.map(&mut vertex);
                    triangles.push([v[0], v[1], v[2]]);
                    triangles.push([v[0], v[2], v[3]]);
                }
            }
        }
    }
    Mesh::new(vertices, triangles).expect("closed cube")
}

/// A torus (ring radius `big`, tube radius `small`) around (0.5, 0.5, 0.5) in the xy-plane,
/// as a mesh of `u × v` quads.
pub fn torus_mesh(big: f64, small: f64, u: usize, v: usize) -> Mesh {
    let mut vertices = Vec::new();
    for i in 0..u {
        for j in 0..v {
            let (a, b) = (i as f64 * TAU / u as f64, j as f64 * TAU / v as f64);
            let ring = big + small * b.cos();
            vertices.push([0.5 + ring * a.cos(), 0.5 + ring * a.sin(), 0.5 + small * b.sin()]);
        }
    }
    let id = |i: usize, j: usize| (i % u) * v + (j % v);
    let mut triangles = Vec::new();
    for i in 0..u {
        for j in 0..v {
            triangles.push([id(i, j), id(i + 1, j), id(i + 1, j + 1)]);
            triangles.push([id(i, j), id(i + 1, j + 1), id(i, j + 1)]);
        }
    }
    Mesh::new(vertices, triangles).expect("closed torus")
}

/// A 3D voxel grid: a 5 × 5 × 5 cross of three bars.
pub fn voxels_3d() -> Voxels<3> {
    let inside: Vec<bool> = (0..125)
        .map(|k| {
            let (a, b, c) = (k / 25, k / 5 % 5, k % 5);
            [a == 2, b == 2, c == 2].iter().filter(|x| **x).count() >= 2
        })
        .collect();
    Voxels::from_bools([5, 5, 5], inside, [0.0; 3], [1.0; 3]).expect("valid voxels")
}

/// Every 3D kind.
pub fn shapes_3d() -> Vec<Shape<3>> {
    vec![
        ("ball-3d", Arc::new(Ball::new([0.5; 3], 0.45).expect("ball"))),
        ("mesh-octahedron", Arc::new(octahedron(0.5, 0.48))),
        ("mesh-torus", Arc::new(torus_mesh(0.3, 0.15, 48, 24))),
        ("voxels-3d", Arc::new(voxels_3d())),
        (
            "sdf-3d",
            Arc::new(
                Sdf::new([0.0; 3], [1.0; 3], |p: &[f64; 3]| {
                    let ring = ((p[0] - 0.5).hypot(p[1] - 0.5) - 0.3).hypot(p[2] - 0.5);
                    ring - 0.12
                })
                .expect("sdf"),
            ),
        ),
    ]
}
