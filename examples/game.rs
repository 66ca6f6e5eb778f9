//! A small particle game written with the access model: movement over a group, a
//! depth-sorted render through a read-only group, an overlay that reads a group and another
//! storage at once, reaping with `retain`, explosions recorded as commands while the world
//! is borrowed, bulk freezing, and a system written once for any world.
//!
//! ```text
//! cargo run --release --example game
//! ```

use sparse_groups::{Commands, Component, Exclude, Get, GroupRef, HasGroup, Storage, world};

#[derive(Component, Clone, Copy, Debug)]
struct Position {
    x: f32,
    y: f32,
}

#[derive(Component, Clone, Copy, Debug)]
struct Velocity {
    x: f32,
    y: f32,
}

/// What to draw, and in which order (lower depth first).
#[derive(Component, Clone, Copy, Debug)]
struct Sprite {
    glyph: char,
    depth: u8,
}

/// Ticks left to live.
#[derive(Component, Clone, Copy, Debug)]
struct Lifetime(u32);

#[derive(Component, Clone, Copy, Debug)]
struct Health(i32);

/// Stops moving while present.
#[derive(Component, Clone, Copy, Debug)]
struct Frozen;

type Movers = (Position, Velocity, Exclude<Frozen>);
type Drawn = (Sprite, Get<Position>);

#[world]
#[group(Position, Velocity, exclude(Frozen))] // what moves: positions and velocities packed
#[group(Sprite, get(Position))] // what is drawn: sprites packed, sortable by depth
struct Game {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
    sprites: Storage<Sprite>,
    lifetimes: Storage<Lifetime>,
    healths: Storage<Health>,
    frozen: Storage<Frozen>,
}

const WIDTH: usize = 48;
const HEIGHT: usize = 12;

/// Any world with the movers' group can move them: the system names only what it uses.
fn movement<W: HasGroup<Movers>>(world: &mut W) {
    for (_, (p, v)) in world.group() {
        p.x += v.x;
        p.y += v.y;
        // Bounce off the walls.
        if !(0.0..WIDTH as f32).contains(&p.x) {
            v.x = -v.x;
            p.x = p.x.clamp(0.0, WIDTH as f32 - 1.0);
        }
        if !(0.0..HEIGHT as f32).contains(&p.y) {
            v.y = -v.y;
            p.y = p.y.clamp(0.0, HEIGHT as f32 - 1.0);
        }
    }
}

/// Draws the sprites, deepest last, through a shared borrow of the world.
fn render(game: &Game) -> Vec<Vec<char>> {
    let mut frame = vec![vec!['.'; WIDTH]; HEIGHT];
    for (_, (sprite, p)) in game.group_ref::<Drawn>() {
        frame[p.y as usize][p.x as usize] = sprite.glyph;
    }
    frame
}

/// Health bars: reads the drawn group and the health storage at once.
fn overlay(game: &Game) -> (usize, i32) {
    let (drawn, healths) = game.borrow_ref::<(GroupRef<Drawn>, &Storage<Health>)>();
    drawn
        .iter()
        .filter_map(|(e, _)| healths.get(e))
        .fold((0, 0), |(n, total), h| (n + 1, total + h.0))
}

fn main() {
    let mut game = Game::new();
    // A cloud of particles and a few ships, spawned column by column.
    let particles = game.spawn_batch((0..200u32).map(|i| {
        (
            Position {
                x: (i % WIDTH as u32) as f32,
                y: (i % HEIGHT as u32) as f32,
            },
            Velocity {
                x: 0.5 + (i % 3) as f32 * 0.25,
                y: 0.25 - (i % 5) as f32 * 0.125,
            },
            Sprite {
                glyph: '*',
                depth: (i % 4) as u8,
            },
            Lifetime(5 + i % 20),
        )
    }));
    let ships = game.spawn_batch((0..6).map(|i| {
        (
            Position {
                x: 4.0 + 7.0 * i as f32,
                y: 6.0,
            },
            Velocity { x: 0.0, y: 0.0 },
            Sprite {
                glyph: 'A',
                depth: 9,
            },
            Health(3 - i),
        )
    }));
    println!(
        "spawned {} particles and {} ships",
        particles.len(),
        ships.len()
    );

    let mut commands = Commands::new();
    for tick in 1..=12 {
        movement(&mut game);

        // Every fourth tick, freeze the first 50 particles (in bulk), then thaw them.
        if tick % 4 == 0 {
            let frozen: Vec<_> = particles.iter().take(50).map(|&e| (e, Frozen)).collect();
            let alive: Vec<_> = frozen
                .into_iter()
                .filter(|&(e, _)| game.is_alive(e))
                .collect();
            game.insert_many(alive).expect("only alive particles");
        } else {
            game.remove_many::<Frozen>(&particles);
        }

        // Reaping: age every particle and destroy the expired ones in one pass.
        let reaped = game.retain::<&mut Lifetime>(|_, life| {
            life.0 -= 1;
            life.0 > 0
        });

        // Explosions: a ship at zero health is destroyed and leaves debris. The world is
        // borrowed while its ships are read, so the changes are recorded, then applied.
        for (ship, health) in game.view_ref::<&Health>() {
            if health.0 <= 0 {
                commands.destroy(ship);
                // Created when the commands are applied (`applied.spawned`).
                commands.spawn((
                    Position { x: 1.0, y: 1.0 },
                    Velocity { x: 1.0, y: 0.5 },
                    Sprite {
                        glyph: '#',
                        depth: 5,
                    },
                    Lifetime(3),
                ));
            }
        }
        let applied = game.apply(&mut commands);

        // Draw deepest last: sort the drawn group by depth (the movers' group is nested
        // with nothing here, so this sorts the sprites' storage prefix).
        game.sort_group::<Drawn>(|(a, _), (b, _)| a.depth.cmp(&b.depth));
        let frame = render(&game);
        let (bars, total) = overlay(&game);
        game.check().expect("every group stays packed");

        println!(
            "tick {tick:>2}: {:>3} moving, {:>3} drawn, {reaped:>2} reaped, {} commands applied ({} skipped), {bars} health bars totalling {total}",
            game.group_len::<Movers>(),
            game.group_len::<Drawn>(),
            applied.applied,
            applied.skipped.len(),
        );
        if tick % 6 == 0 {
            for row in &frame {
                println!("    {}", row.iter().collect::<String>());
            }
        }
    }
}
