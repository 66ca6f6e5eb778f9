// A world derives `Serialize` only if every component does: the error points at the
// component type of the field that is not.
use serde::Serialize;
use sparse_groups::{Component, Storage, world};

#[derive(Component, Serialize)]
struct Pos(f32);

#[derive(Component)]
struct Handle(u64);

#[world]
#[derive(Serialize)]
#[group(Pos, Handle)]
struct Scene {
    positions: Storage<Pos>,
    handles: Storage<Handle>,
}

fn main() {}
