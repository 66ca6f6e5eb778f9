use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

#[world]
struct Scene {
    insert: Storage<A>,
    b: Storage<B>,
}

fn main() {}
