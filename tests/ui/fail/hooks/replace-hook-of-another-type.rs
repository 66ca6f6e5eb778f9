use sparse_groups::{Component, Entity, HookWorld, Storage, world};

#[derive(Component)]
struct Position(i32);
#[derive(Component)]
struct Velocity(i32);

// A replace hook of `Position` is given the `Position` replaced, not another type's value.
fn moved(_: &mut HookWorld<'_, Game>, _: Entity, _: &Velocity) {}

#[world]
#[on_replace(Position, moved)]
struct Game {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
}

fn main() {}
