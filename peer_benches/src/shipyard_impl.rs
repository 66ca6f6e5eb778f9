//! shipyard 0.11: sparse sets, no groups (0.11 has none).
//!
//! Used as shipyard's README and guide do: components derive
//! `shipyard::Component` (untracked), work happens in systems run with
//! `World::run` that borrow `View` / `ViewMut` and iterate tuples of views;
//! bulk spawning uses `World::bulk_add_entity`; per-entity adds go through
//! `EntitiesView::add_component` with the target `ViewMut`, deletes through
//! `ViewMut::delete` (the `Delete` trait).

use crate::components::suite::{SA, SB};
use crate::components::*;
use shipyard::{Delete, EntitiesView, EntityId, IntoIter, View, ViewMut, World};

/// W1: `(&mut ViewMut<Position>, &View<Velocity>).iter()`.
pub mod w1 {
    use super::*;

    /// A world with `n` `(Position, Velocity)` entities.
    pub struct State {
        /// The world.
        pub world: World,
    }

    /// Spawns `n` entities with `bulk_add_entity`.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        world.bulk_add_entity((0..n).map(|_| (Position::default(), VEL)));
        State { world }
    }

    /// `pos += vel` in a system.
    pub fn run(s: &mut State) {
        s.world
            .run(|mut pos: ViewMut<Position>, vel: View<Velocity>| {
                (&mut pos, &vel).iter().for_each(|(p, v)| p.add_velocity(v));
            });
    }

    /// Sum of every position coordinate (test helper).
    pub fn checksum(s: &mut State) -> f64 {
        s.world.run(|pos: View<Position>| {
            pos.iter()
                .map(|p| f64::from(p.x) + f64::from(p.y) + f64::from(p.z))
                .sum()
        })
    }
}

/// W2: `(&mut ViewMut<A>, &View<B>, &View<C>).iter()`; shipyard picks the
/// shortest storage (`C`) and looks the others up through their sparse arrays.
pub mod w2 {
    use super::*;

    /// A world with the W2 population.
    pub struct State {
        /// The world.
        pub world: World,
    }

    /// Spawns `n` entities (see [`w2_has_c`]).
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        let (d_end, c_end) = (n / 4, n / 2);
        world.bulk_add_entity((0..d_end).map(|_| (A::default(), W2_B, W2_C, W2_D)));
        world.bulk_add_entity((d_end..c_end).map(|_| (A::default(), W2_B, W2_C)));
        world.bulk_add_entity((c_end..n).map(|_| (A::default(), W2_B)));
        State { world }
    }

    /// `a = b + c` in a system.
    pub fn run(s: &mut State) {
        s.world.run(|mut a: ViewMut<A>, b: View<B>, c: View<C>| {
            (&mut a, &b, &c)
                .iter()
                .for_each(|(a, b, c)| a_eq_b_plus_c(a, b, c));
        });
    }

    /// Entities whose `A` holds [`W2_A_AFTER`] (test helper).
    pub fn count_updated(s: &mut State) -> usize {
        s.world
            .run(|a: View<A>| a.iter().filter(|a| **a == W2_A_AFTER).count())
    }
}

/// W3: add `C` to / delete `C` from `n` `(A, B)` entities (no groups).
pub mod w3 {
    use super::*;

    /// A world with `n` `(A, B)` entities and their ids.
    pub struct State {
        world: World,
        entities: Vec<EntityId>,
    }

    /// Spawns `n` `(A, B)` entities.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        let entities = world
            .bulk_add_entity((0..n).map(|_| (A::default(), W2_B)))
            .as_slice()
            .to_vec();
        State { world, entities }
    }

    /// Add `C` to every entity, then delete it from every entity.
    pub fn run(s: &mut State) {
        let ids = &s.entities;
        s.world.run(|entities: EntitiesView, mut c: ViewMut<C>| {
            for &e in ids {
                entities.add_component(e, &mut c, W2_C);
            }
            for &e in ids {
                c.delete(e);
            }
        });
    }
}

/// W5: `(&mut ViewMut<Position>, &View<Velocity>, !&View<Frozen>).iter()` (shipyard's
/// `Not` filter). No groups in 0.11: the iteration walks one of the two full
/// 1,000,000-entity storages and tests each entity for the other and for `Frozen`.
pub mod w5 {
    use super::*;

    /// A world with the W5 population.
    pub struct State {
        /// The world.
        pub world: World,
    }

    /// Adds the `n` entities in index order (frozen ones as [`w5_is_frozen`] says).
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        for i in 0..n {
            if w5_is_frozen(i) {
                world.add_entity((Position::default(), VEL, Frozen));
            } else {
                world.add_entity((Position::default(), VEL));
            }
        }
        State { world }
    }

    /// `pos += vel` in a system, skipping the frozen entities.
    pub fn run(s: &mut State) {
        s.world.run(
            |mut pos: ViewMut<Position>, vel: View<Velocity>, frozen: View<Frozen>| {
                (&mut pos, &vel, !&frozen)
                    .iter()
                    .for_each(|(p, v, ())| p.add_velocity(v));
            },
        );
    }

    /// Position sums of the moving and the frozen entities (test helper).
    pub fn sums(s: &mut State) -> (f64, f64) {
        s.world.run(|pos: View<Position>, frozen: View<Frozen>| {
            let moving = (&pos, !&frozen).iter().map(|(p, ())| position_sum(p));
            let moving = moving.sum();
            let frozen = (&pos, &frozen).iter().map(|(p, _)| position_sum(p));
            (moving, frozen.sum())
        })
    }
}

/// W6: add `T` to / delete `T` from `n` `(A, B, C, D)` entities (no groups).
pub mod w6 {
    use super::*;

    /// A world with `n` `(A, B, C, D)` entities and their ids.
    pub struct State {
        world: World,
        entities: Vec<EntityId>,
    }

    /// Spawns `n` `(A, B, C, D)` entities.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        let entities = world
            .bulk_add_entity((0..n).map(|_| (A::default(), W2_B, W2_C, W2_D)))
            .as_slice()
            .to_vec();
        State { world, entities }
    }

    /// Add `T` to every entity, then delete it from every entity.
    pub fn run(s: &mut State) {
        let ids = &s.entities;
        s.world.run(|entities: EntitiesView, mut t: ViewMut<T>| {
            for &e in ids {
                entities.add_component(e, &mut t, T);
            }
            for &e in ids {
                t.delete(e);
            }
        });
    }

    /// Entities with all of `A`, `B`, `C`, `D`, and entities with `T` (test helper).
    pub fn counts(s: &mut State) -> (usize, usize) {
        s.world.run(
            |a: View<A>, b: View<B>, c: View<C>, d: View<D>, t: View<T>| {
                ((&a, &b, &c, &d).iter().count(), t.len())
            },
        )
    }
}

/// W4 (`simple_insert`): `bulk_add_entity` into a fresh world.
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

    /// Spawns `n` entities with `bulk_add_entity`.
    pub fn run(s: &mut State) {
        s.world
            .bulk_add_entity((0..s.n).map(|_| transform_bundle()));
    }

    /// Spawns `n` entities one call each: `add_entity`.
    pub fn run_each(s: &mut State) {
        for _ in 0..s.n {
            s.world.add_entity(transform_bundle());
        }
    }

    /// A world already holding `n` entities spawned the same way (untimed).
    pub fn setup_populated(n: usize) -> State {
        let mut s = setup(n);
        run(&mut s);
        s
    }

    /// Entities with a `Position` (test helper).
    pub fn len(s: &mut State) -> usize {
        s.world.run(|pos: View<Position>| pos.len())
    }
}

/// ecs_bench_suite `simple_iter`.
pub mod simple_iter {
    use super::*;

    /// A world with `n` four-component entities.
    pub struct State {
        world: World,
    }

    /// Spawns `n` entities with `bulk_add_entity`.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        world.bulk_add_entity((0..n).map(|_| transform_bundle()));
        State { world }
    }

    /// `pos += vel` in a system.
    pub fn run(s: &mut State) {
        s.world
            .run(|vel: View<Velocity>, mut pos: ViewMut<Position>| {
                (&vel, &mut pos).iter().for_each(|(v, p)| p.add_velocity(v));
            });
    }
}

/// ecs_bench_suite `fragmented_iter`.
pub mod fragmented_iter {
    use crate::components::frag::*;
    use shipyard::{IntoIter, ViewMut, World};

    /// A world with 26 × 20 entities (one `Data` storage of 520).
    pub struct State {
        world: World,
    }

    /// Spawns 20 `(X(0.0), Data(1.0))` per type.
    pub fn setup() -> State {
        let mut world = World::new();
        macro_rules! spawn {
            ($($t:ident),*) => {
                $(
                    world.bulk_add_entity((0..PER_TYPE).map(|_| ($t(0.0), Data(1.0))));
                )*
            };
        }
        for_each_frag_type!(spawn);
        State { world }
    }

    /// `data *= 2` in a system.
    pub fn run(s: &mut State) {
        s.world.run(|mut data: ViewMut<Data>| {
            (&mut data).iter().for_each(|d| d.0 *= 2.0);
        });
    }
}

/// ecs_bench_suite `add_remove_component`.
pub mod add_remove {
    use super::*;

    /// A world with `n` `SA` entities and their ids.
    pub struct State {
        world: World,
        entities: Vec<EntityId>,
    }

    /// Spawns `n` `(SA(0.0),)` entities.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        let entities = world
            .bulk_add_entity((0..n).map(|_| (SA(0.0),)))
            .as_slice()
            .to_vec();
        State { world, entities }
    }

    /// Add `SB` to every entity, then delete it from every entity.
    pub fn run(s: &mut State) {
        let ids = &s.entities;
        s.world.run(|entities: EntitiesView, mut b: ViewMut<SB>| {
            for &e in ids {
                entities.add_component(e, &mut b, SB(0.0));
            }
            for &e in ids {
                b.delete(e);
            }
        });
    }
}

/// `view_overlap`: `(&mut ViewMut<A>, &View<B>).iter()`; no groups: shipyard walks one of
/// the two 1M storages and looks the other up.
pub mod view_overlap {
    use super::*;

    /// The world.
    pub struct State {
        world: World,
    }

    /// Adds the `3n / 2` entities in index order with `bulk_add_entity`, one per kind.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        world.bulk_add_entity((0..n / 2).map(|_| (A::default(),)));
        world.bulk_add_entity((n / 2..n).map(|_| (A::default(), OVERLAP_B)));
        world.bulk_add_entity((n..overlap_total(n)).map(|_| (OVERLAP_B,)));
        State { world }
    }

    /// `a += b` in a system.
    pub fn run(s: &mut State) {
        s.world.run(|mut a: ViewMut<A>, b: View<B>| {
            (&mut a, &b).iter().for_each(|(a, b)| a_plus_eq_b(a, b));
        });
    }

    /// Sum of lane 0 of every `A` (test helper).
    pub fn a_sum(s: &mut State) -> f64 {
        s.world
            .run(|a: View<A>| a.iter().map(|a| f64::from(a.0[0])).sum())
    }
}

/// ecs_bench_suite `heavy_compute`: `(&mut ViewMut<Position>, &mut ViewMut<Transform>)
/// .par_iter()` (feature `parallel`; rayon's global pool).
pub mod heavy_compute {
    use super::*;
    use rayon::iter::ParallelIterator;

    /// The world.
    pub struct State {
        world: World,
    }

    /// Adds `n` [`heavy_bundle`] entities with `bulk_add_entity`.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        world.bulk_add_entity((0..n).map(|_| heavy_bundle()));
        State { world }
    }

    /// [`heavy_compute()`] on every entity in parallel, in a system.
    pub fn run(s: &mut State) {
        s.world
            .run(|mut pos: ViewMut<Position>, mut mat: ViewMut<Transform>| {
                (&mut pos, &mut mat)
                    .par_iter()
                    .for_each(|(p, t)| heavy_compute(p, t));
            });
    }

    /// Every entity's `(Position, Transform)` (test helper).
    pub fn results(s: &mut State) -> Vec<(Position, Transform)> {
        s.world.run(|pos: View<Position>, mat: View<Transform>| {
            (&pos, &mat).iter().map(|(p, t)| (*p, *t)).collect()
        })
    }
}

/// ecs_bench_suite `schedule`: the three systems in one workload; with the `parallel`
/// feature `run_workload` runs the systems of a batch (here all three: they borrow
/// disjoint storages, `C` shared) at once on rayon's global pool. `run_serial` runs the
/// three systems one after the other with `World::run`.
pub mod schedule {
    use crate::components::sched::{self, A, B, C, D, E};
    use shipyard::{IntoIter, IntoWorkload, View, ViewMut, Workload, World};

    fn ab(a: View<A>, mut b: ViewMut<B>) {
        (&a, &mut b).iter().for_each(|(a, b)| sched::ab(a, b));
    }
    fn cd(c: View<C>, mut d: ViewMut<D>) {
        (&c, &mut d).iter().for_each(|(c, d)| sched::cd(c, d));
    }
    fn ce(c: View<C>, mut e: ViewMut<E>) {
        (&c, &mut e).iter().for_each(|(c, e)| sched::ce(c, e));
    }

    /// The workload, as shipyard's guide declares one.
    fn systems() -> Workload {
        (ab, cd, ce).into_workload()
    }

    /// The world (its workload added).
    pub struct State {
        world: World,
    }

    /// Adds the four kinds of entity with `bulk_add_entity` and the workload.
    pub fn setup() -> State {
        let n = sched::PER_KIND;
        let mut world = World::new();
        world.bulk_add_entity((0..n).map(|_| sched::ab_bundle()));
        world.bulk_add_entity((0..n).map(|_| sched::abc_bundle()));
        world.bulk_add_entity((0..n).map(|_| sched::abcd_bundle()));
        world.bulk_add_entity((0..n).map(|_| sched::abce_bundle()));
        world.add_workload(systems);
        State { world }
    }

    /// `world.run_workload(systems)`.
    pub fn run(s: &mut State) {
        s.world.run_workload(systems).expect("the workload runs");
    }

    /// The three systems one after the other (`World::run`).
    pub fn run_serial(s: &mut State) {
        s.world.run(ab);
        s.world.run(cd);
        s.world.run(ce);
    }

    /// `(Σ B, Σ D, Σ E)` (test helper).
    pub fn sums(s: &mut State) -> (f64, f64, f64) {
        s.world.run(|b: View<B>, d: View<D>, e: View<E>| {
            (
                sched::total(b.iter(), |x| x.0),
                sched::total(d.iter(), |x| x.0),
                sched::total(e.iter(), |x| x.0),
            )
        })
    }
}

/// ecs_bench_suite `serialize_binary` with shipyard's serde support (feature `serde1`):
/// each `View<T>` serializes as a sequence of `(EntityId, T)` and `ViewMut<T>`
/// deserializes in place (`World::deserialize`), so the ids are kept. Its `EntitiesView`
/// serializes as a sequence of unknown length, which postcard (length-prefixed) refuses,
/// so the alive ids are written by a small wrapper that counts them first; on load
/// `EntitiesViewMut` reads them back (spawning each id).
pub mod serialize_binary {
    use crate::components::{Position, Rotation, Transform, Velocity};
    use shipyard::{EntitiesView, EntitiesViewMut, EntityId, View, ViewMut, World};

    /// The alive ids of an `EntitiesView` as a sequence of known length.
    struct Ids<'a, 'v>(&'a EntitiesView<'v>);

    impl serde::Serialize for Ids<'_, '_> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeSeq;
            let mut seq = serializer.serialize_seq(Some(self.0.iter().count()))?;
            for id in self.0.iter() {
                seq.serialize_element(&id)?;
            }
            seq.end()
        }
    }

    type Saved<'v> = (
        EntitiesView<'v>,
        View<'v, Transform>,
        View<'v, Position>,
        View<'v, Rotation>,
        View<'v, Velocity>,
    );
    type Loaded<'v> = (
        EntitiesViewMut<'v>,
        ViewMut<'v, Transform>,
        ViewMut<'v, Position>,
        ViewMut<'v, Rotation>,
        ViewMut<'v, Velocity>,
    );

    /// The populated world and its entities.
    pub struct State {
        /// The world `run` saves.
        pub world: World,
        /// Entity `i` of the population.
        pub entities: Vec<EntityId>,
    }

    /// Adds `n` entities of [`crate::ours::serialize_binary::bundle`] with
    /// `bulk_add_entity`.
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        let bundle = crate::ours::serialize_binary::bundle;
        let entities = world.bulk_add_entity((0..n).map(bundle)).collect();
        State { world, entities }
    }

    /// The ids and the four views to postcard, then `World::deserialize` of the same
    /// views (in place) into a new world.
    pub fn round_trip(world: &World) -> World {
        let (entities, t, p, r, v) = world.borrow::<Saved<'_>>().expect("no conflict");
        let bytes =
            postcard::to_stdvec(&(Ids(&entities), &t, &p, &r, &v)).expect("a world serializes");
        let loaded = World::new();
        loaded
            .deserialize::<_, Loaded<'_>>(&mut postcard::Deserializer::from_bytes(&bytes))
            .unwrap_or_else(|_| panic!("its snapshot loads"));
        loaded
    }

    /// Bench body: [`round_trip`].
    pub fn run(s: &mut State) {
        std::hint::black_box(round_trip(&s.world));
    }

    /// Each entity's four components in `world`, and whether it is alive (test helper).
    pub fn components_of(
        world: &World,
        entities: &[EntityId],
    ) -> Vec<(bool, Transform, Position, Rotation, Velocity)> {
        world.run(
            |e: EntitiesView,
             t: View<Transform>,
             p: View<Position>,
             r: View<Rotation>,
             v: View<Velocity>| {
                entities
                    .iter()
                    .map(|&id| (e.is_alive(id), t[id], p[id], r[id], v[id]))
                    .collect()
            },
        )
    }
}

/// The realistic frame ([`crate::components::frame`]): one `World::run` system per
/// workload system, iterating a tuple of views. No groups in 0.11: a multi-view iteration
/// walks the shortest of its storages and looks the others up.
pub mod frame {
    use crate::components::frame::*;
    use shipyard::{EntitiesView, Get, IntoIter, View, ViewMut, World};

    /// The world and the frame buffer.
    pub struct State {
        world: World,
        /// What the last frame drew.
        pub fb: FrameBuffer,
    }

    /// Adds the `n` entities one `add_entity` each in index order (one component tuple
    /// per kind).
    pub fn setup(n: usize) -> State {
        let mut world = World::new();
        spawn_each!(n, |bundle| {
            world.add_entity(bundle);
        });
        State {
            world,
            fb: FrameBuffer::default(),
        }
    }

    /// One frame: the seven systems in order, each in `World::run`; `render` borrows the
    /// frame buffer beside the world.
    pub fn run(s: &mut State) {
        let w = &s.world;
        w.run(|mut pos: ViewMut<Pos>, vel: View<Vel>| {
            (&mut pos, &vel).iter().for_each(|(p, v)| movement(p, v));
        });
        w.run(|mut dat: ViewMut<Data>| {
            (&mut dat).iter().for_each(data);
        });
        w.run(|mut vel: ViewMut<Vel>, pos: View<Pos>, dat: View<Data>| {
            (&mut vel, &pos, &dat)
                .iter()
                .for_each(|(v, p, d)| more_complex(v, p, d));
        });
        w.run(|mut hp: ViewMut<Health>| {
            (&mut hp).iter().for_each(health);
        });
        w.run(|mut hp: ViewMut<Health>, dmg: View<Damage>| {
            (&mut hp, &dmg).iter().for_each(|(h, d)| damage(h, d));
        });
        w.run(
            |mut spr: ViewMut<Sprite>, ply: View<Player>, hp: View<Health>| {
                (&mut spr, &ply, &hp)
                    .iter()
                    .for_each(|(sp, p, h)| sprite(sp, p, h));
            },
        );
        let fb = &mut s.fb;
        fb.clear();
        w.run(|pos: View<Pos>, spr: View<Sprite>| {
            (&pos, &spr).iter().for_each(|(p, sp)| render(fb, p, sp));
        });
    }

    /// Every entity's components (test helper).
    pub fn rows(s: &mut State) -> Vec<Row> {
        s.world.run(
            |entities: EntitiesView,
             pos: View<Pos>,
             vel: View<Vel>,
             dat: View<Data>,
             hp: View<Health>,
             dmg: View<Damage>,
             spr: View<Sprite>,
             ply: View<Player>| {
                entities
                    .iter()
                    .map(|e| Row {
                        pos: pos.get(e).ok().copied(),
                        vel: vel.get(e).ok().copied(),
                        data: dat.get(e).ok().copied(),
                        health: hp.get(e).ok().copied(),
                        damage: dmg.get(e).ok().copied(),
                        sprite: spr.get(e).ok().copied(),
                        player: ply.get(e).ok().copied(),
                    })
                    .collect()
            },
        )
    }
}
