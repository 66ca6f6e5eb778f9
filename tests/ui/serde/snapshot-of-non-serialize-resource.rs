//! The run-time world's snapshot lists a resource as `Resource<R>`; it writes it only if
//! `R` implements `Serialize`: the error names the item.
use serde::Serialize;
use sparse_groups::{Component, Resource, World};

#[derive(Component, Serialize)]
struct Position(f32);

struct Clock(u64);

fn main() {
    let mut world = World::new();
    world.insert_resource(Clock(0));
    let _ = serde_json::to_string(&world.snapshot::<(Position, Resource<Clock>)>());
}
