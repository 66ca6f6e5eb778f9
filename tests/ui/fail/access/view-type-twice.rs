//! A view writing a type and reading it again.
use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct Position(f32);

#[world]
struct Scene {
    positions: Storage<Position>,
}

fn main() {
    let mut scene = Scene::new();
    let _ = scene.view::<(&mut Position, &Position)>();
}
