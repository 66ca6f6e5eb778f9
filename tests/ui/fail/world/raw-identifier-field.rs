use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);

#[world]
struct Scene {
    r#check: Storage<A>,
}

fn main() {}
