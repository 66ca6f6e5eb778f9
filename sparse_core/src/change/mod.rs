//! Structural change: everything that adds or removes components or entities, in the
//! order it happens.
//!
//! ```text
//!  world.insert / Bundle / Commands      what is asked      edit.rs, bundle.rs,
//!              │                                              components.rs, commands.rs
//!              ▼
//!  user hooks (on_add, on_insert, …)     what the user runs  hooks.rs
//!              │
//!              ▼
//!  steps of the group plan               what keeps groups   steps.rs (the sequence),
//!  (enter outermost first,               packed              group/engine.rs (each step)
//!   leave innermost first)
//! ```
//!
//! "Hook" means a user hook only; the group maintenance a change triggers is its *steps*,
//! the order of which a world's *plan* gives (`group::Layout`).

pub(crate) mod bundle;
mod commands;
mod components;
mod edit;
pub(crate) mod hooks;
pub(crate) mod steps;
mod stores;

pub use bundle::Bundle;
pub use commands::{Applied, Commands, Skipped};
pub use components::{ComponentShape, Components, GetMut, Lookup, ReadComponents};
pub use edit::{Edit, EditEntities, InsertManyError};
pub use hooks::{Hook, HookError, HookEvent, HookWorld, MAX_CASCADE, ReplaceHook};
pub use stores::{StoreComponents, Stores};
