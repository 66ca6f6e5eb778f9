//! Spawning with several components at once: bundles and batches.

use core::marker::PhantomData;

use crate::change::{Edit, EditEntities};
use crate::component::Component;
use crate::component_set::ComponentSet;
use crate::entity::{Entity, EntityError};
use crate::internals::{IndexedStorages, InternalStorage, Internals};
use crate::lend::AllApart;
use crate::size_hint;
use crate::storage::SameChange;

/// Keeps [`Bundle`] to this crate: a spawn files every component of its bundle, then
/// enters the entity's groups.
mod sealed {
    /// Sealing [`Bundle`](super::Bundle).
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be a bundle: `Bundle` is sealed",
        label = "`Bundle` is implemented only by tuples of components",
        note = "a spawn stores every component of its bundle and then enters the entity's groups, which only the crate's own bundles do right: spawn with a tuple of distinct components, e.g. `spawn_with((Position(0.0), Velocity(1.0)))`"
    )]
    pub trait Sealed {}
}

/// A tuple of distinct component types to spawn an entity with, `(A, B, …)` up to
/// [`MAX_TUPLE`](crate::MAX_TUPLE). Sealed. Naming a type twice is a compile error for a
/// `#[world]` (and a panic for the run-time [`World`](crate::World)).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a bundle of `{W}`'s components",
    label = "not a bundle of this world",
    note = "a bundle is a tuple of components the world stores, each type once, e.g. `(Position {{ .. }}, Velocity {{ .. }})`"
)]
pub trait Bundle<W>: ComponentSet + sealed::Sealed {
    /// One `Vec` per type, collecting a batch column by column.
    #[doc(hidden)]
    type Batch;
    /// Empty columns with room for `capacity` rows where memory allows (a failed
    /// reservation just leaves the column to grow).
    #[doc(hidden)]
    fn batch(capacity: usize) -> Self::Batch;
    /// Appends this bundle as one row of `columns`.
    #[doc(hidden)]
    fn push_row(self, batch: &mut Self::Batch);
    /// Appends every column to the world's storages, row `i` for `entities[i]`, without
    /// entering groups.
    #[doc(hidden)]
    fn append_columns(columns: Self::Batch, world: &mut W, key: &W::Key, entities: &[Entity])
    where
        W: AppendColumn;
    /// Reserves room for `additional` more components in each of the bundle's storages,
    /// where the allocator grants it.
    #[doc(hidden)]
    fn reserve_new(world: &mut W, key: &W::Key, additional: usize)
    where
        W: Internals;
    /// Pushes each component as a pending row of its storage (filed later, by
    /// `file_pending`).
    #[doc(hidden)]
    fn push_pending(self, world: &mut W, key: &W::Key)
    where
        W: Internals;
    /// Files `entities` for the pending components of each storage.
    #[doc(hidden)]
    fn file_pending(world: &mut W, key: &W::Key, entities: &[Entity])
    where
        W: Internals;
    /// Drops the pending components of each storage that were never filed.
    #[doc(hidden)]
    fn drop_pending(world: &mut W, key: &W::Key)
    where
        W: Internals;
    /// [`push_pending`](Bundle::push_pending) finding each storage once: writes its
    /// index to `at` (one slot per type, in order) for
    /// [`file_pending_at`](Bundle::file_pending_at).
    #[doc(hidden)]
    fn push_pending_at(self, world: &mut W, key: &W::Key, at: &mut [usize])
    where
        W: IndexedStorages;
    /// [`file_pending`](Bundle::file_pending) through the storages' indices `at`.
    #[doc(hidden)]
    fn file_pending_at(world: &mut W, key: &W::Key, at: &[usize], entities: &[Entity])
    where
        W: IndexedStorages;
    /// Inserts each component for an alive entity, through the world's change methods.
    #[doc(hidden)]
    fn insert_each(self, world: &mut W, entity: Entity);
}

macro_rules! bundle {
    ($(($T:ident, $t:ident, $i:tt)),+) => {
        #[diagnostic::do_not_recommend]
        impl<$($T: Component),+> sealed::Sealed for ($($T,)+) {}

        impl<W, $($T: Component),+> Bundle<W> for ($($T,)+)
        where
            W: $(Edit<$T> + InternalStorage<$T> +)+ AllApart<<Self as ComponentSet>::List>,
        {
            type Batch = ($(Vec<$T>,)+);

            #[inline]
            fn batch(capacity: usize) -> Self::Batch {
                ($(size_hint::vec_with_capacity::<$T>(capacity),)+)
            }

            #[inline]
            fn push_row(self, batch: &mut Self::Batch) {
                let ($($t,)+) = self;
                $(batch.$i.push($t);)+
            }

            #[inline]
            fn append_columns(columns: Self::Batch, world: &mut W, key: &W::Key, entities: &[Entity])
            where
                W: AppendColumn,
            {
                let ($(mut $t,)+) = columns;
                let mut change = SameChange::new();
                $(<W as InternalStorage<$T>>::storage_mut(world, key).change_alike(&mut change, |storage| {
                    storage.append_new(entities, &mut $t)
                });)+
            }

            #[inline]
            fn reserve_new(world: &mut W, key: &W::Key, additional: usize)
            where
                W: Internals,
            {
                $(<W as InternalStorage<$T>>::storage_mut(world, key).try_reserve_new(additional);)+
            }

            #[inline]
            fn push_pending(self, world: &mut W, key: &W::Key)
            where
                W: Internals,
            {
                let ($($t,)+) = self;
                $(<W as InternalStorage<$T>>::storage_mut(world, key).push_pending($t);)+
            }

            #[inline]
            fn file_pending(world: &mut W, key: &W::Key, entities: &[Entity])
            where
                W: Internals,
            {
                let mut change = SameChange::new();
                $(<W as InternalStorage<$T>>::storage_mut(world, key).change_alike(&mut change, |storage| {
                    storage.file_pending(entities)
                });)+
            }

            fn drop_pending(world: &mut W, key: &W::Key)
            where
                W: Internals,
            {
                $(<W as InternalStorage<$T>>::storage_mut(world, key).drop_pending();)+
            }

            #[inline]
            fn push_pending_at(self, world: &mut W, key: &W::Key, at: &mut [usize])
            where
                W: IndexedStorages,
            {
                let ($($t,)+) = self;
                $(
                    at[$i] = world.storage_index::<$T>(key);
                    world.storage_at::<$T>(key, at[$i]).push_pending($t);
                )+
            }

            #[inline]
            fn file_pending_at(world: &mut W, key: &W::Key, at: &[usize], entities: &[Entity])
            where
                W: IndexedStorages,
            {
                let mut change = SameChange::new();
                $(world.storage_at::<$T>(key, at[$i]).change_alike(&mut change, |storage| {
                    storage.file_pending(entities)
                });)+
            }

            fn insert_each(self, world: &mut W, entity: Entity) {
                let ($($t,)+) = self;
                $(let _ = <W as Edit<$T>>::insert(world, entity, $t);)+
            }
        }
    };
}

for_each_tuple!(bundle);

/// A world that spawns batches column by column (the run-time world, which finds each
/// storage through a map of types: one lookup per column, not per row).
#[doc(hidden)]
pub trait AppendColumn: Internals {
    /// Appends `values` for new `entities` without entering groups.
    fn append_new<T: Component>(
        &mut self,
        key: &Self::Key,
        entities: &[Entity],
        values: &mut Vec<T>,
    );
}

/// Spawns an entity with the components of `bundle`, entering its groups.
///
/// # Panics
/// Panics if the bundle names a type twice (only the run-time world lets that compile).
#[inline]
pub(crate) fn spawn_with<W: Internals + EditEntities, B: Bundle<W>>(
    world: &mut W,
    key: &W::Key,
    bundle: B,
) -> Entity {
    spawn_filing(world, key, bundle, |world, key, bundle, entity| {
        let rows = PendingRows::<W, B>::new(world, key);
        bundle.push_pending(rows.world, key);
        rows.file(&[entity]);
    })
}

/// [`spawn_with`] for a world that finds its storages by a run-time lookup: each of the
/// bundle's storages is looked up once, not once to push and again to file.
pub(crate) fn spawn_with_indexed<W: IndexedStorages + EditEntities, B: Bundle<W>>(
    world: &mut W,
    key: &W::Key,
    bundle: B,
) -> Entity {
    spawn_filing(world, key, bundle, |world, key, bundle, entity| {
        // One slot per type: a bundle is a tuple of at most `MAX_TUPLE` types.
        let mut at = [0; crate::MAX_TUPLE];
        let rows = PendingRows::<W, B>::new(world, key);
        bundle.push_pending_at(rows.world, key, &mut at);
        rows.file_at(&at, &[entity]);
    })
}

/// The spawn both [`spawn_with`]s share: a new entity, its components pushed and filed
/// by `push_and_file`, then its groups entered and its insert hooks run.
#[inline(always)]
fn spawn_filing<W: Internals + EditEntities, B: Bundle<W>>(
    world: &mut W,
    key: &W::Key,
    bundle: B,
    push_and_file: impl FnOnce(&mut W, &W::Key, B, Entity),
) -> Entity {
    assert!(B::distinct(), "a bundle names a component type twice");
    let entity = world.entities_mut(key).spawn();
    push_and_file(world, key, bundle, entity);
    world.enter_all_groups(key, entity);
    world.spawned(&[entity]);
    entity
}

/// Gives an entity reserved by a `spawn_reserved` command the components of `bundle`.
/// Holding nothing yet (the usual case), it spawns as [`spawn_with`] spawns a new entity:
/// every component filed, the groups entered, then the insert hooks in declaration order,
/// each seeing the whole bundle. Given components since it was reserved, it gets the
/// bundle as `insert(entity, bundle)` would give it: each type in turn, each hook once its
/// type is in.
///
/// # Errors
/// [`EntityError::Dead`] if `entity` is not alive once reservations are made alive
/// (destroyed since, or never reserved here); nothing changes.
///
/// # Panics
/// Panics if the bundle names a type twice (only the run-time world lets that compile).
pub(crate) fn spawn_reserved<W: Internals + EditEntities, B: Bundle<W>>(
    world: &mut W,
    key: &W::Key,
    entity: Entity,
    bundle: B,
) -> Result<(), EntityError> {
    assert!(B::distinct(), "a bundle names a component type twice");
    if !world.entities_mut(key).flush_is_alive(entity) {
        return Err(EntityError::Dead(entity));
    }
    if !world.holds_nothing(entity) {
        bundle.insert_each(world, entity);
        return Ok(());
    }
    let rows = PendingRows::<W, B>::new(world, key);
    bundle.push_pending(rows.world, key);
    rows.file(&[entity]);
    world.enter_all_groups(key, entity);
    world.spawned(&[entity]);
    Ok(())
}

/// Spawns one entity per bundle (a `#[world]`'s `spawn_batch`): every storage is reserved
/// once, each bundle's components are pushed straight into their storages as pending
/// rows, then each storage files the new entities in one pass, and the entities enter
/// their groups.
///
/// # Panics
/// Panics if the bundle type names a component type twice (only the run-time world lets
/// that compile).
pub(crate) fn spawn_batch<W: Internals + EditEntities, B: Bundle<W>>(
    world: &mut W,
    key: &W::Key,
    bundles: impl IntoIterator<Item = B>,
) -> Vec<Entity> {
    spawn_batch_with(world, key, bundles, |world, bundles, spawned| {
        B::reserve_new(world, key, size_hint::capped(bundles.size_hint().0));
        let rows = PendingRows::<W, B>::new(world, key);
        for bundle in bundles {
            spawned.push(rows.world.entities_mut(key).spawn());
            bundle.push_pending(rows.world, key);
        }
        rows.file(spawned);
    })
}

/// Spawns one entity per bundle column by column (the run-time world's `spawn_batch`, see
/// [`AppendColumn`]): each column is appended to its storage at once, then the entities
/// enter their groups.
///
/// # Panics
/// Panics if the bundle type names a component type twice.
pub(crate) fn spawn_batch_by_columns<W: AppendColumn + EditEntities, B: Bundle<W>>(
    world: &mut W,
    key: &W::Key,
    bundles: impl IntoIterator<Item = B>,
) -> Vec<Entity> {
    spawn_batch_with(world, key, bundles, |world, bundles, spawned| {
        let mut columns = B::batch(size_hint::capped(bundles.size_hint().0));
        for bundle in bundles {
            spawned.push(world.entities_mut(key).spawn());
            bundle.push_row(&mut columns);
        }
        B::append_columns(columns, world, key, spawned);
    })
}

/// What both batch spawns share: entities reserved from the iterator's lower bound (up to
/// [`size_hint::capped`]), `fill` spawning one entity per bundle (into `spawned`) and storing
/// its components, then every spawned entity entering its groups, then the insert hooks.
/// Inlined: in the peer benchmark binary the inliner left it a function of its own, which
/// cost W4's spawn 2% more instructions.
#[inline]
fn spawn_batch_with<W: Internals + EditEntities, B: Bundle<W>, I: Iterator<Item = B>>(
    world: &mut W,
    key: &W::Key,
    bundles: impl IntoIterator<Item = B, IntoIter = I>,
    fill: impl FnOnce(&mut W, I, &mut Vec<Entity>),
) -> Vec<Entity> {
    assert!(B::distinct(), "a bundle names a component type twice");
    let bundles = bundles.into_iter();
    // A size hint is a promise nobody checks: it reserves at most `size_hint::CAP` items, and
    // fallibly, and everything grows as items arrive. If the iterator panics, the
    // entities spawned so far stay alive with no component.
    let capacity = size_hint::capped(bundles.size_hint().0);
    world.entities_mut(key).reserve_capacity(capacity);
    let mut spawned = size_hint::vec_with_capacity(capacity);
    fill(world, bundles, &mut spawned);
    for &entity in &spawned {
        world.enter_all_groups(key, entity);
    }
    world.spawned(&spawned);
    spawned
}

/// The world while a spawn pushes its rows: until [`file`](Self::file) files the new
/// entities, the storages' components run ahead of their dense entities, so a panic in
/// between (the bundles' iterator, a full storage) drops the pending components to make
/// every storage consistent again.
struct PendingRows<'w, 'k, W: Internals, B: Bundle<W>> {
    world: &'w mut W,
    key: &'k W::Key,
    bundle: PhantomData<fn(B)>,
}

impl<'w, 'k, W: Internals, B: Bundle<W>> PendingRows<'w, 'k, W, B> {
    fn new(world: &'w mut W, key: &'k W::Key) -> Self {
        Self {
            world,
            key,
            bundle: PhantomData,
        }
    }

    /// Files `entities`, one per pending row, in every storage of the bundle. Always
    /// inlined: out of line (as the peer benchmark binary's inliner chose once the filing
    /// named the storages' orders) a spawn paid a call and its registers.
    #[inline(always)]
    fn file(self, entities: &[Entity]) {
        B::file_pending(self.world, self.key, entities);
        // Every storage is consistent: nothing is left to drop.
        core::mem::forget(self);
    }

    /// [`file`](Self::file) through the storages' indices `at`, as
    /// [`Bundle::push_pending_at`] wrote them (always inlined, as [`file`](Self::file)).
    #[inline(always)]
    fn file_at(self, at: &[usize], entities: &[Entity])
    where
        W: IndexedStorages,
    {
        B::file_pending_at(self.world, self.key, at, entities);
        // Every storage is consistent: nothing is left to drop.
        core::mem::forget(self);
    }
}

impl<W: Internals, B: Bundle<W>> Drop for PendingRows<'_, '_, W, B> {
    fn drop(&mut self) {
        B::drop_pending(self.world, self.key);
    }
}
