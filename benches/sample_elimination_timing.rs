//! Times `SampleElimination` in the 2D unit torus: `n` points from `ratio · n` candidates.
//!
//! `cargo bench -p poisson-nd-benches --bench sample_elimination_timing -- [n] [ratio]`
//! (defaults 1000000, 5).

use poisson_nd::{Domain, SampleElimination, Sampler};
use std::time::Instant;

fn main() -> Result<(), poisson_nd::Error> {
    // `cargo bench` appends `--bench`.
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let ratio: f64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(5.0);
    let sampler =
        SampleElimination::builder(Domain::<2>::unit().periodic()).with_ratio(ratio).build()?;
    let start = Instant::now();
    let set = sampler.sample_seeded(n, 1);
    println!(
        "{} points from {} candidates in {:.2} s",
        set.len(),
        set.attempts,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
