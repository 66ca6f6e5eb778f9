//! A scene of 200,000 entities with nested groups `<Sprite, Renderable>` ⊂
//! `<Sprite, Renderable, Position>`: frames move entities, toggle components, destroy and
//! spawn some, iterate the groups as plain slices, and print group sizes and timings.
//!
//! Run with `cargo run --release --example scene`.

use std::time::{Duration, Instant};

use sparse_groups::{Component, Entity, Storage, world};

#[derive(Component, Clone, Copy)]
struct Sprite(u32);
#[derive(Component, Clone, Copy)]
struct Renderable {
    layer: u8,
}
#[derive(Component, Clone, Copy)]
struct Position {
    x: f32,
    y: f32,
}
#[derive(Component, Clone, Copy)]
struct Velocity {
    x: f32,
    y: f32,
}

#[world]
#[group(Sprite, Renderable, Position)]
#[group(Sprite, Renderable)]
struct Scene {
    sprites: Storage<Sprite>,
    renderables: Storage<Renderable>,
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
}

const ENTITIES: usize = 200_000;
const FRAMES: usize = 120;
/// Components added and removed per frame (each way).
const CHURN: usize = 2_000;

/// A small deterministic generator, so that every run does the same work.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn unit(&mut self) -> f32 {
        (self.next() % 1000) as f32 / 1000.0
    }
}

fn populate(scene: &mut Scene, rng: &mut Rng) -> Vec<Entity> {
    (0..ENTITIES)
        .map(|i| {
            let e = scene.spawn();
            if i % 4 != 0 {
                scene
                    .insert(
                        e,
                        Position {
                            x: rng.unit(),
                            y: rng.unit(),
                        },
                    )
                    .unwrap();
            }
            if i % 2 == 0 {
                scene
                    .insert(
                        e,
                        Velocity {
                            x: rng.unit() - 0.5,
                            y: rng.unit() - 0.5,
                        },
                    )
                    .unwrap();
            }
            if i % 5 != 0 {
                scene.insert(e, Sprite(i as u32)).unwrap();
            }
            if i % 3 != 0 {
                scene
                    .insert(
                        e,
                        Renderable {
                            layer: (i % 8) as u8,
                        },
                    )
                    .unwrap();
            }
            e
        })
        .collect()
}

struct FrameStats {
    movement: Duration,
    render: Duration,
    churn: Duration,
    total: Duration,
}

fn frame(scene: &mut Scene, entities: &mut [Entity], rng: &mut Rng) -> (FrameStats, f32) {
    let start = Instant::now();
    // Movement: positions and velocities are not grouped together, so this is a view.
    scene
        .view::<(&mut Position, &Velocity)>()
        .for_each(|_, (p, v)| {
            p.x += v.x * 0.016;
            p.y += v.y * 0.016;
        });
    let movement = start.elapsed();

    // Rendering: the innermost group is three aligned slices, no lookups.
    let render_start = Instant::now();
    let (_, (sprites, renderables, positions)) = scene
        .group::<(Sprite, Renderable, Position)>()
        .into_slices();
    let mut checksum = 0.0f32;
    for ((sprite, renderable), position) in
        sprites.iter().zip(renderables.iter()).zip(positions.iter())
    {
        checksum += position.x * f32::from(renderable.layer) + (sprite.0 & 1) as f32;
    }
    let render = render_start.elapsed();

    // Churn: components come and go, entities die and are replaced.
    let churn_start = Instant::now();
    for _ in 0..CHURN {
        let e = entities[rng.below(entities.len())];
        scene.remove::<Renderable>(e);
        let e = entities[rng.below(entities.len())];
        scene.insert(e, Renderable { layer: 1 }).unwrap();
        let e = entities[rng.below(entities.len())];
        if scene.remove::<Position>(e).is_none() {
            scene.insert(e, Position { x: 0.0, y: 0.0 }).unwrap();
        }
    }
    for _ in 0..CHURN / 10 {
        let slot = rng.below(entities.len());
        scene.destroy(entities[slot]).unwrap();
        let e = scene.spawn();
        scene.insert(e, Sprite(slot as u32)).unwrap();
        scene.insert(e, Renderable { layer: 0 }).unwrap();
        scene.insert(e, Position { x: 0.5, y: 0.5 }).unwrap();
        entities[slot] = e;
    }
    let churn = churn_start.elapsed();
    (
        FrameStats {
            movement,
            render,
            churn,
            total: start.elapsed(),
        },
        checksum,
    )
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut scene = Scene::new();
    let spawn_start = Instant::now();
    let mut entities = populate(&mut scene, &mut rng);
    println!(
        "spawned {} entities in {:.1?}",
        entities.len(),
        spawn_start.elapsed()
    );
    report(&scene);

    let mut stats = Vec::with_capacity(FRAMES);
    let mut checksum = 0.0;
    for _ in 0..FRAMES {
        let (s, c) = frame(&mut scene, &mut entities, &mut rng);
        stats.push(s);
        checksum += c;
    }
    let sort_start = Instant::now();
    scene.sort_group::<(Sprite, Renderable)>(|(a, _), (b, _)| a.0.cmp(&b.0));
    let sort_time = sort_start.elapsed();

    println!(
        "\nafter {FRAMES} frames ({CHURN} adds and {CHURN} removes of each churned type per frame):"
    );
    report(&scene);
    let pick = |f: fn(&FrameStats) -> Duration| median(stats.iter().map(f).collect());
    println!("\nmedian per frame:");
    println!(
        "  movement view  (Position, Velocity) : {:>10.1?}",
        pick(|s| s.movement)
    );
    println!(
        "  render group   <Sprite,Renderable,Position> : {:>10.1?}",
        pick(|s| s.render)
    );
    println!(
        "  churn          ({} component ops, {} respawns) : {:>10.1?}",
        3 * CHURN,
        CHURN / 10,
        pick(|s| s.churn)
    );
    println!("  whole frame    : {:>10.1?}", pick(|s| s.total));
    println!("sort_group <Sprite, Renderable> (inner group kept valid): {sort_time:.1?}");
    scene.check().expect("every group is still packed");
    println!(
        "invariants checked: every group is the packed prefix of its storages (checksum {checksum:.0})"
    );
}

fn report(scene: &Scene) {
    println!(
        "  <Sprite, Renderable>           : {:>7} entities",
        scene.group_len::<(Sprite, Renderable)>()
    );
    println!(
        "  <Sprite, Renderable, Position> : {:>7} entities",
        scene.group_len::<(Sprite, Renderable, Position)>()
    );
    println!(
        "  storages: {} sprites, {} renderables, {} positions, {} velocities",
        scene.sprites().len(),
        scene.renderables().len(),
        scene.positions().len(),
        scene.velocities().len()
    );
}
