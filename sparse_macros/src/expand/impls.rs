//! The trait impls of a world: per stored type `HasComponent`, `Edit`, `LendStorage` (and
//! `Unowned` if no group owns it, and its number for the compile-time borrow rule); per
//! group `HasGroup` and `LendGroup`; per resource `HasResource`, `LendResource` and its
//! number; and `WorldParts`, `EditEntities`, `Access`. Each forwards to the storages
//! module; impls are spanned at the type or group they are about, so that a problem with
//! one (a type that is not a component) is reported there.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use sparse_core::HookEvent;

use super::{Cx, hooks};

pub(super) fn emit(cx: &Cx<'_>) -> TokenStream {
    let components = (0..cx.model.storages.len()).map(|i| component(cx, i));
    let groups = (0..cx.plan.groups.len()).map(|g| group(cx, g));
    let resources = (0..cx.model.resources.len()).map(|j| resource(cx, j));
    let ident = cx.ident();
    let args = cx.args();
    let [destroy, destroy_many, spawned] = edit_entities(cx);
    quote! {
        #(#components)*
        #(#groups)*
        #(#resources)*

        #[automatically_derived]
        impl __sg::__private::WorldParts for #ident {
            #[doc(hidden)]
            type Parts<'w> = __sparse::Parts<'w, #(#args),*> where Self: 'w;

            #[doc(hidden)]
            #[inline(always)]
            fn parts(&mut self) -> Self::Parts<'_> {
                self.__sparse.parts()
            }

            #[doc(hidden)]
            #[inline(always)]
            fn parts_ref(&self) -> Self::Parts<'_> {
                self.__sparse.parts_ref()
            }

            #[doc(hidden)]
            #[inline]
            fn reborrow_parts<'a>(parts: &'a mut Self::Parts<'_>) -> Self::Parts<'a>
            where
                Self: 'a,
            {
                parts.reborrow()
            }

            #[doc(hidden)]
            fn split_parts<'w>(
                parts: &mut Self::Parts<'w>,
                writes: &[::core::any::TypeId],
                reads: &[::core::any::TypeId],
            ) -> Self::Parts<'w>
            where
                Self: 'w,
            {
                parts.split(writes, reads)
            }

            #[doc(hidden)]
            fn stamp_parts_at(parts: &Self::Parts<'_>, at: u32) {
                parts.stamp_at(at);
            }

            type Lent<R> = R;
            const PROVEN: bool = true;

            #[doc(hidden)]
            #[inline(always)]
            fn lent<R>(taken: ::core::result::Result<R, __sg::__private::AccessError>) -> R {
                __sg::__private::proven(taken)
            }

            #[doc(hidden)]
            #[inline]
            fn entities_of<'w>(parts: &Self::Parts<'w>) -> &'w __sg::Entities {
                parts.entities()
            }

            #[doc(hidden)]
            #[inline]
            fn step_changes(&mut self) -> __sg::__private::ChangeCount {
                self.__sparse.step_changes()
            }

            #[doc(hidden)]
            fn jump_change_count(&mut self, now: u32) {
                self.__sparse.jump_change_count(now);
            }

            #[doc(hidden)]
            #[inline]
            fn with_groups<'w, R>(
                parts: &Self::Parts<'w>,
                f: impl ::core::ops::FnOnce(&[__sg::__private::GroupShape<'_, 'w>]) -> R,
            ) -> R {
                parts.with_groups(f)
            }
        }

        #[automatically_derived]
        impl __sg::EditEntities for #ident {
            #[inline]
            fn entities(&self) -> &__sg::Entities {
                self.__sparse.entities()
            }

            #[inline]
            fn flush_entities(&mut self) {
                self.__sparse.flush_entities();
            }

            fn inspect_world(&self, f: &mut dyn ::core::ops::FnMut(&__sg::__private::WorldInfo<'_>)) {
                self.__sparse.inspect(f);
            }

            #[inline]
            fn spawn_entity(&mut self) -> __sg::Entity {
                self.__sparse.spawn()
            }

            #[inline]
            fn spawn_with<B: __sg::Bundle<Self>>(&mut self, bundle: B) -> __sg::Entity {
                __sg::__private::spawn_with(self, &__sparse::KEY, bundle)
            }

            fn spawn_batch<B: __sg::Bundle<Self>>(
                &mut self,
                bundles: impl ::core::iter::IntoIterator<Item = B>,
            ) -> ::std::vec::Vec<__sg::Entity> {
                __sg::__private::spawn_batch(self, &__sparse::KEY, bundles)
            }

            fn spawn_reserved<B: __sg::Bundle<Self>>(
                &mut self,
                entity: __sg::Entity,
                bundle: B,
            ) -> ::core::result::Result<(), __sg::EntityError> {
                __sg::__private::spawn_reserved(self, &__sparse::KEY, entity, bundle)
            }

            #[inline]
            fn reserve_entities(&mut self, additional: usize) {
                self.__sparse.reserve_entities(additional);
            }

            #[inline]
            fn destroy(&mut self, entity: __sg::Entity) -> ::core::result::Result<(), __sg::EntityError> {
                #destroy
            }

            fn destroy_many(&mut self, entities: &[__sg::Entity]) -> usize {
                #destroy_many
            }

            #spawned
        }

        #[automatically_derived]
        #[doc(hidden)]
        impl __sg::__private::Internals for #ident {
            type Key = __sparse::Key;

            #[inline]
            fn entities_mut(&mut self, key: &__sparse::Key) -> &mut __sg::Entities {
                self.__sparse.raw_entities(key)
            }

            #[inline]
            fn enter_all_groups(&mut self, _: &__sparse::Key, entity: __sg::Entity) {
                self.__sparse.enter_all(entity);
            }

            fn holds_nothing(&self, entity: __sg::Entity) -> bool {
                self.__sparse.holds_nothing(entity)
            }
        }

        #[automatically_derived]
        impl __sg::Access for #ident {}
    }
}

fn component(cx: &Cx<'_>, i: usize) -> TokenStream {
    let ident = cx.ident();
    let (cfg, ty) = (cx.cfg_storage(i), cx.storage_type(i));
    let m = Cx::storage_methods(i);
    let (storage, get_mut, values_mut) = (&m.storage, &m.get_mut, &m.values_mut);
    let (reserve, sort, slot) = (&m.reserve, &m.sort, &m.slot);
    let raw = &m.raw;
    let span = cx.component_span(i);
    let index = index(cx, i);
    let edit = edit(cx, i);
    let tracked = cx.tracked[i].then(|| {
        quote_spanned! {span=>
            #cfg
            #[automatically_derived]
            impl __sg::__private::TrackChanges<#ty> for #ident {}
        }
    });
    let unowned = cx.plan.storages[i].sortable.then(|| {
        quote_spanned! {span=>
            #cfg
            #[automatically_derived]
            impl __sg::Unowned<#ty> for #ident {
                fn sort_with(&mut self, order: impl __sg::__private::StorageOrder<#ty>) {
                    self.__sparse.#sort(order);
                }
            }
        }
    });
    quote_spanned! {span=>
        #cfg
        const _: () = {
            let _ = __sg::__private::is_component::<#ty>;
        };

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
            fn values_mut(&mut self) -> __sg::ValuesMut<'_, #ty> {
                self.__sparse.#values_mut()
            }

            fn reserve(&mut self, additional: usize) {
                self.__sparse.#reserve(additional);
            }
        }

        #cfg
        #[automatically_derived]
        impl __sg::Lookup<#ty> for #ident {
            #[inline]
            fn lookup(&self, entity: __sg::Entity) -> ::core::option::Option<&#ty> {
                self.__sparse.#storage().get(entity)
            }

            #[inline]
            fn lookup_mut(&mut self, entity: __sg::Entity) -> ::core::option::Option<&mut #ty> {
                self.__sparse.#get_mut(entity)
            }
        }

        #edit

        #cfg
        #[automatically_derived]
        #[doc(hidden)]
        impl __sg::__private::InternalStorage<#ty> for #ident {
            #[inline]
            fn storage_mut(&mut self, key: &__sparse::Key) -> &mut __sg::Storage<#ty> {
                self.__sparse.#raw(key)
            }
        }

        #cfg
        #[automatically_derived]
        impl __sg::__private::Numbered<#ty> for #ident {
            type Index = #index;
        }

        #cfg
        #[automatically_derived]
        impl __sg::__private::LendStorage<#ty> for #ident {
            // Always inlined, so the lending check of a borrow folds away.
            #[inline(always)]
            #[allow(clippy::inline_always)]
            fn slot<'p, 'w>(
                parts: &'p mut <Self as __sg::__private::WorldParts>::Parts<'w>,
            ) -> ::core::result::Result<__sg::__private::SlotRef<'p, 'w, #ty>, __sg::__private::AccessError> {
                ::core::result::Result::Ok(__sg::__private::SlotRef::typed(parts.#slot(&__sparse::KEY)))
            }
        }

        #unowned
        #tracked
    }
}

/// `Edit<T>` for storage `i`: the storages' methods, through the user hooks if the type
/// has any.
fn edit(cx: &Cx<'_>, i: usize) -> TokenStream {
    let ident = cx.ident();
    let (cfg, ty) = (cx.cfg_storage(i), cx.storage_type(i));
    let m = Cx::storage_methods(i);
    let (insert, remove, insert_many, remove_many, clear) = (
        &m.insert,
        &m.remove,
        &m.insert_many,
        &m.remove_many,
        &m.clear,
    );
    let span = cx.component_span(i);
    let bodies = if cx.hooked(i) {
        let hooks = hooks::hooks_const(i);
        let r = quote_spanned!(span=> __sg::__private::hooks);
        [
            quote_spanned!(span=> #r::insert(self, &#hooks, entity, value, |w: &mut Self, e, v| w.__sparse.#insert(e, v))),
            quote_spanned!(span=> #r::remove(self, &#hooks, entity, |w: &mut Self, e| w.__sparse.#remove(e))),
            quote_spanned!(span=> #r::insert_many(self, &#hooks, items, |w: &mut Self, items| w.__sparse.#insert_many(items))),
            quote_spanned!(span=> #r::remove_many(self, &#hooks, entities, |w: &mut Self, e: &[__sg::Entity]| w.__sparse.#remove_many(e))),
            quote_spanned!(span=> #r::clear(self, &#hooks, |w: &mut Self| w.__sparse.#clear())),
        ]
    } else {
        [
            quote_spanned!(span=> self.__sparse.#insert(entity, value)),
            quote_spanned!(span=> self.__sparse.#remove(entity)),
            quote_spanned!(span=> self.__sparse.#insert_many(items).map(|(added, _)| added)),
            quote_spanned!(span=> self.__sparse.#remove_many(entities)),
            quote_spanned!(span=> self.__sparse.#clear()),
        ]
    };
    let [insert, remove, insert_many, remove_many, clear] = bodies;
    quote_spanned! {span=>
        #cfg
        #[automatically_derived]
        impl __sg::Edit<#ty> for #ident {
            #[inline]
            fn insert(&mut self, entity: __sg::Entity, value: #ty) -> ::core::result::Result<::core::option::Option<#ty>, __sg::EntityError> {
                #insert
            }

            #[inline]
            fn remove(&mut self, entity: __sg::Entity) -> ::core::option::Option<#ty> {
                #remove
            }

            fn insert_many(
                &mut self,
                items: ::std::vec::Vec<(__sg::Entity, #ty)>,
            ) -> ::core::result::Result<usize, __sg::InsertManyError<#ty>> {
                #insert_many
            }

            fn remove_many(&mut self, entities: &[__sg::Entity]) -> usize {
                #remove_many
            }

            fn clear(&mut self) {
                #clear;
            }
        }
    }
}

/// `EditEntities`' `destroy` and `destroy_many` (through the remove hooks if some type has
/// them) and `spawned` (the insert hooks that the shared spawns run, if some type has them).
fn edit_entities(cx: &Cx<'_>) -> [TokenStream; 3] {
    let all = hooks::all_const();
    let r = quote!(__sg::__private::hooks);
    let (destroy, destroy_many) = if cx.any_hook(HookEvent::Remove) {
        (
            quote!(#r::destroy(self, #all, entity, |w: &mut Self, e| w.__sparse.destroy(e))),
            quote!(#r::destroy_many(self, #all, entities, |w: &mut Self, e: &[__sg::Entity]| w.__sparse.destroy_many(e))),
        )
    } else {
        (
            quote!(self.__sparse.destroy(entity)),
            quote!(self.__sparse.destroy_many(entities)),
        )
    };
    let spawned = cx.any_hook(HookEvent::Insert).then(|| {
        quote! {
            fn spawned(&mut self, entities: &[__sg::Entity]) {
                #r::spawned(self, #all, entities);
            }
        }
    });
    [destroy, destroy_many, quote!(#spawned)]
}

fn group(cx: &Cx<'_>, g: usize) -> TokenStream {
    let ident = cx.ident();
    let (cfg, tuple) = (cx.cfg_group(g), cx.group_tuple(g));
    let m = Cx::group_methods(g);
    let (group, group_ref, group_len, sort_group, lend, lend_ref) = (
        &m.group,
        &m.group_ref,
        &m.group_len,
        &m.sort_group,
        &m.lend,
        &m.lend_ref,
    );
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
            fn group_ref(&self) -> __sg::GroupRef<'_, #tuple> {
                self.__sparse.#group_ref()
            }

            #[inline]
            fn group_len(&self) -> usize {
                self.__sparse.#group_len()
            }

            fn sort_group_with(&mut self, order: impl __sg::__private::GroupOrder<#tuple>) {
                self.__sparse.#sort_group(order);
            }
        }

        #cfg
        #[automatically_derived]
        impl __sg::__private::LendGroup<#tuple> for #ident {
            // Always inlined, so the lending check of a borrow folds away.
            #[inline(always)]
            #[allow(clippy::inline_always)]
            fn lend_group<'w>(
                parts: &mut <Self as __sg::__private::WorldParts>::Parts<'w>,
            ) -> ::core::result::Result<__sg::GroupMut<'w, #tuple>, __sg::__private::AccessError> {
                parts.#lend()
            }

            #[inline(always)]
            #[allow(clippy::inline_always)]
            fn lend_group_ref<'w>(
                parts: &mut <Self as __sg::__private::WorldParts>::Parts<'w>,
            ) -> ::core::result::Result<__sg::GroupRef<'w, #tuple>, __sg::__private::AccessError> {
                parts.#lend_ref()
            }
        }
    }
}

/// The impls of resource `j`: its number, its slot, and `HasResource`.
fn resource(cx: &Cx<'_>, j: usize) -> TokenStream {
    let ident = cx.ident();
    let ty = cx.resource_type(j);
    let index = index(cx, cx.model.storages.len() + j);
    let [shared, mutable, slot] = Cx::resource_methods(j);
    // As components are: every world stays `Send + Sync`, and its resources can be lent
    // to other threads. Spanned at the type, where the error points.
    let sendable = quote_spanned! {ty.span()=>
        const _: fn() = || {
            fn resource_is_send_sync_static<R: ::core::marker::Send + ::core::marker::Sync + 'static>() {}
            resource_is_send_sync_static::<#ty>();
        };
    };
    quote_spanned! {ty.span()=>
        #sendable

        #[automatically_derived]
        impl __sg::__private::Numbered<__sg::Resource<#ty>> for #ident {
            type Index = #index;
        }

        #[automatically_derived]
        impl __sg::__private::LendResource<#ty> for #ident {
            #[inline(always)]
            #[allow(clippy::inline_always)]
            fn resource_slot<'p, 'w>(
                parts: &'p mut <Self as __sg::__private::WorldParts>::Parts<'w>,
            ) -> ::core::result::Result<__sg::__private::ResourceSlotRef<'p, 'w, #ty>, __sg::__private::AccessError> {
                ::core::result::Result::Ok(__sg::__private::ResourceSlotRef::typed(parts.#slot(&__sparse::KEY)))
            }
        }

        #[automatically_derived]
        impl __sg::HasResource<#ty> for #ident {
            #[inline]
            fn resource(&self) -> &#ty {
                self.__sparse.#shared()
            }

            #[inline]
            fn resource_mut(&mut self) -> &mut #ty {
                self.__sparse.#mutable()
            }
        }
    }
}

/// Number `i` as a type (`Bits<I, Bits<O, End>>`): storages are numbered first, then
/// resources; all of one world's numbers have the same length. What the compile-time
/// borrow rule compares.
fn index(cx: &Cx<'_>, i: usize) -> TokenStream {
    let count = cx.model.storages.len() + cx.model.resources.len();
    let width = (usize::BITS - count.saturating_sub(1).leading_zeros()).max(1);
    (0..width)
        .rev()
        .fold(quote!(__sg::__private::End), |tail, bit| {
            let digit = if i >> bit & 1 == 1 {
                quote!(__sg::__private::I)
            } else {
                quote!(__sg::__private::O)
            };
            quote!(__sg::__private::Bits<#digit, #tail>)
        })
}
