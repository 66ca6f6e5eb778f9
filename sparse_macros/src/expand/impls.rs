//! The trait impls of a world: one `HasComponent` (and `Unowned` if no group owns it) per
//! stored type, one `HasGroup` per group, and `WorldEntities`. Each forwards to the
//! storages module; impls are spanned at the type or group they are about, so that a
//! problem with one (a type that is not a component) is reported there.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::Cx;

pub(super) fn emit(cx: &Cx<'_>) -> TokenStream {
    let components = (0..cx.model.storages.len()).map(|i| component(cx, i));
    let groups = (0..cx.plan.groups.len()).map(|g| group(cx, g));
    let ident = cx.ident();
    let columns = (0..cx.model.storages.len()).map(|i| {
        let ty = cx.storage_type(i);
        quote!(::core::option::Option<__sg::__private::Column<'a, #ty>>)
    });
    quote! {
        #(#components)*
        #(#groups)*

        #[automatically_derived]
        impl __sg::__private::WorldColumns for #ident {
            type Columns<'a> = (#(#columns,)*) where Self: 'a;

            #[inline]
            fn columns(&mut self) -> Self::Columns<'_> {
                self.__sparse.columns()
            }
        }

        #[automatically_derived]
        impl __sg::__private::WorldEntities for #ident {
            #[inline]
            fn spawn_entity(&mut self) -> __sg::Entity {
                self.__sparse.spawn()
            }

            #[inline]
            fn reserve_entities(&mut self, additional: usize) {
                self.__sparse.reserve_entities(additional);
            }

            #[inline]
            fn enter_all_groups(&mut self, entity: __sg::Entity) {
                self.__sparse.enter_all(entity);
            }
        }
    }
}

fn component(cx: &Cx<'_>, i: usize) -> TokenStream {
    let ident = cx.ident();
    let (cfg, ty) = (cx.cfg_storage(i), cx.component(i));
    let [
        storage,
        get_mut,
        components_mut,
        insert,
        remove,
        reserve,
        append,
        sort,
    ] = Cx::storage_methods(i);
    let index = syn::Index::from(i);
    let span = cx.component_span(i);
    let unowned = cx.plan.storages[i].sortable.then(|| {
        quote_spanned! {span=>
            #cfg
            #[automatically_derived]
            impl __sg::Unowned<#ty> for #ident {
                fn sort(&mut self, compare: impl FnMut(&#ty, &#ty) -> ::core::cmp::Ordering) {
                    self.__sparse.#sort(compare);
                }
            }
        }
    });
    quote_spanned! {span=>
        #cfg
        #[automatically_derived]
        impl __sg::HasComponent<#ty> for #ident {
            #[inline]
            fn storage(&self) -> &__sg::Storage<#ty> {
                self.__sparse.#storage()
            }

            #[inline]
            fn get_mut(&mut self, entity: __sg::Entity) -> ::core::option::Option<&mut #ty> {
                self.__sparse.#get_mut(entity)
            }

            #[inline]
            fn components_mut(&mut self) -> (&[__sg::Entity], &mut [#ty]) {
                self.__sparse.#components_mut()
            }

            #[inline]
            fn insert(&mut self, entity: __sg::Entity, value: #ty) -> ::core::result::Result<::core::option::Option<#ty>, __sg::EntityError> {
                self.__sparse.#insert(entity, value)
            }

            #[inline]
            fn remove(&mut self, entity: __sg::Entity) -> ::core::option::Option<#ty> {
                self.__sparse.#remove(entity)
            }

            fn reserve(&mut self, additional: usize) {
                self.__sparse.#reserve(additional);
            }

            #[inline]
            fn append_new(
                &mut self,
                token: __sg::__private::Token,
                entities: &[__sg::Entity],
                values: &mut ::std::vec::Vec<#ty>,
            ) {
                self.__sparse.#append(token, entities, values);
            }

            #[inline]
            fn take_column<'a>(
                columns: &mut <Self as __sg::__private::WorldColumns>::Columns<'a>,
            ) -> ::core::option::Option<__sg::__private::Column<'a, #ty>>
            where
                Self: 'a,
            {
                columns.#index.take()
            }
        }

        #unowned
    }
}

fn group(cx: &Cx<'_>, g: usize) -> TokenStream {
    let ident = cx.ident();
    let (cfg, tuple) = (cx.cfg_group(g), cx.group_tuple(g));
    let [group, group_len, sort_group] = Cx::group_methods(g);
    let span = cx.group_span(g);
    quote_spanned! {span=>
        #cfg
        #[automatically_derived]
        impl __sg::HasGroup<#tuple> for #ident {
            #[inline]
            fn group(&mut self) -> __sg::GroupMut<'_, #tuple> {
                self.__sparse.#group()
            }

            #[inline]
            fn group_len(&self) -> usize {
                self.__sparse.#group_len()
            }

            fn sort_group(
                &mut self,
                compare: impl FnMut(
                    <#tuple as __sg::GroupKey>::Item<'_>,
                    <#tuple as __sg::GroupKey>::Item<'_>,
                ) -> ::core::cmp::Ordering,
            ) {
                self.__sparse.#sort_group(compare);
            }
        }
    }
}
