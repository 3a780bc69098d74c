//! A 2D point set in a periodic or closed box as one Delaunay triangulation of the points and
//! their replicas: the geometry [`Fpo`](crate::Fpo) and [`Lloyd`](crate::Lloyd) share.
//!
//! # The replicated set
//!
//! The box is infinite in disguise. A periodic box (a torus) is the plane tiled by translated
//! copies of the points; a closed box is the plane tiled by mirror images of it across its
//! faces (and across the faces of those images), so that the bisector between a point and its
//! mirror image is the face itself. The Delaunay triangulation of that infinite set is what
//! both samplers need: in a periodic box its triangles are the torus's, and in a closed box
//! every Voronoi cell of a point in the box is clipped to the box by the mirror bisectors (a
//! point on a face is its own mirror image there, and its cell is cut back to the box
//! explicitly), and every empty circle centred in the box is an empty circle of the box's
//! points alone (the nearest image of any point to a position in the box is the point
//! itself), whose radius is therefore the distance from its centre to the nearest point.
//! Circumcentres of triangles with a mirror vertex lie on a face: that is where
//! farthest-point optimisation puts points on the faces and corners of a closed box. (A
//! triangle at a point on a face may have its circumcentre outside the box; its mirror image,
//! as empty and as large, has it inside, and [`Frame::in_box`] folds the centre there.)
//!
//! Only a band of width `w` around the box is kept: each point (a *site*) and those of its
//! images (*replicas*) that lie within `w` of the box, in one spade triangulation with exact
//! predicates.
//!
//! **Why the band is enough, and how it is checked.** A triangle with a vertex `v` in the box
//! and circumradius `R` has its circumdisk inside the disk of radius `2R` around `v`; when
//! `2R ≤ w` that disk lies inside box + band, where every point of the infinite set is present,
//! so the triangle's circumdisk, empty of the kept points, is empty of all of them: it is a
//! Delaunay triangle of the infinite set. Every answer is read from the star of a site's own
//! vertex (in the box): the star is accepted only when it is a complete cycle of triangles
//! (the vertex is not on the hull of the kept points) each with `2R ≤ w`, and then it is the
//! star of the infinite triangulation (triangles that pass cover the full angle around the
//! vertex, and Delaunay triangles never overlap). When a larger circle is met — white noise
//! has large holes, a handful of points has nothing but large circles, collinear points have
//! no triangle at all — the band is doubled and the triangulation rebuilt. The band never
//! needs to pass `2·sqrt(a² + b²)` (an `a × b` box): every empty circle of the replicated set
//! is smaller than the diagonal of the box (of half the box, periodic), so the doubling ends
//! there.
//!
//! # Coordinates
//!
//! Everything here is in *unit* coordinates: the box's origin subtracted and its longest side
//! divided out, so the box is `[0, a) × [0, b)` with `max(a, b) = 1` whatever the user's box
//! (sides from 1e-100 to 1e100 neither overflow nor underflow). [`Frame`] maps to and from the
//! user's box. Coordinates below 2^-132 in magnitude are rounded to 0 (spade refuses smaller
//! nonzero ones; the change is below 2^-132 of the box).

use crate::domain::Domain;
use crate::error::Error;
use crate::point::Point;
use spade::handles::FixedVertexHandle;
use spade::{DelaunayTriangulation, HasPosition, Point2, Triangulation};

/// The longest side over the shortest a box may have. The band around a thin box holds
/// replicas along its short side in proportion to the ratio, and a few points in a thin box
/// need a band as wide as the box is long: at a ratio `A`, each of 2 points has some `10 A`
/// replicas in columns whose vertices have degree about `A`, and spade's removal is quadratic
/// in the degree (a move takes 6 ms at 16, 60 ms at 64, minutes at 1024).
pub(crate) const MAX_ASPECT: f64 = 16.0;

/// The most points a set may have (sites are numbered by `u32`).
pub(crate) const MAX_SITES: usize = i32::MAX as usize;

/// Magnitudes below this are rounded to 0 (spade's smallest nonzero coordinate is 2^-142).
const TINY: f64 = 1.0 / (1u128 << 127) as f64 / 32.0;

/// The user's box and its unit coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Frame {
    origin: [f64; 2],
    /// The longest side: user lengths are unit lengths times this.
    scale: f64,
    /// The sides in unit coordinates (the longest is 1).
    pub(crate) side: [f64; 2],
    /// The box's upper corner, in user coordinates.
    upper: [f64; 2],
    pub(crate) periodic: bool,
}

impl Frame {
    /// The frame of `domain`. Errors: a dimension other than 2 (named after `sampler`), or a
    /// box whose longest side is more than [`MAX_ASPECT`] times its shortest.
    pub(crate) fn new<const D: usize>(
        domain: &Domain<D>,
        sampler: &'static str,
    ) -> Result<Self, Error> {
        if D != 2 {
            return Err(Error::InvalidParameter {
                name: sampler,
                expected: "two-dimensional (D = 2): it triangulates the plane",
                value: D as f64,
            });
        }
        let (o, e) = (domain.origin(), domain.extent());
        let scale = e[0].max(e[1]);
        let aspect = scale / e[0].min(e[1]);
        if aspect > MAX_ASPECT {
            return Err(Error::InvalidParameter {
                name: "the box's longest side over its shortest",
                expected: "at most 16",
                value: aspect,
            });
        }
        Ok(Frame {
            origin: [o[0], o[1]],
            scale,
            side: [e[0] / scale, e[1] / scale],
            upper: [o[0] + e[0], o[1] + e[1]],
            periodic: domain.is_periodic(),
        })
    }

    /// The unit coordinates of the user's point `p`; `None` for a point that is not finite or
    /// outside the half-open box.
    pub(crate) fn unit_of<const D: usize>(&self, p: &Point<D>) -> Option<[f64; 2]> {
        let mut q = [0.0; 2];
        for k in 0..2 {
            let x = *p.get(k)?;
            if !(x >= self.origin[k] && x < self.upper[k]) {
                return None;
            }
            q[k] = (x - self.origin[k]) / self.scale;
        }
        Some(self.in_box(q))
    }

    /// The user's coordinates of the unit point `q` (in the box): `origin + q · scale`, with a
    /// result that rounds onto an upper face moved back into the half-open box (onto the lower
    /// face of a periodic box, the same point; to the largest float below the face of a closed
    /// one).
    pub(crate) fn user_of<const D: usize>(&self, q: [f64; 2]) -> Point<D> {
        std::array::from_fn(|k| {
            let k2 = k.min(1);
            let x = self.origin[k2] + q[k2] * self.scale;
            if x < self.upper[k2] {
                x.max(self.origin[k2])
            } else if self.periodic {
                self.origin[k2]
            } else {
                self.upper[k2].next_down().max(self.origin[k2])
            }
        })
    }

    /// The user's coordinates of the unit point `q`, wherever it is (a cell's corner).
    pub(crate) fn user_of_unwrapped<const D: usize>(&self, q: [f64; 2]) -> Point<D> {
        std::array::from_fn(|k| self.origin[k.min(1)] + q[k.min(1)] * self.scale)
    }

    /// The unit coordinates of the user's `points`. Errors: more than [`MAX_SITES`] points,
    /// a coordinate that is not finite, a point outside the half-open box.
    pub(crate) fn unit_points<const D: usize>(
        &self,
        points: &[Point<D>],
    ) -> Result<Vec<[f64; 2]>, Error> {
        if points.len() > MAX_SITES {
            return Err(Error::InvalidParameter {
                name: "the number of points",
                expected: "at most 2147483647",
                value: points.len() as f64,
            });
        }
        let mut unit = Vec::with_capacity(points.len());
        for (index, p) in points.iter().enumerate() {
            if let Some(&value) = p.iter().find(|x| !x.is_finite()) {
                return Err(Error::NonFinite { what: "point coordinate", index, value });
            }
            let Some(q) = self.unit_of(p) else {
                let outside = (0..2).find(|&k| !(p[k] >= self.origin[k] && p[k] < self.upper[k]));
                return Err(Error::InvalidParameter {
                    name: "a point's coordinate",
                    expected: "inside the domain's half-open box [origin, origin + extent)",
                    value: outside.map_or(f64::NAN, |k| p[k]),
                });
            };
            unit.push(q);
        }
        Ok(unit)
    }

    /// A unit length as a user length.
    pub(crate) fn user_length(&self, length: f64) -> f64 {
        length * self.scale
    }

    /// A unit area as a user area.
    pub(crate) fn user_area(&self, area: f64) -> f64 {
        area * self.scale * self.scale
    }

    /// The unit point `c` (a circumcentre or a centroid, near or in the box) as a point of the
    /// half-open box: wrapped onto the torus, or, in a closed box, folded into it by the
    /// mirrors (a circumcentre outside belongs to a triangle with a vertex on a face, whose
    /// mirror image is as empty and centred inside), with a point on an upper face moved to
    /// the largest float below the face — the box is half-open, `[origin, origin + extent)`,
    /// so a point optimisation places on the upper face is kept one float inside. Tiny
    /// magnitudes are rounded to 0.
    pub(crate) fn in_box(&self, c: [f64; 2]) -> [f64; 2] {
        std::array::from_fn(|k| {
            let side = self.side[k];
            let mut x = c[k];
            if self.periodic {
                if !(0.0..side).contains(&x) {
                    x -= side * (x / side).floor();
                    if !(0.0..side).contains(&x) {
                        x = 0.0;
                    }
                }
            } else if x.is_nan() {
                x = 0.0;
            } else {
                if !(0.0..=side).contains(&x) {
                    // Folded by the mirrors: into [0, 2 side), then the upper half reflected.
                    let period = 2.0 * side;
                    x -= period * (x / period).floor();
                    if x > side {
                        x = period - x;
                    }
                    x = x.clamp(0.0, side);
                }
                if x >= side {
                    x = side.next_down();
                }
            }
            snap(x)
        })
    }

    /// The band to start with for `n` points: four mean spacings, `4 sqrt(a b / n)`, as in
    /// Schlömer's tool (capped at the largest band ever needed).
    pub(crate) fn initial_band(&self, n: usize) -> f64 {
        (4.0 * (self.side[0] * self.side[1] / n.max(1) as f64).sqrt()).min(self.max_band())
    }

    /// A band wide enough for every configuration: twice the box's diagonal, and more.
    pub(crate) fn max_band(&self) -> f64 {
        2.5 * self.side[0].hypot(self.side[1])
    }

    /// The coordinates of the images of `x` along axis `k` within `band` of `[0, side)`, `x`
    /// itself first, each once.
    fn axis_images(&self, k: usize, x: f64, band: f64, out: &mut Vec<f64>) {
        out.clear();
        let side = self.side[k];
        let reach = (band / side).ceil() as i64 + 1;
        let (lo, hi) = (-band, side + band);
        for m in -reach..=reach {
            let candidates = if self.periodic {
                [x + m as f64 * side, f64::NAN]
            } else {
                [x + 2.0 * m as f64 * side, 2.0 * m as f64 * side - x]
            };
            for y in candidates {
                let y = y + 0.0;
                if y >= lo && y <= hi && y != x {
                    out.push(y);
                }
            }
        }
        out.sort_by(f64::total_cmp);
        out.dedup();
        out.insert(0, x);
    }

    /// The images of the unit point `p` within `band` of the box, `p` itself first.
    fn images(&self, p: [f64; 2], band: f64, out: &mut Vec<[f64; 2]>, scratch: &mut [Vec<f64>; 2]) {
        let [xs, ys] = scratch;
        self.axis_images(0, p[0], band, xs);
        self.axis_images(1, p[1], band, ys);
        out.clear();
        for &y in ys.iter() {
            for &x in xs.iter() {
                out.push([snap(x), snap(y)]);
            }
        }
    }
}

/// The convex polygon `polygon` cut to the box `[0, side]` (Sutherland–Hodgman, one face at a
/// time).
fn clip_to_box(mut polygon: Vec<[f64; 2]>, side: [f64; 2]) -> Vec<[f64; 2]> {
    for (axis, bound, keep_below) in
        [(0, 0.0, false), (0, side[0], true), (1, 0.0, false), (1, side[1], true)]
    {
        let inside = |p: &[f64; 2]| if keep_below { p[axis] <= bound } else { p[axis] >= bound };
        if polygon.iter().all(inside) {
            continue;
        }
        let mut out = Vec::with_capacity(polygon.len() + 1);
        for k in 0..polygon.len() {
            let (p, q) = (polygon[k], polygon[(k + 1) % polygon.len()]);
            if inside(&p) {
                out.push(p);
            }
            if inside(&p) != inside(&q) {
                let t = (bound - p[axis]) / (q[axis] - p[axis]);
                let mut x = [p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])];
                x[axis] = bound;
                out.push(x);
            }
        }
        polygon = out;
    }
    polygon
}

/// `x` with tiny magnitudes (and −0) made +0.
fn snap(x: f64) -> f64 {
    if x.abs() < TINY { 0.0 } else { x }
}

/// A vertex of the triangulation: an image of a site.
#[derive(Debug, Clone, Copy)]
struct Vertex {
    pos: Point2<f64>,
    site: u32,
    /// Whether this is the site itself (in the box) rather than a replica.
    original: bool,
}

impl HasPosition for Vertex {
    type Scalar = f64;
    fn position(&self) -> Point2<f64> {
        self.pos
    }
}

/// A triangle's circumcircle in unit coordinates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Circle {
    pub(crate) centre: [f64; 2],
    /// The squared radius.
    pub(crate) r2: f64,
}

/// The circumcircle of the triangle `a b c` (not degenerate), computed relative to the vertex
/// opposite its longest edge: the vertex with the largest angle, where the cross product of
/// the two edges out of it cancels least. (Relative to another vertex, a triangle with an edge
/// a few ulps long — a point on a face and its mirror image — loses its circumcentre to
/// cancellation.)
fn circumcircle(a: Point2<f64>, b: Point2<f64>, c: Point2<f64>) -> Circle {
    let len2 = |p: Point2<f64>, q: Point2<f64>| (p.x - q.x).powi(2) + (p.y - q.y).powi(2);
    let (opposite_a, opposite_b, opposite_c) = (len2(b, c), len2(c, a), len2(a, b));
    let (a, b, c) = if opposite_a >= opposite_b && opposite_a >= opposite_c {
        (a, b, c)
    } else if opposite_b >= opposite_c {
        (b, c, a)
    } else {
        (c, a, b)
    };
    let (bx, by) = (b.x - a.x, b.y - a.y);
    let (cx, cy) = (c.x - a.x, c.y - a.y);
    let d = 2.0 * (bx * cy - by * cx);
    let (b2, c2) = (bx * bx + by * by, cx * cx + cy * cy);
    let ux = (cy * b2 - by * c2) / d;
    let uy = (bx * c2 - cx * b2) / d;
    let r2 = ux * ux + uy * uy;
    Circle { centre: [a.x + ux, a.y + uy], r2: if r2.is_finite() { r2 } else { f64::INFINITY } }
}

/// Why an answer could not be read from the triangulation: the band is too narrow for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Widen;

/// A site's Voronoi cell in unit coordinates: its polygon (counter-clockwise, around the site,
/// not wrapped), area and centroid (not wrapped).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cell {
    pub(crate) polygon: Vec<[f64; 2]>,
    pub(crate) area: f64,
    pub(crate) centroid: [f64; 2],
}

/// The triangulation of the sites and their replicas within the band, with each site's
/// vertices.
#[derive(Debug)]
pub(crate) struct Replicated {
    pub(crate) frame: Frame,
    band: f64,
    tri: DelaunayTriangulation<Vertex>,
    /// Each site's position, in unit coordinates, in the half-open box.
    pos: Vec<[f64; 2]>,
    /// Each site's vertices: its own first, then its replicas; empty for a hidden site.
    verts: Vec<Vec<FixedVertexHandle>>,
    /// The site whose vertex stands for a site at the same position (itself when it has its
    /// own vertices): coincident points share one vertex.
    holder: Vec<u32>,
    /// How many sites are hidden under another.
    hidden: usize,
    images: Vec<[f64; 2]>,
    scratch: [Vec<f64>; 2],
}

impl Replicated {
    /// The triangulation of `pos` (unit coordinates, in the box) with the initial band.
    pub(crate) fn new(frame: Frame, pos: Vec<[f64; 2]>) -> Self {
        let n = pos.len();
        let mut this = Replicated {
            frame,
            band: frame.initial_band(n),
            tri: DelaunayTriangulation::new(),
            pos,
            verts: vec![Vec::new(); n],
            holder: (0..n as u32).collect(),
            hidden: 0,
            images: Vec::new(),
            scratch: [Vec::new(), Vec::new()],
        };
        this.rebuild();
        this
    }

    /// The number of sites.
    pub(crate) fn len(&self) -> usize {
        self.pos.len()
    }

    /// The sites' positions in unit coordinates.
    pub(crate) fn positions(&self) -> &[[f64; 2]] {
        &self.pos
    }

    /// The current band width.
    pub(crate) fn band(&self) -> f64 {
        self.band
    }

    /// Whether the band is as wide as it ever needs to be (answers are then taken as they
    /// are).
    pub(crate) fn band_is_widest(&self) -> bool {
        self.band >= self.frame.max_band()
    }

    /// Sets the band (within `[initial, max]`) and rebuilds.
    pub(crate) fn set_band(&mut self, band: f64) {
        self.band = band.clamp(self.frame.initial_band(self.len()), self.frame.max_band());
        self.rebuild();
    }

    /// Doubles the band (up to the widest) and rebuilds.
    pub(crate) fn widen(&mut self) {
        self.set_band(2.0 * self.band);
    }

    /// Moves every site to `pos` and rebuilds with the initial band.
    pub(crate) fn reset(&mut self, pos: Vec<[f64; 2]>) {
        self.pos = pos;
        self.band = self.frame.initial_band(self.pos.len());
        self.rebuild();
    }

    /// Builds the triangulation of the sites and their replicas afresh (bulk loaded). Sites at
    /// the same position share the vertex of the lowest-numbered one; replicas that round onto
    /// the same position (images of points a few ulps apart) are kept once.
    fn rebuild(&mut self) {
        let n = self.pos.len();
        // Coincident sites: the lowest index holds the vertex.
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_by(|&i, &j| {
            let (p, q) = (self.pos[i as usize], self.pos[j as usize]);
            p[0].total_cmp(&q[0]).then(p[1].total_cmp(&q[1])).then(i.cmp(&j))
        });
        self.hidden = 0;
        for w in 0..n {
            let i = order[w] as usize;
            self.holder[i] = i as u32;
            if w > 0 {
                let prev = order[w - 1] as usize;
                if self.pos[prev] == self.pos[i] {
                    self.holder[i] = self.holder[prev];
                    self.hidden += 1;
                }
            }
        }
        let mut all: Vec<Vertex> = Vec::with_capacity(n + n / 2);
        for i in 0..n {
            if self.holder[i] as usize != i {
                continue;
            }
            self.frame.images(self.pos[i], self.band, &mut self.images, &mut self.scratch);
            for (k, p) in self.images.iter().enumerate() {
                all.push(Vertex { pos: Point2::new(p[0], p[1]), site: i as u32, original: k == 0 });
            }
        }
        // Exact duplicates among replicas of different sites (rounding): keep the first.
        all.sort_by(|u, v| {
            u.pos
                .x
                .total_cmp(&v.pos.x)
                .then(u.pos.y.total_cmp(&v.pos.y))
                .then((!u.original, u.site).cmp(&(!v.original, v.site)))
        });
        all.dedup_by(|later, earlier| later.pos == earlier.pos);
        for list in &mut self.verts {
            list.clear();
        }
        self.tri = DelaunayTriangulation::bulk_load(all).unwrap_or_default();
        for h in self.tri.fixed_vertices() {
            let v = *self.tri.vertex(h).data();
            let list = &mut self.verts[v.site as usize];
            list.push(h);
            if v.original {
                let last = list.len() - 1;
                list.swap(0, last);
            }
        }
        // A site whose own vertex was lost (it cannot be, short of a failed load) is hidden
        // under nobody: it has no vertices and is left out of every answer.
        for i in 0..n {
            let own = self.verts[i].first().is_some_and(|&h| self.tri.vertex(h).data().original);
            if self.holder[i] as usize == i && !own {
                self.verts[i].clear();
            }
        }
    }

    /// The site holding the vertex that stands for site `i`.
    #[cfg(test)]
    pub(crate) fn holder(&self, i: usize) -> usize {
        self.holder[i] as usize
    }

    /// The site's own vertex, if it has one.
    fn own_vertex(&self, i: usize) -> Option<FixedVertexHandle> {
        self.verts[i].first().copied()
    }

    /// Hands the vertices of site `i` over to the lowest-numbered site hidden under it, if
    /// any, which becomes the holder of the others; `i` is then hidden under it. Returns the
    /// site now holding `i`'s position.
    pub(crate) fn hand_over(&mut self, i: usize) -> usize {
        if self.hidden == 0 || self.holder[i] as usize != i {
            return self.holder[i] as usize;
        }
        let Some(k) = (0..self.len()).find(|&k| k != i && self.holder[k] as usize == i) else {
            return i;
        };
        for k2 in 0..self.len() {
            if self.holder[k2] as usize == i {
                self.holder[k2] = k as u32;
            }
        }
        let list = std::mem::take(&mut self.verts[i]);
        for &h in &list {
            self.tri.vertex_data_mut(h).site = k as u32;
        }
        self.verts[k] = list;
        k
    }

    /// The sites adjacent to the vertex of site `i` (its holder's when hidden), each once,
    /// `i` left out, appended to `out`. Errors when the star is not a complete cycle of
    /// triangles with `2R ≤ w` (unless the band is the widest).
    pub(crate) fn neighbours(&self, i: usize, out: &mut Vec<u32>) -> Result<(), Widen> {
        let Some(h) = self.own_vertex(self.holder[i] as usize) else {
            return if self.band_is_widest() { Ok(()) } else { Err(Widen) };
        };
        let mut circles = Vec::new();
        self.star(h, &mut circles)?;
        for edge in self.tri.vertex(h).out_edges() {
            let s = edge.to().data().site;
            if s as usize != i && !out.contains(&s) {
                out.push(s);
            }
        }
        Ok(())
    }

    /// The circumcircles of the triangles around vertex `h` in counter-clockwise order,
    /// appended to `out`. Errors when they are not a complete cycle or one has `2R > w`
    /// (unless the band is the widest: then whatever triangles there are).
    fn star(&self, h: FixedVertexHandle, out: &mut Vec<Circle>) -> Result<(), Widen> {
        let limit = 0.25 * self.band * self.band;
        let widest = self.band_is_widest();
        let mut any = false;
        for edge in self.tri.vertex(h).out_edges() {
            any = true;
            let Some(face) = edge.face().as_inner() else {
                if widest {
                    continue;
                }
                return Err(Widen);
            };
            let [a, b, c] = face.positions();
            let circle = circumcircle(a, b, c);
            if !widest && (circle.r2 > limit || circle.r2.is_nan()) {
                return Err(Widen);
            }
            out.push(circle);
        }
        if any || widest { Ok(()) } else { Err(Widen) }
    }

    /// The circumcircles of the triangles around the vertex of site `i` (its holder's when
    /// hidden; none when it has no vertex), appended to `out`, checked as [`Self::star`].
    pub(crate) fn star_of(&self, i: usize, out: &mut Vec<Circle>) -> Result<(), Widen> {
        match self.own_vertex(self.holder[i] as usize) {
            Some(h) => self.star(h, out),
            None if self.band_is_widest() => Ok(()),
            None => Err(Widen),
        }
    }

    /// A vertex to start a walk from near the circumcentres of site `i`'s star.
    pub(crate) fn hint(&self, i: usize) -> Option<FixedVertexHandle> {
        self.own_vertex(self.holder[i] as usize)
    }

    /// Removes the vertices of site `i` (which must hold them: not hidden, nothing hidden
    /// under it). Spade swap-removes: the vertex that was last takes the removed one's
    /// handle, and its site's list is corrected.
    pub(crate) fn remove(&mut self, i: usize) {
        while let Some(h) = self.verts[i].pop() {
            self.tri.remove(h);
            let moved_from = FixedVertexHandle::from_index(self.tri.num_vertices());
            if h.index() < self.tri.num_vertices() {
                let site = self.tri.vertex(h).data().site as usize;
                if let Some(slot) = self.verts[site].iter_mut().find(|v| **v == moved_from) {
                    *slot = h;
                }
            }
        }
    }

    /// Puts site `i` (removed, or hidden) at the unit position `p` (in the box) with its
    /// replicas, walking from `hint`. A position that coincides with a vertex already there
    /// (which spade would overwrite) is not inserted: at the site's own position the site is
    /// hidden under that vertex's site; a replica is dropped.
    pub(crate) fn insert(&mut self, i: usize, p: [f64; 2], hint: Option<FixedVertexHandle>) {
        if self.holder[i] as usize != i {
            self.hidden -= 1;
            self.holder[i] = i as u32;
        }
        self.pos[i] = p;
        self.frame.images(p, self.band, &mut self.images, &mut self.scratch);
        let mut hint = hint;
        for k in 0..self.images.len() {
            let q = self.images[k];
            let vertex = Vertex { pos: Point2::new(q[0], q[1]), site: i as u32, original: k == 0 };
            let before = self.tri.num_vertices();
            let inserted = match hint {
                Some(h) if h.index() < before => self.tri.insert_with_hint(vertex, h),
                _ => self.tri.insert(vertex),
            };
            let Ok(h) = inserted else { continue };
            if self.tri.num_vertices() > before {
                self.verts[i].push(h);
                hint = Some(h);
                continue;
            }
            // Spade overwrote the vertex already at this position: give it back its owner.
            let owner = (0..self.verts.len())
                .find_map(|s| self.verts[s].iter().position(|&v| v == h).map(|slot| (s, slot)));
            if let Some((s, slot)) = owner {
                let data = self.tri.vertex_data_mut(h);
                data.site = s as u32;
                data.original = slot == 0;
            }
            if k == 0 {
                // The site coincides with a vertex: it shares that vertex's site's.
                let s = owner.map_or(i, |(s, _)| s);
                if s != i {
                    self.holder[i] = s as u32;
                    self.hidden += 1;
                }
                return;
            }
        }
    }

    /// Site `i`'s Voronoi cell, from its star (the holder's star for a hidden site, which
    /// then gets an empty cell). Errors as [`Self::star`].
    pub(crate) fn cell(&self, i: usize, circles: &mut Vec<Circle>) -> Result<Cell, Widen> {
        let empty = Cell { polygon: Vec::new(), area: 0.0, centroid: self.pos[i] };
        if self.holder[i] as usize != i {
            return Ok(empty);
        }
        let Some(h) = self.own_vertex(i) else {
            return if self.band_is_widest() { Ok(empty) } else { Err(Widen) };
        };
        circles.clear();
        self.star(h, circles)?;
        let s = self.pos[i];
        let mut polygon: Vec<[f64; 2]> = circles.iter().map(|c| c.centre).collect();
        if !self.frame.periodic {
            // A site on a face is its own mirror image there: its cell is the union of the
            // cell and its mirror image, cut back to the box here (elsewhere a no-op).
            polygon = clip_to_box(polygon, self.frame.side);
        }
        // Shoelace formulas relative to the site, for precision.
        let (mut twice_area, mut mx, mut my) = (0.0, 0.0, 0.0);
        for k in 0..polygon.len() {
            let p = polygon[k];
            let q = polygon[(k + 1) % polygon.len()];
            let (px, py, qx, qy) = (p[0] - s[0], p[1] - s[1], q[0] - s[0], q[1] - s[1]);
            let cross = px * qy - qx * py;
            twice_area += cross;
            mx += (px + qx) * cross;
            my += (py + qy) * cross;
        }
        let area = 0.5 * twice_area;
        let centroid = if area > 0.0 && area.is_finite() {
            [s[0] + mx / (6.0 * area), s[1] + my / (6.0 * area)]
        } else {
            s
        };
        Ok(Cell { polygon, area: area.max(0.0), centroid })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(periodic: bool) -> Frame {
        let d = Domain::from_origin_and_extent([0.0, 0.0], [1.0, 0.5]).unwrap();
        Frame::new(&if periodic { d.periodic() } else { d }, "test").unwrap()
    }

    #[test]
    fn images_are_in_the_band_and_distinct() {
        for periodic in [false, true] {
            let f = frame(periodic);
            let mut out = Vec::new();
            let mut scratch = [Vec::new(), Vec::new()];
            f.images([0.0, 0.25], 0.1, &mut out, &mut scratch);
            assert_eq!(out[0], [0.0, 0.25]);
            for (k, p) in out.iter().enumerate() {
                assert!(p[0] >= -0.1 && p[0] <= 1.1 && p[1] >= -0.1 && p[1] <= 0.6);
                assert!(!out[..k].contains(p));
            }
            // A point on the lower face: its mirror is itself.
            assert_eq!(out.len(), if periodic { 2 } else { 1 });
        }
    }

    #[test]
    fn cells_of_a_closed_box_tile_it() {
        let f = frame(false);
        let pos: Vec<[f64; 2]> =
            (0..40).map(|k| [(k as f64 * 0.618_034) % 1.0, (k as f64 * 0.377) % 0.5]).collect();
        let mut r = Replicated::new(f, pos);
        let mut circles = Vec::new();
        let total = loop {
            let cells: Result<Vec<Cell>, Widen> =
                (0..r.len()).map(|i| r.cell(i, &mut circles)).collect();
            match cells {
                Ok(cells) => break cells.iter().map(|c| c.area).sum::<f64>(),
                Err(Widen) => r.widen(),
            }
        };
        assert!((total - 0.5).abs() < 1e-12, "{total}");
    }

    #[test]
    fn removal_keeps_every_site_list_right() {
        let f = frame(true);
        let pos: Vec<[f64; 2]> =
            (0..30).map(|k| [(k as f64 * 0.618_034) % 1.0, (k as f64 * 0.377) % 0.5]).collect();
        let mut r = Replicated::new(f, pos);
        for i in [3, 0, 29, 7] {
            let p = r.pos[i];
            r.remove(i);
            for (s, list) in r.verts.iter().enumerate() {
                for &h in list {
                    assert_eq!(r.tri.vertex(h).data().site as usize, s);
                }
            }
            r.insert(i, p, None);
        }
        let count: usize = r.verts.iter().map(Vec::len).sum();
        assert_eq!(count, r.tri.num_vertices());
    }

    #[test]
    fn coincident_sites_share_a_vertex() {
        let f = frame(false);
        let mut r = Replicated::new(f, vec![[0.3, 0.2]; 5]);
        assert_eq!(r.hidden, 4);
        assert_eq!(r.holder(3), 0);
        let k = r.hand_over(0);
        assert_eq!(k, 1);
        assert_eq!(r.holder(4), 1);
        r.insert(0, [0.9, 0.4], None);
        assert_eq!(r.holder(0), 0);
        assert_eq!(r.hidden, 3);
    }
}
