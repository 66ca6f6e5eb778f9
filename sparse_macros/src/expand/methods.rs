//! The world's inherent methods. [`METHODS`] is the one list of their names: it emits
//! them, and `valid.rs` rejects a field whose accessor would shadow one. They are emitted
//! next to the struct (not in the anonymous const), so that diagnostics name them
//! `Scene::insert`, and they only call the world's traits and its storages' methods.

use proc_macro2::TokenStream;
use quote::quote;

use super::Cx;

/// A generated method: its name and what emits it.
pub(crate) struct Method {
    pub name: &'static str,
    emit: fn(&Cx<'_>) -> TokenStream,
}

/// Every method `#[world]` generates, and `default` (from the `Default` impl, which an
/// accessor would shadow too).
pub(crate) const METHODS: &[Method] = &[
    Method {
        name: "new",
        emit: new,
    },
    Method {
        name: "default",
        emit: default,
    },
    Method {
        name: "spawn",
        emit: spawn,
    },
    Method {
        name: "spawn_with",
        emit: spawn_with,
    },
    Method {
        name: "spawn_batch",
        emit: spawn_batch,
    },
    Method {
        name: "is_alive",
        emit: is_alive,
    },
    Method {
        name: "entities",
        emit: entities,
    },
    Method {
        name: "insert",
        emit: insert,
    },
    Method {
        name: "remove",
        emit: remove,
    },
    Method {
        name: "destroy",
        emit: destroy,
    },
    Method {
        name: "get",
        emit: get,
    },
    Method {
        name: "get_mut",
        emit: get_mut,
    },
    Method {
        name: "contains",
        emit: contains,
    },
    Method {
        name: "storage",
        emit: storage,
    },
    Method {
        name: "components_mut",
        emit: components_mut,
    },
    Method {
        name: "group",
        emit: group,
    },
    Method {
        name: "group_len",
        emit: group_len,
    },
    Method {
        name: "sort_group",
        emit: sort_group,
    },
    Method {
        name: "sort",
        emit: sort,
    },
    Method {
        name: "view",
        emit: view,
    },
    Method {
        name: "check",
        emit: check,
    },
];

/// Whether `name` is a method every generated world has.
pub(crate) fn is_generated(name: &str) -> bool {
    METHODS.iter().any(|m| m.name == name)
}

/// Every method, then one read accessor per storage field.
pub(super) fn emit(cx: &Cx<'_>) -> TokenStream {
    let methods = METHODS.iter().map(|m| (m.emit)(cx));
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
            let storage = &Cx::storage_methods(i)[0];
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
            /// types), entering its groups.
            ///
            /// # Panics
            /// Panics if the bundle names a type twice.
            #[inline]
            #vis fn spawn_with<B: #krate::Bundle<Self>>(&mut self, bundle: B) -> #krate::Entity {
                #krate::__private::spawn_with(self, bundle)
            }
        },
    )
}

fn spawn_batch(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Spawns one entity per bundle: the bundles are collected column by column,
            /// each column is appended to its storage at once, then the groups are entered.
            ///
            /// # Panics
            /// Panics if the bundle type names a component type twice.
            #vis fn spawn_batch<B: #krate::Bundle<Self>>(
                &mut self,
                bundles: impl ::core::iter::IntoIterator<Item = B>,
            ) -> ::std::vec::Vec<#krate::Entity> {
                #krate::__private::spawn_batch(self, bundles)
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
            /// Stores `value` for `entity`, entering the groups it completes (outer groups
            /// first). Returns the value it replaces, if any.
            ///
            /// # Errors
            /// `EntityError::Dead` if `entity` is not alive; nothing is written.
            ///
            /// # Panics
            /// Panics if the storage already holds `u32::MAX` components.
            #[inline]
            #vis fn insert<T: #krate::Component>(
                &mut self,
                entity: #krate::Entity,
                value: T,
            ) -> ::core::result::Result<::core::option::Option<T>, #krate::EntityError>
            where
                Self: #krate::HasComponent<T>,
            {
                <Self as #krate::HasComponent<T>>::insert(self, entity, value)
            }
        },
    )
}

fn remove(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Removes `entity`'s `T`, leaving the groups that own `T` innermost first.
            /// Absent components and dead entities give `None`.
            #[inline]
            #vis fn remove<T: #krate::Component>(&mut self, entity: #krate::Entity) -> ::core::option::Option<T>
            where
                Self: #krate::HasComponent<T>,
            {
                <Self as #krate::HasComponent<T>>::remove(self, entity)
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
            #[inline]
            #vis fn destroy(&mut self, entity: #krate::Entity) -> ::core::result::Result<(), #krate::EntityError> {
                self.__sparse.destroy(entity)
            }
        },
    )
}

fn get(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// `entity`'s `T`.
            #[inline]
            #vis fn get<T: #krate::Component>(&self, entity: #krate::Entity) -> ::core::option::Option<&T>
            where
                Self: #krate::HasComponent<T>,
            {
                <Self as #krate::HasComponent<T>>::storage(self).get(entity)
            }
        },
    )
}

fn get_mut(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// `entity`'s `T`, mutably.
            #[inline]
            #vis fn get_mut<T: #krate::Component>(&mut self, entity: #krate::Entity) -> ::core::option::Option<&mut T>
            where
                Self: #krate::HasComponent<T>,
            {
                <Self as #krate::HasComponent<T>>::get_mut(self, entity)
            }
        },
    )
}

fn contains(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Whether `entity` has a `T`.
            #[inline]
            #vis fn contains<T: #krate::Component>(&self, entity: #krate::Entity) -> bool
            where
                Self: #krate::HasComponent<T>,
            {
                <Self as #krate::HasComponent<T>>::storage(self).contains(entity)
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

fn components_mut(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// The entities and components of `T`, the components mutably: values can
            /// change, the structure cannot.
            #[inline]
            #vis fn components_mut<T: #krate::Component>(&mut self) -> (&[#krate::Entity], &mut [T])
            where
                Self: #krate::HasComponent<T>,
            {
                <Self as #krate::HasComponent<T>>::components_mut(self)
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
            /// Passes on a panic of `compare`; the group is then left as it was (a
            /// non-owning group consistent, in some order).
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

fn sort(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// Sorts the storage of `T`, which no group owns (for an owned one this does
            /// not compile: sort the group instead).
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

fn view(cx: &Cx<'_>) -> TokenStream {
    let (vis, krate) = (cx.vis(), &cx.krate);
    inherent(
        cx,
        quote! {
            /// A join over the storages of `G`, driven by the smallest.
            ///
            /// # Panics
            /// Panics if `G` names a type twice.
            #[inline]
            #vis fn view<G: #krate::ViewOf<Self>>(&mut self) -> #krate::View<'_, G> {
                G::view(self)
            }
        },
    )
}

fn check(cx: &Cx<'_>) -> TokenStream {
    let vis = cx.vis();
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
                self.__sparse.check()
            }
        },
    )
}
