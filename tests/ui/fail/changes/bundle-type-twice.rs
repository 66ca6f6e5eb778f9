//! A bundle naming a type twice (a run-time panic before; a compile error now).
use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct Health(i32);

#[world]
struct Scene {
    healths: Storage<Health>,
}

fn main() {
    let mut scene = Scene::new();
    scene.spawn_with((Health(1), Health(2)));
}
