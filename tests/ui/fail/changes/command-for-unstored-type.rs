//! Commands are checked against the world's types when recorded.
use sparse_groups::{Commands, Component, Storage, world};

#[derive(Component)]
struct Health(i32);
#[derive(Component)]
struct Armor(i32);
#[derive(Component)]
struct Poisoned;

#[world]
struct Scene {
    healths: Storage<Health>,
    armors: Storage<Armor>,
}

fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn();
    let mut commands = Commands::<Scene>::new();
    commands.insert(e, Poisoned);
    scene.apply(&mut commands);
}
