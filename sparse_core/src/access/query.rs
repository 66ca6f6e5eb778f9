//! What a view asks for: `&T`, `&mut T`, `Mut<T>`, `Option<&T>`, `Option<&mut T>`,
//! `Option<Mut<T>>`, and tuples of those (nested as you like), each element a *leaf*.
//!
//! A query states, as type-level lists, the component types it writes and reads (the
//! compile-time borrow rule checks them) and those it requires (a view needs at least one
//! to be driven by). At run time a view decides once which leaves are *aligned* with its
//! driver (the driver is a group owning their storages, or their own storage) and reads
//! those by position, the others by entity lookup.

use core::any::TypeId;

use super::mut_guard::Mut;
use crate::component::Component;
use crate::entity::Entity;
use crate::lend::{AccessError, Cons, LendStorage, List, Nil, WorldParts};
use crate::storage::{ColumnMut, ColumnRef, DenseOrder};

/// Keeps the query traits to this crate: what a query declares it borrows is what the
/// compile-time rule checks, and what its fetch reaches must match it.
pub(crate) mod sealed {
    /// Sealing [`Query`](super::Query).
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be a view query: `Query` is sealed",
        label = "`Query` is implemented only by `&T`, `&mut T`, `Mut<T>`, `Option<…>` of those and tuples of them",
        note = "a query declares the storages it borrows, and the compile-time borrow rule trusts the declaration: name components by reference, e.g. `view::<(&mut Position, &Velocity)>()`"
    )]
    pub trait Sealed {}
    /// Sealing [`ReadOnlyQuery`](super::ReadOnlyQuery): only queries holding shared
    /// borrows.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be a read-only query: `ReadOnlyQuery` is sealed (only `&T`, `Option<&T>` and tuples of them read without writing)",
        label = "`ReadOnlyQuery` is implemented only by the queries that never write",
        note = "read-only access (`view_ref`, `borrow_ref`, `&View`) is checked at compile time: a query writing through `&self` would alias the world's other shared borrows"
    )]
    pub trait ReadOnly {}
    /// Sealing [`QueryOf`](super::QueryOf): the queries of a world's stored types.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be a query of `{W}`: `QueryOf` is sealed",
        label = "`QueryOf` is implemented only by the queries of a world's stored types",
        note = "a view takes its storages from the world's parts exactly as its query declares them: name components by reference, e.g. `view::<(&mut Position, &Velocity)>()`"
    )]
    pub trait Of<W> {}
}

/// The leaves of a view's query and filter, in order: what choosing its driver needs.
#[doc(hidden)]
#[derive(Clone, Default)]
pub struct Needs {
    /// Each query leaf's type and whether it is required (not an `Option`).
    pub(crate) leaves: Vec<(TypeId, bool)>,
    /// Each filter's type and whether it requires the type (`With`) or excludes it.
    pub(crate) filters: Vec<(TypeId, bool)>,
}

/// The query of a view: `&T`, `&mut T`, `Mut<T>`, `Option<…>` of those, or a tuple of
/// queries (up to 16 per tuple). Sealed.
///
/// | element | yields | requires `T` | borrows `T` |
/// | --- | --- | --- | --- |
/// | `&T` | `&T` | yes | shared |
/// | `&mut T` | `&mut T` | yes | mutably |
/// | `Option<&T>` | `Option<&T>` | no | shared |
/// | `Option<&mut T>` | `Option<&mut T>` | no | mutably |
/// | `Mut<T>` | [`Mut<T>`](crate::Mut), stamped changed when written | yes | mutably |
/// | `Option<Mut<T>>` | `Option<Mut<T>>` | no | mutably |
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a view query",
    label = "not `&T`, `&mut T`, `Mut<T>`, `Option<…>` of those, or a tuple of those",
    note = "a view names the components it reads by reference, e.g. `view::<(&mut Position, &Velocity)>()`; filters follow them in the same tuple: `view::<(&mut Position, Without<Frozen>)>()`"
)]
pub trait Query: sealed::Sealed {
    /// What the view yields per entity.
    type Item<'w>;
    /// The borrowed storages.
    type Fetch<'w>: Send + Sync;
    /// The types written, as a type-level list.
    type Writes: List;
    /// The types read, as a type-level list.
    type Reads: List;
    /// The types required, as a type-level list.
    type Required: List;
    /// The number of leaves.
    #[doc(hidden)]
    const LEAVES: usize;
    /// Pushes the leaves' types, in order.
    #[doc(hidden)]
    fn needs(needs: &mut Needs);
    /// The entities of leaf `leaf`'s storage, in dense order.
    #[doc(hidden)]
    fn entities<'w>(fetch: &Self::Fetch<'w>, leaf: usize) -> &'w [Entity];
    /// The name of the order leaf `leaf`'s storage holds its entities in (see
    /// `storage/order.rs`): leaves whose storages share the driver's are read by position.
    #[doc(hidden)]
    fn order(fetch: &Self::Fetch<'_>, leaf: usize) -> DenseOrder;
    /// The length of leaf `leaf`'s storage.
    #[doc(hidden)]
    fn leaf_len(fetch: &Self::Fetch<'_>, leaf: usize) -> usize {
        Self::entities(fetch, leaf).len()
    }
    /// Marks the leaves whose bit is set in `aligned` (bit 0: the first leaf) as aligned
    /// with the driver: read at the driver's position instead of looked up.
    #[doc(hidden)]
    fn align(fetch: &mut Self::Fetch<'_>, aligned: u64);
    /// The item of `entity`, at `position` in the driver's storages; `None` if a required
    /// leaf that is not aligned lacks the entity. `aligned` is the mask the fetch was
    /// aligned with (see [`align`](Query::align)), passed again so that a loop can hold it
    /// in a register (and the compiler specialize the loop for it). `entity` is walked from the driver (a
    /// set of the same world): leaves that are not aligned find it by its index alone.
    /// Its `&mut` leaves are stamped changed (tracked storages) only once every leaf has
    /// found it: an entity the view does not yield is not marked.
    ///
    /// # Safety
    /// `position` is in bounds of every aligned leaf's storage and holds `entity` there,
    /// and no item for `entity` obtained from this fetch (or a handle shared with it, see
    /// [`share`](Query::share)) is alive.
    #[doc(hidden)]
    #[inline(always)]
    unsafe fn fetch<'w>(
        fetch: &mut Self::Fetch<'w>,
        entity: Entity,
        position: usize,
        aligned: u64,
    ) -> Option<Self::Item<'w>> {
        // SAFETY: forwarded (caller).
        let item = unsafe { Self::fetch_unmarked(fetch, entity, position, aligned) }?;
        Self::mark(fetch, entity, &item);
        Some(item)
    }
    /// [`fetch`](Query::fetch) without the stamps: what a tuple's leaves do before the
    /// whole item is known to exist.
    ///
    /// # Safety
    /// As for [`fetch`](Query::fetch).
    #[doc(hidden)]
    unsafe fn fetch_unmarked<'w>(
        fetch: &mut Self::Fetch<'w>,
        entity: Entity,
        position: usize,
        aligned: u64,
    ) -> Option<Self::Item<'w>>;
    /// Stamps the values `item` (of `entity`, from this fetch) hands out mutably changed,
    /// where their storage is tracked.
    #[doc(hidden)]
    #[inline(always)]
    fn mark(fetch: &Self::Fetch<'_>, entity: Entity, item: &Self::Item<'_>) {
        let _ = (fetch, entity, item);
    }
    /// The item at `position`, every leaf aligned.
    ///
    /// # Safety
    /// Every leaf is aligned, `position` is in bounds of every leaf's storage, and no item
    /// for this position obtained from this fetch is alive.
    #[doc(hidden)]
    unsafe fn fetch_aligned<'w>(fetch: &mut Self::Fetch<'w>, position: usize) -> Self::Item<'w>;
    /// Starts a *run* at `walked[0]`, the walked entity at the driver's `position`: each
    /// leaf that is not aligned finds it by its index and notes where, and the run lasts
    /// as long as every such leaf holds `walked` in the same order from there (compared,
    /// never assumed), so that the run's items are read by position, with no lookup.
    /// `None` if a required leaf lacks `walked[0]`; `Some(0)` if a leaf holds another
    /// version of its index (a broken world: [`fetch`](Query::fetch) decides then); an
    /// optional leaf without `walked[0]` ends the run after it.
    #[doc(hidden)]
    fn run(fetch: &mut Self::Fetch<'_>, walked: &[Entity], position: usize) -> Option<usize>;
    /// Continues the run last started by [`run`](Query::run) on this fetch, all of whose
    /// entities so far matched, with `walked`, the walked entities from the driver's
    /// `position` on, right after the run so far: how many of them every leaf that is
    /// not aligned holds in the same order where the run left it (compared, never
    /// assumed; no lookup).
    #[doc(hidden)]
    fn run_on(fetch: &mut Self::Fetch<'_>, walked: &[Entity], position: usize) -> usize;
    /// After [`fetch`](Query::fetch) found no item for a walked entity: how many of
    /// `walked`, the walked entities right after it, certainly have none either, known
    /// without a lookup each (a required leaf that is not aligned, whose lookup cursor
    /// holds an empty sparse page, lacks every entity of that page). Zero unless known.
    #[doc(hidden)]
    #[inline(always)]
    fn certain_misses(fetch: &Self::Fetch<'_>, walked: &[Entity]) -> usize {
        let _ = (fetch, walked);
        0
    }
    /// The item at the driver's `position`, inside the run last started.
    ///
    /// # Safety
    /// `position` is in bounds of every aligned leaf's storage, within the run last
    /// started by [`run`](Query::run) on this fetch (and continued by
    /// [`run_on`](Query::run_on)), or on the fetch this one was shared from before the
    /// share (a shared handle carries the run's offsets), below the end of the run as last
    /// compared; and no item for this position obtained from this fetch (or a handle
    /// shared with it) is alive.
    #[doc(hidden)]
    unsafe fn fetch_run<'w>(fetch: &mut Self::Fetch<'w>, position: usize) -> Self::Item<'w>;
    /// The item of `entity`, every leaf looked up; its `&mut` leaves stamped as
    /// [`fetch`](Query::fetch) does.
    ///
    /// # Safety
    /// No item for `entity` obtained from this fetch is alive.
    #[doc(hidden)]
    #[inline(always)]
    unsafe fn lookup<'w>(fetch: &mut Self::Fetch<'w>, entity: Entity) -> Option<Self::Item<'w>> {
        // SAFETY: forwarded (caller).
        let item = unsafe { Self::lookup_unmarked(fetch, entity) }?;
        Self::mark(fetch, entity, &item);
        Some(item)
    }
    /// [`lookup`](Query::lookup) without the stamps.
    ///
    /// # Safety
    /// As for [`lookup`](Query::lookup).
    #[doc(hidden)]
    unsafe fn lookup_unmarked<'w>(
        fetch: &mut Self::Fetch<'w>,
        entity: Entity,
    ) -> Option<Self::Item<'w>>;
    /// The same fetch for a shorter borrow.
    #[doc(hidden)]
    fn reborrow<'a>(fetch: &'a mut Self::Fetch<'_>) -> Self::Fetch<'a>;
    /// The leaves whose bit is set in `whole` will hand out every component of their
    /// storage (a dense walk over all of it): a tracked `&mut` leaf stamps them all at
    /// once instead of one by one.
    #[doc(hidden)]
    #[inline]
    fn whole(fetch: &mut Self::Fetch<'_>, whole: u64) {
        let _ = (fetch, whole);
    }
    /// Another handle on the same fetch: for a worker of a parallel loop, or for a window
    /// of a run of a walk read through a copy held in a local (see `View::run_from`).
    ///
    /// # Safety
    /// The handles never yield items of the same entity, and the fetch is not used
    /// otherwise while they live.
    #[doc(hidden)]
    unsafe fn share<'w>(fetch: &Self::Fetch<'w>) -> Self::Fetch<'w>;
}

/// A query that only reads: what a view borrowed through `&self` may ask for.
#[diagnostic::on_unimplemented(
    message = "`{Self}` writes, but this access is read-only",
    label = "`&mut T` or `Mut<T>` in a read-only view",
    note = "read-only access (`view_ref`, `borrow_ref`, `&View`) takes `&T` and `Option<&T>` only; use `view` / `borrow` through `&mut` to write"
)]
pub trait ReadOnlyQuery: Query + sealed::ReadOnly {
    /// A copy of the fetch (it holds shared borrows only).
    #[doc(hidden)]
    fn copy<'w>(fetch: &Self::Fetch<'w>) -> Self::Fetch<'w>;
}

/// A query whose storages the world `W` can lend.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a view query",
    label = "a view names components by reference: `&{Self}`, `&mut {Self}`, `Option<&{Self}>`",
    note = "a view's query is `&T`, `&mut T`, `Mut<T>`, `Option<…>` of those, or a tuple of those, e.g. `view::<(&mut Position, &Velocity)>()`"
)]
#[doc(hidden)]
pub trait QueryOf<W: WorldParts>: Query + sealed::Of<W> {
    /// Makes sure the query's storages exist.
    #[doc(hidden)]
    fn prepare(world: &mut W);
    /// Takes the query's storages from the world's parts.
    #[doc(hidden)]
    fn take<'w>(parts: &mut W::Parts<'w>) -> Result<Self::Fetch<'w>, AccessError>
    where
        W: 'w;
}

/// One leaf's borrowed storage, whether it is aligned with the driver, and where the
/// current run finds it (see [`Query::run`]).
#[doc(hidden)]
pub struct Leaf<C> {
    column: C,
    aligned: bool,
    /// In the current run, the leaf's position of the driver's position `p` is
    /// `p + offset` (wrapping); zero for an aligned leaf.
    offset: usize,
    /// In the current run, whether an optional leaf has the entities at all.
    present: bool,
}

impl<C> Leaf<C> {
    fn new(column: C) -> Self {
        Leaf {
            column,
            aligned: false,
            offset: 0,
            present: false,
        }
    }
}

macro_rules! leaf_common {
    () => {
        const LEAVES: usize = 1;

        #[inline]
        fn entities<'w>(fetch: &Self::Fetch<'w>, _: usize) -> &'w [Entity] {
            fetch.column.entities()
        }

        #[inline]
        fn order(fetch: &Self::Fetch<'_>, _: usize) -> DenseOrder {
            fetch.column.order()
        }

        #[inline]
        fn align(fetch: &mut Self::Fetch<'_>, aligned: u64) {
            fetch.aligned = aligned & 1 == 1;
            fetch.offset = 0;
            fetch.present = fetch.aligned;
        }

        #[inline(always)]
        fn run_on(fetch: &mut Self::Fetch<'_>, walked: &[Entity], position: usize) -> usize {
            if fetch.aligned {
                return walked.len();
            }
            // An optional leaf without the run's entities ended it after its first.
            if !fetch.present {
                return 0;
            }
            match fetch
                .column
                .entities()
                .get(position.wrapping_add(fetch.offset)..)
            {
                Some(held) => crate::group::common_prefix(walked, held),
                None => 0,
            }
        }
    };
}

/// [`Query::certain_misses`] for a required leaf: what its cursor's empty page rules out.
macro_rules! required_leaf_misses {
    () => {
        #[inline(always)]
        fn certain_misses(fetch: &Self::Fetch<'_>, walked: &[Entity]) -> usize {
            if fetch.aligned {
                0
            } else {
                fetch.column.absent_prefix(walked)
            }
        }
    };
}

/// [`Query::run`] for one leaf: the run of walked entities its storage holds in the same
/// order, from where it finds `walked[0]` (an aligned leaf constrains nothing).
macro_rules! leaf_run {
    ($fetch:expr, $walked:expr, $position:expr, $absent:expr) => {{
        let fetch = $fetch;
        if fetch.aligned {
            return Some($walked.len());
        }
        let Some(found) = fetch.column.member_position($walked[0]) else {
            fetch.present = false;
            return $absent;
        };
        fetch.present = true;
        fetch.offset = found.wrapping_sub($position);
        Some(Self::run_on(fetch, $walked, $position))
    }};
}

/// `QueryOf` for a leaf that takes its storage as leaf `$base` does (an optional leaf, a
/// guard): the same slot, the same fetch.
macro_rules! query_of_as {
    ($leaf:ty => $base:ty) => {
        #[diagnostic::do_not_recommend]
        impl<W: LendStorage<T>, T: Component> sealed::Of<W> for $leaf {}

        impl<W: LendStorage<T>, T: Component> QueryOf<W> for $leaf {
            fn prepare(world: &mut W) {
                W::prepare(world);
            }

            #[inline(always)]
            fn take<'w>(parts: &mut W::Parts<'w>) -> Result<Self::Fetch<'w>, AccessError>
            where
                W: 'w,
            {
                <$base as QueryOf<W>>::take(parts)
            }
        }
    };
}

/// The methods of an optional leaf, `Option<$inner>`: what it needs (its type, not
/// required), `$inner`'s fetches with a missing component given as `None` rather than
/// as a miss, a run that constrains nothing, and `$inner`'s fetch as it is.
macro_rules! optional_leaf {
    ($inner:ty) => {
        fn needs(needs: &mut Needs) {
            needs.leaves.push((TypeId::of::<T>(), false));
        }

        #[inline(always)]
        unsafe fn fetch_unmarked<'w>(
            fetch: &mut Self::Fetch<'w>,
            entity: Entity,
            position: usize,
            aligned: u64,
        ) -> Option<Self::Item<'w>> {
            // SAFETY: forwarded (caller).
            Some(unsafe { <$inner as Query>::fetch_unmarked(fetch, entity, position, aligned) })
        }

        #[inline(always)]
        unsafe fn fetch_aligned<'w>(
            fetch: &mut Self::Fetch<'w>,
            position: usize,
        ) -> Self::Item<'w> {
            // SAFETY: forwarded (caller).
            Some(unsafe { <$inner as Query>::fetch_aligned(fetch, position) })
        }

        #[inline(always)]
        fn run(fetch: &mut Self::Fetch<'_>, walked: &[Entity], position: usize) -> Option<usize> {
            leaf_run!(fetch, walked, position, Some(1))
        }

        #[inline(always)]
        unsafe fn fetch_run<'w>(fetch: &mut Self::Fetch<'w>, position: usize) -> Self::Item<'w> {
            if fetch.present {
                // SAFETY: forwarded (caller).
                Some(unsafe { <$inner as Query>::fetch_run(fetch, position) })
            } else {
                None
            }
        }

        #[inline(always)]
        unsafe fn lookup_unmarked<'w>(
            fetch: &mut Self::Fetch<'w>,
            entity: Entity,
        ) -> Option<Self::Item<'w>> {
            // SAFETY: forwarded (caller).
            Some(unsafe { <$inner as Query>::lookup_unmarked(fetch, entity) })
        }

        #[inline]
        fn reborrow<'a>(fetch: &'a mut Self::Fetch<'_>) -> Self::Fetch<'a> {
            <$inner as Query>::reborrow(fetch)
        }

        unsafe fn share<'w>(fetch: &Self::Fetch<'w>) -> Self::Fetch<'w> {
            // SAFETY: forwarded from the caller.
            unsafe { <$inner as Query>::share(fetch) }
        }
    };
}

#[diagnostic::do_not_recommend]
impl<T: Component> sealed::Sealed for &T {}

impl<T: Component> Query for &T {
    type Item<'w> = &'w T;
    type Fetch<'w> = Leaf<ColumnRef<'w, T>>;
    type Writes = Nil;
    type Reads = Cons<T, Nil>;
    type Required = Cons<T, Nil>;

    leaf_common!();
    required_leaf_misses!();

    fn needs(needs: &mut Needs) {
        needs.leaves.push((TypeId::of::<T>(), true));
    }

    #[inline(always)]
    unsafe fn fetch_unmarked<'w>(
        fetch: &mut Self::Fetch<'w>,
        entity: Entity,
        position: usize,
        aligned: u64,
    ) -> Option<&'w T> {
        if aligned & 1 == 1 {
            // SAFETY: aligned leaves hold `entity` at `position` (caller).
            Some(unsafe { fetch.column.at(position) })
        } else {
            // A walked entity: its index alone finds it (see `SetCursor::member`).
            fetch.column.member(entity)
        }
    }

    #[inline(always)]
    unsafe fn fetch_aligned<'w>(fetch: &mut Self::Fetch<'w>, position: usize) -> &'w T {
        // SAFETY: in bounds (caller).
        unsafe { fetch.column.at(position) }
    }

    #[inline(always)]
    fn run(fetch: &mut Self::Fetch<'_>, walked: &[Entity], position: usize) -> Option<usize> {
        leaf_run!(fetch, walked, position, None)
    }

    #[inline(always)]
    unsafe fn fetch_run<'w>(fetch: &mut Self::Fetch<'w>, position: usize) -> &'w T {
        // SAFETY: an aligned leaf's offset is zero and `position` in its bounds; another
        // holds the run's entities from `position + offset` on, compared by `run` and
        // `run_on` (caller: `position` is within the run as compared).
        unsafe { fetch.column.at(position.wrapping_add(fetch.offset)) }
    }

    #[inline(always)]
    unsafe fn lookup_unmarked<'w>(fetch: &mut Self::Fetch<'w>, entity: Entity) -> Option<&'w T> {
        fetch.column.get(entity)
    }

    #[inline]
    fn reborrow<'a>(fetch: &'a mut Self::Fetch<'_>) -> Self::Fetch<'a> {
        Leaf {
            column: fetch.column.clone(),
            ..*fetch
        }
    }

    unsafe fn share<'w>(fetch: &Self::Fetch<'w>) -> Self::Fetch<'w> {
        Leaf {
            column: fetch.column.clone(),
            ..*fetch
        }
    }
}

#[diagnostic::do_not_recommend]
impl<T: Component> sealed::ReadOnly for &T {}

impl<T: Component> ReadOnlyQuery for &T {
    #[inline]
    fn copy<'w>(fetch: &Self::Fetch<'w>) -> Self::Fetch<'w> {
        Leaf {
            column: fetch.column.clone(),
            ..*fetch
        }
    }
}

#[diagnostic::do_not_recommend]
impl<W: LendStorage<T>, T: Component> sealed::Of<W> for &T {}

impl<W: LendStorage<T>, T: Component> QueryOf<W> for &T {
    fn prepare(world: &mut W) {
        W::prepare(world);
    }

    #[inline(always)]
    fn take<'w>(parts: &mut W::Parts<'w>) -> Result<Self::Fetch<'w>, AccessError>
    where
        W: 'w,
    {
        Ok(Leaf::new(ColumnRef::new(W::slot(parts)?.take_shared()?)))
    }
}

#[diagnostic::do_not_recommend]
impl<T: Component> sealed::Sealed for &mut T {}

impl<T: Component> Query for &mut T {
    type Item<'w> = &'w mut T;
    type Fetch<'w> = Leaf<ColumnMut<'w, T>>;
    type Writes = Cons<T, Nil>;
    type Reads = Nil;
    type Required = Cons<T, Nil>;

    leaf_common!();
    required_leaf_misses!();

    #[inline]
    fn whole(fetch: &mut Self::Fetch<'_>, whole: u64) {
        if whole & 1 == 1 {
            fetch.column.mark_all_changed();
        }
    }

    fn needs(needs: &mut Needs) {
        needs.leaves.push((TypeId::of::<T>(), true));
    }

    #[inline(always)]
    unsafe fn fetch_unmarked<'w>(
        fetch: &mut Self::Fetch<'w>,
        entity: Entity,
        position: usize,
        aligned: u64,
    ) -> Option<&'w mut T> {
        if aligned & 1 == 1 {
            // SAFETY: aligned leaves hold `entity` at `position`, and no item for it is
            // alive (caller).
            Some(unsafe { fetch.column.at_unmarked(position) })
        } else {
            // SAFETY: no item for `entity` is alive (caller). A walked entity: its index
            // alone finds it (see `SetCursor::member`).
            unsafe { fetch.column.member_unmarked(entity) }
        }
    }

    #[inline(always)]
    fn mark(fetch: &Self::Fetch<'_>, entity: Entity, _: &&mut T) {
        fetch.column.mark(entity);
    }

    #[inline(always)]
    unsafe fn fetch_aligned<'w>(fetch: &mut Self::Fetch<'w>, position: usize) -> &'w mut T {
        // SAFETY: in bounds, not aliased (caller).
        unsafe { fetch.column.at(position) }
    }

    #[inline(always)]
    fn run(fetch: &mut Self::Fetch<'_>, walked: &[Entity], position: usize) -> Option<usize> {
        leaf_run!(fetch, walked, position, None)
    }

    #[inline(always)]
    unsafe fn fetch_run<'w>(fetch: &mut Self::Fetch<'w>, position: usize) -> &'w mut T {
        // SAFETY: as for `&T` (the run's positions hold distinct walked entities), and no
        // item for this position is alive (caller).
        unsafe { fetch.column.at(position.wrapping_add(fetch.offset)) }
    }

    #[inline(always)]
    unsafe fn lookup_unmarked<'w>(
        fetch: &mut Self::Fetch<'w>,
        entity: Entity,
    ) -> Option<&'w mut T> {
        // SAFETY: not aliased (caller).
        unsafe { fetch.column.get_unmarked(entity) }
    }

    #[inline]
    fn reborrow<'a>(fetch: &'a mut Self::Fetch<'_>) -> Self::Fetch<'a> {
        Leaf {
            column: fetch.column.reborrow(),
            aligned: fetch.aligned,
            offset: fetch.offset,
            present: fetch.present,
        }
    }

    unsafe fn share<'w>(fetch: &Self::Fetch<'w>) -> Self::Fetch<'w> {
        Leaf {
            aligned: fetch.aligned,
            offset: fetch.offset,
            present: fetch.present,
            // SAFETY: forwarded from the caller.
            column: unsafe { fetch.column.share() },
        }
    }
}

#[diagnostic::do_not_recommend]
impl<W: LendStorage<T>, T: Component> sealed::Of<W> for &mut T {}

impl<W: LendStorage<T>, T: Component> QueryOf<W> for &mut T {
    fn prepare(world: &mut W) {
        W::prepare(world);
    }

    #[inline(always)]
    fn take<'w>(parts: &mut W::Parts<'w>) -> Result<Self::Fetch<'w>, AccessError>
    where
        W: 'w,
    {
        Ok(Leaf::new(ColumnMut::new(W::slot(parts)?.take_mut()?)))
    }
}

#[diagnostic::do_not_recommend]
impl<T: Component> sealed::Sealed for Option<&T> {}

impl<T: Component> Query for Option<&T> {
    type Item<'w> = Option<&'w T>;
    type Fetch<'w> = Leaf<ColumnRef<'w, T>>;
    type Writes = Nil;
    type Reads = Cons<T, Nil>;
    type Required = Nil;

    leaf_common!();
    optional_leaf!(&T);
}

#[diagnostic::do_not_recommend]
impl<T: Component> sealed::ReadOnly for Option<&T> {}

impl<T: Component> ReadOnlyQuery for Option<&T> {
    #[inline]
    fn copy<'w>(fetch: &Self::Fetch<'w>) -> Self::Fetch<'w> {
        <&T as ReadOnlyQuery>::copy(fetch)
    }
}

query_of_as!(Option<&T> => &T);

#[diagnostic::do_not_recommend]
impl<T: Component> sealed::Sealed for Option<&mut T> {}

impl<T: Component> Query for Option<&mut T> {
    type Item<'w> = Option<&'w mut T>;
    type Fetch<'w> = Leaf<ColumnMut<'w, T>>;
    type Writes = Cons<T, Nil>;
    type Reads = Nil;
    type Required = Nil;

    leaf_common!();
    optional_leaf!(&mut T);

    #[inline]
    fn whole(fetch: &mut Self::Fetch<'_>, whole: u64) {
        if whole & 1 == 1 {
            fetch.column.mark_all_changed();
        }
    }

    #[inline(always)]
    fn mark(fetch: &Self::Fetch<'_>, entity: Entity, item: &Option<&mut T>) {
        if item.is_some() {
            fetch.column.mark(entity);
        }
    }
}

query_of_as!(Option<&mut T> => &mut T);

#[diagnostic::do_not_recommend]
impl<T: Component> sealed::Sealed for Mut<'_, T> {}

/// `Mut<T>`: `&mut T`'s borrow and walk, its value wrapped with its stamp, which the
/// guard marks on write (so nothing is marked when the item is fetched).
impl<T: Component> Query for Mut<'_, T> {
    type Item<'w> = Mut<'w, T>;
    type Fetch<'w> = Leaf<ColumnMut<'w, T>>;
    type Writes = Cons<T, Nil>;
    type Reads = Nil;
    type Required = Cons<T, Nil>;

    leaf_common!();
    required_leaf_misses!();

    fn needs(needs: &mut Needs) {
        needs.leaves.push((TypeId::of::<T>(), true));
    }

    #[inline(always)]
    unsafe fn fetch_unmarked<'w>(
        fetch: &mut Self::Fetch<'w>,
        entity: Entity,
        position: usize,
        aligned: u64,
    ) -> Option<Mut<'w, T>> {
        // SAFETY: forwarded (caller).
        let value = unsafe { <&mut T as Query>::fetch_unmarked(fetch, entity, position, aligned) }?;
        Some(Mut::new(value, fetch.column.stamp(entity)))
    }

    #[inline(always)]
    unsafe fn fetch_aligned<'w>(fetch: &mut Self::Fetch<'w>, position: usize) -> Mut<'w, T> {
        // SAFETY: in bounds, not aliased (caller).
        unsafe {
            Mut::new(
                fetch.column.at_unmarked(position),
                fetch.column.stamp_at(position),
            )
        }
    }

    #[inline(always)]
    fn run(fetch: &mut Self::Fetch<'_>, walked: &[Entity], position: usize) -> Option<usize> {
        leaf_run!(fetch, walked, position, None)
    }

    #[inline(always)]
    unsafe fn fetch_run<'w>(fetch: &mut Self::Fetch<'w>, position: usize) -> Mut<'w, T> {
        let at = position.wrapping_add(fetch.offset);
        // SAFETY: as for `&mut T` (the run's positions hold distinct walked entities, in
        // bounds), and no item for this position is alive (caller).
        unsafe { Mut::new(fetch.column.at_unmarked(at), fetch.column.stamp_at(at)) }
    }

    #[inline(always)]
    unsafe fn lookup_unmarked<'w>(
        fetch: &mut Self::Fetch<'w>,
        entity: Entity,
    ) -> Option<Mut<'w, T>> {
        // SAFETY: not aliased (caller).
        let value = unsafe { fetch.column.get_unmarked(entity) }?;
        Some(Mut::new(value, fetch.column.stamp(entity)))
    }

    #[inline]
    fn reborrow<'a>(fetch: &'a mut Self::Fetch<'_>) -> Self::Fetch<'a> {
        <&mut T as Query>::reborrow(fetch)
    }

    unsafe fn share<'w>(fetch: &Self::Fetch<'w>) -> Self::Fetch<'w> {
        // SAFETY: forwarded from the caller.
        unsafe { <&mut T as Query>::share(fetch) }
    }
}

query_of_as!(Mut<'_, T> => &mut T);

#[diagnostic::do_not_recommend]
impl<T: Component> sealed::Sealed for Option<Mut<'_, T>> {}

impl<T: Component> Query for Option<Mut<'_, T>> {
    type Item<'w> = Option<Mut<'w, T>>;
    type Fetch<'w> = Leaf<ColumnMut<'w, T>>;
    type Writes = Cons<T, Nil>;
    type Reads = Nil;
    type Required = Nil;

    leaf_common!();
    optional_leaf!(Mut<'_, T>);
}

query_of_as!(Option<Mut<'_, T>> => &mut T);

/// `cat!(A::Writes, B::Writes, …, Nil)`: the concatenation of type-level lists.
macro_rules! cat {
    ($one:ty) => { $one };
    ($first:ty, $($rest:ty),+) => { <$first as List>::Then<cat!($($rest),+)> };
}
pub(crate) use cat;

macro_rules! query_tuple {
    ($(($Q:ident, $q:ident, $i:tt)),+) => {
        #[diagnostic::do_not_recommend]
        impl<$($Q: Query),+> sealed::Sealed for ($($Q,)+) {}

        impl<$($Q: Query),+> Query for ($($Q,)+) {
            type Item<'w> = ($($Q::Item<'w>,)+);
            type Fetch<'w> = ($($Q::Fetch<'w>,)+);
            type Writes = cat!($($Q::Writes,)+ Nil);
            type Reads = cat!($($Q::Reads,)+ Nil);
            type Required = cat!($($Q::Required,)+ Nil);
            const LEAVES: usize = 0 $(+ $Q::LEAVES)+;

            fn needs(needs: &mut Needs) {
                $($Q::needs(needs);)+
            }

            #[inline]
            fn entities<'w>(fetch: &Self::Fetch<'w>, mut leaf: usize) -> &'w [Entity] {
                $(
                    if leaf < $Q::LEAVES {
                        return $Q::entities(&fetch.$i, leaf);
                    }
                    leaf -= $Q::LEAVES;
                )+
                let _ = leaf;
                &[]
            }

            #[inline]
            fn order(fetch: &Self::Fetch<'_>, mut leaf: usize) -> DenseOrder {
                $(
                    if leaf < $Q::LEAVES {
                        return $Q::order(&fetch.$i, leaf);
                    }
                    leaf -= $Q::LEAVES;
                )+
                let _ = leaf;
                DenseOrder::UNKNOWN
            }

            #[inline]
            fn align(fetch: &mut Self::Fetch<'_>, mut aligned: u64) {
                $(
                    $Q::align(&mut fetch.$i, aligned);
                    aligned = aligned.checked_shr($Q::LEAVES as u32).unwrap_or(0);
                )+
                let _ = aligned;
            }

            #[inline]
            fn whole(fetch: &mut Self::Fetch<'_>, mut whole: u64) {
                $(
                    $Q::whole(&mut fetch.$i, whole);
                    whole = whole.checked_shr($Q::LEAVES as u32).unwrap_or(0);
                )+
                let _ = whole;
            }

            #[inline(always)]
            unsafe fn fetch_unmarked<'w>(fetch: &mut Self::Fetch<'w>, entity: Entity, position: usize, aligned: u64) -> Option<Self::Item<'w>> {
                let mut _shift = 0u32;
                // SAFETY: forwarded (caller); distinct leaves borrow distinct storages or
                // share them read-only (the borrow rule).
                Some(($(unsafe {
                    let mask = aligned.checked_shr(_shift).unwrap_or(0);
                    _shift += $Q::LEAVES as u32;
                    $Q::fetch_unmarked(&mut fetch.$i, entity, position, mask)?
                },)+))
            }

            #[inline(always)]
            fn mark(fetch: &Self::Fetch<'_>, entity: Entity, item: &Self::Item<'_>) {
                $($Q::mark(&fetch.$i, entity, &item.$i);)+
            }

            #[inline(always)]
            unsafe fn fetch_aligned<'w>(fetch: &mut Self::Fetch<'w>, position: usize) -> Self::Item<'w> {
                // SAFETY: forwarded (caller).
                ($(unsafe { $Q::fetch_aligned(&mut fetch.$i, position) },)+)
            }

            #[inline(always)]
            fn run(fetch: &mut Self::Fetch<'_>, walked: &[Entity], position: usize) -> Option<usize> {
                // Each leaf compares no further than the run the leaves before it allow; a
                // leaf that ends it at once (`Some(0)`) leaves the others nothing to compare.
                let mut run = walked.len();
                $(
                    if run == 0 {
                        return Some(0);
                    }
                    run = run.min($Q::run(&mut fetch.$i, &walked[..run], position)?);
                )+
                Some(run)
            }

            #[inline(always)]
            fn run_on(fetch: &mut Self::Fetch<'_>, walked: &[Entity], position: usize) -> usize {
                let mut run = walked.len();
                $(
                    if run == 0 {
                        return 0;
                    }
                    run = run.min($Q::run_on(&mut fetch.$i, &walked[..run], position));
                )+
                run
            }

            #[inline(always)]
            fn certain_misses(fetch: &Self::Fetch<'_>, walked: &[Entity]) -> usize {
                // Each leaf's count is of entities that leaf lacks: the largest holds.
                let mut misses = 0;
                $(misses = misses.max($Q::certain_misses(&fetch.$i, walked));)+
                misses
            }

            #[inline(always)]
            unsafe fn fetch_run<'w>(fetch: &mut Self::Fetch<'w>, position: usize) -> Self::Item<'w> {
                // SAFETY: forwarded (caller); distinct leaves borrow distinct storages or
                // share them read-only.
                ($(unsafe { $Q::fetch_run(&mut fetch.$i, position) },)+)
            }

            #[inline(always)]
            unsafe fn lookup_unmarked<'w>(fetch: &mut Self::Fetch<'w>, entity: Entity) -> Option<Self::Item<'w>> {
                // SAFETY: forwarded (caller).
                Some(($(unsafe { $Q::lookup_unmarked(&mut fetch.$i, entity)? },)+))
            }

            #[inline]
            fn reborrow<'a>(fetch: &'a mut Self::Fetch<'_>) -> Self::Fetch<'a> {
                ($($Q::reborrow(&mut fetch.$i),)+)
            }

            unsafe fn share<'w>(fetch: &Self::Fetch<'w>) -> Self::Fetch<'w> {
                // SAFETY: forwarded from the caller.
                ($(unsafe { $Q::share(&fetch.$i) },)+)
            }
        }

        #[diagnostic::do_not_recommend]
        impl<$($Q: ReadOnlyQuery),+> sealed::ReadOnly for ($($Q,)+) {}

        impl<$($Q: ReadOnlyQuery),+> ReadOnlyQuery for ($($Q,)+) {
            #[inline]
            fn copy<'w>(fetch: &Self::Fetch<'w>) -> Self::Fetch<'w> {
                ($($Q::copy(&fetch.$i),)+)
            }
        }

        #[diagnostic::do_not_recommend]
        impl<W: WorldParts, $($Q: QueryOf<W>),+> sealed::Of<W> for ($($Q,)+) {}

        impl<W: WorldParts, $($Q: QueryOf<W>),+> QueryOf<W> for ($($Q,)+) {
            fn prepare(world: &mut W) {
                $($Q::prepare(world);)+
            }

            #[inline(always)]
            fn take<'w>(parts: &mut W::Parts<'w>) -> Result<Self::Fetch<'w>, AccessError>
            where
                W: 'w,
            {
                Ok(($($Q::take(parts)?,)+))
            }
        }
    };
}

for_each_tuple!(query_tuple);
