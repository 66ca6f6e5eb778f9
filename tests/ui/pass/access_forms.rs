//! Every access form compiles: views with each kind of leaf and filter, read-only views
//! and groups, group and view iterators, several parts at once, commands, bulk changes,
//! and code generic over worlds.
use sparse_groups::{
    Access, Apart, Commands, Component, Entities, Exclude, Get, GroupMut, GroupRef, HasComponent,
    HasGroup, Storage, ValuesMut, View, With, Without, world,
};

#[derive(Component)]
struct Position(f32);
#[derive(Component)]
struct Velocity(f32);
#[derive(Component)]
struct Frozen;
#[derive(Component)]
struct Health(i32);

#[world]
#[group(Velocity, get(Position), exclude(Frozen))]
#[group(get(Health))]
struct Scene {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
    frozen: Storage<Frozen>,
    healths: Storage<Health>,
}

type Movers = (Velocity, Get<Position>, Exclude<Frozen>);

fn heal<W>(world: &mut W)
where
    W: Access + HasComponent<Health> + HasComponent<Position> + Apart<Health, Position>,
{
    for (_, (h, p)) in world.view::<(&mut Health, &Position)>() {
        h.0 += p.0 as i32;
    }
}

fn movement<W: HasGroup<Movers>>(world: &mut W) {
    for (_, (v, p)) in world.group() {
        p.0 += v.0;
    }
}

pub fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn_with((Position(0.0), Velocity(1.0), Health(3)));

    for (_, (p, v, h)) in scene.view::<(&mut Position, &Velocity, Option<&mut Health>)>() {
        p.0 += v.0;
        if let Some(h) = h {
            h.0 -= 1;
        }
    }
    scene
        .borrow::<View<&mut Health, (With<Position>, Without<Frozen>)>>()
        .for_each(|_, h| h.0 += 1);
    let read = scene.view_ref::<(&Position, Option<&Frozen>)>();
    let _ = read.iter().count() + (&read).into_iter().count();

    let mut group = scene.group::<Movers>();
    for (_, (v, _)) in &mut group {
        v.0 *= 2.0;
    }
    let _ = (&group).into_iter().len();
    for (_, (_, p)) in group {
        p.0 = 0.0;
    }
    let movers: GroupRef<Movers> = scene.group_ref();
    let _ = movers.iter().len();
    for (_, h) in scene.group_ref::<Get<Health>>() {
        let _ = h.0;
    }

    let (movers, _healths, mut frozen, entities) = scene.borrow::<(
        GroupMut<Movers>,
        GroupRef<Get<Health>>,
        ValuesMut<Frozen>,
        &Entities,
    )>();
    let _ = (movers.len(), frozen.values_mut().len(), entities.len());
    let (_a, _b) = scene.borrow_ref::<(&Storage<Position>, View<&Position>)>();

    let mut commands = Commands::new();
    {
        let (healths, entities) = scene.borrow::<(&Storage<Health>, &Entities)>();
        for (entity, health) in healths.iter() {
            if health.0 < 0 {
                commands.destroy(entity);
                commands.spawn_reserved(entities, (Frozen,));
            }
        }
    }
    commands.insert(e, Frozen);
    commands.remove::<Frozen>(e);
    let _ = scene.apply(&mut commands);

    scene.insert_many([(e, Health(1))]).unwrap();
    scene.remove_many::<Health>(&[e]);
    scene.retain::<&Position>(|_, p| p.0 < 100.0);
    scene.retain_component::<Velocity, &Velocity>(|_, v| v.0 < 100.0);
    scene.clear::<Frozen>();
    scene.destroy_many(&[e]);

    heal(&mut scene);
    movement(&mut scene);
    scene.check().unwrap();
}
