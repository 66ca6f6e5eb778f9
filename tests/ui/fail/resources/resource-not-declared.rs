//! A `#[world]` holds the resources it declares, and no other.
use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct Position(f32);

struct Score(u64);

#[world]
struct Scene {
    positions: Storage<Position>,
}

fn main() {
    let scene = Scene::new();
    let _ = scene.resource::<Score>();
}
