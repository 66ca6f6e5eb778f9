use sparse_groups::{Component, Entity, Storage, world};

#[derive(Component)]
struct Health(i32);

// A hook takes `&mut HookWorld<'_, Game>` and the entity.
fn on_health(_: Entity) {}

#[world]
#[on_insert(Health, on_health)]
struct Game {
    healths: Storage<Health>,
}

fn main() {}
