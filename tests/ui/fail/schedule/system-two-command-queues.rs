//! A system with two command queues: its commands would be split in two queues applied in
//! an order it cannot see. The compiler refuses it, even under `cargo check`.
use sparse_groups::prelude::*;

#[derive(Component)]
struct Health(i32);

#[world]
struct Scene {
    healths: Storage<Health>,
}

fn twice(first: &mut Commands<Scene>, second: &mut Commands<Scene>) {
    let _ = (first, second);
}

fn main() {
    let mut scene = Scene::new();
    Schedule::new((twice,)).run(&mut scene);
}
