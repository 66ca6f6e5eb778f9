//! Support for the code `#[world]` generates. Not a public API.

pub use crate::access::{WorldEntities, spawn_batch, spawn_with};
use crate::entity::Entities;
pub use crate::group::{GroupStorages, apply_sources, check_group, group_sources};
use crate::sparse_set::SparseSet;

/// Holds a generated world's storages so that safe code outside this crate can read
/// them but never change their structure: a group's packed prefix moves only through
/// the world's hooks.
pub struct Sealed<T>(T);

impl<T> Sealed<T> {
    /// Seals `inner`.
    ///
    /// # Safety
    /// `inner` must satisfy the world's invariants (e.g. empty storages, zero-length groups).
    pub unsafe fn new(inner: T) -> Self {
        Sealed(inner)
    }

    /// Read access.
    pub fn get(&self) -> &T {
        &self.0
    }

    /// Write access.
    ///
    /// # Safety
    /// The caller must restore the world's invariants (every group the packed prefix of
    /// its storages) before returning control to safe code.
    pub unsafe fn get_mut(&mut self) -> &mut T {
        &mut self.0
    }

    /// A raw pointer to the sealed value, derived without creating a reference.
    ///
    /// # Safety
    /// `this` must be valid; the same contract as [`get_mut`](Sealed::get_mut) applies to
    /// writes through the result.
    pub unsafe fn as_mut_ptr(this: *mut Self) -> *mut T {
        // SAFETY: the caller guarantees `this` is valid; this only projects the field.
        unsafe { &raw mut (*this).0 }
    }
}

/// Fails if a storage holds a component of an entity that is not alive.
pub fn check_alive(entities: &Entities, set: &SparseSet, name: &str) -> Result<(), String> {
    match set.iter().find(|&&e| !entities.is_alive(e)) {
        Some(dead) => Err(format!(
            "{name}: dead entity {dead:?} still has a component"
        )),
        None => Ok(()),
    }
}
