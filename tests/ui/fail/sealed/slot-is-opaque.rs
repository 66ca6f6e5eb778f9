//! Hole 2 of the soundness issue: a world's parts handed out slots whose variant held the
//! storage mutably, so `Storage::remove` could bypass group maintenance. Slots are opaque:
//! only the crate's own borrow code takes a storage out of one.
use sparse_groups::__private::{LendStorage, WorldParts};
use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

#[world]
#[group(A, get(B))]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
}

fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn_with((A(1), B(2)));
    let mut parts = scene.parts();
    let slot = <Scene as LendStorage<A>>::slot(&mut parts).unwrap();
    if let Ok(storage) = slot.take_mut() {
        storage.remove(e);
    }
}
