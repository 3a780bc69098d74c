//! Straight walks on a surface: how the surface front reaches its candidates.
//!
//! A walk starts at a point of a triangle and follows a straight line in the triangle's
//! plane. Where the line leaves the triangle over a side it shares with exactly one other
//! triangle, the walk goes on in that one, the rest of the step turned about the shared side
//! into its plane (the surface unfolded: the distance along the side and the distance from
//! it are kept). It ends after its length, at a point named by face and barycentric
//! coordinates, or is lost at a side of the boundary, at a side three or more triangles
//! share, or after [`MAX_SIDES`] sides. Triangles are joined where their corners have the
//! same coordinates, whatever their vertex indices (an STL file repeats each vertex for
//! every triangle it belongs to).
//!
//! On a flat part of the surface a walk of length `d` ends exactly `d` away (to rounding);
//! over a fold it ends closer in space than it walked, which the front's distance test sees.

use super::mesh::{SurfaceMesh, point_in};
use crate::engine::shell::{PairedShell, ShellDraw};
use crate::geometry::vector::{cross, dot, normalised, sub};
use crate::limits::power_of_two;
use crate::point::Point;
use rand::Rng;
use std::collections::HashMap;

/// The most sides a walk crosses before it is given up as lost. A walk of at most twice the
/// radius crosses a few sides on a mesh whose triangles are about the radius; a mesh far
/// finer than the radius loses walks here, and the fill's darts cover what its front does not
/// reach.
pub(crate) const MAX_SIDES: usize = 64;

/// No triangle: across a side of the boundary or a non-manifold side, and a lost walk's face.
const NONE: u32 = u32::MAX;

/// A point of the surface: its triangle, its barycentric coordinates there and its position
/// ([`point_in`] of the two).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Spot {
    pub(crate) face: u32,
    pub(crate) b: [f64; 3],
    pub(crate) p: Point<3>,
}

impl Spot {
    /// Where a lost walk ends: no point of the surface.
    const LOST: Spot = Spot { face: NONE, b: [0.0; 3], p: [0.0; 3] };

    /// Whether the walk that gave this spot was lost.
    #[inline(always)]
    pub(crate) fn is_lost(&self) -> bool {
        self.face == NONE
    }
}

/// What a walk reads of a triangle, side by side.
#[derive(Debug, Clone, Copy)]
struct Frame {
    corners: [Point<3>; 3],
    /// The gradients of b1 and b2 in the triangle's plane: a step `v` in the plane changes
    /// them by `v · g` (b0 by minus their sum).
    gradients: [[f64; 3]; 2],
    /// Two orthonormal directions of the plane: along the side from corner 0 to corner 1,
    /// and at a right angle to it towards corner 2.
    axes: [[f64; 3]; 2],
    /// The triangle across the side opposite each corner, or [`NONE`].
    across: [u32; 3],
    /// Across the side opposite corner i: the corners of the triangle there that hold this
    /// side's corners i+1 and i+2 (mod 3), two bits each.
    mapping: [u8; 3],
}

impl Frame {
    /// The gradient of barycentric coordinate `i` in the plane.
    #[inline(always)]
    fn gradient(&self, i: usize) -> [f64; 3] {
        let [g1, g2] = self.gradients;
        match i {
            0 => std::array::from_fn(|k| -(g1[k] + g2[k])),
            1 => g1,
            _ => g2,
        }
    }
}

/// The triangles of a surface, ready to be walked on.
#[derive(Debug, Clone)]
pub(crate) struct Walker {
    frames: Vec<Frame>,
}

impl Walker {
    /// Joins the triangles of `mesh` over the sides exactly two of them share (corners
    /// matched by their coordinates; −0 and +0 alike); degenerate triangles join none.
    pub(crate) fn new(mesh: &SurfaceMesh) -> Walker {
        let mut ids: HashMap<[u64; 3], u32> = HashMap::new();
        let welded: Vec<u32> = mesh
            .vertices()
            .iter()
            .map(|v| {
                let next = ids.len() as u32;
                *ids.entry(v.map(|x| (x + 0.0).to_bits())).or_insert(next)
            })
            .collect();
        let corner_ids = |face: usize| mesh.triangles()[face].map(|v| welded[v as usize]);
        let mut frames: Vec<Frame> =
            (0..mesh.triangle_count()).map(|face| frame(mesh.corners(face))).collect();
        // Every side of a non-degenerate triangle, keyed by its two corners (lower first).
        let mut sides: Vec<(u64, u32, u8)> = Vec::with_capacity(3 * mesh.faces().len());
        for &face in mesh.faces() {
            let ids = corner_ids(face as usize);
            for i in 0..3 {
                let (a, b) = (ids[(i + 1) % 3], ids[(i + 2) % 3]);
                let key = u64::from(a.min(b)) << 32 | u64::from(a.max(b));
                sides.push((key, face, i as u8));
            }
        }
        sides.sort_unstable();
        for group in sides.chunk_by(|x, y| x.0 == y.0) {
            let [(_, f, i), (_, g, j)] = *group else { continue };
            if f == g {
                continue;
            }
            // Where this side's corners sit in the triangle across.
            let mapping = |ids: [u32; 3], side: u8, across: [u32; 3]| {
                let at = |id: u32| across.iter().position(|&x| x == id).unwrap_or(0) as u8;
                let s = usize::from(side);
                at(ids[(s + 1) % 3]) | at(ids[(s + 2) % 3]) << 2
            };
            let (f_ids, g_ids) = (corner_ids(f as usize), corner_ids(g as usize));
            let (map_f, map_g) = (mapping(f_ids, i, g_ids), mapping(g_ids, j, f_ids));
            frames[f as usize].across[i as usize] = g;
            frames[f as usize].mapping[i as usize] = map_f;
            frames[g as usize].across[j as usize] = f;
            frames[g as usize].mapping[j as usize] = map_g;
        }
        Walker { frames }
    }

    /// Walks from `from` by `offset`, given along the axes of its triangle's plane
    /// ([`Frame::axes`]); [`Spot::LOST`] if the walk is lost.
    #[inline]
    pub(crate) fn walk(&self, from: &Spot, offset: [f64; 2]) -> Spot {
        let mut face = from.face as usize;
        let mut b = from.b;
        let [u, w] = self.frames[face].axes;
        let mut v: [f64; 3] = std::array::from_fn(|k| offset[0] * u[k] + offset[1] * w[k]);
        for _ in 0..MAX_SIDES {
            let frame = &self.frames[face];
            let d1 = dot(v, frame.gradients[0]);
            let d2 = dot(v, frame.gradients[1]);
            let d = [-(d1 + d2), d1, d2];
            // The side the line reaches first within the step: b_i + t·d_i = 0 for t ≤ 1.
            let mut t = 1.0;
            let mut side = 3;
            for i in 0..3 {
                if d[i] < 0.0 && b[i] + t * d[i] < 0.0 {
                    t = b[i] / -d[i];
                    side = i;
                }
            }
            if side == 3 {
                // Inside: rounding may leave a coordinate a hair below 0 or the pair above 1.
                let (b1, b2) = ((b[1] + d1).max(0.0), (b[2] + d2).max(0.0));
                let sum = b1 + b2;
                let (b1, b2) = if sum > 1.0 { (b1 / sum, b2 / sum) } else { (b1, b2) };
                let b = [(1.0 - (b1 + b2)).max(0.0), b1, b2];
                return Spot { face: face as u32, b, p: point_in(&frame.corners, b) };
            }
            let next = frame.across[side];
            if next == NONE {
                return Spot::LOST;
            }
            let (j, k) = ((side + 1) % 3, (side + 2) % 3);
            let (bj, bk) = (b[j] + t * d[j], b[k] + t * d[k]);
            let mapping = frame.mapping[side];
            let (jn, kn) = (usize::from(mapping & 3), usize::from(mapping >> 2 & 3));
            let across = &self.frames[next as usize];
            // The rest of the step, turned about the side into the next plane: its part along
            // the side kept, its part away from the side (out of this triangle) turned into
            // the next one's direction away from the side (into it).
            let along = unit(sub(frame.corners[k], frame.corners[j]));
            let out = unit(frame.gradient(side)).map(|x| -x);
            let into = unit(across.gradient(3 - jn - kn));
            let rest = v.map(|x| (1.0 - t) * x);
            let (a, o) = (dot(rest, along), dot(rest, out));
            v = std::array::from_fn(|n| a * along[n] + o * into[n]);
            b = [0.0; 3];
            b[jn] = bj;
            b[kn] = bk;
            face = next as usize;
        }
        Spot::LOST
    }
}

/// The frame of the triangle with `corners`, joined to nothing yet. The gradients are
/// computed from the sides scaled by a power of two to about 1 (exactly, and back), so that
/// no magnitude of coordinates overflows or underflows them; a degenerate triangle gets
/// zeros, and no walk enters or starts in it.
fn frame(corners: [Point<3>; 3]) -> Frame {
    let [a, p, q] = corners;
    let (e1, e2) = (sub(p, a), sub(q, a));
    let largest = e1.iter().chain(&e2).fold(0.0f64, |m, x| m.max(x.abs()));
    let none = Frame {
        corners,
        gradients: [[0.0; 3]; 2],
        axes: [[0.0; 3]; 2],
        across: [NONE; 3],
        mapping: [0; 3],
    };
    if !(largest > 0.0 && largest.is_finite()) {
        return none;
    }
    let exponent = largest.log2().round() as i32;
    let scale = power_of_two(-exponent);
    let (s1, s2) = (e1.map(|x| x * scale), e2.map(|x| x * scale));
    let (e11, e12, e22) = (dot(s1, s1), dot(s1, s2), dot(s2, s2));
    let det = e11 * e22 - e12 * e12;
    if det <= 0.0 {
        return none;
    }
    let g1 = std::array::from_fn(|k| (e22 * s1[k] - e12 * s2[k]) / det * scale);
    let g2 = std::array::from_fn(|k| (e11 * s2[k] - e12 * s1[k]) / det * scale);
    let u = unit(s1);
    let w = unit(cross(unit(cross(s1, s2)), u));
    Frame { gradients: [g1, g2], axes: [u, w], ..none }
}

/// `v` over its length ([`normalised`]; zero for a zero vector, which no walk meets).
#[inline(always)]
fn unit(v: [f64; 3]) -> [f64; 3] {
    normalised(v).unwrap_or_default()
}

/// The front's shell on a surface: an offset drawn in the plane's shell `[r, 2r]` (the box
/// front's 2D draw, so uniform by area in the annulus), walked from the active point.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SurfaceShell<'w> {
    pub(crate) walker: &'w Walker,
    pub(crate) plane: PairedShell,
}

impl ShellDraw<Spot> for SurfaceShell<'_> {
    const AHEAD: bool = true;

    #[inline(always)]
    fn draw<R: Rng + ?Sized>(&self, centre: &Spot, r: f64, rng: &mut R) -> Spot {
        let offset = ShellDraw::<Point<2>>::draw(&self.plane, &[0.0, 0.0], r, rng);
        self.walker.walk(centre, offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A square of side 1 in the plane z = 0, as two triangles, folded by `angle` about
    /// x = 1/2 when the second pair of triangles is given (three vertices shared).
    fn strip(fold: f64) -> SurfaceMesh {
        let (c, s) = (fold.cos(), fold.sin());
        let vertices = vec![
            [0.0, 0.0, 0.0],
            [0.5, 0.0, 0.0],
            [0.5, 1.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.5 + 0.5 * c, 0.0, 0.5 * s],
            [0.5 + 0.5 * c, 1.0, 0.5 * s],
        ];
        let triangles = vec![[0, 1, 2], [0, 2, 3], [1, 4, 5], [1, 5, 2]];
        SurfaceMesh::new(vertices, triangles).unwrap()
    }

    fn start(mesh: &SurfaceMesh, face: usize, b: [f64; 3]) -> Spot {
        Spot { face: face as u32, b, p: mesh.point_at(face, b) }
    }

    #[test]
    fn a_flat_walk_ends_its_length_away_on_the_surface() {
        let mesh = strip(0.0);
        let walker = Walker::new(&mesh);
        let from = start(&mesh, 0, [0.6, 0.3, 0.1]);
        for k in 0..64 {
            let angle = k as f64 * 0.1;
            let d = 0.05 + 0.3 * (k as f64 / 64.0);
            let to = walker.walk(&from, [d * angle.cos(), d * angle.sin()]);
            if to.is_lost() {
                continue;
            }
            let dist = crate::point::distance_squared(&from.p, &to.p).sqrt();
            assert!((dist - d).abs() < 1e-12, "{k}: {dist} against {d}");
            assert_eq!(to.p, mesh.point_at(to.face as usize, to.b));
            assert!(to.b.iter().all(|&x| (0.0..=1.0).contains(&x)), "{:?}", to.b);
            assert!(to.p[2].abs() < 1e-15);
        }
    }

    #[test]
    fn a_walk_over_a_fold_keeps_its_length_along_the_surface() {
        // Folded up by 90°: a walk straight across the fold climbs the wall.
        let mesh = strip(std::f64::consts::FRAC_PI_2);
        let walker = Walker::new(&mesh);
        let from = start(&mesh, 1, mesh_point_b(&mesh, 1, [0.3, 0.5]));
        // A step of 0.4 towards +x: 0.2 to the fold, 0.2 up the wall.
        let frame = &walker.frames[1];
        let x = [1.0, 0.0, 0.0];
        let offset = [dot(x, frame.axes[0]), dot(x, frame.axes[1])].map(|c| 0.4 * c);
        let to = walker.walk(&from, offset);
        assert!(!to.is_lost());
        assert!((to.p[0] - 0.5).abs() < 1e-12 && (to.p[2] - 0.2).abs() < 1e-12, "{:?}", to.p);
        assert!((to.p[1] - 0.5).abs() < 1e-12);
        assert_eq!(to.p, mesh.point_at(to.face as usize, to.b));
        // Off the boundary: lost.
        let away = walker.walk(&from, offset.map(|c| -c));
        assert!(away.is_lost());
    }

    /// Barycentric coordinates of the point (x, y) of the plane z = 0 on `face`.
    fn mesh_point_b(mesh: &SurfaceMesh, face: usize, xy: [f64; 2]) -> [f64; 3] {
        let [a, p, q] = mesh.corners(face);
        let (e1, e2) = ([p[0] - a[0], p[1] - a[1]], [q[0] - a[0], q[1] - a[1]]);
        let (x, y) = (xy[0] - a[0], xy[1] - a[1]);
        let det = e1[0] * e2[1] - e1[1] * e2[0];
        let b1 = (x * e2[1] - y * e2[0]) / det;
        let b2 = (e1[0] * y - e1[1] * x) / det;
        [1.0 - b1 - b2, b1, b2]
    }

    #[test]
    fn triangles_with_their_own_vertices_join_where_corners_meet() {
        // The strip as a soup: every triangle its own three vertices (as in STL).
        let mesh = strip(0.0);
        let faces = 0..mesh.triangle_count();
        let vertices = faces.clone().flat_map(|face| mesh.corners(face)).collect();
        let soup =
            SurfaceMesh::new(vertices, faces.map(|f| [3 * f, 3 * f + 1, 3 * f + 2]).collect());
        let soup = soup.unwrap();
        let (joined, walker) = (Walker::new(&mesh), Walker::new(&soup));
        for (a, b) in joined.frames.iter().zip(&walker.frames) {
            assert_eq!(a.across, b.across);
        }
        let joined_sides =
            |face: usize| walker.frames[face].across.iter().filter(|&&f| f != NONE).count();
        assert_eq!([0, 1, 2, 3].map(joined_sides), [2, 1, 1, 2]);
    }

    #[test]
    fn extreme_magnitudes_walk_as_the_unit_mesh_scaled() {
        for scale in [1e-90, 1e90] {
            let mesh = strip(0.3);
            let scaled = SurfaceMesh::new(
                mesh.vertices().iter().map(|v| v.map(|x| x * scale)).collect(),
                mesh.triangles().iter().map(|t| t.map(|v| v as usize)).collect(),
            )
            .unwrap();
            let (unit_walker, walker) = (Walker::new(&mesh), Walker::new(&scaled));
            let b = [0.2, 0.5, 0.3];
            let (from, from_scaled) = (start(&mesh, 0, b), start(&scaled, 0, b));
            let to = unit_walker.walk(&from, [0.5, 0.2]);
            let to_scaled = walker.walk(&from_scaled, [0.5 * scale, 0.2 * scale]);
            assert_eq!(to.face, to_scaled.face, "{scale}");
            for i in 0..3 {
                assert!((to.b[i] - to_scaled.b[i]).abs() < 1e-9, "{scale}: {:?}", to_scaled.b);
            }
        }
    }
}
