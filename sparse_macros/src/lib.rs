//! Procedural macros of the `sparse` crate. Use them through `sparse`:
//! `#[sparse::world]` declares a world whose groups are checked at compile time, and
//! `#[derive(sparse::Component)]` marks a component type.

mod ast;
mod attr;
mod component;
mod expand;
mod valid;

use proc_macro::TokenStream;

/// Declares a world: see the `sparse` crate's documentation.
#[proc_macro_attribute]
pub fn world(args: TokenStream, input: TokenStream) -> TokenStream {
    expand::world(args.into(), input.into()).into()
}

/// Implements `sparse::Component` for a type.
#[proc_macro_derive(Component)]
pub fn derive_component(input: TokenStream) -> TokenStream {
    component::derive(input.into()).into()
}
