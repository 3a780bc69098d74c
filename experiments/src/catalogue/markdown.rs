//! The sampler reference: the text of `docs/samplers.md`, every sampler with its command-line
//! name, its Python class, what it takes and its parameters.

use super::{Entry, Kind, catalogue};
use std::fmt::Write;

/// The path of the generated page, from the repository's root.
pub const PATH: &str = "docs/samplers.md";

/// The text of [`PATH`].
pub fn reference() -> String {
    let mut out = String::new();
    out.push_str(
        "# The samplers\n\n\
         Every sampler, as `experiments sample <name>` takes it, as the Python class of that\n\
         name in CamelCase takes it (`poisson_nd.GaussianBlueNoise`), and as a `[[samplers]]`\n\
         table of the report's configuration takes it (`name = \"…\"` and the keys below). The\n\
         same parameters give the same points everywhere. This page is generated from the\n\
         sampler catalogue (experiments/src/catalogue/); CONTRIBUTING.md says how.\n\n\
         Every sampler also takes the box (`--dim`, `--box`, `--origin`; Python `d`, `l_bounds`,\n\
         `u_bounds`), `--seed` (`rng`) and `--max-points` (`max_points`); a radius-driven one\n\
         takes `--radius` (`radius`) and fills the box, a count-driven one draws `--n` points\n\
         (`random(n)`).\n\n",
    );
    out.push_str(
        "| sampler | Python | driven by | radius field | region | periodic | dimensions |\n",
    );
    out.push_str("| --- | --- | --- | --- | --- | --- | --- |\n");
    for e in catalogue() {
        let caps = e.capabilities;
        let yes = |b: bool| if b { "yes" } else { "no" };
        let most = caps.max_dimension.min(crate::dims::MAX_DIM);
        let _ = writeln!(
            out,
            "| [`{}`](#{}) | `{}` | {} | {} | {} | {} | {} |",
            e.name,
            e.name,
            e.class,
            if caps.radius { "radius" } else { "count" },
            yes(caps.field),
            yes(caps.region),
            yes(caps.periodic),
            if caps.min_dimension == most {
                format!("{most}")
            } else {
                format!("{}–{most}", caps.min_dimension)
            }
        );
    }
    for e in catalogue() {
        out.push('\n');
        section(&mut out, e);
    }
    out
}

fn section(out: &mut String, e: &Entry) {
    let _ = writeln!(out, "## {}\n", e.name);
    let _ = writeln!(out, "{}\n", e.summary);
    let _ = write!(out, "Python: `poisson_nd.{}`", e.class);
    if let Some(switch) = e.switch {
        let base = super::entry(switch.base).map(|b| b.class.as_str()).unwrap_or_default();
        let value = match switch.value {
            super::SwitchValue::Flag(b) => if b { "True" } else { "False" }.to_string(),
            super::SwitchValue::Word(w) => format!("\"{w}\""),
        };
        let _ = write!(out, ", or `poisson_nd.{base}({}={value})`", switch.keyword);
        if switch.default_selects {
            out.push_str(" (its default)");
        }
    }
    out.push_str(".\n\n");
    if e.parameters.is_empty() {
        out.push_str("No parameters of its own.\n");
        return;
    }
    out.push_str("| flag | key | kind | meaning |\n| --- | --- | --- | --- |\n");
    for p in &e.parameters {
        let kind = match &p.kind {
            Kind::Count => "whole number".to_string(),
            Kind::Number => "number".to_string(),
            Kind::Flag => "true or false".to_string(),
            Kind::Choice(names) => {
                names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(" or ")
            }
        };
        let _ = writeln!(
            out,
            "| `--{}` | `{}` | {kind} | {} |",
            p.key.replace('_', "-"),
            p.key,
            p.help.replace('\n', " ").replace('|', "\\|")
        );
    }
}
