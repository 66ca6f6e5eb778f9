//! The model and `Harness`: the world under test, its model, and the handles it handed out.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use sparse_core::{Entity, World};

use crate::components::{A, B, C, Comps, D, E, F, G, H, I, J, K, L, M, N, O, TYPES};
use crate::groups::{GROUPS, Grp};
use crate::ops::Target;
use crate::world_calls::storage_order;

/// A cheap hasher for the model's entity keys (the default one dominates the run time of
/// a debug build).
#[derive(Default)]
pub(crate) struct EntityHasher(u64);

impl Hasher for EntityHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = self.0.rotate_left(32) ^ u64::from(n);
    }
}

/// The model: component values of every alive entity.
pub(crate) type Model = HashMap<Entity, Comps, BuildHasherDefault<EntityHasher>>;

pub(crate) fn sorted(mut entities: Vec<Entity>) -> Vec<Entity> {
    entities.sort_unstable();
    entities
}

/// The world under test and its model.
pub(crate) struct Harness {
    pub(crate) world: World,
    /// The model: component values of every alive entity.
    pub(crate) model: Model,
    /// Alive entities, in spawn order.
    pub(crate) alive: Vec<Entity>,
    /// Destroyed entities, in destruction order.
    pub(crate) dead: Vec<Entity>,
    /// Every handle ever spawned, in spawn order.
    pub(crate) all: Vec<Entity>,
    /// `(outer, inner)` pairs of nested groups.
    pub(crate) nesting: Vec<(Grp, Grp)>,
}

impl Harness {
    pub(crate) fn new(world: World) -> Self {
        let nesting = GROUPS
            .into_iter()
            .flat_map(|outer| outer.inner().into_iter().map(move |inner| (outer, inner)))
            .collect();
        Harness {
            world,
            model: Model::default(),
            alive: Vec::new(),
            dead: Vec::new(),
            all: Vec::new(),
            nesting,
        }
    }

    pub(crate) fn resolve(&self, target: Target) -> Entity {
        let pick = |list: &[Entity], i: usize| (!list.is_empty()).then(|| list[i % list.len()]);
        let picked = match target {
            Target::Alive(i) => pick(&self.alive, i),
            Target::Any(i) => pick(&self.all, i),
            Target::Dead(i) => pick(&self.dead, i),
            Target::Foreign(i) => Entity::from_raw_parts(i, 1),
            Target::FutureVersion(i) => pick(&self.alive, i)
                .and_then(|e| Entity::from_raw_parts(e.index(), e.version() + 1)),
        };
        picked.unwrap_or_else(|| Entity::from_raw_parts(2_000_000, 1).expect("valid raw parts"))
    }

    /// The entity order of every storage.
    pub(crate) fn layout(&self) -> Vec<Vec<Entity>> {
        (0..TYPES)
            .map(|ty| dispatch!(ty, storage_order(&self.world)))
            .collect()
    }

    /// The model's entities passing `group`'s filter, sorted.
    pub(crate) fn members(&self, group: Grp) -> Vec<Entity> {
        let members = self
            .model
            .iter()
            .filter(|(_, c)| group.matches(c))
            .map(|(&e, _)| e);
        sorted(members.collect())
    }

    /// Records a new alive entity with `comps`, checking that its handle is new.
    pub(crate) fn model_spawn(&mut self, e: Entity, comps: Comps) -> Result<(), String> {
        ensure!(
            !self.model.contains_key(&e) && !self.all.contains(&e),
            "{e:?} was handed out before"
        );
        self.model.insert(e, comps);
        self.alive.push(e);
        self.all.push(e);
        Ok(())
    }

    /// Records that the alive `e` was destroyed.
    pub(crate) fn model_destroy(&mut self, e: Entity) {
        self.model.remove(&e);
        self.alive.retain(|&a| a != e);
        self.dead.push(e);
    }

    /// The number of the model's entities having the type of index `ty`.
    pub(crate) fn count(&self, ty: usize) -> usize {
        self.model.values().filter(|c| c[ty].is_some()).count()
    }
}
