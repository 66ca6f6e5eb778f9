//! A view with only optional elements has nothing to be driven by.
use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct Position(f32);

#[world]
struct Scene {
    positions: Storage<Position>,
}

fn main() {
    let mut scene = Scene::new();
    let _ = scene.view::<Option<&Position>>();
}
