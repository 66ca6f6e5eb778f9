//! The run-time world's map from component type to storage: a `HashMap` keyed by
//! `TypeId` whose hasher passes the id's own hash through.
//!
//! A `TypeId` is already a high-quality hash of the type (its `Hash` writes 64 of its
//! bits), so hashing it again with SipHash, the default, only costs: it was most of a
//! `World::spawn_with` or `insert` (four lookups per spawn of four components).

use core::any::TypeId;
use core::hash::{BuildHasherDefault, Hasher};
use std::collections::HashMap;

/// Component type → storage index.
pub(crate) type TypeMap = HashMap<TypeId, usize, BuildHasherDefault<TypeIdHasher>>;

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
        map.insert(TypeId::of::<u8>(), 0);
        map.insert(TypeId::of::<u16>(), 1);
        map.insert(TypeId::of::<(u8, u16)>(), 2);
        assert_eq!(map[&TypeId::of::<u8>()], 0);
        assert_eq!(map[&TypeId::of::<u16>()], 1);
        assert_eq!(map[&TypeId::of::<(u8, u16)>()], 2);
        assert!(!map.contains_key(&TypeId::of::<u32>()));
    }
}
