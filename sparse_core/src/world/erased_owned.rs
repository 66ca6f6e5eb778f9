//! The group engine's view of a run-time world's storages.

use crate::MAX_TUPLE;
use crate::entity::Entity;
use crate::group::{Hint, OwnedSealed, OwnedStorages};
use crate::storage::ErasedStorage;

/// The storages a group owns, among a run-time world's type-erased storages.
pub(super) struct ErasedOwned<'a> {
    storages: &'a mut [Box<dyn ErasedStorage>],
    /// Indices of the owned storages in `storages`, in the group's order.
    owned: &'a [usize],
}

impl<'a> ErasedOwned<'a> {
    pub(super) fn new(storages: &'a mut [Box<dyn ErasedStorage>], owned: &'a [usize]) -> Self {
        debug_assert!(owned.len() <= MAX_TUPLE && owned.iter().all(|&s| s < storages.len()));
        ErasedOwned { storages, owned }
    }

    fn entities(&self, slot: usize) -> &[Entity] {
        self.storages[self.owned[slot]].entity_set().as_slice()
    }
}

/// An entity's position in each owned storage.
pub(super) struct Positions {
    at: [usize; MAX_TUPLE],
    count: usize,
}

impl OwnedSealed for ErasedOwned<'_> {}

impl OwnedStorages for ErasedOwned<'_> {
    type Positions = Positions;

    fn find(&self, entity: Entity, hint: Hint) -> Option<Positions> {
        let mut positions = Positions {
            at: [0; MAX_TUPLE],
            count: self.owned.len(),
        };
        for slot in 0..self.owned.len() {
            positions.at[slot] = self.locate_in(slot, entity, hint)?;
        }
        Some(positions)
    }

    fn any_below(positions: &Positions, len: usize) -> bool {
        positions.at[..positions.count].iter().any(|&p| p < len)
    }

    fn slot_position(positions: &Positions, slot: usize) -> Option<usize> {
        positions.at[..positions.count].get(slot).copied()
    }

    fn locate(&self, entity: Entity, hint: Hint) -> Option<usize> {
        if let Some(position) = self.hinted(entity, hint) {
            return Some(position);
        }
        self.storages[*self.owned.first()?]
            .entity_set()
            .index_of(entity)
    }

    fn min_len(&self) -> usize {
        self.owned
            .iter()
            .map(|&storage| self.storages[storage].filed_len())
            .min()
            .unwrap_or(0)
    }

    fn aligned_at(&self, position: usize) -> bool {
        let entity = self.entities(0)[position];
        (0..self.owned.len()).all(|slot| self.entities(slot)[position] == entity)
    }

    unsafe fn gather_to(&mut self, positions: &Positions, target: usize) {
        for (slot, &storage) in self.owned.iter().enumerate() {
            // SAFETY: forwarded from the caller: every position and `target` are in
            // bounds of their storage.
            unsafe { self.storages[storage].swap_unchecked(positions.at[slot], target) };
        }
    }

    unsafe fn swap_aligned(&mut self, a: usize, b: usize) {
        for &storage in self.owned {
            // SAFETY: forwarded from the caller: `a` and `b` are in bounds of every owned
            // storage.
            unsafe { self.storages[storage].swap_unchecked(a, b) };
        }
    }

    fn run_at(&self, position: usize, entities: &[Entity], skip: u32) -> usize {
        (0..self.owned.len())
            .filter(|slot| skip >> slot & 1 == 0)
            .fold(entities.len(), |run, slot| {
                let held = self.entities(slot).get(position..).unwrap_or(&[]);
                crate::group::common_prefix(held, &entities[..run])
            })
    }

    fn first_entities(&self) -> &[Entity] {
        self.owned.first().map_or(&[], |_| self.entities(0))
    }

    fn permute_prefix(&mut self, sources: &[u32]) {
        for &storage in self.owned {
            self.storages[storage].apply_sources(sources);
        }
    }
}

impl ErasedOwned<'_> {
    /// The hinted position, if the hint is for one of these storages and holds `entity`.
    fn hinted(&self, entity: Entity, hint: Hint) -> Option<usize> {
        let slot = hint.slot().unwrap_or(0);
        let position = hint.position();
        (slot < self.owned.len()
            && hint.slot_or_anywhere()
            && self.entities(slot).get(position) == Some(&entity))
        .then_some(position)
    }

    /// `entity`'s position in the owned storage number `slot`.
    fn locate_in(&self, slot: usize, entity: Entity, hint: Hint) -> Option<usize> {
        let position = hint.position();
        let hinted = (hint.slot() == Some(slot) || hint.is_anywhere())
            && self.entities(slot).get(position) == Some(&entity);
        if hinted {
            return Some(position);
        }
        self.storages[self.owned[slot]]
            .entity_set()
            .index_of(entity)
    }
}
