//! Where the facade crate is: generated code must find it under whatever name the user's
//! `Cargo.toml` gives the dependency (`sparse = { package = "sparse_groups", … }`).

use proc_macro_crate::{FoundCrate, crate_name};
use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Ident;

/// The facade's package name.
const FACADE: &str = "sparse_groups";

/// The path of the facade, e.g. `::sparse_groups` or `::sparse` for a renamed dependency.
/// Inside the facade itself (its doctests and examples) the crate declares
/// `extern crate self as sparse_groups`, so `::sparse_groups` works there too; so it does
/// when the manifest cannot be read.
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
