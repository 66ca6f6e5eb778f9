//! Views: joins over storages that no group packs together.

use crate::component_set::ComponentSet;
use crate::entity::Entity;

/// Mutable access to the entities having every component of `G`, driven by the smallest
/// of the storages (each of its entities is looked up in the others).
///
/// ```text
/// A entities : [e4|e7|e3|e8|e6]
/// B entities : [e8|e5|e7]          <- the smallest drives: e8 (found in A), e5 (not), e7
/// ```
pub struct View<'a, G: ComponentSet> {
    storages: G::Storages<'a>,
}

impl<'a, G: ComponentSet> View<'a, G> {
    /// Wraps distinct storages.
    pub(crate) fn new(storages: G::Storages<'a>) -> Self {
        View { storages }
    }

    /// Calls `f` with each matching entity and mutable references to its components.
    pub fn for_each(mut self, f: impl FnMut(Entity, G::RefsMut<'_>)) {
        G::view_for_each(&mut self.storages, f);
    }

    /// The components of `entity`, if it has all of them.
    pub fn get(&mut self, entity: Entity) -> Option<G::RefsMut<'_>> {
        G::view_get(&mut self.storages, entity)
    }

    /// An upper bound of the number of matches: the size of the smallest storage.
    pub fn len_hint(&self) -> usize {
        G::view_len_hint(&self.storages)
    }
}
