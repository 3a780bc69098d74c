//! Times a maximal fill of a surface against Bridson in the 2D unit square making about as
//! many points, runs interleaved so that both see the same machine load; then sample
//! elimination of exactly that many points on the surface.
//!
//! `cargo bench -p poisson-nd-benches --bench surface_timing -- [subdivisions] [points] [runs]`
//! (defaults 6, i.e. the report's displaced sphere with 81,920 triangles; 10^6 points; 3).

use experiments::report::generated::displaced_sphere;
use poisson_nd::surface::{SurfaceElimination, SurfaceMesh, SurfacePoisson};
use poisson_nd::{Bridson, Domain, Sampler};
use std::time::Instant;

fn main() -> Result<(), poisson_nd::Error> {
    // `cargo bench` appends `--bench`.
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let subdivisions: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(6);
    let points: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1e6);
    let runs: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let (vertices, triangles) = displaced_sphere(subdivisions);
    let mesh = SurfaceMesh::new(vertices, triangles)?;
    // A maximal fill at r holds about 0.69/r² points per unit area (ρ_rel ≈ 0.775 against
    // the hexagonal packing); Bridson in the unit square about 0.68/r².
    let r_surface = (0.69 * mesh.area() / points).sqrt();
    let r_square = (0.68 / points).sqrt();
    let fill = SurfacePoisson::new(mesh.clone(), r_surface)?;
    let bridson = Bridson::new(Domain::<2>::unit(), r_square)?;
    let elimination = SurfaceElimination::new(mesh.clone());
    println!(
        "{} triangles, area {:.4}; surface r = {r_surface:.3e}, square r = {r_square:.3e}",
        mesh.triangle_count(),
        mesh.area()
    );
    for seed in 0..runs {
        let start = Instant::now();
        let set = fill.fill_seeded(seed);
        let t_fill = start.elapsed().as_secs_f64();
        let n = set.len();
        println!("fill seed {seed}: {t_fill:.3} s, {n} points, {} darts", set.attempts);
        let start = Instant::now();
        let set = bridson.sample_seeded(usize::MAX, seed);
        let t_bridson = start.elapsed().as_secs_f64();
        println!(
            "bridson seed {seed}: {t_bridson:.3} s, {} points; fill ÷ bridson {:.2} (per point {:.2})",
            set.len(),
            t_fill / t_bridson,
            (t_fill / n as f64) / (t_bridson / set.len() as f64)
        );
        let start = Instant::now();
        let set = elimination.sample_seeded(n, seed);
        println!(
            "elimination seed {seed}: {:.3} s, {} points",
            start.elapsed().as_secs_f64(),
            set.len()
        );
    }
    Ok(())
}
