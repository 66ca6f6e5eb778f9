//! Model test of `sparse_core::World` with nested owning groups.
//!
//! The world owns two families, `<A,B> ⊂ <A,B,C> ⊂ <A,B,C,D>` and `<E,F>`, declared in a
//! random order and with randomly spelled tuples; `G` is ungrouped. Random sequences of
//! thousands of operations (spawn, insert, remove, destroy, stale handles, `get_mut`,
//! group and storage sorts, group iteration, views) run against the world and against a
//! plain `HashMap<Entity, [Option<u32>; 7]>` model; after every operation the world must
//! pass `World::check` and agree with the model on liveness, every component value, every
//! group's length and entity set, and the nesting of the groups of a family.
//!
//! The number of cases is 64, or `PROPTEST_CASES` when set.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};

use proptest::prelude::*;
use sparse_core::component::ComponentSet;
use sparse_core::world::GroupSpec;
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
    /// A handle whose index was never spawned.
    Foreign(u32),
    /// An alive entity's index with a version it never had.
    FutureVersion(usize),
}

#[derive(Clone, Debug)]
enum Op {
    Spawn,
    Insert { ty: usize, target: Target, value: u32 },
    Remove { ty: usize, target: Target },
    Destroy { target: Target },
    GetMut { ty: usize, target: Target, delta: u32 },
    SortGroup { group: Grp, spelling: usize, key: Key, descending: bool },
    SortUngrouped { descending: bool },
    SortOwned { ty: usize },
    Iterate { group: Grp, spelling: usize, ty: usize, delta: u32 },
    ViewEg,
    ViewGa,
}

fn target() -> impl Strategy<Value = Target> {
    prop_oneof![
        16 => any::<usize>().prop_map(Target::Alive),
        3 => any::<usize>().prop_map(Target::Any),
        1 => (0u32..4).prop_map(|i| Target::Foreign(1_000_000 + i)),
        1 => any::<usize>().prop_map(Target::FutureVersion),
    ]
}

fn group() -> impl Strategy<Value = Grp> {
    prop::sample::select(GROUPS.to_vec())
}

fn op() -> impl Strategy<Value = Op> {
    let key = prop_oneof![Just(Key::First), Just(Key::Last), Just(Key::Sum)];
    prop_oneof![
        10 => Just(Op::Spawn),
        30 => (0..N, target(), 0u32..32).prop_map(|(ty, target, value)| Op::Insert { ty, target, value }),
        14 => (0..N, target()).prop_map(|(ty, target)| Op::Remove { ty, target }),
        6 => target().prop_map(|target| Op::Destroy { target }),
        3 => (0..N, target(), 0u32..4).prop_map(|(ty, target, delta)| Op::GetMut { ty, target, delta }),
        5 => (group(), 0usize..6, key, any::<bool>())
            .prop_map(|(group, spelling, key, descending)| Op::SortGroup { group, spelling, key, descending }),
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
    let (entities, slices) = world.group::<T>().map_err(|e| e.to_string())?.into_slices();
    let lens = T::slice_lens(&slices);
    ensure!(lens.iter().all(|&l| l == entities.len()), "slices of {} entities have lengths {lens:?}", entities.len());
    Ok(entities.iter().enumerate().map(|(i, &e)| (e, T::slice_vals(&slices, i))).collect())
}

fn sort_group<T: Tuple>(world: &mut World, group: Grp, key: Key, descending: bool) -> Result<(), AccessError> {
    world.sort_group::<T>(|x, y| order(key_of(group, key, &T::vals(x)), key_of(group, key, &T::vals(y)), descending))
}

fn iterate<T: Tuple>(world: &mut World, ty: usize, delta: u32) -> Result<Vec<(Entity, Comps)>, AccessError> {
    let mut visited = Vec::new();
    world.group::<T>()?.for_each(|e, refs| visited.push((e, T::bump(refs, ty, delta))));
    Ok(visited)
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
    ensure!(result == Err(AccessError::OwnedByGroup(name)), "sort::<{name}> gave {result:?}");
    let after = world.storage::<T>().map(|s| s.entities().to_vec());
    ensure!(before == after, "a refused sort::<{name}> moved entities");
    Ok(())
}

/// The world under test and its model.
struct Harness {
    world: World,
    /// Component values of every alive entity.
    model: HashMap<Entity, Comps>,
    /// Alive entities, in spawn order.
    alive: Vec<Entity>,
    /// Every handle ever spawned.
    all: Vec<Entity>,
}

impl Harness {
    fn new(world: World) -> Self {
        Harness { world, model: HashMap::new(), alive: Vec::new(), all: Vec::new() }
    }

    fn resolve(&self, target: Target) -> Entity {
        let foreign = |i: u32| Entity::from_raw_parts(1_000_000 + i, 1).expect("valid raw parts");
        match target {
            Target::Alive(i) if !self.alive.is_empty() => self.alive[i % self.alive.len()],
            Target::Any(i) if !self.all.is_empty() => self.all[i % self.all.len()],
            Target::FutureVersion(i) if !self.alive.is_empty() => {
                let e = self.alive[i % self.alive.len()];
                Entity::from_raw_parts(e.index(), e.version() + 1).expect("valid raw parts")
            }
            Target::Foreign(i) => Entity::from_raw_parts(i, 1).expect("valid raw parts"),
            _ => foreign(0),
        }
    }

    fn members(&self, group: Grp) -> HashSet<Entity> {
        self.model.iter().filter(|(_, c)| group.matches(c)).map(|(&e, _)| e).collect()
    }

    /// Applies `op` to the world and the model, checking what the world returns.
    fn apply(&mut self, op: &Op) -> Result<(), String> {
        match *op {
            Op::Spawn => {
                let e = self.world.spawn();
                ensure!(!self.model.contains_key(&e), "spawn returned the alive {e:?}");
                ensure!(!self.all.contains(&e), "spawn reused the handle {e:?}");
                self.model.insert(e, [None; N]);
                self.alive.push(e);
                self.all.push(e);
            }
            Op::Insert { ty, target, value } => {
                let e = self.resolve(target);
                let got = dispatch!(ty, insert(&mut self.world, e, value));
                match self.model.get_mut(&e) {
                    Some(comps) => {
                        let want = Ok(comps[ty].replace(value));
                        ensure!(got == want, "insert {} on {e:?}: got {got:?}, want {want:?}", NAMES[ty]);
                    }
                    None => ensure!(got == Err(EntityError::Dead(e)), "insert {} on dead {e:?}: {got:?}", NAMES[ty]),
                }
            }
            Op::Remove { ty, target } => {
                let e = self.resolve(target);
                let got = dispatch!(ty, remove(&mut self.world, e));
                let want = self.model.get_mut(&e).and_then(|c| c[ty].take());
                ensure!(got == want, "remove {} from {e:?}: got {got:?}, want {want:?}", NAMES[ty]);
            }
            Op::Destroy { target } => {
                let e = self.resolve(target);
                let got = self.world.destroy(e);
                if self.model.remove(&e).is_some() {
                    ensure!(got == Ok(()), "destroy alive {e:?}: {got:?}");
                    self.alive.retain(|&a| a != e);
                } else {
                    ensure!(got == Err(EntityError::Dead(e)), "destroy dead {e:?}: {got:?}");
                }
            }
            Op::GetMut { ty, target, delta } => {
                let e = self.resolve(target);
                let got = dispatch!(ty, get_mut(&mut self.world, e, delta));
                let want = self.model.get_mut(&e).and_then(|c| c[ty].as_mut()).map(|v| {
                    *v = v.wrapping_add(delta);
                    *v
                });
                ensure!(got == want, "get_mut {} of {e:?}: got {got:?}, want {want:?}", NAMES[ty]);
            }
            Op::SortGroup { group, spelling, key, descending } => {
                let result = with_group!(group, spelling, T => sort_group::<T>(&mut self.world, group, key, descending));
                ensure!(result.is_ok(), "sort_group {group:?}: {result:?}");
            }
            Op::SortUngrouped { descending } => {
                let result = self.world.sort::<G>(|x, y| order(x.0.into(), y.0.into(), descending));
                ensure!(result.is_ok(), "sort::<G>: {result:?}");
                let values = self.world.storage::<G>().expect("sort registers the storage").components();
                ensure!(
                    values.windows(2).all(|w| order(w[0].0.into(), w[1].0.into(), descending) != Ordering::Greater),
                    "sort::<G> (descending: {descending}) left {values:?}"
                );
            }
            Op::SortOwned { ty } => dispatch!(ty, sort_owned(&mut self.world))?,
            Op::Iterate { group, spelling, ty, delta } => {
                let ty = group.types()[ty % group.types().len()];
                let visited = with_group!(group, spelling, T => iterate::<T>(&mut self.world, ty, delta))
                    .map_err(|e| format!("group {group:?}: {e}"))?;
                let members = self.members(group);
                ensure!(visited.len() == members.len(), "iterating {group:?} visited {} of {}", visited.len(), members.len());
                for (e, comps) in visited {
                    ensure!(members.contains(&e), "iterating {group:?} visited the non-member {e:?}");
                    let model = self.model.get_mut(&e).expect("member is alive");
                    model[ty] = model[ty].map(|v| v.wrapping_add(delta));
                    for &t in group.types() {
                        ensure!(comps[t] == model[t], "iterating {group:?}: {e:?}'s {} is {:?}", NAMES[t], comps[t]);
                    }
                }
            }
            Op::ViewEg => {
                let mut visited = Vec::new();
                self.world.view::<(E, G)>().for_each(|e, (ev, gv)| {
                    gv.0 = gv.0.wrapping_add(ev.0);
                    visited.push(e);
                });
                self.mirror_view("<E, G>", &visited, 4, 6, |c| c[6].map(|g| g.wrapping_add(c[4].unwrap_or(0))))?;
            }
            Op::ViewGa => {
                let mut visited = Vec::new();
                self.world.view::<(G, A)>().for_each(|e, (gv, av)| {
                    av.0 = av.0.wrapping_add(gv.0 % 3);
                    visited.push(e);
                });
                self.mirror_view("<G, A>", &visited, 6, 0, |c| c[0].map(|a| a.wrapping_add(c[6].unwrap_or(0) % 3)))?;
            }
        }
        Ok(())
    }

    /// Checks that a view over types `x` and `y` visited exactly the entities having both,
    /// once each, and applies `update` (the new value of type `y`) to them in the model.
    fn mirror_view(
        &mut self,
        name: &str,
        visited: &[Entity],
        x: usize,
        y: usize,
        update: impl Fn(&Comps) -> Option<u32>,
    ) -> Result<(), String> {
        let want: HashSet<Entity> =
            self.model.iter().filter(|(_, c)| c[x].is_some() && c[y].is_some()).map(|(&e, _)| e).collect();
        let got: HashSet<Entity> = visited.iter().copied().collect();
        ensure!(got.len() == visited.len(), "view {name} visited an entity twice");
        ensure!(got == want, "view {name} visited {got:?}, want {want:?}");
        for e in want {
            let comps = self.model.get_mut(&e).expect("alive");
            comps[y] = update(comps);
        }
        Ok(())
    }

    /// Checks the whole world against the model.
    fn check(&mut self) -> Result<(), String> {
        self.world.check()?;
        ensure!(
            self.world.entities().len() == self.model.len(),
            "{} alive entities, model has {}",
            self.world.entities().len(),
            self.model.len()
        );
        for &e in &self.all {
            let comps = self.model.get(&e);
            ensure!(self.world.is_alive(e) == comps.is_some(), "{e:?}: is_alive is {}", self.world.is_alive(e));
            for ty in 0..N {
                let want = comps.and_then(|c| c[ty]);
                let got = dispatch!(ty, get(&self.world, e));
                ensure!(got == want, "{e:?}'s {}: got {got:?}, want {want:?}", NAMES[ty]);
                let has = dispatch!(ty, contains(&self.world, e));
                ensure!(has == want.is_some(), "contains::<{}>({e:?}) is {has}", NAMES[ty]);
            }
        }
        for ty in 0..N {
            let want = self.model.values().filter(|c| c[ty].is_some()).count();
            let got = dispatch!(ty, storage_len(&self.world));
            ensure!(got == want, "storage {} holds {got} components, model {want}", NAMES[ty]);
        }
        let mut slices: HashMap<usize, Vec<Entity>> = HashMap::new();
        for (g, group) in GROUPS.into_iter().enumerate() {
            let members = self.members(group);
            let len = with_group!(group, 0, T => group_len::<T>(&self.world)).map_err(|e| e.to_string())?;
            ensure!(len == members.len(), "group_len {group:?} is {len}, model {}", members.len());
            let entries = with_group!(group, 0, T => group_slices::<T>(&mut self.world))?;
            let entities: Vec<Entity> = entries.iter().map(|&(e, _)| e).collect();
            ensure!(entities.len() == len, "group {group:?} has {} entities, group_len {len}", entities.len());
            let set: HashSet<Entity> = entities.iter().copied().collect();
            ensure!(set == members, "group {group:?} holds {entities:?}, model {members:?}");
            for (e, comps) in &entries {
                for &t in group.types() {
                    ensure!(comps[t] == self.model[e][t], "group {group:?}: slice {} of {e:?} is {:?}", NAMES[t], comps[t]);
                }
            }
            for spelling in 1..group.spellings() {
                let other = with_group!(group, spelling, T => group_entities::<T>(&mut self.world)).map_err(|e| e.to_string())?;
                ensure!(other == entities, "group {group:?} spelling {spelling} gives {other:?}, not {entities:?}");
                let other_len = with_group!(group, spelling, T => group_len::<T>(&self.world)).map_err(|e| e.to_string())?;
                ensure!(other_len == len, "group_len {group:?} spelling {spelling} is {other_len}, not {len}");
            }
            slices.insert(g, entities);
        }
        for (outer, inner) in [(Grp::Ab, Grp::Abc), (Grp::Abc, Grp::Abcd)] {
            let (o, i) = (&slices[&index(outer)], &slices[&index(inner)]);
            ensure!(
                o.len() >= i.len() && o[..i.len()] == i[..],
                "{inner:?} {i:?} is not the prefix of {outer:?} {o:?}"
            );
        }
        Ok(())
    }

    /// Checks that `group` is sorted layer by layer: each range between two nested group
    /// lengths is ordered by `key`.
    fn check_sorted(&mut self, group: Grp, key: Key, descending: bool) -> Result<(), String> {
        let entities = with_group!(group, 0, T => group_entities::<T>(&mut self.world)).map_err(|e| e.to_string())?;
        let mut ends: Vec<usize> = group.inner().iter().rev().map(|&g| self.members(g).len()).collect();
        ends.push(entities.len());
        let mut start = 0;
        for end in ends {
            let keys: Vec<u64> = entities[start..end].iter().map(|e| key_of(group, key, &self.model[e])).collect();
            ensure!(
                keys.windows(2).all(|w| order(w[0], w[1], descending) != Ordering::Greater),
                "{group:?} sorted by {key:?} (descending: {descending}): layer {start}..{end} has keys {keys:?}"
            );
            start = end;
        }
        Ok(())
    }
}

fn index(group: Grp) -> usize {
    GROUPS.iter().position(|&g| g == group).expect("known group")
}

/// Builds the world with the groups in `order`, each in its `spellings` entry, then runs
/// `ops`, checking everything after each.
fn run(order: &[usize], spellings: [usize; 4], ops: &[Op]) -> Result<(), String> {
    let specs = order.iter().map(|&g| spec(GROUPS[g], spellings[g]));
    let world = World::with_groups(specs).map_err(|e| format!("groups {order:?} {spellings:?} rejected: {e:?}"))?;
    let mut h = Harness::new(world);
    let no_such = h.world.group::<(A, C)>().err();
    ensure!(matches!(no_such, Some(AccessError::NoSuchGroup(_))), "group <A, C> gave {no_such:?}");
    ensure!(matches!(h.world.group_len::<(A, B, G)>(), Err(AccessError::NoSuchGroup(_))), "group <A, B, G> exists");
    h.check().map_err(|e| format!("before any op: {e}"))?;
    for (i, op) in ops.iter().enumerate() {
        let context = |e: String| format!("op #{i} {op:?}: {e}");
        h.apply(op).map_err(context)?;
        h.check().map_err(context)?;
        if let Op::SortGroup { group, key, descending, .. } = *op {
            h.check_sorted(group, key, descending).map_err(context)?;
        }
    }
    Ok(())
}

fn config() -> ProptestConfig {
    let default = ProptestConfig::default();
    ProptestConfig {
        // proptest reads PROPTEST_CASES into the default; otherwise run 64 cases.
        cases: if std::env::var_os("PROPTEST_CASES").is_some() { default.cases } else { 64 },
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
        let ab: HashSet<Entity> = world.group::<(A, B)>().unwrap().entities().iter().copied().collect();
        assert_eq!(ab, HashSet::from([e[4], e[7]]));
        assert_eq!(world.group_len::<(A, B, C)>(), Ok(0));

        assert_eq!(world.insert(e[8], B(3)), Ok(None));
        world.check().unwrap();
        let ab = world.group::<(A, B)>().unwrap().entities().to_vec();
        let abc = world.group::<(A, B, C)>().unwrap().entities().to_vec();
        assert!(ab.contains(&e[4]), "e4 stays in <A,B>: {ab:?}");
        assert_eq!(ab.iter().copied().collect::<HashSet<_>>(), HashSet::from([e[4], e[7], e[8]]));
        assert_eq!(abc, vec![e[8]], "e8 is in <A,B,C>");
        assert_eq!(ab[..1], abc[..], "<A,B,C> is the prefix of <A,B>");
        assert_eq!(world.get::<A>(e[4]), Some(&A(4)));
        assert_eq!(world.get::<B>(e[8]), Some(&B(3)));

        // Leaving: innermost first, e4 and e7 untouched.
        assert_eq!(world.remove::<C>(e[8]), Some(C(0)));
        world.check().unwrap();
        assert_eq!(world.group_len::<(A, B)>(), Ok(3));
        assert_eq!(world.group_len::<(A, B, C)>(), Ok(0));
        world.insert(e[8], C(5)).unwrap();
        world.insert(e[4], C(6)).unwrap();
        world.check().unwrap();
        assert_eq!(world.group_len::<(A, B, C)>(), Ok(2));
        assert_eq!(world.remove::<B>(e[8]), Some(B(3)));
        world.check().unwrap();
        let ab: HashSet<Entity> = world.group::<(A, B)>().unwrap().entities().iter().copied().collect();
        assert_eq!(ab, HashSet::from([e[4], e[7]]));
        assert_eq!(world.group::<(A, B, C)>().unwrap().entities(), &[e[4]]);
        world.destroy(e[4]).unwrap();
        world.check().unwrap();
        assert_eq!(world.group::<(A, B)>().unwrap().entities(), &[e[7]]);
        assert_eq!(world.group_len::<(A, B, C)>(), Ok(0));
    }
}
