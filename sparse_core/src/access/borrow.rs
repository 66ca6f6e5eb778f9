//! Borrow requests: several parts of one world at once — groups, views, storages — as one
//! tuple type, checked at compile time to alias nothing.

use super::filter::{Filter, FilterOf};
use super::lend_group::LendGroup;
use super::query::{Query, QueryOf, ReadOnlyQuery, cat};
use super::values::ValuesMut;
use super::view::View;
use crate::component::Component;
use crate::component_set::ComponentSet;
use crate::entity::Entities;
use crate::group::{GroupKey, GroupMut, GroupRef};
use crate::lend::{
    AccessError, Cons, LendResource, LendStorage, List, Nil, NoAlias, NonEmpty, WorldParts,
};
use crate::resource::{Res, ResMut, Resource};
use crate::storage::Storage;

/// Keeps [`Borrow`] and [`ReadOnly`] to this crate: a borrow's parts are taken from the
/// world's slots, and only this crate's parts take what they declare.
mod sealed {
    /// Sealing [`Borrow`](super::Borrow).
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be borrowed from a world: `Borrow` is sealed",
        label = "`Borrow` is implemented only by the parts of a world",
        note = "a part takes from the world exactly what it declares, and the compile-time borrow rule trusts the declaration: the parts are `GroupMut<K>`, `GroupRef<K>`, `View<Q, F>`, `ValuesMut<T>`, `&Storage<T>`, `Res<R>`, `ResMut<R>`, `&Entities`, and tuples of them"
    )]
    pub trait Sealed {}

    /// Sealing [`ReadOnly`](super::ReadOnly).
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be a read-only borrow: `ReadOnly` is sealed (only `GroupRef<K>`, views that only read, `&Storage<T>`, `Res<R>`, `&Entities` and tuples of them borrow without writing)",
        label = "`ReadOnly` is implemented only by the parts that never write",
        note = "`borrow_ref` lends parts through `&self`: a part that writes there would alias the world's other shared borrows"
    )]
    pub trait SharedOnly {}
}

/// A part of a world that a borrow request can take, or a tuple of parts (up to 16),
/// taken together:
///
/// | part | gives | borrows |
/// | --- | --- | --- |
/// | [`GroupMut<K>`](GroupMut) | the group, values mutable | its owned and observed types, mutably |
/// | [`GroupRef<K>`](GroupRef) | the group, read only | its owned and observed types, shared |
/// | [`View<Q, F>`](View) | a view | `Q`'s types as `Q` says, `F`'s types shared |
/// | [`ValuesMut<T>`](ValuesMut) | one storage's values, mutable | `T`, mutably |
/// | [`&Storage<T>`](Storage) | one storage, read only | `T`, shared |
/// | [`Res<R>`](Res) | one resource, read only | `R`, shared |
/// | [`ResMut<R>`](ResMut) | one resource, mutable | `R`, mutably |
/// | [`&Entities`](Entities) | the entities (e.g. to reserve some) | nothing |
///
/// A tuple borrows what its parts borrow. The compiler checks that no type is borrowed
/// mutably twice, or mutably and shared: an overlapping request does not compile, and the
/// error names the type. No part can change the structure of a storage, so every group
/// stays valid while parts are out. Sealed: the parts are this crate's, each taking from
/// the world's slots exactly what it declares.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be borrowed from `{W}`",
    label = "not a part of this world, or a tuple of parts",
    note = "a borrow request is a part or a tuple of parts: `GroupMut<K>`, `GroupRef<K>`, `View<Q, F>`, `ValuesMut<T>`, `&Storage<T>`, `Res<R>`, `ResMut<R>`, `&Entities`"
)]
pub trait Borrow<'w, W: WorldParts + 'w>: Sized + sealed::Sealed {
    /// The types written, as a type-level list.
    type Writes: List;
    /// The types read, as a type-level list.
    type Reads: List;
    /// Makes sure the storages exist (the run-time world creates them on demand).
    #[doc(hidden)]
    fn prepare(_world: &mut W) {}
    /// Takes the parts from the world's parts.
    #[doc(hidden)]
    fn take(parts: &mut W::Parts<'w>) -> Result<Self, AccessError>;
}

/// A borrow request that only reads: what `borrow_ref` (through `&self`) can serve.
#[diagnostic::on_unimplemented(
    message = "`{Self}` can write, but this borrow is read-only",
    label = "a mutable part in a read-only borrow",
    note = "`borrow_ref` lends `GroupRef<K>`, read-only views, `&Storage<T>`, `Res<R>` and `&Entities`; use `borrow` (through `&mut`) for mutable parts"
)]
pub trait ReadOnly: sealed::SharedOnly {}

#[diagnostic::do_not_recommend]
impl<K: GroupKey> sealed::Sealed for GroupMut<'_, K> {}
#[diagnostic::do_not_recommend]
impl<K: GroupKey> sealed::Sealed for GroupRef<'_, K> {}
#[diagnostic::do_not_recommend]
impl<T> sealed::Sealed for &Storage<T> {}
#[diagnostic::do_not_recommend]
impl<T> sealed::Sealed for ValuesMut<'_, T> {}
#[diagnostic::do_not_recommend]
impl sealed::Sealed for &Entities {}
#[diagnostic::do_not_recommend]
impl<Q: Query, F: Filter> sealed::Sealed for View<'_, Q, F> {}
#[diagnostic::do_not_recommend]
impl<R> sealed::Sealed for Res<'_, R> {}
#[diagnostic::do_not_recommend]
impl<R> sealed::Sealed for ResMut<'_, R> {}

impl<'w, W: LendGroup<K> + 'w, K: GroupKey> Borrow<'w, W> for GroupMut<'w, K> {
    type Writes =
        <<K::Owned as ComponentSet>::List as List>::Then<<K::Observed as ComponentSet>::List>;
    type Reads = Nil;

    #[inline(always)]
    fn take(parts: &mut W::Parts<'w>) -> Result<Self, AccessError> {
        W::lend_group(parts)
    }
}

impl<'w, W: LendGroup<K> + 'w, K: GroupKey> Borrow<'w, W> for GroupRef<'w, K> {
    type Writes = Nil;
    type Reads =
        <<K::Owned as ComponentSet>::List as List>::Then<<K::Observed as ComponentSet>::List>;

    #[inline(always)]
    fn take(parts: &mut W::Parts<'w>) -> Result<Self, AccessError> {
        W::lend_group_ref(parts)
    }
}

#[diagnostic::do_not_recommend]
impl<K: GroupKey> sealed::SharedOnly for GroupRef<'_, K> {}

impl<K: GroupKey> ReadOnly for GroupRef<'_, K> {}

impl<'w, W: LendStorage<T> + 'w, T: Component> Borrow<'w, W> for &'w Storage<T> {
    type Writes = Nil;
    type Reads = Cons<T, Nil>;

    fn prepare(world: &mut W) {
        W::prepare(world);
    }

    #[inline(always)]
    fn take(parts: &mut W::Parts<'w>) -> Result<Self, AccessError> {
        W::slot(parts)?.take_shared()
    }
}

#[diagnostic::do_not_recommend]
impl<T> sealed::SharedOnly for &Storage<T> {}

impl<T> ReadOnly for &Storage<T> {}

impl<'w, W: LendStorage<T> + 'w, T: Component> Borrow<'w, W> for ValuesMut<'w, T> {
    type Writes = Cons<T, Nil>;
    type Reads = Nil;

    fn prepare(world: &mut W) {
        W::prepare(world);
    }

    #[inline(always)]
    fn take(parts: &mut W::Parts<'w>) -> Result<Self, AccessError> {
        Ok(ValuesMut::new(W::slot(parts)?.take_mut()?))
    }
}

impl<'w, W: LendResource<R> + 'w, R: 'static> Borrow<'w, W> for Res<'w, R> {
    type Writes = Nil;
    type Reads = Cons<Resource<R>, Nil>;

    #[inline(always)]
    fn take(parts: &mut W::Parts<'w>) -> Result<Self, AccessError> {
        Ok(Res::new(W::resource_slot(parts)?.take_shared()?))
    }
}

#[diagnostic::do_not_recommend]
impl<R> sealed::SharedOnly for Res<'_, R> {}

impl<R> ReadOnly for Res<'_, R> {}

impl<'w, W: LendResource<R> + 'w, R: 'static> Borrow<'w, W> for ResMut<'w, R> {
    type Writes = Cons<Resource<R>, Nil>;
    type Reads = Nil;

    #[inline(always)]
    fn take(parts: &mut W::Parts<'w>) -> Result<Self, AccessError> {
        Ok(ResMut::new(W::resource_slot(parts)?.take_mut()?))
    }
}

impl<'w, W: WorldParts + 'w> Borrow<'w, W> for &'w Entities {
    type Writes = Nil;
    type Reads = Nil;

    #[inline(always)]
    fn take(parts: &mut W::Parts<'w>) -> Result<Self, AccessError> {
        Ok(W::entities_of(parts))
    }
}

#[diagnostic::do_not_recommend]
impl sealed::SharedOnly for &Entities {}

impl ReadOnly for &Entities {}

impl<'w, W, Q, F> Borrow<'w, W> for View<'w, Q, F>
where
    W: WorldParts + 'w,
    Q: QueryOf<W>,
    F: FilterOf<W>,
    W: NoAlias<Q::Writes, Q::Reads>,
    <Q::Required as List>::Then<F::Required>: NonEmpty,
{
    type Writes = Q::Writes;
    type Reads = Q::Reads;

    fn prepare(world: &mut W) {
        Q::prepare(world);
        F::prepare(world);
    }

    #[inline(always)]
    fn take(parts: &mut W::Parts<'w>) -> Result<Self, AccessError> {
        View::take::<W>(parts)
    }
}

#[diagnostic::do_not_recommend]
impl<Q: ReadOnlyQuery, F: Filter> sealed::SharedOnly for View<'_, Q, F> {}

impl<Q: ReadOnlyQuery, F: Filter> ReadOnly for View<'_, Q, F> {}

macro_rules! borrow_tuple {
    ($(($P:ident, $p:ident, $i:tt)),+) => {
        impl<'w, W: WorldParts + 'w, $($P: Borrow<'w, W>),+> Borrow<'w, W> for ($($P,)+)
        where
            W: NoAlias<cat!($($P::Writes,)+ Nil), cat!($($P::Reads,)+ Nil)>,
        {
            type Writes = cat!($($P::Writes,)+ Nil);
            type Reads = cat!($($P::Reads,)+ Nil);

            fn prepare(world: &mut W) {
                $($P::prepare(world);)+
            }

            #[inline(always)]
            fn take(parts: &mut W::Parts<'w>) -> Result<Self, AccessError> {
                Ok(($($P::take(parts)?,)+))
            }
        }

        #[diagnostic::do_not_recommend]
        impl<$($P: sealed::Sealed),+> sealed::Sealed for ($($P,)+) {}

        #[diagnostic::do_not_recommend]
        impl<$($P: ReadOnly),+> sealed::SharedOnly for ($($P,)+) {}

        impl<$($P: ReadOnly),+> ReadOnly for ($($P,)+) {}
    };
}

for_each_tuple!(borrow_tuple);
