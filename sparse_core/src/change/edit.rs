//! The structural changes every world offers, as traits: what commands, bundles and
//! generic code call, implemented by each `#[world]` and by the run-time
//! [`World`](crate::World).

use core::fmt;

use crate::entity::{Entities, Entity, EntityError};
use crate::lend::WorldParts;

use super::bundle::Bundle;
use super::steps::WorldInfo;

/// Structural changes of one component type, through the world's group steps (so every group
/// stays valid): implemented by every `#[world]` storing `T`, and by the run-time
/// [`World`](crate::World) for every `T`.
#[diagnostic::on_unimplemented(
    message = "the world `{Self}` does not store `{T}`",
    label = "no storage of `{T}` in this world",
    note = "add a field of type `Storage<{T}>` to the world (spelled the same way everywhere)"
)]
pub trait Edit<T>: EditEntities {
    /// Stores `value` for `entity` (entering the groups it completes, outermost first);
    /// returns the value it replaces.
    ///
    /// # Errors
    /// [`EntityError::Dead`] if `entity` is not alive; nothing is written.
    fn insert(&mut self, entity: Entity, value: T) -> Result<Option<T>, EntityError>;
    /// Leaves the groups requiring `T` (innermost first), then removes the component.
    fn remove(&mut self, entity: Entity) -> Option<T>;
    #[doc = crate::__method_doc!(insert_many)]
    fn insert_many(&mut self, items: Vec<(Entity, T)>) -> Result<usize, InsertManyError<T>>;
    #[doc = crate::__method_doc!(remove_many)]
    fn remove_many(&mut self, entities: &[Entity]) -> usize;
    #[doc = crate::__method_doc!(clear)]
    fn clear(&mut self);
}

/// Structural changes of whole entities: implemented by every world.
pub trait EditEntities: WorldParts + Sized {
    #[doc = crate::__method_doc!(entities)]
    fn entities(&self) -> &Entities;
    /// Makes the entities reserved through [`&Entities`](Entities::reserve) alive, with no
    /// component (what every structural change does first). Hidden: the world's own
    /// structural changes call it.
    #[doc(hidden)]
    fn flush_entities(&mut self);
    /// Creates an entity with no component.
    fn spawn_entity(&mut self) -> Entity;
    /// Hands the world, as its check and its diagram read it, to `f` (what layout advice
    /// reads); by default, its entities and nothing else.
    #[doc(hidden)]
    fn inspect_world(&self, f: &mut dyn FnMut(&WorldInfo<'_>)) {
        f(&WorldInfo {
            entities: self.entities(),
            storages: &[],
            groups: &[],
            nesting: &[],
        });
    }
    #[doc = crate::__method_doc!(spawn_with)]
    fn spawn_with<B: Bundle<Self>>(&mut self, bundle: B) -> Entity;
    /// Gives a reserved entity the components of `bundle`, as
    /// [`spawn_with`](Self::spawn_with) gives a new one if it holds nothing yet (what a
    /// `spawn_reserved` command does; see [`Commands::spawn_reserved`]).
    ///
    /// # Errors
    /// [`EntityError::Dead`] if `entity` is not alive; nothing changes.
    #[doc(hidden)]
    fn spawn_reserved<B: Bundle<Self>>(
        &mut self,
        entity: Entity,
        bundle: B,
    ) -> Result<(), EntityError>;
    #[doc = crate::__method_doc!(spawn_batch)]
    fn spawn_batch<B: Bundle<Self>>(&mut self, bundles: impl IntoIterator<Item = B>)
    -> Vec<Entity>;
    /// Reserves room for `additional` more entities.
    fn reserve_entities(&mut self, additional: usize);
    #[doc = crate::__method_doc!(destroy)]
    #[doc(alias = "despawn")]
    fn destroy(&mut self, entity: Entity) -> Result<(), EntityError>;
    #[doc = crate::__method_doc!(destroy_many)]
    fn destroy_many(&mut self, entities: &[Entity]) -> usize;
    /// Runs the insert hooks of entities just spawned with their components (what the
    /// world's `spawn_with`, `spawn_batch` and `spawn_reserved` do).
    #[doc(hidden)]
    fn spawned(&mut self, _entities: &[Entity]) {}
}

/// A bulk insertion that was refused because an entity is not alive. Nothing was
/// written; the items come back.
///
/// ```
/// use sparse_core::{Component, World};
/// #[derive(Debug, PartialEq)]
/// struct Hp(u32);
/// impl Component for Hp {}
/// let mut world = World::new();
/// let (a, b) = (world.spawn(), world.spawn());
/// world.destroy(b)?;
/// let refused = world.insert_many([(a, Hp(1)), (b, Hp(2))]).unwrap_err();
/// assert_eq!(refused.dead, b);
/// assert_eq!(refused.items.len(), 2); // handed back, in order
/// assert_eq!(world.get::<Hp>(a), None); // nothing was written
/// // Retry with the alive ones.
/// let alive: Vec<_> = refused.items.into_iter().filter(|(e, _)| world.is_alive(*e)).collect();
/// assert_eq!(world.insert_many(alive).unwrap(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct InsertManyError<T> {
    /// The first entity found dead.
    pub dead: Entity,
    /// Every item, as given.
    pub items: Vec<(Entity, T)>,
}

impl<T> fmt::Debug for InsertManyError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InsertManyError")
            .field("dead", &self.dead)
            .field("items", &self.items.len())
            .finish()
    }
}

impl<T> fmt::Display for InsertManyError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "entity {:?} is not alive: none of the {} components was inserted",
            self.dead,
            self.items.len()
        )
    }
}

impl<T> std::error::Error for InsertManyError<T> {}
