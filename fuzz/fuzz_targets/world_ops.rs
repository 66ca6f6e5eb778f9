//! Operation sequences on a world with every group kind (an owning chain, a partial-owning
//! group with an exclusion, a non-owning group, an exclusion chain), user hooks (one of
//! which queues a command; the logging ones count in a resource), commands and change
//! detection, applied to a `#[world]` and to the run-time `World` alike and checked after
//! every operation against a plain model:
//! `check()` (every group exactly its members, packed), every entity's components, the
//! change stamps, `removed::<T>()`, and the hooks that ran.
//!
//! The input is read as a sequence of operations, a byte each for the kind and its
//! arguments (missing bytes read as zero).
#![no_main]

use std::cell::RefCell;
use std::collections::BTreeMap;

use libfuzzer_sys::fuzz_target;
use sparse_groups::prelude::*;
use sparse_groups::{Applied, Borrow, GroupSpec, HookWorld};

/// A component with a number (markers have none).
trait Value: Component + Sized {
    fn make(value: u32) -> Self;
    fn value(&self) -> u32;
}

macro_rules! numbers {
    ($($T:ident),+) => {$(
        #[derive(Component, Debug, Clone, Copy, PartialEq)]
        struct $T(u32);
        impl Value for $T {
            fn make(value: u32) -> Self {
                $T(value)
            }
            fn value(&self) -> u32 {
                self.0
            }
        }
    )+};
}
macro_rules! markers {
    ($($T:ident),+) => {$(
        #[derive(Component, Debug, Clone, Copy, PartialEq)]
        struct $T;
        impl Value for $T {
            fn make(_: u32) -> Self {
                $T
            }
            fn value(&self) -> u32 {
                0
            }
        }
    )+};
}
numbers!(A, B, C, D, E, F, G);
markers!(X, Y);

/// Type indices: `A`..`G`, `X`, `Y`.
const TYPES: usize = 9;
const F_: usize = 5;
const Y_: usize = 8;
/// The tracked types: `A`, `C`, `E`.
const TRACKED: [bool; TYPES] = [true, false, true, false, true, false, false, false, false];
/// What the refill hook gives an entity that gets a `Y`.
const REFILL: u32 = 7;

/// Runs `$body` with `$T` the type of index `$t`.
macro_rules! typed {
    ($t:expr, |$T:ident| $body:expr) => {
        match $t {
            0 => {
                type $T = A;
                $body
            }
            1 => {
                type $T = B;
                $body
            }
            2 => {
                type $T = C;
                $body
            }
            3 => {
                type $T = D;
                $body
            }
            4 => {
                type $T = E;
                $body
            }
            5 => {
                type $T = F;
                $body
            }
            6 => {
                type $T = G;
                $body
            }
            7 => {
                type $T = X;
                $body
            }
            _ => {
                type $T = Y;
                $body
            }
        }
    };
}

/// A hook call: (event: 0 insert, 1 replace, 2 remove; type index; entity).
type Call = (u8, usize, Entity);

thread_local! {
    static CALLS: RefCell<Vec<Call>> = const { RefCell::new(Vec::new()) };
}

/// How many hook calls a world has seen: a resource every logging hook counts in, so that
/// resources are borrowed from hooks on every path that fires one.
#[derive(Default)]
struct Tally(usize);

fn log<W: EditEntities + 'static, const EVENT: u8, const TYPE: usize>(
    world: &mut HookWorld<'_, W>,
    e: Entity,
) where
    for<'s> ResMut<'s, Tally>: Borrow<'s, W>,
{
    world
        .try_borrow::<ResMut<Tally>>()
        .expect("the world holds a tally")
        .0 += 1;
    CALLS.with_borrow_mut(|calls| calls.push((EVENT, TYPE, e)));
}

/// `B`'s replace hook: logged as the others are.
fn log_replaced<W: EditEntities + 'static>(world: &mut HookWorld<'_, W>, e: Entity, _: &B)
where
    for<'s> ResMut<'s, Tally>: Borrow<'s, W>,
{
    log::<W, 1, 1>(world, e);
}

/// Gives an entity that got a `Y` an `F` (a structural change, queued as a command).
fn refill<W: Stores<F>>(world: &mut HookWorld<'_, W>, e: Entity) {
    world.commands().insert(e, F(REFILL));
}

#[world]
#[group(A, B)]
#[group(A, B, C)]
#[group(D, get(A), exclude(X))]
#[group(get(C, D))]
#[group(E, F, exclude(X, Y))]
#[group(E, F, exclude(X))]
#[track(A, C, E)]
#[on_insert(A, log::<Fuzzed, 0, 0>)]
#[on_remove(A, log::<Fuzzed, 2, 0>)]
#[on_replace(B, log_replaced::<Fuzzed>)]
#[on_insert(Y, refill::<Fuzzed>)]
struct Fuzzed {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
    d: Storage<D>,
    e: Storage<E>,
    f: Storage<F>,
    g: Storage<G>,
    x: Storage<X>,
    y: Storage<Y>,
    tally: Resource<Tally>,
}

fn dynamic() -> World {
    let mut w = World::with_groups([
        GroupSpec::of::<(A, B)>(),
        GroupSpec::of::<(A, B, C)>(),
        GroupSpec::of::<(D, Get<A>, Exclude<X>)>(),
        GroupSpec::of::<Get<(C, D)>>(),
        GroupSpec::of::<(E, F, Exclude<(X, Y)>)>(),
        GroupSpec::of::<(E, F, Exclude<X>)>(),
    ])
    .expect("a valid layout");
    w.insert_resource(Tally::default());
    w.track::<A>();
    w.track::<C>();
    w.track::<E>();
    w.on_insert::<A>(log::<World, 0, 0>).unwrap();
    w.on_remove::<A>(log::<World, 2, 0>).unwrap();
    w.on_replace::<B>(log_replaced::<World>).unwrap();
    w.on_insert::<Y>(refill::<World>).unwrap();
    // Every storage exists, as in the `#[world]`.
    for t in 0..TYPES {
        typed!(t, |T| w.register::<T>());
    }
    w
}

/// What the model holds of one entity.
#[derive(Clone, Debug, Default, PartialEq)]
struct Row {
    values: [Option<u32>; TYPES],
    added: [bool; TYPES],
    changed: [bool; TYPES],
}

#[derive(Default)]
struct Model {
    rows: BTreeMap<Entity, Row>,
    removed: [Vec<Entity>; TYPES],
    calls: Vec<Call>,
    /// Entities that got a `Y`: the refill hook's command, applied at the next `settle`.
    refills: Vec<Entity>,
}

impl Model {
    fn has(&self, e: Entity, t: usize) -> bool {
        self.rows.get(&e).is_some_and(|row| row.values[t].is_some())
    }

    fn insert(&mut self, e: Entity, t: usize, value: u32) {
        let Some(row) = self.rows.get_mut(&e) else {
            return;
        };
        let value = if t >= 7 { 0 } else { value };
        let fresh = row.values[t].is_none();
        row.values[t] = Some(value);
        if TRACKED[t] {
            row.added[t] |= fresh;
            row.changed[t] = true;
        }
        match (t, fresh) {
            (0, true) => self.calls.push((0, 0, e)),
            (1, false) => self.calls.push((1, 1, e)),
            (Y_, true) => self.refills.push(e),
            _ => {}
        }
    }

    fn remove(&mut self, e: Entity, t: usize) {
        let Some(row) = self.rows.get_mut(&e) else {
            return;
        };
        if row.values[t].take().is_none() {
            return;
        }
        row.added[t] = false;
        row.changed[t] = false;
        if TRACKED[t] {
            self.removed[t].push(e);
        }
        if t == 0 {
            self.calls.push((2, 0, e));
        }
    }

    fn destroy(&mut self, e: Entity) {
        for t in 0..TYPES {
            self.remove(e, t);
        }
        self.rows.remove(&e);
    }

    /// Applies the commands queued by the refill hook.
    fn settle(&mut self) {
        while !self.refills.is_empty() {
            for e in core::mem::take(&mut self.refills) {
                self.insert(e, F_, REFILL);
            }
        }
    }

    fn write(&mut self, e: Entity, t: usize, value: u32) {
        if let Some(row) = self.rows.get_mut(&e).filter(|row| row.values[t].is_some()) {
            row.values[t] = Some(value);
            if TRACKED[t] {
                row.changed[t] = true;
            }
        }
    }

    fn tick(&mut self) {
        for row in self.rows.values_mut() {
            row.added = [false; TYPES];
            row.changed = [false; TYPES];
        }
        self.removed = Default::default();
    }
}

/// The input, a byte at a time (zero once it runs out).
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        let (&first, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        first
    }

    fn value(&mut self) -> u32 {
        u32::from(self.byte()) | u32::from(self.byte()) << 8
    }

    fn pick(&mut self, handles: &[Entity]) -> Option<Entity> {
        let i = usize::from(self.byte()) | usize::from(self.byte()) << 8;
        (!handles.is_empty()).then(|| handles[i % handles.len()])
    }

    fn picks(&mut self, handles: &[Entity]) -> Vec<Entity> {
        let n = self.byte() % 12;
        (0..n).filter_map(|_| self.pick(handles)).collect()
    }
}

/// The bundles spawns and commands use, by kind.
const BUNDLES: usize = 5;

fn bundle_types(kind: usize) -> &'static [usize] {
    [&[0, 1][..], &[0, 1, 2], &[2, 3], &[4, 5, 8], &[3, 7, 6]][kind % BUNDLES]
}

/// Spawns bundle `$kind` with values from `$v` through `$spawn!(bundle)`.
macro_rules! with_bundle {
    ($kind:expr, $v:expr, $spawn:ident) => {{
        let v = $v;
        match $kind % BUNDLES {
            0 => $spawn!((A(v), B(v + 1))),
            1 => $spawn!((A(v), B(v + 1), C(v + 2))),
            2 => $spawn!((C(v), D(v + 1))),
            3 => $spawn!((E(v), F(v + 1), Y)),
            _ => $spawn!((D(v), X, G(v + 2))),
        }
    }};
}

/// The model of bundle `kind` with values from `v` given to `e` (alive).
fn give_bundle(model: &mut Model, e: Entity, kind: usize, v: u32) {
    for (k, &t) in bundle_types(kind).iter().enumerate() {
        model.insert(e, t, v + k as u32);
    }
}

fn spawned_row(model: &mut Model, e: Entity, kind: usize, v: u32) {
    model.rows.insert(e, Row::default());
    give_bundle(model, e, kind, v);
}

/// One recorded command, for the model.
enum Recorded {
    Spawn(usize, u32),
    SpawnReserved(Entity, usize, u32),
    Insert(Entity, usize, u32),
    Remove(Entity, usize),
    Destroy(Entity),
}

/// Runs `$body` with `$T` the tracked type of index `$t` (`A`, `C` or `E`).
macro_rules! tracked {
    ($t:expr, |$T:ident| $body:expr) => {
        match $t {
            0 => {
                type $T = A;
                $body
            }
            2 => {
                type $T = C;
                $body
            }
            _ => {
                type $T = E;
                $body
            }
        }
    };
}

/// Checks one world against the model.
macro_rules! check_world {
    ($w:expr, $model:expr, $name:expr, $storage:ident) => {{
        let (w, model): (&_, &Model) = (&$w, &$model);
        if let Err(error) = w.check() {
            panic!("{}: {error}", $name);
        }
        assert_eq!(
            w.entities().len(),
            model.rows.len(),
            "{}: alive entities",
            $name
        );
        for (&e, row) in &model.rows {
            assert!(w.is_alive(e), "{}: {e:?} alive", $name);
            for t in 0..TYPES {
                let got = typed!(t, |T| w.get::<T>(e).map(Value::value));
                assert_eq!(got, row.values[t], "{}: {e:?}'s type {t}", $name);
            }
        }
        for t in [0, 2, 4] {
            tracked!(t, |T| {
                let storage = $storage!(w, T);
                for (&e, row) in &model.rows {
                    assert_eq!(
                        (storage.is_added(e), storage.is_changed(e)),
                        (row.added[t], row.changed[t]),
                        "{}: stamps of {e:?}'s type {t}",
                        $name
                    );
                }
                let mut removed = w.removed::<T>().to_vec();
                let mut expected = model.removed[t].clone();
                removed.sort_unstable();
                expected.sort_unstable();
                assert_eq!(removed, expected, "{}: removed type {t}", $name);
            });
        }
    }};
}

macro_rules! static_storage {
    ($w:expr, $T:ty) => {
        $w.storage::<$T>()
    };
}
macro_rules! dynamic_storage {
    ($w:expr, $T:ty) => {
        $w.storage::<$T>().expect("registered")
    };
}

fn take_calls() -> Vec<Call> {
    let mut calls = CALLS.with_borrow_mut(core::mem::take);
    calls.sort_unstable();
    calls
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let (mut s, mut d) = (Fuzzed::new(), dynamic());
    let mut model = Model::default();
    let mut handles: Vec<Entity> = Vec::new();
    let mut logged = 0;
    take_calls();
    for _ in 0..64 {
        if input.0.is_empty() {
            break;
        }
        let op = input.byte() % 15;
        // Every operation runs on both worlds; each world's hook calls are compared with
        // the model's.
        let mut calls_of_static = Vec::new();
        macro_rules! both {
            (|$w:ident| $body:expr) => {{
                let out_s = {
                    let $w = &mut s;
                    $body
                };
                calls_of_static.extend(take_calls());
                let out_d = {
                    let $w = &mut d;
                    $body
                };
                assert_eq!(out_s, out_d, "both worlds answer alike");
                out_s
            }};
        }
        match op {
            0 => {
                let (kind, v) = (usize::from(input.byte()), input.value());
                macro_rules! spawn {
                    ($b:expr) => {
                        both!(|w| w.spawn_with($b))
                    };
                }
                let e = with_bundle!(kind, v, spawn);
                spawned_row(&mut model, e, kind, v);
                handles.push(e);
            }
            1 => {
                let e = both!(|w| w.spawn());
                model.rows.insert(e, Row::default());
                handles.push(e);
            }
            2 => {
                let (t, v) = (usize::from(input.byte()) % TYPES, input.value());
                if let Some(e) = input.pick(&handles) {
                    let ok = both!(|w| typed!(t, |T| w.insert(e, T::make(v)).is_ok()));
                    assert_eq!(ok, model.rows.contains_key(&e));
                    model.insert(e, t, v);
                }
            }
            3 => {
                let t = usize::from(input.byte()) % TYPES;
                if let Some(e) = input.pick(&handles) {
                    let had = both!(|w| typed!(t, |T| w.remove::<T>(e).is_some()));
                    assert_eq!(had, model.has(e, t));
                    model.remove(e, t);
                }
            }
            4 => {
                if let Some(e) = input.pick(&handles) {
                    let ok = both!(|w| w.destroy(e).is_ok());
                    assert_eq!(ok, model.rows.contains_key(&e));
                    model.destroy(e);
                }
            }
            5 => {
                let t = usize::from(input.byte()) % TYPES;
                let items: Vec<(Entity, u32)> = input
                    .picks(&handles)
                    .into_iter()
                    .map(|e| (e, input.value()))
                    .collect();
                let ok = both!(|w| typed!(t, |T| w
                    .insert_many::<T>(
                        items
                            .iter()
                            .map(|&(e, v)| (e, T::make(v)))
                            .collect::<Vec<_>>()
                    )
                    .is_ok()));
                let alive = items.iter().all(|(e, _)| model.rows.contains_key(e));
                assert_eq!(ok, alive, "a batch with a dead entity is refused whole");
                if alive {
                    // One change per entity: a repeat fires no hook of its own.
                    let mut named = std::collections::BTreeSet::new();
                    for &(e, v) in &items {
                        let (calls, refills) = (model.calls.len(), model.refills.len());
                        model.insert(e, t, v);
                        if !named.insert(e) {
                            model.calls.truncate(calls);
                            model.refills.truncate(refills);
                        }
                    }
                }
            }
            6 => {
                let t = usize::from(input.byte()) % TYPES;
                let entities = input.picks(&handles);
                let count = both!(|w| typed!(t, |T| w.remove_many::<T>(&entities)));
                let before = model.removed[t].len();
                let holders: usize = {
                    let mut seen = std::collections::BTreeSet::new();
                    entities
                        .iter()
                        .filter(|&&e| model.has(e, t) && seen.insert(e))
                        .count()
                };
                for &e in &entities {
                    model.remove(e, t);
                }
                assert_eq!(count, holders);
                let _ = before;
            }
            7 => {
                let entities = input.picks(&handles);
                let count = both!(|w| w.destroy_many(&entities));
                let mut alive = 0;
                for &e in &entities {
                    if model.rows.contains_key(&e) {
                        alive += 1;
                        model.destroy(e);
                    }
                }
                assert_eq!(count, alive);
            }
            8 => {
                let t = usize::from(input.byte()) % TYPES;
                both!(|w| typed!(t, |T| w.clear::<T>()));
                let holders: Vec<Entity> = model
                    .rows
                    .iter()
                    .filter(|(_, row)| row.values[t].is_some())
                    .map(|(&e, _)| e)
                    .collect();
                for e in holders {
                    model.remove(e, t);
                }
            }
            9 => {
                // A batch of commands, reserved spawns included, recorded alike for both
                // worlds and applied.
                let n = input.byte() % 8;
                let (mut cs, mut cd) = (Commands::<Fuzzed>::new(), Commands::<World>::new());
                let mut recorded = Vec::new();
                for _ in 0..n {
                    let kind = input.byte() % 5;
                    let (a, t, v) = (
                        usize::from(input.byte()),
                        usize::from(input.byte()) % TYPES,
                        input.value(),
                    );
                    match (kind, input.pick(&handles)) {
                        (0, _) => {
                            macro_rules! spawn {
                                ($b:expr) => {{
                                    cs.spawn($b);
                                    cd.spawn($b);
                                }};
                            }
                            with_bundle!(a, v, spawn);
                            recorded.push(Recorded::Spawn(a, v));
                        }
                        (1, _) => {
                            macro_rules! spawn {
                                ($b:expr) => {{
                                    let x = cs.spawn_reserved(s.entities(), $b);
                                    let y = cd.spawn_reserved(d.entities(), $b);
                                    assert_eq!(x, y, "both worlds reserve alike");
                                    x
                                }};
                            }
                            let e = with_bundle!(a, v, spawn);
                            handles.push(e);
                            recorded.push(Recorded::SpawnReserved(e, a, v));
                        }
                        (2, Some(e)) => {
                            typed!(t, |T| {
                                cs.insert(e, T::make(v));
                                cd.insert(e, T::make(v));
                            });
                            recorded.push(Recorded::Insert(e, t, v));
                        }
                        (3, Some(e)) => {
                            typed!(t, |T| {
                                cs.remove::<T>(e);
                                cd.remove::<T>(e);
                            });
                            recorded.push(Recorded::Remove(e, t));
                        }
                        (4, Some(e)) => {
                            cs.destroy(e);
                            cd.destroy(e);
                            recorded.push(Recorded::Destroy(e));
                        }
                        _ => {}
                    }
                }
                let applied: Applied = s.apply(&mut cs);
                calls_of_static.extend(take_calls());
                assert_eq!(applied, d.apply(&mut cd), "both worlds apply alike");
                // Applying makes every reserved entity alive, holding nothing, then runs
                // the commands in order, each followed by its hooks' commands.
                for command in &recorded {
                    if let Recorded::SpawnReserved(e, ..) = *command {
                        model.rows.insert(e, Row::default());
                    }
                }
                let mut spawned = applied.spawned.iter().copied();
                for command in recorded {
                    match command {
                        Recorded::Spawn(kind, v) => {
                            let e = spawned.next().expect("a spawned entity per spawn");
                            spawned_row(&mut model, e, kind, v);
                            handles.push(e);
                        }
                        Recorded::SpawnReserved(e, kind, v) => {
                            if model.rows.contains_key(&e) {
                                give_bundle(&mut model, e, kind, v);
                            }
                        }
                        Recorded::Insert(e, t, v) => model.insert(e, t, v),
                        Recorded::Remove(e, t) => model.remove(e, t),
                        Recorded::Destroy(e) => model.destroy(e),
                    }
                    model.settle();
                }
            }
            10 => {
                both!(|w| w.tick());
                model.tick();
            }
            11 => {
                let t = [0usize, 2, 4][usize::from(input.byte()) % 3];
                let v = input.value();
                if let Some(e) = input.pick(&handles) {
                    let ok = both!(|w| typed!(t, |T| w
                        .get_mut::<T>(e)
                        .map(|x| *x = T::make(v))
                        .is_some()));
                    assert_eq!(ok, model.has(e, t));
                    model.write(e, t, v);
                }
            }
            12 => {
                // A view writing `A` where `B` is and `X` is not.
                let mut seen = both!(|w| {
                    let mut seen = Vec::new();
                    w.view::<(&mut A, &B, Without<X>)>()
                        .unwrap_or_view()
                        .for_each(|e, (a, b)| {
                            a.0 = a.0.wrapping_add(b.0) % 65_536;
                            seen.push(e);
                        });
                    seen.sort_unstable();
                    seen
                });
                let expected: Vec<Entity> = model
                    .rows
                    .iter()
                    .filter(|(_, r)| {
                        r.values[0].is_some() && r.values[1].is_some() && r.values[7].is_none()
                    })
                    .map(|(&e, _)| e)
                    .collect();
                assert_eq!(seen, expected);
                for e in expected {
                    let row = &model.rows[&e];
                    let a = (row.values[0].unwrap().wrapping_add(row.values[1].unwrap())) % 65_536;
                    model.write(e, 0, a);
                }
                seen.clear();
                // The entities whose `C` changed since the tick.
                let changed = both!(|w| {
                    let mut changed: Vec<Entity> = Vec::new();
                    w.view::<(&C, Changed<C>)>()
                        .unwrap_or_view()
                        .for_each(|e, _| changed.push(e));
                    changed.sort_unstable();
                    changed
                });
                let expected: Vec<Entity> = model
                    .rows
                    .iter()
                    .filter(|(_, r)| r.changed[2])
                    .map(|(&e, _)| e)
                    .collect();
                assert_eq!(changed, expected);
                // A `Mut<C>` guard beside `D`: only the values written count as changed.
                let written = both!(|w| {
                    let mut written: Vec<Entity> = Vec::new();
                    w.view::<(Mut<C>, &D)>()
                        .unwrap_or_view()
                        .for_each(|e, (mut c, d)| {
                            if (c.0 ^ d.0) % 3 == 0 {
                                c.0 = c.0.wrapping_add(1) % 65_536;
                                written.push(e);
                            }
                        });
                    written.sort_unstable();
                    written
                });
                let expected: Vec<(Entity, u32)> = model
                    .rows
                    .iter()
                    .filter_map(|(&e, r)| match (r.values[2], r.values[3]) {
                        (Some(c), Some(d)) if (c ^ d) % 3 == 0 => {
                            Some((e, c.wrapping_add(1) % 65_536))
                        }
                        _ => None,
                    })
                    .collect();
                assert_eq!(
                    written,
                    expected.iter().map(|&(e, _)| e).collect::<Vec<_>>()
                );
                for (e, c) in expected {
                    model.write(e, 2, c);
                }
            }
            13 => {
                // Destroys the entities whose `D` is odd.
                let count = both!(|w| w.retain::<(&D,)>(|_, (d,)| d.0 % 2 == 0).unwrap_or_count());
                let odd: Vec<Entity> = model
                    .rows
                    .iter()
                    .filter(|(_, r)| r.values[3].is_some_and(|d| d % 2 == 1))
                    .map(|(&e, _)| e)
                    .collect();
                assert_eq!(count, odd.len());
                for e in odd {
                    model.destroy(e);
                }
            }
            _ => {
                let descending = input.byte() % 2 == 1;
                let key = |g: &G| if descending { u32::MAX - g.0 } else { g.0 };
                s.sort_by_key::<G, u32>(key);
                d.sort_by_key::<G, u32>(key).expect("an unowned storage");
                // Then a group in the order of that storage: the owning chain's outer
                // group (layer by layer) or the non-owning group.
                if descending {
                    s.sort_group_as::<(A, B), G>();
                    d.sort_group_as::<(A, B), G>().expect("a declared group");
                } else {
                    s.sort_group_as::<Get<(C, D)>, G>();
                    d.sort_group_as::<Get<(C, D)>, G>()
                        .expect("a declared group");
                }
            }
        }
        model.settle();
        let mut expected_calls = core::mem::take(&mut model.calls);
        expected_calls.sort_unstable();
        calls_of_static.sort_unstable();
        assert_eq!(calls_of_static, expected_calls, "#[world] hooks");
        assert_eq!(take_calls(), expected_calls, "World hooks");
        logged += expected_calls.len();
        assert_eq!(s.tally().0, logged, "#[world] tally");
        assert_eq!(
            d.resource::<Tally>().expect("a tally").0,
            logged,
            "World tally"
        );
        check_world!(s, model, "#[world]", static_storage);
        check_world!(d, model, "World", dynamic_storage);
    }
});

/// The run-time world answers with a `Result` where a `#[world]` cannot fail: one shape
/// for the operations above.
trait Unwrapped {
    type Out;
    fn unwrap_or_view(self) -> Self::Out;
}

impl<'w, Q: sparse_groups::Query, F: sparse_groups::Filter> Unwrapped for View<'w, Q, F> {
    type Out = Self;
    fn unwrap_or_view(self) -> Self {
        self
    }
}

impl<'w, Q: sparse_groups::Query, F: sparse_groups::Filter> Unwrapped
    for Result<View<'w, Q, F>, sparse_groups::AccessError>
{
    type Out = View<'w, Q, F>;
    fn unwrap_or_view(self) -> View<'w, Q, F> {
        self.expect("stored types")
    }
}

trait Counted {
    fn unwrap_or_count(self) -> usize;
}

impl Counted for usize {
    fn unwrap_or_count(self) -> usize {
        self
    }
}

impl Counted for Result<usize, sparse_groups::AccessError> {
    fn unwrap_or_count(self) -> usize {
        self.expect("stored types")
    }
}
