//! Every sampler by its name, built from one set of parameters: the single place where the
//! command line and the report learn which samplers exist.

use poisson_nd::{Bridson, Domain, DynSampler, Error, WhiteNoise};

/// The names of all samplers, as `Sampler::name` gives them.
pub const SAMPLER_NAMES: &[&str] = &["bridson", "white-noise"];

/// The parameters a sampler may take; each sampler reads the ones it understands.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplerParams {
    /// Poisson-disk radius (required by radius-driven samplers).
    pub radius: Option<f64>,
    /// Attempts per active point (Bridson's k).
    pub attempts: Option<u32>,
}

/// Why a sampler could not be built from a name and parameters.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// No sampler has that name.
    #[error("unknown sampler '{0}' (known: {known})", known = SAMPLER_NAMES.join(", "))]
    UnknownSampler(String),
    /// A required parameter is missing.
    #[error("sampler '{sampler}' needs {parameter}")]
    MissingParameter {
        /// The sampler.
        sampler: &'static str,
        /// The parameter, as named on the command line.
        parameter: &'static str,
    },
    /// The library rejected the configuration.
    #[error(transparent)]
    Invalid(#[from] Error),
}

/// Builds the sampler called `name` in `domain`.
pub fn build<const D: usize>(
    name: &str,
    domain: Domain<D>,
    params: &SamplerParams,
) -> Result<Box<dyn DynSampler<D>>, BuildError> {
    match name {
        "bridson" => {
            let radius = params.radius.ok_or(BuildError::MissingParameter {
                sampler: "bridson",
                parameter: "--radius",
            })?;
            let mut sampler = Bridson::new(domain, radius)?;
            if let Some(k) = params.attempts {
                sampler = sampler.with_attempts(k)?;
            }
            Ok(Box::new(sampler))
        }
        "white-noise" => Ok(Box::new(WhiteNoise::new(domain))),
        other => Err(BuildError::UnknownSampler(other.to_string())),
    }
}
