//! What "cone recomputation with no exchange" costs: a task that decides a block of `b^D`
//! chunks alone, with a fresh `World` and no cache shared with anyone, decides the block's
//! whole dependency cone. This prints, for 2D blocks of side b = 1, 2, 4, 8 and 3D blocks of
//! side 1, 2, 4, 8:
//!
//! - the cells the block owns, `(2b)^D` (per axis the keys `2c` and `2c + 1` of each of its
//!   chunks: the plane below a chunk and its inside), and the cells the request decided,
//!   read from `WorldStats::cells_decided`; their ratio is the recomputation factor in cells;
//! - the same count predicted from the dependency rule alone (a cell depends on the cells of
//!   lower strata whose keys differ from its own by at most 1 on every axis), which the
//!   measured count must equal, and how many chunks past the block the cone reaches;
//! - the chunk interiors (stratum-0 cells) in the cone, and the points of the owned cells and
//!   of the cone's cells: their ratio is the factor in work, since a cell costs about its
//!   points (a chunk interior far more than a seam);
//! - for the other schedule, one stage per stratum with the blocks' borders exchanged between
//!   stages: the points a task receives, those of the neighbours' lower-strata cells that lie
//!   within `r` of one of its own cells next to them (no other point can reach into its runs),
//!   checked to come only from the blocks below it.
//!
//! Last, the cone of one 4D chunk, counted from the dependency rule alone (no world). Points
//! are attributed to cells by the rule of docs/algorithms.md ("Chunked worlds"). The
//! cell counts do not depend on the chunk side; the point counts do (seams weigh more in
//! small chunks).
//!
//! ```text
//! cargo bench -p poisson-nd-benches --bench recomputation -- \
//!     [--chunk-side L] [--seed S] [--largest-3d B]
//! ```
//!
//! - `--chunk-side L`: the chunk side in radii (default 8; at least the smallest side in 3D,
//!   about 4.83);
//! - `--seed S`: the worlds' seed (default 1);
//! - `--largest-3d B`: the largest 3D block side measured, 0 (no 3D rows), 1, 2, 4 or 8
//!   (default 8).
//!
//! Exit code 1 if a measured count differs from the prediction or a point comes from a block
//! above, 2 on a bad argument.

use poisson_nd::Point;
use poisson_nd::chunked::World;
use std::collections::HashSet;
use std::process::ExitCode;

/// The radius of every world here; everything scales with it.
const RADIUS: f64 = 1.0;

/// The library's relative slack on the cell thresholds (src/chunked/cells.rs).
const SLACK: f64 = 1e-7;

/// The measurement's settings, from the command line.
#[derive(Debug, Clone, Copy)]
struct Settings {
    chunk_side_in_radii: f64,
    seed: u64,
    largest_3d: usize,
}

/// Reads `--name value` pairs; the error names the argument and what is wrong with it.
fn parse_settings(args: &[String]) -> Result<Settings, String> {
    let mut settings = Settings { chunk_side_in_radii: 8.0, seed: 1, largest_3d: 8 };
    let mut rest = args.iter();
    while let Some(name) = rest.next() {
        let value = rest.next().ok_or_else(|| format!("{name} needs a value"))?;
        let bad = |what: &str| format!("{name} {value}: expected {what}");
        match name.as_str() {
            "--chunk-side" => {
                settings.chunk_side_in_radii = value
                    .parse()
                    .ok()
                    .filter(|l: &f64| l.is_finite() && *l > 0.0 && *l <= 64.0)
                    .ok_or_else(|| bad("a number of radii up to 64"))?;
            }
            "--seed" => settings.seed = value.parse().map_err(|_| bad("an unsigned integer"))?,
            "--largest-3d" => {
                settings.largest_3d = value
                    .parse()
                    .ok()
                    .filter(|b| [0, 1, 2, 4, 8].contains(b))
                    .ok_or_else(|| bad("0, 1, 2, 4 or 8"))?;
            }
            _ => {
                return Err(format!(
                    "unknown argument {name} (see the doc comment of benches/recomputation.rs)"
                ));
            }
        }
    }
    Ok(settings)
}

/// A cell key on the doubled lattice: even `2p` near plane `p`, odd `2c + 1` inside chunk `c`.
type Key<const D: usize> = [i64; D];

/// The number of even coordinates of a key: its cell's stratum.
fn stratum<const D: usize>(key: &Key<D>) -> usize {
    key.iter().filter(|&&m| m.rem_euclid(2) == 0).count()
}

/// The `3^D` keys that differ from `key` by at most 1 on every axis, itself included.
fn around<const D: usize>(key: &Key<D>) -> Vec<Key<D>> {
    let mut out = vec![*key];
    for i in 0..D {
        out = out
            .into_iter()
            .flat_map(|k| {
                (-1..=1).map(move |step| {
                    let mut k = k;
                    k[i] += step;
                    k
                })
            })
            .collect();
    }
    out
}

/// Whether `key` belongs to the block of chunks `0 ≤ c < b` on every axis (keys `0..2b`).
fn owned<const D: usize>(key: &Key<D>, b: i64) -> bool {
    key.iter().all(|&m| (0..2 * b).contains(&m))
}

/// The cells a request for the chunks `0 ≤ c < b` needs: the cells over those chunks (keys
/// `0..=2b` on every axis) and, recursively, the lower-strata cells next to each that can
/// reach it (the library's rule, src/chunked/engine.rs).
fn cone<const D: usize>(b: i64) -> HashSet<Key<D>> {
    let mut wanted = vec![[0i64; D]];
    for i in 0..D {
        wanted = wanted
            .into_iter()
            .flat_map(|k| {
                (0..=2 * b).map(move |m| {
                    let mut k = k;
                    k[i] = m;
                    k
                })
            })
            .collect();
    }
    let mut seen = HashSet::new();
    while let Some(key) = wanted.pop() {
        if seen.insert(key) {
            let k = stratum(&key);
            // A lower-stratum neighbour counts unless it is near a plane along an axis along
            // which `key` lies inside its chunk (its points are then √2 r away).
            let reaches = |other: &Key<D>| {
                (0..D).all(|i| other[i].rem_euclid(2) == 1 || key[i].rem_euclid(2) == 0)
            };
            wanted.extend(
                around(&key).into_iter().filter(|other| stratum(other) < k && reaches(other)),
            );
        }
    }
    seen
}

/// The cells' thresholds `a_1 = r/2`, `a_{k+1} = a_k + r/√2`, with the library's slack.
fn thresholds(dim: usize) -> Vec<f64> {
    let step = RADIUS * std::f64::consts::FRAC_1_SQRT_2 * (1.0 + SLACK);
    (0..dim).map(|k| RADIUS * 0.5 * (1.0 + SLACK) + k as f64 * step).collect()
}

/// The key of the cell holding `p` in chunks of side `side` from the origin: its stratum is
/// the largest `k` with `t_(k) < a_k` (the `t` sorted distances to the nearest planes), and
/// it is near the planes of the axes with `t_i < a_k`.
fn cell_of<const D: usize>(p: &Point<D>, side: f64, a: &[f64]) -> Key<D> {
    let mut t = [0.0; D];
    let mut plane = [0i64; D];
    let mut chunk = [0i64; D];
    for i in 0..D {
        let u = p[i] / side;
        chunk[i] = u.floor() as i64;
        plane[i] = u.round() as i64;
        t[i] = (u - plane[i] as f64).abs() * side;
    }
    let mut sorted = t;
    sorted.sort_unstable_by(f64::total_cmp);
    let k = (1..=D).rev().find(|&k| sorted[k - 1] < a[k - 1]).unwrap_or(0);
    std::array::from_fn(|i| if k > 0 && t[i] < a[k - 1] { 2 * plane[i] } else { 2 * chunk[i] + 1 })
}

/// Whether `p` lies within `r` of the bounding box of seam cell `key` (stratum 1 or more):
/// only such points of its neighbours enter the cell's run.
fn reaches<const D: usize>(key: &Key<D>, p: &Point<D>, side: f64, a: &[f64]) -> bool {
    let k = stratum(key);
    let reach = RADIUS * (1.0 + 1e-9);
    (0..D).all(|i| {
        let (low, high) = if key[i].rem_euclid(2) == 0 {
            let plane = (key[i] / 2) as f64 * side;
            (plane - a[k - 1], plane + a[k - 1])
        } else {
            let low = (key[i] - 1).div_euclid(2) as f64 * side;
            let inset = a.get(k).copied().unwrap_or(f64::INFINITY).min(side / 2.0);
            (low + inset, low + side - inset)
        };
        low - reach <= p[i] && p[i] <= high + reach
    })
}

/// One row of the table.
#[derive(Debug)]
struct Row {
    dim: usize,
    block: i64,
    owned_cells: usize,
    decided_cells: u64,
    predicted_cells: usize,
    /// Chunk interiors (stratum-0 cells) in the cone: most of its work.
    cone_interiors: usize,
    reach_in_chunks: i64,
    owned_points: usize,
    cone_points: usize,
    exchanged_points: usize,
    /// Of those, the points from blocks above this one along some axis (the owner of a band
    /// is the block above its plane, and a band depends on the insides next to it, so none).
    exchanged_from_above: usize,
}

/// Measures a block of `b^D` chunks at the origin.
fn measure<const D: usize>(b: i64, settings: &Settings) -> Result<Row, String> {
    let side = settings.chunk_side_in_radii * RADIUS;
    let build = || {
        World::<D>::builder(RADIUS, settings.seed)
            .with_chunk_side(side)
            .build()
            .map_err(|e| format!("{D}D, chunk side {side}: {e}"))
    };
    // The task: a fresh world asked for the block alone.
    let mut task = build()?;
    task.range([0; D], [b; D]).map_err(|e| e.to_string())?;
    let decided_cells = task.stats().cells_decided;
    let cone = cone::<D>(b);
    // The cone's reach past the block, in chunks: an odd key 2c + 1 lies in chunk c, an even
    // key 2p straddles chunks p − 1 and p.
    let reach_in_chunks = cone
        .iter()
        .flat_map(|key| key.iter())
        .map(|&m| {
            let below = if m.rem_euclid(2) == 0 { m / 2 - 1 } else { (m - 1).div_euclid(2) };
            let above = m.div_euclid(2);
            (-below).max(above - (b - 1))
        })
        .max()
        .unwrap_or(0);
    // Every point of every cone cell: the chunks the cone's keys touch, from a second world
    // (its points are the same; a chunk's points do not depend on who asks).
    let (lo, hi) = (-reach_in_chunks, b + reach_in_chunks);
    let mut whole = build()?;
    let chunks = whole.range([lo; D], [hi; D]).map_err(|e| e.to_string())?;
    let a = thresholds(D);
    let (mut owned_points, mut cone_points, mut exchanged_points) = (0, 0, 0);
    let mut exchanged_from_above = 0;
    for (_, points) in &chunks {
        for p in points {
            let key = cell_of(p, side, &a);
            if owned(&key, b) {
                owned_points += 1;
            }
            if cone.contains(&key) {
                cone_points += 1;
            }
            // Received once by the task if a cell of its own, of a higher stratum and next to
            // the point's cell, is within reach of it.
            if !owned(&key, b) {
                let k = stratum(&key);
                let needed = around(&key).iter().any(|other| {
                    owned(other, b) && stratum(other) > k && reaches(other, p, side, &a)
                });
                exchanged_points += usize::from(needed);
                if needed && key.iter().any(|&m| m >= 2 * b) {
                    exchanged_from_above += 1;
                }
            }
        }
    }
    Ok(Row {
        dim: D,
        block: b,
        owned_cells: (2 * b as usize).pow(D as u32),
        decided_cells,
        predicted_cells: cone.len(),
        cone_interiors: cone.iter().filter(|key| stratum(key) == 0).count(),
        reach_in_chunks,
        owned_points,
        cone_points,
        exchanged_points,
        exchanged_from_above,
    })
}

fn main() -> ExitCode {
    // `cargo bench` appends `--bench`.
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let settings = match parse_settings(&args) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("recomputation: {message}");
            return ExitCode::from(2);
        }
    };
    println!(
        "r = {RADIUS}, chunk side {} r, seed {}; a block is b^D chunks decided by a fresh world",
        settings.chunk_side_in_radii, settings.seed
    );
    println!(
        "{:>3} {:>2} {:>11} {:>13} {:>11} {:>9} {:>5} {:>12} {:>12} {:>12} {:>9} {:>10}",
        "dim",
        "b",
        "owned cells",
        "decided cells",
        "cell factor",
        "interiors",
        "reach",
        "owned points",
        "cone points",
        "point factor",
        "exchanged",
        "exch/owned"
    );
    let mut rows = Vec::new();
    let blocks_3d: Vec<i64> =
        [1, 2, 4, 8].into_iter().filter(|&b| b <= settings.largest_3d as i64).collect();
    let measured = [1, 2, 4, 8]
        .into_iter()
        .map(|b| measure::<2>(b, &settings))
        .chain(blocks_3d.into_iter().map(|b| measure::<3>(b, &settings)));
    for row in measured {
        let row = match row {
            Ok(row) => row,
            Err(message) => {
                eprintln!("recomputation: {message}");
                return ExitCode::from(2);
            }
        };
        println!(
            "{:>3} {:>2} {:>11} {:>13} {:>11.3} {:>9} {:>5} {:>12} {:>12} {:>12.3} {:>9} {:>10.3}",
            row.dim,
            row.block,
            row.owned_cells,
            row.decided_cells,
            row.decided_cells as f64 / row.owned_cells as f64,
            row.cone_interiors,
            row.reach_in_chunks,
            row.owned_points,
            row.cone_points,
            row.cone_points as f64 / row.owned_points as f64,
            row.exchanged_points,
            row.exchanged_points as f64 / row.owned_points as f64
        );
        rows.push(row);
    }
    println!(
        "interiors: chunk interiors in the cone (the block's own are b^D); reach: chunks past \
         the block the cone touches; exchanged: points a task receives from its neighbours \
         under one stage per stratum (those within r of a cell of its own)"
    );
    let four = cone::<4>(1);
    println!(
        "the dependency rule alone (no world): one 4D chunk's cone holds {} cells, {} of them \
         chunk interiors",
        four.len(),
        four.iter().filter(|key| stratum(key) == 0).count()
    );
    if let Some(row) = rows.iter().find(|row| row.decided_cells != row.predicted_cells as u64) {
        eprintln!(
            "recomputation: {}D, b = {}: {} cells decided, the dependency rule predicts {}",
            row.dim, row.block, row.decided_cells, row.predicted_cells
        );
        return ExitCode::from(1);
    }
    if let Some(row) = rows.iter().find(|row| row.exchanged_from_above > 0) {
        eprintln!(
            "recomputation: {}D, b = {}: {} points received from blocks above",
            row.dim, row.block, row.exchanged_from_above
        );
        return ExitCode::from(1);
    }
    println!(
        "every decided count equals the count the dependency rule predicts; every exchanged \
         point comes from a block below (offsets in {{-1, 0}}^D)"
    );
    ExitCode::SUCCESS
}
