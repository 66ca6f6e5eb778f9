use std::rc::Rc;

use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct Shared(Rc<u32>);
#[derive(Component)]
struct Position(f32);

#[world]
#[group(Shared, Position)]
struct Scene {
    shared: Storage<Shared>,
    positions: Storage<Position>,
}

fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn_with((Shared(Rc::new(1)), Position(0.0)));
    let _ = scene.get::<Shared>(e);
}
