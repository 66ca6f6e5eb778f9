//! The three ways of sorting a storage from the sorting article, and permutations.
//!
//! All three produce the same order for a strict comparator (ties may differ: none of
//! them is stable).

use core::cmp::Ordering;

use super::Storage;
use crate::entity::Entity;

impl<T> Storage<T> {
    /// Sorts by `compare` over components: the *mixed* strategy of the sorting article,
    /// the default. The dense entity array is sorted in place with the standard library's
    /// sort, which yields the permutation without a support vector; its cycles are then
    /// walked to move the components, and the sparse entries are rewritten.
    ///
    /// One refinement over the article's version (which looks every compared component up
    /// through the sparse array): while the sort runs, each dense entry carries its old
    /// position in place of its version (the versions wait in the sparse array), so a
    /// comparison reads its two components directly.
    ///
    /// If `compare` panics, the storage is left exactly as it was before the call.
    ///
    /// ```
    /// use sparse_core::{Entity, Storage};
    /// let mut s: Storage<i32> = [(1, 30), (2, 10), (3, 20)]
    ///     .map(|(i, v)| (Entity::from_raw_parts(i, 1).unwrap(), v))
    ///     .into_iter()
    ///     .collect();
    /// s.sort_by(|a, b| a.cmp(b));
    /// assert_eq!(s.components(), &[10, 20, 30]);
    /// assert_eq!(s.get(Entity::from_raw_parts(2, 1).unwrap()), Some(&10));
    /// ```
    pub fn sort_by(&mut self, mut compare: impl FnMut(&T, &T) -> Ordering) {
        let components = &mut self.components;
        let mut tagged = self
            .set
            .sort_tagged(|a, b| compare(&components[a], &components[b]));
        walk_gather(
            components.len(),
            |p| {
                let source = tagged.source(p);
                tagged.mark_placed(p);
                source
            },
            |a, b| components.swap(a, b),
        );
        tagged.finish();
    }

    /// The article's *mixed* strategy to the letter: the dense entity array is sorted
    /// looking each component up through the (untouched) sparse array, then the cycles
    /// are walked through the sparse array, which marks visited positions. Kept to be
    /// measured against [`sort_by`](Self::sort_by), which avoids the sparse lookups in
    /// comparisons (the benches reach it through `__private`).
    ///
    /// If `compare` panics, the storage is left as it was before the call.
    pub(crate) fn sort_by_sparse_walk(&mut self, mut compare: impl FnMut(&T, &T) -> Ordering) {
        let components = &self.components;
        self.set
            .sort_dense_by_sparse(|a, b| compare(&components[a], &components[b]));
        // sparse[dense[p]] still holds the old position of the entity now at p: it is the
        // gather permutation, walked with the sparse array marking placed positions.
        let (set, components) = (&mut self.set, &mut self.components);
        walk_gather(
            components.len(),
            |p| {
                let entity = set.as_slice()[p];
                let source = set.sparse_position(entity);
                set.set_sparse_position(entity, p);
                source
            },
            |a, b| components.swap(a, b),
        );
    }

    /// Sorts by a key over components, with the mixed strategy of [`sort_by`](Self::sort_by).
    pub fn sort_by_key<K: Ord>(&mut self, mut key: impl FnMut(&T) -> K) {
        self.sort_by(|a, b| key(a).cmp(&key(b)));
    }

    /// Sorts by `compare` *in place*: a heapsort whose every swap moves the entity, the
    /// component and both sparse entries. No scratch memory, more moves.
    ///
    /// If `compare` panics, the storage stays consistent (every swap moves all arrays
    /// together), in a partly sorted order.
    pub fn sort_by_in_place(&mut self, mut compare: impl FnMut(&T, &T) -> Ordering) {
        let len = self.len();
        for node in (0..len / 2).rev() {
            self.sift_down(&mut compare, node, len);
        }
        for end in (1..len).rev() {
            self.swap(0, end);
            self.sift_down(&mut compare, 0, end);
        }
    }

    fn sift_down(
        &mut self,
        compare: &mut impl FnMut(&T, &T) -> Ordering,
        mut node: usize,
        end: usize,
    ) {
        loop {
            let mut child = 2 * node + 1;
            if child >= end {
                return;
            }
            let c = &self.components;
            if child + 1 < end && compare(&c[child], &c[child + 1]) == Ordering::Less {
                child += 1;
            }
            if compare(&c[node], &c[child]) != Ordering::Less {
                return;
            }
            self.swap(node, child);
            node = child;
        }
    }

    /// Sorts by `compare` through a *permutation*: the positions are sorted out of place
    /// with the standard library's sort, then applied by walking their cycles, one swap
    /// of every array per move.
    ///
    /// If `compare` panics, the storage is left as it was (nothing moves before the
    /// permutation is complete).
    pub fn sort_by_permutation(&mut self, mut compare: impl FnMut(&T, &T) -> Ordering) {
        let mut sources: Vec<u32> = (0..self.len() as u32).collect();
        let components = &self.components;
        sources
            .sort_unstable_by(|&a, &b| compare(&components[a as usize], &components[b as usize]));
        self.apply_gather_unchecked(&mut sources);
    }

    /// Orders this storage like `order`: the entities of `order` that are stored here come
    /// first, in `order`'s sequence, followed by the others in their previous relative
    /// order. Entities of `order` that are absent here are skipped.
    ///
    /// ```
    /// use sparse_core::{Entity, Storage};
    /// let [a, b, c] = [1, 2, 3].map(|i| Entity::from_raw_parts(i, 1).unwrap());
    /// let mut s: Storage<char> = [(a, 'a'), (b, 'b'), (c, 'c')].into_iter().collect();
    /// s.sort_as(&[c, a]);
    /// assert_eq!(s.entities(), &[c, a, b]);
    /// ```
    pub fn sort_as(&mut self, order: &[Entity]) {
        let mut placed = vec![false; self.len()];
        let mut sources = Vec::with_capacity(self.len());
        for &entity in order {
            if let Some(position) = self.index_of(entity)
                && !core::mem::replace(&mut placed[position], true)
            {
                sources.push(position as u32);
            }
        }
        sources.extend((0..self.len() as u32).filter(|&p| !placed[p as usize]));
        self.apply_gather_unchecked(&mut sources);
    }

    /// Rearranges the prefix `[0, sources.len())` so that position `i` receives what was
    /// at `sources[i]`. `sources` is consumed as scratch (left as the identity).
    ///
    /// # Panics
    /// Panics if `sources` is not a permutation of `0..sources.len()` or is longer than
    /// the storage; nothing is moved in that case.
    pub fn apply_gather(&mut self, sources: &mut [u32]) {
        assert!(
            is_permutation(sources) && sources.len() <= self.len(),
            "not a permutation of the prefix"
        );
        self.apply_gather_unchecked(sources);
    }

    /// [`apply_gather`](Self::apply_gather) without the check: a malformed `sources`
    /// leaves the storage consistent but in an unspecified order.
    pub(crate) fn apply_gather_unchecked(&mut self, sources: &mut [u32]) {
        walk_gather(
            sources.len(),
            |p| core::mem::replace(&mut sources[p], p as u32) as usize,
            |a, b| self.swap(a, b),
        );
    }
}

/// Walks the cycles of a gather permutation of `0..len` (position `p` receives what was
/// at `source(p)`), one `swap` per move: the walk all three sorts share. `take(p)` returns
/// `p`'s source and marks `p` placed, after which `p` is its own source, so every
/// position is visited once and the walk is linear.
fn walk_gather(
    len: usize,
    mut take: impl FnMut(usize) -> usize,
    mut swap: impl FnMut(usize, usize),
) {
    for start in 0..len {
        let mut current = start;
        loop {
            let next = take(current);
            if next == current || next == start {
                break; // placed already, or the cycle is closed
            }
            swap(current, next);
            current = next;
        }
    }
}

/// Whether `sources` holds each of `0..sources.len()` exactly once.
pub(crate) fn is_permutation(sources: &[u32]) -> bool {
    let mut seen = vec![false; sources.len()];
    sources.iter().all(|&s| {
        seen.get_mut(s as usize)
            .is_some_and(|seen| !core::mem::replace(seen, true))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn storage(values: &[(u32, i64)]) -> Storage<i64> {
        let mut s = Storage::new();
        for &(index, value) in values {
            s.insert(Entity::from_raw_parts(index, 1).unwrap(), value);
        }
        s
    }

    fn pairs(s: &Storage<i64>) -> Vec<(Entity, i64)> {
        s.iter().map(|(e, &v)| (e, v)).collect()
    }

    proptest! {
        #[test]
        fn three_strategies_agree(values in prop::collection::btree_map(0u32..5000, any::<i64>(), 0..300)) {
            let values: Vec<_> = values.into_iter().collect();
            // Ties broken by entity so that every strategy must reach the same order.
            let mut by_value: Vec<_> = values.iter().map(|&(i, v)| (v, i)).collect();
            by_value.sort();
            let expected: Vec<_> = by_value.iter().map(|&(v, i)| (Entity::from_raw_parts(i, 1).unwrap(), v)).collect();
            let key = |s: &Storage<i64>| -> Vec<(i64, u32)> { s.iter().map(|(e, &v)| (v, e.index())).collect() };

            let mut mixed = storage(&values);
            // The comparator sees components only; make values unique per key for the check.
            let unique = |v: &i64, s: &Storage<i64>| s.components().iter().filter(|&&w| w == *v).count() == 1;
            let all_unique = values.iter().all(|(_, v)| unique(v, &mixed));
            mixed.sort_by(|a, b| a.cmp(b));
            let mut walk = storage(&values);
            walk.sort_by_sparse_walk(|a, b| a.cmp(b));
            let mut permutation = storage(&values);
            permutation.sort_by_permutation(|a, b| a.cmp(b));
            let mut in_place = storage(&values);
            in_place.sort_by_in_place(|a, b| a.cmp(b));
            for s in [&mixed, &walk, &permutation, &in_place] {
                s.check().map_err(TestCaseError::fail)?;
                let got: Vec<i64> = s.components().to_vec();
                let want: Vec<i64> = expected.iter().map(|&(_, v)| v).collect();
                prop_assert_eq!(got, want);
                for (e, v) in &values {
                    prop_assert_eq!(s.get(Entity::from_raw_parts(*e, 1).unwrap()), Some(v));
                }
            }
            if all_unique {
                prop_assert_eq!(pairs(&mixed), expected.clone());
                prop_assert_eq!(key(&permutation), key(&mixed));
                prop_assert_eq!(key(&walk), key(&mixed));
                prop_assert_eq!(key(&in_place), key(&mixed));
            }
        }

        #[test]
        fn sort_as_puts_shared_entities_first_in_order(
            mine in prop::collection::btree_set(0u32..200, 0..60),
            theirs in prop::collection::vec(0u32..200, 0..60),
        ) {
            let values: Vec<_> = mine.iter().map(|&i| (i, i64::from(i))).collect();
            let mut s = storage(&values);
            let order: Vec<Entity> = theirs.iter().map(|&i| Entity::from_raw_parts(i, 1).unwrap()).collect();
            let before = s.entities().to_vec();
            s.sort_as(&order);
            s.check().map_err(TestCaseError::fail)?;
            let mut shared = Vec::new();
            for e in &order {
                if mine.contains(&e.index()) && !shared.contains(e) {
                    shared.push(*e);
                }
            }
            let rest: Vec<Entity> = before.iter().copied().filter(|e| !shared.contains(e)).collect();
            prop_assert_eq!(&s.entities()[..shared.len()], &shared[..]);
            prop_assert_eq!(&s.entities()[shared.len()..], &rest[..]);
            for (e, v) in s.iter() {
                prop_assert_eq!(i64::from(e.index()), *v);
            }
        }
    }

    /// A comparator that gives up (panics) after `limit` calls.
    fn giving_up(limit: usize) -> impl FnMut(&i64, &i64) -> core::cmp::Ordering {
        let mut calls = 0;
        move |a, b| {
            calls += 1;
            assert!(calls < limit, "comparator gives up");
            a.cmp(b)
        }
    }

    #[test]
    fn a_panicking_comparator_leaves_the_storage_as_it_was() {
        type Sort = fn(&mut Storage<i64>, &mut dyn FnMut(&i64, &i64) -> core::cmp::Ordering);
        let sorts: [(&str, Sort); 4] = [
            ("mixed", |s, c| s.sort_by(c)),
            ("sparse walk", |s, c| s.sort_by_sparse_walk(c)),
            ("permutation", |s, c| s.sort_by_permutation(c)),
            ("in place", |s, c| s.sort_by_in_place(c)),
        ];
        let values: Vec<(u32, i64)> = (0..100)
            .map(|i| (i * 7 % 101, i64::from(i * 37 % 100)))
            .collect();
        for (name, sort) in sorts {
            let mut s = storage(&values);
            let before = pairs(&s);
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                sort(&mut s, &mut giving_up(200));
            }));
            assert!(result.is_err(), "{name}");
            s.check().unwrap();
            // The in-place heapsort swaps as it goes: consistent, but in another order.
            if name != "in place" {
                assert_eq!(pairs(&s), before, "{name}");
            }
        }
    }

    #[test]
    fn the_set_sort_survives_a_panicking_comparator() {
        let mut set: crate::SparseSet = (0..100)
            .map(|i| Entity::from_raw_parts(i * 3, 1).unwrap())
            .collect();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut calls = 0;
            set.sort_by(|a, b| {
                calls += 1;
                assert!(calls < 50, "comparator gives up");
                b.cmp(a)
            });
        }));
        assert!(result.is_err());
        set.check().unwrap();
        assert_eq!(set.len(), 100);
    }

    #[test]
    fn apply_gather_checks_its_input() {
        let mut s = storage(&[(1, 1), (2, 2), (3, 3)]);
        let mut sources = [2, 0, 1];
        s.apply_gather(&mut sources);
        assert_eq!(s.components(), &[3, 1, 2]);
        assert_eq!(sources, [0, 1, 2]);
        let result = std::panic::catch_unwind(move || {
            let mut s = s;
            s.apply_gather(&mut [0, 0, 1]);
        });
        assert!(result.is_err());
    }

    #[test]
    fn empty_and_single_sorts() {
        for n in 0..2 {
            let values: Vec<_> = (0..n).map(|i| (i, i64::from(i))).collect();
            let mut s = storage(&values);
            s.sort_by(|a, b| b.cmp(a));
            s.sort_by_in_place(|a, b| b.cmp(a));
            s.sort_by_permutation(|a, b| b.cmp(a));
            s.check().unwrap();
        }
    }
}
