//! Compile-fail cases of `#[world]` (trybuild): one case per diagnostic. The compile-pass
//! cases of `tests/ui/pass/` are test targets of their own (see the manifest), so trybuild
//! only checks code, never builds it.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*/*.rs");
    // trybuild builds the cases with this crate's features.
    #[cfg(not(feature = "serde"))]
    t.compile_fail("tests/ui/no-serde/*.rs");
    #[cfg(feature = "serde")]
    t.compile_fail("tests/ui/serde/*.rs");
    #[cfg(feature = "rayon")]
    t.compile_fail("tests/ui/rayon/*.rs");
}

/// A compile-pass case that is not a test target would never be compiled.
#[test]
fn every_pass_case_is_a_test_target() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("the manifest");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(root.join("tests/ui/pass")).expect("tests/ui/pass") {
        let name = entry.expect("a directory entry").file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".rs") && !manifest.contains(&format!("path = \"tests/ui/pass/{name}\""))
        {
            missing.push(name.into_owned());
        }
    }
    assert!(
        missing.is_empty(),
        "add a `[[test]]` with `harness = false` to Cargo.toml for each of {missing:?}"
    );
}
