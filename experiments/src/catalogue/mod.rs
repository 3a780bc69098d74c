//! The sampler catalogue: every sampler described once, with its name, what it does, its
//! parameters (key, kind, help text) and its capabilities, read from the specification
//! ([`SamplerSpec`]: its clap subcommands and its library samplers), never restated.
//!
//! Every interface is made from it:
//!
//! - the command line's `experiments sample <SAMPLER>` flags and help are the specification's
//!   subcommands themselves;
//! - the Python engine classes (`python/poisson_nd/_samplers.py`, [`python::module`]) and the
//!   sampler reference (`docs/samplers.md`, [`markdown::reference`]) are generated from it, and
//!   a test fails when a committed copy is not current (`POISSON_ND_REGENERATE=1` rewrites
//!   them);
//! - Python's parameters reach the specification through [`parse`], the one path that checks
//!   them, with the command line's messages;
//! - the report's colours and the configuration's key checks follow [`names`] and [`entry`].
#![deny(missing_docs)]

pub mod markdown;
pub mod python;

use crate::spec::SamplerSpec;
pub use crate::spec::{Switch, SwitchValue};
use clap::{Arg, CommandFactory};
use poisson_nd::config::Capabilities;
use serde::Deserialize;
use serde::de::value::{Error as ValueError, MapDeserializer};
use serde::de::{IntoDeserializer, Visitor};
use std::any::TypeId;
use std::sync::OnceLock;

/// One sampler of the catalogue.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The name: the subcommand, the TOML `name`, the label in every file of the report.
    pub name: String,
    /// What it is, in a sentence or two (the subcommand's help).
    pub summary: String,
    /// Its Python class: the name in CamelCase (`gaussian-blue-noise` is `GaussianBlueNoise`).
    pub class: String,
    /// What the library's sampler supports.
    pub capabilities: Capabilities,
    /// Its own parameters, in declaration order.
    pub parameters: Vec<Parameter>,
    /// How another sampler's Python class selects this one by a keyword, if it does.
    pub switch: Option<Switch>,
}

impl Entry {
    /// The keys of its parameters (`max_misses`), in declaration order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.parameters.iter().map(|p| p.key.as_str())
    }

    /// Whether it takes the parameter `key`.
    pub fn takes(&self, key: &str) -> bool {
        self.keys().any(|k| k == key)
    }

    /// Its keys, comma-separated, or "none".
    pub fn key_list(&self) -> String {
        listed(self.keys().map(str::to_string))
    }

    /// Its flags as the command line writes them (`--max-misses`), or "none".
    pub fn flags(&self) -> String {
        listed(self.keys().map(|k| format!("--{}", k.replace('_', "-"))))
    }

    /// Whether it is a sequence that a second run continues (it takes a `skip`).
    pub fn is_sequence(&self) -> bool {
        self.takes("skip")
    }
}

/// One parameter of a sampler.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parameter {
    /// The TOML key and Python keyword (`max_misses`); the flag is `--max-misses`.
    pub key: String,
    /// What values it takes.
    pub kind: Kind,
    /// Its help text, with its default and range.
    pub help: String,
}

/// The kind of a parameter's values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// A whole number.
    Count,
    /// A number.
    Number,
    /// True or false.
    Flag,
    /// One of the names.
    Choice(Vec<String>),
}

/// Every sampler, in the order of [`SamplerSpec`]'s variants (the report's colours follow it).
pub fn catalogue() -> &'static [Entry] {
    static CATALOGUE: OnceLock<Vec<Entry>> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        let specs = SamplerSpec::all_defaults();
        SpecCommand::command()
            .get_subcommands()
            .zip(specs)
            .map(|(sub, spec)| Entry {
                name: sub.get_name().to_string(),
                summary: sentence(sub.get_about().map(|a| a.to_string())),
                class: class_name(sub.get_name()),
                capabilities: spec.capabilities(),
                parameters: sub
                    .get_arguments()
                    .filter(|arg| arg.get_id() != "help")
                    .map(parameter)
                    .collect(),
                switch: spec.switch(),
            })
            .collect()
    })
}

/// The sampler names, in [`catalogue`] order.
pub fn names() -> Vec<&'static str> {
    catalogue().iter().map(|entry| entry.name.as_str()).collect()
}

/// The catalogue entry of the sampler called `name`.
pub fn entry(name: &str) -> Option<&'static Entry> {
    catalogue().iter().find(|entry| entry.name == name)
}

/// Advice for a key that samplers no longer take, if `key` is one.
pub fn retired_key(key: &str) -> Option<&'static str> {
    match key {
        "randomize" => Some(
            "is no longer a key: the scrambled sequence is its own sampler, \
             name = \"halton-randomized\"",
        ),
        "chunk_size" => Some("is now chunk_side (the same length: a chunk's side)"),
        _ => None,
    }
}

/// A command holding the specification as its subcommands, to read the catalogue from.
#[derive(clap::Parser, Debug)]
struct SpecCommand {
    #[command(subcommand)]
    sampler: SamplerSpec,
}

fn class_name(name: &str) -> String {
    name.split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        })
        .collect::<Option<String>>()
        .unwrap_or_default()
}

fn parameter(arg: &Arg) -> Parameter {
    let choices: Vec<String> =
        arg.get_possible_values().iter().map(|v| v.get_name().to_string()).collect();
    let type_id = arg.get_value_parser().type_id();
    let kind = if !choices.is_empty() && type_id != TypeId::of::<bool>() {
        Kind::Choice(choices)
    } else if type_id == TypeId::of::<bool>() {
        Kind::Flag
    } else if type_id == TypeId::of::<f64>() {
        Kind::Number
    } else {
        Kind::Count
    };
    Parameter {
        key: arg.get_id().as_str().to_string(),
        kind,
        help: sentence(arg.get_help().map(|h| h.to_string())),
    }
}

/// A doc comment's text as clap keeps it, with the full stop clap drops from a one-sentence
/// paragraph.
fn sentence(text: Option<String>) -> String {
    let text = text.unwrap_or_default();
    if text.is_empty() || text.ends_with('.') { text } else { text + "." }
}

/// A parameter's value as another interface hands it over (a Python keyword's value).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// True or false.
    Flag(bool),
    /// A whole number.
    Int(i64),
    /// A number.
    Float(f64),
    /// A word.
    Text(String),
}

/// Why [`parse`] refused a sampler's parameters: the one line the command line would say.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

/// The specification of sampler `name` with `values` (keys as [`Parameter::key`]), checked
/// as the command line checks it ([`SamplerSpec::check`]): a value of the wrong kind or out
/// of range is named by its key.
pub fn parse(name: &str, values: &[(String, Value)]) -> Result<SamplerSpec, ParseError> {
    let Some(entry) = entry(name) else {
        return Err(ParseError(format!(
            "unknown sampler '{name}' (known: {})",
            names().join(", ")
        )));
    };
    if let Some((key, _)) = values.iter().find(|(key, _)| !entry.takes(key)) {
        let advice =
            retired_key(key).map(|advice| format!("{key} {advice}")).unwrap_or_else(|| {
                format!(
                    "{key} does not apply to '{name}' (its own parameters: {})",
                    entry.key_list()
                )
            });
        return Err(ParseError(advice));
    }
    let spec = deserialize(name, values).map_err(|e| {
        // Which key: the first that fails alone.
        let culprit =
            values.iter().find(|pair| deserialize(name, std::slice::from_ref(pair)).is_err());
        ParseError(match culprit {
            Some((key, Value::Int(v))) if *v < 0 => {
                format!("{key} must be a whole number ≥ 0, got {v}")
            }
            Some((key, _)) => format!("{key}: {e}"),
            None => e.to_string(),
        })
    })?;
    spec.check().map_err(|e| ParseError(e.to_string()))?;
    Ok(spec)
}

fn listed(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    if items.is_empty() { "none".to_string() } else { items.join(", ") }
}

fn deserialize(name: &str, values: &[(String, Value)]) -> Result<SamplerSpec, ValueError> {
    let pairs = std::iter::once(("name".to_string(), Value::Text(name.to_string())))
        .chain(values.iter().cloned());
    SamplerSpec::deserialize(MapDeserializer::<_, ValueError>::new(pairs))
}

impl<'de> IntoDeserializer<'de, ValueError> for Value {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de> serde::Deserializer<'de> for Value {
    type Error = ValueError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ValueError> {
        match self {
            Value::Flag(b) => visitor.visit_bool(b),
            Value::Int(i) => visitor.visit_i64(i),
            Value::Float(f) => visitor.visit_f64(f),
            Value::Text(s) => visitor.visit_string(s),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, ValueError> {
        visitor.visit_some(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sampler_has_its_name_class_and_kinds() {
        assert_eq!(
            names(),
            SamplerSpec::all_defaults().iter().map(SamplerSpec::name).collect::<Vec<_>>()
        );
        let bridson = entry("bridson").unwrap();
        assert_eq!(bridson.class, "Bridson");
        assert_eq!(entry("gaussian-blue-noise").unwrap().class, "GaussianBlueNoise");
        assert_eq!(entry("pmj02").unwrap().class, "Pmj02");
        let kinds: Vec<_> = bridson.parameters.iter().map(|p| (p.key.as_str(), &p.kind)).collect();
        assert_eq!(kinds[0], ("k", &Kind::Count));
        assert_eq!(kinds[1], ("grid", &Kind::Choice(vec!["coarse".into(), "fine".into()])));
        let elimination = entry("sample-elimination").unwrap();
        assert_eq!(elimination.parameters[0].kind, Kind::Number);
        assert_eq!(elimination.parameters[1].kind, Kind::Flag);
        assert!(catalogue().iter().all(|e| !e.summary.is_empty()));
        assert!(catalogue().iter().flat_map(|e| &e.parameters).all(|p| !p.help.is_empty()));
        // Every switch selects between two samplers of the catalogue.
        for e in catalogue() {
            if let Some(switch) = e.switch {
                assert!(entry(switch.base).is_some_and(|base| base.switch.is_none()), "{}", e.name);
            }
        }
    }

    #[test]
    fn parse_names_the_key_and_checks_as_the_command_line() {
        let spec = parse("bridson", &[("k".into(), Value::Int(12))]).unwrap();
        assert_eq!(spec, toml::from_str("name = \"bridson\"\nk = 12").unwrap());
        let grid = parse("bridson", &[("grid".into(), Value::Text("fine".into()))]).unwrap();
        assert_eq!(grid, toml::from_str("name = \"bridson\"\ngrid = \"fine\"").unwrap());
        let ratio = parse("sample-elimination", &[("ratio".into(), Value::Int(3))]).unwrap();
        assert_eq!(ratio, toml::from_str("name = \"sample-elimination\"\nratio = 3.0").unwrap());
        let error = |name: &str, key: &str, value: Value| {
            parse(name, &[(key.into(), value)]).unwrap_err().to_string()
        };
        assert_eq!(error("bridson", "k", Value::Int(0)), "k must be at least 1, got 0");
        assert_eq!(error("bridson", "k", Value::Int(-1)), "k must be a whole number ≥ 0, got -1");
        assert!(error("bridson", "k", Value::Text("x".into())).starts_with("k: invalid type"));
        assert!(
            error("bridson", "grid", Value::Text("medium".into()))
                .contains("unknown value 'medium'")
        );
        assert_eq!(
            error("maximal", "k", Value::Int(3)),
            "k does not apply to 'maximal' (its own parameters: none)"
        );
        assert!(error("halton", "randomize", Value::Flag(true)).contains("halton-randomized"));
        assert!(
            error("sample-elimination", "ratio", Value::Float(f64::NAN))
                .starts_with("ratio must be finite and at least 1, got")
        );
        assert!(parse("nope", &[]).unwrap_err().to_string().starts_with("unknown sampler 'nope'"));
    }
}
