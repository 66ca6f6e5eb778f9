//! Sorting a group layer by layer, so that the groups nested in it stay valid.
//!
//! ```text
//! <A,B>   : [ e2 e9 e5 | e7 e1 e4 e8 ]   each layer between two nested groups is sorted
//! <A,B,C> : [ e2 e9 e5 ]                 on its own: the inner group stays a prefix
//! ```

use core::cmp::Ordering;

use crate::component_set::ComponentSet;
use crate::storage::Storage;

/// The permutation that sorts a group of length `*layer_ends.last()` layer by layer.
///
/// `layer_ends` are the lengths of the group's inner groups from the innermost out,
/// followed by the group's own length (ascending). Each layer `[end[k-1], end[k])` is
/// sorted on its own, so every inner group stays a prefix: inner groups stay valid. The
/// result is a gather permutation: position `i` receives what was at `result[i]`.
pub(crate) fn layered_sources(
    layer_ends: &[usize],
    mut compare: impl FnMut(usize, usize) -> Ordering,
) -> Vec<u32> {
    let len = layer_ends.last().copied().unwrap_or(0);
    let mut sources: Vec<u32> = (0..len as u32).collect();
    let mut start = 0;
    for &end in layer_ends {
        sources[start..end].sort_unstable_by(|&a, &b| compare(a as usize, b as usize));
        start = end;
    }
    sources
}

/// The permutation sorting a group's range layer by layer (each layer between two nested
/// groups on its own), given the group's owned storages in tuple order.
pub fn group_sources<G: ComponentSet>(
    storages: G::Storages<'_>,
    layer_ends: &[usize],
    mut compare: impl FnMut(G::Refs<'_>, G::Refs<'_>) -> Ordering,
) -> Vec<u32> {
    let len = layer_ends.last().copied().unwrap_or(0);
    let (_, slices) = G::prefixes(storages, len);
    let slices = G::shared(&slices);
    layered_sources(layer_ends, |a, b| {
        compare(G::refs_at(&slices, a), G::refs_at(&slices, b))
    })
}

/// Permutes the prefix `[0, sources.len())` of one storage with a group-sort permutation.
/// `sources` comes from [`group_sources`], a permutation by construction, so it is not
/// validated again for every storage it is applied to (a malformed one would leave the
/// storage consistent, in some order).
pub fn apply_sources<T>(storage: &mut Storage<T>, sources: &[u32]) {
    debug_assert!(crate::storage::is_permutation(sources));
    storage.apply_gather_unchecked(&mut sources.to_vec());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_sort_independently() {
        let keys = [5, 1, 9, 3, 2, 8];
        let sources = layered_sources(&[2, 6], |x, y| keys[x].cmp(&keys[y]));
        assert_eq!(sources, vec![1, 0, 4, 3, 5, 2]);
    }
}
