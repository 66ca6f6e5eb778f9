//! The traits a `#[world]` struct implements, one impl per stored type and per group.
//! They let the generated world's generic methods (`insert::<T>`, `group::<G>`, …) be
//! resolved statically: no `TypeId` lookup, no dynamic dispatch.

use core::cmp::Ordering;

use crate::component::{Component, ComponentSet};
use crate::entity::{Entity, EntityError};
use crate::group::GroupMut;
use crate::storage::Storage;
use crate::view::View;

/// A world that stores `T`, with its add and remove hooks.
///
/// # Safety
/// `storage_ptr` must return a pointer to the storage of `T` inside `*world`, derived
/// without creating a reference to the whole world, and distinct impls on one world must
/// return pointers to distinct storages.
#[diagnostic::on_unimplemented(
    message = "the world `{Self}` does not store `{T}`",
    label = "no storage of `{T}` in this world",
    note = "add a field of type `Storage<{T}>` to the world (spelled the same way everywhere)"
)]
pub unsafe trait HasComponent<T> {
    /// The storage of `T`, read only.
    fn storage(&self) -> &Storage<T>;
    /// `entity`'s `T`, mutably.
    fn get_mut(&mut self, entity: Entity) -> Option<&mut T>;
    /// The entities and components of `T`, the components mutably.
    fn components_mut(&mut self) -> (&[Entity], &mut [T]);
    /// Stores `value` for `entity` and enters the groups it completes, outermost first.
    ///
    /// # Errors
    /// [`EntityError::Dead`] if `entity` is not alive; nothing is written.
    fn insert(&mut self, entity: Entity, value: T) -> Result<Option<T>, EntityError>;
    /// Leaves the groups owning `T`, innermost first, then removes the component.
    fn remove(&mut self, entity: Entity) -> Option<T>;
    /// Reserves room for `additional` more components of `T`.
    fn reserve(&mut self, additional: usize);
    /// Appends `value` for `entity` without looking it up and without entering groups.
    ///
    /// # Safety
    /// `entity` must be alive and have no `T`; the caller enters the groups afterwards.
    #[doc(hidden)]
    unsafe fn push_new(&mut self, entity: Entity, value: T);
    /// Appends `values` for `entities` in bulk, without entering groups.
    ///
    /// # Safety
    /// The entities must be alive, distinct, and have no `T`; the caller enters the
    /// groups afterwards.
    #[doc(hidden)]
    unsafe fn append_new(&mut self, entities: &[Entity], values: &mut Vec<T>);
    /// A raw pointer to the storage of `T` inside `*world`.
    ///
    /// # Safety
    /// `world` must be valid for reads and writes.
    #[doc(hidden)]
    unsafe fn storage_ptr(world: *mut Self) -> *mut Storage<T>;
}

/// The entity-level hooks of a `#[world]`: what spawning with a bundle needs.
#[doc(hidden)]
pub trait WorldEntities {
    /// Creates an entity with no component.
    fn spawn_entity(&mut self) -> Entity;
    /// Reserves room for `additional` more entities.
    fn reserve_entities(&mut self, additional: usize);
    /// Test-and-enters every group, outermost first in each chain.
    fn enter_all_groups(&mut self, entity: Entity);
}

/// A tuple of distinct component types to spawn an entity with, `(A, B, …)` up to eight.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a bundle of `{W}`'s components",
    label = "not a bundle of this world",
    note = "a bundle is a tuple of components the world stores, e.g. `(Position {{ .. }}, Velocity {{ .. }})`"
)]
pub trait Bundle<W>: ComponentSet {
    /// Appends each component for `entity`, without entering groups.
    ///
    /// # Safety
    /// `entity` must be alive and have none of the bundle's types, and the types must be
    /// distinct.
    #[doc(hidden)]
    unsafe fn push_new(self, world: &mut W, entity: Entity);
    /// One `Vec` per type, collecting a batch column by column.
    #[doc(hidden)]
    type Columns;
    /// Empty columns with room for `capacity` rows where memory allows (a failed
    /// reservation just leaves the column to grow).
    #[doc(hidden)]
    fn columns(capacity: usize) -> Self::Columns;
    /// Appends this bundle as one row of `columns`.
    #[doc(hidden)]
    fn push_row(self, columns: &mut Self::Columns);
    /// Appends every column to the world's storages, row `i` for `entities[i]`.
    ///
    /// # Safety
    /// The entities must be alive, distinct, and have none of the bundle's types, which
    /// must be distinct; the columns must hold one row per entity.
    #[doc(hidden)]
    unsafe fn append_columns(columns: Self::Columns, world: &mut W, entities: &[Entity]);
}

/// A world with a group owning exactly the types of `G`, as declared.
#[diagnostic::on_unimplemented(
    message = "the world `{Self}` has no group `{G}`",
    label = "no such group",
    note = "a group is named by the tuple of its types in the order of its `#[group(...)]` declaration"
)]
pub trait HasGroup<G: ComponentSet> {
    /// Aligned slices of the group's packed range.
    fn group(&mut self) -> GroupMut<'_, G>;
    /// The number of entities in the group.
    fn group_len(&self) -> usize;
    /// Sorts the group layer by layer so that inner nested groups stay valid.
    fn sort_group(&mut self, compare: impl FnMut(G::Refs<'_>, G::Refs<'_>) -> Ordering);
}

/// A stored type that no group owns: its storage may be sorted on its own.
#[diagnostic::on_unimplemented(
    message = "the storage of `{T}` cannot be sorted on its own in `{Self}`",
    label = "`{T}` is owned by a group of this world, or not stored in it",
    note = "sorting a storage that a group owns would break the group: sort the group with `sort_group`"
)]
pub trait Unowned<T>: HasComponent<T> {
    /// Sorts the storage of `T` with `compare` (the mixed strategy).
    fn sort(&mut self, compare: impl FnMut(&T, &T) -> Ordering);
}

/// Tuples of stored types that can be joined in a view of a `#[world]`.
pub trait ViewOf<W>: ComponentSet {
    /// The storages of the tuple's types, borrowed together.
    ///
    /// # Panics
    /// Panics if the tuple names a type twice.
    fn view(world: &mut W) -> View<'_, Self>;
}

macro_rules! view_of {
    ($(($T:ident, $t:ident, $i:tt)),+) => {
        impl<W: $(HasComponent<$T> +)+, $($T: Component),+> ViewOf<W> for ($($T,)+) {
            fn view(world: &mut W) -> View<'_, Self> {
                assert!(Self::distinct(), "a view names a component type twice");
                let world: *mut W = world;
                // SAFETY: `world` comes from a unique borrow that lives as long as the view.
                // The types are distinct (checked above), so by `HasComponent`'s contract the
                // pointers address distinct storages, derived without intermediate references
                // to the world: the `&mut` built from each never alias.
                View::from_storages(unsafe { ($(&mut *<W as HasComponent<$T>>::storage_ptr(world),)+) })
            }
        }
    };
}

macro_rules! bundle {
    ($(($T:ident, $t:ident, $i:tt)),+) => {
        impl<W: $(HasComponent<$T> +)+, $($T: Component),+> Bundle<W> for ($($T,)+) {
            #[inline]
            unsafe fn push_new(self, world: &mut W, entity: Entity) {
                let ($($t,)+) = self;
                // SAFETY: forwarded from the caller: `entity` is alive and has none of these
                // distinct types.
                unsafe {
                    $(<W as HasComponent<$T>>::push_new(world, entity, $t);)+
                }
            }

            type Columns = ($(Vec<$T>,)+);

            #[inline]
            fn columns(capacity: usize) -> Self::Columns {
                ($(try_with_capacity::<$T>(capacity),)+)
            }

            #[inline]
            fn push_row(self, columns: &mut Self::Columns) {
                let ($($t,)+) = self;
                $(columns.$i.push($t);)+
            }

            #[inline]
            unsafe fn append_columns(columns: Self::Columns, world: &mut W, entities: &[Entity]) {
                let ($(mut $t,)+) = columns;
                // SAFETY: forwarded from the caller: the entities are alive, distinct and
                // have none of these distinct types, and each column has one row per entity.
                unsafe {
                    $(<W as HasComponent<$T>>::append_new(world, entities, &mut $t);)+
                }
            }
        }
    };
}

for_each_tuple!(bundle);

/// A vector with room for `capacity` items if the allocator grants it, else empty.
fn try_with_capacity<T>(capacity: usize) -> Vec<T> {
    let mut vec = Vec::new();
    // On failure (an absurd size hint), the vector simply grows as items arrive.
    let _ = vec.try_reserve_exact(capacity);
    vec
}

/// Spawns an entity with the components of `bundle`, entering its groups.
///
/// # Panics
/// Panics if the bundle names a type twice.
#[inline]
pub fn spawn_with<W: WorldEntities, B: Bundle<W>>(world: &mut W, bundle: B) -> Entity {
    assert!(B::distinct(), "a bundle names a component type twice");
    spawn_distinct(world, bundle)
}

#[inline]
fn spawn_distinct<W: WorldEntities, B: Bundle<W>>(world: &mut W, bundle: B) -> Entity {
    let entity = world.spawn_entity();
    // SAFETY: the entity was just created, so it is alive and has no component, and the
    // bundle's types are distinct (checked by the callers).
    unsafe { bundle.push_new(world, entity) };
    world.enter_all_groups(entity);
    entity
}

/// Spawns one entity per bundle, reserving room for all of them first.
///
/// # Panics
/// Panics if the bundle type names a component type twice.
pub fn spawn_batch<W: WorldEntities, B: Bundle<W>>(
    world: &mut W,
    bundles: impl IntoIterator<Item = B>,
) -> Vec<Entity> {
    assert!(B::distinct(), "a bundle names a component type twice");
    let bundles = bundles.into_iter();
    // Preallocate from the iterator's lower bound; a wrong hint must not turn into a
    // panic or an abort: the column and result reservations are fallible, and the entity
    // reservation is capped.
    let capacity = bundles.size_hint().0;
    world.reserve_entities(capacity.min(1 << 24));
    // Collect column by column, then append each column to its storage in one go. If the
    // iterator panics, the entities spawned so far stay alive with no component.
    let mut spawned = try_with_capacity(capacity);
    let mut columns = B::columns(capacity);
    for bundle in bundles {
        spawned.push(world.spawn_entity());
        bundle.push_row(&mut columns);
    }
    // SAFETY: the entities were just spawned (alive, distinct, without components), the
    // bundle's types are distinct (asserted above), and there is one row per entity.
    unsafe { B::append_columns(columns, world, &spawned) };
    for &entity in &spawned {
        world.enter_all_groups(entity);
    }
    spawned
}

for_each_tuple!(view_of);
