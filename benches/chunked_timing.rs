//! Times `ChunkedBridson` on 1 and 2 threads against plain Bridson for about the same number of
//! points, runs interleaved so that every side sees the same machine load. Prints each run
//! and the medians, with the ratios the performance targets are stated in.
//!
//! `cargo bench -p poisson-nd-benches --bench chunked_timing -- [dim] [points] [runs] [side]`
//! (`side`: the chunk side in radii).
//! Defaults: 2D, 10^6 points, 5 runs, the default chunk side.

use poisson_nd::chunked::default_chunk_side;
use poisson_nd::packing::unit_ball_volume;
use poisson_nd::{Bridson, ChunkedBridson, Domain, FillSampler, Sampler};
use std::time::Instant;

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let m = xs.len() / 2;
    if xs.len() % 2 == 1 { xs[m] } else { 0.5 * (xs[m - 1] + xs[m]) }
}

/// Seconds and points of one filled run.
fn time<const D: usize>(sampler: &impl FillSampler<D>, seed: u64) -> (f64, usize) {
    let start = Instant::now();
    let n = sampler.fill_seeded(seed).len();
    (start.elapsed().as_secs_f64(), n)
}

fn run<const D: usize>(points: f64, runs: usize, side_in_radii: Option<f64>) {
    // The fraction of the packing bound 1/(V_D (r/2)^D) that Bridson's fills reach (measured),
    // so that the count lands near `points`.
    let fraction = [0.0, 0.9, 0.484, 0.306, 0.5][D.min(4)];
    let r = 2.0 * (fraction / (points * unit_ball_volume(D))).powf(1.0 / D as f64);
    let domain = Domain::<D>::unit();
    let side = side_in_radii.map_or(default_chunk_side(D, r), |k| k * r);
    let plain = Bridson::new(domain, r).unwrap();
    let one = ChunkedBridson::builder(domain, r).with_chunk_side(side).with_threads(1).build();
    let two = ChunkedBridson::builder(domain, r).with_chunk_side(side).with_threads(2).build();
    let (one, two) = (one.unwrap(), two.unwrap());
    println!("{D}D, r = {r:.3e}, chunk side {:.1} r", one.chunk_side()[0] / r);
    let (mut tp, mut t1, mut t2) = (Vec::new(), Vec::new(), Vec::new());
    for seed in 0..runs as u64 {
        let (a, na) = time(&plain, seed);
        let (b, nb) = time(&one, seed);
        let (c, nc) = time(&two, seed);
        println!(
            "run {seed}: bridson {a:.3} s ({na}), chunked 1 thread {b:.3} s ({nb}), \
             2 threads {c:.3} s ({nc})"
        );
        tp.push(a / na as f64);
        t1.push(b / nb as f64);
        t2.push(c / nc as f64);
    }
    let (p, a, b) = (median(tp), median(t1), median(t2));
    println!(
        "medians per point: bridson {:.3} µs, chunked 1 thread {:.3} µs ({:.2}× bridson), \
         2 threads {:.3} µs (speed-up {:.2}×)",
        p * 1e6,
        a * 1e6,
        a / p,
        b * 1e6,
        a / b
    );
    let _ = plain.name();
}

fn main() {
    // `cargo bench` appends `--bench`.
    let args: Vec<String> = std::env::args().filter(|a| a != "--bench").collect();
    let dim: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2);
    let points: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1e6);
    let runs: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(5);
    let side: Option<f64> = args.get(4).and_then(|s| s.parse().ok());
    match dim {
        2 => run::<2>(points, runs, side),
        3 => run::<3>(points, runs, side),
        _ => eprintln!("dimension 2 or 3"),
    }
}
