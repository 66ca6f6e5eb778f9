//! Sparse-set component storage with **nested owning groups** whose layout is checked by
//! the compiler.
//!
//! Declare components with `#[derive(Component)]` and a world with `#[world]` plus one
//! `#[group(...)]` per group. Groups that share a component must be nested (one's types a
//! superset of the other's); the macro rejects every other layout at compile time with an
//! error on the offending group, and generates straight-line hooks that keep every group
//! packed as components come and go:
//!
//! * adding a component tests-and-enters the groups owning it from the outermost (fewest
//!   types, most entities) to the innermost;
//! * removing one tests-and-leaves them from the innermost to the outermost;
//! * destroying an entity leaves all its groups innermost first, then drops its components.
//!
//! ```
//! use sparse_groups::{Component, Storage, world};
//!
//! #[derive(Component)] struct Sprite(u32);
//! #[derive(Component)] struct Renderable;
//! #[derive(Component)] struct Position { x: f32, y: f32 }
//! #[derive(Component)] struct Velocity { x: f32, y: f32 }
//!
//! #[world]
//! #[group(Sprite, Renderable, Position)] // any declaration order
//! #[group(Sprite, Renderable)]
//! struct Scene {
//!     sprites: Storage<Sprite>,
//!     renderables: Storage<Renderable>,
//!     positions: Storage<Position>,
//!     velocities: Storage<Velocity>,
//! }
//!
//! let mut scene = Scene::new();
//! let e = scene.spawn();
//! scene.insert(e, Sprite(7))?;
//! scene.insert(e, Renderable)?;
//! scene.insert(e, Position { x: 1.0, y: 2.0 })?;
//! scene.insert(e, Velocity { x: 0.5, y: 0.0 })?;
//!
//! // A group is aligned plain slices: no lookups, no branches.
//! let (entities, (sprites, _, positions)) = scene.group::<(Sprite, Renderable, Position)>().into_slices();
//! assert_eq!((entities, sprites[0].0, positions[0].y), (&[e][..], 7, 2.0));
//!
//! // Components no group packs together are joined by a view.
//! for (_, (p, v)) in scene.view::<(&mut Position, &Velocity)>() {
//!     p.x += v.x;
//! }
//! assert_eq!(scene.get::<Position>(e).unwrap().x, 1.5);
//!
//! scene.remove::<Renderable>(e); // leaves <Sprite,Renderable,Position>, then <Sprite,Renderable>
//! assert_eq!(scene.group_len::<(Sprite, Renderable)>(), 0);
//! scene.check()?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Groups that overlap without nesting are compile errors:
//!
//! ```compile_fail
//! use sparse_groups::{Component, Storage, world};
//! #[derive(Component)] struct A;
//! #[derive(Component)] struct B;
//! #[derive(Component)] struct C;
//!
//! #[world]
//! #[group(A, B)]
//! #[group(A, C)] // error: group <A, C> shares `A` with group <A, B>, but neither contains the other
//! struct Broken { a: Storage<A>, b: Storage<B>, c: Storage<C> }
//! ```
//!
//! So is changing the structure of a storage behind the world's back:
//!
//! ```compile_fail,E0615
//! use sparse_groups::{Component, Storage, world};
//! #[derive(Component)] struct A;
//! #[derive(Component)] struct B;
//! #[world]
//! #[group(A, B)]
//! struct W { a: Storage<A>, b: Storage<B> }
//!
//! let mut w = W::new();
//! let e = w.spawn();
//! w.a.insert(e, A); // error: `a` is a read-only accessor method, not a field (use `w.insert`)
//! ```
//!
//! Worlds whose groups are only known at run time use [`World`] with
//! [`GroupSpec`]s, validated by the same [`Layout`] code and maintained by the same
//! engine.

extern crate self as sparse_groups;

pub use sparse_core::*;
/// Implements [`Component`] for a type.
pub use sparse_macros::Component;
/// Declares a world of `Storage<T>` fields and `#[group(...)]`s, checked at compile time.
///
/// See the [crate documentation](crate) and the README for the generated API and every
/// diagnostic.
pub use sparse_macros::world;
