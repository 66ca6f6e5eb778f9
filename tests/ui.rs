//! Compile-fail and pass cases of `#[world]` (trybuild): one case per diagnostic.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*/*.rs");
    t.pass("tests/ui/pass/*.rs");
    // trybuild builds the cases with this crate's features.
    #[cfg(not(feature = "serde"))]
    t.compile_fail("tests/ui/no-serde/*.rs");
    #[cfg(feature = "serde")]
    t.compile_fail("tests/ui/serde/*.rs");
    #[cfg(feature = "rayon")]
    t.compile_fail("tests/ui/rayon/*.rs");
}
