//! The access model of a `#[world]`: views with every kind of leaf and filter, read-only
//! groups, group and view iterators, borrow requests, commands, bulk changes, and code
//! generic over worlds. Every test ends with the world's invariant check.

use sparse_groups::{
    Access, Apart, Commands, Component, Entities, Entity, GroupMut, GroupRef, HasComponent,
    HasGroup, Storage, ValuesMut, View, With, Without, world,
};

#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct Position(i32);
#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct Velocity(i32);
#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct Frozen;
#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct Health(i32);
#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct Tag(u8);

/// `<Position, Velocity>` with the frozen ones packed in front as
/// `<Position, Velocity, Frozen>`: a view without `Frozen` walks the rest of the outer
/// group densely.
#[world]
#[group(Position, Velocity)]
#[group(Position, Velocity, Frozen)]
struct Scene {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
    frozen: Storage<Frozen>,
    healths: Storage<Health>,
    tags: Storage<Tag>,
}

/// `n` movers, every third frozen, every other with a health.
fn scene(n: i32) -> (Scene, Vec<Entity>) {
    let mut scene = Scene::new();
    let entities = (0..n)
        .map(|i| {
            let e = scene.spawn_with((Position(i), Velocity(1)));
            if i % 3 == 0 {
                scene.insert(e, Frozen).unwrap();
            }
            if i % 2 == 0 {
                scene.insert(e, Health(i)).unwrap();
            }
            e
        })
        .collect();
    (scene, entities)
}

#[test]
fn a_view_without_a_nested_groups_type_is_dense_and_skips_it() {
    let (mut scene, es) = scene(30);
    let mut view = scene.borrow::<View<(&mut Position, &Velocity), Without<Frozen>>>();
    assert!(view.is_dense(), "walked as <P, V> minus <P, V, Frozen>");
    assert_eq!(view.len_hint(), 20);
    let mut moved = Vec::new();
    for (e, (p, v)) in &mut view {
        p.0 += v.0 * 100;
        moved.push(e);
    }
    assert_eq!(moved.len(), 20);
    for (i, &e) in es.iter().enumerate() {
        let frozen = i % 3 == 0;
        assert_eq!(moved.contains(&e), !frozen);
        let want = i as i32 + if frozen { 0 } else { 100 };
        assert_eq!(scene.get::<Position>(e), Some(&Position(want)));
    }
    scene.check().unwrap();
}

#[test]
fn views_without_a_matching_group_look_up_and_test() {
    let (mut scene, es) = scene(30);
    // Health is in no group: the smaller storage drives.
    let view = scene.borrow::<View<(&Health, Option<&Frozen>), With<Velocity>>>();
    assert!(!view.is_dense());
    assert_eq!(view.len_hint(), 15);
    let mut seen: Vec<(Entity, i32, bool)> = view
        .into_iter()
        .map(|(e, (h, f))| (e, h.0, f.is_some()))
        .collect();
    seen.sort_by_key(|s| s.1);
    let want: Vec<(Entity, i32, bool)> = (0..30)
        .filter(|i| i % 2 == 0)
        .map(|i| (es[i as usize], i, i % 3 == 0))
        .collect();
    assert_eq!(seen, want);

    let mut view = scene.view::<(&mut Health, &Position)>();
    assert_eq!(view.get(es[4]).map(|(h, p)| (h.0, p.0)), Some((4, 4)));
    assert!(view.get(es[5]).is_none(), "no health");
    assert!(view.contains(es[6]) && !view.contains(es[7]));
    view.for_each(|_, (h, p)| h.0 += p.0);
    assert_eq!(scene.get::<Health>(es[8]), Some(&Health(16)));
    scene.check().unwrap();
}

#[test]
fn read_only_views_and_groups_go_through_shared_references() {
    let (scene, es) = scene(12);
    let shared = &scene;
    let view = shared.view_ref::<(&Position, &Velocity)>();
    let again = shared.view_ref::<&Position>(); // any number at once
    assert!(view.is_dense());
    let sum: i32 = view.iter().map(|(_, (p, v))| p.0 + v.0).sum();
    assert_eq!(sum, (0..12).sum::<i32>() + 12);
    assert_eq!((&view).into_iter().count(), 12);
    assert_eq!(again.iter().count(), 12);

    let group = shared.group_ref::<(Position, Velocity)>();
    let inner = shared.group_ref::<(Position, Velocity, Frozen)>();
    assert_eq!((group.len(), inner.len()), (12, 4));
    assert_eq!(group.iter().len(), 12, "an exact-size iterator");
    let (entities, (positions, _)) = group.slices();
    assert_eq!(entities.len(), positions.len());
    for (e, (p, _, _)) in &inner {
        assert!(es.contains(&e) && p.0 % 3 == 0);
    }
    let mut visited = 0;
    group.for_each(|_, _| visited += 1);
    assert_eq!(visited, 12);
}

#[test]
fn a_group_iterates_by_value_by_mut_and_by_ref() {
    let (mut scene, _) = scene(10);
    let mut group = scene.group::<(Position, Velocity)>();
    assert_eq!(group.iter_mut().len(), 10);
    for (_, (p, v)) in &mut group {
        p.0 += v.0;
    }
    let total: i32 = (&group).into_iter().map(|(_, (p, _))| p.0).sum();
    assert_eq!(total, (0..10).sum::<i32>() + 10);
    let firsts: Vec<i32> = group.into_iter().take(3).map(|(_, (p, _))| p.0).collect();
    assert_eq!(firsts.len(), 3, "adapters and early exits work");
    scene.check().unwrap();
}

#[test]
fn folding_a_group_iterator_visits_the_members_next_has_not() {
    let (mut scene, _) = scene(12);
    // `<Position, Velocity>` observes nothing; `<P, V, Frozen>` is nested in it.
    let mut order = Vec::new();
    scene
        .group::<(Position, Velocity)>()
        .for_each(|e, _| order.push(e));
    let mut group = scene.group::<(Position, Velocity)>();
    let mut iter = group.iter_mut();
    let first = iter.next().map(|(e, _)| e);
    // `fold` (behind `for_each`, `map`, `collect`) goes on where `next` stopped.
    let mut rest = Vec::new();
    iter.for_each(|(e, (p, _))| {
        p.0 += 100;
        rest.push(e);
    });
    assert_eq!(first, order.first().copied());
    assert_eq!(rest, order[1..]);
    let read = scene.group_ref::<(Position, Velocity)>();
    let mut iter = read.iter();
    iter.next();
    iter.next();
    let seen: Vec<(Entity, i32)> = iter.map(|(e, (p, _))| (e, p.0)).collect();
    assert_eq!(seen.len(), 10);
    assert!(
        seen.iter().all(|&(_, p)| p >= 100),
        "the folded writes are there"
    );
    assert_eq!(seen.iter().map(|&(e, _)| e).collect::<Vec<_>>(), order[2..]);
    scene.check().unwrap();
}

#[test]
fn several_parts_are_borrowed_at_once() {
    let (mut scene, es) = scene(9);
    let (group, healths, mut tags, entities) = scene.borrow::<(
        GroupMut<(Position, Velocity)>,
        &Storage<Health>,
        ValuesMut<Tag>,
        &Entities,
    )>();
    assert!(tags.is_empty() && entities.len() == 9);
    for (e, (p, _)) in group {
        if let Some(h) = healths.get(e) {
            p.0 = h.0 * 10;
        }
    }
    assert!(tags.get_mut(es[0]).is_none());
    assert_eq!(scene.get::<Position>(es[4]), Some(&Position(40)));

    // Two reads of one type, and a read-only group beside them.
    let (a, b, g) = scene.borrow_ref::<(
        &Storage<Position>,
        &Storage<Position>,
        GroupRef<(Position, Velocity)>,
    )>();
    assert_eq!((a.len(), b.len(), g.len()), (9, 9, 9));
    scene.check().unwrap();
}

/// A presence filter borrows nothing: a view filtering by a type sits beside a part that
/// writes the type (its values, its group, or the same view), on both worlds, in either
/// order, and each reads what it should.
#[test]
fn a_filter_sits_beside_a_part_writing_its_type() {
    let (mut scene, es) = scene(12);
    let (frozen_moves, mut frozen, mut still) = scene.borrow::<(
        View<&mut Position, With<Frozen>>,
        ValuesMut<Frozen>,
        View<&Velocity, Without<Frozen>>,
    )>();
    assert_eq!(frozen.values_mut().len(), 4);
    frozen_moves.for_each(|_, p| p.0 += 100);
    assert_eq!(still.iter_mut().count(), 8);
    let (group, filtered) = scene.borrow::<(
        GroupMut<(Position, Velocity, Frozen)>,
        View<&Health, With<Frozen>>,
    )>();
    let healthy: Vec<_> = filtered.into_iter().map(|(e, h)| (e, h.0)).collect();
    assert_eq!(healthy, [(es[0], 0), (es[6], 6)]);
    assert_eq!(group.len(), 4);
    let moved = scene
        .view::<(&mut Position, With<Position>)>()
        .into_iter()
        .count();
    assert_eq!(moved, 12);
    for (i, &e) in es.iter().enumerate() {
        let expected = i as i32 + if i % 3 == 0 { 100 } else { 0 };
        assert_eq!(scene.get::<Position>(e), Some(&Position(expected)));
    }
    scene.check().unwrap();

    let mut world = sparse_groups::World::new();
    let es: Vec<Entity> = (0..6)
        .map(|i| world.spawn_with((Position(i), Velocity(1))))
        .collect();
    world.insert(es[1], Frozen).unwrap();
    let (mut frozen, moving) = world
        .borrow::<(
            ValuesMut<Frozen>,
            View<(&mut Position, &Velocity), Without<Frozen>>,
        )>()
        .unwrap();
    assert_eq!(frozen.values_mut().len(), 1);
    moving.for_each(|_, (p, v)| p.0 += v.0);
    let (writes, tests) = world
        .borrow::<(View<&mut Frozen>, View<&Position, With<Frozen>>)>()
        .unwrap();
    assert_eq!(
        (writes.into_iter().count(), tests.into_iter().count()),
        (1, 1)
    );
    let positions: Vec<i32> = es
        .iter()
        .map(|&e| world.get::<Position>(e).unwrap().0)
        .collect();
    assert_eq!(positions, [1, 1, 3, 4, 5, 6]);
    world.check().unwrap();
}

#[test]
fn commands_apply_in_order_and_skip_the_dead() {
    let (mut scene, es) = scene(6);
    let mut commands = Commands::new();
    let spawned;
    {
        let (group, entities) = scene.borrow::<(GroupRef<(Position, Velocity)>, &Entities)>();
        for (e, (p, _)) in &group {
            if p.0 == 1 {
                commands.destroy(e);
                commands.insert(e, Tag(1)); // destroyed by the command before: skipped
            }
        }
        spawned = commands.spawn_reserved(entities, (Position(-1), Velocity(2), Tag(7)));
        assert!(!entities.is_alive(spawned), "reserved, not alive yet");
        commands.insert(spawned, Health(5));
        commands.remove::<Frozen>(es[0]);
        commands.add(|s: &mut Scene| {
            s.spawn_with((Tag(9),));
        });
    }
    assert_eq!(commands.len(), 6);
    let applied = scene.apply(&mut commands);
    assert!(commands.is_empty());
    assert_eq!(applied.applied, 5);
    assert_eq!(applied.skipped.len(), 1);
    assert_eq!(
        (applied.skipped[0].command, applied.skipped[0].entity),
        (1, es[1])
    );
    assert!(!scene.is_alive(es[1]));
    assert_eq!(scene.get::<Health>(spawned), Some(&Health(5)));
    assert_eq!(scene.group_len::<(Position, Velocity)>(), 6);
    assert_eq!(scene.group_len::<(Position, Velocity, Frozen)>(), 1);
    assert_eq!(scene.storage::<Tag>().len(), 2);
    scene.check().unwrap();

    // A stale handle is never applied to the entity now at its index.
    let mut commands = Commands::new();
    commands.insert(es[1], Tag(3));
    scene.spawn(); // may reuse es[1]'s index, with a new version
    let applied = scene.apply(&mut commands);
    assert_eq!((applied.applied, applied.skipped.len()), (0, 1));
    assert_eq!(scene.storage::<Tag>().len(), 2);
    scene.check().unwrap();
}

#[test]
fn reserved_entities_can_be_used_directly() {
    let mut scene = Scene::new();
    let reserved = scene.entities().reserve();
    assert!(!scene.is_alive(reserved));
    scene.insert(reserved, Position(1)).unwrap(); // flushes the reservation
    assert!(scene.is_alive(reserved));
    scene.insert(reserved, Velocity(1)).unwrap();
    assert_eq!(scene.group_len::<(Position, Velocity)>(), 1);
    let other = scene.entities().reserve();
    scene.destroy(other).unwrap();
    assert!(!scene.is_alive(other));
    scene.check().unwrap();
}

#[test]
fn bulk_changes_keep_every_group_packed() {
    let (mut scene, es) = scene(40);
    // Bulk insert: frozen ones leave <P, V> minus <P, V, F> for the inner group.
    let newly: Vec<(Entity, Frozen)> = es[..10].iter().map(|&e| (e, Frozen)).collect();
    assert_eq!(
        scene.insert_many(newly).unwrap(),
        6,
        "4 of the 10 were frozen already"
    );
    assert_eq!(scene.group_len::<(Position, Velocity, Frozen)>(), 10 + 10);
    scene.check().unwrap();

    // Bulk remove, with a repeat and an absent one.
    let thawed = [es[0], es[1], es[1], es[11]];
    assert_eq!(scene.remove_many::<Frozen>(&thawed), 2);
    scene.check().unwrap();

    // A dead entity refuses the whole batch and hands it back.
    scene.destroy(es[39]).unwrap();
    let batch = vec![(es[2], Tag(1)), (es[39], Tag(2))];
    let refused = scene.insert_many(batch).unwrap_err();
    assert_eq!((refused.dead, refused.items.len()), (es[39], 2));
    assert!(scene.storage::<Tag>().is_empty());

    // Bulk destroy, with repeats and the dead.
    let doomed: Vec<Entity> = es
        .iter()
        .step_by(5)
        .copied()
        .chain([es[5], es[39]])
        .collect();
    assert_eq!(scene.destroy_many(&doomed), 8);
    assert!(!scene.is_alive(es[5]) && scene.is_alive(es[6]));
    scene.check().unwrap();

    // Retain: destroy the movers past 30.
    let gone = scene.retain::<&Position>(|_, p| p.0 <= 30);
    assert_eq!(gone, 7);
    assert!(scene.view_ref::<&Position>().iter().all(|(_, p)| p.0 <= 30));
    scene.check().unwrap();

    // Strip: remove `Frozen` from the odd ones.
    let stripped = scene.retain_component::<Frozen, &Position>(|_, p| p.0 % 2 == 0);
    assert!(stripped > 0);
    assert!(
        scene
            .view_ref::<(&Position, &Frozen)>()
            .iter()
            .all(|(_, (p, _))| p.0 % 2 == 0)
    );
    scene.check().unwrap();

    scene.clear::<Velocity>();
    assert_eq!(scene.group_len::<(Position, Velocity)>(), 0);
    assert_eq!(scene.group_len::<(Position, Velocity, Frozen)>(), 0);
    scene.check().unwrap();
}

/// Any world with `<Position, Velocity>` can move.
fn movement<W: HasGroup<(Position, Velocity)>>(world: &mut W) {
    for (_, (p, v)) in world.group() {
        p.0 += v.0;
    }
}

/// Any world storing `Health` and `Position`, the two borrowed at once, can heal.
fn heal<W>(world: &mut W)
where
    W: Access + HasComponent<Health> + HasComponent<Position> + Apart<Health, Position>,
{
    for (_, (h, p)) in world.view::<(&mut Health, &Position)>() {
        h.0 += p.0;
    }
}

#[test]
fn systems_are_generic_over_worlds() {
    let (mut scene, es) = scene(4);
    movement(&mut scene);
    heal(&mut scene);
    assert_eq!(scene.get::<Position>(es[2]), Some(&Position(3)));
    assert_eq!(scene.get::<Health>(es[2]), Some(&Health(5)));
    scene.check().unwrap();
}

/// Code generic over worlds spawns bundles: what a bundle of two types needs is what a
/// borrow of both needs, each type stored and the two apart.
#[test]
fn generic_code_spawns_bundles() {
    fn spawn_pair<W>(world: &mut W, health: i32) -> Entity
    where
        W: sparse_groups::EditEntities
            + HasComponent<Health>
            + HasComponent<Tag>
            + Apart<Health, Tag>,
    {
        world.spawn_with((Health(health), Tag(1)))
    }
    let (mut scene, _) = scene(2);
    let e = spawn_pair(&mut scene, 7);
    assert_eq!(scene.get::<Health>(e), Some(&Health(7)));
    let mut world = sparse_groups::World::new();
    let e = world.spawn_with((Health(3), Tag(2)));
    assert_eq!(world.get::<Tag>(e), Some(&Tag(2)));
    scene.check().unwrap();
}
