//! Criterion benchmarks: every sampler × D ∈ {2, 3, 4} × two sizes, reported as points per
//! second (`Throughput::Elements` = points produced), plus Bridson's grid resolutions in 5D
//! and 6D.
//!
//! Run with `cargo bench` (all) or `cargo bench -- bridson` (a filter). One sampling run is one
//! iteration, always with the same seed, so every iteration does the same work. Sizes are
//! nominal: radius-driven samplers (those that promise a minimum distance) fill the unit box at
//! a radius chosen to give about that many Bridson points; count-driven samplers draw exactly
//! the nominal count. The throughput is the number of points the benchmarked run produces.
//!
//! The peer comparison (other crates, peak memory, ρ_rel) is a separate program in `peers/`;
//! see docs/performance.md.

use criterion::{
    BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput, measurement::WallTime,
};
use criterion::{criterion_group, criterion_main};
use poisson_nd::{
    BestCandidate, Bridson, DartThrowing, Domain, GridResolution, Halton, JitteredGrid, Sampler,
    WhiteNoise,
};
use std::hint::black_box;
use std::time::Duration;

/// The seed of every benchmarked run.
const SEED: u64 = 1;

/// Binds `$s` to each sampler in turn, built for `$domain` and `$radius`, and evaluates
/// `$body` for it, provided the nominal size `$n` is at most the sampler's cap.
///
/// **Adding a sampler is one line here**: `@one $n, CAP, $s, $body, CONSTRUCTOR`, where CAP is
/// the largest nominal size worth timing (`usize::MAX` for none; quadratic samplers such as
/// dart throwing would give `10_000`).
/// Samplers are used by their concrete type, so the generator is not behind a `dyn` call.
macro_rules! each_sampler {
    ($domain:expr, $radius:expr, $n:expr, |$s:ident| $body:expr) => {{
        each_sampler!(@one $n, usize::MAX, $s, $body, Bridson::new($domain, $radius).expect("radius in range"));
        // Quadratic: 10k points only, and a stop after 1,000 misses in a row (not the default
        // 10,000) so that one run takes about a second.
        each_sampler!(@one $n, 10_000, $s, $body, DartThrowing::builder($domain, $radius)
            .with_max_misses(1_000).build().expect("radius in range"));
        each_sampler!(@one $n, usize::MAX, $s, $body, DartThrowing::builder($domain, $radius)
            .with_max_misses(1_000)
            .with_grid(GridResolution::Coarse).build().expect("radius in range"));
        each_sampler!(@one $n, usize::MAX, $s, $body, BestCandidate::new($domain));
        each_sampler!(@one $n, usize::MAX, $s, $body, Halton::new($domain).expect("D ≤ 64"));
        each_sampler!(@one $n, usize::MAX, $s, $body, Halton::new($domain).expect("D ≤ 64").randomized());
        each_sampler!(@one $n, usize::MAX, $s, $body, JitteredGrid::new($domain));
        each_sampler!(@one $n, usize::MAX, $s, $body, WhiteNoise::new($domain));
    }};
    (@one $n:expr, $cap:expr, $s:ident, $body:expr, $make:expr) => {
        if $n <= $cap {
            let $s = $make;
            $body;
        }
    };
}

/// A benchmark size: a label, the nominal number of points, and Bridson's radius (k = 30) in
/// the unit box that gives about that many.
#[derive(Debug, Clone, Copy)]
struct Size {
    label: &'static str,
    points: usize,
    radius: f64,
}

/// Sizes per dimension. The radii were calibrated with the default Bridson (k = 30, seed 1):
/// `N ≈ c_D / r^D` with c_2 ≈ 0.62, c_3 ≈ 0.59, c_4 ≈ 0.62 in the unit box.
fn sizes(dim: usize) -> &'static [Size] {
    const D2: &[Size] = &[
        Size { label: "10k", points: 10_000, radius: 0.0079 },
        Size { label: "100k", points: 100_000, radius: 0.0025 },
    ];
    const D3: &[Size] = &[
        Size { label: "10k", points: 10_000, radius: 0.039 },
        Size { label: "100k", points: 100_000, radius: 0.0181 },
    ];
    const D4: &[Size] = &[
        Size { label: "10k", points: 10_000, radius: 0.0888 },
        Size { label: "100k", points: 100_000, radius: 0.050 },
    ];
    match dim {
        2 => D2,
        3 => D3,
        _ => D4,
    }
}

/// Short runs: ten samples, flat sampling (every sample has the same iteration count, which
/// suits iterations of many milliseconds), one second of warm-up, three of measurement.
fn configure(group: &mut BenchmarkGroup<'_, WallTime>) {
    group.sample_size(10).sampling_mode(SamplingMode::Flat);
    group.warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
}

/// Times one sampler at one size, with the throughput set to the points it produces.
fn bench_one<const D: usize, S: Sampler<D>>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    sampler: &S,
    size: &Size,
) {
    // Radius-driven samplers fill the box; count-driven ones draw the nominal count.
    let n = if sampler.min_distance().is_some() { usize::MAX } else { size.points };
    let produced = sampler.sample_seeded(n, SEED).len();
    group.throughput(Throughput::Elements(produced as u64));
    group.bench_with_input(BenchmarkId::new(sampler.label(), size.label), &n, |b, &n| {
        b.iter(|| sampler.sample_seeded(black_box(n), black_box(SEED)))
    });
}

/// Every sampler at every size in `D` dimensions.
fn samplers_in<const D: usize>(c: &mut Criterion) {
    let domain = Domain::<D>::unit();
    let mut group = c.benchmark_group(format!("sample/{D}d"));
    configure(&mut group);
    for size in sizes(D) {
        each_sampler!(domain, size.radius, size.points, |s| bench_one(&mut group, &s, size));
    }
    group.finish();
}

fn samplers(c: &mut Criterion) {
    samplers_in::<2>(c);
    samplers_in::<3>(c);
    samplers_in::<4>(c);
}

/// Bridson with fine cells (side r/√D, pruned ⌈√D⌉ reach) against coarse cells (side r, 3^D)
/// in 5D and 6D, where the default switches to coarse. Both give identical points.
fn grid_resolution_in<const D: usize>(c: &mut Criterion, radius: f64) {
    let domain = Domain::<D>::unit();
    let mut group = c.benchmark_group(format!("bridson-grid/{D}d"));
    configure(&mut group);
    for (label, resolution) in [("fine", GridResolution::Fine), ("coarse", GridResolution::Coarse)]
    {
        let sampler = Bridson::builder(domain, radius)
            .with_grid(resolution)
            .build()
            .expect("radius in range");
        let produced = sampler.sample_seeded(usize::MAX, SEED).len();
        group.throughput(Throughput::Elements(produced as u64));
        group.bench_function(BenchmarkId::new(label, format!("r={radius}")), |b| {
            b.iter(|| sampler.sample_seeded(black_box(usize::MAX), black_box(SEED)))
        });
    }
    group.finish();
}

fn grid_resolution(c: &mut Criterion) {
    // About 10k points in 5D and 6k in 6D, where the fine grid's 28,197-cell neighbourhood
    // makes one run take about a second.
    grid_resolution_in::<5>(c, 0.15);
    grid_resolution_in::<6>(c, 0.23);
}

criterion_group!(benches, samplers, grid_resolution);
criterion_main!(benches);
