//! Validation of a world's group declarations and the hook order derived from them.
//!
//! This is the one implementation of the nesting rule: worlds built at run time run it
//! over `TypeId`s, and the `#[world]` macro runs it at compile time over type paths.

use core::fmt;
use core::hash::Hash;
use std::collections::HashSet;

use crate::MAX_TUPLE;

/// A validated set of groups, and the order of every hook derived from it.
///
/// Invariant: groups that share a component are nested (one's type set contains the
/// other's), and every *family* (groups connected by shared components) is a chain
/// `G1 ⊂ G2 ⊂ …` from the outermost (fewest types, most entities) to the innermost:
///
/// ```text
/// A packed : [e4|e8|e7|e3|e6]
///  <A,B,C> ____^                  <A,B,C> is the prefix [0, 1) of <A,B> …
///  <A,B>   __________^            … which is the prefix [0, 3) of A's storage
/// ```
///
/// ```
/// use sparse_core::Layout;
/// // Declared innermost first: any order is accepted.
/// let layout = Layout::new(vec![vec!["A", "B", "C"], vec!["A", "B"], vec!["E", "F"]]).unwrap();
/// assert_eq!(layout.enter_order(&"A"), vec![1, 0]); // <A,B> then <A,B,C>
/// assert_eq!(layout.leave_order(&"A"), vec![0, 1]); // <A,B,C> then <A,B>
/// assert_eq!(layout.enter_order(&"C"), vec![0]);
/// assert!(layout.enter_order(&"D").is_empty());
///
/// let errors = Layout::new(vec![vec!["A", "B"], vec!["A", "C"]]).unwrap_err();
/// assert_eq!(errors[0].group(), 1);
/// assert!(errors[0].to_string().contains("<A, C> shares `A` with group <A, B>"));
/// ```
#[derive(Clone, Debug)]
pub struct Layout<K> {
    groups: Vec<Vec<K>>,
    /// Every group, outer groups before the groups nested inside them.
    order: Vec<usize>,
}

/// A group declaration the nesting rule rejects. `group` is the index of the declaration
/// to blame; every variant carries the type lists it names so that it can be displayed
/// on its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError<K> {
    /// A group with fewer than two types.
    TooFewTypes {
        /// The offending group.
        group: usize,
        /// Its types.
        types: Vec<K>,
    },
    /// A group with more types than the largest tuple a group can be named by.
    TooManyTypes {
        /// The offending group.
        group: usize,
        /// Its types.
        types: Vec<K>,
    },
    /// A type listed twice in one group.
    DuplicateType {
        /// The offending group.
        group: usize,
        /// Its types.
        types: Vec<K>,
        /// The repeated type.
        ty: K,
        /// Position of its first occurrence in the group.
        first: usize,
        /// Position of its second occurrence.
        second: usize,
    },
    /// The same type set declared twice (in any order).
    DuplicateGroup {
        /// The later declaration.
        group: usize,
        /// Its types.
        types: Vec<K>,
        /// The earlier declaration.
        first: usize,
        /// The earlier declaration's types.
        first_types: Vec<K>,
    },
    /// A group shares types with others without being nested with them. Each conflicting
    /// pair is reported once, on the group that conflicts with the most others.
    Overlap {
        /// The group to blame.
        group: usize,
        /// Its types.
        types: Vec<K>,
        /// The groups it conflicts with, with a type each shares with it.
        others: Vec<Conflict<K>>,
        /// A superset that would be accepted in place of `group`, if there is one.
        suggestion: Option<Vec<K>>,
    },
    /// Two disjoint groups nested in a common outer group: a family must be a chain.
    NotAChain {
        /// The later of the two disjoint groups.
        group: usize,
        /// Its types.
        types: Vec<K>,
        /// The earlier of the two.
        other: usize,
        /// The earlier one's types.
        other_types: Vec<K>,
        /// A group containing both.
        outer: usize,
        /// That group's types.
        outer_types: Vec<K>,
    },
}

/// One group another group conflicts with (see [`LayoutError::Overlap`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict<K> {
    /// The other group's index.
    pub group: usize,
    /// Its types.
    pub types: Vec<K>,
    /// A type both own.
    pub shared: K,
}

impl<K> LayoutError<K> {
    /// The index of the declaration this error blames.
    pub fn group(&self) -> usize {
        match *self {
            LayoutError::TooFewTypes { group, .. }
            | LayoutError::TooManyTypes { group, .. }
            | LayoutError::DuplicateType { group, .. }
            | LayoutError::DuplicateGroup { group, .. }
            | LayoutError::Overlap { group, .. }
            | LayoutError::NotAChain { group, .. } => group,
        }
    }
}

/// Writes a type list as `<A, B, C>`.
pub(crate) struct DisplayGroup<'a, K>(pub &'a [K]);

impl<K: fmt::Display> fmt::Display for DisplayGroup<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<")?;
        for (i, ty) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{ty}")?;
        }
        f.write_str(">")
    }
}

impl<K: fmt::Display + PartialEq + Clone> fmt::Display for LayoutError<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = DisplayGroup;
        match self {
            LayoutError::TooFewTypes { types, .. } if types.is_empty() => write!(
                f,
                "group <> is empty: a group owns at least two component types"
            ),
            LayoutError::TooFewTypes { types, .. } => write!(
                f,
                "group {} owns a single component type: a storage is already packed on its own, \
                 so a group needs at least two types; list the types to iterate together, or remove the group",
                g(types)
            ),
            LayoutError::TooManyTypes { types, .. } => write!(
                f,
                "group {} owns {} component types, more than the {MAX_TUPLE} a group can be named by; \
                 split it into nested groups of at most {MAX_TUPLE} types",
                g(types),
                types.len()
            ),
            LayoutError::DuplicateType { types, ty, .. } => write!(
                f,
                "`{ty}` appears twice in group {}: list each component type once",
                g(types)
            ),
            LayoutError::DuplicateGroup {
                types, first_types, ..
            } => write!(
                f,
                "group {} declares the same components as group {} (the order of types does not matter): \
                 remove one of the two",
                g(types),
                g(first_types)
            ),
            LayoutError::Overlap {
                types,
                others,
                suggestion,
                ..
            } => {
                if let [other] = &others[..] {
                    write!(
                        f,
                        "group {} shares `{}` with group {}, but neither contains the other",
                        g(types),
                        other.shared,
                        g(&other.types)
                    )?;
                } else {
                    write!(
                        f,
                        "group {} shares components with {} groups without being nested with any of them:",
                        g(types),
                        others.len()
                    )?;
                    for (i, other) in others.iter().enumerate() {
                        let sep = if i == 0 { " " } else { ", " };
                        write!(f, "{sep}{} (`{}`)", g(&other.types), other.shared)?;
                    }
                }
                f.write_str(": groups that own a common component must be nested; ")?;
                match suggestion {
                    Some(superset) if others.len() == 1 => write!(
                        f,
                        "make one a superset of the other (e.g. {}) or stop sharing `{}`",
                        g(superset),
                        others[0].shared
                    ),
                    Some(superset) => write!(
                        f,
                        "make it a superset of the groups it overlaps (e.g. {}) or stop sharing their components",
                        g(superset)
                    ),
                    None if others.len() == 1 => write!(
                        f,
                        "stop sharing `{}`, or remove one of the two groups",
                        others[0].shared
                    ),
                    None => f.write_str("stop sharing their components, or remove this group"),
                }
            }
            LayoutError::NotAChain {
                types,
                other_types,
                outer_types,
                ..
            } => write!(
                f,
                "groups {} and {} are both nested in {} but not in each other: the nested groups of a \
                 family must form a single chain; remove one of them or nest one inside the other",
                g(types),
                g(other_types),
                g(outer_types)
            ),
        }
    }
}

impl<K: fmt::Display + fmt::Debug + PartialEq + Clone> std::error::Error for LayoutError<K> {}

/// Type sets of the groups that passed the checks on their own.
struct Sets<'a, K> {
    sets: Vec<HashSet<&'a K>>,
    sound: Vec<bool>,
}

impl<K: Eq + Hash> Sets<'_, K> {
    /// Whether two type sets share a type without one containing the other.
    fn overlap(a: &HashSet<&K>, b: &HashSet<&K>) -> bool {
        !a.is_disjoint(b) && !a.is_subset(b) && !b.is_subset(a)
    }

    /// Whether `set` could stand among the sound groups other than `except` without
    /// breaking the nesting rule: no overlap, and no chain broken by two disjoint groups
    /// inside a common one.
    fn fits(&self, set: &HashSet<&K>, except: usize) -> bool {
        let others: Vec<&HashSet<&K>> = (0..self.sets.len())
            .filter(|&i| i != except && self.sound[i])
            .map(|i| &self.sets[i])
            .collect();
        if others
            .iter()
            .any(|other| *other == set || Self::overlap(set, other))
        {
            return false;
        }
        // The chain rule, for pairs involving `set`: as an outer group of two disjoint
        // groups, or as one of two disjoint groups under an outer one.
        let inside: Vec<&&HashSet<&K>> = others.iter().filter(|o| o.is_subset(set)).collect();
        let disjoint_inside = inside
            .iter()
            .enumerate()
            .any(|(i, a)| inside[..i].iter().any(|b| a.is_disjoint(b)));
        let outer_of_disjoint = others.iter().any(|outer| {
            set.is_subset(outer)
                && others
                    .iter()
                    .any(|o| o.is_subset(outer) && o.is_disjoint(set))
        });
        !disjoint_inside && !outer_of_disjoint
    }
}

impl<K: Clone + Eq + Hash> Layout<K> {
    /// Validates `groups` (each a list of component keys) in any declaration order.
    /// Returns every error found; a group with its own error (too few, too many or
    /// repeated types, or a repeated declaration) is left out of the checks between groups
    /// so that one mistake does not cascade into others.
    ///
    /// # Errors
    /// Every [`LayoutError`] of the declarations, sorted by the group they blame.
    pub fn new(groups: Vec<Vec<K>>) -> Result<Self, Vec<LayoutError<K>>> {
        let mut errors = Vec::new();
        let mut sound = vec![true; groups.len()];
        for (group, types) in groups.iter().enumerate() {
            if types.len() < 2 {
                errors.push(LayoutError::TooFewTypes {
                    group,
                    types: types.clone(),
                });
                sound[group] = false;
            } else if types.len() > MAX_TUPLE {
                errors.push(LayoutError::TooManyTypes {
                    group,
                    types: types.clone(),
                });
                sound[group] = false;
            }
            for second in 0..types.len() {
                let Some(first) = types[..second].iter().position(|t| *t == types[second]) else {
                    continue;
                };
                // Report a type once, however often it repeats.
                if types[first + 1..second].contains(&types[second]) {
                    continue;
                }
                errors.push(LayoutError::DuplicateType {
                    group,
                    types: types.clone(),
                    ty: types[second].clone(),
                    first,
                    second,
                });
                sound[group] = false;
            }
        }
        let sets: Vec<HashSet<&K>> = groups.iter().map(|types| types.iter().collect()).collect();
        for group in 0..groups.len() {
            if !sound[group] {
                continue;
            }
            if let Some(first) = (0..group).find(|&i| sound[i] && sets[i] == sets[group]) {
                errors.push(LayoutError::DuplicateGroup {
                    group,
                    types: groups[group].clone(),
                    first,
                    first_types: groups[first].clone(),
                });
                sound[group] = false;
            }
        }
        let mut sets = Sets { sets, sound };
        errors.extend(Self::overlaps(&groups, &mut sets));
        errors.extend(Self::broken_chains(&groups, &sets));
        if !errors.is_empty() {
            errors.sort_by_key(LayoutError::group);
            return Err(errors);
        }
        // Nested groups own strictly more types: ordering by size puts every group after
        // the groups it is nested in.
        let mut order: Vec<usize> = (0..groups.len()).collect();
        order.sort_by_key(|&g| groups[g].len());
        Ok(Layout { groups, order })
    }

    /// The overlap errors: the conflict graph between sound groups is covered greedily,
    /// blaming the group with the most remaining conflicts first (the later declaration on
    /// ties), so that each conflicting pair is reported once, on the group most likely to
    /// be the mistake. Blamed groups become unsound.
    fn overlaps(groups: &[Vec<K>], sets: &mut Sets<'_, K>) -> Vec<LayoutError<K>> {
        let n = groups.len();
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
        for a in (0..n).filter(|&a| sets.sound[a]) {
            for b in (0..a).filter(|&b| sets.sound[b]) {
                if Sets::overlap(&sets.sets[a], &sets.sets[b]) {
                    edges[a].push(b);
                    edges[b].push(a);
                }
            }
        }
        let mut errors = Vec::new();
        while let Some(group) = (0..n)
            .filter(|&g| !edges[g].is_empty())
            .max_by_key(|&g| (edges[g].len(), g))
        {
            let mut others = core::mem::take(&mut edges[group]);
            others.sort_unstable();
            for &other in &others {
                edges[other].retain(|&g| g != group);
            }
            sets.sound[group] = false;
            let conflicts: Vec<Conflict<K>> = others
                .iter()
                .map(|&other| Conflict {
                    group: other,
                    types: groups[other].clone(),
                    shared: groups[group]
                        .iter()
                        .find(|t| sets.sets[other].contains(t))
                        .expect("overlapping groups share a type")
                        .clone(),
                })
                .collect();
            let suggestion = Self::superset_fix(groups, sets, group, &others);
            errors.push(LayoutError::Overlap {
                group,
                types: groups[group].clone(),
                others: conflicts,
                suggestion,
            });
        }
        errors
    }

    /// A superset of `group` and of the groups it overlaps that the rule would accept in
    /// its place, if there is one: the union of the group with the others, smallest first.
    fn superset_fix(
        groups: &[Vec<K>],
        sets: &Sets<'_, K>,
        group: usize,
        others: &[usize],
    ) -> Option<Vec<K>> {
        let mut union: Vec<K> = Vec::new();
        let mut by_size = others.to_vec();
        by_size.sort_by_key(|&o| groups[o].len());
        for &other in &by_size {
            for ty in &groups[other] {
                if !union.contains(ty) {
                    union.push(ty.clone());
                }
            }
        }
        for ty in &groups[group] {
            if !union.contains(ty) {
                union.push(ty.clone());
            }
        }
        let set: HashSet<&K> = union.iter().collect();
        (union.len() <= MAX_TUPLE && sets.fits(&set, group)).then_some(union)
    }

    /// The chain errors: two disjoint sound groups nested in a common sound group.
    fn broken_chains(groups: &[Vec<K>], sets: &Sets<'_, K>) -> Vec<LayoutError<K>> {
        let sound = |i: usize| sets.sound[i];
        let mut errors = Vec::new();
        for group in (0..groups.len()).filter(|&i| sound(i)) {
            for other in
                (0..group).filter(|&i| sound(i) && sets.sets[i].is_disjoint(&sets.sets[group]))
            {
                let outer = (0..groups.len()).find(|&k| {
                    sound(k)
                        && sets.sets[k].is_superset(&sets.sets[group])
                        && sets.sets[k].is_superset(&sets.sets[other])
                });
                if let Some(outer) = outer {
                    errors.push(LayoutError::NotAChain {
                        group,
                        types: groups[group].clone(),
                        other,
                        other_types: groups[other].clone(),
                        outer,
                        outer_types: groups[outer].clone(),
                    });
                }
            }
        }
        errors
    }

    /// The groups as declared.
    pub fn groups(&self) -> &[Vec<K>] {
        &self.groups
    }

    /// Whether group `inner` is nested in group `outer` (owns every type of it, and more).
    pub fn is_nested_in(&self, inner: usize, outer: usize) -> bool {
        inner != outer
            && self.groups[outer]
                .iter()
                .all(|t| self.groups[inner].contains(t))
    }

    /// The groups strictly inside `group`, from the next one in to the innermost.
    pub fn inner_groups(&self, group: usize) -> Vec<usize> {
        self.order
            .iter()
            .copied()
            .filter(|&g| self.is_nested_in(g, group))
            .collect()
    }

    /// The pairs `(outer, inner)` of groups directly nested in each other: what the
    /// invariant check compares the lengths of.
    pub fn nesting(&self) -> Vec<(usize, usize)> {
        let mut pairs = Vec::new();
        for &outer in &self.order {
            if let Some(&inner) = self.inner_groups(outer).first() {
                pairs.push((outer, inner));
            }
        }
        pairs
    }

    /// What sorting `group` permutes: each type of the group and of the groups inside it,
    /// once, with the group whose range it is permuted over. The group's own types take
    /// its whole range; a type that only an inner group owns takes that inner group's
    /// range, which a layer-by-layer permutation maps onto itself.
    pub fn sort_targets(&self, group: usize) -> Vec<(K, usize)> {
        let mut targets: Vec<(K, usize)> = Vec::new();
        for g in core::iter::once(group).chain(self.inner_groups(group)) {
            for key in &self.groups[g] {
                if !targets.iter().any(|(k, _)| k == key) {
                    targets.push((key.clone(), g));
                }
            }
        }
        targets
    }

    /// The position of `key` among the types of `group`, if the group owns it: which of
    /// the group's storages holds the component a hook just moved.
    pub fn slot(&self, group: usize, key: &K) -> Option<usize> {
        self.groups[group].iter().position(|k| k == key)
    }

    /// The groups owning `key`, every group after the groups it is nested in: the order in
    /// which adding a `key` component tests-and-enters them.
    pub fn enter_order(&self, key: &K) -> Vec<usize> {
        self.order
            .iter()
            .copied()
            .filter(|&g| self.groups[g].contains(key))
            .collect()
    }

    /// The groups owning `key`, innermost first: the order in which removing a `key`
    /// component tests-and-leaves them.
    pub fn leave_order(&self, key: &K) -> Vec<usize> {
        let mut order = self.enter_order(key);
        order.reverse();
        order
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

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(
        groups: &[&[&'static str]],
    ) -> Result<Layout<&'static str>, Vec<LayoutError<&'static str>>> {
        Layout::new(groups.iter().map(|g| g.to_vec()).collect())
    }

    fn permutations<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
        if items.len() <= 1 {
            return vec![items.to_vec()];
        }
        let mut out = Vec::new();
        for i in 0..items.len() {
            let mut rest = items.to_vec();
            let head = rest.remove(i);
            for mut tail in permutations(&rest) {
                tail.insert(0, head.clone());
                out.push(tail);
            }
        }
        out
    }

    #[test]
    fn accepts_chains_and_families_in_any_order() {
        let groups: &[&[&str]] = &[
            &["A", "B"],
            &["A", "B", "C"],
            &["A", "B", "C", "D"],
            &["E", "F"],
            &["F", "E", "G"],
        ];
        for order in permutations(groups) {
            let l = layout(&order).unwrap_or_else(|e| panic!("{order:?}: {e:?}"));
            let names =
                |ids: Vec<usize>| ids.into_iter().map(|g| order[g].len()).collect::<Vec<_>>();
            assert_eq!(names(l.enter_order(&"A")), vec![2, 3, 4]);
            assert_eq!(names(l.leave_order(&"B")), vec![4, 3, 2]);
            assert_eq!(names(l.enter_order(&"C")), vec![3, 4]);
            assert_eq!(names(l.enter_order(&"E")), vec![2, 3]);
            // Destroying leaves every group before the groups it is nested in.
            let destroy = l.destroy_order();
            assert_eq!(destroy.len(), 5);
            for (i, &g) in destroy.iter().enumerate() {
                for &later in &destroy[i + 1..] {
                    assert!(!l.is_nested_in(later, g), "{order:?}: {destroy:?}");
                }
            }
            let abc = order
                .iter()
                .position(|g| g.len() == 3 && g.contains(&"A"))
                .unwrap();
            assert_eq!(names(l.inner_groups(abc)), vec![4]);
            let ab = order.iter().position(|g| g == &["A", "B"]).unwrap();
            assert_eq!(names(l.inner_groups(ab)), vec![3, 4]);
            assert_eq!(l.nesting().len(), 3);
        }
    }

    #[test]
    fn accepts_single_groups_and_no_groups() {
        assert!(layout(&[]).unwrap().destroy_order().is_empty());
        assert!(
            layout(&[&["A", "B"], &["C", "D"]])
                .unwrap()
                .nesting()
                .is_empty()
        );
    }

    #[test]
    fn rejects_overlaps_that_are_not_nested() {
        for groups in [
            &[&["A", "B"][..], &["A", "C"]][..],
            &[&["A", "B"], &["A", "C", "D"]],
            &[&["A", "B"], &["A", "B", "C"], &["A", "B", "D"]],
            &[&["A", "B", "C"], &["A", "B", "D"], &["A", "B"]],
        ] {
            for order in permutations(groups) {
                let errors = layout(&order).unwrap_err();
                assert_eq!(errors.len(), 1, "{order:?}: {errors:?}");
                let LayoutError::Overlap {
                    group, ref others, ..
                } = errors[0]
                else {
                    panic!("{errors:?}")
                };
                assert_eq!(others.len(), 1);
                assert!(others[0].group < group, "ties blame the later declaration");
            }
        }
    }

    #[test]
    fn overlap_message_names_both_groups_and_a_fix() {
        let errors = layout(&[&["A", "B"], &["A", "C"]]).unwrap_err();
        assert_eq!(
            errors[0].to_string(),
            "group <A, C> shares `A` with group <A, B>, but neither contains the other: groups that own a \
             common component must be nested; make one a superset of the other (e.g. <A, B, C>) or stop sharing `A`"
        );
    }

    #[test]
    fn one_bad_group_among_many_is_blamed_once_and_no_rejected_fix_is_suggested() {
        // A seven-deep chain, a second family, and one group crossing the chain.
        let c = ["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8"];
        let mut groups: Vec<Vec<&str>> = (2..=8).map(|n| c[..n].to_vec()).collect();
        groups.push(vec!["X", "Y"]);
        groups.insert(3, vec!["C3", "C8"]);
        let errors = Layout::new(groups.clone()).unwrap_err();
        assert_eq!(errors.len(), 1, "{errors:?}");
        let LayoutError::Overlap {
            group,
            ref others,
            ref suggestion,
            ..
        } = errors[0]
        else {
            panic!("{errors:?}")
        };
        assert_eq!(group, 3, "the crossing group is blamed");
        assert_eq!(others.len(), 5, "each conflicting pair once: {others:?}");
        // The only superset of <C3, C8> containing every overlapped group is <C1, …, C8>,
        // which is declared already: no suggestion.
        assert_eq!(suggestion, &None);
        let message = errors[0].to_string();
        assert!(
            message.contains("shares components with 5 groups"),
            "{message}"
        );
        assert!(!message.contains("e.g."), "{message}");
    }

    #[test]
    fn suggested_supersets_are_accepted() {
        for groups in [
            vec![vec!["A", "B"], vec!["A", "C"]],
            vec![vec!["A", "B"], vec!["A", "B", "C"], vec!["A", "D"]],
        ] {
            let errors = Layout::new(groups.clone()).unwrap_err();
            let LayoutError::Overlap {
                group,
                suggestion: Some(ref fix),
                ..
            } = errors[0]
            else {
                panic!("{errors:?}")
            };
            let mut fixed = groups.clone();
            fixed[group] = fix.clone();
            assert!(Layout::new(fixed.clone()).is_ok(), "{fixed:?}");
        }
    }

    #[test]
    fn rejects_repeated_types_and_groups() {
        let errors = layout(&[&["A", "B", "A", "A"]]).unwrap_err();
        assert!(
            matches!(
                errors[..],
                [LayoutError::DuplicateType {
                    ty: "A",
                    first: 0,
                    second: 2,
                    ..
                }]
            ),
            "{errors:?}"
        );
        let errors = layout(&[&["A", "B"], &["B", "A"]]).unwrap_err();
        assert!(
            matches!(
                errors[..],
                [LayoutError::DuplicateGroup {
                    group: 1,
                    first: 0,
                    ..
                }]
            ),
            "{errors:?}"
        );
        assert!(
            errors[0]
                .to_string()
                .contains("<B, A> declares the same components as group <A, B>")
        );
    }

    #[test]
    fn rejects_groups_of_fewer_than_two_or_more_than_sixteen_types() {
        let errors = layout(&[&["A"], &[]]).unwrap_err();
        assert!(matches!(
            errors[..],
            [
                LayoutError::TooFewTypes { group: 0, .. },
                LayoutError::TooFewTypes { group: 1, .. }
            ]
        ));
        let names: Vec<String> = (0..=MAX_TUPLE).map(|i| format!("T{i}")).collect();
        let errors = Layout::new(vec![names[..MAX_TUPLE].to_vec(), names.clone()]).unwrap_err();
        assert!(
            matches!(errors[..], [LayoutError::TooManyTypes { group: 1, .. }]),
            "{errors:?}"
        );
        assert!(errors[0].to_string().contains("more than the 16"));
    }

    #[test]
    fn rejects_two_disjoint_groups_under_one() {
        for order in permutations(&[&["A", "B"][..], &["C", "D"], &["A", "B", "C", "D"]]) {
            let errors = layout(&order).unwrap_err();
            assert!(
                matches!(errors[..], [LayoutError::NotAChain { .. }]),
                "{order:?}: {errors:?}"
            );
        }
    }

    #[test]
    fn reports_every_error_without_cascading() {
        let errors = layout(&[
            &["A", "B"],
            &["A", "C"],
            &["X"],
            &["Y", "Y", "Z"],
            &["B", "A"],
            &["E", "F"],
        ])
        .unwrap_err();
        let blamed: Vec<usize> = errors.iter().map(LayoutError::group).collect();
        assert_eq!(blamed, vec![1, 2, 3, 4], "{errors:?}");
    }
}
