use sparse_groups::{Component, Entity, HookWorld, Storage, world};

#[derive(Component)]
struct Health(i32);
#[derive(Component)]
struct Armor(i32);

fn on_armor(_: &mut HookWorld<'_, Game>, _: Entity) {}

// `Armor` has no storage in this world: one error, on the type.
#[world]
#[on_insert(Armor, on_armor)]
struct Game {
    healths: Storage<Health>,
}

fn main() {}
