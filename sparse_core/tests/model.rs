//! Model test of `sparse_core::World` with every kind of group.
//!
//! The world has 15 component types and 15 groups:
//!
//! - a full-owning chain `<A,B> ⊃ <A,B,C> ⊃ <A,B,C,D>`;
//! - a tree family: `<E,F>` and `<G,H>` both outer to `<E,F,G,H>`, and the partial-owning
//!   `(E, Get<F>)` outer to `<E,F>`;
//! - an exclude chain `(J, Get<I>) ⊃ (I, J, Exclude<K>) ⊃ (I, J, Exclude<(K, L)>)`;
//! - partial-owning groups `(L, Get<A>, Exclude<K>)` and `(M, Get<(B, N)>)`;
//! - non-owning groups `Get<(A, E)>`, `(Get<A>, Exclude<K>)` and `Get<D>`;
//!
//! so that `K` is only excluded, `N` only observed and `O` in no group. The groups are
//! declared in a random order, each with a randomly chosen spelling of its key (the types
//! of each list in another order, one type as a 1-tuple). Random sequences of 1000 to 1400
//! operations (spawn; insert, insert of several types, remove, `get_mut` and destroy on
//! alive, destroyed, never-spawned and future-version handles; group sorts; storage sorts,
//! allowed or refused; iteration with mutation through every group; views) run against
//! the world and against a plain `HashMap<Entity, [Option<u32>; 15]>` model.
//!
//! After every operation the world must pass `World::check` and agree with the model on
//! liveness, every component value of every handle ever spawned, every storage's size, and,
//! for every group: its length, its entity set, the aligned values of its owned slices, the
//! owned and observed values `for_each` visits (each member once, in the group's order),
//! the prefix of each owned storage (owning groups), the same answers through another
//! spelling of its key, and the nesting of every nested pair (the inner group's entities
//! are the prefix of the outer group's). Failed and no-op operations must move nothing; a
//! group sort moves only the prefixes of the storages it must permute, and leaves every
//! layer between nested groups (or the member set of a non-owning group) sorted.
//!
//! The number of cases is 64, or `PROPTEST_CASES` when set.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use proptest::prelude::*;
use sparse_core::{
    AccessError, Action, Component, ComponentKey, ComponentSet, Entity, EntityError, Exclude, Get,
    GroupKey, GroupSpec, Layout, Step, World,
};

/// Number of component types.
const TYPES: usize = 15;

/// Component values of an entity, indexed by `Val::IDX`.
type Comps = [Option<u32>; TYPES];

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

components!(
    A = 0,
    B = 1,
    C = 2,
    D = 3,
    E = 4,
    F = 5,
    G = 6,
    H = 7,
    I = 8,
    J = 9,
    K = 10,
    L = 11,
    M = 12,
    N = 13,
    O = 14,
);

const NAMES: [&str; TYPES] = [
    "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O",
];

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
            7 => $f::<H>($($arg),*),
            8 => $f::<I>($($arg),*),
            9 => $f::<J>($($arg),*),
            10 => $f::<K>($($arg),*),
            11 => $f::<L>($($arg),*),
            12 => $f::<M>($($arg),*),
            13 => $f::<N>($($arg),*),
            14 => $f::<O>($($arg),*),
            ty => unreachable!("no component type {ty}"),
        }
    };
}

/// References to test components, in any nesting of tuples: what group items hold.
trait Read {
    /// Writes the referenced values into `comps`.
    fn read(&self, comps: &mut Comps);
}

/// Mutable references to test components, in any nesting of tuples.
trait Write: Read {
    /// Adds `delta` to the component of index `ty`, if referenced.
    fn bump(&mut self, ty: usize, delta: u32);
}

impl<T: Val> Read for &T {
    fn read(&self, comps: &mut Comps) {
        comps[T::IDX] = Some((**self).get());
    }
}

impl<T: Val> Read for &mut T {
    fn read(&self, comps: &mut Comps) {
        comps[T::IDX] = Some((**self).get());
    }
}

impl<T: Val> Write for &mut T {
    fn bump(&mut self, ty: usize, delta: u32) {
        if T::IDX == ty {
            let slot = self.slot();
            *slot = slot.wrapping_add(delta);
        }
    }
}

/// Owned component slices, as `GroupMut::into_slices` gives them.
trait Columns {
    /// The lengths of the slices.
    fn lens(&self, lens: &mut Vec<usize>);
    /// Writes the values at `position` into `comps`.
    fn read_at(&self, position: usize, comps: &mut Comps);
}

impl<T: Val> Columns for &mut [T] {
    fn lens(&self, lens: &mut Vec<usize>) {
        lens.push(self.len());
    }
    fn read_at(&self, position: usize, comps: &mut Comps) {
        comps[T::IDX] = Some(self[position].get());
    }
}

impl Read for () {
    fn read(&self, _: &mut Comps) {}
}

impl Write for () {
    fn bump(&mut self, _: usize, _: u32) {}
}

impl Columns for () {
    fn lens(&self, _: &mut Vec<usize>) {}
    fn read_at(&self, _: usize, _: &mut Comps) {}
}

macro_rules! tuple_impls {
    ($(($T:ident, $i:tt)),+) => {
        impl<$($T: Read),+> Read for ($($T,)+) {
            fn read(&self, comps: &mut Comps) {
                $(self.$i.read(comps);)+
            }
        }

        impl<$($T: Write),+> Write for ($($T,)+) {
            fn bump(&mut self, ty: usize, delta: u32) {
                $(self.$i.bump(ty, delta);)+
            }
        }

        impl<$($T: Columns),+> Columns for ($($T,)+) {
            fn lens(&self, lens: &mut Vec<usize>) {
                $(self.$i.lens(lens);)+
            }
            fn read_at(&self, position: usize, comps: &mut Comps) {
                $(self.$i.read_at(position, comps);)+
            }
        }
    };
}

tuple_impls!((T0, 0));
tuple_impls!((T0, 0), (T1, 1));
tuple_impls!((T0, 0), (T1, 1), (T2, 2));
tuple_impls!((T0, 0), (T1, 1), (T2, 2), (T3, 3));

/// A group key, in any spelling, seen through canonical component indices.
trait ModelKey: GroupKey {
    /// The values in a shared item (what a group sort compares).
    fn item_vals(item: Self::Item<'_>) -> Comps;
    /// Adds `delta` to the component of index `ty` (if in the item); returns the values.
    fn item_bump(item: Self::ItemMut<'_>, ty: usize, delta: u32) -> Comps;
    /// The lengths of the owned slices.
    fn slice_lens(slices: &<Self::Owned as ComponentSet>::SlicesMut<'_>) -> Vec<usize>;
    /// The values at `position` of the owned slices.
    fn slice_vals(slices: &<Self::Owned as ComponentSet>::SlicesMut<'_>, position: usize) -> Comps;
}

impl<Q: GroupKey> ModelKey for Q
where
    for<'a> Q::Item<'a>: Read,
    for<'a> Q::ItemMut<'a>: Write,
    for<'a> <Q::Owned as ComponentSet>::SlicesMut<'a>: Columns,
{
    fn item_vals(item: Self::Item<'_>) -> Comps {
        let mut comps = [None; TYPES];
        item.read(&mut comps);
        comps
    }

    fn item_bump(mut item: Self::ItemMut<'_>, ty: usize, delta: u32) -> Comps {
        item.bump(ty, delta);
        let mut comps = [None; TYPES];
        item.read(&mut comps);
        comps
    }

    fn slice_lens(slices: &<Self::Owned as ComponentSet>::SlicesMut<'_>) -> Vec<usize> {
        let mut lens = Vec::new();
        slices.lens(&mut lens);
        lens
    }

    fn slice_vals(slices: &<Self::Owned as ComponentSet>::SlicesMut<'_>, position: usize) -> Comps {
        let mut comps = [None; TYPES];
        slices.read_at(position, &mut comps);
        comps
    }
}

/// The groups of the world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Grp {
    Ab,
    Abc,
    Abcd,
    Ef,
    Gh,
    Efgh,
    EgetF,
    JgetI,
    IjxK,
    IjxKl,
    LgetAxK,
    MgetBn,
    GetAe,
    GetAxK,
    GetD,
}

const GROUPS: [Grp; 15] = [
    Grp::Ab,
    Grp::Abc,
    Grp::Abcd,
    Grp::Ef,
    Grp::Gh,
    Grp::Efgh,
    Grp::EgetF,
    Grp::JgetI,
    Grp::IjxK,
    Grp::IjxKl,
    Grp::LgetAxK,
    Grp::MgetBn,
    Grp::GetAe,
    Grp::GetAxK,
    Grp::GetD,
];

impl Grp {
    /// `(owned, observed, excluded)` type indices, canonical order.
    fn lists(self) -> (&'static [usize], &'static [usize], &'static [usize]) {
        match self {
            Grp::Ab => (&[0, 1], &[], &[]),
            Grp::Abc => (&[0, 1, 2], &[], &[]),
            Grp::Abcd => (&[0, 1, 2, 3], &[], &[]),
            Grp::Ef => (&[4, 5], &[], &[]),
            Grp::Gh => (&[6, 7], &[], &[]),
            Grp::Efgh => (&[4, 5, 6, 7], &[], &[]),
            Grp::EgetF => (&[4], &[5], &[]),
            Grp::JgetI => (&[9], &[8], &[]),
            Grp::IjxK => (&[8, 9], &[], &[10]),
            Grp::IjxKl => (&[8, 9], &[], &[10, 11]),
            Grp::LgetAxK => (&[11], &[0], &[10]),
            Grp::MgetBn => (&[12], &[1, 13], &[]),
            Grp::GetAe => (&[], &[0, 4], &[]),
            Grp::GetAxK => (&[], &[0], &[10]),
            Grp::GetD => (&[], &[3], &[]),
        }
    }

    fn owned(self) -> &'static [usize] {
        self.lists().0
    }

    fn excluded(self) -> &'static [usize] {
        self.lists().2
    }

    /// The owned then the observed types.
    fn required(self) -> Vec<usize> {
        let (owned, observed, _) = self.lists();
        owned.iter().chain(observed).copied().collect()
    }

    fn is_owning(self) -> bool {
        !self.owned().is_empty()
    }

    /// How many spellings of the key `with_group!` knows.
    fn spellings(self) -> usize {
        match self {
            Grp::Abc | Grp::Abcd | Grp::Efgh | Grp::IjxK | Grp::IjxKl => 3,
            _ => 2,
        }
    }

    /// Whether an entity with `comps` is a member.
    fn matches(self, comps: &Comps) -> bool {
        let (owned, observed, excluded) = self.lists();
        owned.iter().chain(observed).all(|&t| comps[t].is_some())
            && excluded.iter().all(|&t| comps[t].is_none())
    }

    /// The nesting rule, written again: `self` is nested in the owning group `outer`.
    fn nested_in(self, outer: Grp) -> bool {
        let subset = |a: &[usize], b: &[usize]| a.iter().all(|t| b.contains(t));
        self != outer
            && outer.is_owning()
            && subset(outer.owned(), self.owned())
            && subset(&outer.required(), &self.required())
            && subset(outer.excluded(), self.excluded())
    }

    /// The groups nested in this one, from the next one in to the innermost (a chain).
    fn inner(self) -> Vec<Grp> {
        let mut inner: Vec<Grp> = GROUPS.into_iter().filter(|g| g.nested_in(self)).collect();
        inner.sort_by(|&x, &y| {
            if y.nested_in(x) {
                Ordering::Less
            } else {
                Ordering::Greater
            }
        });
        inner
    }
}

/// Whether any group owns the type of index `ty`.
fn owned_by_a_group(ty: usize) -> bool {
    GROUPS.iter().any(|g| g.owned().contains(&ty))
}

/// Which types a `Comps` has, as bits.
fn mask(comps: &Comps) -> u32 {
    (0..TYPES)
        .filter(|&t| comps[t].is_some())
        .map(|t| 1 << t)
        .sum()
}

/// `comps` restricted to the types of `types`.
fn only(comps: &Comps, types: &[usize]) -> Comps {
    let mut only = [None; TYPES];
    for &t in types {
        only[t] = comps[t];
    }
    only
}

/// Runs `$body` with `$K` the key type of group `$g` in spelling `$sp`.
macro_rules! with_group {
    ($g:expr, $sp:expr, $K:ident => $body:expr) => {{
        let g: Grp = $g;
        match (g, $sp % g.spellings()) {
            (Grp::Ab, 0) => {
                type $K = (A, B);
                $body
            }
            (Grp::Ab, _) => {
                type $K = (B, A);
                $body
            }
            (Grp::Abc, 0) => {
                type $K = (A, B, C);
                $body
            }
            (Grp::Abc, 1) => {
                type $K = (C, A, B);
                $body
            }
            (Grp::Abc, _) => {
                type $K = (B, C, A);
                $body
            }
            (Grp::Abcd, 0) => {
                type $K = (A, B, C, D);
                $body
            }
            (Grp::Abcd, 1) => {
                type $K = (D, C, B, A);
                $body
            }
            (Grp::Abcd, _) => {
                type $K = (B, D, A, C);
                $body
            }
            (Grp::Ef, 0) => {
                type $K = (E, F);
                $body
            }
            (Grp::Ef, _) => {
                type $K = (F, E);
                $body
            }
            (Grp::Gh, 0) => {
                type $K = (G, H);
                $body
            }
            (Grp::Gh, _) => {
                type $K = (H, G);
                $body
            }
            (Grp::Efgh, 0) => {
                type $K = (E, F, G, H);
                $body
            }
            (Grp::Efgh, 1) => {
                type $K = (H, G, F, E);
                $body
            }
            (Grp::Efgh, _) => {
                type $K = (G, E, H, F);
                $body
            }
            (Grp::EgetF, 0) => {
                type $K = (E, Get<F>);
                $body
            }
            (Grp::EgetF, _) => {
                type $K = (E, Get<(F,)>);
                $body
            }
            (Grp::JgetI, 0) => {
                type $K = (J, Get<I>);
                $body
            }
            (Grp::JgetI, _) => {
                type $K = (J, Get<(I,)>);
                $body
            }
            (Grp::IjxK, 0) => {
                type $K = (I, J, Exclude<K>);
                $body
            }
            (Grp::IjxK, 1) => {
                type $K = (J, I, Exclude<K>);
                $body
            }
            (Grp::IjxK, _) => {
                type $K = (J, I, Exclude<(K,)>);
                $body
            }
            (Grp::IjxKl, 0) => {
                type $K = (I, J, Exclude<(K, L)>);
                $body
            }
            (Grp::IjxKl, 1) => {
                type $K = (J, I, Exclude<(L, K)>);
                $body
            }
            (Grp::IjxKl, _) => {
                type $K = (I, J, Exclude<(L, K)>);
                $body
            }
            (Grp::LgetAxK, 0) => {
                type $K = (L, Get<A>, Exclude<K>);
                $body
            }
            (Grp::LgetAxK, _) => {
                type $K = (L, Get<(A,)>, Exclude<(K,)>);
                $body
            }
            (Grp::MgetBn, 0) => {
                type $K = (M, Get<(B, N)>);
                $body
            }
            (Grp::MgetBn, _) => {
                type $K = (M, Get<(N, B)>);
                $body
            }
            (Grp::GetAe, 0) => {
                type $K = Get<(A, E)>;
                $body
            }
            (Grp::GetAe, _) => {
                type $K = Get<(E, A)>;
                $body
            }
            (Grp::GetAxK, 0) => {
                type $K = (Get<A>, Exclude<K>);
                $body
            }
            (Grp::GetAxK, _) => {
                type $K = (Get<(A,)>, Exclude<(K,)>);
                $body
            }
            (Grp::GetD, 0) => {
                type $K = Get<D>;
                $body
            }
            (Grp::GetD, _) => {
                type $K = Get<(D,)>;
                $body
            }
        }
    }};
}

/// What a group sort compares, over the canonical order of the group's owned then
/// observed types.
#[derive(Clone, Copy, Debug)]
enum SortKey {
    First,
    Last,
    Sum,
}

fn key_of(group: Grp, key: SortKey, comps: &Comps) -> u64 {
    let types = group.required();
    let value = |t: usize| u64::from(comps[t].unwrap_or(0));
    match key {
        SortKey::First => value(types[0]),
        SortKey::Last => value(types[types.len() - 1]),
        SortKey::Sum => types.iter().map(|&t| value(t)).sum(),
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
        key: SortKey,
        descending: bool,
    },
    /// `World::sort` of one storage: refused if a group owns it.
    Sort {
        ty: usize,
        descending: bool,
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
        40 => (0..TYPES, target(), 0u32..32)
            .prop_map(|(ty, target, value)| Op::Insert { ty, target, value }),
        12 => (types, target(), 0u32..32)
            .prop_map(|(types, target, value)| Op::InsertMany { types, target, value }),
        30 => (removed, target()).prop_map(|(ty, target)| Op::Remove { ty, target }),
        2 => target().prop_map(|target| Op::Destroy { target }),
        3 => (0..TYPES, target(), 0u32..4)
            .prop_map(|(ty, target, delta)| Op::GetMut { ty, target, delta }),
        6 => (group(), 0usize..6, key, any::<bool>()).prop_map(
            |(group, spelling, key, descending)| Op::SortGroup { group, spelling, key, descending }
        ),
        2 => (sorted_type, any::<bool>()).prop_map(|(ty, descending)| Op::Sort { ty, descending }),
        5 => (group(), 0usize..6, 0usize..4, 0u32..4)
            .prop_map(|(group, spelling, ty, delta)| Op::Iterate { group, spelling, ty, delta }),
        1 => Just(Op::ViewEo),
        1 => Just(Op::ViewOa),
        1 => target().prop_map(|target| Op::ViewGet { target }),
    ]
}

fn spec(group: Grp, spelling: usize) -> GroupSpec {
    with_group!(group, spelling, Key => GroupSpec::of::<Key>())
}

fn decl(group: Grp, spelling: usize) -> sparse_core::GroupDecl<ComponentKey> {
    with_group!(group, spelling, Key => Key::decl())
}

/// Returns `Err(format!(..))` from the enclosing function unless `$cond` holds.
macro_rules! ensure {
    ($cond:expr, $($fmt:tt)+) => {
        if !$cond {
            return Err(format!($($fmt)+));
        }
    };
}

fn group_entities<Q: ModelKey>(world: &mut World) -> Result<Vec<Entity>, AccessError> {
    Ok(world.group::<Q>()?.entities().to_vec())
}

fn group_len<Q: ModelKey>(world: &World) -> Result<usize, AccessError> {
    world.group_len::<Q>()
}

/// The entities and the values read through `into_slices`, checked to be aligned.
fn group_slices<Q: ModelKey>(world: &mut World) -> Result<Vec<(Entity, Comps)>, String> {
    let group = world.group::<Q>().map_err(|e| e.to_string())?;
    ensure!(group.len() == group.entities().len(), "GroupMut::len");
    ensure!(
        group.is_empty() == group.entities().is_empty(),
        "GroupMut::is_empty"
    );
    let (entities, slices) = group.into_slices();
    let lens = Q::slice_lens(&slices);
    ensure!(
        lens.iter().all(|&l| l == entities.len()),
        "slices of {} entities have lengths {lens:?}",
        entities.len()
    );
    Ok(entities
        .iter()
        .enumerate()
        .map(|(i, &e)| (e, Q::slice_vals(&slices, i)))
        .collect())
}

/// Sorts the group; checks that every item compared holds exactly the group's owned and
/// observed types.
fn sort_group<Q: ModelKey>(
    world: &mut World,
    group: Grp,
    key: SortKey,
    descending: bool,
) -> Result<(), String> {
    let want = mask(&only(&[Some(0); TYPES], &group.required()));
    let mut wrong = None;
    let result = world.sort_group::<Q>(|x, y| {
        let (x, y) = (Q::item_vals(x), Q::item_vals(y));
        for item in [&x, &y] {
            if mask(item) != want {
                wrong = Some(*item);
            }
        }
        order(key_of(group, key, &x), key_of(group, key, &y), descending)
    });
    ensure!(result.is_ok(), "sort_group {group:?}: {result:?}");
    ensure!(
        wrong.is_none(),
        "sort_group {group:?} compared the item {wrong:?}"
    );
    Ok(())
}

/// Iterates the group with `for_each`, adding `delta` to the component of index `ty`;
/// returns each visited entity with the values of its item (after the change).
fn iterate<Q: ModelKey>(
    world: &mut World,
    ty: usize,
    delta: u32,
) -> Result<Vec<(Entity, Comps)>, AccessError> {
    let mut visited = Vec::new();
    world
        .group::<Q>()?
        .for_each(|e, item| visited.push((e, Q::item_bump(item, ty, delta))));
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

/// Sorts a storage: refused if a group owns it (and then nothing moves), else sorted.
fn sort_storage<T: Val>(world: &mut World, descending: bool) -> Result<(), String> {
    let before = world.storage::<T>().map(|s| s.entities().to_vec());
    let result = world.sort::<T>(|x, y| order(x.get().into(), y.get().into(), descending));
    let name = core::any::type_name::<T>();
    if owned_by_a_group(T::IDX) {
        ensure!(
            result == Err(AccessError::OwnedByGroup(name)),
            "sort::<{name}> of an owned storage gave {result:?}"
        );
        let after = world.storage::<T>().map(|s| s.entities().to_vec());
        ensure!(before == after, "a refused sort::<{name}> moved entities");
    } else {
        ensure!(result.is_ok(), "sort::<{name}>: {result:?}");
        let storage = world.storage::<T>().expect("sort registers the storage");
        let values: Vec<u64> = storage
            .components()
            .iter()
            .map(|v| v.get().into())
            .collect();
        ensure!(
            values
                .windows(2)
                .all(|w| order(w[0], w[1], descending).is_le()),
            "sort::<{name}> (descending: {descending}) left {values:?}"
        );
    }
    Ok(())
}

/// A cheap hasher for the model's entity keys (the default one dominates the run time of
/// a debug build).
#[derive(Default)]
struct EntityHasher(u64);

impl Hasher for EntityHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = self.0.rotate_left(32) ^ u64::from(n);
    }
}

/// The model: component values of every alive entity.
type Model = HashMap<Entity, Comps, BuildHasherDefault<EntityHasher>>;

fn sorted(mut entities: Vec<Entity>) -> Vec<Entity> {
    entities.sort_unstable();
    entities
}

/// The world under test and its model.
struct Harness {
    world: World,
    /// The model: component values of every alive entity.
    model: Model,
    /// Alive entities, in spawn order.
    alive: Vec<Entity>,
    /// Destroyed entities, in destruction order.
    dead: Vec<Entity>,
    /// Every handle ever spawned, in spawn order.
    all: Vec<Entity>,
    /// `(outer, inner)` pairs of nested groups.
    nesting: Vec<(Grp, Grp)>,
}

impl Harness {
    fn new(world: World) -> Self {
        let nesting = GROUPS
            .into_iter()
            .flat_map(|outer| outer.inner().into_iter().map(move |inner| (outer, inner)))
            .collect();
        Harness {
            world,
            model: Model::default(),
            alive: Vec::new(),
            dead: Vec::new(),
            all: Vec::new(),
            nesting,
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

    /// How far `op` may reorder each storage: the length of the prefix it may permute
    /// (`usize::MAX`: all of it), the rest staying as it is; `None` if it may change the
    /// storages' contents. Failed and no-op structural changes (dead handles, absent
    /// components, replaced values) and value-only access move nothing; a sort moves what
    /// it sorts.
    fn movable(&self, op: &Op) -> Option<[usize; TYPES]> {
        let still = [0; TYPES];
        let has = |target: Target, ty: usize| {
            self.model
                .get(&self.resolve(target))
                .map(|c| c[ty].is_some())
        };
        match *op {
            Op::Insert { ty, target, .. } => (has(target, ty) != Some(false)).then_some(still),
            Op::InsertMany {
                ref types, target, ..
            } => types
                .iter()
                .all(|&ty| has(target, ty) != Some(false))
                .then_some(still),
            Op::Remove { ty, target } => (has(target, ty) != Some(true)).then_some(still),
            Op::Destroy { target } => has(target, 0).is_none().then_some(still),
            Op::Spawn
            | Op::GetMut { .. }
            | Op::Iterate { .. }
            | Op::ViewEo
            | Op::ViewOa
            | Op::ViewGet { .. } => Some(still),
            Op::Sort { ty, .. } => {
                let mut movable = still;
                if !owned_by_a_group(ty) {
                    movable[ty] = usize::MAX;
                }
                Some(movable)
            }
            Op::SortGroup { group, .. } => {
                // The group's owned storages over its length, the storages only inner
                // groups own over the outermost such group's length; nothing for a
                // non-owning group.
                let mut movable = still;
                for g in core::iter::once(group).chain(group.inner()) {
                    let len = self.members(g).len();
                    for &t in g.owned() {
                        movable[t] = movable[t].max(len);
                    }
                }
                Some(movable)
            }
        }
    }

    /// The entity order of every storage.
    fn layout(&self) -> Vec<Vec<Entity>> {
        (0..TYPES)
            .map(|ty| dispatch!(ty, storage_order(&self.world)))
            .collect()
    }

    /// The model's entities passing `group`'s filter, sorted.
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
                self.model.insert(e, [None; TYPES]);
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
            } => with_group!(group, spelling, Key => {
                sort_group::<Key>(&mut self.world, group, key, descending)
            })?,
            Op::Sort { ty, descending } => {
                dispatch!(ty, sort_storage(&mut self.world, descending))?
            }
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

    /// Checks one group against the model, through spelling `round` of its key and
    /// another spelling; returns its entities in order.
    fn check_group(
        &mut self,
        group: Grp,
        round: usize,
        layout: &[Vec<Entity>],
    ) -> Result<Vec<Entity>, String> {
        let spelling = round % group.spellings();
        let other = (round + 1) % group.spellings();
        let members = self.members(group);
        // The length, through the other spelling.
        let len = with_group!(group, other, Key => group_len::<Key>(&self.world))
            .map_err(|e| e.to_string())?;
        ensure!(
            len == members.len(),
            "group_len {group:?} (spelling {other}) is {len}, model {}",
            members.len()
        );
        // The entities and the owned slices: exactly the owned types, aligned.
        let entries = with_group!(group, spelling, Key => group_slices::<Key>(&mut self.world))?;
        let entities: Vec<Entity> = entries.iter().map(|&(e, _)| e).collect();
        let set = sorted(entities.clone());
        ensure!(
            set == members,
            "group {group:?} holds {entities:?}, model {members:?}"
        );
        for (e, comps) in &entries {
            let want = only(&self.model[e], group.owned());
            ensure!(
                *comps == want,
                "group {group:?}: slices of {e:?} hold {comps:?}, want {want:?}"
            );
        }
        // The members are the prefix of every owned storage.
        for &t in group.owned() {
            let storage = &layout[t];
            ensure!(
                storage.len() >= len && storage[..len] == entities[..],
                "group {group:?} {entities:?} is not the prefix of storage {} {storage:?}",
                NAMES[t]
            );
        }
        // `for_each` through the other spelling visits each member once, in the group's
        // order, with exactly its owned and observed values.
        let visited = with_group!(group, other, Key => iterate::<Key>(&mut self.world, TYPES, 0))
            .map_err(|e| e.to_string())?;
        let order: Vec<Entity> = visited.iter().map(|&(e, _)| e).collect();
        ensure!(
            order == entities,
            "for_each on {group:?} (spelling {other}) visited {order:?}, \
             entities (spelling {spelling}) are {entities:?}"
        );
        let required = group.required();
        for (e, comps) in &visited {
            let want = only(&self.model[e], &required);
            ensure!(
                *comps == want,
                "for_each on {group:?}: {e:?}'s item is {comps:?}, want {want:?}"
            );
        }
        Ok(entities)
    }

    /// Checks the whole world against the model. `round` rotates the costlier probes.
    /// `layout` is the entity order of every storage.
    fn check(&mut self, round: usize, layout: &[Vec<Entity>]) -> Result<(), String> {
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
        for ty in 0..TYPES {
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
        let ty = round % TYPES;
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
            slices.push(self.check_group(group, round, layout)?);
        }
        // Nesting: each inner group is the prefix of its outer group, in the same order.
        for &(outer, inner) in &self.nesting {
            let (o, i) = (&slices[index(outer)], &slices[index(inner)]);
            ensure!(
                o.len() >= i.len() && o[..i.len()] == i[..],
                "{inner:?} {i:?} is not the prefix of {outer:?} {o:?}"
            );
        }
        Ok(())
    }

    /// Checks that `group` is sorted by `key`: an owning group layer by layer (each range
    /// between the lengths of two successive nested groups, and the innermost group
    /// itself), a non-owning group fully.
    fn check_sorted(
        &mut self,
        group: Grp,
        spelling: usize,
        key: SortKey,
        descending: bool,
    ) -> Result<(), String> {
        let entities = with_group!(group, spelling, Key => group_entities::<Key>(&mut self.world))
            .map_err(|e| e.to_string())?;
        let inner = group.inner().into_iter().rev();
        let mut ends: Vec<usize> = inner.map(|g| self.members(g).len()).collect();
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

/// Checks that `before` and `after` differ at most by a permutation of each storage's
/// prefix of `movable` entities.
fn check_moves(
    before: &[Vec<Entity>],
    after: &[Vec<Entity>],
    movable: &[usize; TYPES],
) -> Result<(), String> {
    for t in 0..TYPES {
        let (b, a) = (&before[t], &after[t]);
        let p = movable[t].min(b.len());
        ensure!(
            b.len() == a.len()
                && b[p..] == a[p..]
                && sorted(b[..p].to_vec()) == sorted(a[..p].to_vec()),
            "storage {} may only permute its first {p} entities: {b:?} -> {a:?}",
            NAMES[t]
        );
    }
    Ok(())
}

/// Checks that the world refuses keys naming no group of it.
fn check_missing_groups(world: &mut World) -> Result<(), String> {
    fn missing<T>(result: Result<T, AccessError>) -> bool {
        matches!(result, Err(AccessError::NoSuchGroup(_)))
    }
    ensure!(missing(world.group::<(A, C)>().map(|_| ())), "group <A, C>");
    ensure!(missing(world.group_len::<(A, B, O)>()), "group <A, B, O>");
    ensure!(missing(world.group_len::<(I, J)>()), "group <I, J>");
    ensure!(
        missing(world.group_len::<(I, J, Exclude<L>)>()),
        "group <I, J, exclude(L)>"
    );
    ensure!(missing(world.group_len::<Get<A>>()), "group <get(A)>");
    ensure!(
        missing(world.group_len::<(A, Get<B>)>()),
        "group <A, get(B)>"
    );
    ensure!(
        missing(world.group_len::<(K, Get<A>, Exclude<L>)>()),
        "group <K, get(A), exclude(L)>"
    );
    ensure!(
        missing(world.group_len::<(Get<(A, E)>, Exclude<K>)>()),
        "group <get(A, E), exclude(K)>"
    );
    // The same types in other lists: owned and observed, observed and excluded swapped.
    ensure!(
        missing(world.group_len::<(F, Get<E>)>()),
        "group <F, get(E)>"
    );
    ensure!(
        missing(world.group_len::<(I, Get<J>)>()),
        "group <I, get(J)>"
    );
    ensure!(
        missing(world.group_len::<(B, Get<(M, N)>)>()),
        "group <B, get(M, N)>"
    );
    ensure!(
        missing(world.group_len::<(A, Get<L>, Exclude<K>)>()),
        "group <A, get(L), exclude(K)>"
    );
    ensure!(
        missing(world.group_len::<(L, Get<K>, Exclude<A>)>()),
        "group <L, get(K), exclude(A)>"
    );
    ensure!(
        missing(world.group_len::<(I, J, Get<K>)>()),
        "group <I, J, get(K)>"
    );
    ensure!(
        missing(world.group_len::<(Get<K>, Exclude<A>)>()),
        "group <get(K), exclude(A)>"
    );
    ensure!(
        missing(world.sort_group::<(A, C)>(|_, _| Ordering::Equal)),
        "sort_group <A, C>"
    );
    ensure!(
        missing(world.sort_group::<Get<(A, B)>>(|_, _| Ordering::Equal)),
        "sort_group <get(A, B)>"
    );
    Ok(())
}

/// Builds the world with the groups in `order`, each in its `spellings` entry, then runs
/// `ops`, checking everything after each.
fn run(order: &[usize], spellings: &[usize], ops: &[Op]) -> Result<(), String> {
    let specs = order.iter().map(|&g| spec(GROUPS[g], spellings[g]));
    let world = World::with_groups(specs)
        .map_err(|e| format!("groups {order:?} {spellings:?} rejected: {e}"))?;
    let mut h = Harness::new(world);
    check_missing_groups(&mut h.world)?;
    let layout = h.layout();
    h.check(0, &layout)
        .map_err(|e| format!("before any op: {e}"))?;
    for (i, op) in ops.iter().enumerate() {
        let context = |e: String| format!("op #{i} {op:?}: {e}");
        let movable = h.movable(op).map(|m| (m, h.layout()));
        h.apply(op).map_err(context)?;
        let layout = h.layout();
        if let Some((movable, before)) = movable {
            check_moves(&before, &layout, &movable).map_err(context)?;
        }
        h.check(i, &layout).map_err(context)?;
        if let Op::SortGroup {
            group,
            spelling,
            key,
            descending,
        } = *op
        {
            h.check_sorted(group, spelling, key, descending)
                .map_err(context)?;
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
        order in Just((0..GROUPS.len()).collect::<Vec<usize>>()).prop_shuffle(),
        spellings in prop::collection::vec(0usize..6, GROUPS.len()),
        ops in prop::collection::vec(op(), 1000..1400),
    ) {
        run(&order, &spellings, &ops).map_err(TestCaseError::fail)?;
    }
}

fn component_key<T: Val>() -> ComponentKey {
    ComponentKey::of::<T>()
}

/// Every spelling of a group's key declares the group's lists, and the spellings differ.
#[test]
fn spellings_declare_the_groups() {
    let keys = |types: &[usize]| -> Vec<ComponentKey> {
        let mut keys: Vec<ComponentKey> = types
            .iter()
            .map(|&t| dispatch!(t, component_key()))
            .collect();
        keys.sort_by_key(|k| k.name());
        keys
    };
    for group in GROUPS {
        let (owned, observed, excluded) = group.lists();
        let mut seen = Vec::new();
        for spelling in 0..group.spellings() {
            let decl = decl(group, spelling);
            seen.push(with_group!(group, spelling, Key => core::any::type_name::<Key>()));
            for (mut got, want) in [
                (decl.owned, owned),
                (decl.observed, observed),
                (decl.excluded, excluded),
            ] {
                got.sort_by_key(|k| k.name());
                assert_eq!(got, keys(want), "{group:?} spelling {spelling}");
            }
        }
        seen.sort();
        seen.dedup();
        assert_eq!(
            seen.len(),
            group.spellings(),
            "{group:?}'s spellings are distinct: {seen:?}"
        );
    }
}

/// The layout of the model test is valid in every spelling, and the crate's nesting
/// agrees with the rule as the test writes it.
#[test]
fn layout_is_accepted_and_nesting_agrees() {
    for spelling in 0..3 {
        let decls: Vec<_> = GROUPS.iter().map(|&g| decl(g, spelling)).collect();
        let layout = match Layout::new(decls) {
            Ok(layout) => layout,
            Err(errors) => panic!("the model's groups are rejected: {errors:#?}"),
        };
        for (i, outer) in GROUPS.into_iter().enumerate() {
            for (j, inner) in GROUPS.into_iter().enumerate() {
                assert_eq!(
                    layout.is_nested_in(j, i),
                    inner.nested_in(outer),
                    "{inner:?} in {outer:?}"
                );
            }
            let want: Vec<usize> = outer.inner().into_iter().map(index).collect();
            assert_eq!(layout.inner_groups(i), want, "groups inside {outer:?}");
        }
        World::with_groups(GROUPS.iter().map(|&g| spec(g, spelling)))
            .unwrap_or_else(|e| panic!("World::with_groups rejects the model's groups: {e}"));
    }
    // The families are the ones described at the top.
    let pairs: usize = GROUPS.iter().map(|g| g.inner().len()).sum();
    assert_eq!(pairs, 10, "nested pairs");
    assert_eq!(Grp::EgetF.inner(), [Grp::Ef, Grp::Efgh]);
    assert_eq!(Grp::Gh.inner(), [Grp::Efgh]);
    assert_eq!(Grp::JgetI.inner(), [Grp::IjxK, Grp::IjxKl]);
    assert_eq!(Grp::Ab.inner(), [Grp::Abc, Grp::Abcd]);
}

/// Adding an excluded type leaves the inner group of an exclude chain first, then the
/// outer one; removing it enters the outer group first, then the inner one. `K` plays
/// `X` and `L` plays `Y`.
#[test]
fn exclusion_leaves_inner_first_and_enters_outer_first() {
    type Outer = (A, B, Exclude<K>);
    type Inner = (A, B, Exclude<(K, L)>);
    let step = |group, action| Step {
        group,
        action,
        slot: None,
    };
    for inner_first in [false, true] {
        let (outer, inner) = if inner_first { (1, 0) } else { (0, 1) };
        let mut decls = vec![Outer::decl(), Inner::decl()];
        let mut specs = vec![GroupSpec::of::<Outer>(), GroupSpec::of::<Inner>()];
        if inner_first {
            decls.reverse();
            specs.reverse();
        }
        let layout = Layout::new(decls).expect("the exclude chain is valid");
        assert!(layout.is_nested_in(inner, outer));
        let k = ComponentKey::of::<K>();
        let l = ComponentKey::of::<L>();
        assert_eq!(
            layout.on_add(&k),
            [step(inner, Action::Leave), step(outer, Action::Leave)]
        );
        assert_eq!(
            layout.after_remove(&k),
            [step(outer, Action::Enter), step(inner, Action::Enter)]
        );
        assert_eq!(layout.on_add(&l), [step(inner, Action::Leave)]);
        assert_eq!(layout.after_remove(&l), [step(inner, Action::Enter)]);

        let mut world = World::with_groups(specs).expect("the exclude chain is valid");
        let e: Vec<Entity> = (0..6).map(|_| world.spawn()).collect();
        // e0..e3 in both groups, e4 (with `L`) in the outer one only, e5 (no `B`) in none.
        world.insert(e[4], L(0)).unwrap();
        for (i, &entity) in e.iter().enumerate() {
            world.insert(entity, A(i as u32)).unwrap();
        }
        for &entity in &e[..5] {
            world.insert(entity, B(0)).unwrap();
        }
        let groups = |world: &mut World| {
            world.check().unwrap();
            let outer = world.group::<Outer>().unwrap().entities().to_vec();
            let inner = world.group::<Inner>().unwrap().entities().to_vec();
            assert!(
                outer.len() >= inner.len() && outer[..inner.len()] == inner[..],
                "{inner:?} is the prefix of {outer:?}"
            );
            let a = world.storage::<A>().unwrap().entities();
            assert_eq!(a[..outer.len()], outer[..], "the outer group is A's prefix");
            (sorted(outer), sorted(inner))
        };
        let before = groups(&mut world);
        assert_eq!(before, (e[..5].to_vec(), e[..4].to_vec()));
        // e0 sits at position 0 of both groups: leaving the outer group first would swap
        // e4, which the inner group excludes, into the inner group's range.
        assert_eq!(world.storage::<A>().unwrap().entities()[0], e[0]);
        assert_eq!(world.insert(e[0], K(1)), Ok(None));
        assert_eq!(groups(&mut world), (e[1..5].to_vec(), e[1..4].to_vec()));
        // e0 is now behind both groups: entering the inner group first would swap it with
        // e4 at the inner group's end, pushing e4 out of the outer group's range.
        assert_eq!(world.remove::<K>(e[0]), Some(K(1)));
        assert_eq!(groups(&mut world), before);
        // The same from the middle and the end of the inner group, and with `L`.
        for i in [2, 3, 1] {
            world.insert(e[i], K(2)).unwrap();
            let mut outer = e[..5].to_vec();
            outer.retain(|&x| x != e[i]);
            let mut inner = e[..4].to_vec();
            inner.retain(|&x| x != e[i]);
            assert_eq!(groups(&mut world), (outer.clone(), inner.clone()));
            world.insert(e[i], L(2)).unwrap();
            assert_eq!(groups(&mut world), (outer.clone(), inner.clone()));
            world.remove::<K>(e[i]).unwrap();
            outer = sorted([outer, vec![e[i]]].concat());
            assert_eq!(groups(&mut world), (outer.clone(), inner));
            world.remove::<L>(e[i]).unwrap();
            assert_eq!(groups(&mut world), before);
        }
        world.remove::<L>(e[4]).unwrap();
        assert_eq!(groups(&mut world), (e[..5].to_vec(), e[..5].to_vec()));
        world.destroy(e[0]).unwrap();
        assert_eq!(groups(&mut world), (e[1..5].to_vec(), e[1..5].to_vec()));
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
