//! Access to a group: its entities and aligned component slices.

use crate::component_set::ComponentSet;
use crate::entity::Entity;

/// Mutable access to a group: its entities and one slice per owned component, all of the
/// group's length and aligned (position `i` of every slice belongs to `entities()[i]`).
///
/// ```text
/// entities : [e4|e8|e7]      the group's prefix of its first storage
/// A        : [A4|A8|A7]      &mut [A]
/// B        : [B4|B8|B7]      &mut [B]
/// ```
///
/// Values can be changed freely; the group's structure cannot change while this exists.
pub struct GroupMut<'a, G: ComponentSet> {
    entities: &'a [Entity],
    slices: G::SlicesMut<'a>,
}

impl<'a, G: ComponentSet> GroupMut<'a, G> {
    /// The group of length `len` over `storages`, the group's owned storages in tuple
    /// order.
    ///
    /// # Panics
    /// Panics if a storage is shorter than `len`.
    pub(crate) fn new(storages: G::Storages<'a>, len: usize) -> Self {
        let (entities, slices) = G::prefixes(storages, len);
        GroupMut { entities, slices }
    }

    /// The number of entities in the group.
    pub fn len(&self) -> usize {
        self.entities.len()
    }

    /// Whether the group is empty.
    pub fn is_empty(&self) -> bool {
        self.entities.is_empty()
    }

    /// The group's entities, in order.
    pub fn entities(&self) -> &'a [Entity] {
        self.entities
    }

    /// The entities and the component slices, e.g. `(entities, (a, b))` for a group of
    /// `(A, B)`: plain slices, for loops that the compiler can vectorise.
    pub fn into_slices(self) -> (&'a [Entity], G::SlicesMut<'a>) {
        (self.entities, self.slices)
    }

    /// Calls `f` with each entity and mutable references to its components.
    pub fn for_each(self, f: impl FnMut(Entity, G::RefsMut<'_>)) {
        G::for_each_in(self.entities, self.slices, f);
    }
}
