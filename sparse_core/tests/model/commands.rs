//! Commands recorded and applied, and handles reserved through `&Entities`.

use std::sync::{Arc, Mutex};

use sparse_core::{Applied, Commands, Entities, Entity, EntityError, GroupRef, Skipped, World};

use crate::bulk::insert_batch;
use crate::components::{A, B, C, D, E, F, G, H, I, J, K, L, M, N, NAMES, O, TYPES, Val};
use crate::groups::Grp;
use crate::harness::Harness;
use crate::ops::{Cmd, CmdTarget, ReserveAction, Target};
use crate::world_calls::insert;

fn record_insert<T: Val>(commands: &mut Commands<World>, e: Entity, value: u32) {
    commands.insert(e, T::new(value));
}

fn record_remove<T: Val>(commands: &mut Commands<World>, e: Entity) {
    commands.remove::<T>(e);
}

/// Records spawning bundle `bundle` with values from `v`; returns the reserved handle and
/// the `(type, value)` pairs of the bundle.
fn record_spawn(
    commands: &mut Commands<World>,
    entities: &Entities,
    bundle: usize,
    v: u32,
) -> (Entity, Vec<(usize, u32)>) {
    let (e, types): (Entity, &[usize]) = match bundle {
        0 => (commands.spawn_reserved(entities, (A(v),)), &[0]),
        1 => (
            commands.spawn_reserved(entities, (A(v), B(v + 1), C(v + 2))),
            &[0, 1, 2],
        ),
        2 => (
            commands.spawn_reserved(entities, (E(v), F(v + 1), G(v + 2), H(v + 3))),
            &[4, 5, 6, 7],
        ),
        3 => (
            commands.spawn_reserved(entities, (I(v), J(v + 1), K(v + 2))),
            &[8, 9, 10],
        ),
        4 => (
            commands.spawn_reserved(entities, (M(v), B(v + 1), N(v + 2))),
            &[12, 1, 13],
        ),
        _ => (
            commands.spawn_reserved(entities, (L(v), A(v + 1))),
            &[11, 0],
        ),
    };
    let values = types
        .iter()
        .enumerate()
        .map(|(i, &t)| (t, v + i as u32))
        .collect();
    (e, values)
}

/// A command resolved to its entities, for the model.
enum Recorded {
    Spawn(Entity, Vec<(usize, u32)>),
    Insert(usize, Entity, u32),
    Remove(usize, Entity),
    Destroy(Entity),
    AddInsert(Entity, u32),
    AddSpawn(u32),
}

impl Harness {
    /// Records `cmds` (reserving through `&Entities` from the world or a borrow request),
    /// applies them, and checks what was applied and skipped against the model.
    pub(crate) fn commands(&mut self, cmds: &[Cmd], via_borrow: bool) -> Result<(), String> {
        let log: Arc<Mutex<Vec<Entity>>> = Arc::default();
        let mut commands = Commands::<World>::new();
        let mut recorded = Vec::new();
        let mut spawned: Vec<Entity> = Vec::new();
        {
            let world = &self.world;
            let (entities, ab_len) = if via_borrow {
                let (ab, entities) = world
                    .borrow_ref::<(GroupRef<(A, B)>, &Entities)>()
                    .map_err(|e| format!("borrow_ref: {e}"))?;
                (entities, Some(ab.len()))
            } else {
                (world.entities(), None)
            };
            ensure!(
                ab_len.is_none_or(|len| len == self.members(Grp::Ab).len()),
                "GroupRef next to &Entities: {ab_len:?}"
            );
            let resolve = |target: CmdTarget, spawned: &[Entity]| match target {
                CmdTarget::Spawned(i) if !spawned.is_empty() => spawned[i % spawned.len()],
                CmdTarget::Spawned(i) => self.resolve(Target::Alive(i)),
                CmdTarget::Old(target) => self.resolve(target),
            };
            for &cmd in cmds {
                recorded.push(match cmd {
                    Cmd::Spawn { bundle, value } => {
                        let (e, values) = record_spawn(&mut commands, entities, bundle, value);
                        spawned.push(e);
                        Recorded::Spawn(e, values)
                    }
                    Cmd::Insert { ty, target, value } => {
                        let e = resolve(target, &spawned);
                        dispatch!(ty, record_insert(&mut commands, e, value));
                        Recorded::Insert(ty, e, value)
                    }
                    Cmd::Remove { ty, target } => {
                        let e = resolve(target, &spawned);
                        dispatch!(ty, record_remove(&mut commands, e));
                        Recorded::Remove(ty, e)
                    }
                    Cmd::Destroy { target } => {
                        let e = resolve(target, &spawned);
                        commands.destroy(e);
                        Recorded::Destroy(e)
                    }
                    Cmd::AddInsert { target, value } => {
                        let e = resolve(target, &spawned);
                        commands.add(move |w: &mut World| {
                            let _ = w.insert(e, O(value));
                        });
                        Recorded::AddInsert(e, value)
                    }
                    Cmd::AddSpawn { value } => {
                        let log = Arc::clone(&log);
                        commands.add(move |w: &mut World| {
                            let e = w.spawn_with((A(value), B(value)));
                            log.lock().expect("not poisoned").push(e);
                        });
                        Recorded::AddSpawn(value)
                    }
                });
            }
        }
        ensure!(
            commands.len() == cmds.len() && !commands.is_empty(),
            "{} commands recorded of {}",
            commands.len(),
            cmds.len()
        );
        for (i, &r) in spawned.iter().enumerate() {
            ensure!(
                !self.world.is_alive(r),
                "reserved {r:?} is alive before apply"
            );
            ensure!(!spawned[..i].contains(&r), "{r:?} reserved twice");
        }
        let applied = self.world.apply(&mut commands);
        ensure!(
            commands.is_empty(),
            "apply left {} commands",
            commands.len()
        );
        // Every reservation comes alive, empty, before the first command runs.
        for &r in &spawned {
            self.model_spawn(r, [None; TYPES])?;
        }
        let added = log.lock().expect("not poisoned").clone();
        let mut added = added.into_iter();
        let mut want = Applied::default();
        for (command, rec) in recorded.into_iter().enumerate() {
            let entity = match rec {
                Recorded::Spawn(e, _)
                | Recorded::Insert(_, e, _)
                | Recorded::Remove(_, e)
                | Recorded::Destroy(e) => e,
                Recorded::AddInsert(e, value) => {
                    if let Some(comps) = self.model.get_mut(&e) {
                        comps[14] = Some(value);
                    }
                    want.applied += 1;
                    continue;
                }
                Recorded::AddSpawn(value) => {
                    let e = added.next().ok_or("an `add` closure did not run")?;
                    let mut comps = [None; TYPES];
                    comps[0] = Some(value);
                    comps[1] = Some(value);
                    self.model_spawn(e, comps)?;
                    want.applied += 1;
                    continue;
                }
            };
            if !self.model.contains_key(&entity) {
                want.skipped.push(Skipped { command, entity });
                continue;
            }
            want.applied += 1;
            let comps = self.model.get_mut(&entity).expect("alive");
            match rec {
                Recorded::Spawn(_, values) => {
                    for (t, v) in values {
                        comps[t] = Some(v);
                    }
                }
                Recorded::Insert(t, _, v) => comps[t] = Some(v),
                Recorded::Remove(t, _) => comps[t] = None,
                _ => self.model_destroy(entity),
            }
        }
        ensure!(added.next().is_none(), "an `add` closure ran twice");
        ensure!(applied == want, "apply gave {applied:?}, want {want:?}");
        Ok(())
    }

    /// Reserves `count` handles through `&Entities`, then does `action`, after which every
    /// reserved handle must be alive (unless destroyed).
    pub(crate) fn reserve(&mut self, count: usize, action: ReserveAction) -> Result<(), String> {
        let reserved: Vec<Entity> = (0..count)
            .map(|_| self.world.entities().reserve())
            .collect();
        for (i, &r) in reserved.iter().enumerate() {
            ensure!(
                !self.world.is_alive(r),
                "reserved {r:?} is alive before any change"
            );
            ensure!(
                !self.all.contains(&r) && !reserved[..i].contains(&r),
                "reserved {r:?} was handed out before"
            );
        }
        ensure!(
            self.world.entities().len() == self.model.len(),
            "reservations count as alive"
        );
        let pick = |which: usize| reserved[which % reserved.len()];
        let flush = |h: &mut Harness| -> Result<(), String> {
            for &r in &reserved {
                h.model_spawn(r, [None; TYPES])?;
            }
            Ok(())
        };
        match action {
            ReserveAction::Insert { which, ty, value } => {
                let r = pick(which);
                let got = dispatch!(ty, insert(&mut self.world, r, value));
                ensure!(
                    got == Ok(None),
                    "insert {} on the reserved {r:?}: {got:?}",
                    NAMES[ty]
                );
                flush(self)?;
                self.model.get_mut(&r).expect("flushed")[ty] = Some(value);
            }
            ReserveAction::Spawn => {
                let e = self.world.spawn();
                ensure!(!reserved.contains(&e), "spawn returned the reserved {e:?}");
                flush(self)?;
                self.model_spawn(e, [None; TYPES])?;
            }
            ReserveAction::DestroyOther(target) => {
                let e = self.resolve(target);
                let got = self.world.destroy(e);
                if self.model.contains_key(&e) {
                    ensure!(got == Ok(()), "destroy alive {e:?}: {got:?}");
                    flush(self)?;
                    self.model_destroy(e);
                } else {
                    ensure!(
                        got == Err(EntityError::Dead(e)),
                        "destroy dead {e:?}: {got:?}"
                    );
                    // A refused destroy changes nothing: applying commands flushes.
                    let applied = self.world.apply(&mut Commands::new());
                    ensure!(
                        applied == Applied::default(),
                        "apply of nothing: {applied:?}"
                    );
                    flush(self)?;
                }
            }
            ReserveAction::DestroyReserved(which) => {
                let r = pick(which);
                let got = self.world.destroy(r);
                ensure!(got == Ok(()), "destroy the reserved {r:?}: {got:?}");
                flush(self)?;
                self.model_destroy(r);
            }
            ReserveAction::InsertMany { ty, value } => {
                let items: Vec<(Entity, u32)> = reserved.iter().map(|&r| (r, value)).collect();
                let got = dispatch!(ty, insert_batch(&mut self.world, &items));
                ensure!(
                    got == Ok(count),
                    "insert_many {} on the reserved {reserved:?}: {got:?}",
                    NAMES[ty]
                );
                flush(self)?;
                for r in &reserved {
                    self.model.get_mut(r).expect("flushed")[ty] = Some(value);
                }
            }
            ReserveAction::DestroyMany { which, other } => {
                let (r, other) = (pick(which), self.resolve(other));
                let got = self.world.destroy_many(&[r, other]);
                let other_alive = self.model.contains_key(&other);
                flush(self)?;
                self.model_destroy(r);
                if other_alive {
                    self.model_destroy(other);
                }
                let want = 1 + usize::from(other_alive);
                ensure!(
                    got == want,
                    "destroy_many of {r:?} and {other:?}: {got}, want {want}"
                );
            }
            ReserveAction::Apply => {
                let applied = self.world.apply(&mut Commands::new());
                ensure!(
                    applied == Applied::default(),
                    "apply of nothing: {applied:?}"
                );
                flush(self)?;
            }
        }
        for &r in &reserved {
            let alive = self.model.contains_key(&r);
            ensure!(
                self.world.is_alive(r) == alive,
                "reserved {r:?} after {action:?}: is_alive is {}, want {alive}",
                !alive
            );
        }
        Ok(())
    }
}
