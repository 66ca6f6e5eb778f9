//! The run-time world's map from component type to storage: a `HashMap` keyed by
//! `TypeId` whose hasher passes the id's own hash through, behind a small direct-mapped
//! table that answers most lookups with one compare.
//!
//! A `TypeId` is already a high-quality hash of the type (its `Hash` writes 64 of its
//! bits), so hashing it again with SipHash, the default, only costs: it was most of a
//! `World::spawn_with` or `insert` (four lookups per spawn of four components). Even
//! passed through, a `HashMap` probe is a call of some 50–70 instructions; the front
//! table, indexed by four of those bits, is a load and a compare, inlined.
//!
//! ```text
//! front: [ (C, 2) | -- | (A, 0) | (B, 1) | -- | … ]   slot = (hash(id) >> shift) % FRONT_LEN
//! map:   { A: 0, B: 1, C: 2, D: 3 }                   every type (here no shift separates
//!                                                     D from A: D is found in the map)
//! ```
//!
//! Which four bits (`shift`) is chosen when a type lands in a taken slot: the window that
//! leaves the fewest types out, trying each. With up to about eight component types some
//! window almost always separates them all, so every lookup is a front hit (simulated with
//! random 64-bit hashes: no window separates 0.2% of sets of eight, a quarter of sets of
//! ten, 84% of sets of twelve).
//! Once no window separates the types, none separates more of them: later types are
//! looked up in the map, and the windows are not searched again.

use core::any::TypeId;
use core::hash::{BuildHasherDefault, Hash, Hasher};
use core::ops::Index;
use std::collections::HashMap;

/// The front table's length: 16 slots of 32 bytes.
const FRONT_LEN: usize = 16;
const _: () = assert!(FRONT_LEN.is_power_of_two());
/// The largest shift that still leaves `log2(FRONT_LEN)` bits of the hash.
const MAX_SHIFT: u32 = u64::BITS - FRONT_LEN.ilog2();

/// Component type → storage index. Invariant: every entry of `front` is an entry of `map`
/// (all `get` needs to be right), held in the slot its id's hash gives under `shift`
/// (what makes it found); entries are removed only from the last registered on.
#[derive(Default)]
pub(crate) struct TypeMap {
    map: HashMap<TypeId, usize, BuildHasherDefault<TypeIdHasher>>,
    /// Per slot, at most one of the types hashing to it, with its index.
    front: [Option<(TypeId, usize)>; FRONT_LEN],
    /// Which bits of the ids' hashes pick the slot.
    shift: u32,
    /// No shift separates the registered types: new ones take a free slot or stay in the
    /// map, without a search.
    crowded: bool,
}

/// `id`'s hash.
#[inline(always)]
fn hash(id: &TypeId) -> u64 {
    let mut hasher = TypeIdHasher::default();
    id.hash(&mut hasher);
    hasher.finish()
}

/// The front slot of a hash under `shift`.
#[inline(always)]
fn slot_of(hash: u64, shift: u32) -> usize {
    (hash >> shift) as usize % FRONT_LEN
}

impl TypeMap {
    /// `id`'s slot in the front table.
    #[inline(always)]
    fn slot(&self, id: &TypeId) -> usize {
        slot_of(hash(id), self.shift)
    }

    /// The storage index of `id`.
    #[inline(always)]
    pub(crate) fn get(&self, id: &TypeId) -> Option<&usize> {
        match &self.front[self.slot(id)] {
            Some((front, index)) if front == id => Some(index),
            _ => self.get_in_map(id),
        }
    }

    /// The storage index of `id`, from the map: kept out of line, so that each caller
    /// inlines the front table's compare only.
    #[inline(never)]
    fn get_in_map(&self, id: &TypeId) -> Option<&usize> {
        self.map.get(id)
    }

    /// The storage index of `id`, registered with `register` if it has none.
    pub(crate) fn get_or_insert_with(
        &mut self,
        id: TypeId,
        register: impl FnOnce() -> usize,
    ) -> usize {
        if let Some(&index) = self.get(&id) {
            return index;
        }
        let index = register();
        self.map.insert(id, index);
        let slot = self.slot(&id);
        if self.front[slot].is_none() {
            self.front[slot] = Some((id, index));
        } else if !self.crowded {
            self.reseat();
        }
        index
    }

    /// Forgets the types of storage index `count` and above (the last registered).
    pub(crate) fn forget_from(&mut self, count: usize) {
        self.map.retain(|_, index| *index < count);
        for slot in &mut self.front {
            if slot.is_some_and(|(_, index)| index >= count) {
                *slot = None;
            }
        }
    }

    /// Picks the shift that leaves the fewest types out of the front table (the smallest
    /// of the best), and refills the table from the map.
    fn reseat(&mut self) {
        let left_out = |shift: u32| {
            let mut taken = [false; FRONT_LEN];
            let mut out = 0;
            for id in self.map.keys() {
                let slot = slot_of(hash(id), shift);
                if taken[slot] {
                    out += 1;
                }
                taken[slot] = true;
            }
            out
        };
        let mut best = (usize::MAX, 0);
        for shift in 0..=MAX_SHIFT {
            best = best.min((left_out(shift), shift));
            if best.0 == 0 {
                break;
            }
        }
        self.crowded = best.0 > 0;
        self.shift = best.1;
        self.front = [None; FRONT_LEN];
        for (&id, &index) in &self.map {
            let slot = self.slot(&id);
            self.front[slot].get_or_insert((id, index));
        }
    }

    /// Every type with its storage index.
    #[cfg(feature = "serde")]
    pub(crate) fn iter(&self) -> impl Iterator<Item = (&TypeId, &usize)> {
        self.map.iter()
    }
}

impl Index<&TypeId> for TypeMap {
    type Output = usize;

    /// # Panics
    /// Panics if `id` has no storage.
    fn index(&self, id: &TypeId) -> &usize {
        self.get(id).expect("a registered component type")
    }
}

/// Passes a `TypeId`'s 64 bits through; any other input is folded with FNV-1a, so the
/// map stays correct (if slower) should `TypeId` ever hash otherwise.
#[derive(Default)]
pub(crate) struct TypeIdHasher(u64);

impl Hasher for TypeIdHasher {
    fn write(&mut self, bytes: &[u8]) {
        const PRIME: u64 = 0x0000_0100_0000_01b3;
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(PRIME);
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = self.0.rotate_left(5) ^ n;
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_types_find_their_own_entries() {
        let mut map = TypeMap::default();
        map.get_or_insert_with(TypeId::of::<u8>(), || 0);
        map.get_or_insert_with(TypeId::of::<u16>(), || 1);
        map.get_or_insert_with(TypeId::of::<(u8, u16)>(), || 2);
        assert_eq!(map[&TypeId::of::<u8>()], 0);
        assert_eq!(map[&TypeId::of::<u16>()], 1);
        assert_eq!(map[&TypeId::of::<(u8, u16)>()], 2);
        assert_eq!(map.get(&TypeId::of::<u32>()), None);
    }

    #[test]
    fn types_sharing_a_front_slot_find_their_own_entries() {
        // More types than slots: some share a slot and are found in the map behind it.
        macro_rules! ids {
            ($($n:literal)*) => { [$(TypeId::of::<[u8; $n]>()),*] };
        }
        let ids = ids!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39);
        let mut map = TypeMap::default();
        for (i, &id) in ids.iter().enumerate() {
            assert_eq!(map.get_or_insert_with(id, || i), i);
        }
        for (i, id) in ids.iter().enumerate() {
            assert_eq!(map[id], i);
            assert_eq!(
                map.get_or_insert_with(*id, || unreachable!("registered")),
                i
            );
        }
        assert_eq!(map.map.len(), ids.len());
        assert!(map.crowded, "no shift separates 40 types in 16 slots");
        assert!(
            ids.iter()
                .any(|id| map.front[map.slot(id)].is_some_and(|(f, _)| f != *id))
        );
        assert_eq!(map.get(&TypeId::of::<u32>()), None);
    }

    /// Two types whose hashes give one slot under the first shift: the second one
    /// registered moves the table to another shift, where both are front hits.
    #[test]
    fn a_type_landing_in_a_taken_slot_moves_the_table() {
        macro_rules! ids {
            ($($n:literal)*) => { [$(TypeId::of::<[u16; $n]>()),*] };
        }
        // Seventeen types: two of them share a slot under shift 0.
        let ids = ids!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
        let (a, b) = (0..ids.len())
            .flat_map(|i| (i + 1..ids.len()).map(move |j| (i, j)))
            .find(|&(i, j)| slot_of(hash(&ids[i]), 0) == slot_of(hash(&ids[j]), 0))
            .expect("more types than slots");
        let mut map = TypeMap::default();
        map.get_or_insert_with(ids[a], || 0);
        map.get_or_insert_with(ids[b], || 1);
        assert_ne!(map.shift, 0);
        assert!(!map.crowded);
        assert_eq!(map.front[map.slot(&ids[a])], Some((ids[a], 0)));
        assert_eq!(map.front[map.slot(&ids[b])], Some((ids[b], 1)));
    }

    #[test]
    fn a_few_types_are_all_found_in_the_front_table() {
        let ids = [
            TypeId::of::<u8>(),
            TypeId::of::<u16>(),
            TypeId::of::<u32>(),
            TypeId::of::<u64>(),
            TypeId::of::<i8>(),
            TypeId::of::<i16>(),
        ];
        let mut map = TypeMap::default();
        for (i, &id) in ids.iter().enumerate() {
            map.get_or_insert_with(id, || i);
        }
        for (i, id) in ids.iter().enumerate() {
            assert_eq!(map.front[map.slot(id)], Some((*id, i)), "type {i}");
        }
    }
}
