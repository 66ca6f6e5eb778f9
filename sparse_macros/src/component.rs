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
    // A generic type is a component for the parameters that make it `Send + Sync +
    // 'static`. A type without parameters is one unconditionally: if it is not `Send`,
    // rustc says so once, here, instead of at every use of an impl that does not apply.
    let thread_safe = (!input.generics.params.is_empty())
        .then(|| quote!(Self: ::core::marker::Send + ::core::marker::Sync + 'static,));
    quote! {
        #[automatically_derived]
        impl #impl_generics #krate::Component for #ident #type_generics
        where
            #(#predicates,)*
            #thread_safe
        {
        }
    }
}
