//! The groups of the world, the spellings of their keys (`with_group!`) and `ModelKey`, a
//! key seen through canonical component indices.

use std::cmp::Ordering;

use sparse_core::{ComponentKey, ComponentSet, Exclude, Get, GroupKey, GroupSpec};

use crate::components::{
    A, B, C, Columns, Comps, D, E, F, G, H, I, J, K, L, M, N, Read, TYPES, Write,
};

/// A group key, in any spelling, seen through canonical component indices.
pub(crate) trait ModelKey: GroupKey {
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
pub(crate) enum Grp {
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

pub(crate) const GROUPS: [Grp; 15] = [
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
    pub(crate) fn lists(self) -> (&'static [usize], &'static [usize], &'static [usize]) {
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

    pub(crate) fn owned(self) -> &'static [usize] {
        self.lists().0
    }

    pub(crate) fn excluded(self) -> &'static [usize] {
        self.lists().2
    }

    /// The owned then the observed types.
    pub(crate) fn required(self) -> Vec<usize> {
        let (owned, observed, _) = self.lists();
        owned.iter().chain(observed).copied().collect()
    }

    fn is_owning(self) -> bool {
        !self.owned().is_empty()
    }

    /// How many spellings of the key `with_group!` knows.
    pub(crate) fn spellings(self) -> usize {
        match self {
            Grp::Abc | Grp::Abcd | Grp::Efgh | Grp::IjxK | Grp::IjxKl => 3,
            _ => 2,
        }
    }

    /// Whether an entity with `comps` is a member.
    pub(crate) fn matches(self, comps: &Comps) -> bool {
        let (owned, observed, excluded) = self.lists();
        owned.iter().chain(observed).all(|&t| comps[t].is_some())
            && excluded.iter().all(|&t| comps[t].is_none())
    }

    /// The nesting rule, written again: `self` is nested in the owning group `outer`.
    pub(crate) fn nested_in(self, outer: Grp) -> bool {
        let subset = |a: &[usize], b: &[usize]| a.iter().all(|t| b.contains(t));
        self != outer
            && outer.is_owning()
            && subset(outer.owned(), self.owned())
            && subset(&outer.required(), &self.required())
            && subset(outer.excluded(), self.excluded())
    }

    /// The groups nested in this one, from the next one in to the innermost (a chain).
    pub(crate) fn inner(self) -> Vec<Grp> {
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
pub(crate) fn owned_by_a_group(ty: usize) -> bool {
    GROUPS.iter().any(|g| g.owned().contains(&ty))
}

pub(crate) fn index(group: Grp) -> usize {
    GROUPS
        .iter()
        .position(|&g| g == group)
        .expect("known group")
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

pub(crate) fn spec(group: Grp, spelling: usize) -> GroupSpec {
    with_group!(group, spelling, Key => GroupSpec::of::<Key>())
}

pub(crate) fn decl(group: Grp, spelling: usize) -> sparse_core::GroupDecl<ComponentKey> {
    with_group!(group, spelling, Key => Key::decl())
}
