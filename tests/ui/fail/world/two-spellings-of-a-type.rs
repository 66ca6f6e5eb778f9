use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

#[world]
struct Scene {
    a: Storage<A>,
    a2: Storage<crate::A>,
    b: Storage<B>,
}

fn main() {}
