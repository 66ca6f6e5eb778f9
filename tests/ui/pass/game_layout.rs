//! The game of the group-kinds issue: the render family `<Sprite, Renderable>` ⊂
//! `<Sprite, Renderable, Position>`, movement as a partial-owning group that observes
//! `Position` and excludes `Frozen`, and a non-owning group over `Health` and `Poisoned`.

use sparse_groups::{Component, Exclude, Get, Storage, world};

#[derive(Component, Debug, PartialEq)]
struct Sprite(u32);
#[derive(Component, Debug, PartialEq)]
struct Renderable;
#[derive(Component, Debug, PartialEq)]
struct Position(f32);
#[derive(Component, Debug, PartialEq)]
struct Velocity(f32);
#[derive(Component, Debug, PartialEq)]
struct Frozen;
#[derive(Component, Debug, PartialEq)]
struct Health(u32);
#[derive(Component, Debug, PartialEq)]
struct Poisoned;

#[world]
#[group(Sprite, Renderable)]
#[group(Sprite, Renderable, Position)]
#[group(Velocity, get(Position), exclude(Frozen))]
#[group(get(Health, Poisoned))]
struct Scene {
    sprites: Storage<Sprite>,
    renderables: Storage<Renderable>,
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
    frozen: Storage<Frozen>,
    healths: Storage<Health>,
    poisoned: Storage<Poisoned>,
}

type Movers = (Velocity, Get<Position>, Exclude<Frozen>);
type Sick = Get<(Health, Poisoned)>;

pub fn main() {
    let mut scene = Scene::new();
    let a = scene.spawn_with((Sprite(1), Renderable, Position(0.0), Velocity(1.0)));
    let b = scene.spawn_with((Position(10.0), Velocity(2.0), Frozen));
    let c = scene.spawn_with((Health(5), Poisoned));
    assert_eq!(scene.group_len::<(Sprite, Renderable, Position)>(), 1);
    assert_eq!(scene.group::<Movers>().entities(), &[a]);
    scene.group::<Movers>().for_each(|_, (v, p)| p.0 += v.0);
    assert_eq!(scene.get::<Position>(a), Some(&Position(1.0)));
    // Removing the excluded type makes `b` enter; adding it back makes it leave.
    scene.remove::<Frozen>(b);
    assert_eq!(scene.group_len::<Movers>(), 2);
    scene.insert(b, Frozen).unwrap();
    assert_eq!(scene.group_len::<Movers>(), 1);
    scene.group::<Sick>().for_each(|_, (h, _)| h.0 -= 1);
    assert_eq!(scene.get::<Health>(c), Some(&Health(4)));
    scene.remove::<Poisoned>(c);
    assert!(scene.group::<Sick>().is_empty());
    scene.check().unwrap();
}
