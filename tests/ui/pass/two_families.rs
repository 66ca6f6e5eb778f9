//! Two independent families of groups in one world: <A, B> ⊂ <A, B, C> and <D, E>.

use sparse_groups::{Component, Storage, world};

#[derive(Component, Debug, PartialEq)]
struct A(u32);
#[derive(Component, Debug, PartialEq)]
struct B(u32);
#[derive(Component, Debug, PartialEq)]
struct C(u32);
#[derive(Component, Debug, PartialEq)]
struct D(u32);
#[derive(Component, Debug, PartialEq)]
struct E(u32);
#[derive(Component, Debug, PartialEq)]
struct F(u32);

#[world]
#[group(D, E)]
#[group(A, B, C)]
#[group(A, B)]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
    d: Storage<D>,
    e: Storage<E>,
    f: Storage<F>,
}

pub fn main() {
    let mut scene = Scene::new();
    let x = scene.spawn();
    let y = scene.spawn();
    scene.insert(x, A(1)).unwrap();
    scene.insert(x, B(1)).unwrap();
    scene.insert(x, D(1)).unwrap();
    scene.insert(y, D(2)).unwrap();
    scene.insert(y, E(2)).unwrap();
    scene.insert(y, F(2)).unwrap();
    assert_eq!(scene.group_len::<(A, B)>(), 1);
    assert_eq!(scene.group_len::<(A, B, C)>(), 0);
    assert_eq!(scene.group_len::<(D, E)>(), 1);
    assert_eq!(scene.group::<(D, E)>().entities(), &[y]);

    scene.insert(x, E(1)).unwrap();
    scene.insert(x, C(1)).unwrap();
    assert_eq!(scene.group_len::<(A, B, C)>(), 1);
    assert_eq!(scene.group_len::<(D, E)>(), 2);
    scene.check().unwrap();

    // Removing from one family leaves the other untouched.
    assert_eq!(scene.remove::<B>(x), Some(B(1)));
    assert_eq!(scene.group_len::<(A, B)>(), 0);
    assert_eq!(scene.group_len::<(A, B, C)>(), 0);
    assert_eq!(scene.group_len::<(D, E)>(), 2);
    scene.check().unwrap();

    // F is owned by no group: its storage can be sorted on its own.
    scene.insert(x, F(9)).unwrap();
    scene.sort::<F>(|p, q| q.0.cmp(&p.0));
    assert_eq!(scene.storage::<F>().components(), &[F(9), F(2)]);

    scene.destroy(y).unwrap();
    assert_eq!(scene.group_len::<(D, E)>(), 1);
    assert_eq!(scene.group::<(D, E)>().entities(), &[x]);
    scene.check().unwrap();
}
