//! Access to a world's components, checked at compile time.
//!
//! | access | through | gives | may change |
//! | --- | --- | --- | --- |
//! | `group::<K>()` | `&mut` | [`GroupMut`](crate::GroupMut) | values of its types |
//! | `group_ref::<K>()` | `&` | [`GroupRef`](crate::GroupRef) | nothing |
//! | `view::<Q>()` | `&mut` | [`View<Q>`](View) | values of `Q`'s `&mut` types |
//! | `view_ref::<Q>()` | `&` | [`View<Q>`](View), `Q` read-only | nothing |
//! | `borrow::<(P1, P2, …)>()` | `&mut` | the parts, at once ([`Borrow`]) | values, as each part says |
//! | `borrow_ref::<(P1, P2, …)>()` | `&` | read-only parts at once | nothing |
//! | `apply(&mut Commands)` | `&mut` | [`Applied`] | structure, as the world's change methods |
//!
//! What the compiler checks: a view or borrow names only stored types and declared
//! groups; it writes each type at most once and never reads a type it writes; read-only
//! access asks for nothing mutable; no part can insert or remove (the structure changes
//! only through the world's methods, or [`Commands`] applied afterwards). None of this
//! costs anything at run time: there is no borrow flag.

mod borrow;
pub(crate) mod driver;
mod filter;
mod lend_group;
mod mut_guard;
pub(crate) mod query;
mod values;
mod view;
mod view_query;

pub use borrow::{Borrow, ReadOnly};
pub use filter::{Added, Changed, Filter, FilterOf, With, Without};
pub use lend_group::LendGroup;
pub use mut_guard::Mut;
pub(crate) use query::cat;
pub use query::{Query, QueryOf, ReadOnlyQuery};
pub use values::ValuesMut;
pub use view::{View, ViewIter};
pub use view_query::{ViewOf, ViewQuery, ViewRefOf};
