//! Names of dense orders: two sets share a name only while they hold the same entities in
//! the same order, so that a view can read one by the other's positions without a lookup.
//!
//! ```text
//! spawn_batch((P, V) × 3)   P.dense : [e0|e1|e2]  order P#7   (shared: one batch filed
//!                           V.dense : [e0|e1|e2]  order P#7    the same entities in both)
//! insert(e3, P)             P.dense : [e0|e1|e2|e3] order P#8 (its own new name)
//!                           V.dense : [e0|e1|e2]  order P#7
//! ```
//!
//! Each set has an author id no other set has (from a process-wide counter, taken once
//! when the set is made) and counts the names it gives out: every change to a set's dense
//! array gives it a new name of its own, `(its id, its next count)`, which no set held
//! before. Only a change made to several sets at once, from one shared name (or from empty
//! sets), with the same entities in the same order in each, gives them one new name
//! (`SparseSet::new_order`, `SparseSet::take_order`). A name is an optimisation's
//! evidence, never a safety argument: a view reading by a shared name still checks the
//! lengths, so a wrong name could yield another entity's value, never an out-of-bounds or
//! aliased one.

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
