//! A storage lent for its values has no structural method: values change, entities do not.
use sparse_groups::{Component, Storage, ValuesMut, world};

#[derive(Component)]
struct Health(i32);

#[world]
struct Scene {
    healths: Storage<Health>,
}

fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn();
    let mut healths = scene.borrow::<ValuesMut<Health>>();
    healths.insert(e, Health(1));
}
