//! Times the planar optimisers and measures what their iterations buy: farthest-point
//! optimisation (FPO) at 1024 points after a growing number of moves, then FPO and Lloyd
//! relaxation at 4096 points, with δX and δ̄X (the minimum and mean nearest-neighbour
//! distances over the hexagonal packing's) of each result.
//!
//! `cargo bench -p poisson-nd-benches --bench optimiser_timing` (docs/performance.md).

use poisson_nd::{Domain, Fpo, FpoOptimizer, Lloyd, Point, Sampler, WhiteNoise};
use std::time::Instant;
use testkit::oracle::brute_nn;

/// δX and δ̄X of `points` in `domain`.
fn relative_radii(domain: &Domain<2>, points: &[Point<2>]) -> (f64, f64) {
    let nn = brute_nn(points, domain);
    let hex = (2.0 * domain.volume() / (3f64.sqrt() * points.len() as f64)).sqrt();
    let min = nn.iter().copied().fold(f64::INFINITY, f64::min);
    let mean = nn.iter().sum::<f64>() / nn.len() as f64;
    (min / hex, mean / hex)
}

/// The median of three runs of `run`, the runs' times, and the last result.
fn median_of_three<T>(mut run: impl FnMut() -> T) -> (f64, Vec<f64>, T) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..3 {
        let start = Instant::now();
        last = Some(run());
        times.push(start.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    (times[1], times, last.expect("three runs"))
}

fn main() -> Result<(), poisson_nd::Error> {
    let domain = Domain::<2>::unit().periodic();
    let n = 1024;
    let checkpoints =
        [256u64, 512, 1024, 2048, 4 * 1024, 8 * 1024, 16 * 1024, 32 * 1024, 63 * 1024];
    let seeds = 5;
    let mut sums = vec![(0.0, 0.0); checkpoints.len()];
    for seed in 0..seeds {
        let start = WhiteNoise::new(domain).sample_seeded(n, 100 + seed).points;
        let mut optimizer = FpoOptimizer::new(domain, start)?;
        for (k, &moves) in checkpoints.iter().enumerate() {
            optimizer.run_moves(moves - optimizer.moves());
            let (dx, mean) = relative_radii(&domain, optimizer.points());
            sums[k].0 += dx;
            sums[k].1 += mean;
        }
    }
    for (k, &moves) in checkpoints.iter().enumerate() {
        println!(
            "FPO N=1024 after {:6.3} iterations: δX {:.4} δ̄X {:.4}",
            moves as f64 / n as f64,
            sums[k].0 / seeds as f64,
            sums[k].1 / seeds as f64
        );
    }
    let fpo = Fpo::builder(domain).with_iterations(60).build()?;
    let (median, times, set) = median_of_three(|| fpo.sample_seeded(4096, 1));
    let (dx, mean) = relative_radii(&domain, &set.points);
    println!("FPO N=4096 x 60: median {median:.3} s (runs {times:.3?}), δX {dx:.4} δ̄X {mean:.4}");
    let lloyd = Lloyd::new(domain)?;
    let (median, times, set) = median_of_three(|| lloyd.sample_seeded(4096, 1));
    let (dx, mean) = relative_radii(&domain, &set.points);
    println!("Lloyd N=4096 x 50: median {median:.3} s (runs {times:.3?}), δX {dx:.4} δ̄X {mean:.4}");
    Ok(())
}
