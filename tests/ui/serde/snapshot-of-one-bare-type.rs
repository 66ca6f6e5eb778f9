//! A snapshot names its component types as a tuple, even for one type.
use sparse_groups::{Component, World};

#[derive(Component)]
struct Position(f32);

fn main() {
    let world = World::new();
    let _ = world.snapshot::<Position>();
}
