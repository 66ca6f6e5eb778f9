//! hecs 0.11: archetypal storage.
//!
//! Used as hecs's README and its own benches do: `World::query_mut` in a `for`
//! loop for iteration, `World::spawn_batch` for bulk spawning,
//! `insert_one` / `remove_one` for single components.

use crate::components::suite::{SA, SB};
use crate::components::*;
use hecs::{Entity, World};

/// W1: `query_mut::<(&mut Position, &Velocity)>()`.
pub mod w1 {
    use super::*;

    /// A world with `n` `(Position, Velocity)` entities.
    pub struct State {
        /// The world.
        pub world: World,
    }

    /// Spawns `n` entities with `spawn_batch`.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        world
            .spawn_batch((0..n).map(|_| (Position::default(), VEL)))
            .for_each(drop);
        State { world }
    }

    /// `pos += vel`.
    pub fn run(s: &mut State) {
        for (p, v) in s.world.query_mut::<(&mut Position, &Velocity)>() {
            p.add_velocity(v);
        }
    }

    /// Sum of every position coordinate (test helper).
    pub fn checksum(s: &mut State) -> f64 {
        s.world
            .query_mut::<&Position>()
            .into_iter()
            .map(|p| f64::from(p.x) + f64::from(p.y) + f64::from(p.z))
            .sum()
    }
}

/// W2: `query_mut::<(&mut A, &B, &C)>()` over the `(A, B, C)` and `(A, B, C, D)` archetypes.
pub mod w2 {
    use super::*;

    /// A world with the W2 population (three archetypes).
    pub struct State {
        /// The world.
        pub world: World,
    }

    /// Spawns `n` entities (see [`w2_has_c`]).
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        let (d_end, c_end) = (n / 4, n / 2);
        world
            .spawn_batch((0..d_end).map(|_| (A::default(), W2_B, W2_C, W2_D)))
            .for_each(drop);
        world
            .spawn_batch((d_end..c_end).map(|_| (A::default(), W2_B, W2_C)))
            .for_each(drop);
        world
            .spawn_batch((c_end..n).map(|_| (A::default(), W2_B)))
            .for_each(drop);
        State { world }
    }

    /// `a = b + c`.
    pub fn run(s: &mut State) {
        for (a, b, c) in s.world.query_mut::<(&mut A, &B, &C)>() {
            a_eq_b_plus_c(a, b, c);
        }
    }

    /// Entities whose `A` holds [`W2_A_AFTER`] (test helper).
    pub fn count_updated(s: &mut State) -> usize {
        s.world
            .query_mut::<&A>()
            .into_iter()
            .filter(|a| **a == W2_A_AFTER)
            .count()
    }
}

/// W3: `insert_one(C)` / `remove_one::<C>()` on `n` `(A, B)` entities.
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
            s.world.insert_one(e, W2_C).unwrap();
        }
        for &e in &s.entities {
            s.world.remove_one::<C>(e).unwrap();
        }
    }
}

/// W5: `query_mut::<(&mut Position, &Velocity)>().without::<&Frozen>()`: the frozen and
/// the moving entities are two archetypes; the query skips the frozen one.
pub mod w5 {
    use super::*;

    /// A world with the W5 population.
    pub struct State {
        /// The world.
        pub world: World,
    }

    /// Spawns the `n` entities in index order (frozen ones as [`w5_is_frozen`] says).
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        for i in 0..n {
            if w5_is_frozen(i) {
                world.spawn((Position::default(), VEL, Frozen));
            } else {
                world.spawn((Position::default(), VEL));
            }
        }
        State { world }
    }

    /// `pos += vel` over the entities without `Frozen`.
    pub fn run(s: &mut State) {
        for (p, v) in s
            .world
            .query_mut::<(&mut Position, &Velocity)>()
            .without::<&Frozen>()
        {
            p.add_velocity(v);
        }
    }

    /// Position sums of the moving and the frozen entities (test helper).
    pub fn sums(s: &mut State) -> (f64, f64) {
        let moving = s
            .world
            .query_mut::<&Position>()
            .without::<&Frozen>()
            .into_iter()
            .map(position_sum)
            .sum();
        let frozen = s
            .world
            .query_mut::<&Position>()
            .with::<&Frozen>()
            .into_iter()
            .map(position_sum)
            .sum();
        (moving, frozen)
    }
}

/// W6: `insert_one(T)` / `remove_one::<T>()` on `n` `(A, B, C, D)` entities (archetype
/// moves between `(A, B, C, D)` and `(A, B, C, D, T)`).
pub mod w6 {
    use super::*;

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
            s.world.insert_one(e, T).unwrap();
        }
        for &e in &s.entities {
            s.world.remove_one::<T>(e).unwrap();
        }
    }

    /// Entities with all of `A`, `B`, `C`, `D`, and entities with `T` (test helper).
    pub fn counts(s: &mut State) -> (usize, usize) {
        let abcd = s.world.query_mut::<(&A, &B, &C, &D)>().into_iter().len();
        let t = s.world.query_mut::<&T>().into_iter().len();
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
        s.world
            .spawn_batch((0..s.n).map(|_| transform_bundle()))
            .for_each(drop);
    }

    /// Spawns `n` entities one call each: `spawn`.
    pub fn run_each(s: &mut State) {
        for _ in 0..s.n {
            s.world.spawn(transform_bundle());
        }
    }

    /// Entities alive (test helper).
    pub fn len(s: &mut State) -> usize {
        s.world.len() as usize
    }
}

/// ecs_bench_suite `simple_iter`.
pub mod simple_iter {
    use super::*;

    /// A world with `n` four-component entities.
    pub struct State {
        world: World,
    }

    /// Spawns `n` entities with `spawn_batch`.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        world
            .spawn_batch((0..n).map(|_| transform_bundle()))
            .for_each(drop);
        State { world }
    }

    /// `pos += vel`.
    pub fn run(s: &mut State) {
        for (v, p) in s.world.query_mut::<(&Velocity, &mut Position)>() {
            p.add_velocity(v);
        }
    }
}

/// ecs_bench_suite `fragmented_iter`.
pub mod fragmented_iter {
    use crate::components::frag::*;
    use hecs::World;

    /// A world with 26 archetypes of 20 entities.
    pub struct State {
        world: World,
    }

    /// Spawns 20 `(X(0.0), Data(1.0))` per type.
    pub fn setup() -> State {
        let mut world = World::new();
        macro_rules! spawn {
            ($($t:ident),*) => {
                $(
                    world
                        .spawn_batch((0..PER_TYPE).map(|_| ($t(0.0), Data(1.0))))
                        .for_each(drop);
                )*
            };
        }
        for_each_frag_type!(spawn);
        State { world }
    }

    /// `data *= 2`.
    pub fn run(s: &mut State) {
        for d in s.world.query_mut::<&mut Data>() {
            d.0 *= 2.0;
        }
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
            s.world.insert_one(e, SB(0.0)).unwrap();
        }
        for &e in &s.entities {
            s.world.remove_one::<SB>(e).unwrap();
        }
    }
}

/// `serde_3deep`: hecs' column serialization (`hecs::serialize::column`, feature
/// `column-serialize`) to postcard: one block per archetype, each component type a
/// contiguous column, entity ids kept; loading spawns each archetype as a column batch
/// (`World::spawn_column_batch_at`) into a fresh world.
pub mod serde_3deep {
    use crate::components::saved::{self, A, B, C, Order};
    use hecs::serialize::column::{
        self, DeserializeContext, SerializeContext, deserialize_column, try_serialize,
        try_serialize_id,
    };
    use hecs::{Archetype, ColumnBatchBuilder, ColumnBatchType, Entity, World};
    use serde::de::SeqAccess;
    use serde::ser::SerializeTuple;
    use std::any::TypeId;

    /// The id a component type's column is tagged with (one byte in postcard).
    #[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
    enum ComponentId {
        A,
        B,
        C,
    }

    /// What hecs asks the application for: the ids and columns of each archetype, and back.
    #[derive(Default)]
    struct Context {
        /// Ids of the archetype being loaded, in the order its columns follow.
        components: Vec<ComponentId>,
    }

    impl SerializeContext for Context {
        fn component_count(&self, archetype: &Archetype) -> usize {
            archetype
                .component_types()
                .filter(|&t| {
                    t == TypeId::of::<A>() || t == TypeId::of::<B>() || t == TypeId::of::<C>()
                })
                .count()
        }

        fn serialize_component_ids<S: SerializeTuple>(
            &mut self,
            archetype: &Archetype,
            mut out: S,
        ) -> Result<S::Ok, S::Error> {
            try_serialize_id::<A, _, _>(archetype, &ComponentId::A, &mut out)?;
            try_serialize_id::<B, _, _>(archetype, &ComponentId::B, &mut out)?;
            try_serialize_id::<C, _, _>(archetype, &ComponentId::C, &mut out)?;
            out.end()
        }

        fn serialize_components<S: SerializeTuple>(
            &mut self,
            archetype: &Archetype,
            mut out: S,
        ) -> Result<S::Ok, S::Error> {
            try_serialize::<A, _>(archetype, &mut out)?;
            try_serialize::<B, _>(archetype, &mut out)?;
            try_serialize::<C, _>(archetype, &mut out)?;
            out.end()
        }
    }

    impl DeserializeContext for Context {
        fn deserialize_component_ids<'de, S: SeqAccess<'de>>(
            &mut self,
            mut seq: S,
        ) -> Result<ColumnBatchType, S::Error> {
            self.components.clear();
            let mut batch = ColumnBatchType::new();
            while let Some(id) = seq.next_element()? {
                match id {
                    ComponentId::A => batch.add::<A>(),
                    ComponentId::B => batch.add::<B>(),
                    ComponentId::C => batch.add::<C>(),
                };
                self.components.push(id);
            }
            Ok(batch)
        }

        fn deserialize_components<'de, S: SeqAccess<'de>>(
            &mut self,
            entity_count: u32,
            mut seq: S,
            batch: &mut ColumnBatchBuilder,
        ) -> Result<(), S::Error> {
            for &id in &self.components {
                match id {
                    ComponentId::A => deserialize_column::<A, _>(entity_count, &mut seq, batch)?,
                    ComponentId::B => deserialize_column::<B, _>(entity_count, &mut seq, batch)?,
                    ComponentId::C => deserialize_column::<C, _>(entity_count, &mut seq, batch)?,
                }
            }
            Ok(())
        }
    }

    /// A world as a serde value, through [`column::serialize`].
    struct Columns<'a>(&'a World);

    impl serde::Serialize for Columns<'_> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            column::serialize(self.0, &mut Context::default(), serializer)
        }
    }

    /// A populated world, its entities in index order, and its snapshot.
    pub struct State {
        /// The world `save` writes.
        pub world: World,
        /// Entity `i` of the population.
        pub entities: Vec<Entity>,
        /// `save(world)`.
        pub bytes: Vec<u8>,
    }

    /// Spawns the `n` entities one by one in index order (three archetypes: `(A, B, C)`,
    /// `(A, B)`, `(A)`, created in that order).
    ///
    /// With [`Order::Interleaved`], loading is quadratic in `n`: hecs' `alloc_at` (called
    /// per entity by `spawn_column_batch_at`) first frees every id below the one it
    /// allocates, then finds each later id by a linear search of that free list; archetype
    /// by archetype, the ids of the first one leave `n / 2` holes that the other two fill.
    pub fn setup(n: usize, order: Order) -> State {
        let mut world = World::new();
        let entities = (0..n)
            .map(|i| match saved::components(order, n, i) {
                (a, Some(b), Some(c)) => world.spawn((a, b, c)),
                (a, Some(b), None) => world.spawn((a, b)),
                (a, None, None) => world.spawn((a,)),
                (a, None, Some(c)) => world.spawn((a, c)),
            })
            .collect();
        let bytes = save(&world);
        State {
            world,
            entities,
            bytes,
        }
    }

    /// The world's column snapshot in postcard.
    pub fn save(world: &World) -> Vec<u8> {
        postcard::to_stdvec(&Columns(world)).expect("a world serializes")
    }

    /// A fresh world from a snapshot ([`column::deserialize`]).
    pub fn load(bytes: &[u8]) -> World {
        column::deserialize(
            &mut Context::default(),
            &mut postcard::Deserializer::from_bytes(bytes),
        )
        .expect("its snapshot loads")
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
                    *world.get::<&A>(e).expect("every entity has A"),
                    world.get::<&B>(e).ok().map(|b| *b),
                    world.get::<&C>(e).ok().map(|c| *c),
                )
            })
            .collect()
    }
}

/// `view_overlap`: `query_mut::<(&mut A, &B)>()`. The three kinds of entity are three
/// archetypes, `(A)`, `(A, B)`, `(B)`; the query visits only `(A, B)`, two dense columns.
pub mod view_overlap {
    use super::*;

    /// The world.
    pub struct State {
        world: World,
    }

    /// Spawns the `3n / 2` entities in index order with `spawn_batch`, one per kind.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        world
            .spawn_batch((0..n / 2).map(|_| (A::default(),)))
            .for_each(drop);
        world
            .spawn_batch((n / 2..n).map(|_| (A::default(), OVERLAP_B)))
            .for_each(drop);
        world
            .spawn_batch((n..overlap_total(n)).map(|_| (OVERLAP_B,)))
            .for_each(drop);
        State { world }
    }

    /// `a += b`.
    pub fn run(s: &mut State) {
        for (a, b) in s.world.query_mut::<(&mut A, &B)>() {
            a_plus_eq_b(a, b);
        }
    }

    /// Sum of lane 0 of every `A` (test helper).
    pub fn a_sum(s: &mut State) -> f64 {
        let a = s.world.query_mut::<&A>().into_iter();
        a.map(|a| f64::from(a.0[0])).sum()
    }
}

/// ecs_bench_suite `heavy_compute`. hecs has no parallel iterator of its own; it cuts a
/// query into batches (`into_iter_batched(64)`, "useful for distributing work over a
/// threadpool", its docs say), which ecs_bench_suite handed to rayon (`par_bridge`, the
/// global pool), as here.
pub mod heavy_compute {
    use super::*;
    use rayon::iter::{ParallelBridge, ParallelIterator};

    /// The world.
    pub struct State {
        world: World,
    }

    /// Spawns `n` [`heavy_bundle`] entities with `spawn_batch`.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        world
            .spawn_batch((0..n).map(|_| heavy_bundle()))
            .for_each(drop);
        State { world }
    }

    /// [`heavy_compute()`] on every entity, batches of 64 in parallel.
    pub fn run(s: &mut State) {
        s.world
            .query_mut::<(&mut Position, &mut Transform)>()
            .into_iter_batched(64)
            .par_bridge()
            .for_each(|batch| {
                for (p, t) in batch {
                    heavy_compute(p, t);
                }
            });
    }

    /// Every entity's `(Position, Transform)` (test helper).
    pub fn results(s: &mut State) -> Vec<(Position, Transform)> {
        let q = s.world.query_mut::<(&Position, &Transform)>().into_iter();
        q.map(|(p, t)| (*p, *t)).collect()
    }
}

/// ecs_bench_suite `schedule`. hecs has no scheduler; `World::query` (`&self`) checks its
/// borrows at run time and is documented for concurrent access to a world, so `run`
/// runs the three systems at once with `rayon::join` on `&World`; `run_serial` runs them
/// one after the other with `query_mut`.
pub mod schedule {
    use crate::components::sched::{self, A, B, C, D, E};
    use hecs::World;

    /// The world.
    pub struct State {
        world: World,
    }

    /// Spawns the four kinds of entity (four archetypes) with `spawn_batch`.
    pub fn setup() -> State {
        let n = sched::PER_KIND;
        let mut world = World::new();
        world
            .spawn_batch((0..n).map(|_| sched::ab_bundle()))
            .for_each(drop);
        world
            .spawn_batch((0..n).map(|_| sched::abc_bundle()))
            .for_each(drop);
        world
            .spawn_batch((0..n).map(|_| sched::abcd_bundle()))
            .for_each(drop);
        world
            .spawn_batch((0..n).map(|_| sched::abce_bundle()))
            .for_each(drop);
        State { world }
    }

    fn ab(w: &World) {
        for (a, b) in w.query::<(&A, &mut B)>().iter() {
            sched::ab(a, b);
        }
    }
    fn cd(w: &World) {
        for (c, d) in w.query::<(&C, &mut D)>().iter() {
            sched::cd(c, d);
        }
    }
    fn ce(w: &World) {
        for (c, e) in w.query::<(&C, &mut E)>().iter() {
            sched::ce(c, e);
        }
    }

    /// The three systems at once (`rayon::join` on `&World`).
    pub fn run(s: &mut State) {
        let w = &s.world;
        rayon::join(|| ab(w), || rayon::join(|| cd(w), || ce(w)));
    }

    /// The three systems one after the other (`query_mut`).
    pub fn run_serial(s: &mut State) {
        for (a, b) in s.world.query_mut::<(&A, &mut B)>() {
            sched::ab(a, b);
        }
        for (c, d) in s.world.query_mut::<(&C, &mut D)>() {
            sched::cd(c, d);
        }
        for (c, e) in s.world.query_mut::<(&C, &mut E)>() {
            sched::ce(c, e);
        }
    }

    /// `(Σ B, Σ D, Σ E)` (test helper).
    pub fn sums(s: &mut State) -> (f64, f64, f64) {
        let w = &mut s.world;
        let b = sched::total(w.query_mut::<&B>(), |x| x.0);
        let d = sched::total(w.query_mut::<&D>(), |x| x.0);
        let e = sched::total(w.query_mut::<&E>(), |x| x.0);
        (b, d, e)
    }
}

/// ecs_bench_suite `serialize_binary`: hecs' column serialization (as `serde_3deep`), the
/// four component types of each archetype as columns, to postcard and back into a fresh
/// world.
pub mod serialize_binary {
    use crate::components::{Position, Rotation, Transform, Velocity};
    use hecs::serialize::column::{
        self, DeserializeContext, SerializeContext, deserialize_column, try_serialize,
        try_serialize_id,
    };
    use hecs::{Archetype, ColumnBatchBuilder, ColumnBatchType, Entity, World};
    use serde::de::SeqAccess;
    use serde::ser::SerializeTuple;
    use std::any::TypeId;

    /// The id a component type's column is tagged with.
    #[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
    enum ComponentId {
        Transform,
        Position,
        Rotation,
        Velocity,
    }

    /// The ids and columns of each archetype, and back (as `serde_3deep`'s context).
    #[derive(Default)]
    struct Context {
        components: Vec<ComponentId>,
    }

    impl SerializeContext for Context {
        fn component_count(&self, archetype: &Archetype) -> usize {
            let ids = [
                TypeId::of::<Transform>(),
                TypeId::of::<Position>(),
                TypeId::of::<Rotation>(),
                TypeId::of::<Velocity>(),
            ];
            archetype
                .component_types()
                .filter(|t| ids.contains(t))
                .count()
        }

        fn serialize_component_ids<S: SerializeTuple>(
            &mut self,
            archetype: &Archetype,
            mut out: S,
        ) -> Result<S::Ok, S::Error> {
            try_serialize_id::<Transform, _, _>(archetype, &ComponentId::Transform, &mut out)?;
            try_serialize_id::<Position, _, _>(archetype, &ComponentId::Position, &mut out)?;
            try_serialize_id::<Rotation, _, _>(archetype, &ComponentId::Rotation, &mut out)?;
            try_serialize_id::<Velocity, _, _>(archetype, &ComponentId::Velocity, &mut out)?;
            out.end()
        }

        fn serialize_components<S: SerializeTuple>(
            &mut self,
            archetype: &Archetype,
            mut out: S,
        ) -> Result<S::Ok, S::Error> {
            try_serialize::<Transform, _>(archetype, &mut out)?;
            try_serialize::<Position, _>(archetype, &mut out)?;
            try_serialize::<Rotation, _>(archetype, &mut out)?;
            try_serialize::<Velocity, _>(archetype, &mut out)?;
            out.end()
        }
    }

    impl DeserializeContext for Context {
        fn deserialize_component_ids<'de, S: SeqAccess<'de>>(
            &mut self,
            mut seq: S,
        ) -> Result<ColumnBatchType, S::Error> {
            self.components.clear();
            let mut batch = ColumnBatchType::new();
            while let Some(id) = seq.next_element()? {
                match id {
                    ComponentId::Transform => batch.add::<Transform>(),
                    ComponentId::Position => batch.add::<Position>(),
                    ComponentId::Rotation => batch.add::<Rotation>(),
                    ComponentId::Velocity => batch.add::<Velocity>(),
                };
                self.components.push(id);
            }
            Ok(batch)
        }

        fn deserialize_components<'de, S: SeqAccess<'de>>(
            &mut self,
            entity_count: u32,
            mut seq: S,
            batch: &mut ColumnBatchBuilder,
        ) -> Result<(), S::Error> {
            for &id in &self.components {
                match id {
                    ComponentId::Transform => {
                        deserialize_column::<Transform, _>(entity_count, &mut seq, batch)?
                    }
                    ComponentId::Position => {
                        deserialize_column::<Position, _>(entity_count, &mut seq, batch)?
                    }
                    ComponentId::Rotation => {
                        deserialize_column::<Rotation, _>(entity_count, &mut seq, batch)?
                    }
                    ComponentId::Velocity => {
                        deserialize_column::<Velocity, _>(entity_count, &mut seq, batch)?
                    }
                }
            }
            Ok(())
        }
    }

    /// A world as a serde value, through [`column::serialize`].
    struct Columns<'a>(&'a World);

    impl serde::Serialize for Columns<'_> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            column::serialize(self.0, &mut Context::default(), serializer)
        }
    }

    /// The populated world and its entities.
    pub struct State {
        /// The world `run` saves.
        pub world: World,
        /// Entity `i` of the population.
        pub entities: Vec<Entity>,
    }

    /// Spawns `n` entities of [`crate::ours::serialize_binary::bundle`] with `spawn_batch`.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        let bundle = crate::ours::serialize_binary::bundle;
        let entities = world.spawn_batch((0..n).map(bundle)).collect();
        State { world, entities }
    }

    /// The column snapshot to postcard, then [`column::deserialize`] into a new world.
    pub fn round_trip(world: &World) -> World {
        let bytes = postcard::to_stdvec(&Columns(world)).expect("a world serializes");
        column::deserialize(
            &mut Context::default(),
            &mut postcard::Deserializer::from_bytes(&bytes),
        )
        .expect("its snapshot loads")
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
                let mut one = world.query_one::<(&Transform, &Position, &Rotation, &Velocity)>(e);
                let (t, p, r, v) = one.get().expect("alive, with all four");
                (*t, *p, *r, *v)
            })
            .collect()
    }
}

/// The realistic frame ([`crate::components::frame`]): one `query_mut` per system. The
/// four kinds of entity are four archetypes; each query visits the archetypes holding its
/// components and walks their columns densely.
pub mod frame {
    use crate::components::frame::*;
    use hecs::World;

    /// The world and the frame buffer.
    pub struct State {
        world: World,
        /// What the last frame drew.
        pub fb: FrameBuffer,
    }

    /// Spawns the `n` entities one `spawn` each in index order (one bundle tuple per
    /// kind).
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
            world,
            fb: FrameBuffer::default(),
        }
    }

    /// One frame: the seven systems in order.
    pub fn run(s: &mut State) {
        let w = &mut s.world;
        for (p, v) in w.query_mut::<(&mut Pos, &Vel)>() {
            movement(p, v);
        }
        for d in w.query_mut::<&mut Data>() {
            data(d);
        }
        for (v, p, d) in w.query_mut::<(&mut Vel, &Pos, &Data)>() {
            more_complex(v, p, d);
        }
        for h in w.query_mut::<&mut Health>() {
            health(h);
        }
        for (h, d) in w.query_mut::<(&mut Health, &Damage)>() {
            damage(h, d);
        }
        for (sp, p, h) in w.query_mut::<(&mut Sprite, &Player, &Health)>() {
            sprite(sp, p, h);
        }
        s.fb.clear();
        for (p, sp) in w.query_mut::<(&Pos, &Sprite)>() {
            render(&mut s.fb, p, sp);
        }
    }

    /// Every entity's components (test helper).
    pub fn rows(s: &mut State) -> Vec<Row> {
        s.world
            .query_mut::<(
                Option<&Pos>,
                Option<&Vel>,
                Option<&Data>,
                Option<&Health>,
                Option<&Damage>,
                Option<&Sprite>,
                Option<&Player>,
            )>()
            .into_iter()
            .map(Row::of)
            .collect()
    }
}
