//! Sorting a group layer by layer, so that the groups nested in it stay valid.
//!
//! ```text
//! <A,B>   : [ e2 e9 e5 | e7 e1 e4 e8 ]   each layer between two nested groups is sorted
//! <A,B,C> : [ e2 e9 e5 ]                 on its own: the inner group stays a prefix
//! ```

use super::GroupOrder;
use crate::component_set::ComponentSet;
use crate::component_set::sealed::Sealed as _;
use crate::entity::Entity;
use crate::group::GroupKey;
use crate::storage::{SparseSet, Storage};

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
        order.sort_layer(
            layer,
            |p| {
                let p = p as usize;
                let observed = K::Observed::member_ref(&mut columns, entities[p])
                    .unwrap_or_else(|| missing_observed(entities[p]));
                K::item(K::Owned::refs_at(&slices, p), observed)
            },
            |p| entities[p as usize],
        );
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
        order.sort_layer(
            layer,
            |p| {
                let entity = entities[p as usize];
                let observed = K::Observed::member_ref(&mut columns, entity)
                    .unwrap_or_else(|| missing_observed(entity));
                K::item(K::Owned::refs_at(&slices, 0), observed)
            },
            |p| entities[p as usize],
        );
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
