use sparse_groups::{Component, Storage, Without, world};

#[derive(Component)]
struct Position(f32);
#[derive(Component)]
struct Frozen;

#[world]
struct Scene {
    positions: Storage<Position>,
    frozen: Storage<Frozen>,
}

fn main() {
    let mut scene = Scene::new();
    // Filters follow the query in the tuple, never precede it.
    let _ = scene.view::<(Without<Frozen>, &mut Position)>();
}
