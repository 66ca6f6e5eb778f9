use sparse_groups::{Component, Storage, world};

#[derive(Component, Debug)]
struct A(u32);

#[world]
#[derive(Debug, PartialEq, Copy)]
struct Scene {
    a: Storage<A>,
}

fn main() {}
