//! The crate's own group operations: iteration (flat and nested), add/remove through a
//! three-deep chain, spawn and destroy. Raw `Vec` loops on the same data are measured in the
//! same groups as the floor.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};
use sparse_groups::{Component, Entity, Storage, world};

#[derive(Component, Clone, Copy, Default)]
struct Position {
    x: f32,
    y: f32,
    z: f32,
}
#[derive(Component, Clone, Copy, Default)]
struct Velocity {
    x: f32,
    y: f32,
    z: f32,
}

#[world]
#[group(Position, Velocity)]
struct Moving {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
}

#[derive(Component, Clone, Copy, Default)]
struct A([f32; 4]);
#[derive(Component, Clone, Copy, Default)]
struct B([f32; 4]);
#[derive(Component, Clone, Copy, Default)]
struct C([f32; 4]);
/// Only its presence matters here.
#[derive(Component, Clone, Copy, Default)]
struct D;

#[world]
#[group(A, B)]
#[group(A, B, C)]
#[group(A, B, C, D)]
struct Chain {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
    d: Storage<D>,
}

fn add(p: &mut Position, v: &Velocity) {
    p.x += v.x;
    p.y += v.y;
    p.z += v.z;
}

fn group_iteration(c: &mut Criterion) {
    const N: usize = 1_000_000;
    let mut group = c.benchmark_group("group_iter_1m");
    group.throughput(Throughput::Elements(N as u64));
    let mut world = Moving::new();
    for i in 0..N {
        let e = world.spawn();
        world.insert(e, Position::default()).unwrap();
        world
            .insert(
                e,
                Velocity {
                    x: i as f32,
                    y: 1.0,
                    z: 2.0,
                },
            )
            .unwrap();
    }
    group.bench_function("sparse_group_slices", |b| {
        b.iter(|| {
            let (_, (p, v)) = world.group::<(Position, Velocity)>().into_slices();
            for (p, v) in p.iter_mut().zip(v.iter()) {
                add(p, v);
            }
        })
    });
    group.bench_function("sparse_group_for_each", |b| {
        b.iter(|| {
            world
                .group::<(Position, Velocity)>()
                .for_each(|_, (p, v)| add(p, v))
        })
    });
    let mut positions = vec![Position::default(); N];
    let velocities: Vec<Velocity> = (0..N)
        .map(|i| Velocity {
            x: i as f32,
            y: 1.0,
            z: 2.0,
        })
        .collect();
    group.bench_function("raw_vecs", |b| {
        b.iter(|| {
            for (p, v) in positions.iter_mut().zip(velocities.iter()) {
                add(p, v);
            }
            black_box(&mut positions);
        })
    });
    group.finish();
}

/// 1M entities with A, B; half also C, a quarter also D; iterate the nested `<A,B,C>`.
fn nested_iteration(c: &mut Criterion) {
    const N: usize = 1_000_000;
    let mut world = Chain::new();
    for i in 0..N {
        let e = world.spawn();
        world.insert(e, A([1.0; 4])).unwrap();
        world.insert(e, B([i as f32; 4])).unwrap();
        if i % 2 == 0 {
            world.insert(e, C([2.0; 4])).unwrap();
        }
        if i % 4 == 0 {
            world.insert(e, D).unwrap();
        }
    }
    let matched = world.group_len::<(A, B, C)>();
    let mut group = c.benchmark_group("nested_group_iter_1m");
    group.throughput(Throughput::Elements(matched as u64));
    group.bench_function("sparse_abc_slices", |bench| {
        bench.iter(|| {
            let (_, (a, b, c)) = world.group::<(A, B, C)>().into_slices();
            for ((a, b), c) in a.iter_mut().zip(b.iter()).zip(c.iter()) {
                for k in 0..4 {
                    a.0[k] = b.0[k] + c.0[k];
                }
            }
        })
    });
    let (mut a, b, cc) = (
        vec![A([1.0; 4]); matched],
        vec![B([1.0; 4]); matched],
        vec![C([2.0; 4]); matched],
    );
    group.bench_function("raw_vecs", |bench| {
        bench.iter(|| {
            for ((a, b), c) in a.iter_mut().zip(b.iter()).zip(cc.iter()) {
                for k in 0..4 {
                    a.0[k] = b.0[k] + c.0[k];
                }
            }
            black_box(&mut a);
        })
    });
    group.finish();
}

/// 10,000 entities with A, B, D: add C to all (entering `<A,B,C>` and `<A,B,C,D>`), then
/// remove it from all (leaving them innermost first). 20,000 operations per iteration.
fn add_remove_chain(c: &mut Criterion) {
    const N: usize = 10_000;
    let mut world = Chain::new();
    let entities: Vec<Entity> = (0..N)
        .map(|_| {
            let e = world.spawn();
            world.insert(e, A::default()).unwrap();
            world.insert(e, B::default()).unwrap();
            world.insert(e, D).unwrap();
            e
        })
        .collect();
    let mut group = c.benchmark_group("add_remove_chain_10k");
    group.throughput(Throughput::Elements(2 * N as u64));
    group.bench_function("sparse_three_deep", |b| {
        b.iter(|| {
            for &e in &entities {
                world.insert(e, C::default()).unwrap();
            }
            for &e in &entities {
                black_box(world.remove::<C>(e));
            }
        })
    });
    group.finish();
}

fn spawn_destroy(c: &mut Criterion) {
    const N: usize = 10_000;
    let mut group = c.benchmark_group("spawn_destroy_10k");
    group.throughput(Throughput::Elements(N as u64));
    group.bench_function("spawn_abcd_into_chain", |b| {
        b.iter_batched(
            Chain::new,
            |mut world| {
                for _ in 0..N {
                    let e = world.spawn();
                    world.insert(e, A::default()).unwrap();
                    world.insert(e, B::default()).unwrap();
                    world.insert(e, C::default()).unwrap();
                    world.insert(e, D).unwrap();
                }
                world
            },
            BatchSize::LargeInput,
        )
    });
    group.bench_function("destroy_from_chain", |b| {
        b.iter_batched(
            || {
                let mut world = Chain::new();
                let entities: Vec<Entity> = (0..N)
                    .map(|_| {
                        let e = world.spawn();
                        world.insert(e, A::default()).unwrap();
                        world.insert(e, B::default()).unwrap();
                        world.insert(e, C::default()).unwrap();
                        world.insert(e, D).unwrap();
                        e
                    })
                    .collect();
                (world, entities)
            },
            |(mut world, entities)| {
                for e in entities {
                    world.destroy(e).unwrap();
                }
                world
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(
    benches,
    group_iteration,
    nested_iteration,
    add_remove_chain,
    spawn_destroy
);
criterion_main!(benches);
