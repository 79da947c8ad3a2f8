//! The map in ARCHITECTURE.md, kept true: the top-level modules depend on each other
//! without a cycle, and the layers' rules hold (`api/` knows nothing of egui, `ui/`
//! nothing of HTTP or SQL). Read from the source (production code only, read by its structure:
//! test modules and test-only items may reach anywhere).

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

/// A file's production code, read by its structure (syn): every item but those under
/// `#[cfg(test)]` (test modules, test-only functions and methods), as tokens with the
/// spaces between them removed (`crate::api::Client`, `tr!(`); nothing of a `tests.rs`
/// or a `tests/` folder.
fn production(path: &Path) -> String {
    use quote::ToTokens;
    if path.file_name().is_some_and(|n| n == "tests.rs")
        || path
            .strip_prefix(src())
            .is_ok_and(|p| p.components().any(|c| c.as_os_str() == "tests"))
    {
        return String::new();
    }
    let text = std::fs::read_to_string(path).unwrap();
    let mut file =
        syn::parse_file(&text).unwrap_or_else(|e| panic!("{} does not parse: {e}", path.display()));
    strip_tests(&mut file.items);
    file.to_token_stream()
        .to_string()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// Whether attributes hold `#[cfg(test)]` (or a `cfg` naming `test`).
fn for_tests(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg") && {
            let mut test = false;
            let _ = a.parse_nested_meta(|m| {
                test |= m.path.is_ident("test");
                Ok(())
            });
            test
        }
    })
}

/// Leaves out every item for tests, in modules and impl blocks too.
fn strip_tests(items: &mut Vec<syn::Item>) {
    use syn::Item;
    items.retain(|item| {
        let attrs: &[syn::Attribute] = match item {
            Item::Const(i) => &i.attrs,
            Item::Enum(i) => &i.attrs,
            Item::Fn(i) => &i.attrs,
            Item::Impl(i) => &i.attrs,
            Item::Macro(i) => &i.attrs,
            Item::Mod(i) => &i.attrs,
            Item::Static(i) => &i.attrs,
            Item::Struct(i) => &i.attrs,
            Item::Trait(i) => &i.attrs,
            Item::Type(i) => &i.attrs,
            Item::Use(i) => &i.attrs,
            _ => &[],
        };
        !for_tests(attrs)
    });
    for item in items {
        match item {
            Item::Mod(m) => {
                if let Some((_, inner)) = &mut m.content {
                    strip_tests(inner);
                }
            }
            Item::Impl(i) => i.items.retain(|it| {
                let attrs: &[syn::Attribute] = match it {
                    syn::ImplItem::Fn(f) => &f.attrs,
                    syn::ImplItem::Const(c) => &c.attrs,
                    syn::ImplItem::Type(t) => &t.attrs,
                    _ => &[],
                };
                !for_tests(attrs)
            }),
            _ => {}
        }
    }
}

/// The test can fail: what is under `#[cfg(test)]` is left out, wherever it is in the
/// file, and what follows it is read.
#[test]
fn test_code_is_left_out_and_what_follows_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("m.rs");
    std::fs::write(
        &f,
        "use crate::api::Client;\n\
         #[cfg(test)]\nmod tests { use crate::ui::App; }\n\
         impl X { #[cfg(test)] fn t() { crate::journal::x(); } fn p() { crate::pdf::y(); } }\n\
         fn after() { tr!(\"k\"); crate::mail::z(); }\n",
    )
    .unwrap();
    let code = production(&f);
    assert!(code.contains("crate::api::Client") && code.contains("crate::pdf::y"));
    assert!(
        code.contains("crate::mail::z") && code.contains("tr!("),
        "{code}"
    );
    assert!(
        !code.contains("crate::ui") && !code.contains("crate::journal"),
        "{code}"
    );
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

/// #67: no command of the app can be dropped silently. Every area's handler takes its
/// own command enum (`ui/command.rs`) and matches it whole: no `_ =>` arm in any
/// `handle*` function of the app or the billing panel, so a new command that nobody
/// carries out does not compile.
#[test]
fn the_apps_command_handlers_have_no_catch_all() {
    use quote::ToTokens;
    let mut files = Vec::new();
    rust_files(&src().join("ui").join("app"), &mut files);
    files.push(src().join("ui").join("bulk").join("mod.rs"));
    let mut handlers = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let file = syn::parse_file(&text).unwrap();
        for item in &file.items {
            let syn::Item::Impl(imp) = item else { continue };
            for it in &imp.items {
                let syn::ImplItem::Fn(f) = it else { continue };
                if !f.sig.ident.to_string().starts_with("handle") {
                    continue;
                }
                // The match on the command itself: whole, no wildcard arm.
                for stmt in &f.block.stmts {
                    let syn::Stmt::Expr(syn::Expr::Match(m), _) = stmt else {
                        continue;
                    };
                    if m.expr.to_token_stream().to_string() != "cmd" {
                        continue;
                    }
                    handlers += 1;
                    for arm in &m.arms {
                        let catch_all = matches!(arm.pat, syn::Pat::Wild(_))
                            || matches!(&arm.pat, syn::Pat::Ident(i) if i.subpat.is_none());
                        assert!(
                            !catch_all,
                            "{} `{}` has a catch-all arm",
                            path.display(),
                            f.sig.ident
                        );
                    }
                }
            }
        }
    }
    assert!(handlers >= 10, "only {handlers} handlers found");
}

/// Every `fn` in a file (free, in an impl or a trait, nested in a module), with its
/// first line and how many lines it spans.
fn functions(file: &syn::File) -> Vec<(String, usize, usize)> {
    fn span_of(name: String, span: proc_macro2::Span, out: &mut Vec<(String, usize, usize)>) {
        let (a, b) = (span.start().line, span.end().line);
        out.push((name, a, b + 1 - a));
    }
    fn items(list: &[syn::Item], out: &mut Vec<(String, usize, usize)>) {
        use syn::spanned::Spanned;
        for item in list {
            match item {
                syn::Item::Fn(f) => span_of(f.sig.ident.to_string(), f.span(), out),
                syn::Item::Impl(i) => {
                    for it in &i.items {
                        if let syn::ImplItem::Fn(f) = it {
                            span_of(f.sig.ident.to_string(), f.span(), out);
                        }
                    }
                }
                syn::Item::Mod(m) => {
                    if let Some((_, inner)) = &m.content {
                        items(inner, out);
                    }
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    items(&file.items, &mut out);
    out
}

/// #67: files with one job — no file in src/ over 900 lines (its tests count), no
/// function over 150. None is over any more; the lists are for a reasoned exception
/// (named with its size: it may shrink, never grow, and leaves once under).
#[test]
fn files_and_functions_stay_small() {
    const FILE_MAX: usize = 900;
    const FN_MAX: usize = 150;
    let big_files: &[(&str, usize)] = &[];
    let long_fns: &[(&str, &str, usize)] = &[];
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut over = Vec::new();
    let mut longest: BTreeMap<(String, String), usize> = BTreeMap::new();
    for path in &files {
        let rel = path
            .strip_prefix(src())
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(path).unwrap();
        let lines = text.lines().count();
        let allowed = big_files
            .iter()
            .find(|(f, _)| *f == rel)
            .map_or(FILE_MAX, |(_, n)| *n);
        if lines > allowed {
            over.push(format!("{rel}: {lines} lines (at most {allowed})"));
        }
        let file = syn::parse_file(&text).unwrap();
        for (name, line, len) in functions(&file) {
            let l = longest.entry((rel.clone(), name.clone())).or_default();
            *l = (*l).max(len);
            let allowed = long_fns
                .iter()
                .find(|(f, n, _)| *f == rel && *n == name)
                .map_or(FN_MAX, |(_, _, n)| *n);
            if len > allowed {
                over.push(format!(
                    "{rel}:{line} fn {name}: {len} lines (at most {allowed})"
                ));
            }
        }
    }
    // A listed one that is small now, or gone, leaves the list.
    for (f, _) in big_files {
        let lines = std::fs::read_to_string(src().join(f)).map_or(0, |t| t.lines().count());
        if lines <= FILE_MAX {
            over.push(format!("{f} is {lines} lines now: take it off the list"));
        }
    }
    for (f, name, _) in long_fns {
        let len = longest
            .get(&(f.to_string(), name.to_string()))
            .copied()
            .unwrap_or(0);
        if len <= FN_MAX {
            over.push(format!(
                "{f} fn {name} is {len} lines now: take it off the list"
            ));
        }
    }
    assert!(over.is_empty(), "{}", over.join("\n"));
}

/// One suffix for error types: `…Error` (the codebase had `…Problem` and `…Failure` beside
/// it for the same thing).
#[test]
fn error_types_end_in_error() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut odd = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let Ok(file) = syn::parse_file(&text) else {
            continue;
        };
        let mut names = Vec::new();
        collect_type_names(&file.items, &mut names);
        for n in names {
            if n.ends_with("Problem") || n.ends_with("Failure") {
                odd.push(format!("{}: {n}", f.display()));
            }
        }
    }
    assert!(odd.is_empty(), "error types named otherwise: {odd:?}");
}

fn collect_type_names(items: &[syn::Item], names: &mut Vec<String>) {
    for item in items {
        match item {
            syn::Item::Enum(e) => names.push(e.ident.to_string()),
            syn::Item::Struct(s) => names.push(s.ident.to_string()),
            syn::Item::Mod(m) => {
                if let Some((_, items)) = &m.content {
                    collect_type_names(items, names);
                }
            }
            _ => {}
        }
    }
}

/// The files of one folder that a file names through `super::` (its siblings), read from
/// its production code: `super::x::…`, `super::{x, y::z}`.
fn sibling_graph(dir: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let names: BTreeSet<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.unwrap().path();
            let stem = p.file_stem()?.to_str()?.to_string();
            (p.extension()? == "rs" && stem != "mod").then_some(stem)
        })
        .collect();
    let mut edges = BTreeMap::new();
    for name in &names {
        let code = production(&dir.join(format!("{name}.rs")));
        let mut to = BTreeSet::new();
        for part in code.split("super::").skip(1) {
            let firsts: Vec<&str> = if let Some(group) = part.strip_prefix('{') {
                let mut depth = 0;
                let end = group
                    .char_indices()
                    .find(|&(_, c)| {
                        depth += match c {
                            '{' => 1,
                            '}' => -1,
                            _ => 0,
                        };
                        depth < 0
                    })
                    .map_or(group.len(), |(i, _)| i);
                group[..end].split(',').collect()
            } else {
                vec![part]
            };
            for f in firsts {
                let first: String = f
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if names.contains(&first) && first != *name {
                    to.insert(first);
                }
            }
        }
        edges.insert(name.clone(), to);
    }
    edges
}

/// The folders whose files were found in a circle (the CLI's dispatcher that was also its
/// commands' helpers; the PDF's plan and drawing): their files name each other one way.
#[test]
fn files_of_a_folder_form_no_cycle() {
    for dir in ["cli", "pdf", "mail"] {
        let edges = sibling_graph(&src().join(dir));
        assert!(edges.len() > 3, "{dir}: {edges:?}");
        for start in edges.keys() {
            let mut seen = BTreeSet::from([start.clone()]);
            if let Some(c) = cycle_from(&edges, &mut vec![start.clone()], &mut seen) {
                panic!("a cycle in src/{dir}: {}\n({edges:#?})", c.join(" → "));
            }
        }
    }
    // The reading itself: these two name their siblings.
    let cli = sibling_graph(&src().join("cli"));
    assert!(cli["service"].contains("create_cmd") && cli["create_cmd"].contains("at_service"));
}
