//! The generated documentation, built once as docs.rs builds it (every feature on, the three
//! crates' library pages, rustdoc's warnings denied):
//!
//! * the facade's public surface against the committed list in `tests/public-api.txt`: an
//!   item added, removed or un-hidden by accident fails here (after a change made on
//!   purpose, regenerate it with
//!   `SPARSE_PUBLIC_API=overwrite cargo test --all-features --test docs` and read the
//!   diff);
//! * every relative link and image of every page leads to a file that exists and, when it
//!   names an anchor, to an element with that id: rustdoc itself does not check links in
//!   documentation inlined from another crate, nor a chapter's links to files.
#![cfg(all(feature = "serde", feature = "rayon"))]

use std::collections::{BTreeSet, HashMap};
use std::path::{Component, Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The crates documented, as docs.rs documents each.
const CRATES: [&str; 3] = ["sparse_groups", "sparse_core", "sparse_macros"];

/// The `doc` folder of the documentation, built at the first call.
fn docs() -> &'static Path {
    static DOCS: OnceLock<PathBuf> = OnceLock::new();
    DOCS.get_or_init(|| {
        let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("docs");
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
        // The lower crates first: rustdoc links the facade's pages to theirs (as docs.rs
        // links them to docs.rs) only if their pages exist when it runs, and then the
        // check below follows those links too.
        for crates in [&CRATES[1..], &CRATES[..1]] {
            let mut command = Command::new(&cargo);
            command
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .args(["doc", "--no-deps", "--all-features", "--lib"])
                .arg("--target-dir")
                .arg(&target)
                .env("RUSTDOCFLAGS", "-D warnings");
            for krate in crates {
                command.args(["-p", krate]);
            }
            let status = command.status().expect("cargo runs");
            assert!(
                status.success(),
                "cargo doc failed (its warnings are errors)"
            );
        }
        target.join("doc")
    })
}

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
    let all = std::fs::read_to_string(docs().join("sparse_groups/all.html"))
        .expect("rustdoc writes all.html");
    let found = documented_items(&all);
    let listed_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/public-api.txt");
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
         if on purpose: SPARSE_PUBLIC_API=overwrite cargo test --all-features --test docs"
    );
}

/// The values of the attribute `name` (`href`, `src`) in `html`, as written.
fn attribute_values<'h>(html: &'h str, name: &str) -> Vec<&'h str> {
    let needle = format!(" {name}=\"");
    html.match_indices(&needle)
        .filter_map(|(at, _)| html[at + needle.len()..].split('"').next())
        .collect()
}

/// Every `id="…"` of a page.
fn ids(html: &str) -> BTreeSet<String> {
    attribute_values(html, "id")
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// `%xx` escapes decoded (rustdoc writes anchors of headings with them).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], text.get(i + 1..i + 3)) {
            (b'%', Some(hex)) if u8::from_str_radix(hex, 16).is_ok() => {
                out.push(u8::from_str_radix(hex, 16).unwrap());
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `path` with its `.` and `..` components folded.
fn normalized(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Every `.html` file under `dir`.
fn pages(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a documentation folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            pages(&path, out);
        } else if path.extension().is_some_and(|e| e == "html") {
            out.push(path);
        }
    }
}

/// The relative links and images of the pages under `doc`'s folders `roots` that lead
/// nowhere: a file that does not exist, or an anchor its page does not have. Each as
/// `page: link`, the page relative to `doc`.
fn dead_links(doc: &Path, roots: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    for root in roots {
        pages(&doc.join(root), &mut files);
    }
    let mut anchors: HashMap<PathBuf, BTreeSet<String>> = HashMap::new();
    let mut dead = Vec::new();
    for page in &files {
        let html = std::fs::read_to_string(page).expect("a readable page");
        let dir = page.parent().expect("a page is in a folder");
        let links = attribute_values(&html, "href")
            .into_iter()
            .chain(attribute_values(&html, "src"));
        for link in links {
            // A scheme (`https:`, `mailto:`, …) or a host (`//host/…`) leads elsewhere.
            let scheme = link.split_once(':').is_some_and(|(scheme, rest)| {
                !scheme.is_empty()
                    && scheme
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
                    && !rest.starts_with(':') // a Rust path (`crate::X`), not a scheme
            });
            if link.is_empty() || scheme || link.starts_with("//") {
                continue;
            }
            let (path, fragment) = link.split_once('#').unwrap_or((link, ""));
            let path = path.split('?').next().unwrap_or("");
            let target = if path.is_empty() {
                page.clone()
            } else {
                normalized(&dir.join(percent_decoded(path)))
            };
            let target = if target.is_dir() {
                target.join("index.html")
            } else {
                target
            };
            // rustdoc writes no path from the file system's root: one would lead off the docs.
            let found = !path.starts_with('/')
                && target.is_file()
                && (fragment.is_empty()
                    // Source pages take line numbers, read by their script.
                    || fragment.bytes().all(|b| b.is_ascii_digit() || b == b'-')
                    || target.extension().is_none_or(|e| e != "html")
                    || {
                        let ids = anchors.entry(target.clone()).or_insert_with(|| {
                            ids(&std::fs::read_to_string(&target).unwrap_or_default())
                        });
                        // rustdoc writes some ids escaped, and links to headings escaped.
                        ids.contains(fragment) || ids.contains(&percent_decoded(fragment))
                    });
            if !found {
                let page = page.strip_prefix(doc).unwrap_or(page).display();
                dead.push(format!("{page}: {link}"));
            }
        }
    }
    dead.sort();
    dead.dedup();
    dead
}

#[test]
fn every_link_of_the_generated_docs_resolves() {
    let dead = dead_links(docs(), &CRATES);
    assert!(
        dead.is_empty(),
        "{} dead links in the generated documentation (page: link):\n{}",
        dead.len(),
        dead.join("\n")
    );
}

/// The check itself: a planted dead file link, a dead anchor and a dead image are found;
/// a link to an existing page, anchor, folder and source line is not.
#[test]
fn the_link_check_finds_a_planted_dead_link() {
    let doc = Path::new(env!("CARGO_TARGET_TMPDIR")).join("planted-docs");
    let _ = std::fs::remove_dir_all(&doc);
    std::fs::create_dir_all(doc.join("krate/guide")).unwrap();
    std::fs::write(
        doc.join("krate/guide/index.html"),
        r#"<h2 id="a%20heading">x</h2>"#,
    )
    .unwrap();
    std::fs::write(
        doc.join("krate/index.html"),
        concat!(
            r#"<a href="guide/index.html#a%20heading">ok</a> <a href="guide/">ok</a> "#,
            r#"<a href="index.html#1-20">ok</a> <a href="https://docs.rs">ok</a> "#,
            r#"<a href="crate::LayoutError">dead</a> <a href="guide/index.html#gone">dead</a> "#,
            r#"<a href="./guide/index.html?search=x">ok</a> <a href="//docs.rs/x">ok</a> "#,
            r#"<a href="mailto:a@b.c">ok</a> <a href="/etc/hostname">dead</a> "#,
            r#"<img src="plot.svg"> <script src="../static.js"></script>"#,
        ),
    )
    .unwrap();
    assert_eq!(
        dead_links(&doc, &["krate"]),
        [
            "krate/index.html: ../static.js",
            "krate/index.html: /etc/hostname",
            "krate/index.html: crate::LayoutError",
            "krate/index.html: guide/index.html#gone",
            "krate/index.html: plot.svg",
        ]
    );
}

/// The version a page tells users to depend on, wherever it is written: each
/// `sparse_groups = "X.Y"` and `version = "X.Y"` (escaped in a Rust string too) of `file`.
fn install_versions(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for needle in ["sparse_groups = \"", "version = \"", "version = \\\""] {
        for (at, _) in text.match_indices(needle) {
            let version: String = text[at + needle.len()..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '.')
                .collect();
            found.push(version);
        }
    }
    found
}

#[test]
fn the_install_lines_name_this_release() {
    let release = format!(
        "{}.{}",
        env!("CARGO_PKG_VERSION_MAJOR"),
        env!("CARGO_PKG_VERSION_MINOR")
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in [
        "README.md",
        "docs/features.md",
        "sparse_core/src/__private.rs",
    ] {
        let versions = install_versions(&std::fs::read_to_string(root.join(file)).unwrap());
        assert!(!versions.is_empty(), "{file} names no version");
        for version in versions {
            assert_eq!(
                version, release,
                "{file} tells users to depend on {version}"
            );
        }
    }
    assert_eq!(
        install_versions(r#"`sparse_groups = { version = "0.2", … }`, `sparse_groups = "0.3"`"#),
        ["0.3", "0.2"]
    );
}
