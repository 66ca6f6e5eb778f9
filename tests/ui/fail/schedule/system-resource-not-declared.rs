//! A system's resource is one the world declares.
use sparse_groups::{Component, Res, Schedule, Storage, world};

#[derive(Component)]
struct Health(i32);

struct Score(u64);

#[world]
struct Scene {
    healths: Storage<Health>,
}

fn show(score: Res<'_, Score>, healths: &Storage<Health>) {
    let _ = (score.0, healths);
}

fn main() {
    let mut scene = Scene::new();
    Schedule::new((show,)).run(&mut scene);
}
