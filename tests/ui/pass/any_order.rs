//! Groups may be declared in any order: here the innermost comes first.

use sparse_groups::{Component, Storage, world};

#[derive(Component, Debug, PartialEq)]
struct A(u32);
#[derive(Component, Debug, PartialEq)]
struct B(u32);
#[derive(Component, Debug, PartialEq)]
struct C(u32);

#[world]
#[group(A, B, C)]
#[group(A, B)]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
}

pub fn main() {
    let mut scene = Scene::new();
    let e1 = scene.spawn();
    let e2 = scene.spawn();
    // e1 completes <A, B, C> through <A, B>; e2 only <A, B>.
    scene.insert(e1, C(1)).unwrap();
    scene.insert(e1, A(1)).unwrap();
    scene.insert(e2, A(2)).unwrap();
    scene.insert(e2, B(2)).unwrap();
    assert_eq!(scene.group_len::<(A, B)>(), 1);
    assert_eq!(scene.group_len::<(A, B, C)>(), 0);
    scene.insert(e1, B(1)).unwrap();
    assert_eq!(scene.group_len::<(A, B)>(), 2);
    assert_eq!(scene.group_len::<(A, B, C)>(), 1);
    assert_eq!(scene.group::<(A, B, C)>().entities(), &[e1]);
    scene.check().unwrap();

    assert_eq!(scene.remove::<C>(e1), Some(C(1)));
    assert_eq!(scene.group_len::<(A, B, C)>(), 0);
    assert_eq!(scene.group_len::<(A, B)>(), 2);
    scene.check().unwrap();
}
