//! A system's parameters follow the borrow rule: one type is not written and read by one
//! system.
use sparse_groups::{Component, Schedule, Storage, ValuesMut, world};

#[derive(Component)]
struct Health(i32);

#[world]
struct Scene {
    healths: Storage<Health>,
}

fn heal(healths: ValuesMut<'_, Health>, again: &Storage<Health>) {
    let _ = (healths, again);
}

fn main() {
    let mut scene = Scene::new();
    Schedule::new((heal,)).run(&mut scene);
}
