//! Borrow requests: several parts at once, each walked or read, and the requests the world
//! must refuse.

use sparse_core::{
    AccessError, Entities, Entity, Exclude, Get, GroupMut, GroupRef, Storage, ValuesMut, View,
    With, Without,
};

use crate::components::{A, B, C, Comps, D, E, F, G, H, I, J, K, L, M, N, O, Z, comps_of, touch};
use crate::groups::Grp;
use crate::harness::{Harness, sorted};
use crate::ops::Target;
use crate::views::{Dense, ViewSpec};

impl Harness {
    /// Borrow request `kind`: several parts at once, each walked or read, values changed
    /// through the mutable ones; the model mirrors every change.
    pub(crate) fn borrow_parts(
        &mut self,
        kind: usize,
        delta: u32,
        probe: Target,
    ) -> Result<(), String> {
        let probe = self.resolve(probe);
        let err = |e: AccessError| format!("borrow {kind}: {e}");
        match kind {
            0 => {
                // A mutable group and another storage, read.
                let (group, os) = self
                    .world
                    .borrow::<(GroupMut<(A, B)>, &Storage<O>)>()
                    .map_err(err)?;
                let o_len = os.len();
                let mut visited = Vec::new();
                for (e, (a, b)) in group {
                    let add = os.get(e).map_or(delta, |o| o.0 % 5);
                    a.0 = a.0.wrapping_add(add);
                    visited.push((e, comps_of(&(&*a, &*b))));
                }
                ensure!(o_len == self.count(14), "storage O holds {o_len}");
                for &(e, _) in &visited {
                    let model = self.model.get_mut(&e).expect("member is alive");
                    let add = model[14].map_or(delta, |o| o % 5);
                    model[0] = model[0].map(|a| a.wrapping_sub(delta).wrapping_add(add));
                }
                self.check_members("<A,B> next to storage O", Grp::Ab, &visited, &[0], delta)
            }
            1 => {
                // Two disjoint mutable groups.
                let (mut efgh, ijk) = self
                    .world
                    .borrow::<(GroupMut<(H, G, F, E)>, GroupMut<(I, J, Exclude<K>)>)>()
                    .map_err(err)?;
                let (mut first, mut second) = (Vec::new(), Vec::new());
                for (e, item) in &mut efgh {
                    first.push((e, touch(item, &[4], delta)));
                }
                let len = efgh.len();
                for (e, item) in ijk {
                    second.push((e, touch(item, &[9], delta)));
                }
                ensure!(len == first.len(), "GroupMut::len {len} after the walk");
                self.check_members("<E,F,G,H> next to <I,J>", Grp::Efgh, &first, &[4], delta)?;
                self.check_members("<I,J> next to <E,F,G,H>", Grp::IjxK, &second, &[9], delta)
            }
            2 => {
                // A mutable group, a read-only group and the values of a third type.
                let (jgeti, lref, mut os) = self
                    .world
                    .borrow::<(
                        GroupMut<(J, Get<I>)>,
                        GroupRef<(L, Get<A>, Exclude<K>)>,
                        ValuesMut<O>,
                    )>()
                    .map_err(err)?;
                let values: Vec<(Entity, u32)> = os.iter().map(|(e, o)| (e, o.0)).collect();
                ensure!(
                    os.len() == values.len()
                        && os.entities().len() == os.values().len()
                        && os.is_empty() == values.is_empty(),
                    "ValuesMut<O> lengths"
                );
                let probed = (os.contains(probe), os.get(probe).map(|o| o.0));
                let mut first = Vec::new();
                for (e, (j, i)) in jgeti {
                    j.0 = j.0.wrapping_add(delta);
                    if let Some(o) = os.get_mut(e) {
                        o.0 = o.0.wrapping_add(i.0 % 3);
                    }
                    first.push((e, comps_of(&(&*j, &*i))));
                }
                let mut second = Vec::new();
                for (e, item) in &lref {
                    second.push((e, comps_of(&item)));
                }
                let want = self.model.get(&probe).and_then(|c| c[14]);
                ensure!(
                    probed == (want.is_some(), want),
                    "ValuesMut<O> contains/get({probe:?}): {probed:?}, want {want:?}"
                );
                ensure!(
                    values.len() == self.count(14),
                    "ValuesMut<O>::len {}",
                    values.len()
                );
                for (e, o) in values {
                    let want = self.model.get(&e).and_then(|c| c[14]);
                    ensure!(
                        want == Some(o),
                        "ValuesMut<O>: {e:?} has {o}, model {want:?}"
                    );
                }
                for &(e, comps) in &first {
                    let model = self.model.get_mut(&e).expect("member is alive");
                    let i = comps[8].expect("observed");
                    model[14] = model[14].map(|o| o.wrapping_add(i % 3));
                }
                self.check_members(
                    "<J, get(I)> next to ValuesMut<O>",
                    Grp::JgetI,
                    &first,
                    &[9],
                    delta,
                )?;
                self.check_members(
                    "<L, get(A), exclude(K)> read",
                    Grp::LgetAxK,
                    &second,
                    &[],
                    0,
                )
            }
            3 => {
                // The values of one type, a read-only group, the entities, a storage.
                let (mut cs, ab, entities, ks) = self
                    .world
                    .borrow::<(ValuesMut<C>, GroupRef<(B, A)>, &Entities, &Storage<K>)>()
                    .map_err(err)?;
                let alive = (entities.len(), entities.is_alive(probe));
                let k_len = ks.len();
                for (_, c) in cs.iter_mut() {
                    c.0 = c.0.wrapping_add(delta);
                }
                for c in cs.values_mut() {
                    c.0 = c.0.wrapping_add(delta);
                }
                let values: Vec<(Entity, u32)> = cs
                    .entities()
                    .iter()
                    .zip(cs.values())
                    .map(|(&e, c)| (e, c.0))
                    .collect();
                let mut visited = Vec::new();
                for (e, item) in &ab {
                    visited.push((e, comps_of(&item)));
                }
                ensure!(
                    alive == (self.model.len(), self.model.contains_key(&probe)),
                    "&Entities: len and is_alive({probe:?}) are {alive:?}"
                );
                ensure!(k_len == self.count(10), "&Storage<K>::len {k_len}");
                ensure!(
                    values.len() == self.count(2),
                    "ValuesMut<C> holds {}",
                    values.len()
                );
                for (e, c) in values {
                    let model = self
                        .model
                        .get_mut(&e)
                        .ok_or(format!("ValuesMut<C>: {e:?} is dead"))?;
                    let want = model[2].map(|v| v.wrapping_add(delta).wrapping_add(delta));
                    ensure!(
                        want == Some(c),
                        "ValuesMut<C>: {e:?} has {c}, model {want:?}"
                    );
                    model[2] = want;
                }
                self.check_members("<A,B> read next to ValuesMut<C>", Grp::Ab, &visited, &[], 0)
            }
            4 => {
                // A filtered view and a group with observed types.
                let (view, group) = self
                    .world
                    .borrow::<(View<(&mut K,), With<A>>, GroupMut<(M, Get<(B, N)>)>)>()
                    .map_err(err)?;
                let (mut first, mut second) = (Vec::new(), Vec::new());
                for (e, item) in view {
                    first.push((e, touch(item, &[10], delta)));
                }
                group.for_each(|e, item| second.push((e, touch(item, &[12], delta))));
                let spec = view_spec!([10], [], [0], [], [10], Dense::No);
                self.check_walk(
                    "view <K> with A next to <M, get(B, N)>",
                    &spec,
                    &first,
                    delta,
                )?;
                self.check_members(
                    "<M, get(B, N)> next to a view",
                    Grp::MgetBn,
                    &second,
                    &[12],
                    delta,
                )
            }
            _ => {
                // Read-only parts sharing a type.
                let (ab, abc, a_storage, view) = self
                    .world
                    .borrow_ref::<(
                        GroupRef<(A, B)>,
                        GroupRef<(A, B, C)>,
                        &Storage<A>,
                        View<(&A, &C)>,
                    )>()
                    .map_err(err)?;
                let (outer, inner) = (ab.entities().to_vec(), abc.entities().to_vec());
                let prefix = a_storage.entities().starts_with(&outer) && outer.starts_with(&inner);
                let visited: Vec<(Entity, Comps)> =
                    view.iter().map(|(e, item)| (e, comps_of(&item))).collect();
                ensure!(prefix, "<A,B,C> {inner:?} in <A,B> {outer:?} in storage A");
                ensure!(
                    sorted(outer) == self.members(Grp::Ab)
                        && sorted(inner) == self.members(Grp::Abc),
                    "read-only groups next to each other"
                );
                let spec = view_spec!([0, 2], [], [], [], [], Dense::No);
                self.check_walk("view <A, C> next to the groups", &spec, &visited, 0)
                    .map(drop)
            }
        }
    }

    /// Request `kind`, which the world must refuse (and then change nothing): overlapping
    /// borrows, read-only access to a type never stored, groups the world does not have.
    pub(crate) fn refused(&mut self, kind: usize) -> Result<(), String> {
        let conflict = |name: &'static str| Err(AccessError::Conflict(name));
        let not_stored = Err(AccessError::NotStored(core::any::type_name::<Z>()));
        let name = core::any::type_name::<A>;
        let (got, want): (Result<(), AccessError>, Result<(), AccessError>) = match kind {
            0 => (
                self.world
                    .borrow::<(GroupMut<(A, B)>, &Storage<A>)>()
                    .map(drop),
                conflict(name()),
            ),
            1 => (
                self.world.view::<(&mut A, &A)>().map(drop),
                conflict(name()),
            ),
            2 => (
                self.world
                    .borrow::<(View<(&mut C,)>, GroupMut<(A, B, C)>)>()
                    .map(drop),
                conflict(core::any::type_name::<C>()),
            ),
            3 => (
                self.world
                    .borrow::<(ValuesMut<O>, ValuesMut<O>)>()
                    .map(drop),
                conflict(core::any::type_name::<O>()),
            ),
            4 => (
                self.world
                    .borrow::<(GroupMut<(A, B, C, D)>, GroupRef<Get<D>>)>()
                    .map(drop),
                conflict(core::any::type_name::<D>()),
            ),
            // A filter borrows nothing (`With<E>` beside `&mut E` is served), but a
            // storage read beside a view writing it is refused.
            5 => (
                self.world
                    .borrow::<(View<&mut E, With<E>>, &Storage<E>)>()
                    .map(drop),
                conflict(core::any::type_name::<E>()),
            ),
            6 => (self.world.view_ref::<&Z>().map(drop), not_stored),
            7 => (
                self.world
                    .borrow_ref::<(GroupRef<(A, B)>, &Storage<Z>)>()
                    .map(drop),
                not_stored,
            ),
            8 => (
                self.world.borrow_ref::<View<&A, Without<Z>>>().map(drop),
                not_stored,
            ),
            9 => {
                let missing = |r: Result<(), AccessError>| match r {
                    Err(AccessError::NoSuchGroup(_)) => Ok(()),
                    other => other.and(Err(AccessError::NoSuchGroup(String::new()))),
                };
                let got = missing(self.world.borrow::<GroupMut<(A, C)>>().map(drop))
                    .and_then(|()| missing(self.world.group_ref::<(I, J)>().map(drop)))
                    .and_then(|()| {
                        missing(
                            self.world
                                .borrow_ref::<(GroupRef<(A, B)>, GroupRef<(E, Get<H>)>)>()
                                .map(drop),
                        )
                    })
                    .and_then(|()| {
                        missing(
                            self.world
                                .borrow::<(GroupMut<(A, B)>, GroupMut<(Get<E>, Exclude<K>)>)>()
                                .map(drop),
                        )
                    });
                (got, Ok(()))
            }
            10 => {
                let mut called = false;
                let got = self.world.retain::<(&mut A, &A)>(|_, _| {
                    called = true;
                    false
                });
                ensure!(!called, "a refused retain walked");
                (got.map(drop), conflict(name()))
            }
            _ => {
                let got = self
                    .world
                    .retain_component::<A, (&mut B, Option<&B>)>(|_, _| false);
                (got.map(drop), conflict(core::any::type_name::<B>()))
            }
        };
        ensure!(got == want, "request {kind}: got {got:?}, want {want:?}");
        Ok(())
    }
}
