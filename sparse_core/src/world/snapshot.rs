//! The run-time world's side of snapshots (feature `serde`): what `snapshot` and `load`
//! read and rebuild (see [`crate::Snapshot`]).

use core::any::TypeId;

use crate::change::steps;
use crate::component::Component;
use crate::entity::Entity;
use crate::group::{self, GroupDecl};
use crate::storage::SparseSet;

use super::World;

impl World {
    /// The stored types: id, name (without module paths) and number of components.
    pub(crate) fn stored_types(&self) -> impl Iterator<Item = (TypeId, String, usize)> + '_ {
        self.by_type.iter().map(|(&id, &s)| {
            let storage = &self.storages[s];
            (
                id,
                crate::component::short_name(storage.type_name()),
                storage.entity_set().len(),
            )
        })
    }

    /// The held resources' types: id and name (without module paths).
    pub(crate) fn resource_types(&self) -> impl Iterator<Item = (TypeId, String)> + '_ {
        self.resources.types()
    }

    /// The member sets of the non-owning groups, in declaration order.
    pub(crate) fn member_sets(&self) -> impl Iterator<Item = &SparseSet> {
        self.groups.iter().filter_map(|g| g.members.as_ref())
    }

    /// The same, to put them in a snapshot's order (crate only: the sets must keep the
    /// group's members).
    pub(crate) fn member_sets_mut(&mut self) -> impl Iterator<Item = &mut SparseSet> {
        self.groups.iter_mut().filter_map(|g| g.members.as_mut())
    }

    /// Appends a snapshot's checked columns of `T` (see [`steps::append_many`]).
    pub(crate) fn append_loaded<T: Component>(&mut self, entities: &[Entity], values: Vec<T>) {
        let index = self.index_or_register::<T>();
        steps::append_many(self.plan::<T>(index), entities, values);
    }

    /// The rank of each of `ids` in the order a snapshot's storages are appended (see
    /// [`load_order`](crate::group::load_order)); types not stored yet come first.
    pub(crate) fn load_ranks(&self, ids: &[TypeId]) -> Vec<usize> {
        let decls: Vec<GroupDecl<usize>> = self
            .groups
            .iter()
            .map(|g| GroupDecl {
                owned: g.owned.clone(),
                observed: g.observed.clone(),
                excluded: g.excluded.clone(),
            })
            .collect();
        let order = group::load_order(self.storages.len(), &decls);
        let rank = |s: usize| 1 + order.iter().position(|&o| o == s).unwrap_or(0);
        ids.iter()
            .map(|id| self.by_type.get(id).map_or(0, |&s| rank(s)))
            .collect()
    }
}
