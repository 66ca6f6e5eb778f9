//! The world cannot change structure while a view of it is out: record commands, or use
//! `retain`, instead.
use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct Health(i32);

#[world]
struct Scene {
    healths: Storage<Health>,
}

fn main() {
    let mut scene = Scene::new();
    for (entity, health) in scene.view::<&Health>() {
        if health.0 <= 0 {
            scene.destroy(entity).unwrap();
        }
    }
}
