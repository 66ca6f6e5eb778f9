use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

// `#[group]` is read by `#[world]` only below it: above, rustc looks for an attribute
// named `group` before `#[world]` runs.
#[group(A, B)]
#[world]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
}

fn main() {}
