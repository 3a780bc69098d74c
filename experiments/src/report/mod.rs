//! The comparison report: `experiments report [--config FILE] [--out DIR] [--quick]`, also run
//! when `experiments` is given no subcommand.
//!
//! For every dimension of the configuration and every sampler it draws the configured number
//! of realisations (each with a seed derived from the base seed and recorded), times the
//! sampling call, analyses the point set ([`analysis::Analyzer`]), and then writes to the
//! output directory:
//!
//! - `results.csv`: tidy rows `sampler,dim,n,rep,seed,metric,value`, in configuration order
//!   (dimension, sampler, realisation, metric); identical bytes on every rerun of the same
//!   configuration and version;
//! - `timings.csv`: `experiment,sampler,dim,n,rep,seed,seconds` for the comparison runs and
//!   the scaling experiment (times vary between runs, so they are kept apart);
//! - `config.toml`: the configuration, complete, which reproduces `results.csv` with
//!   `--config`;
//! - `index.html`: one self-contained page (environment, tables, inline SVG figures with a
//!   paragraph on how to read each, metric definitions, configuration), `figures/*.svg`, the
//!   same figures as files, and `figures/*.csv.gz`, the data each figure is drawn from (CSV,
//!   gzip-compressed).
//!
//! In each dimension the radius-driven samplers run first; the count-driven ones then draw the
//! mean count of the first radius-driven sampler (unless `dims.n` gives it), so all are
//! compared at about the same density. The optional scaling experiment times each listed
//! sampler at a range of target counts and fits power laws to time and (for radius-driven
//! samplers) attempts against N. `docs/report.md` describes every figure and key.
//!
//! Three more sections stand beside the comparison, on inputs the report generates itself
//! ([`generated`]): "Variable density" ([`variable_density`]: Bridson and dart throwing over a
//! density map, strip counts against the map's integral, the pair-rule check) and "Regions"
//! ([`regions`]: Bridson and Halton in a polygon with a hole and two islands, Bridson in a
//! torus mesh), and "On surfaces" ([`surfaces`]: a maximal fill, sample elimination and
//! uniform points on a displaced sphere's surface). Their sizes are fixed (a fraction of a second in all); their seeds come from
//! the base seed through [`figure_seed`] and are written beside their figures. Another,
//! "Chunked Bridson against Bridson" ([`chunked`]), fills the periodic unit square with plain
//! and chunked Bridson, the configuration's number of realisations each (seeds from
//! [`realisation_seed`]), and tests the chunked sampler's promise of equal quality: count,
//! ρ_rel, closest pair, radial spectrum and the periodogram at the chunk frequency. Beside the
//! comparison stand "Spatial statistics" ([`spatial`]: L(r) − r and J(r) of every sampler
//! against a white-noise envelope) and "Farthest-point optimisation against the paper"
//! ([`frontier`]: FPO's convergence from white noise beside the published figures).
//!
//! A progress bar goes to stderr (when it is a terminal); a summary table to stdout.
//!
//! Seeds: realisation `rep` of sampler `name` in dimension `D` is sampled with
//! [`comparison_seed`], a chain of [`poisson_nd::rng::derive_seed`] over the base seed, the
//! experiment, `D`, a fixed 64-bit hash (FNV-1a) of the name and `rep`; the scaling runs use
//! [`scaling_seed`], which also takes the target count. Reordering or adding samplers changes
//! no other sampler's seeds.
#![deny(missing_docs)]

pub mod analysis;
pub mod chunked;
pub mod csv;
pub mod environment;
pub mod frontier;
pub mod generated;
pub mod html;
mod prose;
pub mod regions;
mod scaling;
mod sections;
pub mod spatial;
mod summary;
pub mod surfaces;
pub mod variable_density;

use crate::analyze::AnalyzeIn;
use crate::config::{Config, ConfigError, DimConfig};
use crate::dims::Dim;
use crate::fit::{PowerLaw, power_law};
use crate::io::write_atomically;
use crate::metrics::{Periodogram, max_spacing};
use crate::plot::{NnHistogram, PlotError, Series};
use crate::spec::{BuildIn, Built, SamplerSpec};
use crate::with_dim;
use analysis::{AnalysisContext, Analyzer, Curve, Measurements, StandardAnalyzer};
use csv::{ResultRow, TimingRow};
use environment::Environment;
use html::Page;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use poisson_nd::rng::derive_seed;
use poisson_nd::{Domain, StopReason};
use sections::sections;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;
use summary::summary;

/// Command-line arguments of `experiments report`.
#[derive(clap::Args, Debug, Clone, PartialEq)]
pub struct ReportArgs {
    /// Configuration file (TOML); without it the embedded default configuration runs.
    #[arg(long, conflicts_with = "quick")]
    pub config: Option<PathBuf>,
    /// Output directory (created if missing; files in it are overwritten).
    #[arg(long, default_value = "report")]
    pub out: PathBuf,
    /// Run the embedded quick configuration instead: the same report in seconds.
    #[arg(long)]
    pub quick: bool,
}

impl Default for ReportArgs {
    fn default() -> Self {
        ReportArgs { config: None, out: PathBuf::from("report"), quick: false }
    }
}

/// Why a report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The configuration is unusable.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A sampler rejected its parameters.
    #[error("samplers[{index}] ('{name}') in {dim}D: {message}")]
    Build {
        /// Position in the `samplers` list.
        index: usize,
        /// The sampler.
        name: String,
        /// The dimension.
        dim: usize,
        /// The sampler's error.
        message: String,
    },
    /// No point count for the count-driven samplers.
    #[error(
        "dims[{index}] ({dim}D): no radius-driven sampler is listed to set N for the others; give dims[{index}].n"
    )]
    NoCount {
        /// Position in the `dims` list.
        index: usize,
        /// The dimension.
        dim: usize,
    },
    /// A figure could not be drawn.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// A generated input or a sampler of the variable-density, regions or chunked section
    /// failed.
    #[error("section {section}: {message}")]
    Figure {
        /// The section.
        section: &'static str,
        /// What failed.
        message: String,
    },
    /// A file could not be written.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Runs `experiments report`: loads the configuration, makes the report, prints the summary.
pub fn run(args: &ReportArgs) -> Result<(), String> {
    crate::io::check_output_folder(&args.out, "--out")?;
    let config = match (&args.config, args.quick) {
        (Some(path), _) => Config::load(path),
        (None, true) => Config::quick_config(),
        (None, false) => Config::default_config(),
    }
    .map_err(|e| e.to_string())?;
    let show_progress = std::io::stderr().is_terminal();
    let outcome = write_report(&config, &args.out, &StandardAnalyzer, show_progress)
        .map_err(|e| e.to_string())?;
    crate::io::print_out(&format!(
        "{}report written to {}\n",
        outcome.summary,
        args.out.join("index.html").display()
    ))?;
    Ok(())
}

/// One realisation of one sampler.
#[derive(Debug, Clone, PartialEq)]
pub struct Realisation {
    /// The realisation, from 0.
    pub rep: usize,
    /// The seed it was sampled with.
    pub seed: u64,
    /// Points produced.
    pub n: usize,
    /// Candidates generated (the work done).
    pub attempts: u64,
    /// Why sampling stopped.
    pub stop: StopReason,
    /// Time of the sampling call, in seconds.
    pub seconds: f64,
    /// The scalar metrics.
    pub scalars: Vec<(String, f64)>,
}

/// All realisations of one sampler in one dimension.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplerResult {
    /// The sampler's name.
    pub name: String,
    /// The sampler, as configured.
    pub spec: SamplerSpec,
    /// Whether it is radius-driven (promises a minimum distance).
    pub radius_driven: bool,
    /// The realisations, in order.
    pub realisations: Vec<Realisation>,
    /// The points of the first realisation, for the point-set figures.
    pub first_points: Vec<Vec<f64>>,
    /// The same points as a point file (CSV), the figures' data.
    pub first_points_file: String,
    /// The radial spectrum averaged over realisations.
    pub spectrum: Option<Curve>,
    /// The periodogram averaged over realisations.
    pub periodogram: Option<Periodogram>,
    /// The nearest-neighbour histogram in units of `r`, as densities averaged over
    /// realisations, with the white-noise density.
    pub histogram: Option<NnHistogram>,
    /// The pair correlation function averaged over realisations.
    pub pair_correlation: Option<Curve>,
    /// `L(r) − r` averaged over realisations ([`analysis::spatial_curves`]).
    pub l_minus_r: Option<Curve>,
    /// `J(r)` averaged over realisations.
    pub j_function: Option<Curve>,
}

/// The comparison in one dimension.
#[derive(Debug, Clone, PartialEq)]
pub struct DimResult {
    /// The dimension.
    pub dim: usize,
    /// The box's lower corner.
    pub origin: Vec<f64>,
    /// The box's sides.
    pub extent: Vec<f64>,
    /// The radius the radius-driven samplers were given.
    pub radius: f64,
    /// The count the count-driven samplers were given, if any ran.
    pub count: Option<usize>,
    /// The nominal count (see [`AnalysisContext::nominal_count`]).
    pub nominal_count: usize,
    /// The samplers, in configuration order.
    pub samplers: Vec<SamplerResult>,
    /// The white-noise envelope of the spatial statistics at the comparison's count.
    pub envelope: Option<spatial::Envelope>,
}

/// One timed run of the scaling experiment.
#[derive(Debug, Clone, PartialEq)]
pub struct ScalingRun {
    /// The sampler.
    pub sampler: String,
    /// The target count (radius-driven samplers: the count the radius was derived from).
    pub target: usize,
    /// The points produced.
    pub n: usize,
    /// The run at this target, from 0.
    pub rep: usize,
    /// The seed.
    pub seed: u64,
    /// Candidates generated.
    pub attempts: u64,
    /// Time of the sampling call, in seconds.
    pub seconds: f64,
}

/// The scaling experiment's results.
#[derive(Debug, Clone, PartialEq)]
pub struct ScalingResult {
    /// The dimension.
    pub dim: usize,
    /// Every run, by sampler, target and run.
    pub runs: Vec<ScalingRun>,
    /// One series of (points produced, seconds) per sampler.
    pub series: Vec<Series>,
    /// The power law fitted to each series of `series`.
    pub fits: Vec<Option<PowerLaw>>,
    /// One series of (points produced, attempts) per radius-driven sampler: the work of
    /// rejection sampling.
    pub attempts: Vec<Series>,
    /// The power law fitted to each series of `attempts`.
    pub attempts_fits: Vec<Option<PowerLaw>>,
}

/// Everything a report run measured.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportData {
    /// Per dimension, in configuration order.
    pub dims: Vec<DimResult>,
    /// The scaling experiment, if configured.
    pub scaling: Option<ScalingResult>,
    /// The variable-density experiment.
    pub variable_density: variable_density::DensityResult,
    /// The regions experiment.
    pub regions: regions::RegionsResult,
    /// Chunked Bridson against Bridson.
    pub chunked: chunked::ChunkedResult,
    /// Points on a surface.
    pub surfaces: surfaces::SurfacesResult,
    /// Farthest-point optimisation's convergence beside the published figures.
    pub fpo_convergence: frontier::FpoConvergence,
    /// Every timed run.
    pub timings: Vec<TimingRow>,
}

/// What [`write_report`] produced.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The measurements.
    pub data: ReportData,
    /// The summary tables printed by `experiments report`.
    pub summary: String,
    /// The files written.
    pub files: Vec<PathBuf>,
}

/// Runs the configured experiments with `analyzer` and writes the report into `out`.
pub fn write_report<A: Analyzer>(
    config: &Config,
    out: &Path,
    analyzer: &A,
    show_progress: bool,
) -> Result<Outcome, ReportError> {
    config.validate()?;
    let environment = Environment::detect();
    let config_toml = config.to_toml()?;
    let data = measure(config, analyzer, show_progress)?;
    let sections = sections(config, &data, analyzer)?;
    let page = Page {
        title: "poisson-nd: sampler comparison".into(),
        environment,
        config_toml: config_toml.clone(),
        sections,
    };

    let figures_dir = out.join("figures");
    std::fs::create_dir_all(&figures_dir)
        .map_err(|source| ReportError::Write { path: figures_dir.clone(), source })?;
    let mut files = Vec::new();
    let mut write = |path: PathBuf, bytes: &[u8]| {
        write_atomically(&path, bytes)
            .map_err(|source| ReportError::Write { path: path.clone(), source })?;
        files.push(path);
        Ok::<(), ReportError>(())
    };
    let mut results = Vec::new();
    csv::write_results(&mut results, &result_rows(&data))
        .map_err(|source| ReportError::Write { path: out.join("results.csv"), source })?;
    write(out.join("results.csv"), &results)?;
    let mut timings = Vec::new();
    csv::write_timings(&mut timings, &data.timings)
        .map_err(|source| ReportError::Write { path: out.join("timings.csv"), source })?;
    write(out.join("timings.csv"), &timings)?;
    write(out.join("config.toml"), config_toml.as_bytes())?;
    // A data file shared by several figures is written once.
    let mut data_files = std::collections::BTreeSet::new();
    for figure in all_figures(&page.sections) {
        write(figures_dir.join(&figure.file), figure.svg.as_bytes())?;
        for data in &figure.data {
            if data_files.insert(data.file.as_str()) {
                let path = figures_dir.join(data.written_name());
                let bytes = data
                    .compressed()
                    .map_err(|source| ReportError::Write { path: path.clone(), source })?;
                write(path, &bytes)?;
            }
        }
    }
    write(out.join("index.html"), html::render_page(&page).as_bytes())?;
    let summary = summary(config, &data, analyzer);
    Ok(Outcome { data, summary, files })
}

/// Every figure of `sections` and their subsections, in page order.
fn all_figures(sections: &[html::Section]) -> Vec<&html::Figure> {
    sections.iter().flat_map(|s| s.figures.iter().chain(all_figures(&s.subsections))).collect()
}

/// The seed of realisation `rep` of `sampler` in dimension `dim` of the comparison.
pub fn comparison_seed(base: u64, dim: usize, sampler: &str, rep: usize) -> u64 {
    chain(base, &[1, dim as u64, name_stream(sampler), rep as u64])
}

/// The seed of run `rep` of `sampler` at target count `n` in the scaling experiment.
pub fn scaling_seed(base: u64, dim: usize, sampler: &str, n: usize, rep: usize) -> u64 {
    chain(base, &[2, dim as u64, name_stream(sampler), n as u64, rep as u64])
}

/// The seed of `sampler` in one of the report's generated-input experiments (`experiment`:
/// `"variable-density"`, `"regions-polygon"`, `"regions-torus"`).
pub fn figure_seed(base: u64, experiment: &str, sampler: &str) -> u64 {
    chain(base, &[3, name_stream(experiment), name_stream(sampler)])
}

/// The seed of realisation `rep` of `sampler` in a generated-input experiment with several
/// realisations (`"chunked"`): [`figure_seed`]'s chain continued by `rep`.
pub fn realisation_seed(base: u64, experiment: &str, sampler: &str, rep: usize) -> u64 {
    derive_seed(figure_seed(base, experiment, sampler), rep as u64)
}

/// A sampler's name as a stream number: its 64-bit FNV-1a hash, fixed forever.
fn name_stream(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn chain(base: u64, streams: &[u64]) -> u64 {
    streams.iter().fold(base, |seed, &stream| derive_seed(seed, stream))
}

/// The Poisson-disk radius `relative · d_max(n)` for `n` points in volume `volume` of
/// dimension `dim`, where `d_max = 2 (η_D V / (n V_D))^(1/D)` is the spacing of the densest
/// known lattice packing ([`crate::metrics::max_spacing`]). NaN outside dimensions 1 to 8.
pub fn radius_for_count(n: usize, dim: usize, volume: f64, relative: f64) -> f64 {
    max_spacing(dim, n.max(1), volume).map_or(f64::NAN, |d_max| relative * d_max)
}

/// The inverse of [`radius_for_count`]: the count `N` (rounded, at least 1) whose
/// `relative · d_max(N)` is `radius`, `N = η_D V / V_D · (2 relative / radius)^D`. This is
/// the nominal count of a dimension given by its radius.
pub fn nominal_count(dim: usize, radius: f64, volume: f64, relative: f64) -> usize {
    // d_max(1) = 2 (η_D V / V_D)^(1/D), and d_max(N) = d_max(1) N^(−1/D).
    let Some(single) = max_spacing(dim, 1, volume) else {
        return 1;
    };
    let count = (single * relative / radius).powi(dim as i32);
    if count.is_finite() { (count.round() as usize).max(1) } else { 1 }
}

fn progress_bar(config: &Config, show: bool) -> ProgressBar {
    let comparison = config
        .dims
        .iter()
        .map(|d| config.samplers.iter().filter(|s| runs_in(s, d.dim)).count())
        .sum::<usize>()
        * config.realisations;
    let scaling = config.scaling.as_ref().map_or(0, |s| {
        s.samplers.iter().map(|name| s.counts_for(name).len()).sum::<usize>() * s.reps
    });
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(
        Some((comparison + scaling) as u64),
        ProgressDrawTarget::stderr(),
    );
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{bar:32}] {pos}/{len} {msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// Runs every experiment of the configuration.
fn measure<A: Analyzer>(
    config: &Config,
    analyzer: &A,
    show_progress: bool,
) -> Result<ReportData, ReportError> {
    let bar = progress_bar(config, show_progress);
    let mut timings = Vec::new();
    let mut dims = Vec::new();
    for (index, entry) in config.dims.iter().enumerate() {
        let result = with_dim!(entry.dim, D => measure_dim::<D, A>(config, index, entry, analyzer, &bar, &mut timings),
            else unreachable!("validated dimension"))?;
        dims.push(result);
    }
    let scaling = match &config.scaling {
        Some(scaling) => {
            Some(with_dim!(scaling.dim, D => measure_scaling::<D>(config, &bar, &mut timings),
            else unreachable!("validated dimension"))?)
        }
        None => None,
    };
    bar.set_message("variable density and regions");
    let variable_density = variable_density::measure(config.seed, &mut timings)?;
    let regions = regions::measure(config.seed, &mut timings)?;
    bar.set_message("points on a surface");
    let surfaces = surfaces::measure(config.seed, &mut timings)?;
    bar.set_message("chunked Bridson against Bridson");
    let chunked = chunked::measure(
        config.seed,
        config.realisations,
        config.metrics.spectrum_max_frequency,
        &mut timings,
    )?;
    bar.set_message("farthest-point optimisation against the paper");
    let fpo_convergence = frontier::measure(config.seed, &mut timings)?;
    bar.finish_and_clear();
    Ok(ReportData {
        dims,
        scaling,
        variable_density,
        regions,
        chunked,
        surfaces,
        fpo_convergence,
        timings,
    })
}

/// The box of the comparison in `D` dimensions: the unit box, periodic or not as configured.
/// Everything downstream reads its volume and sides from it.
fn comparison_domain<const D: usize>(config: &Config) -> Domain<D> {
    crate::domains::unit(config.periodic)
}

/// Whether the sampler takes `dim` dimensions (the comparison leaves it out where not).
pub fn runs_in(spec: &SamplerSpec, dim: usize) -> bool {
    spec.capabilities().takes_dimension(dim)
}

/// Builds `config.samplers[index]` in the comparison's box with `radius`.
fn build<const D: usize>(
    config: &Config,
    index: usize,
    radius: f64,
) -> Result<Built<D>, ReportError>
where
    Dim<D>: BuildIn<D>,
{
    let spec = &config.samplers[index];
    spec.build(comparison_domain::<D>(config), Some(radius), None).map_err(|e| ReportError::Build {
        index,
        name: spec.name().to_string(),
        dim: D,
        message: e.to_string(),
    })
}

fn measure_dim<const D: usize, A: Analyzer>(
    config: &Config,
    index: usize,
    entry: &DimConfig,
    analyzer: &A,
    bar: &ProgressBar,
    timings: &mut Vec<TimingRow>,
) -> Result<DimResult, ReportError>
where
    Dim<D>: BuildIn<D> + AnalyzeIn<D>,
{
    let domain = comparison_domain::<D>(config);
    let volume = domain.volume();
    let radius = match (entry.radius, entry.n) {
        (Some(radius), _) => radius,
        (None, Some(n)) => radius_for_count(n, D, volume, config.relative_radius),
        (None, None) => unreachable!("validated: radius or n"),
    };
    let nominal =
        entry.n.unwrap_or_else(|| nominal_count(D, radius, volume, config.relative_radius));
    // A sampler that does not take this dimension (PMJ02 above 2D) sits it out.
    let samplers = (0..config.samplers.len())
        .map(|i| runs_in(&config.samplers[i], D).then(|| build::<D>(config, i, radius)).transpose())
        .collect::<Result<Vec<_>, _>>()?;
    // Radius-driven samplers run first: their mean count sets N for the others.
    let mut order: Vec<usize> = (0..samplers.len()).filter(|&i| samplers[i].is_some()).collect();
    order.sort_by_key(|&i| !config.samplers[i].is_radius_driven());
    let mut count = entry.n;
    let mut results: Vec<Option<SamplerResult>> = vec![None; samplers.len()];
    for i in order {
        let Some(sampler) = &samplers[i] else { continue };
        let spec = &config.samplers[i];
        let name = spec.name();
        let radius_driven = spec.is_radius_driven();
        // Radius-driven samplers fill the box; count-driven ones draw N points.
        let n = if radius_driven {
            None
        } else {
            Some(count.ok_or(ReportError::NoCount { index, dim: D })?)
        };
        let mut realisations = Vec::new();
        let mut analyses = Vec::new();
        let mut first_points = Vec::new();
        let mut first_points_file = String::new();
        for rep in 0..config.realisations {
            bar.set_message(format!("{D}D {name} #{rep}"));
            let seed = comparison_seed(config.seed, D, name, rep);
            let start = Instant::now();
            let set = sampler.run(n, seed);
            let seconds = start.elapsed().as_secs_f64();
            timings.push(TimingRow {
                experiment: "comparison",
                sampler: name.into(),
                dim: D,
                n: set.len(),
                rep,
                seed,
                seconds,
            });
            let context = AnalysisContext {
                sampler: name,
                dim: D,
                rep,
                seed,
                radius,
                nominal_count: nominal,
                sampler_radius: sampler.min_distance(),
                options: &config.metrics,
            };
            let analysis = analyzer.analyze(&set, &context);
            bar.inc(1);
            if rep == 0 {
                first_points = set.points.iter().map(|p| p.to_vec()).collect();
                first_points_file = point_file(&set.points, name)?;
            }
            realisations.push(Realisation {
                rep,
                seed,
                n: set.len(),
                attempts: set.attempts,
                stop: set.stop,
                seconds,
                scalars: analysis.scalars.clone(),
            });
            analyses.push(analysis);
        }
        if radius_driven && count.is_none() {
            let mean =
                realisations.iter().map(|r| r.n as f64).sum::<f64>() / realisations.len() as f64;
            count = Some((mean.round() as usize).max(1));
        }
        results[i] =
            Some(aggregate(spec, realisations, (first_points, first_points_file), analyses));
    }
    let samplers = results.into_iter().flatten().collect::<Vec<_>>();
    let count = samplers.iter().any(|s| !s.radius_driven).then_some(count).flatten();
    bar.set_message(format!("{D}D white-noise envelope"));
    let envelope = spatial::white_noise_envelope(
        &domain,
        count.unwrap_or(nominal),
        radius,
        &config.metrics,
        config.seed,
    );
    Ok(DimResult {
        dim: D,
        origin: domain.origin().to_vec(),
        extent: domain.extent().to_vec(),
        radius,
        count,
        nominal_count: nominal,
        samplers,
        envelope,
    })
}

/// A point set as the figures' data file, through the one point I/O layer.
fn point_file<const D: usize>(
    points: &[poisson_nd::Point<D>],
    sampler: &str,
) -> Result<String, ReportError> {
    point_data_file(
        &crate::io::PointData::new(points.to_vec()),
        &format!("{D}d-points-{sampler}.csv"),
    )
}

/// Points (with their attributes) as CSV text, for the data file `file` under `figures/`.
fn point_data_file<const D: usize>(
    data: &crate::io::PointData<D>,
    file: &str,
) -> Result<String, ReportError> {
    let mut bytes = Vec::new();
    crate::io::encode(crate::io::PointFormat::Csv, &mut bytes, data).map_err(|source| {
        ReportError::Write { path: PathBuf::from(format!("figures/{file}")), source }
    })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn aggregate(
    spec: &SamplerSpec,
    realisations: Vec<Realisation>,
    (first_points, first_points_file): (Vec<Vec<f64>>, String),
    analyses: Vec<Measurements>,
) -> SamplerResult {
    let mean_of = |curves: Vec<&Curve>| {
        curves.first().map(|first| Curve {
            x_label: first.x_label.clone(),
            points: mean_curve(&curves.iter().map(|c| c.points.as_slice()).collect::<Vec<_>>()),
        })
    };
    let spectrum = mean_of(analyses.iter().filter_map(|a| a.radial_spectrum.as_ref()).collect());
    let pair_correlation =
        mean_of(analyses.iter().filter_map(|a| a.pair_correlation.as_ref()).collect());
    let l_minus_r = mean_of(analyses.iter().filter_map(|a| a.l_minus_r.as_ref()).collect());
    let j_function = mean_of(analyses.iter().filter_map(|a| a.j_function.as_ref()).collect());
    let periodograms: Vec<&Periodogram> =
        analyses.iter().filter_map(|a| a.periodogram.as_ref()).collect();
    let periodogram = periodograms.first().map(|first| {
        let same: Vec<&[f64]> = periodograms
            .iter()
            .filter(|p| {
                p.max_frequency == first.max_frequency && p.values.len() == first.values.len()
            })
            .map(|p| p.values.as_slice())
            .collect();
        Periodogram { max_frequency: first.max_frequency, values: mean_values(&same) }
    });
    let histogram = mean_histogram(spec.name(), &analyses);
    SamplerResult {
        name: spec.name().to_string(),
        spec: spec.clone(),
        radius_driven: spec.is_radius_driven(),
        realisations,
        first_points,
        first_points_file,
        spectrum,
        periodogram,
        histogram,
        pair_correlation,
        l_minus_r,
        j_function,
    }
}

/// The nearest-neighbour histograms of the realisations as densities, averaged over those
/// with the first one's bins, with the mean white-noise density.
fn mean_histogram(name: &str, analyses: &[Measurements]) -> Option<NnHistogram> {
    let with_histogram: Vec<&Measurements> =
        analyses.iter().filter(|a| a.nn_histogram.is_some()).collect();
    let edges = with_histogram.first()?.nn_histogram.as_ref()?.edges();
    let same: Vec<&Measurements> = with_histogram
        .into_iter()
        .filter(|a| a.nn_histogram.as_ref().is_some_and(|h| h.edges() == edges))
        .collect();
    let densities: Vec<Vec<f64>> =
        same.iter().filter_map(|a| a.nn_histogram.as_ref().map(|h| h.densities())).collect();
    let expected: Vec<&[(f64, f64)]> = same.iter().map(|a| a.nn_expected.as_slice()).collect();
    Some(NnHistogram {
        name: name.to_string(),
        edges,
        values: mean_values(&densities.iter().map(Vec::as_slice).collect::<Vec<_>>()),
        expected: mean_curve(&expected),
    })
}

/// The element-wise mean of equally long value lists (those as long as the first).
fn mean_values(lists: &[&[f64]]) -> Vec<f64> {
    let Some(first) = lists.first() else {
        return Vec::new();
    };
    let same: Vec<&&[f64]> = lists.iter().filter(|l| l.len() == first.len()).collect();
    (0..first.len()).map(|i| same.iter().map(|l| l[i]).sum::<f64>() / same.len() as f64).collect()
}

/// The pointwise mean of curves sampled at the same abscissae as the first (others are
/// left out).
fn mean_curve(curves: &[&[(f64, f64)]]) -> Vec<(f64, f64)> {
    let Some(first) = curves.first() else {
        return Vec::new();
    };
    let same: Vec<&&[(f64, f64)]> = curves
        .iter()
        .filter(|c| c.len() == first.len() && c.iter().zip(first.iter()).all(|(a, b)| a.0 == b.0))
        .collect();
    first
        .iter()
        .enumerate()
        .map(|(i, p)| (p.0, same.iter().map(|c| c[i].1).sum::<f64>() / same.len() as f64))
        .collect()
}

fn measure_scaling<const D: usize>(
    config: &Config,
    bar: &ProgressBar,
    timings: &mut Vec<TimingRow>,
) -> Result<ScalingResult, ReportError>
where
    Dim<D>: BuildIn<D>,
{
    let Some(scaling) = &config.scaling else {
        unreachable!("called with a scaling experiment");
    };
    let mut runs = Vec::new();
    let (mut series, mut attempts) = (Vec::new(), Vec::new());
    for name in &scaling.samplers {
        let index = config.sampler_index(name).unwrap_or_else(|| unreachable!("validated"));
        let label = config.samplers[index].name();
        let radius_driven = config.samplers[index].is_radius_driven();
        let volume = comparison_domain::<D>(config).volume();
        let mut points = Vec::new();
        let mut work = Vec::new();
        for target in scaling.counts_for(name) {
            let radius = radius_for_count(target, D, volume, config.relative_radius);
            let sampler = build::<D>(config, index, radius)?;
            let n = if radius_driven { None } else { Some(target) };
            for rep in 0..scaling.reps {
                bar.set_message(format!("scaling {D}D {label} N≈{target} #{rep}"));
                let seed = scaling_seed(config.seed, D, label, target, rep);
                let start = Instant::now();
                let set = sampler.run(n, seed);
                let seconds = start.elapsed().as_secs_f64();
                bar.inc(1);
                timings.push(TimingRow {
                    experiment: "scaling",
                    sampler: label.to_string(),
                    dim: D,
                    n: set.len(),
                    rep,
                    seed,
                    seconds,
                });
                points.push((set.len() as f64, seconds));
                work.push((set.len() as f64, set.attempts as f64));
                runs.push(ScalingRun {
                    sampler: label.to_string(),
                    target,
                    n: set.len(),
                    rep,
                    seed,
                    attempts: set.attempts,
                    seconds,
                });
            }
        }
        series.push(Series { name: label.to_string(), points });
        if radius_driven {
            attempts.push(Series { name: label.to_string(), points: work });
        }
    }
    let fit = |all: &[Series]| all.iter().map(|s| power_law(&s.points).ok()).collect::<Vec<_>>();
    let (fits, attempts_fits) = (fit(&series), fit(&attempts));
    Ok(ScalingResult { dim: D, runs, series, fits, attempts, attempts_fits })
}

/// The rows of `results.csv`: per dimension, sampler and realisation, the runner's own
/// `attempts` and then the analyzer's scalars, all in configuration order.
pub fn result_rows(data: &ReportData) -> Vec<ResultRow> {
    let mut rows = Vec::new();
    for dim in &data.dims {
        for sampler in &dim.samplers {
            for r in &sampler.realisations {
                let attempts = ("attempts".to_string(), r.attempts as f64);
                for (metric, value) in std::iter::once(&attempts).chain(&r.scalars) {
                    rows.push(ResultRow {
                        sampler: sampler.name.clone(),
                        dim: dim.dim,
                        n: r.n,
                        rep: r.rep,
                        seed: r.seed,
                        metric: metric.clone(),
                        value: *value,
                    });
                }
            }
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// `comparison_seed(7, 2, "bridson", 0)`, pinned.
    const PINNED_SEED: u64 = 11_587_243_863_992_943_849;

    #[test]
    fn d_max_matches_the_reference_formula() {
        // In 2D, d_max = sqrt(2 V / (√3 N)).
        let expected = (2.0 / (3f64.sqrt() * 1000.0)).sqrt();
        assert!((radius_for_count(1000, 2, 1.0, 1.0) / expected - 1.0).abs() < 1e-5);
        assert!((radius_for_count(1000, 2, 1.0, 0.5) / expected - 0.5).abs() < 1e-5);
        assert!(radius_for_count(10, 9, 1.0, 0.5).is_nan());
        // nominal_count inverts radius_for_count.
        for (n, dim) in [(1000, 2), (2500, 3), (37, 5)] {
            let radius = radius_for_count(n, dim, 1.0, 0.75);
            assert_eq!(nominal_count(dim, radius, 1.0, 0.75), n);
        }
        assert_eq!(nominal_count(2, f64::INFINITY, 1.0, 0.75), 1);
    }

    #[test]
    fn seeds_are_distinct_per_stream_and_fixed() {
        let seeds: BTreeSet<u64> = ["bridson", "white-noise"]
            .iter()
            .flat_map(|name| {
                (0..3).flat_map(move |rep| [2, 3].map(|dim| comparison_seed(7, dim, name, rep)))
            })
            .collect();
        assert_eq!(seeds.len(), 12);
        assert_ne!(comparison_seed(7, 2, "bridson", 0), scaling_seed(7, 2, "bridson", 0, 0));
        // Pinned: changing the derivation changes every recorded seed.
        assert_eq!(comparison_seed(7, 2, "bridson", 0), PINNED_SEED);
    }

    #[test]
    fn realisation_seeds_continue_the_figure_seed() {
        let seeds: BTreeSet<u64> = ["bridson", "chunked-bridson"]
            .iter()
            .flat_map(|name| (0..4).map(move |rep| realisation_seed(7, "chunked", name, rep)))
            .chain(std::iter::once(figure_seed(7, "chunked", "bridson")))
            .collect();
        assert_eq!(seeds.len(), 9);
        assert_eq!(
            realisation_seed(7, "chunked", "bridson", 3),
            derive_seed(figure_seed(7, "chunked", "bridson"), 3)
        );
    }

    #[test]
    fn curves_average_only_over_matching_abscissae() {
        let a = [(1.0, 2.0), (2.0, 4.0)];
        let b = [(1.0, 4.0), (2.0, 8.0)];
        let c = [(1.5, 100.0), (2.0, 100.0)];
        assert_eq!(mean_curve(&[&a, &b, &c]), vec![(1.0, 3.0), (2.0, 6.0)]);
        assert_eq!(mean_values(&[&[1.0, 2.0], &[3.0, 4.0], &[9.0]]), vec![2.0, 3.0]);
        assert!(mean_curve(&[]).is_empty());
    }
}
