//! The Python engine classes, one per sampler of the catalogue: the text of
//! `python/poisson_nd/_samplers.py`.
//!
//! Each class is a few lines over the engines' bases in `_engines.py` (`Engine`, radius-driven
//! `_RadiusDriven`, and `_Sequence` for the samplers that continue a sequence): its keywords are
//! the sampler's parameters with their kinds, its docstring the catalogue's help, and it
//! checks nothing itself (the library does, through [`super::parse`]).

use super::{Entry, Kind, SwitchValue, catalogue, entry};
use std::fmt::Write;

/// The path of the generated module, from the repository's root.
pub const PATH: &str = "python/poisson_nd/_samplers.py";

/// The text of [`PATH`].
pub fn module() -> String {
    let mut out = String::new();
    out.push_str(
        "\"\"\"The samplers as engines, one class per sampler of the catalogue.\n\n\
         Generated from the sampler catalogue (experiments/src/catalogue/) by\n\
         `POISSON_ND_REGENERATE=1 cargo test --release -p experiments --test it catalogue`;\n\
         edit the catalogue, not this file.\n\"\"\"\n\n\
         from __future__ import annotations\n\n\
         from typing import Literal, Optional\n\n\
         from ._engines import Bounds, Engine, SeedLike, _RadiusDriven, _Sequence\n\
         from ._native import Field, Region\n\n",
    );
    out.push_str("__all__ = [\n");
    for e in catalogue() {
        let _ = writeln!(out, "    \"{}\",", e.class);
    }
    out.push_str("]\n");
    for e in catalogue() {
        out.push_str("\n\n");
        class(&mut out, e);
    }
    out
}

fn class(out: &mut String, e: &Entry) {
    let caps = e.capabilities;
    let base = if caps.radius {
        "_RadiusDriven"
    } else if e.is_sequence() {
        "_Sequence"
    } else {
        "Engine"
    };
    let _ = writeln!(out, "class {}({base}):", e.class);
    // The docstring.
    let mut doc = String::new();
    doc.push_str(&wrap(&e.summary, 92));
    doc.push('\n');
    doc.push_str(about(e).trim_end());
    let switch = switched_by(e);
    if !e.parameters.is_empty() || switch.is_some() {
        doc.push_str("\n\nParameters\n----------\n");
        for p in &e.parameters {
            let _ = writeln!(doc, "{} : {}, optional", p.key, doc_kind(&p.kind));
            doc.push_str(&indent(&wrap(&p.help, 88), "    "));
        }
        if let Some(Keyword { name: keyword, values, default }) = &switch {
            let _ = writeln!(doc, "{keyword} : {}", doc_choices(values.iter().map(|v| &v.0)));
            let options: Vec<String> = values
                .iter()
                .map(|(value, name)| {
                    let class = &entry(name).map(|e| e.class.clone()).unwrap_or_default();
                    format!("{value} is ``{name}`` (class ``{class}``)")
                })
                .collect();
            let text = format!("{}; default {default}.", options.join(", "));
            doc.push_str(&indent(&wrap(&text, 88), "    "));
        }
    }
    let doc = doc.trim_end();
    let _ = writeln!(out, "    \"\"\"{}\n    \"\"\"\n", indent_rest(doc, "    "));
    let _ = writeln!(out, "    name = \"{}\"", e.name);
    if caps.field {
        out.push_str("    _takes_field = True\n");
    }
    if let Some(Keyword { name: keyword, values, default }) = &switch {
        let ty = if default == "True" || default == "False" {
            "bool".to_string()
        } else {
            "str".to_string()
        };
        let _ = writeln!(out, "    {keyword}: {ty}");
        let names: Vec<String> = values.iter().map(|(v, n)| format!("{v}: \"{n}\"")).collect();
        let _ = writeln!(out, "    _switch = (\"{keyword}\", {default}, {{{}}})", names.join(", "));
    }
    out.push('\n');
    // The constructor.
    // Each keyword: its declaration, and how it is passed on to the base (None: not at all).
    let mut args: Vec<(String, Option<String>)> =
        vec![("self".into(), None), ("d: int".into(), Some("d".into()))];
    let keyword = |decl: String, name: &str| (decl, Some(format!("{name}={name}")));
    if caps.radius {
        let decl = if caps.field { "radius: Optional[float] = None" } else { "radius: float" };
        args.push(keyword(decl.into(), "radius"));
    }
    args.push(("*".into(), None));
    if caps.field {
        args.push(keyword("field: Optional[Field] = None".into(), "field"));
    }
    for p in &e.parameters {
        args.push((format!("{}: Optional[{}] = None", p.key, py_kind(&p.kind)), None));
    }
    if !e.parameters.is_empty() {
        let params: Vec<String> = e.keys().map(|k| format!("\"{k}\": {k}")).collect();
        args.push((String::new(), Some(format!("params={{{}}}", params.join(", ")))));
    }
    if let Some(Keyword { name, values, default }) = &switch {
        let ty = if default == "True" || default == "False" {
            "bool".to_string()
        } else {
            let values: Vec<String> = values.iter().map(|v| v.0.clone()).collect();
            format!("Literal[{}]", values.join(", "))
        };
        args.push((format!("{name}: {ty} = {default}"), Some(format!("switch={name}"))));
    }
    args.push(keyword("l_bounds: Bounds = None".into(), "l_bounds"));
    args.push(keyword("u_bounds: Bounds = None".into(), "u_bounds"));
    if caps.periodic {
        args.push(keyword("periodic: bool = False".into(), "periodic"));
    }
    if caps.region {
        args.push(keyword("region: Optional[Region] = None".into(), "region"));
    }
    args.push(keyword("max_points: Optional[int] = None".into(), "max_points"));
    args.push(keyword("rng: SeedLike = None".into(), "rng"));
    out.push_str("    def __init__(\n");
    for (decl, _) in args.iter().filter(|(decl, _)| !decl.is_empty()) {
        let _ = writeln!(out, "        {decl},");
    }
    out.push_str("    ) -> None:\n");
    let pass: Vec<&String> = args.iter().filter_map(|(_, pass)| pass.as_ref()).collect();
    out.push_str("        super().__init__(\n");
    for p in &pass {
        let _ = writeln!(out, "            {p},");
    }
    out.push_str("        )\n");
}

/// What the class is beside its summary: its sampler, how it is driven, what it takes.
fn about(e: &Entry) -> String {
    let caps = e.capabilities;
    let driven = if caps.radius {
        "radius-driven (``fill_space()`` fills the box; ``random(n)`` stops at n points)"
    } else {
        "count-driven (``random(n)`` draws n points)"
    };
    let mut takes = Vec::new();
    if caps.field {
        takes.push("a radius ``field``");
    }
    if caps.region {
        takes.push("a ``region``");
    }
    if caps.periodic {
        takes.push("a ``periodic`` box");
    }
    let takes = if takes.is_empty() { "nothing else".to_string() } else { takes.join(", ") };
    let most = caps.max_dimension.min(crate::dims::MAX_DIM);
    let dims = if caps.min_dimension == most {
        format!("{most}D only")
    } else {
        format!("{}D to {most}D", caps.min_dimension)
    };
    let text = format!(
        "The sampler ``{}`` of ``experiments sample``, with the same points for the same seed; \
         {driven}; takes {takes}; {dims}.",
        e.name
    );
    wrap(&text, 92)
}

/// The keyword of a base class that selects between it and its variant.
struct Keyword {
    name: &'static str,
    /// Each value as a Python literal, with the sampler it selects: the base's, the variant's.
    values: [(String, String); 2],
    /// The default value's literal.
    default: String,
}

/// The keyword that selects between `e` and its variant, when `e` is a base.
fn switched_by(e: &Entry) -> Option<Keyword> {
    let variant = catalogue().iter().find(|v| v.switch.is_some_and(|s| s.base == e.name))?;
    let switch = variant.switch?;
    let literal = |value: SwitchValue| match value {
        SwitchValue::Flag(true) => "True".to_string(),
        SwitchValue::Flag(false) => "False".to_string(),
        SwitchValue::Word(word) => format!("\"{word}\""),
    };
    let (base, variant_value) = (literal(switch.base_value), literal(switch.value));
    let default = if switch.default_selects { variant_value.clone() } else { base.clone() };
    Some(Keyword {
        name: switch.keyword,
        values: [(base, e.name.clone()), (variant_value, variant.name.clone())],
        default,
    })
}

fn py_kind(kind: &Kind) -> String {
    match kind {
        Kind::Count => "int".to_string(),
        Kind::Number => "float".to_string(),
        Kind::Flag => "bool".to_string(),
        Kind::Choice(names) => {
            let names: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
            format!("Literal[{}]", names.join(", "))
        }
    }
}

fn doc_kind(kind: &Kind) -> String {
    match kind {
        Kind::Count => "int".to_string(),
        Kind::Number => "float".to_string(),
        Kind::Flag => "bool".to_string(),
        Kind::Choice(names) => {
            doc_choices(names.iter().map(|n| format!("\"{n}\"")).collect::<Vec<_>>().iter())
        }
    }
}

fn doc_choices<'a>(values: impl Iterator<Item = &'a String>) -> String {
    format!("{{{}}}", values.cloned().collect::<Vec<_>>().join(", "))
}

/// `text` in lines of at most `width` characters, broken at spaces, each line ending in a
/// newline.
pub(crate) fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

fn indent(text: &str, by: &str) -> String {
    text.lines()
        .map(|l| if l.is_empty() { "\n".to_string() } else { format!("{by}{l}\n") })
        .collect()
}

/// Every line but the first indented (a docstring's body).
fn indent_rest(text: &str, by: &str) -> String {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or_default().to_string();
    lines.fold(first, |acc, l| if l.is_empty() { acc + "\n" } else { acc + "\n" + by + l })
}
