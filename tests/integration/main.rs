//! The facade's integration tests that run worlds, one module per feature, linked into one
//! test binary: each binary of its own would link the whole dependency graph again, once per
//! test file and per build (the README's command, and the sanitizers in CI).
//!
//! Run one feature's tests with its module's name as the filter:
//! `cargo test --all-features --test integration soundness::`.
//!
//! The tests that do not run a world stay binaries of their own beside this one: the
//! compile-fail suite (`tests/ui.rs`), the generated documentation (`tests/docs.rs`), the map
//! of the tree (`tests/layout_map.rs`), the module circles (`tests/module_circles.rs`) and the
//! lints of generated code (`tests/generated_code_lints.rs`, whose crate-level lints would
//! cover every module here).

mod common;

mod access;
mod advice;
mod changes;
mod differential;
mod first_calls;
mod hooks;
mod matrix_filters_walks;
mod resources;
mod schedule;
mod schedule_model;
mod schedule_ticks;
mod serde_world;
mod sort_as;
mod soundness;
mod view_model;
mod world_macro;
