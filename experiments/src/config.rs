//! The configuration of the comparison report: serde structs read from TOML, validated with
//! errors that name the offending key, and written back to TOML (as `report/config.toml`) so
//! that a run can be repeated exactly.
//!
//! Two configurations are embedded in the binary: [`DEFAULT_TOML`] (`configs/default.toml`,
//! the main job) and [`QUICK_TOML`] (`configs/quick.toml`, the same comparison scaled down to
//! run in seconds, used by `--quick` and the tests).
//!
//! ```
//! use experiments::config::Config;
//! let config = Config::default_config()?;
//! let text = config.to_toml()?;
//! assert_eq!(Config::from_toml(&text)?, config);
//! # Ok::<(), experiments::config::ConfigError>(())
//! ```
#![deny(missing_docs)]

use crate::dims::MAX_DIM;
use crate::spec::{OverLimit, SamplerSpec};
use poisson_nd::error::Short;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The default configuration's text (`experiments/configs/default.toml`).
pub const DEFAULT_TOML: &str = include_str!("../configs/default.toml");

/// The quick configuration's text (`experiments/configs/quick.toml`).
pub const QUICK_TOML: &str = include_str!("../configs/quick.toml");

/// A report configuration. Every table rejects keys it does not know.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The base seed: every realisation's seed is derived from it (and recorded).
    pub seed: u64,
    /// Realisations (independent point sets) per sampler and dimension.
    pub realisations: usize,
    /// Whether the domain (the unit box) is periodic. Spectra of non-periodic sets show seams.
    #[serde(default)]
    pub periodic: bool,
    /// When a Poisson-disk radius has to be derived from a point count (a `dims` entry
    /// without `radius`, the scaling experiment), it is this fraction of `d_max`, the
    /// spacing of the densest packing of that many points (Lagae & Dutré's relative radius).
    #[serde(default = "default_relative_radius")]
    pub relative_radius: f64,
    /// The dimensions compared, each with its radius or point count.
    pub dims: Vec<DimConfig>,
    /// The samplers compared, in report order, with their parameters: `[[samplers]]` tables
    /// of [`SamplerSpec`], each tagged by its `name`.
    pub samplers: Vec<SamplerSpec>,
    /// Options of the metrics.
    #[serde(default)]
    pub metrics: MetricsConfig,
    /// The time-against-N experiment; absent for none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scaling: Option<ScalingConfig>,
}

fn default_relative_radius() -> f64 {
    0.75
}

/// One dimension of the comparison.
///
/// - `radius` only: radius-driven samplers (Bridson, ...) fill the box at this radius, and
///   the count-driven ones draw as many points as the first radius-driven sampler produced
///   on average (rounded).
/// - `n` only: count-driven samplers draw `n` points; radius-driven ones use
///   `relative_radius · d_max(n)`.
/// - both: each as given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DimConfig {
    /// The dimension, 1 to [`MAX_DIM`].
    pub dim: usize,
    /// The Poisson-disk radius of the radius-driven samplers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub radius: Option<f64>,
    /// The number of points of the count-driven samplers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<usize>,
}

/// Options of the metrics. Frequencies are in cycles per box side as multiples of `N^(1/D)`
/// (`√N` in 2D); distances are in units of the comparison radius `r` of the dimension.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MetricsConfig {
    /// Highest frequency of the power spectra, as a multiple of `N^(1/D)`, with `N` the
    /// dimension's nominal count (see `docs/report.md`).
    #[serde(default = "default_spectrum_max_frequency")]
    pub spectrum_max_frequency: f64,
    /// Half-width of the 2D periodogram images, as a multiple of `√N`; lowered so that
    /// the square fits inside the computed spectrum.
    #[serde(default = "default_periodogram_max_frequency")]
    pub periodogram_max_frequency: f64,
    /// Bins of the nearest-neighbour histograms.
    #[serde(default = "default_histogram_bins")]
    pub histogram_bins: usize,
    /// Upper end of the nearest-neighbour histograms, in units of `r`.
    #[serde(default = "default_histogram_range")]
    pub histogram_range: f64,
    /// Bins of the pair correlation function.
    #[serde(default = "default_pair_correlation_bins")]
    pub pair_correlation_bins: usize,
    /// Upper end of the pair correlation function, in units of `r` (it is also capped at
    /// half the box side).
    #[serde(default = "default_pair_correlation_range")]
    pub pair_correlation_range: f64,
    /// Random probe points of the coverage metric.
    #[serde(default = "default_coverage_probes")]
    pub coverage_probes: usize,
}

fn default_spectrum_max_frequency() -> f64 {
    2.0
}
fn default_periodogram_max_frequency() -> f64 {
    1.5
}
fn default_histogram_bins() -> usize {
    40
}
fn default_histogram_range() -> f64 {
    2.0
}
fn default_pair_correlation_bins() -> usize {
    50
}
fn default_pair_correlation_range() -> f64 {
    2.5
}
fn default_coverage_probes() -> usize {
    10_000
}

impl Default for MetricsConfig {
    fn default() -> Self {
        MetricsConfig {
            spectrum_max_frequency: default_spectrum_max_frequency(),
            periodogram_max_frequency: default_periodogram_max_frequency(),
            histogram_bins: default_histogram_bins(),
            histogram_range: default_histogram_range(),
            pair_correlation_bins: default_pair_correlation_bins(),
            pair_correlation_range: default_pair_correlation_range(),
            coverage_probes: default_coverage_probes(),
        }
    }
}

/// The scaling experiment: sampling time against the number of points, in one dimension.
/// Radius-driven samplers are run at `relative_radius · d_max(N)` for each target N and
/// plotted at the count they produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScalingConfig {
    /// The dimension.
    pub dim: usize,
    /// The samplers timed: names from the `samplers` list, whose parameters they take.
    pub samplers: Vec<String>,
    /// The target point counts; give this or `n_log_range`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n: Option<Vec<usize>>,
    /// Logarithmically spaced target point counts; give this or `n`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub n_log_range: Option<LogRange>,
    /// Timed runs per sampler and N.
    pub reps: usize,
    /// Per sampler, the largest target count it is run at (targets above are skipped): keeps
    /// an O(N²) sampler such as `dart-throwing` affordable while the others go further.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub max_n: BTreeMap<String, usize>,
}

/// `points` counts from `from` to `to`, evenly spaced in log N (rounded, duplicates dropped).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogRange {
    /// The smallest count.
    pub from: usize,
    /// The largest count.
    pub to: usize,
    /// How many counts.
    pub points: usize,
}

impl ScalingConfig {
    /// The target counts, increasing.
    pub fn counts(&self) -> Vec<usize> {
        let mut counts = match (&self.n, &self.n_log_range) {
            (Some(n), _) => n.clone(),
            (None, Some(range)) if range.points <= 1 || range.to == range.from => vec![range.from],
            (None, Some(range)) => {
                let (a, b) = ((range.from as f64).ln(), (range.to as f64).ln());
                (0..range.points)
                    .map(|i| {
                        (a + (b - a) * i as f64 / (range.points - 1) as f64).exp().round() as usize
                    })
                    .collect()
            }
            (None, None) => Vec::new(),
        };
        counts.sort_unstable();
        counts.dedup();
        counts
    }

    /// The target counts `sampler` is run at: [`ScalingConfig::counts`] up to its `max_n`.
    pub fn counts_for(&self, sampler: &str) -> Vec<usize> {
        let limit = self.max_n.get(sampler).copied().unwrap_or(usize::MAX);
        self.counts().into_iter().filter(|&n| n <= limit).collect()
    }
}

/// A configuration that cannot be used. The message names the key.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read config file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Not valid TOML, or a key or type the configuration does not have (the message, from
    /// the TOML parser, gives the key and its line).
    #[error("invalid config {origin}: {message}")]
    Parse {
        /// Where the text came from.
        origin: String,
        /// The parser's message.
        message: String,
    },
    /// A value out of range or inconsistent with another.
    #[error("{key} {message}")]
    Invalid {
        /// The key, as a path: `samplers[2].k`.
        key: String,
        /// What is wrong, with the value found.
        message: String,
    },
    /// The configuration could not be written as TOML.
    #[error("cannot write the config as TOML: {0}")]
    Serialize(String),
}

fn invalid(key: impl Into<String>, message: impl Into<String>) -> ConfigError {
    ConfigError::Invalid { key: key.into(), message: message.into() }
}

/// The most bins a histogram or pair correlation function may have.
const MAX_BINS: usize = 100_000;

/// The most realisations, or repetitions of a scaling point.
const MAX_REPEATS: usize = 10_000;

/// The most coverage probes (as `analyze --probes`).
const MAX_PROBES: usize = 100_000_000;

/// The most counts a scaling range may have.
const MAX_SCALING_POINTS: usize = 1_000;

/// The highest multiple of `N^(1/D)` a spectrum or periodogram may reach: the cost grows as
/// its `D`-th power (8 takes about five times the default's time).
const MAX_FREQUENCY_MULTIPLE: f64 = 8.0;

/// Checks that a count is between 1 and `most`, naming `key`.
fn check_range(key: &str, value: usize, most: usize) -> Result<(), ConfigError> {
    if value == 0 {
        return Err(invalid(key.to_string(), "must be at least 1, got 0"));
    }
    if value > most {
        return Err(invalid(key.to_string(), format!("must be at most {most}, got {value}")));
    }
    Ok(())
}

/// The largest integer TOML can hold (its integers are signed 64-bit).
const TOML_INTEGER_MAX: u64 = i64::MAX as u64;

impl Config {
    /// Parses and validates a configuration from TOML text.
    pub fn from_toml(text: &str) -> Result<Config, ConfigError> {
        Self::parse(text, "text")
    }

    fn parse(text: &str, origin: &str) -> Result<Config, ConfigError> {
        let parse_error = |e: toml::de::Error| ConfigError::Parse {
            origin: origin.to_string(),
            message: crate::inputs::toml_message(text, &e),
        };
        let table: toml::Table = toml::from_str(text).map_err(parse_error)?;
        check_sampler_keys(&table)?;
        let config: Config = toml::from_str(text).map_err(parse_error)?;
        config.validate()?;
        Ok(config)
    }

    /// Reads, parses and validates a configuration file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = crate::inputs::read_text_bounded(path)
            .map_err(|source| ConfigError::Read { path: path.to_path_buf(), source })?;
        Self::parse(&text, &path.display().to_string())
    }

    /// The embedded default configuration (the main job).
    pub fn default_config() -> Result<Config, ConfigError> {
        Self::parse(DEFAULT_TOML, "configs/default.toml")
    }

    /// The embedded quick configuration (`--quick`).
    pub fn quick_config() -> Result<Config, ConfigError> {
        Self::parse(QUICK_TOML, "configs/quick.toml")
    }

    /// The configuration as TOML; reading it back gives an equal configuration.
    pub fn to_toml(&self) -> Result<String, ConfigError> {
        let body = toml::to_string(self).map_err(|e| ConfigError::Serialize(e.to_string()))?;
        Ok(format!(
            "# poisson-nd report configuration, written by the run it configured.\n\
             # Repeat the run: cargo run --release -p experiments -- report --config report/config.toml\n\n{body}"
        ))
    }

    /// Checks every value, returning the first problem with the key it concerns.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.seed > i64::MAX as u64 {
            return Err(invalid(
                "seed",
                format!(
                    "must be at most {} (TOML integers are signed), got {}",
                    i64::MAX,
                    self.seed
                ),
            ));
        }
        check_range("realisations", self.realisations, MAX_REPEATS)?;
        if !(self.relative_radius > 0.0 && self.relative_radius <= 1.0) {
            return Err(invalid(
                "relative_radius",
                format!("must be in (0, 1], got {}", Short::of(&self.relative_radius)),
            ));
        }
        if self.dims.is_empty() {
            return Err(invalid("dims", "must list at least one dimension"));
        }
        for (i, entry) in self.dims.iter().enumerate() {
            let key = format!("dims[{i}]");
            check_dim(&format!("{key}.dim"), entry.dim)?;
            if self.dims[..i].iter().any(|other| other.dim == entry.dim) {
                return Err(invalid(
                    format!("{key}.dim"),
                    format!("{} is listed twice", entry.dim),
                ));
            }
            if entry.radius.is_none() && entry.n.is_none() {
                return Err(invalid(key, "needs radius, n or both"));
            }
            if let Some(radius) = entry.radius
                && !(radius.is_finite() && radius > 0.0)
            {
                return Err(invalid(
                    format!("{key}.radius"),
                    format!("must be > 0, got {}", Short::of(&radius)),
                ));
            }
            if entry.n == Some(0) {
                return Err(invalid(format!("{key}.n"), "must be at least 1, got 0"));
            }
        }
        if self.samplers.is_empty() {
            return Err(invalid("samplers", "must list at least one sampler"));
        }
        for (i, sampler) in self.samplers.iter().enumerate() {
            let key = format!("samplers[{i}]");
            sampler.check().map_err(|e| invalid(format!("{key}.{}", e.key), e.message))?;
            check_toml_integers(&key, sampler)?;
            if let Some(first) =
                self.samplers[..i].iter().position(|other| other.name() == sampler.name())
            {
                return Err(invalid(
                    format!("{key}.name"),
                    format!("'{}' is listed twice (first as samplers[{first}])", sampler.name()),
                ));
            }
        }
        // A count-driven sampler makes exactly n points within the library's point limit,
        // which counts sample elimination's candidates too: refused here, not cut in the run.
        for (i, entry) in self.dims.iter().enumerate() {
            let Some(n) = entry.n else { continue };
            for spec in self.samplers.iter().filter(|s| s.capabilities().takes_dimension(entry.dim))
            {
                check_count(&format!("dims[{i}].n"), spec, n)?;
            }
        }
        let metrics = &self.metrics;
        for (key, value, most) in [
            ("spectrum_max_frequency", metrics.spectrum_max_frequency, MAX_FREQUENCY_MULTIPLE),
            (
                "periodogram_max_frequency",
                metrics.periodogram_max_frequency,
                MAX_FREQUENCY_MULTIPLE,
            ),
            ("histogram_range", metrics.histogram_range, f64::INFINITY),
            ("pair_correlation_range", metrics.pair_correlation_range, f64::INFINITY),
        ] {
            let problem = if !(value.is_finite() && value > 0.0) {
                "must be > 0".to_string()
            } else if value > most {
                format!("must be at most {most}")
            } else {
                continue;
            };
            return Err(invalid(
                format!("metrics.{key}"),
                format!("{problem}, got {}", Short::of(&value)),
            ));
        }
        for (key, value, most) in [
            ("histogram_bins", metrics.histogram_bins, MAX_BINS),
            ("pair_correlation_bins", metrics.pair_correlation_bins, MAX_BINS),
            ("coverage_probes", metrics.coverage_probes, MAX_PROBES),
        ] {
            check_range(&format!("metrics.{key}"), value, most)?;
        }
        if let Some(scaling) = &self.scaling {
            self.validate_scaling(scaling)?;
        }
        Ok(())
    }

    fn validate_scaling(&self, scaling: &ScalingConfig) -> Result<(), ConfigError> {
        check_dim("scaling.dim", scaling.dim)?;
        check_range("scaling.reps", scaling.reps, MAX_REPEATS)?;
        if scaling.samplers.is_empty() {
            return Err(invalid("scaling.samplers", "must list at least one sampler"));
        }
        for (i, name) in scaling.samplers.iter().enumerate() {
            if self.sampler_index(name).is_none() {
                return Err(invalid(
                    format!("scaling.samplers[{i}]"),
                    format!("'{name}' is not in samplers"),
                ));
            }
            let spec = self.sampler_index(name).map(|index| &self.samplers[index]);
            if let Some(spec) =
                spec.filter(|spec| !spec.capabilities().takes_dimension(scaling.dim))
            {
                return Err(invalid(
                    format!("scaling.samplers[{i}]"),
                    format!(
                        "'{name}' samples dimensions {}, scaling.dim is {}",
                        spec.capabilities().dimensions_text(),
                        scaling.dim
                    ),
                ));
            }
            if scaling.samplers[..i].contains(name) {
                return Err(invalid(
                    format!("scaling.samplers[{i}]"),
                    format!("'{name}' is listed twice"),
                ));
            }
        }
        match (&scaling.n, &scaling.n_log_range) {
            (Some(_), Some(_)) | (None, None) => {
                return Err(invalid("scaling", "needs exactly one of n and n_log_range"));
            }
            (Some(counts), None) => {
                if counts.is_empty() {
                    return Err(invalid("scaling.n", "must list at least one count"));
                }
                if let Some(i) = counts.iter().position(|&n| n == 0) {
                    return Err(invalid(format!("scaling.n[{i}]"), "must be at least 1, got 0"));
                }
            }
            (None, Some(range)) => {
                if range.from == 0 {
                    return Err(invalid("scaling.n_log_range.from", "must be at least 1, got 0"));
                }
                if range.to < range.from {
                    return Err(invalid(
                        "scaling.n_log_range.to",
                        format!("must be at least from ({}), got {}", range.from, range.to),
                    ));
                }
                check_range("scaling.n_log_range.points", range.points, MAX_SCALING_POINTS)?;
            }
        }
        for name in &scaling.samplers {
            let Some(index) = self.sampler_index(name) else { continue };
            for n in scaling.counts_for(name) {
                check_count("scaling.n", &self.samplers[index], n)?;
            }
        }
        for (name, &limit) in &scaling.max_n {
            let key = format!("scaling.max_n.{name}");
            if !scaling.samplers.contains(name) {
                return Err(invalid(key, format!("'{name}' is not in scaling.samplers")));
            }
            if scaling.counts_for(name).is_empty() {
                return Err(invalid(
                    key,
                    format!(
                        "is below every target count (the smallest is {}), got {limit}",
                        scaling.counts().first().copied().unwrap_or(0)
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// Refuses a count `n` (at `key`) that a count-driven sampler cannot make within the
/// library's point limit.
fn check_count(key: &str, spec: &SamplerSpec, n: usize) -> Result<(), ConfigError> {
    let limit = poisson_nd::defaults::MAX_POINTS;
    let name = spec.name();
    match spec.over_limit(n, limit) {
        None => Ok(()),
        Some(OverLimit::Points) => Err(invalid(
            key,
            format!("{n} is more than the point limit of {limit}, and '{name}' makes exactly n"),
        )),
        Some(OverLimit::Candidates { ratio, candidates }) => Err(invalid(
            key,
            format!(
                "{n} makes '{name}' draw {candidates} candidates (ratio {ratio}), more than the \
                 point limit of {limit}"
            ),
        )),
        Some(OverLimit::Positions { skip }) => Err(invalid(
            key,
            format!(
                "{n} is more than the {} positions skip {skip} leaves '{name}'",
                u64::MAX - skip
            ),
        )),
    }
}

impl Config {
    /// The position in `samplers` of the sampler called `name`.
    pub fn sampler_index(&self, name: &str) -> Option<usize> {
        self.samplers.iter().position(|s| s.name() == name)
    }
}

/// Checks the `[[samplers]]` tables' keys against the specification before they are read,
/// so that a key a sampler does not take is named with the sampler and what it takes.
fn check_sampler_keys(table: &toml::Table) -> Result<(), ConfigError> {
    let Some(toml::Value::Array(samplers)) = table.get("samplers") else {
        return Ok(()); // A missing or mistyped list is the parser's to report.
    };
    for (i, sampler) in samplers.iter().enumerate() {
        let key = format!("samplers[{i}]");
        let Some(sampler) = sampler.as_table() else {
            continue;
        };
        let Some(name) = sampler.get("name").and_then(toml::Value::as_str) else {
            return Err(invalid(format!("{key}.name"), "is missing (every sampler needs one)"));
        };
        let Some(entry) = crate::catalogue::entry(name) else {
            return Err(invalid(
                format!("{key}.name"),
                format!(
                    "'{name}' is not a sampler (known: {})",
                    crate::catalogue::names().join(", ")
                ),
            ));
        };
        for (parameter, value) in sampler.iter().filter(|(k, _)| *k != "name") {
            if entry.takes(parameter) {
                // Its type, on its own, so that the message can name the key.
                let alone = toml::Table::from_iter([
                    ("name".to_string(), toml::Value::from(name)),
                    (parameter.clone(), value.clone()),
                ]);
                if let Err(e) = toml::Value::Table(alone).try_into::<SamplerSpec>() {
                    return Err(invalid(format!("{key}.{parameter}"), e.to_string().trim()));
                }
                continue;
            }
            let message = match crate::catalogue::retired_key(parameter) {
                Some(advice) => advice.to_string(),
                None => {
                    format!("is not a parameter of '{name}' (it takes: {})", entry.key_list())
                }
            };
            return Err(invalid(format!("{key}.{parameter}"), message));
        }
    }
    Ok(())
}

/// TOML integers are signed 64-bit: a parameter above `i64::MAX` could not be written back
/// to `config.toml`.
fn check_toml_integers(key: &str, sampler: &SamplerSpec) -> Result<(), ConfigError> {
    let value = serde_json::to_value(sampler).map_err(|e| ConfigError::Serialize(e.to_string()))?;
    for (parameter, value) in value.as_object().into_iter().flatten() {
        if let Some(value) = value.as_u64().filter(|&v| v > TOML_INTEGER_MAX) {
            return Err(invalid(
                format!("{key}.{parameter}"),
                format!(
                    "must be at most {TOML_INTEGER_MAX} (TOML integers are signed), got {value}"
                ),
            ));
        }
    }
    Ok(())
}

fn check_dim(key: &str, dim: usize) -> Result<(), ConfigError> {
    if (1..=MAX_DIM).contains(&dim) {
        Ok(())
    } else {
        Err(invalid(key, format!("must be between 1 and {MAX_DIM}, got {dim}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_configs_are_valid_and_round_trip() {
        for config in [Config::default_config().unwrap(), Config::quick_config().unwrap()] {
            let text = config.to_toml().unwrap();
            assert_eq!(Config::from_toml(&text).unwrap(), config, "{text}");
        }
    }

    #[test]
    fn awkward_floats_round_trip() {
        let mut config = Config::quick_config().unwrap();
        config.dims[0].radius = Some(0.1 + 0.2);
        config.relative_radius = 1.0 / 3.0;
        config.metrics.spectrum_max_frequency = 1e-7;
        config.seed = i64::MAX as u64;
        let text = config.to_toml().unwrap();
        assert_eq!(Config::from_toml(&text).unwrap(), config, "{text}");
    }

    #[test]
    fn log_ranges_are_rounded_and_deduplicated() {
        let scaling = ScalingConfig {
            dim: 2,
            samplers: vec![],
            n: None,
            n_log_range: Some(LogRange { from: 100, to: 10_000, points: 3 }),
            reps: 1,
            max_n: BTreeMap::new(),
        };
        assert_eq!(scaling.counts(), vec![100, 1000, 10_000]);
        let tiny =
            ScalingConfig { n_log_range: Some(LogRange { from: 1, to: 2, points: 5 }), ..scaling };
        assert_eq!(tiny.counts(), vec![1, 2]);
    }

    #[test]
    fn every_parameter_is_accepted_by_some_sampler_and_checked() {
        use crate::spec::{
            BestCandidateParams, BridsonParams, ChunkedBridsonParams, DartThrowingParams,
            HaltonParams,
        };
        let mut config = Config::quick_config().unwrap();
        config.samplers = vec![
            SamplerSpec::Bridson(BridsonParams { k: Some(5), grid: None }),
            SamplerSpec::BestCandidate(BestCandidateParams {
                candidates: Some(3),
                growing_candidates: Some(false),
            }),
            SamplerSpec::DartThrowingGrid(DartThrowingParams { max_misses: Some(100) }),
            SamplerSpec::Halton(HaltonParams { skip: Some(0) }),
            SamplerSpec::HaltonRandomized(HaltonParams { skip: Some(3) }),
            SamplerSpec::ChunkedBridson(ChunkedBridsonParams {
                k: Some(7),
                chunk_side: Some(0.3),
                threads: Some(2),
            }),
        ];
        config.scaling = None;
        config.validate().unwrap();
        let text = config.to_toml().unwrap();
        assert_eq!(Config::from_toml(&text).unwrap(), config, "{text}");

        let error = |config: &Config| config.validate().unwrap_err().to_string();
        let mut bad = config.clone();
        bad.samplers[3] = SamplerSpec::HaltonRandomized(HaltonParams::default());
        assert_eq!(
            error(&bad),
            "samplers[4].name 'halton-randomized' is listed twice (first as samplers[3])"
        );
        let mut bad = config.clone();
        bad.samplers[2] = SamplerSpec::DartThrowingGrid(DartThrowingParams { max_misses: Some(0) });
        assert_eq!(error(&bad), "samplers[2].max_misses must be at least 1, got 0");
        let mut bad = config.clone();
        bad.samplers[4] = SamplerSpec::HaltonRandomized(HaltonParams { skip: Some(u64::MAX) });
        assert!(error(&bad).starts_with("samplers[4].skip must be at most 9223372036854775807"));
        let mut bad = config.clone();
        bad.samplers[5] = SamplerSpec::ChunkedBridson(ChunkedBridsonParams {
            threads: Some(0),
            ..ChunkedBridsonParams::default()
        });
        assert_eq!(error(&bad), "samplers[5].threads must be at least 1, got 0");

        // Keys are checked against the sampler named in the same table.
        let parse = |text: &str| Config::from_toml(text).unwrap_err().to_string();
        let skip = text.replace("candidates = 3", "candidates = 3\nskip = 1");
        assert_eq!(
            parse(&skip),
            "samplers[1].skip is not a parameter of 'best-candidate' (it takes: candidates, \
             growing_candidates)"
        );
        let randomize =
            text.replace("name = \"halton\"\n", "name = \"halton\"\nrandomize = true\n");
        assert_eq!(
            parse(&randomize),
            "samplers[3].randomize is no longer a key: the scrambled sequence is its own \
             sampler, name = \"halton-randomized\""
        );
    }

    #[test]
    fn every_count_and_multiple_has_an_upper_bound() {
        let base = Config::quick_config().unwrap();
        let refused = |change: &dyn Fn(&mut Config), expected: &str| {
            let mut config = base.clone();
            change(&mut config);
            let e = config.validate().unwrap_err().to_string();
            assert_eq!(e, expected);
        };
        refused(
            &|c| c.realisations = usize::MAX,
            &format!("realisations must be at most 10000, got {}", usize::MAX),
        );
        refused(
            &|c| c.metrics.spectrum_max_frequency = 1e20,
            "metrics.spectrum_max_frequency must be at most 8, got 1e20",
        );
        refused(
            &|c| c.metrics.periodogram_max_frequency = 8.5,
            "metrics.periodogram_max_frequency must be at most 8, got 8.5",
        );
        refused(
            &|c| c.metrics.coverage_probes = 1 << 32,
            "metrics.coverage_probes must be at most 100000000, got 4294967296",
        );
        refused(
            &|c| c.scaling.as_mut().unwrap().reps = 10_001,
            "scaling.reps must be at most 10000, got 10001",
        );
        refused(
            &|c| {
                let scaling = c.scaling.as_mut().unwrap();
                scaling.n = None;
                scaling.n_log_range = Some(LogRange { from: 1, to: 10, points: usize::MAX });
            },
            &format!("scaling.n_log_range.points must be at most 1000, got {}", usize::MAX),
        );
        // At the bounds themselves: accepted.
        let mut config = base.clone();
        config.metrics.spectrum_max_frequency = 8.0;
        config.metrics.coverage_probes = 100_000_000;
        config.validate().unwrap();
    }

    #[test]
    fn counts_past_the_point_limit_are_refused() {
        use crate::spec::SampleEliminationParams;
        let mut config = Config::quick_config().unwrap();
        config.samplers = vec![
            SamplerSpec::WhiteNoise(Default::default()),
            SamplerSpec::SampleElimination(SampleEliminationParams::default()),
        ];
        config.scaling = None;
        let error = |config: &Config| config.validate().unwrap_err().to_string();
        let mut bad = config.clone();
        bad.dims[0].n = Some(200_000_000);
        assert_eq!(
            error(&bad),
            "dims[0].n 200000000 is more than the point limit of 100000000, and 'white-noise' \
             makes exactly n"
        );
        bad.dims[0].n = Some(30_000_000);
        assert_eq!(
            error(&bad),
            "dims[0].n 30000000 makes 'sample-elimination' draw 150000000 candidates (ratio 5), \
             more than the point limit of 100000000"
        );
        bad.dims[0].n = Some(20_000_000);
        bad.validate().unwrap();
    }

    #[test]
    fn scaling_caps_counts_per_sampler() {
        let mut config = Config::quick_config().unwrap();
        let scaling = config.scaling.as_mut().unwrap();
        scaling.n = Some(vec![100, 300, 1000]);
        scaling.n_log_range = None;
        scaling.max_n = BTreeMap::from([("white-noise".to_string(), 300)]);
        assert_eq!(scaling.counts_for("white-noise"), vec![100, 300]);
        assert_eq!(scaling.counts_for("bridson"), vec![100, 300, 1000]);
        config.validate().unwrap();
        let text = config.to_toml().unwrap();
        assert_eq!(Config::from_toml(&text).unwrap(), config, "{text}");
        let scaling = config.scaling.as_mut().unwrap();
        scaling.max_n = BTreeMap::from([("white-noise".to_string(), 99)]);
        assert!(config.validate().unwrap_err().to_string().starts_with(
            "scaling.max_n.white-noise is below every target count (the smallest is 100)"
        ));
        let scaling = config.scaling.as_mut().unwrap();
        scaling.max_n = BTreeMap::from([("halton".to_string(), 99)]);
        assert_eq!(
            config.validate().unwrap_err().to_string(),
            "scaling.max_n.halton 'halton' is not in scaling.samplers"
        );
    }
}
