//! The runtime of the `sparse` crate: versioned entities, paged sparse sets, component
//! storages, nested owning groups, the three sorting strategies, and a world whose group
//! layout is validated at run time.
//!
//! Users normally depend on the `sparse` facade, whose `#[world]` macro generates a static
//! world on these primitives with its layout checked at compile time.
#![warn(missing_docs)]

/// Calls `$m!` once per tuple arity from one to eight, with `(Type, binding, index)`
/// triples: the one list behind every tuple impl of the crate.
macro_rules! for_each_tuple {
    ($m:ident) => {
        $m!((A, a, 0));
        $m!((A, a, 0), (B, b, 1));
        $m!((A, a, 0), (B, b, 1), (C, c, 2));
        $m!((A, a, 0), (B, b, 1), (C, c, 2), (D, d, 3));
        $m!((A, a, 0), (B, b, 1), (C, c, 2), (D, d, 3), (E, e, 4));
        $m!(
            (A, a, 0),
            (B, b, 1),
            (C, c, 2),
            (D, d, 3),
            (E, e, 4),
            (F, f, 5)
        );
        $m!(
            (A, a, 0),
            (B, b, 1),
            (C, c, 2),
            (D, d, 3),
            (E, e, 4),
            (F, f, 5),
            (G, g, 6)
        );
        $m!(
            (A, a, 0),
            (B, b, 1),
            (C, c, 2),
            (D, d, 3),
            (E, e, 4),
            (F, f, 5),
            (G, g, 6),
            (H, h, 7)
        );
    };
}

/// The first of a list of identifiers.
macro_rules! first {
    ($first:ident $(, $rest:ident)*) => {
        $first
    };
}

pub mod access;
pub mod component;
pub mod entity;
pub mod group;
pub mod layout;
mod sort;
mod sparse_array;
pub mod sparse_set;
pub mod storage;
pub mod view;
pub mod world;

#[doc(hidden)]
pub mod __private;

pub use access::{Bundle, HasComponent, HasGroup, Unowned, ViewOf};
pub use component::{Component, ComponentKey, ComponentSet};
pub use entity::{Entities, Entity, EntityError};
pub use group::GroupMut;
pub use layout::{Layout, LayoutError};
pub use sparse_set::SparseSet;
pub use storage::Storage;
pub use view::View;
pub use world::{AccessError, GroupSpec, LayoutErrors, World};
