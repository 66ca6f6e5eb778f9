// The front page is the README (its Rust examples run as doctests from here); the link
// definitions that come first send its links to the guide's pages (see `rustdoc_links.md`).
#![doc = concat!(include_str!("rustdoc_links.md"), include_str!("../README.md"))]

extern crate self as sparse_groups;

#[cfg(doc)]
pub mod example_generated;

// The public API, by purpose (README lists the same groups). Everything else of
// `sparse_core` is plumbing: reachable through `__private` for generated code, hidden.

// Declaring components, resources and worlds (with `world` and `Component`, the macros
// below).
pub use sparse_core::{Component, MAX_TUPLE, Resource, Storage};
// Entities.
pub use sparse_core::{Entities, Entity, EntityError};
// Groups: keys, access, iterators.
pub use sparse_core::{Exclude, Get, GroupIter, GroupMut, GroupRef, GroupRefIter};
// Views, borrows and deferred changes.
pub use sparse_core::{
    Applied, Commands, Res, ResMut, Skipped, ValuesMut, View, ViewIter, With, Without,
};
// Code generic over worlds: the traits every world implements and systems and hooks name.
pub use sparse_core::{Access, Apart, HasComponent, HasGroup, HasResource, Stores};
// Systems and schedules: functions over parts, run at once where the compiler proves
// them apart.
pub use sparse_core::{ApplyCommands, MEASURE_EVERY, Schedule, Spans, Stages, Threads};
// Messages between systems: a resource of messages, its writers and readers.
pub use sparse_core::{MessageCursor, MessageReader, MessageWriter, Messages};
// Layout advice for a schedule on a world's entities.
pub use sparse_core::{Advice, ViewAdvice, Walk};
// The traits behind the methods, grouped in `traits` and also here: rustc names the
// shortest path to a trait in its errors and suggestions (`sparse_groups::EditEntities`),
// so that path is a documented one.
pub use traits::*;
// Sorting by a key.
pub use sparse_core::{OrdKey, RadixKey};
// User hooks: reactions to structural change.
pub use sparse_core::{Hook, HookError, HookEvent, HookWorld, MAX_CASCADE, ReplaceHook};
// Change detection: view filters of `#[track]`ed types, and the guard marking on write.
pub use sparse_core::{Added, Changed, Mut};
// Worlds whose groups are known at run time, and what they refuse.
pub use sparse_core::{AccessError, GroupSpec, InsertManyError, LayoutErrors, World};
// Drawing a world's layout; a sparse set on its own.
pub use sparse_core::{Diagram, SparseSet};
// Snapshots (feature `serde`): `Snapshot`; the traits a world implements for it are in
// `traits`.
#[cfg(feature = "serde")]
pub use sparse_core::Snapshot;

/// The traits behind the methods: what a world, a query, a bundle or a tuple of components
/// implements so that a call type-checks. Programs rarely name them (the prelude brings
/// `Edit` and `EditEntities` for generic code); bounds of generic code and error messages
/// do. Each is sealed or implemented by `#[world]` and the run-time [`World`].
pub mod traits {
    // What a group's key and a view ask for and borrow.
    pub use sparse_core::{Filter, GroupKey, Query, ReadOnlyQuery, ViewOf, ViewQuery, ViewRefOf};
    // One entity's components, by type or tuple of types (`insert`, `remove`, `get`, …).
    pub use sparse_core::{Bundle, ComponentShape, Components, GetMut, Lookup, ReadComponents};
    // The parts of a borrow, and what structural changes and storage sorts go through.
    pub use sparse_core::{Borrow, Edit, EditEntities, ReadOnly, Unowned, WorldParts};
    // A world whose parts a schedule's chains take to threads (every world).
    pub use sparse_core::SendParts;
    // A resource a world lends (the run-time `World`: every type), for generic code.
    pub use sparse_core::LendResource;
    // What a schedule's systems are.
    pub use sparse_core::{ParamItem, ParametersApart, System, SystemOf, SystemParam, Systems};
    // Snapshots (feature `serde`).
    #[cfg(feature = "serde")]
    pub use sparse_core::{LoadItem, LoadTypes, SaveItem, SnapshotItem, SnapshotTypes};
}

/// The names a program using worlds needs, for one glob import:
/// `use sparse_groups::prelude::*;` (the macros, the component and storage types, the
/// group key markers `Get` and `Exclude`, view filters, the `Mut` guard, commands and the
/// sync point `ApplyCommands`, messages and their writers and readers,
/// `ValuesMut`, a hook's `HookWorld`, resources and their parts `Res` and `ResMut`, the
/// run-time world and its `GroupSpec`, and the traits generic code names).
pub mod prelude {
    pub use crate::{
        Access, Added, ApplyCommands, Changed, Commands, Component, Edit, EditEntities, Entities,
        Entity, EntityError, Exclude, Get, GroupMut, GroupRef, GroupSpec, HasComponent, HasGroup,
        HasResource, HookWorld, MessageReader, MessageWriter, Messages, Mut, Res, ResMut, Resource,
        Schedule, Storage, Stores, Threads, ValuesMut, View, With, Without, World, world,
    };
}

/// What the code `#[world]` generates calls: not a public API (see `sparse_core`'s).
#[doc(hidden)]
pub use sparse_core::__private;

/// Implements [`Component`](trait@Component) for a type, so that it can be stored in a world.
///
/// [`Component`](trait@Component) is a marker trait without methods: implementing it
/// states that the type's values may be stored in a [`#[world]`](world) or in the run-time
/// [`World`]. It requires `Send + Sync + 'static`, as in bevy_ecs, hecs, sparsey and
/// shipyard, so that every world is `Send + Sync`. The derive works on structs and enums,
/// generic ones included: the impl keeps the type's bounds and `where` clause and adds
/// `Self: Send + Sync + 'static`. It generates nothing else, so derive the traits your code
/// needs beside it (`Clone` for a world with `#[derive(Clone)]`, `Debug` for one with
/// `#[derive(Debug)]`). `impl Component for T {}` by hand is the same thing; a type from
/// another crate needs a newtype.
///
/// ```
/// use sparse_groups::{Component, Storage, world};
///
/// #[derive(Component, Clone, Copy, Debug, PartialEq)]
/// struct Position { x: f32, y: f32 }
///
/// #[derive(Component, Debug, PartialEq)]
/// enum Team { Red, Blue }
///
/// #[derive(Component)]
/// struct Label<T>(T); // a component whenever `T: Send + Sync + 'static`
///
/// #[world]
/// struct Scene {
///     positions: Storage<Position>,
///     teams: Storage<Team>,
///     labels: Storage<Label<&'static str>>,
/// }
///
/// let mut scene = Scene::new();
/// let e = scene.spawn_with((Position { x: 1.0, y: 2.0 }, Team::Red, Label("scout")));
/// assert_eq!(scene.get::<Team>(e), Some(&Team::Red));
/// assert_eq!(scene.get::<Label<&str>>(e).unwrap().0, "scout");
/// ```
///
/// A type that is not `Send + Sync` cannot be a component (keep it outside the world,
/// e.g. in a standalone [`Storage`], which takes any type):
///
/// ```compile_fail,E0277
/// use sparse_groups::Component;
/// use std::rc::Rc;
///
/// #[derive(Component)]
/// struct Shared(Rc<u32>); // error: `Rc<u32>` cannot be sent between threads safely
/// ```
///
/// and a world cannot store a type that does not implement [`Component`](trait@Component):
///
/// ```compile_fail,E0277
/// use sparse_groups::{Storage, world};
///
/// struct NotAComponent;
///
/// #[world]
/// struct Scene {
///     things: Storage<NotAComponent>, // error: `NotAComponent` is not a component
/// }
/// ```
pub use sparse_macros::Component;
/// Declares a world: a struct of `Storage<T>` fields and `#[group(...)]`s, whose group
/// layout is checked at compile time.
///
/// The [front page](crate)'s section on group kinds and the guide's
/// [`#[world]` chapter](guide::world_macro), with every diagnostic and an example of each,
/// are the guide; this is the reference. Every method the attribute generates is
/// listed, with its documentation, on the page of an example world:
/// [`example_generated::Scene`].
///
/// # Grammar
///
/// ```text
/// #[world]                                        // takes no arguments
/// #[derive(Debug, Clone)]                         // optional; below #[world]
/// #[group(A, B)]                                  // any number of groups; below #[world]
/// #[group(A, B, C, get(D), exclude(E))]
/// #[group(get(F, G), exclude(H))]
/// #[on_insert(A, path::to::hook)]                 // user hooks: on_insert, on_replace,
/// #[on_remove(A, path::to::other_hook)]           //   on_remove; one per event and type
/// #[track(A, B)]                                  // change detection on these storages
/// <vis> struct Name {                             // named fields, no generics
///     <attributes> <vis> field: Storage<Type>,    // one storage per component type
///     …
/// }
/// ```
///
/// `#[world]` goes on a struct with named fields, each a `Storage<T>` (spelled with a last
/// path segment `Storage` and one type argument) of a type `T` that implements
/// [`Component`](trait@Component). Enums, unions, tuple and unit structs and generic
/// structs are refused.
/// The struct may be declared in a function body, its types may come through
/// `macro_rules!` (`$t:ty`), and its field names may be raw identifiers.
///
/// A `#[group(...)]` lists, in any order, the types the group **owns**, at most one
/// `get(...)` clause of the types it **observes**, and at most one `exclude(...)` clause of
/// the types it **excludes**, each list at most [`MAX_TUPLE`] (16) types. Its members are
/// the entities having every owned and observed type and none of the excluded ones:
///
/// * **full-owning**, `#[group(A, B)]`: its members are the packed prefix `[0, len)` of
///   the storages of `A` and `B`, aligned, so it is iterated as plain slices;
/// * **partial-owning**, `#[group(A, get(B))]`: the prefix of `A`'s storage, with `B`
///   required and reached by lookup (not reordered);
/// * **with exclusions**, `#[group(A, B, exclude(X))]` (any owning group may have one):
///   the same, minus the entities having an `X`; it iterates as without the exclusion;
/// * **non-owning**, `#[group(get(A, B))]`, `#[group(get(A), exclude(X))]`: a packed entity
///   set of its own, every component by lookup.
///
/// Each group is checked on its own: every type is stored by the world, no type appears
/// twice (in one list or across lists), no type is both required and excluded, a
/// non-owning group observes at least one type, and a group owning a single type observes
/// or excludes something (else the storage is already packed). A group is named by its
/// **key**: its owned types in declaration order, then [`Get`] and [`Exclude`] holding what
/// the clauses list (one type, or a tuple): `group::<(A, B)>()`,
/// `group::<(A, B, C, Get<D>, Exclude<E>)>()`, `group::<(Get<(F, G)>, Exclude<H>)>()`.
///
/// # The nesting rule
///
/// Two groups that own a common type must be **nested**: `H` is nested in `G` when `H`
/// owns every type `G` owns, requires (owns or observes) every type `G` requires, and
/// excludes every type `G` excludes. `H`'s members are then a subset of `G`'s and its
/// prefix sits inside `G`'s in every storage `G` owns, so the groups owning one storage
/// form a chain, and a family of groups may be a tree (`<A,B,C,D>` nested in both `<A,B>`
/// and `<C,D>`). Groups that own no common type are independent, and non-owning groups
/// own nothing: any number of them may observe the same types. Any other layout is a
/// compile error on the offending group, with a fix the rule accepts when there is one;
/// the macro reports every error of a world at once and still emits the world (without
/// group maintenance), so one bad group does not cascade into errors in the code using it.
///
/// # Hooks and change detection
///
/// `#[on_insert(T, f)]` and `#[on_remove(T, f)]` call `f: fn(&mut HookWorld<'_, Name>, Entity)`
/// when a `T` is added or removed, `#[on_replace(T, f)]` calls
/// `f: fn(&mut HookWorld<'_, Name>, Entity, &T)` with the `T` replaced ([`ReplaceHook`]): an
/// insert or replace hook once the entity is in every group it now qualifies for, a remove
/// hook before it leaves any ([`Hook`] states the contract). `#[track(T, …)]` (any number
/// of attributes) keeps change stamps on the storages of its types, for the view filters
/// [`Added`] and [`Changed`], `tick` and `removed` (the [front page](crate#reacting-to-change)'s
/// "Reacting to change"). A
/// type the world does not store, a second hook for one event and type, or a hook with
/// another signature is a compile error on the attribute.
///
/// # Attributes and derives
///
/// `#[group(...)]`, the hook attributes, `#[track(...)]` and `#[derive(...)]` must be
/// written **below** `#[world]` (above it,
/// rustc looks for an attribute named `group` before `#[world]` runs, and a derive runs on
/// the struct as written). Other attributes (doc comments, `#[repr]`, …) may be anywhere
/// and are kept on the struct. Of the derives:
///
/// * `Debug` is implemented by `#[world]`: the storages by field name and each group's
///   length, `Scene { a: {e0v1: A(1)}, b: {…}, groups: {"<A, B>": 1} }`; it needs every
///   component to be `Debug`;
/// * `Clone` is implemented by `#[world]` when every component is `Clone` (a missing
///   `Clone` is reported on the component type);
/// * `Default` is always implemented (an empty world, as [`new`](example_generated::Scene::new)
///   makes), so `#[derive(Default)]` is accepted and changes nothing;
/// * `Copy`, `PartialEq`, `Eq`, `PartialOrd`, `Ord` and `Hash` are refused with an error
///   (a world owns memory, and is not compared or hashed as a whole: compare what its
///   storages hold);
/// * derives `#[world]` does not handle itself are passed through to the struct.
///
/// # Fields
///
/// The struct keeps its name, visibility and attributes, but its fields do not stay
/// fields: it gets one private field holding its storages, whose structure only the
/// generated hooks can change. Each field becomes a **read accessor** of its name,
/// `fn positions(&self) -> &Storage<Position>`, with the field's visibility, attributes
/// and doc comments, so `scene.positions().get(e)` reads, and nothing outside the world's
/// methods can insert or remove behind the groups' back. A field whose accessor would
/// shadow a generated method (`insert`, `check`, `r#check`, …, or a method of a derive
/// the world implements, such as `fmt` with `Debug` or `clone` with `Clone`) is an error,
/// and so is a name starting with `__sparse`.
/// A world stores each component type once.
///
/// **Fields follow `#[cfg]`** like any struct field: a configured-out storage does not
/// exist (its type need not even be a component) and nothing maintains it; alternative
/// fields of one type under exclusive `#[cfg]`s are one storage; a group naming a
/// configured-out type is an error that says so.
///
/// Changing the structure of a storage behind the world's back does not compile:
///
/// ```compile_fail,E0615
/// use sparse_groups::{Component, Storage, world};
/// #[derive(Component)] struct A;
/// #[derive(Component)] struct B;
/// #[world]
/// #[group(A, B)]
/// struct W { a: Storage<A>, b: Storage<B> }
///
/// let mut w = W::new();
/// let e = w.spawn();
/// w.a.insert(e, A); // error: `a` is a read-only accessor method, not a field (use `w.insert`)
/// ```
///
/// # What it generates
///
/// Inherent methods, all with the struct's visibility (their full list, with their
/// documentation, is on [`example_generated::Scene`]): `new`, `spawn`, `spawn_with`,
/// `spawn_batch`, `is_alive`, `entities`, `insert`, `remove`, `destroy`, `get`, `get_mut`,
/// `contains`, `storage`, `values_mut`, `group`, `group_ref`, `group_len`, `sort_group`,
/// `sort_group_by_key`, `sort_group_by_radix_key`, `sort_group_by_entity`, `sort_group_as`,
/// `sort`, `sort_by_key`, `sort_by_radix_key`, `sort_as` (for storages no group owns; they
/// do not compile for an owned one), `view`,
/// `view_ref`, `borrow`, `borrow_ref`, `retain`, `retain_component`, `apply`,
/// `insert_many`, `remove_many`, `destroy_many`, `clear`, `tick`, `removed`, `check`,
/// `diagram`, and the accessors. The trait impls ([`HasComponent`] per stored type, [`HasGroup`] per group,
/// [`Edit`], [`Access`], [`Unowned`] per storage no group owns, …) let code be written
/// against any world: `fn heal<W: HasComponent<Health>>(world: &mut W)`. Everything is
/// resolved statically (no `TypeId`, no dynamic dispatch) and the generated code contains
/// no `unsafe`. Asking for a group the world does not have, borrowing a type twice with
/// one borrow mutable, or sorting an owned storage does not compile.
///
/// # Example
///
/// ```
/// use sparse_groups::{Component, Exclude, Get, Storage, world};
///
/// #[derive(Component, Debug, Clone, Copy, PartialEq)]
/// struct Position { x: f32, y: f32 }
/// #[derive(Component, Debug, Clone, Copy, PartialEq)]
/// struct Velocity { x: f32, y: f32 }
/// #[derive(Component, Debug, Clone, Copy, PartialEq)]
/// struct Mass(f32);
/// #[derive(Component, Debug, Clone, Copy, PartialEq)]
/// struct Health(u32);
/// #[derive(Component, Debug, Clone, Copy)]
/// struct Frozen;
/// #[derive(Component, Debug, Clone)]
/// struct Name(String);
///
/// #[world]
/// #[derive(Debug, Clone)]
/// #[group(Position, Velocity)]                         // full-owning
/// #[group(Position, Velocity, Mass)]                   // full-owning, nested in it
/// #[group(Health, get(Position), exclude(Frozen))]     // partial-owning, with an exclusion
/// #[group(get(Name, Health))]                          // non-owning
/// struct Scene {
///     /// Where things are.
///     positions: Storage<Position>,
///     velocities: Storage<Velocity>,
///     masses: Storage<Mass>,
///     healths: Storage<Health>,
///     frozen: Storage<Frozen>,
///     names: Storage<Name>,
/// }
///
/// let mut scene = Scene::new();
/// // Spawn, then insert one component at a time; or spawn with a bundle.
/// let rock = scene.spawn();
/// scene.insert(rock, Position { x: 0.0, y: 0.0 })?;
/// scene.insert(rock, Velocity { x: 1.0, y: 0.0 })?;
/// scene.insert(rock, Mass(2.0))?; // enters <Position, Velocity>, then <…, Mass>
/// let hero = scene.spawn_with((
///     Position { x: 5.0, y: 5.0 },
///     Velocity { x: 0.0, y: -1.0 },
///     Health(10),
///     Name("hero".to_string()),
/// ));
/// assert_eq!(scene.group_len::<(Position, Velocity)>(), 2);
/// assert_eq!(scene.group_len::<(Position, Velocity, Mass)>(), 1);
///
/// // A full-owning group: aligned slices, members of nested groups first.
/// let (entities, (positions, velocities)) = scene.group::<(Position, Velocity)>().into_slices();
/// assert_eq!(entities, &[rock, hero][..]);
/// for (p, v) in positions.iter_mut().zip(velocities.iter()) {
///     p.x += v.x;
///     p.y += v.y;
/// }
/// // A partial-owning group yields its owned, then its observed components.
/// scene
///     .group::<(Health, Get<Position>, Exclude<Frozen>)>()
///     .for_each(|_, (health, position)| health.0 -= position.y as u32);
/// assert_eq!(scene.get::<Health>(hero), Some(&Health(6)));
/// // A non-owning group, read through `&self`.
/// assert_eq!(scene.group_ref::<Get<(Name, Health)>>().len(), 1);
///
/// // A view joins components no group packs together, driven by the smaller storage.
/// for (_, (p, m)) in scene.view::<(&mut Position, &Mass)>() {
///     p.y -= m.0;
/// }
/// assert_eq!(scene.positions().get(rock), Some(&Position { x: 1.0, y: -2.0 }));
///
/// // Removing a type leaves its groups innermost first; adding an excluded type leaves
/// // the groups excluding it.
/// assert_eq!(scene.remove::<Velocity>(rock), Some(Velocity { x: 1.0, y: 0.0 }));
/// scene.insert(hero, Frozen)?;
/// assert_eq!(scene.group_len::<(Position, Velocity)>(), 1);
/// assert_eq!(scene.group_len::<(Position, Velocity, Mass)>(), 0);
/// assert_eq!(scene.group_len::<(Health, Get<Position>, Exclude<Frozen>)>(), 0);
///
/// // Destroying leaves every group; the stale handle is refused from then on.
/// scene.destroy(hero)?;
/// assert!(!scene.is_alive(hero));
/// assert!(scene.insert(hero, Mass(1.0)).is_err());
///
/// let copy = scene.clone();
/// copy.check()?;
/// scene.check()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Groups that own a common type without being nested are a compile error on the
/// offending group, which suggests a layout the rule accepts:
///
/// ```compile_fail
/// use sparse_groups::{Component, Storage, world};
/// #[derive(Component)] struct Position;
/// #[derive(Component)] struct Velocity;
/// #[derive(Component)] struct Sprite;
///
/// #[world]
/// #[group(Sprite, Position)]
/// #[group(Position, Velocity)] // error: shares `Position` with <Sprite, Position>, not nested
/// struct Scene {
///     sprites: Storage<Sprite>,
///     positions: Storage<Position>,
///     velocities: Storage<Velocity>,
/// }
/// ```
///
/// and so is a derive a world cannot have:
///
/// ```compile_fail
/// use sparse_groups::{Component, Storage, world};
/// #[derive(Component, PartialEq)] struct Position;
///
/// #[world]
/// #[derive(PartialEq)] // error: `#[derive(PartialEq)]` is not supported on a `#[world]`
/// struct Scene { positions: Storage<Position> }
/// ```
pub use sparse_macros::world;

#[doc = concat!(include_str!("rustdoc_links.md"), include_str!("../docs/README.md"))]
#[cfg(any(doc, doctest))]
pub mod guide {
    /// A chapter's text, after the link definitions that send its links to the guide's
    /// pages: a chapter links another as a reference (`[Access model][access.md]`, defined
    /// at its end as `[access.md]: access.md`, which is right on GitHub), and the first
    /// definition of a label is the one markdown uses.
    macro_rules! chapter {
        ($file:literal) => {
            concat!(include_str!("rustdoc_links.md"), include_str!($file))
        };
    }

    #[doc = chapter!("../docs/ordering.md")]
    pub mod ordering {}
    #[doc = chapter!("../docs/world-macro.md")]
    pub mod world_macro {}
    #[doc = chapter!("../docs/access.md")]
    pub mod access {}
    #[doc = chapter!("../docs/systems.md")]
    pub mod systems {}
    #[doc = chapter!("../docs/soundness.md")]
    pub mod soundness {}
    #[doc = chapter!("../docs/runtime.md")]
    pub mod runtime {}
    #[doc = chapter!("../docs/features.md")]
    pub mod features {}
    #[doc = chapter!("../docs/not-supported.md")]
    pub mod not_supported {}
    #[doc = chapter!("../docs/performance.md")]
    pub mod performance {}
    #[doc = chapter!("../docs/layout.md")]
    pub mod layout {}
    #[doc = chapter!("../CHANGELOG.md")]
    pub mod changelog {}
}
