//! User hooks: a program's reactions to structural change, run where the rule documented
//! on [`Hook`] puts them, the same in both kinds of world.
//!
//! What hooks guarantee is documented on [`Hook`], the public face of this module.

use core::cell::Cell;
use core::fmt;

use crate::access::Borrow;
use crate::change::steps::Inserted;
use crate::change::{Commands, Components, EditEntities, InsertManyError, Lookup};
use crate::component::{Component, short_name};
use crate::entity::{Entities, Entity, EntityError};
use crate::lend::AccessError;
use crate::storage::Marks;

/// A hook is a function declared for one event of one component type `T`: `on_insert`
/// (the entity had no `T` and now has one) and `on_remove` (the entity is about to lose
/// its `T`: `remove`, bulk removal, `clear`, or its destruction) take
/// `fn(&mut HookWorld<'_, W>, Entity)`, this type; `on_replace` (a `T` was overwritten)
/// takes [`ReplaceHook<W, T>`], `fn(&mut HookWorld<'_, W>, Entity, &T)`, which is also
/// given the value replaced (the new one is [`HookWorld::get`]'s): it lives apart from
/// the world, so it is read beside any borrow.
///
/// **Declaring.** A `#[world]` declares hooks beside its groups, checked at compile time
/// (a stored type, one hook per event and type, the event's signature, the replace hook's
/// value of the type it is declared for):
/// `#[on_insert(Health, on_health)]`, `#[on_replace(T, f)]`, `#[on_remove(T, f)]`. The
/// run-time [`World`](crate::World) registers them with
/// [`on_insert`](crate::World::on_insert), [`on_replace`](crate::World::on_replace) and
/// [`on_remove`](crate::World::on_remove). When one change touches several hooked types
/// (destroying or spawning an entity), their hooks run in the order the types first
/// appear in the hook declarations (or registrations).
///
/// **Where a hook runs.** Group maintenance is a plan of steps (outer groups entered
/// first, inner groups left first). User hooks are not steps among them: an insert or
/// replace hook runs once the whole change is done, so the entity is already in every
/// group it now qualifies for (and out of every group the new type excludes); a remove
/// hook runs before the change starts, so the entity has not left any group yet and its
/// value is still there. This holds whatever the order of the declarations, for every
/// group kind, in a `#[world]` and in the run-time [`World`](crate::World) alike: both
/// call the functions of this module around their planned change.
///
/// ```text
///   insert(e, T)                                     remove::<T>(e)
///   ┌────────────────────────────┐                   ┌───────────────────┐
///   │ store T, leave excluding   │                   │ on_remove(e)      │ ← e in every group,
///   │ groups (inner first), enter│                   │ (queues commands) │   T still readable
///   │ requiring groups (outer    │                   ├───────────────────┤
///   │ first)                     │                   │ leave groups      │
///   ├────────────────────────────┤                   │ (inner first),    │
///   │ on_insert(e) / on_replace  │ ← e in every group│ take T, enter     │
///   ├────────────────────────────┤   it now fits     │ excluding groups  │
///   │ apply the hooks' commands  │                   ├───────────────────┤
///   └────────────────────────────┘                   │ apply commands    │
///                                                    └───────────────────┘
/// ```
///
/// **What a hook may do.** [`HookWorld`] reads and writes component values (through the
/// same [`Borrow`] requests as the world's `borrow`, checked at compile time in a
/// `#[world]`) and queues structural changes in [`Commands`], applied right after the
/// change that fired the hook (depth first: a command's own hooks' commands are applied
/// before the next command). It has no method that changes structure, so no group can be
/// broken while a hook runs.
///
/// **Bulk changes** run the hooks of every entity they touch: `insert_many` (one hook per
/// entity, a replace hook given the value from before the batch),
/// `spawn_batch` and `spawn_with` after the whole batch is in place, `remove_many`,
/// `clear`, `destroy_many` and `retain` before any of it is removed. A snapshot load runs
/// no hook (it restores a state, it does not change one).
///
/// **Cycles.** Commands queued by hooks may fire hooks again; the chain is cut after
/// [`MAX_CASCADE`] nested rounds with a panic naming the cause, the world consistent.
///
/// **Panics.** A hook that panics leaves the world consistent (hooks cannot change
/// structure): an insert or replace is then done, a removal or destruction not done, and
/// the commands queued by the hooks of that change are dropped unapplied.
pub type Hook<W> = fn(&mut HookWorld<'_, W>, Entity);

/// A replace hook of `T`: a [`Hook`] also given the `T` the change replaced.
///
/// ```
/// use sparse_core::{Component, Entity, HookWorld, ResMut, World};
/// struct Position(i32);
/// impl Component for Position {}
/// #[derive(Default)]
/// struct Moves(Vec<(i32, i32)>);
///
/// fn moved(world: &mut HookWorld<'_, World>, e: Entity, old: &Position) {
///     let new = world.get::<Position>(e).unwrap().0;
///     world.borrow::<ResMut<Moves>>().unwrap().0.push((old.0, new));
/// }
///
/// let mut world = World::new();
/// world.insert_resource(Moves::default());
/// world.on_replace::<Position>(moved)?;
/// let e = world.spawn_with((Position(1),));
/// world.insert(e, Position(4))?;
/// assert_eq!(world.resource::<Moves>()?.0, [(1, 4)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// A function written for another type's values is not a replace hook of `T` (a
/// `#[world]` reports it at the function's name in `#[on_replace(T, f)]`):
///
/// ```compile_fail,E0308
/// use sparse_core::{Component, Entity, HookWorld, World};
/// struct Position(i32);
/// struct Velocity(i32);
/// impl Component for Position {}
/// impl Component for Velocity {}
///
/// fn moved(_: &mut HookWorld<'_, World>, _: Entity, _: &Velocity) {}
///
/// World::new().on_replace::<Position>(moved).unwrap();
/// ```
pub type ReplaceHook<W, T> = fn(&mut HookWorld<'_, W>, Entity, &T);

/// The events a hook can be declared for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HookEvent {
    /// A component was added to an entity that had none of its type.
    Insert,
    /// A component replaced one of the same type.
    Replace,
    /// A component is about to be removed (by `remove`, bulk removal, `clear`, or the
    /// entity's destruction).
    Remove,
}

impl HookEvent {
    /// Every event, in declaration order, each at its [`index`](HookEvent::index).
    /// `#[world]` reads this list to know its hook attributes.
    pub const ALL: &[HookEvent] = &[HookEvent::Insert, HookEvent::Replace, HookEvent::Remove];

    /// The event's place in [`ALL`](HookEvent::ALL).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The name of the attribute declaring a hook for the event on a `#[world]`, which is
    /// also the run-time `World`'s method registering one: `on_insert`, ….
    pub const fn attribute(self) -> &'static str {
        match self {
            HookEvent::Insert => "on_insert",
            HookEvent::Replace => "on_replace",
            HookEvent::Remove => "on_remove",
        }
    }
}

impl fmt::Display for HookEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.attribute())
    }
}

/// A hook that could not be registered on the run-time [`World`](crate::World).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HookError {
    /// The type already has a hook for this event (a `#[world]` refuses the second
    /// declaration at compile time).
    AlreadySet {
        /// The event.
        event: HookEvent,
        /// The component type's name.
        component: &'static str,
    },
}

impl fmt::Display for HookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HookError::AlreadySet { event, component } => write!(
                f,
                "`{}` already has an {event} hook: one hook per event and type (call the second function from the first)",
                short_name(component)
            ),
        }
    }
}

impl std::error::Error for HookError {}

/// What a hook can do with the world: read and write component values, and queue
/// structural changes. Nothing here inserts, removes, spawns or destroys: such changes
/// go through [`commands`](HookWorld::commands) and are applied after the change that
/// fired the hook.
pub struct HookWorld<'a, W: 'static> {
    world: &'a mut W,
    commands: &'a mut Commands<W>,
}

impl<W: EditEntities + 'static> HookWorld<'_, W> {
    /// The world's entities (read only).
    pub fn entities(&self) -> &Entities {
        self.world.entities()
    }

    /// Whether `entity` is alive.
    pub fn is_alive(&self, entity: Entity) -> bool {
        self.world.entities().is_alive(entity)
    }

    /// `entity`'s `C`: `Option<&T>` for one type, `Option<(&A, &B, …)>` for a tuple (`None`
    /// unless it has them all).
    pub fn get<C: Components<W>>(&self, entity: Entity) -> Option<C::Refs<'_>> {
        C::get_in(self.world, entity)
    }

    /// `entity`'s `T`, mutably (a value, never the structure).
    pub fn get_mut<T: Component + Components<W>>(&mut self, entity: Entity) -> Option<&mut T> {
        T::get_mut_in(self.world, entity)
    }

    /// Borrows the parts `R` at once, as the world's `borrow` does (groups, views,
    /// `ValuesMut<T>`, `&Storage<T>`, `&Entities`) and with what it returns: the parts in
    /// a `#[world]`, where an overlapping request does not compile; a `Result` on the
    /// run-time [`World`](crate::World), an [`AccessError`] if the request overlaps or
    /// names a group the world does not have. Code generic over its world calls
    /// [`try_borrow`](HookWorld::try_borrow), a `Result` in both.
    pub fn borrow<'s, R: Borrow<'s, W>>(&'s mut self) -> W::Lent<R> {
        W::lent(self.try_borrow())
    }

    /// Borrows the parts `R` at once.
    ///
    /// # Errors
    /// What the run-time [`World::borrow`](crate::World::borrow) reports; never in a
    /// `#[world]`.
    pub fn try_borrow<'s, R: Borrow<'s, W>>(&'s mut self) -> Result<R, AccessError> {
        R::prepare(self.world);
        R::take(&mut self.world.parts())
    }

    /// The queue of structural changes, applied after the change that fired the hook.
    pub fn commands(&mut self) -> &mut Commands<W> {
        self.commands
    }
}

/// The hooks of component type `T` in worlds `W`, with how to ask whether an entity has
/// the type: what the changes of one type run (insert, remove, their bulk forms, clear).
pub struct TypeHooks<W: 'static, T: 'static> {
    /// Whether an entity has the type.
    pub has: fn(&W, Entity) -> bool,
    /// The entities having the type (for `clear`).
    pub holders: fn(&W) -> Vec<Entity>,
    /// The insert hook.
    pub on_insert: Option<Hook<W>>,
    /// The replace hook.
    pub on_replace: Option<ReplaceHook<W, T>>,
    /// The remove hook.
    pub on_remove: Option<Hook<W>>,
}

/// The hooks of one component type without its replace hook: what the changes touching
/// every type at once run (destruction and spawning, which never replace), one entry per
/// hooked type in a list.
pub struct ErasedHooks<W: 'static> {
    /// Whether an entity has the type.
    pub has: fn(&W, Entity) -> bool,
    /// The insert hook.
    pub on_insert: Option<Hook<W>>,
    /// The remove hook.
    pub on_remove: Option<Hook<W>>,
}

impl<W, T> Clone for TypeHooks<W, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<W, T> Copy for TypeHooks<W, T> {}

impl<W> Clone for ErasedHooks<W> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<W> Copy for ErasedHooks<W> {}

impl<W, T> fmt::Debug for TypeHooks<W, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypeHooks")
            .field("on_insert", &self.on_insert.is_some())
            .field("on_replace", &self.on_replace.is_some())
            .field("on_remove", &self.on_remove.is_some())
            .finish()
    }
}

impl<W, T> TypeHooks<W, T> {
    /// No hook yet for a type, tested with `has` and listed with `holders`.
    pub const fn none(has: fn(&W, Entity) -> bool, holders: fn(&W) -> Vec<Entity>) -> Self {
        TypeHooks {
            has,
            holders,
            on_insert: None,
            on_replace: None,
            on_remove: None,
        }
    }

    /// The hooks without the replace hook, for the list of every hooked type.
    pub const fn erased(&self) -> ErasedHooks<W> {
        ErasedHooks {
            has: self.has,
            on_insert: self.on_insert,
            on_remove: self.on_remove,
        }
    }

    /// Whether the type has a hook for `event`.
    pub fn has_hook(&self, event: HookEvent) -> bool {
        match event {
            HookEvent::Insert => self.on_insert.is_some(),
            HookEvent::Replace => self.on_replace.is_some(),
            HookEvent::Remove => self.on_remove.is_some(),
        }
    }
}

/// Whether `entity` has a `T` in `world`.
pub fn has<W: Lookup<T>, T>(world: &W, entity: Entity) -> bool {
    world.lookup(entity).is_some()
}

/// How many rounds of hook commands may nest (commands whose changes fire hooks that
/// queue commands, …) before the chain is taken for a cycle.
pub const MAX_CASCADE: u32 = 64;

thread_local! {
    /// The nesting of hook commands being applied on this thread.
    static CASCADE: Cell<u32> = const { Cell::new(0) };
}

/// Runs `hook` for `entity`, queuing into `commands`.
#[inline(always)]
fn run<W: EditEntities + 'static>(
    world: &mut W,
    commands: &mut Commands<W>,
    hook: Hook<W>,
    entity: Entity,
) {
    hook(&mut HookWorld { world, commands }, entity);
}

/// Runs the replace hook `hook` for `entity`, given the value `old` it replaced.
#[inline(always)]
fn run_replace<W: EditEntities + 'static, T>(
    world: &mut W,
    commands: &mut Commands<W>,
    hook: ReplaceHook<W, T>,
    entity: Entity,
    old: &T,
) {
    hook(&mut HookWorld { world, commands }, entity, old);
}

/// Applies the commands the hooks queued, one nesting level deeper.
///
/// # Panics
/// Past [`MAX_CASCADE`] nested levels.
#[inline(always)]
fn apply<W: EditEntities + 'static>(world: &mut W, commands: Commands<W>) {
    if !commands.is_empty() {
        apply_queued(world, commands);
    }
}

/// [`apply`] for a queue that is not empty.
#[inline(never)]
fn apply_queued<W: EditEntities + 'static>(world: &mut W, mut commands: Commands<W>) {
    /// Restores the level on the way out, unwinding included.
    struct Level(u32);
    impl Drop for Level {
        fn drop(&mut self) {
            CASCADE.set(self.0);
        }
    }
    let level = CASCADE.get();
    if level >= MAX_CASCADE {
        cascade_too_deep();
    }
    CASCADE.set(level + 1);
    let _restore = Level(level);
    commands.apply(world);
}

#[cold]
#[inline(never)]
fn cascade_too_deep() -> ! {
    panic!(
        "hooks queued commands that fired hooks {MAX_CASCADE} levels deep: a cycle (for instance an on_insert hook of `T` that queues inserting a `T` into a new entity); the world is consistent, the remaining commands are dropped"
    )
}

/// Stores `value` through `store`, then runs the insert or replace hook.
///
/// # Errors
/// What `store` reports (no hook runs).
#[inline]
pub fn insert<W: EditEntities + 'static, T: 'static>(
    world: &mut W,
    hooks: &TypeHooks<W, T>,
    entity: Entity,
    value: T,
    store: impl FnOnce(&mut W, Entity, T) -> Result<Option<T>, EntityError>,
) -> Result<Option<T>, EntityError> {
    let old = store(world, entity, value)?;
    let mut commands = Commands::new();
    match (&old, hooks.on_insert, hooks.on_replace) {
        (None, Some(hook), _) => run(world, &mut commands, hook, entity),
        (Some(old), _, Some(hook)) => run_replace(world, &mut commands, hook, entity, old),
        _ => return Ok(old),
    }
    apply(world, commands);
    Ok(old)
}

/// Runs the remove hook if `entity` has the type, then removes it through `take`.
#[inline]
pub fn remove<W: EditEntities + 'static, T>(
    world: &mut W,
    hooks: &TypeHooks<W, T>,
    entity: Entity,
    take: impl FnOnce(&mut W, Entity) -> Option<T>,
) -> Option<T> {
    let mut commands = Commands::new();
    if let Some(hook) = hooks.on_remove
        && (hooks.has)(world, entity)
    {
        run(world, &mut commands, hook, entity);
    }
    let value = take(world, entity);
    apply(world, commands);
    value
}

/// Inserts `items` through `store` (which returns how many it added and the values it
/// replaced, in the items' order), then runs one hook per entity, in the order the items
/// first name them: the insert hook if the entity had no `T` before the batch, else the
/// replace hook, given the value it had before the batch (a value an earlier item of the
/// same batch put there is replaced unseen, as the hooks see the batch as one change).
///
/// # Errors
/// What `store` reports (no hook runs).
pub fn insert_many<W: EditEntities + 'static, T: 'static>(
    world: &mut W,
    hooks: &TypeHooks<W, T>,
    items: Vec<(Entity, T)>,
    store: impl FnOnce(&mut W, Vec<(Entity, T)>) -> Result<Inserted<T>, InsertManyError<T>>,
) -> Result<usize, InsertManyError<T>> {
    if hooks.on_insert.is_none() && hooks.on_replace.is_none() {
        return store(world, items).map(|(added, _)| added);
    }
    // By index: a handle sharing an index with another is stale, and `store` refuses it.
    let mut seen = Marks::with_indices(world.entities().index_bound());
    // Each entity's event, with the place among the replaced values of the one it had
    // before the batch; an item naming an entity again replaces too.
    let mut replaces = 0;
    let mut events: Vec<(Entity, Option<usize>)> = Vec::with_capacity(items.len());
    for &(entity, _) in &items {
        let first = seen.mark(entity);
        let had = (hooks.has)(world, entity);
        if first {
            events.push((entity, had.then_some(replaces)));
        }
        if had || !first {
            replaces += 1;
        }
    }
    let (added, replaced) = store(world, items)?;
    debug_assert_eq!(replaced.len(), replaces, "one value per replace");
    let mut commands = Commands::new();
    for (entity, before) in events {
        match (before, hooks.on_insert, hooks.on_replace) {
            (None, Some(hook), _) => run(world, &mut commands, hook, entity),
            (Some(at), _, Some(hook)) => {
                run_replace(world, &mut commands, hook, entity, &replaced[at]);
            }
            _ => {}
        }
    }
    apply(world, commands);
    Ok(added)
}

/// Runs the remove hook for each of `entities` having the type (once each), then removes
/// them through `take`.
pub fn remove_many<W: EditEntities + 'static, T>(
    world: &mut W,
    hooks: &TypeHooks<W, T>,
    entities: &[Entity],
    take: impl FnOnce(&mut W, &[Entity]) -> usize,
) -> usize {
    let mut commands = Commands::new();
    if let Some(hook) = hooks.on_remove {
        let mut seen = Marks::with_indices(world.entities().index_bound());
        for &entity in entities {
            if (hooks.has)(world, entity) && seen.mark(entity) {
                run(world, &mut commands, hook, entity);
            }
        }
    }
    let removed = take(world, entities);
    apply(world, commands);
    removed
}

/// Runs the remove hook for every entity having the type, then clears it through `clear`.
pub fn clear<W: EditEntities + 'static, T>(
    world: &mut W,
    hooks: &TypeHooks<W, T>,
    clear: impl FnOnce(&mut W),
) {
    let mut commands = Commands::new();
    if let Some(hook) = hooks.on_remove {
        for entity in (hooks.holders)(world) {
            run(world, &mut commands, hook, entity);
        }
    }
    clear(world);
    apply(world, commands);
}

/// Runs the remove hooks of `entity`'s hooked types (in the order of `hooks`), then
/// destroys it through `destroy`.
///
/// # Errors
/// What `destroy` reports for a dead entity (no hook runs).
pub fn destroy<W: EditEntities + 'static>(
    world: &mut W,
    hooks: &[ErasedHooks<W>],
    entity: Entity,
    destroy: impl FnOnce(&mut W, Entity) -> Result<(), EntityError>,
) -> Result<(), EntityError> {
    world.flush_entities();
    if !world.entities().is_alive(entity) {
        return Err(EntityError::Dead(entity));
    }
    let mut commands = Commands::new();
    removing(world, &mut commands, hooks, entity);
    destroy(world, entity)?;
    apply(world, commands);
    Ok(())
}

/// Runs the remove hooks of every alive entity of `entities` (once each, entity by
/// entity), then destroys them through `destroy`.
pub fn destroy_many<W: EditEntities + 'static>(
    world: &mut W,
    hooks: &[ErasedHooks<W>],
    entities: &[Entity],
    destroy: impl FnOnce(&mut W, &[Entity]) -> usize,
) -> usize {
    world.flush_entities();
    let mut commands = Commands::new();
    if hooks.iter().any(|h| h.on_remove.is_some()) {
        let mut seen = Marks::with_indices(world.entities().index_bound());
        for &entity in entities {
            if world.entities().is_alive(entity) && seen.mark(entity) {
                removing(world, &mut commands, hooks, entity);
            }
        }
    }
    let destroyed = destroy(world, entities);
    apply(world, commands);
    destroyed
}

fn removing<W: EditEntities + 'static>(
    world: &mut W,
    commands: &mut Commands<W>,
    hooks: &[ErasedHooks<W>],
    entity: Entity,
) {
    for type_hooks in hooks {
        if let Some(hook) = type_hooks.on_remove
            && (type_hooks.has)(world, entity)
        {
            run(world, commands, hook, entity);
        }
    }
}

/// Runs the insert hooks of the types each of `entities` has (just spawned: every
/// component is new), entity by entity in the order of `hooks`.
pub fn spawned<W: EditEntities + 'static>(
    world: &mut W,
    hooks: &[ErasedHooks<W>],
    entities: &[Entity],
) {
    if !hooks.iter().any(|h| h.on_insert.is_some()) {
        return;
    }
    let mut commands = Commands::new();
    for &entity in entities {
        for type_hooks in hooks {
            if let Some(hook) = type_hooks.on_insert
                && (type_hooks.has)(world, entity)
            {
                run(world, &mut commands, hook, entity);
            }
        }
    }
    apply(world, commands);
}

#[cfg(test)]
mod tests {
    use super::HookEvent;

    #[test]
    fn every_event_is_listed_at_its_index() {
        // The match fails to compile when a variant is added without thought here.
        for event in [HookEvent::Insert, HookEvent::Replace, HookEvent::Remove] {
            match event {
                HookEvent::Insert | HookEvent::Replace | HookEvent::Remove => {}
            }
            assert_eq!(HookEvent::ALL.get(event.index()), Some(&event));
        }
        assert_eq!(HookEvent::ALL.len(), 3);
    }
}
