//! Sorting a group layer by layer, so that the groups nested in it stay valid.
//!
//! ```text
//! <A,B>   : [ e2 e9 e5 | e7 e1 e4 e8 ]   each layer between two nested groups is sorted
//! <A,B,C> : [ e2 e9 e5 ]                 on its own: the inner group stays a prefix
//! ```

use core::cmp::Ordering;

use crate::component_set::ComponentSet;
use crate::component_set::sealed::Sealed as _;
use crate::entity::Entity;
use crate::group::GroupKey;
use crate::storage::{RadixKey, SparseSet, Storage, radix_sort_pairs};

/// How a group sort orders each layer: by a comparator ([`sort_group`]), by a key read
/// once per member ([`sort_group_by_key`]), or by a radix key
/// ([`sort_group_by_radix_key`]). Sealed: the layer it sorts must stay a permutation.
///
/// [`sort_group`]: crate::HasGroup::sort_group
/// [`sort_group_by_key`]: crate::HasGroup::sort_group_by_key
/// [`sort_group_by_radix_key`]: crate::HasGroup::sort_group_by_radix_key
pub trait GroupOrder<K: GroupKey>: sealed::Sealed {
    /// Sorts `positions` (a layer of the group) by the items `item` reads at them.
    #[doc(hidden)]
    fn sort_layer<'s>(&mut self, positions: &mut [u32], item: impl FnMut(u32) -> K::Item<'s>);
}

mod sealed {
    pub trait Sealed {}
}

/// Orders by a comparator (std's unstable sort: equal items may swap).
pub(crate) struct ByComparator<F>(pub(crate) F);
/// Orders by a key read once per member, stably.
pub(crate) struct ByKey<F>(pub(crate) F);
/// Orders by an integer or float key with a radix sort, stably.
pub(crate) struct ByRadixKey<F>(pub(crate) F);

impl<F> sealed::Sealed for ByComparator<F> {}
impl<F> sealed::Sealed for ByKey<F> {}
impl<F> sealed::Sealed for ByRadixKey<F> {}

impl<K: GroupKey, F> GroupOrder<K> for ByComparator<F>
where
    F: FnMut(K::Item<'_>, K::Item<'_>) -> Ordering,
{
    fn sort_layer<'s>(&mut self, positions: &mut [u32], mut item: impl FnMut(u32) -> K::Item<'s>) {
        positions.sort_unstable_by(|&a, &b| {
            let (a, b) = (item(a), item(b));
            (self.0)(a, b)
        });
    }
}

impl<K: GroupKey, F, Key: Ord> GroupOrder<K> for ByKey<F>
where
    F: FnMut(K::Item<'_>) -> Key,
{
    fn sort_layer<'s>(&mut self, positions: &mut [u32], mut item: impl FnMut(u32) -> K::Item<'s>) {
        let mut keyed: Vec<(Key, u32)> =
            positions.iter().map(|&p| ((self.0)(item(p)), p)).collect();
        keyed.sort_unstable(); // positions ascend within the layer: ties keep their order
        for (slot, (_, p)) in positions.iter_mut().zip(keyed) {
            *slot = p;
        }
    }
}

impl<K: GroupKey, F, Key: RadixKey> GroupOrder<K> for ByRadixKey<F>
where
    F: FnMut(K::Item<'_>) -> Key,
{
    fn sort_layer<'s>(&mut self, positions: &mut [u32], mut item: impl FnMut(u32) -> K::Item<'s>) {
        let mut keyed: Vec<(u64, u32)> = positions
            .iter()
            .map(|&p| ((self.0)(item(p)).radix(), p))
            .collect();
        radix_sort_pairs(&mut keyed);
        for (slot, (_, p)) in positions.iter_mut().zip(keyed) {
            *slot = p;
        }
    }
}

/// The permutation that sorts a group of length `*layer_ends.last()` layer by layer.
///
/// `layer_ends` are the lengths of the group's inner groups from the innermost out,
/// followed by the group's own length (ascending). Each layer `[end[k-1], end[k])` is
/// sorted on its own, so every inner group stays a prefix: inner groups stay valid. The
/// result is a gather permutation: position `i` receives what was at `result[i]`.
pub(crate) fn layered_sources(
    layer_ends: &[usize],
    mut sort_layer: impl FnMut(&mut [u32]),
) -> Vec<u32> {
    let len = layer_ends.last().copied().unwrap_or(0);
    let mut sources: Vec<u32> = (0..len as u32).collect();
    let mut start = 0;
    for &end in layer_ends {
        sort_layer(&mut sources[start..end]);
        start = end;
    }
    sources
}

/// The permutation sorting a group's range layer by layer (each layer between two nested
/// groups on its own), given the group's owned storages in key order and its observed
/// storages; `order` sees each member's item, as iterating the group yields it.
///
/// # Panics
/// Panics if a member lacks an observed component, which the world's invariant rules out.
pub fn group_sources<'a, K: GroupKey>(
    owned: <K::Owned as ComponentSet>::Storages<'a>,
    observed: <K::Observed as ComponentSet>::Storages<'a>,
    layer_ends: &[usize],
    mut order: impl GroupOrder<K>,
) -> Vec<u32> {
    let len = layer_ends.last().copied().unwrap_or(0);
    let (entities, slices) = K::Owned::prefixes_ref(K::Owned::storages_ref(owned), len);
    let mut columns = K::Observed::columns_ref(K::Observed::storages_ref(observed));
    layered_sources(layer_ends, |layer| {
        order.sort_layer(layer, |p| {
            let p = p as usize;
            let observed = K::Observed::member_ref(&mut columns, entities[p])
                .unwrap_or_else(|| missing_observed(entities[p]));
            K::item(K::Owned::refs_at(&slices, p), observed)
        });
    })
}

/// Sorts the members of a non-owning group (`owned` is the empty tuple of storages).
/// Nothing changes until the order is known: a panic of `order` leaves the group as it
/// was.
///
/// # Panics
/// Panics if a member lacks an observed component, which the world's invariant rules out.
pub fn sort_members<'a, K: GroupKey>(
    members: &mut SparseSet,
    owned: <K::Owned as ComponentSet>::Storages<'a>,
    observed: <K::Observed as ComponentSet>::Storages<'a>,
    mut order: impl GroupOrder<K>,
) {
    let (_, slices) = K::Owned::prefixes_ref(K::Owned::storages_ref(owned), 0);
    let mut columns = K::Observed::columns_ref(K::Observed::storages_ref(observed));
    let entities = members.as_slice();
    let sources = layered_sources(&[entities.len()], |layer| {
        order.sort_layer(layer, |p| {
            let entity = entities[p as usize];
            let observed = K::Observed::member_ref(&mut columns, entity)
                .unwrap_or_else(|| missing_observed(entity));
            K::item(K::Owned::refs_at(&slices, 0), observed)
        });
    });
    members.gather(0, sources.iter().map(|&s| s as usize));
}

#[cold]
#[inline(never)]
fn missing_observed(entity: Entity) -> ! {
    panic!("group member {entity:?} lacks an observed component: the world's invariant is broken")
}

/// Permutes the prefix `[0, sources.len())` of one storage with a group-sort permutation
/// (from [`group_sources`]; a malformed one would leave the storage consistent, in some
/// order).
pub fn apply_sources<T>(storage: &mut Storage<T>, sources: &[u32]) {
    storage.permute_prefix(sources);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_sort_independently() {
        let keys = [5, 1, 9, 3, 2, 8];
        let sources = layered_sources(&[2, 6], |layer| {
            layer.sort_unstable_by_key(|&p| keys[p as usize]);
        });
        assert_eq!(sources, vec![1, 0, 4, 3, 5, 2]);
    }
}
