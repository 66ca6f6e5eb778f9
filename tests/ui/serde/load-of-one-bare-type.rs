//! A load names the component types of the snapshot as a tuple, even for one type.
use serde::Deserialize;
use sparse_groups::{Component, World};

#[derive(Component, Deserialize)]
struct Position(f32);

fn main() {
    let mut world = World::new();
    let mut deserializer = serde_json::Deserializer::from_str("{}");
    let _ = world.load::<Position, _>(&mut deserializer);
}
