//! Bulk changes: `insert_many`, `remove_many`, `destroy_many`, `clear`, `retain` and
//! `retain_component`.

use std::any::TypeId;

use sparse_core::{Borrow, Entity, Exclude, Filter, Get, Query, View, With, Without, World};

use crate::components::{
    A, B, C, Comps, D, E, F, G, H, I, J, K, L, M, N, NAMES, O, TYPES, Val, Write, touch,
};
use crate::groups::{GROUPS, Grp};
use crate::harness::Harness;
use crate::ops::Target;
use crate::views::{RETAIN_COMPONENTS, RETAIN_VIEWS, VIEWS};
use crate::world_calls::group_entities;

/// Whether `retain` keeps an item with `comps`: their sum (with `seed`) is no multiple
/// of 6.
fn keep(comps: &Comps, seed: u32) -> bool {
    let sum: u64 = comps.iter().flatten().map(|&v| u64::from(v)).sum();
    !(sum + u64::from(seed)).is_multiple_of(6)
}

/// `retain::<Q>`, adding `seed` to the `writes` leaves; returns the number destroyed and
/// each visited entity with its item's values (after the change).
fn retain_by<Q: Query, F: Filter + 'static>(
    world: &mut World,
    writes: &[usize],
    seed: u32,
) -> Result<(usize, Vec<(Entity, Comps)>), String>
where
    for<'w> View<'w, Q>: Borrow<'w, World>,
    for<'a> Q::Item<'a>: Write,
{
    ensure!(
        TypeId::of::<F>() == TypeId::of::<()>(),
        "retain takes an unfiltered view"
    );
    let mut seen = Vec::new();
    let destroyed = world
        .retain::<Q>(|e, item| {
            let comps = touch(item, writes, seed);
            seen.push((e, comps));
            keep(&comps, seed)
        })
        .map_err(|e| format!("retain: {e}"))?;
    Ok((destroyed, seen))
}

/// Runs `$body` with `$T` and `$Q` the component and the query of `RETAIN_COMPONENTS[$kind]`
/// (the query is `VIEWS[view]`'s, which the walk's check compares against): only the listed
/// pairs are compiled, where `with_type!` around `with_view!` compiled all 315.
macro_rules! with_retain_component {
    ($kind:expr, $T:ident, $Q:ident => $body:expr) => {
        match $kind {
            0 => {
                type $T = K;
                type $Q = (&'static mut K,);
                $body
            }
            1 => {
                type $T = C;
                type $Q = (Option<&'static mut C>, &'static mut A, &'static B);
                $body
            }
            2 => {
                type $T = A;
                type $Q = (&'static mut A, &'static B);
                $body
            }
            3 => {
                type $T = O;
                type $Q = (&'static mut O, Option<&'static mut K>, &'static E);
                $body
            }
            4 => {
                type $T = N;
                type $Q = (&'static M, &'static mut B, Option<&'static mut N>);
                $body
            }
            _ => {
                type $T = G;
                type $Q = (&'static mut E, &'static F, &'static mut G, &'static H);
                $body
            }
        }
    };
}

/// `retain_component::<T, Q>`, as `retain_by`; returns the number removed.
fn retain_component_by<T: Val, Q: Query, F: Filter + 'static>(
    world: &mut World,
    writes: &[usize],
    seed: u32,
) -> Result<(usize, Vec<(Entity, Comps)>), String>
where
    for<'w> View<'w, Q>: Borrow<'w, World>,
    for<'a> Q::Item<'a>: Write,
{
    ensure!(
        TypeId::of::<F>() == TypeId::of::<()>(),
        "retain_component takes an unfiltered view"
    );
    let mut seen = Vec::new();
    let removed = world
        .retain_component::<T, Q>(|e, item| {
            let comps = touch(item, writes, seed);
            seen.push((e, comps));
            keep(&comps, seed)
        })
        .map_err(|e| format!("retain_component: {e}"))?;
    Ok((removed, seen))
}

/// `insert_many` of `T`s; a refusal gives the dead entity and the items handed back.
pub(crate) fn insert_batch<T: Val>(
    world: &mut World,
    items: &[(Entity, u32)],
) -> Result<usize, (Entity, Vec<(Entity, u32)>)> {
    world
        .insert_many(items.iter().map(|&(e, v)| (e, T::new(v))))
        .map_err(|err| {
            let items = err.items.into_iter().map(|(e, v)| (e, v.get())).collect();
            (err.dead, items)
        })
}

fn remove_batch<T: Val>(world: &mut World, entities: &[Entity]) -> usize {
    world.remove_many::<T>(entities)
}

pub(crate) fn clear<T: Val>(world: &mut World) {
    world.clear::<T>();
}

impl Harness {
    /// The entity order of every storage, then of every group (first spelling).
    fn orders(&mut self) -> Result<Vec<Vec<Entity>>, String> {
        let mut orders = self.layout();
        for group in GROUPS {
            let entities = with_group!(group, 0, Key => group_entities::<Key>(&mut self.world))
                .map_err(|e| e.to_string())?;
            orders.push(entities);
        }
        Ok(orders)
    }

    /// Checks that destroying `doomed` kept every survivor's order in every storage and
    /// group (`before`: `orders()` before).
    fn check_survivors(&mut self, before: &[Vec<Entity>], doomed: &[Entity]) -> Result<(), String> {
        let after = self.orders()?;
        for (i, (b, a)) in before.iter().zip(&after).enumerate() {
            let want: Vec<Entity> = b.iter().copied().filter(|e| !doomed.contains(e)).collect();
            let name = match i.checked_sub(TYPES) {
                None => format!("storage {}", NAMES[i]),
                Some(g) => format!("group {:?}", GROUPS[g]),
            };
            ensure!(
                *a == want,
                "{name}: survivors of destroying {doomed:?} moved: {b:?} -> {a:?}"
            );
        }
        Ok(())
    }

    /// The entities and values of an `insert_many` batch.
    pub(crate) fn batch_items(
        &self,
        items: &[(Target, u32)],
        repeats: &[(usize, u32)],
        poison: Option<(usize, Target)>,
    ) -> Vec<(Entity, u32)> {
        let mut batch: Vec<(Entity, u32)> =
            items.iter().map(|&(t, v)| (self.resolve(t), v)).collect();
        for &(i, v) in repeats {
            let e = batch[i % batch.len()].0;
            batch.push((e, v));
        }
        if let Some((at, target)) = poison {
            batch.insert(at % (batch.len() + 1), (self.resolve(target), 7));
        }
        batch
    }

    /// The entities of a `remove_many` or `destroy_many` batch.
    pub(crate) fn batch_targets(&self, targets: &[Target], repeats: &[usize]) -> Vec<Entity> {
        let mut batch: Vec<Entity> = targets.iter().map(|&t| self.resolve(t)).collect();
        for &i in repeats {
            batch.push(batch[i % batch.len()]);
        }
        batch
    }

    pub(crate) fn insert_batch_op(
        &mut self,
        ty: usize,
        items: &[(Target, u32)],
        repeats: &[(usize, u32)],
        poison: Option<(usize, Target)>,
    ) -> Result<(), String> {
        let batch = self.batch_items(items, repeats, poison);
        let got = dispatch!(ty, insert_batch(&mut self.world, &batch));
        match batch.iter().find(|(e, _)| !self.model.contains_key(e)) {
            Some(&(dead, _)) => ensure!(
                got == Err((dead, batch.clone())),
                "insert_many {} of {batch:?} (dead {dead:?}): {got:?}",
                NAMES[ty]
            ),
            None => {
                let mut added = 0;
                for &(e, v) in &batch {
                    let comps = self.model.get_mut(&e).expect("alive");
                    added += usize::from(comps[ty].replace(v).is_none());
                }
                ensure!(
                    got == Ok(added),
                    "insert_many {} of {batch:?}: {got:?}, want {added} added",
                    NAMES[ty]
                );
            }
        }
        Ok(())
    }

    pub(crate) fn remove_batch_op(
        &mut self,
        ty: usize,
        targets: &[Target],
        repeats: &[usize],
    ) -> Result<(), String> {
        let batch = self.batch_targets(targets, repeats);
        let got = dispatch!(ty, remove_batch(&mut self.world, &batch));
        let mut want = 0;
        for e in &batch {
            if let Some(comps) = self.model.get_mut(e) {
                want += usize::from(comps[ty].take().is_some());
            }
        }
        ensure!(
            got == want,
            "remove_many {} of {batch:?}: {got}, want {want}",
            NAMES[ty]
        );
        Ok(())
    }

    pub(crate) fn destroy_batch_op(
        &mut self,
        targets: &[Target],
        repeats: &[usize],
    ) -> Result<(), String> {
        let batch = self.batch_targets(targets, repeats);
        let before = self.orders()?;
        let got = self.world.destroy_many(&batch);
        let mut doomed = Vec::new();
        for &e in &batch {
            if self.model.contains_key(&e) {
                self.model_destroy(e);
                doomed.push(e);
            }
        }
        ensure!(
            got == doomed.len(),
            "destroy_many of {batch:?}: {got}, want {}",
            doomed.len()
        );
        self.check_survivors(&before, &doomed)
    }

    pub(crate) fn retain_op(&mut self, kind: usize, seed: u32) -> Result<(), String> {
        let kind = RETAIN_VIEWS[kind];
        let spec = &VIEWS[kind];
        ensure!(spec.unfiltered(), "retain view {kind} has a filter");
        let before = self.orders()?;
        let (got, seen) =
            with_view!(kind, Vq, Vf => retain_by::<Vq, Vf>(&mut self.world, spec.writes, seed))?;
        self.check_walk(&format!("retain over view {kind}"), spec, &seen, seed)?;
        let doomed: Vec<Entity> = seen
            .iter()
            .filter(|(_, comps)| !keep(comps, seed))
            .map(|&(e, _)| e)
            .collect();
        for &e in &doomed {
            self.model_destroy(e);
        }
        ensure!(
            got == doomed.len(),
            "retain over view {kind} destroyed {got}, want {}",
            doomed.len()
        );
        self.check_survivors(&before, &doomed)
    }

    pub(crate) fn retain_component_op(&mut self, kind: usize, seed: u32) -> Result<(), String> {
        let (ty, view) = RETAIN_COMPONENTS[kind];
        let spec = &VIEWS[view];
        ensure!(
            spec.unfiltered(),
            "retain_component view {view} has a filter"
        );
        let (got, seen) = with_retain_component!(kind, T, Vq => {
            ensure!(T::IDX == ty, "retain_component pair {kind} names type {}", T::IDX);
            retain_component_by::<T, Vq, ()>(&mut self.world, spec.writes, seed)
        })?;
        let name = format!("retain_component::<{}> over view {view}", NAMES[ty]);
        self.check_walk(&name, spec, &seen, seed)?;
        let mut want = 0;
        for (e, comps) in &seen {
            if !keep(comps, seed) {
                let model = self.model.get_mut(e).expect("alive");
                want += usize::from(model[ty].take().is_some());
            }
        }
        ensure!(got == want, "{name} removed {got}, want {want}");
        Ok(())
    }
}
