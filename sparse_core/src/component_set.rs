//! Tuples of component types: what groups, views and bundles are named by.

use core::any::{Any, TypeId};

use crate::component::{Component, ComponentKey};
use crate::entity::Entity;
use crate::storage::{ErasedStorage, SetCursor, Storage};

pub(crate) mod sealed {
    use super::*;

    /// What only this crate may do with a set of component types. Being a supertrait of
    /// [`ComponentSet`], it also keeps other crates from implementing that trait: a set's
    /// methods receive the storages of a run-time world, which must only ever change
    /// through the world's hooks.
    pub trait Sealed {
        /// Calls `f` for each aligned position of `slices`, which all have `entities`' length.
        fn for_each_in(
            entities: &[Entity],
            slices: <Self as ComponentSet>::SlicesMut<'_>,
            f: impl FnMut(Entity, <Self as ComponentSet>::RefsMut<'_>),
        ) where
            Self: ComponentSet;
        /// The slices cut to `len` (which every slice reaches).
        fn truncate(
            slices: <Self as ComponentSet>::SlicesMut<'_>,
            len: usize,
        ) -> <Self as ComponentSet>::SlicesMut<'_>
        where
            Self: ComponentSet;
        /// The mutable references at `position` of each slice.
        fn refs_mut_at<'s>(
            slices: &'s mut <Self as ComponentSet>::SlicesMut<'_>,
            position: usize,
        ) -> <Self as ComponentSet>::RefsMut<'s>
        where
            Self: ComponentSet;
        /// Shared slices from mutable ones.
        fn shared<'s>(
            slices: &'s <Self as ComponentSet>::SlicesMut<'_>,
        ) -> <Self as ComponentSet>::Slices<'s>
        where
            Self: ComponentSet;
        /// The references at `position` of each slice.
        fn refs_at<'s>(
            slices: &'s <Self as ComponentSet>::Slices<'_>,
            position: usize,
        ) -> <Self as ComponentSet>::Refs<'s>
        where
            Self: ComponentSet;
        /// The prefixes `[0, len)` of the storages: the first storage's entities and every
        /// storage's components.
        ///
        /// # Panics
        /// Panics if a storage is shorter than `len`.
        fn prefixes(
            storages: <Self as ComponentSet>::Storages<'_>,
            len: usize,
        ) -> (&[Entity], <Self as ComponentSet>::SlicesMut<'_>)
        where
            Self: ComponentSet;
        /// One empty storage per type, type-erased.
        fn new_storages() -> Vec<Box<dyn ErasedStorage>>;
        /// Takes the storages at `indices` out of a run-time world's borrowed storages,
        /// typed; `None` if one was taken already or has another type.
        fn erased<'s>(
            storages: &mut [Option<&'s mut Box<dyn ErasedStorage>>],
            indices: &[usize],
        ) -> Option<<Self as ComponentSet>::Storages<'s>>
        where
            Self: ComponentSet;
        /// Calls `f` for every entity having every type, driven by the smallest storage.
        fn view_for_each(
            storages: &mut <Self as ComponentSet>::Storages<'_>,
            f: impl FnMut(Entity, <Self as ComponentSet>::RefsMut<'_>),
        ) where
            Self: ComponentSet;
        /// `entity`'s components, if it has every type.
        fn view_get<'s>(
            storages: &'s mut <Self as ComponentSet>::Storages<'_>,
            entity: Entity,
        ) -> Option<<Self as ComponentSet>::RefsMut<'s>>
        where
            Self: ComponentSet;
        /// The length of the smallest storage.
        fn view_len_hint(storages: &<Self as ComponentSet>::Storages<'_>) -> usize
        where
            Self: ComponentSet;
        /// Splits the storages into columns.
        fn columns(
            storages: <Self as ComponentSet>::Storages<'_>,
        ) -> <Self as ComponentSet>::Columns<'_>
        where
            Self: ComponentSet;
        /// `entity`'s components in the columns, mutably, if it has every type.
        fn lookup_mut<'s>(
            columns: &'s mut <Self as ComponentSet>::Columns<'_>,
            entity: Entity,
        ) -> Option<<Self as ComponentSet>::RefsMut<'s>>
        where
            Self: ComponentSet;
        /// The components of a group member that has every type (the world's invariant),
        /// trusting the sparse entries; `None` only if the invariant is broken.
        fn member_mut<'s>(
            columns: &'s mut <Self as ComponentSet>::Columns<'_>,
            entity: Entity,
        ) -> Option<<Self as ComponentSet>::RefsMut<'s>>
        where
            Self: ComponentSet;
        /// `entity`'s components in the columns, if it has every type.
        fn lookup<'s>(
            columns: &'s <Self as ComponentSet>::Columns<'_>,
            entity: Entity,
        ) -> Option<<Self as ComponentSet>::Refs<'s>>
        where
            Self: ComponentSet;
    }
}

/// A tuple of component types, `(A, B, …)` up to [`MAX_TUPLE`](crate::MAX_TUPLE): the types
/// of a group or of a view. The associated types are the tuples of slices, references and
/// storages that group and view access hands out.
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
pub trait ComponentSet: sealed::Sealed + Sized + 'static {
    /// `(&[A], &[B], …)`
    type Slices<'a>;
    /// `(&mut [A], &mut [B], …)`
    type SlicesMut<'a>;
    /// `(&A, &B, …)`
    type Refs<'a>;
    /// `(&mut A, &mut B, …)`
    type RefsMut<'a>;
    /// `(&mut Storage<A>, &mut Storage<B>, …)`
    type Storages<'a>;
    /// Each storage's entity set, for lookups, and its components, for value access.
    #[doc(hidden)]
    type Columns<'a>;

    /// The keys of the types, in tuple order.
    fn keys() -> Vec<ComponentKey>;

    /// Whether the types are pairwise distinct (folds to a constant once optimized).
    fn distinct() -> bool;
}

fn downcast<T: Component>(storage: &mut Box<dyn ErasedStorage>) -> Option<&mut Storage<T>> {
    let any: &mut dyn Any = storage.as_any_mut();
    any.downcast_mut::<Storage<T>>()
}

/// Each of a run-time world's storages, borrowed for [`sealed::Sealed::erased`] to take.
pub(crate) fn borrow_all(
    storages: &mut [Box<dyn ErasedStorage>],
) -> Vec<Option<&mut Box<dyn ErasedStorage>>> {
    storages.iter_mut().map(Some).collect()
}

macro_rules! component_set {
    ($(($T:ident, $t:ident, $i:tt)),+) => {
        impl<$($T: Component),+> ComponentSet for ($($T,)+) {
            type Slices<'a> = ($(&'a [$T],)+);
            type SlicesMut<'a> = ($(&'a mut [$T],)+);
            type Refs<'a> = ($(&'a $T,)+);
            type RefsMut<'a> = ($(&'a mut $T,)+);
            type Storages<'a> = ($(&'a mut Storage<$T>,)+);
            type Columns<'a> = ($((SetCursor<'a>, &'a mut [$T]),)+);

            fn keys() -> Vec<ComponentKey> {
                vec![$(ComponentKey::of::<$T>()),+]
            }

            #[inline]
            fn distinct() -> bool {
                let ids = [$(TypeId::of::<$T>()),+];
                (0..ids.len()).all(|i| !ids[..i].contains(&ids[i]))
            }
        }

        impl<$($T: Component),+> sealed::Sealed for ($($T,)+) {
            #[inline]
            fn for_each_in(entities: &[Entity], slices: <Self as ComponentSet>::SlicesMut<'_>, mut f: impl FnMut(Entity, <Self as ComponentSet>::RefsMut<'_>)) {
                let n = entities.len();
                // Re-slicing to `n` lets the optimizer drop every bounds check in the loop.
                $(let $t = &mut slices.$i[..n];)+
                for i in 0..n {
                    f(entities[i], ($(&mut $t[i],)+));
                }
            }

            #[inline(always)]
            fn truncate(slices: <Self as ComponentSet>::SlicesMut<'_>, len: usize) -> <Self as ComponentSet>::SlicesMut<'_> {
                let ($($t,)+) = slices;
                ($(&mut $t[..len],)+)
            }

            #[inline(always)]
            fn refs_mut_at<'s>(slices: &'s mut <Self as ComponentSet>::SlicesMut<'_>, position: usize) -> <Self as ComponentSet>::RefsMut<'s> {
                ($(&mut slices.$i[position],)+)
            }

            #[inline]
            fn shared<'s>(slices: &'s <Self as ComponentSet>::SlicesMut<'_>) -> <Self as ComponentSet>::Slices<'s> {
                ($(&*slices.$i,)+)
            }

            #[inline]
            fn refs_at<'s>(slices: &'s <Self as ComponentSet>::Slices<'_>, position: usize) -> <Self as ComponentSet>::Refs<'s> {
                ($(&slices.$i[position],)+)
            }

            #[inline]
            fn prefixes(storages: <Self as ComponentSet>::Storages<'_>, len: usize) -> (&[Entity], <Self as ComponentSet>::SlicesMut<'_>) {
                let ($($t,)+) = storages;
                $(let $t = $t.as_mut_slices();)+
                let entities = first!($($t),+).0;
                (&entities[..len], ($(&mut $t.1[..len],)+))
            }

            fn new_storages() -> Vec<Box<dyn ErasedStorage>> {
                vec![$(Box::new(Storage::<$T>::new())),+]
            }

            fn erased<'s>(storages: &mut [Option<&'s mut Box<dyn ErasedStorage>>], indices: &[usize]) -> Option<<Self as ComponentSet>::Storages<'s>> {
                $(let $t = downcast::<$T>(storages.get_mut(*indices.get($i)?)?.take()?)?;)+
                Some(($($t,)+))
            }

            fn view_for_each(storages: &mut <Self as ComponentSet>::Storages<'_>, mut f: impl FnMut(Entity, <Self as ComponentSet>::RefsMut<'_>)) {
                let ($($t,)+) = storages;
                $(let $t = $t.split_mut();)+
                // Drive the join with the smallest storage.
                let driver = [$($t.0.as_slice()),+].into_iter().min_by_key(|s| s.len()).unwrap_or(&[]);
                for &entity in driver {
                    let item = 'item: {
                        Some(($(match $t.0.index_of(entity) {
                            Some(position) => &mut $t.1[position],
                            None => break 'item None,
                        },)+))
                    };
                    if let Some(item) = item {
                        f(entity, item);
                    }
                }
            }

            fn view_get<'s>(storages: &'s mut <Self as ComponentSet>::Storages<'_>, entity: Entity) -> Option<<Self as ComponentSet>::RefsMut<'s>> {
                let ($($t,)+) = storages;
                Some(($($t.get_mut(entity)?,)+))
            }

            fn view_len_hint(storages: &<Self as ComponentSet>::Storages<'_>) -> usize {
                [$(storages.$i.len()),+].into_iter().min().unwrap_or(0)
            }

            #[inline]
            fn columns(storages: <Self as ComponentSet>::Storages<'_>) -> <Self as ComponentSet>::Columns<'_> {
                let ($($t,)+) = storages;
                ($($t.column(),)+)
            }

            #[inline(always)]
            fn lookup_mut<'s>(columns: &'s mut <Self as ComponentSet>::Columns<'_>, entity: Entity) -> Option<<Self as ComponentSet>::RefsMut<'s>> {
                let ($($t,)+) = columns;
                Some(($(&mut $t.1[$t.0.index_of(entity)?],)+))
            }

            #[inline(always)]
            fn member_mut<'s>(columns: &'s mut <Self as ComponentSet>::Columns<'_>, entity: Entity) -> Option<<Self as ComponentSet>::RefsMut<'s>> {
                let ($($t,)+) = columns;
                Some(($($t.1.get_mut($t.0.member(entity))?,)+))
            }

            #[inline(always)]
            fn lookup<'s>(columns: &'s <Self as ComponentSet>::Columns<'_>, entity: Entity) -> Option<<Self as ComponentSet>::Refs<'s>> {
                let ($($t,)+) = columns;
                Some(($(&$t.1[$t.0.index_of_shared(entity)?],)+))
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
    type Columns<'a> = ();

    fn keys() -> Vec<ComponentKey> {
        Vec::new()
    }

    fn distinct() -> bool {
        true
    }
}

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

    fn truncate(
        slices: <Self as ComponentSet>::SlicesMut<'_>,
        _: usize,
    ) -> <Self as ComponentSet>::SlicesMut<'_> {
        slices
    }

    fn refs_mut_at<'s>(
        _: &'s mut <Self as ComponentSet>::SlicesMut<'_>,
        _: usize,
    ) -> <Self as ComponentSet>::RefsMut<'s> {
    }

    fn shared<'s>(
        _: &'s <Self as ComponentSet>::SlicesMut<'_>,
    ) -> <Self as ComponentSet>::Slices<'s> {
    }

    fn refs_at<'s>(
        _: &'s <Self as ComponentSet>::Slices<'_>,
        _: usize,
    ) -> <Self as ComponentSet>::Refs<'s> {
    }

    fn prefixes(
        (): <Self as ComponentSet>::Storages<'_>,
        _: usize,
    ) -> (&[Entity], <Self as ComponentSet>::SlicesMut<'_>) {
        (&[], ())
    }

    fn new_storages() -> Vec<Box<dyn ErasedStorage>> {
        Vec::new()
    }

    fn erased<'s>(
        _: &mut [Option<&'s mut Box<dyn ErasedStorage>>],
        _: &[usize],
    ) -> Option<<Self as ComponentSet>::Storages<'s>> {
        Some(())
    }

    fn view_for_each(
        _: &mut <Self as ComponentSet>::Storages<'_>,
        _: impl FnMut(Entity, <Self as ComponentSet>::RefsMut<'_>),
    ) {
    }

    fn view_get<'s>(
        _: &'s mut <Self as ComponentSet>::Storages<'_>,
        _: Entity,
    ) -> Option<<Self as ComponentSet>::RefsMut<'s>> {
        Some(())
    }

    fn view_len_hint(_: &<Self as ComponentSet>::Storages<'_>) -> usize {
        0
    }

    fn columns((): <Self as ComponentSet>::Storages<'_>) -> <Self as ComponentSet>::Columns<'_> {}

    #[inline(always)]
    fn lookup_mut<'s>(
        _: &'s mut <Self as ComponentSet>::Columns<'_>,
        _: Entity,
    ) -> Option<<Self as ComponentSet>::RefsMut<'s>> {
        Some(())
    }

    #[inline(always)]
    fn member_mut<'s>(
        _: &'s mut <Self as ComponentSet>::Columns<'_>,
        _: Entity,
    ) -> Option<<Self as ComponentSet>::RefsMut<'s>> {
        Some(())
    }

    #[inline(always)]
    fn lookup<'s>(
        _: &'s <Self as ComponentSet>::Columns<'_>,
        _: Entity,
    ) -> Option<<Self as ComponentSet>::Refs<'s>> {
        Some(())
    }
}
