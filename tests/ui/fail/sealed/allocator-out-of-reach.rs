//! Hole 1 of the soundness issue: replacing a world's entity allocator made `spawn_with`
//! file an index that already had components, so a storage listed one entity twice and a
//! view yielded two `&mut` to one value. No safe code reaches a world's allocator mutably.
use sparse_groups::{Component, EditEntities, Entities, Storage, world};

#[derive(Component)]
struct A(u32);

#[world]
struct Scene {
    a: Storage<A>,
}

fn main() {
    let mut scene = Scene::new();
    scene.spawn_with((A(1),));
    // Neither through the world's traits …
    *<Scene as EditEntities>::entities_mut(&mut scene) = Entities::new();
    // … nor through its storages, which lend the allocator shared (mutably only for the
    // world's key), even in the world's own module.
    let entities: &mut Entities = scene.__sparse.entities();
    *entities = Entities::new();
}
