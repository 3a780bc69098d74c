//! The triangle surface the samplers of this module place points on.

use crate::domain::Domain;
use crate::error::Error;
use crate::geometry::vector::{cross, length, normalised, sub};
use crate::point::Point;
use crate::region::bvh::Bvh;
use crate::rng::fraction_of;
use rand::Rng;
use std::sync::OnceLock;

/// A triangle mesh as a surface to sample: vertices, triangles by vertex index, and optional
/// per-vertex normals and texture coordinates.
///
/// Any triangle soup is accepted: open or closed, several pieces, any genus, non-manifold
/// edges. Triangles that bound no area (a repeated vertex index, collinear corners, or an
/// area that underflows to 0) are **degenerate**: they are ignored by every sampler and
/// counted ([`degenerate_count`](Self::degenerate_count)); face indices stay those of the
/// triangles given. Distances on the surface are Euclidean in 3D (the convention of Open3D,
/// CGAL, trimesh and Blender): two points on either side of a thin wall are as close as the
/// wall is thick.
///
/// Barycentric coordinates `[b0, b1, b2]` weigh the triangle's corners in the order given; a
/// point is [`point_at`](Self::point_at)`(face, b)` = `A + b1·(B − A) + b2·(C − A)`, the
/// formula the samplers place their points with, so a point rebuilt from its face and
/// barycentrics is the same to the last bit.
///
/// ```
/// use poisson_nd::surface::SurfaceMesh;
/// // A unit square in the plane z = 0, and a triangle with a repeated vertex.
/// let vertices = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]];
/// let mesh = SurfaceMesh::new(vertices, vec![[0, 1, 2], [0, 2, 3], [0, 0, 1]])?;
/// assert_eq!(mesh.area(), 1.0);
/// assert_eq!(mesh.degenerate_count(), 1);
/// assert_eq!(mesh.point_at(1, [0.5, 0.25, 0.25]), [0.25, 0.5, 0.0]);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SurfaceMesh {
    vertices: Vec<Point<3>>,
    triangles: Vec<[u32; 3]>,
    normals: Option<Vec<[f64; 3]>>,
    uvs: Option<Vec<[f64; 2]>>,
    /// Each triangle's area (0 for a degenerate one).
    areas: Vec<f64>,
    /// The non-degenerate triangles, by index.
    pub(super) faces: Vec<u32>,
    /// Running sums of the areas of `faces`, for drawing a face in proportion to its area.
    cumulative: Vec<f64>,
    /// The guide to `cumulative` (Chen and Asau's cutpoints): the running sums in bucket `b`
    /// are `cumulative[guide[b]..guide[b + 1]]`, so a draw searches a few sums, not all.
    guide: Vec<u32>,
    /// Buckets per unit of area: a running sum `s` is in bucket `⌊s · guide_scale⌋`.
    guide_scale: f64,
    lower: Point<3>,
    upper: Point<3>,
    /// The box grown by 1/64 of its widest side on every face: the neighbour grid's box.
    margin_box: Domain<3>,
    /// The faces' hierarchy of boxes, built by the first [`nearest`](Self::nearest) query
    /// (surface/nearest.rs).
    pub(super) index: OnceLock<Bvh>,
}

/// The largest vertex coordinate magnitude: a hundredth of [`MAX_LENGTH`](crate::limits::MAX_LENGTH),
/// so that the surface's box grown on every side is still a valid box.
const MAX_COORDINATE: f64 = 1e99;

/// The smallest widest side of a surface's box: a hundred times
/// [`MIN_LENGTH`](crate::limits::MIN_LENGTH), so that a margin of a sixty-fourth of it is
/// still a valid length.
const MIN_WIDEST_SIDE: f64 = 1e-98;

/// The lower and upper corners of the box of `points` (infinite, and inverted, for none).
fn bounding_box(points: impl Iterator<Item = Point<3>>) -> (Point<3>, Point<3>) {
    points.fold(([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]), |(lower, upper), p| {
        (std::array::from_fn(|i| lower[i].min(p[i])), std::array::from_fn(|i| upper[i].max(p[i])))
    })
}

/// The widest side of the box of `points` (0 for none).
fn widest_side(points: impl Iterator<Item = Point<3>>) -> f64 {
    let (lower, upper) = bounding_box(points);
    (0..3).map(|i| upper[i] - lower[i]).fold(0.0, f64::max)
}

/// The error for a mesh whose box's widest side is below [`MIN_WIDEST_SIDE`].
fn too_small(widest: f64) -> Error {
    Error::OutOfRange {
        name: "the mesh's widest side",
        value: widest,
        range: "at least 1e-98 (rescale the mesh)",
    }
}

impl SurfaceMesh {
    /// A surface from its vertices and triangles (three vertex indices each).
    ///
    /// Errors: a vertex coordinate that is not finite ([`Error::NonFinite`], naming the
    /// vertex); a vertex index out of range ([`Error::InvalidTriangle`]); more than
    /// 2^32 − 1 vertices or triangles; no triangle with a positive area
    /// ([`Error::EmptyInput`]); a coordinate beyond ±1e99, a widest side below 1e-98 or below
    /// 2^-40 times the largest coordinate ([`Error::OutOfRange`]: rescale or move the mesh,
    /// docs/limits.md).
    pub fn new(vertices: Vec<Point<3>>, triangles: Vec<[usize; 3]>) -> Result<Self, Error> {
        for (index, v) in vertices.iter().enumerate() {
            if let Some(&value) = v.iter().find(|x| !x.is_finite()) {
                return Err(Error::NonFinite { what: "mesh vertex", index, value });
            }
            if let Some(&value) = v.iter().find(|x| x.abs() > MAX_COORDINATE) {
                return Err(Error::OutOfRange {
                    name: "a mesh vertex coordinate",
                    value,
                    range: "between -1e99 and 1e99 (rescale the mesh)",
                });
            }
        }
        for (name, count) in
            [("mesh vertex count", vertices.len()), ("triangle count", triangles.len())]
        {
            if count >= u32::MAX as usize {
                return Err(Error::InvalidParameter {
                    name,
                    expected: "below 4294967295",
                    value: count as f64,
                });
            }
        }
        let mut indexed = Vec::with_capacity(triangles.len());
        for (t, triangle) in triangles.iter().enumerate() {
            if let Some(&v) = triangle.iter().find(|&&v| v >= vertices.len()) {
                return Err(Error::InvalidTriangle {
                    triangle: t,
                    problem: format!(
                        "vertex index {v} is out of range (the mesh has {} vertices)",
                        vertices.len()
                    ),
                });
            }
            indexed.push(triangle.map(|v| v as u32));
        }
        let areas: Vec<f64> = indexed
            .iter()
            .map(|&[a, b, c]| {
                if a == b || b == c || a == c {
                    return 0.0;
                }
                let [a, b, c] = [a, b, c].map(|v| vertices[v as usize]);
                triangle_area(a, b, c)
            })
            .collect();
        let faces: Vec<u32> =
            (0..indexed.len() as u32).filter(|&t| areas[t as usize] > 0.0).collect();
        if faces.is_empty() {
            // Triangles too small for their areas to be represented (sides near 1e-160 and
            // below) read as degenerate: then the scale is what to name.
            let widest = widest_side(indexed.iter().flatten().map(|&v| vertices[v as usize]));
            if widest > 0.0 && widest < MIN_WIDEST_SIDE {
                return Err(too_small(widest));
            }
            return Err(Error::EmptyInput("the mesh's set of triangles with a positive area"));
        }
        let mut cumulative = Vec::with_capacity(faces.len());
        let mut sum = 0.0;
        for &t in &faces {
            sum += areas[t as usize];
            cumulative.push(sum);
        }
        let (guide, guide_scale) = guide_table(&cumulative);
        let corners = faces.iter().flat_map(|&t| indexed[t as usize]);
        let (lower, upper) = bounding_box(corners.map(|v| vertices[v as usize]));
        let widest = (0..3).map(|i| upper[i] - lower[i]).fold(0.0, f64::max);
        if widest < MIN_WIDEST_SIDE {
            return Err(too_small(widest));
        }
        // Far from the origin a small mesh is only a few rounding steps wide: refused as a
        // radius that small there would be, not left to fail as a box without width.
        let scale = lower.iter().chain(&upper).fold(0.0, |most: f64, x| most.max(x.abs()));
        if widest < crate::limits::MIN_RESOLUTION * scale {
            return Err(Error::OutOfRange {
                name: "the mesh's widest side",
                value: widest,
                range: "at least 2^-40 times its largest vertex coordinate (move the mesh \
                        nearer the origin)",
            });
        }
        // A margin of 1/64 of the widest side on every face: no flat axis, room for rounding.
        let margin = widest / 64.0;
        let margin_box = Domain::from_origin_and_extent(
            lower.map(|x| x - margin),
            std::array::from_fn(|i| upper[i] - lower[i] + 2.0 * margin),
        )?;
        Ok(SurfaceMesh {
            margin_box,
            vertices,
            triangles: indexed,
            normals: None,
            uvs: None,
            areas,
            faces,
            cumulative,
            guide,
            guide_scale,
            lower,
            upper,
            index: OnceLock::new(),
        })
    }

    /// Adds a normal per vertex, interpolated across each triangle for the samples' normals.
    /// They need not be unit length (they are normalised after interpolation).
    ///
    /// Errors: not one per vertex ([`Error::ShapeMismatch`]); a component that is not
    /// finite ([`Error::NonFinite`]).
    pub fn with_normals(mut self, normals: Vec<[f64; 3]>) -> Result<Self, Error> {
        check_per_vertex("mesh vertex normal", &normals, self.vertices.len())?;
        self.normals = Some(normals);
        Ok(self)
    }

    /// Adds texture coordinates per vertex, `[u, v]` with v pointing **up** the image
    /// (OBJ's and PLY's convention; glTF's v points down and is flipped by the reader), so
    /// that `(u, v)` is a point of the unit square under the project's image convention
    /// (row 0 at the top, v = 1).
    ///
    /// Errors: not one per vertex ([`Error::ShapeMismatch`]); a value that is not finite
    /// ([`Error::NonFinite`]).
    pub fn with_uvs(mut self, uvs: Vec<[f64; 2]>) -> Result<Self, Error> {
        check_per_vertex("mesh texture coordinate", &uvs, self.vertices.len())?;
        self.uvs = Some(uvs);
        Ok(self)
    }

    /// The vertices.
    pub fn vertices(&self) -> &[Point<3>] {
        &self.vertices
    }

    /// The triangles, as given (degenerate ones included).
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// The per-vertex normals, if given.
    pub fn normals(&self) -> Option<&[[f64; 3]]> {
        self.normals.as_deref()
    }

    /// The per-vertex texture coordinates, if given.
    pub fn uvs(&self) -> Option<&[[f64; 2]]> {
        self.uvs.as_deref()
    }

    /// The number of triangles given.
    pub fn triangle_count(&self) -> usize {
        self.triangles.len()
    }

    /// The number of degenerate triangles (no area), which samplers ignore.
    pub fn degenerate_count(&self) -> usize {
        self.triangles.len() - self.faces.len()
    }

    /// The total area of the surface.
    pub fn area(&self) -> f64 {
        self.cumulative.last().copied().unwrap_or(0.0)
    }

    /// The area of triangle `face`.
    pub fn face_area(&self, face: usize) -> f64 {
        self.areas[face]
    }

    /// The triangles with a positive area, by index.
    pub fn faces(&self) -> &[u32] {
        &self.faces
    }

    /// The smallest box holding every non-degenerate triangle: `(lower, upper)` corners.
    pub fn bounds(&self) -> (Point<3>, Point<3>) {
        (self.lower, self.upper)
    }

    /// The bounding box grown by 1/64 of its widest side on every face (no flat axis).
    pub(crate) fn margin_box(&self) -> &Domain<3> {
        &self.margin_box
    }

    /// The corners of triangle `face`.
    #[inline]
    pub fn corners(&self, face: usize) -> [Point<3>; 3] {
        self.triangles[face].map(|v| self.vertices[v as usize])
    }

    /// The point with barycentric coordinates `b` on triangle `face`:
    /// `A + b[1]·(B − A) + b[2]·(C − A)` (`b[0]` is implied as `1 − b[1] − b[2]`).
    #[inline]
    pub fn point_at(&self, face: usize, b: [f64; 3]) -> Point<3> {
        point_in(&self.corners(face), b)
    }

    /// The unit normal of triangle `face`, by the right-hand rule over its corners in order
    /// (zero for a degenerate triangle).
    pub fn face_normal(&self, face: usize) -> [f64; 3] {
        let [a, b, c] = self.corners(face);
        normalised(cross(sub(b, a), sub(c, a))).unwrap_or([0.0; 3])
    }

    /// The surface normal at barycentric `b` on `face`: the vertex normals interpolated and
    /// normalised when the mesh has them (the face normal where they cancel out), else the
    /// face normal. Unit length for every non-degenerate face.
    pub fn normal_at(&self, face: usize, b: [f64; 3]) -> [f64; 3] {
        if let Some(normals) = &self.normals {
            let [na, nb, nc] = self.triangles[face].map(|v| normals[v as usize]);
            let n = std::array::from_fn(|i| b[0] * na[i] + b[1] * nb[i] + b[2] * nc[i]);
            if let Some(n) = normalised(n) {
                return n;
            }
        }
        self.face_normal(face)
    }

    /// The texture coordinates at barycentric `b` on `face`, when the mesh has them.
    pub fn uv_at(&self, face: usize, b: [f64; 3]) -> Option<[f64; 2]> {
        let uvs = self.uvs.as_ref()?;
        let [ua, ub, uc] = self.triangles[face].map(|v| uvs[v as usize]);
        Some(std::array::from_fn(|i| ua[i] + b[1] * (ub[i] - ua[i]) + b[2] * (uc[i] - ua[i])))
    }

    /// The first `k` whose running sum exceeds `target` (the last one if none does): the
    /// binary search `cumulative.partition_point(|&s| s <= target)`, over the sums of
    /// `target`'s bucket only. Exact: the bucket of a sum never decreases as the sum grows,
    /// so every sum in an earlier bucket is at most `target` and every sum in a later one
    /// exceeds it.
    #[inline]
    fn face_below(&self, target: f64) -> usize {
        self.search_bucket(target, self.bucket_of(target))
    }

    /// The running sums of `target`'s bucket, as a range of `cumulative`.
    #[inline]
    fn bucket_of(&self, target: f64) -> (u32, u32) {
        let b = guide_bucket(target, self.guide_scale, self.guide.len() - 1);
        (self.guide[b], self.guide[b + 1])
    }

    /// [`face_below`](Self::face_below) within `target`'s bucket `(from, to)`.
    #[inline]
    fn search_bucket(&self, target: f64, (from, to): (u32, u32)) -> usize {
        let (from, to) = (from as usize, to as usize);
        let k = from + self.cumulative[from..to].partition_point(|&s| s <= target);
        k.min(self.faces.len() - 1)
    }

    /// A point uniform over the surface (white noise: each triangle in proportion to its
    /// area, then uniform in it), as `(face, barycentrics)`; [`point_at`](Self::point_at)
    /// gives its position.
    pub fn random_point<R: Rng + ?Sized>(&self, rng: &mut R) -> (usize, [f64; 3]) {
        self.point_of_words(std::array::from_fn(|_| rng.next_u64()))
    }

    /// `count` points uniform over the surface with their positions: the places (face,
    /// barycentrics) and points `random_point` and [`point_at`](Self::point_at) give, one
    /// after another with the same generator.
    ///
    /// Drawn in blocks, each step of the look-up taken for the whole block before the next
    /// (the generator's words, the bucket's bounds, the search, the face, its corners): the
    /// steps of one point wait on each other's cache misses, those of different points do
    /// not, so a block's misses overlap rather than follow one another.
    pub(crate) fn random_points<R: Rng + ?Sized>(
        &self,
        count: usize,
        rng: &mut R,
    ) -> (Vec<(usize, [f64; 3])>, Vec<Point<3>>) {
        const BLOCK: usize = 512;
        let mut places = Vec::with_capacity(count);
        let mut points = Vec::with_capacity(count);
        let mut words: Vec<[u64; 3]> = Vec::with_capacity(BLOCK);
        let mut targets: Vec<(f64, (u32, u32))> = Vec::with_capacity(BLOCK);
        let mut corners: Vec<[u32; 3]> = Vec::with_capacity(BLOCK);
        while places.len() < count {
            let n = BLOCK.min(count - places.len());
            words.clear();
            words.extend((0..n).map(|_| std::array::from_fn(|_| rng.next_u64())));
            targets.clear();
            targets.extend(words.iter().map(|w| {
                let target = fraction_of(w[0]) * self.area();
                (target, self.bucket_of(target))
            }));
            // Each place holds the index into `faces` first, then the face.
            let from = places.len();
            places.extend(words.iter().zip(&targets).map(|(w, &(target, bucket))| {
                (self.search_bucket(target, bucket), place_in_face([w[1], w[2]]))
            }));
            for (k, _) in &mut places[from..] {
                *k = self.faces[*k] as usize;
            }
            corners.clear();
            corners.extend(places[from..].iter().map(|&(face, _)| self.triangles[face]));
            points.extend(corners.iter().zip(&places[from..]).map(|(corners, &(_, b))| {
                point_in(&corners.map(|v| self.vertices[v as usize]), b)
            }));
        }
        (places, points)
    }

    /// The point [`random_point`](Self::random_point) makes of its three generator words: the
    /// face's (drawn with probability proportional to its area), then two for the spot in it.
    #[inline]
    fn point_of_words(&self, words: [u64; 3]) -> (usize, [f64; 3]) {
        let target = fraction_of(words[0]) * self.area();
        let face = self.faces[self.face_below(target)] as usize;
        (face, place_in_face([words[1], words[2]]))
    }
}

/// The barycentric coordinates of a point uniform in a triangle, from two generator words.
#[inline]
fn place_in_face(words: [u64; 2]) -> [f64; 3] {
    let (s, t) = folded(words);
    [1.0 - s - t, s, t]
}

/// The bucket of a running sum or target `x` ≥ 0 among `buckets`: `⌊x · scale⌋`, at most the
/// last. It never decreases as `x` grows (rounding and the saturating conversion are
/// monotone), which is all [`SurfaceMesh::face_below`] needs.
#[inline]
fn guide_bucket(x: f64, scale: f64, buckets: usize) -> usize {
    ((x * scale) as usize).min(buckets - 1)
}

/// The guide table of the running sums `cumulative` (positive, not decreasing, fewer than
/// 2^32): one bucket per sum, `guide[b]` the number of sums in buckets below `b`; and its
/// scale.
fn guide_table(cumulative: &[f64]) -> (Vec<u32>, f64) {
    let buckets = cumulative.len().max(1);
    let total = cumulative.last().copied().unwrap_or(0.0);
    let scale = buckets as f64 / total;
    let mut guide = vec![0u32; buckets + 1];
    for &s in cumulative {
        guide[guide_bucket(s, scale, buckets) + 1] += 1;
    }
    for b in 0..buckets {
        guide[b + 1] += guide[b];
    }
    (guide, scale)
}

/// Checks a per-vertex attribute: one per vertex, all finite.
fn check_per_vertex<const N: usize>(
    what: &'static str,
    values: &[[f64; N]],
    vertices: usize,
) -> Result<(), Error> {
    if values.len() != vertices {
        return Err(Error::ShapeMismatch {
            what: what.into(),
            expected: vertices,
            got: values.len(),
        });
    }
    for (index, v) in values.iter().enumerate() {
        if let Some(&value) = v.iter().find(|x| !x.is_finite()) {
            return Err(Error::NonFinite { what, index, value });
        }
    }
    Ok(())
}

/// The point with barycentric coordinates `b` in the triangle with `corners`
/// ([`SurfaceMesh::point_at`]'s arithmetic, which every sampler on a surface uses, so that a
/// point rebuilds exactly from its face and barycentrics).
#[inline(always)]
pub(crate) fn point_in(corners: &[Point<3>; 3], b: [f64; 3]) -> Point<3> {
    let [a, p, q] = corners;
    std::array::from_fn(|i| a[i] + b[1] * (p[i] - a[i]) + b[2] * (q[i] - a[i]))
}

/// The area of the triangle with corners `a`, `b`, `c` (0 when they lie on one line), without
/// overflow or underflow for any finite corners.
pub fn triangle_area(a: Point<3>, b: Point<3>, c: Point<3>) -> f64 {
    0.5 * length(cross(sub(b, a), sub(c, a)))
}

/// A point uniform in the triangle `s, t ≥ 0, s + t ≤ 1` from two generator words: the unit
/// square's point folded onto the triangle below its diagonal.
#[inline]
pub(crate) fn folded(words: [u64; 2]) -> (f64, f64) {
    let (s, t) = (fraction_of(words[0]), fraction_of(words[1]));
    if s + t > 1.0 { (1.0 - s, 1.0 - t) } else { (s, t) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{rng_from_seed, uniform01};

    /// The face the binary search over every running sum finds.
    fn searched(mesh: &SurfaceMesh, target: f64) -> usize {
        mesh.cumulative.partition_point(|&s| s <= target).min(mesh.faces.len() - 1)
    }

    /// Points drawn in blocks are the points drawn one by one, across blocks and a short last
    /// one, and leave the generator where one by one leaves it.
    #[test]
    fn points_drawn_in_blocks_are_those_drawn_one_by_one() {
        let mut rng = rng_from_seed(4);
        let vertices: Vec<Point<3>> =
            (0..900).map(|_| std::array::from_fn(|_| uniform01(&mut rng))).collect();
        // Random triangles, every fifth degenerate (not drawn).
        let triangles = (0..300).map(|t| {
            if t % 5 == 0 { [3 * t, 3 * t, 3 * t + 1] } else { [3 * t, 3 * t + 1, 3 * t + 2] }
        });
        let mesh = SurfaceMesh::new(vertices, triangles.collect()).unwrap();
        for count in [0, 1, 511, 512, 1300] {
            let (mut blocks, mut single) =
                (rng_from_seed(count as u64), rng_from_seed(count as u64));
            let (places, points) = mesh.random_points(count, &mut blocks);
            let one_by_one: Vec<_> = (0..count).map(|_| mesh.random_point(&mut single)).collect();
            assert_eq!(places, one_by_one);
            let rebuilt: Vec<_> = places.iter().map(|&(f, b)| mesh.point_at(f, b)).collect();
            assert_eq!(points, rebuilt);
            assert_eq!(blocks.next_u64(), single.next_u64());
        }
    }

    /// The guide table finds the binary search's face for every target: each running sum and
    /// its neighbouring floats, each bucket's boundaries, 0, the total and past it, and
    /// uniform draws; on equal areas (sums on bucket boundaries), areas over 40 orders of
    /// magnitude with degenerate triangles among them, random triangles, and a total so small
    /// that the scale overflows.
    #[test]
    fn the_guide_table_finds_the_binary_searchs_face() {
        let mut rng = rng_from_seed(3);
        let mut meshes = Vec::new();
        // A strip of equal right triangles: sums 0.5, 1, 1.5, ... at bucket boundaries.
        let n = 64;
        let mut vertices = Vec::new();
        for i in 0..=n {
            vertices.push([i as f64, 0.0, 0.0]);
            vertices.push([i as f64, 1.0, 0.0]);
        }
        let strip: Vec<[usize; 3]> = (0..n)
            .flat_map(|i| [[2 * i, 2 * i + 2, 2 * i + 1], [2 * i + 1, 2 * i + 2, 2 * i + 3]])
            .collect();
        meshes.push(SurfaceMesh::new(vertices, strip).unwrap());
        // A fan whose areas run from 1e-30 to 1e10, with degenerate triangles between.
        let mut vertices = vec![[0.0, 0.0, 0.0]];
        let mut triangles = Vec::new();
        for i in 0..300 {
            let size = 10f64.powf(-15.0 + 10.0 * uniform01(&mut rng));
            let at = vertices.len();
            vertices.push([size, 0.0, i as f64]);
            vertices.push([0.0, size, i as f64]);
            triangles.push([at, at + 1, at + 1]);
            triangles.push([0, at, at + 1]);
            if i % 7 == 0 {
                triangles.push([at, at, 0]);
            }
        }
        meshes.push(SurfaceMesh::new(vertices, triangles).unwrap());
        // Random triangles.
        let vertices: Vec<Point<3>> =
            (0..600).map(|_| std::array::from_fn(|_| uniform01(&mut rng))).collect();
        let triangles = (0..200).map(|t| [3 * t, 3 * t + 1, 3 * t + 2]).collect();
        meshes.push(SurfaceMesh::new(vertices, triangles).unwrap());
        // One sliver of subnormal area: buckets per unit of area overflow to infinity.
        let sliver = vec![[0.0, 0.0, 0.0], [1e-98, 0.0, 0.0], [0.0, 1e-215, 0.0]];
        let tiny = SurfaceMesh::new(sliver, vec![[0, 1, 2], [0, 1, 2]]).unwrap();
        assert!(tiny.guide_scale.is_infinite());
        meshes.push(tiny);
        for mesh in &meshes {
            let total = mesh.area();
            let mut targets = vec![0.0, total, total.next_up(), total.next_down()];
            for &s in &mesh.cumulative {
                targets.extend([s, s.next_down(), s.next_up()]);
            }
            let buckets = mesh.guide.len() - 1;
            for b in 0..=buckets {
                let edge = b as f64 / mesh.guide_scale;
                let share = b as f64 / buckets as f64 * total;
                targets.extend([edge, edge.next_down(), edge.next_up(), share]);
                targets.extend([share.next_down(), share.next_up()]);
            }
            targets.extend((0..20_000).map(|_| uniform01(&mut rng) * total));
            for t in targets.into_iter().filter(|t| t.is_finite() && *t >= 0.0) {
                assert_eq!(mesh.face_below(t), searched(mesh, t), "target {t:e}");
            }
        }
    }
}
