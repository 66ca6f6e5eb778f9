use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct Position(f32);

#[world]
struct Scene {
    positions: Storage<Position>,
}

fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn_with((Position(0.0),));
    // One type twice, once mutably: refused at compile time, as in a view.
    let _ = scene.get_mut::<(&mut Position, &Position)>(e);
}
