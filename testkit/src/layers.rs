//! The layers of a crate's modules, read from its sources: which top-level module refers to
//! which (`crate::name`), a check that every reference points down the layers and that no
//! modules refer to each other in a circle, and the same circle check among the submodules of
//! every folder (`super::name`, `crate::folder::name`).

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
    references(code, "crate::")
}

/// The first path segment after every `prefix`, and inside `prefix{...}` groups.
fn references(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices(prefix) {
        // `super::` inside a longer `super::super::` counts once, at its own depth.
        if prefix.starts_with("super::") && code[..at].ends_with("super::") {
            continue;
        }
        let rest = &code[at + prefix.len()..];
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
    assert_no_circle(&graph, "src");
    assert_no_circle_below(src, src);
}

/// Asserts that no modules of `graph` refer to each other in a circle: a depth-first walk from
/// every module never comes back to one on its path. `place` names the folder in the message.
fn assert_no_circle(graph: &BTreeMap<String, BTreeSet<String>>, place: &str) {
    fn visit<'a>(
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        module: &'a str,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
        place: &str,
    ) {
        if done.contains(module) {
            return;
        }
        if let Some(at) = path.iter().position(|m| *m == module) {
            let circle = path[at..].join(" → ");
            panic!("modules refer to each other in a circle in {place}: {circle} → {module}");
        }
        path.push(module);
        for next in graph.get(module).into_iter().flatten().filter(|m| graph.contains_key(*m)) {
            visit(graph, next, path, done, place);
        }
        path.pop();
        done.insert(module);
    }
    let mut done = BTreeSet::new();
    for module in graph.keys() {
        visit(graph, module, &mut Vec::new(), &mut done, place);
    }
}

/// The circle check among the submodules of every folder under `src` (the folder `dir`
/// and those below it): a submodule refers to a sibling as `super::name` or by its path from
/// the crate's root.
fn assert_no_circle_below(src: &Path, dir: &Path) {
    let mut folders = Vec::new();
    for entry in std::fs::read_dir(dir).expect("readable folder").flatten() {
        if entry.path().is_dir() {
            folders.push(entry.path());
        }
    }
    for folder in folders {
        let relative = folder.strip_prefix(src).expect("under src");
        let path: String = relative
            .components()
            .map(|c| format!("{}::", c.as_os_str().to_string_lossy()))
            .collect();
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let mut files = Vec::new();
        collect(&folder, &mut files);
        let children: BTreeSet<String> = std::fs::read_dir(&folder)
            .expect("readable folder")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "rs"))
            .map(|p| p.file_stem().unwrap_or_default().to_string_lossy().into_owned())
            .filter(|name| name != "mod")
            .collect();
        for file in files {
            let inner = file.strip_prefix(&folder).expect("under the folder");
            let child = inner.components().next().map(|c| c.as_os_str().to_string_lossy());
            let child = child.unwrap_or_default().trim_end_matches(".rs").to_string();
            if child == "mod" {
                continue;
            }
            // `super::` from the child's own file, or from a file of its folder.
            let depth = inner.components().count() - usize::from(file.ends_with("mod.rs"));
            let up = "super::".repeat(depth);
            let code = strip(&std::fs::read_to_string(&file).expect("readable source"));
            let refs = graph.entry(child.clone()).or_default();
            for prefix in [up, format!("crate::{path}")] {
                for name in references(&code, &prefix) {
                    if name != child && children.contains(&name) {
                        refs.insert(name);
                    }
                }
            }
        }
        assert_no_circle(&graph, &folder.display().to_string());
        assert_no_circle_below(src, &folder);
    }
}
