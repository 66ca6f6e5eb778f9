use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct Health(i32);

// `#[track]` names the types it tracks.
#[world]
#[track]
struct Game {
    healths: Storage<Health>,
}

fn main() {}
