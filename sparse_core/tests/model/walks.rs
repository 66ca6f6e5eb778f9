//! Views and groups walked in every style, and the checks of what they visited against the
//! model.

#[cfg(feature = "rayon")]
use std::collections::HashMap;

use sparse_core::{
    AccessError, Borrow, Entity, Exclude, Filter, Get, GroupMut, GroupRef, Query, ReadOnly,
    ReadOnlyQuery, View, With, Without, World,
};

use crate::components::{
    A, B, C, Comps, D, E, F, G, H, I, J, K, L, M, N, O, Read, TYPES, Write, comps_of, only, touch,
};
use crate::groups::{Grp, ModelKey};
use crate::harness::{Harness, sorted};
use crate::ops::Target;
use crate::views::{Dense, READ_VIEWS, VIEWS, ViewSpec};
use crate::world_calls::{group_entities, storage_order};

/// What a view did.
struct ViewRun {
    dense: bool,
    hint: usize,
    /// The probe's item (looked up before the walk) and whether the view contains it.
    probe: (Option<Comps>, bool),
    /// Each visited entity with its item's values (after the change), in order.
    visited: Vec<(Entity, Comps)>,
}

/// The ways of walking a view (with the `rayon` feature, `par_for_each` too).
pub(crate) const VIEW_STYLES: usize = if cfg!(feature = "rayon") { 5 } else { 4 };
/// The ways of iterating a group (with the `rayon` feature, both `par_for_each`s too).
pub(crate) const GROUP_STYLES: usize = if cfg!(feature = "rayon") { 10 } else { 8 };

/// What a parallel loop visited, put back in the order of `order` (the walk's or the
/// group's): the checks then hold it to the order of a serial loop.
#[cfg(feature = "rayon")]
fn in_order(
    visited: std::sync::Mutex<Vec<(Entity, Comps)>>,
    order: &[Entity],
) -> Vec<(Entity, Comps)> {
    let rank: HashMap<Entity, usize> = order.iter().enumerate().map(|(i, &e)| (e, i)).collect();
    let mut visited = visited.into_inner().expect("no walk panicked");
    visited.sort_by_key(|(e, _)| rank.get(e).copied());
    visited
}

/// Borrows view `View<Q, F>` through `&mut`, looks `probe` up, then walks it in style
/// `style`, adding `delta` to each of the `writes` leaves.
fn view_mut<Q: Query, F: Filter>(
    world: &mut World,
    style: usize,
    writes: &[usize],
    delta: u32,
    probe: Entity,
) -> Result<ViewRun, String>
where
    for<'w> View<'w, Q, F>: Borrow<'w, World>,
    for<'a> Q::Item<'a>: Write,
{
    let mut view = world
        .borrow::<View<Q, F>>()
        .map_err(|e| format!("borrow: {e}"))?;
    let (dense, hint) = (view.is_dense(), view.len_hint());
    ensure!(
        view.walked().len() == hint,
        "walked {} entities, len_hint {hint}",
        view.walked().len()
    );
    let item = view.get(probe).map(|item| comps_of(&item));
    let probe = (item, view.contains(probe));
    let mut visited = Vec::new();
    match style {
        0 => {
            for (e, item) in view {
                visited.push((e, touch(item, writes, delta)));
            }
        }
        1 => {
            for (e, item) in &mut view {
                visited.push((e, touch(item, writes, delta)));
            }
            ensure!(view.len_hint() == hint, "the walk changed while iterating");
        }
        2 => {
            let mut iter = view.iter_mut();
            loop {
                let left = hint - visited.len();
                let (low, high) = iter.size_hint();
                ensure!(
                    high.is_some_and(|h| h <= left)
                        && (!dense || high == Some(left))
                        && low == if dense { left } else { 0 },
                    "ViewIter::size_hint ({low}, {high:?}) after {} of {hint} (dense: {dense})",
                    visited.len()
                );
                let Some((e, item)) = iter.next() else { break };
                visited.push((e, touch(item, writes, delta)));
            }
            ensure!(iter.next().is_none(), "ViewIter is not fused");
        }
        #[cfg(feature = "rayon")]
        4 => {
            let (walked, out) = (view.walked(), std::sync::Mutex::new(Vec::new()));
            view.par_for_each(|e, item| {
                let comps = touch(item, writes, delta);
                out.lock().expect("no walk panicked").push((e, comps));
            });
            visited = in_order(out, walked);
        }
        _ => view.for_each(|e, item| visited.push((e, touch(item, writes, delta)))),
    }
    Ok(ViewRun {
        dense,
        hint,
        probe,
        visited,
    })
}

/// A read-only view `View<Q, F>`: through `borrow_ref`, looked up at `probe`, walked
/// through `&view` (style 0), `iter` next to a second view (1), by value (2), by
/// `par_for_each` (4, feature `rayon`); or through `borrow` and `for_each` (3).
fn view_read<Q: ReadOnlyQuery, F: Filter>(
    world: &mut World,
    style: usize,
    probe: Entity,
) -> Result<ViewRun, String>
where
    for<'w> View<'w, Q, F>: Borrow<'w, World> + ReadOnly,
    for<'a> Q::Item<'a>: Read,
{
    let mut visited = Vec::new();
    if style == 3 {
        let mut view = world
            .borrow::<View<Q, F>>()
            .map_err(|e| format!("borrow: {e}"))?;
        let (dense, hint) = (view.is_dense(), view.len_hint());
        let item = view.get(probe).map(|item| comps_of(&item));
        let probe = (item, view.contains(probe));
        view.for_each(|e, item| visited.push((e, comps_of(&item))));
        return Ok(ViewRun {
            dense,
            hint,
            probe,
            visited,
        });
    }
    let world: &World = world;
    let mut view = world
        .borrow_ref::<View<Q, F>>()
        .map_err(|e| format!("borrow_ref: {e}"))?;
    let (dense, hint) = (view.is_dense(), view.len_hint());
    let item = view.get(probe).map(|item| comps_of(&item));
    let probe = (item, view.contains(probe));
    match style {
        0 => {
            for (e, item) in &view {
                visited.push((e, comps_of(&item)));
            }
        }
        1 => {
            // Any number of read-only views at once.
            let again = world
                .borrow_ref::<View<Q, F>>()
                .map_err(|e| format!("second borrow_ref: {e}"))?;
            for (e, item) in view.iter() {
                visited.push((e, comps_of(&item)));
            }
            let walks = again.iter().map(|(e, _)| e);
            ensure!(
                walks.eq(visited.iter().map(|&(e, _)| e)),
                "two read-only views walk differently"
            );
        }
        #[cfg(feature = "rayon")]
        4 => {
            let (walked, out) = (view.walked(), std::sync::Mutex::new(Vec::new()));
            view.par_for_each(|e, item| {
                let comps = comps_of(&item);
                out.lock().expect("no walk panicked").push((e, comps));
            });
            visited = in_order(out, walked);
        }
        _ => {
            for (e, item) in view {
                visited.push((e, comps_of(&item)));
            }
        }
    }
    Ok(ViewRun {
        dense,
        hint,
        probe,
        visited,
    })
}

/// What iterating a group did.
struct GroupRun {
    /// `len()` and `entities()` before the walk.
    len: usize,
    entities: Vec<Entity>,
    /// Each visited entity with its item's values (after the change), in order.
    visited: Vec<(Entity, Comps)>,
    /// Whether `delta` was added (mutable walks).
    mutated: bool,
}

/// Iterates group `K` in style `style` (see `Op::GroupIter`), adding `delta` to the
/// component of index `ty` in the mutable styles.
fn group_iter<K: ModelKey>(
    world: &mut World,
    style: usize,
    ty: usize,
    delta: u32,
) -> Result<GroupRun, String> {
    let err = |e: AccessError| e.to_string();
    let mut visited = Vec::new();
    let mut mutated = false;
    let (len, entities) = match style {
        0 => {
            let group = world.group::<K>().map_err(err)?;
            let (len, entities) = (group.len(), group.entities().to_vec());
            let iter = group.into_iter();
            ensure!(iter.len() == len, "GroupIter::len {} of {len}", iter.len());
            for (e, item) in iter {
                visited.push((e, K::item_bump(item, ty, delta)));
            }
            mutated = true;
            (len, entities)
        }
        1 => {
            let mut group = world.group::<K>().map_err(err)?;
            let (len, entities) = (group.len(), group.entities().to_vec());
            for (e, item) in &mut group {
                visited.push((e, K::item_bump(item, ty, delta)));
            }
            ensure!(
                group.len() == len && group.entities() == entities,
                "the group changed while iterating"
            );
            mutated = true;
            (len, entities)
        }
        2 => {
            let group = world.group::<K>().map_err(err)?;
            for (e, item) in &group {
                visited.push((e, K::item_vals(item)));
            }
            (group.len(), group.entities().to_vec())
        }
        3 => {
            let mut group = world.group::<K>().map_err(err)?;
            let (len, entities) = (group.len(), group.entities().to_vec());
            let mut iter = group.iter_mut();
            loop {
                let left = len - visited.len();
                ensure!(
                    iter.len() == left && iter.size_hint() == (left, Some(left)),
                    "GroupIter::len {} with {left} left",
                    iter.len()
                );
                let Some((e, item)) = iter.next() else { break };
                visited.push((e, K::item_bump(item, ty, delta)));
            }
            ensure!(iter.next().is_none(), "GroupIter is not fused");
            mutated = true;
            (len, entities)
        }
        4 => {
            let group = world.group_ref::<K>().map_err(err)?;
            let (len, entities) = (group.len(), group.entities().to_vec());
            let iter = group.into_iter();
            ensure!(
                iter.len() == len,
                "GroupRefIter::len {} of {len}",
                iter.len()
            );
            for (e, item) in iter {
                visited.push((e, K::item_vals(item)));
            }
            (len, entities)
        }
        5 => {
            let group = world.group_ref::<K>().map_err(err)?;
            let copy = group.clone();
            for (e, item) in &group {
                visited.push((e, K::item_vals(item)));
            }
            let mut order = Vec::new();
            copy.for_each(|e, _| order.push(e));
            ensure!(
                order.iter().eq(visited.iter().map(|(e, _)| e)),
                "GroupRef::for_each visited {order:?}"
            );
            ensure!(
                group.iter().len() == group.len() && group.is_empty() == (group.iter().len() == 0),
                "GroupRef::iter().len()"
            );
            (copy.len(), copy.entities().to_vec())
        }
        6 => {
            let group = world.borrow_ref::<GroupRef<K>>().map_err(err)?;
            let (entities, slices) = group.slices();
            let lens = K::ref_slice_lens(&slices);
            ensure!(
                lens.iter().all(|&l| l == entities.len()),
                "GroupRef::slices of {} entities have lengths {lens:?}",
                entities.len()
            );
            for (i, (e, item)) in group.iter().enumerate() {
                let values = K::item_vals(item);
                let owned = K::ref_slice_vals(&slices, i);
                ensure!(
                    entities[i] == e
                        && (0..TYPES).all(|t| owned[t].is_none() || owned[t] == values[t]),
                    "GroupRef::slices at {i}: {e:?}'s item {values:?}, slices {:?} {owned:?}",
                    entities[i]
                );
                visited.push((e, values));
            }
            (group.len(), entities.to_vec())
        }
        #[cfg(feature = "rayon")]
        8 => {
            let group = world.group::<K>().map_err(err)?;
            let (len, entities) = (group.len(), group.entities().to_vec());
            let out = std::sync::Mutex::new(Vec::new());
            group.par_for_each(|e, item| {
                let comps = K::item_bump(item, ty, delta);
                out.lock().expect("no walk panicked").push((e, comps));
            });
            visited = in_order(out, &entities);
            mutated = true;
            (len, entities)
        }
        #[cfg(feature = "rayon")]
        9 => {
            let group = world.group_ref::<K>().map_err(err)?;
            let out = std::sync::Mutex::new(Vec::new());
            group.par_for_each(|e, item| {
                let comps = K::item_vals(item);
                out.lock().expect("no walk panicked").push((e, comps));
            });
            visited = in_order(out, group.entities());
            (group.len(), group.entities().to_vec())
        }
        _ => {
            let group = world.borrow::<GroupMut<K>>().map_err(err)?;
            let shared = group.as_ref();
            ensure!(
                shared.len() == group.len() && shared.entities() == group.entities(),
                "GroupMut::as_ref"
            );
            for (e, item) in group.iter() {
                visited.push((e, K::item_vals(item)));
            }
            (group.len(), group.entities().to_vec())
        }
    };
    Ok(GroupRun {
        len,
        entities,
        visited,
        mutated,
    })
}

impl Harness {
    /// What a dense view must walk, read from the world before the view is taken.
    fn dense_order(&mut self, dense: Dense) -> Result<Option<Vec<Entity>>, String> {
        Ok(match dense {
            Dense::Group(group, inner) => {
                let entities = with_group!(group, 0, Key => group_entities::<Key>(&mut self.world))
                    .map_err(|e| e.to_string())?;
                let skip = inner.map_or(0, |g| self.members(g).len());
                ensure!(skip <= entities.len(), "{inner:?} is longer than {group:?}");
                Some(entities[skip..].to_vec())
            }
            Dense::Storage(ty) => Some(dispatch!(ty, storage_order(&self.world))),
            Dense::No => None,
        })
    }

    /// Checks a walk against the model: it visited each match of `spec` once, with the
    /// values of its leaves after adding `delta` to its `&mut` leaves (done in the model
    /// too). Returns the matches.
    pub(crate) fn check_walk(
        &mut self,
        name: &str,
        spec: &ViewSpec,
        visited: &[(Entity, Comps)],
        delta: u32,
    ) -> Result<Vec<Entity>, String> {
        let matches = self.model.iter().filter(|(_, c)| spec.matches(c));
        let matches = sorted(matches.map(|(&e, _)| e).collect());
        let got = sorted(visited.iter().map(|&(e, _)| e).collect());
        ensure!(got == matches, "{name} visited {got:?}, want {matches:?}");
        let leaves = spec.leaves();
        for (e, comps) in visited {
            let model = self.model.get_mut(e).expect("a match is alive");
            for &t in spec.writes {
                model[t] = model[t].map(|v| v.wrapping_add(delta));
            }
            let want = only(model, &leaves);
            ensure!(
                *comps == want,
                "{name}: {e:?}'s item is {comps:?}, want {want:?}"
            );
        }
        Ok(matches)
    }

    /// Checks what a view did against the model (see `check_walk`), and its probe, length
    /// hint, density and (dense) order.
    fn check_view(
        &mut self,
        name: &str,
        spec: &ViewSpec,
        probe: Entity,
        run: ViewRun,
        order: Option<Vec<Entity>>,
        delta: u32,
    ) -> Result<(), String> {
        let want = self
            .model
            .get(&probe)
            .filter(|c| spec.matches(c))
            .map(|c| only(c, &spec.leaves()));
        ensure!(
            run.probe == (want, want.is_some()),
            "{name}: get/contains({probe:?}) gave {:?}, want {want:?}",
            run.probe
        );
        let most = spec
            .required
            .iter()
            .chain(spec.with)
            .map(|&t| self.count(t))
            .min()
            .expect("a view requires a type");
        let matches = self.check_walk(name, spec, &run.visited, delta)?;
        let hint = run.hint;
        ensure!(
            (matches.len()..=most).contains(&hint),
            "{name}: len_hint {hint}, want {}..={most}",
            matches.len()
        );
        // Groups make the views the spec names dense; storages that share the driver's
        // order (spawned together, untouched since) make others dense too, which the
        // values, the walk's order and the length below check.
        let dense = !matches!(spec.dense, Dense::No);
        ensure!(
            run.dense || !dense,
            "{name}: is_dense is {}, want {dense}",
            run.dense
        );
        ensure!(
            !run.dense || hint == matches.len(),
            "{name}: a dense view's len_hint {hint} is not its {} matches",
            matches.len()
        );
        if let Some(order) = order {
            let got: Vec<Entity> = run.visited.iter().map(|&(e, _)| e).collect();
            ensure!(
                got == order,
                "{name} ({:?}) walked {got:?}, want {order:?}",
                spec.dense
            );
        }
        Ok(())
    }

    pub(crate) fn view_op(
        &mut self,
        kind: usize,
        style: usize,
        delta: u32,
        probe: Target,
    ) -> Result<(), String> {
        let spec = &VIEWS[kind];
        let order = self.dense_order(spec.dense)?;
        let probe = self.resolve(probe);
        let run = with_view!(kind, Vq, Vf => {
            view_mut::<Vq, Vf>(&mut self.world, style, spec.writes, delta, probe)
        })
        .map_err(|e| format!("view {kind}: {e}"))?;
        self.check_view(
            &format!("view {kind} (style {style})"),
            spec,
            probe,
            run,
            order,
            delta,
        )
    }

    pub(crate) fn view_ref_op(
        &mut self,
        kind: usize,
        style: usize,
        probe: Target,
    ) -> Result<(), String> {
        let spec = &READ_VIEWS[kind];
        let order = self.dense_order(spec.dense)?;
        let probe = self.resolve(probe);
        let run =
            with_read_view!(kind, Vq, Vf => view_read::<Vq, Vf>(&mut self.world, style, probe))
                .map_err(|e| format!("read-only view {kind}: {e}"))?;
        self.check_view(
            &format!("read-only view {kind} (style {style})"),
            spec,
            probe,
            run,
            order,
            0,
        )
    }

    pub(crate) fn group_iter_op(
        &mut self,
        group: Grp,
        spelling: usize,
        style: usize,
        ty: usize,
        delta: u32,
    ) -> Result<(), String> {
        let required = group.required();
        let ty = required[ty % required.len()];
        let run = with_group!(group, spelling, Key => group_iter::<Key>(&mut self.world, style, ty, delta))
            .map_err(|e| format!("group {group:?} (style {style}): {e}"))?;
        let members = self.members(group);
        ensure!(
            run.len == members.len() && sorted(run.entities.clone()) == members,
            "group {group:?} has {} entities {:?}, model {members:?}",
            run.len,
            run.entities
        );
        let order: Vec<Entity> = run.visited.iter().map(|&(e, _)| e).collect();
        ensure!(
            order == run.entities,
            "iterating {group:?} (style {style}) visited {order:?}, its entities are {:?}",
            run.entities
        );
        for (e, comps) in &run.visited {
            let model = self.model.get_mut(e).expect("member is alive");
            if run.mutated {
                model[ty] = model[ty].map(|v| v.wrapping_add(delta));
            }
            let want = only(model, &required);
            ensure!(
                *comps == want,
                "iterating {group:?} (style {style}): {e:?}'s item is {comps:?}, want {want:?}"
            );
        }
        Ok(())
    }

    /// Checks that `visited` holds each member of `group` once, in the group's order (as
    /// `orders` gives it, if given), with its owned and observed values after adding
    /// `delta` to the `writes` types (done in the model too).
    pub(crate) fn check_members(
        &mut self,
        name: &str,
        group: Grp,
        visited: &[(Entity, Comps)],
        writes: &'static [usize],
        delta: u32,
    ) -> Result<(), String> {
        let (owned, observed, _) = group.lists();
        let spec = ViewSpec {
            required: owned,
            optional: observed,
            with: observed,
            without: group.excluded(),
            writes,
            dense: Dense::No,
        };
        self.check_walk(name, &spec, visited, delta).map(drop)
    }
}
