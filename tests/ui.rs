//! Compile-fail cases of `#[world]` (trybuild): one case per diagnostic. trybuild builds
//! the cases with this crate's features, so the `serde` and `rayon` folders run with those
//! features on and `no-serde` with `serde` off. The compile-pass cases of `tests/ui/pass/`
//! are modules of a test target of their own (see the manifest), so trybuild only checks
//! code, never builds it.

/// The cases that exist with every feature set, and those of the features that are on: one
/// trybuild run, which checks them all in one build.
#[test]
fn fail() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*/*.rs");
    #[cfg(feature = "serde")]
    t.compile_fail("tests/ui/serde/*.rs");
    #[cfg(feature = "rayon")]
    t.compile_fail("tests/ui/rayon/*.rs");
}

/// The cases of a crate without the `serde` feature (a run of their own, so that CI's run
/// without features checks only these).
#[cfg(not(feature = "serde"))]
#[test]
fn no_serde() {
    trybuild::TestCases::new().compile_fail("tests/ui/no-serde/*.rs");
}

/// A compile-pass case that is not a module of the pass target would never be compiled.
#[test]
fn every_pass_case_is_a_module_of_the_pass_target() {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ui/pass");
    let main = std::fs::read_to_string(folder.join("main.rs")).expect("tests/ui/pass/main.rs");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&folder).expect("tests/ui/pass") {
        let name = entry.expect("a directory entry").file_name();
        let name = name.to_string_lossy();
        let Some(module) = name.strip_suffix(".rs") else {
            continue;
        };
        if module != "main"
            && !(main.contains(&format!("mod {module};"))
                && main.contains(&format!("{module}::main();")))
        {
            missing.push(name.into_owned());
        }
    }
    assert!(
        missing.is_empty(),
        "declare `mod <case>;` and call `<case>::main();` in tests/ui/pass/main.rs for each of {missing:?}"
    );
}
