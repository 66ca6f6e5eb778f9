use sparse_groups::{Component, Storage, Without, world};

#[derive(Component)]
struct Position(f32);
#[derive(Component)]
struct Velocity(f32);
#[derive(Component)]
struct Frozen;

#[world]
struct Scene {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
    frozen: Storage<Frozen>,
}

fn main() {
    let mut scene = Scene::new();
    // Filters follow the query in the tuple, never stand between its items.
    let _ = scene.view::<(&mut Position, Without<Frozen>, &Velocity)>();
}
