//! Hole 2 of the soundness issue: a world's parts handed out slots whose variant held the
//! storage mutably, so `Storage::remove` could bypass group maintenance. Slots are opaque.
use sparse_groups::__private::{Slot, WorldParts};
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
    if let Slot::Mut(storage) = parts.slot_0() {
        storage.remove(e);
    }
    let _ = parts.slot_0().take_mut();
}
