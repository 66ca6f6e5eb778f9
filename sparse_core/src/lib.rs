//! The runtime of [`sparse_groups`]: versioned entities, paged sparse sets, component
//! storages, nested owning groups and their maintenance, the three sorting strategies,
//! and a [`World`] whose group layout is validated at run time.
//!
//! Users depend on the `sparse_groups` facade, whose `#[world]` macro generates a static
//! world on these primitives with its layout checked at compile time. Both kinds of world
//! run the same code: the nesting rule ([`Layout`]), the order of group steps derived from it, the
//! group engine that moves entities in and out of packed prefixes, and the invariant check.
//!
//! [`sparse_groups`]: https://docs.rs/sparse_groups

/// Calls `$m!` once per tuple arity from one to [`MAX_TUPLE`], with `(Type, binding, index)`
/// triples: the one list behind every tuple impl of the crate.
macro_rules! for_each_tuple {
    ($m:ident) => {
        for_each_tuple!(@arity $m []
            (A, a, 0) (B, b, 1) (C, c, 2) (D, d, 3) (E, e, 4) (F, f, 5) (G, g, 6) (H, h, 7)
            (I, i, 8) (J, j, 9) (K, k, 10) (L, l, 11) (M, m, 12) (N, n, 13) (O, o, 14) (P, p, 15)
        );
    };
    (@arity $m:ident [$($done:tt)*] $next:tt $($rest:tt)*) => {
        $m!($($done,)* $next);
        for_each_tuple!(@arity $m [$($done)* $next] $($rest)*);
    };
    (@arity $m:ident [$($done:tt)*]) => {};
}

/// The first of a list of identifiers.
macro_rules! first {
    ($first:ident $(, $rest:ident)*) => {
        $first
    };
}

/// The most component types a group, a view or a bundle can name: the largest tuple
/// [`ComponentSet`] is implemented for.
pub const MAX_TUPLE: usize = 16;

mod access;
mod advice;
mod change;
mod component;
mod component_set;
mod diagram;
mod entity;
mod group;
mod internals;
mod lend;
mod message;
mod method_docs;
#[cfg(feature = "rayon")]
mod parallel;
mod resource;
mod schedule;
mod size_hint;
#[cfg(feature = "serde")]
mod snapshot;
mod storage;
mod world;
mod world_traits;

#[doc(hidden)]
pub mod __private;

pub use access::{
    Added, Borrow, Changed, Filter, Mut, Query, ReadOnly, ReadOnlyQuery, ValuesMut, View, ViewIter,
    ViewOf, ViewQuery, ViewRefOf, With, Without,
};
pub use advice::{Advice, ViewAdvice, Walk};
pub use change::{
    Applied, Bundle, Commands, ComponentShape, Components, Edit, EditEntities, GetMut, Hook,
    HookError, HookEvent, HookWorld, InsertManyError, Lookup, MAX_CASCADE, ReadComponents,
    ReplaceHook, Skipped, Stores,
};
pub use component::{Component, ComponentKey};
pub use diagram::Diagram;
pub use entity::{Entities, Entity, EntityError};
pub use group::{
    Action, Conflict, Exclude, Get, GroupDecl, GroupIter, GroupKey, GroupMut, GroupRef,
    GroupRefIter, Layout, LayoutError, Place, Role, Step,
};
pub use lend::{AccessError, Apart, LendResource, SendParts, WorldParts};
pub use message::{MessageCursor, MessageReader, MessageWriter, Messages};
pub use resource::{Res, ResMut, Resource};
pub use schedule::{
    ApplyCommands, MEASURE_EVERY, ParamItem, ParametersApart, Schedule, Spans, Stages, System,
    SystemOf, SystemParam, Systems, Threads,
};
pub use storage::{OrdKey, RadixKey, SparseSet, Storage};
pub use world::{GroupSpec, LayoutErrors, World};
#[cfg(feature = "serde")]
pub use world::{LoadItem, LoadTypes, SaveItem, Snapshot, SnapshotItem, SnapshotTypes};
pub use world_traits::{Access, HasComponent, HasGroup, HasResource, Unowned};

// Plumbing that public signatures name (bounds, associated types): reachable, so that
// those signatures are well-formed, but not documented as API. Every item here is sealed
// or safe to call with anything (see `__private`).
#[doc(hidden)]
pub use access::{FilterOf, LendGroup, QueryOf};
#[doc(hidden)]
pub use change::StoreComponents;
#[doc(hidden)]
pub use component_set::ComponentSet;
#[doc(hidden)]
pub use group::{GroupOrder, OwnedTypes, StorageOrder, Types};
#[doc(hidden)]
pub use lend::{
    AllApart, BundleApart, LendStorage, NoAlias, NonEmpty, NotIn, NotInBundle, Numbered,
    TrackChanges,
};
#[doc(hidden)]
pub use storage::Marks;
