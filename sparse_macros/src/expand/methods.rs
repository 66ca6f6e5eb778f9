//! The world's inherent methods, one emitting function each, named as the method (the
//! list is `method_names.rs`'s, which `valid.rs` also reads). They are emitted next to the
//! struct (not in the anonymous const), so that diagnostics name them `Scene::insert`, and
//! they only call the world's traits and its storages' methods. Their documentation is
//! `sparse_core`'s table, which the run-time `World` and the world traits expand too.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use sparse_core::__private::method_doc;

use super::Cx;
use crate::method_names::with_generated_methods;

/// Lists the emitting functions named by `with_generated_methods!`.
macro_rules! emitters {
    ($($method:ident)*) => {
        &[$($method),*]
    };
}

/// What emits each method `#[world]` generates, in the order of their list.
const EMITTERS: &[fn(&Cx<'_>) -> TokenStream] = with_generated_methods!(emitters);

/// Every method, then one read accessor per storage field.
pub(super) fn emit(cx: &Cx<'_>) -> TokenStream {
    let methods = EMITTERS.iter().map(|emit| emit(cx));
    let ident = cx.ident();
    let accessors = cx
        .model
        .storages
        .iter()
        .enumerate()
        .flat_map(|(i, s)| {
            s.fields
                .iter()
                .map(move |&(field, accessor)| (i, s, field, accessor))
        })
        .filter(|&(.., accessor)| accessor)
        .map(|(i, s, field, _)| {
            let (attrs, vis, name) = (&field.attrs, &field.vis, &field.ident);
            // The field's type as written: a `Storage` that is not this crate's is a type
            // error here, and the user's imports are used.
            let (cfg, ty) = (super::field_cfg(field), &field.ty);
            let storage = &Cx::storage_methods(i).storage;
            let doc = format!("The storage of `{}`, read only.", s.component.key);
            quote! {
                #cfg
                #[automatically_derived]
                impl #ident {
                    #(#attrs)*
                    #[doc = #doc]
                    #[inline]
                    #vis fn #name(&self) -> &#ty {
                        self.__sparse.#storage()
                    }
                }
            }
        });
    let resource_accessors = cx
        .model
        .resources
        .iter()
        .enumerate()
        .filter(|(_, r)| r.accessor)
        .map(|(j, r)| {
            let (attrs, vis, name) = (&r.field.attrs, &r.field.vis, &r.field.ident);
            let ty = &r.resource.ty;
            let shared = &Cx::resource_methods(j)[0];
            let doc = format!("The resource `{}`, read only.", r.resource.key);
            quote! {
                #[automatically_derived]
                impl #ident {
                    #(#attrs)*
                    #[doc = #doc]
                    #[inline]
                    #vis fn #name(&self) -> &#ty {
                        self.__sparse.#shared()
                    }
                }
            }
        });
    quote!(#(#methods)* #(#accessors)* #(#resource_accessors)*)
}

/// A method's documentation: the text it shares with the run-time `World`, then what only
/// a `#[world]` has (a misuse that does not compile), both from `sparse_core`'s table.
fn doc(shared: &str, only_static: Option<&str>) -> TokenStream {
    let only_static = only_static.map(|text| quote!(#[doc = ""] #[doc = #text]));
    quote!(#[doc = #shared] #only_static)
}

/// One method in an inherent impl of the world.
fn inherent(cx: &Cx<'_>, method: TokenStream) -> TokenStream {
    let ident = cx.ident();
    quote! {
        #[automatically_derived]
        impl #ident {
            #method
        }
    }
}

fn new(cx: &Cx<'_>) -> TokenStream {
    let vis = cx.vis();
    let doc = format!(
        "Creates an empty `{}`: every storage is empty and every group has length zero; each resource is its type's `Default` value.",
        cx.ident()
    );
    let new = storages_new(cx);
    inherent(
        cx,
        quote! {
            #[doc = #doc]
            #[must_use]
            #vis fn new() -> Self {
                #new
            }
        },
    )
}

fn default(cx: &Cx<'_>) -> TokenStream {
    let ident = cx.ident();
    let new = storages_new(cx);
    quote! {
        #[automatically_derived]
        impl ::core::default::Default for #ident {
            fn default() -> Self {
                #new
            }
        }
    }
}

/// A new world: its storages' `new`, given each resource's `Default`, called at the
/// resource's type (where an error about it points). Written out in `new` and `default`
/// alike, so that a world declared twice by mistake gets no ambiguity error from here.
fn storages_new(cx: &Cx<'_>) -> TokenStream {
    let (krate, id) = (&cx.krate, cx.id);
    let resources = (0..cx.model.resources.len()).map(|j| {
        let alias = cx.resource_type(j);
        quote_spanned!(alias.span()=> <#alias as ::core::default::Default>::default())
    });
    quote!(Self { __sparse: <<Self as #krate::__private::WorldStorages<#id>>::Storages>::new(#(#resources),*) })
}

fn spawn(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(spawn), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn spawn(&mut self) -> #krate::Entity {
                self.__sparse.spawn()
            }
        },
    )
}

fn spawn_with(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(
        method_doc!(spawn_with),
        Some(method_doc!(static spawn_with)),
    );
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn spawn_with<B: #krate::Bundle<Self>>(&mut self, bundle: B) -> #krate::Entity {
                <Self as #krate::EditEntities>::spawn_with(self, bundle)
            }
        },
    )
}

fn spawn_batch(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(spawn_batch), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn spawn_batch<B: #krate::Bundle<Self>>(
                &mut self,
                bundles: impl ::core::iter::IntoIterator<Item = B>,
            ) -> ::std::vec::Vec<#krate::Entity> {
                <Self as #krate::EditEntities>::spawn_batch(self, bundles)
            }
        },
    )
}

fn is_alive(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(is_alive), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn is_alive(&self, entity: #krate::Entity) -> bool {
                self.__sparse.entities().is_alive(entity)
            }
        },
    )
}

fn entities(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(entities), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn entities(&self) -> &#krate::Entities {
                self.__sparse.entities()
            }
        },
    )
}

fn insert(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(insert), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn insert<C: #krate::Components<Self>>(
                &mut self,
                entity: #krate::Entity,
                components: C,
            ) -> ::core::result::Result<C::Previous, #krate::EntityError> {
                C::insert(components, self, entity)
            }
        },
    )
}

fn remove(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(remove), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn remove<C: #krate::Components<Self>>(&mut self, entity: #krate::Entity) -> C::Previous {
                C::remove(self, entity)
            }
        },
    )
}

/// bevy's and hecs' name for `destroy`, deprecated from the start: a user who calls it gets
/// a warning naming `destroy`, where rustc would otherwise suggest `spawn`.
fn despawn(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(despawn), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[doc(hidden)]
            #[deprecated(note = "this crate calls it `destroy`: `world.destroy(entity)`")]
            #[inline]
            #vis fn despawn(&mut self, entity: #krate::Entity) -> ::core::result::Result<(), #krate::EntityError> {
                <Self as #krate::EditEntities>::destroy(self, entity)
            }
        },
    )
}

fn destroy(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(destroy), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[doc(alias = "despawn")]
            #[inline]
            #vis fn destroy(&mut self, entity: #krate::Entity) -> ::core::result::Result<(), #krate::EntityError> {
                <Self as #krate::EditEntities>::destroy(self, entity)
            }
        },
    )
}

fn get(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(get), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn get<C: #krate::ReadComponents<Self>>(&self, entity: #krate::Entity) -> ::core::option::Option<C::Refs<'_>> {
                C::get(self, entity)
            }
        },
    )
}

fn get_mut(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(get_mut), Some(method_doc!(static get_mut)));
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn get_mut<'w, G: #krate::GetMut<'w, Self>>(&'w mut self, entity: #krate::Entity) -> ::core::option::Option<G::Item> {
                G::get_mut(self, entity)
            }
        },
    )
}

fn contains(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(contains), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn contains<C: #krate::ReadComponents<Self>>(&self, entity: #krate::Entity) -> bool {
                C::contains(self, entity)
            }
        },
    )
}

fn storage(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(storage), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn storage<T: #krate::Component>(&self) -> &#krate::Storage<T>
            where
                Self: #krate::HasComponent<T>,
            {
                <Self as #krate::HasComponent<T>>::storage(self)
            }
        },
    )
}

fn resource(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(resource), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn resource<R>(&self) -> &R
            where
                Self: #krate::HasResource<R>,
            {
                <Self as #krate::HasResource<R>>::resource(self)
            }
        },
    )
}

fn resource_mut(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(resource_mut), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn resource_mut<R>(&mut self) -> &mut R
            where
                Self: #krate::HasResource<R>,
            {
                <Self as #krate::HasResource<R>>::resource_mut(self)
            }
        },
    )
}

fn tick(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(tick), Some(method_doc!(static tick)));
    let vis = cx.vis();
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn tick(&mut self) {
                self.__sparse.tick();
            }
        },
    )
}

fn removed(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(removed), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn removed<T: #krate::Component>(&self) -> &[#krate::Entity]
            where
                Self: #krate::__private::TrackChanges<T> + #krate::HasComponent<T>,
            {
                <Self as #krate::HasComponent<T>>::storage(self).removed()
            }
        },
    )
}

fn values_mut(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(values_mut), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn values_mut<T: #krate::Component>(&mut self) -> #krate::ValuesMut<'_, T>
            where
                Self: #krate::HasComponent<T>,
            {
                <Self as #krate::HasComponent<T>>::values_mut(self)
            }
        },
    )
}

fn group(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(group), Some(method_doc!(static group)));
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn group<K: #krate::GroupKey>(&mut self) -> #krate::GroupMut<'_, K>
            where
                Self: #krate::HasGroup<K>,
            {
                <Self as #krate::HasGroup<K>>::group(self)
            }
        },
    )
}

fn group_ref(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(group_ref), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn group_ref<K: #krate::GroupKey>(&self) -> #krate::GroupRef<'_, K>
            where
                Self: #krate::HasGroup<K>,
            {
                <Self as #krate::HasGroup<K>>::group_ref(self)
            }
        },
    )
}

fn group_len(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(group_len), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn group_len<K: #krate::GroupKey>(&self) -> usize
            where
                Self: #krate::HasGroup<K>,
            {
                <Self as #krate::HasGroup<K>>::group_len(self)
            }
        },
    )
}

fn sort_group(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(sort_group), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn sort_group<K: #krate::GroupKey>(
                &mut self,
                compare: impl FnMut(K::Item<'_>, K::Item<'_>) -> ::core::cmp::Ordering,
            ) where
                Self: #krate::HasGroup<K>,
            {
                <Self as #krate::HasGroup<K>>::sort_group(self, compare);
            }
        },
    )
}

fn sort_group_by_key(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(sort_group_by_key), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn sort_group_by_key<K: #krate::GroupKey, Key: #krate::OrdKey>(
                &mut self,
                key: impl FnMut(K::Item<'_>) -> Key,
            ) where
                Self: #krate::HasGroup<K>,
            {
                <Self as #krate::HasGroup<K>>::sort_group_by_key(self, key);
            }
        },
    )
}

fn sort_group_by_entity(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(sort_group_by_entity), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn sort_group_by_entity<K: #krate::GroupKey>(&mut self)
            where
                Self: #krate::HasGroup<K>,
            {
                <Self as #krate::HasGroup<K>>::sort_group_by_entity(self);
            }
        },
    )
}

fn sort_group_as(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(sort_group_as), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn sort_group_as<K: #krate::GroupKey, T: #krate::Component>(&mut self)
            where
                Self: #krate::HasGroup<K> + #krate::HasComponent<T>,
            {
                <Self as #krate::HasGroup<K>>::sort_group_as::<T>(self);
            }
        },
    )
}

fn sort_group_by_radix_key(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(sort_group_by_radix_key), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn sort_group_by_radix_key<K: #krate::GroupKey, Key: #krate::RadixKey>(
                &mut self,
                key: impl FnMut(K::Item<'_>) -> Key,
            ) where
                Self: #krate::HasGroup<K>,
            {
                <Self as #krate::HasGroup<K>>::sort_group_by_radix_key(self, key);
            }
        },
    )
}

fn sort(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(sort), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn sort<T: #krate::Component>(&mut self, compare: impl FnMut(&T, &T) -> ::core::cmp::Ordering)
            where
                Self: #krate::Unowned<T>,
            {
                <Self as #krate::Unowned<T>>::sort(self, compare);
            }
        },
    )
}

fn sort_by_key(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(sort_by_key), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn sort_by_key<T: #krate::Component, Key: #krate::OrdKey>(&mut self, key: impl FnMut(&T) -> Key)
            where
                Self: #krate::Unowned<T>,
            {
                <Self as #krate::Unowned<T>>::sort_by_key(self, key);
            }
        },
    )
}

fn sort_as(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(sort_as), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn sort_as<T: #krate::Component, U: #krate::Component>(&mut self)
            where
                Self: #krate::Unowned<T> + #krate::HasComponent<U>,
            {
                <Self as #krate::Unowned<T>>::sort_as::<U>(self);
            }
        },
    )
}

fn sort_by_radix_key(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(sort_by_radix_key), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn sort_by_radix_key<T: #krate::Component, Key: #krate::RadixKey>(&mut self, key: impl FnMut(&T) -> Key)
            where
                Self: #krate::Unowned<T>,
            {
                <Self as #krate::Unowned<T>>::sort_by_radix_key(self, key);
            }
        },
    )
}

fn view(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(view), Some(method_doc!(static view)));
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[doc(alias("query", "query_mut", "query_filtered"))]
            #[inline]
            #vis fn view<'w, Q: #krate::ViewOf<'w, Self>>(&'w mut self) -> #krate::View<'w, Q::Query, Q::Filter> {
                <Self as #krate::Access>::view::<Q>(self)
            }
        },
    )
}

fn view_ref(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(view_ref), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[doc(alias = "query")]
            #[inline]
            #vis fn view_ref<'w, Q: #krate::ViewRefOf<'w, Self>>(&'w self) -> #krate::View<'w, Q::Query, Q::Filter> {
                <Self as #krate::Access>::view_ref::<Q>(self)
            }
        },
    )
}

fn borrow(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(borrow), Some(method_doc!(static borrow)));
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn borrow<'w, R: #krate::Borrow<'w, Self>>(&'w mut self) -> R {
                <Self as #krate::Access>::borrow(self)
            }
        },
    )
}

fn borrow_ref(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(borrow_ref), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[inline]
            #vis fn borrow_ref<'w, R: #krate::Borrow<'w, Self> + #krate::ReadOnly>(&'w self) -> R {
                <Self as #krate::Access>::borrow_ref(self)
            }
        },
    )
}

fn retain(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(retain), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn retain<Q: #krate::Query>(
                &mut self,
                keep: impl FnMut(#krate::Entity, Q::Item<'_>) -> bool,
            ) -> usize
            where
                for<'w> #krate::View<'w, Q>: #krate::Borrow<'w, Self>,
            {
                <Self as #krate::Access>::retain::<Q>(self, keep)
            }
        },
    )
}

fn retain_component(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(retain_component), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn retain_component<T: #krate::Component, Q: #krate::Query>(
                &mut self,
                keep: impl FnMut(#krate::Entity, Q::Item<'_>) -> bool,
            ) -> usize
            where
                Self: #krate::HasComponent<T>,
                for<'w> #krate::View<'w, Q>: #krate::Borrow<'w, Self>,
            {
                <Self as #krate::Access>::retain_component::<T, Q>(self, keep)
            }
        },
    )
}

fn apply(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(apply), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn apply(&mut self, commands: &mut #krate::Commands<Self>) -> #krate::Applied {
                <Self as #krate::Access>::apply(self, commands)
            }
        },
    )
}

fn insert_many(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(insert_many), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn insert_many<T: #krate::Component>(
                &mut self,
                items: impl ::core::iter::IntoIterator<Item = (#krate::Entity, T)>,
            ) -> ::core::result::Result<usize, #krate::InsertManyError<T>>
            where
                Self: #krate::HasComponent<T>,
            {
                <Self as #krate::Edit<T>>::insert_many(self, #krate::__private::collect(items))
            }
        },
    )
}

fn remove_many(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(remove_many), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn remove_many<T: #krate::Component>(&mut self, entities: &[#krate::Entity]) -> usize
            where
                Self: #krate::HasComponent<T>,
            {
                <Self as #krate::Edit<T>>::remove_many(self, entities)
            }
        },
    )
}

fn destroy_many(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(destroy_many), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn destroy_many(&mut self, entities: &[#krate::Entity]) -> usize {
                <Self as #krate::EditEntities>::destroy_many(self, entities)
            }
        },
    )
}

fn clear(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(clear), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn clear<T: #krate::Component>(&mut self)
            where
                Self: #krate::HasComponent<T>,
            {
                <Self as #krate::Edit<T>>::clear(self);
            }
        },
    )
}

fn check(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(check), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #vis fn check(&self) -> ::core::result::Result<(), ::std::string::String> {
                self.__sparse.inspect(#krate::__private::check_world)
            }
        },
    )
}

fn diagram(cx: &Cx<'_>) -> TokenStream {
    let doc = doc(method_doc!(diagram), None);
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            #doc
            #[must_use]
            #vis fn diagram(&self) -> #krate::Diagram {
                self.__sparse.inspect(#krate::Diagram::of)
            }
        },
    )
}
