//! The order a snapshot's storages are appended in, so that loading enters every group
//! without moving a component.

use super::layout::GroupDecl;

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
