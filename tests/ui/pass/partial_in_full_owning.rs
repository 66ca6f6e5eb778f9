//! A full-owning group nested in a partial-owning one: `<Velocity, get(Position)>` packs
//! every moving entity's velocity, `<Velocity, Position>` packs both for those it owns.

use sparse_groups::{Component, Get, Storage, world};

#[derive(Component, Debug, PartialEq)]
struct Position(f32);
#[derive(Component, Debug, PartialEq)]
struct Velocity(f32);

#[world]
#[group(Velocity, get(Position))]
#[group(Velocity, Position)]
struct Scene {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
}

pub fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn_with((Position(0.0), Velocity(1.0)));
    scene
        .group::<(Velocity, Get<Position>)>()
        .for_each(|_, (v, p)| p.0 += v.0);
    let (entities, (v, p)) = scene.group::<(Velocity, Position)>().into_slices();
    assert_eq!((entities, v[0].0, p[0].0), (&[e][..], 1.0, 1.0));
    scene.check().unwrap();
}
