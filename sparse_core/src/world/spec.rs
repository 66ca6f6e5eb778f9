//! How groups of a run-time world are declared.

use crate::component::ComponentKey;
use crate::component_set::sealed::Sealed as _;
use crate::group::{GroupDecl, GroupKey};
use crate::storage::ErasedStorage;

/// How to declare a group of a run-time [`World`](crate::World), by its key:
/// `GroupSpec::of::<(A, B)>()`, `GroupSpec::of::<(Velocity, Get<Position>, Exclude<Frozen>)>()`,
/// `GroupSpec::of::<Get<(Health, Poisoned)>>()`.
pub struct GroupSpec {
    pub(super) decl: GroupDecl<ComponentKey>,
    /// Empty storages for the owned, observed and excluded types, in that order.
    pub(super) new_storages: fn() -> Vec<Box<dyn ErasedStorage>>,
}

fn new_storages<K: GroupKey>() -> Vec<Box<dyn ErasedStorage>> {
    let mut storages = K::Owned::new_storages();
    storages.extend(K::Observed::new_storages());
    storages.extend(K::Excluded::new_storages());
    storages
}

impl GroupSpec {
    /// The group named by the key `K`.
    pub fn of<K: GroupKey>() -> Self {
        GroupSpec {
            decl: K::decl(),
            new_storages: new_storages::<K>,
        }
    }
}
