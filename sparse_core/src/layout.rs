//! Validation of a world's group declarations and the hook order derived from them.
//!
//! This is the one implementation of the nesting rule: worlds built at run time run it
//! over `TypeId`s, and the `#[world]` macro runs it at compile time over type paths.

use core::fmt;
use core::hash::Hash;
use std::collections::HashSet;

/// A validated set of groups.
///
/// Invariant: groups that share a component are nested (one's type set contains the
/// other's), and every *family* (groups connected by shared components) is a chain
/// `G1 ⊂ G2 ⊂ …`, ordered here from the outermost (fewest types, most entities) to the
/// innermost.
///
/// ```
/// use sparse_core::layout::Layout;
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
    chains: Vec<Vec<usize>>,
    position: Vec<(usize, usize)>,
}

/// A group declaration the nesting rule rejects. `group` is the index of the declaration
/// to blame (the later one when two conflict); every variant carries the type lists it
/// names so that it can be displayed on its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError<K> {
    /// A group with fewer than two types.
    TooFewTypes {
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
    /// Two groups share a type but neither contains the other.
    Overlap {
        /// The later declaration.
        group: usize,
        /// Its types.
        types: Vec<K>,
        /// The earlier declaration it conflicts with.
        other: usize,
        /// The earlier declaration's types.
        other_types: Vec<K>,
        /// A type both own.
        shared: K,
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

impl<K> LayoutError<K> {
    /// The index of the declaration this error blames.
    pub fn group(&self) -> usize {
        match *self {
            LayoutError::TooFewTypes { group, .. }
            | LayoutError::DuplicateType { group, .. }
            | LayoutError::DuplicateGroup { group, .. }
            | LayoutError::Overlap { group, .. }
            | LayoutError::NotAChain { group, .. } => group,
        }
    }
}

/// Writes a type list as `<A, B, C>`.
pub struct DisplayGroup<'a, K>(pub &'a [K]);

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
                other_types,
                shared,
                ..
            } => {
                let mut merged = other_types.clone();
                merged.extend(types.iter().filter(|t| !other_types.contains(t)).cloned());
                write!(
                    f,
                    "group {} shares `{shared}` with group {}, but neither contains the other: \
                     groups that own a common component must be nested; make one a superset of the other \
                     (e.g. {}) or stop sharing `{shared}`",
                    g(types),
                    g(other_types),
                    g(&merged)
                )
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

impl<K: Clone + Eq + Hash> Layout<K> {
    /// Validates `groups` (each a list of component keys) in any declaration order.
    /// Returns every error found; a group with its own error (too few or repeated types,
    /// or a repeated declaration) is left out of the checks between groups so that one
    /// mistake does not cascade into others.
    pub fn new(groups: Vec<Vec<K>>) -> Result<Self, Vec<LayoutError<K>>> {
        let mut errors = Vec::new();
        let mut valid = vec![true; groups.len()];
        for (group, types) in groups.iter().enumerate() {
            if types.len() < 2 {
                errors.push(LayoutError::TooFewTypes {
                    group,
                    types: types.clone(),
                });
                valid[group] = false;
            }
            for second in 0..types.len() {
                if let Some(first) = types[..second].iter().position(|t| *t == types[second]) {
                    // Report a type once, however often it repeats.
                    if types[..first].contains(&types[second])
                        || types[first + 1..second].contains(&types[second])
                    {
                        continue;
                    }
                    errors.push(LayoutError::DuplicateType {
                        group,
                        types: types.clone(),
                        ty: types[second].clone(),
                        first,
                        second,
                    });
                    valid[group] = false;
                }
            }
        }
        let sets: Vec<HashSet<&K>> = groups.iter().map(|types| types.iter().collect()).collect();
        for group in 0..groups.len() {
            if !valid[group] {
                continue;
            }
            if let Some(first) = (0..group).find(|&i| valid[i] && sets[i] == sets[group]) {
                errors.push(LayoutError::DuplicateGroup {
                    group,
                    types: groups[group].clone(),
                    first,
                    first_types: groups[first].clone(),
                });
                valid[group] = false;
            }
        }
        let mut overlapping = vec![false; groups.len()];
        for group in 0..groups.len() {
            for other in (0..group).filter(|&i| valid[i] && valid[group]) {
                let (a, b) = (&sets[other], &sets[group]);
                if a.is_subset(b) || b.is_subset(a) {
                    continue;
                }
                if let Some(shared) = groups[group].iter().find(|t| a.contains(t)) {
                    errors.push(LayoutError::Overlap {
                        group,
                        types: groups[group].clone(),
                        other,
                        other_types: groups[other].clone(),
                        shared: shared.clone(),
                    });
                    overlapping[group] = true;
                    overlapping[other] = true;
                }
            }
        }
        let sound = |i: usize| valid[i] && !overlapping[i];
        for group in (0..groups.len()).filter(|&i| sound(i)) {
            for other in (0..group).filter(|&i| sound(i) && sets[i].is_disjoint(&sets[group])) {
                let outer = (0..groups.len()).find(|&k| {
                    sound(k)
                        && sets[k].is_superset(&sets[group])
                        && sets[k].is_superset(&sets[other])
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
        if !errors.is_empty() {
            errors.sort_by_key(LayoutError::group);
            return Err(errors);
        }

        // Valid: every group of a family contains the family's outermost group, so any two
        // share a type and one pass gathers each family; sorted by size, it is a chain.
        let mut chains: Vec<Vec<usize>> = Vec::new();
        for group in 0..groups.len() {
            match chains
                .iter_mut()
                .find(|chain| !sets[chain[0]].is_disjoint(&sets[group]))
            {
                Some(chain) => chain.push(group),
                None => chains.push(vec![group]),
            }
        }
        let mut position = vec![(0, 0); groups.len()];
        for (c, chain) in chains.iter_mut().enumerate() {
            chain.sort_by_key(|&g| groups[g].len());
            for (depth, &g) in chain.iter().enumerate() {
                position[g] = (c, depth);
            }
        }
        Ok(Layout {
            groups,
            chains,
            position,
        })
    }

    /// The groups as declared.
    pub fn groups(&self) -> &[Vec<K>] {
        &self.groups
    }

    /// The families, each a chain of group indices from the outermost to the innermost.
    pub fn chains(&self) -> &[Vec<usize>] {
        &self.chains
    }

    /// The groups strictly inside `group` in its chain, from the next one in to the
    /// innermost.
    pub fn inner_groups(&self, group: usize) -> &[usize] {
        let (chain, depth) = self.position[group];
        &self.chains[chain][depth + 1..]
    }

    /// What sorting `group` permutes: each type of the group and of the groups inside it,
    /// once, with the group whose range it is permuted over. The group's own types take
    /// its whole range; a type that only an inner group owns takes that inner group's
    /// range, which a layer-by-layer permutation maps onto itself.
    pub fn sort_targets(&self, group: usize) -> Vec<(K, usize)> {
        let mut targets: Vec<(K, usize)> = Vec::new();
        for g in core::iter::once(group).chain(self.inner_groups(group).iter().copied()) {
            for key in &self.groups[g] {
                if !targets.iter().any(|(k, _)| k == key) {
                    targets.push((key.clone(), g));
                }
            }
        }
        targets
    }

    /// The groups owning `key`, from the outermost to the innermost: the order in which
    /// adding a `key` component tests-and-enters them.
    pub fn enter_order(&self, key: &K) -> Vec<usize> {
        self.chains
            .iter()
            .flat_map(|chain| chain.iter().copied())
            .filter(|&g| self.groups[g].contains(key))
            .collect()
    }

    /// The groups owning `key`, from the innermost to the outermost: the order in which
    /// removing a `key` component tests-and-leaves them.
    pub fn leave_order(&self, key: &K) -> Vec<usize> {
        let mut order = self.enter_order(key);
        order.reverse();
        order
    }

    /// Every group, innermost first within each chain: the order in which destroying an
    /// entity leaves its groups.
    pub fn destroy_order(&self) -> Vec<usize> {
        self.chains
            .iter()
            .flat_map(|chain| chain.iter().rev().copied())
            .collect()
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
            assert_eq!(l.chains().len(), 2);
            let destroy = names(l.destroy_order());
            assert!(
                destroy == vec![4, 3, 2, 3, 2] || destroy == vec![3, 2, 4, 3, 2],
                "{destroy:?}"
            );
            let abc = order
                .iter()
                .position(|g| g.len() == 3 && g.contains(&"A"))
                .unwrap();
            assert_eq!(names(l.inner_groups(abc).to_vec()), vec![4]);
        }
    }

    #[test]
    fn accepts_single_groups_and_no_groups() {
        assert!(layout(&[]).unwrap().chains().is_empty());
        assert_eq!(
            layout(&[&["A", "B"], &["C", "D"]]).unwrap().chains().len(),
            2
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
                let LayoutError::Overlap { group, other, .. } = errors[0] else {
                    panic!("{errors:?}")
                };
                assert!(other < group);
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
    fn rejects_groups_of_fewer_than_two_types() {
        let errors = layout(&[&["A"], &[]]).unwrap_err();
        assert!(matches!(
            errors[..],
            [
                LayoutError::TooFewTypes { group: 0, .. },
                LayoutError::TooFewTypes { group: 1, .. }
            ]
        ));
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
