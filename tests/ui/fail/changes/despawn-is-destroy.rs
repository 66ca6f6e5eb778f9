// bevy and hecs users write `despawn`: it works, deprecated, and the warning names
// `destroy` (denied here to show it).
#![deny(deprecated)]

use sparse_groups::{Component, Storage, World, world};

#[derive(Component)]
struct A(u32);

#[world]
struct Scene {
    a: Storage<A>,
}

fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn_with((A(1),));
    scene.despawn(e).unwrap();

    let mut world = World::new();
    let e = world.spawn_with((A(1),));
    world.despawn(e).unwrap();
}
