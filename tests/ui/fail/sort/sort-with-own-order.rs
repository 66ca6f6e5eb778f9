//! `sort_with` takes only the orders `sort`, `sort_by_key`, `sort_by_radix_key` and
//! `sort_as` build: a storage's components must move with their entities.
use sparse_groups::{Component, Storage, Unowned, world};

#[derive(Component)]
struct Depth(u32);

#[world]
struct Scene {
    depths: Storage<Depth>,
}

struct Shuffled;

fn main() {
    let mut scene = Scene::new();
    Unowned::<Depth>::sort_with(&mut scene, Shuffled);
}
