//! `sparse` itself, written the way its README recommends: a `#[world]` with its groups,
//! group iteration over the plain slices `group::<…>().into_slices()` hands out (or the
//! per-entity `for_each`), inserts and removes through the world.

use sparse_groups::{Entity, Storage, world};

use crate::components::*;

/// W1: group `<Position, Velocity>`.
pub mod w1 {
    use super::*;

    #[world]
    #[group(Position, Velocity)]
    struct Moving {
        positions: Storage<Position>,
        velocities: Storage<Velocity>,
    }

    /// A world with `n` grouped entities.
    pub struct State {
        world: Moving,
    }

    /// Spawns `n` entities with a zero position and [`VEL`] with `spawn_batch`, the
    /// bulk API (each column becomes its storage's array, sized exactly).
    pub fn setup(n: usize) -> State {
        let mut world = Moving::new();
        world.spawn_batch((0..n).map(|_| (Position::default(), VEL)));
        State { world }
    }

    /// The same population spawned entity by entity with `insert`: the storages grow by
    /// doubling, interleaved with each other, and land elsewhere in memory than the
    /// exactly sized columns of `setup` (and of the raw baseline).
    pub fn setup_inserted(n: usize) -> State {
        let mut world = Moving::new();
        for _ in 0..n {
            let e = world.spawn();
            world.insert(e, Position::default()).expect("alive");
            world.insert(e, VEL).expect("alive");
        }
        State { world }
    }

    /// The group's slices through the same kernel as the raw baseline: a group *is*
    /// plain slices.
    pub fn run(s: &mut State) {
        let (_, (p, v)) = s.world.group::<(Position, Velocity)>().into_slices();
        crate::raw::add_flat(p, v);
    }

    /// The group's per-entity loop.
    pub fn run_for_each(s: &mut State) {
        s.world
            .group::<(Position, Velocity)>()
            .for_each(|_, (p, v)| p.add_velocity(v));
    }

    /// A `for` loop over the group, as a user writes it.
    pub fn run_for_loop(s: &mut State) {
        for (_, (p, v)) in s.world.group::<(Position, Velocity)>() {
            p.add_velocity(v);
        }
    }

    /// The group's slices zipped, the body over the structs, as a user writes it.
    pub fn run_zip(s: &mut State) {
        let (_, (p, v)) = s.world.group::<(Position, Velocity)>().into_slices();
        for (p, v) in p.iter_mut().zip(v.iter()) {
            p.add_velocity(v);
        }
    }

    /// The group's parallel loop (`par_for_each`, rayon's global pool), same body as
    /// [`run_for_each`].
    pub fn run_par(s: &mut State) {
        s.world
            .group::<(Position, Velocity)>()
            .par_for_each(|_, (p, v)| p.add_velocity(v));
    }

    /// A view `(&mut Position, &Velocity)` in parallel: the group matches it exactly, so
    /// the view walks the group's slices.
    pub fn run_par_view(s: &mut State) {
        s.world
            .view::<(&mut Position, &Velocity)>()
            .par_for_each(|_, (p, v)| p.add_velocity(v));
    }

    /// Addresses of the two columns (diagnostics).
    pub fn slices(s: &mut State) -> (*const Position, *const Velocity) {
        let (_, (p, v)) = s.world.group::<(Position, Velocity)>().into_slices();
        (p.as_ptr(), v.as_ptr())
    }

    /// Sum of every position coordinate (test helper).
    pub fn checksum(s: &mut State) -> f64 {
        let positions = s.world.storage::<Position>().components();
        positions
            .iter()
            .map(|p| f64::from(p.x) + f64::from(p.y) + f64::from(p.z))
            .sum()
    }

    /// `Σ p · v` by the read-only group's iterator: `group_ref().iter().map(..).sum()`.
    pub fn iter_sum(s: &mut State) -> f32 {
        let group = s.world.group_ref::<(Position, Velocity)>();
        group.iter().map(|(_, (p, v))| dot(p, v)).sum()
    }

    /// Bench body: [`iter_sum`] (read only; the sum goes to `black_box`).
    pub fn run_iter(s: &mut State) {
        std::hint::black_box(iter_sum(s));
    }

    /// `Σ p · v` over the read-only group's slices (`group_ref().slices()`, zipped).
    pub fn iter_slices_sum(s: &mut State) -> f32 {
        let (_, (p, v)) = s.world.group_ref::<(Position, Velocity)>().slices();
        p.iter().zip(v).map(|(p, v)| dot(p, v)).sum()
    }

    /// Bench body: [`iter_slices_sum`], the reference for [`run_iter`].
    pub fn run_iter_slices(s: &mut State) {
        std::hint::black_box(iter_slices_sum(s));
    }

    /// W1 in a `#[world]` with no group: a view `(&mut Position, &Velocity)` is driven by
    /// one storage and looks the other up per entity.
    pub mod nogroup {
        use super::*;

        #[world]
        struct Plain {
            positions: Storage<Position>,
            velocities: Storage<Velocity>,
        }

        /// A world with `n` ungrouped entities.
        pub struct State {
            world: Plain,
        }

        /// Spawns `n` entities with `spawn_batch`, as [`super::setup`].
        pub fn setup(n: usize) -> State {
            let mut world = Plain::new();
            world.spawn_batch((0..n).map(|_| (Position::default(), VEL)));
            State { world }
        }

        /// The view's per-entity loop (`view().for_each`).
        pub fn run(s: &mut State) {
            s.world
                .view::<(&mut Position, &Velocity)>()
                .for_each(|_, (p, v)| p.add_velocity(v));
        }

        /// A `for` loop over the view.
        pub fn run_for(s: &mut State) {
            for (_, (p, v)) in s.world.view::<(&mut Position, &Velocity)>() {
                p.add_velocity(v);
            }
        }

        /// An iterator adaptor over the view (`iter_mut().for_each`), as a user chains it.
        pub fn run_iter(s: &mut State) {
            s.world
                .view::<(&mut Position, &Velocity)>()
                .iter_mut()
                .for_each(|(_, (p, v))| p.add_velocity(v));
        }

        /// Whether the view is dense (test helper: it is, with no group, because the two
        /// storages were filled by one batch and hold one order).
        pub fn is_dense(s: &mut State) -> bool {
            s.world.view::<(&mut Position, &Velocity)>().is_dense()
        }

        /// Sum of every position coordinate (test helper).
        pub fn checksum(s: &mut State) -> f64 {
            s.world
                .storage::<Position>()
                .components()
                .iter()
                .map(position_sum)
                .sum()
        }
    }

    /// W1 in the run-time [`World`](sparse_groups::World): with the `#[world]`'s group
    /// (`World::with_groups([GroupSpec::of::<(Position, Velocity)>()])`) or with none.
    pub mod dynamic {
        use super::*;
        use sparse_groups::{GroupSpec, World};

        /// A run-time world with `n` entities.
        pub struct State {
            world: World,
        }

        /// The group `<Position, Velocity>`, then `n` entities by `spawn_batch`.
        pub fn setup(n: usize) -> State {
            let mut world = World::with_groups([GroupSpec::of::<(Position, Velocity)>()])
                .expect("a valid layout");
            world.spawn_batch((0..n).map(|_| (Position::default(), VEL)));
            State { world }
        }

        /// No group (`World::new()`), then `n` entities by `spawn_batch`.
        pub fn setup_nogroup(n: usize) -> State {
            let mut world = World::new();
            world.spawn_batch((0..n).map(|_| (Position::default(), VEL)));
            State { world }
        }

        /// The group's per-entity loop (`group()?.for_each`), as [`super::run_for_each`].
        pub fn run(s: &mut State) {
            s.world
                .group::<(Position, Velocity)>()
                .expect("declared")
                .for_each(|_, (p, v)| p.add_velocity(v));
        }

        /// A view `(&mut Position, &Velocity)`, `for_each` (in the world of
        /// [`setup_nogroup`]: driven by a storage, lookups).
        pub fn run_view(s: &mut State) {
            s.world
                .view::<(&mut Position, &Velocity)>()
                .expect("no conflict")
                .for_each(|_, (p, v)| p.add_velocity(v));
        }

        /// Sum of every position coordinate (test helper).
        pub fn checksum(s: &mut State) -> f64 {
            let positions = s.world.storage::<Position>().expect("stored");
            positions.components().iter().map(position_sum).sum()
        }
    }
}

/// W2 and W3's world: `<A, B>` ⊂ `<A, B, C>`, `D` stored ungrouped.
#[world]
#[group(A, B)]
#[group(A, B, C)]
struct Nested {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
    d: Storage<D>,
}

/// W2: iterate the nested `<A, B, C>`.
pub mod w2 {
    use super::*;

    /// A world with the W2 population.
    pub struct State {
        world: Nested,
    }

    /// Spawns the `n` W2 entities one by one in index order (`spawn`, then one `insert`
    /// per component) into `$world`, a `#[world]` or the run-time `World`: every W2 world
    /// of this module is populated by this same loop.
    macro_rules! populate {
        ($world:expr, $n:expr) => {{
            let (world, n) = (&mut $world, $n);
            for i in 0..n {
                let e = world.spawn();
                world.insert(e, A::default()).expect("alive");
                world.insert(e, W2_B).expect("alive");
                if w2_has_c(i, n) {
                    world.insert(e, W2_C).expect("alive");
                }
                if w2_has_d(i, n) {
                    world.insert(e, W2_D).expect("alive");
                }
            }
        }};
    }

    /// Spawns `n` entities populated as [`w2_has_c`] / [`w2_has_d`] say.
    pub fn setup(n: usize) -> State {
        let mut world = Nested::new();
        populate!(world, n);
        State { world }
    }

    // Slice arguments of a non-inlined function, exactly as the raw baseline's kernel.
    #[inline(never)]
    fn kernel(a: &mut [A], b: &[B], c: &[C]) {
        for ((a, b), c) in a.iter_mut().zip(b).zip(c) {
            a_eq_b_plus_c(a, b, c);
        }
    }

    /// The `<A, B, C>` group's slices through the raw baseline's kernel.
    pub fn run(s: &mut State) {
        let (_, (a, b, c)) = s.world.group::<(A, B, C)>().into_slices();
        kernel(a, b, c);
    }

    /// The group's per-entity loop.
    pub fn run_for_each(s: &mut State) {
        s.world
            .group::<(A, B, C)>()
            .for_each(|_, (a, b, c)| a_eq_b_plus_c(a, b, c));
    }

    /// A `for` loop over the group, as a user writes it.
    pub fn run_for_loop(s: &mut State) {
        for (_, (a, b, c)) in s.world.group::<(A, B, C)>() {
            a_eq_b_plus_c(a, b, c);
        }
    }

    /// The group's slices zipped in place (no kernel function), as a user writes it.
    pub fn run_zip(s: &mut State) {
        let (_, (a, b, c)) = s.world.group::<(A, B, C)>().into_slices();
        for ((a, b), c) in a.iter_mut().zip(b.iter()).zip(c.iter()) {
            a_eq_b_plus_c(a, b, c);
        }
    }

    /// The group's parallel loop (`par_for_each`, rayon's global pool), same body as
    /// [`run_for_each`].
    pub fn run_par(s: &mut State) {
        s.world
            .group::<(A, B, C)>()
            .par_for_each(|_, (a, b, c)| a_eq_b_plus_c(a, b, c));
    }

    /// A view `(&mut A, &B, &C)` in parallel: it walks the `<A, B, C>` group's slices.
    pub fn run_par_view(s: &mut State) {
        s.world
            .view::<(&mut A, &B, &C)>()
            .par_for_each(|_, (a, b, c)| a_eq_b_plus_c(a, b, c));
    }

    /// Entities of `<A, B, C>` whose `A` holds [`W2_A_AFTER`], counted by the read-only
    /// group's parallel loop (test helper).
    pub fn count_updated_par(s: &mut State) -> usize {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let count = AtomicUsize::new(0);
        s.world
            .group_ref::<(A, B, C)>()
            .par_for_each(|_, (a, _, _)| {
                if *a == W2_A_AFTER {
                    count.fetch_add(1, Ordering::Relaxed);
                }
            });
        count.into_inner()
    }

    /// Entities whose `A` holds [`W2_A_AFTER`] (test helper).
    pub fn count_updated(s: &mut State) -> usize {
        s.world
            .storage::<A>()
            .components()
            .iter()
            .filter(|a| **a == W2_A_AFTER)
            .count()
    }

    /// `Σ abc_read(a, b, c)` by the read-only `<A, B, C>` group's iterator.
    pub fn iter_sum(s: &mut State) -> f32 {
        let group = s.world.group_ref::<(A, B, C)>();
        group.iter().map(|(_, (a, b, c))| abc_read(a, b, c)).sum()
    }

    /// Bench body: [`iter_sum`] (read only; the sum goes to `black_box`).
    pub fn run_iter(s: &mut State) {
        std::hint::black_box(iter_sum(s));
    }

    /// The same sum over the read-only group's slices, zipped.
    pub fn iter_slices_sum(s: &mut State) -> f32 {
        let (_, (a, b, c)) = s.world.group_ref::<(A, B, C)>().slices();
        a.iter()
            .zip(b)
            .zip(c)
            .map(|((a, b), c)| abc_read(a, b, c))
            .sum()
    }

    /// Bench body: [`iter_slices_sum`], the reference for [`run_iter`].
    pub fn run_iter_slices(s: &mut State) {
        std::hint::black_box(iter_slices_sum(s));
    }

    /// W2's population in a `#[world]` with no group: a view `(&mut A, &B, &C)` is driven
    /// by the smallest storage, `C` (the `n / 2` matches), and looks `A` and `B` up.
    pub mod nogroup {
        use super::*;

        #[world]
        struct Plain {
            a: Storage<A>,
            b: Storage<B>,
            c: Storage<C>,
            d: Storage<D>,
        }

        /// A world with the W2 population, ungrouped.
        pub struct State {
            world: Plain,
        }

        /// Spawns the `n` W2 entities as [`super::setup`] does.
        pub fn setup(n: usize) -> State {
            let mut world = Plain::new();
            populate!(world, n);
            State { world }
        }

        /// The view's per-entity loop.
        pub fn run(s: &mut State) {
            s.world
                .view::<(&mut A, &B, &C)>()
                .for_each(|_, (a, b, c)| a_eq_b_plus_c(a, b, c));
        }

        /// Entities whose `A` holds [`W2_A_AFTER`] (test helper).
        pub fn count_updated(s: &mut State) -> usize {
            let a = s.world.storage::<A>().components();
            a.iter().filter(|a| **a == W2_A_AFTER).count()
        }
    }

    /// W2 in the run-time [`World`](sparse_groups::World): with the `#[world]`'s groups
    /// `<A, B>` ⊂ `<A, B, C>` or with none; populated as [`setup`].
    pub mod dynamic {
        use super::*;
        use sparse_groups::{GroupSpec, World};

        /// A run-time world with the W2 population.
        pub struct State {
            world: World,
        }

        /// The groups `<A, B>` and `<A, B, C>`, then the `n` W2 entities.
        pub fn setup(n: usize) -> State {
            let mut world =
                World::with_groups([GroupSpec::of::<(A, B)>(), GroupSpec::of::<(A, B, C)>()])
                    .expect("a valid layout");
            populate!(world, n);
            State { world }
        }

        /// No group (`World::new()`), then the `n` W2 entities.
        pub fn setup_nogroup(n: usize) -> State {
            let mut world = World::new();
            populate!(world, n);
            State { world }
        }

        /// The `<A, B, C>` group's per-entity loop, as [`super::run_for_each`].
        pub fn run(s: &mut State) {
            s.world
                .group::<(A, B, C)>()
                .expect("declared")
                .for_each(|_, (a, b, c)| a_eq_b_plus_c(a, b, c));
        }

        /// A view `(&mut A, &B, &C)`, `for_each` (in the world of [`setup_nogroup`]:
        /// driven by `C`'s storage, lookups of `A` and `B`).
        pub fn run_view(s: &mut State) {
            s.world
                .view::<(&mut A, &B, &C)>()
                .expect("no conflict")
                .for_each(|_, (a, b, c)| a_eq_b_plus_c(a, b, c));
        }

        /// Entities whose `A` holds [`W2_A_AFTER`] (test helper).
        pub fn count_updated(s: &mut State) -> usize {
            let a = s.world.storage::<A>().expect("stored").components();
            a.iter().filter(|a| **a == W2_A_AFTER).count()
        }
    }
}

/// W3: add `C` to and remove it from `n` `(A, B)` entities through `<A, B>` ⊂ `<A, B, C>`.
pub mod w3 {
    use super::*;

    /// A world with `n` `(A, B)` entities and their ids.
    pub struct State {
        world: Nested,
        entities: Vec<Entity>,
    }

    /// Spawns `n` `(A, B)` entities.
    pub fn setup(n: usize) -> State {
        let mut world = Nested::new();
        let entities = (0..n)
            .map(|_| {
                let e = world.spawn();
                world.insert(e, A::default()).expect("alive");
                world.insert(e, W2_B).expect("alive");
                e
            })
            .collect();
        State { world, entities }
    }

    /// Insert `C` into every entity, then remove it from every entity.
    pub fn run(s: &mut State) {
        for &e in &s.entities {
            s.world.insert(e, W2_C).expect("alive");
        }
        for &e in &s.entities {
            s.world.remove::<C>(e);
        }
    }

    /// Size of the inner group (test helper).
    pub fn inner_len(s: &mut State) -> usize {
        s.world.group_len::<(A, B, C)>()
    }

    /// W3's adds and removes with no group (the storages' own work, what the groups'
    /// steps come on top of), in a `#[world]` and in the run-time
    /// [`World`](sparse_groups::World).
    pub mod nogroup {
        use super::*;
        use sparse_groups::World;

        #[world]
        struct Plain {
            a: Storage<A>,
            b: Storage<B>,
            c: Storage<C>,
        }

        /// A world with `n` `(A, B)` entities and their ids.
        pub struct State {
            world: Plain,
            entities: Vec<Entity>,
        }

        /// Spawns `n` `(A, B)` entities.
        pub fn setup(n: usize) -> State {
            let mut world = Plain::new();
            let entities = (0..n)
                .map(|_| world.spawn_with((A::default(), W2_B)))
                .collect();
            State { world, entities }
        }

        /// Insert `C` into every entity, then remove it from every entity.
        pub fn run(s: &mut State) {
            insert_all(s);
            remove_all(s);
        }

        /// Insert `C` into every entity.
        pub fn insert_all(s: &mut State) {
            for &e in &s.entities {
                s.world.insert(e, W2_C).expect("alive");
            }
        }

        /// Remove `C` from every entity.
        pub fn remove_all(s: &mut State) {
            for &e in &s.entities {
                s.world.remove::<C>(e);
            }
        }

        /// The same in a run-time `World` with no group.
        pub mod dynamic {
            use super::*;

            /// A run-time world with `n` `(A, B)` entities and their ids.
            pub struct State {
                world: World,
                entities: Vec<Entity>,
            }

            /// Spawns `n` `(A, B)` entities.
            pub fn setup(n: usize) -> State {
                let mut world = World::new();
                let entities = (0..n)
                    .map(|_| world.spawn_with((A::default(), W2_B)))
                    .collect();
                State { world, entities }
            }

            /// Insert `C` into every entity, then remove it from every entity.
            pub fn run(s: &mut State) {
                insert_all(s);
                remove_all(s);
            }

            /// Insert `C` into every entity.
            pub fn insert_all(s: &mut State) {
                for &e in &s.entities {
                    s.world.insert(e, W2_C).expect("alive");
                }
            }

            /// Remove `C` from every entity.
            pub fn remove_all(s: &mut State) {
                for &e in &s.entities {
                    s.world.remove::<C>(e);
                }
            }

            /// How many entities have a `C` (test helper).
            pub fn with_c(s: &State) -> usize {
                s.world.storage::<C>().map_or(0, |c| c.len())
            }
        }

        /// How many entities have a `C` (test helper).
        pub fn with_c(s: &State) -> usize {
            s.world.storage::<C>().len()
        }
    }

    /// W3 in the run-time [`World`](sparse_groups::World) with the `#[world]`'s groups
    /// `<A, B>` ⊂ `<A, B, C>`.
    pub mod dynamic {
        use super::*;
        use sparse_groups::{GroupSpec, World};

        /// A run-time world with `n` `(A, B)` entities and their ids.
        pub struct State {
            world: World,
            entities: Vec<Entity>,
        }

        /// The two groups, then `n` `(A, B)` entities spawned as [`super::setup`] does.
        pub fn setup(n: usize) -> State {
            let mut world =
                World::with_groups([GroupSpec::of::<(A, B)>(), GroupSpec::of::<(A, B, C)>()])
                    .expect("a valid layout");
            let entities = (0..n)
                .map(|_| {
                    let e = world.spawn();
                    world.insert(e, A::default()).expect("alive");
                    world.insert(e, W2_B).expect("alive");
                    e
                })
                .collect();
            State { world, entities }
        }

        /// Insert `C` into every entity, then remove it from every entity.
        pub fn run(s: &mut State) {
            for &e in &s.entities {
                s.world.insert(e, W2_C).expect("alive");
            }
            for &e in &s.entities {
                s.world.remove::<C>(e);
            }
        }

        /// Sizes of `<A, B>` and `<A, B, C>`, and the world's consistency check (test
        /// helper).
        pub fn groups(s: &mut State) -> ((usize, usize), Result<(), String>) {
            let w = &s.world;
            let outer = w.group_len::<(A, B)>().expect("declared");
            let inner = w.group_len::<(A, B, C)>().expect("declared");
            ((outer, inner), w.check())
        }
    }
}

/// W5: `pos += vel` over the entities without `Frozen` (every other one), four ways.
pub mod w5 {
    use super::*;
    use sparse_groups::{Exclude, Get, View, Without};

    /// Spawns `n` entities one by one in index order, each `(Position::default(), VEL)`
    /// plus `Frozen` when [`w5_is_frozen`] says so; with the trailing `moving_only`, the
    /// frozen ones are not spawned at all. Every variant is populated by this same loop, so their
    /// storages grow the same way (by doubling, `spawn_with` per entity).
    macro_rules! populate {
        ($world:expr, $n:expr) => {
            for i in 0..$n {
                if w5_is_frozen(i) {
                    $world.spawn_with((Position::default(), VEL, Frozen));
                } else {
                    $world.spawn_with((Position::default(), VEL));
                }
            }
        };
        ($world:expr, $n:expr, moving_only) => {
            for i in 0..$n {
                if !w5_is_frozen(i) {
                    $world.spawn_with((Position::default(), VEL));
                }
            }
        };
    }

    /// `(sum of position_sum over moving entities, the same over frozen ones)` of a world
    /// with a `Frozen` storage.
    macro_rules! sums {
        ($world:expr) => {{
            let world = &$world;
            let (mut moving, mut frozen) = (0.0, 0.0);
            for (e, p) in world.storage::<Position>().iter() {
                if world.contains::<Frozen>(e) {
                    frozen += position_sum(p);
                } else {
                    moving += position_sum(p);
                }
            }
            (moving, frozen)
        }};
    }

    /// Partial-owning `<Velocity, get(Position), exclude(Frozen)>`: the group packs the
    /// moving entities' velocities; positions are looked up.
    pub mod partial {
        use super::*;

        #[world]
        #[group(Velocity, get(Position), exclude(Frozen))]
        struct Movement {
            positions: Storage<Position>,
            velocities: Storage<Velocity>,
            frozen: Storage<Frozen>,
        }

        type Movers = (Velocity, Get<Position>, Exclude<Frozen>);

        /// The world with the W5 population.
        pub struct State {
            world: Movement,
        }

        /// Spawns the `n` W5 entities.
        pub fn setup(n: usize) -> State {
            let mut world = Movement::new();
            populate!(world, n);
            State { world }
        }

        /// The W5 population with the positions sorted in the order of the velocities
        /// (`sort_as::<Position, Velocity>()`, the seed article's sort for a storage a group
        /// observes): the group's members' positions come first, in the group's order, so
        /// its lookups walk forward through the moving entities' positions only.
        pub fn setup_sorted(n: usize) -> State {
            let mut s = setup(n);
            s.world.sort_as::<Position, Velocity>();
            s
        }

        /// The group's per-entity loop: owned `&mut Velocity`, observed `&mut Position`.
        pub fn run(s: &mut State) {
            s.world
                .group::<Movers>()
                .for_each(|_, (v, p)| p.add_velocity(v));
        }

        /// Entities in the group (test helper).
        pub fn group_len(s: &mut State) -> usize {
            s.world.group_len::<Movers>()
        }

        /// Position sums of the moving and the frozen entities (test helper).
        pub fn sums(s: &mut State) -> (f64, f64) {
            sums!(s.world)
        }
    }

    /// Full-owning `<Position, Velocity, exclude(Frozen)>`: the moving entities' positions
    /// and velocities are packed at the front of their storages.
    pub mod owning_exclude {
        use super::*;

        #[world]
        #[group(Position, Velocity, exclude(Frozen))]
        struct Movement {
            positions: Storage<Position>,
            velocities: Storage<Velocity>,
            frozen: Storage<Frozen>,
        }

        type Unfrozen = (Position, Velocity, Exclude<Frozen>);

        /// The world with the W5 population.
        pub struct State {
            world: Movement,
        }

        /// Spawns the `n` W5 entities.
        pub fn setup(n: usize) -> State {
            let mut world = Movement::new();
            populate!(world, n);
            State { world }
        }

        /// The group's slices through W1's kernel ([`crate::raw::add_flat`]).
        pub fn run(s: &mut State) {
            let (_, (p, v)) = s.world.group::<Unfrozen>().into_slices();
            crate::raw::add_flat(p, v);
        }

        /// The group's per-entity loop.
        pub fn run_for_each(s: &mut State) {
            s.world
                .group::<Unfrozen>()
                .for_each(|_, (p, v)| p.add_velocity(v));
        }

        /// A `for` loop over the group.
        pub fn run_for(s: &mut State) {
            for (_, (p, v)) in s.world.group::<Unfrozen>() {
                p.add_velocity(v);
            }
        }

        /// The group's slices zipped in place, the body over the structs (where
        /// [`run`] passes them to W1's flat kernel).
        pub fn run_zip(s: &mut State) {
            let (_, (p, v)) = s.world.group::<Unfrozen>().into_slices();
            for (p, v) in p.iter_mut().zip(v.iter()) {
                p.add_velocity(v);
            }
        }

        /// `Σ p · v` over the unfrozen entities by the read-only group's iterator.
        pub fn iter_sum(s: &mut State) -> f32 {
            let group = s.world.group_ref::<Unfrozen>();
            group.iter().map(|(_, (p, v))| dot(p, v)).sum()
        }

        /// Bench body: [`iter_sum`] (read only; the sum goes to `black_box`).
        pub fn run_iter(s: &mut State) {
            std::hint::black_box(iter_sum(s));
        }

        /// A view `(&mut Position, &Velocity)` without `Frozen`: the group matches it
        /// exactly, so the view walks the group's slices (dense).
        pub fn run_view(s: &mut State) {
            s.world
                .borrow::<View<(&mut Position, &Velocity), Without<Frozen>>>()
                .for_each(|_, (p, v)| p.add_velocity(v));
        }

        /// Whether that view is dense (test helper).
        pub fn view_is_dense(s: &mut State) -> bool {
            s.world
                .borrow::<View<(&mut Position, &Velocity), Without<Frozen>>>()
                .is_dense()
        }

        /// Entities in the group (test helper).
        pub fn group_len(s: &mut State) -> usize {
            s.world.group_len::<Unfrozen>()
        }

        /// Position sums of the moving and the frozen entities (test helper).
        pub fn sums(s: &mut State) -> (f64, f64) {
            sums!(s.world)
        }
    }

    /// The reference "plain group loop": `<Position, Velocity>` over only the `n / 2`
    /// moving entities (no `Frozen` anywhere), iterated like [`owning_exclude::run`].
    pub mod plain_group {
        use super::*;

        #[world]
        #[group(Position, Velocity)]
        struct Movement {
            positions: Storage<Position>,
            velocities: Storage<Velocity>,
        }

        /// The world with the moving half of the W5 population.
        pub struct State {
            world: Movement,
        }

        /// Spawns the moving entities of the `n` W5 entities.
        pub fn setup(n: usize) -> State {
            let mut world = Movement::new();
            populate!(world, n, moving_only);
            State { world }
        }

        /// The group's slices through W1's kernel ([`crate::raw::add_flat`]).
        pub fn run(s: &mut State) {
            let (_, (p, v)) = s.world.group::<(Position, Velocity)>().into_slices();
            crate::raw::add_flat(p, v);
        }

        /// Entities in the group (test helper).
        pub fn group_len(s: &mut State) -> usize {
            s.world.group_len::<(Position, Velocity)>()
        }

        /// Position sums of the moving entities and (none here) the frozen ones (test
        /// helper).
        pub fn sums(s: &mut State) -> (f64, f64) {
            let moving = s.world.storage::<Position>().components().iter();
            (moving.map(position_sum).sum(), 0.0)
        }
    }

    /// Sparsey's layout: `<Position, Velocity>` ⊃ `<Position, Velocity, Frozen>`. A view
    /// without `Frozen` walks the outer group's members outside the nested one, densely.
    pub mod view_nested {
        use super::*;

        #[world]
        #[group(Position, Velocity)]
        #[group(Position, Velocity, Frozen)]
        struct Movement {
            positions: Storage<Position>,
            velocities: Storage<Velocity>,
            frozen: Storage<Frozen>,
        }

        /// The world with the W5 population.
        pub struct State {
            world: Movement,
        }

        /// Spawns the `n` W5 entities.
        pub fn setup(n: usize) -> State {
            let mut world = Movement::new();
            populate!(world, n);
            State { world }
        }

        /// The view's per-entity loop.
        pub fn run(s: &mut State) {
            s.world
                .borrow::<View<(&mut Position, &Velocity), Without<Frozen>>>()
                .for_each(|_, (p, v)| p.add_velocity(v));
        }

        /// A `for` loop over the view.
        pub fn run_for(s: &mut State) {
            for (_, (p, v)) in s
                .world
                .borrow::<View<(&mut Position, &Velocity), Without<Frozen>>>()
            {
                p.add_velocity(v);
            }
        }

        /// `Σ p · v` over the unfrozen entities by a read-only view's iterator
        /// (`borrow_ref::<View<(&Position, &Velocity), Without<Frozen>>>().iter()`).
        pub fn iter_sum(s: &mut State) -> f32 {
            let view = s
                .world
                .borrow_ref::<View<(&Position, &Velocity), Without<Frozen>>>();
            view.iter().map(|(_, (p, v))| dot(p, v)).sum()
        }

        /// Bench body: [`iter_sum`] (read only; the sum goes to `black_box`).
        pub fn run_iter(s: &mut State) {
            std::hint::black_box(iter_sum(s));
        }

        /// Whether the view is dense (test helper).
        pub fn view_is_dense(s: &mut State) -> bool {
            s.world
                .borrow::<View<(&mut Position, &Velocity), Without<Frozen>>>()
                .is_dense()
        }

        /// Position sums of the moving and the frozen entities (test helper).
        pub fn sums(s: &mut State) -> (f64, f64) {
            sums!(s.world)
        }
    }

    /// No group: the view without `Frozen` is driven by a storage, looks the other leaf up
    /// and tests `Frozen` per entity.
    pub mod view_plain {
        use super::*;

        #[world]
        struct Movement {
            positions: Storage<Position>,
            velocities: Storage<Velocity>,
            frozen: Storage<Frozen>,
        }

        /// The world with the W5 population.
        pub struct State {
            world: Movement,
        }

        /// Spawns the `n` W5 entities.
        pub fn setup(n: usize) -> State {
            let mut world = Movement::new();
            populate!(world, n);
            State { world }
        }

        /// The view's per-entity loop.
        pub fn run(s: &mut State) {
            s.world
                .borrow::<View<(&mut Position, &Velocity), Without<Frozen>>>()
                .for_each(|_, (p, v)| p.add_velocity(v));
        }

        /// A `for` loop over the view.
        pub fn run_for(s: &mut State) {
            for (_, (p, v)) in s
                .world
                .borrow::<View<(&mut Position, &Velocity), Without<Frozen>>>()
            {
                p.add_velocity(v);
            }
        }

        /// Position sums of the moving and the frozen entities (test helper).
        pub fn sums(s: &mut State) -> (f64, f64) {
            sums!(s.world)
        }
    }

    /// The workaround without exclusion groups: no group; each run clones the `Frozen`
    /// storage's entity set and skips its members in a `(Position, Velocity)` view.
    pub mod view_set {
        use super::*;

        #[world]
        struct Movement {
            positions: Storage<Position>,
            velocities: Storage<Velocity>,
            frozen: Storage<Frozen>,
        }

        /// The world with the W5 population.
        pub struct State {
            world: Movement,
        }

        /// Spawns the `n` W5 entities.
        pub fn setup(n: usize) -> State {
            let mut world = Movement::new();
            populate!(world, n);
            State { world }
        }

        /// Copies the frozen set (part of the timed work), then filters a view by it.
        pub fn run(s: &mut State) {
            let frozen = s.world.storage::<Frozen>().set().clone();
            s.world
                .view::<(&mut Position, &Velocity)>()
                .for_each(|e, (p, v)| {
                    if !frozen.contains(e) {
                        p.add_velocity(v);
                    }
                });
        }

        /// Position sums of the moving and the frozen entities (test helper).
        pub fn sums(s: &mut State) -> (f64, f64) {
            sums!(s.world)
        }
    }

    /// W5 in the run-time [`World`](sparse_groups::World), each layout declared with
    /// `World::with_groups` as the matching `#[world]` above declares it, populated by the
    /// same loop (`spawn_with` per entity, in index order).
    pub mod dynamic {
        use super::*;
        use sparse_groups::{GroupSpec, World};

        /// A run-time world with the W5 population.
        pub struct State {
            world: World,
        }

        fn populated(mut world: World, n: usize) -> State {
            world.register::<Frozen>();
            populate!(world, n);
            State { world }
        }

        /// [`partial`]'s group `<Velocity, get(Position), exclude(Frozen)>`.
        pub fn setup_partial(n: usize) -> State {
            let spec = GroupSpec::of::<(Velocity, Get<Position>, Exclude<Frozen>)>();
            populated(World::with_groups([spec]).expect("a valid layout"), n)
        }

        /// [`owning_exclude`]'s group `<Position, Velocity, exclude(Frozen)>`.
        pub fn setup_owning_exclude(n: usize) -> State {
            let spec = GroupSpec::of::<(Position, Velocity, Exclude<Frozen>)>();
            populated(World::with_groups([spec]).expect("a valid layout"), n)
        }

        /// [`view_nested`]'s groups `<Position, Velocity>` ⊃ `<Position, Velocity, Frozen>`.
        pub fn setup_nested(n: usize) -> State {
            let specs = [
                GroupSpec::of::<(Position, Velocity)>(),
                GroupSpec::of::<(Position, Velocity, Frozen)>(),
            ];
            populated(World::with_groups(specs).expect("a valid layout"), n)
        }

        /// No group (`World::new()`), as [`view_plain`].
        pub fn setup_nogroup(n: usize) -> State {
            populated(World::new(), n)
        }

        /// The partial-owning group's per-entity loop, as [`partial::run`] (world of
        /// [`setup_partial`]).
        pub fn run_partial(s: &mut State) {
            s.world
                .group::<(Velocity, Get<Position>, Exclude<Frozen>)>()
                .expect("declared")
                .for_each(|_, (v, p)| p.add_velocity(v));
        }

        /// The full-owning exclusion group's per-entity loop, as
        /// [`owning_exclude::run_for_each`] (world of [`setup_owning_exclude`]).
        pub fn run_owning_exclude(s: &mut State) {
            s.world
                .group::<(Position, Velocity, Exclude<Frozen>)>()
                .expect("declared")
                .for_each(|_, (p, v)| p.add_velocity(v));
        }

        /// The view `(&mut Position, &Velocity)` without `Frozen`, `for_each`: dense in the
        /// world of [`setup_nested`] (as [`view_nested::run`]), driven by a storage with
        /// lookups in that of [`setup_nogroup`] (as [`view_plain::run`]).
        pub fn run_view(s: &mut State) {
            s.world
                .borrow::<View<(&mut Position, &Velocity), Without<Frozen>>>()
                .expect("no conflict")
                .for_each(|_, (p, v)| p.add_velocity(v));
        }

        /// Whether that view is dense (test helper).
        pub fn view_is_dense(s: &mut State) -> bool {
            s.world
                .borrow::<View<(&mut Position, &Velocity), Without<Frozen>>>()
                .expect("no conflict")
                .is_dense()
        }

        /// Position sums of the moving and the frozen entities (test helper).
        pub fn sums(s: &mut State) -> (f64, f64) {
            let world = &s.world;
            let (mut moving, mut frozen) = (0.0, 0.0);
            for (e, p) in world.storage::<Position>().expect("stored").iter() {
                if world.contains::<Frozen>(e) {
                    frozen += position_sum(p);
                } else {
                    moving += position_sum(p);
                }
            }
            (moving, frozen)
        }
    }
}

/// W6: add the excluded tag `T` to, and remove it from, `n` `(A, B, C, D)` entities in the
/// family `<A, B, !T>` ⊂ `<A, B, C, !T>` ⊂ `<A, B, C, D, !T>` (each add leaves three
/// groups, innermost first; each remove re-enters them, outermost first).
pub mod w6 {
    use super::*;
    use sparse_groups::Exclude;

    #[world]
    #[group(A, B, exclude(T))]
    #[group(A, B, C, exclude(T))]
    #[group(A, B, C, D, exclude(T))]
    struct Excluding {
        a: Storage<A>,
        b: Storage<B>,
        c: Storage<C>,
        d: Storage<D>,
        t: Storage<T>,
    }

    /// A world with `n` `(A, B, C, D)` entities and their ids.
    pub struct State {
        world: Excluding,
        entities: Vec<Entity>,
    }

    /// Spawns `n` `(A, B, C, D)` entities (all three groups hold all of them).
    pub fn setup(n: usize) -> State {
        let mut world = Excluding::new();
        let entities = world.spawn_batch((0..n).map(|_| (A::default(), W2_B, W2_C, W2_D)));
        State { world, entities }
    }

    /// Insert `T` into every entity, then remove it from every entity.
    pub fn run(s: &mut State) {
        for &e in &s.entities {
            s.world.insert(e, T).expect("alive");
        }
        for &e in &s.entities {
            s.world.remove::<T>(e);
        }
    }

    /// Entities with all of `A`, `B`, `C`, `D`, and entities with `T` (test helper).
    pub fn counts(s: &mut State) -> (usize, usize) {
        let w = &s.world;
        let abcd = s
            .entities
            .iter()
            .filter(|&&e| w.contains::<A>(e) && w.contains::<B>(e))
            .filter(|&&e| w.contains::<C>(e) && w.contains::<D>(e))
            .count();
        (abcd, w.storage::<T>().len())
    }

    /// The lengths of `<A, B, !T>`, `<A, B, C, !T>`, `<A, B, C, D, !T>` (test helper).
    pub fn group_lens(s: &mut State) -> [usize; 3] {
        [
            s.world.group_len::<(A, B, Exclude<T>)>(),
            s.world.group_len::<(A, B, C, Exclude<T>)>(),
            s.world.group_len::<(A, B, C, D, Exclude<T>)>(),
        ]
    }

    /// The world's own consistency check (test helper).
    pub fn check(s: &mut State) -> Result<(), String> {
        s.world.check()
    }
}

/// W4 (`simple_insert`): spawn into a fresh world without groups.
pub mod w4 {
    use super::*;

    #[world]
    struct Plain {
        transforms: Storage<Transform>,
        positions: Storage<Position>,
        rotations: Storage<Rotation>,
        velocities: Storage<Velocity>,
    }

    /// A fresh world.
    pub struct State {
        world: Plain,
        n: usize,
    }

    /// Builds an empty world.
    pub fn setup(n: usize) -> State {
        State {
            world: Plain::new(),
            n,
        }
    }

    /// Spawns `n` entities with their four components through `spawn_batch`, which
    /// reserves every storage once (the API the README recommends for bulk spawns).
    pub fn run(s: &mut State) {
        s.world.spawn_batch((0..s.n).map(|_| transform_bundle()));
    }

    /// Spawns `n` entities one call each: `spawn_with` the four components.
    pub fn run_each(s: &mut State) {
        for _ in 0..s.n {
            s.world.spawn_with(transform_bundle());
        }
    }

    /// Spawns `n` entities one by one: `spawn`, then one `insert` per component.
    pub fn run_spawn_insert(s: &mut State) {
        for _ in 0..s.n {
            let e = s.world.spawn();
            let (t, p, r, v) = transform_bundle();
            s.world.insert(e, t).expect("alive");
            s.world.insert(e, p).expect("alive");
            s.world.insert(e, r).expect("alive");
            s.world.insert(e, v).expect("alive");
        }
    }

    /// A world already holding `n` entities spawned the same way (untimed).
    pub fn setup_populated(n: usize) -> State {
        let mut s = setup(n);
        run(&mut s);
        s
    }

    /// Entities alive (test helper).
    pub fn len(s: &mut State) -> usize {
        s.world.entities().len()
    }

    /// W4 in the run-time [`World`](sparse_groups::World), with no group like `Plain`.
    pub mod dynamic {
        use sparse_groups::World;

        /// A fresh run-time world.
        pub struct State {
            world: World,
            n: usize,
        }

        /// Builds an empty world (`World::new()`).
        pub fn setup(n: usize) -> State {
            State {
                world: World::new(),
                n,
            }
        }

        /// Spawns `n` entities with their four components through `spawn_batch` (column
        /// by column), as [`super::run`].
        pub fn run(s: &mut State) {
            s.world
                .spawn_batch((0..s.n).map(|_| crate::components::transform_bundle()));
        }

        /// Spawns `n` entities one call each: `spawn_with`, as [`super::run_each`].
        pub fn run_each(s: &mut State) {
            for _ in 0..s.n {
                s.world.spawn_with(crate::components::transform_bundle());
            }
        }

        /// Entities alive (test helper).
        pub fn len(s: &mut State) -> usize {
            s.world.entities().len()
        }
    }
}

/// ecs_bench_suite `simple_iter`: group `<Position, Velocity>`.
pub mod simple_iter {
    use super::*;

    #[world]
    #[group(Position, Velocity)]
    struct Simple {
        transforms: Storage<Transform>,
        positions: Storage<Position>,
        rotations: Storage<Rotation>,
        velocities: Storage<Velocity>,
    }

    /// A world with `n` four-component entities.
    pub struct State {
        world: Simple,
    }

    /// Spawns `n` entities.
    pub fn setup(n: usize) -> State {
        let mut world = Simple::new();
        for _ in 0..n {
            let (t, p, r, v) = transform_bundle();
            let e = world.spawn();
            world.insert(e, t).expect("alive");
            world.insert(e, p).expect("alive");
            world.insert(e, r).expect("alive");
            world.insert(e, v).expect("alive");
        }
        State { world }
    }

    /// `pos += vel` over the group.
    pub fn run(s: &mut State) {
        s.world
            .group::<(Position, Velocity)>()
            .for_each(|_, (p, v)| p.add_velocity(v));
    }
}

/// ecs_bench_suite `fragmented_iter`: iterate the `Data` storage.
pub mod fragmented_iter {
    use crate::components::frag::*;
    use sparse_groups::{Storage, world};

    #[world]
    struct Fragmented {
        data: Storage<Data>,
        a: Storage<A>,
        b: Storage<B>,
        c: Storage<C>,
        d: Storage<D>,
        e: Storage<E>,
        f: Storage<F>,
        g: Storage<G>,
        h: Storage<H>,
        i: Storage<I>,
        j: Storage<J>,
        k: Storage<K>,
        l: Storage<L>,
        m: Storage<M>,
        n: Storage<N>,
        o: Storage<O>,
        p: Storage<P>,
        q: Storage<Q>,
        r: Storage<R>,
        s: Storage<S>,
        t: Storage<T>,
        u: Storage<U>,
        v: Storage<V>,
        w: Storage<W>,
        x: Storage<X>,
        y: Storage<Y>,
        z: Storage<Z>,
    }

    /// A world with 26 × 20 entities.
    pub struct State {
        world: Fragmented,
    }

    /// Spawns 20 `(X(0.0), Data(1.0))` per type `X`.
    pub fn setup() -> State {
        let mut world = Fragmented::new();
        macro_rules! spawn {
            ($($t:ident),*) => {
                $(
                    for _ in 0..PER_TYPE {
                        let e = world.spawn();
                        world.insert(e, $t(0.0)).expect("alive");
                        world.insert(e, Data(1.0)).expect("alive");
                    }
                )*
            };
        }
        for_each_frag_type!(spawn);
        State { world }
    }

    /// `data *= 2` over the `Data` storage.
    pub fn run(s: &mut State) {
        for d in s.world.values_mut::<Data>().values_mut() {
            d.0 *= 2.0;
        }
    }
}

/// ecs_bench_suite `add_remove_component`.
pub mod add_remove {
    use super::*;
    use crate::components::suite::*;

    #[world]
    struct Pair {
        a: Storage<SA>,
        b: Storage<SB>,
    }

    /// A world with `n` `SA` entities and their ids.
    pub struct State {
        world: Pair,
        entities: Vec<Entity>,
    }

    /// Spawns `n` `(SA(0.0),)` entities.
    pub fn setup(n: usize) -> State {
        let mut world = Pair::new();
        let entities = (0..n)
            .map(|_| {
                let e = world.spawn();
                world.insert(e, SA(0.0)).expect("alive");
                e
            })
            .collect();
        State { world, entities }
    }

    /// Insert `SB` into every entity, then remove it from every entity.
    pub fn run(s: &mut State) {
        for &e in &s.entities {
            s.world.insert(e, SB(0.0)).expect("alive");
        }
        for &e in &s.entities {
            s.world.remove::<SB>(e);
        }
    }
}

/// `serde_3deep`: save a world of the [`saved`] family to postcard bytes and load it into a
/// fresh world (same entity ids, groups rebuilt).
pub mod serde_3deep {
    use crate::components::saved::{self, A, B, C, Order};
    use sparse_groups::{Entity, GroupSpec, Storage, World, world};

    /// The family's world: `<A, B>` ⊃ `<A, B, C>`, saved and loaded by its derives.
    #[world]
    #[derive(serde::Serialize, serde::Deserialize)]
    #[group(A, B)]
    #[group(A, B, C)]
    pub struct Saved {
        a: Storage<A>,
        b: Storage<B>,
        c: Storage<C>,
    }

    /// A populated world, its entities in index order, and its snapshot (what `load`
    /// reads).
    pub struct State {
        /// The world `save` writes.
        pub world: Saved,
        /// Entity `i` of the population.
        pub entities: Vec<Entity>,
        /// `save(world)`.
        pub bytes: Vec<u8>,
    }

    /// Spawns the `n` entities one by one in index order with their components (see
    /// [`saved::components`]); `spawn_with` enters each one's groups.
    pub fn setup(n: usize, order: Order) -> State {
        let mut world = Saved::new();
        let entities = (0..n)
            .map(|i| match saved::components(order, n, i) {
                (a, Some(b), Some(c)) => world.spawn_with((a, b, c)),
                (a, Some(b), None) => world.spawn_with((a, b)),
                (a, None, None) => world.spawn_with((a,)),
                (a, None, Some(c)) => world.spawn_with((a, c)),
            })
            .collect();
        let bytes = save(&world);
        State {
            world,
            entities,
            bytes,
        }
    }

    /// The world's postcard snapshot (the derive's `Serialize`).
    pub fn save(world: &Saved) -> Vec<u8> {
        postcard::to_stdvec(world).expect("a world serializes")
    }

    /// A fresh world from a snapshot (the derive's `Deserialize`).
    pub fn load(bytes: &[u8]) -> Saved {
        postcard::from_bytes(bytes).expect("its snapshot loads")
    }

    /// Bench body: `save(world)`.
    pub fn run_save(s: &State) -> Vec<u8> {
        save(&s.world)
    }

    /// Bench body: `load(bytes)`.
    pub fn run_load(s: &State) -> Saved {
        load(&s.bytes)
    }

    /// Each entity's components in `world` (test helper).
    pub fn components_of(world: &Saved, entities: &[Entity]) -> Vec<(A, Option<B>, Option<C>)> {
        entities
            .iter()
            .map(|&e| {
                (
                    *world.storage::<A>().get(e).expect("every entity has A"),
                    world.storage::<B>().get(e).copied(),
                    world.storage::<C>().get(e).copied(),
                )
            })
            .collect()
    }

    /// `(|<A, B>|, |<A, B, C>|)` and the world's consistency check (test helper).
    pub fn groups(world: &Saved) -> ((usize, usize), Result<(), String>) {
        (
            (world.group_len::<(A, B)>(), world.group_len::<(A, B, C)>()),
            world.check(),
        )
    }

    /// The same family in the run-time [`World`]: `world.snapshot::<(A, B, C)>()` and
    /// `world.load::<(A, B, C), _>(..)`.
    pub mod dynamic {
        use super::*;

        /// The run-time world's groups, as [`Saved`] declares them.
        pub fn new_world() -> World {
            World::with_groups([GroupSpec::of::<(A, B)>(), GroupSpec::of::<(A, B, C)>()])
                .expect("a valid layout")
        }

        /// A populated run-time world, its entities and its snapshot.
        pub struct State {
            /// The world `save` writes.
            pub world: World,
            /// Entity `i` of the population.
            pub entities: Vec<Entity>,
            /// `save(world)`.
            pub bytes: Vec<u8>,
        }

        /// The population of [`super::setup`], spawned the same way.
        pub fn setup(n: usize, order: Order) -> State {
            let mut world = new_world();
            let entities = (0..n)
                .map(|i| match saved::components(order, n, i) {
                    (a, Some(b), Some(c)) => world.spawn_with((a, b, c)),
                    (a, Some(b), None) => world.spawn_with((a, b)),
                    (a, None, None) => world.spawn_with((a,)),
                    (a, None, Some(c)) => world.spawn_with((a, c)),
                })
                .collect();
            let bytes = save(&world);
            State {
                world,
                entities,
                bytes,
            }
        }

        /// `world.snapshot::<(A, B, C)>()` to postcard.
        pub fn save(world: &World) -> Vec<u8> {
            postcard::to_stdvec(&world.snapshot::<(A, B, C)>()).expect("a world serializes")
        }

        /// A fresh world with the groups, then `load::<(A, B, C), _>`.
        pub fn load(bytes: &[u8]) -> World {
            let mut world = new_world();
            world
                .load::<(A, B, C), _>(&mut postcard::Deserializer::from_bytes(bytes))
                .expect("its snapshot loads");
            world
        }

        /// Bench body: `save(world)`.
        pub fn run_save(s: &State) -> Vec<u8> {
            save(&s.world)
        }

        /// Bench body: `load(bytes)`.
        pub fn run_load(s: &State) -> World {
            load(&s.bytes)
        }

        /// Each entity's components in `world` (test helper).
        pub fn components_of(world: &World, entities: &[Entity]) -> Vec<(A, Option<B>, Option<C>)> {
            entities
                .iter()
                .map(|&e| {
                    (
                        *world.get::<A>(e).expect("every entity has A"),
                        world.get::<B>(e).copied(),
                        world.get::<C>(e).copied(),
                    )
                })
                .collect()
        }

        /// `(|<A, B>|, |<A, B, C>|)` and the world's consistency check (test helper).
        pub fn groups(world: &World) -> ((usize, usize), Result<(), String>) {
            (
                (
                    world.group_len::<(A, B)>().expect("declared"),
                    world.group_len::<(A, B, C)>().expect("declared"),
                ),
                world.check(),
            )
        }
    }
}

/// `view_overlap`: `a += b` over `(&mut A, &B)` in a world with no group, where `A` and
/// `B` each have `n` entities and share `n / 2` of them (see [`overlap_has_a`]). The view is
/// driven by one of the two storages (both hold `n`) and looks the other up: half of the
/// lookups miss.
pub mod view_overlap {
    use super::*;

    #[world]
    struct Overlap {
        a: Storage<A>,
        b: Storage<B>,
    }

    /// The world.
    pub struct State {
        world: Overlap,
    }

    /// Spawns the `3n / 2` entities in index order with `spawn_batch`, one batch per
    /// kind: `(A,)` for `0..n/2`, `(A, B)` for `n/2..n`, `(B,)` for `n..3n/2`.
    pub fn setup(n: usize) -> State {
        spawn(n, |_| OVERLAP_B)
    }

    /// The world of [`setup`], entity `i`'s `B` being `b(i)`.
    fn spawn(n: usize, b: impl Fn(usize) -> B) -> State {
        let mut world = Overlap::new();
        world.spawn_batch((0..n / 2).map(|_| (A::default(),)));
        world.spawn_batch((n / 2..n).map(|i| (A::default(), b(i))));
        world.spawn_batch((n..overlap_total(n)).map(|i| (b(i),)));
        State { world }
    }

    /// The view's per-entity loop (`view().for_each`).
    pub fn run(s: &mut State) {
        s.world
            .view::<(&mut A, &B)>()
            .for_each(|_, (a, b)| a_plus_eq_b(a, b));
    }

    /// A `for` loop over the view.
    pub fn run_for(s: &mut State) {
        for (_, (a, b)) in s.world.view::<(&mut A, &B)>() {
            a_plus_eq_b(a, b);
        }
    }

    /// `Σ a · b` over the matches by a read-only view's iterator (`view_ref().iter()`).
    pub fn iter_sum(s: &mut State) -> f32 {
        let view = s.world.view_ref::<(&A, &B)>();
        view.iter().map(|(_, (a, b))| ab_dot(a, b)).sum()
    }

    /// Bench body: [`iter_sum`] (read only; the sum goes to `black_box`).
    pub fn run_iter(s: &mut State) {
        std::hint::black_box(iter_sum(s));
    }

    /// Sum of lane 0 of every `A` (test helper): each run adds 1 per matched entity.
    pub fn a_sum(s: &mut State) -> f64 {
        let a = s.world.storage::<A>().components();
        a.iter().map(|a| f64::from(a.0[0])).sum()
    }

    /// The same population with `B` sorted into an order unrelated to `A`'s: the view
    /// finds no run longer than one, so it looks every entity up (the case where trying
    /// for runs costs and saves nothing).
    pub mod scrambled {
        use super::*;

        /// Spawns as [`super::setup`] does, `B`'s lane 1 holding a hash of the entity's
        /// index, then sorts `B` by it.
        pub fn setup(n: usize) -> State {
            let mut s = spawn(n, |i| {
                let mut b = OVERLAP_B;
                b.0[1] = ((i as u32).wrapping_mul(0x9E37_79B9) >> 8) as f32;
                b
            });
            s.world.sort_by_key::<B, u32>(|b| b.0[1].to_bits());
            s
        }

        /// The same loops: `for_each` and a `for` loop.
        pub use super::{run, run_for};
    }

    /// The same in the run-time [`World`](sparse_groups::World) with no group
    /// (`World::new()`), populated the same way.
    pub mod dynamic {
        use super::*;
        use sparse_groups::World;

        /// The run-time world.
        pub struct State {
            world: World,
        }

        /// Spawns the `3n / 2` entities as [`super::setup`] does.
        pub fn setup(n: usize) -> State {
            let mut world = World::new();
            world.spawn_batch((0..n / 2).map(|_| (A::default(),)));
            world.spawn_batch((n / 2..n).map(|_| (A::default(), OVERLAP_B)));
            world.spawn_batch((n..overlap_total(n)).map(|_| (OVERLAP_B,)));
            State { world }
        }

        /// The view's per-entity loop.
        pub fn run(s: &mut State) {
            s.world
                .view::<(&mut A, &B)>()
                .expect("no conflict")
                .for_each(|_, (a, b)| a_plus_eq_b(a, b));
        }

        /// Sum of lane 0 of every `A` (test helper).
        pub fn a_sum(s: &mut State) -> f64 {
            let a = s.world.storage::<A>().expect("stored").components();
            a.iter().map(|a| f64::from(a.0[0])).sum()
        }
    }
}

/// ecs_bench_suite `heavy_compute`: 1,000 entities, each inverts its matrix 100 times in
/// parallel ([`heavy_compute`]). Group `<Position, Transform>` (the two types the loop
/// writes), as sparsey's.
pub mod heavy {
    use super::*;

    #[world]
    #[group(Position, Transform)]
    struct Heavy {
        transforms: Storage<Transform>,
        positions: Storage<Position>,
        rotations: Storage<Rotation>,
        velocities: Storage<Velocity>,
    }

    /// The world.
    pub struct State {
        world: Heavy,
    }

    /// Spawns `n` [`heavy_bundle`] entities with `spawn_batch`.
    pub fn setup(n: usize) -> State {
        let mut world = Heavy::new();
        world.spawn_batch((0..n).map(|_| heavy_bundle()));
        State { world }
    }

    /// The group's parallel loop, `par_for_each` (rayon's global pool). It cuts the walk
    /// into chunks of 4,096 positions, so 1,000 entities are one chunk: one worker.
    pub fn run(s: &mut State) {
        s.world
            .group::<(Position, Transform)>()
            .par_for_each(|_, (p, t)| heavy_compute(p, t));
    }

    /// The group's slices through rayon's own zip (`par_iter_mut().zip(..)`, the global
    /// pool, rayon's default splitting): a group is plain slices.
    pub fn run_slices(s: &mut State) {
        use rayon::prelude::*;
        let (_, (p, t)) = s.world.group::<(Position, Transform)>().into_slices();
        p.par_iter_mut()
            .zip(t.par_iter_mut())
            .for_each(|(p, t)| heavy_compute(p, t));
    }

    /// The serial loop (`for_each`), for the speed-up.
    pub fn run_serial(s: &mut State) {
        s.world
            .group::<(Position, Transform)>()
            .for_each(|_, (p, t)| heavy_compute(p, t));
    }

    /// Every entity's `(Position, Transform)` (test helper).
    pub fn results(s: &mut State) -> Vec<(Position, Transform)> {
        let group = s.world.group_ref::<(Position, Transform)>();
        group.iter().map(|(_, (p, t))| (*p, *t)).collect()
    }

    /// The same in the run-time [`World`](sparse_groups::World), with the group declared by
    /// `World::with_groups`.
    pub mod dynamic {
        use super::*;
        use sparse_groups::{GroupSpec, World};

        /// The run-time world.
        pub struct State {
            world: World,
        }

        /// The group `<Position, Transform>`, then `n` entities by `spawn_batch`.
        pub fn setup(n: usize) -> State {
            let mut world = World::with_groups([GroupSpec::of::<(Position, Transform)>()])
                .expect("a valid layout");
            world.spawn_batch((0..n).map(|_| heavy_bundle()));
            State { world }
        }

        /// The group's `par_for_each`, as [`super::run`].
        pub fn run(s: &mut State) {
            s.world
                .group::<(Position, Transform)>()
                .expect("declared")
                .par_for_each(|_, (p, t)| heavy_compute(p, t));
        }

        /// Every entity's `(Position, Transform)` (test helper).
        pub fn results(s: &mut State) -> Vec<(Position, Transform)> {
            let group = s
                .world
                .group_ref::<(Position, Transform)>()
                .expect("declared");
            group.iter().map(|(_, (p, t))| (*p, *t)).collect()
        }
    }
}

/// ecs_bench_suite `schedule`: the three systems of [`sched`] run at once. Group `<A, B>`
/// (every entity; `ab` walks it densely); `cd` and `ce` are views driven by `D`'s and
/// `E`'s storages, looking `C` up. One `borrow` hands out the three disjoint parts —
/// `GroupMut<(A, B)>`, `View<(&C, &mut D)>`, `View<(&C, &mut E)>` (both views only read
/// `C`) — and `rayon::join` runs them on rayon's global pool.
pub mod schedule {
    use crate::components::sched::{self, A, B, C, D, E};
    use sparse_groups::{GroupMut, Schedule, Storage, View, world};

    #[world]
    #[group(A, B)]
    struct Scheduled {
        a: Storage<A>,
        b: Storage<B>,
        c: Storage<C>,
        d: Storage<D>,
        e: Storage<E>,
    }

    /// The world, and the `Schedule` of [`run_scheduled`], kept from frame to frame as a
    /// game keeps it (with what it measured of its stage).
    pub struct State {
        world: Scheduled,
        schedule: Box<dyn FnMut(&mut Scheduled)>,
    }

    /// Spawns the four kinds of [`sched::PER_KIND`] entities, one `spawn_batch` each.
    pub fn setup() -> State {
        let n = sched::PER_KIND;
        let mut world = Scheduled::new();
        world.spawn_batch((0..n).map(|_| sched::ab_bundle()));
        world.spawn_batch((0..n).map(|_| sched::abc_bundle()));
        world.spawn_batch((0..n).map(|_| sched::abcd_bundle()));
        world.spawn_batch((0..n).map(|_| sched::abce_bundle()));
        let mut schedule = Schedule::new((ab, cd, ce));
        State {
            world,
            schedule: Box::new(move |world| schedule.run(world)),
        }
    }

    /// The three disjoint parts of one `borrow`, as a type (lifetimes elided).
    macro_rules! parts {
        () => {
            (GroupMut<(A, B)>, View<(&C, &mut D)>, View<(&C, &mut E)>)
        };
    }

    /// One `borrow` of the three parts, run at once by `rayon::join`.
    pub fn run(s: &mut State) {
        let (ab, cd, ce) = s.world.borrow::<parts!()>();
        rayon::join(
            || ab.for_each(|_, (a, b)| sched::ab(a, b)),
            || {
                rayon::join(
                    || cd.for_each(|_, (c, d)| sched::cd(c, d)),
                    || ce.for_each(|_, (c, e)| sched::ce(c, e)),
                )
            },
        );
    }

    fn ab(group: GroupMut<'_, (A, B)>) {
        group.for_each(|_, (a, b)| sched::ab(a, b));
    }

    fn cd(view: View<'_, (&C, &mut D)>) {
        view.for_each(|_, (c, d)| sched::cd(c, d));
    }

    fn ce(view: View<'_, (&C, &mut E)>) {
        view.for_each(|_, (c, e)| sched::ce(c, e));
    }

    /// The three systems as functions in a `Schedule`, whose one stage the compiler
    /// decides (the parts are apart): what `run` writes by hand.
    pub fn run_scheduled(s: &mut State) {
        (s.schedule)(&mut s.world);
    }

    /// The same three loops one after the other, for the speed-up.
    pub fn run_serial(s: &mut State) {
        let (ab, cd, ce) = s.world.borrow::<parts!()>();
        ab.for_each(|_, (a, b)| sched::ab(a, b));
        cd.for_each(|_, (c, d)| sched::cd(c, d));
        ce.for_each(|_, (c, e)| sched::ce(c, e));
    }

    /// `(Σ B, Σ D, Σ E)` (test helper).
    pub fn sums(s: &mut State) -> (f64, f64, f64) {
        let w = &s.world;
        (
            sched::total(w.storage::<B>().components(), |b| b.0),
            sched::total(w.storage::<D>().components(), |d| d.0),
            sched::total(w.storage::<E>().components(), |e| e.0),
        )
    }

    /// The same in the run-time [`World`](sparse_groups::World), with the group declared by
    /// `World::with_groups`; `borrow` returns a `Result`.
    pub mod dynamic {
        use super::*;
        use sparse_groups::{GroupSpec, World};

        /// The run-time world.
        pub struct State {
            world: World,
        }

        /// The group `<A, B>`, then the four kinds of entity as [`super::setup`].
        pub fn setup() -> State {
            let n = sched::PER_KIND;
            let mut world =
                World::with_groups([GroupSpec::of::<(A, B)>()]).expect("a valid layout");
            world.spawn_batch((0..n).map(|_| sched::ab_bundle()));
            world.spawn_batch((0..n).map(|_| sched::abc_bundle()));
            world.spawn_batch((0..n).map(|_| sched::abcd_bundle()));
            world.spawn_batch((0..n).map(|_| sched::abce_bundle()));
            State { world }
        }

        /// One `borrow` of the three parts, run at once by `rayon::join`.
        pub fn run(s: &mut State) {
            let (ab, cd, ce) = s.world.borrow::<parts!()>().expect("disjoint parts");
            rayon::join(
                || ab.for_each(|_, (a, b)| sched::ab(a, b)),
                || {
                    rayon::join(
                        || cd.for_each(|_, (c, d)| sched::cd(c, d)),
                        || ce.for_each(|_, (c, e)| sched::ce(c, e)),
                    )
                },
            );
        }

        /// `(Σ B, Σ D, Σ E)` (test helper).
        pub fn sums(s: &mut State) -> (f64, f64, f64) {
            let w = &s.world;
            (
                sched::total(w.storage::<B>().expect("stored").components(), |b| b.0),
                sched::total(w.storage::<D>().expect("stored").components(), |d| d.0),
                sched::total(w.storage::<E>().expect("stored").components(), |e| e.0),
            )
        }
    }
}

/// ecs_bench_suite `serialize_binary`: save 1,000 `(Transform, Position, Rotation,
/// Velocity)` entities to postcard bytes and load them into a fresh world, in one timed
/// run (the bytes and the loaded world are dropped inside it, as ecs_bench_suite did).
pub mod serialize_binary {
    use crate::components::*;
    use sparse_groups::{Entity, Storage, World, world};

    /// The world, no group (as W4's), saved and loaded by its derives.
    #[world]
    #[derive(serde::Serialize, serde::Deserialize)]
    pub struct Saved {
        transforms: Storage<Transform>,
        positions: Storage<Position>,
        rotations: Storage<Rotation>,
        velocities: Storage<Velocity>,
    }

    /// The populated world and its entities.
    pub struct State {
        /// The world `run` saves.
        pub world: Saved,
        /// Entity `i` of the population.
        pub entities: Vec<Entity>,
    }

    /// The `i`-th entity's components, distinct per entity so that a round trip that mixed
    /// entities up would show.
    pub fn bundle(i: usize) -> (Transform, Position, Rotation, Velocity) {
        let (mut t, mut p, mut r, mut v) = transform_bundle();
        let f = i as f32;
        t.0[3][0] = f;
        p.y = f;
        r.z = -f;
        v.x = f + 0.5;
        (t, p, r, v)
    }

    /// Spawns `n` entities with `spawn_batch`.
    pub fn setup(n: usize) -> State {
        let mut world = Saved::new();
        let entities = world.spawn_batch((0..n).map(bundle));
        State { world, entities }
    }

    /// `postcard::to_stdvec(world)`, then `postcard::from_bytes` into a new world.
    pub fn round_trip(world: &Saved) -> Saved {
        let bytes = postcard::to_stdvec(world).expect("a world serializes");
        postcard::from_bytes(&bytes).expect("its snapshot loads")
    }

    /// Bench body: [`round_trip`].
    pub fn run(s: &mut State) {
        std::hint::black_box(round_trip(&s.world));
    }

    /// Each entity's four components in `world` (test helper).
    pub fn components_of(
        world: &Saved,
        entities: &[Entity],
    ) -> Vec<(Transform, Position, Rotation, Velocity)> {
        entities
            .iter()
            .map(|&e| {
                (
                    *world.get::<Transform>(e).expect("has Transform"),
                    *world.get::<Position>(e).expect("has Position"),
                    *world.get::<Rotation>(e).expect("has Rotation"),
                    *world.get::<Velocity>(e).expect("has Velocity"),
                )
            })
            .collect()
    }

    /// The run-time [`World`]: `snapshot::<(Transform, Position, Rotation, Velocity)>()`
    /// and `load` into `World::new()`.
    pub mod dynamic {
        use super::*;

        type Types = (Transform, Position, Rotation, Velocity);

        /// The populated run-time world and its entities.
        pub struct State {
            /// The world `run` saves.
            pub world: World,
            /// Entity `i` of the population.
            pub entities: Vec<Entity>,
        }

        /// Spawns the entities of [`super::setup`] with `spawn_batch`.
        pub fn setup(n: usize) -> State {
            let mut world = World::new();
            let entities = world.spawn_batch((0..n).map(bundle));
            State { world, entities }
        }

        /// The snapshot to postcard, then `load` into a new world.
        pub fn round_trip(world: &World) -> World {
            let bytes =
                postcard::to_stdvec(&world.snapshot::<Types>()).expect("a world serializes");
            let mut loaded = World::new();
            loaded
                .load::<Types, _>(&mut postcard::Deserializer::from_bytes(&bytes))
                .expect("its snapshot loads");
            loaded
        }

        /// Bench body: [`round_trip`].
        pub fn run(s: &mut State) {
            std::hint::black_box(round_trip(&s.world));
        }

        /// Each entity's four components in `world` (test helper).
        pub fn components_of(
            world: &World,
            entities: &[Entity],
        ) -> Vec<(Transform, Position, Rotation, Velocity)> {
            entities
                .iter()
                .map(|&e| {
                    (
                        *world.get::<Transform>(e).expect("has Transform"),
                        *world.get::<Position>(e).expect("has Position"),
                        *world.get::<Rotation>(e).expect("has Rotation"),
                        *world.get::<Velocity>(e).expect("has Velocity"),
                    )
                })
                .collect()
        }
    }
}

/// `changed_1pct`: 1M `Position`s in a storage with change detection (`#[track]`), 1% of
/// them written since the last tick; the `Changed<Position>` view sums them.
pub mod changed {
    use super::*;
    use sparse_groups::Changed;

    #[world]
    #[track(Position)]
    struct Tracked {
        positions: Storage<Position>,
    }

    /// The world, one tick after the spawn, with every `stride`-th position written.
    pub struct State {
        world: Tracked,
    }

    /// Spawns `n` positions, ticks, and writes every `stride`-th through `get_mut`.
    pub fn setup(n: usize, stride: usize) -> State {
        let mut world = Tracked::new();
        let entities = world.spawn_batch((0..n).map(|_| (Position::default(),)));
        world.tick();
        for &e in entities.iter().step_by(stride) {
            world.get_mut::<Position>(e).expect("alive").x += 1.0;
        }
        State { world }
    }

    /// The sum of `x` over the changed positions.
    pub fn run(s: &mut State) -> f32 {
        let mut sum = 0.0;
        s.world
            .view::<(&Position, Changed<Position>)>()
            .for_each(|_, p| sum += p.x);
        sum
    }
}

/// Marking on write against marking on hand-out, in a world tracking `Position`: W1
/// (every position written) through a view of `&mut Position` (stamped as handed out:
/// one stamp for the whole storage, the view covering it) and of `Mut<Position>` (a stamp
/// per write); and a pass writing every 100th position it visits, followed by a
/// `Changed<Position>` view, each way (`&mut` marks every position the pass visits, so the
/// `Changed` view yields them all; `Mut` marks the hundredth written).
pub mod marking {
    use super::*;
    use sparse_groups::{Changed, Mut};

    #[world]
    #[group(Position, Velocity)]
    #[track(Position)]
    struct Tracked {
        positions: Storage<Position>,
        velocities: Storage<Velocity>,
    }

    /// The world, one tick after the spawn.
    pub struct State {
        world: Tracked,
    }

    /// Spawns `n` entities with a zero position and [`VEL`], then ticks.
    pub fn setup(n: usize) -> State {
        let mut world = Tracked::new();
        world.spawn_batch((0..n).map(|_| (Position::default(), VEL)));
        world.tick();
        State { world }
    }

    /// W1 through `&mut Position`, then a tick.
    pub fn run_w1(s: &mut State) {
        s.world
            .view::<(&mut Position, &Velocity)>()
            .for_each(|_, (p, v)| p.add_velocity(v));
        s.world.tick();
    }

    /// W1 through `Mut<Position>`, then a tick.
    pub fn run_w1_guard(s: &mut State) {
        s.world
            .view::<(Mut<Position>, &Velocity)>()
            .for_each(|_, (mut p, v)| p.add_velocity(v));
        s.world.tick();
    }

    /// Whether the sparse pass writes the position at `i`-th of the walk.
    fn writes(i: usize) -> bool {
        i.is_multiple_of(100)
    }

    /// The sparse pass through `&mut Position`, the `Changed` view's sum, a tick.
    pub fn run_sparse(s: &mut State) -> f32 {
        sparse_pass(s, false);
        changed_sum(s)
    }

    /// The sparse pass through `Mut<Position>`, the `Changed` view's sum, a tick.
    pub fn run_sparse_guard(s: &mut State) -> f32 {
        sparse_pass(s, true);
        changed_sum(s)
    }

    /// The sum of `x` over the positions the `Changed` view yields, then a tick.
    fn changed_sum(s: &mut State) -> f32 {
        let mut sum = 0.0;
        s.world
            .view::<(&Position, Changed<Position>)>()
            .for_each(|_, p| sum += p.x);
        s.world.tick();
        sum
    }

    /// How many positions the `Changed` view of the last pass would yield (test helper).
    pub fn changed_count(s: &mut State) -> usize {
        s.world
            .view::<(&Position, Changed<Position>)>()
            .iter()
            .count()
    }

    /// The sparse pass, through `Mut<Position>` if `guard`, else `&mut Position`.
    pub fn sparse_pass(s: &mut State, guard: bool) {
        let mut i = 0;
        if guard {
            s.world
                .view::<(Mut<Position>, &Velocity)>()
                .for_each(|_, (mut p, v)| {
                    if writes(i) {
                        p.add_velocity(v);
                    }
                    i += 1;
                });
        } else {
            s.world
                .view::<(&mut Position, &Velocity)>()
                .for_each(|_, (p, v)| {
                    if writes(i) {
                        p.add_velocity(v);
                    }
                    i += 1;
                });
        }
    }
}

/// The realistic frame ([`crate::components::frame`]) in three layouts of one `#[world]`:
/// no group ([`frame::views`]), the best nested groups the systems allow
/// ([`frame::groups`]) and the two flat groups an EnTT user would declare
/// ([`frame::entt`]). The systems are views in every layout; a view is driven by a group
/// where one covers it (docs/access.md), so the layout is the only difference.
pub mod frame {
    use crate::components::frame::*;
    use sparse_groups::{Entity, Storage, View, With, world};

    /// Creates the `n` entities in order, each with its kind's components (one
    /// `spawn_with` each, as a game spawns them), and returns their handles.
    macro_rules! populate {
        ($world:expr, $n:expr) => {
            populate!($world, $n, Mix::Realistic)
        };
        ($world:expr, $n:expr, $mix:expr) => {{
            let mut entities = Vec::with_capacity($n);
            spawn_each!($n, $mix, |bundle| entities.push($world.spawn_with(bundle)));
            entities
        }};
    }

    /// Every entity's components, read with `get` (test helper).
    macro_rules! rows {
        ($s:expr) => {
            $s.entities
                .iter()
                .map(|&e| Row {
                    pos: $s.world.get::<Pos>(e).copied(),
                    vel: $s.world.get::<Vel>(e).copied(),
                    data: $s.world.get::<Data>(e).copied(),
                    health: $s.world.get::<Health>(e).copied(),
                    damage: $s.world.get::<Damage>(e).copied(),
                    sprite: $s.world.get::<Sprite>(e).copied(),
                    player: $s.world.get::<Player>(e).copied(),
                })
                .collect()
        };
    }

    /// Declares a layout's world (`$(#[$group])*` on the seven storages), its `State`,
    /// `setup` and `rows`.
    macro_rules! layout {
        ($(#[$group:meta])*) => {
            #[world]
            $(#[$group])*
            struct Frame {
                positions: Storage<Pos>,
                velocities: Storage<Vel>,
                data: Storage<Data>,
                healths: Storage<Health>,
                damages: Storage<Damage>,
                sprites: Storage<Sprite>,
                players: Storage<Player>,
            }

            /// The world, its entities and the frame buffer.
            pub struct State {
                world: Frame,
                entities: Vec<Entity>,
                /// What the last frame drew.
                pub fb: FrameBuffer,
            }

            /// Creates the `n` entities of the realistic frame in order.
            pub fn setup(n: usize) -> State {
                setup_in(n, Mix::Realistic)
            }

            /// Creates the `n` entities of a frame of `mix` in order.
            pub fn setup_in(n: usize, mix: Mix) -> State {
                let mut world = Frame::new();
                let entities = populate!(world, n, mix);
                prepare(&mut world);
                State {
                    world,
                    entities,
                    fb: FrameBuffer::default(),
                }
            }

            /// Every entity's components (test helper).
            pub fn rows(s: &mut State) -> Vec<Row> {
                rows!(s)
            }

            /// Whether each system's view is a loop over plain slices, in system order
            /// (test helper, and what the bench's notes cite).
            pub fn dense_systems(s: &mut State) -> [bool; 7] {
                dense_systems!(s)
            }
        };
    }

    /// The seven systems as plain views, one function each: what the no-group and EnTT
    /// layouts run.
    macro_rules! plain_systems {
        () => {
            /// The systems in frame order (a frame runs each once).
            pub const SYSTEMS: [fn(&mut State); 7] = [
                |s| {
                    s.world
                        .view::<(&mut Pos, &Vel)>()
                        .for_each(|_, (p, v)| movement(p, v))
                },
                |s| s.world.view::<(&mut Data,)>().for_each(|_, (d,)| data(d)),
                |s| {
                    s.world
                        .view::<(&mut Vel, &Pos, &Data)>()
                        .for_each(|_, (v, p, d)| more_complex(v, p, d))
                },
                |s| {
                    s.world
                        .view::<(&mut Health,)>()
                        .for_each(|_, (h,)| health(h))
                },
                |s| {
                    s.world
                        .view::<(&mut Health, &Damage)>()
                        .for_each(|_, (h, d)| damage(h, d))
                },
                |s| {
                    s.world
                        .view::<(&mut Sprite, &Player, &Health)>()
                        .for_each(|_, (sp, p, h)| sprite(sp, p, h))
                },
                |s| {
                    let fb = &mut s.fb;
                    fb.clear();
                    s.world
                        .view::<(&Pos, &Sprite)>()
                        .for_each(|_, (p, sp)| render(fb, p, sp));
                },
            ];

            /// One frame.
            pub fn run(s: &mut State) {
                run_systems(s, &SYSTEMS);
            }
        };
    }

    /// Whether each of [`plain_systems`]' views is dense.
    macro_rules! plain_dense {
        ($s:expr) => {{
            let w = &mut $s.world;
            [
                w.view::<(&mut Pos, &Vel)>().is_dense(),
                w.view::<(&mut Data,)>().is_dense(),
                w.view::<(&mut Vel, &Pos, &Data)>().is_dense(),
                w.view::<(&mut Health,)>().is_dense(),
                w.view::<(&mut Health, &Damage)>().is_dense(),
                w.view::<(&mut Sprite, &Player, &Health)>().is_dense(),
                w.view::<(&Pos, &Sprite)>().is_dense(),
            ]
        }};
    }

    /// The seven systems through the view types `Movement`, `Thinking`, `Hurt`, `Drawn` and
    /// `Render` the module declares (naming the `With` types its groups need), with
    /// `data` and `health` as one-type views: what the grouped layouts run.
    macro_rules! aliased_systems {
        () => {
            /// The systems in frame order (a frame runs each once).
            pub const SYSTEMS: [fn(&mut State); 7] = [
                |s| {
                    s.world
                        .borrow::<Movement<'_>>()
                        .for_each(|_, (p, v)| movement(p, v))
                },
                |s| s.world.view::<(&mut Data,)>().for_each(|_, (d,)| data(d)),
                |s| {
                    s.world
                        .borrow::<Thinking<'_>>()
                        .for_each(|_, (v, p, d)| more_complex(v, p, d))
                },
                |s| {
                    s.world
                        .view::<(&mut Health,)>()
                        .for_each(|_, (h,)| health(h))
                },
                |s| {
                    s.world
                        .borrow::<Hurt<'_>>()
                        .for_each(|_, (h, d)| damage(h, d))
                },
                |s| {
                    s.world
                        .borrow::<Drawn<'_>>()
                        .for_each(|_, (sp, p, h)| sprite(sp, p, h))
                },
                |s| {
                    let fb = &mut s.fb;
                    fb.clear();
                    s.world
                        .borrow::<Render<'_>>()
                        .for_each(|_, (p, sp)| render(fb, p, sp));
                },
            ];

            /// One frame.
            pub fn run(s: &mut State) {
                run_systems(s, &SYSTEMS);
            }

            /// The render system with [`render_branch_free`] (`frame_systems
            /// branch-free`). Written out rather than shared with [`SYSTEMS`]' through a
            /// function generic over the drawing, as the raw and bevy ports share theirs:
            /// here that function cost the frame 2.0% more instructions (`frame_advised`).
            pub const RENDER_BRANCH_FREE: fn(&mut State) = |s| {
                let fb = &mut s.fb;
                fb.clear();
                s.world
                    .borrow::<Render<'_>>()
                    .for_each(|_, (p, sp)| render_branch_free(fb, p, sp));
            };
        };
    }

    /// Whether each of [`aliased_systems`]' views is dense.
    macro_rules! aliased_dense {
        ($s:expr) => {{
            let w = &mut $s.world;
            [
                w.borrow::<Movement<'_>>().is_dense(),
                w.view::<(&mut Data,)>().is_dense(),
                w.borrow::<Thinking<'_>>().is_dense(),
                w.view::<(&mut Health,)>().is_dense(),
                w.borrow::<Hurt<'_>>().is_dense(),
                w.borrow::<Drawn<'_>>().is_dense(),
                w.borrow::<Render<'_>>().is_dense(),
            ]
        }};
    }

    /// No group: each view walks its smallest storage and looks the others up (the
    /// storages were filled in entity order, so the lookups go forward through memory).
    pub mod views {
        use super::*;

        macro_rules! dense_systems {
            ($s:expr) => {
                plain_dense!($s)
            };
        }
        layout!();
        plain_systems!();

        /// Nothing to prepare.
        fn prepare(_: &mut Frame) {}

        /// The layout advice for [`SYSTEMS`] as a schedule's systems, on this layout's world
        /// of `n` entities: what a user of these views is told to write
        /// ([`super::groups::setup_advised`] is it,
        /// `tests::the_advised_frame_is_what_the_advice_prints`).
        pub fn advice(n: usize) -> sparse_groups::Advice {
            advice_in(n, Mix::Realistic)
        }

        /// [`advice`] on the entities of a frame of `mix`.
        pub fn advice_in(n: usize, mix: Mix) -> sparse_groups::Advice {
            use sparse_groups::Schedule;
            fn movement_system(view: View<'_, (&mut Pos, &Vel)>) {
                view.for_each(|_, (p, v)| movement(p, v));
            }
            fn data_system(view: View<'_, (&mut Data,)>) {
                view.for_each(|_, (d,)| data(d));
            }
            fn more_complex_system(view: View<'_, (&mut Vel, &Pos, &Data)>) {
                view.for_each(|_, (v, p, d)| more_complex(v, p, d));
            }
            fn health_system(view: View<'_, (&mut Health,)>) {
                view.for_each(|_, (h,)| health(h));
            }
            fn damage_system(view: View<'_, (&mut Health, &Damage)>) {
                view.for_each(|_, (h, d)| damage(h, d));
            }
            fn sprite_system(view: View<'_, (&mut Sprite, &Player, &Health)>) {
                view.for_each(|_, (sp, p, h)| sprite(sp, p, h));
            }
            fn render_system(view: View<'_, (&Pos, &Sprite)>) {
                let mut fb = FrameBuffer::default();
                view.for_each(|_, (p, sp)| render(&mut fb, p, sp));
            }
            let s = setup_in(n, mix);
            Schedule::new((
                movement_system,
                data_system,
                more_complex_system,
                health_system,
                damage_system,
                sprite_system,
                render_system,
            ))
            .advise(&s.world)
        }
    }

    /// What an EnTT user writes first: an owning group for each hot pair,
    /// `<Pos, Vel>` and `<Health, Damage>`, views for the rest.
    pub mod entt {
        use super::*;

        macro_rules! dense_systems {
            ($s:expr) => {
                plain_dense!($s)
            };
        }
        layout!(#[group(Pos, Vel)] #[group(Health, Damage)]);
        plain_systems!();

        /// Nothing to prepare.
        fn prepare(_: &mut Frame) {}
    }

    /// The best layout the nesting rule allows for these systems: two chains,
    /// `<Pos, Sprite>` ⊂ `<Pos, Sprite, Vel>` ⊂ `<Pos, Sprite, Vel, Data>` and
    /// `<Health, Player>` ⊂ `<Health, Player, Damage>`. Every entity with `Vel` has a
    /// `Sprite`, and every one with `Damage` a `Player`, so a system names the group's
    /// other types with `With` and its view is the group, walked as slices. Only the
    /// sprite system (`Sprite` is in the other chain) looks a component up.
    pub mod groups {
        use super::*;

        /// The views of [`run`], in order.
        type Movement<'w> = View<'w, (&'w mut Pos, &'w Vel), With<Sprite>>;
        type Thinking<'w> = View<'w, (&'w mut Vel, &'w Pos, &'w Data), With<Sprite>>;
        type Hurt<'w> = View<'w, (&'w mut Health, &'w Damage), With<Player>>;
        type Drawn<'w> = View<'w, (&'w mut Sprite, &'w Player, &'w Health)>;
        type Render<'w> = View<'w, (&'w Pos, &'w Sprite)>;

        macro_rules! dense_systems {
            ($s:expr) => {
                aliased_dense!($s)
            };
        }
        layout!(
            #[group(Pos, Sprite)]
            #[group(Pos, Sprite, Vel)]
            #[group(Pos, Sprite, Vel, Data)]
            #[group(Health, Player)]
            #[group(Health, Player, Damage)]
        );

        /// Three sorts, once (the frame changes no structure; a game would sort again
        /// after its spawns), each a forward walk through memory for a system:
        /// - `<Pos, Sprite>` (layer by layer) by position, row by row, as a game sorts
        ///   what it draws: entering the nested groups swapped members across each layer,
        ///   so the render system's neighbours in the walk hit scattered cells of the
        ///   buffer;
        /// - `<Health, Player>` in the order of the `Sprite` storage, which the other chain
        ///   owns: the sprite system walks that group and looks its sprites up;
        /// - `<Pos, Sprite>` again, in the order of the `Player` storage: within each
        ///   layer the entities with a `Player` come first, so the heroes, which share the
        ///   innermost layer with the particles, are one run of the sprite system's
        ///   lookups too (a sort in another storage's order keeps the rest in order).
        fn prepare(world: &mut Frame) {
            world.sort_group_by_radix_key::<(Pos, Sprite), _>(|(p, _)| {
                (u64::from(p.y as u32) << 32) | u64::from(p.x as u32)
            });
            world.sort_group_as::<(Health, Player), Sprite>();
            world.sort_group_as::<(Pos, Sprite), Player>();
        }

        /// The world [`super::views::advice`] describes for the views a user writes first:
        /// these groups and the four sorts the advice gives (each chain by entity, which
        /// is spawn order; then `<Health, Player>` in the `Sprite` storage's order and
        /// `<Pos, Sprite>` in the `Health` storage's, which puts the sprite system's
        /// lookups in runs). Its systems are [`SYSTEMS`], whose views name what the advice
        /// says to name.
        pub fn setup_advised(n: usize) -> State {
            let mut world = Frame::new();
            let entities = populate!(world, n);
            world.sort_group_by_entity::<(Pos, Sprite)>();
            world.sort_group_by_entity::<(Health, Player)>();
            world.sort_group_as::<(Health, Player), Sprite>();
            world.sort_group_as::<(Pos, Sprite), Health>();
            State {
                world,
                entities,
                fb: FrameBuffer::default(),
            }
        }

        aliased_systems!();
    }

    /// The second frame's mix ([`Mix::Halves`]: half the entities hold all seven
    /// components, the rest `Pos`, `Vel` and `Sprite`, a few lack `Data`) laid out as
    /// [`views::advice_in`] says for it: one chain, `<Pos, Vel, Sprite>` ⊂ `<Pos, Vel,
    /// Sprite, Health, Damage, Player>` ⊂ `<…, Data>`, every view naming the chain's
    /// other types its matches all hold, so that every system walks slices
    /// (`tests::the_advised_halves_frame_is_what_the_advice_prints`).
    pub mod halves {
        use super::*;

        type Movement<'w> = View<'w, (&'w mut Pos, &'w Vel), With<Sprite>>;
        type Thinking<'w> = View<
            'w,
            (&'w mut Vel, &'w Pos, &'w Data),
            (With<Health>, With<Damage>, With<Sprite>, With<Player>),
        >;
        type Hurt<'w> = View<
            'w,
            (&'w mut Health, &'w Damage),
            (With<Pos>, With<Vel>, With<Sprite>, With<Player>),
        >;
        type Drawn<'w> = View<
            'w,
            (&'w mut Sprite, &'w Player, &'w Health),
            (With<Pos>, With<Vel>, With<Damage>),
        >;
        type Render<'w> = View<'w, (&'w Pos, &'w Sprite), With<Vel>>;

        macro_rules! dense_systems {
            ($s:expr) => {
                aliased_dense!($s)
            };
        }
        layout!(
            #[group(Pos, Vel, Sprite)]
            #[group(Pos, Vel, Sprite, Health, Damage, Player)]
            #[group(Pos, Vel, Sprite, Health, Damage, Player, Data)]
        );

        /// The advice's one sort: the chain in entity order (every walk is dense).
        fn prepare(world: &mut Frame) {
            world.sort_group_by_entity::<(Pos, Vel, Sprite)>();
        }

        /// [`setup_in`] for [`Mix::Halves`], then what an expert writes by hand instead of
        /// the entity order: the outer group (layer by layer) in screen order, as the
        /// realistic frame's `groups` port sorts what it draws.
        pub fn setup_sorted(n: usize) -> State {
            let mut s = setup_in(n, Mix::Halves);
            s.world
                .sort_group_by_radix_key::<(Pos, Vel, Sprite), _>(|(p, _, _)| {
                    (u64::from(p.y as u32) << 32) | u64::from(p.x as u32)
                });
            s
        }

        aliased_systems!();
    }

    /// The seven systems of [`groups`] as functions in a
    /// [`Schedule`](sparse_groups::Schedule), the frame buffer a resource: the compiler puts
    /// `movement`, `data` and `health` in stage 0, `more_complex` and `damage` in stage 1,
    /// `sprite` in 2 and `render` in 3 (`tests::frame_scheduled_equals_in_order_and_bevy`).
    /// [`run_in_order`](scheduled::run_in_order) calls the same functions one after the
    /// other.
    pub mod scheduled {
        use super::*;
        use sparse_groups::{ResMut, Resource, Schedule, Threads};

        #[world]
        #[group(Pos, Sprite)]
        #[group(Pos, Sprite, Vel)]
        #[group(Pos, Sprite, Vel, Data)]
        #[group(Health, Player)]
        #[group(Health, Player, Damage)]
        struct Frame {
            positions: Storage<Pos>,
            velocities: Storage<Vel>,
            data: Storage<Data>,
            healths: Storage<Health>,
            damages: Storage<Damage>,
            sprites: Storage<Sprite>,
            players: Storage<Player>,
            fb: Resource<FrameBuffer>,
        }

        /// The frame's schedule.
        macro_rules! frame {
            () => {
                Schedule::new((
                    movement_system,
                    data_system,
                    more_complex_system,
                    health_system,
                    damage_system,
                    sprite_system,
                    render_system,
                ))
            };
        }

        /// The world and its entities, and the frame's `Schedule`, kept from frame to
        /// frame as a game keeps it (with what it measured of its stages).
        pub struct State {
            world: Frame,
            entities: Vec<Entity>,
            schedule: Box<dyn FnMut(&mut Frame)>,
        }

        /// Creates the `n` entities in order and sorts the groups as [`groups`] does; the
        /// schedule runs its stages as it measures best ([`Threads::Measured`]).
        pub fn setup(n: usize) -> State {
            setup_with(n, Threads::Measured)
        }

        /// [`setup`], the schedule's stages run as `threads` says.
        pub fn setup_with(n: usize, threads: Threads) -> State {
            let mut world = Frame::new();
            let entities = populate!(world, n);
            world.sort_group_by_radix_key::<(Pos, Sprite), _>(|(p, _)| {
                (u64::from(p.y as u32) << 32) | u64::from(p.x as u32)
            });
            world.sort_group_as::<(Health, Player), Sprite>();
            world.sort_group_as::<(Pos, Sprite), Player>();
            let mut schedule = frame!();
            schedule.set_threads(threads);
            State {
                world,
                entities,
                schedule: Box::new(move |world| schedule.run(world)),
            }
        }

        fn movement_system(view: View<'_, (&mut Pos, &Vel), With<Sprite>>) {
            view.for_each(|_, (p, v)| movement(p, v));
        }

        fn data_system(view: View<'_, &mut Data>) {
            view.for_each(|_, d| data(d));
        }

        fn more_complex_system(view: View<'_, (&mut Vel, &Pos, &Data), With<Sprite>>) {
            view.for_each(|_, (v, p, d)| more_complex(v, p, d));
        }

        fn health_system(view: View<'_, &mut Health>) {
            view.for_each(|_, h| health(h));
        }

        fn damage_system(view: View<'_, (&mut Health, &Damage), With<Player>>) {
            view.for_each(|_, (h, d)| damage(h, d));
        }

        fn sprite_system(view: View<'_, (&mut Sprite, &Player, &Health)>) {
            view.for_each(|_, (sp, p, h)| sprite(sp, p, h));
        }

        fn render_system(view: View<'_, (&Pos, &Sprite)>, mut fb: ResMut<'_, FrameBuffer>) {
            let fb = &mut *fb;
            fb.clear();
            view.for_each(|_, (p, sp)| render(fb, p, sp));
        }

        /// One frame through the schedule.
        pub fn run(s: &mut State) {
            (s.schedule)(&mut s.world);
        }

        /// One frame, the same functions called one after the other.
        pub fn run_in_order(s: &mut State) {
            let w = &mut s.world;
            movement_system(w.borrow());
            data_system(w.borrow());
            more_complex_system(w.borrow());
            health_system(w.borrow());
            damage_system(w.borrow());
            sprite_system(w.borrow());
            let (view, fb) = w.borrow();
            render_system(view, fb);
        }

        /// The stage of each system (test helper).
        pub fn stages() -> Vec<usize> {
            frame!().stages::<Frame>().of_systems().to_vec()
        }

        /// Every entity's components (test helper).
        pub fn rows(s: &mut State) -> Vec<Row> {
            rows!(s)
        }

        /// The frame buffer's cells (test helper).
        pub fn cells(s: &State) -> &[u32] {
            &s.world.resource::<FrameBuffer>().cells
        }
    }
}
