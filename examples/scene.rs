//! The demo. First a small world, drawn as the nested-groups article draws it, before and
//! after an add, a remove and a `sort_group`. Then a scene of 200,000 entities, spawned
//! through `spawn_batch`, where the same loop runs over a group's packed slices, over a
//! view that has no group to walk, and over plain `Vec`s, in nanoseconds per entity; then
//! frames of churn. Every check it makes is said in plain words.
//!
//! Run with `cargo run --release --example scene`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use sparse_groups::{Component, Entity, Storage, world};

#[derive(Component, Clone, Copy, Debug)]
struct Sprite(u32);
#[derive(Component, Clone, Copy, Debug)]
struct Renderable {
    layer: u8,
}
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

/// Nested groups: `<Sprite, Renderable, Position>` is a prefix of `<Sprite, Renderable>`.
#[world]
#[group(Sprite, Renderable, Position)]
#[group(Sprite, Renderable)]
struct Scene {
    sprites: Storage<Sprite>,
    renderables: Storage<Renderable>,
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
}

/// The same storages with no group: what a view must do without one.
#[world]
struct Ungrouped {
    sprites: Storage<Sprite>,
    renderables: Storage<Renderable>,
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
}

const ENTITIES: usize = 200_000;
const FRAMES: usize = 60;
/// Components added and removed per frame (each way).
const CHURN: usize = 2_000;
/// Repetitions of each timed loop; the median is reported.
const RUNS: usize = 31;

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

fn say(check: &str, holds: bool) {
    println!("  check: {check}: {}", if holds { "yes" } else { "NO" });
    assert!(holds, "{check}");
}

fn small_world() {
    println!("== A small world, drawn as the nested-groups article draws it");
    println!("   (each storage's packed entities; `^` ends a group's prefix, innermost first)\n");
    let mut scene = Scene::new();
    let e: Vec<Entity> = (0..6).map(|_| scene.spawn()).collect();
    for (i, &x) in e.iter().enumerate() {
        scene.insert(x, Sprite(10 - i as u32)).unwrap();
    }
    for &x in &e[1..5] {
        scene.insert(x, Renderable { layer: 0 }).unwrap();
    }
    for &x in &[e[2], e[4]] {
        scene.insert(x, Position { x: 0.0, y: 0.0 }).unwrap();
    }
    print!("{}", scene.diagram());

    println!("\n-- add: e3 gets a Position, so it enters <Sprite, Renderable, Position>");
    println!("   (it was already in <Sprite, Renderable>: entering moves it to the end of");
    println!("   the inner prefix, the outer group's entities only trade places inside it)\n");
    scene.insert(e[3], Position { x: 1.0, y: 1.0 }).unwrap();
    print!("{}", scene.diagram());
    say(
        "e3 is in the inner group",
        scene
            .group_ref::<(Sprite, Renderable, Position)>()
            .entities()
            .contains(&e[3]),
    );

    println!(
        "\n-- remove: e2 loses its Renderable, so it leaves the inner group, then the outer one\n"
    );
    scene.remove::<Renderable>(e[2]);
    print!("{}", scene.diagram());
    say(
        "e2 is in no group any more",
        !scene
            .group_ref::<(Sprite, Renderable)>()
            .entities()
            .contains(&e[2]),
    );

    println!("\n-- sort_group <Sprite, Renderable> by sprite: the inner group is sorted first,");
    println!("   then the rest of the outer one, so the inner prefix stays a prefix\n");
    scene.sort_group::<(Sprite, Renderable)>(|(a, _), (b, _)| a.0.cmp(&b.0));
    print!("{}", scene.diagram());
    say(
        "every group is still the packed prefix of its storages",
        scene.check().is_ok(),
    );
}

/// Spawns the scene through `spawn_batch`, one batch per shape of entity, and the same
/// entities (same values, same order) into a world without groups.
fn populate(rng: &mut Rng) -> (Scene, Ungrouped) {
    let mut shapes: Vec<(Sprite, Renderable, Position, Velocity)> = Vec::new();
    for i in 0..ENTITIES {
        shapes.push((
            Sprite(i as u32),
            Renderable {
                layer: (i % 8) as u8,
            },
            Position {
                x: rng.unit(),
                y: rng.unit(),
            },
            Velocity {
                x: rng.unit() - 0.5,
                y: rng.unit() - 0.5,
            },
        ));
    }
    // Entity i has: a sprite unless i % 5 == 0, a renderable unless i % 3 == 0, a position
    // unless i % 4 == 0, a velocity if i is even. Grouped by shape for `spawn_batch`.
    let mut scene = Scene::new();
    let mut flat = Ungrouped::new();
    macro_rules! batch {
        ($keep:expr, |$s:pat_param| $bundle:expr) => {{
            let rows: Vec<_> = shapes
                .iter()
                .enumerate()
                .filter(|&(i, _)| $keep(i))
                .map(|(_, &$s)| $bundle)
                .collect();
            scene.spawn_batch(rows.iter().cloned());
            flat.spawn_batch(rows);
        }};
    }
    let sprite = |i: usize| !i.is_multiple_of(5);
    let renderable = |i: usize| !i.is_multiple_of(3);
    let position = |i: usize| !i.is_multiple_of(4);
    let velocity = |i: usize| i.is_multiple_of(2);
    let shape = |i: usize| (sprite(i), renderable(i), position(i), velocity(i));
    for s in [true, false] {
        for r in [true, false] {
            for p in [true, false] {
                for v in [true, false] {
                    let keep = |i: usize| shape(i) == (s, r, p, v);
                    match (s, r, p, v) {
                        (true, true, true, true) => batch!(keep, |(s, r, p, v)| (s, r, p, v)),
                        (true, true, true, false) => batch!(keep, |(s, r, p, _)| (s, r, p)),
                        (true, true, false, true) => batch!(keep, |(s, r, _, v)| (s, r, v)),
                        (true, true, false, false) => batch!(keep, |(s, r, _, _)| (s, r)),
                        (true, false, true, true) => batch!(keep, |(s, _, p, v)| (s, p, v)),
                        (true, false, true, false) => batch!(keep, |(s, _, p, _)| (s, p)),
                        (true, false, false, true) => batch!(keep, |(s, _, _, v)| (s, v)),
                        (true, false, false, false) => batch!(keep, |(s, _, _, _)| (s,)),
                        (false, true, true, true) => batch!(keep, |(_, r, p, v)| (r, p, v)),
                        (false, true, true, false) => batch!(keep, |(_, r, p, _)| (r, p)),
                        (false, true, false, true) => batch!(keep, |(_, r, _, v)| (r, v)),
                        (false, true, false, false) => batch!(keep, |(_, r, _, _)| (r,)),
                        (false, false, true, true) => batch!(keep, |(_, _, p, v)| (p, v)),
                        (false, false, true, false) => batch!(keep, |(_, _, p, _)| (p,)),
                        (false, false, false, true) => batch!(keep, |(_, _, _, v)| (v,)),
                        (false, false, false, false) => {
                            let none = (0..ENTITIES).filter(|&i| keep(i)).count();
                            for _ in 0..none {
                                scene.spawn();
                                flat.spawn();
                            }
                        }
                    }
                }
            }
        }
    }
    (scene, flat)
}

/// The median of `RUNS` timings of `f`, and its last result.
fn time<R>(mut f: impl FnMut() -> R) -> (Duration, R) {
    let mut times = Vec::with_capacity(RUNS);
    let mut result = None;
    for _ in 0..RUNS {
        let start = Instant::now();
        result = Some(black_box(f()));
        times.push(start.elapsed());
    }
    times.sort();
    (times[RUNS / 2], result.expect("RUNS > 0"))
}

fn per_entity(d: Duration, n: usize) -> f64 {
    d.as_secs_f64() * 1e9 / n as f64
}

/// What every variant computes per entity of `<Sprite, Renderable, Position>`.
#[inline(always)]
fn score(s: &Sprite, r: &Renderable, p: &Position) -> f64 {
    f64::from(p.x * f32::from(r.layer) + p.y) + f64::from(s.0 & 1)
}

fn large_scene() {
    println!("\n== A scene of {ENTITIES} entities");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let start = Instant::now();
    let (mut scene, mut flat) = populate(&mut rng);
    let spawned = start.elapsed();
    println!(
        "spawned twice through spawn_batch (grouped world and ungrouped world) in {spawned:.1?}\n"
    );
    print!("{}", scene.diagram());
    say(
        "both worlds hold the same components",
        scene.positions().len() == flat.positions().len()
            && scene.renderables().len() == flat.renderables().len(),
    );

    let members = scene.group_len::<(Sprite, Renderable, Position)>();
    println!("\nThe same loop over the {members} entities having Sprite, Renderable and Position:");
    let (group, by_group) = time(|| {
        let mut sum = 0.0;
        scene
            .group::<(Sprite, Renderable, Position)>()
            .for_each(|_, (s, r, p)| sum += score(s, r, p));
        sum
    });
    let (slices, by_slices) = time(|| {
        let (_, (s, r, p)) = scene
            .group::<(Sprite, Renderable, Position)>()
            .into_slices();
        s.iter()
            .zip(r.iter())
            .zip(p.iter())
            .map(|((s, r), p)| score(s, r, p))
            .sum::<f64>()
    });
    let (view, by_view) = time(|| {
        let mut sum = 0.0;
        flat.view::<(&Sprite, &Renderable, &Position)>()
            .for_each(|_, (s, r, p)| sum += score(s, r, p));
        sum
    });
    // Plain vectors of exactly the matched entities, in the group's order.
    let (_, (s, r, p)) = scene
        .group::<(Sprite, Renderable, Position)>()
        .into_slices();
    let (raw_s, raw_r, raw_p) = (s.to_vec(), r.to_vec(), p.to_vec());
    let (raw, by_raw) = time(|| {
        raw_s
            .iter()
            .zip(&raw_r)
            .zip(&raw_p)
            .map(|((s, r), p)| score(s, r, p))
            .sum::<f64>()
    });
    let n = members;
    println!(
        "  group, for_each                  : {:>6.2} ns per entity",
        per_entity(group, n)
    );
    println!(
        "  group, into_slices + zip         : {:>6.2} ns per entity",
        per_entity(slices, n)
    );
    println!(
        "  view in a world without groups   : {:>6.2} ns per entity ({:.1}x the group)",
        per_entity(view, n),
        view.as_secs_f64() / group.as_secs_f64()
    );
    println!(
        "  plain Vecs, zip                  : {:>6.2} ns per entity",
        per_entity(raw, n)
    );
    say(
        "the group, the view and the plain Vecs computed the same sum",
        by_group == by_slices
            && (by_group - by_view).abs() < 1e-6 * by_group.abs().max(1.0)
            && by_group == by_raw,
    );

    println!("\n{FRAMES} frames: a movement view, then {CHURN} adds and {CHURN} removes of");
    println!(
        "Renderable and of Position, and {} respawns, per frame",
        CHURN / 10
    );
    let mut entities: Vec<Entity> = scene.entities().iter().collect();
    let mut movement = Vec::new();
    let mut churn = Vec::new();
    let moving = scene.view::<(&mut Position, &Velocity)>().len_hint();
    for _ in 0..FRAMES {
        let start = Instant::now();
        scene
            .view::<(&mut Position, &Velocity)>()
            .for_each(|_, (p, v)| {
                p.x += v.x * 0.016;
                p.y += v.y * 0.016;
            });
        movement.push(start.elapsed());
        let start = Instant::now();
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
            entities[slot] = scene.spawn_with((
                Sprite(slot as u32),
                Renderable { layer: 0 },
                Position { x: 0.5, y: 0.5 },
            ));
        }
        churn.push(start.elapsed());
    }
    movement.sort();
    churn.sort();
    let changes = 3 * CHURN + CHURN / 10;
    println!(
        "  movement view (Position, Velocity): {:>6.2} ns per walked entity (median frame)",
        per_entity(movement[FRAMES / 2], moving)
    );
    println!(
        "  churn: {:>6.0} ns per structural change (median frame)",
        per_entity(churn[FRAMES / 2], changes)
    );
    let start = Instant::now();
    scene.sort_group::<(Sprite, Renderable)>(|(a, _), (b, _)| a.0.cmp(&b.0));
    let sorted = start.elapsed();
    let outer = scene.group_len::<(Sprite, Renderable)>();
    println!(
        "  sort_group <Sprite, Renderable> ({outer} members, inner group kept valid): {:.1?}",
        sorted
    );
    print!("\n{}", scene.diagram());
    say(
        "after the frames and the sort, every group is exactly the packed prefix of its storages",
        scene.check().is_ok(),
    );
    say(
        "the sorted group's inner prefix is sorted too",
        scene
            .group_ref::<(Sprite, Renderable, Position)>()
            .iter()
            .map(|(_, (s, _, _))| s.0)
            .is_sorted(),
    );
    say(
        "the ungrouped world is consistent too",
        flat.check().is_ok(),
    );
}

fn main() {
    small_world();
    large_scene();
}
