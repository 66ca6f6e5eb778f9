use sparse_groups::{Component, Entity, HookWorld, Storage, ValuesMut, world};

#[derive(Component)]
struct Health(i32);

// A hook's borrow follows the world's compile-time borrow rule.
fn on_health(world: &mut HookWorld<'_, Game>, _: Entity) {
    let _ = world.borrow::<(ValuesMut<Health>, &Storage<Health>)>();
}

#[world]
#[on_insert(Health, on_health)]
struct Game {
    healths: Storage<Health>,
}

fn main() {}
