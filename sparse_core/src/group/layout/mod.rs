//! Validation of a world's group declarations, and the order of every group step derived from
//! them.
//!
//! This is the one implementation of the nesting rule: worlds built at run time run it
//! over `TypeId`s, and the `#[world]` macro runs it at compile time over type paths.
//!
//! Safe code only (Miri skips these tests: it finds undefined behaviour in `unsafe` code).
#![forbid(unsafe_code)]

use core::hash::Hash;
use std::collections::HashSet;

use crate::MAX_TUPLE;

mod error;
#[cfg(test)]
mod tests;

pub(crate) use error::DisplayGroup;
pub use error::{Conflict, LayoutError};

/// One group as declared: the types it owns (packed in its storages' prefixes), the
/// types it observes (`get`: required, not reordered) and the types it excludes. Its
/// members are the entities having every owned and observed type and no excluded one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GroupDecl<K> {
    /// Owned types, in declaration order.
    pub owned: Vec<K>,
    /// Observed types (`get(...)`), in declaration order.
    pub observed: Vec<K>,
    /// Excluded types (`exclude(...)`), in declaration order.
    pub excluded: Vec<K>,
}

impl<K> GroupDecl<K> {
    /// A group owning `owned`, observing and excluding nothing.
    pub fn owning(owned: Vec<K>) -> Self {
        GroupDecl {
            owned,
            observed: Vec::new(),
            excluded: Vec::new(),
        }
    }

    /// Adds observed types.
    #[must_use]
    pub fn get(mut self, observed: Vec<K>) -> Self {
        self.observed = observed;
        self
    }

    /// Adds excluded types.
    #[must_use]
    pub fn exclude(mut self, excluded: Vec<K>) -> Self {
        self.excluded = excluded;
        self
    }

    /// Whether the group owns nothing: its members are kept in a set of their own.
    pub fn is_non_owning(&self) -> bool {
        self.owned.is_empty()
    }
}

/// Which list of a declaration a type is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Owned.
    Owned,
    /// Observed (`get`).
    Observed,
    /// Excluded (`exclude`).
    Excluded,
}

/// Where a type is written in a declaration: its list and its index there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    /// The list.
    pub role: Role,
    /// The index in the list.
    pub index: usize,
}

/// A validated set of groups, and the order of every group step derived from it.
///
/// Invariant: any two groups whose owned types intersect are nested: `H` is nested in `G`
/// when `H` owns every type `G` owns, requires every type `G` requires (owned or observed),
/// and excludes every type `G` excludes. `H`'s members are then a subset of `G`'s, and
/// `H`'s packed prefix sits inside `G`'s in every storage `G` owns. The groups owning one
/// storage form a chain; a family may be a tree:
///
/// ```text
///        <A,B>    <C,D>          A, B: owned by <A,B> ⊃ <A,B,C,D>
///           \      /             C, D: owned by <C,D> ⊃ <A,B,C,D>
///          <A,B,C,D>
///
/// A packed : [e4|e8|e7|e3|e6]
///  <A,B,C,D> __^                 <A,B,C,D> is the prefix [0, 1) of <A,B> …
///  <A,B>   __________^           … which is the prefix [0, 3) of A's storage
/// ```
///
/// ```
/// use sparse_core::{GroupDecl, Layout};
/// // Declared innermost first: any order is accepted.
/// let layout = Layout::new(vec![
///     GroupDecl::owning(vec!["A", "B", "C"]),
///     GroupDecl::owning(vec!["A", "B"]),
///     GroupDecl::owning(vec!["V"]).get(vec!["P"]).exclude(vec!["F"]),
/// ])
/// .unwrap();
/// assert_eq!(layout.enter_order(&"A"), vec![1, 0]); // <A,B> then <A,B,C>
/// assert_eq!(layout.leave_order(&"A"), vec![0, 1]); // <A,B,C> then <A,B>
/// assert_eq!(layout.enter_order(&"P"), vec![2]); // observed: tested on add too
///
/// let errors = Layout::new(vec![GroupDecl::owning(vec!["A", "B"]), GroupDecl::owning(vec!["A", "C"])])
///     .unwrap_err();
/// assert_eq!(errors[0].group(), 1);
/// assert!(errors[0].to_string().contains("<A, C> shares `A` with group <A, B>"));
/// ```
#[derive(Clone, Debug)]
pub struct Layout<K> {
    groups: Vec<GroupDecl<K>>,
    /// Every group, each after the groups it is nested in.
    order: Vec<usize>,
}

/// What a change does to one group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Test-and-enter.
    Enter,
    /// Test-and-leave.
    Leave,
}

/// One step of a change: a move of one group, with the slot of the changed type among the
/// group's owned types when it owns it (so its position need not be looked up).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The group.
    pub group: usize,
    /// Enter or leave.
    pub action: Action,
    /// The changed type's index among the group's owned types, if it owns it.
    pub slot: Option<usize>,
}

/// A declaration as sets, for the rule.
struct Sets<'a, K> {
    owned: HashSet<&'a K>,
    required: HashSet<&'a K>,
    excluded: HashSet<&'a K>,
}

impl<'a, K: Eq + Hash> Sets<'a, K> {
    fn of(decl: &'a GroupDecl<K>) -> Self {
        Sets {
            owned: decl.owned.iter().collect(),
            required: decl.owned.iter().chain(&decl.observed).collect(),
            excluded: decl.excluded.iter().collect(),
        }
    }

    /// Whether `self` is nested in `outer` (or equal to it).
    fn within(&self, outer: &Sets<'_, K>) -> bool {
        outer.owned.is_subset(&self.owned)
            && outer.required.is_subset(&self.required)
            && outer.excluded.is_subset(&self.excluded)
    }

    fn same(&self, other: &Sets<'_, K>) -> bool {
        self.within(other) && other.within(self)
    }

    /// Whether the two share an owned type without being nested.
    fn conflicts(&self, other: &Sets<'_, K>) -> bool {
        !self.owned.is_disjoint(&other.owned) && !self.within(other) && !other.within(self)
    }
}

impl<K: Clone + Eq + Hash> Layout<K> {
    /// Validates `groups` in any declaration order. Returns every error found; a group
    /// with its own error (no type, repeated types, a type required and excluded, a list
    /// too long, a repeated declaration) is left out of the checks between groups so that
    /// one mistake does not cascade into others.
    ///
    /// # Errors
    /// Every [`LayoutError`] of the declarations, sorted by the group they blame.
    pub fn new(groups: Vec<GroupDecl<K>>) -> Result<Self, Vec<LayoutError<K>>> {
        let mut errors = Vec::new();
        let mut sound = vec![true; groups.len()];
        for (group, decl) in groups.iter().enumerate() {
            let own = Self::own_errors(group, decl);
            sound[group] = own.is_empty();
            errors.extend(own);
        }
        let sets: Vec<Sets<'_, K>> = groups.iter().map(Sets::of).collect();
        for group in 0..groups.len() {
            if !sound[group] {
                continue;
            }
            if let Some(first) = (0..group).find(|&i| sound[i] && sets[i].same(&sets[group])) {
                errors.push(LayoutError::DuplicateGroup {
                    group,
                    decl: groups[group].clone(),
                    first,
                    first_decl: groups[first].clone(),
                });
                sound[group] = false;
            }
        }
        errors.extend(Self::overlaps(&groups, &sets, &mut sound));
        if !errors.is_empty() {
            errors.sort_by_key(LayoutError::group);
            return Err(errors);
        }
        // A nested group requires and excludes at least what its outer group does, and owns
        // at least as much: ordering by those sizes puts every group after the groups it is
        // nested in.
        let mut order: Vec<usize> = (0..groups.len()).collect();
        order.sort_by_key(|&g| {
            let s = &sets[g];
            (s.required.len() + s.excluded.len(), s.owned.len())
        });
        Ok(Layout { groups, order })
    }

    /// The errors of one declaration on its own.
    fn own_errors(group: usize, decl: &GroupDecl<K>) -> Vec<LayoutError<K>> {
        let mut errors = Vec::new();
        let error = |decl: &GroupDecl<K>| decl.clone();
        let lists = [
            (Role::Owned, &decl.owned),
            (Role::Observed, &decl.observed),
            (Role::Excluded, &decl.excluded),
        ];
        if lists.iter().all(|(_, list)| list.is_empty()) {
            return vec![LayoutError::Empty { group }];
        }
        if decl.owned.len() == 1 && decl.observed.is_empty() && decl.excluded.is_empty() {
            errors.push(LayoutError::NothingFiltered {
                group,
                decl: error(decl),
            });
        }
        if decl.owned.is_empty() && decl.observed.is_empty() {
            errors.push(LayoutError::NothingObserved {
                group,
                decl: error(decl),
            });
        }
        for (role, list) in lists {
            if list.len() > MAX_TUPLE {
                errors.push(LayoutError::TooManyTypes {
                    group,
                    decl: error(decl),
                    role,
                });
            }
        }
        // Every type with its place, in declaration order of the lists.
        let places: Vec<(&K, Place)> = lists
            .iter()
            .flat_map(|&(role, list)| {
                list.iter()
                    .enumerate()
                    .map(move |(index, ty)| (ty, Place { role, index }))
            })
            .collect();
        for (i, &(ty, second)) in places.iter().enumerate() {
            let Some(&(_, first)) = places[..i].iter().find(|(t, _)| *t == ty) else {
                continue;
            };
            // Report a type once, however often it repeats.
            if places[..i].iter().filter(|(t, _)| *t == ty).count() > 1 {
                continue;
            }
            let required_and_excluded =
                first.role != Role::Excluded && second.role == Role::Excluded;
            errors.push(if required_and_excluded {
                LayoutError::RequiredAndExcluded {
                    group,
                    decl: error(decl),
                    ty: ty.clone(),
                    required: first,
                    excluded: second,
                }
            } else {
                LayoutError::DuplicateType {
                    group,
                    decl: error(decl),
                    ty: ty.clone(),
                    first,
                    second,
                }
            });
        }
        errors
    }

    /// The overlap errors: the conflict graph between sound groups is covered greedily,
    /// blaming the group with the most remaining conflicts first (the later declaration on
    /// ties), so that each conflicting pair is reported once, on the group most likely to
    /// be the mistake. Blamed groups become unsound.
    fn overlaps(
        groups: &[GroupDecl<K>],
        sets: &[Sets<'_, K>],
        sound: &mut [bool],
    ) -> Vec<LayoutError<K>> {
        let n = groups.len();
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
        for a in (0..n).filter(|&a| sound[a]) {
            for b in (0..a).filter(|&b| sound[b]) {
                if sets[a].conflicts(&sets[b]) {
                    edges[a].push(b);
                    edges[b].push(a);
                }
            }
        }
        let mut blamed = Vec::new();
        while let Some(group) = (0..n)
            .filter(|&g| !edges[g].is_empty())
            .max_by_key(|&g| (edges[g].len(), g))
        {
            let mut others = core::mem::take(&mut edges[group]);
            others.sort_unstable();
            for &other in &others {
                edges[other].retain(|&g| g != group);
            }
            sound[group] = false;
            blamed.push((group, others));
        }
        blamed
            .into_iter()
            .map(|(group, others)| {
                let conflicts: Vec<Conflict<K>> = others
                    .iter()
                    .map(|&other| Conflict {
                        group: other,
                        decl: groups[other].clone(),
                        shared: groups[group]
                            .owned
                            .iter()
                            .filter(|t| sets[other].owned.contains(t))
                            .cloned()
                            .collect(),
                    })
                    .collect();
                LayoutError::Overlap {
                    group,
                    decl: groups[group].clone(),
                    suggestions: Self::fixes(groups, sets, sound, group, &others),
                    others: conflicts,
                }
            })
            .collect()
    }

    /// Declarations the rule accepts in place of `group` among the sound groups: the group
    /// observing the owned types it shares instead of owning them, then a superset nested
    /// in every group it overlaps.
    fn fixes(
        groups: &[GroupDecl<K>],
        sets: &[Sets<'_, K>],
        sound: &[bool],
        group: usize,
        others: &[usize],
    ) -> Vec<GroupDecl<K>> {
        let decl = &groups[group];
        let shared = |ty: &K| others.iter().any(|&o| sets[o].owned.contains(ty));
        let observing = GroupDecl {
            owned: decl.owned.iter().filter(|t| !shared(t)).cloned().collect(),
            observed: decl
                .observed
                .iter()
                .chain(decl.owned.iter().filter(|t| shared(t)))
                .cloned()
                .collect(),
            excluded: decl.excluded.clone(),
        };
        let mut superset = decl.clone();
        for &other in others {
            let o = &groups[other];
            superset.owned.extend(o.owned.iter().cloned());
            superset.observed.extend(o.observed.iter().cloned());
            superset.excluded.extend(o.excluded.iter().cloned());
        }
        dedup(&mut superset.owned, &[]);
        let owned = superset.owned.clone();
        dedup(&mut superset.observed, &owned);
        dedup(&mut superset.excluded, &[]);
        [observing, superset]
            .into_iter()
            .filter(|candidate| {
                Self::own_errors(group, candidate).is_empty() && {
                    let s = Sets::of(candidate);
                    (0..groups.len())
                        .filter(|&i| i != group && sound[i])
                        .all(|i| !s.same(&sets[i]) && !s.conflicts(&sets[i]))
                }
            })
            .collect()
    }

    /// The groups as declared.
    pub fn groups(&self) -> &[GroupDecl<K>] {
        &self.groups
    }

    /// Whether group `inner` is nested in group `outer` and shares its storages: both own
    /// types, `inner` owns every type `outer` owns, requires every type it requires and
    /// excludes every type it excludes.
    pub fn is_nested_in(&self, inner: usize, outer: usize) -> bool {
        let (i, o) = (&self.groups[inner], &self.groups[outer]);
        inner != outer && !o.owned.is_empty() && Sets::of(i).within(&Sets::of(o))
    }

    /// The closest group `group` is nested in that owns two types or more, with the
    /// slots (positions among `group`'s owned types) of the types it owns after its
    /// first: within the outer group's range its owned storages hold the same entities,
    /// so entities entering `group` in a run there need be compared in one of them only.
    pub fn aligned_with_outer(&self, group: usize) -> Option<(usize, Vec<usize>)> {
        let outer = (0..self.groups.len())
            .filter(|&outer| self.is_nested_in(group, outer))
            .max_by_key(|&outer| self.groups[outer].owned.len())?;
        let shared = &self.groups[outer].owned;
        let slots: Vec<usize> = (self.groups[group].owned.iter().enumerate())
            .filter(|(_, key)| shared.contains(key))
            .map(|(slot, _)| slot)
            .skip(1)
            .collect();
        (!slots.is_empty()).then_some((outer, slots))
    }

    /// The groups nested in `group` (sharing its storages), from the next one in to the
    /// innermost: a chain, since they all own `group`'s types.
    pub fn inner_groups(&self, group: usize) -> Vec<usize> {
        self.order
            .iter()
            .copied()
            .filter(|&g| self.is_nested_in(g, group))
            .collect()
    }

    /// The pairs `(outer, inner)` of nested groups: what the invariant check compares the
    /// lengths of.
    pub fn nesting(&self) -> Vec<(usize, usize)> {
        self.order
            .iter()
            .flat_map(|&outer| {
                self.inner_groups(outer)
                    .into_iter()
                    .map(move |inner| (outer, inner))
            })
            .collect()
    }

    /// What sorting `group` permutes: each type owned by the group and by the groups nested
    /// in it, once, with the group whose range it is permuted over. The group's own types
    /// take its whole range; a type that only an inner group owns takes that inner group's
    /// range, which a layer-by-layer permutation maps onto itself.
    pub fn sort_targets(&self, group: usize) -> Vec<(K, usize)> {
        let mut targets: Vec<(K, usize)> = Vec::new();
        for g in core::iter::once(group).chain(self.inner_groups(group)) {
            for key in &self.groups[g].owned {
                if !targets.iter().any(|(k, _)| k == key) {
                    targets.push((key.clone(), g));
                }
            }
        }
        targets
    }

    /// The position of `key` among the types `group` owns, if it owns it.
    pub fn slot(&self, group: usize, key: &K) -> Option<usize> {
        self.groups[group].owned.iter().position(|k| k == key)
    }

    fn requires(&self, group: usize, key: &K) -> bool {
        let decl = &self.groups[group];
        decl.owned.contains(key) || decl.observed.contains(key)
    }

    fn excludes(&self, group: usize, key: &K) -> bool {
        self.groups[group].excluded.contains(key)
    }

    /// The groups requiring `key` (owning or observing it), every group after the groups
    /// it is nested in: the order in which adding a `key` component tests-and-enters them.
    pub fn enter_order(&self, key: &K) -> Vec<usize> {
        self.order
            .iter()
            .copied()
            .filter(|&g| self.requires(g, key))
            .collect()
    }

    /// The groups requiring `key`, innermost first: the order in which removing a `key`
    /// component tests-and-leaves them.
    pub fn leave_order(&self, key: &K) -> Vec<usize> {
        let mut order = self.enter_order(key);
        order.reverse();
        order
    }

    fn step(&self, group: usize, action: Action, key: &K) -> Step {
        Step {
            group,
            action,
            slot: self.slot(group, key),
        }
    }

    /// What adding a `key` component does: leave (innermost first) the groups excluding
    /// `key`, then test-and-enter the groups requiring it, outer groups first.
    pub fn on_add(&self, key: &K) -> Vec<Step> {
        let leave = self
            .order
            .iter()
            .rev()
            .filter(|&&g| self.excludes(g, key))
            .map(|&g| self.step(g, Action::Leave, key));
        let enter = self
            .enter_order(key)
            .into_iter()
            .map(|g| self.step(g, Action::Enter, key));
        leave.chain(enter).collect()
    }

    /// What removing a `key` component does before it goes: leave the groups requiring
    /// it, innermost first.
    pub fn before_remove(&self, key: &K) -> Vec<Step> {
        self.leave_order(key)
            .into_iter()
            .map(|g| self.step(g, Action::Leave, key))
            .collect()
    }

    /// What removing a `key` component does once it is gone: test-and-enter the groups
    /// excluding it, outer groups first.
    pub fn after_remove(&self, key: &K) -> Vec<Step> {
        self.order
            .iter()
            .filter(|&&g| self.excludes(g, key))
            .map(|&g| self.step(g, Action::Enter, key))
            .collect()
    }

    /// Every group, outer groups first: the order in which a new entity with several
    /// components at once (a bundle) tests-and-enters them.
    pub fn spawn_order(&self) -> Vec<usize> {
        self.order.clone()
    }

    /// Every group, innermost first: the order in which destroying an entity leaves them.
    pub fn destroy_order(&self) -> Vec<usize> {
        self.order.iter().rev().copied().collect()
    }
}

/// Removes repeated items, and items of `except`, keeping the first of each.
fn dedup<K: PartialEq + Clone>(list: &mut Vec<K>, except: &[K]) {
    let mut kept: Vec<K> = Vec::new();
    for item in list.drain(..) {
        if !kept.contains(&item) && !except.contains(&item) {
            kept.push(item);
        }
    }
    *list = kept;
}
