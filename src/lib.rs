//! Sparse-set component storage with nested owning groups checked at compile time.
//!
//! See the README for the attribute, its diagnostics and the ordering rule.

extern crate self as sparse;

pub use sparse_core::*;
pub use sparse_macros::{world, Component};
