//! Tuples of component types: what groups are named by and what bundles hold.

use core::any::TypeId;

use crate::component::{Component, ComponentKey};
use crate::entity::Entity;
use crate::lend::{AccessError, Cons, ErasedSlot, List, Nil, Slot};
use crate::storage::{AnyStorage, ColumnMut, ColumnRef, PrefixMark, RawSlice, Storage, StorageMut};

pub(crate) mod sealed {
    use super::*;

    /// What only this crate may do with a set of component types. Being a supertrait of
    /// [`ComponentSet`], it also keeps other crates from implementing that trait: a set's
    /// methods receive the storages of a run-time world, which must only ever change
    /// through the world's change methods.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be a set of component types: `ComponentSet` is sealed",
        label = "`ComponentSet` is implemented only by tuples of components",
        note = "a set's methods reach a world's storages, which change only through the world's change methods: name component types as a tuple, `(A, B, …)`"
    )]
    pub trait Sealed {
        /// Calls `f` for each aligned position of `slices`, which all have `entities`' length.
        fn for_each_in(
            entities: &[Entity],
            slices: <Self as ComponentSet>::SlicesMut<'_>,
            f: impl FnMut(Entity, <Self as ComponentSet>::RefsMut<'_>),
        ) where
            Self: ComponentSet;
        /// Shared slices from mutable ones.
        fn shared<'s>(
            slices: &'s <Self as ComponentSet>::SlicesMut<'_>,
        ) -> <Self as ComponentSet>::Slices<'s>
        where
            Self: ComponentSet;
        /// The references at `position` of each slice (bounds-checked).
        fn refs_at<'s>(
            slices: &<Self as ComponentSet>::Slices<'s>,
            position: usize,
        ) -> <Self as ComponentSet>::Refs<'s>
        where
            Self: ComponentSet;
        /// The references at `position` of each slice.
        ///
        /// # Safety
        /// `position` is below every slice's length.
        unsafe fn refs_at_unchecked<'s>(
            slices: &<Self as ComponentSet>::Slices<'s>,
            position: usize,
        ) -> <Self as ComponentSet>::Refs<'s>
        where
            Self: ComponentSet;
        /// The prefixes `[0, len)` of the storages: the first storage's entities, every
        /// storage's components, and how to stamp them changed once they are handed out
        /// ([`mark_prefixes`](Self::mark_prefixes)): taking them stamps nothing.
        ///
        /// # Panics
        /// Panics if a storage is shorter than `len`.
        fn prefixes(
            storages: <Self as ComponentSet>::Lent<'_>,
            len: usize,
        ) -> (
            &[Entity],
            <Self as ComponentSet>::SlicesMut<'_>,
            <Self as ComponentSet>::Marks<'_>,
        )
        where
            Self: ComponentSet;
        /// Stamps the prefixes' components changed, if their storages are tracked.
        fn mark_prefixes(marks: <Self as ComponentSet>::Marks<'_>)
        where
            Self: ComponentSet;
        /// The same, shared.
        ///
        /// # Panics
        /// Panics if a storage is shorter than `len`.
        fn prefixes_ref(
            storages: <Self as ComponentSet>::StoragesRef<'_>,
            len: usize,
        ) -> (&[Entity], <Self as ComponentSet>::Slices<'_>)
        where
            Self: ComponentSet;
        /// Mutable slices as raw slices, to be handed out one position at a time.
        fn raw(
            slices: <Self as ComponentSet>::SlicesMut<'_>,
        ) -> <Self as ComponentSet>::RawSlices<'_>
        where
            Self: ComponentSet;
        /// The positions `start..start + len` of each raw slice, as mutable slices for the
        /// rest of their borrow: a parallel worker's chunk.
        ///
        /// # Safety
        /// The range is within every slice's length, and no other reference to these
        /// positions obtained from these raw slices is alive while the result lives.
        unsafe fn raw_range<'s>(
            raw: &<Self as ComponentSet>::RawSlices<'s>,
            start: usize,
            len: usize,
        ) -> <Self as ComponentSet>::SlicesMut<'s>
        where
            Self: ComponentSet;
        /// The references at `position` of each raw slice, for the rest of their borrow.
        ///
        /// # Safety
        /// `position` is below every slice's length, and no other reference to this
        /// position obtained from these raw slices is alive.
        unsafe fn raw_at<'s>(
            raw: &<Self as ComponentSet>::RawSlices<'s>,
            position: usize,
        ) -> <Self as ComponentSet>::RefsMut<'s>
        where
            Self: ComponentSet;
        /// The same raw slices for a shorter borrow.
        fn reborrow_raw<'s>(
            raw: &'s mut <Self as ComponentSet>::RawSlices<'_>,
        ) -> <Self as ComponentSet>::RawSlices<'s>
        where
            Self: ComponentSet;
        /// One empty storage per type, type-erased.
        fn new_storages() -> Vec<AnyStorage>;
        /// Takes the storages at `indices` (one per type, in order) out of a run-time
        /// world's slots, lent for their values.
        ///
        /// # Errors
        /// [`AccessError::Conflict`] if one was lent already.
        fn take_slots<'s>(
            slots: &mut [ErasedSlot<'s>],
            indices: &[usize],
        ) -> Result<<Self as ComponentSet>::Lent<'s>, AccessError>
        where
            Self: ComponentSet;
        /// The same, each storage mutably whole (for a sort, which moves entities).
        ///
        /// # Errors
        /// [`AccessError::Conflict`] if anything of one was lent already.
        fn take_slots_whole<'s>(
            slots: &mut [ErasedSlot<'s>],
            indices: &[usize],
        ) -> Result<<Self as ComponentSet>::Storages<'s>, AccessError>
        where
            Self: ComponentSet;
        /// The same, shared.
        ///
        /// # Errors
        /// [`AccessError::Conflict`] if one was lent mutably.
        fn take_slots_ref<'s>(
            slots: &mut [ErasedSlot<'s>],
            indices: &[usize],
        ) -> Result<<Self as ComponentSet>::StoragesRef<'s>, AccessError>
        where
            Self: ComponentSet;
        /// Takes the storages out of a `#[world]`'s slots, lent for their values.
        ///
        /// # Errors
        /// [`AccessError::Conflict`] if one was lent already.
        fn take_typed_slots<'p, 'w: 'p>(
            slots: <Self as ComponentSet>::Slots<'p, 'w>,
        ) -> Result<<Self as ComponentSet>::Lent<'w>, AccessError>
        where
            Self: ComponentSet;
        /// The same, shared.
        ///
        /// # Errors
        /// [`AccessError::Conflict`] if one was lent mutably.
        fn take_typed_slots_ref<'p, 'w: 'p>(
            slots: <Self as ComponentSet>::Slots<'p, 'w>,
        ) -> Result<<Self as ComponentSet>::StoragesRef<'w>, AccessError>
        where
            Self: ComponentSet;
        /// Shared storages from mutable ones.
        fn storages_ref(
            storages: <Self as ComponentSet>::Storages<'_>,
        ) -> <Self as ComponentSet>::StoragesRef<'_>
        where
            Self: ComponentSet;
        /// Mutable storages lent for their values.
        fn lend(storages: <Self as ComponentSet>::Storages<'_>) -> <Self as ComponentSet>::Lent<'_>
        where
            Self: ComponentSet;
        /// The storages as columns, for lookups of group members.
        fn columns(
            storages: <Self as ComponentSet>::Lent<'_>,
        ) -> <Self as ComponentSet>::Columns<'_>
        where
            Self: ComponentSet;
        /// The same, shared.
        fn columns_ref(
            storages: <Self as ComponentSet>::StoragesRef<'_>,
        ) -> <Self as ComponentSet>::ColumnsRef<'_>
        where
            Self: ComponentSet;
        /// The same columns for a shorter borrow.
        fn reborrow_columns<'s>(
            columns: &'s mut <Self as ComponentSet>::Columns<'_>,
        ) -> <Self as ComponentSet>::Columns<'s>
        where
            Self: ComponentSet;
        /// The same slices for a shorter borrow.
        fn reborrow_slices<'s>(
            slices: &'s mut <Self as ComponentSet>::SlicesMut<'_>,
        ) -> <Self as ComponentSet>::SlicesMut<'s>
        where
            Self: ComponentSet;
        /// Mutable columns read through a shared borrow.
        ///
        /// # Safety
        /// No reference obtained from `columns` is alive, and none is obtained while the
        /// result lives.
        unsafe fn shared_columns<'s>(
            columns: &'s <Self as ComponentSet>::Columns<'_>,
        ) -> <Self as ComponentSet>::ColumnsRef<'s>
        where
            Self: ComponentSet;
        /// Copies of shared columns.
        fn copy_columns<'s>(
            columns: &<Self as ComponentSet>::ColumnsRef<'s>,
        ) -> <Self as ComponentSet>::ColumnsRef<'s>
        where
            Self: ComponentSet;
        /// Another handle on the same columns, for a worker of a parallel loop.
        ///
        /// # Safety
        /// As [`ColumnMut::share`]: the handles reach disjoint entities, and the columns
        /// are not used otherwise while they live.
        unsafe fn share_columns<'s>(
            columns: &<Self as ComponentSet>::Columns<'s>,
        ) -> <Self as ComponentSet>::Columns<'s>
        where
            Self: ComponentSet;
        /// The components of a group member that has every type (the world's invariant),
        /// each found by its index alone ([`SetCursor::member`]); `None` only if the
        /// invariant is broken. Members have distinct indices and sparse entries are
        /// exact, so distinct members never reach one value, whatever the storages hold.
        ///
        /// [`SetCursor::member`]: crate::storage::SetCursor
        ///
        /// # Safety
        /// No other reference to `entity`'s components obtained from these columns is
        /// alive.
        unsafe fn member_mut<'s>(
            columns: &mut <Self as ComponentSet>::Columns<'s>,
            entity: Entity,
        ) -> Option<<Self as ComponentSet>::RefsMut<'s>>
        where
            Self: ComponentSet;
        /// The same, shared.
        fn member_ref<'s>(
            columns: &mut <Self as ComponentSet>::ColumnsRef<'s>,
            entity: Entity,
        ) -> Option<<Self as ComponentSet>::Refs<'s>>
        where
            Self: ComponentSet;
    }
}

/// A tuple of component types, `(A, B, …)` up to [`MAX_TUPLE`](crate::MAX_TUPLE): the types
/// a group owns, observes or excludes, or a bundle holds. The associated types are the
/// tuples of slices, references and storages that group access hands out.
///
/// Implemented by this crate for tuples of [`Component`]s only (it is sealed).
///
/// ```
/// use sparse_core::{Component, ComponentSet};
/// struct A;
/// struct B;
/// impl Component for A {}
/// impl Component for B {}
/// assert_eq!(<(A, B)>::keys().len(), 2);
/// assert!(<(A, B)>::distinct() && !<(A, A)>::distinct());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tuple of component types",
    label = "expected a tuple `(A, B, …)` of types that implement `Component`",
    note = "groups, bundles and snapshots name their component types as a tuple, e.g. `(Position, Velocity)`, or `(Position,)` for one type"
)]
#[doc(hidden)]
pub trait ComponentSet: sealed::Sealed + Sized + 'static {
    /// `(&[A], &[B], …)`
    type Slices<'a>: Copy + Send + Sync;
    /// `(&mut [A], &mut [B], …)`
    type SlicesMut<'a>;
    /// `(&A, &B, …)`
    type Refs<'a>;
    /// `(&mut A, &mut B, …)`
    type RefsMut<'a>;
    /// `(&mut Storage<A>, &mut Storage<B>, …)`
    type Storages<'a>;
    /// `(&Storage<A>, &Storage<B>, …)`
    type StoragesRef<'a>: Copy;
    /// Each storage lent for its values, its entity set shared (see `StorageMut`).
    #[doc(hidden)]
    type Lent<'a>;
    /// Each storage's values, mutably, with a lookup cursor.
    #[doc(hidden)]
    type Columns<'a>: Send + Sync;
    /// Each storage's values with a lookup cursor.
    #[doc(hidden)]
    type ColumnsRef<'a>: Send + Sync;
    /// Mutable slices handed out one position at a time.
    #[doc(hidden)]
    type RawSlices<'a>: Send + Sync;
    /// `(&mut Slot<A>, &mut Slot<B>, …)`: the slots of a `#[world]`'s parts a group is
    /// lent from.
    #[doc(hidden)]
    type Slots<'p, 'w: 'p>;
    /// The types as a type-level list (for the compile-time borrow rule).
    #[doc(hidden)]
    type List: List;
    /// How to stamp the prefixes of the storages changed.
    #[doc(hidden)]
    type Marks<'a>: Copy + Send + Sync;

    /// The keys of the types, in tuple order.
    fn keys() -> Vec<ComponentKey>;

    /// Whether the types are pairwise distinct (folds to a constant once optimized).
    fn distinct() -> bool;
}

/// `Cons<A, Cons<B, …Nil>>`
macro_rules! list {
    () => { Nil };
    ($first:ident $(, $rest:ident)*) => { Cons<$first, list!($($rest),*)> };
}

macro_rules! component_set {
    ($(($T:ident, $t:ident, $i:tt)),+) => {
        impl<$($T: Component),+> ComponentSet for ($($T,)+) {
            type Slices<'a> = ($(&'a [$T],)+);
            type SlicesMut<'a> = ($(&'a mut [$T],)+);
            type Refs<'a> = ($(&'a $T,)+);
            type RefsMut<'a> = ($(&'a mut $T,)+);
            type Storages<'a> = ($(&'a mut Storage<$T>,)+);
            type StoragesRef<'a> = ($(&'a Storage<$T>,)+);
            type Lent<'a> = ($(StorageMut<'a, $T>,)+);
            type Columns<'a> = ($(ColumnMut<'a, $T>,)+);
            type ColumnsRef<'a> = ($(ColumnRef<'a, $T>,)+);
            type RawSlices<'a> = ($(RawSlice<'a, $T>,)+);
            type Slots<'p, 'w: 'p> = ($(&'p mut Slot<'w, $T>,)+);
            type List = list!($($T),+);
            type Marks<'a> = ($(PrefixMark<'a, $T>,)+);

            fn keys() -> Vec<ComponentKey> {
                vec![$(ComponentKey::of::<$T>()),+]
            }

            #[inline]
            fn distinct() -> bool {
                let ids = [$(TypeId::of::<$T>()),+];
                (0..ids.len()).all(|i| !ids[..i].contains(&ids[i]))
            }
        }

        #[diagnostic::do_not_recommend]
        impl<$($T: Component),+> sealed::Sealed for ($($T,)+) {
            #[inline]
            fn for_each_in(entities: &[Entity], slices: <Self as ComponentSet>::SlicesMut<'_>, f: impl FnMut(Entity, <Self as ComponentSet>::RefsMut<'_>)) {
                /// The loop gets the slices as arguments of a function of its own: a
                /// `&mut` slice argument is known not to alias any other (LLVM's
                /// `noalias`), which is lost once the loop is inlined where the slices
                /// were computed. With it, the loop vectorises without run-time overlap
                /// checks. `visit` is a type parameter, so it is still inlined into the loop.
                #[inline(never)]
                #[allow(clippy::too_many_arguments, reason = "one slice per component type: separate arguments are the point")]
                fn walk<$($T,)+ Visit>(entities: &[Entity], $($t: &mut [$T],)+ mut visit: Visit)
                where
                    Visit: for<'r> FnMut(Entity, ($(&'r mut $T,)+)),
                {
                    let n = entities.len();
                    // Re-slicing to `n` lets the optimizer drop every bounds check.
                    $(let $t = &mut $t[..n];)+
                    for i in 0..n {
                        visit(entities[i], ($(&mut $t[i],)+));
                    }
                }
                walk(entities, $(slices.$i,)+ f);
            }

            #[inline]
            fn shared<'s>(slices: &'s <Self as ComponentSet>::SlicesMut<'_>) -> <Self as ComponentSet>::Slices<'s> {
                ($(&*slices.$i,)+)
            }

            #[inline]
            fn refs_at<'s>(slices: &<Self as ComponentSet>::Slices<'s>, position: usize) -> <Self as ComponentSet>::Refs<'s> {
                ($(&slices.$i[position],)+)
            }

            #[inline(always)]
            unsafe fn refs_at_unchecked<'s>(slices: &<Self as ComponentSet>::Slices<'s>, position: usize) -> <Self as ComponentSet>::Refs<'s> {
                // SAFETY: `position` is below every slice's length (caller).
                ($(unsafe { slices.$i.get_unchecked(position) },)+)
            }

            #[inline]
            fn prefixes(storages: <Self as ComponentSet>::Lent<'_>, len: usize) -> (&[Entity], <Self as ComponentSet>::SlicesMut<'_>, <Self as ComponentSet>::Marks<'_>) {
                let ($($t,)+) = storages;
                $(let $t = $t.prefix_parts(len);)+
                let entities = first!($($t),+).0;
                (entities, ($($t.1,)+), ($($t.2,)+))
            }

            #[inline]
            fn mark_prefixes(marks: <Self as ComponentSet>::Marks<'_>) {
                let ($($t,)+) = marks;
                $($t.mark();)+
            }

            #[inline]
            fn prefixes_ref(storages: <Self as ComponentSet>::StoragesRef<'_>, len: usize) -> (&[Entity], <Self as ComponentSet>::Slices<'_>) {
                let ($($t,)+) = storages;
                let entities = first!($($t),+).entities();
                (&entities[..len], ($(&$t.components()[..len],)+))
            }

            #[inline]
            fn raw(slices: <Self as ComponentSet>::SlicesMut<'_>) -> <Self as ComponentSet>::RawSlices<'_> {
                let ($($t,)+) = slices;
                ($(RawSlice::new($t),)+)
            }

            #[inline(always)]
            unsafe fn raw_range<'s>(raw: &<Self as ComponentSet>::RawSlices<'s>, start: usize, len: usize) -> <Self as ComponentSet>::SlicesMut<'s> {
                // SAFETY: in bounds and unaliased (caller).
                ($(unsafe { raw.$i.range(start, len) },)+)
            }

            #[inline(always)]
            unsafe fn raw_at<'s>(raw: &<Self as ComponentSet>::RawSlices<'s>, position: usize) -> <Self as ComponentSet>::RefsMut<'s> {
                // SAFETY: in bounds and unaliased (caller).
                ($(unsafe { raw.$i.at(position) },)+)
            }

            #[inline]
            fn reborrow_raw<'s>(raw: &'s mut <Self as ComponentSet>::RawSlices<'_>) -> <Self as ComponentSet>::RawSlices<'s> {
                ($(raw.$i.reborrow(),)+)
            }

            fn new_storages() -> Vec<AnyStorage> {
                vec![$(AnyStorage::new(Storage::<$T>::new())),+]
            }

            fn take_slots<'s>(slots: &mut [ErasedSlot<'s>], indices: &[usize]) -> Result<<Self as ComponentSet>::Lent<'s>, AccessError> {
                Ok(($(slots[indices[$i]].take_mut::<$T>()?,)+))
            }

            fn take_slots_whole<'s>(slots: &mut [ErasedSlot<'s>], indices: &[usize]) -> Result<<Self as ComponentSet>::Storages<'s>, AccessError> {
                Ok(($(slots[indices[$i]].take_whole_mut::<$T>()?,)+))
            }

            fn take_slots_ref<'s>(slots: &mut [ErasedSlot<'s>], indices: &[usize]) -> Result<<Self as ComponentSet>::StoragesRef<'s>, AccessError> {
                Ok(($(slots[indices[$i]].take_shared::<$T>()?,)+))
            }

            #[inline(always)]
            fn take_typed_slots<'p, 'w: 'p>(slots: <Self as ComponentSet>::Slots<'p, 'w>) -> Result<<Self as ComponentSet>::Lent<'w>, AccessError> {
                let ($($t,)+) = slots;
                Ok(($($t.take_mut()?,)+))
            }

            #[inline(always)]
            fn take_typed_slots_ref<'p, 'w: 'p>(slots: <Self as ComponentSet>::Slots<'p, 'w>) -> Result<<Self as ComponentSet>::StoragesRef<'w>, AccessError> {
                let ($($t,)+) = slots;
                Ok(($($t.take_shared()?,)+))
            }

            #[inline]
            fn storages_ref(storages: <Self as ComponentSet>::Storages<'_>) -> <Self as ComponentSet>::StoragesRef<'_> {
                let ($($t,)+) = storages;
                ($(&*$t,)+)
            }

            #[inline]
            fn lend(storages: <Self as ComponentSet>::Storages<'_>) -> <Self as ComponentSet>::Lent<'_> {
                let ($($t,)+) = storages;
                ($($t.lend_mut(),)+)
            }

            #[inline]
            fn columns(storages: <Self as ComponentSet>::Lent<'_>) -> <Self as ComponentSet>::Columns<'_> {
                let ($($t,)+) = storages;
                ($(ColumnMut::new($t),)+)
            }

            #[inline]
            fn columns_ref(storages: <Self as ComponentSet>::StoragesRef<'_>) -> <Self as ComponentSet>::ColumnsRef<'_> {
                let ($($t,)+) = storages;
                ($(ColumnRef::new($t),)+)
            }

            #[inline]
            fn reborrow_columns<'s>(columns: &'s mut <Self as ComponentSet>::Columns<'_>) -> <Self as ComponentSet>::Columns<'s> {
                ($(columns.$i.reborrow(),)+)
            }

            #[inline]
            fn reborrow_slices<'s>(slices: &'s mut <Self as ComponentSet>::SlicesMut<'_>) -> <Self as ComponentSet>::SlicesMut<'s> {
                ($(&mut *slices.$i,)+)
            }

            #[inline]
            unsafe fn shared_columns<'s>(columns: &'s <Self as ComponentSet>::Columns<'_>) -> <Self as ComponentSet>::ColumnsRef<'s> {
                // SAFETY: nothing else reads or writes the columns meanwhile (caller).
                ($(unsafe { columns.$i.shared() },)+)
            }

            #[inline]
            fn copy_columns<'s>(columns: &<Self as ComponentSet>::ColumnsRef<'s>) -> <Self as ComponentSet>::ColumnsRef<'s> {
                ($(columns.$i.clone(),)+)
            }

            #[inline]
            unsafe fn share_columns<'s>(columns: &<Self as ComponentSet>::Columns<'s>) -> <Self as ComponentSet>::Columns<'s> {
                // SAFETY: forwarded from the caller.
                ($(unsafe { columns.$i.share() },)+)
            }

            #[inline(always)]
            unsafe fn member_mut<'s>(columns: &mut <Self as ComponentSet>::Columns<'s>, entity: Entity) -> Option<<Self as ComponentSet>::RefsMut<'s>> {
                // SAFETY: unaliased (caller); each column is a distinct storage.
                Some(($(unsafe { columns.$i.member(entity)? },)+))
            }

            #[inline(always)]
            fn member_ref<'s>(columns: &mut <Self as ComponentSet>::ColumnsRef<'s>, entity: Entity) -> Option<<Self as ComponentSet>::Refs<'s>> {
                Some(($(columns.$i.member(entity)?,)+))
            }
        }
    };
}

for_each_tuple!(component_set);

/// The empty set: what a group owning nothing (a non-owning group) owns, and what a group
/// observing or excluding nothing observes or excludes.
impl ComponentSet for () {
    type Slices<'a> = ();
    type SlicesMut<'a> = ();
    type Refs<'a> = ();
    type RefsMut<'a> = ();
    type Storages<'a> = ();
    type Lent<'a> = ();
    type StoragesRef<'a> = ();
    type Columns<'a> = ();
    type ColumnsRef<'a> = ();
    type RawSlices<'a> = ();
    type Slots<'p, 'w: 'p> = ();
    type List = Nil;
    type Marks<'a> = ();

    fn keys() -> Vec<ComponentKey> {
        Vec::new()
    }

    fn distinct() -> bool {
        true
    }
}

#[diagnostic::do_not_recommend]
impl sealed::Sealed for () {
    #[inline]
    fn for_each_in(
        entities: &[Entity],
        (): <Self as ComponentSet>::SlicesMut<'_>,
        mut f: impl FnMut(Entity, <Self as ComponentSet>::RefsMut<'_>),
    ) {
        for &entity in entities {
            f(entity, ());
        }
    }

    fn shared<'s>(
        _: &'s <Self as ComponentSet>::SlicesMut<'_>,
    ) -> <Self as ComponentSet>::Slices<'s> {
    }

    fn refs_at<'s>(
        _: &<Self as ComponentSet>::Slices<'s>,
        _: usize,
    ) -> <Self as ComponentSet>::Refs<'s> {
    }

    unsafe fn refs_at_unchecked<'s>(
        _: &<Self as ComponentSet>::Slices<'s>,
        _: usize,
    ) -> <Self as ComponentSet>::Refs<'s> {
    }

    fn prefixes(
        (): <Self as ComponentSet>::Lent<'_>,
        _: usize,
    ) -> (
        &[Entity],
        <Self as ComponentSet>::SlicesMut<'_>,
        <Self as ComponentSet>::Marks<'_>,
    ) {
        (&[], (), ())
    }

    fn mark_prefixes((): <Self as ComponentSet>::Marks<'_>) {}

    fn prefixes_ref(
        (): <Self as ComponentSet>::StoragesRef<'_>,
        _: usize,
    ) -> (&[Entity], <Self as ComponentSet>::Slices<'_>) {
        (&[], ())
    }

    fn raw((): <Self as ComponentSet>::SlicesMut<'_>) -> <Self as ComponentSet>::RawSlices<'_> {}

    unsafe fn raw_range<'s>(
        _: &<Self as ComponentSet>::RawSlices<'s>,
        _: usize,
        _: usize,
    ) -> <Self as ComponentSet>::SlicesMut<'s> {
    }

    unsafe fn raw_at<'s>(
        _: &<Self as ComponentSet>::RawSlices<'s>,
        _: usize,
    ) -> <Self as ComponentSet>::RefsMut<'s> {
    }

    fn reborrow_raw<'s>(
        _: &'s mut <Self as ComponentSet>::RawSlices<'_>,
    ) -> <Self as ComponentSet>::RawSlices<'s> {
    }

    fn new_storages() -> Vec<AnyStorage> {
        Vec::new()
    }

    fn take_slots<'s>(
        _: &mut [ErasedSlot<'s>],
        _: &[usize],
    ) -> Result<<Self as ComponentSet>::Lent<'s>, AccessError> {
        Ok(())
    }

    fn take_slots_whole<'s>(
        _: &mut [ErasedSlot<'s>],
        _: &[usize],
    ) -> Result<<Self as ComponentSet>::Storages<'s>, AccessError> {
        Ok(())
    }

    fn take_slots_ref<'s>(
        _: &mut [ErasedSlot<'s>],
        _: &[usize],
    ) -> Result<<Self as ComponentSet>::StoragesRef<'s>, AccessError> {
        Ok(())
    }

    fn take_typed_slots<'p, 'w: 'p>(
        _: <Self as ComponentSet>::Slots<'p, 'w>,
    ) -> Result<<Self as ComponentSet>::Lent<'w>, AccessError> {
        Ok(())
    }

    fn take_typed_slots_ref<'p, 'w: 'p>(
        _: <Self as ComponentSet>::Slots<'p, 'w>,
    ) -> Result<<Self as ComponentSet>::StoragesRef<'w>, AccessError> {
        Ok(())
    }

    fn storages_ref(
        (): <Self as ComponentSet>::Storages<'_>,
    ) -> <Self as ComponentSet>::StoragesRef<'_> {
    }

    fn lend((): <Self as ComponentSet>::Storages<'_>) -> <Self as ComponentSet>::Lent<'_> {}

    fn columns((): <Self as ComponentSet>::Lent<'_>) -> <Self as ComponentSet>::Columns<'_> {}

    fn columns_ref(
        (): <Self as ComponentSet>::StoragesRef<'_>,
    ) -> <Self as ComponentSet>::ColumnsRef<'_> {
    }

    fn reborrow_columns<'s>(
        _: &'s mut <Self as ComponentSet>::Columns<'_>,
    ) -> <Self as ComponentSet>::Columns<'s> {
    }

    fn reborrow_slices<'s>(
        _: &'s mut <Self as ComponentSet>::SlicesMut<'_>,
    ) -> <Self as ComponentSet>::SlicesMut<'s> {
    }

    unsafe fn shared_columns<'s>(
        _: &'s <Self as ComponentSet>::Columns<'_>,
    ) -> <Self as ComponentSet>::ColumnsRef<'s> {
    }

    fn copy_columns<'s>(
        _: &<Self as ComponentSet>::ColumnsRef<'s>,
    ) -> <Self as ComponentSet>::ColumnsRef<'s> {
    }

    unsafe fn share_columns<'s>(
        _: &<Self as ComponentSet>::Columns<'s>,
    ) -> <Self as ComponentSet>::Columns<'s> {
    }

    #[inline(always)]
    unsafe fn member_mut<'s>(
        _: &mut <Self as ComponentSet>::Columns<'s>,
        _: Entity,
    ) -> Option<<Self as ComponentSet>::RefsMut<'s>> {
        Some(())
    }

    #[inline(always)]
    fn member_ref<'s>(
        _: &mut <Self as ComponentSet>::ColumnsRef<'s>,
        _: Entity,
    ) -> Option<<Self as ComponentSet>::Refs<'s>> {
        Some(())
    }
}
