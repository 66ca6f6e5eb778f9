use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

#[world(foo)]
#[group(A, B)]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
}

fn main() {}
