//! Groups: the validated layout and step order ([`Layout`]), the keys that name groups,
//! the engine that moves entities in and out of a group's packed prefix (or member set),
//! access to a group ([`GroupMut`]), sorting a group without breaking the groups nested
//! in it, and the sealed orders sorts take ([`GroupOrder`], and [`StorageOrder`] for a
//! storage no group owns).

mod engine;

pub(crate) use engine::common_prefix;
mod group_mut;
mod key;
mod layout;
mod load_order;
mod order;
mod owned_types;
mod sort;

pub use engine::{
    Aligned, GroupInfo, OwnedStorages, PositionHint, check_group, enter, enter_each, enter_set,
    leave, leave_many, leave_set,
};
pub use group_mut::{GroupIter, GroupMut, GroupRef, GroupRefIter};
pub use key::{Exclude, Get, GroupKey, Types};
pub(crate) use layout::DisplayGroup;
pub use layout::{Action, Conflict, GroupDecl, Layout, LayoutError, Place, Role, Step};
pub use load_order::load_order;
pub(crate) use order::{ByComparator, ByEntity, ByKey, ByRadixKey, EntityOrder, InOrderOf};
pub use order::{GroupOrder, StorageOrder};
pub use owned_types::{OwnedTypes, PerSlot};
pub use sort::{apply_sources, group_sources, sort_members};
