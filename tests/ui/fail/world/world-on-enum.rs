use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);

#[world]
enum Scene {
    A(Storage<A>),
}

fn main() {}
