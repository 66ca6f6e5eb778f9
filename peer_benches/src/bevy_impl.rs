//! bevy_ecs 0.20: archetypal table storage with change detection.
//!
//! Used standalone (no schedule, no app): components derive `Component`
//! (default table storage), iteration uses a cached `QueryState` from
//! `World::query` with `iter_mut(..).for_each` (what a `Query` system param
//! does under the hood, minus the executor), bulk spawning uses
//! `World::spawn_batch`, and per-entity changes use
//! `World::entity_mut(e).insert(..)` / `.remove::<T>()`.
//!
//! Writing through `Mut<T>` stamps the component's change tick, as it does in
//! any bevy app; that cost is part of what is measured.

use crate::components::suite::{SA, SB};
use crate::components::*;
use bevy_ecs::entity::Entity;
use bevy_ecs::query::QueryState;
use bevy_ecs::world::World;

/// Creates bevy's global `ComputeTaskPool` (default size: one thread per core) if it does
/// not exist yet; `par_iter` panics without it. An app's `TaskPoolPlugin` does this.
pub fn init_task_pool() {
    bevy_tasks::ComputeTaskPool::get_or_init(bevy_tasks::TaskPool::default);
}

/// W1: `QueryState<(&mut Position, &Velocity)>`.
pub mod w1 {
    use super::*;

    /// A world with `n` `(Position, Velocity)` entities and a cached query.
    pub struct State {
        /// The world.
        pub world: World,
        query: QueryState<(&'static mut Position, &'static Velocity)>,
    }

    /// Spawns `n` entities with `spawn_batch` and prepares the query.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        world.spawn_batch((0..n).map(|_| (Position::default(), VEL)));
        let query = world.query::<(&mut Position, &Velocity)>();
        State { world, query }
    }

    /// `pos += vel` with `iter_mut(..).for_each`.
    pub fn run(s: &mut State) {
        s.query
            .iter_mut(&mut s.world)
            .for_each(|(mut p, v)| p.add_velocity(v));
    }

    /// [`setup`] with the task pool that [`run_par`] needs.
    pub fn setup_par(n: usize) -> State {
        init_task_pool();
        setup(n)
    }

    /// `pos += vel` with `par_iter_mut(..).for_each` on the `ComputeTaskPool` (what
    /// `Query::par_iter_mut` does; default batching: one batch per thread).
    pub fn run_par(s: &mut State) {
        s.query
            .par_iter_mut(&mut s.world)
            .for_each(|(mut p, v)| p.add_velocity(v));
    }

    /// The same loop over table slices (`contiguous_iter_mut`, new in 0.20);
    /// `DerefMut` on the position slice marks every entity changed.
    pub fn run_contiguous(s: &mut State) {
        for (mut pos, vel) in s
            .query
            .contiguous_iter_mut(&mut s.world)
            .expect("table-stored components are dense")
        {
            for (p, v) in pos.iter_mut().zip(vel) {
                p.add_velocity(v);
            }
        }
    }

    /// Sum of every position coordinate (test helper).
    pub fn checksum(s: &mut State) -> f64 {
        s.world
            .query::<&Position>()
            .iter(&s.world)
            .map(|p| f64::from(p.x) + f64::from(p.y) + f64::from(p.z))
            .sum()
    }
}

/// W2: `QueryState<(&mut A, &B, &C)>` over the `(A, B, C)` and `(A, B, C, D)` tables.
pub mod w2 {
    use super::*;

    /// A world with the W2 population and a cached query.
    pub struct State {
        /// The world.
        pub world: World,
        query: QueryState<(&'static mut A, &'static B, &'static C)>,
    }

    /// Spawns `n` entities (see [`w2_has_c`]).
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        let (d_end, c_end) = (n / 4, n / 2);
        world.spawn_batch((0..d_end).map(|_| (A::default(), W2_B, W2_C, W2_D)));
        world.spawn_batch((d_end..c_end).map(|_| (A::default(), W2_B, W2_C)));
        world.spawn_batch((c_end..n).map(|_| (A::default(), W2_B)));
        let query = world.query::<(&mut A, &B, &C)>();
        State { world, query }
    }

    /// `a = b + c` with `iter_mut(..).for_each`.
    pub fn run(s: &mut State) {
        s.query
            .iter_mut(&mut s.world)
            .for_each(|(mut a, b, c)| a_eq_b_plus_c(&mut a, b, c));
    }

    /// [`setup`] with the task pool that [`run_par`] needs.
    pub fn setup_par(n: usize) -> State {
        init_task_pool();
        setup(n)
    }

    /// `a = b + c` with `par_iter_mut(..).for_each` on the `ComputeTaskPool`.
    pub fn run_par(s: &mut State) {
        s.query
            .par_iter_mut(&mut s.world)
            .for_each(|(mut a, b, c)| a_eq_b_plus_c(&mut a, b, c));
    }

    /// The same loop over table slices (`contiguous_iter_mut`).
    pub fn run_contiguous(s: &mut State) {
        for (mut a, b, c) in s
            .query
            .contiguous_iter_mut(&mut s.world)
            .expect("table-stored components are dense")
        {
            for ((a, b), c) in a.iter_mut().zip(b).zip(c) {
                a_eq_b_plus_c(a, b, c);
            }
        }
    }

    /// Entities whose `A` holds [`W2_A_AFTER`] (test helper).
    pub fn count_updated(s: &mut State) -> usize {
        s.world
            .query::<&A>()
            .iter(&s.world)
            .filter(|a| **a == W2_A_AFTER)
            .count()
    }
}

/// W3: `insert(C)` / `remove::<C>()` on `n` `(A, B)` entities.
pub mod w3 {
    use super::*;

    /// A world with `n` `(A, B)` entities and their ids.
    pub struct State {
        world: World,
        entities: Vec<Entity>,
    }

    /// Spawns `n` `(A, B)` entities.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        let entities = world
            .spawn_batch((0..n).map(|_| (A::default(), W2_B)))
            .collect();
        State { world, entities }
    }

    /// Insert `C` into every entity, then remove it from every entity.
    pub fn run(s: &mut State) {
        for &e in &s.entities {
            s.world.entity_mut(e).insert(W2_C);
        }
        for &e in &s.entities {
            s.world.entity_mut(e).remove::<C>();
        }
    }
}

/// W5: `QueryState<(&mut Position, &Velocity), Without<Frozen>>`. `Frozen` is
/// table-stored (the derive's default), so the frozen and the moving entities live in two
/// tables and the query visits only the `(Position, Velocity)` one.
pub mod w5 {
    use super::*;
    use bevy_ecs::query::{With, Without};

    /// A world with the W5 population and a cached query.
    pub struct State {
        /// The world.
        pub world: World,
        query: QueryState<(&'static mut Position, &'static Velocity), Without<Frozen>>,
    }

    /// Spawns the `n` entities in index order (frozen ones as [`w5_is_frozen`] says) and
    /// prepares the query.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        for i in 0..n {
            if w5_is_frozen(i) {
                world.spawn((Position::default(), VEL, Frozen));
            } else {
                world.spawn((Position::default(), VEL));
            }
        }
        let query = world.query_filtered::<(&mut Position, &Velocity), Without<Frozen>>();
        State { world, query }
    }

    /// `pos += vel` with `iter_mut(..).for_each`.
    pub fn run(s: &mut State) {
        s.query
            .iter_mut(&mut s.world)
            .for_each(|(mut p, v)| p.add_velocity(v));
    }

    /// Position sums of the moving and the frozen entities (test helper).
    pub fn sums(s: &mut State) -> (f64, f64) {
        let moving = s
            .world
            .query_filtered::<&Position, Without<Frozen>>()
            .iter(&s.world)
            .map(position_sum)
            .sum();
        let frozen = s
            .world
            .query_filtered::<&Position, With<Frozen>>()
            .iter(&s.world)
            .map(position_sum)
            .sum();
        (moving, frozen)
    }
}

/// W6: `insert(T)` / `remove::<T>()` on `n` `(A, B, C, D)` entities: each moves the entity
/// between the `(A, B, C, D)` and `(A, B, C, D, T)` tables (`T` is table-stored, the
/// derive's default, like every component here).
pub mod w6 {
    use super::*;
    use bevy_ecs::query::With;

    /// A world with `n` `(A, B, C, D)` entities and their ids.
    pub struct State {
        world: World,
        entities: Vec<Entity>,
    }

    /// Spawns `n` `(A, B, C, D)` entities.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        let entities = world
            .spawn_batch((0..n).map(|_| (A::default(), W2_B, W2_C, W2_D)))
            .collect();
        State { world, entities }
    }

    /// Insert `T` into every entity, then remove it from every entity.
    pub fn run(s: &mut State) {
        for &e in &s.entities {
            s.world.entity_mut(e).insert(T);
        }
        for &e in &s.entities {
            s.world.entity_mut(e).remove::<T>();
        }
    }

    /// Entities with all of `A`, `B`, `C`, `D`, and entities with `T` (test helper).
    pub fn counts(s: &mut State) -> (usize, usize) {
        let abcd = s.world.query::<(&A, &B, &C, &D)>().iter(&s.world).count();
        let t = s
            .world
            .query_filtered::<(), With<T>>()
            .iter(&s.world)
            .count();
        (abcd, t)
    }
}

/// W4 (`simple_insert`): `spawn_batch` into a fresh world.
pub mod w4 {
    use super::*;

    /// A fresh world.
    pub struct State {
        world: World,
        n: usize,
    }

    /// Builds an empty world.
    pub fn setup(n: usize) -> State {
        State {
            world: World::new(),
            n,
        }
    }

    /// Spawns `n` entities with `spawn_batch`.
    pub fn run(s: &mut State) {
        s.world.spawn_batch((0..s.n).map(|_| transform_bundle()));
    }

    /// Spawns `n` entities one call each: `spawn`.
    pub fn run_each(s: &mut State) {
        for _ in 0..s.n {
            s.world.spawn(transform_bundle());
        }
    }

    /// Entities with a `Position` (test helper).
    pub fn len(s: &mut State) -> usize {
        s.world.query::<&Position>().iter(&s.world).len()
    }
}

/// ecs_bench_suite `simple_iter`.
pub mod simple_iter {
    use super::*;

    /// A world with `n` four-component entities and a cached query.
    pub struct State {
        world: World,
        query: QueryState<(&'static Velocity, &'static mut Position)>,
    }

    /// Spawns `n` entities with `spawn_batch`.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        world.spawn_batch((0..n).map(|_| transform_bundle()));
        let query = world.query::<(&Velocity, &mut Position)>();
        State { world, query }
    }

    /// `pos += vel`.
    pub fn run(s: &mut State) {
        s.query
            .iter_mut(&mut s.world)
            .for_each(|(v, mut p)| p.add_velocity(v));
    }
}

/// ecs_bench_suite `fragmented_iter`.
pub mod fragmented_iter {
    use crate::components::frag::*;
    use bevy_ecs::query::QueryState;
    use bevy_ecs::world::World;

    /// A world with 26 tables of 20 entities and a cached query.
    pub struct State {
        world: World,
        query: QueryState<&'static mut Data>,
    }

    /// Spawns 20 `(X(0.0), Data(1.0))` per type.
    pub fn setup() -> State {
        let mut world = World::new();
        macro_rules! spawn {
            ($($t:ident),*) => {
                $(
                    world.spawn_batch((0..PER_TYPE).map(|_| ($t(0.0), Data(1.0))));
                )*
            };
        }
        for_each_frag_type!(spawn);
        let query = world.query::<&mut Data>();
        State { world, query }
    }

    /// `data *= 2`.
    pub fn run(s: &mut State) {
        s.query.iter_mut(&mut s.world).for_each(|mut d| d.0 *= 2.0);
    }
}

/// ecs_bench_suite `add_remove_component`.
pub mod add_remove {
    use super::*;

    /// A world with `n` `SA` entities and their ids.
    pub struct State {
        world: World,
        entities: Vec<Entity>,
    }

    /// Spawns `n` `(SA(0.0),)` entities.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        let entities = world.spawn_batch((0..n).map(|_| (SA(0.0),))).collect();
        State { world, entities }
    }

    /// Insert `SB` into every entity, then remove it from every entity.
    pub fn run(s: &mut State) {
        for &e in &s.entities {
            s.world.entity_mut(e).insert(SB(0.0));
        }
        for &e in &s.entities {
            s.world.entity_mut(e).remove::<SB>();
        }
    }
}

/// `view_overlap`: `QueryState<(&mut A, &B)>`. The three kinds of entity are three
/// tables, `(A)`, `(A, B)`, `(B)`; the query visits only `(A, B)`, two dense columns.
pub mod view_overlap {
    use super::*;

    /// The world and a cached query.
    pub struct State {
        world: World,
        query: QueryState<(&'static mut A, &'static B)>,
    }

    /// Spawns the `3n / 2` entities in index order with `spawn_batch`, one per kind.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        world.spawn_batch((0..n / 2).map(|_| (A::default(),)));
        world.spawn_batch((n / 2..n).map(|_| (A::default(), OVERLAP_B)));
        world.spawn_batch((n..overlap_total(n)).map(|_| (OVERLAP_B,)));
        let query = world.query::<(&mut A, &B)>();
        State { world, query }
    }

    /// `a += b` with `iter_mut(..).for_each`.
    pub fn run(s: &mut State) {
        s.query
            .iter_mut(&mut s.world)
            .for_each(|(mut a, b)| a_plus_eq_b(&mut a, b));
    }

    /// Sum of lane 0 of every `A` (test helper).
    pub fn a_sum(s: &mut State) -> f64 {
        let mut query = s.world.query::<&A>();
        query.iter(&s.world).map(|a| f64::from(a.0[0])).sum()
    }
}

/// ecs_bench_suite `heavy_compute`: `QueryState::par_iter_mut(..).for_each` on the
/// `ComputeTaskPool` (default batching), as `par_w1`.
pub mod heavy_compute {
    use super::*;

    /// The world and a cached query.
    pub struct State {
        world: World,
        query: QueryState<(&'static mut Position, &'static mut Transform)>,
    }

    /// Creates the task pool, spawns `n` [`heavy_bundle`] entities with `spawn_batch`.
    pub fn setup(n: usize) -> State {
        init_task_pool();
        let mut world = World::new();
        world.spawn_batch((0..n).map(|_| heavy_bundle()));
        let query = world.query::<(&mut Position, &mut Transform)>();
        State { world, query }
    }

    /// [`heavy_compute()`] on every entity in parallel.
    pub fn run(s: &mut State) {
        s.query
            .par_iter_mut(&mut s.world)
            .for_each(|(mut p, mut t)| heavy_compute(&mut p, &mut t));
    }

    /// Every entity's `(Position, Transform)` (test helper).
    pub fn results(s: &mut State) -> Vec<(Position, Transform)> {
        let mut query = s.world.query::<(&Position, &Transform)>();
        query.iter(&s.world).map(|(p, t)| (*p, *t)).collect()
    }
}

/// ecs_bench_suite `schedule`: the three systems in one `Schedule`. `run`: the default
/// executor, which with the `multi_threaded` feature is the `MultiThreadedExecutor`
/// (systems on the `ComputeTaskPool`; it finds the three disjoint and runs them at once);
/// `run_single`: the same schedule with the `SingleThreadedExecutor`.
pub mod schedule {
    use super::init_task_pool;
    use crate::components::sched::{self, A, B, C, D, E};
    use bevy_ecs::schedule::{Schedule, SingleThreadedExecutor};
    use bevy_ecs::system::Query;
    use bevy_ecs::world::World;

    fn ab(mut query: Query<(&A, &mut B)>) {
        for (a, mut b) in &mut query {
            sched::ab(a, &mut b);
        }
    }
    fn cd(mut query: Query<(&C, &mut D)>) {
        for (c, mut d) in &mut query {
            sched::cd(c, &mut d);
        }
    }
    fn ce(mut query: Query<(&C, &mut E)>) {
        for (c, mut e) in &mut query {
            sched::ce(c, &mut e);
        }
    }

    /// The world and its schedule.
    pub struct State {
        world: World,
        schedule: Schedule,
    }

    fn build(mut schedule: Schedule) -> State {
        init_task_pool();
        let n = sched::PER_KIND;
        let mut world = World::new();
        world.spawn_batch((0..n).map(|_| sched::ab_bundle()));
        world.spawn_batch((0..n).map(|_| sched::abc_bundle()));
        world.spawn_batch((0..n).map(|_| sched::abcd_bundle()));
        world.spawn_batch((0..n).map(|_| sched::abce_bundle()));
        schedule.add_systems((ab, cd, ce));
        schedule.initialize(&mut world).expect("a valid schedule");
        State { world, schedule }
    }

    /// The four kinds of entity (`spawn_batch`), a `Schedule::default()` (default
    /// executor) of `ab`, `cd`, `ce`, initialized.
    pub fn setup() -> State {
        build(Schedule::default())
    }

    /// The same with the `SingleThreadedExecutor`.
    pub fn setup_single() -> State {
        let mut schedule = Schedule::default();
        schedule.set_executor(SingleThreadedExecutor::new());
        build(schedule)
    }

    /// `schedule.run(&mut world)`.
    pub fn run(s: &mut State) {
        s.schedule.run(&mut s.world);
    }

    /// `(Σ B, Σ D, Σ E)` (test helper).
    pub fn sums(s: &mut State) -> (f64, f64, f64) {
        let w = &mut s.world;
        let b = sched::total(w.query::<&B>().iter(w), |x| x.0);
        let d = sched::total(w.query::<&D>().iter(w), |x| x.0);
        let e = sched::total(w.query::<&E>().iter(w), |x| x.0);
        (b, d, e)
    }
}

/// `changed_1pct`: 1M `Position`s, 1% written (through `Mut`) since `clear_trackers`; a
/// cached `QueryState<&Position, Changed<Position>>` sums them.
pub mod changed {
    use super::*;
    use bevy_ecs::query::Changed;

    /// The world and the query.
    pub struct State {
        world: World,
        query: QueryState<&'static Position, Changed<Position>>,
    }

    /// Spawns `n` positions, clears the trackers (what the end of a frame does), and
    /// writes every `stride`-th through `get_mut`.
    pub fn setup(n: usize, stride: usize) -> State {
        let mut world = World::new();
        let entities: Vec<Entity> = world
            .spawn_batch((0..n).map(|_| Position::default()))
            .collect();
        world.clear_trackers();
        for &e in entities.iter().step_by(stride) {
            world.get_mut::<Position>(e).expect("alive").x += 1.0;
        }
        let query = world.query_filtered::<&Position, Changed<Position>>();
        State { world, query }
    }

    /// The sum of `x` over the changed positions.
    pub fn run(s: &mut State) -> f32 {
        let mut sum = 0.0;
        s.query.iter(&s.world).for_each(|p| sum += p.x);
        sum
    }
}

/// The realistic frame ([`crate::components::frame`]): one cached `QueryState` per
/// system, each run with `iter_mut(..).for_each` (render, read-only, with `iter`). The
/// four kinds of entity are four tables, so each query visits the tables holding its
/// components and walks their columns densely; every write goes through `Mut` and stamps
/// the change tick, as in any bevy app.
pub mod frame {
    use crate::components::frame::*;
    use bevy_ecs::query::{Or, QueryState, With};
    use bevy_ecs::world::World;

    /// The world, the frame buffer and the seven cached queries.
    pub struct State {
        world: World,
        /// What the last frame drew.
        pub fb: FrameBuffer,
        movement: QueryState<(&'static mut Pos, &'static Vel)>,
        data: QueryState<&'static mut Data>,
        more_complex: QueryState<(&'static mut Vel, &'static Pos, &'static Data)>,
        health: QueryState<&'static mut Health>,
        damage: QueryState<(&'static mut Health, &'static Damage)>,
        sprite: QueryState<(&'static mut Sprite, &'static Player, &'static Health)>,
        render: QueryState<(&'static Pos, &'static Sprite)>,
    }

    /// Spawns the `n` entities one `spawn` each in index order (one bundle tuple per
    /// kind), then prepares the seven queries.
    pub fn setup(n: usize) -> State {
        setup_in(n, Mix::Realistic)
    }

    /// [`setup`] with the entities of a frame of `mix`.
    pub fn setup_in(n: usize, mix: Mix) -> State {
        let mut world = World::new();
        spawn_each!(n, mix, |bundle| {
            world.spawn(bundle);
        });
        State {
            movement: world.query(),
            data: world.query(),
            more_complex: world.query(),
            health: world.query(),
            damage: world.query(),
            sprite: world.query(),
            render: world.query(),
            world,
            fb: FrameBuffer::default(),
        }
    }

    /// The systems in frame order (a frame runs each once).
    pub const SYSTEMS: [fn(&mut State); 7] = [
        |s| {
            let w = &mut s.world;
            s.movement
                .iter_mut(w)
                .for_each(|(mut p, v)| movement(&mut p, v));
        },
        |s| s.data.iter_mut(&mut s.world).for_each(|mut d| data(&mut d)),
        |s| {
            let w = &mut s.world;
            s.more_complex
                .iter_mut(w)
                .for_each(|(mut v, p, d)| more_complex(&mut v, p, d));
        },
        |s| {
            s.health
                .iter_mut(&mut s.world)
                .for_each(|mut h| health(&mut h))
        },
        |s| {
            let w = &mut s.world;
            s.damage
                .iter_mut(w)
                .for_each(|(mut h, d)| damage(&mut h, d));
        },
        |s| {
            let w = &mut s.world;
            s.sprite
                .iter_mut(w)
                .for_each(|(mut sp, p, h)| sprite(&mut sp, p, h));
        },
        |s| render_system(s, render),
    ];

    /// The render system, drawing each entity with `draw` ([`render`], or
    /// [`render_branch_free`] in [`RENDER_BRANCH_FREE`]).
    #[inline(always)]
    fn render_system(s: &mut State, draw: impl Fn(&mut FrameBuffer, &Pos, &Sprite)) {
        let fb = &mut s.fb;
        fb.clear();
        s.render.iter(&s.world).for_each(|(p, sp)| draw(fb, p, sp));
    }

    /// One frame: the seven systems in order.
    pub fn run(s: &mut State) {
        run_systems(s, &SYSTEMS);
    }

    /// The render system with [`render_branch_free`] (`frame_systems branch-free`).
    pub const RENDER_BRANCH_FREE: fn(&mut State) = |s| render_system(s, render_branch_free);

    /// Every entity's components (test helper). The filter keeps the entities holding at
    /// least one frame component: in 0.20 resources are entities too (a fresh world
    /// already holds `DefaultQueryFilters`), and a query of options alone matches them.
    pub fn rows(s: &mut State) -> Vec<Row> {
        rows_of(&mut s.world)
    }

    /// Every entity's components in `world` (see [`rows`]).
    fn rows_of(world: &mut World) -> Vec<Row> {
        let mut query = world.query_filtered::<(
            Option<&Pos>,
            Option<&Vel>,
            Option<&Data>,
            Option<&Health>,
            Option<&Damage>,
            Option<&Sprite>,
            Option<&Player>,
        ), Or<(
            With<Pos>,
            With<Vel>,
            With<Data>,
            With<Health>,
            With<Damage>,
            With<Sprite>,
            With<Player>,
        )>>();
        query.iter(world).map(Row::of).collect()
    }

    /// The seven systems as bevy systems in a `Schedule`, the frame buffer a resource,
    /// ordered as a bevy user orders them for a deterministic frame (conflicting systems
    /// chained: `(movement, data, health)`, then `(more_complex, damage)`, then `sprite`,
    /// then `render`, the same stages `sparse`'s compiler finds); the multi-threaded
    /// executor (bevy's default) or the single-threaded one.
    pub mod scheduled {
        use super::super::init_task_pool;
        use super::*;
        use bevy_ecs::prelude::{IntoScheduleConfigs, Query, ResMut, Resource};
        use bevy_ecs::schedule::{Schedule, SingleThreadedExecutor};

        /// The frame buffer as a resource.
        #[derive(Resource, Default)]
        pub struct Fb(pub FrameBuffer);

        fn movement_system(mut q: Query<(&mut Pos, &Vel)>) {
            q.iter_mut().for_each(|(mut p, v)| movement(&mut p, v));
        }

        fn data_system(mut q: Query<&mut Data>) {
            q.iter_mut().for_each(|mut d| data(&mut d));
        }

        fn more_complex_system(mut q: Query<(&mut Vel, &Pos, &Data)>) {
            q.iter_mut()
                .for_each(|(mut v, p, d)| more_complex(&mut v, p, d));
        }

        fn health_system(mut q: Query<&mut Health>) {
            q.iter_mut().for_each(|mut h| health(&mut h));
        }

        fn damage_system(mut q: Query<(&mut Health, &Damage)>) {
            q.iter_mut().for_each(|(mut h, d)| damage(&mut h, d));
        }

        fn sprite_system(mut q: Query<(&mut Sprite, &Player, &Health)>) {
            q.iter_mut()
                .for_each(|(mut sp, p, h)| sprite(&mut sp, p, h));
        }

        fn render_system(q: Query<(&Pos, &Sprite)>, mut fb: ResMut<Fb>) {
            let fb = &mut fb.0;
            fb.clear();
            q.iter().for_each(|(p, sp)| render(fb, p, sp));
        }

        /// The world and its schedule.
        pub struct State {
            world: World,
            schedule: Schedule,
        }

        fn build(n: usize, mut schedule: Schedule) -> State {
            init_task_pool();
            let mut world = World::new();
            spawn_each!(n, |bundle| {
                world.spawn(bundle);
            });
            world.insert_resource(Fb::default());
            schedule.add_systems(
                (
                    (movement_system, data_system, health_system),
                    (more_complex_system, damage_system),
                    sprite_system,
                    render_system,
                )
                    .chain(),
            );
            schedule.initialize(&mut world).expect("a valid schedule");
            State { world, schedule }
        }

        /// The `n` entities and the schedule on the multi-threaded executor.
        pub fn setup(n: usize) -> State {
            build(n, Schedule::default())
        }

        /// The same on the single-threaded executor: the systems one after the other.
        pub fn setup_single(n: usize) -> State {
            let mut schedule = Schedule::default();
            schedule.set_executor(SingleThreadedExecutor::new());
            build(n, schedule)
        }

        /// One frame: `schedule.run(&mut world)`.
        pub fn run(s: &mut State) {
            s.schedule.run(&mut s.world);
        }

        /// Every entity's components (test helper), as [`frame::rows`](super::rows).
        pub fn rows(s: &mut State) -> Vec<Row> {
            rows_of(&mut s.world)
        }

        /// The frame buffer's cells (test helper).
        pub fn cells(s: &State) -> &[u32] {
            &s.world.resource::<Fb>().0.cells
        }
    }
}
