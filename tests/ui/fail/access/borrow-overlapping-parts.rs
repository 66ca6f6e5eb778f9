//! A mutable group and a read of one of its types in one request: `Position` is
//! borrowed twice.
use sparse_groups::{Component, GroupMut, Storage, world};

#[derive(Component)]
struct Position(f32);
#[derive(Component)]
struct Velocity(f32);

#[world]
#[group(Position, Velocity)]
struct Scene {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
}

fn main() {
    let mut scene = Scene::new();
    let (_movers, _positions) =
        scene.borrow::<(GroupMut<(Position, Velocity)>, &Storage<Position>)>();
}
