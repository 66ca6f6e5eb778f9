//! Differential test: one random operation sequence applied to a `#[world]` world and to
//! the run-time `World` with the same layout must give the same groups (entities in the
//! same order, with the same values) and values after every step, with every invariant
//! holding in both.
//!
//! The layout has every group kind: a full-owning chain `<A,B> ⊂ <A,B,C>`, a tree family
//! (`<E,F>` and `<G,H>` both outer to `<E,F,G,H>`, and `<E, get(F)>` outer to `<E,F>`), an
//! exclude chain (`<I,J, exclude(K)>` ⊃ `<I,J, exclude(K,L)>`), a partial-owning group
//! with an exclusion (`<D, get(A), exclude(K)>`), and two non-owning groups sharing
//! observed types with the others (`get(A, E)`, `<get(B), exclude(G)>`).
//!
//! Besides single changes, the sequences drive the access model through both worlds: views
//! with filters and optional leaves changing values, read-only groups, a borrow of a group,
//! a storage and the values of another at once, commands (with skipped ones and reserved
//! handles), `retain`, `retain_component`, `insert_many` (with duplicates and dead
//! entities), `remove_many`, `destroy_many` and `clear`; with the `rayon` feature, groups
//! and a view are also walked by `par_for_each`.
//!
//! With the `serde` feature, both worlds are also saved and reloaded mid-sequence (the
//! `#[world]` through its derives in JSON, the run-time `World` through `snapshot`/`load` in
//! postcard): every storage's packed order, the allocator and every group must come back
//! as they were, and the sequence goes on with the loaded worlds.

use crate::common::cases_or;
use proptest::prelude::*;
use sparse_groups::{
    Applied, Commands, Component, Entities, Entity, Exclude, Get, GroupMut, GroupRef, GroupSpec,
    HasComponent, HookWorld, Storage, Stores, Unowned, ValuesMut, View, With, Without, World,
    world,
};

trait Value {
    fn new(value: u32) -> Self;
    fn get(&self) -> u32;
}

macro_rules! components {
    ($($name:ident),*) => {$(
        #[derive(Component, Debug, Clone, Copy, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        struct $name(u32);
        impl Value for $name {
            fn new(value: u32) -> Self {
                $name(value)
            }
            fn get(&self) -> u32 {
                self.0
            }
        }
    )*};
}
components!(A, B, C, D, E, F, G, H, I, J, K, L);

#[world]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[group(A, B, C)]
#[group(E, F, G, H)]
#[group(get(A, E))]
#[group(I, J, exclude(K, L))]
#[group(A, B)]
#[group(E, get(F))]
#[group(G, H)]
#[group(D, get(A), exclude(K))]
#[group(E, F)]
#[group(get(B), exclude(G))]
#[group(I, J, exclude(K))]
#[on_insert(A, observe::<Static, A, 0>)]
#[on_replace(A, observe_replaced::<Static, A>)]
#[on_remove(A, observe::<Static, A, 2>)]
#[on_insert(F, observe::<Static, F, 0>)]
#[on_remove(F, observe::<Static, F, 2>)]
#[on_insert(K, observe::<Static, K, 0>)]
#[on_replace(K, observe_replaced::<Static, K>)]
#[on_remove(K, observe::<Static, K, 2>)]
#[on_remove(D, observe::<Static, D, 2>)]
#[on_replace(G, observe_replaced::<Static, G>)]
#[track(A, G, K)]
#[track(E)]
struct Static {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
    d: Storage<D>,
    e: Storage<E>,
    f: Storage<F>,
    g: Storage<G>,
    h: Storage<H>,
    i: Storage<I>,
    j: Storage<J>,
    k: Storage<K>,
    l: Storage<L>,
}

type Ab = (A, B);
type Abc = (A, B, C);
type Ef = (E, F);
type Gh = (G, H);
type Efgh = (E, F, G, H);
type EgetF = (E, Get<F>);
type IjNotK = (I, J, Exclude<K>);
type IjNotKl = (I, J, Exclude<(K, L)>);
type DgetAnotK = (D, Get<A>, Exclude<K>);
type GetAe = Get<(A, E)>;
type GetBnotG = (Get<B>, Exclude<G>);

/// What each hook call saw: `(world, event, type, entity, the groups it is in as bits,
/// the value a replace hook was given)`.
type HookCall = (&'static str, u8, &'static str, Entity, u32, Option<u32>);

/// A hook call without the world's name.
type SeenCall = (u8, &'static str, Entity, u32, Option<u32>);

thread_local! {
    /// The hook calls of the current op, both worlds.
    static HOOK_CALLS: std::cell::RefCell<Vec<HookCall>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The groups an entity is in, through a hook's access.
trait Probe: sparse_groups::EditEntities + 'static {
    fn memberships(world: &mut HookWorld<'_, Self>, e: Entity) -> u32;
}

macro_rules! probe {
    ($W:ty) => {
        impl Probe for $W {
            fn memberships(world: &mut HookWorld<'_, Self>, e: Entity) -> u32 {
                let mut bits = 0;
                probe!(@each world, e, bits, 0, Ab Abc Ef Gh Efgh EgetF IjNotK IjNotKl DgetAnotK GetAe GetBnotG);
                bits
            }
        }
    };
    (@each $w:ident, $e:ident, $bits:ident, $n:expr, $K:ident $($rest:ident)*) => {
        if $w.try_borrow::<GroupRef<'_, $K>>().expect("the world has the group").entities().contains(&$e) {
            $bits |= 1 << $n;
        }
        probe!(@each $w, $e, $bits, $n + 1, $($rest)*);
    };
    (@each $w:ident, $e:ident, $bits:ident, $n:expr,) => {};
}
probe!(Static);
probe!(World);

/// The hook of both worlds: logs the call with the groups the entity is in, which must
/// be the same in both (the same plan position), and its component, which must be there,
/// and whether it holds `(T, B)` (a tuple read).
fn observe<W: Probe + Stores<T> + Stores<B> + Stores<(T, B)>, T: Component, const EVENT: u8>(
    world: &mut HookWorld<'_, W>,
    e: Entity,
) {
    log::<W, T>(world, e, EVENT, None);
}

/// The replace hook of both worlds: logs the call as `observe` does, with the value
/// replaced.
fn observe_replaced<W: Probe + Stores<T> + Stores<B> + Stores<(T, B)>, T: Value + Component>(
    world: &mut HookWorld<'_, W>,
    e: Entity,
    old: &T,
) {
    log::<W, T>(world, e, 1, Some(old.get()));
}

fn log<W: Probe + Stores<T> + Stores<B> + Stores<(T, B)>, T: Component>(
    world: &mut HookWorld<'_, W>,
    e: Entity,
    event: u8,
    old: Option<u32>,
) {
    assert!(world.get::<T>(e).is_some(), "a hook finds its component");
    // A tuple read through the hook's access: there exactly when each part is (and the
    // same in both worlds, through the logged bits).
    let pair = world.get::<(T, B)>(e).is_some();
    assert_eq!(
        pair,
        world.get::<B>(e).is_some(),
        "a hook's read of a tuple is its parts' reads"
    );
    let bits = W::memberships(world, e) | u32::from(pair) << 16;
    let which = if core::any::TypeId::of::<W>() == core::any::TypeId::of::<World>() {
        "dynamic"
    } else {
        "static"
    };
    HOOK_CALLS.with_borrow_mut(|calls| {
        calls.push((which, event, core::any::type_name::<T>(), e, bits, old));
    });
}

/// The hook calls of each world since the last call, the world's name taken out.
fn hook_calls() -> [Vec<SeenCall>; 2] {
    let calls = HOOK_CALLS.with_borrow_mut(std::mem::take);
    let of = |which: &str| {
        calls
            .iter()
            .filter(|c| c.0 == which)
            .map(|&(_, event, ty, e, bits, old)| (event, ty, e, bits, old))
            .collect()
    };
    [of("static"), of("dynamic")]
}

/// The run-time world with the `#[world]`'s hooks.
fn dynamic() -> World {
    let mut world = dynamic_groups();
    world.on_insert::<A>(observe::<World, A, 0>).unwrap();
    world.on_replace::<A>(observe_replaced::<World, A>).unwrap();
    world.on_remove::<A>(observe::<World, A, 2>).unwrap();
    world.on_insert::<F>(observe::<World, F, 0>).unwrap();
    world.on_remove::<F>(observe::<World, F, 2>).unwrap();
    world.on_insert::<K>(observe::<World, K, 0>).unwrap();
    world.on_replace::<K>(observe_replaced::<World, K>).unwrap();
    world.on_remove::<K>(observe::<World, K, 2>).unwrap();
    world.on_remove::<D>(observe::<World, D, 2>).unwrap();
    world.on_replace::<G>(observe_replaced::<World, G>).unwrap();
    world.track::<A>();
    world.track::<G>();
    world.track::<K>();
    world.track::<E>();
    world
}

/// What change detection reports of `T` (tracked in both worlds): `Added<T>`,
/// `Changed<T>` (sorted: the worlds may walk them in other orders) and `removed::<T>()`
/// (sorted: `destroy_many` removes in storage order).
macro_rules! changes {
    ($w:expr, $T:ty $(, $unwrap:ident)?) => {{
        let sorted = |mut v: Vec<Entity>| {
            v.sort_unstable();
            v
        };
        let added = $w.view::<(&$T, sparse_groups::Added<$T>)>()$(.$unwrap())?;
        let added = sorted(added.into_iter().map(|(e, _)| e).collect());
        let changed = $w.view::<(&$T, sparse_groups::Changed<$T>)>()$(.$unwrap())?;
        let changed = sorted(changed.into_iter().map(|(e, _)| e).collect());
        (added, changed, sorted($w.removed::<$T>().to_vec()))
    }};
}

/// The run-time world, its groups declared in another order, some keys spelled otherwise.
fn dynamic_groups() -> World {
    World::with_groups([
        GroupSpec::of::<(B, A)>(),
        GroupSpec::of::<GetBnotG>(),
        GroupSpec::of::<(F, E)>(),
        GroupSpec::of::<(J, I, Exclude<(L, K)>)>(),
        GroupSpec::of::<Abc>(),
        GroupSpec::of::<Efgh>(),
        GroupSpec::of::<Get<(E, A)>>(),
        GroupSpec::of::<IjNotK>(),
        GroupSpec::of::<Gh>(),
        GroupSpec::of::<DgetAnotK>(),
        GroupSpec::of::<EgetF>(),
    ])
    .expect("valid layout")
}

/// The number of component types and of groups.
const TYPES: u8 = 12;
const GROUPS: u8 = 11;

#[derive(Debug, Clone)]
enum Op {
    Spawn,
    /// `tick()` on both worlds.
    Tick,
    /// `.1` entities spawned with bundle `.0` (`spawn_with` for one, else `spawn_batch`),
    /// values from `.2`.
    SpawnBundles(u8, u8, u32),
    Insert(u8, usize, u32),
    Remove(u8, usize),
    Destroy(usize),
    /// Group, descending, and which sort: comparator, key, radix key, another storage's
    /// order, entity.
    SortGroup(u8, bool, u8),
    /// A storage no group owns (`K` when `.0`, else `L`), descending, and which sort.
    SortStorage(bool, bool, u8),
    /// Group `.0`'s first values changed, by `par_for_each` when `.1` (feature `rayon`).
    Bump(u8, bool),
    /// A view of kind `.0` changing values with seed `.1`.
    View(u8, u32),
    /// Group `.0` read through `group_ref`, iterated and by `for_each`.
    GroupRef(u8),
    /// A group, a storage and the values of another, borrowed at once.
    Borrow(u32),
    Commands(Vec<Cmd>),
    /// `retain` (`.0` even) or `retain_component` of kind `.0 / 2`, with seed `.1`.
    Retain(u8, u32),
    /// `insert_many` of type `.0`; a handle made stale first when `.2`.
    InsertMany(u8, Vec<(usize, u32)>, bool),
    RemoveMany(u8, Vec<usize>),
    DestroyMany(Vec<usize>),
    Clear(u8),
    /// A handle reserved through `&Entities`, then given a component.
    Reserve(u8, u32),
    /// Both worlds saved and loaded (with the `serde` feature).
    Reload,
    /// Tuple `.0` (see `by_tuple!`) inserted at once, with values from `.2`.
    InsertTuple(u8, usize, u32),
    /// Tuple `.0`'s types removed at once.
    RemoveTuple(u8, usize),
    /// Tuple `.0` read (`get`, `contains`) and changed through `get_mut` of a query.
    ReadTuple(u8, usize, u32),
}

/// One recorded command.
#[derive(Debug, Clone)]
enum Cmd {
    Insert(u8, usize, u32),
    Remove(u8, usize),
    Destroy(usize),
    /// A spawn whose handle is reserved through `&Entities` when recorded.
    Spawn(u32),
    /// A spawn whose entity is created when applied (`Applied::spawned`).
    SpawnLater(u32),
    /// Tuple `.0` inserted at once.
    InsertTuple(u8, usize, u32),
    /// Tuple `.0`'s types removed at once.
    RemoveTuple(u8, usize),
}

fn cmd() -> impl Strategy<Value = Cmd> {
    prop_oneof![
        4 => (0..TYPES, any::<usize>(), 0u32..1000).prop_map(|(t, e, v)| Cmd::Insert(t, e, v)),
        2 => (0..TYPES, any::<usize>()).prop_map(|(t, e)| Cmd::Remove(t, e)),
        2 => any::<usize>().prop_map(Cmd::Destroy),
        1 => (0u32..1000).prop_map(Cmd::Spawn),
        1 => (0u32..1000).prop_map(Cmd::SpawnLater),
        2 => (0..TUPLES, any::<usize>(), 0u32..1000).prop_map(|(k, e, v)| Cmd::InsertTuple(k, e, v)),
        1 => (0..TUPLES, any::<usize>()).prop_map(|(k, e)| Cmd::RemoveTuple(k, e)),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => Just(Op::Spawn),
        1 => Just(Op::Tick),
        1 => (0u8..3, 1u8..6, 0u32..1000).prop_map(|(b, n, v)| Op::SpawnBundles(b, n, v)),
        10 => (0..TYPES, any::<usize>(), 0u32..1000).prop_map(|(t, e, v)| Op::Insert(t, e, v)),
        6 => (0..TYPES, any::<usize>()).prop_map(|(t, e)| Op::Remove(t, e)),
        1 => any::<usize>().prop_map(Op::Destroy),
        1 => (0..GROUPS, any::<bool>(), 0u8..5).prop_map(|(g, d, how)| Op::SortGroup(g, d, how)),
        1 => (any::<bool>(), any::<bool>(), 0u8..4).prop_map(|(k, d, how)| Op::SortStorage(k, d, how)),
        1 => (0..GROUPS, any::<bool>()).prop_map(|(g, parallel)| Op::Bump(g, parallel && cfg!(feature = "rayon"))),
        2 => (0..VIEWS, 0u32..1000).prop_map(|(k, seed)| Op::View(k, seed)),
        1 => (0..GROUPS).prop_map(Op::GroupRef),
        1 => (0u32..1000).prop_map(Op::Borrow),
        2 => prop::collection::vec(cmd(), 1..8).prop_map(Op::Commands),
        1 => (0..RETAINS, 0u32..1000).prop_map(|(k, seed)| Op::Retain(k, seed)),
        1 => (0..TYPES, prop::collection::vec((any::<usize>(), 0u32..1000), 1..12), any::<bool>())
            .prop_map(|(t, items, stale)| Op::InsertMany(t, items, stale)),
        1 => (0..TYPES, prop::collection::vec(any::<usize>(), 1..12))
            .prop_map(|(t, es)| Op::RemoveMany(t, es)),
        1 => prop::collection::vec(any::<usize>(), 1..6).prop_map(Op::DestroyMany),
        1 => (0..TYPES).prop_map(Op::Clear),
        1 => (0..TYPES, 0u32..1000).prop_map(|(t, v)| Op::Reserve(t, v)),
        1 => Just(Op::Reload),
        4 => (0..TUPLES, any::<usize>(), 0u32..1000).prop_map(|(k, e, v)| Op::InsertTuple(k, e, v)),
        3 => (0..TUPLES, any::<usize>()).prop_map(|(k, e)| Op::RemoveTuple(k, e)),
        2 => (0..TUPLES, any::<usize>(), 0u32..1000).prop_map(|(k, e, v)| Op::ReadTuple(k, e, v)),
    ]
}

/// The number of tuples of components `by_tuple!` knows.
const TUPLES: u8 = 5;

/// Runs `$body` with `$Tuple` the tuple of component types of index `$k` (types a group
/// needs together, a group's types with an excluded one, types of unrelated groups) and
/// `$make` building one from a value.
macro_rules! by_tuple {
    ($k:expr, $Tuple:ident, $make:ident => $body:expr) => {
        match $k {
            0 => {
                #[allow(dead_code)]
                type $Tuple = (A, B, C);
                let $make = |v: u32| (A::new(v), B::new(v + 1), C::new(v + 2));
                $body
            }
            1 => {
                #[allow(dead_code)]
                type $Tuple = (H, G, F, E);
                let $make = |v: u32| (H::new(v), G::new(v + 1), F::new(v + 2), E::new(v + 3));
                $body
            }
            2 => {
                #[allow(dead_code)]
                type $Tuple = (I, J, K);
                let $make = |v: u32| (I::new(v), J::new(v + 1), K::new(v + 2));
                $body
            }
            3 => {
                #[allow(dead_code)]
                type $Tuple = (L, D, A);
                let $make = |v: u32| (L::new(v), D::new(v + 1), A::new(v + 2));
                $body
            }
            _ => {
                #[allow(dead_code)]
                type $Tuple = (K, E);
                let $make = |v: u32| (K::new(v), E::new(v + 1));
                $body
            }
        }
    };
}

/// The number of view kinds (one more, `par_for_each`, with `rayon`) and of retain kinds.
const VIEWS: u8 = if cfg!(feature = "rayon") { 6 } else { 5 };
const RETAINS: u8 = 6;

/// A new value from an old one and a seed.
fn mix(value: u32, seed: u32) -> u32 {
    value.wrapping_mul(31).wrapping_add(seed) % 1000
}

/// Whether an item with values summing to `sum` is kept by a retain with `seed`.
fn keep(sum: u32, seed: u32) -> bool {
    !(sum + seed).is_multiple_of(3)
}

/// Walks view kind `$k` of a borrowed `View` (`$borrow!(Q, F)` gives it), changing values
/// with `$seed`; gives the entities visited and the values seen, sorted by entity.
macro_rules! walk_view {
    ($k:expr, $seed:expr, $borrow:ident) => {{
        let seed = $seed;
        let mut seen: Vec<(Entity, Vec<Option<u32>>)> = Vec::new();
        match $k {
            0 => {
                let view = $borrow!((&mut A, &B), ());
                for (e, (a, b)) in view {
                    seen.push((e, vec![Some(a.0), Some(b.0)]));
                    a.0 = mix(a.0 + b.0, seed);
                }
            }
            1 => {
                let view = $borrow!((&mut I, Option<&K>), Without<L>);
                view.for_each(|e, (i, k)| {
                    seen.push((e, vec![Some(i.0), k.map(|k| k.0)]));
                    i.0 = mix(i.0, seed);
                });
            }
            2 => {
                let mut view = $borrow!((&E, Option<&mut F>), With<G>);
                for (e, (x, f)) in view.iter_mut() {
                    seen.push((e, vec![Some(x.0), f.as_ref().map(|f| f.0)]));
                    if let Some(f) = f {
                        f.0 = mix(f.0 + x.0, seed);
                    }
                }
            }
            3 => {
                let view = $borrow!(&mut D, (With<A>, Without<K>));
                for (e, d) in view {
                    seen.push((e, vec![Some(d.0)]));
                    d.0 = mix(d.0, seed);
                }
            }
            #[cfg(feature = "rayon")]
            5 => {
                let view = $borrow!((&mut D, Option<&A>), Without<K>);
                let out = std::sync::Mutex::new(Vec::new());
                view.par_for_each(|e, (d, a)| {
                    out.lock()
                        .unwrap()
                        .push((e, vec![Some(d.0), a.map(|a| a.0)]));
                    d.0 = mix(d.0 + a.map_or(0, |a| a.0), seed);
                });
                seen = out.into_inner().unwrap();
            }
            _ => {
                let mut view = $borrow!((&C, &mut L), ());
                let probe: Vec<Entity> = view.iter_mut().map(|(e, _)| e).collect();
                for e in probe {
                    let (c, l) = view.get(e).expect("visited");
                    seen.push((e, vec![Some(c.0), Some(l.0)]));
                    l.0 = mix(l.0 + c.0, seed);
                }
            }
        }
        seen.sort_by_key(|(e, _)| *e);
        seen
    }};
}

/// Retain kind `$k` on world `$w` with `$seed`; `$ok` unwraps a run-time result.
macro_rules! retain_kind {
    ($w:expr, $k:expr, $seed:expr, $ok:ident) => {{
        let (w, seed) = ($w, $seed);
        match $k {
            0 => $ok!(w.retain::<(&A, &B)>(|_, (a, b)| keep(a.0 + b.0, seed))),
            1 => $ok!(
                w.retain::<(&I, Option<&K>)>(|_, (i, k)| keep(i.0 + k.map_or(0, |k| k.0), seed))
            ),
            2 => $ok!(w.retain::<&L>(|_, l| keep(l.0, seed))),
            3 => $ok!(w.retain_component::<F, (&E, &F)>(|_, (e, f)| keep(e.0 + f.0, seed))),
            4 => $ok!(w.retain_component::<K, &K>(|_, k| keep(k.0, seed))),
            _ => $ok!(w.retain_component::<A, (&A, Option<&D>)>(|_, (a, d)| keep(
                a.0 + d.map_or(0, |d| d.0),
                seed
            ))),
        }
    }};
}

/// The value itself (a `#[world]` cannot fail).
macro_rules! direct {
    ($e:expr) => {
        $e
    };
}

/// The value of a run-time `World` result that must succeed.
macro_rules! unwrapped {
    ($e:expr) => {
        $e.expect("the run-time world has the storages and groups")
    };
}

/// Records `cmds` for a world of type `$W` whose entities are `$entities`, giving the
/// commands and the handles the spawns reserved.
macro_rules! record {
    ($W:ty, $allocator:expr, $cmds:expr, $entities:expr) => {{
        let mut commands = Commands::<$W>::new();
        let mut spawned = Vec::new();
        for cmd in $cmds {
            match *cmd {
                Cmd::Insert(t, i, v) => {
                    let e = $entities[i % $entities.len()];
                    by_type!(t, T => commands.insert(e, T::new(v)));
                }
                Cmd::Remove(t, i) => {
                    let e = $entities[i % $entities.len()];
                    by_type!(t, T => commands.remove::<T>(e));
                }
                Cmd::Destroy(i) => commands.destroy($entities[i % $entities.len()]),
                Cmd::Spawn(v) => spawned.push(commands.spawn_reserved(
                    $allocator,
                    (A::new(v), B::new(v), K::new(v)),
                )),
                Cmd::SpawnLater(v) => commands.spawn((E::new(v), F::new(v), G::new(v), H::new(v))),
                Cmd::InsertTuple(k, i, v) => {
                    let e = $entities[i % $entities.len()];
                    by_tuple!(k, Tuple, make => commands.insert(e, make(v)));
                }
                Cmd::RemoveTuple(k, i) => {
                    let e = $entities[i % $entities.len()];
                    by_tuple!(k, Tuple, _make => commands.remove::<Tuple>(e));
                }
            }
        }
        (commands, spawned)
    }};
}

/// Applies the same call to both worlds and compares the results.
macro_rules! both {
    ($s:expr, $d:expr, |$w:ident| $body:expr) => {{
        let r1 = {
            let $w = &mut *$s;
            $body
        };
        let r2 = {
            let $w = &mut *$d;
            $body
        };
        prop_assert_eq!(r1, r2);
    }};
}

/// Runs `$body` with `$T` the component type of index `$t`.
macro_rules! by_type {
    ($t:expr, $T:ident => $body:expr) => {
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
                type $T = H;
                $body
            }
            8 => {
                type $T = I;
                $body
            }
            9 => {
                type $T = J;
                $body
            }
            10 => {
                type $T = K;
                $body
            }
            _ => {
                type $T = L;
                $body
            }
        }
    };
}

/// Runs `$body` with `$K` the key of group `$g` and `$vals` a closure turning one of its
/// items into the values it holds.
macro_rules! by_group {
    ($g:expr, $K:ident, $vals:ident => $body:expr) => {
        match $g {
            0 => {
                type $K = Ab;
                let $vals = |(a, b): (&A, &B)| vec![a.0, b.0];
                $body
            }
            1 => {
                type $K = Abc;
                let $vals = |(a, b, c): (&A, &B, &C)| vec![a.0, b.0, c.0];
                $body
            }
            2 => {
                type $K = Ef;
                let $vals = |(e, f): (&E, &F)| vec![e.0, f.0];
                $body
            }
            3 => {
                type $K = Gh;
                let $vals = |(g, h): (&G, &H)| vec![g.0, h.0];
                $body
            }
            4 => {
                type $K = Efgh;
                let $vals = |(e, f, g, h): (&E, &F, &G, &H)| vec![e.0, f.0, g.0, h.0];
                $body
            }
            5 => {
                type $K = EgetF;
                let $vals = |(e, f): (&E, &F)| vec![e.0, f.0];
                $body
            }
            6 => {
                type $K = IjNotK;
                let $vals = |(i, j): (&I, &J)| vec![i.0, j.0];
                $body
            }
            7 => {
                type $K = IjNotKl;
                let $vals = |(i, j): (&I, &J)| vec![i.0, j.0];
                $body
            }
            8 => {
                type $K = DgetAnotK;
                let $vals = |(d, a): (&D, &A)| vec![d.0, a.0];
                $body
            }
            9 => {
                type $K = GetAe;
                let $vals = |(a, e): (&A, &E)| vec![a.0, e.0];
                $body
            }
            _ => {
                type $K = GetBnotG;
                let $vals = |b: &B| vec![b.0];
                $body
            }
        }
    };
}

/// What view kind `k` of `walk_view!` must visit, from `get` alone (a plain model: no
/// driver, no run, no group): the alive entities matching it and their values before the
/// walk, sorted by entity.
fn view_model(s: &Static, entities: &[Entity], k: u8) -> Vec<(Entity, Vec<Option<u32>>)> {
    let mut alive: Vec<Entity> = entities
        .iter()
        .copied()
        .filter(|&e| s.is_alive(e))
        .collect();
    alive.sort();
    alive.dedup();
    alive
        .into_iter()
        .filter_map(|e| {
            let get = |t: u8| by_type!(t, T => s.get::<T>(e).map(|c| c.0));
            let has = |t: u8| get(t).is_some();
            // Types by their index in `components!`: A = 0 … L = 11.
            let (a, b, c, d, e_, f, g, i, k_, l) = (0, 1, 2, 3, 4, 5, 6, 8, 10, 11);
            let values = match k {
                0 => vec![Some(get(a)?), Some(get(b)?)],
                1 if !has(l) => vec![Some(get(i)?), get(k_)],
                2 if has(g) => vec![Some(get(e_)?), get(f)],
                3 if has(a) && !has(k_) => vec![Some(get(d)?)],
                #[cfg(feature = "rayon")]
                5 if !has(k_) => vec![Some(get(d)?), get(a)],
                1..=3 => return None,
                #[cfg(feature = "rayon")]
                5 => return None,
                _ => vec![Some(get(c)?), Some(get(l)?)],
            };
            Some((e, values))
        })
        .collect()
}

/// Each group's members in order, with their values.
type GroupState = Vec<(Entity, Vec<u32>)>;

fn state_static(w: &mut Static) -> Vec<GroupState> {
    (0..GROUPS)
        .map(|g| {
            by_group!(g, K, vals => {
                let mut out = Vec::new();
                w.group::<K>().for_each(|e, item| out.push((e, vals(reborrow::<K>(item)))));
                assert_eq!(out.len(), w.group_len::<K>());
                out
            })
        })
        .collect()
}

fn state_dynamic(w: &mut World) -> Vec<GroupState> {
    (0..GROUPS)
        .map(|g| {
            by_group!(g, K, vals => {
                let mut out = Vec::new();
                w.group::<K>().unwrap().for_each(|e, item| out.push((e, vals(reborrow::<K>(item)))));
                assert_eq!(out.len(), w.group_len::<K>().unwrap());
                out
            })
        })
        .collect()
}

/// The shared form of a group item (what a sort compares), from the mutable one.
fn reborrow<'a, K: Reborrow>(item: K::Mut<'a>) -> K::Ref<'a> {
    K::reborrow(item)
}

/// Turns an item of mutable references into one of shared references.
trait Reborrow {
    type Mut<'a>;
    type Ref<'a>;
    fn reborrow(item: Self::Mut<'_>) -> Self::Ref<'_>;
}

macro_rules! reborrow {
    ($key:ty, |$item:pat_param| $shared:expr, $m:ty, $r:ty) => {
        impl Reborrow for $key {
            type Mut<'a> = $m;
            type Ref<'a> = $r;
            fn reborrow($item: Self::Mut<'_>) -> Self::Ref<'_> {
                $shared
            }
        }
    };
}
reborrow!(
    Ab,
    |(a, b)| (&*a, &*b),
    (&'a mut A, &'a mut B),
    (&'a A, &'a B)
);
reborrow!(
    Abc,
    |(a, b, c)| (&*a, &*b, &*c),
    (&'a mut A, &'a mut B, &'a mut C),
    (&'a A, &'a B, &'a C)
);
reborrow!(
    Ef,
    |(e, f)| (&*e, &*f),
    (&'a mut E, &'a mut F),
    (&'a E, &'a F)
);
reborrow!(
    Gh,
    |(g, h)| (&*g, &*h),
    (&'a mut G, &'a mut H),
    (&'a G, &'a H)
);
reborrow!(
    Efgh,
    |(e, f, g, h)| (&*e, &*f, &*g, &*h),
    (&'a mut E, &'a mut F, &'a mut G, &'a mut H),
    (&'a E, &'a F, &'a G, &'a H)
);
reborrow!(
    EgetF,
    |(e, f)| (&*e, &*f),
    (&'a mut E, &'a mut F),
    (&'a E, &'a F)
);
reborrow!(
    IjNotK,
    |(i, j)| (&*i, &*j),
    (&'a mut I, &'a mut J),
    (&'a I, &'a J)
);
reborrow!(
    IjNotKl,
    |(i, j)| (&*i, &*j),
    (&'a mut I, &'a mut J),
    (&'a I, &'a J)
);
reborrow!(
    DgetAnotK,
    |(d, a)| (&*d, &*a),
    (&'a mut D, &'a mut A),
    (&'a D, &'a A)
);
reborrow!(
    GetAe,
    |(a, e)| (&*a, &*e),
    (&'a mut A, &'a mut E),
    (&'a A, &'a E)
);
reborrow!(GetBnotG, |b| &*b, &'a mut B, &'a B);

/// Sorts group `g` of both worlds by the sum of its values (ties by the first value):
/// with a comparator (`how` 0), or stably by a key (1) or a radix key (2, the sum alone);
/// or (3) in the order of another storage, or (4) by entity.
fn sort_both(s: &mut Static, d: &mut World, g: u8, descending: bool, how: u8) {
    by_group!(g, K, vals => {
        let key = |v: Vec<u32>| (v.iter().map(|&x| u64::from(x)).sum::<u64>(), v[0]);
        let order = |x: Vec<u32>, y: Vec<u32>| {
            let (x, y) = (key(x), key(y));
            if descending { y.cmp(&x) } else { x.cmp(&y) }
        };
        let sum = |v: Vec<u32>| {
            let sum = key(v).0;
            if descending { !sum } else { sum }
        };
        match how {
            0 => {
                s.sort_group::<K>(|x, y| order(vals(x), vals(y)));
                d.sort_group::<K>(|x, y| order(vals(x), vals(y))).unwrap();
            }
            1 => {
                let key = |v: Vec<u32>| {
                    let (sum, first) = key(v);
                    if descending { (!sum, u32::MAX - first) } else { (sum, first) }
                };
                s.sort_group_by_key::<K, _>(|x| key(vals(x)));
                d.sort_group_by_key::<K, _>(|x| key(vals(x))).unwrap();
            }
            2 => {
                s.sort_group_by_radix_key::<K, _>(|x| sum(vals(x)));
                d.sort_group_by_radix_key::<K, _>(|x| sum(vals(x))).unwrap();
            }
            4 => {
                s.sort_group_by_entity::<K>();
                d.sort_group_by_entity::<K>().unwrap();
            }
            // In the order of another storage: `D` (owned by one group, observed by none
            // of the others) or `K` (only excluded), whichever `descending` picks.
            _ if descending => {
                s.sort_group_as::<K, D>();
                d.sort_group_as::<K, D>().unwrap();
            }
            _ => {
                s.sort_group_as::<K, self::K>();
                d.sort_group_as::<K, self::K>().unwrap();
            }
        }
    });
}

/// Sorts the storage of `T`, which no group owns, in both worlds in the order of another
/// storage (`E`, owned by three groups, or `A`): both end in the same packed order, the
/// entities of that storage first, in its order.
fn sort_as_both<T: Component + Value>(s: &mut Static, d: &mut World, by_e: bool)
where
    Static: Unowned<T> + HasComponent<T>,
{
    let order: Vec<Entity> = if by_e {
        s.sort_as::<T, E>();
        d.sort_as::<T, E>().unwrap();
        s.storage::<E>().entities().to_vec()
    } else {
        s.sort_as::<T, A>();
        d.sort_as::<T, A>().unwrap();
        s.storage::<A>().entities().to_vec()
    };
    let sorted = s.storage::<T>().entities().to_vec();
    assert_eq!(
        sorted,
        d.storage::<T>()
            .map_or_else(Vec::new, |st| st.entities().to_vec())
    );
    let shared: Vec<Entity> = order.into_iter().filter(|e| sorted.contains(e)).collect();
    assert_eq!(
        sorted[..shared.len()],
        shared[..],
        "the shared entities first, in order"
    );
}

/// Sorts the storage of `T`, which no group owns, in both worlds by its value: with a
/// comparator (`how` 0), or stably by a key (1) or a radix key (2); both end in the same
/// packed order, sorted.
fn sort_storage_both<T: Component + Value>(s: &mut Static, d: &mut World, descending: bool, how: u8)
where
    Static: Unowned<T> + HasComponent<T>,
{
    let key = |v: &T| {
        if descending {
            u32::MAX - v.get()
        } else {
            v.get()
        }
    };
    match how {
        0 => {
            s.sort::<T>(|x, y| key(x).cmp(&key(y)));
            d.sort::<T>(|x, y| key(x).cmp(&key(y))).unwrap();
        }
        1 => {
            s.sort_by_key::<T, _>(key);
            d.sort_by_key::<T, _>(key).unwrap();
        }
        _ => {
            s.sort_by_radix_key::<T, _>(key);
            d.sort_by_radix_key::<T, _>(key).unwrap();
        }
    }
    let packed = |st: &Storage<T>| st.iter().map(|(e, c)| (e, key(c))).collect::<Vec<_>>();
    let sorted = packed(s.storage::<T>());
    assert_eq!(sorted, d.storage::<T>().map_or_else(Vec::new, packed));
    assert!(
        sorted.windows(2).all(|w| w[0].1 <= w[1].1),
        "unsorted: {sorted:?}"
    );
}

/// Changes the first value of every member of group `g`, in both worlds, by `for_each`
/// or (with the `rayon` feature) by `par_for_each`.
fn bump_both(s: &mut Static, d: &mut World, g: u8, parallel: bool) {
    fn bump<V: Value>(v: &mut V) {
        *v = V::new(v.get().wrapping_mul(31).wrapping_add(7) % 1000);
    }
    macro_rules! bump_group {
        ($K:ty, |$item:pat_param| $first:expr) => {{
            #[cfg(feature = "rayon")]
            if parallel {
                s.group::<$K>().par_for_each(|_, $item| bump($first));
                d.group::<$K>()
                    .unwrap()
                    .par_for_each(|_, $item| bump($first));
                return;
            }
            assert!(!parallel, "parallel loops need the rayon feature");
            s.group::<$K>().for_each(|_, $item| bump($first));
            d.group::<$K>().unwrap().for_each(|_, $item| bump($first));
        }};
    }
    match g {
        0 => bump_group!(Ab, |(a, _)| a),
        1 => bump_group!(Abc, |(_, _, c)| c),
        2 => bump_group!(Ef, |(_, f)| f),
        3 => bump_group!(Gh, |(g, _)| g),
        4 => bump_group!(Efgh, |(_, _, _, h)| h),
        5 => bump_group!(EgetF, |(_, f)| f),
        6 => bump_group!(IjNotK, |(i, _)| i),
        7 => bump_group!(IjNotKl, |(_, j)| j),
        8 => bump_group!(DgetAnotK, |(_, a)| a),
        9 => bump_group!(GetAe, |(_, e)| e),
        _ => bump_group!(GetBnotG, |b| b),
    }
}

/// Bumps the `A` of every member of `<A, B>` that has a `K`, and every `L`.
fn borrowed(mut group: GroupMut<Ab>, tags: &Storage<K>, mut values: ValuesMut<L>, seed: u32) {
    for (e, (a, _)) in group.iter_mut() {
        if tags.contains(e) {
            a.0 = mix(a.0, seed);
        }
    }
    for l in values.values_mut() {
        l.0 = mix(l.0, seed);
    }
}

/// Both worlds saved and loaded: the `#[world]` in JSON, the run-time `World` in postcard.
#[cfg(feature = "serde")]
fn reload_both(s: &Static, d: &World) -> (Static, World) {
    let json = serde_json::to_string(s).expect("a world serializes");
    let x: Static = serde_json::from_str(&json).expect("its snapshot loads");
    type Types = (A, B, C, D, E, F, G, H, I, J, K, L);
    let bytes = postcard::to_stdvec(&d.snapshot::<Types>()).expect("a world serializes");
    let mut y = dynamic();
    y.load::<Types, _>(&mut postcard::Deserializer::from_bytes(&bytes))
        .expect("its snapshot loads");
    (x, y)
}

/// The allocator (as its snapshot) and every storage's packed entities and values.
#[cfg(feature = "serde")]
fn packed_static(s: &Static) -> (String, Vec<Vec<(Entity, u32)>>) {
    let storages = (0..TYPES)
        .map(|t| by_type!(t, T => s.storage::<T>().iter().map(|(e, c)| (e, c.0)).collect()))
        .collect();
    (serde_json::to_string(s.entities()).unwrap(), storages)
}

/// The same for the run-time world.
#[cfg(feature = "serde")]
fn packed_dynamic(d: &World) -> (String, Vec<Vec<(Entity, u32)>>) {
    let storages = (0..TYPES)
        .map(|t| {
            by_type!(t, T => d.storage::<T>().map_or_else(Vec::new, |st| st.iter().map(|(e, c)| (e, c.0)).collect()))
        })
        .collect();
    (serde_json::to_string(d.entities()).unwrap(), storages)
}

/// The same sequence applied to both worlds: every step leaves them alike.
fn agree(ops: Vec<Op>) -> Result<(), TestCaseError> {
    let (mut s, mut d) = (Static::new(), dynamic());
    let mut entities: Vec<Entity> = Vec::new();
    for op in ops {
        match op {
            Op::Tick => {
                s.tick();
                d.tick();
            }
            Op::Spawn => {
                let (x, y) = (s.spawn(), d.spawn());
                prop_assert_eq!(x, y);
                entities.push(x);
            }
            Op::SpawnBundles(bundle, count, value) => {
                // The `#[world]` pushes rows, the run-time world collects columns.
                macro_rules! spawn {
                    ($($T:ident),+) => {{
                        let row = |i: u32| ($($T::new(value + i),)+);
                        let (x, y) = if count == 1 {
                            (vec![s.spawn_with(row(0))], vec![d.spawn_with(row(0))])
                        } else {
                            let rows = || (0..u32::from(count)).map(row);
                            (s.spawn_batch(rows()), d.spawn_batch(rows()))
                        };
                        prop_assert_eq!(&x, &y);
                        x
                    }};
                }
                let spawned = match bundle {
                    0 => spawn!(A, B, C),
                    1 => spawn!(E, F, G, H),
                    _ => spawn!(I, J, K),
                };
                entities.extend(spawned);
            }
            Op::Insert(t, i, v) if !entities.is_empty() => {
                let e = entities[i % entities.len()];
                by_type!(t, T => both!(&mut s, &mut d, |w| w.insert(e, T::new(v)).map(|o| o.map(|c| c.0))));
            }
            Op::Remove(t, i) if !entities.is_empty() => {
                let e = entities[i % entities.len()];
                by_type!(t, T => both!(&mut s, &mut d, |w| w.remove::<T>(e).map(|c| c.0)));
            }
            Op::Destroy(i) if !entities.is_empty() => {
                // Stale handles stay in `entities` on purpose: later ops must refuse them.
                let e = entities[i % entities.len()];
                both!(&mut s, &mut d, |w| w.destroy(e));
            }
            Op::SortGroup(g, descending, how) => sort_both(&mut s, &mut d, g, descending, how),
            Op::SortStorage(k, by_e, 3) => {
                if k {
                    sort_as_both::<K>(&mut s, &mut d, by_e);
                } else {
                    sort_as_both::<L>(&mut s, &mut d, by_e);
                }
            }
            Op::SortStorage(k, descending, how) => {
                if k {
                    sort_storage_both::<K>(&mut s, &mut d, descending, how);
                } else {
                    sort_storage_both::<L>(&mut s, &mut d, descending, how);
                }
            }
            Op::Bump(g, parallel) => bump_both(&mut s, &mut d, g, parallel),
            Op::View(k, seed) => {
                macro_rules! of_static {
                    ($Q:ty, $F:ty) => {
                        s.borrow::<View<$Q, $F>>()
                    };
                }
                macro_rules! of_dynamic {
                    ($Q:ty, $F:ty) => {
                        d.borrow::<View<$Q, $F>>().expect("stored types")
                    };
                }
                let expected = view_model(&s, &entities, k);
                let x = walk_view!(k, seed, of_static);
                let y = walk_view!(k, seed, of_dynamic);
                prop_assert_eq!(&x, &expected, "view kind {} against the model", k);
                prop_assert_eq!(x, y);
            }
            Op::GroupRef(g) => {
                by_group!(g, K, vals => {
                    let (x, y) = (s.group_ref::<K>(), d.group_ref::<K>().unwrap());
                    prop_assert_eq!(x.len(), y.len());
                    let xs: Vec<_> = x.iter().map(|(e, item)| (e, vals(item))).collect();
                    let mut ys = Vec::new();
                    y.for_each(|e, item| ys.push((e, vals(item))));
                    prop_assert_eq!(xs, ys);
                });
            }
            Op::Borrow(seed) => {
                let (group, tags, values) = s.borrow::<(GroupMut<Ab>, &Storage<K>, ValuesMut<L>)>();
                borrowed(group, tags, values, seed);
                let (group, tags, values) = d
                    .borrow::<(GroupMut<Ab>, &Storage<K>, ValuesMut<L>)>()
                    .expect("disjoint stored parts");
                borrowed(group, tags, values, seed);
            }
            Op::Commands(cmds) if !entities.is_empty() => {
                let (mut x, xs) = {
                    let allocator = s.borrow::<&Entities>();
                    record!(Static, allocator, &cmds, entities)
                };
                let (mut y, ys) = {
                    let allocator = d.borrow::<&Entities>().unwrap();
                    record!(World, allocator, &cmds, entities)
                };
                prop_assert_eq!(&xs, &ys);
                let (x, y): (Applied, Applied) = (s.apply(&mut x), d.apply(&mut y));
                prop_assert_eq!(x.applied + x.skipped.len(), cmds.len());
                prop_assert_eq!(&x, &y);
                entities.extend(xs);
                entities.extend(x.spawned);
            }
            Op::InsertTuple(k, i, v) if !entities.is_empty() => {
                let e = entities[i % entities.len()];
                by_tuple!(k, Tuple, make => {
                    let x = s.insert(e, make(v));
                    let y = d.insert(e, make(v));
                    prop_assert_eq!(x, y);
                });
            }
            Op::RemoveTuple(k, i) if !entities.is_empty() => {
                let e = entities[i % entities.len()];
                by_tuple!(k, Tuple, _make => {
                    prop_assert_eq!(s.remove::<Tuple>(e), d.remove::<Tuple>(e));
                });
            }
            Op::ReadTuple(k, i, seed) if !entities.is_empty() => {
                let e = entities[i % entities.len()];
                by_tuple!(k, Tuple, _make => {
                    prop_assert_eq!(s.get::<Tuple>(e), d.get::<Tuple>(e));
                    prop_assert_eq!(s.contains::<Tuple>(e), d.contains::<Tuple>(e));
                    let has_all = s.contains::<Tuple>(e);
                    prop_assert_eq!(has_all, s.get::<Tuple>(e).is_some());
                });
                // Several components mutably at once (an optional one included).
                macro_rules! bump {
                    ($w:expr) => {
                        $w.get_mut::<(&mut A, &B, Option<&mut K>)>(e)
                            .map(|(a, b, k)| {
                                a.0 = mix(a.0 + b.0, seed);
                                let k = k.map(|k| {
                                    k.0 = mix(k.0, seed);
                                    k.0
                                });
                                (a.0, k)
                            })
                    };
                }
                let x = bump!(s);
                let y = bump!(d);
                prop_assert_eq!(x, y);
            }
            Op::Retain(k, seed) => {
                let x = retain_kind!(&mut s, k, seed, direct);
                let y = retain_kind!(&mut d, k, seed, unwrapped);
                prop_assert_eq!(x, y);
            }
            Op::InsertMany(t, items, stale) if !entities.is_empty() => {
                if stale {
                    let e = entities[items[0].0 % entities.len()];
                    both!(&mut s, &mut d, |w| w.destroy(e));
                }
                let items: Vec<(Entity, u32)> = items
                    .iter()
                    .map(|&(i, v)| (entities[i % entities.len()], v))
                    .collect();
                by_type!(t, T => {
                    let batch = || items.iter().map(|&(e, v)| (e, T::new(v))).collect::<Vec<_>>();
                    let x = s.insert_many(batch()).map_err(|e| (e.dead, e.items.len()));
                    let y = d.insert_many(batch()).map_err(|e| (e.dead, e.items.len()));
                    prop_assert_eq!(x, y);
                });
            }
            Op::RemoveMany(t, es) if !entities.is_empty() => {
                let es: Vec<Entity> = es.iter().map(|&i| entities[i % entities.len()]).collect();
                by_type!(t, T => both!(&mut s, &mut d, |w| w.remove_many::<T>(&es)));
            }
            Op::DestroyMany(es) if !entities.is_empty() => {
                let es: Vec<Entity> = es.iter().map(|&i| entities[i % entities.len()]).collect();
                both!(&mut s, &mut d, |w| w.destroy_many(&es));
            }
            Op::Clear(t) => by_type!(t, T => {
                s.clear::<T>();
                d.clear::<T>();
            }),
            Op::Reserve(t, v) => {
                let (x, y) = (s.entities().reserve(), d.entities().reserve());
                prop_assert_eq!(x, y);
                by_type!(t, T => both!(&mut s, &mut d, |w| w.insert(x, T::new(v)).map(|o| o.map(|c| c.0))));
                entities.push(x);
            }
            #[cfg(feature = "serde")]
            Op::Reload => {
                let (x, y) = reload_both(&s, &d);
                prop_assert_eq!(packed_static(&x), packed_static(&s));
                prop_assert_eq!(packed_dynamic(&y), packed_dynamic(&d));
                // Every group in the same order, non-owning ones included.
                let (mut x, mut y) = (x, y);
                prop_assert_eq!(state_static(&mut x), state_static(&mut s));
                prop_assert_eq!(state_dynamic(&mut y), state_dynamic(&mut d));
                (s, d) = (x, y);
            }
            _ => {}
        }
        s.check().map_err(TestCaseError::fail)?;
        d.check().map_err(TestCaseError::fail)?;
        let [static_calls, dynamic_calls] = hook_calls();
        prop_assert_eq!(
            static_calls,
            dynamic_calls,
            "the hooks ran alike in both worlds"
        );
        prop_assert_eq!(changes!(s, A), changes!(d, A, unwrap), "changes of A");
        prop_assert_eq!(changes!(s, G), changes!(d, G, unwrap), "changes of G");
        prop_assert_eq!(changes!(s, K), changes!(d, K, unwrap), "changes of K");
        prop_assert_eq!(changes!(s, E), changes!(d, E, unwrap), "changes of E");
        prop_assert_eq!(state_static(&mut s), state_dynamic(&mut d));
        for &e in &entities {
            prop_assert_eq!(s.is_alive(e), d.is_alive(e));
            for t in 0..TYPES {
                by_type!(t, T => prop_assert_eq!(s.get::<T>(e), d.get::<T>(e)));
            }
        }
    }
    Ok(())
}

/// Half of `config`'s cases (at least one): the property is two tests, which the test
/// runner runs on two threads.
fn half_of(config: ProptestConfig) -> ProptestConfig {
    ProptestConfig {
        cases: config.cases.div_ceil(2).max(1),
        ..config
    }
}

proptest! {
    #![proptest_config(half_of(cases_or(48)))]

    #[test]
    fn static_and_runtime_worlds_agree_first_half(ops in prop::collection::vec(op(), 500..1500)) {
        agree(ops)?;
    }

    #[test]
    fn static_and_runtime_worlds_agree_second_half(ops in prop::collection::vec(op(), 500..1500)) {
        agree(ops)?;
    }
}
