//! The expansion of a world whose groups are not sound: the world without group
//! maintenance, so that one bad group is reported once, not as a cascade of errors in the
//! code that uses the world.

use sparse_core::{GroupDecl, Layout};

use crate::plan::Plan;
use crate::valid::{CheckedGroup, Model, key_decl};

/// A plan that maintains no group: every group that is well formed on its own (stored
/// types, accepted by the rule alone, not declared before) keeps its access impls, so that
/// code naming it still type-checks; every storage may be sorted.
pub(crate) fn plan(model: &Model<'_>, checked: &[CheckedGroup]) -> Plan {
    let mut seen: Vec<GroupDecl<usize>> = Vec::new();
    let mut kept = Vec::new();
    for c in checked {
        let alone = Layout::new(vec![key_decl(&model.world.groups[c.index])]).is_ok();
        let fresh = !seen.iter().any(|s| same(s, &c.decl));
        seen.push(c.decl.clone());
        if alone && fresh {
            kept.push(c);
        }
    }
    Plan::without_steps(model, &kept)
}

/// Whether two declarations name one group (each list in any order).
fn same(a: &GroupDecl<usize>, b: &GroupDecl<usize>) -> bool {
    let sorted = |list: &[usize]| {
        let mut list = list.to_vec();
        list.sort_unstable();
        list
    };
    sorted(&a.owned) == sorted(&b.owned)
        && sorted(&a.observed) == sorted(&b.observed)
        && sorted(&a.excluded) == sorted(&b.excluded)
}
