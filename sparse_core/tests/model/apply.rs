//! Running an operation on the world and on the model (`Harness::apply`), checking what the
//! world returns.

use sparse_core::{Entity, EntityError, Exclude, Get};

use crate::bulk::clear;
use crate::components::{A, B, C, Comps, D, E, F, G, H, I, J, K, L, M, N, NAMES, O, TYPES, only};
use crate::groups::Grp;
use crate::harness::{Harness, sorted};
use crate::ops::Op;
use crate::world_calls::{
    get_mut, insert, insert_tuple, iterate, remove, remove_tuple, sort_group, sort_storage,
    spawn_bundles,
};

impl Harness {
    fn insert(&mut self, ty: usize, e: Entity, value: u32) -> Result<(), String> {
        let got = dispatch!(ty, insert(&mut self.world, e, value));
        match self.model.get_mut(&e) {
            Some(comps) => {
                let want = Ok(comps[ty].replace(value));
                ensure!(
                    got == want,
                    "insert {} on {e:?}: got {got:?}, want {want:?}",
                    NAMES[ty]
                );
            }
            None => ensure!(
                got == Err(EntityError::Dead(e)),
                "insert {} on dead {e:?}: {got:?}",
                NAMES[ty]
            ),
        }
        Ok(())
    }

    /// Applies `op` to the world and the model, checking what the world returns.
    pub(crate) fn apply(&mut self, op: &Op) -> Result<(), String> {
        match *op {
            // Done by `run`, which knows how the world was built.
            Op::Reload => {}
            Op::Tick => self.world.tick(),
            Op::Spawn => {
                let e = self.world.spawn();
                ensure!(
                    !self.model.contains_key(&e),
                    "spawn returned the alive {e:?}"
                );
                ensure!(
                    !self.dead.contains(&e),
                    "spawn returned the destroyed {e:?}"
                );
                self.model.insert(e, [None; TYPES]);
                self.alive.push(e);
                self.all.push(e);
            }
            Op::SpawnBundles {
                bundle,
                count,
                value,
            } => {
                let (spawned, types) = spawn_bundles(&mut self.world, bundle, count, value);
                ensure!(
                    spawned.len() == count,
                    "spawned {} of {count} entities",
                    spawned.len()
                );
                for (i, &e) in spawned.iter().enumerate() {
                    ensure!(
                        !self.model.contains_key(&e) && !self.dead.contains(&e),
                        "spawning bundle {bundle} returned the used {e:?}"
                    );
                    let mut comps = [None; TYPES];
                    for &ty in &types {
                        comps[ty] = Some(value + i as u32);
                    }
                    self.model.insert(e, comps);
                    self.alive.push(e);
                    self.all.push(e);
                }
            }
            Op::Insert { ty, target, value } => self.insert(ty, self.resolve(target), value)?,
            Op::InsertMany {
                ref types,
                target,
                value,
            } => {
                let e = self.resolve(target);
                for (i, &ty) in types.iter().enumerate() {
                    self.insert(ty, e, value + i as u32)?;
                }
            }
            Op::InsertTuple {
                bundle,
                target,
                value,
            } => {
                let e = self.resolve(target);
                let got = insert_tuple(&mut self.world, bundle, e, value);
                match self.model.get_mut(&e) {
                    Some(comps) => {
                        let want: Vec<(usize, Option<u32>)> = got
                            .as_ref()
                            .map_err(|error| format!("insert tuple on alive {e:?}: {error}"))?
                            .iter()
                            .enumerate()
                            .map(|(i, &(ty, _))| (ty, comps[ty].replace(value + i as u32)))
                            .collect();
                        ensure!(
                            got.as_ref() == Ok(&want),
                            "insert tuple {bundle} on {e:?}: got {got:?}, want {want:?}"
                        );
                    }
                    None => ensure!(
                        got == Err(EntityError::Dead(e)),
                        "insert tuple {bundle} on dead {e:?}: {got:?}"
                    ),
                }
            }
            Op::RemoveTuple { bundle, target } => {
                let e = self.resolve(target);
                let got = remove_tuple(&mut self.world, bundle, e);
                let comps = self.model.get_mut(&e);
                let want: Vec<(usize, Option<u32>)> = match comps {
                    Some(comps) => got.iter().map(|&(ty, _)| (ty, comps[ty].take())).collect(),
                    None => got.iter().map(|&(ty, _)| (ty, None)).collect(),
                };
                ensure!(
                    got == want,
                    "remove tuple {bundle} from {e:?}: got {got:?}, want {want:?}"
                );
            }
            Op::Remove { ty, target } => {
                let e = self.resolve(target);
                let got = dispatch!(ty, remove(&mut self.world, e));
                let want = self.model.get_mut(&e).and_then(|c| c[ty].take());
                ensure!(
                    got == want,
                    "remove {} from {e:?}: got {got:?}, want {want:?}",
                    NAMES[ty]
                );
            }
            Op::Destroy { target } => {
                let e = self.resolve(target);
                let got = self.world.destroy(e);
                if self.model.remove(&e).is_some() {
                    ensure!(got == Ok(()), "destroy alive {e:?}: {got:?}");
                    self.alive.retain(|&a| a != e);
                    self.dead.push(e);
                } else {
                    ensure!(
                        got == Err(EntityError::Dead(e)),
                        "destroy dead {e:?}: {got:?}"
                    );
                }
            }
            Op::GetMut { ty, target, delta } => {
                let e = self.resolve(target);
                let got = dispatch!(ty, get_mut(&mut self.world, e, delta));
                let want = self
                    .model
                    .get_mut(&e)
                    .and_then(|c| c[ty].as_mut())
                    .map(|v| {
                        *v = v.wrapping_add(delta);
                        *v
                    });
                ensure!(
                    got == want,
                    "get_mut {} of {e:?}: got {got:?}, want {want:?}",
                    NAMES[ty]
                );
            }
            Op::SortGroup {
                group,
                spelling,
                key,
                descending,
                how,
            } => with_group!(group, spelling, Key => {
                sort_group::<Key>(&mut self.world, group, key, descending, how, &self.model)
            })?,
            Op::Sort {
                ty,
                descending,
                how,
            } => dispatch!(ty, sort_storage(&mut self.world, descending, how))?,
            Op::Iterate {
                group,
                spelling,
                ty,
                delta,
            } => {
                let required = group.required();
                let ty = required[ty % required.len()];
                let visited = with_group!(group, spelling, Key => {
                    iterate::<Key>(&mut self.world, ty, delta)
                })
                .map_err(|e| format!("group {group:?}: {e}"))?;
                let members = self.members(group);
                let got = sorted(visited.iter().map(|&(e, _)| e).collect());
                ensure!(
                    got == members,
                    "iterating {group:?} visited {got:?}, want {members:?}"
                );
                for (e, comps) in visited {
                    let model = self.model.get_mut(&e).expect("member is alive");
                    model[ty] = model[ty].map(|v| v.wrapping_add(delta));
                    let want = only(model, &required);
                    ensure!(
                        comps == want,
                        "iterating {group:?}: {e:?}'s item is {comps:?}, want {want:?}"
                    );
                }
            }
            Op::ViewEo => {
                let mut visited = Vec::new();
                self.world
                    .view::<(&E, &mut O)>()
                    .unwrap()
                    .for_each(|e, (ev, ov)| {
                        ov.0 = ov.0.wrapping_add(ev.0);
                        visited.push(e);
                    });
                self.mirror_view("<E, O>", visited, 4, 14, |c| {
                    c[14].map(|o| o.wrapping_add(c[4].unwrap_or(0)))
                })?;
            }
            Op::ViewOa => {
                let mut visited = Vec::new();
                self.world
                    .view::<(&O, &mut A)>()
                    .unwrap()
                    .for_each(|e, (ov, av)| {
                        av.0 = av.0.wrapping_add(ov.0 % 3);
                        visited.push(e);
                    });
                self.mirror_view("<O, A>", visited, 14, 0, |c| {
                    c[0].map(|a| a.wrapping_add(c[14].unwrap_or(0) % 3))
                })?;
            }
            Op::ViewGet { target } => {
                let e = self.resolve(target);
                let mut view = self.world.view::<(&C, &K)>().unwrap();
                let hint = view.len_hint();
                let got = view.get(e).map(|(c, k)| (c.0, k.0));
                let want = self.model.get(&e).and_then(|c| Some((c[2]?, c[10]?)));
                ensure!(got == want, "view <C, K> get {e:?}: {got:?}, want {want:?}");
                let count = |t: usize| self.model.values().filter(|c| c[t].is_some()).count();
                let most = count(2).min(count(10));
                let least = self
                    .model
                    .values()
                    .filter(|c| c[2].is_some() && c[10].is_some())
                    .count();
                ensure!(
                    (least..=most).contains(&hint),
                    "view <C, K> len_hint {hint}, want {least}..={most}"
                );
            }
            Op::View {
                kind,
                style,
                delta,
                probe,
            } => self.view_op(kind, style, delta, probe)?,
            Op::ViewRef { kind, style, probe } => self.view_ref_op(kind, style, probe)?,
            Op::GroupIter {
                group,
                spelling,
                style,
                ty,
                delta,
            } => self.group_iter_op(group, spelling, style, ty, delta)?,
            Op::Borrow { kind, delta, probe } => self.borrow_parts(kind, delta, probe)?,
            Op::Refused { kind } => self.refused(kind)?,
            Op::Commands {
                ref cmds,
                via_borrow,
            } => self.commands(cmds, via_borrow)?,
            Op::Reserve { count, action } => self.reserve(count, action)?,
            Op::InsertBatch {
                ty,
                ref items,
                ref repeats,
                poison,
            } => self.insert_batch_op(ty, items, repeats, poison)?,
            Op::RemoveBatch {
                ty,
                ref targets,
                ref repeats,
            } => self.remove_batch_op(ty, targets, repeats)?,
            Op::DestroyBatch {
                ref targets,
                ref repeats,
            } => self.destroy_batch_op(targets, repeats)?,
            Op::Clear { ty } => {
                dispatch!(ty, clear(&mut self.world));
                for comps in self.model.values_mut() {
                    comps[ty] = None;
                }
            }
            Op::Retain { kind, seed } => self.retain_op(kind, seed)?,
            Op::RetainComponent { kind, seed } => self.retain_component_op(kind, seed)?,
        }
        Ok(())
    }

    /// Checks that a view over types `x` and `y` visited exactly the entities having both,
    /// once each, and applies `update` (the new value of type `y`) to them in the model.
    fn mirror_view(
        &mut self,
        name: &str,
        visited: Vec<Entity>,
        x: usize,
        y: usize,
        update: impl Fn(&Comps) -> Option<u32>,
    ) -> Result<(), String> {
        let want = self
            .model
            .iter()
            .filter(|(_, c)| c[x].is_some() && c[y].is_some());
        let want = sorted(want.map(|(&e, _)| e).collect());
        let got = sorted(visited);
        ensure!(got == want, "view {name} visited {got:?}, want {want:?}");
        for e in want {
            let comps = self.model.get_mut(&e).expect("alive");
            comps[y] = update(comps);
        }
        Ok(())
    }
}
