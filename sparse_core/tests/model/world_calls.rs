//! The world's API called with one component type (picked by `dispatch!`) or one group key
//! (picked by `with_group!`): bundles, inserts and removals, lookups, group slices and
//! iteration, sorts.

use sparse_core::{AccessError, Entity, EntityError, World};

use crate::components::{A, B, C, Comps, D, E, F, G, H, O, TYPES, Val, mask, only};
use crate::groups::{Grp, ModelKey, owned_by_a_group};
use crate::harness::Model;
use crate::ops::{SortHow, SortKey, key_of, order};

/// The bundles `Op::SpawnBundles` spawns with.
pub(crate) const BUNDLES: usize = 4;

/// Spawns `count` entities with bundle number `bundle`, the `i`-th with values
/// `value + i` (`spawn_with` for one entity, else `spawn_batch`); returns them and the
/// indices of the bundle's types.
pub(crate) fn spawn_bundles(
    world: &mut World,
    bundle: usize,
    count: usize,
    value: u32,
) -> (Vec<Entity>, Vec<usize>) {
    macro_rules! spawn {
        ($($T:ident),+) => {{
            let spawned = if count == 1 {
                vec![world.spawn_with(($($T::new(value),)+))]
            } else {
                world.spawn_batch((0..count as u32).map(|i| ($($T::new(value + i),)+)))
            };
            (spawned, vec![$($T::IDX),+])
        }};
    }
    match bundle {
        0 => spawn!(A, B),
        1 => spawn!(C, A, B),
        2 => spawn!(D),
        _ => spawn!(E, F, G, H, O),
    }
}

/// Inserts bundle number `bundle`'s types on `e` as one tuple (component `i` of the tuple
/// with value `value + i`); returns the replaced values by type index.
pub(crate) fn insert_tuple(
    world: &mut World,
    bundle: usize,
    e: Entity,
    value: u32,
) -> Result<Vec<(usize, Option<u32>)>, EntityError> {
    macro_rules! insert {
        ($($T:ident, $i:tt);+) => {{
            let old = world.insert(e, ($($T::new(value + $i),)+))?;
            Ok(vec![$(($T::IDX, old.$i.map(Val::get))),+])
        }};
    }
    match bundle {
        0 => insert!(A, 0; B, 1),
        1 => insert!(C, 0; A, 1; B, 2),
        2 => insert!(D, 0),
        _ => insert!(E, 0; F, 1; G, 2; H, 3; O, 4),
    }
}

/// Removes bundle number `bundle`'s types from `e` as one tuple; returns the removed
/// values by type index.
pub(crate) fn remove_tuple(
    world: &mut World,
    bundle: usize,
    e: Entity,
) -> Vec<(usize, Option<u32>)> {
    macro_rules! remove {
        ($($T:ident, $i:tt);+) => {{
            let old = world.remove::<($($T,)+)>(e);
            vec![$(($T::IDX, old.$i.map(Val::get))),+]
        }};
    }
    match bundle {
        0 => remove!(B, 0; A, 1),
        1 => remove!(A, 0; C, 1; B, 2),
        2 => remove!(D, 0),
        _ => remove!(O, 0; H, 1; E, 2; G, 3; F, 4),
    }
}

pub(crate) fn group_entities<Q: ModelKey>(world: &mut World) -> Result<Vec<Entity>, AccessError> {
    Ok(world.group::<Q>()?.entities().to_vec())
}

pub(crate) fn group_len<Q: ModelKey>(world: &World) -> Result<usize, AccessError> {
    world.group_len::<Q>()
}

/// The entities and the values read through `into_slices`, checked to be aligned.
pub(crate) fn group_slices<Q: ModelKey>(world: &mut World) -> Result<Vec<(Entity, Comps)>, String> {
    let group = world.group::<Q>().map_err(|e| e.to_string())?;
    ensure!(group.len() == group.entities().len(), "GroupMut::len");
    ensure!(
        group.is_empty() == group.entities().is_empty(),
        "GroupMut::is_empty"
    );
    let (entities, slices) = group.into_slices();
    let lens = Q::slice_lens(&slices);
    ensure!(
        lens.iter().all(|&l| l == entities.len()),
        "slices of {} entities have lengths {lens:?}",
        entities.len()
    );
    Ok(entities
        .iter()
        .enumerate()
        .map(|(i, &e)| (e, Q::slice_vals(&slices, i)))
        .collect())
}

/// Sorts the group; checks that every item compared or keyed holds exactly the group's
/// owned and observed types, and that a key sort is stable: members with equal keys keep
/// the order they had.
pub(crate) fn sort_group<Q: ModelKey>(
    world: &mut World,
    group: Grp,
    key: SortKey,
    descending: bool,
    how: SortHow,
    model: &Model,
) -> Result<(), String> {
    let want = mask(&only(&[Some(0); TYPES], &group.required()));
    let mut wrong = None;
    let mut check = |item: &Comps| {
        if mask(item) != want {
            wrong = Some(*item);
        }
    };
    let before = group_entities::<Q>(world).map_err(|e| e.to_string())?;
    // A descending key sort sorts by the complement: the same order, reversed.
    let mut keyed = |x: Q::Item<'_>| {
        let x = Q::item_vals(x);
        check(&x);
        let k = key_of(group, key, &x);
        if descending { !k } else { k }
    };
    let result = match how {
        SortHow::Comparator => world.sort_group::<Q>(|x, y| {
            let (x, y) = (Q::item_vals(x), Q::item_vals(y));
            check(&x);
            check(&y);
            order(key_of(group, key, &x), key_of(group, key, &y), descending)
        }),
        SortHow::Key => world.sort_group_by_key::<Q, u64>(&mut keyed),
        SortHow::RadixKey => world.sort_group_by_radix_key::<Q, u64>(&mut keyed),
    };
    ensure!(result.is_ok(), "sort_group {group:?} {how:?}: {result:?}");
    ensure!(
        wrong.is_none(),
        "sort_group {group:?} {how:?} read the item {wrong:?}"
    );
    if !matches!(how, SortHow::Comparator) {
        let after = group_entities::<Q>(world).map_err(|e| e.to_string())?;
        let was_at = |e: &Entity| before.iter().position(|b| b == e);
        let key_of_entity = |e: Entity| key_of(group, key, &model[&e]);
        for pair in after.windows(2) {
            if key_of_entity(pair[0]) == key_of_entity(pair[1]) {
                ensure!(
                    was_at(&pair[0]) < was_at(&pair[1]),
                    "sort_group {group:?} {how:?}: {:?} and {:?} have equal keys and changed order",
                    pair[0],
                    pair[1]
                );
            }
        }
    }
    Ok(())
}

/// Iterates the group with `for_each`, adding `delta` to the component of index `ty`;
/// returns each visited entity with the values of its item (after the change).
pub(crate) fn iterate<Q: ModelKey>(
    world: &mut World,
    ty: usize,
    delta: u32,
) -> Result<Vec<(Entity, Comps)>, AccessError> {
    let mut visited = Vec::new();
    world
        .group::<Q>()?
        .for_each(|e, item| visited.push((e, Q::item_bump(item, ty, delta))));
    Ok(visited)
}

/// The values of `entities`' `T`, read from the storage of `T` (looked up once).
pub(crate) fn column<T: Val>(world: &World, entities: &[Entity]) -> Vec<Option<u32>> {
    let storage = world.storage::<T>();
    entities
        .iter()
        .map(|&e| storage.and_then(|s| s.get(e)).map(|v| v.get()))
        .collect()
}

pub(crate) fn get<T: Val>(world: &World, e: Entity) -> Option<u32> {
    world.get::<T>(e).map(|v| v.get())
}

pub(crate) fn contains<T: Val>(world: &World, e: Entity) -> bool {
    world.contains::<T>(e)
}

pub(crate) fn storage_len<T: Val>(world: &World) -> usize {
    world.storage::<T>().map_or(0, |s| s.len())
}

pub(crate) fn storage_order<T: Val>(world: &World) -> Vec<Entity> {
    world
        .storage::<T>()
        .map_or_else(Vec::new, |s| s.entities().to_vec())
}

pub(crate) fn insert<T: Val>(
    world: &mut World,
    e: Entity,
    value: u32,
) -> Result<Option<u32>, EntityError> {
    world.insert(e, T::new(value)).map(|old| old.map(Val::get))
}

pub(crate) fn remove<T: Val>(world: &mut World, e: Entity) -> Option<u32> {
    world.remove::<T>(e).map(Val::get)
}

pub(crate) fn get_mut<T: Val>(world: &mut World, e: Entity, delta: u32) -> Option<u32> {
    world.get_mut::<T>(e).map(|v| {
        *v.slot() = v.get().wrapping_add(delta);
        v.get()
    })
}

/// Sorts a storage: refused if a group owns it (and then nothing moves), else sorted, and
/// by a key sort stably.
pub(crate) fn sort_storage<T: Val>(
    world: &mut World,
    descending: bool,
    how: SortHow,
) -> Result<(), String> {
    let before = world.storage::<T>().map(|s| s.entities().to_vec());
    let key = |x: &T| {
        let v: u64 = x.get().into();
        if descending { u64::MAX - v } else { v }
    };
    let result = match how {
        SortHow::Comparator => {
            world.sort::<T>(|x, y| order(x.get().into(), y.get().into(), descending))
        }
        SortHow::Key => world.sort_by_key::<T, u64>(key),
        SortHow::RadixKey => world.sort_by_radix_key::<T, u64>(key),
    };
    let name = core::any::type_name::<T>();
    if owned_by_a_group(T::IDX) {
        ensure!(
            result == Err(AccessError::OwnedByGroup(name)),
            "sort::<{name}> of an owned storage gave {result:?}"
        );
        let after = world.storage::<T>().map(|s| s.entities().to_vec());
        ensure!(before == after, "a refused sort::<{name}> moved entities");
    } else {
        ensure!(result.is_ok(), "sort::<{name}>: {result:?}");
        let storage = world.storage::<T>().expect("sort registers the storage");
        let values: Vec<u64> = storage
            .components()
            .iter()
            .map(|v| v.get().into())
            .collect();
        ensure!(
            values
                .windows(2)
                .all(|w| order(w[0], w[1], descending).is_le()),
            "sort::<{name}> {how:?} (descending: {descending}) left {values:?}"
        );
        if !matches!(how, SortHow::Comparator) {
            let was_at = |e: &Entity| before.iter().flatten().position(|b| b == e);
            let after = storage.entities();
            for (pair, value) in after.windows(2).zip(values.windows(2)) {
                ensure!(
                    value[0] != value[1] || was_at(&pair[0]) < was_at(&pair[1]),
                    "sort::<{name}> {how:?}: {:?} and {:?} have equal values and changed order",
                    pair[0],
                    pair[1]
                );
            }
        }
    }
    Ok(())
}
