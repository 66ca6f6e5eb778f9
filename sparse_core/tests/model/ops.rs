//! The operations and their strategies.
//!
//! The operations: spawn; insert, insert of several types, remove, `get_mut` and destroy on
//! alive, destroyed, never-spawned and future-version handles; group sorts; storage sorts,
//! allowed or refused; iteration with mutation through every group; views; and the access
//! model (views with `With`/`Without` filters and optional leaves, mutable and read-only,
//! walked by `for_each`, `iter_mut`, `iter` and `get`; group iteration in every style;
//! borrows of several parts at once, and refused overlapping ones; commands recorded and
//! applied, with skipped ones; handles reserved through `&Entities`; `insert_many` with
//! duplicates and dead entities, `remove_many`, `destroy_many`, `clear`, `retain` and
//! `retain_component`).

use std::cmp::Ordering;

use proptest::prelude::*;

use crate::components::{Comps, TYPES};
use crate::groups::{GROUPS, Grp};
use crate::views::{READ_VIEWS, RETAIN_COMPONENTS, RETAIN_VIEWS, VIEWS};
use crate::walks::{GROUP_STYLES, VIEW_STYLES};
use crate::world_calls::BUNDLES;

/// What a group sort compares, over the canonical order of the group's owned then
/// observed types.
#[derive(Clone, Copy, Debug)]
pub(crate) enum SortKey {
    First,
    Last,
    Sum,
}

/// Which sort: `sort_group` / `sort` (a comparator), `sort_group_by_key` / `sort_by_key`
/// or `sort_group_by_radix_key` / `sort_by_radix_key` (both stable).
#[derive(Clone, Copy, Debug)]
pub(crate) enum SortHow {
    Comparator,
    Key,
    RadixKey,
}

fn sort_how() -> impl Strategy<Value = SortHow> {
    prop_oneof![
        Just(SortHow::Comparator),
        Just(SortHow::Key),
        Just(SortHow::RadixKey)
    ]
}

pub(crate) fn key_of(group: Grp, key: SortKey, comps: &Comps) -> u64 {
    let types = group.required();
    let value = |t: usize| u64::from(comps[t].unwrap_or(0));
    match key {
        SortKey::First => value(types[0]),
        SortKey::Last => value(types[types.len() - 1]),
        SortKey::Sum => types.iter().map(|&t| value(t)).sum(),
    }
}

pub(crate) fn order(x: u64, y: u64, descending: bool) -> Ordering {
    if descending { y.cmp(&x) } else { x.cmp(&y) }
}

/// Which entity an operation targets.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Target {
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
pub(crate) enum Op {
    Spawn,
    /// `World::tick`: nothing counts as added, changed or removed any more.
    Tick,
    /// `count` entities spawned with bundle number `bundle` (see `spawn_bundles`), the
    /// `i`-th with values `value + i`: `spawn_with` for one, else `spawn_batch`.
    SpawnBundles {
        bundle: usize,
        count: usize,
        value: u32,
    },
    /// The world saved and loaded into a new one with the same groups (feature `serde`):
    /// nothing may change, down to each storage's order.
    Reload,
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
    /// Bundle number `bundle`'s types inserted as one tuple (`insert(e, (A, B))`).
    InsertTuple {
        bundle: usize,
        target: Target,
        value: u32,
    },
    /// Bundle number `bundle`'s types removed as one tuple (`remove::<(A, B)>(e)`).
    RemoveTuple {
        bundle: usize,
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
        key: SortKey,
        descending: bool,
        how: SortHow,
    },
    /// `World::sort` (or a key sort) of one storage: refused if a group owns it.
    Sort {
        ty: usize,
        descending: bool,
        how: SortHow,
    },
    Iterate {
        group: Grp,
        spelling: usize,
        ty: usize,
        delta: u32,
    },
    /// `view::<(E, O)>()`: `O += E`.
    ViewEo,
    /// `view::<(O, A)>()`: `A += O % 3`.
    ViewOa,
    /// `view::<(C, K)>().get(target)`.
    ViewGet {
        target: Target,
    },
    /// View `kind` of `VIEWS`, iterated in style `style` (`for` by value, `for` over
    /// `&mut`, `iter_mut`, `for_each`, and `par_for_each` with `rayon`), adding `delta` to every `&mut` leaf; `probe`'s item
    /// is looked up first.
    View {
        kind: usize,
        style: usize,
        delta: u32,
        probe: Target,
    },
    /// Read-only view `kind` of `READ_VIEWS`, through `borrow_ref` (iterated through `&`,
    /// `iter`, by value, or `par_for_each` with `rayon`) or `borrow` (`for_each`).
    ViewRef {
        kind: usize,
        style: usize,
        probe: Target,
    },
    /// Iterates a group in style `style`: `GroupMut` by value, `&mut`, `&`, `iter_mut`;
    /// `GroupRef` by value, `&`, `slices`; `GroupMut::iter` through a borrow request; and
    /// with `rayon`, `par_for_each` on `GroupMut` and on `GroupRef`.
    GroupIter {
        group: Grp,
        spelling: usize,
        style: usize,
        ty: usize,
        delta: u32,
    },
    /// Borrow request `kind`: several parts at once (see `Harness::borrow_parts`).
    Borrow {
        kind: usize,
        delta: u32,
        probe: Target,
    },
    /// Request `kind` that the world must refuse (see `Harness::refused`).
    Refused {
        kind: usize,
    },
    /// Commands recorded (reserving `&Entities` from the world or from a borrow request),
    /// then applied.
    Commands {
        cmds: Vec<Cmd>,
        via_borrow: bool,
    },
    /// `count` handles reserved through `&Entities`, then a change that makes them alive.
    Reserve {
        count: usize,
        action: ReserveAction,
    },
    /// `insert_many` of `items`, then the `repeats` (an earlier item's entity, another
    /// value); `poison` puts a dead handle at some position.
    InsertBatch {
        ty: usize,
        items: Vec<(Target, u32)>,
        repeats: Vec<(usize, u32)>,
        poison: Option<(usize, Target)>,
    },
    /// `remove_many` of `targets`, then the `repeats` (earlier targets again).
    RemoveBatch {
        ty: usize,
        targets: Vec<Target>,
        repeats: Vec<usize>,
    },
    /// `destroy_many` of `targets`, then the `repeats`.
    DestroyBatch {
        targets: Vec<Target>,
        repeats: Vec<usize>,
    },
    Clear {
        ty: usize,
    },
    /// `retain` over view `RETAIN_VIEWS[kind]`, adding `seed` to its `&mut` leaves and
    /// keeping the items whose values do not sum to a multiple of 6 (with `seed`).
    Retain {
        kind: usize,
        seed: u32,
    },
    /// `retain_component` with `RETAIN_COMPONENTS[kind]`, the same rule.
    RetainComponent {
        kind: usize,
        seed: u32,
    },
}

/// An entity a command is about.
#[derive(Clone, Copy, Debug)]
pub(crate) enum CmdTarget {
    /// Resolved when recording.
    Old(Target),
    /// A handle spawned earlier in the same buffer (by index among them), if any.
    Spawned(usize),
}

/// A recorded command.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Cmd {
    /// `spawn` with bundle `bundle` (see `record_spawn`), values from `value`.
    Spawn {
        bundle: usize,
        value: u32,
    },
    Insert {
        ty: usize,
        target: CmdTarget,
        value: u32,
    },
    Remove {
        ty: usize,
        target: CmdTarget,
    },
    Destroy {
        target: CmdTarget,
    },
    /// `add`: a closure inserting `O(value)` (ignoring a dead entity).
    AddInsert {
        target: CmdTarget,
        value: u32,
    },
    /// `add`: a closure spawning an entity with `(A(value), B(value))`.
    AddSpawn {
        value: u32,
    },
}

/// What follows reservations: each must make every reserved handle alive.
#[derive(Clone, Copy, Debug)]
pub(crate) enum ReserveAction {
    /// `insert` on reserved handle `which` (by index among them).
    Insert {
        which: usize,
        ty: usize,
        value: u32,
    },
    Spawn,
    /// `destroy` of another entity.
    DestroyOther(Target),
    /// `destroy` of reserved handle `which`.
    DestroyReserved(usize),
    /// `insert_many` on every reserved handle.
    InsertMany {
        ty: usize,
        value: u32,
    },
    /// `destroy_many` of reserved handle `which` and another entity.
    DestroyMany {
        which: usize,
        other: Target,
    },
    /// `apply` of no command.
    Apply,
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

/// A handle that is not alive.
fn dead_target() -> impl Strategy<Value = Target> {
    prop_oneof![
        3 => any::<usize>().prop_map(Target::Dead),
        1 => (1_000_000u32..1_000_004).prop_map(Target::Foreign),
        1 => any::<usize>().prop_map(Target::FutureVersion),
    ]
}

fn cmd_target() -> impl Strategy<Value = CmdTarget> {
    prop_oneof![
        3 => target().prop_map(CmdTarget::Old),
        2 => (0usize..4).prop_map(CmdTarget::Spawned),
    ]
}

fn cmd() -> impl Strategy<Value = Cmd> {
    prop_oneof![
        3 => (0usize..6, 0u32..32).prop_map(|(bundle, value)| Cmd::Spawn { bundle, value }),
        4 => (0..TYPES, cmd_target(), 0u32..32)
            .prop_map(|(ty, target, value)| Cmd::Insert { ty, target, value }),
        3 => (0..TYPES, cmd_target()).prop_map(|(ty, target)| Cmd::Remove { ty, target }),
        2 => cmd_target().prop_map(|target| Cmd::Destroy { target }),
        1 => (cmd_target(), 0u32..32).prop_map(|(target, value)| Cmd::AddInsert { target, value }),
        1 => (0u32..32).prop_map(|value| Cmd::AddSpawn { value }),
    ]
}

fn reserve_action() -> impl Strategy<Value = ReserveAction> {
    prop_oneof![
        3 => (0usize..3, 0..TYPES, 0u32..32)
            .prop_map(|(which, ty, value)| ReserveAction::Insert { which, ty, value }),
        1 => Just(ReserveAction::Spawn),
        2 => target().prop_map(ReserveAction::DestroyOther),
        1 => (0usize..3).prop_map(ReserveAction::DestroyReserved),
        1 => (0..TYPES, 0u32..32).prop_map(|(ty, value)| ReserveAction::InsertMany { ty, value }),
        1 => (0usize..3, target())
            .prop_map(|(which, other)| ReserveAction::DestroyMany { which, other }),
        1 => Just(ReserveAction::Apply),
    ]
}

/// The ops of the new access API, mixed into `op()`.
fn access_op() -> impl Strategy<Value = Op> {
    let alive = any::<usize>().prop_map(Target::Alive);
    let items = prop::collection::vec((alive.clone(), 0u32..32), 1..5);
    let repeats = prop::collection::vec((any::<usize>(), 0u32..32), 0..3);
    let poison = prop::option::weighted(0.25, (any::<usize>(), dead_target()));
    let targets = || prop::collection::vec(target(), 1..5);
    let indices = || prop::collection::vec(any::<usize>(), 0..3);
    // Clearing favours the types no group owns.
    let cleared = prop_oneof![
        2 => prop::sample::select(vec![10usize, 11, 13, 14]),
        1 => 0..TYPES,
    ];
    prop_oneof![
        8 => (0..VIEWS.len(), 0..VIEW_STYLES, 0u32..4, target())
            .prop_map(|(kind, style, delta, probe)| Op::View { kind, style, delta, probe }),
        3 => (0..READ_VIEWS.len(), 0..VIEW_STYLES, target())
            .prop_map(|(kind, style, probe)| Op::ViewRef { kind, style, probe }),
        6 => (group(), 0usize..6, 0..GROUP_STYLES, 0usize..4, 0u32..4).prop_map(
            |(group, spelling, style, ty, delta)| Op::GroupIter { group, spelling, style, ty, delta }
        ),
        4 => (0usize..6, 0u32..4, target())
            .prop_map(|(kind, delta, probe)| Op::Borrow { kind, delta, probe }),
        2 => (0usize..12).prop_map(|kind| Op::Refused { kind }),
        5 => (prop::collection::vec(cmd(), 1..8), any::<bool>())
            .prop_map(|(cmds, via_borrow)| Op::Commands { cmds, via_borrow }),
        2 => (1usize..4, reserve_action())
            .prop_map(|(count, action)| Op::Reserve { count, action }),
        5 => (0..TYPES, items, repeats, poison).prop_map(|(ty, items, repeats, poison)| {
            Op::InsertBatch { ty, items, repeats, poison }
        }),
        4 => (0..TYPES, targets(), indices())
            .prop_map(|(ty, targets, repeats)| Op::RemoveBatch { ty, targets, repeats }),
        1 => (targets(), indices()).prop_map(|(targets, repeats)| Op::DestroyBatch { targets, repeats }),
        1 => cleared.prop_map(|ty| Op::Clear { ty }),
        1 => (0..RETAIN_VIEWS.len(), 0u32..6).prop_map(|(kind, seed)| Op::Retain { kind, seed }),
        1 => (0..RETAIN_COMPONENTS.len(), 0u32..6)
            .prop_map(|(kind, seed)| Op::RetainComponent { kind, seed }),
    ]
}

pub(crate) fn op() -> impl Strategy<Value = Op> {
    let key = prop_oneof![
        Just(SortKey::First),
        Just(SortKey::Last),
        Just(SortKey::Sum)
    ];
    // A shuffled subset of the types: mostly of one family, to fill its groups.
    let family = |types: Vec<usize>| {
        let len = types.len();
        prop::sample::subsequence(types, 1..=len).prop_shuffle()
    };
    let types = prop_oneof![
        2 => family(vec![0, 1, 2, 3]),
        2 => family(vec![4, 5, 6, 7]),
        2 => family(vec![8, 9, 10, 11]),
        1 => family(vec![0, 1, 4, 10, 11, 12, 13]),
        1 => family((0..TYPES).collect()),
    ];
    // Mostly the storages no group owns (the sort is done), sometimes any (refused).
    let sorted_type = prop_oneof![
        2 => prop::sample::select(vec![10usize, 13, 14]),
        1 => 0..TYPES,
    ];
    // Removals favour the excluded types, so that the exclude groups have members.
    let removed = prop_oneof![
        3 => 0..TYPES,
        2 => prop::sample::select(vec![10usize, 11]),
    ];
    // Entities live long enough to gather most types (about three inserts per type and
    // lifetime, and half as many removals).
    prop_oneof![
        3 => Just(Op::Spawn),
        2 => Just(Op::Tick),
        2 => (0usize..BUNDLES, 1usize..6, 0u32..1000).prop_map(|(bundle, count, value)| Op::SpawnBundles {
            bundle,
            count,
            value
        }),
        40 => (0..TYPES, target(), 0u32..32)
            .prop_map(|(ty, target, value)| Op::Insert { ty, target, value }),
        12 => (types, target(), 0u32..32)
            .prop_map(|(types, target, value)| Op::InsertMany { types, target, value }),
        30 => (removed, target()).prop_map(|(ty, target)| Op::Remove { ty, target }),
        6 => (0usize..BUNDLES, target(), 0u32..32)
            .prop_map(|(bundle, target, value)| Op::InsertTuple { bundle, target, value }),
        4 => (0usize..BUNDLES, target()).prop_map(|(bundle, target)| Op::RemoveTuple { bundle, target }),
        2 => target().prop_map(|target| Op::Destroy { target }),
        3 => (0..TYPES, target(), 0u32..4)
            .prop_map(|(ty, target, delta)| Op::GetMut { ty, target, delta }),
        6 => (group(), 0usize..6, key, any::<bool>(), sort_how())
        .prop_map(|(group, spelling, key, descending, how)| Op::SortGroup {
            group,
            spelling,
            key,
            descending,
            how
        }),
        2 => (sorted_type, any::<bool>(), sort_how()).prop_map(|(ty, descending, how)| Op::Sort {
            ty,
            descending,
            how
        }),
        5 => (group(), 0usize..6, 0usize..4, 0u32..4)
            .prop_map(|(group, spelling, ty, delta)| Op::Iterate { group, spelling, ty, delta }),
        1 => Just(Op::ViewEo),
        1 => Just(Op::ViewOa),
        1 => target().prop_map(|target| Op::ViewGet { target }),
        1 => Just(Op::Reload),
        43 => access_op(),
    ]
}
