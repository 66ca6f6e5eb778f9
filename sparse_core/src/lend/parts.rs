//! A world split into parts: one slot per storage, from which the parts of a borrow
//! request take what they need, plus what every part may read (the entities, the groups'
//! lengths and member sets).
//!
//! For a `#[world]` the compiler has already proven that a request takes no storage
//! twice (see the `disjoint` rules), so taking never fails there; the run-time
//! [`World`](crate::World) relies on these slots to refuse an overlapping request with an
//! [`AccessError`].

use core::any::TypeId;

use super::disjoint::Numbered;
use super::error::AccessError;
use super::slot::{ResourceSlotRef, SlotRef};
use crate::entity::Entities;
use crate::resource::Resource;
use crate::storage::{ChangeCount, SparseSet};

/// A world whose parts can be borrowed at once: every `#[world]` and the run-time
/// [`World`](crate::World) (a supertrait of [`EditEntities`](crate::EditEntities), which
/// code generic over both kinds of world names). What a borrow request gives differs by
/// kind, and [`Lent`](WorldParts::Lent) names it: `borrow`, `HookWorld::borrow` and
/// `Schedule::run` return `W::Lent<R>`, the parts themselves on a `#[world]` (whose requests
/// the compiler proves apart) and a `Result<R, AccessError>` on the run-time `World` (which
/// checks them when they are made).
///
/// ```
/// use sparse_core::{AccessError, World, WorldParts};
/// let lent: <World as WorldParts>::Lent<u32> = Ok(3);
/// assert_eq!(lent, Ok::<u32, AccessError>(3));
/// ```
///
/// Implemented by `#[world]` and by `World`; its other items are how they lend their
/// storages, and are not meant to be implemented by hand.
pub trait WorldParts {
    /// What the world's `borrow` gives for a request `R`: `R` itself in a `#[world]`,
    /// whose requests are proven disjoint at compile time, and `Result<R, AccessError>`
    /// in the run-time [`World`](crate::World), which checks them when they are made.
    type Lent<R>;
    /// Whether the compiler proves every request the world serves (a `#[world]`), or the
    /// world checks them when they are made (the run-time [`World`](crate::World)).
    const PROVEN: bool;
    /// One slot per storage, the groups' lengths and member sets, the entities.
    #[doc(hidden)]
    type Parts<'w>
    where
        Self: 'w;
    /// The world split into parts, every storage available mutably.
    #[doc(hidden)]
    fn parts(&mut self) -> Self::Parts<'_>;
    /// The world split into parts, every storage available shared only.
    #[doc(hidden)]
    fn parts_ref(&self) -> Self::Parts<'_>;
    /// The same parts for a shorter borrow: what a request takes from them is theirs to
    /// lend again when the borrow ends (a schedule's chain runs its systems one after the
    /// other on one part).
    #[doc(hidden)]
    fn reborrow_parts<'a>(parts: &'a mut Self::Parts<'_>) -> Self::Parts<'a>
    where
        Self: 'a;
    /// Another part of the world split off `parts` for requests that write the types
    /// `writes` and read the types `reads` (component types, `Resource<R>` for a resource):
    /// those storages' values and resources mutably (`parts` lends them no more), those
    /// read shared; of every other storage only the entity set, no other resource.
    #[doc(hidden)]
    fn split_parts<'w>(
        parts: &mut Self::Parts<'w>,
        writes: &[TypeId],
        reads: &[TypeId],
    ) -> Self::Parts<'w>
    where
        Self: 'w;
    /// Stamps what the storages `parts` may still lend mutably hand out with count `at`
    /// (`0`: each storage's own count again): a system of a schedule's chain stamps with
    /// its stage's count.
    #[doc(hidden)]
    fn stamp_parts_at(parts: &Self::Parts<'_>, at: u32);
    /// A request's taken parts as the world's `borrow` gives them ([`Lent`](Self::Lent)).
    #[doc(hidden)]
    fn lent<R>(taken: Result<R, AccessError>) -> Self::Lent<R>;
    /// The world's entities.
    #[doc(hidden)]
    fn entities_of<'w>(parts: &Self::Parts<'w>) -> &'w Entities;
    /// Calls `f` with the shape of every group, for views to find one that drives them.
    #[doc(hidden)]
    fn with_groups<'w, R>(parts: &Self::Parts<'w>, f: impl FnOnce(&[GroupShape<'_, 'w>]) -> R)
    -> R;
    /// Moves the change count of every tracked storage on within the tick (a schedule's
    /// stage, see `storage/ticks.rs`); the new count. Nothing else changes.
    #[doc(hidden)]
    fn step_changes(&mut self) -> ChangeCount;
    /// Moves the change count of every tracked storage forward to `now` if it is behind,
    /// within the tick: how a test reaches the count's restart without 2³² steps. Never
    /// back, so every stamp stays at most the count.
    #[doc(hidden)]
    fn jump_change_count(&mut self, _now: u32) {}
    /// How many storages the world holds: the run-time world makes storages on demand, a
    /// `#[world]` never does (its count is of no use, and `0`).
    #[doc(hidden)]
    fn storage_count(&self) -> usize {
        0
    }
    /// Drops the storages made since the world held `count` (all empty, made on demand
    /// for a request that was then refused), so that a refused request changes nothing.
    ///
    /// # Panics
    /// On the run-time `World`, if one of them holds a component, is tracked or is named
    /// by a group.
    #[doc(hidden)]
    fn forget_storages_from(&mut self, _count: usize) {}
}

/// A world whose parts may go to another thread, so that a schedule can run a chain of its
/// systems on each: every `#[world]` and the run-time [`World`](crate::World) (their
/// component and resource types are `Send + Sync`). Implemented for every world whose
/// parts are `Send`, and for no other (sealed).
#[diagnostic::on_unimplemented(
    message = "the parts of the world `{Self}` cannot go to another thread",
    label = "a schedule runs its systems' chains on threads",
    note = "a world's parts are `Send` when its component and resource types are `Send + Sync`"
)]
pub trait SendParts: sending::Sendable {}

impl<W: sending::Sendable> SendParts for W {}

/// How [`SendParts`] sends a world's parts: sealed, so that its one impl, for the worlds
/// whose parts are `Send`, is the only one.
mod sending {
    use super::WorldParts;

    /// A world whose parts are `Send`.
    pub trait Sendable: WorldParts + 'static {
        /// The parts, to go to another thread.
        fn sendable(parts: Self::Parts<'_>) -> SendableParts<'_, Self>;
    }

    impl<W: WorldParts + 'static> Sendable for W
    where
        for<'w> W::Parts<'w>: Send,
    {
        fn sendable(parts: Self::Parts<'_>) -> SendableParts<'_, Self> {
            SendableParts(parts)
        }
    }

    /// A world's parts that may go to another thread.
    pub struct SendableParts<'w, W: WorldParts + ?Sized + 'w>(pub(crate) W::Parts<'w>);

    // SAFETY: made only by `Sendable::sendable` (the field is private to the crate), whose
    // one impl (the trait is unreachable outside the crate) is for worlds whose parts are
    // `Send`.
    unsafe impl<'w, W: Sendable + ?Sized> Send for SendableParts<'w, W> {}
}

/// A world that stores `T` and can lend its storage to a borrow request.
#[diagnostic::on_unimplemented(
    message = "the world `{Self}` does not store `{T}`",
    label = "no storage of `{T}` in this world",
    note = "add a field of type `Storage<{T}>` to the world (spelled the same way everywhere)"
)]
#[doc(hidden)]
pub trait LendStorage<T>: WorldParts + Numbered<T> {
    /// Makes sure the storage exists (the run-time world creates it on demand).
    #[doc(hidden)]
    fn prepare(_world: &mut Self) {}
    /// The storage's slot among the parts.
    #[doc(hidden)]
    fn slot<'p, 'w>(parts: &'p mut Self::Parts<'w>) -> Result<SlotRef<'p, 'w, T>, AccessError>;
}

/// A world that can lend its resource of type `R` to a borrow request or a system: every
/// `#[world]` with a `Resource<R>` field, and the run-time [`World`](crate::World) for every
/// `R` (which refuses a request when it holds none). The bound of code generic over both
/// kinds of world that names a resource, such as a system queuing
/// [`Commands::send`](crate::Commands::send).
#[diagnostic::on_unimplemented(
    message = "the world `{Self}` holds no resource `{R}`",
    label = "no resource `{R}` in this world",
    note = "add a field of type `Resource<{R}>` to the world"
)]
pub trait LendResource<R>: WorldParts + Numbered<Resource<R>> {
    /// The resource's slot among the parts.
    ///
    /// # Errors
    /// [`AccessError::NoResource`] if the (run-time) world holds none.
    #[doc(hidden)]
    fn resource_slot<'p, 'w>(
        parts: &'p mut Self::Parts<'w>,
    ) -> Result<ResourceSlotRef<'p, 'w, R>, AccessError>;
}

/// A world that keeps change detection on its storage of `T`, so that `Added<T>` and
/// `Changed<T>` can filter views of it: implemented by `#[world]` for the types it
/// declares with `#[track(...)]`, and by the run-time [`World`](crate::World) for every
/// type (which checks when the view is made). Not meant to be implemented by hand: an
/// impl for an untracked storage only turns this compile error into an
/// [`AccessError::NotTracked`](crate::AccessError) when the view is made.
#[diagnostic::on_unimplemented(
    message = "`{T}` is not tracked in the world `{Self}`",
    label = "no change detection on the storage of `{T}`",
    note = "declare `#[track({T})]` on the world, so that `Added<{T}>` and `Changed<{T}>` can filter its views"
)]
#[doc(hidden)]
pub trait TrackChanges<T>: LendStorage<T> {}

/// What a view needs to know of a group to be driven by it.
#[doc(hidden)]
pub struct GroupShape<'a, 'w> {
    /// The owned types, in key order.
    pub owned: &'a [TypeId],
    /// The observed types.
    pub observed: &'a [TypeId],
    /// The excluded types.
    pub excluded: &'a [TypeId],
    /// The number of members.
    pub len: usize,
    /// The members of a non-owning group (`None` for an owning group, whose members are
    /// the prefix of its owned storages): a set, so a view walking it meets each entity
    /// once.
    pub members: Option<&'w SparseSet>,
}
