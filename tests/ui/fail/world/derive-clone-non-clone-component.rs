use sparse_groups::{Component, Storage, world};

#[derive(Component, Clone)]
struct A(u32);
#[derive(Component)]
struct NotClone(u32);

#[world]
#[derive(Clone)]
struct Scene {
    a: Storage<A>,
    n: Storage<NotClone>,
}

fn main() {}
