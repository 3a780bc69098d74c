//! The library's choices as command-line values: clap reads these thin mirrors, and each
//! converts one to one into the library's type (the library does not depend on clap).
#![deny(missing_docs)]

use poisson_nd::field::{DensityMapping, PairRule};

/// `--radius-rule`: the distance a pair with radii `r_i` and `r_j` keeps (the library's
/// [`PairRule`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, clap::ValueEnum)]
pub enum RuleArg {
    /// `max(r_i, r_j)`: each point keeps every other out of its own disk.
    #[default]
    Max,
    /// `min(r_i, r_j)`: the smaller radius decides.
    Min,
    /// `(r_i + r_j) / 2`: disks of radius `r/2` do not overlap.
    Mean,
}

impl From<RuleArg> for PairRule {
    fn from(rule: RuleArg) -> PairRule {
        match rule {
            RuleArg::Max => PairRule::Max,
            RuleArg::Min => PairRule::Min,
            RuleArg::Mean => PairRule::Mean,
        }
    }
}

/// `--mapping`: how a density in `[0, 1]` becomes a radius in `[rmin, rmax]` (the library's
/// [`DensityMapping`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, clap::ValueEnum)]
pub enum MappingArg {
    /// `r = rmax + (rmin − rmax)·density`.
    #[default]
    Lerp,
    /// `r = clamp(rmin·density^(−1/D), rmin, rmax)`: points per volume follow the density.
    Inverse,
}

impl From<MappingArg> for DensityMapping {
    fn from(mapping: MappingArg) -> DensityMapping {
        match mapping {
            MappingArg::Lerp => DensityMapping::Lerp,
            MappingArg::Inverse => DensityMapping::Inverse,
        }
    }
}

/// Serializes a pair rule as its name (`"max"`, `"min"`, `"mean"`), for JSON output.
pub fn serialize_rule<S: serde::Serializer>(rule: &PairRule, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(rule.as_str())
}

/// Serializes a density mapping as its command-line name (`"lerp"`, `"inverse"`).
pub fn serialize_mapping<S: serde::Serializer>(
    mapping: &DensityMapping,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.serialize_str(mapping_name(*mapping))
}

/// A density mapping's command-line name.
pub fn mapping_name(mapping: DensityMapping) -> &'static str {
    match mapping {
        DensityMapping::Lerp => "lerp",
        DensityMapping::Inverse => "inverse",
    }
}
