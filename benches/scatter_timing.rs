//! Times a world scatter of about 10^6 instances of three classes over a 16-bit heightmap
//! (1024², 2 km × 2 km) against variable-radius Bridson making the same number of points, runs
//! interleaved so that both see the same machine load. Prints the scatter's split (sampling,
//! lifting, writing the instance arrays as the glTF buffer holds them) and the median ratio.
//!
//! `cargo bench -p poisson-nd-benches --bench scatter_timing -- [runs]` (default 3).

use poisson_nd::field::{DensityField, DensityMapping, GriddedField};
use poisson_nd::scatter::{PlacementRules, Pose, Scatter, ScatterClass, Terrain};
use poisson_nd::{Bridson, Domain, Error, FillSampler};
use std::time::Instant;

const SIZE: f64 = 2000.0;

/// Hills quantised to 16 bits, as a 16-bit PNG would give them.
fn heightmap(n: usize) -> Vec<f64> {
    let mut rows = Vec::with_capacity(n * n);
    for row in 0..n {
        for col in 0..n {
            let (u, v) = ((col as f64 + 0.5) / n as f64, 1.0 - (row as f64 + 0.5) / n as f64);
            let h =
                0.5 + 0.3 * (5.0 * u).sin() * (4.0 * v).cos() + 0.1 * (23.0 * u + 17.0 * v).sin();
            rows.push((h.clamp(0.0, 1.0) * 65535.0).round() / 65535.0);
        }
    }
    rows
}

/// Wetness: a gradient west to east with a wave.
fn wetness(domain: &Domain<2>, n: usize) -> Result<GriddedField<2>, Error> {
    let rows = (0..n * n)
        .map(|k| {
            let (col, row) = (k % n, k / n);
            let u = (col as f64 + 0.5) / n as f64;
            (0.5 + 0.4 * (6.0 * u).sin() * (row as f64 / n as f64 * 3.0).cos()).clamp(0.0, 1.0)
        })
        .collect();
    GriddedField::from_image_rows(domain, n, n, rows)
}

fn scatter(domain: &Domain<2>) -> Result<Scatter, Error> {
    let terrain = Terrain::from_image_rows(1024, 1024, heightmap(1024), [SIZE, SIZE], 120.0)?;
    let trees = DensityField::from_image(wetness(domain, 256)?, DensityMapping::Lerp, 1.6, 3.2)?;
    Scatter::builder(terrain)
        .with_class(
            ScatterClass::from_field("tree", trees)?
                .with_rules(PlacementRules::new().with_slope(0.0, 35.0)?)
                .with_pose(Pose::new(0.0, 0.8, 1.3)?),
        )
        .with_class(
            ScatterClass::new("rock", 1.4)?
                .with_rules(PlacementRules::new().with_slope(5.0, 90.0)?)
                .with_pose(Pose::new(1.0, 0.5, 1.5)?),
        )
        .with_class(
            ScatterClass::new("shrub", 0.9)?
                .with_rules(PlacementRules::new().with_slope_radius(0.5)?)
                .with_pose(Pose::new(0.3, 0.6, 1.1)?),
        )
        .build()
}

/// The instance arrays as the glTF buffer stores them: 10 floats per instance.
fn write_buffer(instances: &[poisson_nd::scatter::Instance]) -> Vec<u8> {
    let mut out = Vec::with_capacity(instances.len() * 40);
    for inst in instances {
        let [x, y, z] = inst.position;
        let [qx, qy, qz, qw] = inst.rotation;
        let s = inst.scale;
        for v in [x, y, -z, -qx, -qy, qz, qw, s, s, s] {
            out.extend_from_slice(&(v as f32).to_le_bytes());
        }
    }
    out
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn main() -> Result<(), Error> {
    // `cargo bench` appends `--bench`.
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3).max(1);
    let domain = Domain::from_origin_and_extent([0.0, 0.0], [SIZE, SIZE])?;
    let scatter = scatter(&domain)?;
    let count = scatter.sample(1)?.len();
    // Variable-radius Bridson sized for the same count: radii [a, 2a] from the same wetness
    // map, `a` rescaled once from a first run.
    let bridson = |a: f64| -> Result<Bridson<2>, Error> {
        let field =
            DensityField::from_image(wetness(&domain, 256)?, DensityMapping::Lerp, a, 2.0 * a)?;
        Bridson::builder_with_field(domain, field).build()
    };
    let guess = 1.0;
    let got = bridson(guess)?.fill_seeded(1).len();
    let a = guess * (got as f64 / count as f64).sqrt();
    let reference = bridson(a)?;
    println!(
        "scatter: {count} instances; bridson: {} points (radii [{a:.3}, {:.3}])",
        reference.fill_seeded(1).len(),
        2.0 * a
    );
    let (mut ratios, mut splits) = (Vec::new(), Vec::new());
    for run in 0..runs {
        let seed = run as u64 + 1;
        let start = Instant::now();
        let set = reference.fill_seeded(seed);
        let plain = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let points = scatter.sample(seed)?;
        let sampled = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let instances = scatter.lift(&points, seed);
        let lifted = start.elapsed().as_secs_f64();
        let start = Instant::now();
        let bytes = write_buffer(&instances);
        let written = start.elapsed().as_secs_f64();
        std::hint::black_box((set.len(), bytes.len()));
        println!(
            "run {run}: bridson {plain:.3} s; scatter sampled {sampled:.3} s, lifted {lifted:.3} s, \
             written {written:.3} s; (sampled + lifted) / bridson = {:.2}",
            (sampled + lifted) / plain
        );
        ratios.push((sampled + lifted) / plain);
        splits.push(sampled / plain);
    }
    println!(
        "median: scatter / bridson {:.2} (sampling alone {:.2})",
        median(ratios),
        median(splits)
    );
    Ok(())
}
