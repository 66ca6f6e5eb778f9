//! How groups of a run-time world are declared.

use super::GroupState;
use super::plan::{Moving, SlotSteps, owning_step};
use crate::component::ComponentKey;
use crate::component_set::sealed::Sealed as _;
use crate::entity::Entity;
use crate::group::{Aligned, GroupDecl, GroupKey, OwnedTypes, Step};
use crate::storage::{AnyStorage, Marks};

/// How to declare a group of a run-time [`World`](crate::World), by its key:
/// `GroupSpec::of::<(A, B)>()`, `GroupSpec::of::<(Velocity, Get<Position>, Exclude<Frozen>)>()`,
/// `GroupSpec::of::<Get<(Health, Poisoned)>>()`.
pub struct GroupSpec {
    pub(super) decl: GroupDecl<ComponentKey>,
    /// Empty storages for the owned, observed and excluded types, in that order.
    pub(super) new_storages: fn() -> Vec<AnyStorage>,
    /// The moves over the owned storages, typed.
    pub(super) moves: OwnedMoves,
}

/// A group's moves over a run-time world's storages, chosen when the group is declared,
/// while its owned types are known: one entity's whole step ([`owning_step`]), the steps
/// made for each owned type's slot ([`OwnedTypes::at_slot`]) and the bulk moves
/// ([`OwnedTypes`]). A non-owning group's are the empty tuple's, never called: its
/// members are a set.
#[derive(Clone, Copy)]
pub(super) struct OwnedMoves {
    pub(super) step: OwningStep,
    pub(super) enter_each: EnterEach,
    pub(super) leave_many: LeaveMany,
    /// The steps of one owned type, by its slot ([`OwnedTypes::at_slot`]).
    pub(super) at_slot: fn(usize) -> Option<SlotSteps>,
}

/// A run-time world's storages, type-erased.
type ErasedStorages = [AnyStorage];
/// [`owning_step`]: one entity's step through the group.
type OwningStep = fn(&mut ErasedStorages, &mut GroupState, &Step, Option<usize>, &mut Moving);
/// [`OwnedTypes::enter_each_erased`].
type EnterEach = fn(&mut ErasedStorages, &[usize], &mut usize, &[Entity], Aligned, &[bool]);
/// [`OwnedTypes::leave_many_erased`].
type LeaveMany = fn(&mut ErasedStorages, &[usize], &mut usize, &[Entity], &Marks);

fn new_storages<K: GroupKey>() -> Vec<AnyStorage> {
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
            moves: OwnedMoves {
                step: owning_step::<K::Owned>,
                enter_each: K::Owned::enter_each_erased,
                leave_many: K::Owned::leave_many_erased,
                at_slot: K::Owned::at_slot::<SlotSteps>,
            },
        }
    }
}
