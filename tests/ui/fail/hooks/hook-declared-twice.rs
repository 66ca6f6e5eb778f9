use sparse_groups::{Component, Entity, HookWorld, Storage, world};

#[derive(Component)]
struct Health(i32);

fn first(_: &mut HookWorld<'_, Game>, _: Entity) {}
fn second(_: &mut HookWorld<'_, Game>, _: Entity) {}

// One hook per event and type: the second declaration is the error.
#[world]
#[on_remove(Health, first)]
#[on_insert(Health, first)]
#[on_remove(Health, second)]
struct Game {
    healths: Storage<Health>,
}

fn main() {}
