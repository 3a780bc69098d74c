//! The "Chunked Bridson against Bridson" section: plain [`Bridson`] and [`ChunkedBridson`] fill
//! the periodic unit square at one radius, several realisations each, and the section puts the
//! library's promise to the test with numbers computed on the run: the point count and the
//! relative radius ρ_rel (within 1 %), the closest pair (at least r, measured exactly with
//! wrap-around), the radial spectrum (the same within its noise), and the periodogram at the
//! chunk frequency and its harmonics against its neighbours and against plain Bridson (no line).
//!
//! The square is periodic so that the periodogram has no window: on the torus the chunk side
//! is `1/n`, and a seam that left points denser or sparser near the cuts would repeat `n`
//! times per side and show as a line at `k = n·(1, 0)` and `n·(0, 1)` (and at its multiples).

use super::csv::table_text;
use super::html::{DataFile, Figure, Section, Table};
use super::{ReportError, TimingRow, realisation_seed};
use crate::format::{exact as float, plus_minus, short, significant};
use crate::metrics::baseline::mean_and_error;
use crate::metrics::relative_radius::relative_radius_from;
use crate::metrics::{SpectrumAccumulator, SpectrumOptions, periodogram_at};
use crate::plot::{self, Reference, Series, SpectrumChart, VerticalMarks};
use poisson_nd::grid::closest_pair_within;
use poisson_nd::{Bridson, ChunkedBridson, Domain, FillSampler, PointSet};
use std::time::Instant;

/// The radius: about 17 000 points in the unit square, 5 chunks per axis.
pub const RADIUS: f64 = 0.006;
/// The chunk side asked for, in radii: 32, half the 2D default, so that more seams cross the
/// square (5 per axis rather than 2) and a seam's line, if any, has more to show.
pub const CHUNK_SIDE_IN_RADII: f64 = 32.0;
/// The multiples of the chunk frequency that are tested (`n`, `2n`, `3n`); the axis chart
/// runs to the last one's upper neighbour.
pub const HARMONICS: usize = 3;
/// A chunk bin more than this many standard errors from its neighbours, or from plain
/// Bridson's bin, is a line (above) or a dip (below).
pub const LINE_THRESHOLD: f64 = 3.0;
/// How far the radial spectra may differ, in standard errors, before a ring counts as
/// different.
pub const RING_THRESHOLD: f64 = 2.0;
/// The plain sampler's name.
pub const PLAIN: &str = "bridson";
/// The chunked sampler's name.
pub const CHUNKED: &str = "chunked-bridson";
/// The experiment's name in seeds and in `timings.csv`.
const EXPERIMENT: &str = "chunked";

/// One realisation of one sampler.
#[derive(Debug, Clone, PartialEq)]
pub struct ChunkedRun {
    /// The realisation, from 0.
    pub rep: usize,
    /// Its seed.
    pub seed: u64,
    /// Points produced.
    pub points: usize,
    /// Candidates generated.
    pub attempts: u64,
    /// Time of the sampling call, in seconds.
    pub seconds: f64,
    /// The smallest distance between two points on the torus.
    pub min_distance: f64,
    /// `ρ_rel = d_min / d_max`.
    pub relative_radius: f64,
    /// The periodogram at `k = j·e_axis` for `j = 1, 2, …`: `[along x, along y]`.
    pub axis_power: [Vec<f64>; 2],
    /// The mean periodogram of each ring `1..=k_max` (its radial spectrum).
    pub rings: Vec<f64>,
}

/// Every realisation of one sampler.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplerRuns {
    /// The sampler's name.
    pub sampler: String,
    /// The realisations, in order.
    pub runs: Vec<ChunkedRun>,
}

impl SamplerRuns {
    /// `value` of every realisation.
    pub fn values(&self, value: impl Fn(&ChunkedRun) -> f64) -> Vec<f64> {
        self.runs.iter().map(value).collect()
    }

    /// The periodogram at `j·(1, 0)` and `j·(0, 1)` of every realisation (`j ≥ 1`, at most
    /// the computed range): two values per realisation.
    pub fn axis_values(&self, j: usize) -> Vec<f64> {
        self.runs.iter().flat_map(|run| run.axis_power.iter().map(move |p| p[j - 1])).collect()
    }

    /// The mean of the periodogram at `j − 1` and `j + 1` along each axis, per realisation
    /// and axis (`j ≥ 2`).
    pub fn neighbour_values(&self, j: usize) -> Vec<f64> {
        self.runs
            .iter()
            .flat_map(|run| run.axis_power.iter().map(move |p| 0.5 * (p[j - 2] + p[j])))
            .collect()
    }

    /// Mean and standard error over realisations of each ring's power, rings `1..=k_max`.
    pub fn ring_stats(&self) -> Vec<(f64, f64)> {
        let rings = self.runs.first().map_or(0, |run| run.rings.len());
        (0..rings).map(|b| mean_and_error(&self.values(|run| run.rings[b])).pair()).collect()
    }

    /// The smallest distance over every realisation.
    pub fn min_distance(&self) -> f64 {
        self.runs.iter().map(|run| run.min_distance).fold(f64::INFINITY, f64::min)
    }
}

/// The chunk bin `k = h·n` against its neighbours and plain Bridson's bin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LineTest {
    /// The harmonic `h`.
    pub harmonic: usize,
    /// The frequency `h·n` along each axis.
    pub k: usize,
    /// Chunked Bridson's periodogram there: mean and standard error over realisations and
    /// both axes.
    pub chunked: (f64, f64),
    /// Chunked Bridson's periodogram at `k ± 1`, likewise.
    pub neighbours: (f64, f64),
    /// Plain Bridson's periodogram at `k`, likewise.
    pub plain: (f64, f64),
}

impl LineTest {
    /// `(chunked − neighbours)` in standard errors of the difference.
    pub fn z_neighbours(&self) -> f64 {
        z_score(self.chunked, self.neighbours)
    }

    /// `(chunked − plain)` in standard errors of the difference.
    pub fn z_plain(&self) -> f64 {
        z_score(self.chunked, self.plain)
    }

    /// `"no line"` when the chunk bin is within [`LINE_THRESHOLD`] standard errors of both its
    /// neighbours and plain Bridson's bin, `"LINE"` when it stands above either, else `"DIP"`.
    pub fn verdict(&self) -> &'static str {
        let (a, b) = (self.z_neighbours(), self.z_plain());
        if a > LINE_THRESHOLD || b > LINE_THRESHOLD {
            "LINE"
        } else if a < -LINE_THRESHOLD || b < -LINE_THRESHOLD {
            "DIP"
        } else {
            "no line"
        }
    }
}

/// `(a − b) / √(se_a² + se_b²)` for two (mean, standard error) pairs; 0 for equal means and
/// ±∞ for different means without error.
pub fn z_score(a: (f64, f64), b: (f64, f64)) -> f64 {
    let difference = a.0 - b.0;
    let error = (a.1 * a.1 + b.1 * b.1).sqrt();
    if difference == 0.0 { 0.0 } else { difference / error }
}

/// How far apart two radial spectra are, ring by ring.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpectrumAgreement {
    /// Rings compared (those with a standard error on both sides).
    pub rings: usize,
    /// Rings where the spectra differ by more than [`RING_THRESHOLD`] standard errors.
    pub beyond: usize,
    /// The number of such rings expected by chance if the spectra were equal: the sum over
    /// rings of `P(|T_ν| > RING_THRESHOLD)` for Welch's t with its degrees of freedom ν.
    pub expected: f64,
    /// The largest difference in standard errors (NaN with no ring compared).
    pub largest: f64,
}

/// Compares two radial spectra given as (mean, standard error) per ring over `n_a` and `n_b`
/// realisations (Welch's t per ring).
pub fn spectrum_agreement(
    a: &[(f64, f64)],
    b: &[(f64, f64)],
    n_a: usize,
    n_b: usize,
) -> SpectrumAgreement {
    let mut agreement = SpectrumAgreement { rings: 0, beyond: 0, expected: 0.0, largest: f64::NAN };
    if n_a < 2 || n_b < 2 {
        return agreement;
    }
    for (&(mean_a, se_a), &(mean_b, se_b)) in a.iter().zip(b) {
        let variance = se_a * se_a + se_b * se_b;
        if !(variance > 0.0 && variance.is_finite() && mean_a.is_finite() && mean_b.is_finite()) {
            continue;
        }
        let t = (mean_a - mean_b) / variance.sqrt();
        // Welch–Satterthwaite: ν = (s_a² + s_b²)² / (s_a⁴/(n_a − 1) + s_b⁴/(n_b − 1)).
        let freedom = variance * variance
            / (se_a.powi(4) / (n_a - 1) as f64 + se_b.powi(4) / (n_b - 1) as f64);
        agreement.rings += 1;
        agreement.beyond += usize::from(t.abs() > RING_THRESHOLD);
        agreement.expected += students_t_two_sided(RING_THRESHOLD, freedom);
        agreement.largest =
            if agreement.largest.is_nan() { t.abs() } else { agreement.largest.max(t.abs()) };
    }
    agreement
}

/// `P(|T| > t)` for Student's t with `freedom` degrees of freedom:
/// `I_{ν/(ν + t²)}(ν/2, ½)`, the regularised incomplete beta function.
pub fn students_t_two_sided(t: f64, freedom: f64) -> f64 {
    statrs::function::beta::beta_reg(freedom / 2.0, 0.5, freedom / (freedom + t * t))
}

/// The experiment's results.
#[derive(Debug, Clone, PartialEq)]
pub struct ChunkedResult {
    /// The radius.
    pub radius: f64,
    /// The chunk side ChunkedBridson uses on the torus, `1/n`.
    pub chunk_side: f64,
    /// Chunks per axis, `n`.
    pub chunks: usize,
    /// Threads chunked Bridson ran on (all cores).
    pub threads: usize,
    /// The highest ring of the radial spectra.
    pub k_max: usize,
    /// Plain Bridson.
    pub plain: SamplerRuns,
    /// Chunked Bridson.
    pub chunked: SamplerRuns,
}

impl ChunkedResult {
    /// The highest axis frequency computed: the last harmonic's upper neighbour.
    pub fn axis_max(&self) -> usize {
        HARMONICS * self.chunks + 1
    }

    /// The test of every harmonic `1..=HARMONICS`.
    pub fn lines(&self) -> Vec<LineTest> {
        (1..=HARMONICS)
            .map(|harmonic| {
                let k = harmonic * self.chunks;
                LineTest {
                    harmonic,
                    k,
                    chunked: mean_and_error(&self.chunked.axis_values(k)).pair(),
                    neighbours: mean_and_error(&self.chunked.neighbour_values(k)).pair(),
                    plain: mean_and_error(&self.plain.axis_values(k)).pair(),
                }
            })
            .collect()
    }

    /// The radial spectra compared ring by ring.
    pub fn spectrum_agreement(&self) -> SpectrumAgreement {
        spectrum_agreement(
            &self.chunked.ring_stats(),
            &self.plain.ring_stats(),
            self.chunked.runs.len(),
            self.plain.runs.len(),
        )
    }

    /// `value` of chunked over plain, both means over realisations, with the standard error
    /// of the ratio (first order: the relative errors add in quadrature).
    pub fn ratio(&self, value: impl Fn(&ChunkedRun) -> f64) -> (f64, f64) {
        let (a, se_a) = mean_and_error(&self.chunked.values(&value)).pair();
        let (b, se_b) = mean_and_error(&self.plain.values(&value)).pair();
        let ratio = a / b;
        (ratio, ratio.abs() * ((se_a / a).powi(2) + (se_b / b).powi(2)).sqrt())
    }
}

fn failed(e: poisson_nd::Error) -> ReportError {
    ReportError::Figure { section: "Chunked Bridson against Bridson", message: e.to_string() }
}

/// Fills the periodic unit square `realisations` times with each sampler (seeds from
/// `base_seed`, [`realisation_seed`]) and measures every set. The radial spectra reach
/// `⌈spectrum_multiple · √N⌉` cycles per side, `N` the count of the first plain set (the
/// report passes its `metrics.spectrum_max_frequency`).
pub fn measure(
    base_seed: u64,
    realisations: usize,
    spectrum_multiple: f64,
    timings: &mut Vec<TimingRow>,
) -> Result<ChunkedResult, ReportError> {
    let torus = Domain::<2>::unit().periodic();
    let plain = Bridson::builder(torus, RADIUS).build().map_err(failed)?;
    let chunked = ChunkedBridson::builder(torus, RADIUS)
        .with_chunk_side(CHUNK_SIDE_IN_RADII * RADIUS)
        .build()
        .map_err(failed)?;
    // The library's default side, rounded on the torus to a whole number of chunks.
    let side = chunked.chunk_side()[0];
    let chunks = (1.0 / side).round() as usize;
    if chunks < 2 || chunked.chunk_side().iter().any(|&s| (s * chunks as f64 - 1.0).abs() > 1e-12) {
        return Err(ReportError::Figure {
            section: "Chunked Bridson against Bridson",
            message: format!(
                "the chunk sides {:?} do not tile the unit torus",
                chunked.chunk_side()
            ),
        });
    }
    let axis_max = HARMONICS * chunks + 1;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut k_max = 0;
    let mut all = Vec::new();
    for name in [PLAIN, CHUNKED] {
        let mut runs = Vec::new();
        for rep in 0..realisations {
            let seed = realisation_seed(base_seed, EXPERIMENT, name, rep);
            let start = Instant::now();
            let set: PointSet<2> =
                if name == PLAIN { plain.fill_seeded(seed) } else { chunked.fill_seeded(seed) };
            let seconds = start.elapsed().as_secs_f64();
            timings.push(TimingRow {
                experiment: EXPERIMENT,
                sampler: name.into(),
                dim: 2,
                n: set.len(),
                rep,
                seed,
                seconds,
            });
            if k_max == 0 {
                k_max =
                    (spectrum_multiple * (set.len().max(1) as f64).sqrt()).ceil().max(1.0) as usize;
            }
            runs.push(measure_set(&set, rep, seed, seconds, axis_max, k_max));
        }
        all.push(SamplerRuns { sampler: name.into(), runs });
    }
    let chunked_runs = all.pop().unwrap_or_else(|| unreachable!("two samplers"));
    let plain_runs = all.pop().unwrap_or_else(|| unreachable!("two samplers"));
    Ok(ChunkedResult {
        radius: RADIUS,
        chunk_side: side,
        chunks,
        threads,
        k_max,
        plain: plain_runs,
        chunked: chunked_runs,
    })
}

/// The numbers of one set: closest pair, ρ_rel, the axis periodogram `1..=axis_max`, the
/// radial spectrum to `k_max`.
fn measure_set(
    set: &PointSet<2>,
    rep: usize,
    seed: u64,
    seconds: f64,
    axis_max: usize,
    k_max: usize,
) -> ChunkedRun {
    let torus = &set.domain;
    // Reach 2r: a filled set has a pair closer than that, so the grid's answer is exact
    // without the all-pairs fallback.
    let min_distance = min_distance_grid(&set.points, torus, 2.0 * RADIUS);
    let relative_radius = relative_radius_from(2, set.len(), torus.volume(), min_distance, None)
        .map_or(f64::NAN, |r| r.relative_radius);
    let axis = |a: usize| {
        (1..=axis_max as i64)
            .map(|j| {
                let mut k = [0i64; 2];
                k[a] = j;
                periodogram_at(&set.points, torus, &k)
            })
            .collect::<Vec<f64>>()
    };
    let mut spectrum = SpectrumAccumulator::new(SpectrumOptions::new(k_max));
    spectrum.add(&set.points, torus);
    let rings = spectrum.radial().rings.iter().map(|ring| ring.mean_power).collect();
    ChunkedRun {
        rep,
        seed,
        points: set.len(),
        attempts: set.attempts,
        seconds,
        min_distance,
        relative_radius,
        axis_power: [axis(0), axis(1)],
        rings,
    }
}

/// The smallest distance between two of `points` in `domain` (minimum image on a torus), NaN
/// below two points: the library's grid finds every pair closer than `reach` exactly
/// ([`closest_pair_within`]); when no pair is that close, every pair is measured.
pub fn min_distance_grid(points: &[[f64; 2]], domain: &Domain<2>, reach: f64) -> f64 {
    if points.len() < 2 {
        return f64::NAN;
    }
    if let Some((_, _, distance)) = closest_pair_within(domain, points, reach) {
        return distance;
    }
    let mut smallest = f64::INFINITY;
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            smallest = smallest.min(domain.distance_squared(p, q));
        }
    }
    smallest.sqrt()
}

/// The section: the comparison table, the line table, the radial spectra and the axis
/// periodogram.
pub fn section(result: &ChunkedResult, base_seed: u64) -> Result<Section, ReportError> {
    let realisations = result.plain.runs.len();
    let lines = result.lines();
    let agreement = result.spectrum_agreement();
    let (count_ratio, count_ratio_se) = result.ratio(|run| run.points as f64);
    let (rho_ratio, rho_ratio_se) = result.ratio(|run| run.relative_radius);
    let mean = |runs: &SamplerRuns, value: fn(&ChunkedRun) -> f64| {
        mean_and_error(&runs.values(value)).pair()
    };
    let points = |runs: &SamplerRuns| mean(runs, |run| run.points as f64);
    let rho = |runs: &SamplerRuns| mean(runs, |run| run.relative_radius);
    let closest = result.plain.min_distance().min(result.chunked.min_distance()) / result.radius;

    let mut paragraphs = vec![format!(
        "Chunked Bridson (ChunkedBridson: the box cut into chunks, the cells around them decided \
         in D + 1 strata, see docs/algorithms.md, \"Chunked worlds\") promises the quality of \
         plain Bridson: ρ_rel within 1 %, the same radial spectrum, no line at the chunk \
         frequency. Both fill the periodic unit square at r = {}, {realisations} realisation(s) \
         each, every seed derived from the base seed {base_seed} (chunked-realisations.csv). The \
         chunk side asked for is 32 r (half the 2D default, for more seams), which the torus \
         turns into 1/n = {} with n = {} chunks per axis, so a seam would repeat at the frequency k = n·(1, 0) and \
         n·(0, 1) and its multiples; chunked Bridson runs on every core ({} here; its points \
         do not depend on the thread count).",
        short(result.radius),
        short(result.chunk_side),
        result.chunks,
        result.threads,
    )];
    let promise = if (count_ratio - 1.0).abs() <= 0.01 && (rho_ratio - 1.0).abs() <= 0.01 {
        "within the promised 1 %"
    } else {
        "NOT within the promised 1 %"
    };
    let kept =
        if closest >= 1.0 { "so every pair keeps r" } else { "so SOME PAIR IS CLOSER THAN r" };
    paragraphs.push(format!(
        "Chunked Bridson gives {} times plain Bridson's points ({} against {}) and {} times its \
         ρ_rel ({} against {}), {promise}; the closest pair of all {} sets is {} r apart, {kept}.",
        plus_minus(count_ratio, count_ratio_se),
        plus_minus(points(&result.chunked).0, points(&result.chunked).1),
        plus_minus(points(&result.plain).0, points(&result.plain).1),
        plus_minus(rho_ratio, rho_ratio_se),
        plus_minus(rho(&result.chunked).0, rho(&result.chunked).1),
        plus_minus(rho(&result.plain).0, rho(&result.plain).1),
        2 * realisations,
        significant(closest, 8),
    ));
    if let Some(first) = lines.first() {
        let flagged: Vec<String> = lines
            .iter()
            .filter(|l| l.verdict() != "no line")
            .map(|l| format!("{} at k = {}", l.verdict(), l.k))
            .collect();
        let verdict = if flagged.is_empty() {
            format!(
                "at every tested multiple of n (up to {HARMONICS}n) the chunk bin is within \
                 {LINE_THRESHOLD} standard errors of both: no line"
            )
        } else {
            format!("beyond {LINE_THRESHOLD} standard errors: {}", flagged.join(", "))
        };
        paragraphs.push(format!(
            "At the chunk frequency k = {} the periodogram of chunked Bridson, averaged over \
             realisations and both axes, is {} against {} at k ± 1 and {} for plain Bridson; \
             {verdict}.",
            first.k,
            plus_minus(first.chunked.0, first.chunked.1),
            plus_minus(first.neighbours.0, first.neighbours.1),
            plus_minus(first.plain.0, first.plain.1),
        ));
    }
    paragraphs.push(if agreement.rings == 0 {
        "With one realisation per sampler the radial spectra have no standard error; compare \
         the curves by eye."
            .to_string()
    } else {
        format!(
            "The radial spectra differ by more than {RING_THRESHOLD} standard errors at {} of \
             {} rings, where {} would be expected by chance for equal spectra (Welch's t on the \
             realisations of each ring); the largest difference is {} standard errors.",
            agreement.beyond,
            agreement.rings,
            significant(agreement.expected, 2),
            significant(agreement.largest, 3),
        )
    });
    paragraphs.push(
        "The seams leave no mark because no point is placed against a wall: a chunk interior is \
         filled over its box grown by one radius and keeps only its own cell, and each seam \
         cell grows from the live fronts of its decided neighbours (then three darts per scan \
         cell find the last room), so next to a cut the points lie as in one continuous \
         Bridson run and nothing repeats with the chunk period."
            .into(),
    );

    Ok(Section {
        heading: "Chunked Bridson against Bridson".into(),
        paragraphs,
        tables: vec![comparison_table(result), line_table(&lines)],
        figures: vec![spectrum_figure(result)?, axis_figure(result, &lines)?],
        subsections: Vec::new(),
    })
}

/// Count, ρ_rel, attempts and time per sampler with their ratio, and the closest pair.
fn comparison_table(result: &ChunkedResult) -> Table {
    let row = |label: &str, value: fn(&ChunkedRun) -> f64| {
        let cell = |runs: &SamplerRuns| {
            let (mean, se) = mean_and_error(&runs.values(value)).pair();
            plus_minus(mean, se)
        };
        let (ratio, se) = result.ratio(value);
        vec![label.to_string(), cell(&result.plain), cell(&result.chunked), plus_minus(ratio, se)]
    };
    let r = result.radius;
    Table {
        caption: format!(
            "Chunked Bridson against Bridson on the periodic unit square, r = {}: mean ± standard \
             error over {} realisation(s)",
            short(r),
            result.plain.runs.len()
        ),
        header: ["", PLAIN, CHUNKED, "chunked / plain"].map(String::from).to_vec(),
        rows: vec![
            row("points", |run| run.points as f64),
            row("ρ_rel", |run| run.relative_radius),
            row("attempts", |run| run.attempts as f64),
            row("time [ms]", |run| run.seconds * 1e3),
            vec![
                "closest pair / r, all realisations".into(),
                significant(result.plain.min_distance() / r, 8),
                significant(result.chunked.min_distance() / r, 8),
                "—".into(),
            ],
        ],
        text: false,
    }
}

/// The chunk bins against their neighbours and plain Bridson.
fn line_table(lines: &[LineTest]) -> Table {
    Table {
        caption: format!(
            "The periodogram at the chunk frequency k = n and its multiples, mean ± standard error \
             over realisations and both axes (k·(1, 0) and k·(0, 1)); z: the difference in \
             standard errors; a line is a chunk bin more than {LINE_THRESHOLD} standard errors \
             above its neighbours or plain Bridson's bin"
        ),
        header: [
            "k",
            "chunked-bridson P(k)",
            "chunked-bridson P(k ± 1)",
            "z",
            "bridson P(k)",
            "z",
            "verdict",
        ]
        .map(String::from)
        .to_vec(),
        rows: lines
            .iter()
            .map(|l| {
                vec![
                    if l.harmonic == 1 {
                        format!("{} (n)", l.k)
                    } else {
                        format!("{} ({}n)", l.k, l.harmonic)
                    },
                    plus_minus(l.chunked.0, l.chunked.1),
                    plus_minus(l.neighbours.0, l.neighbours.1),
                    significant(l.z_neighbours(), 2),
                    plus_minus(l.plain.0, l.plain.1),
                    significant(l.z_plain(), 2),
                    l.verdict().into(),
                ]
            })
            .collect(),
        text: false,
    }
}

/// Both radial spectra on one chart, with the realisations' table as a second data file.
fn spectrum_figure(result: &ChunkedResult) -> Result<Figure, ReportError> {
    let mut series = Vec::new();
    let mut rows = Vec::new();
    for runs in [&result.plain, &result.chunked] {
        let stats = runs.ring_stats();
        series.push(Series {
            name: runs.sampler.clone(),
            points: stats.iter().enumerate().map(|(b, s)| ((b + 1) as f64, s.0)).collect(),
        });
        for (b, (mean, se)) in stats.iter().enumerate() {
            rows.push(vec![runs.sampler.clone(), (b + 1).to_string(), float(*mean), float(*se)]);
        }
    }
    let svg = plot::radial_spectra(&SpectrumChart {
        title: "Radial power spectrum: chunked and plain Bridson".into(),
        x_label: "frequency |k| [cycles per box side]".into(),
        y_label: "power".into(),
        series,
        reference: Some(Reference { label: "white noise, expected".into(), value: 1.0 }),
        y_max: None,
        y_min: None,
        band: None,
    })?;
    let realisations: Vec<Vec<String>> = [&result.plain, &result.chunked]
        .iter()
        .flat_map(|runs| {
            runs.runs.iter().map(move |run| {
                vec![
                    runs.sampler.clone(),
                    run.rep.to_string(),
                    run.seed.to_string(),
                    run.points.to_string(),
                    run.attempts.to_string(),
                    float(run.relative_radius),
                    float(run.min_distance / result.radius),
                ]
            })
        })
        .collect();
    Ok(Figure {
        file: "chunked-spectrum.svg".into(),
        caption: format!(
            "Radial power spectra of chunked and plain Bridson (r = {}, rings of width 1 up to \
             {} cycles per side), averaged over realisations; white noise has power 1 (dashed). \
             The curves should lie on each other within their noise (the CSV has each ring's \
             standard error).",
            short(result.radius),
            result.k_max
        ),
        svg,
        data: vec![
            DataFile {
                file: "chunked-spectrum.csv".into(),
                text: table_text(&["sampler", "frequency", "power", "std_error"], &rows),
            },
            DataFile {
                file: "chunked-realisations.csv".into(),
                text: table_text(
                    &[
                        "sampler",
                        "rep",
                        "seed",
                        "points",
                        "attempts",
                        "relative_radius",
                        "min_distance_over_r",
                    ],
                    &realisations,
                ),
            },
        ],
    })
}

/// The periodogram along the axes at `j = 1..=3n + 1`, both samplers, the chunk frequencies
/// marked; the line table as a second data file.
fn axis_figure(result: &ChunkedResult, lines: &[LineTest]) -> Result<Figure, ReportError> {
    let mut series = Vec::new();
    let mut rows = Vec::new();
    for runs in [&result.plain, &result.chunked] {
        let mut points = Vec::new();
        for j in 1..=result.axis_max() {
            let along =
                |a: usize| mean_and_error(&runs.values(|run| run.axis_power[a][j - 1])).pair().0;
            let (mean, se) = mean_and_error(&runs.axis_values(j)).pair();
            points.push((j as f64, mean));
            rows.push(vec![
                runs.sampler.clone(),
                j.to_string(),
                float(along(0)),
                float(along(1)),
                float(mean),
                float(se),
            ]);
        }
        series.push(Series { name: runs.sampler.clone(), points });
    }
    let n = result.chunks;
    let svg = plot::marked_curves(
        &SpectrumChart {
            title: "Periodogram along the axes".into(),
            x_label: "j: frequency k = j·(1, 0) and j·(0, 1) [cycles per box side]".into(),
            y_label: "power".into(),
            series,
            reference: None,
            y_max: None,
            y_min: None,
            band: None,
        },
        &VerticalMarks {
            label: "chunk frequency n, 2n, 3n".into(),
            at: (1..=HARMONICS).map(|h| (h * n) as f64).collect(),
        },
    )?;
    let line_rows: Vec<Vec<String>> = lines
        .iter()
        .map(|l| {
            vec![
                l.harmonic.to_string(),
                l.k.to_string(),
                float(l.chunked.0),
                float(l.chunked.1),
                float(l.neighbours.0),
                float(l.neighbours.1),
                float(l.z_neighbours()),
                float(l.plain.0),
                float(l.plain.1),
                float(l.z_plain()),
                l.verdict().into(),
            ]
        })
        .collect();
    Ok(Figure {
        file: "chunked-axis-periodogram.svg".into(),
        caption: format!(
            "The periodogram at k = j·(1, 0) and j·(0, 1), j = 1 … {}, averaged over realisations \
             and both axes, for chunked and plain Bridson; the dashed red lines mark the chunk \
             frequency n = {n} and its multiples, where a seam would stand out as a spike above \
             both neighbours. Blue noise has little power at these low frequencies.",
            result.axis_max()
        ),
        svg,
        data: vec![
            DataFile {
                file: "chunked-axis-periodogram.csv".into(),
                text: table_text(
                    &["sampler", "j", "power_x", "power_y", "power", "std_error"],
                    &rows,
                ),
            },
            DataFile {
                file: "chunked-lines.csv".into(),
                text: table_text(
                    &[
                        "harmonic",
                        "k",
                        "chunked_power",
                        "chunked_std_error",
                        "neighbours_power",
                        "neighbours_std_error",
                        "z_neighbours",
                        "bridson_power",
                        "bridson_std_error",
                        "z_bridson",
                        "verdict",
                    ],
                    &line_rows,
                ),
            },
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::min_pair_distance;
    use crate::plot::sampler_colour;
    use poisson_nd::rng::rng_from_seed;

    #[test]
    fn the_two_samplers_have_different_colours() {
        assert_ne!(sampler_colour(PLAIN), sampler_colour(CHUNKED));
        assert_ne!(sampler_colour(CHUNKED), plot::MARK_COLOUR);
    }

    fn brute_force(points: &[[f64; 2]], domain: &Domain<2>) -> f64 {
        let mut smallest = f64::INFINITY;
        for i in 0..points.len() {
            for j in i + 1..points.len() {
                smallest = smallest.min(domain.distance_squared(&points[i], &points[j]));
            }
        }
        smallest.sqrt()
    }

    #[test]
    fn the_grid_finds_the_closest_pair_exactly() {
        let torus = Domain::<2>::unit().periodic();
        let closed = Domain::<2>::unit();
        let mut rng = rng_from_seed(11);
        for trial in 0..40 {
            let n = 2 + trial * 7;
            let points: Vec<[f64; 2]> = (0..n).map(|_| torus.uniform_point(&mut rng)).collect();
            for domain in [torus, closed] {
                for reach in [0.01, 0.05, 0.2, 0.4, 2.0] {
                    let got = min_distance_grid(&points, &domain, reach);
                    assert_eq!(got, brute_force(&points, &domain), "n {n} reach {reach}");
                }
                let tree = min_pair_distance(&points, &domain).unwrap();
                assert!((min_distance_grid(&points, &domain, 0.1) - tree).abs() < 1e-15);
            }
        }
        // A pair across the wrap: close on the torus, far in the closed square.
        let points = [[0.001, 0.5], [0.999, 0.5001], [0.5, 0.2], [0.3, 0.8]];
        let across = (0.002f64 * 0.002 + 0.0001 * 0.0001).sqrt();
        assert!((min_distance_grid(&points, &torus, 0.1) - across).abs() < 1e-15);
        assert!(min_distance_grid(&points, &closed, 0.1) > 0.3);
        // Corners wrap on both axes; below two points there is no distance.
        let corners = [[0.0005, 0.0005], [0.9995, 0.9995], [0.5, 0.5]];
        assert!((min_distance_grid(&corners, &torus, 0.1) - 0.001 * 2f64.sqrt()).abs() < 1e-12);
        assert!(min_distance_grid(&[[0.5, 0.5]], &torus, 0.1).is_nan());
    }

    fn run(rep: usize, points: usize, rho: f64, along: [f64; 7]) -> ChunkedRun {
        ChunkedRun {
            rep,
            seed: rep as u64,
            points,
            attempts: 0,
            seconds: 0.0,
            min_distance: 0.006,
            relative_radius: rho,
            axis_power: [along.to_vec(), along.iter().map(|p| 2.0 * p).collect()],
            rings: vec![rho, 2.0 * rho],
        }
    }

    #[test]
    fn lines_compare_the_chunk_bin_with_its_neighbours_and_plain_bridson() {
        // n = 2: the bin j = 2 (index 1) and its neighbours j = 1, 3; the axes run to 3n + 1.
        let chunked = SamplerRuns {
            sampler: CHUNKED.into(),
            runs: vec![
                run(0, 100, 0.7, [1.0, 9.0, 3.0, 1.0, 1.0, 1.0, 1.0]),
                run(1, 102, 0.8, [1.0, 11.0, 3.0, 1.0, 1.0, 1.0, 1.0]),
            ],
        };
        let plain = SamplerRuns {
            sampler: PLAIN.into(),
            runs: vec![
                run(0, 100, 0.7, [0.0, 2.0, 0.0, 1.0, 1.0, 1.0, 1.0]),
                run(1, 100, 0.7, [0.0, 2.0, 0.0, 1.0, 1.0, 1.0, 1.0]),
            ],
        };
        assert_eq!(chunked.axis_values(2), vec![9.0, 18.0, 11.0, 22.0]);
        assert_eq!(chunked.neighbour_values(2), vec![2.0, 4.0, 2.0, 4.0]);
        let result = ChunkedResult {
            radius: 0.006,
            chunk_side: 0.5,
            chunks: 2,
            threads: 1,
            k_max: 2,
            plain,
            chunked,
        };
        assert_eq!(result.axis_max(), 7);
        let lines = result.lines();
        assert_eq!(lines.iter().map(|l| l.k).collect::<Vec<_>>(), [2, 4, 6]);
        // Flat elsewhere: equal bins, z = 0, no line.
        assert_eq!(lines[2].z_neighbours(), 0.0);
        assert_eq!(lines[2].verdict(), "no line");
        let line = lines[0];
        assert_eq!((line.harmonic, line.k), (1, 2));
        assert_eq!(line.chunked, mean_and_error(&[9.0, 18.0, 11.0, 22.0]).pair());
        assert!(line.z_neighbours() > LINE_THRESHOLD, "{}", line.z_neighbours());
        assert_eq!(line.verdict(), "LINE");
        let (ratio, se) = result.ratio(|run| run.points as f64);
        assert!((ratio - 1.01).abs() < 1e-12 && se > 0.0);
        // ρ_rel 0.75 ± 0.05 against 0.7 exactly: the ratio's error is the chunked one's.
        let (ratio, se) = result.ratio(|run| run.relative_radius);
        assert!((ratio - 0.75 / 0.7).abs() < 1e-12 && (se - 0.05 / 0.7).abs() < 1e-12);
        // Within the noise: no line; far below: a dip; equal: z = 0.
        let quiet = LineTest {
            harmonic: 1,
            k: 5,
            chunked: (1.0, 0.1),
            neighbours: (1.2, 0.1),
            plain: (0.9, 0.1),
        };
        assert_eq!(quiet.verdict(), "no line");
        let dip = LineTest { chunked: (0.1, 0.01), ..quiet };
        assert_eq!(dip.verdict(), "DIP");
        assert_eq!(z_score((1.0, 0.0), (1.0, 0.0)), 0.0);
        assert_eq!(z_score((2.0, 0.0), (1.0, 0.0)), f64::INFINITY);
    }

    #[test]
    fn student_t_tails_match_known_values() {
        // One degree of freedom is Cauchy: P(|T| > 1) = 1/2, P(|T| > 2) = 1 − 2 atan(2)/π.
        assert!((students_t_two_sided(1.0, 1.0) - 0.5).abs() < 1e-10);
        let cauchy = 1.0 - 2.0 * 2f64.atan() / std::f64::consts::PI;
        assert!((students_t_two_sided(2.0, 1.0) - cauchy).abs() < 1e-10);
        // Two degrees: P(|T| > t) = 1 − t / √(2 + t²).
        assert!((students_t_two_sided(2.0, 2.0) - (1.0 - 2.0 / 6f64.sqrt())).abs() < 1e-10);
        // Many: the normal tail, 0.0455 at 2.
        assert!((students_t_two_sided(2.0, 1e6) - 0.0455).abs() < 1e-4);
    }

    #[test]
    fn spectra_agree_ring_by_ring_by_welch_t() {
        let a = [(1.0, 0.1), (0.5, 0.1), (0.2, 0.0)];
        let b = [(1.0, 0.1), (1.5, 0.1), (0.2, 0.0)];
        let agreement = spectrum_agreement(&a, &b, 4, 4);
        // The third ring has no error and is left out; the second differs by 7 errors.
        assert_eq!((agreement.rings, agreement.beyond), (2, 1));
        assert!((agreement.largest - 1.0 / 0.02f64.sqrt()).abs() < 1e-12);
        // Equal errors over 4 + 4 realisations: ν = 6 for both rings.
        assert!(
            (agreement.expected - 2.0 * students_t_two_sided(RING_THRESHOLD, 6.0)).abs() < 1e-12
        );
        assert_eq!(spectrum_agreement(&a, &b, 1, 4).rings, 0);
    }
}
