//! The checks after each operation.
//!
//! After every operation the world must pass `World::check` and agree with the model on
//! liveness, every component value of every handle ever spawned, every storage's size, and,
//! for every group: its length, its entity set, the aligned values of its owned slices, the
//! owned and observed values `for_each` visits (each member once, in the group's order),
//! the prefix of each owned storage (owning groups), the same answers through another
//! spelling of its key, and the nesting of every nested pair (the inner group's entities
//! are the prefix of the outer group's). Failed and no-op operations must move nothing; a
//! group sort moves only the prefixes of the storages it must permute, and leaves every
//! layer between nested groups (or the member set of a non-owning group) sorted.

use std::cmp::Ordering;

use sparse_core::{AccessError, Entity, Exclude, Get, World};

use crate::components::{A, B, C, Comps, D, E, F, G, H, I, J, K, L, M, N, NAMES, O, TYPES, only};
use crate::groups::{GROUPS, Grp, index, owned_by_a_group};
use crate::harness::{Harness, sorted};
use crate::ops::{Op, SortKey, Target, key_of, order};
use crate::world_calls::{
    column, contains, get, group_entities, group_len, group_slices, iterate, storage_len,
};

impl Harness {
    /// How far `op` may reorder each storage: the length of the prefix it may permute
    /// (`usize::MAX`: all of it), the rest staying as it is; `None` if it may change the
    /// storages' contents. Failed and no-op structural changes (dead handles, absent
    /// components, replaced values) and value-only access move nothing; a sort moves what
    /// it sorts.
    pub(crate) fn movable(&self, op: &Op) -> Option<[usize; TYPES]> {
        let still = [0; TYPES];
        let has = |target: Target, ty: usize| {
            self.model
                .get(&self.resolve(target))
                .map(|c| c[ty].is_some())
        };
        match *op {
            Op::Insert { ty, target, .. } => (has(target, ty) != Some(false)).then_some(still),
            Op::InsertMany {
                ref types, target, ..
            } => types
                .iter()
                .all(|&ty| has(target, ty) != Some(false))
                .then_some(still),
            Op::Remove { ty, target } => (has(target, ty) != Some(true)).then_some(still),
            Op::Destroy { target } => has(target, 0).is_none().then_some(still),
            Op::SpawnBundles { .. } | Op::InsertTuple { .. } | Op::RemoveTuple { .. } => None,
            Op::Spawn
            | Op::Tick
            | Op::Reload
            | Op::GetMut { .. }
            | Op::Iterate { .. }
            | Op::ViewEo
            | Op::ViewOa
            | Op::ViewGet { .. }
            | Op::View { .. }
            | Op::ViewRef { .. }
            | Op::GroupIter { .. }
            | Op::Borrow { .. }
            | Op::Refused { .. } => Some(still),
            Op::InsertBatch {
                ty,
                ref items,
                ref repeats,
                poison,
            } => {
                // Refused, or replacing values only.
                let batch = self.batch_items(items, repeats, poison);
                let comps = |e: &Entity| self.model.get(e);
                let refused = batch.iter().any(|(e, _)| comps(e).is_none());
                let replaces = batch
                    .iter()
                    .all(|(e, _)| comps(e).is_some_and(|c| c[ty].is_some()));
                (refused || replaces).then_some(still)
            }
            Op::RemoveBatch {
                ty,
                ref targets,
                ref repeats,
            } => {
                let batch = self.batch_targets(targets, repeats);
                (!batch
                    .iter()
                    .any(|e| self.model.get(e).is_some_and(|c| c[ty].is_some())))
                .then_some(still)
            }
            Op::DestroyBatch {
                ref targets,
                ref repeats,
            } => {
                let batch = self.batch_targets(targets, repeats);
                (!batch.iter().any(|e| self.model.contains_key(e))).then_some(still)
            }
            Op::Commands { .. }
            | Op::Reserve { .. }
            | Op::Clear { .. }
            | Op::Retain { .. }
            | Op::RetainComponent { .. } => None,
            Op::Sort { ty, .. } => {
                let mut movable = still;
                if !owned_by_a_group(ty) {
                    movable[ty] = usize::MAX;
                }
                Some(movable)
            }
            Op::SortGroup { group, .. } => {
                // The group's owned storages over its length, the storages only inner
                // groups own over the outermost such group's length; nothing for a
                // non-owning group.
                let mut movable = still;
                for g in core::iter::once(group).chain(group.inner()) {
                    let len = self.members(g).len();
                    for &t in g.owned() {
                        movable[t] = movable[t].max(len);
                    }
                }
                Some(movable)
            }
        }
    }

    /// Checks one group against the model, through spelling `round` of its key and
    /// another spelling; returns its entities in order.
    fn check_group(
        &mut self,
        group: Grp,
        round: usize,
        layout: &[Vec<Entity>],
    ) -> Result<Vec<Entity>, String> {
        let spelling = round % group.spellings();
        let other = (round + 1) % group.spellings();
        let members = self.members(group);
        // The length, through the other spelling.
        let len = with_group!(group, other, Key => group_len::<Key>(&self.world))
            .map_err(|e| e.to_string())?;
        ensure!(
            len == members.len(),
            "group_len {group:?} (spelling {other}) is {len}, model {}",
            members.len()
        );
        // The entities and the owned slices: exactly the owned types, aligned.
        let entries = with_group!(group, spelling, Key => group_slices::<Key>(&mut self.world))?;
        let entities: Vec<Entity> = entries.iter().map(|&(e, _)| e).collect();
        let set = sorted(entities.clone());
        ensure!(
            set == members,
            "group {group:?} holds {entities:?}, model {members:?}"
        );
        for (e, comps) in &entries {
            let want = only(&self.model[e], group.owned());
            ensure!(
                *comps == want,
                "group {group:?}: slices of {e:?} hold {comps:?}, want {want:?}"
            );
        }
        // The members are the prefix of every owned storage.
        for &t in group.owned() {
            let storage = &layout[t];
            ensure!(
                storage.len() >= len && storage[..len] == entities[..],
                "group {group:?} {entities:?} is not the prefix of storage {} {storage:?}",
                NAMES[t]
            );
        }
        // `for_each` through the other spelling visits each member once, in the group's
        // order, with exactly its owned and observed values.
        let visited = with_group!(group, other, Key => iterate::<Key>(&mut self.world, TYPES, 0))
            .map_err(|e| e.to_string())?;
        let order: Vec<Entity> = visited.iter().map(|&(e, _)| e).collect();
        ensure!(
            order == entities,
            "for_each on {group:?} (spelling {other}) visited {order:?}, \
             entities (spelling {spelling}) are {entities:?}"
        );
        let required = group.required();
        for (e, comps) in &visited {
            let want = only(&self.model[e], &required);
            ensure!(
                *comps == want,
                "for_each on {group:?}: {e:?}'s item is {comps:?}, want {want:?}"
            );
        }
        Ok(entities)
    }

    /// Checks the whole world against the model. `round` rotates the costlier probes.
    /// `layout` is the entity order of every storage.
    pub(crate) fn check(&mut self, round: usize, layout: &[Vec<Entity>]) -> Result<(), String> {
        self.world.check()?;
        let alive = self.world.entities().len();
        ensure!(
            alive == self.model.len(),
            "{alive} alive entities, model has {}",
            self.model.len()
        );
        let (entities, wants): (Vec<Entity>, Vec<Comps>) =
            self.model.iter().map(|(e, c)| (*e, *c)).unzip();
        for &e in &entities {
            ensure!(self.world.is_alive(e), "alive {e:?}: is_alive is false");
        }
        for &e in &self.dead {
            ensure!(!self.world.is_alive(e), "destroyed {e:?}: is_alive is true");
        }
        // Every value of every handle ever spawned, read through each storage looked up
        // once: the alive ones agree with the model, the destroyed ones have nothing (their
        // indices may be reused by alive entities).
        for ty in 0..TYPES {
            let values = dispatch!(ty, column(&self.world, &entities));
            for ((&e, want), got) in entities.iter().zip(&wants).zip(values) {
                ensure!(
                    got == want[ty],
                    "{e:?}'s {} in its storage: got {got:?}, want {:?}",
                    NAMES[ty],
                    want[ty]
                );
            }
            let values = dispatch!(ty, column(&self.world, &self.dead));
            for (&e, got) in self.dead.iter().zip(values) {
                ensure!(
                    got.is_none(),
                    "destroyed {e:?} has the {} {got:?}",
                    NAMES[ty]
                );
            }
            let stored = wants.iter().filter(|c| c[ty].is_some()).count();
            let len = dispatch!(ty, storage_len(&self.world));
            ensure!(
                len == stored,
                "storage {} holds {len} components, model {stored}",
                NAMES[ty]
            );
        }
        // The world's per-entity accessors, one type per round (they look the storage up by
        // `TypeId` on every call).
        let ty = round % TYPES;
        let handles = entities.iter().zip(wants.iter().map(|c| c[ty]));
        for (&e, want) in handles.chain(self.dead.iter().map(|e| (e, None))) {
            let got = dispatch!(ty, get(&self.world, e));
            ensure!(
                got == want,
                "get::<{}>({e:?}): got {got:?}, want {want:?}",
                NAMES[ty]
            );
            let has = dispatch!(ty, contains(&self.world, e));
            ensure!(
                has == want.is_some(),
                "contains::<{}>({e:?}) is {has}",
                NAMES[ty]
            );
        }
        let mut slices: Vec<Vec<Entity>> = Vec::new();
        for group in GROUPS {
            slices.push(self.check_group(group, round, layout)?);
        }
        // Nesting: each inner group is the prefix of its outer group, in the same order.
        for &(outer, inner) in &self.nesting {
            let (o, i) = (&slices[index(outer)], &slices[index(inner)]);
            ensure!(
                o.len() >= i.len() && o[..i.len()] == i[..],
                "{inner:?} {i:?} is not the prefix of {outer:?} {o:?}"
            );
        }
        Ok(())
    }

    /// Checks that `group` is sorted by `key`: an owning group layer by layer (each range
    /// between the lengths of two successive nested groups, and the innermost group
    /// itself), a non-owning group fully.
    pub(crate) fn check_sorted(
        &mut self,
        group: Grp,
        spelling: usize,
        key: SortKey,
        descending: bool,
    ) -> Result<(), String> {
        let entities = with_group!(group, spelling, Key => group_entities::<Key>(&mut self.world))
            .map_err(|e| e.to_string())?;
        let inner = group.inner().into_iter().rev();
        let mut ends: Vec<usize> = inner.map(|g| self.members(g).len()).collect();
        ends.push(entities.len());
        let mut start = 0;
        for end in ends {
            let keys: Vec<u64> = entities[start..end]
                .iter()
                .map(|e| key_of(group, key, &self.model[e]))
                .collect();
            ensure!(
                keys.windows(2)
                    .all(|w| order(w[0], w[1], descending).is_le()),
                "{group:?} sorted by {key:?} (descending: {descending}): \
                 layer {start}..{end} has keys {keys:?}"
            );
            start = end;
        }
        Ok(())
    }
}

/// Checks that `before` and `after` differ at most by a permutation of each storage's
/// prefix of `movable` entities.
pub(crate) fn check_moves(
    before: &[Vec<Entity>],
    after: &[Vec<Entity>],
    movable: &[usize; TYPES],
) -> Result<(), String> {
    for t in 0..TYPES {
        let (b, a) = (&before[t], &after[t]);
        let p = movable[t].min(b.len());
        ensure!(
            b.len() == a.len()
                && b[p..] == a[p..]
                && sorted(b[..p].to_vec()) == sorted(a[..p].to_vec()),
            "storage {} may only permute its first {p} entities: {b:?} -> {a:?}",
            NAMES[t]
        );
    }
    Ok(())
}

/// Checks that the world refuses keys naming no group of it.
pub(crate) fn check_missing_groups(world: &mut World) -> Result<(), String> {
    fn missing<T>(result: Result<T, AccessError>) -> bool {
        matches!(result, Err(AccessError::NoSuchGroup(_)))
    }
    ensure!(missing(world.group::<(A, C)>().map(|_| ())), "group <A, C>");
    ensure!(missing(world.group_len::<(A, B, O)>()), "group <A, B, O>");
    ensure!(missing(world.group_len::<(I, J)>()), "group <I, J>");
    ensure!(
        missing(world.group_len::<(I, J, Exclude<L>)>()),
        "group <I, J, exclude(L)>"
    );
    ensure!(missing(world.group_len::<Get<A>>()), "group <get(A)>");
    ensure!(
        missing(world.group_len::<(A, Get<B>)>()),
        "group <A, get(B)>"
    );
    ensure!(
        missing(world.group_len::<(K, Get<A>, Exclude<L>)>()),
        "group <K, get(A), exclude(L)>"
    );
    ensure!(
        missing(world.group_len::<(Get<(A, E)>, Exclude<K>)>()),
        "group <get(A, E), exclude(K)>"
    );
    // The same types in other lists: owned and observed, observed and excluded swapped.
    ensure!(
        missing(world.group_len::<(F, Get<E>)>()),
        "group <F, get(E)>"
    );
    ensure!(
        missing(world.group_len::<(I, Get<J>)>()),
        "group <I, get(J)>"
    );
    ensure!(
        missing(world.group_len::<(B, Get<(M, N)>)>()),
        "group <B, get(M, N)>"
    );
    ensure!(
        missing(world.group_len::<(A, Get<L>, Exclude<K>)>()),
        "group <A, get(L), exclude(K)>"
    );
    ensure!(
        missing(world.group_len::<(L, Get<K>, Exclude<A>)>()),
        "group <L, get(K), exclude(A)>"
    );
    ensure!(
        missing(world.group_len::<(I, J, Get<K>)>()),
        "group <I, J, get(K)>"
    );
    ensure!(
        missing(world.group_len::<(Get<K>, Exclude<A>)>()),
        "group <get(K), exclude(A)>"
    );
    ensure!(
        missing(world.sort_group::<(A, C)>(|_, _| Ordering::Equal)),
        "sort_group <A, C>"
    );
    ensure!(
        missing(world.sort_group::<Get<(A, B)>>(|_, _| Ordering::Equal)),
        "sort_group <get(A, B)>"
    );
    Ok(())
}
