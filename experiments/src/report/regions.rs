//! The "Regions" section: Bridson and Halton inside the generated polygon (a wavy disk with a
//! hole, and two islands), and Bridson inside the generated torus mesh ([`super::generated`]).
//! For each set: points, how many are inside (all, by the region's own exact test), the
//! points in each piece, and the smallest pair distance over r (brute force over every pair).

use super::generated;
use super::html::{DataFile, Figure, Section, Table};
use super::{ReportError, TimingRow, figure_seed, point_data_file};
use crate::format::{short, significant};
use crate::io::PointData;
use crate::plot::{self, Overlay2d, Projections3d};
use poisson_nd::region::{Mesh, Polygons, Region};
use poisson_nd::{Bridson, Domain, FillSampler, Halton, Point, PointSet, Sampler};
use std::sync::Arc;
use std::time::Instant;

/// Bridson's radius in the polygon.
pub const RADIUS_2D: f64 = 0.012;
/// Bridson's radius in the torus.
pub const RADIUS_3D: f64 = 0.03;
/// The pieces' names, in the order of [`generated::polygon_pieces`].
pub const PIECES: [&str; 3] = ["disk with hole", "triangle", "hexagon"];

/// One point set in a region.
#[derive(Debug, Clone, PartialEq)]
pub struct RegionRun {
    /// The sampler's name.
    pub sampler: String,
    /// The region's name (`"polygon"` or `"torus"`).
    pub region: String,
    /// Its seed.
    pub seed: u64,
    /// The points (2 or 3 coordinates).
    pub points: Vec<Vec<f64>>,
    /// Points the region contains.
    pub inside: usize,
    /// Points in each piece of the region (one entry for a mesh).
    pub per_piece: Vec<usize>,
    /// The smallest distance between two points (NaN below two).
    pub min_distance: f64,
    /// The radius the distance is read against.
    pub radius: f64,
    /// The points as CSV.
    pub points_file: String,
}

/// The regions experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct RegionsResult {
    /// The polygon's pieces (rings of vertices, exterior first).
    pub pieces: Vec<Vec<Vec<[f64; 2]>>>,
    /// Bridson, then Halton, in the polygon.
    pub polygon_runs: Vec<RegionRun>,
    /// Bridson in the torus.
    pub mesh_run: RegionRun,
    /// The torus's triangles.
    pub triangles: usize,
}

fn failed(e: poisson_nd::Error) -> ReportError {
    ReportError::Figure { section: "Regions", message: e.to_string() }
}

/// Samples both regions (seeds from `base_seed`).
pub fn measure(base_seed: u64, timings: &mut Vec<TimingRow>) -> Result<RegionsResult, ReportError> {
    let pieces = generated::polygon_pieces();
    let shape = Arc::new(Polygons::new(&pieces).map_err(failed)?);
    let single: Vec<Polygons> = pieces
        .iter()
        .map(|p| Polygons::new(std::slice::from_ref(p)))
        .collect::<Result<_, _>>()
        .map_err(failed)?;
    let square = Domain::<2>::unit();
    let bridson =
        Bridson::builder(square, RADIUS_2D).with_region(shape.clone()).build().map_err(failed)?;
    let seed = figure_seed(base_seed, "regions-polygon", "bridson");
    let set = timed(timings, "bridson", seed, || bridson.fill_seeded(seed));
    let count = set.len();
    let mut polygon_runs = vec![run_2d("bridson", seed, set, &shape, &single, RADIUS_2D)?];
    let halton = Halton::builder(square).with_region(shape.clone()).build().map_err(failed)?;
    // The plain sequence ignores its seed; it is derived and recorded all the same.
    let seed = figure_seed(base_seed, "regions-polygon", "halton");
    let set = timed(timings, "halton", seed, || halton.sample_seeded(count, seed));
    polygon_runs.push(run_2d("halton", seed, set, &shape, &single, RADIUS_2D)?);

    let (vertices, triangles) = generated::torus();
    let triangle_count = triangles.len();
    let mesh = Arc::new(Mesh::new(vertices, triangles).map_err(failed)?);
    let cube = Domain::<3>::unit();
    let bridson =
        Bridson::builder(cube, RADIUS_3D).with_region(mesh.clone()).build().map_err(failed)?;
    let seed = figure_seed(base_seed, "regions-torus", "bridson");
    let set = timed(timings, "bridson", seed, || bridson.fill_seeded(seed));
    let inside = set.points.iter().filter(|p| mesh.contains(p)).count();
    let mesh_run = RegionRun {
        sampler: "bridson".into(),
        region: "torus".into(),
        seed,
        inside,
        per_piece: vec![inside],
        min_distance: min_distance(&set.points),
        radius: RADIUS_3D,
        points_file: point_data_file(
            &PointData::new(set.points.clone()),
            "regions-torus-bridson.csv",
        )?,
        points: set.points.iter().map(|p| p.to_vec()).collect(),
    };
    Ok(RegionsResult { pieces, polygon_runs, mesh_run, triangles: triangle_count })
}

/// Runs `sample`, recording its time as a `regions` timing row.
fn timed<const D: usize>(
    timings: &mut Vec<TimingRow>,
    sampler: &str,
    seed: u64,
    sample: impl FnOnce() -> PointSet<D>,
) -> PointSet<D> {
    let start = Instant::now();
    let set = sample();
    let seconds = start.elapsed().as_secs_f64();
    timings.push(TimingRow {
        experiment: "regions",
        sampler: sampler.into(),
        dim: D,
        n: set.len(),
        rep: 0,
        seed,
        seconds,
    });
    set
}

fn run_2d(
    sampler: &str,
    seed: u64,
    set: PointSet<2>,
    shape: &Polygons,
    pieces: &[Polygons],
    radius: f64,
) -> Result<RegionRun, ReportError> {
    let inside = set.points.iter().filter(|p| shape.contains(p)).count();
    let per_piece = pieces
        .iter()
        .map(|piece| set.points.iter().filter(|p| piece.contains(p)).count())
        .collect();
    Ok(RegionRun {
        sampler: sampler.into(),
        region: "polygon".into(),
        seed,
        inside,
        per_piece,
        min_distance: min_distance(&set.points),
        radius,
        points_file: point_data_file(
            &PointData::new(set.points.clone()),
            &format!("regions-polygon-{sampler}.csv"),
        )?,
        points: set.points.iter().map(|p| p.to_vec()).collect(),
    })
}

/// The smallest distance between two of `points`, over every pair (NaN below two points).
pub fn min_distance<const D: usize>(points: &[Point<D>]) -> f64 {
    let mut smallest = f64::INFINITY;
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            let d2: f64 = (0..D).map(|a| (p[a] - q[a]) * (p[a] - q[a])).sum();
            smallest = smallest.min(d2);
        }
    }
    if points.len() < 2 { f64::NAN } else { smallest.sqrt() }
}

/// What the numbers say, computed: whether every set is inside and reaches every piece,
/// whether Bridson kept r, and Halton's smallest distance (it promises none).
fn reading(result: &RegionsResult) -> String {
    let all = result.polygon_runs.iter().chain(std::iter::once(&result.mesh_run));
    let runs: Vec<&RegionRun> = all.collect();
    let inside = runs.iter().all(|r| r.inside == r.points.len());
    let reached = runs.iter().all(|r| r.per_piece.iter().all(|&n| n > 0));
    let kept = runs.iter().filter(|r| r.sampler == "bridson").all(|r| r.min_distance >= r.radius);
    let mut text = format!(
        "Every set lies {} the region and {} every piece. Bridson {} r between every pair.",
        if inside { "wholly inside" } else { "NOT wholly inside" },
        if reached { "reaches" } else { "does NOT reach" },
        if kept { "keeps" } else { "does NOT keep" },
    );
    if let Some(halton) = runs.iter().find(|r| r.sampler == "halton") {
        text.push_str(&format!(
            " Halton promises no distance: its closest pair is {} r apart, its points are \
             those of the sequence that the outline lets through.",
            short(halton.min_distance / halton.radius)
        ));
    }
    text
}

/// The section: both polygon sets with the outline, the torus set in three slabs, a table.
pub fn section(result: &RegionsResult) -> Result<Section, ReportError> {
    let outlines: Vec<Vec<[f64; 2]>> = result.pieces.iter().flatten().cloned().collect();
    let mut figures = Vec::new();
    for run in &result.polygon_runs {
        figures.push(Figure {
            file: format!("regions-polygon-{}.svg", run.sampler),
            caption: format!(
                "{} inside the polygon (outline in black), every point (seed {}).",
                run.sampler, run.seed
            ),
            svg: plot::overlay_2d(&Overlay2d {
                title: format!("{} in the polygon (N = {})", run.sampler, run.points.len()),
                name: run.sampler.clone(),
                points: run.points.iter().map(|p| [p[0], p[1]]).collect(),
                lo: [0.0, 0.0],
                hi: [1.0, 1.0],
                background: None,
                outlines: outlines.clone(),
            })?,
            data: vec![DataFile {
                file: format!("regions-polygon-{}.csv", run.sampler),
                text: run.points_file.clone(),
            }],
        });
    }
    let run = &result.mesh_run;
    // Slabs two radii thick through the centre: the torus's cross-sections.
    let slab = 2.0 * run.radius;
    figures.push(Figure {
        file: "regions-torus-bridson.svg".into(),
        caption: format!(
            "bridson inside the torus mesh (seed {}): the points of central slabs {} thick seen \
             along each axis (an annulus from above, two disks from the sides).",
            run.seed,
            short(slab)
        ),
        svg: plot::projections_3d(&Projections3d {
            title: format!("bridson in the torus (N = {})", run.points.len()),
            name: run.sampler.clone(),
            points: run.points.iter().map(|p| [p[0], p[1], p[2]]).collect(),
            lo: [0.0; 3],
            hi: [1.0; 3],
            slab: Some(slab),
        })?,
        data: vec![DataFile {
            file: "regions-torus-bridson.csv".into(),
            text: run.points_file.clone(),
        }],
    });

    let mut paragraphs = vec![format!(
        "Shapes made by the report (no input file). In the closed unit square: a polygon region \
         of three pieces — a wavy disk with an off-centre hole, a triangle and a hexagon (their \
         outlines are drawn). Bridson fills it at r = {}; Halton draws as many points, keeping \
         the points of its sequence that fall inside. In the closed unit cube: a torus made of \
         {} triangles (major radius 0.3, minor 0.13), filled by Bridson at r = {}. \"Inside\" \
         is the region's own exact test; the smallest distance is over every pair.",
        short(RADIUS_2D),
        result.triangles,
        short(RADIUS_3D)
    )];
    for run in result.polygon_runs.iter().chain(std::iter::once(&result.mesh_run)) {
        let pieces = if run.per_piece.len() > 1 {
            let parts: Vec<String> = PIECES
                .iter()
                .zip(&run.per_piece)
                .map(|(name, n)| format!("{n} in the {name}"))
                .collect();
            format!("; {}", parts.join(", "))
        } else {
            String::new()
        };
        let all = if run.inside == run.points.len() { "all inside" } else { "NOT ALL INSIDE" };
        paragraphs.push(format!(
            "{} in the {}: {} points, {all} ({} of {}){pieces}; the smallest distance is {} r.",
            run.sampler,
            run.region,
            run.points.len(),
            run.inside,
            run.points.len(),
            significant(run.min_distance / run.radius, 6)
        ));
    }
    paragraphs.push(reading(result));
    let mut header = vec!["sampler".to_string(), "region".into(), "points".into(), "inside".into()];
    header.extend(PIECES.iter().map(|p| p.to_string()));
    header.extend(["min distance / r".to_string(), "seed".into()]);
    let rows = result
        .polygon_runs
        .iter()
        .chain(std::iter::once(&result.mesh_run))
        .map(|run| {
            let mut row = vec![
                run.sampler.clone(),
                run.region.clone(),
                run.points.len().to_string(),
                run.inside.to_string(),
            ];
            for k in 0..PIECES.len() {
                row.push(if run.per_piece.len() > 1 {
                    run.per_piece[k].to_string()
                } else {
                    "—".into()
                });
            }
            row.extend([significant(run.min_distance / run.radius, 6), run.seed.to_string()]);
            row
        })
        .collect();
    Ok(Section {
        heading: "Regions".into(),
        paragraphs,
        tables: vec![Table { caption: "Points in the regions".into(), header, rows, text: false }],
        figures,
        subsections: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_distance_is_the_closest_pair() {
        assert_eq!(min_distance(&[[0.0, 0.0], [3.0, 4.0], [3.0, 5.5]]), 1.5);
        assert!(min_distance(&[[0.0, 0.0]]).is_nan());
    }
}
