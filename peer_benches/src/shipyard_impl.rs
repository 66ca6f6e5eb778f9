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
