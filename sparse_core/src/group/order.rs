//! The orders a world's sorts take: a comparator, a key read once per item, a radix key,
//! or (groups) another storage's order. Each is a private wrapper of the user's closure behind a sealed trait, one trait
//! for groups ([`GroupOrder`]) and one for storages no group owns ([`StorageOrder`]): a
//! sort's permutation is built here, never by the caller, so it cannot be forged.

use core::cmp::Ordering;

use super::GroupKey;
use crate::entity::Entity;
use crate::storage::{RadixKey, Storage, radix_sort_pairs};

/// How a group sort orders each layer: by a comparator ([`sort_group`]), by a key read
/// once per member ([`sort_group_by_key`]), by a radix key ([`sort_group_by_radix_key`]),
/// or by the members' order in another storage ([`sort_group_as`]). Sealed: the layer it
/// sorts must stay a permutation.
///
/// [`sort_group`]: crate::HasGroup::sort_group
/// [`sort_group_by_key`]: crate::HasGroup::sort_group_by_key
/// [`sort_group_by_radix_key`]: crate::HasGroup::sort_group_by_radix_key
/// [`sort_group_as`]: crate::HasGroup::sort_group_as
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an order of the group `{K}`",
    label = "not an order that `sort_group`, `sort_group_by_key`, `sort_group_by_radix_key` or `sort_group_as` builds",
    note = "sort a group with `sort_group` (a comparator), `sort_group_by_key` or `sort_group_by_radix_key` (a key read once per member), or `sort_group_as` (another storage's order)"
)]
#[doc(hidden)]
pub trait GroupOrder<K: GroupKey>: sealed::Sealed {
    /// Sorts `positions` (a layer of the group) by the items `item` reads at them, or by
    /// the entities `entity` names there.
    #[doc(hidden)]
    fn sort_layer<'s>(
        &mut self,
        positions: &mut [u32],
        item: impl FnMut(u32) -> K::Item<'s>,
        entity: impl Fn(u32) -> Entity,
    );
}

/// Keeps [`GroupOrder`] and [`StorageOrder`] to this crate: the permutation a sort
/// applies is built here, never by the caller.
mod sealed {
    /// Sealing [`GroupOrder`](super::GroupOrder).
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be a group order: `GroupOrder` is sealed",
        label = "`GroupOrder` is implemented only by the orders `sparse_groups` builds",
        note = "a layer's order must stay a permutation of it: sort with `sort_group`, `sort_group_by_key`, `sort_group_by_radix_key` or `sort_group_as`"
    )]
    pub trait Sealed {}

    /// Sealing [`StorageOrder`](super::StorageOrder).
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be a storage order: `StorageOrder` is sealed",
        label = "`StorageOrder` is implemented only by the orders `sparse_groups` builds",
        note = "a storage's components must move with their entities: sort with `sort`, `sort_by_key`, `sort_by_radix_key` or `sort_as`"
    )]
    pub trait StorageOrder {}
}

/// Orders by a comparator (std's unstable sort: equal items may swap).
pub(crate) struct ByComparator<F>(pub(crate) F);
/// Orders by a key read once per member, stably.
pub(crate) struct ByKey<F>(pub(crate) F);
/// Orders by an integer or float key with a radix sort, stably.
pub(crate) struct ByRadixKey<F>(pub(crate) F);

#[diagnostic::do_not_recommend]
impl<F> sealed::Sealed for ByComparator<F> {}
#[diagnostic::do_not_recommend]
impl<F> sealed::Sealed for ByKey<F> {}
#[diagnostic::do_not_recommend]
impl<F> sealed::Sealed for ByRadixKey<F> {}
#[diagnostic::do_not_recommend]
impl<F> sealed::StorageOrder for ByComparator<F> {}
#[diagnostic::do_not_recommend]
impl<F> sealed::StorageOrder for ByKey<F> {}
#[diagnostic::do_not_recommend]
impl<F> sealed::StorageOrder for ByRadixKey<F> {}

impl<K: GroupKey, F> GroupOrder<K> for ByComparator<F>
where
    F: FnMut(K::Item<'_>, K::Item<'_>) -> Ordering,
{
    fn sort_layer<'s>(
        &mut self,
        positions: &mut [u32],
        mut item: impl FnMut(u32) -> K::Item<'s>,
        _: impl Fn(u32) -> Entity,
    ) {
        positions.sort_unstable_by(|&a, &b| {
            let (a, b) = (item(a), item(b));
            (self.0)(a, b)
        });
    }
}

impl<K: GroupKey, F, Key: Ord> GroupOrder<K> for ByKey<F>
where
    F: FnMut(K::Item<'_>) -> Key,
{
    fn sort_layer<'s>(
        &mut self,
        positions: &mut [u32],
        mut item: impl FnMut(u32) -> K::Item<'s>,
        _: impl Fn(u32) -> Entity,
    ) {
        let mut keyed: Vec<(Key, u32)> =
            positions.iter().map(|&p| ((self.0)(item(p)), p)).collect();
        keyed.sort_unstable(); // positions ascend within the layer: ties keep their order
        for (slot, (_, p)) in positions.iter_mut().zip(keyed) {
            *slot = p;
        }
    }
}

impl<K: GroupKey, F, Key: RadixKey> GroupOrder<K> for ByRadixKey<F>
where
    F: FnMut(K::Item<'_>) -> Key,
{
    fn sort_layer<'s>(
        &mut self,
        positions: &mut [u32],
        mut item: impl FnMut(u32) -> K::Item<'s>,
        _: impl Fn(u32) -> Entity,
    ) {
        sort_positions_by(positions, |p| (self.0)(item(p)).radix());
    }
}

/// Sorts a layer's `positions` by the `u64` key of each, read once, stably (radix).
fn sort_positions_by(positions: &mut [u32], mut key: impl FnMut(u32) -> u64) {
    let mut keyed: Vec<(u64, u32)> = positions.iter().map(|&p| (key(p), p)).collect();
    radix_sort_pairs(&mut keyed);
    for (slot, (_, p)) in positions.iter_mut().zip(keyed) {
        *slot = p;
    }
}

/// Orders by entity (index, then version): what
/// [`sort_group_by_entity`](crate::HasGroup::sort_group_by_entity) builds.
pub(crate) struct ByEntity;

#[diagnostic::do_not_recommend]
impl sealed::Sealed for ByEntity {}

impl<K: GroupKey> GroupOrder<K> for ByEntity {
    fn sort_layer<'s>(
        &mut self,
        positions: &mut [u32],
        _: impl FnMut(u32) -> K::Item<'s>,
        entity: impl Fn(u32) -> Entity,
    ) {
        sort_positions_by(positions, |p| {
            let e = entity(p);
            (u64::from(e.index()) << 32) | u64::from(e.version())
        });
    }
}

/// Orders by the position each entity has in another storage (members it lacks last, in
/// their order), stably: what [`sort_group_as`](crate::HasGroup::sort_group_as) builds.
pub(crate) struct InOrderOf {
    /// The position in that storage of each entity index (`u32::MAX`: not there).
    positions: Vec<u32>,
}

impl InOrderOf {
    /// The order of `entities`, a storage's dense array.
    pub(crate) fn new(entities: &[Entity]) -> Self {
        let end = entities
            .iter()
            .map(|e| e.index() as usize + 1)
            .max()
            .unwrap_or(0);
        let mut positions = vec![u32::MAX; end];
        for (position, entity) in entities.iter().enumerate() {
            // A storage holds fewer than `u32::MAX` entities (indices are `u32`).
            positions[entity.index() as usize] = position as u32;
        }
        InOrderOf { positions }
    }

    /// The sort key of `entity`: its position there, or after every position.
    fn key(&self, entity: Entity) -> u64 {
        self.positions
            .get(entity.index() as usize)
            .map_or(u64::from(u32::MAX), |&p| u64::from(p))
    }
}

#[diagnostic::do_not_recommend]
impl sealed::Sealed for InOrderOf {}

impl<K: GroupKey> GroupOrder<K> for InOrderOf {
    fn sort_layer<'s>(
        &mut self,
        positions: &mut [u32],
        _: impl FnMut(u32) -> K::Item<'s>,
        entity: impl Fn(u32) -> Entity,
    ) {
        sort_positions_by(positions, |p| self.key(entity(p)));
    }
}

/// How a storage that no group owns is sorted: by a comparator ([`Unowned::sort`]), by a
/// key read once per component ([`Unowned::sort_by_key`]), or by a radix key
/// ([`Unowned::sort_by_radix_key`]). Sealed, like [`GroupOrder`].
///
/// [`Unowned::sort`]: crate::Unowned::sort
/// [`Unowned::sort_by_key`]: crate::Unowned::sort_by_key
/// [`Unowned::sort_by_radix_key`]: crate::Unowned::sort_by_radix_key
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an order of the storage of `{T}`",
    label = "not an order that `sort`, `sort_by_key`, `sort_by_radix_key` or `sort_as` builds",
    note = "sort a storage with `sort` (a comparator), `sort_by_key` or `sort_by_radix_key` (a key read once per component), or `sort_as` (another storage's order)"
)]
#[doc(hidden)]
pub trait StorageOrder<T>: sealed::StorageOrder {
    /// Sorts `storage` (its entities, components and sparse entries together).
    #[doc(hidden)]
    fn sort(self, storage: &mut Storage<T>);
}

/// Orders a storage like another storage's entities (those it lacks last, in their
/// order): what [`sort_as`](crate::Unowned::sort_as) builds.
pub(crate) struct EntityOrder(pub(crate) Vec<Entity>);

#[diagnostic::do_not_recommend]
impl sealed::StorageOrder for EntityOrder {}

impl<T> StorageOrder<T> for EntityOrder {
    fn sort(self, storage: &mut Storage<T>) {
        storage.sort_as(&self.0);
    }
}

impl<T, F: FnMut(&T, &T) -> Ordering> StorageOrder<T> for ByComparator<F> {
    fn sort(self, storage: &mut Storage<T>) {
        storage.sort_by(self.0);
    }
}

impl<T, F: FnMut(&T) -> Key, Key: Ord> StorageOrder<T> for ByKey<F> {
    fn sort(self, storage: &mut Storage<T>) {
        storage.sort_by_cached_key(self.0);
    }
}

impl<T, F: FnMut(&T) -> Key, Key: RadixKey> StorageOrder<T> for ByRadixKey<F> {
    fn sort(self, storage: &mut Storage<T>) {
        storage.sort_by_radix_key(self.0);
    }
}
