//! The movement group declared owning `Position`, which the render family owns: the fix
//! suggested (observe `Position` instead) is accepted by the rule.
use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct Sprite(u32);
#[derive(Component)]
struct Renderable;
#[derive(Component)]
struct Position(f32);
#[derive(Component)]
struct Velocity(f32);

#[world]
#[group(Sprite, Renderable)]
#[group(Sprite, Renderable, Position)]
#[group(Position, Velocity)]
struct Scene {
    sprites: Storage<Sprite>,
    renderables: Storage<Renderable>,
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
}

fn main() {}
