//! 2D polygons with holes, and multi-polygons, on the geo crate (feature `geo`).

use super::{BoxClass, Region};
use crate::error::Error;
use crate::point::Point;
use geo::coordinate_position::CoordPos;
use geo::dimensions::Dimensions;
use geo::indexed::IntervalTreeMultiPolygon;
use geo::indexed::PreparedGeometry;
use geo::orient::{Direction, Orient};
use geo::{
    Area, BoundingRect, Contains, Coord, Intersects, Line, LineString, MultiPolygon, Polygon, Rect,
    Relate,
};
use rstar::{AABB, RTree};
use std::fmt;

/// Polygons with holes, any number of them (a multi-polygon): the points strictly inside
/// (boundary points, on an edge or a vertex, are outside).
///
/// Each polygon is a list of rings of `[x, y]` vertices: the exterior first, then its holes.
/// A ring may repeat its first vertex at the end or not, and in either orientation: rings are
/// oriented with geo's `Orient` (exteriors counter-clockwise, holes clockwise), and a point is
/// inside where the winding number of all rings together is not zero. Holes must lie within
/// their exterior and not overlap one another (checked), so that is the usual "inside an
/// exterior and outside its holes"; overlapping pieces are joined.
///
/// Point tests are geo's indexed containment (`IntervalTreeMultiPolygon`: an interval tree of
/// the edges by their y-range, and a winding number with robust orientation predicates), so
/// they cost O(log n + the edges that cross the point's horizontal line), not O(n): fast for
/// polygons of 10⁴ vertices and more. Box classification finds the edges near the box in an
/// R-tree and tests them with geo's exact segment–rectangle test; a box that no edge touches is
/// inside or outside as its centre is.
///
/// ```
/// use poisson_nd::region::{Polygons, Region};
/// // A square with a square hole, and a separate triangle.
/// let square = vec![vec![[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]],
///                   vec![[0.25, 0.25], [0.75, 0.25], [0.75, 0.75], [0.25, 0.75]]];
/// let triangle = vec![vec![[2.0, 0.0], [3.0, 0.0], [2.5, 1.0], [2.0, 0.0]]];
/// let shape = Polygons::new(&[square, triangle])?;
/// assert!(shape.contains(&[0.1, 0.5]) && shape.contains(&[2.5, 0.5]));
/// assert!(!shape.contains(&[0.5, 0.5])); // in the hole
/// assert!(!shape.contains(&[0.0, 0.5])); // on an edge
/// # Ok::<(), poisson_nd::Error>(())
/// ```
pub struct Polygons {
    shape: MultiPolygon<f64>,
    index: IntervalTreeMultiPolygon<f64>,
    edges: RTree<Line<f64>>,
    lower: Point<2>,
    upper: Point<2>,
}

impl fmt::Debug for Polygons {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Polygons")
            .field("polygons", &self.shape.0.len())
            .field("edges", &self.edges.size())
            .field("lower", &self.lower)
            .field("upper", &self.upper)
            .finish_non_exhaustive()
    }
}

impl Polygons {
    /// Polygons from rings of `[x, y]` vertices: `polygons[k]` is polygon `k`, its first ring
    /// the exterior and the others its holes.
    ///
    /// Errors: no polygon, a polygon without rings, a non-finite coordinate or one beyond
    /// ±1e100 ([`Error::OutOfRange`], docs/limits.md), a ring with
    /// fewer than three distinct vertices (consecutive repeats and a closing repeat of the
    /// first vertex are dropped first), or a hole that reaches outside its exterior or
    /// overlaps another hole of the polygon over an area ([`Error::InvalidHole`]; touching
    /// at points or along sides is allowed).
    pub fn new(polygons: &[Vec<Vec<[f64; 2]>>]) -> Result<Self, Error> {
        if polygons.is_empty() {
            return Err(Error::EmptyInput("the list of polygons"));
        }
        let mut built = Vec::with_capacity(polygons.len());
        let mut flat = 0usize;
        for (k, rings) in polygons.iter().enumerate() {
            let mut cleaned = Vec::with_capacity(rings.len());
            if rings.is_empty() {
                return Err(Error::DegenerateRing { polygon: k, ring: 0, distinct: 0 });
            }
            for (r, ring) in rings.iter().enumerate() {
                for (i, v) in ring.iter().enumerate() {
                    for (axis, &value) in v.iter().enumerate() {
                        if !value.is_finite() {
                            let index = 2 * (flat + i) + axis;
                            return Err(Error::NonFinite {
                                what: "polygon vertex coordinate (flat index over all rings)",
                                index,
                                value,
                            });
                        }
                        // Beyond it the winding test's products overflow (about 1e154) and
                        // every point would be outside.
                        crate::limits::check_coordinate("a polygon vertex coordinate", value)?;
                    }
                }
                flat += ring.len();
                cleaned.push(clean_ring(ring, k, r)?);
            }
            let exterior = cleaned.remove(0);
            check_holes(&exterior, &cleaned, k)?;
            built.push(Polygon::new(exterior, cleaned));
        }
        Ok(Self::from_oriented(MultiPolygon::new(built).orient(Direction::Default)))
    }

    /// Polygons from a geo multi-polygon (rings are re-oriented as in [`new`](Self::new)).
    /// Errors as `new`.
    pub fn from_geo(shape: &MultiPolygon<f64>) -> Result<Self, Error> {
        let rings: Vec<Vec<Vec<[f64; 2]>>> = shape
            .0
            .iter()
            .map(|polygon| {
                std::iter::once(polygon.exterior())
                    .chain(polygon.interiors())
                    .map(|ring| ring.coords().map(|c| [c.x, c.y]).collect())
                    .collect()
            })
            .collect();
        Self::new(&rings)
    }

    fn from_oriented(shape: MultiPolygon<f64>) -> Self {
        let mut lines = Vec::new();
        let (mut lower, mut upper) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for polygon in &shape.0 {
            for ring in std::iter::once(polygon.exterior()).chain(polygon.interiors()) {
                lines.extend(ring.lines());
                for c in ring.coords() {
                    lower = [lower[0].min(c.x), lower[1].min(c.y)];
                    upper = [upper[0].max(c.x), upper[1].max(c.y)];
                }
            }
        }
        Polygons {
            index: IntervalTreeMultiPolygon::new(&shape),
            edges: RTree::bulk_load(lines),
            shape,
            lower,
            upper,
        }
    }

    /// The polygons, oriented, as a geo multi-polygon.
    pub fn as_geo(&self) -> &MultiPolygon<f64> {
        &self.shape
    }

    /// The area of the region: of the union of the pieces (where pieces overlap, once), by
    /// geo's boolean operations (i_overlay), so exact up to their rounding.
    pub fn area(&self) -> f64 {
        geo::unary_union(&self.shape.0).unsigned_area()
    }

    /// Number of edges over all rings.
    pub fn edge_count(&self) -> usize {
        self.edges.size()
    }
}

/// A ring's vertices without consecutive repeats or a closing repeat; an error when fewer
/// than three distinct ones remain.
fn clean_ring(ring: &[[f64; 2]], polygon: usize, index: usize) -> Result<LineString<f64>, Error> {
    let mut coords: Vec<Coord<f64>> = Vec::with_capacity(ring.len());
    for v in ring {
        let c = Coord { x: v[0], y: v[1] };
        if coords.last() != Some(&c) {
            coords.push(c);
        }
    }
    while coords.len() > 1 && coords.first() == coords.last() {
        coords.pop();
    }
    if coords.len() < 3 {
        return Err(Error::DegenerateRing { polygon, ring: index, distinct: coords.len() });
    }
    Ok(LineString::new(coords))
}

/// Refuses holes that reach outside their exterior or overlap one another over an area. The
/// containment test counts how many times the rings wind round a point, exteriors once one
/// way and holes once the other, and takes every point with a nonzero count; where a hole
/// leaves its exterior, or two holes overlap, the count is −1 and such a point would be
/// inside, the opposite of what the rings mean. Touching at points, or along a side, is
/// allowed. Hole pairs are only compared where their boxes meet.
fn check_holes(
    exterior: &LineString<f64>,
    holes: &[LineString<f64>],
    polygon: usize,
) -> Result<(), Error> {
    if holes.is_empty() {
        return Ok(());
    }
    let outer = Polygon::new(exterior.clone(), Vec::new());
    let outer = PreparedGeometry::from(&outer);
    let shapes: Vec<Polygon<f64>> =
        holes.iter().map(|h| Polygon::new(h.clone(), Vec::new())).collect();
    let invalid = |ring: usize, problem: String| Error::InvalidHole { polygon, ring, problem };
    for (h, hole) in shapes.iter().enumerate() {
        if !outer.relate(hole).is_covers() {
            return Err(invalid(
                h + 1,
                "the hole reaches outside the polygon's exterior (a hole must lie within it)"
                    .into(),
            ));
        }
    }
    // The holes by their boxes' lower x: a pair whose boxes meet is found in one sweep.
    // (Every cleaned ring has three vertices or more, so every hole has a box.)
    let Some(boxes) = shapes.iter().map(|s| s.bounding_rect()).collect::<Option<Vec<Rect<f64>>>>()
    else {
        return Ok(());
    };
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_by(|&a, &b| boxes[a].min().x.total_cmp(&boxes[b].min().x));
    for (i, &a) in order.iter().enumerate() {
        // Prepared only for a hole that has a neighbour to compare with.
        let mut prepared = None;
        for &b in order[i + 1..].iter().take_while(|&&b| boxes[b].min().x <= boxes[a].max().x) {
            if !boxes[a].intersects(&boxes[b]) {
                continue;
            }
            let prepared = prepared.get_or_insert_with(|| PreparedGeometry::from(&shapes[a]));
            let matrix = prepared.relate(&shapes[b]);
            if matrix.get(CoordPos::Inside, CoordPos::Inside) == Dimensions::TwoDimensional {
                let (first, second) = (a.min(b) + 1, a.max(b) + 1);
                return Err(invalid(
                    first,
                    format!("the hole overlaps ring {second}, another hole"),
                ));
            }
        }
    }
    Ok(())
}

impl Region<2> for Polygons {
    #[inline]
    fn contains(&self, p: &Point<2>) -> bool {
        self.index.contains(&Coord { x: p[0], y: p[1] })
    }

    fn bounding_box(&self) -> (Point<2>, Point<2>) {
        (self.lower, self.upper)
    }

    fn classify_box(&self, lower: &Point<2>, upper: &Point<2>) -> BoxClass {
        if (0..2).any(|i| upper[i] < self.lower[i] || lower[i] > self.upper[i]) {
            return BoxClass::Outside;
        }
        let rect =
            Rect::new(Coord { x: lower[0], y: lower[1] }, Coord { x: upper[0], y: upper[1] });
        let envelope = AABB::from_corners(
            geo::Point::new(lower[0], lower[1]),
            geo::Point::new(upper[0], upper[1]),
        );
        if self.edges.locate_in_envelope_intersecting(&envelope).any(|line| line.intersects(&rect))
        {
            return BoxClass::Straddling;
        }
        // No edge meets the closed box: it lies wholly on one side of the boundary.
        let centre = [0.5 * (lower[0] + upper[0]), 0.5 * (lower[1] + upper[1])];
        if self.contains(&centre) { BoxClass::Inside } else { BoxClass::Outside }
    }

    fn resolves_boundary(&self) -> bool {
        true
    }
}
