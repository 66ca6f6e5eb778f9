//! What several integration tests share.

use proptest::test_runner::Config as ProptestConfig;

/// `cases` cases, or `PROPTEST_CASES` when set (the sanitizer and valgrind runs lower it).
pub fn cases_or(cases: u32) -> ProptestConfig {
    let default = ProptestConfig::default();
    ProptestConfig {
        cases: if std::env::var_os("PROPTEST_CASES").is_some() {
            default.cases
        } else {
            cases
        },
        ..default
    }
}
