//! Every sampler by its name, built from one set of parameters: the single place where the
//! command line and the report learn which samplers exist.

use poisson_nd::{
    BestCandidate, Bridson, DartThrowing, Domain, DynSampler, Error, GridResolution, Halton,
    JitteredGrid, WhiteNoise,
};

/// The names of all samplers, as `Sampler::label` gives them.
pub const SAMPLER_NAMES: &[&str] = &[
    "bridson",
    "dart-throwing",
    "dart-throwing-grid",
    "best-candidate",
    "halton",
    "halton-randomized",
    "jittered-grid",
    "white-noise",
];

/// The parameters a sampler may take; each sampler reads the ones it understands.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SamplerParams {
    /// Poisson-disk radius (required by radius-driven samplers).
    pub radius: Option<f64>,
    /// Attempts per active point (Bridson's k).
    pub attempts: Option<u32>,
    /// Rejections in a row that end dart throwing.
    pub max_misses: Option<u64>,
    /// Candidates per point (best candidate's m).
    pub candidates: Option<u32>,
    /// Best candidate: m·i candidates for the i-th point instead of m.
    pub growing_candidates: bool,
    /// Halton: indices skipped at the start of the sequence.
    pub skip: Option<u64>,
    /// Halton: scramble by random digit permutations.
    pub randomize: bool,
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
    let radius = |sampler: &'static str| {
        params.radius.ok_or(BuildError::MissingParameter { sampler, parameter: "--radius" })
    };
    match name {
        "bridson" => {
            let mut sampler = Bridson::builder(domain, radius("bridson")?);
            if let Some(k) = params.attempts {
                sampler = sampler.with_attempts(k);
            }
            Ok(Box::new(sampler.build()?))
        }
        "dart-throwing" => Ok(Box::new(dart_throwing(domain, radius("dart-throwing")?, params)?)),
        "dart-throwing-grid" => {
            let sampler = dart_throwing(domain, radius("dart-throwing-grid")?, params)?;
            Ok(Box::new(sampler.to_builder().with_grid(GridResolution::default()).build()?))
        }
        "best-candidate" => {
            let mut sampler =
                BestCandidate::new(domain).with_growing_candidates(params.growing_candidates);
            if let Some(m) = params.candidates {
                sampler = sampler.with_candidates(m)?;
            }
            Ok(Box::new(sampler))
        }
        "halton" | "halton-randomized" => {
            let mut sampler = Halton::new(domain)?.with_skip(params.skip.unwrap_or(0));
            if params.randomize || name == "halton-randomized" {
                sampler = sampler.randomized();
            }
            Ok(Box::new(sampler))
        }
        "jittered-grid" => Ok(Box::new(JitteredGrid::new(domain))),
        "white-noise" => Ok(Box::new(WhiteNoise::new(domain))),
        other => Err(BuildError::UnknownSampler(other.to_string())),
    }
}

/// Dart throwing with the parameters it reads, before the choice of search.
fn dart_throwing<const D: usize>(
    domain: Domain<D>,
    radius: f64,
    params: &SamplerParams,
) -> Result<DartThrowing<D>, Error> {
    let sampler = DartThrowing::builder(domain, radius);
    match params.max_misses {
        Some(misses) => sampler.with_max_misses(misses).build(),
        None => sampler.build(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_builds_a_sampler_of_that_name() {
        let domain = Domain::<2>::unit();
        let params = SamplerParams { radius: Some(0.1), ..SamplerParams::default() };
        for &name in SAMPLER_NAMES {
            let sampler = build(name, domain, &params).expect(name);
            assert_eq!(sampler.dyn_label(), name);
        }
    }

    #[test]
    fn flags_reach_the_samplers() {
        let domain = Domain::<2>::unit();
        let params = SamplerParams { randomize: true, ..SamplerParams::default() };
        assert_eq!(
            build("halton", domain, &params).expect("halton").dyn_label(),
            "halton-randomized"
        );
        let params = SamplerParams { radius: Some(0.1), max_misses: Some(0), ..Default::default() };
        assert!(matches!(build("dart-throwing", domain, &params), Err(BuildError::Invalid(_))));
        let params = SamplerParams { candidates: Some(0), ..Default::default() };
        assert!(matches!(build("best-candidate", domain, &params), Err(BuildError::Invalid(_))));
        let missing = build("dart-throwing-grid", domain, &SamplerParams::default());
        assert!(matches!(
            missing,
            Err(BuildError::MissingParameter { sampler: "dart-throwing-grid", .. })
        ));
    }
}
