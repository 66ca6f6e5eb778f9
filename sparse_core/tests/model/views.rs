//! The views: their model (`ViewSpec`) and their types (`with_view!`, `with_read_view!`),
//! with the same index.

use crate::components::Comps;
use crate::groups::Grp;

/// What a view must walk when it is dense.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Dense {
    /// Always dense: the members of the group, after those of the nested group (the
    /// outer-minus-inner range of a nested pair), in the group's order.
    Group(Grp, Option<Grp>),
    /// Always dense: the storage of this type, in its order (one type, no filter).
    Storage(usize),
    /// Never dense: some leaf or filter is neither owned nor implied by any driver.
    No,
}

/// A view's query and filter, as type indices: the model's side of `with_view!`.
pub(crate) struct ViewSpec {
    /// `&T` and `&mut T` leaves.
    pub(crate) required: &'static [usize],
    /// `Option<&T>` and `Option<&mut T>` leaves.
    pub(crate) optional: &'static [usize],
    /// `With<T>` filters.
    pub(crate) with: &'static [usize],
    /// `Without<T>` filters.
    pub(crate) without: &'static [usize],
    /// The `&mut` leaves (the view adds a delta to each).
    pub(crate) writes: &'static [usize],
    pub(crate) dense: Dense,
}

impl ViewSpec {
    /// Whether an entity with `comps` matches.
    pub(crate) fn matches(&self, comps: &Comps) -> bool {
        self.required
            .iter()
            .chain(self.with)
            .all(|&t| comps[t].is_some())
            && self.without.iter().all(|&t| comps[t].is_none())
    }

    /// The types the item reads.
    pub(crate) fn leaves(&self) -> Vec<usize> {
        self.required.iter().chain(self.optional).copied().collect()
    }

    /// Whether the filter is `()` (what `retain` takes).
    pub(crate) fn unfiltered(&self) -> bool {
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
pub(crate) const VIEWS: [ViewSpec; 21] = [
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
pub(crate) const READ_VIEWS: [ViewSpec; 7] = [
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
pub(crate) const RETAIN_VIEWS: [usize; 7] = [0, 3, 9, 13, 15, 19, 20];

/// `retain_component::<T, Q>`: `T` and the view `Q` (an index into `VIEWS`).
pub(crate) const RETAIN_COMPONENTS: [(usize, usize); 6] =
    [(10, 19), (2, 13), (0, 0), (14, 11), (13, 9), (6, 3)];
