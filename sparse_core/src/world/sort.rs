//! Sorting the run-time world's storages and groups: the same orders a `#[world]`'s
//! generated sorts take (see [`group::order`](crate::group)), checked at run time against
//! the layout (a storage a group owns sorts only through its group).

use crate::component::Component;
use crate::component_set::ComponentSet;
use crate::component_set::sealed::Sealed as _;
use crate::group::{self, GroupKey, GroupOrder, StorageOrder};
use crate::lend::{AccessError, ErasedSlot};

use super::World;

impl World {
    /// Sorts the storage of `T` in `order`; refused if a group owns `T`.
    pub(super) fn sort_with<T: Component>(
        &mut self,
        order: impl StorageOrder<T>,
    ) -> Result<(), AccessError> {
        let index = self.index_or_register::<T>();
        if self.groups.iter().any(|g| g.owned.contains(&index)) {
            return Err(AccessError::OwnedByGroup(core::any::type_name::<T>()));
        }
        order.sort(self.typed_mut::<T>(index));
        Ok(())
    }

    /// Sorts the group named by `K` in `order`, layer by layer, and the storages it
    /// owns or orders with it.
    pub(super) fn sort_group_with<K: GroupKey>(
        &mut self,
        order: impl GroupOrder<K>,
    ) -> Result<(), AccessError> {
        let group = self.group_index::<K>()?;
        let owned = self.indices(&K::Owned::keys());
        let observed = self.indices(&K::Observed::keys());
        let World {
            storages,
            groups,
            layout,
            by_type,
            ..
        } = self;
        let layout = layout.as_ref().expect("a group implies a layout");
        let mut slots: Vec<ErasedSlot<'_>> = storages.iter_mut().map(ErasedSlot::new).collect();
        let owned = K::Owned::take_slots_whole(&mut slots, &owned)?;
        let observed = K::Observed::take_slots_whole(&mut slots, &observed)?;
        if let Some(members) = &mut groups[group].members {
            group::sort_members::<K>(members, owned, observed, order);
            return Ok(());
        }
        let mut layer_ends: Vec<usize> = layout
            .inner_groups(group)
            .iter()
            .rev()
            .map(|&g| groups[g].len)
            .collect();
        layer_ends.push(groups[group].len);
        let sources = group::group_sources::<K>(owned, observed, &layer_ends, order);
        drop(slots);
        for (key, g) in layout.sort_targets(group) {
            let len = groups[g].len;
            storages[by_type[&key.type_id()]].apply_sources(&sources[..len]);
        }
        Ok(())
    }
}
