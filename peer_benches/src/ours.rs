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

    /// Spawns `n` entities populated as [`w2_has_c`] / [`w2_has_d`] say.
    pub fn setup(n: usize) -> State {
        let mut world = Nested::new();
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

/// `serde_3deep`: save a world of the [`saved`](crate::components::saved) family to postcard
/// bytes and load it into a fresh world (same entity ids, groups rebuilt).
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
