//! `#[derive(Debug, Clone, Default)]` on a world: `Debug` shows the storages by field name
//! and each group's length, `Clone` copies every storage and group, `Default` is `new`.

use sparse_groups::{Component, Storage, world};

#[derive(Component, Debug, Clone, PartialEq)]
struct A(u32);
#[derive(Component, Debug, Clone, PartialEq)]
struct B(u32);

#[world]
#[derive(Debug, Clone, Default)]
#[group(A, B)]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
}

pub fn main() {
    let mut scene = Scene::default();
    let e = scene.spawn_with((A(1), B(2)));
    scene.spawn_with((A(3),));
    let shown = format!("{scene:?}");
    assert_eq!(
        shown,
        "Scene { a: {e0v1: A(1), e1v1: A(3)}, b: {e0v1: B(2)}, groups: {\"<A, B>\": 1} }"
    );
    let mut copy = scene.clone();
    copy.remove::<B>(e);
    assert_eq!(copy.group_len::<(A, B)>(), 0);
    assert_eq!(scene.group_len::<(A, B)>(), 1, "the original is untouched");
    copy.check().unwrap();
    scene.check().unwrap();
}
