// `#[derive(Serialize)]` on a world needs the facade's `serde` feature: one error, at the
// derive, that says how to turn it on.
use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct Pos(f32);

#[world]
#[derive(Serialize)]
struct Scene {
    positions: Storage<Pos>,
}

fn main() {}
