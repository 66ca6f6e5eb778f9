//! A user hook on every event of every type, checking the ordering rule, and what the
//! hooks must have seen during an operation.

use std::cell::RefCell;
use std::collections::HashMap;

use sparse_core::{Entity, Exclude, Get, GroupRef, HookEvent, HookWorld, World};

use crate::components::{A, B, C, Comps, D, E, F, G, H, I, J, K, L, M, N, O, TYPES, Val};
use crate::groups::{GROUPS, Grp};
use crate::harness::Model;
use crate::ops::Op;

thread_local! {
    /// The user hooks' calls during the current op: event, type index, entity, and the
    /// values the hook read: the one replaced (a replace hook's argument) and the current one.
    pub(crate) static HOOK_LOG: RefCell<Vec<(HookEvent, usize, Entity, Seen)>> = const { RefCell::new(Vec::new()) };
    /// What the hooks found wrong (a hook cannot return an error).
    static HOOK_FAULTS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// What a hook read of its component: the value the change replaced, the current value.
pub(crate) type Seen = (Option<u32>, Option<u32>);

/// Registers a hook for every event of every type: each checks the ordering rule (an
/// insert or replace hook finds the entity in exactly the groups its components now
/// qualify it for; a remove hook finds it, its component still there, in every group it
/// was in) against the groups of every kind, and logs its call.
pub(crate) fn register_hooks(world: &mut World) {
    fn observe<T: Val, const EVENT: u8>(world: &mut HookWorld<'_, World>, e: Entity) {
        let event = [HookEvent::Insert, HookEvent::Replace, HookEvent::Remove][EVENT as usize];
        check::<T>(world, e, event, None);
    }
    fn observe_replaced<T: Val>(world: &mut HookWorld<'_, World>, e: Entity, old: &T) {
        check::<T>(world, e, HookEvent::Replace, Some(old.get()));
    }
    fn check<T: Val>(
        world: &mut HookWorld<'_, World>,
        e: Entity,
        event: HookEvent,
        replaced: Option<u32>,
    ) {
        let mut comps: Comps = [None; TYPES];
        for (t, slot) in comps.iter_mut().enumerate() {
            *slot = dispatch!(t, hook_get(world, e));
        }
        let mut faults = Vec::new();
        if comps[T::IDX].is_none() {
            faults.push(format!("{event} hook of type {}: {e:?} lacks it", T::IDX));
        }
        for g in GROUPS {
            let member = with_group!(g, 0, Key => world
                .borrow::<GroupRef<'_, Key>>()
                .expect("the world has the group")
                .entities()
                .contains(&e));
            if member != g.matches(&comps) {
                faults.push(format!(
                    "{event} hook of type {}: {e:?} with {comps:?} is {}a member of {g:?}",
                    T::IDX,
                    if member { "" } else { "not " }
                ));
            }
        }
        let seen = (replaced, comps[T::IDX]);
        HOOK_FAULTS.with_borrow_mut(|f| f.extend(faults));
        HOOK_LOG.with_borrow_mut(|log| log.push((event, T::IDX, e, seen)));
    }
    fn hook_get<T: Val>(world: &HookWorld<'_, World>, e: Entity) -> Option<u32> {
        world.get::<T>(e).map(|v| v.get())
    }
    fn register<T: Val>(world: &mut World) {
        world
            .on_insert::<T>(observe::<T, 0>)
            .expect("first insert hook");
        world
            .on_replace::<T>(observe_replaced::<T>)
            .expect("first replace hook");
        world
            .on_remove::<T>(observe::<T, 2>)
            .expect("first remove hook");
        assert!(
            world.on_remove::<T>(observe::<T, 2>).is_err(),
            "a second remove hook is refused"
        );
    }
    for t in 0..TYPES {
        dispatch!(t, register(world));
    }
}

/// The hooks' findings during `op`; that the hooks, replayed in order, follow each
/// component's life from before the op to after it (a replace hook given the value the
/// replay holds, which the last hook of that component read, or the op found); and (for every op but commands, whose
/// changes can undo each other within the op) that they ran exactly for the components
/// added and removed: one insert hook per component added, one remove hook per component removed
/// (destruction included), replace hooks only for components there afterwards.
pub(crate) fn check_hooks(op: &Op, before: &Model, after: &Model) -> Result<(), String> {
    let faults = HOOK_FAULTS.with_borrow_mut(std::mem::take);
    ensure!(faults.is_empty(), "hooks saw a broken rule: {faults:?}");
    let has = |model: &Model, e: Entity, t: usize| model.get(&e).is_some_and(|c| c[t].is_some());
    let log = HOOK_LOG.with_borrow(Clone::clone);
    // For every op, commands included: replayed in order, each component's hooks follow
    // its life (an insert only where it was absent, a replace or a remove only where it
    // was present) from the state before the op to the state after it.
    let value = |model: &Model, e: Entity, t: usize| model.get(&e).and_then(|c| c[t]);
    let mut present: HashMap<(Entity, usize), Option<u32>> = HashMap::new();
    for &(event, t, e, (replaced, current)) in &log {
        let now = present.entry((e, t)).or_insert_with(|| value(before, e, t));
        ensure!(
            now.is_some() != (event == HookEvent::Insert),
            "{event} hook of type {t} for {e:?}, which {} it",
            if now.is_some() {
                "already has"
            } else {
                "lacks"
            }
        );
        let want = if event == HookEvent::Replace {
            *now
        } else {
            None
        };
        ensure!(
            replaced == want,
            "{event} hook of type {t} for {e:?} was given {replaced:?} as the value replaced, not {want:?}"
        );
        *now = if event == HookEvent::Remove {
            None
        } else {
            current
        };
    }
    for (&(e, t), now) in &present {
        let now = now.is_some();
        ensure!(
            now == has(after, e, t),
            "the hooks leave type {t} of {e:?} {}, the op leaves it {}",
            if now { "present" } else { "absent" },
            if now { "absent" } else { "present" }
        );
    }
    let entities: std::collections::BTreeSet<Entity> =
        before.keys().chain(after.keys()).copied().collect();
    for &e in &entities {
        for t in 0..TYPES {
            ensure!(
                has(before, e, t) == has(after, e, t) || present.contains_key(&(e, t)),
                "type {t} of {e:?} was {} by the op with no hook",
                if has(after, e, t) { "added" } else { "removed" }
            );
        }
    }
    if matches!(op, Op::Commands { .. } | Op::Reserve { .. }) {
        return Ok(());
    }
    let mut fired = [Vec::new(), Vec::new()];
    for &(event, t, e, _) in &log {
        match event {
            HookEvent::Insert => fired[0].push((e, t)),
            HookEvent::Remove => fired[1].push((e, t)),
            HookEvent::Replace => ensure!(
                has(after, e, t),
                "a replace hook of type {t} for {e:?}, which has none after the op"
            ),
        }
    }
    let mut want = [Vec::new(), Vec::new()];
    for &e in &entities {
        for t in 0..TYPES {
            match (has(before, e, t), has(after, e, t)) {
                (false, true) => want[0].push((e, t)),
                (true, false) => want[1].push((e, t)),
                _ => {}
            }
        }
    }
    for (got, want) in fired.iter_mut().zip(&mut want) {
        got.sort_unstable();
        want.sort_unstable();
    }
    ensure!(
        fired == want,
        "hooks ran for (insert, remove) {fired:?}; the components added and removed were {want:?}"
    );
    Ok(())
}
