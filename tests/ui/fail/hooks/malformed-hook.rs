use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct Health(i32);

// A hook names its type and its function.
#[world]
#[on_insert(Health)]
struct Game {
    healths: Storage<Health>,
}

fn main() {}
