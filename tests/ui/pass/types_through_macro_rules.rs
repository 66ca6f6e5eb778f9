//! A world declared by a `macro_rules!` that passes whole types (`$t:ty`): the types
//! arrive wrapped in invisible groups, which `#[world]` looks through.
// The case is that this compiles: its components' values are never read.
#![allow(dead_code)]

use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

macro_rules! declare_world {
    ($name:ident, $storage_a:ty, $storage_b:ty, $a:ty, $b:ty) => {
        #[world]
        #[group($a, $b)]
        struct $name {
            a: $storage_a,
            b: $storage_b,
        }
    };
}

declare_world!(Scene, Storage<A>, Storage<B>, A, B);

pub fn main() {
    let mut scene = Scene::new();
    scene.spawn_with((A(1), B(2)));
    assert_eq!(scene.group_len::<(A, B)>(), 1);
    scene.check().unwrap();
}
