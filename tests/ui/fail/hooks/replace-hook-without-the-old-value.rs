use sparse_groups::{Component, Entity, HookWorld, Storage, world};

#[derive(Component)]
struct Position(i32);

// A replace hook also takes the value it replaced: `&Position`.
fn moved(_: &mut HookWorld<'_, Game>, _: Entity) {}

#[world]
#[on_replace(Position, moved)]
struct Game {
    positions: Storage<Position>,
}

fn main() {}
