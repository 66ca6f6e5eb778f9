//! The cost of change detection: W1 (1M movers in `<Position, Velocity>`) in a world that
//! tracks `Position` against one that tracks nothing, through the group's `for_each`
//! (every member handed out: one stamp for the storage) and through a view's `for_each`
//! (a dense walk over the whole storage: one stamp too), and through a filtered view
//! that skips every other entity (`Without<Frozen>`: each row it yields is stamped).
//! Target: tracked ≤ 1.1× untracked. The `Changed`
//! filter against bevy's is the `changed_1pct` group of the peer benches.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sparse_groups::{Component, Storage, world};

#[derive(Component, Clone, Copy, Default)]
struct Position {
    x: f32,
    y: f32,
    z: f32,
}
#[derive(Component, Clone, Copy)]
struct Frozen;
#[derive(Component, Clone, Copy)]
struct Velocity {
    x: f32,
    y: f32,
    z: f32,
}

const VEL: Velocity = Velocity {
    x: 1.0,
    y: 0.5,
    z: 0.25,
};

#[world]
#[group(Position, Velocity)]
struct Untracked {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
    frozen: Storage<Frozen>,
}

#[world]
#[group(Position, Velocity)]
#[track(Position)]
struct Tracked {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
    frozen: Storage<Frozen>,
}

#[inline(always)]
fn add(p: &mut Position, v: &Velocity) {
    p.x += v.x;
    p.y += v.y;
    p.z += v.z;
}

const N: usize = 1_000_000;

macro_rules! w1 {
    ($g:expr, $name:literal, $World:ident) => {{
        let mut world = $World::new();
        let entities = world.spawn_batch((0..N).map(|_| (Position::default(), VEL)));
        for &e in entities.iter().step_by(2) {
            world.insert(e, Frozen).unwrap();
        }
        $g.bench_function(concat!("group_for_each/", $name), |b| {
            b.iter(|| {
                world
                    .group::<(Position, Velocity)>()
                    .for_each(|_, (p, v)| add(p, v));
                world.tick();
            })
        });
        $g.bench_function(concat!("view_for_each/", $name), |b| {
            b.iter(|| {
                world
                    .view::<(&mut Position, &Velocity)>()
                    .for_each(|_, (p, v)| add(p, v));
                world.tick();
            })
        });
        $g.bench_function(concat!("view_without_frozen/", $name), |b| {
            b.iter(|| {
                world
                    .view::<(&mut Position, &Velocity, sparse_groups::Without<Frozen>)>()
                    .for_each(|_, (p, v)| add(p, v));
                world.tick();
            })
        });
        black_box(&world);
    }};
}

fn w1_tracked(c: &mut Criterion) {
    let mut g = c.benchmark_group("w1_tracked");
    g.throughput(Throughput::Elements(N as u64));
    w1!(g, "untracked", Untracked);
    w1!(g, "tracked", Tracked);
    g.finish();
}

criterion_group!(benches, w1_tracked);
criterion_main!(benches);
