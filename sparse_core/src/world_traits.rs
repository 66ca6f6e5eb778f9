//! The traits worlds implement: what code written against *any* world may call.
//!
//! A `#[world]` implements them with one impl per stored type and per group, so its
//! generic methods (`insert::<T>`, `group::<K>`, …) resolve statically (no `TypeId`
//! lookup, no dynamic dispatch). The run-time [`World`](crate::World) implements the
//! structural ones ([`EditEntities`], [`Edit`]) for every component type, so that
//! commands and bundles work on both.
//!
//! | trait | what it gives | implemented by |
//! | --- | --- | --- |
//! | [`HasComponent<T>`] | `storage`, `get_mut`, `values_mut`, and [`Edit<T>`] | `#[world]`s storing `T` |
//! | [`Edit<T>`] | `insert`, `remove`, and their bulk forms | `#[world]`s storing `T`, `World` |
//! | [`EditEntities`] | `spawn_entity`, `destroy`, `destroy_many` | every world |
//! | [`HasGroup<K>`] | `group`, `group_ref`, `group_len`, `sort_group` | `#[world]`s with group `K` |
//! | [`Access`] | `borrow`, `view`, `retain`, `apply` | every `#[world]` |
//! | [`Unowned<T>`] | `sort` | `#[world]`s storing `T` that no group owns |

use core::cmp::Ordering;

use crate::access::{Borrow, LendGroup, Query, ReadOnly, ValuesMut, View, ViewOf, ViewRefOf};
use crate::change::{Commands, Edit, EditEntities};
use crate::component::Component;
use crate::entity::Entity;
use crate::group::{
    ByComparator, ByEntity, ByKey, ByRadixKey, EntityOrder, GroupOrder, InOrderOf, StorageOrder,
};
use crate::group::{GroupKey, GroupMut, GroupRef};
use crate::internals::InternalStorage;
use crate::lend::{LendResource, LendStorage};
use crate::storage::{OrdKey, RadixKey, Storage};

/// A world that stores `T`: its storage, read only, and its values, mutably. Code
/// written against it works on any `#[world]` that stores `T`:
/// `fn heal<W: HasComponent<Health>>(world: &mut W)`.
///
/// It is a safe trait: whatever an impl does, it can only hand out what it can borrow.
#[diagnostic::on_unimplemented(
    message = "the world `{Self}` does not store `{T}`",
    label = "no storage of `{T}` in this world",
    note = "add a field of type `Storage<{T}>` to the world (spelled the same way everywhere)"
)]
pub trait HasComponent<T>: LendStorage<T> + Edit<T> + InternalStorage<T> {
    #[doc = crate::__method_doc!(storage)]
    fn storage(&self) -> &Storage<T>;
    /// `entity`'s `T`, mutably.
    fn get_mut(&mut self, entity: Entity) -> Option<&mut T>;
    #[doc = crate::__method_doc!(values_mut)]
    fn values_mut(&mut self) -> ValuesMut<'_, T>;
    /// Reserves room for `additional` more components of `T`.
    fn reserve(&mut self, additional: usize);
}

/// A world with the group named by the key `K` (see [`GroupKey`]).
#[diagnostic::on_unimplemented(
    message = "the world `{Self}` has no group `{K}`",
    label = "no such group",
    note = "a group is named by its owned types in the order of its `#[group(...)]` declaration, then `Get<…>` and `Exclude<…>`, e.g. `(Velocity, Get<Position>, Exclude<Frozen>)`"
)]
pub trait HasGroup<K: GroupKey>: LendGroup<K> {
    #[doc = crate::__method_doc!(group)]
    ///
    #[doc = crate::__method_doc!(static group)]
    fn group(&mut self) -> GroupMut<'_, K>;
    #[doc = crate::__method_doc!(group_ref)]
    fn group_ref(&self) -> GroupRef<'_, K>;
    #[doc = crate::__method_doc!(group_len)]
    fn group_len(&self) -> usize;
    /// Sorts the group in the order `order` gives each layer (layer by layer, so that
    /// inner nested groups stay valid; a non-owning group sorts its member set). What the
    /// four sorts below call.
    #[doc(hidden)]
    fn sort_group_with(&mut self, order: impl GroupOrder<K>);

    #[doc = crate::__method_doc!(sort_group)]
    fn sort_group(&mut self, compare: impl FnMut(K::Item<'_>, K::Item<'_>) -> Ordering) {
        self.sort_group_with(ByComparator(compare));
    }

    #[doc = crate::__method_doc!(sort_group_by_key)]
    fn sort_group_by_key<Key: OrdKey>(&mut self, key: impl FnMut(K::Item<'_>) -> Key) {
        self.sort_group_with(ByKey(key));
    }

    #[doc = crate::__method_doc!(sort_group_by_radix_key)]
    fn sort_group_by_radix_key<Key: RadixKey>(&mut self, key: impl FnMut(K::Item<'_>) -> Key) {
        self.sort_group_with(ByRadixKey(key));
    }

    #[doc = crate::__method_doc!(sort_group_by_entity)]
    fn sort_group_by_entity(&mut self) {
        self.sort_group_with(ByEntity);
    }

    #[doc = crate::__method_doc!(sort_group_as)]
    fn sort_group_as<T: Component>(&mut self)
    where
        Self: HasComponent<T>,
    {
        let order = InOrderOf::new(HasComponent::<T>::storage(self).entities());
        self.sort_group_with(order);
    }
}

/// A stored type that no group owns: its storage may be sorted on its own.
#[diagnostic::on_unimplemented(
    message = "the storage of `{T}` cannot be sorted on its own in `{Self}`",
    label = "`{T}` is owned by a group of this world, or not stored in it",
    note = "sorting a storage that a group owns would break the group: sort the group with `sort_group`"
)]
pub trait Unowned<T> {
    /// Sorts the storage of `T` in `order` (see [`StorageOrder`]): what the three sorts
    /// below call.
    #[doc(hidden)]
    fn sort_with(&mut self, order: impl StorageOrder<T>);

    #[doc = crate::__method_doc!(sort)]
    fn sort(&mut self, compare: impl FnMut(&T, &T) -> Ordering) {
        self.sort_with(ByComparator(compare));
    }

    #[doc = crate::__method_doc!(sort_by_key)]
    fn sort_by_key<Key: OrdKey>(&mut self, key: impl FnMut(&T) -> Key) {
        self.sort_with(ByKey(key));
    }

    #[doc = crate::__method_doc!(sort_by_radix_key)]
    fn sort_by_radix_key<Key: RadixKey>(&mut self, key: impl FnMut(&T) -> Key) {
        self.sort_with(ByRadixKey(key));
    }

    #[doc = crate::__method_doc!(sort_as)]
    fn sort_as<U: Component>(&mut self)
    where
        Self: HasComponent<U>,
    {
        let order = HasComponent::<U>::storage(self).entities().to_vec();
        self.sort_with(EntityOrder(order));
    }
}

/// The parts a `#[world]` took for a request, which the compiler proved disjoint: what
/// its `borrow` (and a hook's) gives.
///
/// # Panics
/// Only if a hand-written impl of a trait the compile-time check trusts defeated it
/// (the message names which).
#[inline(always)]
pub fn proven<R>(taken: Result<R, crate::AccessError>) -> R {
    taken.unwrap_or_else(|e| lent_twice(e))
}

/// What a `#[world]`'s borrow can only fail by: a hand-written impl of one of the traits
/// the compile-time check trusts, named by the error it caused.
#[cold]
#[inline(never)]
fn lent_twice(error: crate::AccessError) -> ! {
    match error {
        crate::AccessError::NotTracked(ty) => {
            let ty = crate::component::short_name(ty);
            panic!(
                "a #[world] was asked for the change stamps of `{ty}`, which it does not track: a hand-written `TrackChanges<{ty}>` impl let an `Added` or `Changed` filter compile; declare `#[track({ty})]` on the world instead"
            )
        }
        crate::AccessError::NoResource(ty) => {
            let ty = crate::component::short_name(ty);
            panic!(
                "a #[world] was asked for a resource `{ty}` it does not hold: a hand-written `LendResource<{ty}>` impl let the request compile; declare a field of type `Resource<{ty}>` instead"
            )
        }
        error => panic!(
            "a #[world] lent a storage or resource twice ({error}): a hand-written `Numbered`, `LendStorage` or `LendResource` impl defeated the compile-time borrow check"
        ),
    }
}

/// A world holding a resource of type `R`: implemented by `#[world]` for each of its
/// `Resource<R>` fields (code generic over worlds names it as a bound; the run-time
/// [`World`](crate::World), whose resources come and go, has methods of the same names
/// returning `Result`s).
#[diagnostic::on_unimplemented(
    message = "the world `{Self}` holds no resource `{R}`",
    label = "no resource `{R}` in this world",
    note = "add a field of type `Resource<{R}>` to the world"
)]
pub trait HasResource<R>: LendResource<R> {
    #[doc = crate::__method_doc!(resource)]
    fn resource(&self) -> &R;

    #[doc = crate::__method_doc!(resource_mut)]
    fn resource_mut(&mut self) -> &mut R;
}

/// Borrows, views and deferred changes of a `#[world]`, checked at compile time: what
/// its generated methods of the same names call, for code generic over worlds. (The
/// example uses the `sparse_groups` facade, whose `#[world]` implements this trait.)
///
/// ```ignore
/// use sparse_groups::{Access, Component, HasGroup, Storage, world};
/// #[derive(Component)] struct Position(f32);
/// #[derive(Component)] struct Velocity(f32);
///
/// // Any world with this group can move.
/// fn movement<W: HasGroup<(Position, Velocity)>>(world: &mut W) {
///     for (_, (p, v)) in world.group() {
///         p.0 += v.0;
///     }
/// }
///
/// #[world]
/// #[group(Position, Velocity)]
/// struct Scene { positions: Storage<Position>, velocities: Storage<Velocity> }
///
/// let mut scene = Scene::new();
/// let e = scene.spawn_with((Position(0.0), Velocity(2.0)));
/// movement(&mut scene);
/// assert_eq!(scene.get::<Position>(e).unwrap().0, 2.0);
/// ```
pub trait Access: EditEntities + Sized + 'static {
    #[doc = crate::__method_doc!(borrow)]
    ///
    #[doc = crate::__method_doc!(static borrow)]
    #[inline(always)]
    fn borrow<'w, R: Borrow<'w, Self>>(&'w mut self) -> R {
        let mut parts = self.parts();
        proven(R::take(&mut parts))
    }

    #[doc = crate::__method_doc!(borrow_ref)]
    #[inline(always)]
    fn borrow_ref<'w, R: Borrow<'w, Self> + ReadOnly>(&'w self) -> R {
        let mut parts = self.parts_ref();
        proven(R::take(&mut parts))
    }

    #[doc = crate::__method_doc!(view)]
    ///
    #[doc = crate::__method_doc!(static view)]
    #[inline]
    fn view<'w, Q: ViewOf<'w, Self>>(&'w mut self) -> View<'w, Q::Query, Q::Filter> {
        let mut parts = self.parts();
        proven(Q::take(&mut parts))
    }

    #[doc = crate::__method_doc!(view_ref)]
    #[inline]
    fn view_ref<'w, Q: ViewRefOf<'w, Self>>(&'w self) -> View<'w, Q::Query, Q::Filter> {
        let mut parts = self.parts_ref();
        proven(Q::take(&mut parts))
    }

    #[doc = crate::__method_doc!(retain)]
    fn retain<Q: Query>(&mut self, mut keep: impl FnMut(Entity, Q::Item<'_>) -> bool) -> usize
    where
        for<'w> View<'w, Q>: Borrow<'w, Self>,
    {
        let mut doomed = Vec::new();
        for (entity, item) in self.borrow::<View<'_, Q>>() {
            if !keep(entity, item) {
                doomed.push(entity);
            }
        }
        self.destroy_many(&doomed)
    }

    #[doc = crate::__method_doc!(retain_component)]
    fn retain_component<T, Q: Query>(
        &mut self,
        mut keep: impl FnMut(Entity, Q::Item<'_>) -> bool,
    ) -> usize
    where
        Self: Edit<T>,
        for<'w> View<'w, Q>: Borrow<'w, Self>,
    {
        let mut stripped = Vec::new();
        for (entity, item) in self.borrow::<View<'_, Q>>() {
            if !keep(entity, item) {
                stripped.push(entity);
            }
        }
        self.remove_many(&stripped)
    }

    #[doc = crate::__method_doc!(apply)]
    fn apply(&mut self, commands: &mut Commands<Self>) -> crate::change::Applied {
        commands.apply(self)
    }
}
