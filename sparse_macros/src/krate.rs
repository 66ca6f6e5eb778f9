//! Where the facade crate is: generated code must find it under whatever name the user's
//! `Cargo.toml` gives the dependency (`sparse = { package = "sparse_groups", … }`).

use proc_macro_crate::{FoundCrate, crate_name};
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Ident;

/// The facade's package name.
const FACADE: &str = "sparse_groups";

/// The path of the facade, e.g. `::sparse_groups` or `::sparse` for a renamed dependency:
/// what code next to the user's struct names (inherent methods). Inside the facade itself
/// (its doctests and examples) the crate declares `extern crate self as sparse_groups`,
/// so `::sparse_groups` works there too; so it does when the manifest cannot be read
/// (then [`alias`] fails the build).
pub(crate) fn path() -> TokenStream {
    match crate_name(FACADE) {
        Ok(FoundCrate::Name(name)) => {
            let ident = Ident::new(&name, Span::call_site());
            quote!(::#ident)
        }
        Ok(FoundCrate::Itself) | Err(_) => {
            let ident = Ident::new(FACADE, Span::call_site());
            quote!(::#ident)
        }
    }
}

/// The item that names the facade `__sg` inside the expansion: `use <path> as __sg;`.
///
/// Generated code has to call the facade by a path the user's crate resolves, like any
/// proc macro's: a crate that shadows its own `sparse_groups` dependency (`extern crate
/// self as sparse_groups`, or a dependency of that name re-exporting a modified facade)
/// decides what that code calls, and could take the world's key there. An `extern crate`
/// item would load the dependency the manifest names whatever the user's crate calls
/// `sparse_groups`, but rustc then prints every type of the facade, in every diagnostic
/// of the crate, by that item's path (`_::__sg::Component`): the key guards a world's
/// integrity against mistakes and safe code written against the facade, not against a
/// crate that replaces the facade itself (memory safety does not rest on it).
pub(crate) fn alias() -> TokenStream {
    let path = path();
    quote!(use #path as __sg;)
}
