//! Times `Maximal` against `Bridson` at the same radius in the 2D unit square, runs
//! interleaved so that both see the same machine load.
//!
//! `cargo bench -p poisson-nd-benches --bench maximal_timing -- [radius] [runs]` (defaults
//! 0.00079, 3).

use poisson_nd::{Bridson, Domain, Maximal, Sampler};
use std::time::Instant;

fn main() -> Result<(), poisson_nd::Error> {
    // `cargo bench` appends `--bench`.
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let radius: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(0.00079);
    let runs: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let domain = Domain::<2>::unit();
    let maximal = Maximal::new(domain, radius)?;
    let bridson = Bridson::new(domain, radius)?;
    let packing = |n: usize| n as f64 * std::f64::consts::PI * (radius / 2.0).powi(2);
    println!("r = {radius}, {} level-0 cells", maximal.cell_count());
    for seed in 0..runs {
        let start = Instant::now();
        let set = maximal.sample_seeded(usize::MAX, seed);
        let t_maximal = start.elapsed().as_secs_f64();
        println!(
            "maximal seed {seed}: {:.3} s, {} points (packing {:.4}), {} darts, {}",
            t_maximal,
            set.len(),
            packing(set.len()),
            set.attempts,
            set.stop
        );
        let start = Instant::now();
        let set = bridson.sample_seeded(usize::MAX, seed);
        let t_bridson = start.elapsed().as_secs_f64();
        println!(
            "bridson seed {seed}: {:.3} s, {} points (packing {:.4}); ratio {:.2}",
            t_bridson,
            set.len(),
            packing(set.len()),
            t_maximal / t_bridson
        );
    }
    Ok(())
}
