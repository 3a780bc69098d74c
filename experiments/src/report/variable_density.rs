//! The "Variable density" section: Bridson and dart throwing (grid) over the generated density
//! map ([`super::generated`]) with the `inverse` mapping, the points drawn over the map, the
//! point count in strips across the gradient against the count the map asks for, and each
//! set's pair-rule check.
//!
//! Under the `inverse` mapping `r = rmin·density^(−1/2)` (unclamped here: the map stays in
//! `[0.1, 1]` and `rmax ≥ rmin·√10`), a Poisson-disk set at radius r has about `c / r²`
//! points per area, so the expected count of a strip is proportional to `∫ density` over it.
//! The constant `c` depends on the sampler, so each set's expected strip counts are its total
//! count shared out in proportion to the strips' integrals: the figure compares the shape of
//! the distribution, not the packing constant.

use super::csv::table_text;
use super::generated::{self, DENSITY_CELLS};
use super::html::{DataFile, Figure, Section, Table};
use super::{ReportError, TimingRow, figure_seed, point_data_file};
use crate::format::{exact as float, short, significant};
use crate::io::PointData;
use crate::metrics::{NeighbourIndex, varying_radius_stats};
use crate::plot::{self, Background, Overlay2d, Series, SpectrumChart};
use poisson_nd::field::{DensityField, DensityMapping, PairRule};
use poisson_nd::{Bridson, DartThrowing, Domain, FillSampler, GridResolution, StopReason};
use std::time::Instant;

/// The smallest radius (density 1).
pub const RMIN: f64 = 0.006;
/// The largest radius the field may give; the map's lowest density, 0.1, needs `rmin·√10`.
pub const RMAX: f64 = 0.02;
/// Strips across the gradient axis (x).
pub const STRIPS: usize = 16;
/// Midpoint-rule samples per strip along x and along y for the strip integrals.
const QUADRATURE: (usize, usize) = (32, 512);
/// The name of the target curve in the strip chart (its colour differs from both samplers').
pub const TARGET: &str = "target";

/// One sampler's run over the density map.
#[derive(Debug, Clone, PartialEq)]
pub struct DensityRun {
    /// The sampler's name.
    pub sampler: String,
    /// Its seed.
    pub seed: u64,
    /// The points.
    pub points: Vec<[f64; 2]>,
    /// Each point's radius.
    pub radii: Vec<f64>,
    /// Why sampling stopped.
    pub stop: StopReason,
    /// Time of the sampling call, in seconds.
    pub seconds: f64,
    /// Points per strip, along x.
    pub strip_counts: Vec<usize>,
    /// Pairs closer than `max(rᵢ, rⱼ)` (the pair rule).
    pub violations: u64,
    /// The smallest `distance / max(rᵢ, rⱼ)` over all pairs (NaN below two points).
    pub min_ratio: f64,
    /// The points with their radii as CSV.
    pub points_file: String,
}

impl DensityRun {
    /// The expected count of each strip: the total shared out in proportion to `integrals`.
    pub fn expected(&self, integrals: &[f64]) -> Vec<f64> {
        let total: f64 = integrals.iter().sum();
        let n = self.points.len() as f64;
        integrals.iter().map(|i| n * i / total).collect()
    }

    /// The mean over strips of `|measured − expected| / expected`, and the mean of the
    /// Poisson sampling error `1/√expected` it is read against.
    pub fn strip_errors(&self, integrals: &[f64]) -> (f64, f64) {
        let expected = self.expected(integrals);
        let k = expected.len() as f64;
        let relative = expected
            .iter()
            .zip(&self.strip_counts)
            .map(|(e, &m)| (m as f64 - e).abs() / e)
            .sum::<f64>()
            / k;
        let sampling = expected.iter().map(|e| 1.0 / e.sqrt()).sum::<f64>() / k;
        (relative, sampling)
    }
}

/// The variable-density experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct DensityResult {
    /// The strips' x intervals.
    pub strips: Vec<(f64, f64)>,
    /// `∫ density` over each strip.
    pub integrals: Vec<f64>,
    /// Bridson, then dart throwing with a grid.
    pub runs: Vec<DensityRun>,
}

/// Samples the density map with both samplers (seeds from `base_seed`).
pub fn measure(base_seed: u64, timings: &mut Vec<TimingRow>) -> Result<DensityResult, ReportError> {
    let domain = Domain::<2>::unit();
    let failed = |e: poisson_nd::Error| ReportError::Figure {
        section: "Variable density",
        message: e.to_string(),
    };
    let grid = generated::density_grid(&domain).map_err(failed)?;
    let field = DensityField::new(grid, DensityMapping::Inverse, RMIN, RMAX).map_err(failed)?;
    let strips: Vec<(f64, f64)> =
        (0..STRIPS).map(|s| (s as f64 / STRIPS as f64, (s + 1) as f64 / STRIPS as f64)).collect();
    let integrals = strips.iter().map(|&(a, b)| strip_integral(&field, a, b)).collect();
    let bridson = Bridson::builder_with_field(domain, field.clone())
        .with_pair_rule(PairRule::Max)
        .build()
        .map_err(failed)?;
    let darts = DartThrowing::builder_with_field(domain, field)
        .with_pair_rule(PairRule::Max)
        .with_grid(GridResolution::default())
        .build()
        .map_err(failed)?;
    let mut runs = Vec::new();
    for name in ["bridson", "dart-throwing-grid"] {
        let seed = figure_seed(base_seed, "variable-density", name);
        let start = Instant::now();
        let set =
            if name == "bridson" { bridson.fill_seeded(seed) } else { darts.fill_seeded(seed) };
        let seconds = start.elapsed().as_secs_f64();
        timings.push(TimingRow {
            experiment: "variable-density",
            sampler: name.into(),
            dim: 2,
            n: set.len(),
            rep: 0,
            seed,
            seconds,
        });
        let radii = set.radii.clone().ok_or_else(|| ReportError::Figure {
            section: "Variable density",
            message: format!("{name} returned no radii"),
        })?;
        let index = NeighbourIndex::new(&set.points, &domain);
        let violations = varying_radius_stats(&index, &radii, PairRule::Max).violations;
        let min_ratio = smallest_ratio(&index, &radii);
        let mut strip_counts = vec![0; STRIPS];
        for p in &set.points {
            strip_counts[((p[0] * STRIPS as f64) as usize).min(STRIPS - 1)] += 1;
        }
        let file = format!("density-points-{name}.csv");
        let points_file = point_data_file(&PointData::from_point_set(set.clone()), &file)?;
        runs.push(DensityRun {
            sampler: name.into(),
            seed,
            points: set.points,
            radii,
            stop: set.stop,
            seconds,
            strip_counts,
            violations,
            min_ratio,
            points_file,
        });
    }
    Ok(DensityResult { strips, integrals, runs })
}

/// `∫ density` over the strip `[a, b) × [0, 1)` by the midpoint rule on the field as the
/// samplers read it (the interpolated grid).
fn strip_integral(field: &DensityField<2>, a: f64, b: f64) -> f64 {
    let (nx, ny) = QUADRATURE;
    let (hx, hy) = ((b - a) / nx as f64, 1.0 / ny as f64);
    let mut sum = 0.0;
    for i in 0..nx {
        for j in 0..ny {
            sum += field.density(&[a + (i as f64 + 0.5) * hx, (j as f64 + 0.5) * hy]);
        }
    }
    sum * hx * hy
}

/// The smallest `distance / max(rᵢ, rⱼ)` over all pairs. The pair attaining it is found from
/// its point of larger radius `rᵢ`, within `1.5·rᵢ` (a filled set has a pair below 1.5; if
/// none is, the answer is `+∞`, a lower bound that still says "no violation").
fn smallest_ratio(index: &NeighbourIndex<2>, radii: &[f64]) -> f64 {
    if radii.len() < 2 {
        return f64::NAN;
    }
    let mut smallest = f64::INFINITY;
    for (i, p) in index.points().iter().enumerate() {
        index.for_each_within(p, 1.5 * radii[i], |j, d2| {
            if j != i && radii[j] <= radii[i] {
                smallest = smallest.min(d2.sqrt() / radii[i]);
            }
        });
    }
    smallest
}

/// The section: the map with each set, the strip chart, the pair-rule table.
pub fn section(result: &DensityResult) -> Result<Section, ReportError> {
    let n = DENSITY_CELLS;
    // The map as the figures show it: rows of y, the first at the lowest y.
    let centre = |k: usize| (k as f64 + 0.5) / n as f64;
    let map_values: Vec<f64> = (0..n)
        .flat_map(|row| (0..n).map(move |col| generated::density(centre(col), centre(row))))
        .collect();
    let map_rows: Vec<Vec<String>> = (0..n)
        .flat_map(|row| {
            (0..n).map(move |col| {
                // Four digits: far finer than the figure's greys.
                vec![
                    float(centre(col)),
                    float(centre(row)),
                    significant(generated::density(centre(col), centre(row)), 4),
                ]
            })
        })
        .collect();
    let map_file = DataFile {
        file: "density-map.csv".into(),
        text: table_text(&["x", "y", "density"], &map_rows),
    };
    let mut figures = Vec::new();
    for run in &result.runs {
        let svg = plot::overlay_2d(&Overlay2d {
            title: format!("{} over the density map (N = {})", run.sampler, run.points.len()),
            name: run.sampler.clone(),
            points: run.points.clone(),
            lo: [0.0, 0.0],
            hi: [1.0, 1.0],
            background: Some(Background {
                columns: n,
                rows: n,
                values: map_values.clone(),
                min: 0.0,
                max: 1.0,
            }),
            outlines: Vec::new(),
        })?;
        figures.push(Figure {
            file: format!("density-points-{}.svg", run.sampler),
            caption: format!(
                "{}: every point (seed {}) over the density map in grey (white 0, darkest 1).",
                run.sampler, run.seed
            ),
            svg,
            data: vec![
                DataFile {
                    file: format!("density-points-{}.csv", run.sampler),
                    text: run.points_file.clone(),
                },
                map_file.clone(),
            ],
        });
    }
    figures.push(strip_figure(result)?);

    let mut paragraphs = vec![format!(
        "A density map made by the report (no input file): a gradient along x from 0.1 to 0.8 \
         plus a bump of height 0.2 at (0.35, 0.5), sampled on a {n} × {n} grid over the closed \
         unit square and interpolated bilinearly. Radii follow the inverse mapping, \
         r = rmin·density^(−1/2) with rmin = {}, so the expected number of points per area is \
         proportional to the density; the pair rule is max (every pair at least max(rᵢ, rⱼ) \
         apart). Bridson and dart throwing with a grid fill the square. The strip chart counts \
         the points in {STRIPS} strips across the gradient and compares them with the count the \
         map asks for: the set's total shared out in proportion to ∫ density over each strip \
         (midpoint rule on the interpolated map), shown as points per area.",
        short(RMIN)
    )];
    for run in &result.runs {
        let (relative, sampling) = run.strip_errors(&result.integrals);
        paragraphs.push(format!(
            "{}: {} points; the strip counts differ from the target by {} % on average, against \
             a Poisson sampling error of {} % per strip (1/√expected; a blue-noise set varies \
             less than that). The ratio of the fullest to the emptiest strip is {} measured, {} \
             expected.",
            run.sampler,
            run.points.len(),
            short(100.0 * relative),
            short(100.0 * sampling),
            short(spread(&run.strip_counts.iter().map(|&c| c as f64).collect::<Vec<_>>())),
            short(spread(&run.expected(&result.integrals))),
        ));
    }
    let all_clear = result.runs.iter().all(|r| r.violations == 0);
    paragraphs.push(format!(
        "The pair-rule check (every pair, with a k-d tree): {}. The smallest distance / max(rᵢ, \
         rⱼ) over all pairs is at least 1 exactly when no pair violates the rule; the table \
         gives it.",
        if all_clear {
            "no pair is closer than its rule allows in either set"
        } else {
            "SOME PAIRS VIOLATE THE RULE"
        }
    ));
    let table = Table {
        caption: "Pair rule max(rᵢ, rⱼ): violations and the closest pair".into(),
        header: [
            "sampler",
            "points",
            "stopped",
            "violations",
            "min distance / max(rᵢ, rⱼ)",
            "seed",
        ]
        .map(String::from)
        .to_vec(),
        rows: result
            .runs
            .iter()
            .map(|r| {
                vec![
                    r.sampler.clone(),
                    r.points.len().to_string(),
                    r.stop.as_str().to_string(),
                    r.violations.to_string(),
                    significant(r.min_ratio, 6),
                    r.seed.to_string(),
                ]
            })
            .collect(),
        text: false,
    };
    Ok(Section {
        heading: "Variable density".into(),
        paragraphs,
        tables: vec![table],
        figures,
        subsections: Vec::new(),
    })
}

/// The largest value over the smallest.
fn spread(values: &[f64]) -> f64 {
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    max / min
}

/// Measured and target points per area in each strip, against the strip's centre.
fn strip_figure(result: &DensityResult) -> Result<Figure, ReportError> {
    let centres: Vec<f64> = result.strips.iter().map(|(a, b)| 0.5 * (a + b)).collect();
    let widths: Vec<f64> = result.strips.iter().map(|(a, b)| b - a).collect();
    let mut series = Vec::new();
    let mut rows = Vec::new();
    // The target is the same shape for both sets; its scale follows the first set's total.
    for (k, run) in result.runs.iter().enumerate() {
        let expected = run.expected(&result.integrals);
        if k == 0 {
            series.push(Series {
                name: TARGET.into(),
                points: centres
                    .iter()
                    .zip(&expected)
                    .zip(&widths)
                    .map(|((&x, e), w)| (x, e / w))
                    .collect(),
            });
        }
        series.push(Series {
            name: run.sampler.clone(),
            points: centres
                .iter()
                .zip(&run.strip_counts)
                .zip(&widths)
                .map(|((&x, &m), w)| (x, m as f64 / w))
                .collect(),
        });
        for s in 0..result.strips.len() {
            let (a, b) = result.strips[s];
            let m = run.strip_counts[s] as f64;
            rows.push(vec![
                run.sampler.clone(),
                float(a),
                float(b),
                run.strip_counts[s].to_string(),
                float(expected[s]),
                float(result.integrals[s]),
                float(m / widths[s]),
                float(expected[s] / widths[s]),
                float((m - expected[s]) / expected[s]),
                float(1.0 / expected[s].sqrt()),
            ]);
        }
    }
    let svg = plot::radial_spectra(&SpectrumChart {
        title: "Points per area across the gradient".into(),
        x_label: "x (strip centre)".into(),
        y_label: "points per unit area".into(),
        series,
        reference: None,
        y_max: None,
        y_min: None,
        band: None,
    })?;
    Ok(Figure {
        file: "density-strips.svg".into(),
        caption: format!(
            "Points per area in {} strips across the gradient: each set (its colour) against the \
             target from ∫ density (`{TARGET}`, scaled to the first set's total; the CSV has each \
             set's own).",
            result.strips.len()
        ),
        svg,
        data: vec![DataFile {
            file: "density-strips.csv".into(),
            text: table_text(
                &[
                    "sampler",
                    "x_lower",
                    "x_upper",
                    "points",
                    "expected",
                    "density_integral",
                    "points_per_area",
                    "expected_per_area",
                    "relative_error",
                    "sampling_error",
                ],
                &rows,
            ),
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::sampler_colour;

    #[test]
    fn the_target_has_its_own_colour() {
        for name in ["bridson", "dart-throwing-grid"] {
            assert_ne!(sampler_colour(TARGET), sampler_colour(name));
        }
    }

    #[test]
    fn strip_integrals_add_up_to_the_map_integral() {
        let domain = Domain::<2>::unit();
        let grid = generated::density_grid(&domain).unwrap();
        let field = DensityField::new(grid, DensityMapping::Inverse, RMIN, RMAX).unwrap();
        let whole = strip_integral(&field, 0.0, 1.0);
        let parts: f64 =
            (0..4).map(|s| strip_integral(&field, s as f64 / 4.0, (s + 1) as f64 / 4.0)).sum();
        assert!((whole - parts).abs() < 1e-3 * whole);
        // Gradient 0.1 + 0.7x integrates to 0.45; the bump adds 0.2·2π·0.08² ≈ 0.008.
        assert!((whole - 0.458).abs() < 0.005, "{whole}");
        // The lowest density keeps the mapping unclamped.
        assert!(RMIN / 0.1f64.sqrt() <= RMAX);
    }

    #[test]
    fn strip_errors_of_an_exact_match_are_zero() {
        let run = DensityRun {
            sampler: "bridson".into(),
            seed: 0,
            points: vec![[0.0; 2]; 30],
            radii: vec![0.1; 30],
            stop: StopReason::Exhausted,
            seconds: 0.0,
            strip_counts: vec![10, 20],
            violations: 0,
            min_ratio: 1.0,
            points_file: String::new(),
        };
        assert_eq!(run.expected(&[1.0, 2.0]), vec![10.0, 20.0]);
        let (relative, sampling) = run.strip_errors(&[1.0, 2.0]);
        assert_eq!(relative, 0.0);
        assert!((sampling - 0.5 * (1.0 / 10f64.sqrt() + 1.0 / 20f64.sqrt())).abs() < 1e-15);
    }

    #[test]
    fn the_smallest_ratio_matches_brute_force() {
        let points = [[0.1, 0.1], [0.13, 0.1], [0.5, 0.5], [0.52, 0.52], [0.9, 0.2]];
        let radii: [f64; 5] = [0.02, 0.035, 0.04, 0.01, 0.05];
        let index = NeighbourIndex::new(&points, &Domain::unit());
        let mut brute = f64::INFINITY;
        for i in 0..points.len() {
            for j in i + 1..points.len() {
                let d = ((points[i][0] - points[j][0]).powi(2)
                    + (points[i][1] - points[j][1]).powi(2))
                .sqrt();
                brute = brute.min(d / radii[i].max(radii[j]));
            }
        }
        assert!((smallest_ratio(&index, &radii) - brute).abs() < 1e-15);
    }
}
