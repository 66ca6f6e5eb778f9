//! How a view picks what it walks: the smallest candidate among the storages of the types
//! it requires and the groups whose members include all of its matches.
//!
//! ```text
//! view (&mut P, &V) without F, in a world with <P, V> ⊃ <P, V, F>:
//!
//! P packed : [e4|e9|e2|e7|e5|e1|e3]
//!  <P,V,F> ____^                      members with F: [0, 2)
//!  <P,V>   ______________^            members of <P, V>: [0, 5)
//! walked   :       [e2|e7|e5]         [2, 5): P and V by position, F not tested
//! ```
//!
//! A group qualifies when everything it requires the view requires too, and everything
//! it excludes the view excludes too. An owning group drives by position: the view's
//! leaves of types it owns are read at the walked position (aligned), and the filters its
//! declaration implies are not tested. A `Without<X>` whose type a nested group adds to
//! the outer group's filter (and nothing else) narrows the walk to the outer group's
//! members outside the nested one. A storage that holds the same entities in the same order
//! as the driver's (their sets share an order name, see `storage/order.rs`: spawned
//! together, untouched since) is aligned too, and implies its `With` filter. When every
//! leaf is aligned and every filter implied, the view is *dense*: a loop over plain slices.

use core::any::TypeId;

use crate::access::query::Needs;
use crate::entity::Entity;
use crate::lend::GroupShape;
use crate::storage::DenseOrder;

/// Where the driver's entities come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source<'w> {
    /// The storage of query leaf `i`.
    Leaf(usize),
    /// The storage of filter `i`.
    Filter(usize),
    /// A non-owning group's members.
    Members(&'w [Entity]),
}

/// What kind of set drives a view: what its `Debug` output names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DrivenBy {
    /// The storage of a type the view requires.
    Storage,
    /// An owning group (its members in its first owned storage).
    Group,
    /// A non-owning group's member set.
    Members,
}

/// A view's driver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Choice<'w> {
    /// What it walks.
    pub source: Source<'w>,
    /// The kind of set `source` is.
    pub by: DrivenBy,
    /// The walked positions of the source's dense array.
    pub start: usize,
    /// One past the last walked position.
    pub end: usize,
    /// The leaves read by position (bit `i`: leaf `i`).
    pub aligned: u64,
    /// The filters the driver implies (bit `i`: filter `i`).
    pub implied: u64,
}

impl Choice<'_> {
    /// Smaller walks first; among equal ones, those testing and looking up less.
    fn better_than(&self, other: &Choice<'_>) -> bool {
        let len = |c: &Choice<'_>| c.end - c.start;
        let free = |c: &Choice<'_>| c.aligned.count_ones() + c.implied.count_ones();
        (len(self), core::cmp::Reverse(free(self))) < (len(other), core::cmp::Reverse(free(other)))
    }
}

/// A bit mask of the items of `list` whose type is in `types`.
fn mask_of(list: &[(TypeId, bool)], keep: impl Fn(TypeId, bool) -> bool) -> u64 {
    list.iter()
        .take(64)
        .enumerate()
        .filter(|&(_, &(id, flag))| keep(id, flag))
        .fold(0, |mask, (i, _)| mask | 1 << i)
}

/// Whether the sets `a` and `b` (lists without repeats) are equal.
fn same_set(a: &[TypeId], b: &[TypeId]) -> bool {
    a.len() == b.len() && a.iter().all(|t| b.contains(t))
}

/// The storages' lengths and order names of a view's leaves and filters, by index.
pub(crate) struct Storages<L, LO, FL, FO> {
    pub leaf_len: L,
    pub leaf_order: LO,
    pub filter_len: FL,
    pub filter_order: FO,
}

/// Picks the driver of a view whose leaves and filters are `needs`, among its required
/// leaves' storages, its `With` filters' storages and the world's `groups`, then aligns
/// the leaves and implies the `With` filters whose storages share the driving storage's
/// order. `None` if nothing is required (a view always requires something: its type says
/// so).
pub(crate) fn choose<'w>(
    needs: &Needs,
    groups: &[GroupShape<'_, 'w>],
    storages: Storages<
        impl Fn(usize) -> usize,
        impl Fn(usize) -> DenseOrder,
        impl Fn(usize) -> usize,
        impl Fn(usize) -> DenseOrder,
    >,
) -> Option<Choice<'w>> {
    let mut best = choose_by_length(needs, groups, &storages.leaf_len, &storages.filter_len)?;
    let order = match best.source {
        Source::Leaf(i) => (storages.leaf_order)(i),
        Source::Filter(i) => (storages.filter_order)(i),
        Source::Members(_) => DenseOrder::UNKNOWN,
    };
    let shares = |other: DenseOrder| other.same_as(order);
    best.aligned |= (0..needs.leaves.len().min(64))
        .filter(|&i| shares((storages.leaf_order)(i)))
        .fold(0, |mask, i| mask | 1 << i);
    best.implied |= (0..needs.filters.len().min(64))
        .filter(|&i| needs.filters[i].1 && shares((storages.filter_order)(i)))
        .fold(0, |mask, i| mask | 1 << i);
    Some(best)
}

/// [`choose`]'s pick among the candidates, by their lengths (`leaf_len(i)`,
/// `filter_len(i)`) and what their own declarations align and imply.
fn choose_by_length<'w>(
    needs: &Needs,
    groups: &[GroupShape<'_, 'w>],
    leaf_len: impl Fn(usize) -> usize,
    filter_len: impl Fn(usize) -> usize,
) -> Option<Choice<'w>> {
    let required = |id: TypeId| {
        needs.leaves.iter().any(|&(t, req)| req && t == id)
            || needs.filters.iter().any(|&(t, with)| with && t == id)
    };
    let excluded = |id: TypeId| needs.filters.iter().any(|&(t, with)| !with && t == id);
    let mut best: Option<Choice<'w>> = None;
    let mut consider = |choice: Choice<'w>| {
        if best.as_ref().is_none_or(|b| choice.better_than(b)) {
            best = Some(choice);
        }
    };
    // A storage the view requires: its own leaves are aligned with it.
    let storage = |id: TypeId, source: Source<'w>, len: usize| Choice {
        source,
        by: DrivenBy::Storage,
        start: 0,
        end: len,
        aligned: mask_of(&needs.leaves, |t, _| t == id),
        implied: mask_of(&needs.filters, |t, with| with && t == id),
    };
    for (i, &(id, req)) in needs.leaves.iter().enumerate() {
        if req {
            consider(storage(id, Source::Leaf(i), leaf_len(i)));
        }
    }
    for (i, &(id, with)) in needs.filters.iter().enumerate() {
        if with {
            consider(storage(id, Source::Filter(i), filter_len(i)));
        }
    }
    for group in groups {
        let requires = || group.owned.iter().chain(group.observed);
        if !requires().all(|&t| required(t)) || !group.excluded.iter().all(|&t| excluded(t)) {
            continue;
        }
        let implied_by = |narrowed: Option<TypeId>| {
            mask_of(&needs.filters, |t, with| {
                if with {
                    requires().any(|&r| r == t)
                } else {
                    group.excluded.contains(&t) || narrowed == Some(t)
                }
            })
        };
        match group.members {
            Some(members) => consider(Choice {
                source: Source::Members(members.as_slice()),
                by: DrivenBy::Members,
                start: 0,
                end: members.len(),
                aligned: 0,
                implied: implied_by(None),
            }),
            None => {
                let Some(&first) = group.owned.first() else {
                    continue;
                };
                // The owned storage to read the members from: a leaf's or a filter's.
                let source = match needs.leaves.iter().position(|&(t, req)| req && t == first) {
                    Some(i) => Source::Leaf(i),
                    None => match needs
                        .filters
                        .iter()
                        .position(|&(t, with)| with && t == first)
                    {
                        Some(i) => Source::Filter(i),
                        None => continue,
                    },
                };
                let (start, narrowed) = narrowing(group, groups, &excluded);
                consider(Choice {
                    source,
                    by: DrivenBy::Group,
                    start,
                    end: group.len,
                    aligned: mask_of(&needs.leaves, |t, _| group.owned.contains(&t)),
                    implied: implied_by(narrowed),
                });
            }
        }
    }
    best
}

/// For an owning `group`, a nested group that adds exactly one excluded type `x` of the
/// view to `group`'s filter: the view then walks `[nested.len, group.len)`, where `x` is
/// absent. `(0, None)` if there is none.
fn narrowing(
    group: &GroupShape<'_, '_>,
    groups: &[GroupShape<'_, '_>],
    excluded: &impl Fn(TypeId) -> bool,
) -> (usize, Option<TypeId>) {
    let requires: Vec<TypeId> = group.owned.iter().chain(group.observed).copied().collect();
    for nested in groups {
        if nested.members.is_some()
            || !group.owned.iter().all(|t| nested.owned.contains(t))
            || !same_set(nested.excluded, group.excluded)
        {
            continue;
        }
        let nested_requires: Vec<TypeId> = nested
            .owned
            .iter()
            .chain(nested.observed)
            .copied()
            .collect();
        let added: Vec<TypeId> = nested_requires
            .iter()
            .filter(|t| !requires.contains(t))
            .copied()
            .collect();
        if let [x] = added[..]
            && nested_requires.len() == requires.len() + 1
            && excluded(x)
            && nested.len <= group.len
        {
            return (nested.len, Some(x));
        }
    }
    (0, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct A;
    struct B;
    struct C;
    struct F;

    fn id<T: 'static>() -> TypeId {
        TypeId::of::<T>()
    }

    fn needs(leaves: &[(TypeId, bool)], filters: &[(TypeId, bool)]) -> Needs {
        Needs {
            leaves: leaves.to_vec(),
            filters: filters.to_vec(),
        }
    }

    #[test]
    fn the_smallest_storage_drives_without_groups() {
        let n = needs(&[(id::<A>(), true), (id::<B>(), true)], &[]);
        let c = choose_by_length(&n, &[], |i| [10, 3][i], |_| 0).unwrap();
        assert_eq!(
            (c.source, c.start, c.end, c.aligned),
            (Source::Leaf(1), 0, 3, 0b10)
        );
    }

    #[test]
    fn an_exact_group_makes_the_view_dense() {
        let n = needs(
            &[(id::<A>(), true), (id::<B>(), true)],
            &[(id::<F>(), false)],
        );
        let (owned, none) = ([id::<A>(), id::<B>()], []);
        let excluded = [id::<F>()];
        let groups = [GroupShape {
            owned: &owned,
            observed: &none,
            excluded: &excluded,
            len: 7,
            members: None,
        }];
        let c = choose_by_length(&n, &groups, |_| 20, |_| 20).unwrap();
        assert_eq!(
            (c.source, c.start, c.end, c.aligned, c.implied),
            (Source::Leaf(0), 0, 7, 0b11, 0b1)
        );
    }

    #[test]
    fn a_nested_group_narrows_the_walk_to_the_rest_of_its_outer_group() {
        let n = needs(
            &[(id::<A>(), true), (id::<B>(), true)],
            &[(id::<F>(), false)],
        );
        let (outer, inner, none) = (
            [id::<A>(), id::<B>()],
            [id::<A>(), id::<B>(), id::<F>()],
            [],
        );
        let groups = [
            GroupShape {
                owned: &outer,
                observed: &none,
                excluded: &none,
                len: 9,
                members: None,
            },
            GroupShape {
                owned: &inner,
                observed: &none,
                excluded: &none,
                len: 4,
                members: None,
            },
        ];
        let c = choose_by_length(&n, &groups, |_| 20, |_| 20).unwrap();
        assert_eq!((c.start, c.end, c.aligned, c.implied), (4, 9, 0b11, 0b1));
    }

    #[test]
    fn a_group_requiring_more_than_the_view_is_no_driver() {
        let n = needs(&[(id::<A>(), true)], &[]);
        let (owned, none) = ([id::<A>(), id::<B>()], []);
        let groups = [GroupShape {
            owned: &owned,
            observed: &none,
            excluded: &none,
            len: 1,
            members: None,
        }];
        let c = choose_by_length(&n, &groups, |_| 20, |_| 20).unwrap();
        assert_eq!((c.source, c.end), (Source::Leaf(0), 20));
    }

    #[test]
    fn a_group_excluding_what_the_view_allows_is_no_driver() {
        let n = needs(&[(id::<A>(), true), (id::<B>(), true)], &[]);
        let (owned, none, excluded) = ([id::<A>(), id::<B>()], [], [id::<F>()]);
        let groups = [GroupShape {
            owned: &owned,
            observed: &none,
            excluded: &excluded,
            len: 1,
            members: None,
        }];
        assert_eq!(
            choose_by_length(&n, &groups, |_| 20, |_| 20).unwrap().end,
            20
        );
    }

    #[test]
    fn storages_sharing_the_drivers_order_are_aligned_and_imply_their_filters() {
        let n = needs(
            &[(id::<A>(), true), (id::<B>(), false)],
            &[(id::<F>(), true), (id::<C>(), false)],
        );
        let mut names = crate::storage::OrderNames::new();
        let (shared, other) = (names.fresh(), names.fresh());
        let storages = |filter_order: [DenseOrder; 2]| Storages {
            leaf_len: |i| [10, 12][i],
            leaf_order: move |i| [shared, shared][i],
            filter_len: |i| [11, 3][i],
            filter_order: move |i| filter_order[i],
        };
        let c = choose(&n, &[], storages([shared, shared])).unwrap();
        // A drives (the smallest required storage but `C`'s, which `Without` does not
        // offer); `Option<&B>` is aligned, `With<F>` implied, `Without<C>` still tested.
        assert_eq!(
            (c.source, c.aligned, c.implied),
            (Source::Leaf(0), 0b11, 0b01)
        );
        let c = choose(&n, &[], storages([other, DenseOrder::UNKNOWN])).unwrap();
        assert_eq!((c.aligned, c.implied), (0b11, 0b00));
    }

    #[test]
    fn unknown_orders_align_nothing() {
        let n = needs(&[(id::<A>(), true), (id::<B>(), true)], &[]);
        let c = choose(
            &n,
            &[],
            Storages {
                leaf_len: |_| 5,
                leaf_order: |_| DenseOrder::UNKNOWN,
                filter_len: |_| 0,
                filter_order: |_| DenseOrder::UNKNOWN,
            },
        )
        .unwrap();
        assert_eq!(c.aligned, 0b01);
    }

    #[test]
    fn optional_leaves_never_drive() {
        let n = needs(&[(id::<A>(), false)], &[]);
        assert!(choose_by_length(&n, &[], |_| 5, |_| 5).is_none());
    }
}
