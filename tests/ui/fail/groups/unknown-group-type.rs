use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);
#[derive(Component)]
struct C(u32);

#[world]
#[group(A, C)]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
}

fn main() {}
