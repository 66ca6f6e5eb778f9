use sparse_groups::{Component, Storage, world};

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
    // Floats are not `Ord`: the error points to the radix key sort.
    scene.sort_group_by_key::<(Position, Velocity), _>(|(p, _)| p.0);
}
