//! How a world lends its storages to a borrow request: one slot per storage
//! ([`WorldParts`], [`Slot`]), the type-level proof that a request names each storage
//! once (the `disjoint` rules), and the error a refused request returns
//! ([`AccessError`]).
//!
//! This sits below [`access`](crate::access) (which builds borrows, views and queries on
//! it) and below the groups' type sets, which take their storages from these slots.

mod disjoint;
mod error;
mod parts;
mod slot;

pub use disjoint::{
    AllApart, Apart, Bits, BundleApart, Cons, Dynamic, End, I, List, Nil, NoAlias, NonEmpty, NotIn,
    NotInBundle, Numbered, O,
};
pub use error::AccessError;
pub use parts::{GroupShape, LendResource, LendStorage, SendParts, TrackChanges, WorldParts};
pub(crate) use slot::ErasedResourceSlot;
pub use slot::{ErasedSlot, ResourceSlot, ResourceSlotRef, Slot, SlotRef};
