//! The fill along the edge of the covered surface ([`SurfaceFill::Boundary`]): Dunbar and
//! Humphreys's boundary sampling (2006), on triangles.
//!
//! Each sample `x` is visited once, in the order the samples were placed. The sphere of
//! radius `r` about it meets the plane of each triangle near it in a circle; the arcs of
//! those circles inside their triangles are the edge of what `x` covers on the surface. The
//! parts of the arcs no other sample covers are worked out exactly, as intervals of angle,
//! and new samples are placed on them at a uniformly random angle, just outside the sphere,
//! until none is left. Once every sample has been visited no point of any edge is uncovered,
//! so on every connected piece of the surface that holds a sample the covered part has no
//! edge: it is the whole piece. A scan of the faces' centroids seeds the pieces no sample
//! reached. docs/algorithms.md ("`SurfaceFill::Boundary`") gives the argument in full.

use super::{Run, distance_squared, rounding_margin};
use crate::geometry::vector::{cross, dot, normalised, sub};
use crate::grid::{CellHeads, ConflictRule, ConstantRadius};
use crate::limits::power_of_two;
use crate::point::Point;
use crate::rng::fraction_of;
use crate::sampler::StopReason;
use crate::surface::mesh::{SurfaceMesh, point_in};
use crate::surface::points::SurfacePoints;
use rand::Rng;
use std::f64::consts::TAU;
use std::sync::Arc;

/// A triangle's plane: an orthonormal frame with its origin at corner 0, the first axis
/// along the side to corner 1 and the second towards corner 2, and the sides in the
/// plane's coordinates.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Plane {
    origin: Point<3>,
    /// The two axes in the plane and the normal.
    axes: [[f64; 3]; 3],
    /// Corner 1 at `(b, 0)` and corner 2 at `c` (with `c[1] > 0`): the corners run
    /// counterclockwise.
    b: f64,
    c: [f64; 2],
    /// Each side's inward unit normal (a point `y` is inside when `normal · (y − start) ≥ 0`)
    /// and its start.
    sides: [([f64; 2], [f64; 2]); 3],
}

impl Plane {
    /// The plane of triangle `face`; `None` for a degenerate one.
    fn of(mesh: &SurfaceMesh, face: usize) -> Option<Plane> {
        let [a, b, c] = mesh.corners(face);
        let n = normalised(cross(sub(b, a), sub(c, a)))?;
        let u = normalised(sub(b, a))?;
        let w = cross(n, u);
        let to_plane = |p: Point<3>| {
            let d = sub(p, a);
            [dot(d, u), dot(d, w)]
        };
        let (b2, c2) = (to_plane(b)[0], to_plane(c));
        if !(b2 > 0.0 && c2[1] > 0.0) {
            return None;
        }
        let corners = [[0.0, 0.0], [b2, 0.0], c2];
        let side = |k: usize| {
            let (p, q) = (corners[k], corners[(k + 1) % 3]);
            let e = [q[0] - p[0], q[1] - p[1]];
            let length = (e[0] * e[0] + e[1] * e[1]).sqrt();
            ([-e[1] / length, e[0] / length], p)
        };
        Some(Plane { origin: a, axes: [u, w, n], b: b2, c: c2, sides: [side(0), side(1), side(2)] })
    }

    /// `p` in the plane's coordinates, and its height above the plane.
    #[inline(always)]
    fn local(&self, p: &Point<3>) -> ([f64; 2], f64) {
        let d = sub(*p, self.origin);
        let [u, w, n] = self.axes;
        ([dot(d, u), dot(d, w)], dot(d, n))
    }

    /// The barycentric coordinates of the point `y` (plane coordinates), clamped to the
    /// triangle.
    fn barycentric(&self, y: [f64; 2]) -> [f64; 3] {
        let b2 = y[1] / self.c[1];
        let b1 = (y[0] - self.c[0] * b2) / self.b;
        let b = [1.0 - b1 - b2, b1, b2].map(|x| x.max(0.0));
        let sum = b[0] + b[1] + b[2];
        b.map(|x| x / sum)
    }
}

/// A monotone stand-in for the angle of a nonzero vector (the "diamond angle"): 0 along
/// the first axis, 1, 2 and 3 a quarter, a half and three quarters of a turn on, below 4.
/// One division instead of an arctangent; arcs are cut in it, and turned back into angles
/// only to draw a point.
#[inline(always)]
fn diamond(v: [f64; 2]) -> f64 {
    // Above the first axis 1 − x/(|x| + |y|) runs from 0 to 2, below it 3 + x/(|x| + |y|)
    // from 2 to 4: a select, not a branch the processor would guess.
    let q = v[0] / (v[0].abs() + v[1].abs());
    if v[1] >= 0.0 { 1.0 - q } else { 3.0 + q }
}

/// A vector whose [`diamond`] is `a` (in `[0, 4]`).
#[inline(always)]
fn undiamond(a: f64) -> [f64; 2] {
    let q = if a <= 2.0 { 1.0 - a } else { a - 3.0 };
    let y = 1.0 - q.abs();
    [q, if a <= 2.0 { y } else { -y }]
}

/// The open arcs of one circle: what is left of it once the covered intervals are cut out,
/// as intervals `(lo, hi)` of [`diamond`] angles within `[0, 4]`.
#[derive(Debug, Default)]
struct Arcs {
    open: Vec<(f64, f64)>,
    /// Scratch for a cut.
    next: Vec<(f64, f64)>,
    /// Scratch for a draw: each open arc's length in radians.
    lengths: Vec<f64>,
}

impl Arcs {
    /// The whole circle open.
    fn reset(&mut self) {
        self.open.clear();
        self.open.push((0.0, 4.0));
    }

    fn is_empty(&self) -> bool {
        self.open.is_empty()
    }

    /// Covers the angles within the angle whose cosine is `cos_half` of the direction `dir`
    /// (nonzero).
    #[inline]
    fn cover(&mut self, dir: [f64; 2], cos_half: f64) {
        if cos_half >= 1.0 {
            return;
        }
        if cos_half <= -1.0 {
            self.open.clear();
            return;
        }
        let sin_half = (1.0 - cos_half * cos_half).sqrt();
        let (c, s) = (cos_half, sin_half);
        let lo = diamond([dir[0] * c + dir[1] * s, dir[1] * c - dir[0] * s]);
        let hi = diamond([dir[0] * c - dir[1] * s, dir[1] * c + dir[0] * s]);
        // A half-angle is at least about 1.5·10⁻⁸ from 0 and from π (its cosine is below 1
        // and above −1 by an ulp), far beyond rounding: the ends never swap.
        self.cut(lo, if hi <= lo { hi + 4.0 } else { hi });
    }

    /// Cuts the interval `[lo, hi]` (`lo` in `[0, 4)`, `hi − lo` in `(0, 4)`) out of the
    /// open arcs.
    fn cut(&mut self, lo: f64, hi: f64) {
        self.next.clear();
        for &(a, b) in &self.open {
            // The interval turned to start within a turn after `a`, and its turn before.
            let c = if lo < a { lo + 4.0 } else { lo };
            let d = c + (hi - lo);
            let start = if d - 4.0 > a { d - 4.0 } else { a };
            if start < b.min(c) {
                self.next.push((start, b.min(c)));
            }
            if d < b {
                self.next.push((d, b));
            }
        }
        std::mem::swap(&mut self.open, &mut self.next);
    }

    /// The direction (a unit vector) at `fraction` (in `[0, 1)`) of the open arcs' length.
    fn pick(&mut self, fraction: f64) -> [f64; 2] {
        let angle = |(a, b): (f64, f64)| {
            let (u, v) = (undiamond(a), undiamond(b));
            let turn = libm::atan2(u[0] * v[1] - u[1] * v[0], u[0] * v[0] + u[1] * v[1]);
            if turn <= 0.0 { turn + TAU } else { turn }
        };
        self.lengths.clear();
        self.lengths.extend(self.open.iter().map(|&arc| angle(arc)));
        let mut at = fraction * self.lengths.iter().sum::<f64>();
        let last = self.open.len() - 1;
        for (k, (&(lo, _), &length)) in self.open.iter().zip(&self.lengths).enumerate() {
            if at < length || k == last {
                let u = undiamond(lo);
                let norm = (u[0] * u[0] + u[1] * u[1]).sqrt();
                let (sin, cos) = libm::sincos(at.min(length));
                return [(u[0] * cos - u[1] * sin) / norm, (u[1] * cos + u[0] * sin) / norm];
            }
            at -= length;
        }
        [1.0, 0.0]
    }
}

/// Spots on one circle that may fail the exact distance test before the rest of the circle
/// is given up (none has failed in any run measured).
const GIVE_UP: u32 = 64;

/// What one visit works with, kept between visits for its allocations.
#[derive(Debug, Default)]
struct Visit {
    /// The samples within reach of any point a new sample may take.
    near: Vec<u32>,
    /// The faces near the visited sample.
    faces: Vec<u32>,
    arcs: Arcs,
}

/// The radius of the circle a sphere of radius `r` about a point at height `h` cuts in a
/// plane (centred on the point's projection), or `None` where it misses the plane.
#[inline(always)]
fn circle_radius(h: f64, r: f64) -> Option<f64> {
    let rho_squared = r * r - h * h;
    (rho_squared > 0.0).then(|| rho_squared.sqrt())
}

/// Covers on `arcs` (of the circle `centre`, `rho` in `plane`) the angles within `r` of the
/// sample at `q`.
#[inline(always)]
fn cover_by_sample(
    arcs: &mut Arcs,
    plane: &Plane,
    (centre, rho): ([f64; 2], f64),
    q: &Point<3>,
    r: f64,
) {
    let (centre_q, h_q) = plane.local(q);
    if let Some(rho_q) = circle_radius(h_q, r) {
        cover_by_disk(arcs, centre, rho, centre_q, rho_q);
    }
}

/// Covers on `arcs` (of the circle `centre`, `rho`) the angles the disk of radius `rho_q`
/// about `centre_q` holds.
#[inline(always)]
fn cover_by_disk(arcs: &mut Arcs, centre: [f64; 2], rho: f64, centre_q: [f64; 2], rho_q: f64) {
    let d = [centre_q[0] - centre[0], centre_q[1] - centre[1]];
    let d2 = d[0] * d[0] + d[1] * d[1];
    // No point of the circle in the disk (or one where they touch).
    let sum = rho + rho_q;
    if d2 >= sum * sum {
        return;
    }
    if d2 == 0.0 {
        if rho <= rho_q {
            arcs.open.clear();
        }
        return;
    }
    let distance = d2.sqrt();
    arcs.cover(d, (d2 + rho * rho - rho_q * rho_q) / (2.0 * rho * distance));
}

/// Covers on `arcs` the angles of the circle `centre`, `rho` outside the triangle of
/// `plane`; returns false, covering nothing, where the circle misses the triangle's inside.
#[inline(always)]
fn clip(arcs: &mut Arcs, plane: &Plane, centre: [f64; 2], rho: f64) -> bool {
    // Inside side k where cos(θ − its normal's angle) ≥ s[k].
    let s = plane.sides.map(|(normal, start)| {
        (normal[0] * (start[0] - centre[0]) + normal[1] * (start[1] - centre[1])) / rho
    });
    if s.iter().any(|&s| s >= 1.0) {
        return false;
    }
    arcs.reset();
    for ((normal, _), s) in plane.sides.iter().zip(s) {
        // Outside within the angle whose cosine is −s of the opposite direction.
        if s > -1.0 {
            arcs.cover([-normal[0], -normal[1]], -s);
        }
    }
    true
}

/// The planes of the mesh's triangles (`None` for a degenerate one).
pub(crate) fn planes(mesh: &SurfaceMesh) -> Vec<Option<Plane>> {
    (0..mesh.triangle_count()).map(|face| Plane::of(mesh, face)).collect()
}

impl<H: CellHeads> Run<'_, H, ConstantRadius> {
    /// Fills to saturation or the point limit along the edge of the covered surface.
    pub(super) fn fill_boundary<R: Rng + ?Sized>(
        mut self,
        planes: &[Option<Plane>],
        rng: &mut R,
    ) -> SurfacePoints {
        let order = Arc::clone(&self.sampler.order);
        let mut visit = Visit::default();
        // Faces with an area the planes could not frame are not proven covered.
        self.unresolved += order.iter().filter(|&&f| planes[f as usize].is_none()).count() as u64;
        let mut next = 0;
        let stop = 'fill: {
            for &face in order.iter() {
                let b = [1.0 / 3.0; 3];
                let p = point_in(&self.triangles[face as usize].corners, b);
                self.attempts += 1;
                if self.conflict(&p, ()).is_none() {
                    if self.full() {
                        break 'fill StopReason::PointLimit;
                    }
                    self.store(face, b, p, ());
                }
                while next < self.faces.len() {
                    if !self.visit_edge(planes, next as u32, &mut visit, rng) {
                        break 'fill StopReason::PointLimit;
                    }
                    next += 1;
                }
            }
            StopReason::Exhausted
        };
        self.finish(stop).0
    }

    /// Visits sample `index`: places samples on the arcs of its edge no other sample
    /// covers, until none is left. Returns false at the point limit.
    fn visit_edge<R: Rng + ?Sized>(
        &mut self,
        planes: &[Option<Plane>],
        index: u32,
        visit: &mut Visit,
        rng: &mut R,
    ) -> bool {
        let r = self.grid.rule().reach();
        let x = self.grid.points()[index as usize];
        // New samples go this far out, so that rounding cannot bring them within `r` of
        // `x`: well above the coordinates' rounding, well below the radius.
        let size = x.iter().fold(r, |size, c| size.max(c.abs()));
        let out = r + size * power_of_two(-45);
        let reach = r + out;
        // Every sample within `r` of a spot within `out` of `x` (and `x` itself), and no
        // farther ones: the covers are worked out from these, and the new samples' conflicts
        // tested against them.
        let margin = rounding_margin(&x, reach);
        let within = reach + margin;
        let points = self.grid.points();
        visit.near.clear();
        self.grid.any_point_within(&x, within, |q| {
            if distance_squared(&x, &points[q as usize]) <= within * within {
                visit.near.push(q);
            }
            false
        });
        visit.faces.clear();
        let faces = &mut visit.faces;
        self.mesh().faces_near((x, x), r + rounding_margin(&x, r), |face| faces.push(face));
        for k in 0..visit.faces.len() {
            let face = visit.faces[k];
            let Some(plane) = &planes[face as usize] else { continue };
            let (centre, h) = plane.local(&x);
            let Some(rho) = circle_radius(h, r) else { continue };
            let rho_out = (out * out - h * h).sqrt();
            let arcs = &mut visit.arcs;
            if !clip(arcs, plane, centre, rho) {
                continue;
            }
            let points = self.grid.points();
            for &q in &visit.near {
                if arcs.is_empty() {
                    break;
                }
                if q != index {
                    cover_by_sample(arcs, plane, (centre, rho), &points[q as usize], r);
                }
            }
            let mut failures = 0;
            while !arcs.is_empty() {
                self.attempts += 1;
                let [cos, sin] = arcs.pick(fraction_of(rng.next_u64()));
                let b = plane.barycentric([centre[0] + rho_out * cos, centre[1] + rho_out * sin]);
                let p = point_in(&self.triangles[face as usize].corners, b);
                // The list holds every sample that can conflict with `p` when `p` lies
                // within `out` of `x` (to rounding); a spot clamped farther asks the grid.
                let listed = distance_squared(&p, &x) <= (out + margin) * (out + margin);
                let conflict = if listed {
                    self.conflict_among(&p, (), &visit.near)
                } else {
                    self.conflict(&p, ())
                };
                if conflict.is_some() {
                    // Rounding put the spot within reach of a sample after all (at an end of
                    // an arc, or clamped into the triangle): about 10⁻⁶ of a turn about that
                    // angle is given up, and after `GIVE_UP` such spots the whole circle (a
                    // triangle too thin for its plane's arithmetic), so a visit always ends.
                    self.unresolved += 1;
                    failures += 1;
                    if failures == GIVE_UP {
                        break;
                    }
                    arcs.cover([cos, sin], 1.0 - power_of_two(-40));
                    continue;
                }
                if self.full() {
                    return false;
                }
                let new = self.store(face, b, p, ());
                visit.near.push(new);
                cover_by_sample(arcs, plane, (centre, rho), &p, r);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{rng_from_seed, uniform01};

    fn unit(angle: f64) -> [f64; 2] {
        [angle.cos(), angle.sin()]
    }

    /// The angle in `[0, 2π)` of the direction whose diamond angle is `a`.
    fn angle_of(a: f64) -> f64 {
        let v = undiamond(a);
        v[1].atan2(v[0]).rem_euclid(TAU)
    }

    #[test]
    fn the_diamond_angle_grows_with_the_angle_and_turns_back() {
        let mut last = -1.0;
        for k in 0..100_000 {
            let angle = k as f64 * TAU / 100_000.0;
            let a = diamond(unit(angle));
            assert!(a > last && (0.0..4.0).contains(&a), "{angle}: {a} after {last}");
            last = a;
            let back = angle_of(a);
            let off = (back - angle).abs().min(TAU - (back - angle).abs());
            assert!(off < 1e-12, "{angle}: {back}");
        }
        // The axes, either zero.
        assert_eq!(diamond([1.0, -0.0]), 0.0);
        assert_eq!(diamond([-1.0, 0.0]), 2.0);
        assert_eq!(undiamond(4.0), [1.0, -0.0]);
    }

    #[test]
    fn open_arcs_are_what_no_cover_holds() {
        let mut rng = rng_from_seed(3);
        for round in 0..2_000 {
            let mut arcs = Arcs::default();
            arcs.reset();
            // Covers as true angles, to check against.
            let mut covers = Vec::new();
            for _ in 0..(round % 7) {
                let centre = uniform01(&mut rng) * TAU;
                let half = uniform01(&mut rng) * 1.2;
                arcs.cover(unit(centre), half.cos());
                covers.push((centre, half));
            }
            let covered = |angle: f64| {
                covers.iter().any(|&(centre, half)| {
                    let off = (angle - centre).rem_euclid(TAU);
                    off.min(TAU - off) <= half
                })
            };
            let near_an_end = |angle: f64| {
                covers.iter().any(|&(centre, half)| {
                    let off = (angle - centre).rem_euclid(TAU);
                    (off.min(TAU - off) - half).abs() < 1e-9
                })
            };
            let open = |angle: f64| {
                let a = diamond(unit(angle));
                arcs.open.iter().any(|&(lo, hi)| lo < a && a < hi)
            };
            for k in 0..720 {
                let angle = (k as f64 + 0.5) * TAU / 720.0;
                if !near_an_end(angle) {
                    assert_eq!(open(angle), !covered(angle), "round {round}, angle {angle}");
                }
            }
            // Draws land in the open arcs, in proportion to their length.
            if !arcs.is_empty() {
                let total: f64 = arcs
                    .open
                    .iter()
                    .map(|&(lo, hi)| (angle_of(hi) - angle_of(lo)).rem_euclid(TAU))
                    .map(|length| if length == 0.0 { TAU } else { length })
                    .sum();
                let first = angle_of(arcs.open[0].0);
                let f = 0.25 * (arcs.open[0].1 - arcs.open[0].0).min(1e-3);
                let [x, y] = arcs.pick(f);
                assert!(((x * x + y * y).sqrt() - 1.0).abs() < 1e-12);
                let drawn = y.atan2(x).rem_euclid(TAU);
                let expected = (first + f * total).rem_euclid(TAU);
                assert!((drawn - expected).abs() < 1e-9, "round {round}");
                for k in 0..50 {
                    let [x, y] = arcs.pick(k as f64 / 50.0);
                    let drawn = y.atan2(x).rem_euclid(TAU);
                    assert!(!covered(drawn) || near_an_end(drawn), "round {round}: {drawn}");
                }
            }
        }
    }

    #[test]
    fn a_circle_is_clipped_to_its_triangle() {
        let mesh = SurfaceMesh::new(
            vec![[0.0, 0.0, 1.0], [4.0, 0.0, 1.0], [0.0, 4.0, 1.0]],
            vec![[0, 1, 2]],
        )
        .unwrap();
        let plane = Plane::of(&mesh, 0).unwrap();
        // Inside, far from the sides: the whole circle stays.
        let mut arcs = Arcs::default();
        let (centre, h) = plane.local(&[1.0, 1.0, 1.5]);
        assert_eq!(h, 0.5);
        assert!(clip(&mut arcs, &plane, centre, 0.5));
        assert_eq!(arcs.open, vec![(0.0, 4.0)]);
        // Beyond a side: nothing.
        let (centre, _) = plane.local(&[-1.0, 1.0, 1.0]);
        assert!(!clip(&mut arcs, &plane, centre, 0.5));
        // Astride the side x = 0: the half towards +x stays, points rebuild.
        let (centre, _) = plane.local(&[0.0, 2.0, 1.0]);
        assert!(clip(&mut arcs, &plane, centre, 1.0));
        for k in 0..100 {
            let [c, s] = arcs.pick(k as f64 / 100.0);
            let spot = [centre[0] + c, centre[1] + s];
            let p = point_in(&mesh.corners(0), plane.barycentric(spot));
            assert!(p[0] >= -1e-12 && (p[2] - 1.0).abs() < 1e-15, "{p:?}");
            let d = ((p[0] - 0.0).powi(2) + (p[1] - 2.0).powi(2)).sqrt();
            assert!((d - 1.0).abs() < 1e-12, "{d}");
        }
    }
}
