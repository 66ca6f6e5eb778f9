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
pub struct Marks {
    words: Vec<u64>,
    count: usize,
}

impl Marks {
    /// No mark.
    pub fn new() -> Self {
        Self::default()
    }

    /// Marks `entity`'s index; returns whether it was unmarked.
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

/// The number of entities of `prefix` that are not marked: a group's length after its
/// marked members are compacted away.
pub fn survivors(prefix: &[Entity], marks: &Marks) -> usize {
    prefix.iter().filter(|&&e| !marks.contains(e)).count()
}

impl SparseSet {
    /// Removes the marked members, keeping the others in order. Returns the removed ones.
    pub(crate) fn compact(&mut self, marks: &Marks) -> Vec<Entity> {
        let Some(first) = self.as_slice().iter().position(|&e| marks.contains(e)) else {
            return Vec::new();
        };
        let mut removed = Vec::new();
        let mut kept = first;
        for position in first..self.len() {
            let entity = self.as_slice()[position];
            if marks.contains(entity) {
                removed.push(entity);
            } else {
                self.replace_member(kept, entity);
                kept += 1;
            }
        }
        self.truncate(kept);
        removed
    }
}

impl<T> Storage<T> {
    /// Removes the components of the marked entities, keeping the others in order, and
    /// returns them (not dropped: the caller drops them once its world is consistent).
    pub(crate) fn compact(&mut self, marks: &Marks) -> Vec<T> {
        let entities = self.entities();
        let Some(first) = entities.iter().position(|&e| marks.contains(e)) else {
            return Vec::new();
        };
        // `extract_if` visits the values in order, exactly once each, so `position`
        // follows it through the entities.
        let mut position = first;
        let set = &self.set;
        let removed: Vec<T> = self
            .components
            .extract_if(first.., |_| {
                let marked = marks.contains(set.as_slice()[position]);
                position += 1;
                marked
            })
            .collect();
        let removed_entities = self.set.compact(marks);
        debug_assert_eq!(removed.len(), removed_entities.len());
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
        let mut storage: Storage<u32> = (0..10).map(|i| (entity(i), i * 10)).collect();
        let mut marks = Marks::new();
        for i in [1, 4, 5, 9] {
            assert!(marks.mark(entity(i)));
        }
        assert!(!marks.mark(entity(4)));
        assert_eq!(marks.len(), 4);
        assert_eq!(survivors(&storage.entities()[..6], &marks), 3);
        let removed = storage.compact(&marks);
        assert_eq!(removed, vec![10, 40, 50, 90]);
        assert_eq!(storage.components(), &[0, 20, 30, 60, 70, 80]);
        storage.check().unwrap();
        assert!(!storage.contains(entity(4)) && storage.get(entity(6)) == Some(&60));
    }

    #[test]
    fn nothing_marked_moves_nothing() {
        let mut storage: Storage<u32> = (0..4).map(|i| (entity(i), i)).collect();
        assert!(storage.compact(&Marks::new()).is_empty());
        assert_eq!(storage.components(), &[0, 1, 2, 3]);
    }
}
