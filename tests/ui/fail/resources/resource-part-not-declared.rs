//! A borrow's resource part must be a resource the world declares.
use sparse_groups::{Component, ResMut, Storage, ValuesMut, world};

#[derive(Component)]
struct Position(f32);

struct Score(u64);

#[world]
struct Scene {
    positions: Storage<Position>,
}

fn main() {
    let mut scene = Scene::new();
    let _ = scene.borrow::<(ValuesMut<Position>, ResMut<Score>)>();
}
