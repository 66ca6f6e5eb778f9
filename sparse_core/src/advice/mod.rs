//! Layout advice: which groups make a schedule's frame fastest on the entities a world
//! holds now, what its views should name to use them, which sorts to run after spawning,
//! and the walk each view gets before and after ([`Schedule::advise`]).
//!
//! ```text
//! schedule's views ──┐
//!                    ├─ candidates ─ search (valid under Layout::new) ─ Advice
//! world's census ────┘   (each view's types, widened by what all its matches hold)
//! ```
//!
//! The advice is a model's: a view's walk is the one the world would pick (the driver's
//! own rule), its cost the entities it walks times what each costs to visit (see
//! `search.rs`). It reads the world and changes nothing. A view's matches never depend on
//! the layout (only the order it visits them in does); the `With` types it advises are a
//! change of code that keeps the matches only while every entity the view matches holds
//! them, as all do when the advice is given.
//!
//! [`Schedule::advise`]: crate::Schedule::advise

#![forbid(unsafe_code)]

mod census;
mod search;

use core::any::type_name;
use core::fmt;

use crate::access::query::Needs;
use crate::access::{Filter, Query};
use crate::change::steps::WorldInfo;
use crate::component::{ComponentKey, short_name};
use crate::group::GroupDecl;
use census::{Census, Types};
use search::{Estimate, GroupModel, Shaped, ViewModel, best_walk};

/// What a schedule's systems read for the advice: each system's views and the groups it
/// names. Hidden: filled by the systems' parameters.
#[doc(hidden)]
#[derive(Default)]
pub struct SystemShape {
    pub(crate) views: Vec<ViewShape>,
    pub(crate) groups: Vec<GroupDecl<ComponentKey>>,
}

impl SystemShape {
    /// Adds the view `View<Q, F>`.
    pub(crate) fn view<Q: Query, F: Filter>(&mut self) {
        let mut needs = Needs::default();
        Q::needs(&mut needs);
        F::needs(&mut needs);
        self.views.push(ViewShape {
            needs,
            changes: F::CHANGES,
            query: type_name::<Q>(),
            filter: type_name::<F>(),
        });
    }

    /// Adds a group the system names.
    pub(crate) fn group(&mut self, decl: GroupDecl<ComponentKey>) {
        self.groups.push(decl);
    }
}

/// One view of a system.
pub(crate) struct ViewShape {
    needs: Needs,
    changes: bool,
    query: &'static str,
    filter: &'static str,
}

/// A view's walk, as [`Advice`] predicts it.
#[derive(Clone, Debug, PartialEq)]
pub struct Walk {
    estimate: Estimate,
}

impl Walk {
    /// Whether the view is a loop over slices (see `View::is_dense`).
    pub fn is_dense(&self) -> bool {
        self.estimate.dense
    }

    /// Whether a group drives it (else the storage of one of its types).
    pub fn is_driven_by_group(&self) -> bool {
        self.estimate.by_group
    }

    /// How many entities it walks (its matches among them).
    pub fn walked(&self) -> usize {
        self.estimate.walked
    }

    /// The lookups and filter tests it makes per walked entity.
    pub fn lookups(&self) -> usize {
        self.estimate.lookups
    }

    /// Its cost in the model: a component read by position counts 1, a lookup 3, a filter
    /// tested 2, per walked entity.
    pub fn cost(&self) -> f64 {
        self.estimate.cost
    }
}

/// One view of one system in the [`Advice`]: its walk now and under the advised layout.
#[derive(Clone, Debug)]
pub struct ViewAdvice {
    system: String,
    view: String,
    matches: usize,
    now: Walk,
    advised: Walk,
    added: Vec<String>,
}

impl ViewAdvice {
    /// The system's name (its function's, without module paths).
    pub fn system(&self) -> &str {
        &self.system
    }

    /// The view, as its type is written (`(&mut Pos, &Vel)`, with its filter if any).
    pub fn view(&self) -> &str {
        &self.view
    }

    /// How many entities it matches now.
    pub fn matches(&self) -> usize {
        self.matches
    }

    /// Its walk under the world's layout now, by its groups: storages that share an order
    /// (spawned together, see docs/access.md) may make the view dense where this says it
    /// looks up, an advantage the advice does not count on (a frame's changes undo it).
    pub fn now(&self) -> &Walk {
        &self.now
    }

    /// Its walk under the advised layout.
    pub fn advised(&self) -> &Walk {
        &self.advised
    }

    /// The types the view should name with `With` to get its advised walk: every entity it
    /// matches holds them now, so naming them changes no result while that stays so.
    pub fn added_with(&self) -> &[String] {
        &self.added
    }
}

/// Layout advice for a schedule on a world's entities: see [`Schedule::advise`].
///
/// Printed, it lists the `#[group(...)]` lines to declare (valid under the nesting rule:
/// the advice checks them with the same code the macro runs), the types views should name
/// with `With`, the sorts to run after spawning, and per system the walk each view gets now
/// and under the advice.
///
/// [`Schedule::advise`]: crate::Schedule::advise
#[derive(Clone, Debug)]
pub struct Advice {
    systems: usize,
    entities: usize,
    kinds: usize,
    /// The advised groups, each as its type names, outer groups first.
    groups: Vec<Vec<String>>,
    /// The groups the systems name, kept as they are.
    kept: Vec<String>,
    sorts: Vec<String>,
    views: Vec<ViewAdvice>,
}

impl Advice {
    /// The groups to declare on a `#[world]`, one `#[group(...)]` attribute each, outer
    /// groups before the groups nested in them (the groups the systems name are kept as
    /// declared and not listed).
    pub fn group_attributes(&self) -> Vec<String> {
        self.groups
            .iter()
            .map(|types| format!("#[group({})]", types.join(", ")))
            .collect()
    }

    /// The same groups for the run-time `World`, one `GroupSpec` each.
    pub fn group_specs(&self) -> Vec<String> {
        self.groups
            .iter()
            .map(|types| format!("GroupSpec::of::<({})>()", types.join(", ")))
            .collect()
    }

    /// The sorts to run after spawning, in order, as calls on the world: first each advised
    /// chain's outermost group by entity (`sort_group_by_entity::<K>()`: back in the order
    /// the entities were spawned, which entering the nested groups shuffled), then
    /// `sort_group_as::<K, T>()`, each putting a group in the order of a storage its views
    /// look up, so that the lookups go forward through memory.
    pub fn sorts(&self) -> &[String] {
        &self.sorts
    }

    /// Every view of every system, in system order.
    pub fn views(&self) -> &[ViewAdvice] {
        &self.views
    }

    /// The model's cost of the frame's walks now, over their cost under the advice: `1.0`
    /// when the layout now is as good.
    pub fn expected_speedup(&self) -> f64 {
        let now: f64 = self.views.iter().map(|v| v.now.cost()).sum();
        let advised: f64 = self.views.iter().map(|v| v.advised.cost()).sum();
        if advised > 0.0 { now / advised } else { 1.0 }
    }

    /// The advice for `systems` on the world `info` describes.
    pub(crate) fn of(systems: &[(&'static str, SystemShape)], info: &WorldInfo<'_>) -> Advice {
        let census = Census::of(info);
        let storages = census.storages();
        let index_of = |set: &crate::storage::SparseSet| {
            info.storages
                .iter()
                .position(|(_, s)| core::ptr::eq(s.entity_set(), set))
        };
        let indices = |sets: &[&crate::storage::SparseSet]| -> Vec<usize> {
            sets.iter().filter_map(|s| index_of(s)).collect()
        };
        let current: Vec<GroupModel<'_>> = info
            .groups
            .iter()
            .map(|g| GroupModel {
                owned: indices(g.owned),
                observed: indices(g.observed),
                excluded: indices(g.excluded),
                members: g.members,
            })
            .collect();
        let keys = |list: &[ComponentKey]| -> Option<Vec<usize>> {
            list.iter().map(|k| census.index(k.type_id())).collect()
        };
        // The groups the systems name, as the world has them (a world without one refuses
        // the schedule; the advice leaves it out).
        let mut fixed: Vec<GroupModel<'_>> = Vec::new();
        let mut kept: Vec<String> = Vec::new();
        for decl in systems.iter().flat_map(|(_, s)| &s.groups) {
            let (Some(owned), Some(observed), Some(excluded)) = (
                keys(&decl.owned),
                keys(&decl.observed),
                keys(&decl.excluded),
            ) else {
                continue;
            };
            // Groups are the same whatever order their key lists its types in.
            let same = |g: &GroupModel<'_>| {
                same_set(&g.owned, &owned)
                    && same_set(&g.observed, &observed)
                    && same_set(&g.excluded, &excluded)
            };
            let model = current.iter().find(|g| same(g));
            if let Some(model) = model
                && !fixed.iter().any(same)
            {
                fixed.push(model.clone());
                kept.push(crate::group::DisplayGroup(decl).to_string());
            }
        }
        let views: Vec<(usize, &ViewShape, ViewModel)> = systems
            .iter()
            .enumerate()
            .flat_map(|(i, (_, s))| s.views.iter().map(move |v| (i, v)))
            .map(|(i, shape)| (i, shape, model_of(&census, shape)))
            .collect();
        let models: Vec<ViewModel> = views.iter().map(|(_, _, m)| m.clone()).collect();
        let exact: Vec<Types> = current
            .iter()
            .filter(|g| g.members.is_none() && g.observed.is_empty() && g.excluded.is_empty())
            .map(|g| Types::of(storages, g.owned.iter().copied()))
            .collect();
        let chosen = search::search(&census, &models, &fixed, &exact);
        // The advised groups, each with its types in the order its line lists them (the
        // order of its key's tuple in a sort's call).
        let lists = ordered(&chosen, storages);
        let mut advised = fixed.clone();
        advised.extend(lists.iter().map(|owned| GroupModel {
            owned: owned.clone(),
            observed: Vec::new(),
            excluded: Vec::new(),
            members: None,
        }));
        let (now_shaped, advised_shaped) = (
            Shaped::new(&census, &current),
            Shaped::new(&census, &advised),
        );
        let name = |s: usize| short_name(census.keys[s].name());
        let mut advice_views = Vec::new();
        // Each advised chain's outermost group in entity order first (see
        // `sort_group_by_entity`): entering nested groups moved members across the
        // layers, away from the order the game spawned them in.
        let mut sorts: Vec<String> = lists
            .iter()
            .filter(|g| {
                !lists
                    .iter()
                    .any(|h| h.len() < g.len() && h.iter().all(|s| g.contains(s)))
            })
            .map(|g| {
                let types: Vec<String> = g.iter().map(|&s| name(s)).collect();
                format!("sort_group_by_entity::<({})>()", types.join(", "))
            })
            .collect();
        let mut sorted_groups: Vec<usize> = Vec::new();
        for (system, shape, model) in &views {
            // Now: the view as written, no type added.
            let now = search::walk(&census, model, &now_shaped, &[]);
            let then = best_walk(&census, model, &advised_shaped);
            sorts.extend(
                sorts_for(model, &then, &advised, &census, &mut sorted_groups).unwrap_or_default(),
            );
            let view = if shape.filter == "()" {
                short_name(shape.query)
            } else {
                format!("{} + {}", short_name(shape.query), short_name(shape.filter))
            };
            advice_views.push(ViewAdvice {
                system: short_name(systems[*system].0),
                view,
                matches: model.matches,
                added: then.added.iter().map(|&s| name(s)).collect(),
                now: Walk { estimate: now },
                advised: Walk { estimate: then },
            });
        }
        let groups = lists
            .into_iter()
            .map(|types| types.into_iter().map(name).collect())
            .collect();
        Advice {
            systems: systems.len(),
            entities: census.entities(),
            kinds: census.kinds.len(),
            groups,
            kept,
            sorts,
            views: advice_views,
        }
    }
}

/// Whether the lists `a` and `b` (without repeats) hold the same storages.
fn same_set(a: &[usize], b: &[usize]) -> bool {
    a.len() == b.len() && a.iter().all(|s| b.contains(s))
}

/// The search's model of the view `shape`.
fn model_of(census: &Census, shape: &ViewShape) -> ViewModel {
    let storages = census.storages();
    let required: Option<Types> = shape
        .needs
        .leaves
        .iter()
        .chain(&shape.needs.filters)
        .filter(|(_, required)| *required)
        .map(|(id, _)| census.index(*id))
        .collect::<Option<Vec<usize>>>()
        .map(|list| Types::of(storages, list));
    let excluded = Types::of(
        storages,
        shape
            .needs
            .filters
            .iter()
            .filter(|(_, with)| !with)
            .filter_map(|(id, _)| census.index(*id)),
    );
    // A type the view reads as an `Option` is never advised as required: the view asks
    // for entities without it too.
    let optional = Types::of(
        storages,
        shape
            .needs
            .leaves
            .iter()
            .filter(|(_, required)| !required)
            .filter_map(|(id, _)| census.index(*id)),
    );
    let (closure, matches) = match &required {
        Some(required) => (
            census
                .closure(required, &excluded)
                .difference(&optional)
                .union(required),
            census.count(required, &excluded),
        ),
        None => (Types::empty(storages), 0),
    };
    ViewModel {
        needs: shape.needs.clone(),
        changes: shape.changes,
        required,
        closure,
        matches,
    }
}

/// The groups `chosen`, each as its storages with the types of outer groups first, chains
/// together and outer groups before the groups nested in them.
fn ordered(chosen: &[Types], storages: usize) -> Vec<Vec<usize>> {
    let depth = |s: usize| chosen.iter().filter(|g| g.contains(s)).count();
    let mut lists: Vec<Vec<usize>> = chosen
        .iter()
        .map(|group| {
            let mut types: Vec<usize> = group.iter().collect();
            types.sort_by_key(|&s| (core::cmp::Reverse(depth(s)), s));
            types
        })
        .collect();
    lists.sort();
    debug_assert!(lists.iter().all(|l| l.iter().all(|&s| s < storages)));
    lists
}

/// The sorts that make the lookups of `model`'s advised walk go forward, when a group
/// drives it and looks up a storage that another chain of groups owns (none if either
/// group is sorted already):
///
/// ```text
/// sort_group_as::<G, T>()   the driving group G in the order of T's storage: each
///                           lookup of T is further on than the last
/// sort_group_as::<H, U>()   the outermost group H owning T in the order of U, a type
///                           G owns: within each layer of H, G's members come first, in
///                           G's order, so the lookups are runs of neighbours
/// ```
fn sorts_for(
    model: &ViewModel,
    walk: &Estimate,
    layout: &[GroupModel<'_>],
    census: &Census,
    sorted: &mut Vec<usize>,
) -> Option<Vec<String>> {
    if walk.dense || !walk.by_group {
        return None;
    }
    let storages = census.storages();
    let required = model.required.as_ref()?;
    let named = required.union(&Types::of(storages, walk.added.iter().copied()));
    let driver = layout.iter().position(|g| {
        g.members.is_none()
            && !g.owned.is_empty()
            && g.observed.is_empty()
            && g.excluded.is_empty()
            && Types::of(storages, g.owned.iter().copied()).is_subset(&named)
            && census.count(
                &Types::of(storages, g.owned.iter().copied()),
                &Types::empty(storages),
            ) == walk.walked
    })?;
    if sorted.contains(&driver) {
        return None;
    }
    let group = &layout[driver];
    let chain = |s: usize| {
        layout
            .iter()
            .any(|g| g.owned.contains(&s) && g.owned.iter().any(|t| group.owned.contains(t)))
    };
    let looked_up = model
        .needs
        .leaves
        .iter()
        .filter(|(_, required)| *required)
        .filter_map(|(id, _)| census.index(*id))
        .find(|&s| !group.owned.contains(&s) && !chain(s))?;
    sorted.push(driver);
    let name = |s: usize| short_name(census.keys[s].name());
    let key = |g: &GroupModel<'_>| {
        let types: Vec<String> = g.owned.iter().map(|&s| name(s)).collect();
        format!("({})", types.join(", "))
    };
    let mut sorts = vec![format!(
        "sort_group_as::<{}, {}>()",
        key(group),
        name(looked_up)
    )];
    // The outermost owning group of the looked-up storage, if no sort claimed it.
    let outer = layout
        .iter()
        .enumerate()
        .filter(|(_, g)| {
            g.members.is_none()
                && g.observed.is_empty()
                && g.excluded.is_empty()
                && g.owned.contains(&looked_up)
        })
        .min_by_key(|(_, g)| g.owned.len())
        .map(|(i, _)| i);
    if let Some(outer) = outer
        && !sorted.contains(&outer)
    {
        sorted.push(outer);
        sorts.push(format!(
            "sort_group_as::<{}, {}>()",
            key(&layout[outer]),
            name(group.owned[0])
        ));
    }
    Some(sorts)
}

impl fmt::Display for Advice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "layout advice for {} systems over {} entities of {} kinds",
            self.systems, self.entities, self.kinds
        )?;
        if self.groups.is_empty() {
            writeln!(f, "groups: none to add")?;
        } else {
            writeln!(
                f,
                "groups (on a #[world]; on the run-time World, World::with_groups or world.regroup):"
            )?;
            for (attribute, spec) in self.group_attributes().iter().zip(self.group_specs()) {
                writeln!(f, "    {attribute:<40} {spec}")?;
            }
        }
        for kept in &self.kept {
            writeln!(f, "    {kept} (named by a system: kept)")?;
        }
        let widened: Vec<&ViewAdvice> = self.views.iter().filter(|v| !v.added.is_empty()).collect();
        if !widened.is_empty() {
            writeln!(
                f,
                "views to name more types with With (every entity they match holds them now):"
            )?;
            for v in widened {
                let with: Vec<String> = v.added.iter().map(|t| format!("With<{t}>")).collect();
                writeln!(f, "    {}: {} + {}", v.system, v.view, with.join(", "))?;
            }
        }
        if !self.sorts.is_empty() {
            writeln!(
                f,
                "sorts to run after spawning (in this order; on the run-time World each returns a Result):"
            )?;
            for sort in &self.sorts {
                writeln!(f, "    world.{sort};")?;
            }
        }
        writeln!(f, "walks, now -> advised:")?;
        let describe = |walk: &Walk, matches: usize| {
            if walk.walked() == 0 {
                "nothing to walk".to_string()
            } else if walk.is_dense() {
                format!("dense, {} entities", walk.walked())
            } else {
                format!(
                    "{} walked ({}% match), {} lookups each",
                    walk.walked(),
                    (matches as u64 * 100 / walk.walked() as u64).min(100),
                    walk.lookups()
                )
            }
        };
        for v in &self.views {
            writeln!(
                f,
                "    {} {}: {} -> {}",
                v.system,
                v.view,
                describe(&v.now, v.matches),
                describe(&v.advised, v.matches)
            )?;
        }
        writeln!(
            f,
            "expected: {:.2}x the speed of the walks now (a model: a lookup costs {} reads by position, a filter test {}); measure it",
            self.expected_speedup(),
            search::LOOKUP,
            search::TEST
        )
    }
}
