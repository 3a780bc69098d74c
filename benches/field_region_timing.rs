//! Times Bridson with a radius field against constant-radius Bridson at `rmin`, and Bridson in
//! a 1,000-vertex polygon against Bridson in the box, runs interleaved so that both sides of
//! each pair see the same machine load. Prints each run and the median time per point.
//!
//! `cargo bench -p poisson-nd-benches --bench field_region_timing -- [case] [runs]`, `case`
//! one of:
//! - `field-2d-4`, `field-2d-16`: a linear density gradient along axis 0 of the unit square
//!   (256² grid, `lerp`, `max` rule) with rmax/rmin = 4 or 16, about 10^6 points, against
//!   constant Bridson at `rmin` in a square sized for about 10^6 points too;
//! - `field-3d-4`: the same in the unit cube (64³ grid), ratio 4;
//! - `polygon`: r = 0.001 in the unit square, a wavy 1,000-vertex ring against the whole box.
//!
//! Defaults: `field-2d-4`, 5 runs.

use poisson_nd::field::{DensityField, DensityMapping, GriddedField};
use poisson_nd::region::Polygons;
use poisson_nd::{Bridson, Domain, FillSampler};
use std::time::Instant;

/// Density 1 at the low end of axis 0, falling linearly to 0 at the high end.
fn gradient<const D: usize>(
    domain: &Domain<D>,
    shape: [usize; D],
    rmin: f64,
    rmax: f64,
) -> Result<DensityField<D>, poisson_nd::Error> {
    let stride: usize = shape[1..].iter().product();
    let values = (0..shape.iter().product())
        .map(|k: usize| 1.0 - ((k / stride) as f64 + 0.5) / shape[0] as f64)
        .collect();
    let grid = GriddedField::new(domain, shape, values)?;
    DensityField::new(grid, DensityMapping::Lerp, rmin, rmax)
}

/// A wavy ring of `n` vertices around the centre of the unit square: radius
/// 0.4 (1 + 0.1 sin 7θ).
fn wavy_polygon(n: usize) -> Result<Polygons, poisson_nd::Error> {
    let ring: Vec<[f64; 2]> = (0..n)
        .map(|j| {
            let t = j as f64 * std::f64::consts::TAU / n as f64;
            let rho = 0.4 * (1.0 + 0.1 * (7.0 * t).sin());
            [0.5 + rho * t.cos(), 0.5 + rho * t.sin()]
        })
        .collect();
    Polygons::new(&[vec![ring]])
}

/// Microseconds per point of one filled run, and the points.
fn per_point<const D: usize>(sampler: &Bridson<D>, seed: u64) -> (f64, usize) {
    let start = Instant::now();
    let n = sampler.fill_seeded(seed).len();
    (start.elapsed().as_secs_f64() * 1e6 / n as f64, n)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let m = xs.len() / 2;
    if xs.len() % 2 == 1 { xs[m] } else { 0.5 * (xs[m - 1] + xs[m]) }
}

/// Runs the pair `runs` times, interleaved, and prints the medians and their ratio.
fn compare<const D: usize>(label: [&str; 2], a: &Bridson<D>, b: &Bridson<D>, runs: u64) {
    let (mut ta, mut tb) = (Vec::new(), Vec::new());
    for seed in 1..=runs {
        let (x, nx) = per_point(a, seed);
        let (y, ny) = per_point(b, seed);
        println!(
            "seed {seed}: {} {x:.3} µs/pt ({nx} pts), {} {y:.3} µs/pt ({ny} pts)",
            label[0], label[1]
        );
        ta.push(x);
        tb.push(y);
    }
    let (ma, mb) = (median(ta), median(tb));
    println!(
        "median: {} {ma:.3} µs/pt, {} {mb:.3} µs/pt; {} runs at {:.2}× the speed of {}",
        label[0],
        label[1],
        label[0],
        mb / ma,
        label[1]
    );
}

fn main() -> Result<(), poisson_nd::Error> {
    // `cargo bench` appends `--bench`.
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let case = args.next().unwrap_or_else(|| "field-2d-4".into());
    let runs: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    match case.as_str() {
        "field-2d-4" | "field-2d-16" => {
            // rmin for about 10^6 points over the gradient; the constant square holds as many.
            let (ratio, rmin, side) =
                if case == "field-2d-4" { (4.0, 3.92e-4, 0.477) } else { (16.0, 1.96e-4, 0.238) };
            let unit = Domain::<2>::unit();
            let field =
                Bridson::builder_with_field(unit, gradient(&unit, [256, 256], rmin, ratio * rmin)?)
                    .build()?;
            let square = Domain::from_origin_and_extent([0.0; 2], [side; 2])?;
            compare(["field", "constant"], &field, &Bridson::new(square, rmin)?, runs);
        }
        "field-3d-4" => {
            let (ratio, rmin, side) = (4.0, 4.48e-3, 0.536);
            let unit = Domain::<3>::unit();
            let field = Bridson::builder_with_field(
                unit,
                gradient(&unit, [64, 64, 64], rmin, ratio * rmin)?,
            )
            .build()?;
            let cube = Domain::from_origin_and_extent([0.0; 3], [side; 3])?;
            compare(["field", "constant"], &field, &Bridson::new(cube, rmin)?, runs);
        }
        "polygon" => {
            let unit = Domain::<2>::unit();
            let polygon = Bridson::builder(unit, 0.001).with_region(wavy_polygon(1000)?).build()?;
            compare(["polygon", "box"], &polygon, &Bridson::new(unit, 0.001)?, runs);
        }
        other => eprintln!("unknown case {other}: field-2d-4, field-2d-16, field-3d-4 or polygon"),
    }
    Ok(())
}
