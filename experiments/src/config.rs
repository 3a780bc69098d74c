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
use crate::registry::{SAMPLER_NAMES, SamplerParams};
use serde::{Deserialize, Serialize};
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
    /// The samplers compared, in report order, with their parameters.
    pub samplers: Vec<SamplerConfig>,
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

/// A sampler and its parameters. Each sampler accepts only its own parameters (see
/// [`accepted_parameters`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SamplerConfig {
    /// The name, one of [`SAMPLER_NAMES`].
    pub name: String,
    /// Attempts per active point (Bridson's k).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub k: Option<u32>,
    /// Candidates per point, as a multiple of the points so far (best-candidate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<u32>,
    /// Consecutive misses before giving up (dart throwing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_misses: Option<u64>,
}

/// Options of the metrics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MetricsConfig {
    /// Highest frequency of the power spectra, as a multiple of √N.
    #[serde(default = "default_spectrum_max_frequency")]
    pub spectrum_max_frequency: f64,
    /// Bins of the nearest-neighbour histograms.
    #[serde(default = "default_histogram_bins")]
    pub histogram_bins: usize,
    /// Random probe points of the coverage metric.
    #[serde(default = "default_coverage_probes")]
    pub coverage_probes: usize,
}

fn default_spectrum_max_frequency() -> f64 {
    2.0
}
fn default_histogram_bins() -> usize {
    40
}
fn default_coverage_probes() -> usize {
    10_000
}

impl Default for MetricsConfig {
    fn default() -> Self {
        MetricsConfig {
            spectrum_max_frequency: default_spectrum_max_frequency(),
            histogram_bins: default_histogram_bins(),
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

/// The parameters each sampler accepts in its `[[samplers]]` table, besides `name`.
pub fn accepted_parameters(sampler: &str) -> &'static [&'static str] {
    match sampler {
        "bridson" => &["k"],
        "dart-throwing" | "dart-throwing-grid" => &["max_misses"],
        "best-candidate" => &["candidates"],
        _ => &[],
    }
}

impl SamplerConfig {
    /// The parameters given, by key, with their values.
    fn given(&self) -> Vec<(&'static str, u64)> {
        [
            ("k", self.k.map(u64::from)),
            ("candidates", self.candidates.map(u64::from)),
            ("max_misses", self.max_misses),
        ]
        .into_iter()
        .filter_map(|(key, value)| value.map(|v| (key, v)))
        .collect()
    }

    /// The registry's parameters for this sampler, with the dimension's `radius`.
    pub fn params(&self, radius: Option<f64>) -> SamplerParams {
        // A struct literal on purpose: a new registry parameter fails to compile here until
        // it is mapped from this table.
        SamplerParams {
            radius,
            attempts: self.k,
            max_misses: self.max_misses,
            candidates: self.candidates,
            growing_candidates: false,
            skip: None,
            randomize: false,
        }
    }
}

impl Config {
    /// Parses and validates a configuration from TOML text.
    pub fn from_toml(text: &str) -> Result<Config, ConfigError> {
        Self::parse(text, "text")
    }

    fn parse(text: &str, origin: &str) -> Result<Config, ConfigError> {
        let config: Config = toml::from_str(text).map_err(|e| ConfigError::Parse {
            origin: origin.to_string(),
            message: e.to_string(),
        })?;
        config.validate()?;
        Ok(config)
    }

    /// Reads, parses and validates a configuration file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path)
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
        if self.realisations == 0 {
            return Err(invalid("realisations", "must be at least 1, got 0"));
        }
        if !(self.relative_radius > 0.0 && self.relative_radius <= 1.0) {
            return Err(invalid(
                "relative_radius",
                format!("must be in (0, 1], got {}", self.relative_radius),
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
                return Err(invalid(format!("{key}.radius"), format!("must be > 0, got {radius}")));
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
            if !SAMPLER_NAMES.contains(&sampler.name.as_str()) {
                return Err(invalid(
                    format!("{key}.name"),
                    format!(
                        "'{}' is not a sampler (known: {})",
                        sampler.name,
                        SAMPLER_NAMES.join(", ")
                    ),
                ));
            }
            if self.samplers[..i].iter().any(|other| other.name == sampler.name) {
                return Err(invalid(
                    format!("{key}.name"),
                    format!("'{}' is listed twice", sampler.name),
                ));
            }
            let accepted = accepted_parameters(&sampler.name);
            for (parameter, value) in sampler.given() {
                if !accepted.contains(&parameter) {
                    let takes =
                        if accepted.is_empty() { "none".to_string() } else { accepted.join(", ") };
                    return Err(invalid(
                        format!("{key}.{parameter}"),
                        format!("is not a parameter of '{}' (it takes: {takes})", sampler.name),
                    ));
                }
                if value == 0 {
                    return Err(invalid(format!("{key}.{parameter}"), "must be at least 1, got 0"));
                }
            }
        }
        let metrics = &self.metrics;
        if !(metrics.spectrum_max_frequency.is_finite() && metrics.spectrum_max_frequency > 0.0) {
            return Err(invalid(
                "metrics.spectrum_max_frequency",
                format!("must be > 0, got {}", metrics.spectrum_max_frequency),
            ));
        }
        if metrics.histogram_bins == 0 {
            return Err(invalid("metrics.histogram_bins", "must be at least 1, got 0"));
        }
        if metrics.coverage_probes == 0 {
            return Err(invalid("metrics.coverage_probes", "must be at least 1, got 0"));
        }
        if let Some(scaling) = &self.scaling {
            self.validate_scaling(scaling)?;
        }
        Ok(())
    }

    fn validate_scaling(&self, scaling: &ScalingConfig) -> Result<(), ConfigError> {
        check_dim("scaling.dim", scaling.dim)?;
        if scaling.reps == 0 {
            return Err(invalid("scaling.reps", "must be at least 1, got 0"));
        }
        for (i, name) in scaling.samplers.iter().enumerate() {
            if !self.samplers.iter().any(|s| &s.name == name) {
                return Err(invalid(
                    format!("scaling.samplers[{i}]"),
                    format!("'{name}' is not in samplers"),
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
                if range.points == 0 {
                    return Err(invalid("scaling.n_log_range.points", "must be at least 1, got 0"));
                }
            }
        }
        Ok(())
    }
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
        };
        assert_eq!(scaling.counts(), vec![100, 1000, 10_000]);
        let tiny =
            ScalingConfig { n_log_range: Some(LogRange { from: 1, to: 2, points: 5 }), ..scaling };
        assert_eq!(tiny.counts(), vec![1, 2]);
    }

    #[test]
    fn parameters_map_to_the_registry() {
        let bridson = SamplerConfig {
            name: "bridson".into(),
            k: Some(12),
            candidates: None,
            max_misses: None,
        };
        assert_eq!(
            bridson.params(Some(0.1)),
            SamplerParams { radius: Some(0.1), attempts: Some(12), ..SamplerParams::default() }
        );
    }
}
