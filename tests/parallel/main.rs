//! The facade's integration tests whose worlds also run on several threads, one module per
//! feature, linked into one test binary: the attacks from safe code (the parallel change
//! filters among them), the matrix of views and the differential test (their
//! `par_for_each` walks), and the schedules (the systems of a stage at once). They are the
//! tests ThreadSanitizer runs (`scripts/tsan.sh`), kept apart from `tests/integration/` so
//! that its instrumented build compiles only them. Run one feature's tests with its
//! module's name as the filter: `cargo test --all-features --test parallel schedule::`.

#[path = "../common/mod.rs"]
mod common;

mod differential;
mod matrix_filters_walks;
mod messages;
mod schedule;
mod schedule_lists;
mod schedule_model;
mod schedule_ticks;
mod soundness;
