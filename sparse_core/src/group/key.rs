//! How a group is named: by its declaration, as a type.
//!
//! | declaration | key |
//! | --- | --- |
//! | `#[group(A, B)]` | `(A, B)` |
//! | `#[group(Velocity, get(Position), exclude(Frozen))]` | `(Velocity, Get<Position>, Exclude<Frozen>)` |
//! | `#[group(A, B, exclude(C, D))]` | `(A, B, Exclude<(C, D)>)` |
//! | `#[group(get(Health, Poisoned))]` | `Get<(Health, Poisoned)>` |
//!
//! Owned types come first in declaration order, then `Get<…>` and `Exclude<…>` holding the
//! types of the `get(...)` and `exclude(...)` lists as written (one type, or a tuple).

use core::marker::PhantomData;

use crate::component::{Component, ComponentKey};
use crate::component_set::ComponentSet;
use crate::group::{GroupDecl, OwnedTypes};

/// In a group's key: the types the group observes (`get(...)`): required of its members,
/// reached by lookup, not reordered.
pub struct Get<T>(PhantomData<fn() -> T>);

/// In a group's key: the types the group excludes (`exclude(...)`): its members have none.
pub struct Exclude<T>(PhantomData<fn() -> T>);

/// Keeps [`Types`] to this crate.
mod sealed {
    /// Sealing [`Types`](super::Types).
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be the types of `Get<…>` or `Exclude<…>`: `Types` is sealed",
        label = "`Types` is implemented only by component types and tuples of them",
        note = "`Get<…>` and `Exclude<…>` in a group's key hold one component type or a tuple of them, e.g. `Get<Position>`, `Exclude<(Frozen, Dead)>`"
    )]
    pub trait Sealed {}
}

/// One component type, or a tuple of them: what [`Get`] and [`Exclude`] hold. Sealed.
#[doc(hidden)]
pub trait Types: sealed::Sealed + 'static {
    /// The types as a tuple.
    type Set: ComponentSet;
    /// `&mut T` for one type, `(&mut A, &mut B, …)` for a tuple.
    type RefsMut<'a>;
    /// `&T` for one type, `(&A, &B, …)` for a tuple.
    type Refs<'a>;
    /// From the tuple's references.
    fn refs_mut(refs: <Self::Set as ComponentSet>::RefsMut<'_>) -> Self::RefsMut<'_>;
    /// From the tuple's references.
    fn refs(refs: <Self::Set as ComponentSet>::Refs<'_>) -> Self::Refs<'_>;
    /// The same references, for a shorter borrow.
    fn shorten_mut<'a: 'b, 'b>(refs: Self::RefsMut<'a>) -> Self::RefsMut<'b>;
}

#[diagnostic::do_not_recommend]
impl<T: Component> sealed::Sealed for T {}

impl<T: Component> Types for T {
    type Set = (T,);
    type RefsMut<'a> = &'a mut T;
    type Refs<'a> = &'a T;

    #[inline(always)]
    fn refs_mut(refs: <Self::Set as ComponentSet>::RefsMut<'_>) -> Self::RefsMut<'_> {
        refs.0
    }

    #[inline(always)]
    fn refs(refs: <Self::Set as ComponentSet>::Refs<'_>) -> Self::Refs<'_> {
        refs.0
    }

    #[inline(always)]
    fn shorten_mut<'a: 'b, 'b>(refs: Self::RefsMut<'a>) -> Self::RefsMut<'b> {
        refs
    }
}

macro_rules! types {
    ($(($T:ident, $t:ident, $i:tt)),+) => {
        #[diagnostic::do_not_recommend]
        impl<$($T: Component),+> sealed::Sealed for ($($T,)+) {}

        impl<$($T: Component),+> Types for ($($T,)+) {
            type Set = Self;
            type RefsMut<'a> = ($(&'a mut $T,)+);
            type Refs<'a> = ($(&'a $T,)+);

            #[inline(always)]
            fn refs_mut(refs: <Self::Set as ComponentSet>::RefsMut<'_>) -> Self::RefsMut<'_> {
                refs
            }

            #[inline(always)]
            fn refs(refs: <Self::Set as ComponentSet>::Refs<'_>) -> Self::Refs<'_> {
                refs
            }

            #[inline(always)]
            fn shorten_mut<'a: 'b, 'b>(refs: Self::RefsMut<'a>) -> Self::RefsMut<'b> {
                let ($($t,)+) = refs;
                ($($t,)+)
            }
        }
    };
}

for_each_tuple!(types);

/// Keeps [`GroupKey`] to this crate: a world's groups are matched on their keys' shapes.
mod key_sealed {
    /// Sealing [`GroupKey`](super::GroupKey).
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be a group key: `GroupKey` is sealed",
        label = "`GroupKey` is implemented only by the keys that name a `#[group(...)]`",
        note = "a key names a group by its declaration, and a world finds its groups by their keys: the owned types in declaration order, then `Get<…>` and `Exclude<…>`, e.g. `(Velocity, Get<Position>, Exclude<Frozen>)`"
    )]
    pub trait Sealed {}
}

/// The key naming a group (see the module documentation): the types it owns, observes and
/// excludes, and what iterating it yields. Sealed: implemented for the key shapes above.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not name a group",
    label = "not a group key",
    note = "a group is named by its owned types in declaration order, then `Get<…>` and `Exclude<…>`, e.g. `(Velocity, Get<Position>, Exclude<Frozen>)`"
)]
pub trait GroupKey: key_sealed::Sealed + 'static {
    /// The owned types (`()` for a non-owning group).
    type Owned: OwnedTypes;
    /// The observed types (`()` if none).
    type Observed: ComponentSet;
    /// The excluded types (`()` if none).
    type Excluded: ComponentSet;
    /// What iterating the group yields per entity: mutable references to the owned
    /// components, then to the observed ones as `Get<…>` holds them.
    type ItemMut<'a>;
    /// The same, shared: what a group sort compares.
    type Item<'a>;
    /// Builds an item (of the shorter of the two borrows).
    fn item_mut<'a: 'c, 'b: 'c, 'c>(
        owned: <Self::Owned as ComponentSet>::RefsMut<'a>,
        observed: <Self::Observed as ComponentSet>::RefsMut<'b>,
    ) -> Self::ItemMut<'c>;
    /// Builds a shared item.
    fn item<'a>(
        owned: <Self::Owned as ComponentSet>::Refs<'a>,
        observed: <Self::Observed as ComponentSet>::Refs<'a>,
    ) -> Self::Item<'a>;
    /// The declaration, over run-time keys.
    fn decl() -> GroupDecl<ComponentKey> {
        GroupDecl {
            owned: Self::Owned::keys(),
            observed: Self::Observed::keys(),
            excluded: Self::Excluded::keys(),
        }
    }
}

macro_rules! group_keys {
    ($(($T:ident, $t:ident, $i:tt)),+) => {
        #[diagnostic::do_not_recommend]
        impl<$($T: Component),+> key_sealed::Sealed for ($($T,)+) {}

        impl<$($T: Component),+> GroupKey for ($($T,)+) {
            type Owned = Self;
            type Observed = ();
            type Excluded = ();
            type ItemMut<'a> = ($(&'a mut $T,)+);
            type Item<'a> = ($(&'a $T,)+);

            #[inline(always)]
            fn item_mut<'a: 'c, 'b: 'c, 'c>(
                owned: <Self::Owned as ComponentSet>::RefsMut<'a>,
                (): <Self::Observed as ComponentSet>::RefsMut<'b>,
            ) -> Self::ItemMut<'c> {
                let ($($t,)+) = owned;
                ($($t,)+)
            }

            #[inline(always)]
            fn item<'a>(
                owned: <Self::Owned as ComponentSet>::Refs<'a>,
                (): <Self::Observed as ComponentSet>::Refs<'a>,
            ) -> Self::Item<'a> {
                owned
            }
        }

        #[diagnostic::do_not_recommend]
        impl<$($T: Component,)+ R: Types> key_sealed::Sealed for ($($T,)+ Get<R>,) {}

        impl<$($T: Component,)+ R: Types> GroupKey for ($($T,)+ Get<R>,) {
            type Owned = ($($T,)+);
            type Observed = R::Set;
            type Excluded = ();
            type ItemMut<'a> = ($(&'a mut $T,)+ R::RefsMut<'a>,);
            type Item<'a> = ($(&'a $T,)+ R::Refs<'a>,);

            #[inline(always)]
            fn item_mut<'a: 'c, 'b: 'c, 'c>(
                owned: <Self::Owned as ComponentSet>::RefsMut<'a>,
                observed: <Self::Observed as ComponentSet>::RefsMut<'b>,
            ) -> Self::ItemMut<'c> {
                let ($($t,)+) = owned;
                ($($t,)+ R::shorten_mut(R::refs_mut(observed)),)
            }

            #[inline(always)]
            fn item<'a>(
                owned: <Self::Owned as ComponentSet>::Refs<'a>,
                observed: <Self::Observed as ComponentSet>::Refs<'a>,
            ) -> Self::Item<'a> {
                let ($($t,)+) = owned;
                ($($t,)+ R::refs(observed),)
            }
        }

        #[diagnostic::do_not_recommend]
        impl<$($T: Component,)+ X: Types> key_sealed::Sealed for ($($T,)+ Exclude<X>,) {}

        impl<$($T: Component,)+ X: Types> GroupKey for ($($T,)+ Exclude<X>,) {
            type Owned = ($($T,)+);
            type Observed = ();
            type Excluded = X::Set;
            type ItemMut<'a> = ($(&'a mut $T,)+);
            type Item<'a> = ($(&'a $T,)+);

            #[inline(always)]
            fn item_mut<'a: 'c, 'b: 'c, 'c>(
                owned: <Self::Owned as ComponentSet>::RefsMut<'a>,
                (): <Self::Observed as ComponentSet>::RefsMut<'b>,
            ) -> Self::ItemMut<'c> {
                let ($($t,)+) = owned;
                ($($t,)+)
            }

            #[inline(always)]
            fn item<'a>(
                owned: <Self::Owned as ComponentSet>::Refs<'a>,
                (): <Self::Observed as ComponentSet>::Refs<'a>,
            ) -> Self::Item<'a> {
                owned
            }
        }

        #[diagnostic::do_not_recommend]
        impl<$($T: Component,)+ R: Types, X: Types> key_sealed::Sealed for ($($T,)+ Get<R>, Exclude<X>) {}

        impl<$($T: Component,)+ R: Types, X: Types> GroupKey for ($($T,)+ Get<R>, Exclude<X>) {
            type Owned = ($($T,)+);
            type Observed = R::Set;
            type Excluded = X::Set;
            type ItemMut<'a> = ($(&'a mut $T,)+ R::RefsMut<'a>,);
            type Item<'a> = ($(&'a $T,)+ R::Refs<'a>,);

            #[inline(always)]
            fn item_mut<'a: 'c, 'b: 'c, 'c>(
                owned: <Self::Owned as ComponentSet>::RefsMut<'a>,
                observed: <Self::Observed as ComponentSet>::RefsMut<'b>,
            ) -> Self::ItemMut<'c> {
                let ($($t,)+) = owned;
                ($($t,)+ R::shorten_mut(R::refs_mut(observed)),)
            }

            #[inline(always)]
            fn item<'a>(
                owned: <Self::Owned as ComponentSet>::Refs<'a>,
                observed: <Self::Observed as ComponentSet>::Refs<'a>,
            ) -> Self::Item<'a> {
                let ($($t,)+) = owned;
                ($($t,)+ R::refs(observed),)
            }
        }
    };
}

for_each_tuple!(group_keys);

#[diagnostic::do_not_recommend]
impl<R: Types> key_sealed::Sealed for Get<R> {}

/// A non-owning group: `Get<(Health, Poisoned)>`.
impl<R: Types> GroupKey for Get<R> {
    type Owned = ();
    type Observed = R::Set;
    type Excluded = ();
    type ItemMut<'a> = R::RefsMut<'a>;
    type Item<'a> = R::Refs<'a>;

    #[inline(always)]
    fn item_mut<'a: 'c, 'b: 'c, 'c>(
        (): <Self::Owned as ComponentSet>::RefsMut<'a>,
        observed: <Self::Observed as ComponentSet>::RefsMut<'b>,
    ) -> Self::ItemMut<'c> {
        R::shorten_mut(R::refs_mut(observed))
    }

    #[inline(always)]
    fn item<'a>(
        (): <Self::Owned as ComponentSet>::Refs<'a>,
        observed: <Self::Observed as ComponentSet>::Refs<'a>,
    ) -> Self::Item<'a> {
        R::refs(observed)
    }
}

#[diagnostic::do_not_recommend]
impl<R: Types, X: Types> key_sealed::Sealed for (Get<R>, Exclude<X>) {}

/// A non-owning group with exclusions: `(Get<Health>, Exclude<Dead>)`.
impl<R: Types, X: Types> GroupKey for (Get<R>, Exclude<X>) {
    type Owned = ();
    type Observed = R::Set;
    type Excluded = X::Set;
    type ItemMut<'a> = R::RefsMut<'a>;
    type Item<'a> = R::Refs<'a>;

    #[inline(always)]
    fn item_mut<'a: 'c, 'b: 'c, 'c>(
        (): <Self::Owned as ComponentSet>::RefsMut<'a>,
        observed: <Self::Observed as ComponentSet>::RefsMut<'b>,
    ) -> Self::ItemMut<'c> {
        R::shorten_mut(R::refs_mut(observed))
    }

    #[inline(always)]
    fn item<'a>(
        (): <Self::Owned as ComponentSet>::Refs<'a>,
        observed: <Self::Observed as ComponentSet>::Refs<'a>,
    ) -> Self::Item<'a> {
        R::refs(observed)
    }
}
