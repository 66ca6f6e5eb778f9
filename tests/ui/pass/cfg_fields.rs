//! Fields follow `#[cfg]` like any struct field: a configured-out storage does not exist
//! (its type needs no `Component` impl, nothing maintains it), and alternative fields of
//! one type under exclusive `#[cfg]`s are one storage.
// The case is that this compiles: the configured-out type is never constructed, and the
// conditions are written as a user's `#[cfg]`s would be, not minimal.
#![allow(dead_code, clippy::non_minimal_cfg)]

use sparse_groups::{Component, Storage, world};

#[derive(Component, Debug, PartialEq)]
struct A(u32);
#[derive(Component, Debug, PartialEq)]
struct B(u32);
/// Not a component: fine, since its field is configured out.
struct NotAComponent;

#[world]
#[group(A, B)]
struct Scene {
    #[cfg(all())]
    a: Storage<A>,
    #[cfg(not(all()))]
    a: Storage<A>,
    b: Storage<B>,
    #[cfg(any())]
    gone: Storage<NotAComponent>,
}

pub fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn_with((A(1), B(2)));
    assert_eq!(scene.group_len::<(A, B)>(), 1);
    assert_eq!(scene.a().len(), 1);
    scene.destroy(e).unwrap();
    scene.check().unwrap();
}
