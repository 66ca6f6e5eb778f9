//! The run-time world's map from component type to storage: a `HashMap` keyed by
//! `TypeId` whose hasher passes the id's own hash through, behind a small direct-mapped
//! table that answers most lookups with one compare.
//!
//! A `TypeId` is already a high-quality hash of the type (its `Hash` writes 64 of its
//! bits), so hashing it again with SipHash, the default, only costs: it was most of a
//! `World::spawn_with` or `insert` (four lookups per spawn of four components). Even
//! passed through, a `HashMap` probe is a call of some 50–70 instructions; the front
//! table, indexed by a few of those bits, is a load and a compare, inlined.
//!
//! ```text
//! front: [ (C, 2) | -- | (A, 0) | (B, 1) | -- | … ]   slot = (hash(id) >> shift) % FRONT
//! map:   { A: 0, B: 1, C: 2, D: 3 }                   every type; D shares A's slot
//! ```
//!
//! The shift is chosen when a type is registered so that no two types share a slot while
//! that is possible: with a handful of component types, every lookup is a front hit.

use core::any::TypeId;
use core::hash::{BuildHasherDefault, Hash, Hasher};
use core::ops::Index;
use std::collections::HashMap;

/// The front table's length.
const FRONT: usize = 16;

/// Component type → storage index. Invariant: every entry of `front` is also in `map`,
/// in the slot its id hashes to under `shift`; entries are never removed.
#[derive(Default)]
pub(crate) struct TypeMap {
    map: HashMap<TypeId, usize, BuildHasherDefault<TypeIdHasher>>,
    /// One type of each slot.
    front: [Option<(TypeId, usize)>; FRONT],
    /// Which of the ids' hash bits pick the slot: chosen so that the registered types
    /// share no slot, while they fit.
    shift: u32,
}

/// `id`'s hash.
#[inline(always)]
fn hash(id: &TypeId) -> u64 {
    let mut hasher = TypeIdHasher::default();
    id.hash(&mut hasher);
    hasher.finish()
}

impl TypeMap {
    /// `id`'s slot in the front table.
    #[inline(always)]
    fn slot(&self, id: &TypeId) -> usize {
        (hash(id) >> self.shift) as usize % FRONT
    }

    /// The storage index of `id`.
    #[inline(always)]
    pub(crate) fn get(&self, id: &TypeId) -> Option<&usize> {
        match &self.front[self.slot(id)] {
            Some((front, index)) if front == id => Some(index),
            _ => self.map.get(id),
        }
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
        } else {
            self.reseat();
        }
        index
    }

    /// Picks the hash bits that leave the fewest types out of the front table (the first
    /// shift with none, if one exists), and refills it.
    fn reseat(&mut self) {
        let left_out = |shift: u32| {
            let mut taken = [false; FRONT];
            self.map
                .keys()
                .filter(|id| {
                    let slot = (hash(id) >> shift) as usize % FRONT;
                    core::mem::replace(&mut taken[slot], true)
                })
                .count()
        };
        let mut best = (left_out(self.shift), self.shift);
        for shift in 0..=(u64::BITS - FRONT.trailing_zeros()) {
            if best.0 == 0 {
                break;
            }
            best = best.min((left_out(shift), shift));
        }
        self.shift = best.1;
        self.front = [None; FRONT];
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
        assert!(
            ids.iter()
                .any(|id| map.front[map.slot(id)].is_some_and(|(f, _)| f != *id))
        );
        assert_eq!(map.get(&TypeId::of::<u32>()), None);
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
