use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct Health(u32);

#[world]
struct Scene {
    healths: Storage<Health>,
}

fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn();
    // A tuple of components names each type once.
    let _ = scene.insert(e, (Health(1), Health(2)));
}
