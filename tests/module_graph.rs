//! The map in ARCHITECTURE.md, kept true: the top-level modules depend on each other
//! without a cycle, and the layers' rules hold (`api/` knows nothing of egui, `ui/`
//! nothing of HTTP or SQL). Read from the source (production code only: test modules
//! may reach anywhere).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A file's production code: up to its test module, and nothing of a `tests.rs`.
fn production(path: &Path) -> String {
    if path.file_name().is_some_and(|n| n == "tests.rs") {
        return String::new();
    }
    let text = std::fs::read_to_string(path).unwrap();
    text.split("#[cfg(test)]").next().unwrap_or("").to_string()
}

/// Top-level module → the top-level modules its production code names (`crate::x`, and
/// `tr!`, which is the i18n module's).
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let root = src();
    let mut modules: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for e in std::fs::read_dir(&root).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        if name == "lib" || name == "main" {
            continue;
        }
        let mut files = Vec::new();
        if p.is_dir() {
            rust_files(&p, &mut files);
        } else {
            files.push(p);
        }
        modules.entry(name).or_default().extend(files);
    }
    let names: BTreeSet<String> = modules.keys().cloned().collect();
    let mut edges = BTreeMap::new();
    for (m, files) in &modules {
        let mut to = BTreeSet::new();
        for f in files {
            let code = production(f);
            for part in code.split("crate::").skip(1) {
                let target: String = part
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if names.contains(&target) && target != *m {
                    to.insert(target);
                }
            }
            if m != "i18n" && code.contains("tr!(") {
                to.insert("i18n".to_string());
            }
        }
        edges.insert(m.clone(), to);
    }
    edges
}

/// A cycle through `start`, if there is one (depth-first).
fn cycle_from(
    edges: &BTreeMap<String, BTreeSet<String>>,
    path: &mut Vec<String>,
    seen: &mut BTreeSet<String>,
) -> Option<Vec<String>> {
    let here = path.last().unwrap().clone();
    for next in edges.get(&here).into_iter().flatten() {
        if let Some(i) = path.iter().position(|p| p == next) {
            let mut c = path[i..].to_vec();
            c.push(next.clone());
            return Some(c);
        }
        if seen.insert(next.clone()) {
            path.push(next.clone());
            if let Some(c) = cycle_from(edges, path, seen) {
                return Some(c);
            }
            path.pop();
        }
    }
    None
}

#[test]
fn the_top_level_modules_form_no_cycle() {
    let edges = graph();
    assert!(edges.len() > 10, "modules read: {edges:?}");
    for start in edges.keys() {
        let mut seen = BTreeSet::from([start.clone()]);
        if let Some(c) = cycle_from(&edges, &mut vec![start.clone()], &mut seen) {
            panic!(
                "a cycle between top-level modules: {}\n(the whole graph: {edges:#?})",
                c.join(" → ")
            );
        }
    }
}

#[test]
fn the_layers_keep_to_their_own() {
    let edges = graph();
    // The API layer is the bottom: it names nothing but text helpers.
    let api: Vec<&String> = edges["api"].iter().filter(|m| *m != "text").collect();
    assert!(api.is_empty(), "api/ depends on {api:?}");
    let mut files = Vec::new();
    rust_files(&src().join("api"), &mut files);
    for f in &files {
        assert!(
            !production(f).contains("egui"),
            "{} names egui",
            f.display()
        );
    }
    // The UI neither speaks HTTP nor SQL: it goes through api::Client and the journal.
    let mut files = Vec::new();
    rust_files(&src().join("ui"), &mut files);
    for f in &files {
        let code = production(f);
        for word in ["reqwest", "rusqlite", "tokio_postgres"] {
            assert!(!code.contains(word), "{} names {word}", f.display());
        }
    }
}

/// The test can fail: a made-up graph with a cycle is found.
#[test]
fn a_cycle_is_found() {
    let edges: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
    .collect();
    let mut seen = BTreeSet::from(["a".to_string()]);
    let c = cycle_from(&edges, &mut vec!["a".to_string()], &mut seen).unwrap();
    assert_eq!(c, ["a", "b", "c", "a"]);
}
