//! What a view filters on without reading: `With<T>` (the entity has a `T`) and
//! `Without<T>` (it has none), `Added<T>` and `Changed<T>` (its `T` was added, or added or
//! changed, since the world's last tick), and tuples of those (all must hold). `()`
//! filters nothing.
//!
//! A presence filter reads the entity set of its type, which nothing changes while a
//! world is split into parts (structure changes only through `&mut` to the world), so it
//! borrows nothing: a part may filter by a type another part of the same request writes,
//! `(View<&mut Sprite>, View<&Pos, With<Sprite>>)`, and a schedule runs a system filtering
//! by `Sprite` at once with one writing it (see `lend/slot.rs`). When a view is driven by a group whose filter already implies one of the view's
//! filters (the group requires or excludes the type, or the view walks the part of an
//! outer group that a nested group leaves out), that filter costs nothing per entity.

use core::any::TypeId;
use core::marker::PhantomData;

use super::query::{Needs, cat};
use crate::component::Component;
use crate::entity::Entity;
use crate::lend::{AccessError, Cons, LendStorage, List, Nil, TrackChanges, WorldParts};
use crate::storage::{DenseOrder, SetCursor, StampTest};

/// Calls `$then!` with its arguments followed by the name of every filter type: the one
/// list `view_query.rs` generates its impls from (a filter after the query, two after it,
/// one before or between its items).
macro_rules! with_filter_names {
    ($then:ident!($($args:tt)*)) => {
        $then!($($args)* With Without Added Changed);
    };
}
pub(crate) use with_filter_names;

/// In a view's filter: the entity has a `T` (not read).
pub struct With<T>(PhantomData<fn() -> T>);

/// In a view's filter: the entity has no `T`.
pub struct Without<T>(PhantomData<fn() -> T>);

/// In a view's filter: the entity's `T` was added since the world's last
/// [`tick`](crate::World::tick). Needs change detection on `T`'s storage (`#[track(T)]`,
/// [`World::track`](crate::World::track)); reads its stamps, not the storage, so it
/// combines with any access to `T`, `&mut T` included.
pub struct Added<T>(PhantomData<fn() -> T>);

/// In a view's filter: the entity's `T` was added, replaced or handed out mutably since
/// the world's last [`tick`](crate::World::tick). Needs change detection on `T`'s storage
/// (`#[track(T)]`, [`World::track`](crate::World::track)); reads its stamps, not the
/// storage, so it combines with any access to `T`: `view::<(&mut Health, Changed<Health>)>()`.
pub struct Changed<T>(PhantomData<fn() -> T>);

/// Keeps the filter traits to this crate.
mod sealed {
    /// Sealing [`Filter`](super::Filter).
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be a view filter: `Filter` is sealed",
        label = "`Filter` is implemented only by `With<T>`, `Without<T>`, `()` and tuples of them",
        note = "a view walks and tests the entity sets its filter hands it, and a schedule orders systems by the change stamps a filter declares it watches, trusting both: filter with `With<T>`, `Without<T>`, `Added<T>` and `Changed<T>`, e.g. `View<&mut Position, Without<Frozen>>`"
    )]
    pub trait Sealed {}
    /// Sealing [`FilterOf`](super::FilterOf): the filters of a world's stored types.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be a filter of `{W}`: `FilterOf` is sealed",
        label = "`FilterOf` is implemented only by the filters of a world's stored types",
        note = "a view takes its entity sets from the world's parts exactly as its filter declares them: filter with `With<T>` and `Without<T>` over types the world stores"
    )]
    pub trait Of<W> {}
}

/// A view's filter: `With<T>`, `Without<T>`, a tuple of filters (all must hold), or `()`.
/// Sealed.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a view filter",
    label = "not `With<T>`, `Without<T>`, `()` or a tuple of those",
    note = "filters test presence without reading: `View<&mut Position, Without<Frozen>>`"
)]
pub trait Filter: sealed::Sealed {
    /// The borrowed entity sets.
    type Fetch<'w>: Clone + Send + Sync;
    /// The types whose change stamps a change filter reads (`Added`, `Changed`): not
    /// borrowed (a view may write the type it filters by), but a schedule orders a system
    /// watching a type after an earlier one writing it.
    type Watches: List;
    /// The types required (`With`), as a type-level list.
    type Required: List;
    /// The number of presence filters (`With`, `Without`): what a driver can imply.
    #[doc(hidden)]
    const FILTERS: usize;
    /// Whether there is a change filter (`Added`, `Changed`), which no driver implies.
    #[doc(hidden)]
    const CHANGES: bool = false;
    /// Pushes the filters' types, in order.
    #[doc(hidden)]
    fn needs(needs: &mut Needs);
    /// The entities of filter `index`'s storage, in dense order.
    #[doc(hidden)]
    fn entities<'w>(fetch: &Self::Fetch<'w>, index: usize) -> &'w [Entity];
    /// The name of the order filter `index`'s storage holds its entities in (see
    /// `storage/order.rs`): a `With` filter whose storage shares the driver's is implied.
    #[doc(hidden)]
    fn order(fetch: &Self::Fetch<'_>, index: usize) -> DenseOrder;
    /// Marks the filters whose bit is set in `implied` as implied by the driver: not
    /// tested per entity.
    #[doc(hidden)]
    fn imply(fetch: &mut Self::Fetch<'_>, implied: u64);
    /// Whether `entity`, walked from the driver (a set of the same world), passes every
    /// filter not implied by the driver.
    #[doc(hidden)]
    fn matches(fetch: &mut Self::Fetch<'_>, entity: Entity) -> bool;
    /// Whether `entity` passes every filter.
    #[doc(hidden)]
    fn matches_all(fetch: &mut Self::Fetch<'_>, entity: Entity) -> bool;
    /// A copy for a shorter borrow.
    #[doc(hidden)]
    fn reborrow<'a>(fetch: &'a Self::Fetch<'_>) -> Self::Fetch<'a>;
    /// The stamps of a change filter that can drive a walk (see `StampTest::scan`): the
    /// first one, if any.
    #[doc(hidden)]
    #[inline]
    fn scan(fetch: &Self::Fetch<'_>) -> Option<StampTest> {
        let _ = fetch;
        None
    }
    /// Makes the change filters pass the stamps after count `since` (a scheduled
    /// system's last run) instead of those since the last tick.
    #[doc(hidden)]
    #[inline]
    fn since(fetch: &mut Self::Fetch<'_>, since: u32) {
        let _ = (fetch, since);
    }
}

/// A filter over types the world `W` stores.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot filter a view of `{W}`",
    label = "a type of this filter is not stored in this world",
    note = "`With<T>` and `Without<T>` test the storage of `T`: the world must store `T`"
)]
#[doc(hidden)]
pub trait FilterOf<W: WorldParts>: Filter + sealed::Of<W> {
    /// Makes sure the filter's storages exist.
    #[doc(hidden)]
    fn prepare(world: &mut W);
    /// Takes the filter's entity sets from the world's parts.
    #[doc(hidden)]
    fn take<'w>(parts: &mut W::Parts<'w>) -> Result<Self::Fetch<'w>, AccessError>
    where
        W: 'w;
}

/// One filter's entity set and whether the driver implies it.
#[doc(hidden)]
#[derive(Clone)]
pub struct Test<'w> {
    set: SetCursor<'w>,
    implied: bool,
}

macro_rules! filter_leaf {
    ($F:ident, $with:expr, $Required:ty) => {
        #[diagnostic::do_not_recommend]
        impl<T: Component> sealed::Sealed for $F<T> {}

        impl<T: Component> Filter for $F<T> {
            type Fetch<'w> = Test<'w>;
            type Watches = Nil;
            type Required = $Required;
            const FILTERS: usize = 1;

            fn needs(needs: &mut Needs) {
                needs.filters.push((TypeId::of::<T>(), $with));
            }

            #[inline]
            fn entities<'w>(fetch: &Self::Fetch<'w>, _: usize) -> &'w [Entity] {
                fetch.set.dense()
            }

            #[inline]
            fn order(fetch: &Self::Fetch<'_>, _: usize) -> DenseOrder {
                fetch.set.order()
            }

            #[inline]
            fn imply(fetch: &mut Self::Fetch<'_>, implied: u64) {
                fetch.implied = implied & 1 == 1;
            }

            #[inline(always)]
            fn matches(fetch: &mut Self::Fetch<'_>, entity: Entity) -> bool {
                // A walked entity: its index alone tells (see `SetCursor::member`).
                fetch.implied || fetch.set.member(entity).is_some() == $with
            }

            #[inline(always)]
            fn matches_all(fetch: &mut Self::Fetch<'_>, entity: Entity) -> bool {
                fetch.set.index_of(entity).is_some() == $with
            }

            #[inline]
            fn reborrow<'a>(fetch: &'a Self::Fetch<'_>) -> Self::Fetch<'a> {
                fetch.clone()
            }
        }

        #[diagnostic::do_not_recommend]
        impl<W: LendStorage<T>, T: Component> sealed::Of<W> for $F<T> {}

        impl<W: LendStorage<T>, T: Component> FilterOf<W> for $F<T> {
            fn prepare(world: &mut W) {
                W::prepare(world);
            }

            #[inline(always)]
            fn take<'w>(parts: &mut W::Parts<'w>) -> Result<Self::Fetch<'w>, AccessError>
            where
                W: 'w,
            {
                Ok(Test {
                    set: W::slot(parts)?.set()?.cursor(),
                    implied: false,
                })
            }
        }
    };
}

filter_leaf!(With, true, Cons<T, Nil>);
filter_leaf!(Without, false, Nil);

/// `Added<T>` and `Changed<T>`: they borrow nothing (their stamps are atomics the storage
/// shares), so the compile-time rule lets them beside `&mut T`; and they never drive a
/// view (no set of their own: zero filters for the driver, tested on every entity).
macro_rules! change_filter {
    ($F:ident, $test:ident) => {
        #[diagnostic::do_not_recommend]
        impl<T: Component> sealed::Sealed for $F<T> {}

        impl<T: Component> Filter for $F<T> {
            type Fetch<'w> = StampTest;
            type Watches = Cons<T, Nil>;
            type Required = Nil;
            const FILTERS: usize = 0;
            const CHANGES: bool = true;

            fn needs(_: &mut Needs) {}

            fn entities<'w>(_: &Self::Fetch<'w>, _: usize) -> &'w [Entity] {
                &[]
            }

            fn order(_: &Self::Fetch<'_>, _: usize) -> DenseOrder {
                DenseOrder::UNKNOWN
            }

            fn imply(_: &mut Self::Fetch<'_>, _: u64) {}

            #[inline(always)]
            fn matches(fetch: &mut Self::Fetch<'_>, entity: Entity) -> bool {
                // A stamp is set exactly where a component is (see `ChangeTicks`): a
                // walked entity is the one live owner of its index.
                fetch.test(entity.index())
            }

            #[inline(always)]
            fn matches_all(fetch: &mut Self::Fetch<'_>, entity: Entity) -> bool {
                fetch.test(entity.index())
            }

            #[inline]
            fn reborrow<'a>(fetch: &'a Self::Fetch<'_>) -> Self::Fetch<'a> {
                fetch.clone()
            }

            #[inline]
            fn scan(fetch: &Self::Fetch<'_>) -> Option<StampTest> {
                fetch.scannable().then(|| fetch.clone())
            }

            #[inline]
            fn since(fetch: &mut Self::Fetch<'_>, since: u32) {
                fetch.since(since);
            }
        }

        #[diagnostic::do_not_recommend]
        impl<W: TrackChanges<T>, T: Component> sealed::Of<W> for $F<T> {}

        impl<W: TrackChanges<T>, T: Component> FilterOf<W> for $F<T> {
            fn prepare(world: &mut W) {
                W::prepare(world);
            }

            #[inline]
            fn take<'w>(parts: &mut W::Parts<'w>) -> Result<Self::Fetch<'w>, AccessError>
            where
                W: 'w,
            {
                Ok(StampTest::$test(W::slot(parts)?.change_ticks()?))
            }
        }
    };
}

change_filter!(Added, added);
change_filter!(Changed, changed);

#[diagnostic::do_not_recommend]
impl sealed::Sealed for () {}

impl Filter for () {
    type Fetch<'w> = ();
    type Watches = Nil;
    type Required = Nil;
    const FILTERS: usize = 0;

    fn needs(_: &mut Needs) {}

    fn entities<'w>(_: &Self::Fetch<'w>, _: usize) -> &'w [Entity] {
        &[]
    }

    fn order(_: &Self::Fetch<'_>, _: usize) -> DenseOrder {
        DenseOrder::UNKNOWN
    }

    fn imply(_: &mut Self::Fetch<'_>, _: u64) {}

    #[inline(always)]
    fn matches(_: &mut Self::Fetch<'_>, _: Entity) -> bool {
        true
    }

    #[inline(always)]
    fn matches_all(_: &mut Self::Fetch<'_>, _: Entity) -> bool {
        true
    }

    fn reborrow<'a>(_: &'a Self::Fetch<'_>) -> Self::Fetch<'a> {}
}

#[diagnostic::do_not_recommend]
impl<W: WorldParts> sealed::Of<W> for () {}

impl<W: WorldParts> FilterOf<W> for () {
    fn prepare(_: &mut W) {}

    #[inline(always)]
    fn take<'w>(_: &mut W::Parts<'w>) -> Result<Self::Fetch<'w>, AccessError>
    where
        W: 'w,
    {
        Ok(())
    }
}

macro_rules! filter_tuple {
    ($(($F:ident, $f:ident, $i:tt)),+) => {
        #[diagnostic::do_not_recommend]
        impl<$($F: Filter),+> sealed::Sealed for ($($F,)+) {}

        impl<$($F: Filter),+> Filter for ($($F,)+) {
            type Fetch<'w> = ($($F::Fetch<'w>,)+);
            type Watches = cat!($($F::Watches,)+ Nil);
            type Required = cat!($($F::Required,)+ Nil);
            const FILTERS: usize = 0 $(+ $F::FILTERS)+;
            const CHANGES: bool = false $(|| $F::CHANGES)+;

            fn needs(needs: &mut Needs) {
                $($F::needs(needs);)+
            }

            #[inline]
            fn entities<'w>(fetch: &Self::Fetch<'w>, mut index: usize) -> &'w [Entity] {
                $(
                    if index < $F::FILTERS {
                        return $F::entities(&fetch.$i, index);
                    }
                    index -= $F::FILTERS;
                )+
                let _ = index;
                &[]
            }

            #[inline]
            fn order(fetch: &Self::Fetch<'_>, mut index: usize) -> DenseOrder {
                $(
                    if index < $F::FILTERS {
                        return $F::order(&fetch.$i, index);
                    }
                    index -= $F::FILTERS;
                )+
                let _ = index;
                DenseOrder::UNKNOWN
            }

            #[inline]
            fn imply(fetch: &mut Self::Fetch<'_>, mut implied: u64) {
                $(
                    $F::imply(&mut fetch.$i, implied);
                    implied = implied.checked_shr($F::FILTERS as u32).unwrap_or(0);
                )+
                let _ = implied;
            }

            #[inline(always)]
            fn matches(fetch: &mut Self::Fetch<'_>, entity: Entity) -> bool {
                $($F::matches(&mut fetch.$i, entity))&&+
            }

            #[inline(always)]
            fn matches_all(fetch: &mut Self::Fetch<'_>, entity: Entity) -> bool {
                $($F::matches_all(&mut fetch.$i, entity))&&+
            }

            #[inline]
            fn reborrow<'a>(fetch: &'a Self::Fetch<'_>) -> Self::Fetch<'a> {
                ($($F::reborrow(&fetch.$i),)+)
            }

            #[inline]
            fn scan(fetch: &Self::Fetch<'_>) -> Option<StampTest> {
                None $(.or_else(|| $F::scan(&fetch.$i)))+
            }

            #[inline]
            fn since(fetch: &mut Self::Fetch<'_>, since: u32) {
                $($F::since(&mut fetch.$i, since);)+
            }
        }

        #[diagnostic::do_not_recommend]
        impl<W: WorldParts, $($F: FilterOf<W>),+> sealed::Of<W> for ($($F,)+) {}

        impl<W: WorldParts, $($F: FilterOf<W>),+> FilterOf<W> for ($($F,)+) {
            fn prepare(world: &mut W) {
                $($F::prepare(world);)+
            }

            #[inline(always)]
            fn take<'w>(parts: &mut W::Parts<'w>) -> Result<Self::Fetch<'w>, AccessError>
            where
                W: 'w,
            {
                Ok(($($F::take(parts)?,)+))
            }
        }
    };
}

for_each_tuple!(filter_tuple);
