use sparse_groups::{Component, Entity, HookWorld, Storage, world};

#[derive(Component)]
struct Health(i32);
#[derive(Component)]
struct Dead;

// A hook cannot change structure directly: it queues commands.
fn on_health(world: &mut HookWorld<'_, Game>, e: Entity) {
    world.insert(e, Dead);
}

#[world]
#[on_remove(Health, on_health)]
struct Game {
    healths: Storage<Health>,
    dead: Storage<Dead>,
}

fn main() {}
