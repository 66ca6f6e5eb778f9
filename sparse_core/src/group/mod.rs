//! Owning groups: the validated layout and hook order ([`Layout`]), the engine that moves
//! entities in and out of a group's packed prefix, access to a group ([`GroupMut`]), and
//! sorting a group without breaking the groups nested in it.

mod engine;
mod group_mut;
mod layout;
mod sort;

pub(crate) use engine::sealed::Sealed as OwnedSealed;
pub use engine::{Hint, OwnedStorages, check_group, enter, leave};
pub use group_mut::GroupMut;
pub(crate) use layout::DisplayGroup;
pub use layout::{Conflict, Layout, LayoutError};
pub use sort::{apply_sources, group_sources};
