use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

#[world]
struct Scene {
    v: Vec<A>,
    b: Storage<B>,
}

fn main() {}
