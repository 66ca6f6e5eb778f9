// A world derives `Serialize` only if every resource does too: the error points at the
// resource type of the field that is not.
use serde::Serialize;
use sparse_groups::{Component, Resource, Storage, world};

#[derive(Component, Serialize)]
struct Pos(f32);

#[derive(Default)]
struct Clock(u64);

#[world]
#[derive(Serialize)]
struct Scene {
    positions: Storage<Pos>,
    clock: Resource<Clock>,
}

fn main() {}
