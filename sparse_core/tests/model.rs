//! Model test of `sparse_core::World` with nested owning groups.
//!
//! The world owns two families, `<A,B> ⊂ <A,B,C> ⊂ <A,B,C,D>` and `<E,F>`, declared in a
//! random order and with randomly spelled tuples; `G` is ungrouped. Random sequences of
//! thousands of operations (spawn; insert, remove, `get_mut` and destroy on alive,
//! destroyed, never-spawned and future-version handles; group sorts; sorts of the
//! ungrouped and of grouped storages; group iteration; views) run against the world and
//! against a plain `HashMap<Entity, [Option<u32>; 7]>` model. After every operation the
//! world must pass `World::check` and agree with the model on liveness, every component
//! value of every handle ever spawned, every storage's size, every group's length, entity
//! set and aligned values (in every spelling of its tuple), and the nesting of `<A,B>`,
//! `<A,B,C>` and `<A,B,C,D>`; after a group sort, every layer of the group is sorted.
//!
//! The number of cases is 64, or `PROPTEST_CASES` when set.

use std::cmp::Ordering;
use std::collections::HashMap;

use proptest::prelude::*;
use sparse_core::ComponentSet;
use sparse_core::GroupSpec;
use sparse_core::{AccessError, Component, Entity, EntityError, World};

/// Number of component types.
const N: usize = 7;

/// Component values of an entity, indexed by `Val::IDX`.
type Comps = [Option<u32>; N];

/// A test component: a `u32` with a fixed index into `Comps`.
trait Val: Component + Copy + core::fmt::Debug {
    const IDX: usize;
    fn new(value: u32) -> Self;
    fn get(self) -> u32;
    fn slot(&mut self) -> &mut u32;
}

macro_rules! components {
    ($($T:ident = $i:expr),+ $(,)?) => {$(
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        struct $T(u32);
        impl Component for $T {}
        impl Val for $T {
            const IDX: usize = $i;
            fn new(value: u32) -> Self {
                $T(value)
            }
            fn get(self) -> u32 {
                self.0
            }
            fn slot(&mut self) -> &mut u32 {
                &mut self.0
            }
        }
    )+};
}

components!(A = 0, B = 1, C = 2, D = 3, E = 4, F = 5, G = 6);

const NAMES: [&str; N] = ["A", "B", "C", "D", "E", "F", "G"];

/// Calls `$f::<T>(args)` with the component type of index `$ty`.
macro_rules! dispatch {
    ($ty:expr, $f:ident($($arg:expr),* $(,)?)) => {
        match $ty {
            0 => $f::<A>($($arg),*),
            1 => $f::<B>($($arg),*),
            2 => $f::<C>($($arg),*),
            3 => $f::<D>($($arg),*),
            4 => $f::<E>($($arg),*),
            5 => $f::<F>($($arg),*),
            6 => $f::<G>($($arg),*),
            ty => unreachable!("no component type {ty}"),
        }
    };
}

/// A group tuple, in any spelling, seen through canonical component indices.
trait Tuple: ComponentSet {
    /// The values of the referenced components.
    fn vals(refs: Self::Refs<'_>) -> Comps;
    /// Adds `delta` to the component of index `ty` (if in the tuple); returns the values.
    fn bump(refs: Self::RefsMut<'_>, ty: usize, delta: u32) -> Comps;
    /// The values at `position` of the slices.
    fn slice_vals(slices: &Self::SlicesMut<'_>, position: usize) -> Comps;
    /// The lengths of the slices.
    fn slice_lens(slices: &Self::SlicesMut<'_>) -> Vec<usize>;
}

macro_rules! tuple_impl {
    ($(($T:ident, $i:tt)),+) => {
        impl<$($T: Val),+> Tuple for ($($T,)+) {
            fn vals(refs: Self::Refs<'_>) -> Comps {
                let mut comps = [None; N];
                $(comps[$T::IDX] = Some(refs.$i.get());)+
                comps
            }
            fn bump(refs: Self::RefsMut<'_>, ty: usize, delta: u32) -> Comps {
                let mut comps = [None; N];
                $(
                    if $T::IDX == ty {
                        let slot = refs.$i.slot();
                        *slot = slot.wrapping_add(delta);
                    }
                    comps[$T::IDX] = Some(refs.$i.get());
                )+
                comps
            }
            fn slice_vals(slices: &Self::SlicesMut<'_>, position: usize) -> Comps {
                let mut comps = [None; N];
                $(comps[$T::IDX] = Some(slices.$i[position].get());)+
                comps
            }
            fn slice_lens(slices: &Self::SlicesMut<'_>) -> Vec<usize> {
                vec![$(slices.$i.len()),+]
            }
        }
    };
}

tuple_impl!((T0, 0), (T1, 1));
tuple_impl!((T0, 0), (T1, 1), (T2, 2));
tuple_impl!((T0, 0), (T1, 1), (T2, 2), (T3, 3));

/// The four groups of the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Grp {
    Ab,
    Abc,
    Abcd,
    Ef,
}

const GROUPS: [Grp; 4] = [Grp::Ab, Grp::Abc, Grp::Abcd, Grp::Ef];

impl Grp {
    /// The owned types, canonical order.
    fn types(self) -> &'static [usize] {
        match self {
            Grp::Ab => &[0, 1],
            Grp::Abc => &[0, 1, 2],
            Grp::Abcd => &[0, 1, 2, 3],
            Grp::Ef => &[4, 5],
        }
    }

    /// How many spellings of the tuple `with_group!` knows.
    fn spellings(self) -> usize {
        match self {
            Grp::Ab | Grp::Ef => 2,
            Grp::Abc | Grp::Abcd => 3,
        }
    }

    /// The groups strictly inside this one, from the next one in to the innermost.
    fn inner(self) -> &'static [Grp] {
        match self {
            Grp::Ab => &[Grp::Abc, Grp::Abcd],
            Grp::Abc => &[Grp::Abcd],
            Grp::Abcd | Grp::Ef => &[],
        }
    }

    fn matches(self, comps: &Comps) -> bool {
        self.types().iter().all(|&t| comps[t].is_some())
    }
}

/// Runs `$body` with `$T` the tuple type of group `$g` in spelling `$sp`.
macro_rules! with_group {
    ($g:expr, $sp:expr, $T:ident => $body:expr) => {{
        let g: Grp = $g;
        match (g, $sp % g.spellings()) {
            (Grp::Ab, 0) => {
                type $T = (A, B);
                $body
            }
            (Grp::Ab, _) => {
                type $T = (B, A);
                $body
            }
            (Grp::Abc, 0) => {
                type $T = (A, B, C);
                $body
            }
            (Grp::Abc, 1) => {
                type $T = (C, A, B);
                $body
            }
            (Grp::Abc, _) => {
                type $T = (B, C, A);
                $body
            }
            (Grp::Abcd, 0) => {
                type $T = (A, B, C, D);
                $body
            }
            (Grp::Abcd, 1) => {
                type $T = (D, C, B, A);
                $body
            }
            (Grp::Abcd, _) => {
                type $T = (B, D, A, C);
                $body
            }
            (Grp::Ef, 0) => {
                type $T = (E, F);
                $body
            }
            (Grp::Ef, _) => {
                type $T = (F, E);
                $body
            }
        }
    }};
}

/// What a group sort compares, over the canonical order of the group's types.
#[derive(Clone, Copy, Debug)]
enum Key {
    First,
    Last,
    Sum,
}

fn key_of(group: Grp, key: Key, comps: &Comps) -> u64 {
    let types = group.types();
    let value = |t: usize| u64::from(comps[t].expect("group member has every owned type"));
    match key {
        Key::First => value(types[0]),
        Key::Last => value(types[types.len() - 1]),
        Key::Sum => types.iter().map(|&t| value(t)).sum(),
    }
}

fn order(x: u64, y: u64, descending: bool) -> Ordering {
    if descending { y.cmp(&x) } else { x.cmp(&y) }
}

/// Which entity an operation targets.
#[derive(Clone, Copy, Debug)]
enum Target {
    /// An alive entity (by index into the alive list), if any.
    Alive(usize),
    /// Any handle ever spawned, alive or destroyed.
    Any(usize),
    /// A destroyed handle, if any (its index may be reused by an alive entity).
    Dead(usize),
    /// A handle whose index was never spawned.
    Foreign(u32),
    /// An alive entity's index with a version it never had.
    FutureVersion(usize),
}

#[derive(Clone, Debug)]
enum Op {
    Spawn,
    Insert {
        ty: usize,
        target: Target,
        value: u32,
    },
    /// Several inserts in a row on one entity, in the given type order.
    InsertMany {
        types: Vec<usize>,
        target: Target,
        value: u32,
    },
    Remove {
        ty: usize,
        target: Target,
    },
    Destroy {
        target: Target,
    },
    GetMut {
        ty: usize,
        target: Target,
        delta: u32,
    },
    SortGroup {
        group: Grp,
        spelling: usize,
        key: Key,
        descending: bool,
    },
    SortUngrouped {
        descending: bool,
    },
    SortOwned {
        ty: usize,
    },
    Iterate {
        group: Grp,
        spelling: usize,
        ty: usize,
        delta: u32,
    },
    ViewEg,
    ViewGa,
}

fn target() -> impl Strategy<Value = Target> {
    prop_oneof![
        32 => any::<usize>().prop_map(Target::Alive),
        3 => any::<usize>().prop_map(Target::Any),
        3 => any::<usize>().prop_map(Target::Dead),
        1 => (1_000_000u32..1_000_004).prop_map(Target::Foreign),
        1 => any::<usize>().prop_map(Target::FutureVersion),
    ]
}

fn group() -> impl Strategy<Value = Grp> {
    prop::sample::select(GROUPS.to_vec())
}

fn op() -> impl Strategy<Value = Op> {
    let key = prop_oneof![Just(Key::First), Just(Key::Last), Just(Key::Sum)];
    // A shuffled subset of the types: mostly of the first family, to fill its groups.
    let types = prop_oneof![
        3 => prop::sample::subsequence(vec![0, 1, 2, 3], 1..=4).prop_shuffle(),
        1 => prop::sample::subsequence((0..N).collect::<Vec<_>>(), 1..=N).prop_shuffle(),
    ];
    prop_oneof![
        6 => Just(Op::Spawn),
        28 => (0..N, target(), 0u32..32)
            .prop_map(|(ty, target, value)| Op::Insert { ty, target, value }),
        5 => (types, target(), 0u32..32)
            .prop_map(|(types, target, value)| Op::InsertMany { types, target, value }),
        14 => (0..N, target()).prop_map(|(ty, target)| Op::Remove { ty, target }),
        5 => target().prop_map(|target| Op::Destroy { target }),
        3 => (0..N, target(), 0u32..4)
            .prop_map(|(ty, target, delta)| Op::GetMut { ty, target, delta }),
        5 => (group(), 0usize..6, key, any::<bool>()).prop_map(
            |(group, spelling, key, descending)| Op::SortGroup { group, spelling, key, descending }
        ),
        2 => any::<bool>().prop_map(|descending| Op::SortUngrouped { descending }),
        1 => (0usize..6).prop_map(|ty| Op::SortOwned { ty }),
        4 => (group(), 0usize..6, 0usize..4, 0u32..4)
            .prop_map(|(group, spelling, ty, delta)| Op::Iterate { group, spelling, ty, delta }),
        1 => Just(Op::ViewEg),
        1 => Just(Op::ViewGa),
    ]
}

fn spec(group: Grp, spelling: usize) -> GroupSpec {
    with_group!(group, spelling, T => GroupSpec::of::<T>())
}

/// Returns `Err(format!(..))` from the enclosing function unless `$cond` holds.
macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(format!($($fmt)+));
        }
    };
}

fn group_entities<T: Tuple>(world: &mut World) -> Result<Vec<Entity>, AccessError> {
    Ok(world.group::<T>()?.entities().to_vec())
}

fn group_len<T: Tuple>(world: &World) -> Result<usize, AccessError> {
    world.group_len::<T>()
}

/// The entities and the values read through `into_slices`, checked to be aligned.
fn group_slices<T: Tuple>(world: &mut World) -> Result<Vec<(Entity, Comps)>, String> {
    let group = world.group::<T>().map_err(|e| e.to_string())?;
    ensure!(group.len() == group.entities().len(), "GroupMut::len");
    ensure!(
        group.is_empty() == group.entities().is_empty(),
        "GroupMut::is_empty"
    );
    let (entities, slices) = group.into_slices();
    let lens = T::slice_lens(&slices);
    ensure!(
        lens.iter().all(|&l| l == entities.len()),
        "slices of {} entities have lengths {lens:?}",
        entities.len()
    );
    Ok(entities
        .iter()
        .enumerate()
        .map(|(i, &e)| (e, T::slice_vals(&slices, i)))
        .collect())
}

fn sort_group<T: Tuple>(
    world: &mut World,
    group: Grp,
    key: Key,
    descending: bool,
) -> Result<(), AccessError> {
    world.sort_group::<T>(|x, y| {
        let (x, y) = (
            key_of(group, key, &T::vals(x)),
            key_of(group, key, &T::vals(y)),
        );
        order(x, y, descending)
    })
}

fn iterate<T: Tuple>(
    world: &mut World,
    ty: usize,
    delta: u32,
) -> Result<Vec<(Entity, Comps)>, AccessError> {
    let mut visited = Vec::new();
    world
        .group::<T>()?
        .for_each(|e, refs| visited.push((e, T::bump(refs, ty, delta))));
    Ok(visited)
}

/// The values of `entities`' `T`, read from the storage of `T` (looked up once).
fn column<T: Val>(world: &World, entities: &[Entity]) -> Vec<Option<u32>> {
    let storage = world.storage::<T>();
    entities
        .iter()
        .map(|&e| storage.and_then(|s| s.get(e)).map(|v| v.get()))
        .collect()
}

fn get<T: Val>(world: &World, e: Entity) -> Option<u32> {
    world.get::<T>(e).map(|v| v.get())
}

fn contains<T: Val>(world: &World, e: Entity) -> bool {
    world.contains::<T>(e)
}

fn storage_len<T: Val>(world: &World) -> usize {
    world.storage::<T>().map_or(0, |s| s.len())
}

fn storage_order<T: Val>(world: &World) -> Vec<Entity> {
    world
        .storage::<T>()
        .map_or_else(Vec::new, |s| s.entities().to_vec())
}

fn insert<T: Val>(world: &mut World, e: Entity, value: u32) -> Result<Option<u32>, EntityError> {
    world.insert(e, T::new(value)).map(|old| old.map(Val::get))
}

fn remove<T: Val>(world: &mut World, e: Entity) -> Option<u32> {
    world.remove::<T>(e).map(Val::get)
}

fn get_mut<T: Val>(world: &mut World, e: Entity, delta: u32) -> Option<u32> {
    world.get_mut::<T>(e).map(|v| {
        *v.slot() = v.get().wrapping_add(delta);
        v.get()
    })
}

/// Attempts to sort a grouped storage: must be refused and must not move anything.
fn sort_owned<T: Val>(world: &mut World) -> Result<(), String> {
    let before = world.storage::<T>().map(|s| s.entities().to_vec());
    let result = world.sort::<T>(|x, y| y.get().cmp(&x.get()));
    let name = core::any::type_name::<T>();
    ensure!(
        result == Err(AccessError::OwnedByGroup(name)),
        "sort::<{name}> gave {result:?}"
    );
    let after = world.storage::<T>().map(|s| s.entities().to_vec());
    ensure!(before == after, "a refused sort::<{name}> moved entities");
    Ok(())
}

fn sorted(mut entities: Vec<Entity>) -> Vec<Entity> {
    entities.sort_unstable();
    entities
}

/// The world under test and its model.
struct Harness {
    world: World,
    /// The model: component values of every alive entity.
    model: HashMap<Entity, Comps>,
    /// Alive entities, in spawn order.
    alive: Vec<Entity>,
    /// Destroyed entities, in destruction order.
    dead: Vec<Entity>,
    /// Every handle ever spawned, in spawn order.
    all: Vec<Entity>,
}

impl Harness {
    fn new(world: World) -> Self {
        Harness {
            world,
            model: HashMap::new(),
            alive: Vec::new(),
            dead: Vec::new(),
            all: Vec::new(),
        }
    }

    fn resolve(&self, target: Target) -> Entity {
        let pick = |list: &[Entity], i: usize| (!list.is_empty()).then(|| list[i % list.len()]);
        let picked = match target {
            Target::Alive(i) => pick(&self.alive, i),
            Target::Any(i) => pick(&self.all, i),
            Target::Dead(i) => pick(&self.dead, i),
            Target::Foreign(i) => Entity::from_raw_parts(i, 1),
            Target::FutureVersion(i) => pick(&self.alive, i)
                .and_then(|e| Entity::from_raw_parts(e.index(), e.version() + 1)),
        };
        picked.unwrap_or_else(|| Entity::from_raw_parts(2_000_000, 1).expect("valid raw parts"))
    }

    /// Whether `op` must leave every storage's order as it is: failed and no-op structural
    /// changes (dead handles, absent components, replaced values) and value-only access.
    fn keeps_layout(&self, op: &Op) -> bool {
        let has = |target: Target, ty: usize| {
            self.model
                .get(&self.resolve(target))
                .map(|c| c[ty].is_some())
        };
        match *op {
            Op::Insert { ty, target, .. } => has(target, ty) != Some(false),
            Op::InsertMany { target, .. } | Op::Destroy { target } => has(target, 0).is_none(),
            Op::Remove { ty, target } => has(target, ty) != Some(true),
            Op::Spawn
            | Op::GetMut { .. }
            | Op::SortOwned { .. }
            | Op::Iterate { .. }
            | Op::ViewEg
            | Op::ViewGa => true,
            Op::SortGroup { .. } | Op::SortUngrouped { .. } => false,
        }
    }

    /// The entity order of every storage.
    fn layout(&self) -> Vec<Vec<Entity>> {
        (0..N)
            .map(|ty| dispatch!(ty, storage_order(&self.world)))
            .collect()
    }

    /// The model's entities having every type of `group`, sorted.
    fn members(&self, group: Grp) -> Vec<Entity> {
        let members = self
            .model
            .iter()
            .filter(|(_, c)| group.matches(c))
            .map(|(&e, _)| e);
        sorted(members.collect())
    }

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
    fn apply(&mut self, op: &Op) -> Result<(), String> {
        match *op {
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
                self.model.insert(e, [None; N]);
                self.alive.push(e);
                self.all.push(e);
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
            } => {
                let result = with_group!(group, spelling, T => {
                    sort_group::<T>(&mut self.world, group, key, descending)
                });
                ensure!(result.is_ok(), "sort_group {group:?}: {result:?}");
            }
            Op::SortUngrouped { descending } => {
                let result = self
                    .world
                    .sort::<G>(|x, y| order(x.0.into(), y.0.into(), descending));
                ensure!(result.is_ok(), "sort::<G>: {result:?}");
                let storage = self
                    .world
                    .storage::<G>()
                    .expect("sort registers the storage");
                let values = storage.components();
                ensure!(
                    values
                        .windows(2)
                        .all(|w| order(w[0].0.into(), w[1].0.into(), descending).is_le()),
                    "sort::<G> (descending: {descending}) left {values:?}"
                );
            }
            Op::SortOwned { ty } => dispatch!(ty, sort_owned(&mut self.world))?,
            Op::Iterate {
                group,
                spelling,
                ty,
                delta,
            } => {
                let ty = group.types()[ty % group.types().len()];
                let visited = with_group!(group, spelling, T => {
                    iterate::<T>(&mut self.world, ty, delta)
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
                    for &t in group.types() {
                        ensure!(
                            comps[t] == model[t],
                            "iterating {group:?}: {e:?}'s {} is {:?}, want {:?}",
                            NAMES[t],
                            comps[t],
                            model[t]
                        );
                    }
                }
            }
            Op::ViewEg => {
                let mut visited = Vec::new();
                self.world.view::<(E, G)>().for_each(|e, (ev, gv)| {
                    gv.0 = gv.0.wrapping_add(ev.0);
                    visited.push(e);
                });
                self.mirror_view("<E, G>", visited, 4, 6, |c| {
                    c[6].map(|g| g.wrapping_add(c[4].unwrap_or(0)))
                })?;
            }
            Op::ViewGa => {
                let mut visited = Vec::new();
                self.world.view::<(G, A)>().for_each(|e, (gv, av)| {
                    av.0 = av.0.wrapping_add(gv.0 % 3);
                    visited.push(e);
                });
                self.mirror_view("<G, A>", visited, 6, 0, |c| {
                    c[0].map(|a| a.wrapping_add(c[6].unwrap_or(0) % 3))
                })?;
            }
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

    /// Checks the whole world against the model. `round` rotates the costlier probes.
    fn check(&mut self, round: usize) -> Result<(), String> {
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
        for ty in 0..N {
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
        let ty = round % N;
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
            let members = self.members(group);
            let len = with_group!(group, 0, T => group_len::<T>(&self.world))
                .map_err(|e| e.to_string())?;
            ensure!(
                len == members.len(),
                "group_len {group:?} is {len}, model {}",
                members.len()
            );
            let entries = with_group!(group, 0, T => group_slices::<T>(&mut self.world))?;
            let entities: Vec<Entity> = entries.iter().map(|&(e, _)| e).collect();
            ensure!(
                entities.len() == len,
                "group {group:?} has {} entities, group_len {len}",
                entities.len()
            );
            let set = sorted(entities.clone());
            ensure!(
                set == members,
                "group {group:?} holds {entities:?}, model {members:?}"
            );
            for (e, comps) in &entries {
                let model = &self.model[e];
                for &t in group.types() {
                    ensure!(
                        comps[t] == model[t],
                        "group {group:?}: slice {} of {e:?} is {:?}, want {:?}",
                        NAMES[t],
                        comps[t],
                        model[t]
                    );
                }
            }
            // Another spelling of the tuple names the same group.
            let spelling = 1 + round % (group.spellings() - 1);
            let other = with_group!(group, spelling, T => group_entities::<T>(&mut self.world))
                .map_err(|e| e.to_string())?;
            ensure!(
                other == entities,
                "group {group:?} spelling {spelling} gives {other:?}, not {entities:?}"
            );
            let other_len = with_group!(group, spelling, T => group_len::<T>(&self.world))
                .map_err(|e| e.to_string())?;
            ensure!(
                other_len == len,
                "group_len {group:?} spelling {spelling} is {other_len}, not {len}"
            );
            slices.push(entities);
        }
        // Nesting: each inner group is the prefix of its outer group, in the same order.
        for (outer, inner) in [(Grp::Ab, Grp::Abc), (Grp::Abc, Grp::Abcd)] {
            let (o, i) = (&slices[index(outer)], &slices[index(inner)]);
            ensure!(
                o.len() >= i.len() && o[..i.len()] == i[..],
                "{inner:?} {i:?} is not the prefix of {outer:?} {o:?}"
            );
        }
        Ok(())
    }

    /// Checks that `group` is sorted layer by layer: each range between the lengths of two
    /// successive nested groups (and the innermost group itself) is ordered by `key`.
    fn check_sorted(&mut self, group: Grp, key: Key, descending: bool) -> Result<(), String> {
        let entities = with_group!(group, 0, T => group_entities::<T>(&mut self.world))
            .map_err(|e| e.to_string())?;
        let inner = group.inner().iter().rev();
        let mut ends: Vec<usize> = inner.map(|&g| self.members(g).len()).collect();
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

fn index(group: Grp) -> usize {
    GROUPS
        .iter()
        .position(|&g| g == group)
        .expect("known group")
}

/// Builds the world with the groups in `order`, each in its `spellings` entry, then runs
/// `ops`, checking everything after each.
fn run(order: &[usize], spellings: [usize; 4], ops: &[Op]) -> Result<(), String> {
    let specs = order.iter().map(|&g| spec(GROUPS[g], spellings[g]));
    let world = World::with_groups(specs)
        .map_err(|e| format!("groups {order:?} {spellings:?} rejected: {e:?}"))?;
    let mut h = Harness::new(world);
    let no_such = h.world.group::<(A, C)>().err();
    ensure!(
        matches!(no_such, Some(AccessError::NoSuchGroup(_))),
        "group <A, C> gave {no_such:?}"
    );
    let no_such = h.world.group_len::<(A, B, G)>();
    ensure!(
        matches!(no_such, Err(AccessError::NoSuchGroup(_))),
        "group <A, B, G> gave {no_such:?}"
    );
    h.check(0).map_err(|e| format!("before any op: {e}"))?;
    for (i, op) in ops.iter().enumerate() {
        let context = |e: String| format!("op #{i} {op:?}: {e}");
        let before = h.keeps_layout(op).then(|| h.layout());
        h.apply(op).map_err(context)?;
        if let Some(before) = before {
            let after = h.layout();
            ensure!(
                before == after,
                "op #{i} {op:?} moved entities: {before:?} -> {after:?}"
            );
        }
        h.check(i).map_err(context)?;
        if let Op::SortGroup {
            group,
            key,
            descending,
            ..
        } = *op
        {
            h.check_sorted(group, key, descending).map_err(context)?;
        }
    }
    Ok(())
}

fn config() -> ProptestConfig {
    let default = ProptestConfig::default();
    ProptestConfig {
        // proptest reads PROPTEST_CASES into its default; without it, run 64 cases.
        cases: if std::env::var_os("PROPTEST_CASES").is_some() {
            default.cases
        } else {
            64
        },
        // Each case replays thousands of checked ops: bound the shrinking time (ms).
        max_shrink_time: 120_000,
        // Write no regression file next to this test.
        failure_persistence: None,
        ..default
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn world_matches_model(
        order in Just(vec![0usize, 1, 2, 3]).prop_shuffle(),
        spellings in prop::array::uniform4(0usize..6),
        ops in prop::collection::vec(op(), 1000..3000),
    ) {
        run(&order, spellings, &ops).map_err(TestCaseError::fail)?;
    }
}

/// The article's example: `<A,B>` holds e4 and e7, e8 has A and C; giving e8 a B must
/// make it enter `<A,B>` then `<A,B,C>` without pushing e4 out of `<A,B>`.
#[test]
fn article_e8_enters_both_groups_and_e4_stays() {
    let declarations: [fn() -> Vec<GroupSpec>; 3] = [
        || vec![GroupSpec::of::<(A, B)>(), GroupSpec::of::<(A, B, C)>()],
        || vec![GroupSpec::of::<(A, B, C)>(), GroupSpec::of::<(A, B)>()],
        || vec![GroupSpec::of::<(C, B, A)>(), GroupSpec::of::<(B, A)>()],
    ];
    for declare in declarations {
        let mut world = World::with_groups(declare()).expect("nested groups are valid");
        let set = |entities: &[Entity]| sorted(entities.to_vec());
        // e[i] is the i-th spawned entity.
        let e: Vec<Entity> = (0..9).map(|_| world.spawn()).collect();
        for (i, value) in [(4, 4), (7, 1), (3, 0), (8, 2), (6, 3)] {
            world.insert(e[i], A(value)).unwrap();
        }
        for (i, value) in [(4, 0), (7, 2), (5, 1)] {
            world.insert(e[i], B(value)).unwrap();
        }
        for (i, value) in [(6, 2), (8, 0), (5, 1)] {
            world.insert(e[i], C(value)).unwrap();
        }
        world.check().unwrap();
        let ab = world.group::<(A, B)>().unwrap().entities().to_vec();
        assert_eq!(set(&ab), set(&[e[4], e[7]]));
        assert_eq!(world.group_len::<(A, B, C)>(), Ok(0));

        assert_eq!(world.insert(e[8], B(3)), Ok(None));
        world.check().unwrap();
        let ab = world.group::<(A, B)>().unwrap().entities().to_vec();
        let abc = world.group::<(A, B, C)>().unwrap().entities().to_vec();
        assert!(ab.contains(&e[4]), "e4 stays in <A,B>: {ab:?}");
        assert_eq!(set(&ab), set(&[e[4], e[7], e[8]]));
        assert_eq!(abc, vec![e[8]], "e8 is in <A,B,C>");
        assert_eq!(ab[..1], abc[..], "<A,B,C> is the prefix of <A,B>");
        assert_eq!(world.get::<A>(e[4]), Some(&A(4)));
        assert_eq!(world.get::<B>(e[8]), Some(&B(3)));
        assert_eq!(world.get::<C>(e[8]), Some(&C(0)));

        // Leaving: innermost first, e4 and e7 untouched.
        assert_eq!(world.remove::<C>(e[8]), Some(C(0)));
        world.check().unwrap();
        assert_eq!(world.group_len::<(A, B)>(), Ok(3));
        assert_eq!(world.group_len::<(A, B, C)>(), Ok(0));
        world.insert(e[8], C(5)).unwrap();
        world.insert(e[4], C(6)).unwrap();
        world.check().unwrap();
        let abc = world.group::<(A, B, C)>().unwrap().entities().to_vec();
        assert_eq!(set(&abc), set(&[e[4], e[8]]));
        assert_eq!(world.remove::<B>(e[8]), Some(B(3)));
        world.check().unwrap();
        let ab = world.group::<(A, B)>().unwrap().entities().to_vec();
        assert_eq!(set(&ab), set(&[e[4], e[7]]));
        assert_eq!(world.group::<(A, B, C)>().unwrap().entities(), &[e[4]]);
        assert_eq!(ab[0], e[4], "<A,B,C> is the prefix of <A,B>");
        world.destroy(e[4]).unwrap();
        world.check().unwrap();
        assert_eq!(world.group::<(A, B)>().unwrap().entities(), &[e[7]]);
        assert_eq!(world.group_len::<(A, B, C)>(), Ok(0));
        assert_eq!(world.get::<A>(e[4]), None);
    }
}
