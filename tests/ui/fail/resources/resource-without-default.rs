//! A declared resource starts at its `Default` value.
use sparse_groups::{Component, Resource, Storage, world};

#[derive(Component)]
struct Position(f32);

struct Grid {
    cell: f32,
}

#[world]
struct Scene {
    positions: Storage<Position>,
    grid: Resource<Grid>,
}

fn main() {}
