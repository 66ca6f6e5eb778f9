//! What files entities without the group steps (a spawn's fast path, a snapshot's load) takes
//! the world's key, and no code outside the world's expansion can make one: its field is
//! private to the expansion.
use sparse_groups::__private::{Internals, spawn_with};
use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A;

#[world]
struct Scene {
    a: Storage<A>,
}

type Key = <Scene as Internals>::Key;

fn main() {
    let mut scene = Scene::new();
    let key = Key { 0: () };
    spawn_with(&mut scene, &key, (A,));
    scene.__sparse.raw_entities(&key);
}
