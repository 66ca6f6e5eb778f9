use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);

#[world]
#[group(exclude(A))]
struct Scene {
    a: Storage<A>,
}

fn main() {}
