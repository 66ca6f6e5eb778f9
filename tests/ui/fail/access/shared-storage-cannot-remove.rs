//! A storage lent shared cannot be changed.
use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct Health(i32);

#[world]
struct Scene {
    healths: Storage<Health>,
}

fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn();
    let healths = scene.borrow::<&Storage<Health>>();
    healths.remove(e);
}
