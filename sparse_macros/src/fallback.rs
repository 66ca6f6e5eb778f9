//! The expansion of a world whose groups are not sound: the world without group
//! maintenance, so that one bad group is reported once, not as a cascade of errors in the
//! code that uses the world.

use std::collections::BTreeSet;

use sparse_core::MAX_TUPLE;

use crate::plan::{GroupPlan, Plan, StoragePlan};
use crate::valid::{self, CheckedGroup, Model};

/// A plan that maintains no group: every group that is well formed on its own (stored,
/// distinct types, not declared before) keeps its access impls, so that code naming it
/// still type-checks; every storage may be sorted.
pub(crate) fn plan(model: &Model<'_>, checked: &[CheckedGroup]) -> Plan {
    let mut seen: Vec<BTreeSet<usize>> = Vec::new();
    let mut groups = Vec::new();
    for c in checked {
        let set: BTreeSet<usize> = c.storages.iter().copied().collect();
        let well_formed = set.len() == c.storages.len()
            && (2..=MAX_TUPLE).contains(&set.len())
            && !seen.contains(&set);
        seen.push(set);
        if !well_formed {
            continue;
        }
        let g = groups.len();
        groups.push(GroupPlan {
            decl: c.index,
            storages: c.storages.clone(),
            inner: Vec::new(),
            sort_targets: c.storages.iter().map(|&s| (s, g)).collect(),
            name: valid::display(&model.world.groups[c.index]),
        });
    }
    Plan {
        groups,
        storages: model
            .storages
            .iter()
            .map(|_| StoragePlan {
                enter: Vec::new(),
                sortable: true,
            })
            .collect(),
        spawn_order: Vec::new(),
        destroy_order: Vec::new(),
        nesting: Vec::new(),
    }
}
