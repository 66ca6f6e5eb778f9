// A parallel loop's closure runs on several threads at once: one that mutates through a
// `Cell` (not `Sync`) is refused; an atomic or a `Mutex` is the way.
use std::cell::Cell;
use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct Pos(f32);
#[derive(Component)]
struct Vel(f32);

#[world]
#[group(Pos, Vel)]
struct Scene {
    positions: Storage<Pos>,
    velocities: Storage<Vel>,
}

fn main() {
    let mut scene = Scene::new();
    let moved = Cell::new(0);
    scene.group::<(Pos, Vel)>().par_for_each(|_, (p, v)| {
        p.0 += v.0;
        moved.set(moved.get() + 1);
    });
}
