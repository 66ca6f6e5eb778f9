//! No import circle between the top-level modules of `sparse_core` and `sparse_macros`:
//! each crate's modules form layers, a module using only the ones below it.
//!
//! A module is a file or folder directly under `src/`; it uses another when its code (not
//! its comments) names `crate::other`, or an item the crate root re-exports from `other`
//! (`crate::Snapshot`, with `pub use snapshot::Snapshot;` in `lib.rs`). The test fails on
//! any circle, naming its modules.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `source` without its comments (line comments, doc comments included, and block
/// comments), so that a doc link is not counted as a use. String literals holding `//`
/// are not an issue here: the crates' strings never name `crate::`.
fn code_of(source: &str) -> String {
    let mut code = String::with_capacity(source.len());
    let mut rest = source;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |i| &after[i..]);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |i| &after[i + 2..]);
        } else {
            let c = rest.chars().next().expect("not empty");
            code.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    code
}

/// The names of a `use` tree's leaves (`a::{B, c::D as E}` gives `B` and `E`), with the
/// tree's first segment.
fn use_leaves(tree: &str) -> (String, Vec<String>) {
    let first = tree
        .split("::")
        .next()
        .unwrap_or_default()
        .trim()
        .to_string();
    let mut leaves = Vec::new();
    let mut push = |item: &str| {
        let item = item.trim();
        let name = match item.split_once(" as ") {
            Some((_, alias)) => alias.trim(),
            None => item.rsplit("::").next().unwrap_or(item),
        };
        if !name.is_empty() && name != "self" && name != "*" {
            leaves.push(name.to_string());
        }
    };
    let mut item = String::new();
    for c in tree.chars() {
        match c {
            '{' => item.clear(),
            ',' | '}' => {
                push(&item);
                item.clear();
            }
            _ => item.push(c),
        }
    }
    push(&item);
    (first, leaves)
}

/// The items the crate root re-exports, each with the top-level module it comes from
/// (`pub use a::{B, c::D};` in `lib.rs` maps `B` and `D` to `a`).
fn root_reexports(lib: &str, modules: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut reexports = BTreeMap::new();
    for (at, _) in lib.match_indices("pub use ") {
        let tree = lib[at + "pub use ".len()..]
            .split(';')
            .next()
            .unwrap_or_default();
        let (module, leaves) = use_leaves(tree);
        if modules.contains(&module) {
            for leaf in leaves {
                reexports.insert(leaf, module.clone());
            }
        }
    }
    reexports
}

/// The top-level modules a piece of code names through `crate::`, among `modules`
/// (`crate::{a, b::c}` included), or through an item the root re-exports from one.
fn used_modules(
    code: &str,
    modules: &BTreeSet<String>,
    reexports: &BTreeMap<String, String>,
) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in code.match_indices("crate::") {
        let after = &code[at + "crate::".len()..];
        let names: Vec<String> = match after.strip_prefix('{') {
            // A group: the first name of each comma-separated path at its top level.
            Some(group) => {
                let mut depth = 0;
                let mut names = vec![ident(group.trim_start())];
                for (i, c) in group.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => names.push(ident(group[i + 1..].trim_start())),
                        _ => {}
                    }
                }
                names
            }
            None => vec![ident(after)],
        };
        used.extend(names.into_iter().filter_map(|n| {
            if modules.contains(&n) {
                Some(n)
            } else {
                reexports.get(&n).cloned()
            }
        }));
    }
    used
}

/// The modules of a crate's `src/` and, for each, the modules it uses.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let module_of = |path: &Path| -> String {
        let relative = path.strip_prefix(src).expect("under src");
        let first = relative.components().next().expect("a component");
        let name = first.as_os_str().to_string_lossy();
        name.strip_suffix(".rs").unwrap_or(&name).to_string()
    };
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let modules: BTreeSet<String> = files
        .iter()
        .map(|f| module_of(f))
        .filter(|m| m != "lib")
        .collect();
    let lib = files
        .iter()
        .find(|f| module_of(f) == "lib")
        .map(|f| code_of(&fs::read_to_string(f).expect("a readable source")))
        .unwrap_or_default();
    let reexports = root_reexports(&lib, &modules);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let module = module_of(file);
        if module == "lib" {
            continue;
        }
        let code = code_of(&fs::read_to_string(file).expect("a readable source"));
        let used = used_modules(&code, &modules, &reexports);
        let targets = edges.entry(module.clone()).or_default();
        targets.extend(used.into_iter().filter(|u| *u != module));
    }
    edges
}

/// The circles of a graph: its strongly connected components of more than one module.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let reaches = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.clone()];
        while let Some(m) = stack.pop() {
            for next in edges.get(&m).into_iter().flatten() {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reach: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|m| (m, reaches(m))).collect();
    let mut found: Vec<BTreeSet<String>> = Vec::new();
    for (m, from_m) in &reach {
        let circle: BTreeSet<String> = from_m
            .iter()
            .filter(|n| reach.get(n).is_some_and(|r| r.contains(*m)))
            .cloned()
            .collect();
        if circle.len() > 1 && !found.contains(&circle) {
            found.push(circle);
        }
    }
    found
}

#[test]
fn no_module_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut failures = Vec::new();
    for krate in ["sparse_core", "sparse_macros"] {
        for circle in circles(&graph(&root.join(krate).join("src"))) {
            failures.push(format!("{krate}: modules in a circle: {circle:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_check_sees_uses_and_circles() {
    let modules: BTreeSet<String> = ["a", "b", "c"].map(String::from).into();
    let none = BTreeMap::new();
    let code = code_of("use crate::a::X;\n/// [`crate::c`]\nuse crate::{b::{Y, Z}, c};");
    assert_eq!(used_modules(&code, &modules, &none), modules);
    // A planted circle through the root's re-exports: `a` names `crate::Y`, which the
    // root re-exports from `b`, and `b` names `crate::a`.
    let lib =
        code_of("#[doc(hidden)]\npub use b::{\n    W,\n    inner::{Y as Y, Z},\n};\npub use c::V;");
    let reexports = root_reexports(&lib, &modules);
    assert_eq!(reexports.get("Y").map(String::as_str), Some("b"));
    assert_eq!(reexports.get("V").map(String::as_str), Some("c"));
    let a_uses = used_modules(
        &code_of("fn f() -> crate::Y { todo!() }"),
        &modules,
        &reexports,
    );
    let b_uses = used_modules(&code_of("use crate::a::X;"), &modules, &reexports);
    let planted: BTreeMap<String, BTreeSet<String>> =
        [("a".to_string(), a_uses), ("b".to_string(), b_uses)].into();
    assert_eq!(
        circles(&planted),
        vec![BTreeSet::from(["a", "b"].map(String::from))]
    );
    let edges: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(m, us)| (m.to_string(), us.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(
        circles(&edges),
        vec![BTreeSet::from(["a", "b", "c"].map(String::from))]
    );
}
