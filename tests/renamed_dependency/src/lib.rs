//! A user crate that depends on `sparse_groups` under the name `sparse`: the macros must
//! find the facade through that name (see `tests/renamed.rs`).
