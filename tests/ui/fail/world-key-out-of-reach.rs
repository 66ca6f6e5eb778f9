//! What files entities without the hooks (a spawn's fast path, a snapshot's load) takes
//! the world's key, and no code outside the world's expansion can make one.
use sparse_groups::__private::{Internals, spawn_with};
use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);

#[world]
struct Scene {
    a: Storage<A>,
}

type Key = <Scene as Internals>::Key;

fn main() {
    let mut scene = Scene::new();
    let key = Key { 0: () };
    spawn_with(&mut scene, &key, (A(1),));
    let key: Key = Default::default();
    scene.__sparse.raw_entities(&key);
}
