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
//! allowed or refused; iteration with mutation through every group; views) and the access
//! model (views with `With`/`Without` filters and optional leaves, mutable and read-only,
//! walked by `for_each`, `iter_mut`, `iter` and `get`; group iteration in every style;
//! borrows of several parts at once, and refused overlapping ones; commands recorded and
//! applied, with skipped ones; handles reserved through `&Entities`; `insert_many` with
//! duplicates and dead entities, `remove_many`, `destroy_many`, `clear`, `retain` and
//! `retain_component`) run against the world and against a plain
//! `HashMap<Entity, [Option<u32>; 15]>` model.
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

use std::any::TypeId;
use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::{Arc, Mutex};

use proptest::prelude::*;
use sparse_core::{
    AccessError, Action, Added, Applied, Borrow, Changed, Commands, Component, ComponentKey,
    ComponentSet, Entities, Entity, EntityError, Exclude, Filter, Get, GroupKey, GroupMut,
    GroupRef, GroupSpec, HookEvent, HookWorld, Layout, Query, ReadOnly, ReadOnlyQuery, Skipped,
    Step, Storage, ValuesMut, View, With, Without, World,
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
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
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

/// The bundles `Op::SpawnBundles` spawns with.
const BUNDLES: usize = 4;

/// Spawns `count` entities with bundle number `bundle`, the `i`-th with values
/// `value + i` (`spawn_with` for one entity, else `spawn_batch`); returns them and the
/// indices of the bundle's types.
fn spawn_bundles(
    world: &mut World,
    bundle: usize,
    count: usize,
    value: u32,
) -> (Vec<Entity>, Vec<usize>) {
    macro_rules! spawn {
        ($($T:ident),+) => {{
            let spawned = if count == 1 {
                vec![world.spawn_with(($($T::new(value),)+))]
            } else {
                world.spawn_batch((0..count as u32).map(|i| ($($T::new(value + i),)+)))
            };
            (spawned, vec![$($T::IDX),+])
        }};
    }
    match bundle {
        0 => spawn!(A, B),
        1 => spawn!(C, A, B),
        2 => spawn!(D),
        _ => spawn!(E, F, G, H, O),
    }
}

/// Inserts bundle number `bundle`'s types on `e` as one tuple (component `i` of the tuple
/// with value `value + i`); returns the replaced values by type index.
fn insert_tuple(
    world: &mut World,
    bundle: usize,
    e: Entity,
    value: u32,
) -> Result<Vec<(usize, Option<u32>)>, EntityError> {
    macro_rules! insert {
        ($($T:ident, $i:tt);+) => {{
            let old = world.insert(e, ($($T::new(value + $i),)+))?;
            Ok(vec![$(($T::IDX, old.$i.map(Val::get))),+])
        }};
    }
    match bundle {
        0 => insert!(A, 0; B, 1),
        1 => insert!(C, 0; A, 1; B, 2),
        2 => insert!(D, 0),
        _ => insert!(E, 0; F, 1; G, 2; H, 3; O, 4),
    }
}

/// Removes bundle number `bundle`'s types from `e` as one tuple; returns the removed
/// values by type index.
fn remove_tuple(world: &mut World, bundle: usize, e: Entity) -> Vec<(usize, Option<u32>)> {
    macro_rules! remove {
        ($($T:ident, $i:tt);+) => {{
            let old = world.remove::<($($T,)+)>(e);
            vec![$(($T::IDX, old.$i.map(Val::get))),+]
        }};
    }
    match bundle {
        0 => remove!(B, 0; A, 1),
        1 => remove!(A, 0; C, 1; B, 2),
        2 => remove!(D, 0),
        _ => remove!(O, 0; H, 1; E, 2; G, 3; F, 4),
    }
}

const NAMES: [&str; TYPES] = [
    "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O",
];

/// Runs `$body` with `$T` the component type of index `$ty`.
macro_rules! with_type {
    ($ty:expr, $T:ident => $body:expr) => {
        match $ty {
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
            11 => {
                type $T = L;
                $body
            }
            12 => {
                type $T = M;
                $body
            }
            13 => {
                type $T = N;
                $body
            }
            14 => {
                type $T = O;
                $body
            }
            ty => unreachable!("no component type {ty}"),
        }
    };
}

/// Calls `$f::<T>(args)` with the component type of index `$ty`.
macro_rules! dispatch {
    ($ty:expr, $f:ident($($arg:expr),* $(,)?)) => {
        with_type!($ty, T => $f::<T>($($arg),*))
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

impl<T: Val> Read for Option<&T> {
    fn read(&self, comps: &mut Comps) {
        comps[T::IDX] = self.map(|v| v.get());
    }
}

impl<T: Val> Read for Option<&mut T> {
    fn read(&self, comps: &mut Comps) {
        comps[T::IDX] = self.as_ref().map(|v| v.get());
    }
}

/// Shared leaves of a view item: nothing to change.
impl<T: Val> Write for &T {
    fn bump(&mut self, _: usize, _: u32) {}
}

impl<T: Val> Write for Option<&T> {
    fn bump(&mut self, _: usize, _: u32) {}
}

impl<T: Val> Write for Option<&mut T> {
    fn bump(&mut self, ty: usize, delta: u32) {
        if let Some(value) = self {
            value.bump(ty, delta);
        }
    }
}

/// The values an item holds.
fn comps_of<R: Read>(item: &R) -> Comps {
    let mut comps = [None; TYPES];
    item.read(&mut comps);
    comps
}

/// Adds `delta` to each of the `writes` leaves of `item`; returns its values afterwards.
fn touch<W: Write>(mut item: W, writes: &[usize], delta: u32) -> Comps {
    for &ty in writes {
        item.bump(ty, delta);
    }
    comps_of(&item)
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

impl<T: Val> Columns for &[T] {
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
    /// The lengths of the shared owned slices (`GroupRef::slices`).
    fn ref_slice_lens(slices: &<Self::Owned as ComponentSet>::Slices<'_>) -> Vec<usize>;
    /// The values at `position` of the shared owned slices.
    fn ref_slice_vals(slices: &<Self::Owned as ComponentSet>::Slices<'_>, position: usize)
    -> Comps;
}

impl<Q: GroupKey> ModelKey for Q
where
    for<'a> Q::Item<'a>: Read,
    for<'a> Q::ItemMut<'a>: Write,
    for<'a> <Q::Owned as ComponentSet>::SlicesMut<'a>: Columns,
    for<'a> <Q::Owned as ComponentSet>::Slices<'a>: Columns,
{
    fn ref_slice_lens(slices: &<Self::Owned as ComponentSet>::Slices<'_>) -> Vec<usize> {
        let mut lens = Vec::new();
        slices.lens(&mut lens);
        lens
    }

    fn ref_slice_vals(
        slices: &<Self::Owned as ComponentSet>::Slices<'_>,
        position: usize,
    ) -> Comps {
        let mut comps = [None; TYPES];
        slices.read_at(position, &mut comps);
        comps
    }

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

/// Which sort: `sort_group` / `sort` (a comparator), `sort_group_by_key` / `sort_by_key`
/// or `sort_group_by_radix_key` / `sort_by_radix_key` (both stable).
#[derive(Clone, Copy, Debug)]
enum SortHow {
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

/// A component type the world never stores (read-only access to it is refused).
#[derive(Clone, Copy, Debug)]
struct Z;
impl Component for Z {}

/// What a view must walk when it is dense.
#[derive(Clone, Copy, Debug)]
enum Dense {
    /// Always dense: the members of the group, after those of the nested group (the
    /// outer-minus-inner range of a nested pair), in the group's order.
    Group(Grp, Option<Grp>),
    /// Always dense: the storage of this type, in its order (one type, no filter).
    Storage(usize),
    /// Never dense: some leaf or filter is neither owned nor implied by any driver.
    No,
}

/// A view's query and filter, as type indices: the model's side of `with_view!`.
struct ViewSpec {
    /// `&T` and `&mut T` leaves.
    required: &'static [usize],
    /// `Option<&T>` and `Option<&mut T>` leaves.
    optional: &'static [usize],
    /// `With<T>` filters.
    with: &'static [usize],
    /// `Without<T>` filters.
    without: &'static [usize],
    /// The `&mut` leaves (the view adds a delta to each).
    writes: &'static [usize],
    dense: Dense,
}

impl ViewSpec {
    /// Whether an entity with `comps` matches.
    fn matches(&self, comps: &Comps) -> bool {
        self.required
            .iter()
            .chain(self.with)
            .all(|&t| comps[t].is_some())
            && self.without.iter().all(|&t| comps[t].is_none())
    }

    /// The types the item reads.
    fn leaves(&self) -> Vec<usize> {
        self.required.iter().chain(self.optional).copied().collect()
    }

    /// Whether the filter is `()` (what `retain` takes).
    fn unfiltered(&self) -> bool {
        self.with.is_empty() && self.without.is_empty()
    }
}

macro_rules! view_spec {
    ($req:expr, $opt:expr, $with:expr, $without:expr, $writes:expr, $dense:expr) => {
        ViewSpec {
            required: &$req,
            optional: &$opt,
            with: &$with,
            without: &$without,
            writes: &$writes,
            dense: $dense,
        }
    };
}

/// The views with `&mut` leaves, as `with_view!` spells them (same index).
const VIEWS: [ViewSpec; 21] = [
    // 0: (&mut A, &B): exactly <A,B>.
    view_spec!([0, 1], [], [], [], [0], Dense::Group(Grp::Ab, None)),
    // 1: (&mut A, &mut B) without C: <A,B> minus <A,B,C>.
    view_spec!(
        [0, 1],
        [],
        [],
        [2],
        [0, 1],
        Dense::Group(Grp::Ab, Some(Grp::Abc))
    ),
    // 2: (&A, &mut B, &mut C) without D: <A,B,C> minus <A,B,C,D>.
    view_spec!(
        [0, 1, 2],
        [],
        [],
        [3],
        [1, 2],
        Dense::Group(Grp::Abc, Some(Grp::Abcd))
    ),
    // 3: (&mut E, &F, &mut G, &H): exactly <E,F,G,H>.
    view_spec!(
        [4, 5, 6, 7],
        [],
        [],
        [],
        [4, 6],
        Dense::Group(Grp::Efgh, None)
    ),
    // 4: (&mut E, &F) without G: <E,F>'s nested group adds two types: no narrowing.
    view_spec!([4, 5], [], [], [6], [4], Dense::No),
    // 5: (&mut I, &J) without K: exactly <I, J, exclude(K)>.
    view_spec!([8, 9], [], [], [10], [8], Dense::Group(Grp::IjxK, None)),
    // 6: (&I, &mut J) without K and L: exactly <I, J, exclude(K, L)>.
    view_spec!(
        [8, 9],
        [],
        [],
        [10, 11],
        [9],
        Dense::Group(Grp::IjxKl, None)
    ),
    // 7: (&mut J, &I) with K: <J, get(I)> or a storage drives, I looked up.
    view_spec!([9, 8], [], [10], [], [9], Dense::No),
    // 8: (&mut L, &A) without K: <L, get(A), exclude(K)>, A looked up.
    view_spec!([11, 0], [], [], [10], [11], Dense::No),
    // 9: (&M, &mut B, Option<&mut N>): no group requires only M and B.
    view_spec!([12, 1], [13], [], [], [1, 13], Dense::No),
    // 10: (&mut D, Option<&C>) with A: the non-owning get(D) qualifies.
    view_spec!([3], [2], [0], [], [3], Dense::No),
    // 11: (&mut O, Option<&mut K>, &E): storages only.
    view_spec!([14, 4], [10], [], [], [14, 10], Dense::No),
    // 12: &mut A without K: the non-owning <get(A), exclude(K)> qualifies.
    view_spec!([0], [], [], [10], [0], Dense::No),
    // 13: (Option<&mut C>, &mut A, &B): <A,B> drives, C (owned by inner groups) looked up.
    view_spec!([0, 1], [2], [], [], [2, 0], Dense::No),
    // 14: (&mut A, &B, Option<&C>) with C: exactly <A,B,C>, the optional leaf aligned.
    view_spec!([0, 1], [2], [2], [], [0], Dense::Group(Grp::Abc, None)),
    // 15: (&mut E, &A): the non-owning get(A, E) qualifies.
    view_spec!([4, 0], [], [], [], [4], Dense::No),
    // 16: (&mut H, &G) without E: <G,H>'s nested group adds E and F: no narrowing.
    view_spec!([7, 6], [], [], [4], [7], Dense::No),
    // 17: (&mut B, &A) without C, with K: <A,B> minus <A,B,C>, K still tested.
    view_spec!([1, 0], [], [10], [2], [1], Dense::No),
    // 18: (&mut C, &B, &A, &mut D): exactly <A,B,C,D>, the innermost group.
    view_spec!(
        [2, 1, 0, 3],
        [],
        [],
        [],
        [2, 3],
        Dense::Group(Grp::Abcd, None)
    ),
    // 19: (&mut K,): its own storage.
    view_spec!([10], [], [], [], [10], Dense::Storage(10)),
    // 20: (&mut N, &M, &B): <M, get(B, N)> drives, B and N looked up.
    view_spec!([13, 12, 1], [], [], [], [13], Dense::No),
];

/// Runs `$body` with `$Q` and `$F` the query and filter of view `$kind` (see `VIEWS`).
macro_rules! with_view {
    ($kind:expr, $Q:ident, $F:ident => $body:expr) => {
        match $kind {
            0 => {
                type $Q = (&'static mut A, &'static B);
                type $F = ();
                $body
            }
            1 => {
                type $Q = (&'static mut A, &'static mut B);
                type $F = Without<C>;
                $body
            }
            2 => {
                type $Q = (&'static A, &'static mut B, &'static mut C);
                type $F = Without<D>;
                $body
            }
            3 => {
                type $Q = (&'static mut E, &'static F, &'static mut G, &'static H);
                type $F = ();
                $body
            }
            4 => {
                type $Q = (&'static mut E, &'static F);
                type $F = Without<G>;
                $body
            }
            5 => {
                type $Q = (&'static mut I, &'static J);
                type $F = Without<K>;
                $body
            }
            6 => {
                type $Q = (&'static I, &'static mut J);
                type $F = (Without<K>, Without<L>);
                $body
            }
            7 => {
                type $Q = (&'static mut J, &'static I);
                type $F = With<K>;
                $body
            }
            8 => {
                type $Q = (&'static mut L, &'static A);
                type $F = Without<K>;
                $body
            }
            9 => {
                type $Q = (&'static M, &'static mut B, Option<&'static mut N>);
                type $F = ();
                $body
            }
            10 => {
                type $Q = (&'static mut D, Option<&'static C>);
                type $F = With<A>;
                $body
            }
            11 => {
                type $Q = (&'static mut O, Option<&'static mut K>, &'static E);
                type $F = ();
                $body
            }
            12 => {
                type $Q = &'static mut A;
                type $F = Without<K>;
                $body
            }
            13 => {
                type $Q = (Option<&'static mut C>, &'static mut A, &'static B);
                type $F = ();
                $body
            }
            14 => {
                type $Q = (&'static mut A, &'static B, Option<&'static C>);
                type $F = With<C>;
                $body
            }
            15 => {
                type $Q = (&'static mut E, &'static A);
                type $F = ();
                $body
            }
            16 => {
                type $Q = (&'static mut H, &'static G);
                type $F = Without<E>;
                $body
            }
            17 => {
                type $Q = (&'static mut B, &'static A);
                type $F = (Without<C>, With<K>);
                $body
            }
            18 => {
                type $Q = (&'static mut C, &'static B, &'static A, &'static mut D);
                type $F = ();
                $body
            }
            19 => {
                type $Q = (&'static mut K,);
                type $F = ();
                $body
            }
            20 => {
                type $Q = (&'static mut N, &'static M, &'static B);
                type $F = ();
                $body
            }
            kind => unreachable!("no view {kind}"),
        }
    };
}

/// The read-only views, as `with_read_view!` spells them (same index).
const READ_VIEWS: [ViewSpec; 7] = [
    // 0: (&A, &B): exactly <A,B>.
    view_spec!([0, 1], [], [], [], [], Dense::Group(Grp::Ab, None)),
    // 1: (&I, &J) without K: exactly <I, J, exclude(K)>.
    view_spec!([8, 9], [], [], [10], [], Dense::Group(Grp::IjxK, None)),
    // 2: (&E, Option<&F>, &A): the non-owning get(A, E) qualifies.
    view_spec!([4, 0], [5], [], [], [], Dense::No),
    // 3: (&A, &A): one storage read twice, both leaves aligned with it.
    view_spec!([0], [], [], [], [], Dense::Storage(0)),
    // 4: &D with A, without C.
    view_spec!([3], [], [0], [2], [], Dense::No),
    // 5: (&L, Option<&K>, &A): <L, get(A), exclude(K)> excludes what the view allows.
    view_spec!([11, 0], [10], [], [], [], Dense::No),
    // 6: (&C, &B, &A) without D: <A,B,C> minus <A,B,C,D>.
    view_spec!(
        [2, 1, 0],
        [],
        [],
        [3],
        [],
        Dense::Group(Grp::Abc, Some(Grp::Abcd))
    ),
];

/// Runs `$body` with `$Q` and `$F` the query and filter of read-only view `$kind`.
macro_rules! with_read_view {
    ($kind:expr, $Q:ident, $F:ident => $body:expr) => {
        match $kind {
            0 => {
                type $Q = (&'static A, &'static B);
                type $F = ();
                $body
            }
            1 => {
                type $Q = (&'static I, &'static J);
                type $F = Without<K>;
                $body
            }
            2 => {
                type $Q = (&'static E, Option<&'static F>, &'static A);
                type $F = ();
                $body
            }
            3 => {
                type $Q = (&'static A, &'static A);
                type $F = ();
                $body
            }
            4 => {
                type $Q = &'static D;
                type $F = (With<A>, Without<C>);
                $body
            }
            5 => {
                type $Q = (&'static L, Option<&'static K>, &'static A);
                type $F = ();
                $body
            }
            6 => {
                type $Q = (&'static C, &'static B, &'static A);
                type $F = Without<D>;
                $body
            }
            kind => unreachable!("no read-only view {kind}"),
        }
    };
}

/// The views `retain` walks (their filter is `()`), as indices into `VIEWS`.
const RETAIN_VIEWS: [usize; 7] = [0, 3, 9, 13, 15, 19, 20];

/// `retain_component::<T, Q>`: `T` and the view `Q` (an index into `VIEWS`).
const RETAIN_COMPONENTS: [(usize, usize); 6] =
    [(10, 19), (2, 13), (0, 0), (14, 11), (13, 9), (6, 3)];

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
enum CmdTarget {
    /// Resolved when recording.
    Old(Target),
    /// A handle spawned earlier in the same buffer (by index among them), if any.
    Spawned(usize),
}

/// A recorded command.
#[derive(Clone, Copy, Debug)]
enum Cmd {
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
enum ReserveAction {
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

/// Sorts the group; checks that every item compared or keyed holds exactly the group's
/// owned and observed types, and that a key sort is stable: members with equal keys keep
/// the order they had.
fn sort_group<Q: ModelKey>(
    world: &mut World,
    group: Grp,
    key: SortKey,
    descending: bool,
    how: SortHow,
    model: &Model,
) -> Result<(), String> {
    let want = mask(&only(&[Some(0); TYPES], &group.required()));
    let mut wrong = None;
    let mut check = |item: &Comps| {
        if mask(item) != want {
            wrong = Some(*item);
        }
    };
    let before = group_entities::<Q>(world).map_err(|e| e.to_string())?;
    // A descending key sort sorts by the complement: the same order, reversed.
    let mut keyed = |x: Q::Item<'_>| {
        let x = Q::item_vals(x);
        check(&x);
        let k = key_of(group, key, &x);
        if descending { !k } else { k }
    };
    let result = match how {
        SortHow::Comparator => world.sort_group::<Q>(|x, y| {
            let (x, y) = (Q::item_vals(x), Q::item_vals(y));
            check(&x);
            check(&y);
            order(key_of(group, key, &x), key_of(group, key, &y), descending)
        }),
        SortHow::Key => world.sort_group_by_key::<Q, u64>(&mut keyed),
        SortHow::RadixKey => world.sort_group_by_radix_key::<Q, u64>(&mut keyed),
    };
    ensure!(result.is_ok(), "sort_group {group:?} {how:?}: {result:?}");
    ensure!(
        wrong.is_none(),
        "sort_group {group:?} {how:?} read the item {wrong:?}"
    );
    if !matches!(how, SortHow::Comparator) {
        let after = group_entities::<Q>(world).map_err(|e| e.to_string())?;
        let was_at = |e: &Entity| before.iter().position(|b| b == e);
        let key_of_entity = |e: Entity| key_of(group, key, &model[&e]);
        for pair in after.windows(2) {
            if key_of_entity(pair[0]) == key_of_entity(pair[1]) {
                ensure!(
                    was_at(&pair[0]) < was_at(&pair[1]),
                    "sort_group {group:?} {how:?}: {:?} and {:?} have equal keys and changed order",
                    pair[0],
                    pair[1]
                );
            }
        }
    }
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

/// Sorts a storage: refused if a group owns it (and then nothing moves), else sorted, and
/// by a key sort stably.
fn sort_storage<T: Val>(world: &mut World, descending: bool, how: SortHow) -> Result<(), String> {
    let before = world.storage::<T>().map(|s| s.entities().to_vec());
    let key = |x: &T| {
        let v: u64 = x.get().into();
        if descending { u64::MAX - v } else { v }
    };
    let result = match how {
        SortHow::Comparator => {
            world.sort::<T>(|x, y| order(x.get().into(), y.get().into(), descending))
        }
        SortHow::Key => world.sort_by_key::<T, u64>(key),
        SortHow::RadixKey => world.sort_by_radix_key::<T, u64>(key),
    };
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
            "sort::<{name}> {how:?} (descending: {descending}) left {values:?}"
        );
        if !matches!(how, SortHow::Comparator) {
            let was_at = |e: &Entity| before.iter().flatten().position(|b| b == e);
            let after = storage.entities();
            for (pair, value) in after.windows(2).zip(values.windows(2)) {
                ensure!(
                    value[0] != value[1] || was_at(&pair[0]) < was_at(&pair[1]),
                    "sort::<{name}> {how:?}: {:?} and {:?} have equal values and changed order",
                    pair[0],
                    pair[1]
                );
            }
        }
    }
    Ok(())
}

/// What a view did.
struct ViewRun {
    dense: bool,
    hint: usize,
    /// The probe's item (looked up before the walk) and whether the view contains it.
    probe: (Option<Comps>, bool),
    /// Each visited entity with its item's values (after the change), in order.
    visited: Vec<(Entity, Comps)>,
}

/// The ways of walking a view (with the `rayon` feature, `par_for_each` too).
const VIEW_STYLES: usize = if cfg!(feature = "rayon") { 5 } else { 4 };
/// The ways of iterating a group (with the `rayon` feature, both `par_for_each`s too).
const GROUP_STYLES: usize = if cfg!(feature = "rayon") { 10 } else { 8 };

/// What a parallel loop visited, put back in the order of `order` (the walk's or the
/// group's): the checks then hold it to the order of a serial loop.
#[cfg(feature = "rayon")]
fn in_order(
    visited: std::sync::Mutex<Vec<(Entity, Comps)>>,
    order: &[Entity],
) -> Vec<(Entity, Comps)> {
    let rank: HashMap<Entity, usize> = order.iter().enumerate().map(|(i, &e)| (e, i)).collect();
    let mut visited = visited.into_inner().expect("no walk panicked");
    visited.sort_by_key(|(e, _)| rank.get(e).copied());
    visited
}

/// Borrows view `View<Q, F>` through `&mut`, looks `probe` up, then walks it in style
/// `style`, adding `delta` to each of the `writes` leaves.
fn view_mut<Q: Query, F: Filter>(
    world: &mut World,
    style: usize,
    writes: &[usize],
    delta: u32,
    probe: Entity,
) -> Result<ViewRun, String>
where
    for<'w> View<'w, Q, F>: Borrow<'w, World>,
    for<'a> Q::Item<'a>: Write,
{
    let mut view = world
        .borrow::<View<Q, F>>()
        .map_err(|e| format!("borrow: {e}"))?;
    let (dense, hint) = (view.is_dense(), view.len_hint());
    ensure!(
        view.walked().len() == hint,
        "walked {} entities, len_hint {hint}",
        view.walked().len()
    );
    let item = view.get(probe).map(|item| comps_of(&item));
    let probe = (item, view.contains(probe));
    let mut visited = Vec::new();
    match style {
        0 => {
            for (e, item) in view {
                visited.push((e, touch(item, writes, delta)));
            }
        }
        1 => {
            for (e, item) in &mut view {
                visited.push((e, touch(item, writes, delta)));
            }
            ensure!(view.len_hint() == hint, "the walk changed while iterating");
        }
        2 => {
            let mut iter = view.iter_mut();
            loop {
                let left = hint - visited.len();
                let (low, high) = iter.size_hint();
                ensure!(
                    high.is_some_and(|h| h <= left)
                        && (!dense || high == Some(left))
                        && low == if dense { left } else { 0 },
                    "ViewIter::size_hint ({low}, {high:?}) after {} of {hint} (dense: {dense})",
                    visited.len()
                );
                let Some((e, item)) = iter.next() else { break };
                visited.push((e, touch(item, writes, delta)));
            }
            ensure!(iter.next().is_none(), "ViewIter is not fused");
        }
        #[cfg(feature = "rayon")]
        4 => {
            let (walked, out) = (view.walked(), std::sync::Mutex::new(Vec::new()));
            view.par_for_each(|e, item| {
                let comps = touch(item, writes, delta);
                out.lock().expect("no walk panicked").push((e, comps));
            });
            visited = in_order(out, walked);
        }
        _ => view.for_each(|e, item| visited.push((e, touch(item, writes, delta)))),
    }
    Ok(ViewRun {
        dense,
        hint,
        probe,
        visited,
    })
}

/// A read-only view `View<Q, F>`: through `borrow_ref`, looked up at `probe`, walked
/// through `&view` (style 0), `iter` next to a second view (1), by value (2), by
/// `par_for_each` (4, feature `rayon`); or through `borrow` and `for_each` (3).
fn view_read<Q: ReadOnlyQuery, F: Filter>(
    world: &mut World,
    style: usize,
    probe: Entity,
) -> Result<ViewRun, String>
where
    for<'w> View<'w, Q, F>: Borrow<'w, World> + ReadOnly,
    for<'a> Q::Item<'a>: Read,
{
    let mut visited = Vec::new();
    if style == 3 {
        let mut view = world
            .borrow::<View<Q, F>>()
            .map_err(|e| format!("borrow: {e}"))?;
        let (dense, hint) = (view.is_dense(), view.len_hint());
        let item = view.get(probe).map(|item| comps_of(&item));
        let probe = (item, view.contains(probe));
        view.for_each(|e, item| visited.push((e, comps_of(&item))));
        return Ok(ViewRun {
            dense,
            hint,
            probe,
            visited,
        });
    }
    let world: &World = world;
    let mut view = world
        .borrow_ref::<View<Q, F>>()
        .map_err(|e| format!("borrow_ref: {e}"))?;
    let (dense, hint) = (view.is_dense(), view.len_hint());
    let item = view.get(probe).map(|item| comps_of(&item));
    let probe = (item, view.contains(probe));
    match style {
        0 => {
            for (e, item) in &view {
                visited.push((e, comps_of(&item)));
            }
        }
        1 => {
            // Any number of read-only views at once.
            let again = world
                .borrow_ref::<View<Q, F>>()
                .map_err(|e| format!("second borrow_ref: {e}"))?;
            for (e, item) in view.iter() {
                visited.push((e, comps_of(&item)));
            }
            let walks = again.iter().map(|(e, _)| e);
            ensure!(
                walks.eq(visited.iter().map(|&(e, _)| e)),
                "two read-only views walk differently"
            );
        }
        #[cfg(feature = "rayon")]
        4 => {
            let (walked, out) = (view.walked(), std::sync::Mutex::new(Vec::new()));
            view.par_for_each(|e, item| {
                let comps = comps_of(&item);
                out.lock().expect("no walk panicked").push((e, comps));
            });
            visited = in_order(out, walked);
        }
        _ => {
            for (e, item) in view {
                visited.push((e, comps_of(&item)));
            }
        }
    }
    Ok(ViewRun {
        dense,
        hint,
        probe,
        visited,
    })
}

/// What iterating a group did.
struct GroupRun {
    /// `len()` and `entities()` before the walk.
    len: usize,
    entities: Vec<Entity>,
    /// Each visited entity with its item's values (after the change), in order.
    visited: Vec<(Entity, Comps)>,
    /// Whether `delta` was added (mutable walks).
    mutated: bool,
}

/// Iterates group `K` in style `style` (see `Op::GroupIter`), adding `delta` to the
/// component of index `ty` in the mutable styles.
fn group_iter<K: ModelKey>(
    world: &mut World,
    style: usize,
    ty: usize,
    delta: u32,
) -> Result<GroupRun, String> {
    let err = |e: AccessError| e.to_string();
    let mut visited = Vec::new();
    let mut mutated = false;
    let (len, entities) = match style {
        0 => {
            let group = world.group::<K>().map_err(err)?;
            let (len, entities) = (group.len(), group.entities().to_vec());
            let iter = group.into_iter();
            ensure!(iter.len() == len, "GroupIter::len {} of {len}", iter.len());
            for (e, item) in iter {
                visited.push((e, K::item_bump(item, ty, delta)));
            }
            mutated = true;
            (len, entities)
        }
        1 => {
            let mut group = world.group::<K>().map_err(err)?;
            let (len, entities) = (group.len(), group.entities().to_vec());
            for (e, item) in &mut group {
                visited.push((e, K::item_bump(item, ty, delta)));
            }
            ensure!(
                group.len() == len && group.entities() == entities,
                "the group changed while iterating"
            );
            mutated = true;
            (len, entities)
        }
        2 => {
            let group = world.group::<K>().map_err(err)?;
            for (e, item) in &group {
                visited.push((e, K::item_vals(item)));
            }
            (group.len(), group.entities().to_vec())
        }
        3 => {
            let mut group = world.group::<K>().map_err(err)?;
            let (len, entities) = (group.len(), group.entities().to_vec());
            let mut iter = group.iter_mut();
            loop {
                let left = len - visited.len();
                ensure!(
                    iter.len() == left && iter.size_hint() == (left, Some(left)),
                    "GroupIter::len {} with {left} left",
                    iter.len()
                );
                let Some((e, item)) = iter.next() else { break };
                visited.push((e, K::item_bump(item, ty, delta)));
            }
            ensure!(iter.next().is_none(), "GroupIter is not fused");
            mutated = true;
            (len, entities)
        }
        4 => {
            let group = world.group_ref::<K>().map_err(err)?;
            let (len, entities) = (group.len(), group.entities().to_vec());
            let iter = group.into_iter();
            ensure!(
                iter.len() == len,
                "GroupRefIter::len {} of {len}",
                iter.len()
            );
            for (e, item) in iter {
                visited.push((e, K::item_vals(item)));
            }
            (len, entities)
        }
        5 => {
            let group = world.group_ref::<K>().map_err(err)?;
            let copy = group.clone();
            for (e, item) in &group {
                visited.push((e, K::item_vals(item)));
            }
            let mut order = Vec::new();
            copy.for_each(|e, _| order.push(e));
            ensure!(
                order.iter().eq(visited.iter().map(|(e, _)| e)),
                "GroupRef::for_each visited {order:?}"
            );
            ensure!(
                group.iter().len() == group.len() && group.is_empty() == (group.iter().len() == 0),
                "GroupRef::iter().len()"
            );
            (copy.len(), copy.entities().to_vec())
        }
        6 => {
            let group = world.borrow_ref::<GroupRef<K>>().map_err(err)?;
            let (entities, slices) = group.slices();
            let lens = K::ref_slice_lens(&slices);
            ensure!(
                lens.iter().all(|&l| l == entities.len()),
                "GroupRef::slices of {} entities have lengths {lens:?}",
                entities.len()
            );
            for (i, (e, item)) in group.iter().enumerate() {
                let values = K::item_vals(item);
                let owned = K::ref_slice_vals(&slices, i);
                ensure!(
                    entities[i] == e
                        && (0..TYPES).all(|t| owned[t].is_none() || owned[t] == values[t]),
                    "GroupRef::slices at {i}: {e:?}'s item {values:?}, slices {:?} {owned:?}",
                    entities[i]
                );
                visited.push((e, values));
            }
            (group.len(), entities.to_vec())
        }
        #[cfg(feature = "rayon")]
        8 => {
            let group = world.group::<K>().map_err(err)?;
            let (len, entities) = (group.len(), group.entities().to_vec());
            let out = std::sync::Mutex::new(Vec::new());
            group.par_for_each(|e, item| {
                let comps = K::item_bump(item, ty, delta);
                out.lock().expect("no walk panicked").push((e, comps));
            });
            visited = in_order(out, &entities);
            mutated = true;
            (len, entities)
        }
        #[cfg(feature = "rayon")]
        9 => {
            let group = world.group_ref::<K>().map_err(err)?;
            let out = std::sync::Mutex::new(Vec::new());
            group.par_for_each(|e, item| {
                let comps = K::item_vals(item);
                out.lock().expect("no walk panicked").push((e, comps));
            });
            visited = in_order(out, group.entities());
            (group.len(), group.entities().to_vec())
        }
        _ => {
            let group = world.borrow::<GroupMut<K>>().map_err(err)?;
            let shared = group.as_ref();
            ensure!(
                shared.len() == group.len() && shared.entities() == group.entities(),
                "GroupMut::as_ref"
            );
            for (e, item) in group.iter() {
                visited.push((e, K::item_vals(item)));
            }
            (group.len(), group.entities().to_vec())
        }
    };
    Ok(GroupRun {
        len,
        entities,
        visited,
        mutated,
    })
}

/// Whether `retain` keeps an item with `comps`: their sum (with `seed`) is no multiple
/// of 6.
fn keep(comps: &Comps, seed: u32) -> bool {
    let sum: u64 = comps.iter().flatten().map(|&v| u64::from(v)).sum();
    !(sum + u64::from(seed)).is_multiple_of(6)
}

/// `retain::<Q>`, adding `seed` to the `writes` leaves; returns the number destroyed and
/// each visited entity with its item's values (after the change).
fn retain_by<Q: Query, F: Filter + 'static>(
    world: &mut World,
    writes: &[usize],
    seed: u32,
) -> Result<(usize, Vec<(Entity, Comps)>), String>
where
    for<'w> View<'w, Q>: Borrow<'w, World>,
    for<'a> Q::Item<'a>: Write,
{
    ensure!(
        TypeId::of::<F>() == TypeId::of::<()>(),
        "retain takes an unfiltered view"
    );
    let mut seen = Vec::new();
    let destroyed = world
        .retain::<Q>(|e, item| {
            let comps = touch(item, writes, seed);
            seen.push((e, comps));
            keep(&comps, seed)
        })
        .map_err(|e| format!("retain: {e}"))?;
    Ok((destroyed, seen))
}

/// `retain_component::<T, Q>`, as `retain_by`; returns the number removed.
fn retain_component_by<T: Val, Q: Query, F: Filter + 'static>(
    world: &mut World,
    writes: &[usize],
    seed: u32,
) -> Result<(usize, Vec<(Entity, Comps)>), String>
where
    for<'w> View<'w, Q>: Borrow<'w, World>,
    for<'a> Q::Item<'a>: Write,
{
    ensure!(
        TypeId::of::<F>() == TypeId::of::<()>(),
        "retain_component takes an unfiltered view"
    );
    let mut seen = Vec::new();
    let removed = world
        .retain_component::<T, Q>(|e, item| {
            let comps = touch(item, writes, seed);
            seen.push((e, comps));
            keep(&comps, seed)
        })
        .map_err(|e| format!("retain_component: {e}"))?;
    Ok((removed, seen))
}

/// `insert_many` of `T`s; a refusal gives the dead entity and the items handed back.
fn insert_batch<T: Val>(
    world: &mut World,
    items: &[(Entity, u32)],
) -> Result<usize, (Entity, Vec<(Entity, u32)>)> {
    world
        .insert_many(items.iter().map(|&(e, v)| (e, T::new(v))))
        .map_err(|err| {
            let items = err.items.into_iter().map(|(e, v)| (e, v.get())).collect();
            (err.dead, items)
        })
}

fn remove_batch<T: Val>(world: &mut World, entities: &[Entity]) -> usize {
    world.remove_many::<T>(entities)
}

fn clear<T: Val>(world: &mut World) {
    world.clear::<T>();
}

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
            Op::SpawnBundles { .. } | Op::InsertTuple { .. } | Op::RemoveTuple { .. } => None,
            Op::Spawn
            | Op::Tick
            | Op::Reload
            | Op::GetMut { .. }
            | Op::Iterate { .. }
            | Op::ViewEo
            | Op::ViewOa
            | Op::ViewGet { .. }
            | Op::View { .. }
            | Op::ViewRef { .. }
            | Op::GroupIter { .. }
            | Op::Borrow { .. }
            | Op::Refused { .. } => Some(still),
            Op::InsertBatch {
                ty,
                ref items,
                ref repeats,
                poison,
            } => {
                // Refused, or replacing values only.
                let batch = self.batch_items(items, repeats, poison);
                let comps = |e: &Entity| self.model.get(e);
                let refused = batch.iter().any(|(e, _)| comps(e).is_none());
                let replaces = batch
                    .iter()
                    .all(|(e, _)| comps(e).is_some_and(|c| c[ty].is_some()));
                (refused || replaces).then_some(still)
            }
            Op::RemoveBatch {
                ty,
                ref targets,
                ref repeats,
            } => {
                let batch = self.batch_targets(targets, repeats);
                (!batch
                    .iter()
                    .any(|e| self.model.get(e).is_some_and(|c| c[ty].is_some())))
                .then_some(still)
            }
            Op::DestroyBatch {
                ref targets,
                ref repeats,
            } => {
                let batch = self.batch_targets(targets, repeats);
                (!batch.iter().any(|e| self.model.contains_key(e))).then_some(still)
            }
            Op::Commands { .. }
            | Op::Reserve { .. }
            | Op::Clear { .. }
            | Op::Retain { .. }
            | Op::RetainComponent { .. } => None,
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

    /// Records a new alive entity with `comps`, checking that its handle is new.
    fn model_spawn(&mut self, e: Entity, comps: Comps) -> Result<(), String> {
        ensure!(
            !self.model.contains_key(&e) && !self.all.contains(&e),
            "{e:?} was handed out before"
        );
        self.model.insert(e, comps);
        self.alive.push(e);
        self.all.push(e);
        Ok(())
    }

    /// Records that the alive `e` was destroyed.
    fn model_destroy(&mut self, e: Entity) {
        self.model.remove(&e);
        self.alive.retain(|&a| a != e);
        self.dead.push(e);
    }

    /// The number of the model's entities having the type of index `ty`.
    fn count(&self, ty: usize) -> usize {
        self.model.values().filter(|c| c[ty].is_some()).count()
    }

    /// The entity order of every storage, then of every group (first spelling).
    fn orders(&mut self) -> Result<Vec<Vec<Entity>>, String> {
        let mut orders = self.layout();
        for group in GROUPS {
            let entities = with_group!(group, 0, Key => group_entities::<Key>(&mut self.world))
                .map_err(|e| e.to_string())?;
            orders.push(entities);
        }
        Ok(orders)
    }

    /// Checks that destroying `doomed` kept every survivor's order in every storage and
    /// group (`before`: `orders()` before).
    fn check_survivors(&mut self, before: &[Vec<Entity>], doomed: &[Entity]) -> Result<(), String> {
        let after = self.orders()?;
        for (i, (b, a)) in before.iter().zip(&after).enumerate() {
            let want: Vec<Entity> = b.iter().copied().filter(|e| !doomed.contains(e)).collect();
            let name = match i.checked_sub(TYPES) {
                None => format!("storage {}", NAMES[i]),
                Some(g) => format!("group {:?}", GROUPS[g]),
            };
            ensure!(
                *a == want,
                "{name}: survivors of destroying {doomed:?} moved: {b:?} -> {a:?}"
            );
        }
        Ok(())
    }

    /// What a dense view must walk, read from the world before the view is taken.
    fn dense_order(&mut self, dense: Dense) -> Result<Option<Vec<Entity>>, String> {
        Ok(match dense {
            Dense::Group(group, inner) => {
                let entities = with_group!(group, 0, Key => group_entities::<Key>(&mut self.world))
                    .map_err(|e| e.to_string())?;
                let skip = inner.map_or(0, |g| self.members(g).len());
                ensure!(skip <= entities.len(), "{inner:?} is longer than {group:?}");
                Some(entities[skip..].to_vec())
            }
            Dense::Storage(ty) => Some(dispatch!(ty, storage_order(&self.world))),
            Dense::No => None,
        })
    }

    /// Checks a walk against the model: it visited each match of `spec` once, with the
    /// values of its leaves after adding `delta` to its `&mut` leaves (done in the model
    /// too). Returns the matches.
    fn check_walk(
        &mut self,
        name: &str,
        spec: &ViewSpec,
        visited: &[(Entity, Comps)],
        delta: u32,
    ) -> Result<Vec<Entity>, String> {
        let matches = self.model.iter().filter(|(_, c)| spec.matches(c));
        let matches = sorted(matches.map(|(&e, _)| e).collect());
        let got = sorted(visited.iter().map(|&(e, _)| e).collect());
        ensure!(got == matches, "{name} visited {got:?}, want {matches:?}");
        let leaves = spec.leaves();
        for (e, comps) in visited {
            let model = self.model.get_mut(e).expect("a match is alive");
            for &t in spec.writes {
                model[t] = model[t].map(|v| v.wrapping_add(delta));
            }
            let want = only(model, &leaves);
            ensure!(
                *comps == want,
                "{name}: {e:?}'s item is {comps:?}, want {want:?}"
            );
        }
        Ok(matches)
    }

    /// Checks what a view did against the model (see `check_walk`), and its probe, length
    /// hint, density and (dense) order.
    fn check_view(
        &mut self,
        name: &str,
        spec: &ViewSpec,
        probe: Entity,
        run: ViewRun,
        order: Option<Vec<Entity>>,
        delta: u32,
    ) -> Result<(), String> {
        let want = self
            .model
            .get(&probe)
            .filter(|c| spec.matches(c))
            .map(|c| only(c, &spec.leaves()));
        ensure!(
            run.probe == (want, want.is_some()),
            "{name}: get/contains({probe:?}) gave {:?}, want {want:?}",
            run.probe
        );
        let most = spec
            .required
            .iter()
            .chain(spec.with)
            .map(|&t| self.count(t))
            .min()
            .expect("a view requires a type");
        let matches = self.check_walk(name, spec, &run.visited, delta)?;
        let hint = run.hint;
        ensure!(
            (matches.len()..=most).contains(&hint),
            "{name}: len_hint {hint}, want {}..={most}",
            matches.len()
        );
        let dense = !matches!(spec.dense, Dense::No);
        ensure!(
            run.dense == dense,
            "{name}: is_dense is {}, want {dense}",
            run.dense
        );
        ensure!(
            !run.dense || hint == matches.len(),
            "{name}: a dense view's len_hint {hint} is not its {} matches",
            matches.len()
        );
        if let Some(order) = order {
            let got: Vec<Entity> = run.visited.iter().map(|&(e, _)| e).collect();
            ensure!(
                got == order,
                "{name} ({:?}) walked {got:?}, want {order:?}",
                spec.dense
            );
        }
        Ok(())
    }

    fn view_op(
        &mut self,
        kind: usize,
        style: usize,
        delta: u32,
        probe: Target,
    ) -> Result<(), String> {
        let spec = &VIEWS[kind];
        let order = self.dense_order(spec.dense)?;
        let probe = self.resolve(probe);
        let run = with_view!(kind, Vq, Vf => {
            view_mut::<Vq, Vf>(&mut self.world, style, spec.writes, delta, probe)
        })
        .map_err(|e| format!("view {kind}: {e}"))?;
        self.check_view(
            &format!("view {kind} (style {style})"),
            spec,
            probe,
            run,
            order,
            delta,
        )
    }

    fn view_ref_op(&mut self, kind: usize, style: usize, probe: Target) -> Result<(), String> {
        let spec = &READ_VIEWS[kind];
        let order = self.dense_order(spec.dense)?;
        let probe = self.resolve(probe);
        let run =
            with_read_view!(kind, Vq, Vf => view_read::<Vq, Vf>(&mut self.world, style, probe))
                .map_err(|e| format!("read-only view {kind}: {e}"))?;
        self.check_view(
            &format!("read-only view {kind} (style {style})"),
            spec,
            probe,
            run,
            order,
            0,
        )
    }

    fn group_iter_op(
        &mut self,
        group: Grp,
        spelling: usize,
        style: usize,
        ty: usize,
        delta: u32,
    ) -> Result<(), String> {
        let required = group.required();
        let ty = required[ty % required.len()];
        let run = with_group!(group, spelling, Key => group_iter::<Key>(&mut self.world, style, ty, delta))
            .map_err(|e| format!("group {group:?} (style {style}): {e}"))?;
        let members = self.members(group);
        ensure!(
            run.len == members.len() && sorted(run.entities.clone()) == members,
            "group {group:?} has {} entities {:?}, model {members:?}",
            run.len,
            run.entities
        );
        let order: Vec<Entity> = run.visited.iter().map(|&(e, _)| e).collect();
        ensure!(
            order == run.entities,
            "iterating {group:?} (style {style}) visited {order:?}, its entities are {:?}",
            run.entities
        );
        for (e, comps) in &run.visited {
            let model = self.model.get_mut(e).expect("member is alive");
            if run.mutated {
                model[ty] = model[ty].map(|v| v.wrapping_add(delta));
            }
            let want = only(model, &required);
            ensure!(
                *comps == want,
                "iterating {group:?} (style {style}): {e:?}'s item is {comps:?}, want {want:?}"
            );
        }
        Ok(())
    }

    /// Checks that `visited` holds each member of `group` once, in the group's order (as
    /// `orders` gives it, if given), with its owned and observed values after adding
    /// `delta` to the `writes` types (done in the model too).
    fn check_members(
        &mut self,
        name: &str,
        group: Grp,
        visited: &[(Entity, Comps)],
        writes: &'static [usize],
        delta: u32,
    ) -> Result<(), String> {
        let (owned, observed, _) = group.lists();
        let spec = ViewSpec {
            required: owned,
            optional: observed,
            with: observed,
            without: group.excluded(),
            writes,
            dense: Dense::No,
        };
        self.check_walk(name, &spec, visited, delta).map(drop)
    }

    /// Borrow request `kind`: several parts at once, each walked or read, values changed
    /// through the mutable ones; the model mirrors every change.
    fn borrow_parts(&mut self, kind: usize, delta: u32, probe: Target) -> Result<(), String> {
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
    fn refused(&mut self, kind: usize) -> Result<(), String> {
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
            5 => (
                self.world.borrow::<View<&mut E, With<E>>>().map(drop),
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

    /// Records `cmds` (reserving through `&Entities` from the world or a borrow request),
    /// applies them, and checks what was applied and skipped against the model.
    fn commands(&mut self, cmds: &[Cmd], via_borrow: bool) -> Result<(), String> {
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
    fn reserve(&mut self, count: usize, action: ReserveAction) -> Result<(), String> {
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

    /// The entities and values of an `insert_many` batch.
    fn batch_items(
        &self,
        items: &[(Target, u32)],
        repeats: &[(usize, u32)],
        poison: Option<(usize, Target)>,
    ) -> Vec<(Entity, u32)> {
        let mut batch: Vec<(Entity, u32)> =
            items.iter().map(|&(t, v)| (self.resolve(t), v)).collect();
        for &(i, v) in repeats {
            let e = batch[i % batch.len()].0;
            batch.push((e, v));
        }
        if let Some((at, target)) = poison {
            batch.insert(at % (batch.len() + 1), (self.resolve(target), 7));
        }
        batch
    }

    /// The entities of a `remove_many` or `destroy_many` batch.
    fn batch_targets(&self, targets: &[Target], repeats: &[usize]) -> Vec<Entity> {
        let mut batch: Vec<Entity> = targets.iter().map(|&t| self.resolve(t)).collect();
        for &i in repeats {
            batch.push(batch[i % batch.len()]);
        }
        batch
    }

    fn insert_batch_op(
        &mut self,
        ty: usize,
        items: &[(Target, u32)],
        repeats: &[(usize, u32)],
        poison: Option<(usize, Target)>,
    ) -> Result<(), String> {
        let batch = self.batch_items(items, repeats, poison);
        let got = dispatch!(ty, insert_batch(&mut self.world, &batch));
        match batch.iter().find(|(e, _)| !self.model.contains_key(e)) {
            Some(&(dead, _)) => ensure!(
                got == Err((dead, batch.clone())),
                "insert_many {} of {batch:?} (dead {dead:?}): {got:?}",
                NAMES[ty]
            ),
            None => {
                let mut added = 0;
                for &(e, v) in &batch {
                    let comps = self.model.get_mut(&e).expect("alive");
                    added += usize::from(comps[ty].replace(v).is_none());
                }
                ensure!(
                    got == Ok(added),
                    "insert_many {} of {batch:?}: {got:?}, want {added} added",
                    NAMES[ty]
                );
            }
        }
        Ok(())
    }

    fn remove_batch_op(
        &mut self,
        ty: usize,
        targets: &[Target],
        repeats: &[usize],
    ) -> Result<(), String> {
        let batch = self.batch_targets(targets, repeats);
        let got = dispatch!(ty, remove_batch(&mut self.world, &batch));
        let mut want = 0;
        for e in &batch {
            if let Some(comps) = self.model.get_mut(e) {
                want += usize::from(comps[ty].take().is_some());
            }
        }
        ensure!(
            got == want,
            "remove_many {} of {batch:?}: {got}, want {want}",
            NAMES[ty]
        );
        Ok(())
    }

    fn destroy_batch_op(&mut self, targets: &[Target], repeats: &[usize]) -> Result<(), String> {
        let batch = self.batch_targets(targets, repeats);
        let before = self.orders()?;
        let got = self.world.destroy_many(&batch);
        let mut doomed = Vec::new();
        for &e in &batch {
            if self.model.contains_key(&e) {
                self.model_destroy(e);
                doomed.push(e);
            }
        }
        ensure!(
            got == doomed.len(),
            "destroy_many of {batch:?}: {got}, want {}",
            doomed.len()
        );
        self.check_survivors(&before, &doomed)
    }

    fn retain_op(&mut self, kind: usize, seed: u32) -> Result<(), String> {
        let kind = RETAIN_VIEWS[kind];
        let spec = &VIEWS[kind];
        ensure!(spec.unfiltered(), "retain view {kind} has a filter");
        let before = self.orders()?;
        let (got, seen) =
            with_view!(kind, Vq, Vf => retain_by::<Vq, Vf>(&mut self.world, spec.writes, seed))?;
        self.check_walk(&format!("retain over view {kind}"), spec, &seen, seed)?;
        let doomed: Vec<Entity> = seen
            .iter()
            .filter(|(_, comps)| !keep(comps, seed))
            .map(|&(e, _)| e)
            .collect();
        for &e in &doomed {
            self.model_destroy(e);
        }
        ensure!(
            got == doomed.len(),
            "retain over view {kind} destroyed {got}, want {}",
            doomed.len()
        );
        self.check_survivors(&before, &doomed)
    }

    fn retain_component_op(&mut self, kind: usize, seed: u32) -> Result<(), String> {
        let (ty, view) = RETAIN_COMPONENTS[kind];
        let spec = &VIEWS[view];
        ensure!(
            spec.unfiltered(),
            "retain_component view {view} has a filter"
        );
        let (got, seen) = with_type!(ty, T => with_view!(view, Vq, Vf => {
            retain_component_by::<T, Vq, Vf>(&mut self.world, spec.writes, seed)
        }))?;
        let name = format!("retain_component::<{}> over view {view}", NAMES[ty]);
        self.check_walk(&name, spec, &seen, seed)?;
        let mut want = 0;
        for (e, comps) in &seen {
            if !keep(comps, seed) {
                let model = self.model.get_mut(e).expect("alive");
                want += usize::from(model[ty].take().is_some());
            }
        }
        ensure!(got == want, "{name} removed {got}, want {want}");
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

/// `world` saved (in postcard) and loaded into `empty`.
#[cfg(feature = "serde")]
fn reload(world: &World, mut empty: World) -> Result<World, String> {
    type Types = (A, B, C, D, E, F, G, H, I, J, K, L, M, N, O);
    let bytes = postcard::to_stdvec(&world.snapshot::<Types>()).map_err(|e| e.to_string())?;
    empty
        .load::<Types, _>(&mut postcard::Deserializer::from_bytes(&bytes))
        .map_err(|e| e.to_string())?;
    Ok(empty)
}

/// Builds the world with the groups in `order`, each in its `spellings` entry, then runs
/// `ops`, checking everything after each.
fn run(order: &[usize], spellings: &[usize], ops: &[Op]) -> Result<(), String> {
    let specs = order.iter().map(|&g| spec(GROUPS[g], spellings[g]));
    let mut world = World::with_groups(specs)
        .map_err(|e| format!("groups {order:?} {spellings:?} rejected: {e}"))?;
    register_hooks(&mut world);
    track(&mut world);
    let mut changes = Changes::new();
    let mut h = Harness::new(world);
    check_missing_groups(&mut h.world)?;
    let layout = h.layout();
    h.check(0, &layout)
        .map_err(|e| format!("before any op: {e}"))?;
    for (i, op) in ops.iter().enumerate() {
        let context = |e: String| format!("op #{i} {op:?}: {e}");
        let movable = h.movable(op).map(|m| (m, h.layout()));
        let before = h.model.clone();
        HOOK_LOG.with_borrow_mut(Vec::clear);
        #[cfg(feature = "serde")]
        if let Op::Reload = op {
            // `movable` allows no move: `check_moves` compares every storage's order.
            let mut rebuilt =
                World::with_groups(order.iter().map(|&g| spec(GROUPS[g], spellings[g])))
                    .map_err(|e| e.to_string())?;
            register_hooks(&mut rebuilt);
            track(&mut rebuilt);
            h.world = reload(&h.world, rebuilt).map_err(context)?;
        }
        h.apply(op).map_err(context)?;
        changes.check(op, &mut h.world, &h.model).map_err(context)?;
        let layout = h.layout();
        if let Some((movable, before)) = movable {
            check_moves(&before, &layout, &movable).map_err(context)?;
        }
        h.check(i, &layout).map_err(context)?;
        check_hooks(op, &before, &h.model).map_err(context)?;
        // The checks above iterate groups mutably, which marks their members changed.
        changes.adopt(&mut h.world);
        if std::env::var_os("STATS").is_some() && i % 200 == 199 {
            let sizes: Vec<usize> = GROUPS.iter().map(|&g| h.members(g).len()).collect();
            eprintln!(
                "op {i}: alive {} groups {sizes:?} dead {}",
                h.model.len(),
                h.dead.len()
            );
        }
        if let Op::SortGroup {
            group,
            spelling,
            key,
            descending,
            ..
        } = *op
        {
            h.check_sorted(group, spelling, key, descending)
                .map_err(context)?;
        }
    }
    Ok(())
}

/// The types with change detection: owned by nested groups (A), by one group (E), by
/// groups with exclusions (I), excluded (K), owned by a partial group (N), by none (O).
const TRACKED: [usize; 6] = [0, 4, 8, 10, 13, 14];

fn track(world: &mut World) {
    fn one<T: Val>(world: &mut World) {
        world.track::<T>();
    }
    for t in TRACKED {
        dispatch!(t, one(world));
    }
}

/// What change detection must report, replayed from the hooks (which fire for every
/// component added, replaced or removed, see `check_hooks`) and the values.
struct Changes {
    /// The values at the last tick.
    at_tick: Model,
    /// Per tracked type: added, and added or changed, since the last tick.
    added: Vec<Vec<Entity>>,
    changed: Vec<Vec<Entity>>,
    /// Per tracked type: the entities that lost it since the last tick.
    removed: Vec<Vec<Entity>>,
}

impl Changes {
    fn new() -> Self {
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
    fn check(&mut self, op: &Op, world: &mut World, model: &Model) -> Result<(), String> {
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
                for &(event, t, e) in &HOOK_LOG.with_borrow(Clone::clone) {
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
    fn adopt(&mut self, world: &mut World) {
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

thread_local! {
    /// The user hooks' calls during the current op: event, type index, entity.
    static HOOK_LOG: RefCell<Vec<(HookEvent, usize, Entity)>> = const { RefCell::new(Vec::new()) };
    /// What the hooks found wrong (a hook cannot return an error).
    static HOOK_FAULTS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Registers a hook for every event of every type: each checks the ordering rule (an
/// insert or replace hook finds the entity in exactly the groups its components now
/// qualify it for; a remove hook finds it, its component still there, in every group it
/// was in) against the groups of every kind, and logs its call.
fn register_hooks(world: &mut World) {
    fn observe<T: Val, const EVENT: u8>(world: &mut HookWorld<'_, World>, e: Entity) {
        let event = [HookEvent::Insert, HookEvent::Replace, HookEvent::Remove][EVENT as usize];
        let mut comps: Comps = [None; TYPES];
        for (t, slot) in comps.iter_mut().enumerate() {
            *slot = dispatch!(t, hook_get(world, e));
        }
        let mut faults = Vec::new();
        if comps[T::IDX].is_none() {
            faults.push(format!("{event} hook of type {}: {e:?} lacks it", T::IDX));
        }
        for g in GROUPS {
            let member = with_group!(g, 0, Key => world
                .borrow::<GroupRef<'_, Key>>()
                .entities()
                .contains(&e));
            if member != g.matches(&comps) {
                faults.push(format!(
                    "{event} hook of type {}: {e:?} with {comps:?} is {}a member of {g:?}",
                    T::IDX,
                    if member { "" } else { "not " }
                ));
            }
        }
        HOOK_FAULTS.with_borrow_mut(|f| f.extend(faults));
        HOOK_LOG.with_borrow_mut(|log| log.push((event, T::IDX, e)));
    }
    fn hook_get<T: Val>(world: &HookWorld<'_, World>, e: Entity) -> Option<u32> {
        world.get::<T>(e).map(|v| v.get())
    }
    fn register<T: Val>(world: &mut World) {
        world
            .on_insert::<T>(observe::<T, 0>)
            .expect("first insert hook");
        world
            .on_replace::<T>(observe::<T, 1>)
            .expect("first replace hook");
        world
            .on_remove::<T>(observe::<T, 2>)
            .expect("first remove hook");
        assert!(
            world.on_remove::<T>(observe::<T, 2>).is_err(),
            "a second remove hook is refused"
        );
    }
    for t in 0..TYPES {
        dispatch!(t, register(world));
    }
}

/// The hooks' findings during `op`; that the hooks, replayed in order, follow each
/// component's life from before the op to after it; and (for every op but commands, whose
/// changes can undo each other within the op) that they ran exactly for the components
/// added and removed: one insert hook per component added, one remove hook per component removed
/// (destruction included), replace hooks only for components there afterwards.
fn check_hooks(op: &Op, before: &Model, after: &Model) -> Result<(), String> {
    let faults = HOOK_FAULTS.with_borrow_mut(std::mem::take);
    ensure!(faults.is_empty(), "hooks saw a broken rule: {faults:?}");
    let has = |model: &Model, e: Entity, t: usize| model.get(&e).is_some_and(|c| c[t].is_some());
    let log = HOOK_LOG.with_borrow(Clone::clone);
    // For every op, commands included: replayed in order, each component's hooks follow
    // its life (an insert only where it was absent, a replace or a remove only where it
    // was present) from the state before the op to the state after it.
    let mut present: HashMap<(Entity, usize), bool> = HashMap::new();
    for &(event, t, e) in &log {
        let now = present.entry((e, t)).or_insert_with(|| has(before, e, t));
        ensure!(
            *now != (event == HookEvent::Insert),
            "{event} hook of type {t} for {e:?}, which {} it",
            if *now { "already has" } else { "lacks" }
        );
        *now = event != HookEvent::Remove;
    }
    for (&(e, t), &now) in &present {
        ensure!(
            now == has(after, e, t),
            "the hooks leave type {t} of {e:?} {}, the op leaves it {}",
            if now { "present" } else { "absent" },
            if now { "absent" } else { "present" }
        );
    }
    let entities: std::collections::BTreeSet<Entity> =
        before.keys().chain(after.keys()).copied().collect();
    for &e in &entities {
        for t in 0..TYPES {
            ensure!(
                has(before, e, t) == has(after, e, t) || present.contains_key(&(e, t)),
                "type {t} of {e:?} was {} by the op with no hook",
                if has(after, e, t) { "added" } else { "removed" }
            );
        }
    }
    if matches!(op, Op::Commands { .. } | Op::Reserve { .. }) {
        return Ok(());
    }
    let mut fired = [Vec::new(), Vec::new()];
    for &(event, t, e) in &log {
        match event {
            HookEvent::Insert => fired[0].push((e, t)),
            HookEvent::Remove => fired[1].push((e, t)),
            HookEvent::Replace => ensure!(
                has(after, e, t),
                "a replace hook of type {t} for {e:?}, which has none after the op"
            ),
        }
    }
    let mut want = [Vec::new(), Vec::new()];
    for &e in &entities {
        for t in 0..TYPES {
            match (has(before, e, t), has(after, e, t)) {
                (false, true) => want[0].push((e, t)),
                (true, false) => want[1].push((e, t)),
                _ => {}
            }
        }
    }
    for (got, want) in fired.iter_mut().zip(&mut want) {
        got.sort_unstable();
        want.sort_unstable();
    }
    ensure!(
        fired == want,
        "hooks ran for (insert, remove) {fired:?}; the components added and removed were {want:?}"
    );
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
