//! Read-only access (through `&self`) asking for a `Mut<T>` guard, which writes.
use sparse_groups::{Component, Mut, Storage, world};

#[derive(Component)]
struct Health(i32);
#[derive(Component)]
struct Poison(i32);

#[world]
#[track(Health)]
struct Scene {
    healths: Storage<Health>,
    poisons: Storage<Poison>,
}

fn main() {
    let scene = Scene::new();
    let _ = scene.view_ref::<Mut<Health>>();
    let _ = scene.view_ref::<(Mut<Health>, &Poison)>();
}
