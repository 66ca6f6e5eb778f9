//! `docs/layout.md` is the map of the tree: every source file has its row there, written
//! as its path from the repository root in backticks, and every source path the map names
//! exists. A file added, moved or removed without updating the map fails this test.
//!
//! The README and the guide's chapters (pages of the facade's documentation) link files by
//! reference (`[Access model][access.md]`): each such label needs its rustdoc target in
//! `src/rustdoc_links.md`, or the link is dead on docs.rs (`tests/docs.rs` checks the
//! generated pages themselves, with every feature on).

use std::fs;
use std::path::Path;

/// The folders whose `.rs` files the map lists (recursively); `tests/ui/` is described
/// per folder instead, its cases being one per diagnostic.
const MAPPED: &[&str] = &[
    "src",
    "sparse_core/src",
    "sparse_core/tests",
    "sparse_macros/src",
    "tests",
    "examples",
    "benches",
    "peer_benches/src",
    "peer_benches/benches",
    "peer_benches/examples",
    "fuzz/src",
    "fuzz/fuzz_targets",
];

/// Every `.rs` file under `dir`, as a path from `root`, skipping `tests/ui`.
fn sources(root: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries {
        let path = entry.expect("a readable folder").path();
        let relative = path
            .strip_prefix(root)
            .expect("under the root")
            .to_string_lossy()
            .replace('\\', "/");
        if path.is_dir() {
            if relative != "tests/ui" && !relative.ends_with("/target") {
                sources(root, &path, out);
            }
        } else if relative.ends_with(".rs") {
            out.push(relative);
        }
    }
}

/// The backticked spans of `text` that name a `.rs` file under one of the mapped folders.
fn named_sources(text: &str) -> Vec<&str> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| {
            span.ends_with(".rs")
                && !span.contains(' ')
                && MAPPED
                    .iter()
                    .any(|dir| span.starts_with(&format!("{dir}/")))
                && !span.starts_with("tests/ui/")
        })
        .collect()
}

#[test]
fn every_source_file_is_on_the_map() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let map = fs::read_to_string(root.join("docs/layout.md")).expect("docs/layout.md");
    let mut files = Vec::new();
    for dir in MAPPED {
        sources(root, &root.join(dir), &mut files);
    }
    assert!(
        files.len() > 100,
        "the walk found the sources: {}",
        files.len()
    );
    let missing: Vec<&String> = files
        .iter()
        .filter(|f| !map.contains(&format!("`{f}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "source files missing from docs/layout.md (add a row each):\n{}",
        missing
            .iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    let gone: Vec<&str> = named_sources(&map)
        .into_iter()
        .filter(|f| !root.join(f).is_file())
        .collect();
    assert!(
        gone.is_empty(),
        "docs/layout.md names files that do not exist:\n{}",
        gone.join("\n")
    );
}

#[test]
fn the_check_reads_backticked_paths() {
    let text = "| `sparse_core/src/lib.rs` | x | `tests/ui/fail/a.rs` `lib.rs` `src/a b.rs`";
    assert_eq!(named_sources(text), vec!["sparse_core/src/lib.rs"]);
}

/// The pages `src/lib.rs` includes in the documentation (the front page, the guide's
/// index and its chapters), as paths from the root.
fn pages(lib: &str) -> Vec<String> {
    let mut pages: Vec<String> = lib
        .split("include_str!(\"../")
        .chain(lib.split("chapter!(\"../"))
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter(|path| path.ends_with(".md"))
        .map(str::to_string)
        .collect();
    pages.sort();
    pages.dedup();
    pages
}

#[test]
fn every_link_to_a_file_has_a_rustdoc_target() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = fs::read_to_string(root.join("src/lib.rs")).expect("src/lib.rs");
    let links = fs::read_to_string(root.join("src/rustdoc_links.md")).expect("the link targets");
    let pages = pages(&lib);
    assert!(pages.len() >= 12, "the pages: {pages:?}");
    let mut wrong = Vec::new();
    for page in &pages {
        let text = fs::read_to_string(root.join(page)).expect("a page");
        for (i, _) in text.match_indices("](") {
            let target = text[i + 2..].split(')').next().unwrap_or_default();
            if target.contains(".md") || target.contains(".svg") {
                wrong.push(format!("{page}: `]({target})` (write it as a reference)"));
            }
        }
        for (i, _) in text.match_indices("][") {
            let label = text[i + 2..].split(']').next().unwrap_or_default();
            if (label.contains(".md") || label.contains(".svg"))
                && !links.contains(&format!("[{label}]: "))
            {
                wrong.push(format!(
                    "{page}: `[{label}]` has no target in `src/rustdoc_links.md`"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "links to files: {wrong:#?}");
}
