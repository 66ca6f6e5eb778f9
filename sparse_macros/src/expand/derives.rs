//! The impls of the derives a world implements itself (sorted by `derive_list.rs`):
//! `Debug` (the storages by field name and the groups' lengths), `Clone` (when every
//! component is `Clone`), serde's `Serialize` and `Deserialize` (with the facade's `serde`
//! feature: a snapshot keeping entity ids and group order).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::Cx;
use crate::derive_list::Requested;

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
    let serde = serde(cx);
    quote!(#debug #clone #serde)
}

/// `Serialize` and `Deserialize`, through the storages' snapshot methods, wrapped so that
/// without the facade's `serde` feature they are one clear error at the derive.
fn serde(cx: &Cx<'_>) -> TokenStream {
    let Requested {
        serialize,
        deserialize,
        ..
    } = &cx.model.derives;
    if serialize.is_none() && deserialize.is_none() {
        return TokenStream::new();
    }
    let ident = cx.ident();
    let name = ident.to_string();
    let serde = quote!(__sg::__private::serde);
    // The trait paths carry the component's (or resource's) span, so that a type missing
    // the trait is reported at its field.
    let bounds = |bound: TokenStream| {
        let resources = (0..cx.model.resources.len()).map(|j| {
            let ty = cx.resource_type(j);
            let bound = respan(bound.clone(), ty.span());
            quote_spanned!(ty.span()=> #ty: #bound)
        });
        (0..cx.model.storages.len())
            .map(|i| {
                let ty = cx.storage_type(i);
                let bound = respan(bound.clone(), cx.component_span(i));
                quote_spanned!(cx.component_span(i)=> #ty: #bound)
            })
            .chain(resources)
            .collect::<Vec<_>>()
    };
    let serialize_impl = serialize.as_ref().map(|_| {
        let bounds = bounds(quote!(#serde::Serialize));
        quote! {
            #[automatically_derived]
            impl #serde::Serialize for #ident
            where
                #(#bounds,)*
            {
                fn serialize<__S: #serde::Serializer>(
                    &self,
                    serializer: __S,
                ) -> ::core::result::Result<__S::Ok, __S::Error> {
                    self.__sparse.serialize_world(serializer, #name)
                }
            }
        }
    });
    let deserialize_impl = deserialize.as_ref().map(|_| {
        let bounds = bounds(quote!(#serde::Deserialize<'de>));
        quote! {
            #[automatically_derived]
            impl<'de> #serde::Deserialize<'de> for #ident
            where
                #(#bounds,)*
            {
                fn deserialize<__D: #serde::Deserializer<'de>>(
                    deserializer: __D,
                ) -> ::core::result::Result<Self, __D::Error> {
                    let mut world = Self::new();
                    world.__sparse.deserialize_world(&__sparse::KEY, deserializer, #name)?;
                    ::core::result::Result::Ok(world)
                }
            }
        }
    });
    let span = serialize
        .as_ref()
        .or(deserialize.as_ref())
        .map_or_else(proc_macro2::Span::call_site, syn::spanned::Spanned::span);
    // The invocation starts at the derive: without the feature, its error points there.
    let krate = respan(quote!(__sg), span);
    quote_spanned! {span=>
        #krate::__private::with_serde! {
            #serialize_impl
            #deserialize_impl
        }
    }
}

/// `tokens` with every span set to `span` (delimiters included, contents too).
fn respan(tokens: TokenStream, span: proc_macro2::Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut token| {
            if let proc_macro2::TokenTree::Group(group) = &token {
                let mut inner =
                    proc_macro2::Group::new(group.delimiter(), respan(group.stream(), span));
                inner.set_span(span);
                return proc_macro2::TokenTree::Group(inner);
            }
            token.set_span(span);
            token
        })
        .collect()
}
