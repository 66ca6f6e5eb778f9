//! A tree family: `<A, B>` and `<C, D>` are both outer groups of `<A, B, C, D>` (each
//! storage's owners still form a chain), and adding a type enters outer groups first.
// The case is that this compiles: its components' values are never read.
#![allow(dead_code)]

use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);
#[derive(Component)]
struct C(u32);
#[derive(Component)]
struct D(u32);

#[world]
#[group(A, B, C, D)]
#[group(A, B)]
#[group(C, D)]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
    d: Storage<D>,
}

pub fn main() {
    let mut scene = Scene::new();
    let x = scene.spawn_with((A(0), B(0), C(0)));
    let y = scene.spawn_with((C(1), D(1)));
    scene.insert(x, D(0)).unwrap();
    assert_eq!(scene.group_len::<(A, B)>(), 1);
    assert_eq!(scene.group_len::<(C, D)>(), 2);
    assert_eq!(scene.group::<(A, B, C, D)>().entities(), &[x]);
    assert_eq!(scene.group::<(C, D)>().entities(), &[x, y]);
    scene.remove::<B>(x);
    assert_eq!(scene.group_len::<(A, B, C, D)>(), 0);
    scene.check().unwrap();
}
