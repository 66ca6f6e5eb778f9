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

    /// Sorts by a key over components, stably: [`sort_by_cached_key`](Self::sort_by_cached_key)
    /// (the keys are sorted once read, not read again for every comparison).
    pub fn sort_by_key<K: OrdKey>(&mut self, key: impl FnMut(&T) -> K) {
        self.sort_by_cached_key(key);
    }

    /// Sorts by a key over components, stably, the way std's `sort_by_cached_key` sorts a
    /// slice: the keys are read into a contiguous `Vec<(key, position)>`, that vector is
    /// sorted (the position breaks ties, so the order is stable), and the permutation is
    /// applied once to the entities and the components, in one out-of-place pass each; the
    /// sparse array is re-pointed in one pass. A first read, without allocating, stops at
    /// the first component out of key order: input already sorted is left as it is after
    /// that one read. `key` is therefore called once per component, plus once for each
    /// component before the first one out of order.
    ///
    /// If `key` or the key's `Ord` panics, the storage is left as it was.
    pub fn sort_by_cached_key<K: OrdKey>(&mut self, mut key: impl FnMut(&T) -> K) {
        if self.sorted_by(&mut key) {
            return;
        }
        let mut keyed: Vec<(K, u32)> = self
            .components
            .iter()
            .enumerate()
            .map(|(position, component)| (key(component), position as u32))
            .collect();
        keyed.sort_unstable();
        self.gather(0, keyed.iter().map(|&(_, position)| position as usize));
    }

    /// Sorts by an integer or float key with a radix sort of `(key, position)` pairs (most
    /// significant varying digit first, small buckets finished by insertion sort), then
    /// applies the permutation once, as [`sort_by_cached_key`](Self::sort_by_cached_key).
    /// Stable; floats are ordered as [`f64::total_cmp`] orders them. Input already sorted is
    /// left as it is after one read of the keys.
    ///
    /// # Panics
    /// Passes on a panic of `key`, and panics if `key` gives one component two different
    /// keys (it is read up to three times per component); the storage is then left as it
    /// was.
    pub fn sort_by_radix_key<K: RadixKey>(&mut self, mut key: impl FnMut(&T) -> K) {
        let mut radix = |component: &T| key(component).radix();
        // One read finds whether the keys are sorted already and which bits vary.
        let Some(first) = self.components.first().map(&mut radix) else {
            return;
        };
        let (mut sorted, mut varying, mut previous) = (true, 0, first);
        for component in &self.components[1..] {
            let key = radix(component);
            sorted &= previous <= key;
            varying |= key ^ first;
            previous = key;
        }
        if sorted {
            return;
        }
        // The first pass scatters `(key, position)` pairs straight from the components:
        // one array of pairs, the only large scratch the sort needs.
        let digit = Digit::new(varying, self.components.len());
        let starts = digit.bucket_starts(self.components.iter().map(&mut radix));
        let mut pairs = vec![(0, 0); self.components.len()];
        let keyed = self.components.iter().enumerate();
        digit.scatter(
            &starts,
            keyed.map(|(p, c)| (radix(c), p as u32)),
            &mut pairs,
        );
        finish_buckets(&starts, &mut pairs, &mut Vec::new());
        // The pairs' keys are done with: the entities are gathered through them, in the
        // dense array's own memory (a fresh array would cost a page fault per 512
        // entities).
        self.gather_values(0, pairs.iter().map(|&(_, position)| position as usize));
        self.set.gather_through(&mut pairs);
    }

    /// Whether the components are already in the order of `key` (one read, no allocation:
    /// what makes re-sorting sorted input cheap).
    fn sorted_by<K: Ord>(&self, mut key: impl FnMut(&T) -> K) -> bool {
        let mut components = self.components.iter();
        let Some(first) = components.next() else {
            return true;
        };
        let mut previous = key(first);
        for component in components {
            let next = key(component);
            if next < previous {
                return false;
            }
            previous = next;
        }
        true
    }

    /// Rearranges the positions `[start, start + sources.len())` at once: position
    /// `start + i` receives what was at the `i`-th item of `sources`, a permutation of
    /// that range. The components move out of place in one pass, the entities in another,
    /// and the sparse entries are re-pointed in a third: each loop has one stream of random
    /// reads, which keeps many cache misses in flight (walking the permutation's cycles in
    /// place waits for one miss at a time).
    fn gather(&mut self, start: usize, sources: impl ExactSizeIterator<Item = usize> + Clone) {
        self.gather_values(start, sources.clone());
        self.set.gather(start, sources);
    }

    /// The components' part of [`gather`](Self::gather): the entities are left to the
    /// caller, who must gather them by the same `sources` (the storage is inconsistent
    /// until then).
    fn gather_values(&mut self, start: usize, sources: impl ExactSizeIterator<Item = usize>) {
        let (len, n) = (self.components.len(), sources.len());
        assert!(
            start + n <= len,
            "a gather of {start}..{} in a storage of {len}",
            start + n
        );
        let mut gathered: Vec<T> = Vec::with_capacity(n);
        let old = self.components.as_mut_ptr();
        for (i, source) in sources.enumerate() {
            debug_assert!((start..start + n).contains(&source) && i < n);
            // SAFETY: `sources` is a permutation of `start..start + n`, within `0..len`
            // (the callers build it from each position once, or check it), so each old
            // value of the range is read exactly once, in bounds, and written to a
            // distinct slot `i` of `gathered`, whose capacity is `n`.
            unsafe { gathered.as_mut_ptr().add(i).write(old.add(source).read()) };
        }
        if n == len {
            // SAFETY: every old value has been moved out (above), so the old vector must
            // not drop them: its length becomes zero; all `n` slots of `gathered` are
            // written.
            unsafe {
                self.components.set_len(0);
                gathered.set_len(n);
            }
            self.components = gathered;
        } else {
            // SAFETY: the range's old values were all moved out (above), so its slots are
            // overwritten without dropping anything, with the `n` values written in
            // `gathered` (in bounds: `start + n <= len`); `gathered` keeps length zero and
            // drops none of them.
            unsafe { core::ptr::copy_nonoverlapping(gathered.as_ptr(), old.add(start), n) };
        }
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
        self.walk_cycles(&mut sources);
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
        self.permute_prefix(&sources);
    }

    /// Rearranges the prefix `[0, sources.len())` so that position `i` receives what was
    /// at `sources[i]`.
    ///
    /// # Panics
    /// Panics if `sources` is not a permutation of `0..sources.len()` or is longer than
    /// the storage; nothing is moved in that case.
    pub fn apply_gather(&mut self, sources: &[u32]) {
        assert!(self.try_gather(sources), "not a permutation of the prefix");
    }

    /// [`apply_gather`](Self::apply_gather) for permutations built by this crate: a
    /// malformed `sources` (a bug) leaves the storage consistent, in an unspecified order,
    /// instead of panicking.
    pub(crate) fn permute_prefix(&mut self, sources: &[u32]) {
        if !self.try_gather(sources) {
            debug_assert!(false, "not a permutation of the prefix");
            self.walk_cycles(&mut sources.to_vec());
        }
    }

    /// Gathers the prefix if `sources` is a permutation of `0..sources.len()` within the
    /// storage; otherwise moves nothing and returns `false`. Positions that keep their
    /// value at either end (a bulk leave keeps the members before the first leaver) are
    /// neither checked nor moved.
    fn try_gather(&mut self, sources: &[u32]) -> bool {
        let fixed = |(p, &s): (usize, &u32)| s as usize == p;
        let head = sources.iter().enumerate().take_while(|&p| fixed(p)).count();
        let end = sources.len()
            - sources
                .iter()
                .enumerate()
                .rev()
                .take_while(|&p| fixed(p))
                .count();
        let moved = &sources[head..end.max(head)];
        let valid = sources.len() <= self.len() && is_permutation_of(head, moved);
        if valid {
            self.gather(head, moved.iter().map(|&s| s as usize));
        }
        valid
    }

    /// Applies a gather permutation of a prefix by walking its cycles, one swap of every
    /// array per move (`sources` is consumed as the marks). A malformed `sources` gives
    /// some order (or the bounds check of a swap panics), never a broken storage.
    fn walk_cycles(&mut self, sources: &mut [u32]) {
        walk_gather(
            sources.len(),
            |p| core::mem::replace(&mut sources[p], p as u32) as usize,
            |a, b| self.swap(a, b),
        );
    }
}

/// A key a key sort (`sort_by_key`, `sort_group_by_key`) can order: any `Ord` type. Its
/// own name only serves the error for the keys that are not, floats first.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a key a key sort can order: it is not `Ord`",
    label = "the key must be `Ord`",
    note = "floats are not `Ord`: use the radix key sort (`sort_by_radix_key`, `sort_group_by_radix_key`), which sorts floats by `total_cmp`, or wrap the key in a type that orders by `f32::total_cmp`"
)]
pub trait OrdKey: Ord {}

impl<T: Ord> OrdKey for T {}

/// A key a radix sort can order: mapped to a `u64` whose unsigned order is the key's order.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a key a radix sort can order",
    label = "not an integer or float key",
    note = "radix sorts take one integer or float key per member (a tuple such as `(depth, id)` does not qualify): sort by any `Ord` key with `sort_by_key` or `sort_group_by_key`"
)]
pub trait RadixKey: Copy {
    /// The key as an order-preserving `u64`.
    fn radix(self) -> u64;
}

macro_rules! radix_unsigned {
    ($($t:ty),*) => {$(
        impl RadixKey for $t {
            #[inline(always)]
            fn radix(self) -> u64 {
                u64::from(self)
            }
        }
    )*};
}
radix_unsigned!(u8, u16, u32, u64);

macro_rules! radix_signed {
    ($($t:ty => $u:ty),*) => {$(
        impl RadixKey for $t {
            /// The sign bit flipped: negative numbers below positive ones.
            #[inline(always)]
            fn radix(self) -> u64 {
                u64::from((self as $u) ^ (1 << (<$u>::BITS - 1)))
            }
        }
    )*};
}
radix_signed!(i8 => u8, i16 => u16, i32 => u32, i64 => u64);

impl RadixKey for f64 {
    /// The bits of [`f64::total_cmp`]'s order: negative numbers with every bit flipped,
    /// the others with the sign bit flipped.
    #[inline(always)]
    fn radix(self) -> u64 {
        let bits = self.to_bits();
        if bits >> 63 == 1 {
            !bits
        } else {
            bits | 1 << 63
        }
    }
}

impl RadixKey for f32 {
    #[inline(always)]
    fn radix(self) -> u64 {
        let bits = self.to_bits();
        u64::from(if bits >> 31 == 1 {
            !bits
        } else {
            bits | 1 << 31
        })
    }
}

/// Buckets of at most this many pairs are finished by insertion sort.
const SMALL_BUCKET: usize = 32;
/// The widest digit: 2¹⁶ buckets, whose counts (512 KiB) stay in the L2 cache.
const MAX_DIGIT_BITS: u32 = 16;

/// The digit a counting pass sorts on: the top bits of the range of bits that vary.
///
/// The radix sort goes most significant digit first: its first pass spreads `n` pairs
/// over about `n / 16` buckets, which for keys spread over their range leaves buckets of
/// a few pairs, finished by insertion sort while they are in cache. A larger bucket
/// (clustered keys) is sorted the same way on its own varying bits; a bucket whose keys
/// are all equal is left as it is. Every pass and the insertion sort keep equal keys in
/// their order, so the sort is stable.
#[derive(Clone, Copy)]
struct Digit {
    shift: u32,
    mask: usize,
}

impl Digit {
    /// The digit for `len` keys whose bits that differ from one another are `varying`
    /// (non-zero): about 16 keys a bucket, between 2⁴ and 2¹⁶ buckets.
    fn new(varying: u64, len: usize) -> Self {
        debug_assert_ne!(varying, 0);
        let top = u64::BITS - varying.leading_zeros();
        let wanted = (usize::BITS - len.leading_zeros()).saturating_sub(4);
        let bits = wanted.clamp(4, MAX_DIGIT_BITS).min(top);
        Digit {
            shift: top - bits,
            mask: (1 << bits) - 1,
        }
    }

    #[inline(always)]
    fn of(self, key: u64) -> usize {
        (key >> self.shift) as usize & self.mask
    }

    /// Where each bucket starts once `keys` are scattered by this digit, plus the end.
    fn bucket_starts(self, keys: impl Iterator<Item = u64>) -> Vec<usize> {
        let mut starts = vec![0usize; self.mask + 2];
        for key in keys {
            starts[self.of(key) + 1] += 1;
        }
        for b in 1..starts.len() {
            starts[b] += starts[b - 1];
        }
        starts
    }

    /// One stable counting pass: writes `pairs` into `to` by this digit, each bucket from
    /// its start (`starts`, from [`bucket_starts`](Self::bucket_starts) of the same keys).
    ///
    /// # Panics
    /// Panics if a bucket receives more pairs than it was counted (a key read twice gave
    /// two values), before it spills into the next one: with as many pairs as were
    /// counted, every slot of `to` is then written exactly once, so the positions the pairs
    /// carry stay a permutation.
    fn scatter(
        self,
        starts: &[usize],
        pairs: impl Iterator<Item = (u64, u32)>,
        to: &mut [(u64, u32)],
    ) {
        let mut next = starts.to_vec();
        for pair in pairs {
            let bucket = self.of(pair.0);
            let slot = next[bucket];
            if slot >= starts[bucket + 1] {
                key_changed();
            }
            to[slot] = pair;
            next[bucket] = slot + 1;
        }
    }
}

#[cold]
#[inline(never)]
fn key_changed() -> ! {
    panic!("a radix sort's key gave two values for one component: the sort is abandoned")
}

/// Sorts each bucket (`starts[b]..starts[b + 1]`) of `pairs` that holds more than one
/// pair, growing `scratch` to the largest bucket that needs another pass.
fn finish_buckets(starts: &[usize], pairs: &mut [(u64, u32)], scratch: &mut Vec<(u64, u32)>) {
    for bucket in starts.windows(2) {
        let range = bucket[0]..bucket[1];
        if range.len() <= SMALL_BUCKET {
            insertion_sort(&mut pairs[range]);
        } else {
            radix_sort(&mut pairs[range], scratch);
        }
    }
}

/// Sorts `(key, position)` pairs by key, stably.
pub(crate) fn radix_sort_pairs(pairs: &mut [(u64, u32)]) {
    if pairs.len() <= SMALL_BUCKET {
        insertion_sort(pairs);
    } else {
        radix_sort(pairs, &mut Vec::new());
    }
}

/// Sorts `pairs` by key, stably, in place (with `scratch` grown to their length).
fn radix_sort(pairs: &mut [(u64, u32)], scratch: &mut Vec<(u64, u32)>) {
    let first = pairs[0].0;
    let varying = pairs.iter().fold(0, |bits, &(key, _)| bits | (key ^ first));
    if varying == 0 {
        return; // all keys equal: already in order, stably
    }
    let digit = Digit::new(varying, pairs.len());
    let starts = digit.bucket_starts(pairs.iter().map(|&(key, _)| key));
    if scratch.len() < pairs.len() {
        scratch.resize(pairs.len(), (0, 0));
    }
    let scratch_part = &mut scratch[..pairs.len()];
    digit.scatter(&starts, pairs.iter().copied(), scratch_part);
    pairs.copy_from_slice(scratch_part);
    finish_buckets(&starts, pairs, scratch);
}

/// Stable insertion sort by key, for buckets of a few pairs.
fn insertion_sort(pairs: &mut [(u64, u32)]) {
    for i in 1..pairs.len() {
        let pair = pairs[i];
        let mut j = i;
        while j > 0 && pairs[j - 1].0 > pair.0 {
            pairs[j] = pairs[j - 1];
            j -= 1;
        }
        pairs[j] = pair;
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

/// Whether `sources` holds each of `start..start + sources.len()` exactly once.
fn is_permutation_of(start: usize, sources: &[u32]) -> bool {
    // One bit a position: the set of a million positions (128 KiB) stays in cache.
    let mut seen = vec![0u64; sources.len().div_ceil(64)];
    sources.iter().all(|&s| {
        let s = (s as usize).wrapping_sub(start);
        s < sources.len() && {
            let (word, bit) = (&mut seen[s / 64], 1 << (s % 64));
            let fresh = *word & bit == 0;
            *word |= bit;
            fresh
        }
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

    /// A component of the key-sort test: an integer key and a float key.
    type Row = (i64, f64);

    proptest! {
        #[test]
        fn three_strategies_agree(
            // Under Miri, fewer: the uniqueness check below is quadratic.
            values in prop::collection::btree_map(0u32..5000, any::<i64>(), 0..if cfg!(miri) { 60 } else { 300 }),
        ) {
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
        fn key_sorts_are_stable_and_agree_with_std(
            // Under Miri, indices on fewer pages of the sparse array (`check` reads them all).
            values in prop::collection::vec(
                (0u32..if cfg!(miri) { 5_000 } else { 100_000 }, any::<i64>(), any::<f64>()),
                0..if cfg!(miri) { 60 } else { 400 },
            ),
            shift in 0u32..60,
        ) {
            // Distinct entities, in a shuffled storage order; few distinct keys (shifted)
            // so that stability matters.
            let mut seen = std::collections::HashSet::new();
            let rows: Vec<(u32, i64, f64)> = values.into_iter().filter(|r| seen.insert(r.0)).collect();
            let build = || -> Storage<(i64, f64)> {
                rows.iter().map(|&(i, k, f)| (Entity::from_raw_parts(i, 1).unwrap(), (k >> shift, f))).collect()
            };
            let original = build();
            let stable = |key: &dyn Fn(&Row, &Row) -> core::cmp::Ordering| {
                let mut v: Vec<(Entity, (i64, f64))> = original.iter().map(|(e, c)| (e, *c)).collect();
                v.sort_by(|a, b| key(&a.1, &b.1));
                v
            };
            let got = |s: &Storage<(i64, f64)>| -> Vec<(Entity, (i64, f64))> { s.iter().map(|(e, c)| (e, *c)).collect() };
            let by_int = stable(&|a, b| a.0.cmp(&b.0));
            let by_float = stable(&|a, b| a.1.total_cmp(&b.1));

            let mut cached = build();
            cached.sort_by_cached_key(|c| c.0);
            let mut radix = build();
            radix.sort_by_radix_key(|c| c.0);
            let mut radix_float = build();
            radix_float.sort_by_radix_key(|c| c.1);
            for s in [&cached, &radix, &radix_float] {
                s.check().map_err(TestCaseError::fail)?;
            }
            prop_assert_eq!(got(&cached), by_int.clone());
            prop_assert_eq!(got(&radix), by_int.clone());
            let bits = |v: Vec<(Entity, (i64, f64))>| -> Vec<(Entity, i64, u64)> { v.into_iter().map(|(e, (k, f))| (e, k, f.to_bits())).collect() };
            prop_assert_eq!(bits(got(&radix_float)), bits(by_float));
            // Sorting sorted input changes nothing.
            let before = got(&radix);
            radix.sort_by_radix_key(|c| c.0);
            cached.sort_by_cached_key(|c| c.0);
            prop_assert_eq!(got(&radix), before.clone());
            prop_assert_eq!(got(&cached), before);
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
        // Under Miri, fewer values and comparisons: every sort still gives up midway.
        let (len, limit) = if cfg!(miri) { (40, 60) } else { (100, 200) };
        let values: Vec<(u32, i64)> = (0..len)
            .map(|i| (i * 7 % 101, i64::from(i * 37 % 100)))
            .collect();
        for (name, sort) in sorts {
            let mut s = storage(&values);
            let before = pairs(&s);
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                sort(&mut s, &mut giving_up(limit));
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

    /// The radix sort at sizes where its first digit is wide (2¹⁶ buckets) and its
    /// buckets recurse, on key distributions that stress each path: spread, clustered in
    /// a few buckets, one outlier far above the rest, few distinct values, all equal.
    #[test]
    fn radix_sort_agrees_with_std_on_large_inputs() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        // Under Miri, enough for buckets above `SMALL_BUCKET` (clustered keys and the
        // outlier's bucket recurse; few distinct keys leave buckets of equal keys).
        let n = if cfg!(miri) { 300 } else { 200_000 };
        let spread: Vec<u64> = (0..n).map(|_| next()).collect();
        let clustered: Vec<u64> = spread
            .iter()
            .map(|&k| if k % 10 == 0 { k } else { k % 64 })
            .collect();
        let outlier: Vec<u64> = (0..n as u64)
            .map(|i| if i == 7 { u64::MAX } else { i * 3 % 1000 })
            .collect();
        let few: Vec<u64> = spread.iter().map(|&k| (k % 5) << 40).collect();
        let equal = vec![42u64; n];
        for keys in [spread, clustered, outlier, few, equal] {
            let mut s: Storage<(u64, u32)> = keys
                .iter()
                .enumerate()
                .map(|(i, &k)| (Entity::from_raw_parts(i as u32, 1).unwrap(), (k, i as u32)))
                .collect();
            let mut expected: Vec<(u64, u32)> = s.components().to_vec();
            expected.sort_by_key(|c| c.0);
            s.sort_by_radix_key(|c| c.0);
            assert!(s.components() == expected.as_slice());
            s.check().unwrap();
        }
    }

    #[test]
    fn apply_gather_checks_its_input() {
        let mut s = storage(&[(1, 1), (2, 2), (3, 3)]);
        s.apply_gather(&[2, 0, 1]);
        assert_eq!(s.components(), &[3, 1, 2]);
        s.apply_gather(&[1, 0]);
        assert_eq!(s.components(), &[1, 3, 2]);
        s.check().unwrap();
        let result = std::panic::catch_unwind(move || {
            let mut s = s;
            s.apply_gather(&[0, 0, 1]);
        });
        assert!(result.is_err());
    }

    /// The radix sort gathers the entities through its pairs' keys: every entity keeps
    /// its full handle (large indices, versions above one) and its own value.
    #[test]
    fn radix_sort_keeps_whole_handles() {
        let n: u32 = if cfg!(miri) { 40 } else { 3000 };
        let entity =
            |i: u32| Entity::from_raw_parts(Entity::MAX_INDEX - i * 7, u32::MAX - i * 13).unwrap();
        let mut s: Storage<i64> = (0..n)
            .map(|i| (entity(i), i64::from(i * 7919 % n)))
            .collect();
        s.sort_by_radix_key(|&v| v);
        s.check().unwrap();
        let mut expected: Vec<(Entity, i64)> = (0..n)
            .map(|i| (entity(i), i64::from(i * 7919 % n)))
            .collect();
        expected.sort_by_key(|&(_, v)| v);
        assert_eq!(pairs(&s), expected);
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
