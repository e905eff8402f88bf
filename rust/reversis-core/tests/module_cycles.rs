//! No two modules of the crate depend on each other, directly or through others: the graph of
//! the `crate::` paths in `src/**/*.rs` (a module is a file of `src/`, or a directory with its
//! `mod.rs`; a name the crate root re-exports counts as the module it comes from) has no cycle.
//! Comments are left out: a documentation link is no dependency.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

// Every `.rs` file under `dir`.
fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("src/ lists") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().and_then(|e| e.to_str()) == Some("rs") {
            out.push(path);
        }
    }
}

// The module a file belongs to: its first component under src/, without `.rs`.
fn module_of(path: &Path) -> String {
    let rel = path.strip_prefix(src()).expect("under src/");
    let first = rel.components().next().expect("a component");
    first
        .as_os_str()
        .to_str()
        .expect("UTF-8")
        .trim_end_matches(".rs")
        .to_string()
}

// The text of a file without its comments (`//` to the end of the line; the crate has no
// `/* */` comments holding paths).
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut in_string = false;
        let mut cut = line.len();
        let bytes = line.as_bytes();
        let mut i = 0;
        while i + 1 < bytes.len() {
            match bytes[i] {
                b'"' if i == 0 || bytes[i - 1] != b'\\' => in_string = !in_string,
                b'/' if !in_string && bytes[i + 1] == b'/' => {
                    cut = i;
                    break;
                }
                _ => {}
            }
            i += 1;
        }
        out.push_str(&line[..cut]);
        out.push('\n');
    }
    out
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

// The first names of every `crate::` path of `code`: `crate::a::b` gives `a`, and
// `crate::{a::b, c}` gives `a` and `c`.
fn crate_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        if at > 0 {
            let before = code.as_bytes()[at - 1];
            if before.is_ascii_alphanumeric() || before == b'_' {
                continue;
            }
        }
        let rest = code[at + "crate::".len()..].trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            // The top-level names of the group.
            let mut depth = 0;
            let mut start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && !c.is_whitespace() => {
                        start = false;
                        out.push(ident_at(&group[i..]).to_string());
                    }
                    _ => {}
                }
            }
        } else {
            out.push(ident_at(rest).to_string());
        }
    }
    out
}

// The module each name the crate root re-exports (`pub use module::{a, b}`) comes from.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for stmt in lib.split(';') {
        let Some(at) = stmt.find("pub use ") else {
            continue;
        };
        let stmt = &stmt[at + "pub use ".len()..];
        let module = ident_at(stmt.trim_start()).to_string();
        let names = stmt
            .split_once('{')
            .map_or_else(|| stmt.rsplit("::").next().unwrap_or(""), |(_, n)| n)
            .trim_end_matches('}');
        for name in names.split(',') {
            let name = name.trim();
            if !name.is_empty() {
                out.insert(ident_at(name).to_string(), module.clone());
            }
        }
    }
    out
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut paths = Vec::new();
    files(&src(), &mut paths);
    let lib = code(&fs::read_to_string(src().join("lib.rs")).expect("lib.rs reads"));
    let roots = reexports(&lib);
    let modules: BTreeSet<String> = paths
        .iter()
        .map(|p| module_of(p))
        .filter(|m| m != "lib")
        .collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for path in &paths {
        let from = module_of(path);
        if from == "lib" {
            continue;
        }
        let text = code(&fs::read_to_string(path).expect("a source file reads"));
        for name in crate_paths(&text) {
            let to = if modules.contains(&name) {
                name
            } else if let Some(m) = roots.get(&name) {
                m.clone()
            } else {
                continue;
            };
            if to != from {
                graph.entry(from.clone()).or_default().insert(to);
            }
        }
        graph.entry(from).or_default();
    }
    graph
}

// A cycle of `graph`, as the modules along it, if there is one.
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // Depth first: 1 on the current path, 2 done.
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(m.to_string(), 1);
        path.push(m.to_string());
        for next in graph.get(m).into_iter().flatten() {
            match state.get(next.as_str()) {
                Some(1) => {
                    let at = path.iter().position(|p| p == next).expect("on the path");
                    let mut c = path[at..].to_vec();
                    c.push(next.clone());
                    return Some(c);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(next, graph, state, path) {
                        return Some(c);
                    }
                }
            }
        }
        path.pop();
        state.insert(m.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in graph.keys() {
        if !state.contains_key(m.as_str()) {
            if let Some(c) = visit(m, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn the_modules_of_the_core_import_each_other_in_one_direction() {
    let graph = graph();
    assert!(
        graph.get("ruleset").is_some_and(|d| d.contains("fields")),
        "the reading of the paths found nothing: {graph:?}"
    );
    if let Some(c) = cycle(&graph) {
        panic!("a cycle of modules: {}", c.join(" -> "));
    }
}

#[test]
fn the_reading_finds_a_cycle_where_there_is_one() {
    let text = "use crate::{kernel::Legality, card::{Suit, Card}};\n\
                fn f() { crate::rng::go(); } // crate::sample is a comment\n";
    assert_eq!(
        crate_paths(&code(text)),
        ["kernel", "card", "rng"].map(String::from)
    );
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    fn edge(g: &mut BTreeMap<String, BTreeSet<String>>, a: &str, b: &str) {
        g.entry(a.into()).or_default().insert(b.into());
    }
    edge(&mut g, "a", "b");
    edge(&mut g, "b", "c");
    assert_eq!(cycle(&g), None);
    edge(&mut g, "c", "a");
    assert_eq!(
        cycle(&g),
        Some(["a", "b", "c", "a"].map(String::from).to_vec())
    );
}
