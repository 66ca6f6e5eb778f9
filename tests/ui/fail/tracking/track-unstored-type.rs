use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct Health(i32);
#[derive(Component)]
struct Armor(i32);

// `Armor` has no storage in this world: one error, on the type.
#[world]
#[track(Health, Armor)]
struct Game {
    healths: Storage<Health>,
}

fn main() {}
