//! The runtime of the `sparse` crate.
pub mod entity;
pub mod layout;
mod sort;
mod sparse_array;
pub mod sparse_set;
pub mod storage;

pub use entity::{Entities, Entity, EntityError};
pub use sparse_set::SparseSet;
pub use storage::Storage;
