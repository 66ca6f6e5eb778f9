use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);
#[derive(Component)]
struct C(u32);
#[derive(Component)]
struct D(u32);

#[world]
#[group(A, B)]
#[group(A, C, D)]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
    d: Storage<D>,
}

fn main() {}
