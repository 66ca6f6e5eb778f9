use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

#[world]
#[group(A, B)]
struct Scene {
    a: Storage<crate::A>,
    b: Storage<B>,
}

fn main() {}
