//! `#[derive(Component)]`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;

pub(crate) fn derive(input: TokenStream) -> TokenStream {
    let input: DeriveInput = match syn::parse2(input) {
        Ok(input) => input,
        Err(error) => return error.into_compile_error(),
    };
    let krate = crate::krate::path();
    let ident = &input.ident;
    let (impl_generics, type_generics, where_clause) = input.generics.split_for_impl();
    let predicates = where_clause.into_iter().flat_map(|w| &w.predicates);
    quote! {
        #[automatically_derived]
        impl #impl_generics #krate::Component for #ident #type_generics
        where
            #(#predicates,)*
            Self: ::core::marker::Send + ::core::marker::Sync + 'static,
        {
        }
    }
}
