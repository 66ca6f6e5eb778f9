//! Choosing a layout for a frame: the candidate groups its views suggest, what each view's
//! walk costs under a layout, and the search for the cheapest valid layout.
//!
//! A view's walk under a layout is what the world would pick for it
//! ([`driver::choose`], the one implementation), with the lengths the census gives: its
//! cost is the walked entities times what each costs to visit, a component read by
//! position counting 1, a lookup [`LOOKUP`], a filter tested [`TEST`]. The candidates are
//! owning groups of the types a view requires, widened by types every one of its matches
//! holds (the view then names them with `With`: the same matches, as long as the
//! entities stay of the same kinds). A layout is valid when [`Layout::new`] accepts it
//! beside the groups the systems name.
//!
//! ```text
//! views:   (&mut Pos, &Vel)         every match has Sprite too
//!          (&Pos, &Sprite)
//! candidates: <Pos, Vel>  <Pos, Vel, Sprite>  <Pos, Sprite>
//! chosen:     <Pos, Sprite> ⊂ <Pos, Sprite, Vel>   (nested: both views dense)
//! ```

use core::any::TypeId;

use super::census::{Census, Types};
use crate::access::driver::{self, Choice};
use crate::access::query::Needs;
use crate::group::{GroupDecl, Layout};
use crate::lend::GroupShape;
use crate::storage::{DenseOrder, SparseSet};

/// What a lookup of a component costs next to reading one by position.
pub(crate) const LOOKUP: f64 = 3.0;
/// What testing a filter (a membership or a change stamp) costs next to reading a
/// component by position.
pub(crate) const TEST: f64 = 2.0;
/// The most candidates searched exhaustively; beyond, they are added greedily.
const EXHAUSTIVE: usize = 12;

/// A view as the search sees it.
#[derive(Clone)]
pub(crate) struct ViewModel {
    /// Its leaves and filters, as its driver is chosen from.
    pub(crate) needs: Needs,
    /// Whether it has a change filter (never dense).
    pub(crate) changes: bool,
    /// The storages of the types it requires (`None`: a type the world has no storage
    /// of, so it matches nothing).
    pub(crate) required: Option<Types>,
    /// The types every match holds.
    pub(crate) closure: Types,
    /// How many entities it matches.
    pub(crate) matches: usize,
}

/// A group of a layout: its storages, and the member set of a world's non-owning group.
#[derive(Clone)]
pub(crate) struct GroupModel<'w> {
    pub(crate) owned: Vec<usize>,
    pub(crate) observed: Vec<usize>,
    pub(crate) excluded: Vec<usize>,
    pub(crate) members: Option<&'w SparseSet>,
}

impl GroupModel<'_> {
    /// A group owning `types`.
    pub(crate) fn owning(types: &Types) -> Self {
        GroupModel {
            owned: types.iter().collect(),
            observed: Vec::new(),
            excluded: Vec::new(),
            members: None,
        }
    }

    fn decl(&self) -> GroupDecl<usize> {
        GroupDecl {
            owned: self.owned.clone(),
            observed: self.observed.clone(),
            excluded: self.excluded.clone(),
        }
    }

    fn required(&self, storages: usize) -> Types {
        Types::of(storages, self.owned.iter().chain(&self.observed).copied())
    }
}

/// A view's walk under a layout.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Estimate {
    /// Whether it is a loop over slices.
    pub(crate) dense: bool,
    /// Whether a group drives it (else a storage).
    pub(crate) by_group: bool,
    /// The entities walked.
    pub(crate) walked: usize,
    /// The lookups and filter tests per walked entity.
    pub(crate) lookups: usize,
    /// Its cost (see the module documentation).
    pub(crate) cost: f64,
    /// The types it must name with `With` to be walked so (none in the current layout).
    pub(crate) added: Vec<usize>,
}

impl Estimate {
    /// The walk of a view that matches nothing.
    pub(crate) fn nothing() -> Self {
        Estimate {
            dense: false,
            by_group: false,
            walked: 0,
            lookups: 0,
            cost: 0.0,
            added: Vec::new(),
        }
    }
}

/// The groups of a layout with their lengths, as the driver reads them.
pub(crate) struct Shaped<'w> {
    ids: Vec<[Vec<TypeId>; 3]>,
    lens: Vec<usize>,
    members: Vec<Option<&'w SparseSet>>,
    /// Each group's owned and observed storages.
    required: Vec<Types>,
    /// Each owning group's storages, if it owns every type it requires and excludes none.
    exact: Vec<Option<Types>>,
}

impl<'w> Shaped<'w> {
    pub(crate) fn new(census: &Census, groups: &[GroupModel<'w>]) -> Self {
        let storages = census.storages();
        let ids_of = |list: &[usize]| -> Vec<TypeId> {
            list.iter().map(|&s| census.keys[s].type_id()).collect()
        };
        Shaped {
            ids: groups
                .iter()
                .map(|g| [ids_of(&g.owned), ids_of(&g.observed), ids_of(&g.excluded)])
                .collect(),
            lens: groups
                .iter()
                .map(|g| match g.members {
                    Some(members) => members.len(),
                    None => census.count(
                        &g.required(storages),
                        &Types::of(storages, g.excluded.iter().copied()),
                    ),
                })
                .collect(),
            members: groups.iter().map(|g| g.members).collect(),
            required: groups.iter().map(|g| g.required(storages)).collect(),
            exact: groups
                .iter()
                .map(|g| {
                    (g.members.is_none() && g.observed.is_empty() && g.excluded.is_empty())
                        .then(|| Types::of(storages, g.owned.iter().copied()))
                })
                .collect(),
        }
    }

    fn shapes(&self) -> Vec<GroupShape<'_, 'w>> {
        self.ids
            .iter()
            .zip(&self.lens)
            .zip(&self.members)
            .map(|((ids, &len), &members)| GroupShape {
                owned: &ids[0],
                observed: &ids[1],
                excluded: &ids[2],
                len,
                members,
            })
            .collect()
    }
}

/// The walk of `view` under the layout `shaped`, naming with `With` the types `added`.
pub(crate) fn walk(
    census: &Census,
    view: &ViewModel,
    shaped: &Shaped<'_>,
    added: &[usize],
) -> Estimate {
    let mut needs = view.needs.clone();
    needs
        .filters
        .extend(added.iter().map(|&s| (census.keys[s].type_id(), true)));
    let len = |id: TypeId| census.index(id).map_or(0, |s| census.lens[s]);
    let shapes = shaped.shapes();
    let Some(Choice {
        start,
        end,
        aligned,
        implied,
        by,
        ..
    }) = driver::choose(
        &needs,
        &shapes,
        // A census knows which types entities hold, not the order storages hold them in:
        // no storage is modelled as sharing another's order (spawned together and
        // untouched since), which a frame's changes undo anyway.
        driver::Storages {
            leaf_len: |leaf: usize| len(needs.leaves[leaf].0),
            leaf_order: |_| DenseOrder::UNKNOWN,
            filter_len: |filter: usize| len(needs.filters[filter].0),
            filter_order: |_| DenseOrder::UNKNOWN,
        },
    )
    else {
        return Estimate::nothing();
    };
    let walked = end - start;
    let unaligned = (0..needs.leaves.len())
        .filter(|&leaf| leaf >= 64 || aligned >> leaf & 1 == 0)
        .count();
    let untested = (0..needs.filters.len())
        .filter(|&filter| filter >= 64 || implied >> filter & 1 == 0)
        .count();
    let aligned_reads = needs.leaves.len() - unaligned;
    let per_entity = aligned_reads as f64
        + LOOKUP * unaligned as f64
        + TEST * (untested + usize::from(view.changes)) as f64;
    Estimate {
        dense: unaligned == 0 && untested == 0 && !view.changes,
        by_group: by != driver::DrivenBy::Storage,
        walked,
        lookups: unaligned + untested,
        cost: walked as f64 * per_entity.max(1.0),
        added: added.to_vec(),
    }
}

/// The best walk of `view` under `shaped`: as written, or naming with `With` the other
/// types of an exact group its matches all hold.
pub(crate) fn best_walk(census: &Census, view: &ViewModel, shaped: &Shaped<'_>) -> Estimate {
    let Some(required) = &view.required else {
        return Estimate::nothing();
    };
    let mut best = walk(census, view, shaped, &[]);
    for exact in shaped.exact.iter().flatten() {
        if required.is_subset(exact) && exact.is_subset(&view.closure) && exact != required {
            let added: Vec<usize> = exact.difference(required).iter().collect();
            let widened = walk(census, view, shaped, &added);
            if widened.cost < best.cost {
                best = widened;
            }
        }
    }
    // A group that requires more than the view, all of it held by every match, drives it
    // too once the view names the rest.
    for group in &shaped.required {
        if !group.is_subset(required) && group.is_subset(&view.closure) {
            let added: Vec<usize> = group.difference(required).iter().collect();
            let widened = walk(census, view, shaped, &added);
            if widened.cost < best.cost {
                best = widened;
            }
        }
    }
    best
}

/// The total cost of `views` under `groups`.
fn total(census: &Census, views: &[ViewModel], groups: &[GroupModel<'_>]) -> f64 {
    let shaped = Shaped::new(census, groups);
    views
        .iter()
        .map(|v| best_walk(census, v, &shaped).cost)
        .sum()
}

/// Whether `groups` form a layout the nesting rule accepts.
fn valid(groups: &[GroupModel<'_>]) -> bool {
    Layout::new(groups.iter().map(GroupModel::decl).collect()).is_ok()
}

/// The candidate groups, of two types or more, each once. For each view matching
/// something: its required types and its closure (all its matches hold); then, beside each
/// candidate so far, the view's required types without the candidate's (the rest of a view
/// whose other types another chain owns); then the view's required types widened by what
/// its closure shares with each candidate (a group nested in or around another).
fn candidates(views: &[ViewModel], current: &[Types]) -> Vec<Types> {
    let mut found: Vec<Types> = current.to_vec();
    let mut seen: std::collections::HashSet<Types> = found.iter().cloned().collect();
    // A group of more types than a tuple holds could not be declared.
    let mut add = |found: &mut Vec<Types>, set: Types| {
        if (2..=crate::MAX_TUPLE).contains(&set.len()) && seen.insert(set.clone()) {
            found.push(set);
        }
    };
    let matching: Vec<(&Types, &Types)> = views
        .iter()
        .filter(|v| v.matches > 0)
        .filter_map(|v| v.required.as_ref().map(|r| (r, &v.closure)))
        .collect();
    for &(required, closure) in &matching {
        add(&mut found, required.clone());
        add(&mut found, closure.clone());
    }
    let first = found.clone();
    for &(required, _) in &matching {
        for other in &first {
            if !required.is_disjoint(other) {
                add(&mut found, required.difference(other));
            }
        }
    }
    let second = found.clone();
    for &(required, closure) in &matching {
        for other in &second {
            add(&mut found, required.union(&closure.intersection(other)));
        }
    }
    found
}

/// The cheapest valid layout for `views`: owning groups, beside the groups `fixed` that the
/// systems name, drawn from the views' candidates and from `current` (the world's own
/// exact groups, so that the advice is never worse than the layout now).
pub(crate) fn search<'w>(
    census: &Census,
    views: &[ViewModel],
    fixed: &[GroupModel<'w>],
    current: &[Types],
) -> Vec<Types> {
    let base = total(census, views, fixed);
    // The candidates that lower the cost on their own, most first.
    let mut ranked: Vec<(f64, Types)> = candidates(views, current)
        .into_iter()
        .filter_map(|c| {
            let mut groups = fixed.to_vec();
            groups.push(GroupModel::owning(&c));
            if !valid(&groups) {
                return None;
            }
            let gain = base - total(census, views, &groups);
            (gain > 0.0).then_some((gain, c))
        })
        .collect();
    // Ties broken by the types' names, not by the storages' numbers: two worlds holding
    // the same entities get the same advice, whatever order their storages are in.
    let names = |set: &Types| {
        let mut names: Vec<&str> = set.iter().map(|s| census.keys[s].name()).collect();
        names.sort_unstable();
        names
    };
    ranked.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then_with(|| names(&a.1).cmp(&names(&b.1)))
    });
    let ranked: Vec<Types> = ranked.into_iter().map(|(_, c)| c).collect();
    let mut search = Search {
        census,
        views,
        fixed,
        ranked: &ranked,
        best: (base, Vec::new()),
    };
    search.every_layout(0, &mut Vec::new());
    search.greedy();
    search.best.1
}

struct Search<'a, 'w> {
    census: &'a Census,
    views: &'a [ViewModel],
    fixed: &'a [GroupModel<'w>],
    ranked: &'a [Types],
    /// The cheapest layout found, and its cost.
    best: (f64, Vec<Types>),
}

impl<'w> Search<'_, 'w> {
    fn groups(&self, chosen: &[Types]) -> Vec<GroupModel<'w>> {
        let mut groups = self.fixed.to_vec();
        groups.extend(chosen.iter().map(GroupModel::owning));
        groups
    }

    /// Records `chosen` if it is cheaper than the best so far (fewer groups first on a tie).
    fn consider(&mut self, chosen: &[Types]) {
        let cost = total(self.census, self.views, &self.groups(chosen));
        if cost < self.best.0 || (cost == self.best.0 && chosen.len() < self.best.1.len()) {
            self.best = (cost, chosen.to_vec());
        }
    }

    /// Every valid layout of the first [`EXHAUSTIVE`] candidates from `next` on, added to
    /// `chosen`.
    fn every_layout(&mut self, next: usize, chosen: &mut Vec<Types>) {
        if next == self.ranked.len().min(EXHAUSTIVE) {
            self.consider(chosen);
            return;
        }
        chosen.push(self.ranked[next].clone());
        if valid(&self.groups(chosen)) {
            self.every_layout(next + 1, chosen);
        }
        chosen.pop();
        self.every_layout(next + 1, chosen);
    }

    /// Each candidate the exhaustive search left, in turn, added to the best layout if it
    /// stays valid and gets cheaper.
    fn greedy(&mut self) {
        let mut chosen = self.best.1.clone();
        for candidate in self.ranked.iter().skip(EXHAUSTIVE) {
            chosen.push(candidate.clone());
            let groups = self.groups(&chosen);
            if valid(&groups) && total(self.census, self.views, &groups) < self.best.0 {
                self.consider(&chosen);
            } else {
                chosen.pop();
            }
        }
    }
}
