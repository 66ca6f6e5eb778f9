//! Type erasure of storages: what the invariant check needs of any storage, and what the
//! run-time world needs of a storage it only knows by `TypeId`.

use core::any::Any;

use std::sync::Arc;

use super::{ChangeTicks, Marks, SparseSet, Storage};
use crate::component::Component;
use crate::entity::Entity;

/// What the invariant check needs of a storage, whatever its component type.
pub trait StorageInfo {
    /// The storage's entity set.
    fn entity_set(&self) -> &SparseSet;
    /// Checks the storage's own invariant (see [`Storage::check`]).
    ///
    /// # Errors
    /// A description of the broken invariant.
    fn check_storage(&self) -> Result<(), String>;
}

impl<T> StorageInfo for Storage<T> {
    fn entity_set(&self) -> &SparseSet {
        self.set()
    }

    fn check_storage(&self) -> Result<(), String> {
        self.check()
    }
}

/// The operations a run-time world needs from a storage whose component type it only
/// knows by `TypeId`.
pub trait ErasedStorage: StorageInfo + Any + Send + Sync {
    /// Takes `entity`'s component out, boxed, without dropping it.
    fn take(&mut self, entity: Entity) -> Option<Box<dyn Any + Send>>;
    /// Permutes the prefix `[0, sources.len())`: position `i` receives what was at
    /// `sources[i]` (a permutation, not checked again).
    fn apply_sources(&mut self, sources: &[u32]);
    /// The component type's name.
    fn type_name(&self) -> &'static str;
    /// Removes the marked entities' components, keeping the others in order; returns them
    /// (a boxed `Vec`), undropped. `listed` names the marked entities in the order their
    /// removal is recorded. Each of `boundaries` becomes the number of survivors before it.
    fn compact(
        &mut self,
        marks: &Marks,
        listed: &[Entity],
        boundaries: &mut [usize],
    ) -> Box<dyn Any + Send>;
    /// The change stamps, if the storage is tracked.
    fn change_ticks(&self) -> Option<&Arc<ChangeTicks>>;
    /// Starts a new tick of change detection (see [`Storage::tick`]).
    fn tick(&mut self);
    /// Turns change detection on at tick `now` (see [`Storage::track`]).
    fn track_at(&mut self, now: u32);
}

/// The storage as its type: one call of the `Any` vtable's `type_id` and a compare.
impl dyn ErasedStorage {
    /// The storage as a `Storage<T>`, if it is the storage of `T`.
    #[inline]
    pub(crate) fn storage_of<T: Component>(&self) -> Option<&Storage<T>> {
        (self as &dyn Any).downcast_ref()
    }

    /// The storage as a `Storage<T>` mutably, if it is the storage of `T`.
    #[inline]
    pub(crate) fn storage_of_mut<T: Component>(&mut self) -> Option<&mut Storage<T>> {
        (self as &mut dyn Any).downcast_mut()
    }
}

impl<T: Component> ErasedStorage for Storage<T> {
    fn take(&mut self, entity: Entity) -> Option<Box<dyn Any + Send>> {
        self.remove(entity)
            .map(|value| Box::new(value) as Box<dyn Any + Send>)
    }

    fn apply_sources(&mut self, sources: &[u32]) {
        self.permute_prefix(sources);
    }

    fn type_name(&self) -> &'static str {
        core::any::type_name::<T>()
    }

    fn compact(
        &mut self,
        marks: &Marks,
        listed: &[Entity],
        boundaries: &mut [usize],
    ) -> Box<dyn Any + Send> {
        Box::new(Storage::compact(self, marks, listed, boundaries))
    }

    fn change_ticks(&self) -> Option<&Arc<ChangeTicks>> {
        Storage::change_ticks(self)
    }

    fn tick(&mut self) {
        Storage::tick(self);
    }

    fn track_at(&mut self, now: u32) {
        Storage::track_at(self, now);
    }
}
