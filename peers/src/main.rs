//! `peers`: poisson-nd side by side with the Poisson-disk crates on crates.io.
//!
//! - `peers run --sampler NAME --dim D --radius R --seed S [--k K]` samples the unit box once in
//!   this process and prints one `key=value` line: points, seconds, points/s, the exact minimum
//!   distance, ρ_rel, the pairs closer than R, points outside the box, and peak memory.
//! - `peers compare --preset 2d` (or `--dim D --radius R`) runs `run` as a child process for
//!   every sampler, interleaved (A B C A B C …) `--runs` times, and prints a table of medians.
//!
//! Every sampler is given the same problem: the unit box `[0, 1)^D`, minimum distance R between
//! points, `k` candidates per active point, a deterministic seed. How each peer's parameters
//! map onto that is in [`peer`] and docs/performance.md.

mod metrics;
mod peer;

use clap::{Args, Parser, Subcommand};
use std::collections::BTreeMap;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

#[derive(Parser, Debug)]
#[command(name = "peers", about = "poisson-nd against the Poisson-disk crates on crates.io")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Run one sampler once in this process and print one machine-readable line.
    Run(RunArgs),
    /// Run every sampler in child processes, interleaved, and print a table of medians.
    Compare(CompareArgs),
}

#[derive(Args, Debug, Clone)]
struct RunArgs {
    /// One of: poisson-nd, poisson-nd-fine, poisson-nd-coarse, poisson-nd-radius, fast_poisson,
    /// poisson-diskus, poisson, poisson-nd-maximal, poisson-maximal.
    #[arg(long)]
    sampler: String,
    /// Dimension (2 to 6; `poisson` only up to 6 through nalgebra 0.17's vectors).
    #[arg(long)]
    dim: usize,
    /// Minimum distance between points.
    #[arg(long)]
    radius: f64,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Candidates per active point (the `poisson` crate has 30 built in).
    #[arg(long, default_value_t = 30)]
    k: u32,
    /// Refuse a peer whose dense background grid alone would take more than this many bytes
    /// (its grid grows with the volume of the box, not with the points).
    #[arg(long, default_value_t = 4 << 30)]
    max_grid_bytes: u64,
}

#[derive(Args, Debug)]
struct CompareArgs {
    /// A preset problem of docs/performance.md: 2d (r = 0.00079, ~1M points), 3d (r = 0.0084, ~1M),
    /// 4d (r = 0.042, ~200k), 6d (r = 0.142, ~100k), 2d-maximal (r = 0.00079: maximal
    /// sampling against the poisson crate's and against Bridson). `--dim`/`--radius` override
    /// it.
    #[arg(long)]
    preset: Option<String>,
    /// Dimension.
    #[arg(long)]
    dim: Option<usize>,
    /// Minimum distance between points.
    #[arg(long)]
    radius: Option<f64>,
    /// Interleaved rounds; every sampler runs once per round, all with the round's seed.
    #[arg(long, default_value_t = 3)]
    runs: usize,
    /// Candidates per active point.
    #[arg(long, default_value_t = 30)]
    k: u32,
    /// Seed of the first round (round i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Samplers, comma separated; the first is the reference of the ratio column
    /// (default: the preset's list, or poisson-nd and every peer).
    #[arg(long, value_delimiter = ',')]
    samplers: Option<Vec<String>>,
    /// Seconds after which one child run is stopped and reported as a time-out.
    #[arg(long, default_value_t = 600)]
    timeout: u64,
    /// Passed to `run`: the largest dense grid a peer may allocate, in bytes.
    #[arg(long, default_value_t = 4 << 30)]
    max_grid_bytes: u64,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Cmd::Run(args) => run(&args),
        Cmd::Compare(args) => compare(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Evaluates `$body` with `const $D: usize` bound to the run-time dimension (2..=6).
macro_rules! with_dim {
    ($dim:expr, $D:ident => $body:expr) => {
        match $dim {
            2 => {
                const $D: usize = 2;
                $body
            }
            3 => {
                const $D: usize = 3;
                $body
            }
            4 => {
                const $D: usize = 4;
                $body
            }
            5 => {
                const $D: usize = 5;
                $body
            }
            6 => {
                const $D: usize = 6;
                $body
            }
            other => Err(format!("--dim must be 2 to 6, got {other}")),
        }
    };
}

fn run(args: &RunArgs) -> Result<(), String> {
    if !(args.radius.is_finite() && args.radius > 0.0 && args.radius < 1.0) {
        return Err(format!("--radius must be in (0, 1), got {}", args.radius));
    }
    if args.k == 0 {
        return Err("--k must be at least 1".into());
    }
    let sampler = peer::Peer::from_name(&args.sampler)?;
    with_dim!(args.dim, D => run_in::<D>(sampler, args))
}

fn run_in<const D: usize>(sampler: peer::Peer, args: &RunArgs) -> Result<(), String> {
    let mut line = Line::default();
    line.push("sampler", sampler.name());
    line.push("dim", D);
    line.push("radius", args.radius);
    line.push("k", sampler.attempts_used(args.k));
    line.push("seed", args.seed);

    if let Some(bytes) = sampler.dense_grid_bytes(D, args.radius)
        && bytes > args.max_grid_bytes
    {
        line.push("status", "skipped");
        line.push(
            "reason",
            format!("dense-grid-of-{bytes}-bytes-over-max-grid-bytes-{}", args.max_grid_bytes),
        );
        println!("{line}");
        return Ok(());
    }

    let baseline = metrics::memory_status().map_err(|e| format!("reading /proc: {e}"))?;
    let start = Instant::now();
    let output = sampler.sample::<D>(args.radius, args.k, args.seed)?;
    let seconds = start.elapsed().as_secs_f64();
    // Read the peak before the metrics below allocate anything.
    let after = metrics::memory_status().map_err(|e| format!("reading /proc: {e}"))?;

    let points = output.into_points();
    let n = points.len();
    let stats = metrics::pair_stats(&points, args.radius);
    let outside = points.iter().filter(|p| !p.iter().all(|x| (0.0..1.0).contains(x))).count();
    let peak_delta = after.peak_rss.saturating_sub(baseline.rss);

    line.push("status", "ok");
    line.push("points", n);
    line.push("seconds", format!("{seconds:.6}"));
    line.push("points_per_s", format!("{:.1}", n as f64 / seconds));
    line.push("d_min", format!("{:.9}", stats.d_min));
    line.push("d_min_over_r", format!("{:.6}", stats.d_min / args.radius));
    line.push("rho_rel", format!("{:.6}", metrics::relative_radius(stats.d_min, n, D)));
    line.push("close_pairs", stats.close_pairs);
    line.push("outside", outside);
    line.push("peak_rss_bytes", after.peak_rss);
    line.push("baseline_rss_bytes", baseline.rss);
    line.push("bytes_per_point", format!("{:.1}", peak_delta as f64 / n.max(1) as f64));
    println!("{line}");
    Ok(())
}

/// One machine-readable output line: `key=value` pairs separated by spaces (values contain no
/// spaces).
#[derive(Debug, Default)]
struct Line(Vec<(String, String)>);

impl Line {
    fn push(&mut self, key: &str, value: impl ToString) {
        self.0.push((key.to_string(), value.to_string().replace(' ', "-")));
    }
}

impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (k, v)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{k}={v}")?;
        }
        Ok(())
    }
}

/// A preset problem: dimension, radius, samplers (the first is the reference), and the speed
/// targets docs/performance.md sets for it.
struct Preset {
    dim: usize,
    radius: f64,
    samplers: &'static [&'static str],
    targets: Vec<Target>,
}

/// "poisson-nd at least `ratio` times the points/s of `peer`", optionally "with ρ_rel no lower
/// than the peer's" (so that speed is not bought with sparser sets). With `variant`, only that
/// poisson-nd variant is checked; with `time_at_most`, the target is on time instead: the
/// variant's seconds at most `ratio` times the peer's (for samplers that make different
/// numbers of points, such as maximal sampling against Bridson).
struct Target {
    peer: &'static str,
    ratio: f64,
    rho_no_lower: bool,
    variant: Option<&'static str>,
    time_at_most: bool,
}

impl Target {
    /// At least `ratio` times the peer's points/s, for every poisson-nd variant.
    const fn speed(peer: &'static str, ratio: f64, rho_no_lower: bool) -> Self {
        Target { peer, ratio, rho_no_lower, variant: None, time_at_most: false }
    }
}

const ALL_PEERS: &[&str] =
    &["poisson-nd", "poisson-nd-radius", "fast_poisson", "poisson-diskus", "poisson"];

fn preset(name: &str) -> Result<Preset, String> {
    match name {
        "2d" => Ok(Preset {
            dim: 2,
            radius: 0.00079,
            samplers: ALL_PEERS,
            targets: vec![
                Target::speed("poisson-diskus", 10.0, true),
                Target::speed("fast_poisson", 50.0, true),
            ],
        }),
        "3d" => Ok(Preset {
            dim: 3,
            radius: 0.0084,
            samplers: ALL_PEERS,
            targets: vec![Target::speed("poisson-diskus", 30.0, false)],
        }),
        "4d" => Ok(Preset {
            dim: 4,
            radius: 0.042,
            samplers: ALL_PEERS,
            targets: vec![Target::speed("fast_poisson", 5.0, false)],
        }),
        // Fine against coarse cells, and the peers whose memory follows the volume.
        "6d" => Ok(Preset {
            dim: 6,
            radius: 0.142,
            samplers: &[
                "poisson-nd-coarse",
                "poisson-nd-fine",
                "fast_poisson",
                "poisson-diskus",
                "poisson",
            ],
            targets: Vec::new(),
        }),
        // Maximal sampling: poisson-nd's against the poisson crate's Ebeida mode, and its time
        // against Bridson's at the same radius.
        "2d-maximal" => Ok(Preset {
            dim: 2,
            radius: 0.00079,
            samplers: &["poisson-nd-maximal", "poisson-nd", "poisson-maximal"],
            targets: vec![
                Target {
                    variant: Some("poisson-nd-maximal"),
                    ..Target::speed("poisson-maximal", 10.0, false)
                },
                Target {
                    variant: Some("poisson-nd-maximal"),
                    time_at_most: true,
                    ..Target::speed("poisson-nd", 3.0, false)
                },
            ],
        }),
        other => Err(format!("unknown preset '{other}' (known: 2d, 3d, 4d, 6d, 2d-maximal)")),
    }
}

/// The result of one child run: its line and key=value pairs, or why there are none.
type RunResult = Result<ChildLine, String>;

/// The line a child printed, and its key=value pairs.
#[derive(Debug, Clone)]
struct ChildLine {
    raw: String,
    fields: BTreeMap<String, String>,
}

fn compare(args: &CompareArgs) -> Result<(), String> {
    let preset = args.preset.as_deref().map(preset).transpose()?;
    let dim = args.dim.or(preset.as_ref().map(|p| p.dim)).ok_or("give --preset or --dim")?;
    let radius =
        args.radius.or(preset.as_ref().map(|p| p.radius)).ok_or("give --preset or --radius")?;
    let samplers: Vec<String> = match (&args.samplers, &preset) {
        (Some(list), _) => list.clone(),
        (None, Some(p)) => p.samplers.iter().map(|s| s.to_string()).collect(),
        (None, None) => ALL_PEERS.iter().map(|s| s.to_string()).collect(),
    };
    for name in &samplers {
        peer::Peer::from_name(name)?;
    }
    if args.runs == 0 {
        return Err("--runs must be at least 1".into());
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot find own executable: {e}"))?;
    eprintln!(
        "compare: D={dim} r={radius} k={} runs={} samplers={} (child processes, interleaved)",
        args.k,
        args.runs,
        samplers.join(",")
    );

    // results[sampler][round]
    let mut results: Vec<Vec<RunResult>> = vec![Vec::new(); samplers.len()];
    for round in 0..args.runs {
        let seed = args.seed + round as u64;
        for (i, name) in samplers.iter().enumerate() {
            let mut command = Command::new(&exe);
            command.args(["run", "--sampler", name]).args([
                format!("--dim={dim}"),
                format!("--radius={radius}"),
                format!("--seed={seed}"),
                format!("--k={}", args.k),
                format!("--max-grid-bytes={}", args.max_grid_bytes),
            ]);
            let result = run_child(command, Duration::from_secs(args.timeout));
            match &result {
                Ok(line) => eprintln!("{}", line.raw),
                Err(e) => eprintln!("sampler={name} round={round} failed: {e}"),
            }
            results[i].push(result);
        }
    }
    print_table(dim, radius, args, &samplers, &results);
    if let Some(preset) = &preset {
        print_targets(&preset.targets, &samplers, &results);
    }
    Ok(())
}

/// Checks the preset's targets for every poisson-nd variant in the comparison: the median
/// over rounds of the per-round speed ratio, and (where asked) ρ_rel against the peer's.
/// ρ_rel varies from seed to seed, so "no lower" is judged on the means over rounds with
/// their standard errors: lower by more than twice the combined standard error fails.
fn print_targets(targets: &[Target], samplers: &[String], results: &[Vec<RunResult>]) {
    if targets.is_empty() {
        return;
    }
    let index = |name: &str| samplers.iter().position(|s| s == name);
    let mean_se = |values: Vec<f64>| {
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
        (mean, (var / n).sqrt())
    };
    println!();
    println!("Targets:");
    println!();
    for target in targets {
        let Some(p) = index(target.peer) else {
            println!("- {} not in this comparison: target not checked", target.peer);
            continue;
        };
        let variants = samplers.iter().enumerate().filter(|(_, s)| {
            s.starts_with("poisson-nd")
                && *s != target.peer
                && target.variant.is_none_or(|v| v == *s)
        });
        for (v, variant) in variants {
            // Points/s of the variant over the peer's, or for a time target the variant's
            // seconds over the peer's.
            let rounds = if target.time_at_most {
                round_field_ratios(&results[v], &results[p], "seconds")
            } else {
                round_ratios(&results[v], &results[p])
            };
            let Some(ratio) = median(rounds.clone()) else {
                println!("- {variant} vs {}: no complete round", target.peer);
                continue;
            };
            let clears =
                |r: f64| if target.time_at_most { r <= target.ratio } else { r >= target.ratio };
            let speed_met = clears(ratio);
            // Every round's ratio too: on a noisy machine a median near the target says
            // less than how many rounds cleared it.
            let cleared = rounds.iter().filter(|&&r| clears(r)).count();
            let listed: Vec<String> = rounds.iter().map(|r| format!("{r:.2}")).collect();
            let (what, bound, side) = if target.time_at_most {
                ("time", "≤", "at or below")
            } else {
                ("points/s", "≥", "at or above")
            };
            let mut line = format!(
                "- {variant} ÷ {} ({what}): {ratio:.2}× (target {bound} {}×; rounds {}, {cleared} of {} {side})",
                target.peer,
                target.ratio,
                listed.join(", "),
                rounds.len()
            );
            let mut met = speed_met;
            if target.rho_no_lower {
                let rho =
                    |i: usize| results[i].iter().filter_map(|r| field(r, "rho_rel")).collect();
                let (mine, mine_se) = mean_se(rho(v));
                let (theirs, theirs_se) = mean_se(rho(p));
                let tolerance = 2.0 * mine_se.hypot(theirs_se);
                let rho_met = mine >= theirs - tolerance;
                line += &format!(
                    ", ρ_rel {mine:.6} ± {mine_se:.6} vs {theirs:.6} ± {theirs_se:.6} ({})",
                    if rho_met { "no lower" } else { "lower" }
                );
                met &= rho_met;
            }
            println!("{line}: {}", if met { "met" } else { "NOT met" });
        }
    }
}

/// Runs one child to completion (or kills it after `timeout`) and parses its last line.
fn run_child(mut command: Command, timeout: Duration) -> RunResult {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start: {e}"))?;
    let start = Instant::now();
    loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(_) => break,
            None if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("timed out after {} s", timeout.as_secs()));
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    }
    let output = child.wait_with_output().map_err(|e| e.to_string())?;
    if !output.status.success() {
        return Err(format!("exited with {}", output.status));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    let last = text.lines().last().ok_or("printed nothing")?;
    let fields = last
        .split_whitespace()
        .filter_map(|kv| kv.split_once('='))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    Ok(ChildLine { raw: last.to_string(), fields })
}

fn median(mut values: Vec<f64>) -> Option<f64> {
    values.retain(|v| v.is_finite());
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let m = values.len() / 2;
    Some(if values.len() % 2 == 1 { values[m] } else { 0.5 * (values[m - 1] + values[m]) })
}

/// Per round, `a`'s points/s ÷ `b`'s points/s, for the rounds where both ran.
fn round_ratios(a: &[RunResult], b: &[RunResult]) -> Vec<f64> {
    round_field_ratios(a, b, "points_per_s")
}

/// Per round, `a`'s `key` ÷ `b`'s `key`, for the rounds where both ran.
fn round_field_ratios(a: &[RunResult], b: &[RunResult], key: &str) -> Vec<f64> {
    a.iter().zip(b).filter_map(|(a, b)| Some(field(a, key)? / field(b, key)?)).collect()
}

/// The median of [`round_ratios`].
fn median_ratio(a: &[RunResult], b: &[RunResult]) -> Option<f64> {
    median(round_ratios(a, b))
}

fn field(result: &RunResult, key: &str) -> Option<f64> {
    let fields = &result.as_ref().ok()?.fields;
    if fields.get("status").map(String::as_str) != Some("ok") {
        return None;
    }
    fields.get(key)?.parse().ok()
}

/// Prints the medians as a Markdown table (ready to paste into docs/performance.md).
fn print_table(
    dim: usize,
    radius: f64,
    args: &CompareArgs,
    samplers: &[String],
    results: &[Vec<RunResult>],
) {
    let reference = &samplers[0];
    println!(
        "D = {dim}, r = {radius}, k = {}, {} interleaved round(s), seeds {}..={}: medians",
        args.k,
        args.runs,
        args.seed,
        args.seed + args.runs as u64 - 1
    );
    println!();
    let header = [
        "sampler",
        "points",
        "points/s",
        &format!("{reference} ÷ this"),
        "ρ_rel",
        "d_min/r",
        "close pairs",
        "outside",
        "peak MB",
        "bytes/point",
        "note",
    ];
    println!("| {} |", header.join(" | "));
    println!("|{}", " --- |".repeat(header.len()));
    let fmt = |v: Option<f64>, prec: usize| v.map_or("-".to_string(), |v| format!("{v:.prec$}"));
    for (i, name) in samplers.iter().enumerate() {
        let values = |key: &str| results[i].iter().filter_map(|r| field(r, key)).collect();
        let median_of = |key: &str| median(values(key));
        let max_of = |key: &str| values(key).into_iter().reduce(f64::max);
        let ratio = median_ratio(&results[0], &results[i]);
        let note = results[i]
            .iter()
            .find_map(|r| match r {
                Err(e) => Some(e.clone()),
                Ok(line) if line.fields.get("status").map(String::as_str) != Some("ok") => {
                    let get = |k: &str| line.fields.get(k).cloned().unwrap_or_default();
                    Some(format!("{}: {}", get("status"), get("reason")))
                }
                _ => None,
            })
            .unwrap_or_default();
        let row = [
            name.clone(),
            fmt(median_of("points"), 0),
            fmt(median_of("points_per_s"), 0),
            if i == 0 { "1".to_string() } else { fmt(ratio, 2) },
            fmt(median_of("rho_rel"), 4),
            fmt(median_of("d_min_over_r"), 4),
            fmt(max_of("close_pairs"), 0),
            fmt(max_of("outside"), 0),
            fmt(median_of("peak_rss_bytes").map(|b| b / 1e6), 1),
            fmt(median_of("bytes_per_point"), 1),
            note,
        ];
        println!("| {} |", row.join(" | "));
    }
    println!();
    println!(
        "Ratio: median over rounds of {reference} points/s ÷ this sampler's points/s in the same \
         round. Close pairs and outside: the most in any round. Bytes/point: (peak RSS − RSS \
         before sampling) / points."
    );
}
