//! Spawning with several components at once: bundles and batches.

use core::marker::PhantomData;

use crate::access::AllDistinct;
use crate::component::Component;
use crate::component_set::ComponentSet;
use crate::entity::Entity;
use crate::generated::{Edit, EditEntities, Token};

mod sealed {
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
    fn append_columns(columns: Self::Batch, world: &mut impl AppendColumn, entities: &[Entity]);
    /// Reserves room for `additional` more components in each of the bundle's storages.
    #[doc(hidden)]
    fn reserve_new(world: &mut W, additional: usize);
    /// Pushes each component as pending (see [`Edit::push_pending`]).
    #[doc(hidden)]
    fn push_pending(self, world: &mut W, token: Token);
    /// Files `entities` for the pending components of each storage.
    #[doc(hidden)]
    fn file_pending(world: &mut W, entities: &[Entity], token: Token);
    /// Drops the pending components of each storage that were never filed.
    #[doc(hidden)]
    fn drop_pending(world: &mut W, token: Token);
    /// Inserts each component for an alive entity, through the world's hooks.
    #[doc(hidden)]
    fn insert_each(self, world: &mut W, entity: Entity);
}

macro_rules! bundle {
    ($(($T:ident, $t:ident, $i:tt)),+) => {
        impl<$($T: Component),+> sealed::Sealed for ($($T,)+) {}

        impl<W, $($T: Component),+> Bundle<W> for ($($T,)+)
        where
            W: $(Edit<$T> +)+ AllDistinct<<Self as ComponentSet>::List>,
        {
            type Batch = ($(Vec<$T>,)+);

            #[inline]
            fn batch(capacity: usize) -> Self::Batch {
                ($(try_with_capacity::<$T>(capacity),)+)
            }

            #[inline]
            fn push_row(self, batch: &mut Self::Batch) {
                let ($($t,)+) = self;
                $(batch.$i.push($t);)+
            }

            #[inline]
            fn append_columns(columns: Self::Batch, world: &mut impl AppendColumn, entities: &[Entity]) {
                let ($(mut $t,)+) = columns;
                $(world.append_new::<$T>(entities, &mut $t);)+
            }

            #[inline]
            fn reserve_new(world: &mut W, additional: usize) {
                $(<W as Edit<$T>>::reserve_new(world, additional);)+
            }

            #[inline]
            fn push_pending(self, world: &mut W, token: Token) {
                let ($($t,)+) = self;
                $(<W as Edit<$T>>::push_pending(world, token, $t);)+
            }

            #[inline]
            fn file_pending(world: &mut W, entities: &[Entity], token: Token) {
                $(<W as Edit<$T>>::file_pending(world, token, entities);)+
            }

            fn drop_pending(world: &mut W, token: Token) {
                $(<W as Edit<$T>>::drop_pending(world, token);)+
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
pub trait AppendColumn: EditEntities {
    /// Appends `values` for new `entities` without entering groups.
    fn append_new<T: Component>(&mut self, entities: &[Entity], values: &mut Vec<T>);
}

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
/// Panics if the bundle names a type twice (only the run-time world lets that compile).
#[inline]
pub(crate) fn spawn_with<W: EditEntities, B: Bundle<W>>(world: &mut W, bundle: B) -> Entity {
    assert!(B::distinct(), "a bundle names a component type twice");
    let entity = world.spawn_entity();
    let rows = PendingRows::<W, B>::new(world);
    bundle.push_pending(rows.world, rows.token);
    rows.file(&[entity]);
    world.enter_all_groups(entity);
    entity
}

/// Gives an alive entity (a reserved one, spawned by commands) the components of
/// `bundle`, through the world's hooks: the entity may have been given components since
/// it was reserved.
///
/// # Panics
/// Panics if the bundle names a type twice (only the run-time world lets that compile).
pub(crate) fn fill<W: EditEntities, B: Bundle<W>>(world: &mut W, entity: Entity, bundle: B) {
    assert!(B::distinct(), "a bundle names a component type twice");
    bundle.insert_each(world, entity);
}

/// Spawns one entity per bundle (a `#[world]`'s `spawn_batch`): every storage is reserved
/// once, each bundle's components are pushed straight into their storages as pending
/// rows, then each storage files the new entities in one pass, and the entities enter
/// their groups.
///
/// # Panics
/// Panics if the bundle type names a component type twice (only the run-time world lets
/// that compile).
pub(crate) fn spawn_batch<W: EditEntities, B: Bundle<W>>(
    world: &mut W,
    bundles: impl IntoIterator<Item = B>,
) -> Vec<Entity> {
    spawn_batch_with(world, bundles, |world, bundles, spawned| {
        B::reserve_new(world, bundles.size_hint().0);
        let rows = PendingRows::<W, B>::new(world);
        for bundle in bundles {
            spawned.push(rows.world.spawn_entity());
            bundle.push_pending(rows.world, rows.token);
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
pub(crate) fn spawn_batch_by_columns<W: AppendColumn, B: Bundle<W>>(
    world: &mut W,
    bundles: impl IntoIterator<Item = B>,
) -> Vec<Entity> {
    spawn_batch_with(world, bundles, |world, bundles, spawned| {
        let mut columns = B::batch(bundles.size_hint().0);
        for bundle in bundles {
            spawned.push(world.spawn_entity());
            bundle.push_row(&mut columns);
        }
        B::append_columns(columns, world, spawned);
    })
}

/// What both batch spawns share: entities reserved from the iterator's lower bound,
/// `fill` spawning one entity per bundle (into `spawned`) and storing its components,
/// then every spawned entity entering its groups.
fn spawn_batch_with<W: EditEntities, B: Bundle<W>, I: Iterator<Item = B>>(
    world: &mut W,
    bundles: impl IntoIterator<Item = B, IntoIter = I>,
    fill: impl FnOnce(&mut W, I, &mut Vec<Entity>),
) -> Vec<Entity> {
    assert!(B::distinct(), "a bundle names a component type twice");
    let bundles = bundles.into_iter();
    // Preallocate from the iterator's lower bound; a wrong hint must not turn into a
    // panic or an abort: the column, storage and result reservations are fallible, and
    // the entity reservation is capped. If the iterator panics, the entities spawned so
    // far stay alive with no component.
    let capacity = bundles.size_hint().0;
    world.reserve_entities(capacity.min(1 << 24));
    let mut spawned = try_with_capacity(capacity);
    fill(world, bundles, &mut spawned);
    for &entity in &spawned {
        world.enter_all_groups(entity);
    }
    spawned
}

/// The world while a spawn pushes its rows: until [`file`](Self::file) files the new
/// entities, the storages' components run ahead of their dense entities, so a panic in
/// between (the bundles' iterator, a full storage) drops the pending components to make
/// every storage consistent again.
struct PendingRows<'w, W: EditEntities, B: Bundle<W>> {
    world: &'w mut W,
    token: Token,
    bundle: PhantomData<fn(B)>,
}

impl<'w, W: EditEntities, B: Bundle<W>> PendingRows<'w, W, B> {
    fn new(world: &'w mut W) -> Self {
        Self {
            world,
            token: Token::new(),
            bundle: PhantomData,
        }
    }

    /// Files `entities`, one per pending row, in every storage of the bundle.
    #[inline]
    fn file(self, entities: &[Entity]) {
        B::file_pending(self.world, entities, self.token);
        // Every storage is consistent: nothing is left to drop.
        core::mem::forget(self);
    }
}

impl<W: EditEntities, B: Bundle<W>> Drop for PendingRows<'_, W, B> {
    fn drop(&mut self) {
        B::drop_pending(self.world, self.token);
    }
}
