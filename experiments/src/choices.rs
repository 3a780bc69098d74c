//! The library's named choices ([`Choice`]: pair rules, density mappings, grid resolutions)
//! on the command line and in files: one clap parser and one serde mapping for all of them,
//! reading the names, the order and the descriptions from the library.
#![deny(missing_docs)]

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use poisson_nd::Choice;

/// A clap parser for a choice: its possible values are the library's names, each with the
/// library's description in `--help`.
pub fn parser<T: Choice + Send + Sync>() -> impl TypedValueParser<Value = T> {
    let values =
        T::ALL.iter().map(|value| PossibleValue::new(value.name()).help(value.description()));
    PossibleValuesParser::new(values).try_map(|name: String| {
        // The possible values are exactly the names, so every name parses.
        T::from_name(&name).ok_or_else(|| format!("unknown value '{name}'"))
    })
}

/// Serializes a choice as its name and reads it back, refusing any other name with the list
/// of the possible ones: `#[serde(with = "crate::choices::by_name")]`.
pub mod by_name {
    use poisson_nd::Choice;

    /// The choice's name.
    pub fn serialize<T: Choice, S: serde::Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(value.name())
    }

    /// The choice named by a string.
    pub fn deserialize<'de, T: Choice, D: serde::Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        let name: String = serde::Deserialize::deserialize(d)?;
        T::from_name(&name).ok_or_else(|| {
            let known: Vec<&str> = T::ALL.iter().map(|value| value.name()).collect();
            serde::de::Error::custom(format!(
                "unknown value '{name}', expected one of: {}",
                known.join(", ")
            ))
        })
    }
}

/// [`by_name`] for an optional choice (with `#[serde(default)]`).
pub mod by_name_opt {
    use poisson_nd::Choice;

    /// The choice's name, if any.
    pub fn serialize<T: Choice, S: serde::Serializer>(
        value: &Option<T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(value) => s.serialize_some(value.name()),
            None => s.serialize_none(),
        }
    }

    /// The choice named by a string.
    pub fn deserialize<'de, T: Choice, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Option<T>, D::Error> {
        super::by_name::deserialize(d).map(Some)
    }
}
