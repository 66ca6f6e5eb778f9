use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);

#[world]
struct Scene<T: sparse_groups::Component> {
    a: Storage<A>,
    t: Storage<T>,
}

fn main() {}
