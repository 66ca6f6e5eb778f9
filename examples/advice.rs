//! Layout advice on a game's frame: seven systems over four kinds of entity (the
//! realistic frame of `docs/performance.md`) in a world without groups, as a user writes
//! it from the README: what `Schedule::advise` says to write (the bench's `sparse_advised`
//! port is that world, timed against bevy's).
//!
//! Run with `cargo run --release --example advice`.

use sparse_groups::prelude::*;
use sparse_groups::traits::Bundle;

#[derive(Component, Clone, Copy, Debug, Default)]
struct Pos {
    x: f32,
    y: f32,
}
#[derive(Component, Clone, Copy, Debug, Default)]
struct Vel {
    x: f32,
    y: f32,
}
#[derive(Component, Clone, Copy, Debug, Default)]
struct Data {
    value: f64,
    seed: u32,
    steps: u32,
}
#[derive(Component, Clone, Copy, Debug, Default)]
struct Health {
    hp: i32,
    max_hp: i32,
}
#[derive(Component, Clone, Copy, Debug, Default)]
struct Damage {
    atk: i32,
    def: i32,
}
#[derive(Component, Clone, Copy, Debug, Default)]
struct Sprite {
    glyph: u32,
}
#[derive(Component, Clone, Copy, Debug, Default)]
struct Player {
    kind: u32,
}

/// The world a user writes first: one storage per component, no group.
#[world]
struct Plain {
    positions: Storage<Pos>,
    velocities: Storage<Vel>,
    data: Storage<Data>,
    healths: Storage<Health>,
    damages: Storage<Damage>,
    sprites: Storage<Sprite>,
    players: Storage<Player>,
}

fn movement(view: View<'_, (&mut Pos, &Vel)>) {
    view.for_each(|_, (p, v)| {
        p.x += v.x;
        p.y += v.y;
    });
}

fn think(view: View<'_, (&mut Data,)>) {
    view.for_each(|_, (d,)| {
        d.seed ^= d.seed << 13;
        d.seed ^= d.seed >> 17;
        d.seed ^= d.seed << 5;
        d.value = f64::from(d.seed % 1000) / 1000.0;
        d.steps += 1;
    });
}

fn steer(view: View<'_, (&mut Vel, &Pos, &Data)>) {
    view.for_each(|_, (v, p, d)| {
        v.x = (d.value as f32 - 0.5) - p.x * 1e-4;
        v.y = (0.5 - d.value as f32) - p.y * 1e-4;
    });
}

fn regenerate(view: View<'_, (&mut Health,)>) {
    view.for_each(|_, (h,)| h.hp = (h.hp + 1).min(h.max_hp));
}

fn hurt(view: View<'_, (&mut Health, &Damage)>) {
    view.for_each(|_, (h, d)| h.hp -= (d.atk - d.def).max(0));
}

fn show_health(view: View<'_, (&mut Sprite, &Player, &Health)>) {
    view.for_each(|_, (s, p, h)| s.glyph = p.kind * 100 + u32::from(h.hp > 0));
}

fn draw(view: View<'_, (&Pos, &Sprite)>) {
    let mut drawn = 0u64;
    view.for_each(|_, (p, s)| {
        drawn = drawn.wrapping_add(u64::from(s.glyph) ^ p.x.to_bits() as u64)
    });
    std::hint::black_box(drawn);
}

/// Spawns entity `i` of the frame: a hero, a monster, an npc or a particle (1, 7, 4 and 4
/// of every 16).
fn spawn<W>(world: &mut W, i: usize)
where
    W: EditEntities + 'static,
    (Pos, Vel, Data, Health, Damage, Sprite, Player): Bundle<W>,
    (Pos, Vel, Health, Damage, Sprite, Player): Bundle<W>,
    (Pos, Data, Health, Sprite, Player): Bundle<W>,
    (Pos, Vel, Data, Sprite): Bundle<W>,
{
    let pos = Pos {
        x: (i % 1000) as f32,
        y: (i / 1000) as f32,
    };
    let vel = Vel { x: 1.0, y: -1.0 };
    let data = Data {
        value: 0.0,
        seed: (i as u32) | 1,
        steps: 0,
    };
    let health = Health {
        hp: 50,
        max_hp: 100,
    };
    let damage = Damage { atk: 2, def: 1 };
    let sprite = Sprite::default();
    match i % 16 {
        0 => world.spawn_with((pos, vel, data, health, damage, sprite, Player { kind: 0 })),
        1..=7 => world.spawn_with((pos, vel, health, damage, sprite, Player { kind: 1 })),
        8..=11 => world.spawn_with((pos, data, health, sprite, Player { kind: 2 })),
        _ => world.spawn_with((pos, vel, data, sprite)),
    };
}

fn main() {
    let n = 1 << 16;
    let mut plain = Plain::new();
    for i in 0..n {
        spawn(&mut plain, i);
    }
    let frame = Schedule::new((movement, think, steer, regenerate, hurt, show_health, draw));
    println!("{}", frame.advise(&plain));
}
