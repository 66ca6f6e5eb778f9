//! A schedule lists functions whose parameters are parts of the world.
use sparse_groups::{Component, Schedule, Storage, world};

#[derive(Component)]
struct Health(i32);

#[world]
struct Scene {
    healths: Storage<Health>,
}

fn tally(count: u32) {
    let _ = count;
}

fn main() {
    let mut scene = Scene::new();
    Schedule::new((tally,)).run(&mut scene);
}
