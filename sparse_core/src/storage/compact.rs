//! Removing many entities at once: a set of marked entities, and the stable compaction
//! of storages and sets that drops them in one pass.
//!
//! ```text
//! marked     : e7, e8
//! before     : [e4|e7|e3|e8|e6]     <A,B> = [0, 3)
//! after      : [e4|e3|e6]           <A,B> = [0, 2): the survivors of [0, 3)
//! ```
//!
//! Compaction keeps the survivors' order, so a group's packed prefix stays a prefix (of
//! its survivors) and nested groups stay nested: no group needs a move, only a new length.

use super::{SparseSet, Storage};
use crate::entity::Entity;

/// A set of entity indices, as a bit per index: what bulk removal marks.
#[derive(Clone, Debug, Default)]
#[doc(hidden)]
pub struct Marks {
    words: Vec<u64>,
    count: usize,
}

impl Marks {
    /// No mark.
    pub fn new() -> Self {
        Self::default()
    }

    /// No mark, with room for indices below `indices` (zeroed lazily by the allocator:
    /// only the words marked are touched).
    pub fn with_indices(indices: usize) -> Self {
        Marks {
            words: vec![0; indices.div_ceil(64)],
            count: 0,
        }
    }

    /// Marks `entity`'s index; returns whether it was unmarked.
    #[inline]
    pub fn mark(&mut self, entity: Entity) -> bool {
        let index = entity.index() as usize;
        let (word, bit) = (index / 64, index % 64);
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        let fresh = self.words[word] >> bit & 1 == 0;
        self.words[word] |= 1 << bit;
        self.count += usize::from(fresh);
        fresh
    }

    /// Unmarks `entity`'s index.
    #[inline]
    pub fn unmark(&mut self, entity: Entity) {
        let index = entity.index() as usize;
        if let Some(word) = self.words.get_mut(index / 64) {
            let bit = 1 << (index % 64);
            self.count -= usize::from(*word & bit != 0);
            *word &= !bit;
        }
    }

    /// Whether `entity`'s index is marked.
    #[inline(always)]
    pub fn contains(&self, entity: Entity) -> bool {
        let index = entity.index() as usize;
        self.words
            .get(index / 64)
            .is_some_and(|word| word >> (index % 64) & 1 == 1)
    }

    /// The number of marked indices.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether nothing is marked.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

impl SparseSet {
    /// Removes the marked members, keeping the others in order: `kept(from, to)` is
    /// called for each survivor that moves (from before to after), `removed(at)` for each
    /// removed member, in order, before the set shrinks. Each of `boundaries` (a position
    /// in the set before) becomes the number of survivors before it: a group length.
    /// Returns the number of members kept.
    ///
    /// The callbacks must not panic: the set is only consistent again on return.
    #[inline]
    pub(crate) fn compact_with(
        &mut self,
        marks: &Marks,
        boundaries: &mut [usize],
        mut kept: impl FnMut(usize, usize),
        mut removed: impl FnMut(usize),
    ) -> usize {
        let len = self.len();
        // Boundaries in ascending order, each with its place in `boundaries`.
        let mut ends: Vec<(usize, usize)> = boundaries
            .iter()
            .enumerate()
            .map(|(i, &end)| (end.min(len), i))
            .collect();
        ends.sort_unstable();
        let mut ends = ends.into_iter().peekable();
        let mut write = 0;
        for read in 0..len {
            while let Some(&(end, i)) = ends.peek()
                && end == read
            {
                boundaries[i] = write;
                ends.next();
            }
            let entity = self.as_slice()[read];
            if marks.contains(entity) {
                self.forget(entity);
                removed(read);
            } else {
                if read != write {
                    self.replace_member(write, entity);
                    kept(read, write);
                }
                write += 1;
            }
        }
        for (_, i) in ends {
            boundaries[i] = write;
        }
        self.cut(write);
        write
    }

    /// Removes the marked members, keeping the others in order.
    pub(crate) fn compact(&mut self, marks: &Marks) {
        self.compact_with(marks, &mut [], |_, _| {}, |_| {});
    }
}

impl<T> Storage<T> {
    /// Removes the components of the marked entities, keeping the others in order, and
    /// returns them (not dropped: the caller drops them once its world is consistent;
    /// none are kept for a type without drop glue). `listed` names the marked entities,
    /// each once, in the order a tracked storage records their removal (the call's).
    /// Each of `boundaries` (a position before) becomes the number of survivors before it.
    pub(crate) fn compact(
        &mut self,
        marks: &Marks,
        listed: &[Entity],
        boundaries: &mut [usize],
    ) -> Vec<T> {
        let len = self.components.len();
        if marks.is_empty() || len == 0 {
            return Vec::new();
        }
        self.ticks.listed_removed(listed, &self.set);
        let keep_removed = core::mem::needs_drop::<T>();
        let mut removed = Vec::new();
        if keep_removed {
            // Room for every removal up front: nothing below allocates, so nothing panics.
            removed.reserve_exact(marks.len().min(len));
        }
        let values = self.components.as_mut_ptr();
        // While values move, the vector claims none: a panic would leak, never double-drop.
        // SAFETY: 0 is within capacity and no value is reachable through the vector until
        // its length is restored below.
        unsafe { self.components.set_len(0) };
        let kept = self.set.compact_with(
            marks,
            boundaries,
            // SAFETY: `from` and `to` are below `len`, `to < from`, and the value at `to`
            // was moved out already (removed, or moved further forward): a plain move.
            |from, to| unsafe {
                core::ptr::copy_nonoverlapping(values.add(from), values.add(to), 1)
            },
            |at| {
                // SAFETY: `at < len`, and each position is read once: the value is moved
                // out, and its slot is overwritten or cut off below.
                let value = unsafe { core::ptr::read(values.add(at)) };
                if keep_removed {
                    removed.push(value); // within the capacity reserved above
                } else {
                    core::mem::forget(value); // no drop glue: nothing to run
                }
            },
        );
        // SAFETY: positions `[0, kept)` hold the survivors, moved in order; the rest were
        // moved out.
        unsafe { self.components.set_len(kept) };
        debug_assert_eq!(self.components.len(), self.set.len());
        removed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entity(index: u32) -> Entity {
        Entity::from_raw_parts(index, 1).unwrap()
    }

    #[test]
    fn compaction_keeps_the_order_of_the_survivors() {
        let mut storage: Storage<Box<u32>> =
            (0..10).map(|i| (entity(i), Box::new(i * 10))).collect();
        let mut marks = Marks::new();
        for i in [1, 4, 5, 9] {
            assert!(marks.mark(entity(i)));
        }
        assert!(!marks.mark(entity(4)));
        assert_eq!(marks.len(), 4);
        let mut lens = [6, 0, 10, 2];
        let removed = storage.compact(&marks, &[], &mut lens);
        assert_eq!(
            lens,
            [3, 0, 6, 1],
            "group lengths: the survivors before each end"
        );
        assert_eq!(removed, [10, 40, 50, 90].map(Box::new));
        assert_eq!(storage.components(), [0, 20, 30, 60, 70, 80].map(Box::new));
        storage.check().unwrap();
        assert!(!storage.contains(entity(4)) && storage.get(entity(6)) == Some(&Box::new(60)));

        // Without drop glue, nothing is handed back.
        let mut plain: Storage<u32> = (0..10).map(|i| (entity(i), i)).collect();
        assert!(plain.compact(&marks, &[], &mut []).is_empty());
        assert_eq!(plain.components(), &[0, 2, 3, 6, 7, 8]);
        plain.check().unwrap();
    }

    #[test]
    fn nothing_marked_moves_nothing() {
        let mut storage: Storage<u32> = (0..4).map(|i| (entity(i), i)).collect();
        assert!(storage.compact(&Marks::new(), &[], &mut []).is_empty());
        assert_eq!(storage.components(), &[0, 1, 2, 3]);
    }
}
