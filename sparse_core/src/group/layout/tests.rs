use proptest::prelude::*;

use super::*;

fn owning(types: &[&'static str]) -> GroupDecl<&'static str> {
    GroupDecl::owning(types.to_vec())
}

fn layout(
    groups: &[GroupDecl<&'static str>],
) -> Result<Layout<&'static str>, Vec<LayoutError<&'static str>>> {
    Layout::new(groups.to_vec())
}

/// Every order of `items`; under Miri (these tests run no `unsafe` code, and Miri runs
/// them a thousand times slower) four of them, spread over the permutations.
fn orders<T: Clone>(items: &[T]) -> Vec<Vec<T>> {
    let all = permutations(items);
    let step = if cfg!(miri) {
        (all.len() / 4).max(1)
    } else {
        1
    };
    all.into_iter().step_by(step).collect()
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

/// Every group of `order` comes after the groups it is nested in.
fn respects_nesting(l: &Layout<&str>, order: &[usize]) -> bool {
    order.iter().enumerate().all(|(i, &g)| {
        order[i + 1..]
            .iter()
            .all(|&later| !l.is_nested_in(g, later))
    })
}

#[test]
fn accepts_chains_and_families_in_any_order() {
    let groups = [
        owning(&["A", "B"]),
        owning(&["A", "B", "C"]),
        owning(&["A", "B", "C", "D"]),
        owning(&["E", "F"]),
        owning(&["F", "E", "G"]),
    ];
    for order in orders(&groups) {
        let l = layout(&order).unwrap_or_else(|e| panic!("{order:?}: {e:?}"));
        let names = |ids: Vec<usize>| {
            ids.into_iter()
                .map(|g| order[g].owned.len())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(l.enter_order(&"A")), vec![2, 3, 4]);
        assert_eq!(names(l.leave_order(&"B")), vec![4, 3, 2]);
        assert_eq!(names(l.enter_order(&"C")), vec![3, 4]);
        assert_eq!(names(l.enter_order(&"E")), vec![2, 3]);
        let destroy = l.destroy_order();
        assert_eq!(destroy.len(), 5);
        let spawn = l.spawn_order();
        assert!(respects_nesting(&l, &spawn), "{order:?}: {spawn:?}");
        let ab = order.iter().position(|g| g.owned == ["A", "B"]).unwrap();
        assert_eq!(names(l.inner_groups(ab)), vec![3, 4]);
        assert_eq!(
            l.nesting().len(),
            4,
            "<A,B> has two inner groups, <A,B,C> and <E,F> one"
        );
    }
}

#[test]
fn accepts_tree_families_and_rejects_siblings() {
    // <A,B> and <C,D> both outer groups of <A,B,C,D>: each storage's owners are a chain.
    let tree = [
        owning(&["A", "B"]),
        owning(&["C", "D"]),
        owning(&["A", "B", "C", "D"]),
    ];
    for order in orders(&tree) {
        let l = layout(&order).unwrap_or_else(|e| panic!("{order:?}: {e:?}"));
        let abcd = order.iter().position(|g| g.owned.len() == 4).unwrap();
        let add_c = l.on_add(&"C");
        assert_eq!(add_c.len(), 2);
        assert_eq!(add_c[1].group, abcd, "the inner group is entered last");
        assert_eq!(add_c[1].slot, Some(2));
    }
    // Siblings that share an owned type without nesting stay rejected.
    let errors = layout(&[
        owning(&["A", "B"]),
        owning(&["A", "B", "C"]),
        owning(&["A", "B", "D"]),
    ])
    .unwrap_err();
    assert!(
        matches!(errors[..], [LayoutError::Overlap { group: 2, .. }]),
        "{errors:?}"
    );
}

#[test]
fn bulk_entering_compares_one_storage_of_the_closest_outer_group() {
    let groups = [
        owning(&["A", "B"]),
        owning(&["D", "C", "B", "A"]),
        owning(&["A", "B", "C"]),
        owning(&["E"]).get(vec!["F"]),
        owning(&["E", "F"]),
    ];
    let l = layout(&groups).unwrap();
    // <D,C,B,A> is nested in <A,B> and <A,B,C>: the closer one keeps C, B and A aligned,
    // so B and A (slots 2 and 3) need no compare, C does.
    assert_eq!(l.aligned_with_outer(1), Some((2, vec![2, 3])));
    assert_eq!(l.aligned_with_outer(2), Some((0, vec![1])));
    // Outermost groups, and outer groups owning one type, give nothing to skip.
    assert_eq!(l.aligned_with_outer(0), None);
    assert_eq!(l.aligned_with_outer(4), None);
}

#[test]
fn partial_and_non_owning_groups_and_exclusion() {
    let game = [
        owning(&["Sprite", "Renderable"]),
        owning(&["Sprite", "Renderable", "Position"]),
        owning(&["Velocity"])
            .get(vec!["Position"])
            .exclude(vec!["Frozen"]),
        GroupDecl::owning(vec![]).get(vec!["Health", "Poisoned"]),
        GroupDecl::owning(vec![]).get(vec!["Health"]),
    ];
    for order in orders(&game) {
        let l = layout(&order).unwrap_or_else(|e| panic!("{order:?}: {e:?}"));
        let movers = order.iter().position(|g| g.owned == ["Velocity"]).unwrap();
        // Adding the excluded type leaves the group; removing it enters it.
        assert_eq!(
            l.on_add(&"Frozen"),
            vec![Step {
                group: movers,
                action: Action::Leave,
                slot: None
            }]
        );
        assert_eq!(l.before_remove(&"Frozen"), vec![]);
        assert_eq!(l.after_remove(&"Frozen")[0].action, Action::Enter);
        // Observed types are tested on add, with no slot (they are not reordered).
        let add_position = l.on_add(&"Position");
        let step = add_position.iter().find(|s| s.group == movers).unwrap();
        assert_eq!((step.action, step.slot), (Action::Enter, None));
        assert!(respects_nesting(&l, &l.spawn_order()));
    }
    // A partial-owning group nested in a full-owning one (a get type owned inside).
    let l = layout(&[owning(&["V"]).get(vec!["P"]), owning(&["V", "P"])]).unwrap();
    assert!(l.is_nested_in(1, 0));
    assert_eq!(l.enter_order(&"P"), vec![0, 1]);
    assert_eq!(l.sort_targets(0), vec![("V", 0), ("P", 1)]);
    // An exclude chain: the inner group excludes more.
    let l = layout(&[
        owning(&["A", "B"]).exclude(vec!["X"]),
        owning(&["A", "B"]).exclude(vec!["X", "Y"]),
    ])
    .unwrap();
    assert!(l.is_nested_in(1, 0));
    let add_x = l.on_add(&"X");
    assert_eq!(
        add_x.iter().map(|s| s.group).collect::<Vec<_>>(),
        vec![1, 0],
        "adding an excluded type leaves the inner group first"
    );
    let after = l.after_remove(&"X");
    assert_eq!(
        after.iter().map(|s| s.group).collect::<Vec<_>>(),
        vec![0, 1]
    );
}

#[test]
fn overlap_message_names_every_shared_type() {
    let errors = layout(&[owning(&["A", "B", "C"]), owning(&["A", "B", "D"])]).unwrap_err();
    let message = errors[0].to_string();
    assert!(
        message.contains("shares `A` and `B` with group"),
        "{message}"
    );
    assert!(
        message.ends_with("or stop sharing `A` and `B`"),
        "{message}"
    );
}

#[test]
fn overlap_message_names_both_groups_and_fixes_the_rule_accepts() {
    let errors = layout(&[owning(&["A", "B"]), owning(&["A", "C"])]).unwrap_err();
    assert_eq!(
        errors[0].to_string(),
        "group <A, C> shares `A` with group <A, B>, but neither contains the other: groups that own a \
         common component must be nested; declare it as <C, get(A)> instead, or as <A, C, B> instead, \
         or stop sharing `A`"
            .replace(" instead, or as ", " or as ")
    );
    // The movement group of the game, declared owning: the fixes are accepted.
    let groups = vec![
        owning(&["Sprite", "Renderable"]),
        owning(&["Sprite", "Renderable", "Position"]),
        owning(&["Position", "Velocity"]),
    ];
    let errors = Layout::new(groups.clone()).unwrap_err();
    let LayoutError::Overlap {
        group,
        ref suggestions,
        ..
    } = errors[0]
    else {
        panic!("{errors:?}")
    };
    assert_eq!(suggestions.len(), 2, "{suggestions:?}");
    assert_eq!(suggestions[0], owning(&["Velocity"]).get(vec!["Position"]));
    for fix in suggestions {
        let mut fixed = groups.clone();
        fixed[group] = fix.clone();
        assert!(Layout::new(fixed.clone()).is_ok(), "{fixed:?}");
    }
}

#[test]
fn one_bad_group_among_many_is_blamed_once_and_no_rejected_fix_is_suggested() {
    let c = ["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8"];
    let mut groups: Vec<GroupDecl<&str>> = (2..=8).map(|n| owning(&c[..n])).collect();
    groups.push(owning(&["X", "Y"]));
    groups.insert(3, owning(&["C3", "C8"]));
    let errors = Layout::new(groups.clone()).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    let LayoutError::Overlap {
        group,
        ref others,
        ref suggestions,
        ..
    } = errors[0]
    else {
        panic!("{errors:?}")
    };
    assert_eq!(group, 3, "the crossing group is blamed");
    assert_eq!(others.len(), 5, "each conflicting pair once: {others:?}");
    for fix in suggestions {
        let mut fixed = groups.clone();
        fixed[group] = fix.clone();
        assert!(Layout::new(fixed.clone()).is_ok(), "{fixed:?}");
    }
    let message = errors[0].to_string();
    assert!(
        message.contains("shares owned components with 5 groups"),
        "{message}"
    );
}

#[test]
fn rejects_each_malformed_group_with_its_own_error() {
    let errors = layout(&[owning(&["A", "B", "A", "A"])]).unwrap_err();
    assert!(
        matches!(
            errors[..],
            [LayoutError::DuplicateType {
                ty: "A",
                first: Place {
                    role: Role::Owned,
                    index: 0
                },
                second: Place {
                    role: Role::Owned,
                    index: 2
                },
                ..
            }]
        ),
        "{errors:?}"
    );
    let errors = layout(&[owning(&["A", "B"]).get(vec!["B"])]).unwrap_err();
    assert!(
        errors[0]
            .to_string()
            .contains("`B` is both owned and observed (`get`)")
    );
    let errors = layout(&[owning(&["A", "B"]).exclude(vec!["B"])]).unwrap_err();
    assert!(
        matches!(
            errors[..],
            [LayoutError::RequiredAndExcluded { ty: "B", .. }]
        ),
        "{errors:?}"
    );
    let errors = layout(&[GroupDecl::owning(vec![]).exclude(vec!["A"])]).unwrap_err();
    assert!(
        matches!(errors[..], [LayoutError::NothingObserved { group: 0, .. }]),
        "{errors:?}"
    );
    let errors = layout(&[owning(&["A"]), GroupDecl::owning(vec![])]).unwrap_err();
    assert!(matches!(
        errors[..],
        [
            LayoutError::NothingFiltered { group: 0, .. },
            LayoutError::Empty { group: 1 }
        ]
    ));
    // One owned type with a filter is a group.
    assert!(layout(&[owning(&["A"]).exclude(vec!["B"])]).is_ok());
    assert!(layout(&[owning(&["A"]).get(vec!["B"])]).is_ok());
    let names: Vec<String> = (0..=MAX_TUPLE).map(|i| format!("T{i}")).collect();
    let errors = Layout::new(vec![
        GroupDecl::owning(names[..MAX_TUPLE].to_vec()),
        GroupDecl::owning(names.clone()),
    ])
    .unwrap_err();
    assert!(
        matches!(
            errors[..],
            [LayoutError::TooManyTypes {
                group: 1,
                role: Role::Owned,
                ..
            }]
        ),
        "{errors:?}"
    );
    let errors = layout(&[owning(&["A", "B"]), owning(&["B", "A"])]).unwrap_err();
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
}

#[test]
fn reports_every_error_without_cascading() {
    let errors = layout(&[
        owning(&["A", "B"]),
        owning(&["A", "C"]),
        owning(&["X"]),
        owning(&["Y", "Y", "Z"]),
        owning(&["B", "A"]),
        owning(&["E", "F"]),
    ])
    .unwrap_err();
    let blamed: Vec<usize> = errors.iter().map(LayoutError::group).collect();
    assert_eq!(blamed, vec![1, 2, 3, 4], "{errors:?}");
}

/// The rule, written independently of `Layout`: whether a set of declarations over small
/// integer types must be accepted.
fn oracle(groups: &[GroupDecl<u8>]) -> bool {
    use std::collections::BTreeSet;
    type Set = BTreeSet<u8>;
    let sets: Vec<(Set, Set, Set)> = groups
        .iter()
        .map(|g| {
            let owned: Set = g.owned.iter().copied().collect();
            let required: Set = g.owned.iter().chain(&g.observed).copied().collect();
            let excluded: Set = g.excluded.iter().copied().collect();
            (owned, required, excluded)
        })
        .collect();
    let well_formed = groups.iter().all(|g| {
        let all: Vec<u8> = g
            .owned
            .iter()
            .chain(&g.observed)
            .chain(&g.excluded)
            .copied()
            .collect();
        let distinct = all.iter().collect::<BTreeSet<_>>().len() == all.len();
        let filters = g.owned.len() >= 2 || !g.observed.is_empty() || !g.excluded.is_empty();
        distinct && !all.is_empty() && filters && !(g.owned.is_empty() && g.observed.is_empty())
    });
    let within = |h: &(Set, Set, Set), g: &(Set, Set, Set)| {
        g.0.is_subset(&h.0) && g.1.is_subset(&h.1) && g.2.is_subset(&h.2)
    };
    let pairs_ok = (0..sets.len()).all(|a| {
        (0..a).all(|b| {
            let (x, y) = (&sets[a], &sets[b]);
            let same = within(x, y) && within(y, x);
            let shared = !x.0.is_disjoint(&y.0);
            !same && (!shared || within(x, y) || within(y, x))
        })
    });
    well_formed && pairs_ok
}

fn decl() -> impl Strategy<Value = GroupDecl<u8>> {
    // Each of six types is absent, owned, observed or excluded; occasionally one repeats.
    (prop::collection::vec(0u8..6, 6), any::<bool>(), 0u8..6).prop_map(|(roles, repeat, extra)| {
        let mut decl = GroupDecl::owning(vec![]);
        for (ty, role) in roles.into_iter().enumerate() {
            match role {
                0 | 1 => decl.owned.push(ty as u8),
                2 => decl.observed.push(ty as u8),
                3 => decl.excluded.push(ty as u8),
                _ => {}
            }
        }
        if repeat && extra == 5 {
            decl.owned.push(0);
        }
        decl
    })
}

proptest! {
    #[test]
    fn accepted_exactly_when_the_pairwise_rule_holds(
        groups in prop::collection::vec(decl(), 0..6),
        seed in any::<u64>(),
    ) {
        let verdict = Layout::new(groups.clone());
        prop_assert_eq!(verdict.is_ok(), oracle(&groups), "{:?}: {:?}", groups, verdict.as_ref().err());
        // The declaration order does not matter.
        let mut shuffled = groups.clone();
        let n = shuffled.len();
        for i in (1..n).rev() {
            shuffled.swap(i, (seed as usize).wrapping_mul(31).wrapping_add(i * 7) % (i + 1));
        }
        prop_assert_eq!(Layout::new(shuffled).is_ok(), verdict.is_ok());
        if let Ok(layout) = verdict {
            prop_assert!(respects_nesting_u8(&layout, &layout.spawn_order()));
            for ty in 0..6u8 {
                let add = layout.on_add(&ty);
                // Leaves of excluding groups come first, innermost first; enters after,
                // outer groups first.
                let first_enter = add.iter().position(|s| s.action == Action::Enter).unwrap_or(add.len());
                prop_assert!(add[first_enter..].iter().all(|s| s.action == Action::Enter));
                let enters: Vec<usize> = add[first_enter..].iter().map(|s| s.group).collect();
                prop_assert!(respects_nesting_u8(&layout, &enters));
                let mut leaves: Vec<usize> = add[..first_enter].iter().map(|s| s.group).collect();
                leaves.reverse();
                prop_assert!(respects_nesting_u8(&layout, &leaves));
            }
        } else {
            for error in verdict.unwrap_err() {
                if let LayoutError::Overlap { group, suggestions, .. } = error {
                    for fix in suggestions {
                        let mut fixed = groups.clone();
                        fixed[group] = fix;
                        // A suggestion never conflicts with the groups that were sound.
                        if oracle(&groups.iter().enumerate().filter(|&(i, _)| i != group).map(|(_, g)| g.clone()).collect::<Vec<_>>()) {
                            prop_assert!(oracle(&fixed), "{:?}", fixed);
                        }
                    }
                }
            }
        }
    }
}

fn respects_nesting_u8(l: &Layout<u8>, order: &[usize]) -> bool {
    order.iter().enumerate().all(|(i, &g)| {
        order[i + 1..]
            .iter()
            .all(|&later| !l.is_nested_in(g, later))
    })
}
