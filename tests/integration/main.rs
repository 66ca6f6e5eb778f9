//! The facade's integration tests that run worlds on one thread, one module per feature,
//! linked into one test binary: a binary per file would link the whole dependency graph
//! again, once per file and per build (the README's command, the sanitizers in CI). Run one
//! feature's tests with its module's name as the filter:
//! `cargo test --all-features --test integration hooks::`.
//!
//! Beside it: `tests/parallel/`, the tests whose worlds also run on several threads (the
//! ones ThreadSanitizer runs), and the tests that run no world, binaries of their own: the
//! compile-fail suite (`tests/ui.rs`), the generated documentation (`tests/docs.rs`), the
//! map of the tree (`tests/layout_map.rs`), the module circles (`tests/module_circles.rs`)
//! and the lints of generated code (`tests/generated_code_lints.rs`, whose crate-level
//! lints would cover every module here).

#[path = "../common/mod.rs"]
mod common;

mod access;
mod advice;
mod changes;
mod first_calls;
mod hooks;
mod resources;
mod serde_world;
mod sort_as;
mod view_model;
mod world_macro;
