use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);
#[derive(Component)]
struct Z(u32);

#[world]
#[group(A, B, get(Z), exclude(Z2))]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
}

fn main() {}
