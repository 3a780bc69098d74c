//! Bridson's sampler inside a region read from a file: the polygons of
//! `examples/data/lake.geojson` (a lake with a hole and an island, 2D) and the closed mesh of
//! `examples/data/octahedron.obj` (3D). Each run is checked (every point inside the region,
//! no pair closer than the radius) and written as CSV.
//!
//! ```text
//! cargo run --release -p experiments --example regions [-- OUTPUT_DIR]
//! ```
//!
//! The files go to OUTPUT_DIR, or to a directory under the system's temporary directory; the
//! example prints where.

use experiments::inputs::{geojson, obj};
use experiments::io::{self, PointData, PointFormat};
use poisson_nd::region::{Mesh, Polygons};
use poisson_nd::{Bridson, Domain, FillSampler, Point, Region};
use std::error::Error;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn main() -> Result<(), Box<dyn Error>> {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/data");
    let out = match std::env::args_os().nth(1) {
        Some(dir) => PathBuf::from(dir),
        None => std::env::temp_dir().join("poisson-nd-regions"),
    };
    std::fs::create_dir_all(&out)?;

    // 2D: the polygons in world units; the box is their bounding box.
    let polygons = geojson::read_geojson(&data.join("lake.geojson"))?;
    let bounds = geojson::bounding_box(&polygons);
    let rings: Vec<Vec<Vec<[f64; 2]>>> = polygons
        .iter()
        .map(|p| std::iter::once(p.exterior.clone()).chain(p.holes.clone()).collect())
        .collect();
    let lake = Arc::new(Polygons::new(&rings)?);
    let domain = Domain::from_origin_and_extent(bounds.lower, bounds.extent())?;
    let set = Bridson::builder(domain, 0.5).with_region(Arc::clone(&lake)).build()?.fill_seeded(1);
    report("lake.geojson", &set.points, 0.5, &lake, &out.join("lake.csv"))?;

    // 3D: the octahedron's mesh; the box is its bounding box.
    let mesh = obj::read_obj(&data.join("octahedron.obj"))?;
    let bounds = mesh.bounding_box().ok_or("the mesh has no vertices")?;
    let triangles = mesh.triangles.iter().map(|t| t.map(|i| i as usize)).collect();
    let octahedron = Arc::new(Mesh::new(mesh.vertices.clone(), triangles)?);
    let domain = Domain::from_origin_and_extent(bounds.lower, bounds.extent())?;
    let set =
        Bridson::builder(domain, 0.1).with_region(Arc::clone(&octahedron)).build()?.fill_seeded(1);
    report("octahedron.obj", &set.points, 0.1, &octahedron, &out.join("octahedron.csv"))?;
    println!("wrote {}", out.display());
    Ok(())
}

/// Checks the points against the region and the radius (every pair, brute force), prints
/// what was found, and writes them.
fn report<const D: usize>(
    name: &str,
    points: &[Point<D>],
    radius: f64,
    region: &impl Region<D>,
    path: &Path,
) -> Result<(), Box<dyn Error>> {
    let inside = points.iter().filter(|p| region.contains(p)).count();
    let mut min = f64::INFINITY;
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            let d2: f64 = (0..D).map(|a| (p[a] - q[a]).powi(2)).sum();
            min = min.min(d2.sqrt());
        }
    }
    println!(
        "{name}: {} points at r = {radius}, {inside} inside the region, min distance {min:.4}",
        points.len()
    );
    if points.is_empty() || inside != points.len() || min < radius {
        return Err(format!("{name}: the run does not keep its promises").into());
    }
    io::write_points(path, PointFormat::Csv, &PointData::new(points.to_vec()))?;
    Ok(())
}
