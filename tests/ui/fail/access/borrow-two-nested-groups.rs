//! Two nested groups share their owned types: borrowing both mutably at once is one
//! error, not one per shared type.
use sparse_groups::{Component, GroupMut, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);
#[derive(Component)]
struct C(u32);

#[world]
#[group(A, B, C)]
#[group(A, B)]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
}

fn main() {
    let mut scene = Scene::new();
    let (_outer, _inner) = scene.borrow::<(GroupMut<(A, B)>, GroupMut<(A, B, C)>)>();
}
