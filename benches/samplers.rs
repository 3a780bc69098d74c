//! Criterion benchmarks: every sampler of the specification × D ∈ {2, 3, 4} × two sizes,
//! reported as points per second (`Throughput::Elements` = points produced), plus Bridson's
//! grid resolutions in 5D and 6D.
//!
//! Run with `cargo bench -p poisson-nd-benches --bench samplers` (all) or
//! `cargo bench -p poisson-nd-benches --bench samplers -- bridson` (a filter). One sampling
//! run is one iteration, always with the same seed, so every iteration does the same work.
//! Sizes are nominal: radius-driven samplers fill the unit box at a radius chosen to give about
//! that many Bridson points; count-driven samplers draw exactly the nominal count. The
//! throughput is the number of points the benchmarked run produces.
//!
//! `sequences` times a million Owen-scrambled Sobol points in 8D and a million PMJ02 points
//! in 2D.
//!
//! `region/2d` times Bridson in the unit box against Bridson in a polygon of 1,000 vertices
//! (points per second of each; the region's cost per accepted point is the ratio).
//!
//! The peer comparison (other crates, peak memory, ρ_rel) is a separate program in `peers/`;
//! see docs/performance.md.
//!
//! `chunked-bridson/2d` times Bridson against the chunked Bridson on one and on two threads,
//! filling the same box at the same radius (the points of the two chunked runs are the same).
//!
//! `radius-field/*` times Bridson with a radius field (a density gradient mapped to radii)
//! next to constant-radius Bridson at the field's rmin in the same box: the points/s of each
//! pair is what the targets compare (docs/algorithms.md, "Variable radius").

use criterion::{
    BenchmarkGroup, BenchmarkId, Criterion, SamplingMode, Throughput, measurement::WallTime,
};
use criterion::{criterion_group, criterion_main};
use experiments::dims::Dim;
use experiments::spec::{
    BestCandidateParams, BridsonParams, BuildIn, ChunkedBridsonParams, DartThrowingParams,
    GaussianBlueNoiseParams, HaltonParams, IterationParams, NoParams, SampleEliminationParams,
    SamplerSpec, SequenceParams,
};
use poisson_nd::field::{DensityField, DensityMapping, GriddedField, PairRule};

use poisson_nd::region::Polygons;
use poisson_nd::{Bridson, Domain, FillSampler, GridResolution};
use std::hint::black_box;
use std::time::Duration;

/// The seed of every benchmarked run.
const SEED: u64 = 1;

/// Every sampler benchmarked, with the largest nominal size worth timing (`usize::MAX` for
/// none). **Adding a sampler is one line here.**
fn samplers() -> Vec<(SamplerSpec, usize)> {
    // Dart throwing stops after 1,000 misses in a row (not the default 10,000) so that one
    // run takes about a second; the naive search is quadratic, so 10k points only.
    let darts = DartThrowingParams { max_misses: Some(1_000) };
    vec![
        (SamplerSpec::Bridson(BridsonParams::default()), usize::MAX),
        (SamplerSpec::ChunkedBridson(ChunkedBridsonParams::default()), usize::MAX),
        (SamplerSpec::DartThrowing(darts.clone()), 10_000),
        (SamplerSpec::DartThrowingGrid(darts), usize::MAX),
        (SamplerSpec::Maximal(NoParams {}), usize::MAX),
        (SamplerSpec::BestCandidate(BestCandidateParams::default()), usize::MAX),
        (SamplerSpec::SampleElimination(SampleEliminationParams::default()), usize::MAX),
        (SamplerSpec::Halton(HaltonParams::default()), usize::MAX),
        (SamplerSpec::HaltonRandomized(HaltonParams::default()), usize::MAX),
        (SamplerSpec::Sobol(SequenceParams::default()), usize::MAX),
        (SamplerSpec::SobolOwen(SequenceParams::default()), usize::MAX),
        (SamplerSpec::Pmj02(SequenceParams::default()), usize::MAX),
        (SamplerSpec::JitteredGrid(NoParams {}), usize::MAX),
        (SamplerSpec::WhiteNoise(NoParams {}), usize::MAX),
        // The optimisers (tens of passes over the points) have a group of their own.
    ]
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

/// Times one sampler at one size (its radius, for radius-driven samplers), with the
/// throughput set to the points it produces.
fn bench_one<const D: usize>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    spec: &SamplerSpec,
    id: BenchmarkId,
    radius: f64,
    n: Option<usize>,
) where
    Dim<D>: BuildIn<D>,
{
    let domain = experiments::domains::unit::<D>(false);
    let sampler = spec.build(domain, Some(radius), None).expect("radius in range");
    // Radius-driven samplers fill the box; count-driven ones draw the nominal count.
    let n = if spec.is_radius_driven() { None } else { n };
    let produced = sampler.run(n, SEED).len();
    group.throughput(Throughput::Elements(produced as u64));
    group.bench_with_input(id, &n, |b, &n| b.iter(|| sampler.run(black_box(n), black_box(SEED))));
}

/// Every sampler at every size in `D` dimensions.
fn samplers_in<const D: usize>(c: &mut Criterion)
where
    Dim<D>: BuildIn<D>,
{
    let mut group = c.benchmark_group(format!("sample/{D}d"));
    configure(&mut group);
    for size in sizes(D) {
        for (spec, cap) in samplers() {
            if size.points <= cap && experiments::report::runs_in(&spec, D) {
                let id = BenchmarkId::new(spec.name(), size.label);
                bench_one::<D>(&mut group, &spec, id, size.radius, Some(size.points));
            }
        }
    }
    group.finish();
}

/// A million Owen-scrambled Sobol points in 8D (the target: under 0.2 s), and a million
/// PMJ02 points in 2D.
fn sequences(c: &mut Criterion) {
    let mut group = c.benchmark_group("sequences");
    configure(&mut group);
    bench_one::<8>(
        &mut group,
        &SamplerSpec::SobolOwen(SequenceParams::default()),
        BenchmarkId::new("sobol-owen", "8d-1M"),
        1.0,
        Some(1_000_000),
    );
    bench_one::<2>(
        &mut group,
        &SamplerSpec::Pmj02(SequenceParams::default()),
        BenchmarkId::new("pmj02", "2d-1M"),
        1.0,
        Some(1_000_000),
    );
    group.finish();
}

/// The optimisers at the point count of the literature's tables, 4096 in the periodic unit
/// square, with their defaults (the target for FPO: under 2 s).
fn optimisers(c: &mut Criterion) {
    let mut group = c.benchmark_group("optimisers");
    configure(&mut group);
    let domain = experiments::domains::unit::<2>(true);
    for spec in [
        SamplerSpec::Fpo(IterationParams::default()),
        SamplerSpec::Lloyd(IterationParams::default()),
        SamplerSpec::GaussianBlueNoise(GaussianBlueNoiseParams::default()),
    ] {
        let sampler = spec.build(domain, None, None).expect("valid");
        group.throughput(Throughput::Elements(4096));
        group.bench_function(BenchmarkId::new(spec.name(), "2d-4096-periodic"), |b| {
            b.iter(|| sampler.run(black_box(Some(4096)), black_box(SEED)))
        });
    }
    group.finish();
}

fn all_samplers(c: &mut Criterion) {
    samplers_in::<2>(c);
    samplers_in::<3>(c);
    samplers_in::<4>(c);
}

/// Bridson with fine cells (side r/√D, pruned ⌈√D⌉ reach) against coarse cells (side r, 3^D)
/// in 5D and 6D, where the default switches to coarse. Both give identical points.
fn grid_resolution_in<const D: usize>(c: &mut Criterion, radius: f64)
where
    Dim<D>: BuildIn<D>,
{
    let mut group = c.benchmark_group(format!("bridson-grid/{D}d"));
    configure(&mut group);
    for (label, grid) in [("fine", GridResolution::Fine), ("coarse", GridResolution::Coarse)] {
        let spec = SamplerSpec::Bridson(BridsonParams { k: None, grid: Some(grid) });
        let id = BenchmarkId::new(label, format!("r={radius}"));
        bench_one::<D>(&mut group, &spec, id, radius, None);
    }
    group.finish();
}

fn grid_resolution(c: &mut Criterion) {
    // About 10k points in 5D and 6k in 6D, where the fine grid's 28,197-cell neighbourhood
    // makes one run take about a second.
    grid_resolution_in::<5>(c, 0.15);
    grid_resolution_in::<6>(c, 0.23);
}

/// Bridson and the chunked Bridson on 1 and 2 threads, each filling the unit square at the
/// 100k size's radius (about 100,000 points; 13 × 13 chunks of the default side, 32 r).
fn chunked_threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("chunked-bridson/2d");
    configure(&mut group);
    let size = sizes(2)[1];
    let chunked = |threads| {
        SamplerSpec::ChunkedBridson(ChunkedBridsonParams {
            threads: Some(threads),
            ..ChunkedBridsonParams::default()
        })
    };
    for (label, spec) in [
        ("bridson", SamplerSpec::Bridson(BridsonParams::default())),
        ("chunked-1-thread", chunked(1)),
        ("chunked-2-threads", chunked(2)),
    ] {
        let id = BenchmarkId::new(label, size.label);
        bench_one::<2>(&mut group, &spec, id, size.radius, None);
    }
    group.finish();
}

/// Times one filled Bridson run per iteration, with the throughput set to its points.
fn bench_bridson<const D: usize>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    id: BenchmarkId,
    sampler: &Bridson<D>,
) {
    let produced = sampler.fill_seeded(SEED).len();
    group.throughput(Throughput::Elements(produced as u64));
    group.bench_function(id, |b| b.iter(|| sampler.fill_seeded(black_box(SEED))));
}

/// A gradient along axis 0 on a grid of `shape` over the unit box: density 0 at the first
/// column of centres, 1 at the last, mapped by lerp to radii in [rmin, rmax] (so the radius
/// falls linearly from rmax to rmin across the box).
fn gradient<const D: usize>(shape: [usize; D], rmin: f64, rmax: f64) -> DensityField<D> {
    let count: usize = shape.iter().product();
    let stride: usize = shape[1..].iter().product();
    let values = (0..count).map(|k| (k / stride) as f64 / (shape[0] - 1) as f64).collect();
    let grid = GriddedField::new(&Domain::unit(), shape, values).expect("valid grid");
    DensityField::new(grid, DensityMapping::Lerp, rmin, rmax).expect("valid density")
}

/// Bridson with a radius field against constant-radius Bridson at rmin, both filling the unit
/// box. rmin is chosen so that the field run makes about 10^5 points: with the radius falling
/// linearly from rmax to rmin, Bridson places about c_D ∫ r(x)^(−D) dx points (c_2 ≈ 0.62,
/// c_3 ≈ 0.59), i.e. 0.62/(rmin·rmax) in 2D and 0.59·(1 − 1/16)/(6 rmin³) for rmax = 4 rmin
/// in 3D. The 2D density is a 1024 × 1024 grid (an image's size), the 3D one 64³.
fn radius_fields(c: &mut Criterion) {
    let mut group = c.benchmark_group("radius-field/2d");
    configure(&mut group);
    for ratio in [4.0f64, 16.0] {
        let rmin = (0.62 / (ratio * 1e5)).sqrt();
        let domain = Domain::<2>::unit();
        let label = format!("ratio{ratio}");
        let constant = Bridson::new(domain, rmin).expect("radius in range");
        bench_bridson(&mut group, BenchmarkId::new("constant-rmin", &label), &constant);
        for rule in [PairRule::Max, PairRule::Mean] {
            let field = gradient([1024, 1024], rmin, ratio * rmin);
            let sampler = Bridson::builder_with_field(domain, field)
                .with_pair_rule(rule)
                .build()
                .expect("valid field");
            let id = BenchmarkId::new(format!("density-lerp-{rule}"), &label);
            bench_bridson(&mut group, id, &sampler);
        }
    }
    group.finish();

    let mut group = c.benchmark_group("radius-field/3d");
    configure(&mut group);
    let rmin = (0.59 * (1.0 - 1.0 / 16.0) / 6.0 / 1e5f64).cbrt();
    let domain = Domain::<3>::unit();
    let constant = Bridson::new(domain, rmin).expect("radius in range");
    bench_bridson(&mut group, BenchmarkId::new("constant-rmin", "ratio4"), &constant);
    let field = gradient([64, 64, 64], rmin, 4.0 * rmin);
    let sampler = Bridson::builder_with_field(domain, field).build().expect("valid field");
    bench_bridson(&mut group, BenchmarkId::new("density-lerp-max", "ratio4"), &sampler);
    group.finish();
}

/// A wavy ring of `n` vertices around the centre of the unit square, filling about half of
/// it: radius 0.4 (1 + 0.1 sin 7θ).
fn wavy_polygon(n: usize) -> Polygons {
    let ring: Vec<[f64; 2]> = (0..n)
        .map(|j| {
            let t = j as f64 * std::f64::consts::TAU / n as f64;
            let rho = 0.4 * (1.0 + 0.1 * (7.0 * t).sin());
            [0.5 + rho * t.cos(), 0.5 + rho * t.sin()]
        })
        .collect();
    Polygons::new(&[vec![ring]]).expect("a valid polygon")
}

/// Bridson in the unit box against Bridson in a 1,000-vertex polygon at the same radius
/// (about 100k and 50k points): the throughputs are points per second, so their ratio is the
/// region's cost per accepted point (target: at most 1.3×). The polygon is classified when
/// the sampler is built, outside the timed runs, as a user who samples a region repeatedly
/// would have it.
fn region_cost(c: &mut Criterion) {
    let mut group = c.benchmark_group("region/2d");
    configure(&mut group);
    let radius = 0.0025;
    let domain = Domain::<2>::unit();
    let in_box = Bridson::new(domain, radius).expect("radius in range");
    let in_polygon = Bridson::builder(domain, radius)
        .with_region(wavy_polygon(1_000))
        .build()
        .expect("radius in range");
    for (label, sampler) in [("bridson-box", in_box), ("bridson-polygon-1000", in_polygon)] {
        let produced = sampler.fill_seeded(SEED).len();
        group.throughput(Throughput::Elements(produced as u64));
        group.bench_function(BenchmarkId::new(label, "r=0.0025"), |b| {
            b.iter(|| sampler.fill_seeded(black_box(SEED)))
        });
    }
    group.finish();
}

/// A world scatter of three classes (a wetness field for the trees, a slope band for the
/// rocks, slope growth for the shrubs) over a 256² heightmap of 300 m × 300 m: about 10^5
/// instances, sampling and lifting (benches/scatter_timing.rs compares 10^6 with Bridson).
fn scatter_cost(c: &mut Criterion) {
    use poisson_nd::scatter::{PlacementRules, Pose, Scatter, ScatterClass, Terrain};
    let mut group = c.benchmark_group("scatter/2d");
    configure(&mut group);
    let size = 300.0;
    let n = 256;
    let rows: Vec<f64> = (0..n * n)
        .map(|k| {
            let (u, v) = ((k % n) as f64 / n as f64, (k / n) as f64 / n as f64);
            ((0.5 + 0.3 * (5.0 * u).sin() * (4.0 * v).cos()) * 65535.0).round() / 65535.0
        })
        .collect();
    let terrain = Terrain::from_image_rows(n, n, rows, [size, size], 60.0).expect("valid terrain");
    let domain = Domain::from_origin_and_extent([0.0, 0.0], [size, size]).expect("valid box");
    let wet: Vec<f64> = (0..64 * 64).map(|k| (k % 64) as f64 / 63.0).collect();
    let image = GriddedField::from_image_rows(&domain, 64, 64, wet).expect("valid image");
    let trees = DensityField::from_image(image, DensityMapping::Lerp, 1.6, 3.2).expect("valid");
    let scatter = Scatter::builder(terrain)
        .with_class(
            ScatterClass::from_field("tree", trees)
                .expect("valid class")
                .with_rules(PlacementRules::new().with_slope(0.0, 35.0).expect("valid rules")),
        )
        .with_class(
            ScatterClass::new("rock", 1.4)
                .expect("valid class")
                .with_rules(PlacementRules::new().with_slope(5.0, 90.0).expect("valid rules"))
                .with_pose(Pose::new(1.0, 0.5, 1.5).expect("valid pose")),
        )
        .with_class(
            ScatterClass::new("shrub", 0.9)
                .expect("valid class")
                .with_rules(PlacementRules::new().with_slope_radius(0.5).expect("valid rules")),
        )
        .build()
        .expect("valid scatter");
    let produced = scatter.sample(SEED).expect("valid fields").len();
    group.throughput(Throughput::Elements(produced as u64));
    group.bench_function(BenchmarkId::new("three-classes", "300m"), |b| {
        b.iter(|| {
            let points = scatter.sample(black_box(SEED)).expect("valid fields");
            scatter.lift(&points, SEED)
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    all_samplers,
    sequences,
    optimisers,
    chunked_threads,
    grid_resolution,
    radius_fields,
    region_cost,
    scatter_cost
);
criterion_main!(benches);
