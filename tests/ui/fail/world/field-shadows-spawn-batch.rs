use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);

#[world]
struct Scene {
    spawn_batch: Storage<A>,
}

fn main() {}
