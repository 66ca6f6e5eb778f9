use sparse::{Component, Storage, world};

#[derive(Component)]
struct A(u32);

#[world]
struct Scene<T: sparse::Component> {
    a: Storage<A>,
    t: Storage<T>,
}

fn main() {}
