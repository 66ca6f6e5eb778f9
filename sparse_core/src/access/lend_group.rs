//! The group part of a borrow: how a world lends one of its groups.

use crate::group::{GroupKey, GroupMut, GroupRef};
use crate::lend::{AccessError, WorldParts};

/// A world with the group named by `K`, which it can lend to a borrow request.
#[diagnostic::on_unimplemented(
    message = "the world `{Self}` has no group `{K}`",
    label = "no such group",
    note = "a group is named by its owned types in the order of its `#[group(...)]` declaration, then `Get<…>` and `Exclude<…>`, e.g. `(Velocity, Get<Position>, Exclude<Frozen>)`"
)]
#[doc(hidden)]
pub trait LendGroup<K: GroupKey>: WorldParts {
    /// The group, its values mutable.
    #[doc(hidden)]
    fn lend_group<'w>(parts: &mut Self::Parts<'w>) -> Result<GroupMut<'w, K>, AccessError>;
    /// The group, read only.
    #[doc(hidden)]
    fn lend_group_ref<'w>(parts: &mut Self::Parts<'w>) -> Result<GroupRef<'w, K>, AccessError>;
}
