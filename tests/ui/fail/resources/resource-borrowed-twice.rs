//! A request writing a resource cannot read it too, as for a storage.
use sparse_groups::{Component, Res, ResMut, Resource, Storage, world};

#[derive(Component)]
struct Position(f32);

#[derive(Default)]
struct Score(u64);

#[world]
struct Scene {
    positions: Storage<Position>,
    score: Resource<Score>,
}

fn main() {
    let mut scene = Scene::new();
    let _ = scene.borrow::<(ResMut<Score>, Res<Score>)>();
}
