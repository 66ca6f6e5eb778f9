//! The cost of user hooks: W3's add and remove of `C` through `<A,B> ⊂ <A,B,C>`, on 10,000
//! entities, in a world with no hook and in one with empty insert and remove hooks on `C`,
//! for a `#[world]` and for the run-time `World` (target: ≤ 1.1× the world with no hook).

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sparse_groups::{Component, Entity, GroupSpec, HookWorld, Storage, World, world};

#[derive(Component, Clone, Copy, Default)]
struct A {
    /// Never read: the bytes each move between group layers copies.
    _bytes: [f32; 4],
}
#[derive(Component, Clone, Copy, Default)]
struct B {
    /// Never read: the bytes each move between group layers copies.
    _bytes: [f32; 4],
}
#[derive(Component, Clone, Copy, Default)]
struct C {
    /// Never read: the bytes each move between group layers copies.
    _bytes: [f32; 4],
}

#[world]
#[group(A, B)]
#[group(A, B, C)]
struct Plain {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
}

#[world]
#[group(A, B)]
#[group(A, B, C)]
#[on_insert(C, empty::<Hooked>)]
#[on_remove(C, empty::<Hooked>)]
struct Hooked {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
}

fn empty<W>(_: &mut HookWorld<'_, W>, e: Entity) {
    black_box(e);
}

const N: usize = 10_000;

macro_rules! add_remove {
    ($world:expr) => {{
        let mut world = $world;
        let entities: Vec<Entity> = (0..N)
            .map(|_| world.spawn_with((A::default(), B::default())))
            .collect();
        move || {
            for &e in &entities {
                world.insert(e, C::default()).unwrap();
            }
            for &e in &entities {
                black_box(world.remove::<C>(e));
            }
        }
    }};
}

fn run_time(hooked: bool) -> World {
    let mut world = World::with_groups([GroupSpec::of::<(A, B)>(), GroupSpec::of::<(A, B, C)>()])
        .expect("nested groups");
    if hooked {
        world.on_insert::<C>(empty::<World>).unwrap();
        world.on_remove::<C>(empty::<World>).unwrap();
    }
    world
}

fn hooks(c: &mut Criterion) {
    let mut g = c.benchmark_group("w3_hooks");
    g.throughput(Throughput::Elements(N as u64));
    let mut plain = add_remove!(Plain::new());
    g.bench_function("world_macro/no_hook", |b| b.iter(&mut plain));
    let mut hooked = add_remove!(Hooked::new());
    g.bench_function("world_macro/empty_hooks", |b| b.iter(&mut hooked));
    let mut plain = add_remove!(run_time(false));
    g.bench_function("run_time/no_hook", |b| b.iter(&mut plain));
    let mut hooked = add_remove!(run_time(true));
    g.bench_function("run_time/empty_hooks", |b| b.iter(&mut hooked));
    g.finish();
}

criterion_group!(benches, hooks);
criterion_main!(benches);
