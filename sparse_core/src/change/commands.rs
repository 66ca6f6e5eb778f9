//! Deferred changes: recorded while a world is borrowed, applied afterwards through the
//! world's change methods.

use core::fmt;

use crate::change::stores::flush_is_alive;
use crate::change::{Components, EditEntities};
use crate::entity::{Entities, Entity, EntityError};
use crate::lend::LendResource;
use crate::message::{Messages, queue_of};

/// One recorded change: applied to the world, it reports the entity it found dead, and
/// notes an entity it spawned in the list it is given.
type Command<W> = Box<dyn FnOnce(&mut W, &mut Vec<Entity>) -> Result<(), EntityError> + Send>;

/// A queue of structural changes to a world of type `W` — spawn, insert, remove, destroy —
/// recorded while the world is borrowed (in a loop over a group or a view) and applied
/// afterwards with `world.apply(&mut commands)`, in the order they were recorded, through
/// the world's change methods.
///
/// [`spawn`](Commands::spawn) creates the entity when the commands are applied (its handle
/// is then in [`Applied::spawned`]), as hecs' command buffer does;
/// [`spawn_reserved`](Commands::spawn_reserved) reserves it at once through
/// [`&Entities`](Entities), which any borrow can include, so the handle can be stored
/// and used by later commands. `insert` and `remove` take one component or a tuple.
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
///         let corpse = commands.spawn_reserved(entities, (Corpse,));
///         commands.insert(corpse, Health(0));
///         commands.spawn((Corpse,)); // no handle needed: created when applied
///     }
/// }
/// let applied = world.apply(&mut commands);
/// assert_eq!((applied.applied, applied.skipped.len(), applied.spawned.len()), (4, 0, 1));
/// assert!(world.is_alive(a) && !world.is_alive(b));
/// assert_eq!(world.storage::<Corpse>().unwrap().len(), 2);
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
    /// The entities created by [`spawn`](Commands::spawn), in the order they were
    /// recorded (not those of `spawn_reserved`, whose handles were given at once).
    pub spawned: Vec<Entity>,
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

    /// Records spawning an entity with `bundle` (a tuple of distinct components). The
    /// entity is created when the commands are applied; its handle is then in
    /// [`Applied::spawned`]. For a handle now, see
    /// [`spawn_reserved`](Commands::spawn_reserved).
    ///
    /// # Panics
    /// When applied, as the world's `spawn_with`: if every entity index is in use, or the
    /// run-time world's bundle names a type twice.
    pub fn spawn<B: Components<W> + Send + 'static>(&mut self, bundle: B) {
        self.queue
            .push(Box::new(move |world: &mut W, spawned: &mut Vec<Entity>| {
                spawned.push(bundle.spawn(world));
                Ok(())
            }));
    }

    /// Reserves an entity now and records spawning it with `bundle`. The handle is final;
    /// the entity exists (with no component) from the world's next structural change, and
    /// gets the bundle when the commands are applied, as `spawn_with` gives one: the whole
    /// bundle in place, then its types' insert hooks in declaration order. (An entity given
    /// components since its reservation gets the bundle as `insert(entity, bundle)` gives
    /// it instead: each type in turn, each hook once its type is in.)
    ///
    /// # Panics
    /// Panics if every entity index is in use.
    pub fn spawn_reserved<B: Components<W> + Send + 'static>(
        &mut self,
        entities: &Entities,
        bundle: B,
    ) -> Entity {
        let entity = entities.reserve();
        self.queue
            .push(Box::new(move |world: &mut W, _: &mut Vec<Entity>| {
                bundle.spawn_reserved(world, entity)
            }));
        entity
    }

    /// Records inserting `components` (one component, or a tuple of distinct ones) for
    /// `entity`.
    pub fn insert<C: Components<W> + Send + 'static>(&mut self, entity: Entity, components: C) {
        self.queue
            .push(Box::new(move |world: &mut W, _: &mut Vec<Entity>| {
                components.insert(world, entity).map(drop)
            }));
    }

    /// Records removing `entity`'s `C` (one type, or each type of a tuple; nothing
    /// happens for those it has none of).
    pub fn remove<C: Components<W> + 'static>(&mut self, entity: Entity) {
        self.queue
            .push(Box::new(move |world: &mut W, _: &mut Vec<Entity>| {
                alive(flush_is_alive(world, entity), entity)?;
                C::remove(world, entity);
                Ok(())
            }));
    }

    /// Records destroying `entity`.
    pub fn destroy(&mut self, entity: Entity) {
        self.queue
            .push(Box::new(move |world: &mut W, _: &mut Vec<Entity>| {
                world.destroy(entity)
            }));
    }

    /// Records sending `message` to the world's [`Messages<E>`](crate::Messages): when the
    /// commands are applied, it is sent like a [`MessageWriter`](crate::MessageWriter)'s
    /// (a hook's commands too).
    ///
    /// # Panics
    /// Applying it panics if the world, a run-time [`World`](crate::World), holds no
    /// `Messages<E>` (a `#[world]` without one does not compile).
    pub fn send<E: Send + Sync + 'static>(&mut self, message: E)
    where
        W: LendResource<Messages<E>>,
    {
        self.add(move |world: &mut W| match queue_of(world) {
            Ok(messages) => messages.send(message),
            Err(error) => panic!("a command could not send its message: {error}"),
        });
    }

    /// Records any change: `f` runs with the world when the commands are applied.
    pub fn add(&mut self, f: impl FnOnce(&mut W) + Send + 'static) {
        self.queue
            .push(Box::new(move |world: &mut W, _: &mut Vec<Entity>| {
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
            match run(world, &mut applied.spawned) {
                Ok(()) => applied.applied += 1,
                Err(EntityError::Dead(entity)) => applied.skipped.push(Skipped { command, entity }),
            }
        }
        applied
    }
}
