//! How groups of a run-time world are declared.

use crate::component::ComponentKey;
use crate::component_set::ComponentSet;
use crate::storage::ErasedStorage;

/// How to declare a group of a run-time [`World`](crate::World): `GroupSpec::of::<(A, B)>()`.
pub struct GroupSpec {
    pub(super) keys: Vec<ComponentKey>,
    pub(super) new_storages: fn() -> Vec<Box<dyn ErasedStorage>>,
}

impl GroupSpec {
    /// The group owning the types of the tuple `G`.
    pub fn of<G: ComponentSet>() -> Self {
        GroupSpec {
            keys: G::keys(),
            new_storages: G::new_storages,
        }
    }
}
