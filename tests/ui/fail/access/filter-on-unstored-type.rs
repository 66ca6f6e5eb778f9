//! A filter on a type the world does not store.
use sparse_groups::{Component, Storage, View, Without, world};

#[derive(Component)]
struct Position(f32);
#[derive(Component)]
struct Frozen;

#[world]
struct Scene {
    positions: Storage<Position>,
}

fn main() {
    let mut scene = Scene::new();
    let _ = scene.borrow::<View<&mut Position, Without<Frozen>>>();
}
