//! What only a world's own code may do: reach its entity allocator and its storages
//! mutably, and file new entities into the storages before the groups are entered (a
//! spawn's fast path). Every method here takes the world's **key**.
//!
//! A `#[world]`'s traits are implemented by code the macro writes into the user's crate,
//! so no trait of this crate can be sealed against them: whatever the generated impls
//! write, a user can write too. What the user cannot write is a value of the key: each
//! expansion defines its key type with a private field in a module no other code can
//! name, and makes its one value there. The run-time [`World`](crate::World)'s key,
//! [`WorldKey`], has a private field too. So implementing these traits for a type of
//! one's own gives access to that type only, and the `#[world]` and [`World`] impls can
//! only be called by their own code.
//!
//! ```text
//! scene.spawn_with((a, b))                     (generated, holds the key)
//!   └─ EditEntities::spawn_with  ──  __private::spawn_with(scene, &KEY, (a, b))
//!        └─ Internals::entities_mut(&KEY), InternalStorage<A>::storage_mut(&KEY), …
//! ```

use crate::component::Component;
use crate::entity::{Entities, Entity};
use crate::storage::Storage;

/// A world's structural internals, behind its key (see the module docs). Implemented by
/// every `#[world]` and by the run-time [`World`](crate::World).
pub trait Internals {
    /// The world's key: no code but the world's own can make a value of it.
    type Key;

    /// The entity allocator, mutably.
    fn entities_mut(&mut self, key: &Self::Key) -> &mut Entities;

    /// Test-and-enters every group, outer groups first (harmless on an entity whose
    /// groups are up to date): what a spawn runs once its components are filed.
    fn enter_all_groups(&mut self, key: &Self::Key, entity: Entity);

    /// Whether `entity` has no component in any storage (a reserved entity that nothing
    /// was given yet spawns as a new one does).
    fn holds_nothing(&self, entity: Entity) -> bool;
}

/// A world's storage of `T`, behind its key (see the module docs).
pub trait InternalStorage<T>: Internals {
    /// The storage of `T`, mutably: its structure may only change the way the world's
    /// group steps change it.
    fn storage_mut(&mut self, key: &Self::Key) -> &mut Storage<T>;
}

/// A world whose storages are found by a run-time lookup (the run-time
/// [`World`](crate::World)): a spawn finds each of its bundle's storages once, then
/// reaches it again by its index.
pub trait IndexedStorages: Internals {
    /// The index of `T`'s storage, created empty if the world has none.
    fn storage_index<T: Component>(&mut self, key: &Self::Key) -> usize;
    /// The storage at `index`, which [`storage_index`](Self::storage_index) gave for `T`.
    ///
    /// # Panics
    /// Panics if `index` is out of bounds or the storage there is not `T`'s.
    fn storage_at<T: Component>(&mut self, key: &Self::Key, index: usize) -> &mut Storage<T>;
}

/// The run-time [`World`](crate::World)'s key: only this crate makes one.
pub struct WorldKey(());

/// The one value of [`WorldKey`].
pub(crate) const WORLD_KEY: WorldKey = WorldKey(());
