//! A view names components by reference, not by bare type.
use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct Position(f32);
#[derive(Component)]
struct Velocity(f32);

#[world]
struct Scene {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
}

fn main() {
    let mut scene = Scene::new();
    let _ = scene.view::<(Position, &Velocity)>();
}
