//! User hooks on both kinds of world: where they run relative to group maintenance, what
//! they may do (values, commands), cycles, panics, and the run-time world's refusals.
//! The model test (`sparse_core/tests/model/`, its `hooks.rs`) checks the ordering rule
//! for every group kind after every operation; the differential test checks that both
//! worlds run the same hooks in the same order, seeing the same groups.

use std::cell::RefCell;
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::common::cases_or;
use proptest::prelude::*;
use sparse_groups::prelude::*;
use sparse_groups::{AccessError, Borrow, HookError, HookEvent};

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Position(i32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Velocity(i32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Health(i32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Frozen;
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Marker;
/// A spatial index kept in step by hooks: the entities with a `Position`, as one
/// component of a singleton entity.
#[derive(Component, Clone, Debug, Default, PartialEq)]
struct Index(Vec<(Entity, i32)>);

thread_local! {
    static SEEN: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

fn seen() -> Vec<String> {
    SEEN.with_borrow_mut(std::mem::take)
}

type Moving = (Position, Velocity);
type Thawed = (Position, Velocity, Exclude<Frozen>);

#[world]
#[group(Position, Velocity)]
#[group(Position, Velocity, exclude(Frozen))]
#[on_insert(Position, index_insert)]
#[on_replace(Position, index_replace)]
#[on_remove(Position, index_remove)]
#[on_insert(Velocity, note_groups::<Game>)]
#[on_remove(Velocity, note_groups::<Game>)]
#[on_insert(Frozen, note_groups::<Game>)]
#[on_insert(Health, heal_marker::<Game>)]
struct Game {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
    healths: Storage<Health>,
    frozen: Storage<Frozen>,
    markers: Storage<Marker>,
    index: Storage<Index>,
}

fn index_insert(world: &mut HookWorld<'_, Game>, e: Entity) {
    let (positions, mut index) = world.borrow::<(&Storage<Position>, ValuesMut<Index>)>();
    let x = positions
        .get(e)
        .expect("an insert hook finds its component")
        .0;
    for (_, index) in index.iter_mut() {
        index.0.push((e, x));
    }
}

fn index_replace(world: &mut HookWorld<'_, Game>, e: Entity, old: &Position) {
    let x = world.get::<Position>(e).expect("the new value").0;
    let (_, mut index) = world.borrow::<(&Storage<Position>, ValuesMut<Index>)>();
    for (_, index) in index.iter_mut() {
        let entry = index.0.iter_mut().find(|entry| entry.0 == e);
        let entry = entry.expect("the index holds the entity");
        assert_eq!(entry.1, old.0, "the index holds the value replaced");
        entry.1 = x;
    }
}

fn index_remove(world: &mut HookWorld<'_, Game>, e: Entity) {
    assert!(
        world.get::<Position>(e).is_some(),
        "a remove hook still reads the value"
    );
    for (_, index) in world.borrow::<ValuesMut<Index>>().iter_mut() {
        index.0.retain(|&(x, _)| x != e);
    }
}

/// Notes which groups the entity is in as the hook sees it.
fn note_groups<W>(world: &mut HookWorld<'_, W>, e: Entity)
where
    W: EditEntities + 'static,
    for<'s> GroupRef<'s, Moving>: Borrow<'s, W>,
    for<'s> GroupRef<'s, Thawed>: Borrow<'s, W>,
{
    let moving = world
        .try_borrow::<GroupRef<'_, Moving>>()
        .expect("the world has the group")
        .entities()
        .contains(&e);
    let thawed = world
        .try_borrow::<GroupRef<'_, Thawed>>()
        .expect("the world has the group")
        .entities()
        .contains(&e);
    SEEN.with_borrow_mut(|s| s.push(format!("moving {moving} thawed {thawed}")));
}

/// Queues a marker for the healed entity: applied right after the insert.
fn heal_marker<W: Stores<Marker>>(world: &mut HookWorld<'_, W>, e: Entity) {
    world.commands().insert(e, Marker);
}

fn index_of(game: &Game) -> Vec<(Entity, i32)> {
    game.storage::<Index>()
        .iter()
        .next()
        .expect("the index entity")
        .1
        .0
        .clone()
}

#[test]
fn insert_hooks_see_the_groups_entered_and_remove_hooks_the_groups_not_yet_left() {
    let mut game = Game::new();
    let e = game.spawn_with((Position(1),));
    game.insert(e, Velocity(1)).unwrap();
    // Entered both groups before the hook ran.
    assert_eq!(seen(), ["moving true thawed true"]);
    game.insert(e, Frozen).unwrap();
    // Adding an excluded type: the entity left the inner group before the hook.
    assert_eq!(seen(), ["moving true thawed false"]);
    game.remove::<Frozen>(e);
    game.remove::<Velocity>(e);
    // Still in the outer group when its remove hook ran.
    assert_eq!(seen(), ["moving true thawed true"]);
    assert_eq!(game.group_len::<Moving>(), 0);
}

#[test]
fn a_hook_keeps_a_spatial_index_in_step_on_every_path() {
    let mut game = Game::new();
    game.spawn_with((Index::default(),));
    let a = game.spawn_with((Position(1), Velocity(0)));
    let batch = game.spawn_batch((0..3).map(|i| (Position(10 + i),)));
    let b = game.spawn();
    game.insert_many([(b, Position(5)), (b, Position(6))])
        .unwrap();
    game.insert(a, Position(2)).unwrap(); // a replace
    let mut want = vec![
        (a, 2),
        (batch[0], 10),
        (batch[1], 11),
        (batch[2], 12),
        (b, 6),
    ];
    assert_eq!(index_of(&game), want);
    game.destroy(batch[1]).unwrap();
    game.remove_many::<Position>(&[batch[0], batch[0]]);
    want.retain(|&(e, _)| e != batch[1] && e != batch[0]);
    assert_eq!(index_of(&game), want);
    let mut commands = Commands::new();
    commands.spawn((Position(7),));
    commands.destroy(b);
    let applied = game.apply(&mut commands);
    want.retain(|&(e, _)| e != b);
    want.push((applied.spawned[0], 7));
    assert_eq!(index_of(&game), want);
    game.retain::<&Position>(|_, p| p.0 != 7);
    want.pop();
    assert_eq!(index_of(&game), want);
    game.clear::<Position>();
    assert_eq!(index_of(&game), []);
    game.check().unwrap();
}

#[test]
fn commands_queued_by_a_hook_apply_after_the_change() {
    let mut game = Game::new();
    let e = game.spawn();
    game.insert(e, (Health(3), Position(0))).unwrap();
    assert!(game.contains::<Marker>(e));
    let mut world = World::new();
    world.on_insert::<Health>(heal_marker::<World>).unwrap();
    let e = world.spawn_with((Health(1),));
    assert!(world.contains::<Marker>(e));
}

fn spawn_another(world: &mut HookWorld<'_, World>, _: Entity) {
    world.commands().spawn((Health(0),));
}

#[test]
fn a_hook_cycle_is_cut_with_a_panic_and_the_world_stays_consistent() {
    let mut world = World::new();
    world.on_insert::<Health>(spawn_another).unwrap();
    let caught = catch_unwind(AssertUnwindSafe(|| world.spawn_with((Health(1),))));
    let message = *caught.unwrap_err().downcast::<String>().unwrap();
    assert!(message.contains("levels deep: a cycle"), "{message}");
    world.check().unwrap();
    assert_eq!(
        world.entities().len(),
        1 + sparse_groups::MAX_CASCADE as usize
    );
}

fn panics(_: &mut HookWorld<'_, World>, _: Entity) {
    panic!("hook");
}

#[test]
fn a_panicking_hook_leaves_the_world_consistent() {
    let mut world = World::with_groups([GroupSpec::of::<Moving>()]).unwrap();
    world.on_insert::<Velocity>(panics).unwrap();
    world.on_remove::<Position>(panics).unwrap();
    let e = world.spawn_with((Position(1),));
    // An insert is done when its hook runs.
    assert!(catch_unwind(AssertUnwindSafe(|| world.insert(e, Velocity(1)))).is_err());
    assert_eq!(world.group_len::<Moving>(), Ok(1));
    // A removal or destruction is not done: its hook runs first.
    assert!(catch_unwind(AssertUnwindSafe(|| world.remove::<Position>(e))).is_err());
    assert!(catch_unwind(AssertUnwindSafe(|| world.destroy(e))).is_err());
    assert!(world.is_alive(e) && world.contains::<Position>(e));
    world.check().unwrap();
}

fn nothing(_: &mut HookWorld<'_, World>, _: Entity) {}

/// Records what a run-time world's hook gets from `borrow`: refusals as values, as the
/// world's own `borrow` returns them.
fn borrow_three_ways(world: &mut HookWorld<'_, World>, e: Entity) {
    let overlapping = world
        .borrow::<(ValuesMut<Position>, &Storage<Position>)>()
        .map(drop);
    let no_group = world.borrow::<GroupRef<'_, Thawed>>().map(drop);
    let fine = world
        .borrow::<(&Storage<Position>, ValuesMut<Velocity>)>()
        .map(|(positions, _)| positions.contains(e));
    SEEN.with_borrow_mut(|s| s.push(format!("{overlapping:?} | {no_group:?} | {fine:?}")));
}

#[test]
fn a_run_time_hook_borrow_returns_what_the_world_borrow_returns() {
    let mut world = World::with_groups([GroupSpec::of::<Moving>()]).unwrap();
    world.on_insert::<Position>(borrow_three_ways).unwrap();
    let e = world.spawn_with((Velocity(1),));
    world.insert(e, Position(0)).unwrap();
    assert_eq!(
        seen(),
        [
            "Err(Conflict(\"integration::hooks::Position\")) | Err(NoSuchGroup(\"<integration::hooks::Position, integration::hooks::Velocity, exclude(integration::hooks::Frozen)>\")) | Ok(true)"
        ]
    );
    // The world's own borrow refuses the same requests with the same errors.
    assert_eq!(
        world
            .borrow::<(ValuesMut<Position>, &Storage<Position>)>()
            .map(drop),
        Err(AccessError::Conflict("integration::hooks::Position"))
    );
}

#[test]
fn the_run_time_world_refuses_a_second_hook_for_one_event_and_type() {
    let mut world = World::new();
    world.on_remove::<Health>(nothing).unwrap();
    world.on_insert::<Health>(nothing).unwrap();
    let error = world.on_remove::<Health>(panics).unwrap_err();
    assert_eq!(
        error,
        HookError::AlreadySet {
            event: HookEvent::Remove,
            component: core::any::type_name::<Health>(),
        }
    );
    assert!(
        error
            .to_string()
            .starts_with("`Health` already has an on_remove hook"),
        "the message names the type as written: {error}"
    );
    // The first one is kept.
    let e = world.spawn_with((Health(1),));
    world.destroy(e).unwrap();
}

#[test]
fn dead_entities_fire_no_hook() {
    let mut game = Game::new();
    game.spawn_with((Index::default(),));
    let e = game.spawn();
    game.destroy(e).unwrap();
    assert!(game.insert(e, Position(1)).is_err());
    assert!(game.destroy(e).is_err());
    assert_eq!(game.remove::<Position>(e), None);
    assert_eq!(index_of(&game), []);
    assert!(seen().is_empty());
}

fn count_insert(_: &mut HookWorld<'_, World>, e: Entity) {
    SEEN.with_borrow_mut(|s| s.push(format!("insert {e:?}")));
}

#[test]
fn every_spawn_path_fires_an_insert_hook_once_per_component() {
    let mut world = World::new();
    world.on_insert::<Health>(count_insert).unwrap();
    let a = world.spawn_with((Health(1), Marker));
    let b = world.spawn_batch([(Health(2),)])[0];
    let mut commands = Commands::new();
    let c = commands.spawn_reserved(world.entities(), (Health(3), Marker));
    commands.spawn((Health(4),));
    let d = world.apply(&mut commands).spawned[0];
    assert_eq!(
        seen(),
        [a, b, c, d].map(|e| format!("insert {e:?}")),
        "one insert hook per spawned entity, on every path"
    );
}

/// Records the insert hook of `T` and whether the entity had `O` when it ran.
fn record_insert<W, T: Component, O: Component>(world: &mut HookWorld<'_, W>, e: Entity)
where
    W: Stores<O>,
{
    let other = world.get::<O>(e).is_some();
    let name = |t: &str| t.rsplit("::").next().unwrap().to_owned();
    SEEN.with_borrow_mut(|s| {
        s.push(format!(
            "{} (with {}: {other})",
            name(std::any::type_name::<T>()),
            name(std::any::type_name::<O>())
        ));
    });
}

#[world]
#[on_insert(Position, record_insert::<Spawned, Position, Velocity>)]
#[on_insert(Velocity, record_insert::<Spawned, Velocity, Position>)]
struct Spawned {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
    frozen: Storage<Frozen>,
}

/// A `spawn_reserved` command spawns as `spawn_with` does: the whole bundle in place, then
/// the insert hooks in declaration order (not the bundle's). An entity given a component
/// since its reservation gets the bundle as `insert(e, bundle)` does: each type in turn.
macro_rules! reserved_spawn {
    ($world:expr) => {{
        let mut w = $world;
        let mut commands = Commands::new();
        let e = commands.spawn_reserved(w.entities(), (Velocity(1), Position(2)));
        w.apply(&mut commands);
        assert_eq!(
            seen(),
            [
                "Position (with Velocity: true)",
                "Velocity (with Position: true)"
            ],
            "declaration order, the whole bundle in place"
        );
        assert_eq!(
            w.get::<(Position, Velocity)>(e),
            Some((&Position(2), &Velocity(1)))
        );

        let f = commands.spawn_reserved(w.entities(), (Velocity(3), Position(4)));
        w.insert(f, Frozen).unwrap(); // the reservation is alive once the world changes
        w.apply(&mut commands);
        assert_eq!(
            seen(),
            [
                "Velocity (with Position: false)",
                "Position (with Velocity: true)"
            ],
            "given a component before: an insert of the bundle, type by type"
        );
        assert!(w.contains::<(Position, Velocity, Frozen)>(f));
        w.check().unwrap();
    }};
}

#[test]
fn a_reserved_spawn_runs_its_hooks_as_a_spawn_does() {
    reserved_spawn!(Spawned::new());
    let mut world = World::new();
    world
        .on_insert::<Position>(record_insert::<World, Position, Velocity>)
        .unwrap();
    world
        .on_insert::<Velocity>(record_insert::<World, Velocity, Position>)
        .unwrap();
    reserved_spawn!(world);
}

/// What the insert and replace hooks saw: the entity, the value replaced (none for an
/// insert), the new one.
#[derive(Debug, Default)]
struct Moves(Vec<(Entity, Option<i32>, i32)>);

#[world]
#[group(Position, Velocity)]
#[on_insert(Position, inserted::<Moved>)]
#[on_replace(Position, moved::<Moved>)]
#[on_insert(Marker, nudge::<Moved>)]
struct Moved {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
    markers: Storage<Marker>,
    moves: Resource<Moves>,
}

/// Notes the value the change replaced beside the new one.
fn moved<W>(world: &mut HookWorld<'_, W>, e: Entity, old: &Position)
where
    W: Stores<Position>,
    for<'s> ResMut<'s, Moves>: Borrow<'s, W>,
{
    let new = world.get::<Position>(e).expect("the new value").0;
    // The old value lives apart from the world: read beside a borrow of it.
    let mut moves = world.try_borrow::<ResMut<Moves>>().expect("the log");
    moves.0.push((e, Some(old.0), new));
}

/// Notes the new value, which replaced none.
fn inserted<W>(world: &mut HookWorld<'_, W>, e: Entity)
where
    W: Stores<Position>,
    for<'s> ResMut<'s, Moves>: Borrow<'s, W>,
{
    let new = world.get::<Position>(e).expect("the new value").0;
    let mut moves = world.try_borrow::<ResMut<Moves>>().expect("the log");
    moves.0.push((e, None, new));
}

/// A hook's command replacing a `Position`: the replace hook runs for it too.
fn nudge<W: Stores<Position>>(world: &mut HookWorld<'_, W>, e: Entity) {
    world.commands().insert(e, Position(-1));
}

fn moved_world() -> World {
    let mut world = World::with_groups([GroupSpec::of::<(Position, Velocity)>()]).unwrap();
    world.insert_resource(Moves::default());
    world.on_insert::<Position>(inserted::<World>).unwrap();
    world.on_replace::<Position>(moved::<World>).unwrap();
    world.on_insert::<Marker>(nudge::<World>).unwrap();
    world
}

/// One way to insert positions (entities picked by index among those spawned).
#[derive(Clone, Debug)]
enum Put {
    One(usize, i32),
    Tuple(usize, i32),
    Many(Vec<(usize, i32)>),
    Command(usize, i32),
    /// A `Marker`, whose insert hook queues `Position(-1)`.
    Hooked(usize),
    Spawn(i32),
    Remove(usize),
}

fn put() -> impl Strategy<Value = Put> {
    let e = 0usize..6;
    prop_oneof![
        (e.clone(), -9..9).prop_map(|(e, x)| Put::One(e, x)),
        (e.clone(), -9..9).prop_map(|(e, x)| Put::Tuple(e, x)),
        prop::collection::vec((e.clone(), -9..9), 0..5).prop_map(Put::Many),
        (e.clone(), -9..9).prop_map(|(e, x)| Put::Command(e, x)),
        e.clone().prop_map(Put::Hooked),
        (-9..9).prop_map(Put::Spawn),
        e.prop_map(Put::Remove),
    ]
}

/// Applies `puts` to a world (`$moves`: its log of replaces) and returns the log.
macro_rules! put_all {
    ($w:expr, $puts:expr, $moves:ident) => {{
        let w = $w;
        let mut entities: Vec<Entity> = (0..3).map(|_| w.spawn()).collect();
        for put in $puts {
            let pick = |i: &usize| entities[i % entities.len()];
            match put {
                Put::One(e, x) => drop(w.insert(pick(e), Position(*x))),
                Put::Tuple(e, x) => drop(w.insert(pick(e), (Position(*x), Velocity(*x)))),
                Put::Many(items) => {
                    let items: Vec<_> =
                        items.iter().map(|(e, x)| (pick(e), Position(*x))).collect();
                    w.insert_many(items).unwrap();
                }
                Put::Command(e, x) => {
                    let mut commands = Commands::new();
                    commands.insert(pick(e), Position(*x));
                    w.apply(&mut commands);
                }
                Put::Hooked(e) => drop(w.insert(pick(e), Marker)),
                Put::Spawn(x) => entities.push(w.spawn_with((Position(*x),))),
                Put::Remove(e) => drop(w.remove::<Position>(pick(e))),
            }
        }
        w.check().unwrap();
        let log = std::mem::take(&mut $moves!(w).0);
        (entities, log)
    }};
}

macro_rules! static_moves {
    ($w:expr) => {
        $w.resource_mut::<Moves>()
    };
}

macro_rules! dynamic_moves {
    ($w:expr) => {
        $w.resource_mut::<Moves>().unwrap()
    };
}

proptest! {
    #![proptest_config(cases_or(128))]

    /// Every path that puts a `Position` (insert, tuple insert, `insert_many` with
    /// repeats, commands, a hook's commands, spawning) runs its insert hook where there
    /// was none and hands its replace hook the value it replaced; checked against a plain
    /// map of current values, in both worlds.
    #[test]
    fn a_replace_hook_sees_the_replaced_value_on_every_path(
        puts in prop::collection::vec(put(), 0..40),
    ) {
        let (entities, static_log) = put_all!(&mut Moved::new(), &puts, static_moves);
        let (_, dynamic_log) = put_all!(&mut moved_world(), &puts, dynamic_moves);
        let mut model: HashMap<Entity, i32> = HashMap::new();
        let mut want = Vec::new();
        let mut spawned = 3;
        let put_one = |model: &mut HashMap<Entity, i32>, e: Entity, x: i32, want: &mut Vec<_>| {
            let old = model.insert(e, x);
            want.push((e, old, x));
        };
        let mut has_marker = std::collections::HashSet::new();
        for put in &puts {
            let pick = |i: &usize| entities[i % spawned];
            match put {
                Put::One(e, x) | Put::Tuple(e, x) | Put::Command(e, x) => {
                    put_one(&mut model, pick(e), *x, &mut want);
                }
                // One change per entity: the value it had before the batch, the last
                // the batch gives it.
                Put::Many(items) => {
                    let mut last: Vec<(Entity, i32)> = Vec::new();
                    for (e, x) in items {
                        match last.iter_mut().find(|(f, _)| *f == pick(e)) {
                            Some(entry) => entry.1 = *x,
                            None => last.push((pick(e), *x)),
                        }
                    }
                    for (e, x) in last {
                        put_one(&mut model, e, x, &mut want);
                    }
                }
                Put::Hooked(e) => {
                    if has_marker.insert(pick(e)) {
                        put_one(&mut model, pick(e), -1, &mut want);
                    }
                }
                Put::Spawn(x) => {
                    put_one(&mut model, entities[spawned], *x, &mut want);
                    spawned += 1;
                }
                Put::Remove(e) => {
                    model.remove(&pick(e));
                }
            }
        }
        prop_assert_eq!(&static_log, &want);
        prop_assert_eq!(&dynamic_log, &want);
    }
}

/// A hook's world may be sent to another thread (as in 0.3): it holds the world and the
/// hooks' command queue, nothing else.
#[test]
fn a_hook_world_is_send() {
    fn send<T: Send>() {}
    send::<HookWorld<'static, Game>>();
    send::<HookWorld<'static, World>>();
}

/// The tuple one hook reads (`HookWorld::get::<(A, B)>`), kept by a resource.
#[derive(Default)]
struct Read(Vec<(Entity, i32, i32)>);

/// A hook written once with `Stores` alone: it reads a tuple of the entity's components
/// and its commands spawn one component (no tuple around it) and give a reserved handle one.
fn echo<W>(world: &mut HookWorld<'_, W>, e: Entity)
where
    W: Stores<(Position, Health)> + Stores<Marker> + sparse_groups::LendResource<Read>,
{
    let Some((p, h)) = world.get::<(Position, Health)>(e).map(|(p, h)| (p.0, h.0)) else {
        return;
    };
    world
        .try_borrow::<ResMut<'_, Read>>()
        .expect("the log")
        .0
        .push((e, p, h));
    world.commands().spawn(Marker);
}

#[world]
#[on_insert(Health, echo)]
struct Echo {
    positions: Storage<Position>,
    healths: Storage<Health>,
    markers: Storage<Marker>,
    read: Resource<Read>,
}

macro_rules! one_component_and_tuples {
    ($w:expr, $read:ident, $markers:ident) => {{
        let mut w = $w;
        let alone = w.spawn_with((Health(1),));
        let both = w.spawn_with((Position(7), Health(2)));
        assert_eq!(
            $read!(w),
            [(both, 7, 2)],
            "the hook read the tuple where it was whole"
        );
        assert_eq!($markers!(w), 1, "one spawned by its commands");
        // Commands of one component, through a world's queue.
        let mut commands = Commands::new();
        commands.spawn(Marker);
        let reserved = commands.spawn_reserved(w.entities(), Position(3));
        commands.insert(alone, Position(5));
        w.apply(&mut commands);
        assert_eq!(w.get::<Position>(reserved), Some(&Position(3)));
        assert_eq!(
            $read!(w),
            [(both, 7, 2)],
            "inserting `Position` runs no `Health` hook"
        );
        assert_eq!($markers!(w), 2);
        w.check().unwrap();
    }};
}

#[test]
fn a_hook_written_once_reads_a_tuple_and_commands_take_one_component() {
    macro_rules! static_read {
        ($w:expr) => {
            $w.resource::<Read>().0.clone()
        };
    }
    macro_rules! dynamic_read {
        ($w:expr) => {
            $w.resource::<Read>().unwrap().0.clone()
        };
    }
    macro_rules! static_markers {
        ($w:expr) => {
            $w.markers().len()
        };
    }
    macro_rules! dynamic_markers {
        ($w:expr) => {
            $w.storage::<Marker>().map_or(0, Storage::len)
        };
    }
    one_component_and_tuples!(Echo::new(), static_read, static_markers);
    let mut world = World::new();
    world.insert_resource(Read::default());
    world.on_insert::<Health>(echo::<World>).unwrap();
    one_component_and_tuples!(world, dynamic_read, dynamic_markers);
}
