//! The access model's costs: iterating a group as users write it (`for` loops, read-only
//! groups) against the plain slices `into_slices()` hands out, and the bulk changes
//! (`retain`, `destroy_many`, `insert_many`, `remove_many`) against the per-entity loops
//! they replace; and what change detection costs W1 (`w1_tracked`). Ratios are read
//! within one run (see README).

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use sparse_groups::{Component, Entity, Storage, world};

#[derive(Component, Clone, Copy, Default)]
struct Position {
    x: f32,
    y: f32,
    z: f32,
}
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
struct Moving {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
}

#[derive(Component, Clone, Copy)]
struct Frozen;

/// W1 with and without change detection on `Position` (a third storage, `Frozen`, for
/// a filtered view).
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

#[inline(always)]
fn dot(p: &Position, v: &Velocity) -> f32 {
    p.x * v.x + p.y * v.y + p.z * v.z
}

/// W1 (1M movers in `<Position, Velocity>`, spawned in bulk), written each way a user
/// would: the slices `into_slices()` gives, a `for` loop over the group, `for_each`; and
/// the read-only forms over `group_ref()`.
fn w1_loops(c: &mut Criterion) {
    const N: usize = 1_000_000;
    let mut world = Moving::new();
    world.spawn_batch((0..N).map(|_| (Position::default(), VEL)));
    let mut group = c.benchmark_group("w1_loops_1m");
    group.throughput(Throughput::Elements(N as u64));
    group.bench_function("slices_zip", |b| {
        b.iter(|| {
            let (_, (p, v)) = world.group::<(Position, Velocity)>().into_slices();
            for (p, v) in p.iter_mut().zip(v.iter()) {
                add(p, v);
            }
        })
    });
    group.bench_function("for_loop", |b| {
        b.iter(|| {
            for (_, (p, v)) in world.group::<(Position, Velocity)>() {
                add(p, v);
            }
        })
    });
    group.bench_function("for_each", |b| {
        b.iter(|| {
            world
                .group::<(Position, Velocity)>()
                .for_each(|_, (p, v)| add(p, v));
        })
    });
    group.bench_function("view_for_loop", |b| {
        b.iter(|| {
            for (_, (p, v)) in world.view::<(&mut Position, &Velocity)>() {
                add(p, v);
            }
        })
    });
    group.bench_function("read_slices_zip", |b| {
        b.iter(|| {
            let (_, (p, v)) = world.group_ref::<(Position, Velocity)>().slices();
            black_box(p.iter().zip(v).map(|(p, v)| dot(p, v)).sum::<f32>())
        })
    });
    group.bench_function("read_for_loop", |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for (_, (p, v)) in world.group_ref::<(Position, Velocity)>() {
                sum += dot(p, v);
            }
            black_box(sum)
        })
    });
    group.bench_function("read_iter_sum", |b| {
        b.iter(|| {
            let group = world.group_ref::<(Position, Velocity)>();
            black_box(group.iter().map(|(_, (p, v))| dot(p, v)).sum::<f32>())
        })
    });
    group.finish();
}

#[derive(Component, Clone, Copy, Default)]
struct A(u64);
#[derive(Component, Clone, Copy, Default)]
struct B(#[expect(dead_code, reason = "a payload: only its size matters")] u64);
#[derive(Component, Clone, Copy, Default)]
struct C(#[expect(dead_code, reason = "a payload: only its size matters")] u64);
#[derive(Component, Clone, Copy, Default)]
struct D(#[expect(dead_code, reason = "a payload: only its size matters")] u64);

/// A three-deep family: `<A,B>` ⊃ `<A,B,C>` ⊃ `<A,B,C,D>`.
#[world]
#[group(A, B)]
#[group(A, B, C)]
#[group(A, B, C, D)]
struct Family {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
    d: Storage<D>,
}

/// `n` entities in every group of the family.
fn family(n: usize) -> (Family, Vec<Entity>) {
    let mut world = Family::new();
    let entities = world.spawn_batch((0..n as u64).map(|i| (A(i), B(i), C(i), D(i))));
    (world, entities)
}

/// Destroying half of 1M entities of a three-deep family: `retain` and `destroy_many`
/// against collecting the entities and destroying them one by one.
fn destroy_half(c: &mut Criterion) {
    const N: usize = 1_000_000;
    let mut group = c.benchmark_group("destroy_half_1m_family");
    group.throughput(Throughput::Elements(N as u64 / 2));
    group.sample_size(10);
    group.bench_function("retain", |b| {
        b.iter_batched(
            || family(N).0,
            |mut world| {
                black_box(world.retain::<&A>(|_, a| a.0 % 2 == 0));
                world
            },
            BatchSize::PerIteration,
        )
    });
    group.bench_function("destroy_many", |b| {
        b.iter_batched(
            || family(N),
            |(mut world, entities)| {
                let doomed: Vec<Entity> = entities.iter().copied().skip(1).step_by(2).collect();
                black_box(world.destroy_many(&doomed));
                world
            },
            BatchSize::PerIteration,
        )
    });
    group.bench_function("per_entity_loop", |b| {
        b.iter_batched(
            || family(N).0,
            |mut world| {
                let doomed: Vec<Entity> = world
                    .view::<&A>()
                    .into_iter()
                    .filter(|(_, a)| a.0 % 2 == 1)
                    .map(|(e, _)| e)
                    .collect();
                for e in doomed {
                    world.destroy(e).unwrap();
                }
                world
            },
            BatchSize::PerIteration,
        )
    });
    group.finish();
}

/// Adding and removing the innermost group's type on 100k entities of the family: the
/// bulk forms against the per-entity loops.
fn insert_remove_100k(c: &mut Criterion) {
    const N: usize = 100_000;
    // Both forms get the same input, built outside the timed part: 100k (entity, D)
    // pairs for entities holding A, B and C.
    let without_d = || {
        let mut world = Family::new();
        let entities = world.spawn_batch((0..N as u64).map(|i| (A(i), B(i), C(i))));
        let items: Vec<(Entity, D)> = entities.iter().map(|&e| (e, D(1))).collect();
        (world, items)
    };
    let mut group = c.benchmark_group("insert_remove_100k_family");
    group.throughput(Throughput::Elements(N as u64));
    group.bench_function("insert_many", |b| {
        b.iter_batched(
            without_d,
            |(mut world, items)| {
                black_box(world.insert_many(items).unwrap());
                world
            },
            BatchSize::LargeInput,
        )
    });
    group.bench_function("insert_loop", |b| {
        b.iter_batched(
            without_d,
            |(mut world, items)| {
                for (e, d) in items {
                    world.insert(e, d).unwrap();
                }
                world
            },
            BatchSize::LargeInput,
        )
    });
    group.bench_function("remove_many", |b| {
        b.iter_batched(
            || family(N),
            |(mut world, entities)| {
                black_box(world.remove_many::<D>(&entities));
                world
            },
            BatchSize::LargeInput,
        )
    });
    group.bench_function("remove_loop", |b| {
        b.iter_batched(
            || family(N),
            |(mut world, entities)| {
                for &e in &entities {
                    black_box(world.remove::<D>(e));
                }
                world
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

/// The cost of change detection: W1 in a world that tracks `Position` against one that
/// tracks nothing, through the group's `for_each` (every member handed out: one stamp for
/// the storage), a dense view's `for_each` (one stamp too), and a view that skips every
/// other entity (`Without<Frozen>`: each row it yields is stamped). Target: tracked ≤ 1.1×
/// untracked. The `Changed` filter against bevy's is the peer benches' `changed_1pct`.
const TRACKED_N: usize = 1_000_000;

macro_rules! w1 {
    ($g:expr, $name:literal, $World:ident) => {{
        let mut world = $World::new();
        let entities = world.spawn_batch((0..TRACKED_N).map(|_| (Position::default(), VEL)));
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
    g.throughput(Throughput::Elements(TRACKED_N as u64));
    w1!(g, "untracked", Untracked);
    w1!(g, "tracked", Tracked);
    g.finish();
}

criterion_group!(
    benches,
    w1_loops,
    destroy_half,
    insert_remove_100k,
    w1_tracked
);
criterion_main!(benches);
