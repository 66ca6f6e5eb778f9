//! The world's inherent methods, one emitting function each, named as the method (the
//! list is `method_names.rs`'s, which `valid.rs` also reads). They are emitted next to the
//! struct (not in the anonymous const), so that diagnostics name them `Scene::insert`, and
//! they only call the world's traits and its storages' methods.

use proc_macro2::TokenStream;
use quote::quote;

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
    quote!(#(#methods)* #(#accessors)*)
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
        "Creates an empty `{}`: every storage is empty and every group has length zero.",
        cx.ident()
    );
    inherent(
        cx,
        quote! {
            #[doc = #doc]
            #[must_use]
            #vis fn new() -> Self {
                // The storages' type is the field's: `Default` is inferred from it.
                Self { __sparse: ::core::default::Default::default() }
            }
        },
    )
}

fn default(cx: &Cx<'_>) -> TokenStream {
    let ident = cx.ident();
    quote! {
        #[automatically_derived]
        impl ::core::default::Default for #ident {
            fn default() -> Self {
                Self { __sparse: ::core::default::Default::default() }
            }
        }
    }
}

fn spawn(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Creates an entity with no component.
            ///
            /// # Panics
            /// Panics if every entity index is in use (or retired).
            #[inline]
            #vis fn spawn(&mut self) -> #krate::Entity {
                self.__sparse.spawn()
            }
        },
    )
}

fn spawn_with(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Spawns an entity with the components of `bundle` (a tuple of distinct stored
            /// types; naming a type twice does not compile), entering its groups.
            #[inline]
            #vis fn spawn_with<B: #krate::Bundle<Self>>(&mut self, bundle: B) -> #krate::Entity {
                <Self as #krate::EditEntities>::spawn_with(self, bundle)
            }
        },
    )
}

fn spawn_batch(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Spawns one entity per bundle: every storage is reserved once, each bundle's
            /// components are pushed straight into their storages, each storage files the
            /// new entities in one pass, then the groups are entered. If the iterator
            /// panics, the entities spawned so far stay alive with no component.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Whether `entity` is alive (a stale handle is never taken for the entity now
            /// at its index).
            #[inline]
            #vis fn is_alive(&self, entity: #krate::Entity) -> bool {
                self.__sparse.entities().is_alive(entity)
            }
        },
    )
}

fn entities(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// The entity allocator, read only.
            #[inline]
            #vis fn entities(&self) -> &#krate::Entities {
                self.__sparse.entities()
            }
        },
    )
}

fn insert(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Stores `components` for `entity`: one component, or a tuple of distinct ones
            /// (a bundle), each entering the groups it completes (outer groups first), in
            /// tuple order. Returns what each replaced: `Option<T>`, or a tuple of
            /// `Option`s.
            ///
            /// # Errors
            /// `EntityError::Dead` if `entity` is not alive; nothing is written.
            ///
            /// # Panics
            /// Panics if a storage already holds `u32::MAX` components.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Removes `entity`'s `C` (one type, or each type of a tuple, in order),
            /// leaving the groups that own it innermost first. Returns `Option<T>`, or a
            /// tuple of `Option`s: absent components and dead entities give `None`.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// `destroy` under bevy's and hecs' name: deprecated, call `destroy`.
            ///
            /// # Errors
            /// As `destroy`.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Destroys `entity`: leaves every group innermost first, drops its components,
            /// frees its index (with a new version for the next entity there).
            ///
            /// # Errors
            /// `EntityError::Dead` if `entity` is not alive; nothing changes.
            #[doc(alias = "despawn")]
            #[inline]
            #vis fn destroy(&mut self, entity: #krate::Entity) -> ::core::result::Result<(), #krate::EntityError> {
                <Self as #krate::EditEntities>::destroy(self, entity)
            }
        },
    )
}

fn get(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// `entity`'s `C`: `Option<&T>` for one type, `Option<(&A, &B, …)>` for a tuple
            /// (`None` unless the entity has them all).
            #[inline]
            #vis fn get<C: #krate::ReadComponents<Self>>(&self, entity: #krate::Entity) -> ::core::option::Option<C::Refs<'_>> {
                C::get(self, entity)
            }
        },
    )
}

fn get_mut(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// `entity`'s `T` mutably (`get_mut::<T>`), or several components at once
            /// through a query (`get_mut::<(&mut A, &B, Option<&mut C>)>`), checked for
            /// aliasing at compile time as a view is: `None` unless the entity has every
            /// required one.
            #[inline]
            #vis fn get_mut<'w, G: #krate::GetMut<'w, Self>>(&'w mut self, entity: #krate::Entity) -> ::core::option::Option<G::Item> {
                G::get_mut(self, entity)
            }
        },
    )
}

fn contains(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Whether `entity` has a `C` (each type of a tuple).
            #[inline]
            #vis fn contains<C: #krate::ReadComponents<Self>>(&self, entity: #krate::Entity) -> bool {
                C::contains(self, entity)
            }
        },
    )
}

fn storage(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// The storage of `T`, read only.
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

fn tick(cx: &Cx<'_>) -> TokenStream {
    let vis = cx.vis();
    inherent(
        cx,
        quote! {
            /// Starts a new tick of change detection: from now on no component of a
            /// `#[track]`ed type counts as added or changed, and no entity as having lost
            /// one, until it is again. Call it once per frame, after the systems that read
            /// changes. A no-op in a world that tracks nothing.
            #[inline]
            #vis fn tick(&mut self) {
                self.__sparse.tick();
            }
        },
    )
}

fn removed(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// The entities that lost their `T` since the last `tick`, in removal order
            /// (an entity that got a `T` back and lost it again is listed twice).
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// The components of `T`, mutable, with their entities fixed: values can
            /// change, the structure cannot.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// The group named by the key `K` (its owned types in declaration order, then
            /// `Get<…>`, `Exclude<…>`): aligned slices of its owned components, lookups of
            /// its observed ones.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// The group named by the key `K`, read only: shared slices of its owned
            /// components, lookups of its observed ones. Any number can be out at once,
            /// next to any other shared access.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// The number of entities in the group named by `K`.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Sorts the group named by `K` with a comparator over its members' items (as
            /// iterating the group yields them). An owning group is sorted layer by layer:
            /// the groups nested in it stay valid (their entities stay in front, each layer
            /// sorted on its own). A non-owning group sorts its member set.
            ///
            /// # Panics
            /// Passes on a panic of `compare`; the group is then left as it was.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Sorts the group named by `K` by a key read once per member, stably (members
            /// with equal keys keep their order), layer by layer as `sort_group` does.
            ///
            /// # Panics
            /// Passes on a panic of `key` or of the key's `Ord`; the group is then left as
            /// it was.
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

fn sort_group_as(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Sorts the group named by `K` in the order its members have in the storage of
            /// `T` (members without a `T` after the others, in their order), layer by layer
            /// as `sort_group` does: a system that walks the group and looks `T` up then
            /// reads `T` forward through memory instead of at scattered places.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Sorts the group named by `K` by an integer or float key (see `RadixKey`)
            /// with a radix sort, stably, layer by layer as `sort_group` does.
            ///
            /// # Panics
            /// Passes on a panic of `key`; the group is then left as it was.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Sorts the storage of `T`, which no group owns (for an owned one this does
            /// not compile: sort the group instead), with `compare`: std's unstable sort.
            ///
            /// # Panics
            /// Passes on a panic of `compare`; the storage is then left as it was.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Sorts the storage of `T`, which no group owns, by a key, stably (components
            /// with equal keys keep their order): the keys are read into a vector and
            /// sorted there, as `Storage::sort_by_cached_key` does.
            ///
            /// # Panics
            /// Passes on a panic of `key` or of the key's `Ord`; the storage is then left
            /// as it was.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Sorts the storage of `T`, which no group owns, in the order of the storage
            /// of `U`: the entities both hold first, in `U`'s order, then those `U` lacks,
            /// in their order. A view driven by `U` then looks `T` up forward through
            /// memory.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Sorts the storage of `T`, which no group owns, by an integer or float key
            /// (see `RadixKey`) with a radix sort, stably.
            ///
            /// # Panics
            /// Passes on a panic of `key`; the storage is then left as it was.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// The entities matching the query `Q` (`&T`, `&mut T`, `Option<&T>`,
            /// `Option<&mut T>`, tuples of those), with their components: driven by the
            /// cheapest storage or group, dense (plain slices) when a group matches it.
            /// Filters follow the query in the same tuple:
            /// `view::<(&mut Position, &Velocity, Without<Frozen>)>()`.
            #[doc(alias("query", "query_mut", "query_filtered"))]
            #[inline]
            #vis fn view<'w, Q: #krate::ViewOf<'w, Self>>(&'w mut self) -> #krate::View<'w, Q::Query, Q::Filter> {
                <Self as #krate::Access>::view::<Q>(self)
            }
        },
    )
}

fn view_ref(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// A read-only view (`&T`, `Option<&T>`, filters last) through a shared
            /// reference.
            #[doc(alias = "query")]
            #[inline]
            #vis fn view_ref<'w, Q: #krate::ViewRefOf<'w, Self>>(&'w self) -> #krate::View<'w, Q::Query, Q::Filter> {
                <Self as #krate::Access>::view_ref::<Q>(self)
            }
        },
    )
}

fn borrow(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Borrows several parts at once: a tuple of `GroupMut<K>`, `GroupRef<K>`,
            /// `View<Q, F>`, `ValuesMut<T>`, `&Storage<T>` and `&Entities`. A request that
            /// borrows a type mutably twice, or mutably and shared, does not compile.
            #[inline]
            #vis fn borrow<'w, R: #krate::Borrow<'w, Self>>(&'w mut self) -> R {
                <Self as #krate::Access>::borrow(self)
            }
        },
    )
}

fn borrow_ref(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Borrows several read-only parts at once through a shared reference.
            #[inline]
            #vis fn borrow_ref<'w, R: #krate::Borrow<'w, Self> + #krate::ReadOnly>(&'w self) -> R {
                <Self as #krate::Access>::borrow_ref(self)
            }
        },
    )
}

fn retain(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Destroys every entity matching `Q` for which `keep` returns `false`, in one
            /// pass over each storage once the walk is over. Returns the number destroyed.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Removes `T` from every entity matching `Q` for which `keep` returns
            /// `false`, in bulk once the walk is over. Returns the number removed.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Applies `commands` in the order they were recorded, through the world's change methods, and
            /// empties them. Commands about entities no longer alive are skipped and
            /// reported.
            #vis fn apply(&mut self, commands: &mut #krate::Commands<Self>) -> #krate::Applied {
                <Self as #krate::Access>::apply(self, commands)
            }
        },
    )
}

fn insert_many(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Inserts every `(entity, value)` as `insert`s in a row would, in bulk: each
            /// group step runs for all of them before the next. Returns the number of
            /// components added (the others replaced a value).
            ///
            /// # Errors
            /// `InsertManyError` if an entity is not alive: nothing is written and the
            /// items are handed back.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Removes `T` from each of `entities` that has one, as `remove`s in a row
            /// would, in bulk. Returns the number removed.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Destroys every alive entity of `entities` (others are skipped) in one pass
            /// over each storage, keeping the survivors' order: groups only get new
            /// lengths. Returns the number destroyed.
            #vis fn destroy_many(&mut self, entities: &[#krate::Entity]) -> usize {
                <Self as #krate::EditEntities>::destroy_many(self, entities)
            }
        },
    )
}

fn clear(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Removes every `T`: the groups requiring `T` are emptied at once.
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
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Checks every invariant of the world: storages consistent and holding only
            /// alive entities, every group exactly the packed set of entities having its
            /// types, nested groups inside their outer groups.
            ///
            /// # Errors
            /// A description of the first broken invariant.
            #vis fn check(&self) -> ::core::result::Result<(), ::std::string::String> {
                self.__sparse.inspect(#krate::__private::check_world)
            }
        },
    )
}

fn layout(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// A drawing of the world's storages and groups: each storage's packed entity
            /// array with a marker where each group owning it ends, as the nested-groups
            /// article draws them; a table of lengths for worlds too large to draw (see
            /// `Diagram`). Print it with `{}`; `{:#}` always gives the table.
            #[must_use]
            #vis fn layout(&self) -> #krate::Diagram {
                self.__sparse.inspect(#krate::Diagram::of)
            }
        },
    )
}
