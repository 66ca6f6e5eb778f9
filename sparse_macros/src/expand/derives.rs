//! The derives a world implements itself: `Debug` (the storages by field name and the
//! groups' lengths) and `Clone` (when every component is `Clone`); `Default` always
//! exists. Derives that cannot mean anything for a world are refused; others pass
//! through to the struct.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::{Error, Path};

use super::Cx;

/// Which derives `#[world]` implements for this world.
#[derive(Default)]
pub(crate) struct Requested {
    pub debug: bool,
    pub clone: bool,
}

fn name(path: &Path) -> String {
    path.segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}

/// Sorts the derives into those `#[world]` implements, those it refuses (an error each)
/// and those passed through.
pub(crate) fn classify<'a>(
    derives: &'a [Path],
    errors: &mut Vec<Error>,
) -> (Requested, Vec<&'a Path>) {
    let mut requested = Requested::default();
    let mut passthrough = Vec::new();
    for path in derives {
        let why = match name(path).as_str() {
            "Debug" => {
                requested.debug = true;
                continue;
            }
            "Clone" => {
                requested.clone = true;
                continue;
            }
            // A world always implements `Default` (an empty world).
            "Default" => continue,
            "Copy" => "a world owns its storages' memory, so it cannot be `Copy`; derive `Clone`",
            "PartialEq" | "Eq" | "PartialOrd" | "Ord" | "Hash" => {
                "a world is not compared or hashed as a whole; compare what its storages hold \
                 (`world.storage::<T>()`)"
            }
            _ => {
                passthrough.push(path);
                continue;
            }
        };
        errors.push(Error::new_spanned(
            path,
            format!(
                "`#[derive({})]` is not supported on a `#[world]`: {why}",
                name(path)
            ),
        ));
    }
    (requested, passthrough)
}

/// Whether an accessor named `field` would shadow the method of a derive.
pub(crate) fn shadows(derives: &[Path], field: &str) -> bool {
    derives.iter().any(|path| {
        matches!(
            (name(path).as_str(), field),
            ("Debug", "fmt") | ("Clone", "clone" | "clone_from")
        )
    })
}

/// The `Debug` and `Clone` impls asked for. Their bounds name each component type at its
/// field, so that a component missing the trait is reported there.
pub(super) fn emit(cx: &Cx<'_>) -> TokenStream {
    let ident = cx.ident();
    let bounds = |bound: TokenStream| {
        (0..cx.model.storages.len())
            .map(|i| {
                let ty = cx.storage_type(i);
                quote_spanned!(cx.component_span(i)=> #ty: #bound)
            })
            .collect::<Vec<_>>()
    };
    let debug = cx.model.derives.debug.then(|| {
        let bounds = bounds(quote!(::core::fmt::Debug));
        let name = ident.to_string();
        quote! {
            #[automatically_derived]
            impl ::core::fmt::Debug for #ident
            where
                #(#bounds,)*
            {
                fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                    self.__sparse.debug(f, #name)
                }
            }
        }
    });
    let clone = cx.model.derives.clone.then(|| {
        let bounds = bounds(quote!(::core::clone::Clone));
        quote! {
            #[automatically_derived]
            impl ::core::clone::Clone for #ident
            where
                #(#bounds,)*
            {
                fn clone(&self) -> Self {
                    Self { __sparse: ::core::clone::Clone::clone(&self.__sparse) }
                }
            }
        }
    });
    quote!(#debug #clone)
}
