//! Deferred changes: recorded while a world is borrowed, applied afterwards through the
//! world's hooks.

use core::fmt;

use crate::bundle::Bundle;
use crate::component::Component;
use crate::entity::{Entities, Entity, EntityError};
use crate::generated::{Edit, EditEntities};

/// One recorded change: applied to the world, it reports the entity it found dead.
type Command<W> = Box<dyn FnOnce(&mut W) -> Result<(), EntityError> + Send>;

/// A queue of structural changes to a world of type `W` — spawn, insert, remove, destroy —
/// recorded while the world is borrowed (in a loop over a group or a view) and applied
/// afterwards with `world.apply(&mut commands)`, in the order they were recorded, through
/// the world's hooks.
///
/// Spawning reserves the entity at once (through [`&Entities`](Entities), which any borrow
/// can include), so the handle can be stored and used by later commands.
///
/// ```
/// use sparse_core::{Commands, Component, Entities, Storage, World};
/// struct Health(i32);
/// struct Corpse;
/// impl Component for Health {}
/// impl Component for Corpse {}
///
/// let mut world = World::new();
/// let (a, b) = (world.spawn_with((Health(3),)), world.spawn_with((Health(-1),)));
/// let mut commands = Commands::new();
/// let (healths, entities) = world.borrow::<(&Storage<Health>, &Entities)>()?;
/// for (entity, health) in healths.iter() {
///     if health.0 <= 0 {
///         commands.destroy(entity);
///         commands.spawn(entities, (Corpse,));
///     }
/// }
/// let applied = world.apply(&mut commands);
/// assert_eq!((applied.applied, applied.skipped.len()), (2, 0));
/// assert!(world.is_alive(a) && !world.is_alive(b));
/// assert_eq!(world.storage::<Corpse>().unwrap().len(), 1);
/// # Ok::<(), sparse_core::AccessError>(())
/// ```
pub struct Commands<W> {
    queue: Vec<Command<W>>,
}

/// What applying commands did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Applied {
    /// The number of commands applied.
    pub applied: usize,
    /// The commands skipped because their entity was no longer alive.
    pub skipped: Vec<Skipped>,
}

/// A command that was not applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// Its position in the queue (0: the first recorded).
    pub command: usize,
    /// The entity it was about, found dead.
    pub entity: Entity,
}

impl<W> Default for Commands<W> {
    fn default() -> Self {
        Commands { queue: Vec::new() }
    }
}

impl<W> fmt::Debug for Commands<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Commands")
            .field("len", &self.queue.len())
            .finish()
    }
}

/// Whether `entity` is alive, counting the entities reserved since the last structural
/// change (which this makes alive).
fn flush_is_alive<W: EditEntities>(world: &mut W, entity: Entity) -> bool {
    world.flush_entities();
    world.entities().is_alive(entity)
}

fn alive(result: bool, entity: Entity) -> Result<(), EntityError> {
    if result {
        Ok(())
    } else {
        Err(EntityError::Dead(entity))
    }
}

impl<W: EditEntities + 'static> Commands<W> {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// The number of recorded commands.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether no command is recorded.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Forgets every recorded command.
    pub fn clear(&mut self) {
        self.queue.clear();
    }

    /// Reserves an entity now and records spawning it with `bundle`. The handle is final;
    /// the entity exists (with no component) from the world's next structural change, and
    /// gets the bundle when the commands are applied.
    ///
    /// # Panics
    /// Panics if every entity index is in use.
    pub fn spawn<B: Bundle<W> + Send + 'static>(
        &mut self,
        entities: &Entities,
        bundle: B,
    ) -> Entity {
        let entity = entities.reserve();
        self.queue.push(Box::new(move |world: &mut W| {
            alive(flush_is_alive(world, entity), entity)?;
            crate::bundle::fill(world, entity, bundle);
            Ok(())
        }));
        entity
    }

    /// Records inserting `value` for `entity`.
    pub fn insert<T: Component>(&mut self, entity: Entity, value: T)
    where
        W: Edit<T>,
    {
        self.queue.push(Box::new(move |world: &mut W| {
            world.insert(entity, value).map(drop)
        }));
    }

    /// Records removing `entity`'s `T` (nothing happens if it has none).
    pub fn remove<T: Component>(&mut self, entity: Entity)
    where
        W: Edit<T>,
    {
        self.queue.push(Box::new(move |world: &mut W| {
            alive(flush_is_alive(world, entity), entity)?;
            world.remove(entity);
            Ok(())
        }));
    }

    /// Records destroying `entity`.
    pub fn destroy(&mut self, entity: Entity) {
        self.queue
            .push(Box::new(move |world: &mut W| world.destroy(entity)));
    }

    /// Records any change: `f` runs with the world when the commands are applied.
    pub fn add(&mut self, f: impl FnOnce(&mut W) + Send + 'static) {
        self.queue.push(Box::new(move |world: &mut W| {
            f(world);
            Ok(())
        }));
    }

    /// Applies the commands in order and empties the queue (see [`Access::apply`]).
    ///
    /// [`Access::apply`]: crate::Access::apply
    pub(crate) fn apply(&mut self, world: &mut W) -> Applied {
        world.flush_entities();
        let mut applied = Applied::default();
        for (command, run) in self.queue.drain(..).enumerate() {
            match run(world) {
                Ok(()) => applied.applied += 1,
                Err(EntityError::Dead(entity)) => applied.skipped.push(Skipped { command, entity }),
            }
        }
        applied
    }
}
