//! The access model on the run-time `World`: what a `#[world]` rejects at compile time is
//! an `AccessError` here, and nothing changes when a request is refused.

use sparse_core::{
    AccessError, Commands, Component, Entities, Exclude, GroupMut, GroupRef, GroupSpec, Storage,
    ValuesMut, View, With, Without, World,
};

#[derive(Debug, PartialEq, Clone, Copy)]
struct Position(i32);
#[derive(Debug, PartialEq, Clone, Copy)]
struct Velocity(i32);
#[derive(Debug, PartialEq, Clone, Copy)]
struct Frozen;
#[derive(Debug, PartialEq, Clone, Copy)]
struct Health(i32);
impl Component for Position {}
impl Component for Velocity {}
impl Component for Frozen {}
impl Component for Health {}

type Movers = (Position, Velocity, Exclude<Frozen>);

fn world() -> World {
    let mut world = World::with_groups([GroupSpec::of::<Movers>()]).unwrap();
    for i in 0..10 {
        let e = world.spawn_with((Position(i), Velocity(1)));
        if i % 2 == 0 {
            world.insert(e, Frozen).unwrap();
        }
    }
    world
}

#[test]
fn overlapping_requests_are_refused_and_change_nothing() {
    let mut world = world();
    let err = world
        .borrow::<(GroupMut<Movers>, &Storage<Position>)>()
        .unwrap_err();
    assert_eq!(
        err,
        AccessError::Conflict(core::any::type_name::<Position>())
    );
    let err = world.view::<(&mut Position, &Position)>().unwrap_err();
    assert!(matches!(err, AccessError::Conflict(_)));
    assert!(err.to_string().contains("borrowed twice"));
    // Two reads of one type are fine.
    assert!(
        world
            .borrow::<(&Storage<Position>, View<&Position>)>()
            .is_ok()
    );
    world.check().unwrap();
}

#[test]
fn read_only_access_needs_the_storage_and_the_group() {
    let mut world = world();
    let err = world.view_ref::<&Health>().unwrap_err();
    assert_eq!(
        err,
        AccessError::NotStored(core::any::type_name::<Health>())
    );
    // Access through `&mut` creates the storage.
    assert_eq!(world.view::<&Health>().unwrap().into_iter().count(), 0);
    assert!(world.view_ref::<&Health>().is_ok());
    let err = world.group_ref::<(Position, Velocity)>().unwrap_err();
    assert!(matches!(err, AccessError::NoSuchGroup(_)));
    let group: GroupRef<Movers> = world.group_ref().unwrap();
    assert_eq!(group.len(), 5);
}

#[test]
fn views_and_bulk_changes_match_the_static_world() {
    let mut world = world();
    let view = world
        .borrow::<View<(&mut Position, &Velocity), Without<Frozen>>>()
        .unwrap();
    assert!(view.is_dense(), "the exclusion group drives it");
    for (_, (p, v)) in view {
        p.0 += v.0 * 100;
    }
    let moved = world
        .view_ref::<&Position>()
        .unwrap()
        .iter()
        .filter(|(_, p)| p.0 >= 100)
        .count();
    assert_eq!(moved, 5);
    let frozen = world
        .borrow::<View<&Position, With<Frozen>>>()
        .unwrap()
        .into_iter()
        .count();
    assert_eq!(frozen, 5);

    let (mut values, entities) = world.borrow::<(ValuesMut<Velocity>, &Entities)>().unwrap();
    values.values_mut().iter_mut().for_each(|v| v.0 = 2);
    let reserved = entities.reserve();
    let mut commands = Commands::new();
    commands.insert(reserved, Health(1));
    commands.destroy(reserved);
    commands.insert(reserved, Health(2)); // destroyed by the command before: skipped
    let applied = world.apply(&mut commands);
    assert_eq!((applied.applied, applied.skipped.len()), (2, 1));
    world.check().unwrap();

    let destroyed = world.retain::<&Position>(|_, p| p.0 < 105).unwrap();
    assert_eq!(destroyed, 3);
    let thawed = world
        .retain_component::<Frozen, &Position>(|_, p| p.0 < 4)
        .unwrap();
    assert_eq!(thawed, 3);
    assert_eq!(world.group_len::<Movers>().unwrap(), 5);
    world.clear::<Velocity>();
    assert_eq!(world.group_len::<Movers>().unwrap(), 0);
    world.check().unwrap();
}

#[test]
fn reserved_entities_are_alive_for_the_next_change() {
    let mut world = world();
    let reserved = world.entities().reserve();
    assert!(!world.is_alive(reserved));
    assert_eq!(world.insert(reserved, Position(1)), Ok(None));
    assert!(world.is_alive(reserved));
    assert!(world.contains::<Position>(reserved));
    let other = world.entities().reserve();
    let victim = world.spawn();
    world.destroy(victim).unwrap();
    assert!(world.is_alive(other), "destroying flushes reservations");
    world.check().unwrap();
}

#[test]
fn stale_handles_in_bulk_removal_touch_nothing() {
    let mut world = world();
    let old = world.spawn_with((Position(100), Velocity(1)));
    world.destroy(old).unwrap();
    let new = world.spawn_with((Position(200), Velocity(1)));
    assert_eq!(new.index(), old.index(), "the index is reused");
    let everyone: Vec<_> = world.entities().iter().collect();
    // Many handles (one pass over the storage) and few (one swap each), both with the
    // stale one and duplicates.
    for batch in [everyone.clone(), vec![old, old]] {
        let mut batch = batch;
        batch.retain(|&e| e != new);
        batch.push(old);
        batch.extend(batch.clone());
        let had = batch
            .iter()
            .filter(|&&e| world.contains::<Velocity>(e))
            .collect::<std::collections::HashSet<_>>()
            .len();
        assert_eq!(world.remove_many::<Velocity>(&batch), had);
        assert_eq!(world.get::<Velocity>(new), Some(&Velocity(1)));
        assert_eq!(world.destroy_many(&[old, old]), 0);
        assert!(world.is_alive(new));
        world.check().unwrap();
    }
}
