use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
struct NotDerived(u32);

#[world]
struct Scene {
    a: Storage<A>,
    n: Storage<NotDerived>,
}

fn main() {}
