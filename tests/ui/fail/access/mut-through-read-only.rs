//! Read-only access (through `&self`) asking for something mutable.
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
    let scene = Scene::new();
    let _ = scene.view_ref::<(&mut Position, &Velocity)>();
    let _ = scene.borrow_ref::<GroupMut<(Position, Velocity)>>();
}
