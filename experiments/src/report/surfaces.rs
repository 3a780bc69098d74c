//! The "On surfaces" section: points on the surface of the generated displaced sphere
//! ([`generated::displaced_sphere`]) — a maximal Poisson-disk fill at a radius, exactly as
//! many points by sample elimination, and as many uniform random points (white noise) — with
//! the surface metrics of each ([`surface_metrics`]): closest pair, relative radius against
//! the hexagonal packing of the area, and the largest gap found by probes over the area.

use super::generated;
use super::html::{DataFile, Figure, Section, Table};
use super::{ReportError, TimingRow, figure_seed, point_data_file};
use crate::format::{short, significant};
use crate::io::{Attribute, PointData};
use crate::metrics::surface::{SurfaceMetrics, surface_metrics};
use crate::plot::{self, Overlay2d};
use poisson_nd::surface::{
    SurfaceElimination, SurfaceFill, SurfaceMesh, SurfacePoints, SurfacePoisson,
};
use poisson_nd::{Point, StopReason};
use std::time::Instant;

/// The fill's radius.
pub const RADIUS: f64 = 0.02;
/// Subdivisions of the icosahedron: 20·4^5 = 20,480 triangles.
pub const SUBDIVISIONS: u32 = 5;
/// Probes over the area for the coverage.
pub const PROBES: usize = 200_000;
/// The samplers, in the section's order.
pub const SAMPLERS: [&str; 5] = ["fill", "fill-fronts", "fill-boundary", "elimination", "uniform"];

/// One point set on the surface.
#[derive(Debug, Clone, PartialEq)]
pub struct SurfaceRun {
    /// One of [`SAMPLERS`].
    pub sampler: String,
    /// Its seed.
    pub seed: u64,
    /// The count asked for (`None` for the fill, which is driven by its radius).
    pub asked: Option<usize>,
    /// Why it stopped.
    pub stop: StopReason,
    /// Time of the sampling call, in seconds.
    pub seconds: f64,
    /// The metrics.
    pub metrics: SurfaceMetrics,
    /// The points.
    pub points: Vec<Point<3>>,
    /// The points with their columns, as CSV.
    pub points_file: String,
}

/// The surfaces experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct SurfacesResult {
    /// The mesh's triangles.
    pub triangles: usize,
    /// Its area.
    pub area: f64,
    /// Fill, fill by the front, fill along the edge, elimination, uniform.
    pub runs: Vec<SurfaceRun>,
}

fn failed(e: poisson_nd::Error) -> ReportError {
    ReportError::Figure { section: "On surfaces", message: e.to_string() }
}

/// Samples the surface five ways (seeds from `base_seed`); the elimination and the uniform
/// points are as many as the fill gave.
pub fn measure(
    base_seed: u64,
    timings: &mut Vec<TimingRow>,
) -> Result<SurfacesResult, ReportError> {
    let (vertices, triangles) = generated::displaced_sphere(SUBDIVISIONS);
    let mesh = SurfaceMesh::new(vertices, triangles).map_err(failed)?;
    let fill = SurfacePoisson::new(mesh.clone(), RADIUS).map_err(failed)?;
    let elimination = SurfaceElimination::new(mesh.clone());
    let mut runs = Vec::new();
    let seed = figure_seed(base_seed, "surfaces", "fill");
    let set = timed(timings, "fill", seed, || fill.fill_seeded(seed));
    let count = set.0.len();
    runs.push(run(&mesh, "fill", seed, None, set, Some(RADIUS))?);
    let front = fill.clone().with_fill(SurfaceFill::Front);
    let seed = figure_seed(base_seed, "surfaces", "fill-fronts");
    let set = timed(timings, "fill-fronts", seed, || front.fill_seeded(seed));
    runs.push(run(&mesh, "fill-fronts", seed, None, set, Some(RADIUS))?);
    let boundary = fill.with_fill(SurfaceFill::Boundary);
    let seed = figure_seed(base_seed, "surfaces", "fill-boundary");
    let set = timed(timings, "fill-boundary", seed, || boundary.fill_seeded(seed));
    runs.push(run(&mesh, "fill-boundary", seed, None, set, Some(RADIUS))?);
    let seed = figure_seed(base_seed, "surfaces", "elimination");
    let set = timed(timings, "elimination", seed, || elimination.sample_seeded(count, seed));
    runs.push(run(&mesh, "elimination", seed, Some(count), set, None)?);
    let seed = figure_seed(base_seed, "surfaces", "uniform");
    let set = timed(timings, "uniform", seed, || SurfacePoints::uniform(&mesh, count, seed));
    runs.push(run(&mesh, "uniform", seed, Some(count), set, None)?);
    Ok(SurfacesResult { triangles: mesh.triangle_count(), area: mesh.area(), runs })
}

/// Runs `sample`, recording its time as a `surfaces` timing row.
fn timed(
    timings: &mut Vec<TimingRow>,
    sampler: &str,
    seed: u64,
    sample: impl FnOnce() -> SurfacePoints,
) -> (SurfacePoints, f64) {
    let start = Instant::now();
    let set = sample();
    let seconds = start.elapsed().as_secs_f64();
    timings.push(TimingRow {
        experiment: "surfaces",
        sampler: sampler.into(),
        dim: 3,
        n: set.len(),
        rep: 0,
        seed,
        seconds,
    });
    (set, seconds)
}

fn run(
    mesh: &SurfaceMesh,
    sampler: &str,
    seed: u64,
    asked: Option<usize>,
    (set, seconds): (SurfacePoints, f64),
    nominal: Option<f64>,
) -> Result<SurfaceRun, ReportError> {
    let metrics = surface_metrics(&set.points, mesh, PROBES, seed, 20, nominal);
    let points = set.points.clone();
    let stop = set.stop;
    // The figure's data: each point and its face. Normals and barycentric coordinates follow
    // from these and the mesh (`experiments sample surface` writes them all).
    let faces =
        Attribute { name: "face".into(), values: set.faces.iter().map(|&f| f as f64).collect() };
    let data = PointData { points: set.points, attributes: vec![faces] };
    let points_file = point_data_file(&data, &format!("surfaces-{sampler}.csv"))?;
    Ok(SurfaceRun {
        sampler: sampler.into(),
        seed,
        asked,
        stop,
        seconds,
        metrics,
        points,
        points_file,
    })
}

/// What the numbers say, computed.
fn reading(result: &SurfacesResult) -> String {
    let by = |name: &str| result.runs.iter().find(|r| r.sampler == name);
    let (Some(fill), Some(front), Some(edge), Some(elimination), Some(uniform)) =
        (by("fill"), by("fill-fronts"), by("fill-boundary"), by("elimination"), by("uniform"))
    else {
        return String::new();
    };
    let keeps = |run: &SurfaceRun| {
        let kept = run.metrics.d_min >= RADIUS;
        let maximal = run.metrics.coverage.largest_gap < RADIUS;
        format!(
            "{} r between every pair and {} (no probe farther than {} r from a point)",
            if kept { "keeps" } else { "does NOT keep" },
            if maximal { "is maximal at the probes" } else { "leaves a gap of r or more" },
            significant(run.metrics.coverage.largest_gap / RADIUS, 4),
        )
    };
    let exact = elimination.asked == Some(elimination.points.len());
    format!(
        "The fill {}; fill-fronts {}, with {} points against {} at a relative \
         radius of {}; fill-boundary {}, with {} points at a relative radius of {}, every \
         point's nearest neighbour at r. Elimination gives {} the {} points asked for, at a relative radius of \
         {} against the fill's {}; uniform points, as many, come as close as {} d_max and \
         leave gaps of {} d_max.",
        keeps(fill),
        keeps(front),
        front.points.len(),
        fill.points.len(),
        significant(front.metrics.relative_radius, 4),
        keeps(edge),
        edge.points.len(),
        significant(edge.metrics.relative_radius, 4),
        if exact { "exactly" } else { "NOT exactly" },
        elimination.asked.unwrap_or(0),
        significant(elimination.metrics.relative_radius, 4),
        significant(fill.metrics.relative_radius, 4),
        significant(uniform.metrics.relative_radius, 3),
        significant(uniform.metrics.coverage.largest_gap_relative, 3),
    )
}

/// The section: each set seen from above (the upper half), a table of the metrics.
pub fn section(result: &SurfacesResult) -> Result<Section, ReportError> {
    let mut figures = Vec::new();
    for run in &result.runs {
        // The upper half seen from above: the middle of the picture faces the viewer.
        let upper: Vec<[f64; 2]> =
            run.points.iter().filter(|p| p[2] > 0.5).map(|p| [p[0], p[1]]).collect();
        figures.push(Figure {
            file: format!("surfaces-{}.svg", run.sampler),
            caption: format!(
                "{} on the displaced sphere: the points of its upper half (z > 0.5) seen from \
                 above, seed {}. Near the rim the surface turns away and the points crowd.",
                run.sampler, run.seed
            ),
            svg: plot::overlay_2d(&Overlay2d {
                title: format!("{} on the surface (N = {})", run.sampler, run.points.len()),
                name: run.sampler.clone(),
                points: upper,
                lo: [0.05, 0.05],
                hi: [0.95, 0.95],
                background: None,
                outlines: Vec::new(),
            })?,
            data: vec![DataFile {
                file: format!("surfaces-{}.csv", run.sampler),
                text: run.points_file.clone(),
            }],
        });
    }
    let paragraphs = vec![
        format!(
            "A surface made by the report: an icosahedron split {} times ({} triangles) and \
             pushed in and out by smooth bumps of varying curvature, area {}. The fill places \
             points at r = {} until no point of the surface has room (a maximal set), each \
             uniform over the surface not yet covered; fill-fronts reaches a maximal set \
             faster, by Bridson's front walking on the surface and darts into the gaps it \
             leaves; fill-boundary places each new point just beyond r from an earlier one, \
             wherever the edge of the surface that point covers is not yet covered \
             (Dunbar and Humphreys's boundary sampling), denser and faster still; \
             elimination draws five candidates per point uniformly over the area and removes \
             the most crowded until exactly as many remain as the fill gave; uniform points \
             are white noise on the surface. Distances are Euclidean in 3D. d_max is the \
             spacing of as many points in the hexagonal packing of the area, √(2A / (√3 N)); \
             the largest gap is the farthest any of {} probes, uniform over the area, lies \
             from its nearest point.",
            SUBDIVISIONS,
            result.triangles,
            short(result.area),
            short(RADIUS),
            PROBES
        ),
        reading(result),
    ];
    let header = [
        "sampler",
        "asked",
        "points",
        "stop",
        "seconds",
        "d_min",
        "ρ_rel",
        "mean NN / d_max",
        "largest gap / d_max",
        "seed",
    ]
    .map(String::from)
    .to_vec();
    let rows = result
        .runs
        .iter()
        .map(|run| {
            let m = &run.metrics;
            let mean_nn = m.nearest_neighbour.as_ref().map_or(f64::NAN, |nn| nn.mean / m.d_max);
            vec![
                run.sampler.clone(),
                run.asked.map_or("— (r)".into(), |n| n.to_string()),
                run.points.len().to_string(),
                run.stop.to_string(),
                significant(run.seconds, 3),
                significant(m.d_min, 5),
                significant(m.relative_radius, 4),
                significant(mean_nn, 4),
                significant(m.coverage.largest_gap_relative, 4),
                run.seed.to_string(),
            ]
        })
        .collect();
    Ok(Section {
        heading: "On surfaces".into(),
        paragraphs,
        tables: vec![Table {
            caption: "Points on the displaced sphere".into(),
            header,
            rows,
            text: false,
        }],
        figures,
        subsections: Vec::new(),
    })
}
