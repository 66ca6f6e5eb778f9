//! Validation of a world's group declarations, and the order of every hook derived from
//! them.
//!
//! This is the one implementation of the nesting rule: worlds built at run time run it
//! over `TypeId`s, and the `#[world]` macro runs it at compile time over type paths.

use core::fmt;
use core::hash::Hash;
use std::collections::HashSet;

use crate::MAX_TUPLE;

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

/// A validated set of groups, and the order of every hook derived from it.
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

/// What a hook does to one group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Test-and-enter.
    Enter,
    /// Test-and-leave.
    Leave,
}

/// One step of a hook: a move of one group, with the slot of the changed type among the
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

/// A group declaration the nesting rule rejects. `group` is the index of the declaration
/// to blame; every variant carries the declarations it names so that it can be displayed
/// on its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError<K> {
    /// A group that names no type at all.
    Empty {
        /// The offending group.
        group: usize,
    },
    /// A group owning one type and filtering nothing: the storage is already packed.
    NothingFiltered {
        /// The offending group.
        group: usize,
        /// Its declaration.
        decl: GroupDecl<K>,
    },
    /// A group owning nothing and observing nothing (it only excludes).
    NothingObserved {
        /// The offending group.
        group: usize,
        /// Its declaration.
        decl: GroupDecl<K>,
    },
    /// A list with more types than the largest tuple a group can be named by.
    TooManyTypes {
        /// The offending group.
        group: usize,
        /// Its declaration.
        decl: GroupDecl<K>,
        /// The list that is too long.
        role: Role,
    },
    /// A type listed twice in a group (in one list or in two).
    DuplicateType {
        /// The offending group.
        group: usize,
        /// Its declaration.
        decl: GroupDecl<K>,
        /// The repeated type.
        ty: K,
        /// Its first occurrence.
        first: Place,
        /// Its second occurrence.
        second: Place,
    },
    /// A type both required (owned or observed) and excluded.
    RequiredAndExcluded {
        /// The offending group.
        group: usize,
        /// Its declaration.
        decl: GroupDecl<K>,
        /// The type.
        ty: K,
        /// Where it is required.
        required: Place,
        /// Where it is excluded.
        excluded: Place,
    },
    /// The same group declared twice (the order of types does not matter).
    DuplicateGroup {
        /// The later declaration.
        group: usize,
        /// Its declaration.
        decl: GroupDecl<K>,
        /// The earlier declaration.
        first: usize,
        /// The earlier declaration's types.
        first_decl: GroupDecl<K>,
    },
    /// A group shares owned types with others without being nested with them. Each
    /// conflicting pair is reported once, on the group that conflicts with the most others.
    Overlap {
        /// The group to blame.
        group: usize,
        /// Its declaration.
        decl: GroupDecl<K>,
        /// The groups it conflicts with, with an owned type each shares with it.
        others: Vec<Conflict<K>>,
        /// Declarations that the rule would accept in place of `group`, if any: the group
        /// observing the shared types instead of owning them, and a superset nested in
        /// every group it conflicts with.
        suggestions: Vec<GroupDecl<K>>,
    },
}

/// One group another group conflicts with (see [`LayoutError::Overlap`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict<K> {
    /// The other group's index.
    pub group: usize,
    /// Its declaration.
    pub decl: GroupDecl<K>,
    /// Every type both own, in the blamed group's order.
    pub shared: Vec<K>,
}

impl<K> LayoutError<K> {
    /// The index of the declaration this error blames.
    pub fn group(&self) -> usize {
        match *self {
            LayoutError::Empty { group }
            | LayoutError::NothingFiltered { group, .. }
            | LayoutError::NothingObserved { group, .. }
            | LayoutError::TooManyTypes { group, .. }
            | LayoutError::DuplicateType { group, .. }
            | LayoutError::RequiredAndExcluded { group, .. }
            | LayoutError::DuplicateGroup { group, .. }
            | LayoutError::Overlap { group, .. } => group,
        }
    }
}

/// Writes a type list as `A, B, C`.
struct List<'a, K>(&'a [K]);

impl<K: fmt::Display> fmt::Display for List<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, ty) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{ty}")?;
        }
        Ok(())
    }
}

/// Writes a declaration as `<A, B, get(C), exclude(D)>`.
pub(crate) struct DisplayGroup<'a, K>(pub &'a GroupDecl<K>);

impl<K: fmt::Display> fmt::Display for DisplayGroup<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let decl = self.0;
        let mut parts = Vec::new();
        if !decl.owned.is_empty() {
            parts.push(List(&decl.owned).to_string());
        }
        if !decl.observed.is_empty() {
            parts.push(format!("get({})", List(&decl.observed)));
        }
        if !decl.excluded.is_empty() {
            parts.push(format!("exclude({})", List(&decl.excluded)));
        }
        write!(f, "<{}>", parts.join(", "))
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Owned => "owned",
            Role::Observed => "observed (`get`)",
            Role::Excluded => "excluded",
        })
    }
}

impl<K: fmt::Display + PartialEq + Clone> fmt::Display for LayoutError<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = DisplayGroup;
        match self {
            LayoutError::Empty { .. } => f.write_str(
                "group <> is empty: a group owns component types (and may observe or exclude others)",
            ),
            LayoutError::NothingFiltered { decl, .. } => write!(
                f,
                "group {} owns a single component type and filters nothing: a storage is already packed \
                 on its own, so a group needs a second type to own or observe, or a type to exclude; \
                 list the types to iterate together, or remove the group",
                g(decl)
            ),
            LayoutError::NothingObserved { decl, .. } => write!(
                f,
                "group {} owns and observes nothing: a group without owned types needs at least one \
                 observed type, e.g. `get(Position)`, whose entities it filters",
                g(decl)
            ),
            LayoutError::TooManyTypes { decl, role, .. } => write!(
                f,
                "group {} has more than {MAX_TUPLE} {role} types, more than a tuple can name; {}",
                g(decl),
                if *role == Role::Owned {
                    "own at most sixteen and observe the others with `get(...)`"
                } else {
                    "test the others with a view's `With<...>` / `Without<...>` filters"
                }
            ),
            LayoutError::DuplicateType {
                decl,
                ty,
                first,
                second,
                ..
            } => {
                if first.role == second.role {
                    write!(
                        f,
                        "`{ty}` appears twice in group {}: list each component type once",
                        g(decl)
                    )
                } else {
                    write!(
                        f,
                        "`{ty}` is both {} and {} in group {}: list each component type once",
                        first.role,
                        second.role,
                        g(decl)
                    )
                }
            }
            LayoutError::RequiredAndExcluded { decl, ty, .. } => write!(
                f,
                "`{ty}` is both required and excluded in group {}: no entity could ever be a member; \
                 remove it from one of the lists",
                g(decl)
            ),
            LayoutError::DuplicateGroup {
                decl, first_decl, ..
            } => write!(
                f,
                "group {} declares the same group as {} (the order of types does not matter): \
                 remove one of the two",
                g(decl),
                g(first_decl)
            ),
            LayoutError::Overlap {
                decl,
                others,
                suggestions,
                ..
            } => {
                if let [other] = &others[..] {
                    write!(
                        f,
                        "group {} shares {} with group {}, but neither contains the other",
                        g(decl),
                        listed(&other.shared),
                        g(&other.decl)
                    )?;
                } else {
                    write!(
                        f,
                        "group {} shares owned components with {} groups without being nested with any of them:",
                        g(decl),
                        others.len()
                    )?;
                    for (i, other) in others.iter().enumerate() {
                        let sep = if i == 0 { " " } else { ", " };
                        write!(f, "{sep}{} ({})", g(&other.decl), listed(&other.shared))?;
                    }
                }
                f.write_str(": groups that own a common component must be nested")?;
                let shared = if let [one] = &others[..] {
                    listed(&one.shared)
                } else {
                    "their components".to_string()
                };
                if suggestions.is_empty() {
                    write!(f, "; stop sharing {shared}, or remove this group")
                } else {
                    let fixes: Vec<String> = suggestions
                        .iter()
                        .map(|s| format!("{}", g(s)))
                        .collect();
                    write!(
                        f,
                        "; declare it as {} instead, or stop sharing {shared}",
                        fixes.join(" or as ")
                    )
                }
            }
        }
    }
}

impl<K: fmt::Display + fmt::Debug + PartialEq + Clone> std::error::Error for LayoutError<K> {}

/// "`A`", "`A` and `B`", "`A`, `B` and `C`".
fn listed<K: fmt::Display>(types: &[K]) -> String {
    let quoted: Vec<String> = types.iter().map(|t| format!("`{t}`")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
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

#[cfg(test)]
mod tests;

/// The order to append the storages of a snapshot in, so that groups are entered without
/// moving anything: a group's observed and excluded storages before its owned ones. Then an
/// entity having an excluded type never enters, and the members enter while the last owned
/// storage is appended, in its packed order, which is the group's order: each is already at
/// the group's end. Storages are numbered `0..storages`; each group is given by the
/// numbers of its storages. Where groups ask for a cycle (`<A, get(B)>` and
/// `<B, get(A)>`), the rest follow in number order: the groups are still right, only some
/// non-members may move.
pub fn load_order(storages: usize, groups: &[GroupDecl<usize>]) -> Vec<usize> {
    // `before[s]`: how many storages must come before `s`.
    let mut before = vec![0usize; storages];
    let mut after: Vec<Vec<usize>> = vec![Vec::new(); storages];
    for group in groups {
        for &first in group.observed.iter().chain(&group.excluded) {
            for &then in &group.owned {
                if first != then && !after[first].contains(&then) {
                    after[first].push(then);
                    before[then] += 1;
                }
            }
        }
    }
    let mut order = Vec::with_capacity(storages);
    let mut placed = vec![false; storages];
    while order.len() < storages {
        // The first storage nothing unplaced waits for, or else (a cycle) the first unplaced.
        let next = (0..storages)
            .find(|&s| !placed[s] && before[s] == 0)
            .or_else(|| (0..storages).find(|&s| !placed[s]))
            .expect("an unplaced storage remains");
        placed[next] = true;
        order.push(next);
        for &then in &after[next] {
            before[then] = before[then].saturating_sub(1);
        }
    }
    order
}
