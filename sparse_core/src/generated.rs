//! The traits every `#[world]` struct implements, one impl per stored type and per group.
//! They let a generated world's generic methods (`insert::<T>`, `group::<G>`, …) be
//! resolved statically (no `TypeId` lookup, no dynamic dispatch), and let code be written
//! against any world that has the storages and groups it needs.

use core::cmp::Ordering;

use crate::component::Component;
use crate::component_set::ComponentSet;
use crate::entity::{Entity, EntityError};
use crate::group::{GroupKey, GroupMut};
use crate::storage::Storage;
use crate::view::View;

/// A world that stores `T`, with its add and remove hooks. Code written against it works
/// on any `#[world]` that stores `T`: `fn heal<W: HasComponent<Health>>(world: &mut W)`.
///
/// It is a safe trait: whatever an impl does, it can only hand out what it can borrow, so
/// no impl can make a view alias two storages.
#[diagnostic::on_unimplemented(
    message = "the world `{Self}` does not store `{T}`",
    label = "no storage of `{T}` in this world",
    note = "add a field of type `Storage<{T}>` to the world (spelled the same way everywhere)"
)]
pub trait HasComponent<T: Component>: WorldColumns {
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
    /// Appends `values` for `entities` in bulk, without entering groups: the first half of
    /// spawning a batch, which only this crate can call (it alone makes a [`Token`]).
    #[doc(hidden)]
    fn append_new(&mut self, token: Token, entities: &[Entity], values: &mut Vec<T>);
    /// Takes the column of `T` out of the world's columns (`None` if taken already).
    #[doc(hidden)]
    fn take_column<'a>(columns: &mut Self::Columns<'a>) -> Option<Column<'a, T>>
    where
        Self: 'a;
}

/// Every storage of a world at once, as value-only [`Column`]s: what views borrow from.
#[doc(hidden)]
pub trait WorldColumns {
    /// One `Option<Column<'a, T>>` per storage.
    type Columns<'a>
    where
        Self: 'a;
    /// Splits the world into its columns.
    fn columns(&mut self) -> Self::Columns<'_>;
}

/// One storage of a world, borrowed for its values: the only way a view reaches a
/// storage, so a view can never change a storage's structure.
#[doc(hidden)]
pub struct Column<'a, T>(&'a mut Storage<T>);

impl<'a, T> Column<'a, T> {
    /// Borrows a storage.
    #[inline]
    pub fn new(storage: &'a mut Storage<T>) -> Self {
        Column(storage)
    }

    /// The storage, for this crate's value-level access.
    #[inline]
    pub(crate) fn into_storage(self) -> &'a mut Storage<T> {
        self.0
    }
}

/// Proof that a call comes from this crate: only this crate can make one, so methods that
/// take it (appending components without entering groups) cannot be called from elsewhere.
#[derive(Clone, Copy)]
pub struct Token(());

impl Token {
    pub(crate) fn new() -> Token {
        Token(())
    }
}

/// The entity-level hooks of a `#[world]`: what spawning with a bundle needs.
#[doc(hidden)]
pub trait WorldEntities {
    /// Creates an entity with no component.
    fn spawn_entity(&mut self) -> Entity;
    /// Reserves room for `additional` more entities.
    fn reserve_entities(&mut self, additional: usize);
    /// Test-and-enters every group, outer groups first (harmless on an entity whose
    /// groups are up to date).
    fn enter_all_groups(&mut self, entity: Entity);
}

/// A world with the group named by the key `K` (see [`GroupKey`]).
#[diagnostic::on_unimplemented(
    message = "the world `{Self}` has no group `{K}`",
    label = "no such group",
    note = "a group is named by its owned types in the order of its `#[group(...)]` declaration, then `Get<…>` and `Exclude<…>`, e.g. `(Velocity, Get<Position>, Exclude<Frozen>)`"
)]
pub trait HasGroup<K: GroupKey> {
    /// The group: aligned slices of its owned components, lookups of its observed ones.
    fn group(&mut self) -> GroupMut<'_, K>;
    /// The number of entities in the group.
    fn group_len(&self) -> usize;
    /// Sorts the group (layer by layer, so that inner nested groups stay valid; a
    /// non-owning group sorts its member set).
    fn sort_group(&mut self, compare: impl FnMut(K::Item<'_>, K::Item<'_>) -> Ordering);
}

/// A stored type that no group owns: its storage may be sorted on its own.
#[diagnostic::on_unimplemented(
    message = "the storage of `{T}` cannot be sorted on its own in `{Self}`",
    label = "`{T}` is owned by a group of this world, or not stored in it",
    note = "sorting a storage that a group owns would break the group: sort the group with `sort_group`"
)]
pub trait Unowned<T> {
    /// Sorts the storage of `T` with `compare` (the mixed strategy).
    fn sort(&mut self, compare: impl FnMut(&T, &T) -> Ordering);
}

pub(crate) mod sealed {
    /// Keeps [`ViewOf`](super::ViewOf) and [`Bundle`](crate::Bundle) to the tuples of
    /// this crate.
    pub trait Sealed {}
}

/// Tuples of stored types that can be joined in a view of a `#[world]`. Sealed.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be viewed in `{W}`",
    label = "not a tuple of types this world stores",
    note = "a view names a tuple of stored component types, e.g. `view::<(Position, Velocity)>()`"
)]
pub trait ViewOf<W>: ComponentSet + sealed::Sealed {
    /// The storages of the tuple's types, borrowed together.
    ///
    /// # Panics
    /// Panics if the tuple names a type twice.
    fn view(world: &mut W) -> View<'_, Self>;
}

#[cold]
#[inline(never)]
fn named_twice() -> ! {
    panic!("a view names a component type twice")
}

macro_rules! view_of {
    ($(($T:ident, $t:ident, $i:tt)),+) => {
        impl<$($T: Component),+> sealed::Sealed for ($($T,)+) {}

        impl<W: $(HasComponent<$T> +)+, $($T: Component),+> ViewOf<W> for ($($T,)+) {
            fn view(world: &mut W) -> View<'_, Self> {
                let mut columns = world.columns();
                $(
                    let $t = <W as HasComponent<$T>>::take_column(&mut columns)
                        .unwrap_or_else(|| named_twice())
                        .into_storage();
                )+
                View::new(($($t,)+))
            }
        }
    };
}

for_each_tuple!(view_of);
