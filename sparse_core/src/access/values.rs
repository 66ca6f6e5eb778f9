//! One storage lent for its values: they can change, the set of entities cannot.

use core::fmt;

use crate::entity::Entity;
use crate::storage::{Marker, SparseSet, StorageMut};

/// The components of one type, mutable, with their entities fixed: what a borrow hands
/// out for a storage it writes (`ValuesMut<Lifetime>`). Nothing can be inserted or
/// removed through it, so every group stays valid.
///
/// ```text
/// entities : [e3|e5|e1]        read only
/// values   : [T3|T5|T1]        &mut [T]
/// ```
pub struct ValuesMut<'w, T> {
    set: &'w SparseSet,
    values: &'w mut [T],
    /// The storage's change stamps, if it is tracked: a value handed out mutably is
    /// stamped changed.
    ticks: Option<Marker<'w>>,
}

impl<'w, T> ValuesMut<'w, T> {
    /// Lends a storage's values.
    pub(crate) fn new(storage: StorageMut<'w, T>) -> Self {
        let (set, values, ticks) = storage.split();
        ValuesMut { set, values, ticks }
    }

    /// The number of components.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there is no component.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Whether `entity` has a component here.
    pub fn contains(&self, entity: Entity) -> bool {
        self.set.contains(entity)
    }

    /// `entity`'s component.
    pub fn get(&self, entity: Entity) -> Option<&T> {
        self.set.index_of(entity).map(|p| &self.values[p])
    }

    /// `entity`'s component, mutably.
    pub fn get_mut(&mut self, entity: Entity) -> Option<&mut T> {
        let position = self.set.index_of(entity)?;
        if let Some(ticks) = self.ticks {
            ticks.mark(entity.index());
        }
        Some(&mut self.values[position])
    }

    /// Stamps every value changed, if the storage is tracked: they are handed out.
    fn mark_all_changed(&self) {
        if let Some(ticks) = self.ticks {
            ticks.mark_all();
        }
    }

    /// The entities, in dense order.
    pub fn entities(&self) -> &'w [Entity] {
        self.set.as_slice()
    }

    /// The components, in dense order.
    pub fn values(&self) -> &[T] {
        self.values
    }

    /// The components, in dense order, mutably.
    pub fn values_mut(&mut self) -> &mut [T] {
        self.mark_all_changed();
        self.values
    }

    /// The entities and the components, the latter mutably.
    pub fn into_slices(self) -> (&'w [Entity], &'w mut [T]) {
        self.mark_all_changed();
        (self.set.as_slice(), self.values)
    }

    /// Iterates over `(entity, &component)`.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Entity, &T)> + '_ {
        self.set.as_slice().iter().copied().zip(self.values.iter())
    }

    /// Iterates over `(entity, &mut component)`.
    pub fn iter_mut(&mut self) -> impl ExactSizeIterator<Item = (Entity, &mut T)> + '_ {
        self.mark_all_changed();
        self.set
            .as_slice()
            .iter()
            .copied()
            .zip(self.values.iter_mut())
    }
}

impl<'w, T> IntoIterator for ValuesMut<'w, T> {
    type Item = (Entity, &'w mut T);
    type IntoIter = core::iter::Zip<
        core::iter::Copied<core::slice::Iter<'w, Entity>>,
        core::slice::IterMut<'w, T>,
    >;

    fn into_iter(self) -> Self::IntoIter {
        self.mark_all_changed();
        self.set
            .as_slice()
            .iter()
            .copied()
            .zip(self.values.iter_mut())
    }
}

impl<T: fmt::Debug> fmt::Debug for ValuesMut<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}
