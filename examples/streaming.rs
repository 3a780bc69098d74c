//! A viewer walks across an unbounded 2D chunked world and turns back: every step it loads the
//! chunks that came into view, drops those that left it, and checks what it holds.
//!
//! The world keeps a bounded cache of decided cells, so the walk shows what streaming costs:
//! per step the viewer's position, the chunks in view, the chunks newly loaded, the cells
//! decided and the cache hits this step (differences of `WorldStats`), the points held, and
//! the minimum distance over every pair of loaded points, found with a grid. The walk stops
//! with exit code 1 if that distance is below the radius, if a point lies outside its chunk,
//! or if a chunk loaded again (after the cache dropped its cells) differs in one bit from its
//! first load. At the end a fresh world is asked for the farthest chunk alone and must give
//! the same bits as the walk.
//!
//! ```text
//! cargo run --release --example streaming -- [--radius R] [--seed S] [--chunk-side L]
//!     [--view V] [--steps N] [--stride F] [--cache-cells C]
//! ```
//!
//! - `--radius R`: the Poisson-disk radius, from 1e-100 to 1e100 (default 1);
//! - `--seed S`: the world's seed (default 7);
//! - `--chunk-side L`: the chunk side in radii (default 32, the library's default);
//! - `--view V`: the viewer sees the chunks within `V` chunks of its own on each axis, a
//!   window of `(2V + 1)²` chunks (default 2);
//! - `--steps N`: steps of the walk, up to 10^6; it heads east for half of them and comes back
//!   (default 160);
//! - `--stride F`: how far the viewer moves per step, in chunks (default 0.25);
//! - `--cache-cells C`: the world's cache, in cells (default 400: less than the trail, so
//!   the way back finds some cells cached and decides the others again).
//!
//! A bad argument, or a walk that would go past 10^8 radii from the origin (where the chunk
//! engine's slack against rounding ends), is reported on one line with exit code 2.

use poisson_nd::Point;
use poisson_nd::chunked::{World, WorldStats};
use std::collections::{BTreeMap, HashMap};
use std::process::ExitCode;
use std::time::Instant;

/// The walk's settings, from the command line.
#[derive(Debug, Clone)]
struct Settings {
    radius: f64,
    seed: u64,
    chunk_side_in_radii: f64,
    view: i64,
    steps: usize,
    stride: f64,
    cache_cells: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            radius: 1.0,
            seed: 7,
            chunk_side_in_radii: 32.0,
            view: 2,
            steps: 160,
            stride: 0.25,
            cache_cells: 400,
        }
    }
}

/// `value` read as a `T` that passes `ok`.
fn parsed<T: std::str::FromStr>(value: &str, ok: impl Fn(&T) -> bool) -> Option<T> {
    value.parse().ok().filter(ok)
}

/// Reads `--name value` pairs; the error names the argument and what is wrong with it.
fn parse_settings(args: &[String]) -> Result<Settings, String> {
    let mut settings = Settings::default();
    let mut rest = args.iter();
    while let Some(name) = rest.next() {
        let value = rest.next().ok_or_else(|| format!("{name} needs a value"))?;
        let bad = |what: &str| format!("{name} {value}: expected {what}");
        match name.as_str() {
            "--radius" => {
                settings.radius = parsed(value, |r: &f64| (1e-100..=1e100).contains(r))
                    .ok_or_else(|| bad("a number from 1e-100 to 1e100"))?;
            }
            "--seed" => settings.seed = value.parse().map_err(|_| bad("an unsigned integer"))?,
            "--chunk-side" => {
                settings.chunk_side_in_radii = value.parse().map_err(|_| bad("a number"))?;
            }
            "--view" => {
                settings.view = parsed(value, |v| (0..=20).contains(v))
                    .ok_or_else(|| bad("an integer from 0 to 20"))?;
            }
            "--steps" => {
                settings.steps = parsed(value, |n| (1..=1_000_000).contains(n))
                    .ok_or_else(|| bad("an integer from 1 to 1000000"))?;
            }
            "--stride" => {
                settings.stride = parsed(value, |f: &f64| f.is_finite() && *f > 0.0 && *f <= 100.0)
                    .ok_or_else(|| bad("a number in (0, 100]"))?;
            }
            "--cache-cells" => {
                settings.cache_cells = value.parse().map_err(|_| bad("an unsigned integer"))?;
            }
            _ => {
                return Err(format!(
                    "unknown argument {name} (see the doc comment of streaming.rs)"
                ));
            }
        }
    }
    // The cells' thresholds keep their slack against rounding up to about 1e8 radii.
    let farthest = (settings.steps as f64 / 2.0 * settings.stride + settings.view as f64 + 2.0)
        * settings.chunk_side_in_radii;
    if farthest > 1e8 {
        return Err(format!(
            "the walk would go {farthest:.3e} radii from the origin, past the 1e8 the chunk engine \
             is exact to (fewer --steps, a shorter --stride or a smaller --chunk-side)"
        ));
    }
    Ok(settings)
}

/// Whether two point lists are the same bit for bit (`==` on floats would also accept
/// `0.0 == -0.0`).
fn same_bits(a: &[Point<2>], b: &[Point<2>]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(p, q)| (0..2).all(|i| p[i].to_bits() == q[i].to_bits()))
}

/// The smallest distance between two of `points`, exact whenever some pair is closer than
/// `2·radius` (always so in a filled Poisson-disk set of more than one point), infinity
/// otherwise. A grid of cells of side `radius`: such a pair lies at most two cells apart.
fn minimum_distance(points: &[Point<2>], radius: f64) -> f64 {
    let cell = |p: &Point<2>| ((p[0] / radius).floor() as i64, (p[1] / radius).floor() as i64);
    let mut grid: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
    for (index, p) in points.iter().enumerate() {
        grid.entry(cell(p)).or_default().push(index);
    }
    let mut best = f64::INFINITY;
    for (index, p) in points.iter().enumerate() {
        let (cx, cy) = cell(p);
        for dx in -2..=2 {
            for dy in -2..=2 {
                let Some(others) = grid.get(&(cx + dx, cy + dy)) else { continue };
                for &other in others.iter().filter(|&&other| other > index) {
                    let q = &points[other];
                    best = best.min(((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)).sqrt());
                }
            }
        }
    }
    if best < 2.0 * radius { best } else { f64::INFINITY }
}

/// The viewer's position after `step` steps: east for the first half, then back west.
fn position(settings: &Settings, chunk_side: f64, step: usize) -> Point<2> {
    let half = settings.steps / 2;
    let travelled = if step <= half { step } else { 2 * half - step.min(2 * half) };
    // A little north of the chunk row's middle, so the view is not symmetric by accident.
    let y = 0.3 * chunk_side;
    [0.5 * chunk_side + travelled as f64 * settings.stride * chunk_side, y]
}

/// The chunks within `view` chunks of `centre` on each axis, in lexicographic order.
fn chunks_in_view(centre: [i64; 2], view: i64) -> Vec<[i64; 2]> {
    let mut out = Vec::new();
    for x in centre[0] - view..=centre[0] + view {
        for y in centre[1] - view..=centre[1] + view {
            out.push([x, y]);
        }
    }
    out
}

/// Walks, checks and prints; `Err` carries the exit code and the message.
fn walk(settings: &Settings) -> Result<(), (u8, String)> {
    let side = settings.chunk_side_in_radii * settings.radius;
    let build = || {
        World::<2>::builder(settings.radius, settings.seed)
            .with_chunk_side(side)
            .with_cache_cells(settings.cache_cells)
            .build()
    };
    let mut world = build().map_err(|e| (2, format!("cannot build the world: {e}")))?;
    let r = settings.radius;
    println!(
        "2D world: r = {r}, seed {}, chunk side {} r, view {}x{} chunks, cache {} cells",
        settings.seed,
        settings.chunk_side_in_radii,
        2 * settings.view + 1,
        2 * settings.view + 1,
        settings.cache_cells
    );
    println!(
        "{:>4} {:>18} {:>7} {:>5} {:>8} {:>6} {:>7} {:>9}",
        "step", "viewer", "in view", "new", "decided", "hits", "points", "min dist"
    );
    let start = Instant::now();
    let mut loaded: BTreeMap<[i64; 2], Vec<Point<2>>> = BTreeMap::new();
    // Every chunk's first load, to hold the later loads of the same chunk against it.
    let mut first_loads: HashMap<[i64; 2], Vec<Point<2>>> = HashMap::new();
    let mut reloads = 0usize;
    let mut before: WorldStats = world.stats();
    let mut overall_min = f64::INFINITY;
    for step in 0..=settings.steps {
        let viewer = position(settings, side, step);
        let view = chunks_in_view(world.chunk_of(&viewer), settings.view);
        loaded.retain(|c, _| view.contains(c));
        let new: Vec<[i64; 2]> =
            view.iter().filter(|c| !loaded.contains_key(*c)).copied().collect();
        let points = world.chunks(&new).map_err(|e| (2, format!("step {step}: {e}")))?;
        for (c, points) in new.iter().zip(points) {
            if let Some(p) = points.iter().find(|p| world.chunk_of(p) != *c) {
                return Err((1, format!("step {step}: point {p:?} is not in chunk {c:?}")));
            }
            match first_loads.get(c) {
                Some(first) if !same_bits(first, &points) => {
                    return Err((
                        1,
                        format!("step {step}: chunk {c:?} differs from its first load"),
                    ));
                }
                Some(_) => reloads += 1,
                None => {
                    first_loads.insert(*c, points.clone());
                }
            }
            loaded.insert(*c, points);
        }
        let stats = world.stats();
        let all: Vec<Point<2>> = loaded.values().flatten().copied().collect();
        let min = minimum_distance(&all, r);
        overall_min = overall_min.min(min);
        println!(
            "{step:>4} ({:>7.1}, {:>6.1}) {:>7} {:>5} {:>8} {:>6} {:>7} {:>9.6}",
            viewer[0],
            viewer[1],
            view.len(),
            new.len(),
            stats.cells_decided - before.cells_decided,
            stats.cache_hits - before.cache_hits,
            all.len(),
            min
        );
        if min < r {
            return Err((1, format!("step {step}: two loaded points are {min} apart (r = {r})")));
        }
        before = stats;
    }
    let stats = world.stats();
    println!(
        "walk: {} steps, {} chunks seen, {} loaded again and bit-identical to their first load; \
         {} cells decided, {} cache hits, {} cells cached; minimum distance {:.6} (r = {r}); {:.2} s",
        settings.steps,
        first_loads.len(),
        reloads,
        stats.cells_decided,
        stats.cache_hits,
        stats.cached_cells,
        overall_min,
        start.elapsed().as_secs_f64()
    );
    // The farthest chunk east, asked alone of a fresh world.
    let Some(farthest) = first_loads.keys().max_by_key(|c| (c[0], c[1])).copied() else {
        return Err((1, "the walk loaded no chunk".to_string()));
    };
    let mut fresh = build().map_err(|e| (2, format!("cannot build the world: {e}")))?;
    let alone = fresh.chunk(farthest).map_err(|e| (2, format!("chunk {farthest:?}: {e}")))?;
    if !same_bits(&alone, &first_loads[&farthest]) {
        return Err((1, format!("chunk {farthest:?} from a fresh world differs from the walk's")));
    }
    println!(
        "chunk {farthest:?} asked alone of a fresh world: {} points, bit-identical to the walk's \
         ({} cells decided for it)",
        alone.len(),
        fresh.stats().cells_decided
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let settings = match parse_settings(&args) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("streaming: {message}");
            return ExitCode::from(2);
        }
    };
    match walk(&settings) {
        Ok(()) => ExitCode::SUCCESS,
        Err((code, message)) => {
            eprintln!("streaming: {message}");
            ExitCode::from(code)
        }
    }
}
