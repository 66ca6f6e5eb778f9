//! The calls a bevy or hecs user types first, on both kinds of world: views with their
//! filters in the query tuple, tuples of components wherever one component goes
//! (`insert`, `remove`, `get`, `get_mut`, `contains`, commands), `Commands::spawn`
//! without a reservation, `despawn` (deprecated, naming `destroy`), and what each does
//! with a dead entity.

use sparse_groups::prelude::*;
use sparse_groups::{AccessError, Applied};

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Position(f32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Velocity(f32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Health(i32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Frozen;

/// Nested groups over the types a tuple insert completes at once, so that a tuple insert
/// goes through group entry and exit, and a group excluding `Frozen`.
#[world]
#[group(Position, Velocity, Health)]
#[group(Position, Velocity)]
#[group(get(Velocity, Health), exclude(Frozen))]
struct Game {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
    healths: Storage<Health>,
    frozen: Storage<Frozen>,
}

fn run_time_world() -> World {
    World::with_groups([
        GroupSpec::of::<(Position, Velocity, Health)>(),
        GroupSpec::of::<(Position, Velocity)>(),
    ])
    .expect("a valid layout")
}

#[test]
fn tuples_of_components_on_a_static_world() {
    let mut game = Game::new();
    let e = game.spawn();
    assert_eq!(
        game.insert(e, (Position(1.0), Velocity(2.0))),
        Ok((None, None))
    );
    assert_eq!(game.group_len::<(Position, Velocity)>(), 1);
    assert_eq!(game.group_len::<(Position, Velocity, Health)>(), 0);
    // Replacing one and adding one: the old values come back as a tuple of `Option`s.
    assert_eq!(
        game.insert(e, (Position(3.0), Health(5))),
        Ok((Some(Position(1.0)), None))
    );
    assert_eq!(game.group_len::<(Position, Velocity, Health)>(), 1);
    assert_eq!(
        game.get::<(Position, Health)>(e),
        Some((&Position(3.0), &Health(5)))
    );
    assert_eq!(game.get::<(Position, Frozen)>(e), None);
    assert!(game.contains::<(Position, Velocity, Health)>(e));
    assert!(!game.contains::<(Position, Frozen)>(e));
    // Several components mutably at once, checked for aliasing at compile time.
    if let Some((p, v, h)) = game.get_mut::<(&mut Position, &Velocity, Option<&mut Health>)>(e) {
        p.0 += v.0;
        h.expect("has health").0 -= 1;
    }
    assert_eq!(game.get::<Position>(e), Some(&Position(5.0)));
    assert_eq!(game.get::<Health>(e), Some(&Health(4)));
    *game.get_mut::<Velocity>(e).expect("has velocity") = Velocity(0.5);
    // Removing a tuple leaves the groups, innermost first, once.
    assert_eq!(
        game.remove::<(Velocity, Frozen)>(e),
        (Some(Velocity(0.5)), None)
    );
    assert_eq!(game.group_len::<(Position, Velocity)>(), 0);
    assert_eq!(game.group_len::<(Position, Velocity, Health)>(), 0);
    game.check().expect("groups stay valid");
}

#[test]
fn tuples_of_components_on_the_run_time_world() {
    let mut world = run_time_world();
    let e = world.spawn();
    assert_eq!(
        world.insert(e, (Position(1.0), Velocity(2.0))),
        Ok((None, None))
    );
    assert_eq!(world.group_len::<(Position, Velocity)>(), Ok(1));
    assert_eq!(
        world.insert(e, (Position(3.0), Health(5))),
        Ok((Some(Position(1.0)), None))
    );
    assert_eq!(world.group_len::<(Position, Velocity, Health)>(), Ok(1));
    assert_eq!(
        world.get::<(Position, Health)>(e),
        Some((&Position(3.0), &Health(5)))
    );
    assert!(world.contains::<(Position, Velocity)>(e));
    assert!(!world.contains::<(Position, Frozen)>(e));
    if let Some((p, v)) = world.get_mut::<(&mut Position, &Velocity)>(e) {
        p.0 += v.0;
    }
    assert_eq!(world.get::<Position>(e), Some(&Position(5.0)));
    assert_eq!(
        world.remove::<(Velocity, Health)>(e),
        (Some(Velocity(2.0)), Some(Health(5)))
    );
    assert_eq!(world.group_len::<(Position, Velocity)>(), Ok(0));
    world.check().expect("groups stay valid");
}

#[test]
#[should_panic(expected = "get_mut")]
fn an_aliasing_query_panics_on_the_run_time_world() {
    let mut world = World::new();
    let e = world.spawn_with((Position(0.0),));
    let _ = world.get_mut::<(&mut Position, &Position)>(e);
}

#[test]
fn a_dead_entity_is_refused_and_nothing_changes() {
    let mut game = Game::new();
    let e = game.spawn_with((Position(0.0),));
    game.destroy(e).expect("alive");
    assert_eq!(
        game.insert(e, (Position(1.0), Velocity(1.0))),
        Err(EntityError::Dead(e))
    );
    assert_eq!(game.remove::<(Position, Velocity)>(e), (None, None));
    assert_eq!(game.get::<(Position,)>(e), None);
    assert!(game.get_mut::<(&mut Position,)>(e).is_none());
    assert_eq!(game.storage::<Position>().len(), 0);
    assert_eq!(game.storage::<Velocity>().len(), 0);

    let mut world = World::new();
    let e = world.spawn_with((Position(0.0),));
    world.destroy(e).expect("alive");
    assert_eq!(
        world.insert(e, (Position(1.0), Velocity(1.0))),
        Err(EntityError::Dead(e))
    );
    assert_eq!(world.remove::<(Position, Velocity)>(e), (None, None));
    assert!(world.get_mut::<(&mut Position,)>(e).is_none());
    assert_eq!(world.storage::<Position>().map(|s| s.len()), Some(0));
}

#[test]
fn views_take_their_filters_in_the_query_tuple() -> Result<(), AccessError> {
    let mut game = Game::new();
    let moving = game.spawn_with((Position(0.0), Velocity(1.0)));
    let frozen = game.spawn_with((Position(0.0), Velocity(1.0), Frozen));
    for (_, (p, v)) in game.view::<(&mut Position, &Velocity, Without<Frozen>)>() {
        p.0 += v.0;
    }
    // One query leaf and a filter: the item is the leaf itself.
    let mut seen: Vec<Entity> = Vec::new();
    game.view_ref::<(&Position, With<Frozen>)>()
        .for_each(|e, p| {
            assert_eq!(*p, Position(0.0));
            seen.push(e);
        });
    assert_eq!(seen, [frozen]);
    // Two filters.
    let count = game
        .view_ref::<(&Position, With<Velocity>, Without<Frozen>)>()
        .iter()
        .count();
    assert_eq!(count, 1);
    assert_eq!(game.get::<Position>(moving), Some(&Position(1.0)));

    let mut world = World::new();
    let moving = world.spawn_with((Position(0.0), Velocity(1.0)));
    let frozen = world.spawn_with((Position(0.0), Velocity(1.0), Frozen));
    for (_, (p, v)) in world.view::<(&mut Position, &Velocity, Without<Frozen>)>()? {
        p.0 += v.0;
    }
    assert_eq!(world.get::<Position>(moving), Some(&Position(1.0)));
    assert_eq!(world.get::<Position>(frozen), Some(&Position(0.0)));
    let only: Vec<Entity> = world
        .view_ref::<(&Velocity, With<Frozen>)>()?
        .iter()
        .map(|(e, _)| e)
        .collect();
    assert_eq!(only, [frozen]);
    Ok(())
}

#[test]
fn commands_spawn_without_a_reservation_and_take_tuples() {
    let mut game = Game::new();
    let target = game.spawn_with((Position(0.0), Health(1)));
    let mut commands = Commands::new();
    for (_, h) in game.view::<&Health>() {
        assert_eq!(h.0, 1);
        commands.spawn((Position(9.0), Velocity(1.0)));
        commands.insert(target, (Velocity(2.0), Frozen));
    }
    commands.remove::<(Frozen, Health)>(target);
    let applied: Applied = game.apply(&mut commands);
    assert_eq!((applied.applied, applied.skipped.len()), (3, 0));
    let [spawned] = applied.spawned[..] else {
        panic!("one spawn: {applied:?}")
    };
    assert_eq!(
        game.get::<(Position, Velocity)>(spawned),
        Some((&Position(9.0), &Velocity(1.0)))
    );
    assert_eq!(game.get::<Velocity>(target), Some(&Velocity(2.0)));
    assert!(!game.contains::<Frozen>(target) && !game.contains::<Health>(target));
    game.check().expect("groups stay valid");

    let mut world = run_time_world();
    let mut commands = Commands::new();
    commands.spawn((Position(1.0), Velocity(1.0), Health(1)));
    let applied = world.apply(&mut commands);
    assert_eq!(world.group_len::<(Position, Velocity, Health)>(), Ok(1));
    assert_eq!(applied.spawned.len(), 1);
}

/// bevy's and hecs' name for `destroy` works on both worlds (deprecated: the warning
/// names `destroy`; `tests/ui/fail/changes/despawn-is-destroy.rs` shows it).
#[test]
#[allow(deprecated)]
fn despawn_destroys_on_both_worlds() {
    let mut game = Game::new();
    let e = game.spawn_with((Position(1.0), Velocity(2.0)));
    assert_eq!(game.despawn(e), Ok(()));
    assert!(!game.is_alive(e));
    assert_eq!(game.group_len::<(Position, Velocity)>(), 0);
    assert_eq!(game.despawn(e), Err(EntityError::Dead(e)));

    let mut world = run_time_world();
    let e = world.spawn_with((Position(1.0), Velocity(2.0)));
    assert_eq!(world.despawn(e), Ok(()));
    assert!(!world.is_alive(e));
    assert_eq!(world.group_len::<(Position, Velocity)>(), Ok(0));
    assert_eq!(world.despawn(e), Err(EntityError::Dead(e)));
}
