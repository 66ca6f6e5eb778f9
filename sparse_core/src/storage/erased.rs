//! Type erasure of storages: what the invariant check needs of any storage, and what the
//! run-time world needs of a storage it only knows by `TypeId`.

use core::any::{Any, TypeId};
use core::ptr::NonNull;

use std::sync::Arc;

use super::{ChangeTicks, Clock, Marks, SameChange, SparseSet, Storage};
use crate::component::{Component, ComponentKey};
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
    /// The component type it stores.
    fn component_key(&self) -> ComponentKey;
}

impl<T: 'static> StorageInfo for Storage<T> {
    fn entity_set(&self) -> &SparseSet {
        self.set()
    }

    fn check_storage(&self) -> Result<(), String> {
        self.check()
    }

    fn component_key(&self) -> ComponentKey {
        ComponentKey::of_any::<T>()
    }
}

/// The operations a run-time world needs from a storage whose component type it only
/// knows by `TypeId`.
pub trait ErasedStorage: StorageInfo + Any + Send + Sync {
    /// Takes `entity`'s component out, boxed, without dropping it (a destruction: the
    /// same removal from every storage, `change` naming the orders, see [`SameChange`]).
    fn take(&mut self, entity: Entity, change: &mut SameChange) -> Option<Box<dyn Any + Send>>;
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
        change: &mut SameChange,
    ) -> Box<dyn Any + Send>;
    /// The change stamps, if the storage is tracked.
    fn change_ticks(&self) -> Option<&Arc<ChangeTicks>>;
    /// Starts a new tick of change detection (see [`Storage::tick`]).
    fn tick(&mut self);
    /// Turns change detection on at the count where `clock` is (see [`Storage::track`]).
    fn track_at(&mut self, clock: Clock);
    /// Moves the change count on within the tick (a schedule's stage).
    fn step(&mut self);
    /// Moves the change count forward to `now` if it is behind (tests of its restart).
    fn jump_change_count(&mut self, now: u32);
}

/// A storage of any component type, boxed, with its component's `TypeId` kept beside
/// it: finding the typed storage is a compare of that id, not a call through the
/// vtable (a one-entity change of the run-time world finds a typed storage several
/// times).
///
/// ```text
/// AnyStorage { component: TypeId::of::<T>(), storage: Box<Storage<T>> as Box<dyn ErasedStorage> }
///              `---------------------- always the same T ----------------------'
/// ```
///
/// # Invariant
/// The invariant above is set by [`AnyStorage::new`], the only constructor; neither field
/// is handed out mutably as a whole (the box's contents are, as `dyn ErasedStorage`,
/// which cannot change their type), so the typed accessors' casts are sound.
pub struct AnyStorage {
    component: TypeId,
    storage: Box<dyn ErasedStorage>,
}

impl AnyStorage {
    /// Boxes `storage`, recording its component type.
    pub(crate) fn new<T: Component>(storage: Storage<T>) -> AnyStorage {
        AnyStorage {
            component: TypeId::of::<T>(),
            storage: Box::new(storage),
        }
    }

    /// The `TypeId` of the storage's component type.
    pub(crate) fn component(&self) -> TypeId {
        self.component
    }

    /// A pointer to the boxed storage (a `Storage<T>` of the component type), which may be
    /// written through for as long as the borrow it is made from.
    pub(crate) fn erased_mut(&mut self) -> NonNull<dyn ErasedStorage> {
        NonNull::from(&mut *self.storage)
    }

    /// A pointer to the boxed storage, for reading only.
    pub(crate) fn erased(&self) -> NonNull<dyn ErasedStorage> {
        NonNull::from(&*self.storage)
    }

    /// The storage as a `Storage<T>`, if it is the storage of `T`.
    #[inline]
    pub(crate) fn storage_of<T: Component>(&self) -> Option<&Storage<T>> {
        if self.component == TypeId::of::<T>() {
            let storage: *const dyn ErasedStorage = &*self.storage;
            // SAFETY: the box holds a `Storage<T>` (the type invariant: `component` is
            // `T`'s id), so the data pointer points to one, borrowed for `self`'s life.
            Some(unsafe { &*storage.cast::<Storage<T>>() })
        } else {
            None
        }
    }

    /// The storage as a `Storage<T>` mutably, if it is the storage of `T`.
    #[inline]
    pub(crate) fn storage_of_mut<T: Component>(&mut self) -> Option<&mut Storage<T>> {
        if self.component == TypeId::of::<T>() {
            let storage: *mut dyn ErasedStorage = &mut *self.storage;
            // SAFETY: as in `storage_of`, borrowed mutably and uniquely through `self`.
            Some(unsafe { &mut *storage.cast::<Storage<T>>() })
        } else {
            None
        }
    }
}

impl core::ops::Deref for AnyStorage {
    type Target = dyn ErasedStorage;

    fn deref(&self) -> &Self::Target {
        &*self.storage
    }
}

impl core::ops::DerefMut for AnyStorage {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut *self.storage
    }
}

impl<T: Component> ErasedStorage for Storage<T> {
    fn take(&mut self, entity: Entity, change: &mut SameChange) -> Option<Box<dyn Any + Send>> {
        self.change_alike(change, |s| s.remove(entity))
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
        change: &mut SameChange,
    ) -> Box<dyn Any + Send> {
        Box::new(self.change_alike(change, |s| s.compact(marks, listed, boundaries)))
    }

    fn change_ticks(&self) -> Option<&Arc<ChangeTicks>> {
        Storage::change_ticks(self)
    }

    fn tick(&mut self) {
        Storage::tick(self);
    }

    fn track_at(&mut self, clock: Clock) {
        Storage::track_at(self, clock);
    }

    fn step(&mut self) {
        Storage::step(self);
    }

    fn jump_change_count(&mut self, now: u32) {
        Storage::jump_change_count(self, now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Health(u32);
    impl Component for Health {}
    struct Armour(u32);
    impl Component for Armour {}

    #[test]
    fn a_boxed_storage_is_found_as_its_own_type_only() {
        let entity = Entity::from_raw_parts(3, 1).unwrap();
        let mut storage = Storage::<Health>::new();
        storage.insert(entity, Health(7));
        let mut boxed = AnyStorage::new(storage);
        assert!(boxed.storage_of::<Armour>().is_none());
        assert!(boxed.storage_of_mut::<Armour>().is_none());
        boxed
            .storage_of_mut::<Health>()
            .unwrap()
            .get_mut(entity)
            .unwrap()
            .0 += 1;
        assert_eq!(
            boxed.storage_of::<Health>().unwrap().get(entity),
            Some(&Health(8))
        );
        assert_eq!(boxed.type_name(), core::any::type_name::<Health>());
        assert!(boxed.entity_set().contains(entity));
        let armour: Storage<Armour> = [(entity, Armour(2))].into_iter().collect();
        let other = AnyStorage::new(armour);
        assert!(other.storage_of::<Health>().is_none());
        assert_eq!(
            other.storage_of::<Armour>().unwrap().get(entity).unwrap().0,
            2
        );
    }
}
