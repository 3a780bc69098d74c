//! What makes points on a surface good: the closest pair and nearest-neighbour distances
//! (Euclidean in 3D), the relative radius against the densest packing of the surface's
//! area, and coverage by area-weighted probes (the largest distance from a point of the
//! surface to its nearest sample).

use crate::metrics::{NearestNeighbourStats, NeighbourIndex, max_spacing, nearest_neighbour_stats};
use poisson_nd::rng::rng_from_seed;
use poisson_nd::surface::SurfaceMesh;
use poisson_nd::{Domain, Point};
use serde::Serialize;

/// The metrics of a point set on a surface.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SurfaceMetrics {
    /// Number of points.
    pub points: usize,
    /// The surface's area.
    pub area: f64,
    /// The closest pair's distance (infinite for fewer than two points).
    pub d_min: f64,
    /// The spacing of `points` points at the densest (hexagonal) packing of the area:
    /// `sqrt(2A / (√3 N))`.
    pub d_max: f64,
    /// `d_min / d_max`: about 0.75–0.9 for good Poisson-disk sets on a plane.
    pub relative_radius: f64,
    /// Nearest-neighbour distances (`None` for fewer than two points).
    pub nearest_neighbour: Option<NearestNeighbourStats>,
    /// Coverage of the surface.
    pub coverage: SurfaceCoverage,
    /// With a nominal radius: pairs closer than it and the fraction of probes within it.
    pub nominal: Option<Nominal>,
    /// When the points come with their faces and barycentric coordinates: the largest
    /// distance from a point to where those place it (`None` here; `analyze` fills it in).
    pub face_offset: Option<f64>,
    /// How far the points lie from the surface: every other number assumes they lie on it.
    pub off_surface: OffSurface,
}

/// How far points lie from the surface, each measured to the surface's nearest point
/// ([`SurfaceMesh::nearest`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct OffSurface {
    /// The largest distance from a point to the surface: 0, to rounding, for points on it.
    pub largest: f64,
    /// The point that lies farthest (0-based, in the order given; `None` without points).
    pub farthest: Option<usize>,
    /// Points farther from the surface than [`OFF_SURFACE_TOLERANCE`] times `d_max`, where a
    /// point placed on a face lies within rounding: 0 for points on the surface.
    pub points_off: usize,
}

/// The distance from the surface, relative to the spacing `d_max`, beyond which a point is
/// counted off it: far above the rounding of a point placed on a face (about 10⁻¹⁶ of the
/// mesh's size) and of one written in single precision (10⁻⁷ of its coordinates), far below
/// any spacing that matters.
pub const OFF_SURFACE_TOLERANCE: f64 = 1e-4;

/// How far the surface's points are from the samples, by probes drawn uniformly over its
/// area.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SurfaceCoverage {
    /// Number of probes.
    pub probes: usize,
    /// Seed of the probes' generator.
    pub seed: u64,
    /// The largest distance from a probe to its nearest sample: the largest gap (a maximal
    /// set at radius r has it below r).
    pub largest_gap: f64,
    /// `largest_gap / d_max`.
    pub largest_gap_relative: f64,
    /// The mean distance from a probe to its nearest sample.
    pub mean_gap: f64,
}

/// Numbers against a nominal radius `r`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Nominal {
    /// The radius.
    pub radius: f64,
    /// `d_min / r` (at least 1 when the set keeps the radius).
    pub d_min_over_radius: f64,
    /// Points whose nearest neighbour is closer than `r`.
    pub points_too_close: usize,
    /// Fraction of the probes within `r` of a sample (1 for a maximal set).
    pub covered_fraction: f64,
}

/// Measures `points` on `mesh`: `probes` area-weighted probes from the portable generator
/// seeded with `seed`, nearest-neighbour histogram of `bins` bins, and the numbers against
/// `nominal` when given.
///
/// ```
/// use experiments::metrics::surface::surface_metrics;
/// use poisson_nd::surface::{SurfaceMesh, SurfacePoisson};
/// let square = SurfaceMesh::new(
///     vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]],
///     vec![[0, 1, 2], [0, 2, 3]],
/// )?;
/// let set = SurfacePoisson::new(square.clone(), 0.05)?.fill_seeded(1);
/// let m = surface_metrics(&set.points, &square, 10_000, 1, 20, Some(0.05));
/// assert!(m.d_min >= 0.05 && m.coverage.largest_gap < 0.05);
/// assert_eq!(m.nominal.unwrap().covered_fraction, 1.0);
/// assert_eq!(m.off_surface.points_off, 0);
/// # Ok::<(), poisson_nd::Error>(())
/// ```
pub fn surface_metrics(
    points: &[Point<3>],
    mesh: &SurfaceMesh,
    probes: usize,
    seed: u64,
    bins: usize,
    nominal: Option<f64>,
) -> SurfaceMetrics {
    let area = mesh.area();
    let d_max = max_spacing(2, points.len(), area).unwrap_or(f64::INFINITY);
    let (lower, upper) = mesh.bounds();
    let index =
        bounding_domain(points, lower, upper).map(|box_| NeighbourIndex::new(points, &box_));
    let distances = index.as_ref().map_or_else(Vec::new, |i| i.nearest_neighbour_distances());
    let nearest_neighbour = nearest_neighbour_stats(&distances, bins);
    let d_min = nearest_neighbour.as_ref().map_or(f64::INFINITY, |nn| nn.min);
    let mut rng = rng_from_seed(seed);
    let (mut largest, mut sum, mut within) = (0.0f64, 0.0, 0usize);
    for _ in 0..probes {
        let (face, b) = mesh.random_point(&mut rng);
        let probe = mesh.point_at(face, b);
        let gap = index.as_ref().and_then(|i| i.nearest(&probe)).map_or(f64::INFINITY, |(_, d)| d);
        largest = largest.max(gap);
        sum += gap;
        if nominal.is_some_and(|r| gap <= r) {
            within += 1;
        }
    }
    let coverage = SurfaceCoverage {
        probes,
        seed,
        largest_gap: largest,
        largest_gap_relative: largest / d_max,
        mean_gap: sum / probes.max(1) as f64,
    };
    let nominal = nominal.map(|radius| Nominal {
        radius,
        d_min_over_radius: d_min / radius,
        points_too_close: distances.iter().filter(|&&d| d < radius).count(),
        covered_fraction: within as f64 / probes.max(1) as f64,
    });
    SurfaceMetrics {
        points: points.len(),
        area,
        d_min,
        d_max,
        relative_radius: d_min / d_max,
        nearest_neighbour,
        coverage,
        nominal,
        face_offset: None,
        off_surface: off_surface(points, mesh, d_max),
    }
}

/// How far `points` lie from `mesh` (see [`OffSurface`]).
fn off_surface(points: &[Point<3>], mesh: &SurfaceMesh, d_max: f64) -> OffSurface {
    let mut out = OffSurface { largest: 0.0, farthest: None, points_off: 0 };
    for (k, p) in points.iter().enumerate() {
        // Points read from a file are finite; a point without an answer counts as off.
        let distance = mesh.nearest(p).map_or(f64::INFINITY, |near| near.distance);
        if out.farthest.is_none() || distance > out.largest {
            out = OffSurface { largest: distance, farthest: Some(k), ..out };
        }
        out.points_off += usize::from(distance > OFF_SURFACE_TOLERANCE * d_max);
    }
    out
}

/// A closed box holding the points and the mesh's box, with a margin so that no side is
/// flat; `None` without points.
fn bounding_domain(points: &[Point<3>], lower: Point<3>, upper: Point<3>) -> Option<Domain<3>> {
    if points.is_empty() {
        return None;
    }
    let (mut lo, mut hi) = (lower, upper);
    for p in points {
        for i in 0..3 {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    let widest = (0..3).map(|i| hi[i] - lo[i]).fold(0.0, f64::max);
    let margin = widest / 64.0;
    Domain::from_corners(lo.map(|x| x - margin), hi.map(|x| x + margin)).ok()
}
