//! The run-time world split into parts for borrows: slots over its type-erased storages,
//! checked at run time (an overlapping request is an [`AccessError`]).

use core::any::TypeId;

use super::resources::Resources;
use super::{GroupState, World};
use crate::access::LendGroup;
use crate::component::Component;
use crate::component_set::ComponentSet;
use crate::component_set::sealed::Sealed as _;
use crate::entity::Entities;
use crate::group::{GroupKey, GroupMut, GroupRef};
use crate::lend::{
    AccessError, Dynamic, ErasedResourceSlot, ErasedSlot, GroupShape, LendResource, LendStorage,
    Numbered, ResourceSlotRef, SlotRef, WorldParts,
};
use crate::storage::ChangeCount;
use crate::world::sorted_ids;

/// The run-time world split into parts.
pub struct Parts<'w> {
    slots: Vec<ErasedSlot<'w>>,
    /// One slot per resource, with its type and the type a schedule's lists name it by,
    /// made when a request first asks for one (a borrow of storages only pays nothing for
    /// them).
    resources: Vec<([TypeId; 2], ErasedResourceSlot<'w>)>,
    /// The resources not split into slots yet.
    unsplit: Option<Unsplit<'w>>,
    world: WorldView<'w>,
}

impl Parts<'_> {
    /// Splits the resources into slots, if no request did yet.
    fn split_resources(&mut self) {
        if let Some(unsplit) = self.unsplit.take() {
            self.resources = match unsplit {
                Unsplit::Mut(resources) => resources
                    .iter_mut()
                    .map(|(ids, r)| (ids, ErasedResourceSlot::new(r)))
                    .collect(),
                Unsplit::Shared(resources) => resources
                    .iter()
                    .map(|(ids, r)| (ids, ErasedResourceSlot::shared(r)))
                    .collect(),
            };
        }
    }
}

/// The run-time world's resources, before a request splits them into slots.
enum Unsplit<'w> {
    Mut(&'w mut Resources),
    Shared(&'w Resources),
}

/// What every part of the run-time world may read.
#[derive(Clone, Copy)]
struct WorldView<'w> {
    entities: &'w Entities,
    by_type: &'w super::type_map::TypeMap,
    groups: &'w [GroupState],
}

impl World {
    fn view_of(&self) -> WorldView<'_> {
        WorldView {
            entities: &self.entities,
            by_type: &self.by_type,
            groups: &self.groups,
        }
    }
}

impl WorldParts for World {
    #[doc(hidden)]
    type Parts<'w> = Parts<'w>;

    #[doc(hidden)]
    fn parts(&mut self) -> Parts<'_> {
        let World {
            entities,
            storages,
            by_type,
            groups,
            resources,
            ..
        } = self;
        Parts {
            slots: storages.iter_mut().map(ErasedSlot::new).collect(),
            resources: Vec::new(),
            unsplit: Some(Unsplit::Mut(resources)),
            world: WorldView {
                entities,
                by_type,
                groups,
            },
        }
    }

    #[doc(hidden)]
    fn parts_ref(&self) -> Parts<'_> {
        Parts {
            slots: self.storages.iter().map(ErasedSlot::shared).collect(),
            resources: Vec::new(),
            unsplit: Some(Unsplit::Shared(&self.resources)),
            world: self.view_of(),
        }
    }

    #[doc(hidden)]
    fn reborrow_parts<'a>(parts: &'a mut Parts<'_>) -> Parts<'a>
    where
        Self: 'a,
    {
        Parts {
            slots: parts.slots.iter_mut().map(ErasedSlot::reborrow).collect(),
            resources: parts
                .resources
                .iter_mut()
                .map(|(ids, slot)| (*ids, slot.reborrow()))
                .collect(),
            unsplit: match &mut parts.unsplit {
                Some(Unsplit::Mut(resources)) => Some(Unsplit::Mut(resources)),
                Some(Unsplit::Shared(resources)) => Some(Unsplit::Shared(resources)),
                None => None,
            },
            world: parts.world,
        }
    }

    #[doc(hidden)]
    fn split_parts<'w>(parts: &mut Parts<'w>, writes: &[TypeId], reads: &[TypeId]) -> Parts<'w>
    where
        Self: 'w,
    {
        parts.split_resources();
        Parts {
            slots: parts
                .slots
                .iter_mut()
                .map(|slot| slot.split(writes, reads))
                .collect(),
            resources: parts
                .resources
                .iter_mut()
                .map(|(ids, slot)| {
                    let listed = ids[1];
                    (
                        *ids,
                        slot.split(writes.contains(&listed), reads.contains(&listed)),
                    )
                })
                .collect(),
            unsplit: None,
            world: parts.world,
        }
    }

    #[doc(hidden)]
    fn stamp_parts_at(parts: &Parts<'_>, at: u32) {
        for slot in &parts.slots {
            slot.stamp_at(at);
        }
    }

    type Lent<R> = Result<R, AccessError>;
    const PROVEN: bool = false;

    #[doc(hidden)]
    fn lent<R>(taken: Result<R, AccessError>) -> Result<R, AccessError> {
        taken
    }

    #[doc(hidden)]
    fn entities_of<'w>(parts: &Self::Parts<'w>) -> &'w Entities {
        parts.world.entities
    }

    #[doc(hidden)]
    fn step_changes(&mut self) -> ChangeCount {
        World::step_changes(self)
    }

    #[doc(hidden)]
    fn jump_change_count(&mut self, now: u32) {
        World::jump_change_count(self, now);
    }

    #[doc(hidden)]
    fn storage_count(&self) -> usize {
        self.storages.len()
    }

    #[doc(hidden)]
    fn forget_storages_from(&mut self, count: usize) {
        World::forget_storages_from(self, count);
    }

    #[doc(hidden)]
    fn with_groups<'w, R>(
        parts: &Self::Parts<'w>,
        f: impl FnOnce(&[GroupShape<'_, 'w>]) -> R,
    ) -> R {
        let groups = parts.world.groups;
        let shapes: Vec<GroupShape<'_, 'w>> = groups
            .iter()
            .map(|g| GroupShape {
                owned: &g.ids[0],
                observed: &g.ids[1],
                excluded: &g.ids[2],
                len: g.len,
                members: g.members.as_ref(),
            })
            .collect();
        f(&shapes)
    }
}

/// Every type and resource is apart from every other at compile time: the run-time world
/// checks borrows when they are made.
impl<X> Numbered<X> for World {
    type Index = Dynamic;
}

impl<R: Send + Sync + 'static> LendResource<R> for World {
    fn resource_slot<'p, 'w>(
        parts: &'p mut Self::Parts<'w>,
    ) -> Result<ResourceSlotRef<'p, 'w, R>, AccessError> {
        parts.split_resources();
        parts
            .resources
            .iter_mut()
            .find(|([id, _], _)| *id == TypeId::of::<R>())
            .map(|(_, slot)| ResourceSlotRef::erased(slot))
            .ok_or(AccessError::NoResource(core::any::type_name::<R>()))
    }
}

impl<T: Component> LendStorage<T> for World {
    fn prepare(world: &mut World) {
        world.register_type::<T>();
    }

    fn slot<'p, 'w>(parts: &'p mut Self::Parts<'w>) -> Result<SlotRef<'p, 'w, T>, AccessError> {
        let index = *parts
            .world
            .by_type
            .get(&TypeId::of::<T>())
            .ok_or(AccessError::NotStored(core::any::type_name::<T>()))?;
        Ok(SlotRef::erased(&mut parts.slots[index]))
    }
}

/// The slot indices of the types of `Set`.
fn indices_of<Set: ComponentSet>(parts: &Parts<'_>) -> Result<Vec<usize>, AccessError> {
    Set::keys()
        .iter()
        .map(|key| {
            parts
                .world
                .by_type
                .get(&key.type_id())
                .copied()
                .ok_or(AccessError::NotStored(key.name()))
        })
        .collect()
}

impl<K: GroupKey> LendGroup<K> for World {
    fn lend_group<'w>(parts: &mut Self::Parts<'w>) -> Result<GroupMut<'w, K>, AccessError> {
        let group = group_of::<K>(parts.world.groups)?;
        let (owned, observed) = (
            indices_of::<K::Owned>(parts)?,
            indices_of::<K::Observed>(parts)?,
        );
        let owned = K::Owned::take_slots(&mut parts.slots, &owned)?;
        let observed = K::Observed::take_slots(&mut parts.slots, &observed)?;
        Ok(match &group.members {
            None => GroupMut::new(owned, group.len, observed),
            Some(members) => GroupMut::over_members(members, owned, observed),
        })
    }

    fn lend_group_ref<'w>(parts: &mut Self::Parts<'w>) -> Result<GroupRef<'w, K>, AccessError> {
        let group = group_of::<K>(parts.world.groups)?;
        let (owned, observed) = (
            indices_of::<K::Owned>(parts)?,
            indices_of::<K::Observed>(parts)?,
        );
        let owned = K::Owned::take_slots_ref(&mut parts.slots, &owned)?;
        let observed = K::Observed::take_slots_ref(&mut parts.slots, &observed)?;
        Ok(match &group.members {
            None => GroupRef::new(owned, group.len, observed),
            Some(members) => GroupRef::over_members(members, owned, observed),
        })
    }
}

/// The group of the run-time world named by `K`.
fn group_of<K: GroupKey>(groups: &[GroupState]) -> Result<&GroupState, AccessError> {
    let decl = K::decl();
    let ids = sorted_ids(&decl);
    groups
        .iter()
        .find(|g| g.ids == ids)
        .ok_or_else(|| AccessError::NoSuchGroup(crate::group::DisplayGroup(&decl).to_string()))
}
