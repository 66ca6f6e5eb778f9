//! Change detection: what `Added`, `Changed` and `removed` must report, replayed from the
//! hooks.

use sparse_core::{Added, Changed, Entity, HookEvent, World};

use crate::components::{A, B, C, D, E, F, G, H, I, J, K, L, M, N, NAMES, O, Val};
use crate::harness::Model;
use crate::hooks::HOOK_LOG;
use crate::ops::Op;

/// The types with change detection: owned by nested groups (A), by one group (E), by
/// groups with exclusions (I), excluded (K), owned by a partial group (N), by none (O).
const TRACKED: [usize; 6] = [0, 4, 8, 10, 13, 14];

pub(crate) fn track(world: &mut World) {
    fn one<T: Val>(world: &mut World) {
        world.track::<T>();
    }
    for t in TRACKED {
        dispatch!(t, one(world));
    }
}

/// What change detection must report, replayed from the hooks (which fire for every
/// component added, replaced or removed, see `check_hooks`) and the values.
pub(crate) struct Changes {
    /// The values at the last tick.
    at_tick: Model,
    /// Per tracked type: added, and added or changed, since the last tick.
    added: Vec<Vec<Entity>>,
    changed: Vec<Vec<Entity>>,
    /// Per tracked type: the entities that lost it since the last tick.
    removed: Vec<Vec<Entity>>,
}

impl Changes {
    pub(crate) fn new() -> Self {
        Changes {
            at_tick: Model::default(),
            added: vec![Vec::new(); TRACKED.len()],
            changed: vec![Vec::new(); TRACKED.len()],
            removed: vec![Vec::new(); TRACKED.len()],
        }
    }

    /// Replays `op`'s hooks and checks the world's `Added`, `Changed` and `removed`:
    /// `Added` and `removed` exactly; `Changed` holds every component added or whose
    /// value differs from the last tick's, and grows only by what the hooks report unless
    /// the op hands values out mutably (then the world's marks are taken as they are).
    pub(crate) fn check(
        &mut self,
        op: &Op,
        world: &mut World,
        model: &Model,
    ) -> Result<(), String> {
        let mutates = matches!(
            op,
            Op::GetMut { .. }
                | Op::Iterate { .. }
                | Op::ViewEo
                | Op::ViewOa
                | Op::ViewGet { .. }
                | Op::View { .. }
                | Op::GroupIter { .. }
                | Op::Borrow { .. }
                | Op::Retain { .. }
                | Op::RetainComponent { .. }
        );
        match op {
            Op::Tick => {
                self.at_tick = model.clone();
                for list in [&mut self.added, &mut self.changed, &mut self.removed] {
                    list.iter_mut().for_each(Vec::clear);
                }
            }
            // A new world (with `serde`; else nothing happens): everything it loaded is
            // added.
            Op::Reload if cfg!(feature = "serde") => {
                *self = Changes::new();
                for (k, &t) in TRACKED.iter().enumerate() {
                    let holders = model
                        .iter()
                        .filter(|(_, c)| c[t].is_some())
                        .map(|(&e, _)| e);
                    self.added[k] = holders.collect();
                    self.changed[k] = self.added[k].clone();
                }
            }
            _ => {
                for &(event, t, e, _) in &HOOK_LOG.with_borrow(Clone::clone) {
                    let Some(k) = TRACKED.iter().position(|&x| x == t) else {
                        continue;
                    };
                    let (added, changed) = (&mut self.added[k], &mut self.changed[k]);
                    match event {
                        HookEvent::Insert => {
                            added.push(e);
                            changed.push(e);
                        }
                        HookEvent::Replace => changed.push(e),
                        HookEvent::Remove => {
                            added.retain(|&x| x != e);
                            changed.retain(|&x| x != e);
                            self.removed[k].push(e);
                        }
                    }
                }
            }
        }
        for (k, &t) in TRACKED.iter().enumerate() {
            let set = |list: &[Entity]| {
                let mut list = list.to_vec();
                list.sort_unstable();
                list.dedup();
                list
            };
            let (got_added, got_changed, got_removed) = dispatch!(t, stamps(world));
            ensure!(
                got_added == set(&self.added[k]),
                "Added<{}> {got_added:?}, want {:?}",
                NAMES[t],
                set(&self.added[k])
            );
            let mut want_removed = self.removed[k].clone();
            want_removed.sort_unstable();
            ensure!(
                got_removed == want_removed,
                "removed::<{}>() {got_removed:?}, want {want_removed:?}",
                NAMES[t]
            );
            for (&e, comps) in model {
                let Some(value) = comps[t] else { continue };
                let before = self.at_tick.get(&e).and_then(|c| c[t]);
                ensure!(
                    before == Some(value) || got_changed.binary_search(&e).is_ok(),
                    "{}: {e:?} went from {before:?} to {value} since the tick, not in Changed {got_changed:?}",
                    NAMES[t]
                );
            }
            if mutates {
                ensure!(
                    set(&self.added[k])
                        .iter()
                        .all(|e| got_changed.binary_search(e).is_ok()),
                    "Changed<{}> {got_changed:?} lacks an added entity of {:?}",
                    NAMES[t],
                    self.added[k]
                );
                self.changed[k] = got_changed;
            } else {
                ensure!(
                    got_changed == set(&self.changed[k]),
                    "Changed<{}> {got_changed:?}, want {:?} (the op hands nothing out mutably)",
                    NAMES[t],
                    set(&self.changed[k])
                );
            }
        }
        Ok(())
    }
}

impl Changes {
    /// Takes the world's `Changed` sets as they are (after the harness's own checks,
    /// which hand values out mutably).
    pub(crate) fn adopt(&mut self, world: &mut World) {
        for (k, &t) in TRACKED.iter().enumerate() {
            self.changed[k] = dispatch!(t, stamps(world)).1;
        }
    }
}

/// The entities of `Added<T>`, `Changed<T>` and `removed::<T>()`, each sorted.
fn stamps<T: Val>(world: &mut World) -> (Vec<Entity>, Vec<Entity>, Vec<Entity>) {
    let of = |view: Vec<Entity>| {
        let mut view = view;
        view.sort_unstable();
        view
    };
    let added = of(world
        .view::<(&T, Added<T>)>()
        .expect("tracked")
        .into_iter()
        .map(|(e, _)| e)
        .collect());
    let changed = of(world
        .view::<(&T, Changed<T>)>()
        .expect("tracked")
        .into_iter()
        .map(|(e, _)| e)
        .collect());
    let removed = of(world.removed::<T>().to_vec());
    // `for_each` may walk the stamps instead of the storage: the same matches.
    for (want, by_for_each) in [(&added, true), (&changed, false)] {
        let mut got = Vec::new();
        if by_for_each {
            world
                .view::<(&T, Added<T>)>()
                .expect("tracked")
                .for_each(|e, _| got.push(e));
        } else {
            world
                .view::<(&T, Changed<T>)>()
                .expect("tracked")
                .for_each(|e, _| got.push(e));
        }
        assert_eq!(
            &of(got),
            want,
            "for_each and the iterator disagree on {}",
            NAMES[T::IDX]
        );
    }
    (added, changed, removed)
}
