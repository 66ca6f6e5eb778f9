//! sparsey 0.13: sparse sets with owning groups.
//!
//! Per sparsey's README, iteration-heavy workloads declare a group
//! (`World::builder().add_group::<(A, B)>()`) so the grouped components are
//! packed at the front of their storages and `for_each` walks dense arrays.
//! Spawning uses `World::extend`, adding/removing `World::insert` /
//! `World::delete` (documented as faster than `remove` when the removed value
//! is not needed).

use crate::components::suite::{SA, SB};
use crate::components::*;
use sparsey::{Entity, World};

/// W1: group `<Position, Velocity>`, `for_each` over the group.
pub mod w1 {
    use super::*;

    /// A world with `n` grouped `(Position, Velocity)` entities.
    pub struct State {
        /// The world.
        pub world: World,
    }

    /// Builds the world and spawns `n` entities.
    pub fn setup(n: usize) -> State {
        let mut world = World::builder().add_group::<(Position, Velocity)>().build();
        world.extend((0..n).map(|_| (Position::default(), VEL)));
        State { world }
    }

    /// `pos += vel` via `World::for_each` (dense: the query is a group).
    pub fn run(s: &mut State) {
        s.world
            .for_each::<(&mut Position, &Velocity)>(|(p, v)| p.add_velocity(v));
    }

    /// The same loop over the group's component slices (`QueryAll::slice`).
    pub fn run_slice(s: &mut State) {
        let mut query = s.world.query_all::<(&mut Position, &Velocity)>();
        let (pos, vel) = query.slice().expect("(Position, Velocity) is a group");
        for (p, v) in pos.iter_mut().zip(vel) {
            p.add_velocity(v);
        }
    }

    /// The same loop in parallel: `World::par_for_each` (rayon's global pool; dense over
    /// the group).
    pub fn run_par(s: &mut State) {
        s.world
            .par_for_each::<(&mut Position, &Velocity)>(|(p, v)| p.add_velocity(v));
    }

    /// Whether the `(Position, Velocity)` query iterates densely (test helper).
    pub fn is_dense(s: &mut State) -> bool {
        s.world
            .query_all::<(&mut Position, &Velocity)>()
            .iter()
            .is_dense()
    }

    /// Sum of every position coordinate (test helper).
    pub fn checksum(s: &mut State) -> f64 {
        let mut sum = 0.0;
        s.world.for_each::<&Position>(|p| {
            sum += f64::from(p.x) + f64::from(p.y) + f64::from(p.z);
        });
        sum
    }

    /// The same world without a group (`register` only, as sparsey's README example): the
    /// query iterates one storage and looks the other up (sparse iteration).
    pub fn setup_nogroup(n: usize) -> State {
        let mut world = World::builder()
            .register::<Position>()
            .register::<Velocity>()
            .build();
        world.extend((0..n).map(|_| (Position::default(), VEL)));
        State { world }
    }
}

/// W2: nested groups `<A, B>` ⊂ `<A, B, C>`, `D` ungrouped; iterate `<A, B, C>`.
pub mod w2 {
    use super::*;

    /// A world with the W2 population.
    pub struct State {
        /// The world.
        pub world: World,
    }

    /// Spawns `n` entities: `(A, B, C, D)` for the first quarter, `(A, B, C)`
    /// for the second, `(A, B)` for the second half.
    pub fn setup(n: usize) -> State {
        let mut world = World::builder()
            .add_group::<(A, B)>()
            .add_group::<(A, B, C)>()
            .register::<D>()
            .build();
        // Chunk bounds match `w2_has_d` / `w2_has_c`.
        let (d_end, c_end) = (n / 4, n / 2);
        world.extend((0..d_end).map(|_| (A::default(), W2_B, W2_C, W2_D)));
        world.extend((d_end..c_end).map(|_| (A::default(), W2_B, W2_C)));
        world.extend((c_end..n).map(|_| (A::default(), W2_B)));
        State { world }
    }

    /// The same population in a world without groups (`register` only): the query
    /// iterates one storage and looks the others up.
    pub fn setup_nogroup(n: usize) -> State {
        let mut world = World::builder()
            .register::<A>()
            .register::<B>()
            .register::<C>()
            .register::<D>()
            .build();
        let (d_end, c_end) = (n / 4, n / 2);
        world.extend((0..d_end).map(|_| (A::default(), W2_B, W2_C, W2_D)));
        world.extend((d_end..c_end).map(|_| (A::default(), W2_B, W2_C)));
        world.extend((c_end..n).map(|_| (A::default(), W2_B)));
        State { world }
    }

    /// `a = b + c` via `World::for_each` over the `<A, B, C>` group.
    pub fn run(s: &mut State) {
        s.world
            .for_each::<(&mut A, &B, &C)>(|(a, b, c)| a_eq_b_plus_c(a, b, c));
    }

    /// The same loop over the group's component slices.
    pub fn run_slice(s: &mut State) {
        let mut query = s.world.query_all::<(&mut A, &B, &C)>();
        let (a, b, c) = query.slice().expect("(A, B, C) is a group");
        for ((a, b), c) in a.iter_mut().zip(b).zip(c) {
            a_eq_b_plus_c(a, b, c);
        }
    }

    /// The same loop in parallel: `World::par_for_each` (rayon's global pool).
    pub fn run_par(s: &mut State) {
        s.world
            .par_for_each::<(&mut A, &B, &C)>(|(a, b, c)| a_eq_b_plus_c(a, b, c));
    }

    /// Whether the `(A, B, C)` query iterates densely (test helper).
    pub fn is_dense(s: &mut State) -> bool {
        s.world.query_all::<(&A, &B, &C)>().iter().is_dense()
    }

    /// Whether its parallel iterator is the dense one (test helper).
    pub fn par_is_dense(s: &mut State) -> bool {
        s.world
            .query_all::<(&mut A, &B, &C)>()
            .par_iter()
            .is_dense()
    }

    /// Entities whose `A` holds [`W2_A_AFTER`] (test helper).
    pub fn count_updated(s: &mut State) -> usize {
        let mut count = 0;
        s.world
            .for_each::<&A>(|a| count += usize::from(*a == W2_A_AFTER));
        count
    }
}

/// W3: add `C` to and remove it from `n` `(A, B)` entities, groups `<A, B>` ⊂ `<A, B, C>`.
pub mod w3 {
    use super::*;

    /// A world with `n` `(A, B)` entities and their ids.
    pub struct State {
        world: World,
        entities: Vec<Entity>,
    }

    /// Builds the grouped world and spawns `n` `(A, B)` entities.
    pub fn setup(n: usize) -> State {
        let mut world = World::builder()
            .add_group::<(A, B)>()
            .add_group::<(A, B, C)>()
            .build();
        let entities = world.extend((0..n).map(|_| (A::default(), W2_B))).to_vec();
        State { world, entities }
    }

    /// Insert `C` into every entity, then delete it from every entity.
    pub fn run(s: &mut State) {
        for &e in &s.entities {
            s.world.insert(e, (W2_C,));
        }
        for &e in &s.entities {
            s.world.delete::<(C,)>(e);
        }
    }
}

/// W5: `pos += vel` over the entities without `Frozen`. sparsey expresses the exclusion
/// with its groups: in the family `<Position, Velocity>` ⊂ `<Position, Velocity, Frozen>`
/// the frozen entities are packed at the front and the moving ones right after them, so
/// `query_all::<(&mut Position, &Velocity)>().exclude::<&Frozen>()` iterates that dense
/// range (`child.len..parent.len`) with no per-entity test.
pub mod w5 {
    use super::*;

    /// A world with the W5 population.
    pub struct State {
        /// The world.
        pub world: World,
    }

    /// Builds the grouped world and creates the `n` entities in index order, frozen ones
    /// as [`w5_is_frozen`] says.
    pub fn setup(n: usize) -> State {
        let mut world = World::builder()
            .add_group::<(Position, Velocity)>()
            .add_group::<(Position, Velocity, Frozen)>()
            .build();
        for i in 0..n {
            if w5_is_frozen(i) {
                world.create((Position::default(), VEL, Frozen));
            } else {
                world.create((Position::default(), VEL));
            }
        }
        State { world }
    }

    /// The same population in a world without groups (`register` only): the excluding
    /// query iterates a storage, looks the other up and tests `Frozen` per entity.
    pub fn setup_nogroup(n: usize) -> State {
        let mut world = World::builder()
            .register::<Position>()
            .register::<Velocity>()
            .register::<Frozen>()
            .build();
        for i in 0..n {
            if w5_is_frozen(i) {
                world.create((Position::default(), VEL, Frozen));
            } else {
                world.create((Position::default(), VEL));
            }
        }
        State { world }
    }

    /// `pos += vel` via `QueryAll::for_each` with the `Frozen` exclusion (dense).
    pub fn run(s: &mut State) {
        s.world
            .query_all::<(&mut Position, &Velocity)>()
            .exclude::<&Frozen>()
            .for_each(|(p, v)| p.add_velocity(v));
    }

    /// Whether the excluding query iterates densely (test helper).
    pub fn is_dense(s: &mut State) -> bool {
        s.world
            .query_all::<(&mut Position, &Velocity)>()
            .exclude::<&Frozen>()
            .iter()
            .is_dense()
    }

    /// Position sums of the moving and the frozen entities (test helper).
    pub fn sums(s: &mut State) -> (f64, f64) {
        let (mut moving, mut frozen) = (0.0, 0.0);
        s.world
            .query_all::<&Position>()
            .exclude::<&Frozen>()
            .for_each(|p| moving += position_sum(p));
        s.world
            .query_all::<&Position>()
            .include::<&Frozen>()
            .for_each(|p| frozen += position_sum(p));
        (moving, frozen)
    }
}

/// W6: add `T` to and delete it from `n` `(A, B, C, D)` entities, with groups. sparsey's
/// exclusion comes from a child group, and a family is a single chain, so it can express
/// only one of W6's three exclusions: the chain `<A, B>` ⊂ `<A, B, C>` ⊂ `<A, B, C, D>` ⊂
/// `<A, B, C, D, T>` keeps `(A, B, C, D)` without `T` dense (and `<A, B>`, `<A, B, C>`
/// dense, but not without `T`). Adding `T` enters the innermost group only; deleting it
/// leaves that group only: one group move per operation where `sparse` makes three.
pub mod w6 {
    use super::*;

    /// A world with `n` `(A, B, C, D)` entities and their ids.
    pub struct State {
        world: World,
        entities: Vec<Entity>,
    }

    /// Builds the grouped world and spawns `n` `(A, B, C, D)` entities.
    pub fn setup(n: usize) -> State {
        let mut world = World::builder()
            .add_group::<(A, B)>()
            .add_group::<(A, B, C)>()
            .add_group::<(A, B, C, D)>()
            .add_group::<(A, B, C, D, T)>()
            .build();
        let entities = world
            .extend((0..n).map(|_| (A::default(), W2_B, W2_C, W2_D)))
            .to_vec();
        State { world, entities }
    }

    /// Insert `T` into every entity, then delete it from every entity.
    pub fn run(s: &mut State) {
        for &e in &s.entities {
            s.world.insert(e, (T,));
        }
        for &e in &s.entities {
            s.world.delete::<(T,)>(e);
        }
    }

    /// Whether `(A, B, C, D)` without `T` iterates densely (test helper).
    pub fn is_dense(s: &mut State) -> bool {
        s.world
            .query_all::<(&A, &B, &C, &D)>()
            .exclude::<&T>()
            .iter()
            .is_dense()
    }

    /// Entities with all of `A`, `B`, `C`, `D`, and entities with `T` (test helper).
    pub fn counts(s: &mut State) -> (usize, usize) {
        let abcd = s.world.query_all::<(&A, &B, &C, &D)>().iter().count();
        let t = s.world.query_all::<&T>().iter().count();
        (abcd, t)
    }
}

/// W4 (`simple_insert`): `World::extend` into a fresh, ungrouped world.
pub mod w4 {
    use super::*;

    /// A fresh world with the four component types registered (sparsey needs
    /// component types registered before use); no groups.
    pub struct State {
        world: World,
        n: usize,
    }

    /// Builds an empty world.
    pub fn setup(n: usize) -> State {
        let world = World::builder()
            .register::<Transform>()
            .register::<Position>()
            .register::<Rotation>()
            .register::<Velocity>()
            .build();
        State { world, n }
    }

    /// Spawns `n` entities with `World::extend`.
    pub fn run(s: &mut State) {
        s.world.extend((0..s.n).map(|_| transform_bundle()));
    }

    /// Spawns `n` entities one call each: `create`.
    pub fn run_each(s: &mut State) {
        for _ in 0..s.n {
            s.world.create(transform_bundle());
        }
    }

    /// Entities alive (test helper).
    pub fn len(s: &mut State) -> usize {
        s.world.entities().len()
    }
}

/// ecs_bench_suite `simple_iter`: group `<Position, Velocity>` (sparsey's
/// documented fast path); `Transform` and `Rotation` registered ungrouped.
pub mod simple_iter {
    use super::*;

    /// A world with `n` four-component entities.
    pub struct State {
        world: World,
    }

    /// Builds the world and spawns `n` entities.
    pub fn setup(n: usize) -> State {
        let mut world = World::builder()
            .add_group::<(Position, Velocity)>()
            .register::<Transform>()
            .register::<Rotation>()
            .build();
        world.extend((0..n).map(|_| transform_bundle()));
        State { world }
    }

    /// `pos += vel` via `World::for_each`.
    pub fn run(s: &mut State) {
        s.world
            .for_each::<(&Velocity, &mut Position)>(|(v, p)| p.add_velocity(v));
    }
}

/// ecs_bench_suite `fragmented_iter`.
pub mod fragmented_iter {
    use crate::components::frag::*;
    use sparsey::World;

    /// A world with 26 × 20 entities.
    pub struct State {
        world: World,
    }

    /// Registers `Data` and `A`..`Z`, spawns 20 `(X(0.0), Data(1.0))` per type.
    pub fn setup() -> State {
        let mut world = World::builder().register::<Data>().build();
        macro_rules! spawn {
            ($($t:ident),*) => {
                $(
                    world.register::<$t>();
                    world.extend((0..PER_TYPE).map(|_| ($t(0.0), Data(1.0))));
                )*
            };
        }
        for_each_frag_type!(spawn);
        State { world }
    }

    /// `data *= 2` via `World::for_each`.
    pub fn run(s: &mut State) {
        s.world.for_each::<&mut Data>(|d| d.0 *= 2.0);
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
        let mut world = World::builder().register::<SA>().register::<SB>().build();
        let entities = world.extend((0..n).map(|_| (SA(0.0),))).to_vec();
        State { world, entities }
    }

    /// Insert `SB` into every entity, then delete it from every entity.
    pub fn run(s: &mut State) {
        for &e in &s.entities {
            s.world.insert(e, (SB(0.0),));
        }
        for &e in &s.entities {
            s.world.delete::<(SB,)>(e);
        }
    }
}

/// `view_overlap`: `a += b` over `(&mut A, &B)`, no group (`register` only): sparsey
/// iterates one of the two 1M storages and looks the other up.
pub mod view_overlap {
    use super::*;

    /// The world.
    pub struct State {
        world: World,
    }

    /// Registers `A` and `B`, then spawns the `3n / 2` entities in index order with
    /// `extend`, one call per kind (see [`overlap_has_a`]).
    pub fn setup(n: usize) -> State {
        let mut world = World::builder().register::<A>().register::<B>().build();
        world.extend((0..n / 2).map(|_| (A::default(),)));
        world.extend((n / 2..n).map(|_| (A::default(), OVERLAP_B)));
        world.extend((n..overlap_total(n)).map(|_| (OVERLAP_B,)));
        State { world }
    }

    /// `a += b` via `World::for_each`.
    pub fn run(s: &mut State) {
        s.world.for_each::<(&mut A, &B)>(|(a, b)| a_plus_eq_b(a, b));
    }

    /// Sum of lane 0 of every `A` (test helper).
    pub fn a_sum(s: &mut State) -> f64 {
        let mut sum = 0.0;
        s.world.for_each::<&A>(|a| sum += f64::from(a.0[0]));
        sum
    }
}

/// ecs_bench_suite `heavy_compute`: group `<Position, Transform>`, `World::par_for_each`
/// (rayon's global pool; sparsey's own parallel iterator over the dense group).
pub mod heavy_compute {
    use super::*;

    /// The world.
    pub struct State {
        world: World,
    }

    /// Builds the grouped world and spawns `n` [`heavy_bundle`] entities with `extend`.
    pub fn setup(n: usize) -> State {
        let mut world = World::builder()
            .add_group::<(Position, Transform)>()
            .register::<Rotation>()
            .register::<Velocity>()
            .build();
        world.extend((0..n).map(|_| heavy_bundle()));
        State { world }
    }

    /// [`heavy_compute()`] on every entity in parallel.
    pub fn run(s: &mut State) {
        s.world
            .par_for_each::<(&mut Position, &mut Transform)>(|(p, t)| heavy_compute(p, t));
    }

    /// Every entity's `(Position, Transform)` (test helper).
    pub fn results(s: &mut State) -> Vec<(Position, Transform)> {
        let mut out = Vec::new();
        s.world
            .for_each::<(&Position, &Transform)>(|(p, t)| out.push((*p, *t)));
        out
    }
}

/// ecs_bench_suite `schedule`. sparsey 0.13 has no scheduler (its docs show one
/// `for_each` at a time); `World::for_each` takes `&self` and checks its borrows at run
/// time, so three systems over disjoint component sets can run at once on a shared
/// `&World`: `run` does so with `rayon::join`, `run_serial` runs them one after the other.
/// Group `<A, B>`, as `sparse`'s.
pub mod schedule {
    use crate::components::sched::{self, A, B, C, D, E};
    use sparsey::World;

    /// The world.
    pub struct State {
        world: World,
    }

    /// Builds the world and spawns the four kinds of entity with `extend`.
    pub fn setup() -> State {
        let n = sched::PER_KIND;
        let mut world = World::builder()
            .add_group::<(A, B)>()
            .register::<C>()
            .register::<D>()
            .register::<E>()
            .build();
        world.extend((0..n).map(|_| sched::ab_bundle()));
        world.extend((0..n).map(|_| sched::abc_bundle()));
        world.extend((0..n).map(|_| sched::abcd_bundle()));
        world.extend((0..n).map(|_| sched::abce_bundle()));
        State { world }
    }

    fn ab(w: &World) {
        w.for_each::<(&A, &mut B)>(|(a, b)| sched::ab(a, b));
    }
    fn cd(w: &World) {
        w.for_each::<(&C, &mut D)>(|(c, d)| sched::cd(c, d));
    }
    fn ce(w: &World) {
        w.for_each::<(&C, &mut E)>(|(c, e)| sched::ce(c, e));
    }

    /// The three systems at once (`rayon::join` on `&World`).
    pub fn run(s: &mut State) {
        let w = &s.world;
        rayon::join(|| ab(w), || rayon::join(|| cd(w), || ce(w)));
    }

    /// The three systems one after the other.
    pub fn run_serial(s: &mut State) {
        ab(&s.world);
        cd(&s.world);
        ce(&s.world);
    }

    /// `(Σ B, Σ D, Σ E)` (test helper).
    pub fn sums(s: &mut State) -> (f64, f64, f64) {
        let (mut b, mut d, mut e) = (0.0, 0.0, 0.0);
        s.world.for_each::<&B>(|x| b += f64::from(x.0));
        s.world.for_each::<&D>(|x| d += f64::from(x.0));
        s.world.for_each::<&E>(|x| e += f64::from(x.0));
        (b, d, e)
    }
}

/// The realistic frame ([`crate::components::frame`]) with groups: the families
/// `<Pos, Sprite>` ⊂ `<Pos, Sprite, Vel>` ⊂ `<Pos, Sprite, Vel, Data>` and
/// `<Health, Player>` ⊂ `<Health, Player, Damage>`. sparsey requires the groups of a
/// family to extend each other and the families to share no component type, so no
/// layout serves all five multi-component systems: this one makes `movement`,
/// `more_complex`, `damage` and `render` dense (with `data` and `health`, single-view
/// queries, dense anyway); `sprite` needs `Sprite` from the first family and `Player`,
/// `Health` from the second, so it stays sparse. (The other candidate, a chain through
/// `<Pos, Sprite, Health, Player>`, would leave `movement` and `more_complex` sparse.)
///
/// A query iterates a group densely only when the component types it names, fetched
/// (`query_all::<G>`) or filtered (`.include::<I>()`), are exactly the types of one group
/// (`ComponentStorage::include_group_range` compares the query's storage mask with the
/// group's); `(&mut Pos, &Vel)` alone is sparse even though `<Pos, Sprite, Vel>` holds
/// exactly its entities. So [`run`](crate::sparsey_impl::frame::run) names the group's
/// other types in an include filter that is true of every matching entity: every entity
/// with `Pos` and `Vel` has `Sprite`, every entity with `Health` and `Damage` has `Player`
/// ([`kind`](crate::components::frame::kind)), so the filtered queries visit the same
/// entities. [`dense`](crate::sparsey_impl::frame::dense) reports which queries are dense.
pub mod frame {
    use crate::components::frame::*;
    use sparsey::World;

    /// The world and the frame buffer.
    pub struct State {
        world: World,
        /// What the last frame drew.
        pub fb: FrameBuffer,
    }

    /// Creates the `n` entities one `create` each in index order (one component tuple
    /// per kind) in `world`.
    fn populate(mut world: World, n: usize) -> State {
        spawn_each!(n, |bundle| {
            world.create(bundle);
        });
        State {
            world,
            fb: FrameBuffer::default(),
        }
    }

    /// Builds the grouped world (see the module docs) and creates the `n` entities.
    pub fn setup(n: usize) -> State {
        let world = World::builder()
            .add_group::<(Pos, Sprite)>()
            .add_group::<(Pos, Sprite, Vel)>()
            .add_group::<(Pos, Sprite, Vel, Data)>()
            .add_group::<(Health, Player)>()
            .add_group::<(Health, Player, Damage)>()
            .build();
        populate(world, n)
    }

    /// The same population in a world without groups (the seven types registered only):
    /// every multi-component query iterates one storage and looks the others up.
    pub fn setup_nogroup(n: usize) -> State {
        let world = World::builder()
            .register::<Pos>()
            .register::<Vel>()
            .register::<Data>()
            .register::<Health>()
            .register::<Damage>()
            .register::<Sprite>()
            .register::<Player>()
            .build();
        populate(world, n)
    }

    /// One frame: the seven systems in order, each a `QueryAll::for_each` whose types
    /// match a group of [`setup`]'s world where one fits (see the module docs). On
    /// [`setup_nogroup`]'s world it gives the same result, but the include filters of
    /// `movement`, `more_complex` and `damage` cost a sparse test per entity there
    /// ([`run_nogroup`] leaves them out).
    pub fn run(s: &mut State) {
        let w = &s.world;
        // `Sprite`: every entity with `Pos` and `Vel` has it; names `<Pos, Sprite, Vel>`.
        w.query_all::<(&mut Pos, &Vel)>()
            .include::<&Sprite>()
            .for_each(|(p, v)| movement(p, v));
        w.for_each::<&mut Data>(data);
        // `Sprite` again: names `<Pos, Sprite, Vel, Data>`.
        w.query_all::<(&mut Vel, &Pos, &Data)>()
            .include::<&Sprite>()
            .for_each(|(v, p, d)| more_complex(v, p, d));
        w.for_each::<&mut Health>(health);
        // `Player`: every entity with `Health` and `Damage` has it; names
        // `<Health, Player, Damage>`.
        w.query_all::<(&mut Health, &Damage)>()
            .include::<&Player>()
            .for_each(|(h, d)| damage(h, d));
        // Spans both families: sparse.
        w.for_each::<(&mut Sprite, &Player, &Health)>(|(sp, p, h)| sprite(sp, p, h));
        let fb = &mut s.fb;
        fb.clear();
        w.for_each::<(&Pos, &Sprite)>(|(p, sp)| render(fb, p, sp));
    }

    /// [`run`] with each system's query naming only the types it reads or writes (no
    /// include filters): the plain queries for [`setup_nogroup`]'s world, where no group
    /// can make them dense and a filter only adds a lookup.
    pub fn run_nogroup(s: &mut State) {
        let w = &s.world;
        w.for_each::<(&mut Pos, &Vel)>(|(p, v)| movement(p, v));
        w.for_each::<&mut Data>(data);
        w.for_each::<(&mut Vel, &Pos, &Data)>(|(v, p, d)| more_complex(v, p, d));
        w.for_each::<&mut Health>(health);
        w.for_each::<(&mut Health, &Damage)>(|(h, d)| damage(h, d));
        w.for_each::<(&mut Sprite, &Player, &Health)>(|(sp, p, h)| sprite(sp, p, h));
        let fb = &mut s.fb;
        fb.clear();
        w.for_each::<(&Pos, &Sprite)>(|(p, sp)| render(fb, p, sp));
    }

    /// Whether each of [`run`]'s seven queries iterates densely, in system order (test
    /// helper).
    pub fn dense(s: &mut State) -> [bool; 7] {
        // One statement each: a query holds its borrows until the end of its statement.
        let w = &s.world;
        let movement = w
            .query_all::<(&mut Pos, &Vel)>()
            .include::<&Sprite>()
            .iter()
            .is_dense();
        let data = w.query_all::<&mut Data>().iter().is_dense();
        let more_complex = w
            .query_all::<(&mut Vel, &Pos, &Data)>()
            .include::<&Sprite>()
            .iter()
            .is_dense();
        let health = w.query_all::<&mut Health>().iter().is_dense();
        let damage = w
            .query_all::<(&mut Health, &Damage)>()
            .include::<&Player>()
            .iter()
            .is_dense();
        let sprite = w
            .query_all::<(&mut Sprite, &Player, &Health)>()
            .iter()
            .is_dense();
        let render = w.query_all::<(&Pos, &Sprite)>().iter().is_dense();
        [movement, data, more_complex, health, damage, sprite, render]
    }

    /// Whether the plain `(&mut Pos, &Vel)` query (no include filter) iterates densely
    /// (test helper: it does not, even in the grouped world).
    pub fn plain_movement_is_dense(s: &mut State) -> bool {
        s.world.query_all::<(&mut Pos, &Vel)>().iter().is_dense()
    }

    /// Every entity's components (test helper).
    pub fn rows(s: &mut State) -> Vec<Row> {
        let w = &s.world;
        let (pos, vel, data) = (w.borrow::<Pos>(), w.borrow::<Vel>(), w.borrow::<Data>());
        let (health, damage) = (w.borrow::<Health>(), w.borrow::<Damage>());
        let (sprite, player) = (w.borrow::<Sprite>(), w.borrow::<Player>());
        w.entities()
            .iter()
            .map(|&e| Row {
                pos: pos.get(e).copied(),
                vel: vel.get(e).copied(),
                data: data.get(e).copied(),
                health: health.get(e).copied(),
                damage: damage.get(e).copied(),
                sprite: sprite.get(e).copied(),
                player: player.get(e).copied(),
            })
            .collect()
    }
}
