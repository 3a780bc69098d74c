//! Meshes for the glTF file: the terrain as a grid of triangles, and the placeholder meshes
//! the classes are drawn with (cone, sphere, box), all in glTF's frame.
//!
//! **Frames.** The scatter's world has `x` = sample axis 0 (east), `y` up and `z` = sample
//! axis 1, growing **north** (row 0 of every map is the north edge). That frame is
//! left-handed. glTF's is right-handed with `+y` up; with `+x` east its `+z` points south,
//! toward a viewer looking north. So the glTF file stores every point as `(x, y, −z)`: north
//! is glTF's `−z`, and a 3D tool's top view shows the map as the preview does, north up, not
//! mirrored. A rotation `q = (qx, qy, qz, qw)` of the world becomes `(−qx, −qy, qz, qw)`
//! (conjugation by the reflection `z → −z`), normals `(nx, ny, −nz)`.

use crate::io::gltf::TriangleMesh;
use crate::scatter::scene::MeshKind;
use poisson_nd::scatter::{Ground, MeshTerrain, Terrain};

/// The most vertices along one side of the terrain mesh; finer heightmaps are subsampled.
pub const TERRAIN_VERTICES: usize = 257;

/// A value as a 32-bit float, 0 where it is below the smallest normal one (a nearly
/// horizontal normal's vertical component, a height of 1e-40): every written value stays
/// finite and normal (or 0), and nothing is lost that a 32-bit ulp of its neighbours holds.
fn to_f32(x: f64) -> f32 {
    let y = x as f32;
    if x.abs() < f64::from(f32::MIN_POSITIVE) { 0.0f32.copysign(y) } else { y }
}

/// A world point in glTF's frame.
pub fn to_gltf_point(p: [f64; 3]) -> [f32; 3] {
    [to_f32(p[0]), to_f32(p[1]), to_f32(-p[2])]
}

/// A world unit normal in glTF's frame.
pub fn to_gltf_normal(n: [f64; 3]) -> [f32; 3] {
    to_gltf_point(n)
}

/// A world rotation `[x, y, z, w]` in glTF's frame.
pub fn to_gltf_rotation(q: [f64; 4]) -> [f32; 4] {
    [to_f32(-q[0]), to_f32(-q[1]), to_f32(q[2]), to_f32(q[3])]
}

/// The ground as triangles: a heightmap's grid ([`heightmap_mesh`]) or a mesh terrain's own
/// triangles ([`ground_mesh`]).
pub fn terrain_mesh(ground: &Ground) -> TriangleMesh {
    match ground {
        Ground::Heightmap(terrain) => heightmap_mesh(terrain),
        Ground::Mesh(terrain) => ground_mesh(terrain),
    }
}

/// A mesh terrain's triangles (every one that bounds an area, upward-facing or not), three
/// vertices each so that each corner carries its own normal: the mesh's vertex normals where
/// it has them, else the face's. A reflection takes the world to glTF's frame, so each
/// triangle's corner order is reversed again: faces keep pointing to the side they point to
/// in the file the mesh came from.
pub fn ground_mesh(terrain: &MeshTerrain) -> TriangleMesh {
    let mesh = terrain.mesh();
    let mut out = TriangleMesh::default();
    const CORNERS: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    for &face in mesh.faces() {
        let face = face as usize;
        let corners = mesh.corners(face);
        let first = out.positions.len() as u32;
        for k in [0, 2, 1] {
            out.positions.push(to_gltf_point(corners[k]));
            let n = mesh.normal_at(face, CORNERS[k]);
            out.normals.push(to_gltf_normal(n));
        }
        out.indices.extend_from_slice(&[first, first + 1, first + 2]);
    }
    out
}

/// The terrain as triangles, vertices on a grid of at most [`TERRAIN_VERTICES`] per side
/// spanning the pixel centres (the heights there are the heightmap's values), with the
/// surface normals of the bilinear terrain.
pub fn heightmap_mesh(terrain: &Terrain) -> TriangleMesh {
    let (w, h) = terrain.resolution();
    let [lx, lz] = terrain.size();
    let (nx, nz) = (w.clamp(2, TERRAIN_VERTICES), h.clamp(2, TERRAIN_VERTICES));
    // From the first pixel centre to the last (the whole box when the map is one pixel wide).
    let span = |count: usize, length: f64| {
        if count > 1 {
            (0.5 * length / count as f64, length - 0.5 * length / count as f64)
        } else {
            (0.0, length)
        }
    };
    let (x0, x1) = span(w, lx);
    let (z0, z1) = span(h, lz);
    let mut mesh = TriangleMesh::default();
    for k in 0..nz {
        let z = z0 + (z1 - z0) * k as f64 / (nz - 1) as f64;
        for i in 0..nx {
            let x = x0 + (x1 - x0) * i as f64 / (nx - 1) as f64;
            let surface = terrain.surface(x, z);
            mesh.positions.push(to_gltf_point([x, surface.height, z]));
            let n = surface.normal;
            mesh.normals.push(to_gltf_normal(n));
        }
    }
    for k in 0..nz - 1 {
        for i in 0..nx - 1 {
            let a = (k * nx + i) as u32;
            let (b, c, d) = (a + 1, a + nx as u32, a + nx as u32 + 1);
            // Counter-clockwise seen from +y in glTF's frame (z flipped).
            mesh.indices.extend_from_slice(&[a, b, c, b, d, c]);
        }
    }
    mesh
}

/// The placeholder mesh of `kind` for a class whose smallest radius is `r` (in the
/// instance's own frame, `+y` up, standing on `y = 0`): a cone of base radius `0.3r` and
/// height `1.5r`, a sphere of radius `0.35r` centred at `0.2r`, a box of side `0.4r` sunk
/// `0.1r` into the ground.
///
/// Made at `r = 1`, where the normals are worked out, and then scaled: at every radius of
/// the scatter's range (1e-30 to 1e30) the normals stay those of the unit shape, and the
/// positions finite and normal 32-bit floats (the unit shape's rounding residues, such as
/// cos(π/2), are set to 0 first, so that no scaled coordinate is subnormal).
pub fn placeholder(kind: MeshKind, r: f64) -> TriangleMesh {
    let mut mesh = unit_placeholder(kind);
    for p in &mut mesh.positions {
        for x in p.iter_mut() {
            *x = if x.abs() < 1e-6 { 0.0 } else { (f64::from(*x) * r) as f32 };
        }
    }
    mesh
}

/// [`placeholder`] at `r = 1`.
fn unit_placeholder(kind: MeshKind) -> TriangleMesh {
    let r = 1.0f32;
    let tau = std::f32::consts::TAU;
    let mut triangles: Vec<[[f32; 3]; 3]> = Vec::new();
    let centre;
    match kind {
        MeshKind::Cone => {
            let (radius, height, segments) = (0.3 * r, 1.5 * r, 16);
            centre = [0.0, 0.25 * height, 0.0];
            let ring = |s: usize| {
                let a = tau * s as f32 / segments as f32;
                [radius * a.cos(), 0.0, radius * a.sin()]
            };
            for s in 0..segments {
                let (p, q) = (ring(s), ring(s + 1));
                triangles.push([[0.0, height, 0.0], p, q]);
                triangles.push([[0.0, 0.0, 0.0], p, q]);
            }
        }
        MeshKind::Sphere => {
            let (radius, stacks, slices) = (0.35 * r, 8, 12);
            centre = [0.0, 0.2 * r, 0.0];
            let at = |i: usize, j: usize| {
                let theta = std::f32::consts::PI * i as f32 / stacks as f32;
                let phi = tau * j as f32 / slices as f32;
                [
                    centre[0] + radius * theta.sin() * phi.cos(),
                    centre[1] + radius * theta.cos(),
                    centre[2] + radius * theta.sin() * phi.sin(),
                ]
            };
            for i in 0..stacks {
                for j in 0..slices {
                    let (a, b, c, d) = (at(i, j), at(i, j + 1), at(i + 1, j), at(i + 1, j + 1));
                    if i > 0 {
                        triangles.push([a, b, c]);
                    }
                    if i + 1 < stacks {
                        triangles.push([b, d, c]);
                    }
                }
            }
        }
        MeshKind::Box => {
            let half = 0.2 * r;
            let (low, high) = (-0.1 * r, 0.3 * r);
            centre = [0.0, 0.5 * (low + high), 0.0];
            let corner = |i: usize| {
                [
                    if i & 1 == 0 { -half } else { half },
                    if i & 2 == 0 { low } else { high },
                    if i & 4 == 0 { -half } else { half },
                ]
            };
            // Each face as two triangles of its four corners (bit `axis` fixed).
            for axis in 0..3 {
                for side in 0..2 {
                    let fixed = side << axis;
                    let free: Vec<usize> = (0..3).filter(|&a| a != axis).collect();
                    let c = |u: usize, v: usize| corner(fixed | (u << free[0]) | (v << free[1]));
                    triangles.push([c(0, 0), c(1, 0), c(1, 1)]);
                    triangles.push([c(0, 0), c(1, 1), c(0, 1)]);
                }
            }
        }
    }
    flat_outward(&triangles, centre)
}

/// Flat-shaded triangles of a convex shape around `centre`, each turned to face outward.
fn flat_outward(triangles: &[[[f32; 3]; 3]], centre: [f32; 3]) -> TriangleMesh {
    let mut mesh = TriangleMesh::default();
    for t in triangles {
        let [a, mut b, mut c] = *t;
        let sub = |p: [f32; 3], q: [f32; 3]| [p[0] - q[0], p[1] - q[1], p[2] - q[2]];
        let cross = |u: [f32; 3], v: [f32; 3]| {
            [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]]
        };
        let mut n = cross(sub(b, a), sub(c, a));
        let mid =
            [(a[0] + b[0] + c[0]) / 3.0, (a[1] + b[1] + c[1]) / 3.0, (a[2] + b[2] + c[2]) / 3.0];
        let out = sub(mid, centre);
        if n[0] * out[0] + n[1] * out[1] + n[2] * out[2] < 0.0 {
            std::mem::swap(&mut b, &mut c);
            n = [-n[0], -n[1], -n[2]];
        }
        let length = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        if length == 0.0 {
            continue;
        }
        let n = [n[0] / length, n[1] / length, n[2] / length];
        let first = mesh.positions.len() as u32;
        mesh.positions.extend_from_slice(&[a, b, c]);
        mesh.normals.extend_from_slice(&[n, n, n]);
        mesh.indices.extend_from_slice(&[first, first + 1, first + 2]);
    }
    mesh
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At both ends of the scatter's radius range every placeholder is whole: its vertices
    /// finite and normal 32-bit floats (or 0), its normals of unit length, as at r = 1.
    #[test]
    fn placeholders_hold_at_every_radius() {
        for kind in [MeshKind::Cone, MeshKind::Sphere, MeshKind::Box] {
            let unit = placeholder(kind, 1.0);
            for r in [1e-30, 1.24e-11, 1.0, 2.75e19, 1e30] {
                let mesh = placeholder(kind, r);
                assert_eq!(mesh.indices, unit.indices, "{kind:?} at {r:e}");
                assert_eq!(mesh.normals, unit.normals, "{kind:?} at {r:e}");
                for x in mesh.positions.iter().flatten() {
                    assert!(*x == 0.0 || x.is_normal(), "{kind:?} at {r:e}: {x:e}");
                }
                for n in &mesh.normals {
                    let length = n.iter().map(|c| c * c).sum::<f32>().sqrt();
                    assert!((length - 1.0).abs() < 1e-6, "{kind:?} at {r:e}: {n:?}");
                }
            }
        }
    }

    /// Values below the smallest normal 32-bit float are written as 0.
    #[test]
    fn nothing_written_is_subnormal() {
        assert_eq!(to_gltf_normal([1e-40, 1.0, -1e-300]), [0.0, 1.0, 0.0]);
        assert_eq!(to_gltf_normal([0.6, 0.0, 0.8]), [0.6, 0.0, -0.8]);
        assert_eq!(to_gltf_point([2e-39, 1e-30, 5.0]), [0.0, 1e-30, -5.0]);
        assert_eq!(to_gltf_rotation([1e-45, 0.0, 0.6, 0.8]), [0.0, 0.0, 0.6, 0.8]);
    }
}
