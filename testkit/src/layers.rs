//! The layers of a crate's modules, read from its sources: which top-level module refers to
//! which (`crate::name`), and a check that every reference points down the layers and that
//! no modules refer to each other in a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The crate's top-level modules (the files and folders under `src`, but `lib` and `main`)
/// and, for each, the other top-level modules its code refers to as `crate::name` (line
/// comments and `#[cfg(test)] mod tests` blocks left out).
pub fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut files = Vec::new();
    collect(src, &mut files);
    for file in files {
        let relative = file.strip_prefix(src).expect("under src");
        let top = relative
            .components()
            .next()
            .map(|c| c.as_os_str().to_string_lossy().trim_end_matches(".rs").to_string())
            .unwrap_or_default();
        if top == "lib" || top == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("readable source");
        let code = strip(&text);
        let refs = graph.entry(top.clone()).or_default();
        for name in crate_references(&code) {
            if name != top {
                refs.insert(name);
            }
        }
    }
    graph
}

/// Every `.rs` file under `dir`.
fn collect(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable folder").flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// The code of a file without line comments and without its unit-test module.
fn strip(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    text.lines().map(|line| line.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The first path segment after every `crate::`, and inside `crate::{...}` groups.
fn crate_references(code: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            for part in inner.split(',') {
                let name = ident(part.trim());
                if !name.is_empty() {
                    names.insert(name);
                }
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                names.insert(name);
            }
        }
    }
    names
}

/// Asserts that the crate's modules keep `layers` (listed from the bottom up, each a list of
/// top-level modules): every module is in one layer, refers only to modules of its own layer
/// or lower ones, and no modules refer to each other in a circle.
pub fn assert_layers(src: &Path, layers: &[&[&str]]) {
    let graph = module_graph(src);
    let layer_of = |name: &str| layers.iter().position(|layer| layer.contains(&name));
    for (module, refs) in &graph {
        let Some(own) = layer_of(module) else {
            panic!("module `{module}` is in no layer: place it in the list");
        };
        // Names that are no module (a macro or an item of the crate's root) are not layered.
        for target in refs.iter().filter(|target| graph.contains_key(*target)) {
            let Some(theirs) = layer_of(target) else {
                panic!("`{module}` refers to `{target}`, which is in no layer");
            };
            assert!(
                theirs <= own,
                "`{module}` (layer {own}) refers up to `{target}` (layer {theirs})"
            );
        }
    }
    // No circle: a depth-first walk from every module never comes back to one on its path.
    fn visit<'a>(
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        module: &'a str,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) {
        if done.contains(module) {
            return;
        }
        if let Some(at) = path.iter().position(|m| *m == module) {
            panic!("modules refer to each other in a circle: {}", path[at..].join(" → "));
        }
        path.push(module);
        for next in graph.get(module).into_iter().flatten().filter(|m| graph.contains_key(*m)) {
            visit(graph, next, path, done);
        }
        path.pop();
        done.insert(module);
    }
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        visit(&graph, module, &mut Vec::new(), &mut done);
    }
}
