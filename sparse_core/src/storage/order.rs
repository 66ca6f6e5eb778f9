//! Names of dense orders: two sets share a name only while they hold the same entities in
//! the same order, so that a view can read one by the other's positions without a lookup.
//!
//! ```text
//! spawn_batch((P, V) × 3)   P.dense : [e0|e1|e2]     order P#7  (shared: one batch filed
//!                           V.dense : [e0|e1|e2]     order P#7   the same entities in both)
//! destroy(e1)               P.dense : [e0|e2]        order P#8  (the same removal in both)
//!                           V.dense : [e0|e2]        order P#8
//! insert(e3, P)             P.dense : [e0|e2|e3]     unknown    (a change to P alone)
//!                           V.dense : [e0|e2]        order P#8
//! ```
//!
//! Each set has an author id no other set has (from a process-wide counter, taken once
//! when the set is made) and counts the names it gives out, so that `(its id, its count)`
//! names no order twice. Every change to a set's dense array forgets its name (one store).
//! Only a change made to several sets at once, the same for each and a function of the
//! dense array alone (a spawn appending the same entities to its bundle's storages; a
//! destruction removing one entity, or compacting the marked ones, from every storage),
//! gives the sets that held one name before (or were empty) one new name
//! ([`SameChange`]). A name is an optimisation's evidence, never a safety argument: a view
//! reading by a shared name still checks the lengths, so a wrong name could yield another
//! entity's value, never an out-of-bounds or aliased one.

use core::sync::atomic::{AtomicU64, Ordering};

/// The name of the order a set's dense array holds (see the module's docs). Public only
/// as what the sealed query and filter traits' hidden methods return.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DenseOrder {
    author: u64,
    count: u64,
}

impl DenseOrder {
    /// The order of every empty set.
    pub(crate) const EMPTY: DenseOrder = DenseOrder {
        author: u64::MAX,
        count: 0,
    };

    /// An order not known (a prefix of a set, a storage of another kind): the same as none.
    pub(crate) const UNKNOWN: DenseOrder = DenseOrder {
        author: 0,
        count: 0,
    };

    /// Makes this [`UNKNOWN`](Self::UNKNOWN)'s equal for [`same_as`](Self::same_as): one
    /// store, on every change to a set's dense array.
    #[inline(always)]
    pub(crate) fn forget(&mut self) {
        self.author = 0;
    }

    /// Whether `self` and `other` name one order: the sets holding them hold the same
    /// entities in the same order.
    #[inline]
    pub(crate) fn same_as(self, other: DenseOrder) -> bool {
        self.author != 0 && self == other
    }
}

impl Default for DenseOrder {
    fn default() -> Self {
        DenseOrder::UNKNOWN
    }
}

/// The names one set gives out: its author id and how many it has given.
#[derive(Debug)]
pub(crate) struct OrderNames {
    author: u64,
    given: u64,
}

/// The next author id; zero is [`DenseOrder::UNKNOWN`]'s and `u64::MAX`
/// [`DenseOrder::EMPTY`]'s, which 2⁶⁴ − 2 sets would take to reach.
static NEXT_AUTHOR: AtomicU64 = AtomicU64::new(1);

impl OrderNames {
    /// Names no other set gives.
    pub(crate) fn new() -> Self {
        OrderNames {
            author: NEXT_AUTHOR.fetch_add(1, Ordering::Relaxed),
            given: 0,
        }
    }

    /// A name no set held before.
    #[inline(always)]
    pub(crate) fn fresh(&mut self) -> DenseOrder {
        self.given += 1;
        DenseOrder {
            author: self.author,
            count: self.given,
        }
    }
}

impl Default for OrderNames {
    fn default() -> Self {
        OrderNames::new()
    }
}

/// What can be named anew after a change: a storage, typed or erased.
pub(crate) trait Renamed {
    /// See `SparseSet::new_order`.
    fn new_order(&mut self) -> DenseOrder;
    /// See `SparseSet::take_order`.
    fn take_order(&mut self, name: DenseOrder);
}

/// The names one change hands to the storages it is made to, when it is the same change
/// for each and a function of the dense array alone (a spawn appending the same entities
/// to each storage of its bundle; a destruction removing one entity, or a compaction the
/// marked ones, from every storage): storages that held one order before hold one after,
/// under a new name the first of them makes. Two orders before are followed: the first
/// met (a spawn's first type) and the first other one (a bundle whose new type comes first,
/// `(Tag, Pos, Vel)` with `Tag`'s storage empty and the others spawned together before);
/// storages of a third keep names of their own.
#[doc(hidden)]
pub struct SameChange {
    /// An order held before (`UNKNOWN` until one is met), and the name it was given.
    first: (DenseOrder, DenseOrder),
    /// The same for the first other order met.
    second: (DenseOrder, DenseOrder),
}

impl Default for SameChange {
    fn default() -> Self {
        SameChange::new()
    }
}

impl SameChange {
    /// Before the change is made to any storage.
    #[inline(always)]
    pub fn new() -> Self {
        SameChange {
            first: (DenseOrder::UNKNOWN, DenseOrder::UNKNOWN),
            second: (DenseOrder::UNKNOWN, DenseOrder::UNKNOWN),
        }
    }

    /// Names the order `storage` holds now that the change was made to it, `before` the
    /// order it held until then.
    #[inline(always)]
    pub(crate) fn renamed(&mut self, before: DenseOrder, storage: &mut (impl Renamed + ?Sized)) {
        if before.author == 0 {
            // Held in no order another storage shares: nothing to keep.
        } else if before.same_as(self.first.0) {
            storage.take_order(self.first.1);
        } else if before.same_as(self.second.0) {
            storage.take_order(self.second.1);
        } else if self.first.0.author == 0 {
            self.first = (before, storage.new_order());
        } else if self.second.0.author == 0 {
            self.second = (before, storage.new_order());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fresh_names_are_never_repeated_across_sets() {
        let (mut a, mut b) = (OrderNames::new(), OrderNames::new());
        let names = [a.fresh(), a.fresh(), b.fresh(), b.fresh()];
        for (i, x) in names.iter().enumerate() {
            for (j, y) in names.iter().enumerate() {
                assert_eq!(x.same_as(*y), i == j);
            }
        }
    }

    #[test]
    fn unknown_is_the_same_as_nothing_and_empty_as_itself() {
        assert!(!DenseOrder::UNKNOWN.same_as(DenseOrder::UNKNOWN));
        assert!(DenseOrder::EMPTY.same_as(DenseOrder::EMPTY));
    }
}
