//! One entity's components, by type or by tuple of types: what `insert`, `remove`,
//! `get`, `get_mut` and `contains` take, in both kinds of world.
//!
//! | call | one type `T` | a tuple `(A, B, …)` |
//! | --- | --- | --- |
//! | `insert(e, v)` | `Result<Option<T>, _>` | `Result<(Option<A>, Option<B>, …), _>` |
//! | `remove::<C>(e)` | `Option<T>` | `(Option<A>, Option<B>, …)` |
//! | `get::<C>(e)` | `Option<&T>` | `Option<(&A, &B, …)>`, `None` unless all are there |
//! | `contains::<C>(e)` | has a `T` | has them all |
//! | `get_mut::<G>(e)` | `Option<&mut T>` | `G` a query, `(&mut A, &B, …)`: its item |
//!
//! A tuple goes through the world's change methods one type at a time, in the tuple's order: each
//! type's insert (or remove) runs its steps once, so a group is entered when its last
//! component arrives and left when its first one goes, exactly as the same calls one by
//! one would do. A dead entity is refused before anything changes.

use crate::access::{Borrow, Query, View};
use crate::change::Stores;
use crate::component::Component;
use crate::entity::{Entity, EntityError};
use crate::lend::WorldParts;

/// Keeps the traits of this module to this crate.
mod sealed {
    /// Sealing [`Components`](super::Components), [`ReadComponents`](super::ReadComponents)
    /// and [`GetMut`](super::GetMut).
    #[diagnostic::on_unimplemented(
        message = "`{Self}` is not a component type or a tuple of component types",
        label = "expected `T` or `(A, B, …)` of types that implement `Component`",
        note = "one entity's components are named by type, e.g. `get::<Position>(e)` or `remove::<(Position, Velocity)>(e)`; `get_mut` of several takes a query, e.g. `get_mut::<(&mut Position, &Velocity)>(e)`"
    )]
    pub trait Sealed {}
}

/// A world that finds one entity's `T`: every `#[world]` storing `T`, and the run-time
/// [`World`](crate::World) for every `T`. What [`ReadComponents`] and [`GetMut`] are
/// built on; a lookup can only lend what the world holds.
#[diagnostic::on_unimplemented(
    message = "the world `{Self}` does not store `{T}`",
    label = "no storage of `{T}` in this world",
    note = "add a field of type `Storage<{T}>` to the world (spelled the same way everywhere)"
)]
pub trait Lookup<T> {
    /// `entity`'s `T`.
    fn lookup(&self, entity: Entity) -> Option<&T>;
    /// `entity`'s `T`, mutably.
    fn lookup_mut(&mut self, entity: Entity) -> Option<&mut T>;
}

/// One component type `T` or a tuple `(A, B, …)` of them, whatever the world: what a
/// change of them hands back and what a read of them lends. Sealed; [`Components`],
/// [`ReadComponents`] and [`Stores`](crate::Stores) build on it.
pub trait ComponentShape: sealed::Sealed + Sized + 'static {
    /// What was there before: `Option<T>` for one type, a tuple of `Option`s for a tuple.
    type Previous;
    /// `&T` for one type, `(&A, &B, …)` for a tuple.
    type Refs<'w>;
}

/// A component type, or a tuple of distinct ones, that `insert` stores and `remove`
/// takes on one entity. Sealed.
///
/// | call | one type `T` | a tuple `(A, B, …)` |
/// | --- | --- | --- |
/// | `insert(e, v)` | `Result<Option<T>, _>` | `Result<(Option<A>, Option<B>, …), _>` |
/// | `remove::<C>(e)` | `Option<T>` | `(Option<A>, Option<B>, …)` |
///
/// A tuple goes through the world's change methods one type at a time, in the tuple's order, as
/// the same calls one by one would; a dead entity is refused before anything changes.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a component of `{W}` or a tuple of its components",
    label = "not `T` or `(A, B, …)` of types this world stores, each once",
    note = "insert one component (`insert(e, Health(3))`) or a tuple of distinct ones (`insert(e, (Frozen, Health(3)))`)"
)]
pub trait Components<W>: ComponentShape {
    /// Stores each component for `entity` through the world's change methods, in tuple order.
    ///
    /// # Errors
    /// [`EntityError::Dead`] if `entity` is not alive; nothing is written.
    #[doc(hidden)]
    fn insert(self, world: &mut W, entity: Entity) -> Result<Self::Previous, EntityError>;
    /// Removes each type from `entity` through the world's change methods, in tuple order.
    #[doc(hidden)]
    fn remove(world: &mut W, entity: Entity) -> Self::Previous;
    /// `entity`'s components, if it has them all.
    #[doc(hidden)]
    fn get_in(world: &W, entity: Entity) -> Option<Self::Refs<'_>>;
    /// `entity`'s component, mutably (one type only).
    #[doc(hidden)]
    fn get_mut_in(world: &mut W, entity: Entity) -> Option<&mut Self>
    where
        Self: Component;
    /// Spawns an entity with the components, as the world's `spawn_with` does.
    #[doc(hidden)]
    fn spawn(self, world: &mut W) -> Entity;
    /// Gives the reserved `entity` the components, as the world's `spawn_reserved` does.
    #[doc(hidden)]
    fn spawn_reserved(self, world: &mut W, entity: Entity) -> Result<(), EntityError>;
}

/// What the world's [`Stores`] does for `C`, named from `C`'s side: methods name this bound
/// (code generic over its world names `W: Stores<C>`, which implies it) so that a world's
/// one `Stores` bound never decides a call's component type before its argument does.
impl<W: Stores<C>, C: ComponentShape> Components<W> for C {
    #[doc(hidden)]
    #[inline]
    fn insert(self, world: &mut W, entity: Entity) -> Result<C::Previous, EntityError> {
        world.insert_components(entity, self)
    }

    #[doc(hidden)]
    #[inline]
    fn remove(world: &mut W, entity: Entity) -> C::Previous {
        world.remove_components(entity)
    }

    #[doc(hidden)]
    #[inline]
    fn get_in(world: &W, entity: Entity) -> Option<C::Refs<'_>> {
        world.components(entity)
    }

    #[doc(hidden)]
    #[inline]
    fn get_mut_in(world: &mut W, entity: Entity) -> Option<&mut C>
    where
        C: Component,
    {
        world.component_mut(entity)
    }

    #[doc(hidden)]
    #[inline]
    fn spawn(self, world: &mut W) -> Entity {
        world.spawn_components(self)
    }

    #[doc(hidden)]
    #[inline]
    fn spawn_reserved(self, world: &mut W, entity: Entity) -> Result<(), EntityError> {
        world.spawn_reserved_components(entity, self)
    }
}

/// A component type, or a tuple of them, that `get` and `contains` read on one entity.
/// Sealed.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a component of `{W}` or a tuple of its components",
    label = "not `T` or `(A, B, …)` of types this world stores",
    note = "read one component (`get::<Position>(e)`) or several (`get::<(Position, Velocity)>(e)`)"
)]
pub trait ReadComponents<W>: ComponentShape {
    /// `entity`'s components, if it has them all.
    #[doc(hidden)]
    fn get(world: &W, entity: Entity) -> Option<Self::Refs<'_>>;

    /// Whether `entity` has them all.
    #[doc(hidden)]
    fn contains(world: &W, entity: Entity) -> bool;
}

/// What `get_mut` takes: a component type `T` (giving `&mut T`), or a query tuple such as
/// `(&mut A, &B, Option<&mut C>)` (giving its item), checked for aliasing as a view is:
/// at compile time on a `#[world]`, when called on the run-time
/// [`World`](crate::World). Sealed.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be borrowed mutably from one entity of `{W}`",
    label = "not a stored component type `T`, or a query tuple such as `(&mut A, &B)`",
    note = "`get_mut::<Position>(e)` gives `&mut Position`; several at once: `get_mut::<(&mut Position, &Velocity)>(e)`, each type once"
)]
pub trait GetMut<'w, W: 'w>: sealed::Sealed {
    /// `&mut T`, or the query's item.
    type Item;

    /// `entity`'s item, if it has every required component.
    #[doc(hidden)]
    fn get_mut(world: &'w mut W, entity: Entity) -> Option<Self::Item>;
}

#[diagnostic::do_not_recommend]
impl<T: Component> sealed::Sealed for T {}

impl<T: Component> ComponentShape for T {
    type Previous = Option<T>;
    type Refs<'w> = &'w T;
}

impl<W: Lookup<T>, T: Component> ReadComponents<W> for T {
    #[doc(hidden)]
    #[inline]
    fn get(world: &W, entity: Entity) -> Option<&T> {
        world.lookup(entity)
    }

    #[doc(hidden)]
    #[inline]
    fn contains(world: &W, entity: Entity) -> bool {
        world.lookup(entity).is_some()
    }
}

impl<'w, W: Lookup<T> + 'w, T: Component> GetMut<'w, W> for T {
    type Item = &'w mut T;

    #[doc(hidden)]
    #[inline]
    fn get_mut(world: &'w mut W, entity: Entity) -> Option<&'w mut T> {
        world.lookup_mut(entity)
    }
}

#[cold]
#[inline(never)]
fn aliased(error: crate::AccessError) -> ! {
    panic!("get_mut: {error}")
}

macro_rules! component_tuple {
    ($(($T:ident, $t:ident, $i:tt)),+) => {
        #[diagnostic::do_not_recommend]
        impl<$($T),+> sealed::Sealed for ($($T,)+) {}

        impl<$($T: Component),+> ComponentShape for ($($T,)+) {
            type Previous = ($(Option<$T>,)+);
            type Refs<'w> = ($(&'w $T,)+);
        }

        impl<W, $($T: Component),+> ReadComponents<W> for ($($T,)+)
        where
            W: $(Lookup<$T> +)+ Sized,
        {
            #[doc(hidden)]
            #[inline]
            fn get(world: &W, entity: Entity) -> Option<Self::Refs<'_>> {
                Some(($(<W as Lookup<$T>>::lookup(world, entity)?,)+))
            }

            #[doc(hidden)]
            #[inline]
            fn contains(world: &W, entity: Entity) -> bool {
                $(<W as Lookup<$T>>::lookup(world, entity).is_some())&&+
            }
        }

        impl<'w, W: WorldParts + 'w, $($T: Query),+> GetMut<'w, W> for ($($T,)+)
        where
            View<'w, ($($T,)+)>: Borrow<'w, W>,
        {
            type Item = <($($T,)+) as Query>::Item<'w>;

            #[doc(hidden)]
            fn get_mut(world: &'w mut W, entity: Entity) -> Option<Self::Item> {
                <View<'w, ($($T,)+)> as Borrow<'w, W>>::prepare(world);
                // A `#[world]` proves at compile time that the query does not alias (the
                // `Borrow` bound); the run-time world checks it here.
                let view = <View<'w, ($($T,)+)> as Borrow<'w, W>>::take(&mut world.parts())
                    .unwrap_or_else(|error| aliased(error));
                view.into_item(entity)
            }
        }
    };
}

for_each_tuple!(component_tuple);
