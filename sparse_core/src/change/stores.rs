//! `Stores<C>`: the one bound that code written once for both kinds of world names, per
//! component type or tuple of them that it changes or reads through commands and hooks.
//!
//! Rust proves what a generic function needs only from bounds on the world itself (a
//! trait's supertraits), so the work for each shape — one type, or a tuple whose types a
//! `#[world]` proves distinct — is a supertrait of `Stores`: [`StoreComponents`], one impl
//! per shape. The methods of [`Commands`](crate::Commands) and
//! [`HookWorld`](crate::HookWorld) name [`Components<W>`](crate::Components), which every
//! `C` the world stores implements.

use crate::change::bundle::Bundle;
use crate::change::{ComponentShape, Edit, EditEntities, Lookup, ReadComponents};
use crate::component::Component;
use crate::component_set::ComponentSet;
use crate::entity::{Entity, EntityError};
use crate::lend::AllApart;

/// The world stores `C`: one component type, or a tuple of distinct ones. The bound a
/// system or a hook written once for both kinds of world names, once for each type or tuple
/// it passes to its commands (`insert`, `remove`, `spawn`, `spawn_reserved`) or reads and
/// writes through its [`HookWorld`](crate::HookWorld) (`get`, `get_mut`); with
/// [`LendResource<R>`](crate::LendResource) for each resource it sends to or borrows, it is
/// the whole signature: `fn breed<W: Stores<Egg> + Stores<(Bird, Nest)>>(birds:
/// &Storage<Bird>, commands: &mut Commands<W>)` runs in a schedule of a `#[world]` storing
/// the three types and of the run-time `World` (the guide's Systems chapter has it whole).
///
/// A `#[world]` stores `C` when it has a storage of each type (a tuple naming a type twice
/// is refused at compile time); the run-time [`World`](crate::World) stores every component
/// type and every tuple of them (one naming a type twice panics when applied). `W:
/// Stores<C>` implies `W: EditEntities + 'static`, what `Commands<W>` and `HookWorld<W>`
/// ask of the world. Nothing outside the crate implements it: every world stores what its
/// storages hold.
#[diagnostic::on_unimplemented(
    message = "the world `{Self}` does not store `{C}`",
    label = "not a component type of this world, or a tuple of distinct ones",
    note = "a `#[world]` stores the types it has a `Storage<T>` field of, the run-time `World` every component type; code generic over its world names `W: Stores<T>` (or `Stores<(A, B)>`) for each type or tuple it changes or reads"
)]
pub trait Stores<C: ComponentShape>: EditEntities + 'static + StoreComponents<C> {}

#[diagnostic::do_not_recommend]
impl<W: EditEntities + 'static + StoreComponents<C>, C: ComponentShape> Stores<C> for W {}

/// What storing `C` means for a world, one impl per shape (one type; a tuple of distinct
/// ones): the supertrait through which a [`Stores`] bound reaches the work. Hidden; the
/// crate's impls cover every world, and whatever another impl did would only change that
/// world's own components through its own safe methods.
#[doc(hidden)]
pub trait StoreComponents<C: ComponentShape> {
    fn insert_components(
        &mut self,
        entity: Entity,
        components: C,
    ) -> Result<C::Previous, EntityError>;
    fn remove_components(&mut self, entity: Entity) -> C::Previous;
    fn components(&self, entity: Entity) -> Option<C::Refs<'_>>;
    fn component_mut(&mut self, entity: Entity) -> Option<&mut C>
    where
        C: Component;
    fn spawn_components(&mut self, components: C) -> Entity;
    fn spawn_reserved_components(
        &mut self,
        entity: Entity,
        components: C,
    ) -> Result<(), EntityError>;
}

impl<W, T: Component> StoreComponents<T> for W
where
    W: Edit<T> + Lookup<T>,
    (T,): Bundle<W>,
{
    #[inline]
    fn insert_components(&mut self, entity: Entity, value: T) -> Result<Option<T>, EntityError> {
        self.insert(entity, value)
    }

    #[inline]
    fn remove_components(&mut self, entity: Entity) -> Option<T> {
        self.remove(entity)
    }

    #[inline]
    fn components(&self, entity: Entity) -> Option<&T> {
        self.lookup(entity)
    }

    #[inline]
    fn component_mut(&mut self, entity: Entity) -> Option<&mut T> {
        self.lookup_mut(entity)
    }

    #[inline]
    fn spawn_components(&mut self, value: T) -> Entity {
        self.spawn_with((value,))
    }

    #[inline]
    fn spawn_reserved_components(&mut self, entity: Entity, value: T) -> Result<(), EntityError> {
        self.spawn_reserved(entity, (value,))
    }
}

/// Whether `entity` is alive, counting the entities reserved through `&Entities` (which
/// the next structural change makes alive).
pub(crate) fn flush_is_alive<W: EditEntities>(world: &mut W, entity: Entity) -> bool {
    world.entities().is_alive(entity) || {
        world.flush_entities();
        world.entities().is_alive(entity)
    }
}

/// A tuple goes through the world's change methods one type at a time, in the tuple's
/// order; a dead entity is refused before anything changes.
macro_rules! stored_tuple {
    ($(($T:ident, $t:ident, $i:tt)),+) => {
        impl<W, $($T: Component),+> StoreComponents<($($T,)+)> for W
        where
            W: $(Edit<$T> + Lookup<$T> +)+ AllApart<<($($T,)+) as ComponentSet>::List>,
            ($($T,)+): Bundle<W>,
        {
            fn insert_components(
                &mut self,
                entity: Entity,
                ($($t,)+): ($($T,)+),
            ) -> Result<($(Option<$T>,)+), EntityError> {
                assert!(<($($T,)+)>::distinct(), "a tuple of components names a type twice");
                if !flush_is_alive(self, entity) {
                    return Err(EntityError::Dead(entity));
                }
                // The entity is alive and every type is stored: no insert can refuse.
                Ok(($(<W as Edit<$T>>::insert(self, entity, $t).unwrap_or(None),)+))
            }

            fn remove_components(&mut self, entity: Entity) -> ($(Option<$T>,)+) {
                assert!(<($($T,)+)>::distinct(), "a tuple of components names a type twice");
                ($(<W as Edit<$T>>::remove(self, entity),)+)
            }

            #[inline]
            fn components(&self, entity: Entity) -> Option<($(&$T,)+)> {
                <($($T,)+) as ReadComponents<W>>::get(self, entity)
            }

            fn component_mut(&mut self, _: Entity) -> Option<&mut ($($T,)+)>
            where
                ($($T,)+): Component,
            {
                unreachable!("a tuple is not a component")
            }

            #[inline]
            fn spawn_components(&mut self, components: ($($T,)+)) -> Entity {
                self.spawn_with(components)
            }

            #[inline]
            fn spawn_reserved_components(
                &mut self,
                entity: Entity,
                components: ($($T,)+),
            ) -> Result<(), EntityError> {
                self.spawn_reserved(entity, components)
            }
        }
    };
}

for_each_tuple!(stored_tuple);
