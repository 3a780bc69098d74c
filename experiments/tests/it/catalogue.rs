//! The interfaces generated from the sampler catalogue are current: the Python engine classes
//! and the sampler reference in docs/ are what the catalogue makes now, and every sampler is in
//! the command line's list. `POISSON_ND_REGENERATE=1` writes them anew instead of failing.

use experiments::catalogue::{self, markdown, python};
use std::path::Path;

/// Compares the committed file at `path` (from the repository's root) with `text`, or writes
/// `text` there when asked to regenerate.
fn current(path: &str, text: &str) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path);
    if std::env::var_os("POISSON_ND_REGENERATE").is_some() {
        std::fs::write(&file, text).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&file).unwrap_or_default();
    assert!(
        committed == text,
        "{path} is not what the catalogue makes: run \
         `POISSON_ND_REGENERATE=1 cargo test --release -p experiments --test it catalogue` \
         and commit it"
    );
}

#[test]
fn the_python_classes_are_current() {
    let module = python::module();
    for entry in catalogue::catalogue() {
        assert!(module.contains(&format!("\nclass {}(", entry.class)), "{}", entry.name);
        assert!(module.contains(&format!("    name = \"{}\"\n", entry.name)), "{}", entry.name);
    }
    current(python::PATH, &module);
}

#[test]
fn the_sampler_reference_is_current() {
    let page = markdown::reference();
    for entry in catalogue::catalogue() {
        assert!(page.contains(&format!("\n## {}\n", entry.name)), "{}", entry.name);
    }
    current(markdown::PATH, &page);
}

#[test]
fn every_sampler_is_a_subcommand_with_its_flags() {
    let (_, help, _) = crate::experiments_text(&["sample", "--help"]);
    for entry in catalogue::catalogue() {
        assert!(help.contains(&entry.name), "{}", entry.name);
        let (code, own, _) = crate::experiments_text(&["sample", &entry.name, "--help"]);
        assert_eq!(code, 0, "{}", entry.name);
        for key in entry.keys() {
            let flag = format!("--{}", key.replace('_', "-"));
            assert!(own.contains(&flag), "{} {flag}", entry.name);
        }
    }
}
