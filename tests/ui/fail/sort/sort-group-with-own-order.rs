//! `sort_group_with` takes only the orders `sort_group`, `sort_group_by_key`,
//! `sort_group_by_radix_key` and `sort_group_as` build: a layer's order must stay a
//! permutation of it.
use sparse_groups::{Component, HasGroup, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

#[world]
#[group(A, B)]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
}

struct Reversed;

fn main() {
    let mut scene = Scene::new();
    HasGroup::<(A, B)>::sort_group_with(&mut scene, Reversed);
}
