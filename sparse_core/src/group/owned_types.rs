//! A group's owned types moving a run-time world's storages: the engine's one-entity
//! moves over the typed storages, so that a run-time world's group step runs the same
//! inlined code as a `#[world]`'s.
//!
//! ```text
//! run-time world:  storages [AnyStorage; n]            owned = [3, 0, 5]
//!                                     |  picked by index, checked to be Storage<T>
//!                                     v
//! typed tuple:     (&mut Storage<A>, &mut Storage<B>, &mut Storage<C>)  -> enter / leave
//! ```
//!
//! Through `dyn ErasedStorage` each swap and lookup would be a call of unknown target, and
//! each swap a copy of unknown size: the one-entity steps (`World::insert`, `remove`)
//! spent most of their time there. [`OwnedTypes::at_slot`] goes one step further: code
//! made for one owned type's slot, so that a step for that type reads no slot at run
//! time (each group's types get one such function per slot and per direction).

use crate::component::Component;
use crate::component_set::ComponentSet;
use crate::entity::Entity;
use crate::group::{Aligned, PositionHint, enter, enter_each, leave, leave_many};
use crate::storage::{AnyStorage, Marks};

/// Keeps [`OwnedTypes`] to this crate.
mod sealed {
    /// Sealing [`OwnedTypes`](super::OwnedTypes).
    pub trait Sealed {}
}

/// The owned types of a group (`()` for a non-owning one): moves an entity in or out of
/// the group among a run-time world's type-erased storages. Sealed: implemented for `()`
/// and tuples of components.
#[doc(hidden)]
pub trait OwnedTypes: ComponentSet + sealed::Sealed {
    /// The storages at `owned` (one index per type, in order), typed.
    ///
    /// # Panics
    /// Panics if `owned` has fewer indices than the tuple has types, or an index is out
    /// of bounds, repeated, or holds a storage of another type (a run-time world
    /// registers one storage per type and checks each group's types distinct, so it
    /// never does). Indices past the tuple's types are not read.
    #[doc(hidden)]
    fn typed<'s>(storages: &'s mut [AnyStorage], owned: &[usize]) -> Self::Storages<'s>;
    /// [`enter`] over the storages at `owned` (one per type, in order), with the filter's
    /// answer given: the entity's position afterwards, as `enter` returns it.
    ///
    /// # Panics
    /// As [`typed`](OwnedTypes::typed).
    #[doc(hidden)]
    fn enter_erased(
        storages: &mut [AnyStorage],
        owned: &[usize],
        len: &mut usize,
        entity: Entity,
        hint: PositionHint,
        admitted: bool,
    ) -> usize;
    /// [`leave`] over the storages at `owned`: the entity's position afterwards.
    ///
    /// # Panics
    /// As [`typed`](OwnedTypes::typed).
    #[doc(hidden)]
    fn leave_erased(
        storages: &mut [AnyStorage],
        owned: &[usize],
        len: &mut usize,
        entity: Entity,
        hint: PositionHint,
    ) -> usize;
    /// [`enter_each`] over the storages at `owned`, `admitted[i]` being the filter's
    /// answer for `entities[i]`.
    ///
    /// # Panics
    /// As [`typed`](OwnedTypes::typed), and if `admitted` is shorter than `entities`.
    #[doc(hidden)]
    fn enter_each_erased(
        storages: &mut [AnyStorage],
        owned: &[usize],
        len: &mut usize,
        entities: &[Entity],
        aligned: Aligned,
        admitted: &[bool],
    );
    /// [`leave_many`] over the storages at `owned`, for `entities` (marked in `marks`).
    ///
    /// # Panics
    /// As [`typed`](OwnedTypes::typed).
    #[doc(hidden)]
    fn leave_many_erased(
        storages: &mut [AnyStorage],
        owned: &[usize],
        len: &mut usize,
        entities: &[Entity],
        marks: &Marks,
    );
    /// [`PerSlot::make`] for owned type number `slot` of these types, the slot a
    /// constant in what it makes; `None` past the last type.
    #[doc(hidden)]
    fn at_slot<Make: PerSlot>(slot: usize) -> Option<Make::Output>;
}

/// Something made for one owned type of a group, the type's slot among the owned types
/// known at compile time (see [`OwnedTypes::at_slot`]).
pub trait PerSlot {
    /// What is made.
    type Output;
    /// Makes it for owned type number `SLOT` of `O`.
    fn make<O: OwnedTypes, const SLOT: usize>() -> Self::Output;
}

impl sealed::Sealed for () {}

/// A non-owning group moves no storage: its members are a set of their own.
impl OwnedTypes for () {
    fn typed<'s>(_: &'s mut [AnyStorage], _: &[usize]) -> Self::Storages<'s> {}

    fn enter_erased(
        _: &mut [AnyStorage],
        _: &[usize],
        _: &mut usize,
        _: Entity,
        hint: PositionHint,
        _: bool,
    ) -> usize {
        hint.position()
    }

    fn leave_erased(
        _: &mut [AnyStorage],
        _: &[usize],
        _: &mut usize,
        _: Entity,
        hint: PositionHint,
    ) -> usize {
        hint.position()
    }

    fn enter_each_erased(
        _: &mut [AnyStorage],
        _: &[usize],
        _: &mut usize,
        _: &[Entity],
        _: Aligned,
        _: &[bool],
    ) {
    }

    fn leave_many_erased(
        _: &mut [AnyStorage],
        _: &[usize],
        _: &mut usize,
        _: &[Entity],
        _: &Marks,
    ) {
    }

    fn at_slot<Make: PerSlot>(_: usize) -> Option<Make::Output> {
        None
    }
}

/// The message of a storage index that does not hold the owned type it names.
const NOT_OWNED: &str = "a group's owned storages are distinct storages of its owned types";

macro_rules! owned_types {
    ($(($T:ident, $t:ident, $i:tt)),+) => {
        impl<$($T: Component),+> sealed::Sealed for ($($T,)+) {}

        impl<$($T: Component),+> OwnedTypes for ($($T,)+) {
            #[inline(always)]
            fn typed<'s>(
                storages: &'s mut [AnyStorage],
                owned: &[usize],
            ) -> Self::Storages<'s> {
                let [$($t,)+] = storages
                    .get_disjoint_mut([$(owned[$i],)+])
                    .expect(NOT_OWNED);
                ($($t.storage_of_mut::<$T>().expect(NOT_OWNED),)+)
            }

            #[inline(always)]
            fn enter_erased(
                storages: &mut [AnyStorage],
                owned: &[usize],
                len: &mut usize,
                entity: Entity,
                hint: PositionHint,
                admitted: bool,
            ) -> usize {
                enter(Self::typed(storages, owned), len, entity, hint, || admitted)
            }

            #[inline(always)]
            fn leave_erased(
                storages: &mut [AnyStorage],
                owned: &[usize],
                len: &mut usize,
                entity: Entity,
                hint: PositionHint,
            ) -> usize {
                leave(Self::typed(storages, owned), len, entity, hint)
            }

            #[inline]
            fn enter_each_erased(
                storages: &mut [AnyStorage],
                owned: &[usize],
                len: &mut usize,
                entities: &[Entity],
                aligned: Aligned,
                admitted: &[bool],
            ) {
                enter_each(Self::typed(storages, owned), len, entities, aligned, |i, _| admitted[i]);
            }

            #[inline]
            fn leave_many_erased(
                storages: &mut [AnyStorage],
                owned: &[usize],
                len: &mut usize,
                entities: &[Entity],
                marks: &Marks,
            ) {
                let count = entities.len();
                leave_many(Self::typed(storages, owned), len, count, entities.iter().copied(), marks);
            }

            fn at_slot<Make: PerSlot>(slot: usize) -> Option<Make::Output> {
                match slot {
                    $($i => Some(Make::make::<Self, $i>()),)+
                    _ => None,
                }
            }
        }
    };
}

for_each_tuple!(owned_types);
