//! The facade's public surface, as rustdoc documents it, against the committed list in
//! `tests/public-api.txt`: an item added, removed or un-hidden by accident fails here.
//!
//! The list is rustdoc's own index of the crate (`all.html`) with every feature on. After
//! a change made on purpose, regenerate it with
//! `SPARSE_PUBLIC_API=overwrite cargo test --all-features --test public_api` and read the
//! diff.

use std::path::{Path, PathBuf};
use std::process::Command;

/// `kind path` for each item of rustdoc's `all.html`, sorted.
fn documented_items(all_html: &str) -> Vec<String> {
    let mut items: Vec<String> = all_html
        .split("<li><a href=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .filter_map(|href| {
            let file = href.strip_suffix(".html")?;
            let (dirs, page) = file.rsplit_once('/').unwrap_or(("", file));
            let (kind, name) = page.split_once('.')?;
            let path = if dirs.is_empty() {
                name.to_string()
            } else {
                format!("{}::{name}", dirs.replace('/', "::"))
            };
            Some(format!("{kind} {path}"))
        })
        .collect();
    items.sort();
    items.dedup();
    items
}

#[test]
fn the_facade_documents_exactly_the_committed_items() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let target: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR")).join("public-api");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let status = Command::new(cargo)
        .current_dir(root)
        .args(["doc", "--no-deps", "--all-features", "-p", "sparse_groups"])
        .arg("--target-dir")
        .arg(&target)
        .env_remove("RUSTDOCFLAGS")
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo doc failed");
    let all = std::fs::read_to_string(target.join("doc/sparse_groups/all.html"))
        .expect("rustdoc writes all.html");
    let found = documented_items(&all);
    let listed_path = root.join("tests/public-api.txt");
    if std::env::var("SPARSE_PUBLIC_API").as_deref() == Ok("overwrite") {
        std::fs::write(&listed_path, found.join("\n") + "\n").unwrap();
        return;
    }
    let listed: Vec<String> = std::fs::read_to_string(&listed_path)
        .expect("tests/public-api.txt")
        .lines()
        .map(str::to_string)
        .collect();
    let added: Vec<&String> = found.iter().filter(|i| !listed.contains(i)).collect();
    let removed: Vec<&String> = listed.iter().filter(|i| !found.contains(i)).collect();
    assert!(
        added.is_empty() && removed.is_empty(),
        "the facade's public surface changed:\n  added:   {added:?}\n  removed: {removed:?}\n\
         if on purpose: SPARSE_PUBLIC_API=overwrite cargo test --all-features --test public_api"
    );
}
