//! Code generation for `#[world]`: the sealed storages, and straight-line hooks that enter
//! groups outermost first on add and leave them innermost first on remove and destroy.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use sparse_core::layout::Layout;
use syn::spanned::Spanned;
use syn::{Error, Ident, Item, Type};

use crate::ast::World;
use crate::valid;

pub(crate) fn world(args: TokenStream, input: TokenStream) -> TokenStream {
    let mut errors = Vec::new();
    if !args.is_empty() {
        errors.push(Error::new_spanned(
            &args,
            "`#[world]` takes no arguments; declare groups with `#[group(A, B)]` below it",
        ));
    }
    let item: Item = match syn::parse2(input) {
        Ok(item) => item,
        Err(error) => return error.into_compile_error(),
    };
    let fallback = strip_groups(item.clone());
    let Some(world) = World::from_item(item, &mut errors) else {
        return with_errors(fallback, errors);
    };
    let layout = valid::validate(&world, &mut errors);
    let expanded = Expander::new(&world, layout.as_ref()).expand();
    with_errors(expanded, errors)
}

/// The item as written minus the `#[group]` attributes, for shapes `#[world]` rejects.
fn strip_groups(mut item: Item) -> TokenStream {
    if let Item::Struct(s) = &mut item {
        s.attrs.retain(|a| !a.path().is_ident(crate::attr::GROUP));
    }
    quote!(#item)
}

fn with_errors(tokens: TokenStream, errors: Vec<Error>) -> TokenStream {
    let errors = errors.into_iter().map(Error::into_compile_error);
    quote!(#tokens #(#errors)*)
}

struct Expander<'a> {
    world: &'a World,
    /// `Some` when the layout is valid; otherwise the world is emitted without group
    /// maintenance so that one bad group does not cascade into unrelated errors.
    layout: Option<&'a Layout<String>>,
    inner: Ident,
    /// The groups emitted with access impls: all of them when the layout is valid.
    groups: Vec<usize>,
}

impl<'a> Expander<'a> {
    fn new(world: &'a World, layout: Option<&'a Layout<String>>) -> Self {
        let groups = match layout {
            Some(_) => (0..world.groups.len()).collect(),
            None => {
                let mut seen: Vec<Vec<&str>> = Vec::new();
                (0..world.groups.len())
                    .filter(|&g| {
                        let keys: Vec<&str> = world.groups[g]
                            .types
                            .iter()
                            .map(|(_, k)| k.as_str())
                            .collect();
                        let distinct = keys.iter().enumerate().all(|(i, k)| !keys[..i].contains(k));
                        let stored = keys.iter().all(|k| world.storage(k).is_some());
                        let fresh = !seen.contains(&keys);
                        let emitted = keys.len() >= 2 && distinct && stored && fresh;
                        seen.push(keys);
                        emitted
                    })
                    .collect()
            }
        };
        Expander {
            world,
            layout,
            inner: format_ident!("__Sparse{}Storages", world.ident),
            groups,
        }
    }

    fn len_field(group: usize) -> Ident {
        format_ident!("__sparse_group_{}", group)
    }

    fn group_tuple(&self, group: usize) -> TokenStream {
        let types = self.world.groups[group].types.iter().map(|(ty, _)| ty);
        quote!((#(#types,)*))
    }

    /// `(&mut w.a, &mut w.b, …)` for the storages a group owns.
    fn owned(&self, group: usize) -> TokenStream {
        let fields = self.world.groups[group]
            .types
            .iter()
            .map(|(_, key)| &self.world.storage(key).expect("stored").ident);
        quote!((#(&mut w.#fields,)*))
    }

    fn group_name(&self, group: usize) -> String {
        let keys: Vec<&str> = self.world.groups[group]
            .types
            .iter()
            .map(|(_, k)| k.as_str())
            .collect();
        format!("<{}>", keys.join(", "))
    }

    fn enter(&self, group: usize) -> TokenStream {
        let owned = self.owned(group);
        let len = Self::len_field(group);
        quote!(::sparse::__private::GroupStorages::try_enter(#owned, &mut w.#len, entity);)
    }

    /// Test-and-enter `group` right after adding the component `key`, whose position in
    /// its storage is tracked in `position` (no lookup needed there).
    fn enter_tracked(&self, group: usize, key: &str) -> TokenStream {
        let owned = self.owned(group);
        let len = Self::len_field(group);
        let known = self.known(group, key);
        quote!(let position = ::sparse::__private::GroupStorages::enter_tracked(#owned, &mut w.#len, entity, #known, position);)
    }

    /// Test-and-leave `group` before removing the component `key`, tracking its position.
    fn leave_tracked(&self, group: usize, key: &str) -> TokenStream {
        let owned = self.owned(group);
        let len = Self::len_field(group);
        let known = self.known(group, key);
        quote!(let position = ::sparse::__private::GroupStorages::leave_tracked(#owned, &mut w.#len, entity, #known, position);)
    }

    /// The index of `key` in `group`'s tuple.
    fn known(&self, group: usize, key: &str) -> usize {
        self.world.groups[group]
            .types
            .iter()
            .position(|(_, k)| k == key)
            .expect("the group owns the type")
    }

    fn leave(&self, group: usize) -> TokenStream {
        let owned = self.owned(group);
        let len = Self::len_field(group);
        quote!(::sparse::__private::GroupStorages::try_leave(#owned, &mut w.#len, entity);)
    }

    fn expand(&self) -> TokenStream {
        let World {
            attrs,
            vis,
            ident,
            storages,
            ..
        } = self.world;
        let inner = &self.inner;
        let fields: Vec<&Ident> = storages.iter().map(|s| &s.ident).collect();
        let types: Vec<&Type> = storages.iter().map(|s| &s.component).collect();
        let field_types = storages.iter().map(|s| &s.ty);
        let lens: Vec<Ident> = (0..self.world.groups.len()).map(Self::len_field).collect();
        let assertions = types
            .iter()
            .map(|ty| quote_spanned!(ty.span()=> __sparse_assert_component::<#ty>();));
        // A field rejected for shadowing a method gets no accessor: no duplicate definition.
        let accessors = storages
            .iter()
            .filter(|s| !valid::shadows_method(&s.ident))
            .map(|s| {
                let (field_attrs, field_vis, field, ty) =
                    (&s.attrs, &s.vis, &s.ident, &s.component);
                let doc = format!("The storage of `{}`, read only.", s.key);
                quote! {
                    #(#field_attrs)*
                    #[doc = #doc]
                    #field_vis fn #field(&self) -> &::sparse::Storage<#ty> {
                        &self.__sparse.get().#field
                    }
                }
            });
        let component_impls = storages
            .iter()
            .map(|s| self.component_impl(&s.ident, &s.component, &s.key));
        let group_impls = self.groups.iter().map(|&g| self.group_impl(g));
        let enter_all = self
            .layout
            .map(|l| l.chains().iter().flatten().copied().collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .map(|g| self.enter(g));
        let destroy_leaves = self
            .layout
            .map(|l| l.destroy_order())
            .unwrap_or_default()
            .into_iter()
            .map(|g| self.leave(g));
        let checks = self.checks();
        let world_doc = format!(
            "Creates an empty `{ident}`.\n\nEvery storage is empty and every group has length zero."
        );

        quote! {
            #(#attrs)*
            #vis struct #ident {
                __sparse: ::sparse::__private::Sealed<#inner>,
            }

            #[doc(hidden)]
            #[allow(non_camel_case_types, non_snake_case)]
            struct #inner {
                __sparse_entities: ::sparse::Entities,
                #(#fields: #field_types,)*
                #(#lens: usize,)*
            }

            const _: () = {
                fn __sparse_assert_component<T: ::sparse::Component>() {}
                fn __sparse_assert_components() {
                    #(#assertions)*
                }
            };

            #[allow(dead_code)]
            impl #ident {
                #[doc = #world_doc]
                #vis fn new() -> Self {
                    let inner = #inner {
                        __sparse_entities: ::sparse::Entities::new(),
                        #(#fields: ::sparse::Storage::new(),)*
                        #(#lens: 0,)*
                    };
                    // SAFETY: empty storages and zero-length groups satisfy every invariant.
                    Self { __sparse: unsafe { ::sparse::__private::Sealed::new(inner) } }
                }

                /// Creates an entity.
                ///
                /// # Panics
                /// Panics if every entity index is in use (or retired).
                #vis fn spawn(&mut self) -> ::sparse::Entity {
                    // SAFETY: spawning touches no storage.
                    unsafe { self.__sparse.get_mut() }.__sparse_entities.spawn()
                }

                /// Spawns an entity with the components of `bundle` (a tuple of distinct
                /// stored types), entering its groups.
                ///
                /// # Panics
                /// Panics if the bundle names a type twice.
                #vis fn spawn_with<B: ::sparse::Bundle<Self>>(&mut self, bundle: B) -> ::sparse::Entity {
                    ::sparse::__private::spawn_with(self, bundle)
                }

                /// Spawns one entity per bundle, reserving room for all of them first.
                ///
                /// # Panics
                /// Panics if the bundle type names a component type twice.
                #vis fn spawn_batch<B: ::sparse::Bundle<Self>>(
                    &mut self,
                    bundles: impl ::core::iter::IntoIterator<Item = B>,
                ) -> ::std::vec::Vec<::sparse::Entity> {
                    ::sparse::__private::spawn_batch(self, bundles)
                }

                /// Whether `entity` is alive.
                #vis fn is_alive(&self, entity: ::sparse::Entity) -> bool {
                    self.__sparse.get().__sparse_entities.is_alive(entity)
                }

                /// The entity allocator, read only.
                #vis fn entities(&self) -> &::sparse::Entities {
                    &self.__sparse.get().__sparse_entities
                }

                /// Stores `value` for `entity`, entering the groups it completes (outermost
                /// first). Returns the replaced value.
                ///
                /// # Errors
                /// `EntityError::Dead` if `entity` is not alive; nothing is written.
                ///
                /// # Panics
                /// Panics if the storage already holds `u32::MAX` components.
                #vis fn insert<T>(&mut self, entity: ::sparse::Entity, value: T) -> ::core::result::Result<::core::option::Option<T>, ::sparse::EntityError>
                where
                    Self: ::sparse::HasComponent<T>,
                {
                    <Self as ::sparse::HasComponent<T>>::insert(self, entity, value)
                }

                /// Removes `entity`'s `T`, leaving the groups owning `T` innermost first.
                /// Absent components and dead entities give `None`.
                #vis fn remove<T>(&mut self, entity: ::sparse::Entity) -> ::core::option::Option<T>
                where
                    Self: ::sparse::HasComponent<T>,
                {
                    <Self as ::sparse::HasComponent<T>>::remove(self, entity)
                }

                /// `entity`'s `T`.
                #vis fn get<T>(&self, entity: ::sparse::Entity) -> ::core::option::Option<&T>
                where
                    Self: ::sparse::HasComponent<T>,
                {
                    <Self as ::sparse::HasComponent<T>>::storage(self).get(entity)
                }

                /// `entity`'s `T`, mutably.
                #vis fn get_mut<T>(&mut self, entity: ::sparse::Entity) -> ::core::option::Option<&mut T>
                where
                    Self: ::sparse::HasComponent<T>,
                {
                    <Self as ::sparse::HasComponent<T>>::get_mut(self, entity)
                }

                /// Whether `entity` has a `T`.
                #vis fn contains<T>(&self, entity: ::sparse::Entity) -> bool
                where
                    Self: ::sparse::HasComponent<T>,
                {
                    <Self as ::sparse::HasComponent<T>>::storage(self).contains(entity)
                }

                /// The storage of `T`, read only.
                #vis fn storage<T>(&self) -> &::sparse::Storage<T>
                where
                    Self: ::sparse::HasComponent<T>,
                {
                    <Self as ::sparse::HasComponent<T>>::storage(self)
                }

                /// The entities and components of `T`, the components mutably.
                #vis fn components_mut<T>(&mut self) -> (&[::sparse::Entity], &mut [T])
                where
                    Self: ::sparse::HasComponent<T>,
                {
                    <Self as ::sparse::HasComponent<T>>::components_mut(self)
                }

                /// Destroys `entity`: leaves every group innermost first, drops its
                /// components, frees its index.
                ///
                /// # Errors
                /// `EntityError::Dead` if `entity` is not alive; nothing changes.
                #vis fn destroy(&mut self, entity: ::sparse::Entity) -> ::core::result::Result<(), ::sparse::EntityError> {
                    // SAFETY: the entity leaves its groups before its components go, so
                    // every group stays packed.
                    let w = unsafe { self.__sparse.get_mut() };
                    if !w.__sparse_entities.is_alive(entity) {
                        return ::core::result::Result::Err(::sparse::EntityError::Dead(entity));
                    }
                    #(#destroy_leaves)*
                    // Take every component out before dropping any, so that a panicking
                    // `Drop` finds the world consistent (the entity already destroyed).
                    let components = (#(w.#fields.remove(entity),)*);
                    w.__sparse_entities.destroy(entity);
                    ::core::mem::drop(components);
                    ::core::result::Result::Ok(())
                }

                /// Aligned slices of the group of `G` (its types in declaration order).
                #vis fn group<G: ::sparse::ComponentSet>(&mut self) -> ::sparse::GroupMut<'_, G>
                where
                    Self: ::sparse::HasGroup<G>,
                {
                    <Self as ::sparse::HasGroup<G>>::group(self)
                }

                /// The number of entities in the group of `G`.
                #vis fn group_len<G: ::sparse::ComponentSet>(&self) -> usize
                where
                    Self: ::sparse::HasGroup<G>,
                {
                    <Self as ::sparse::HasGroup<G>>::group_len(self)
                }

                /// Sorts the group of `G` layer by layer, keeping inner groups valid.
                ///
                /// # Panics
                /// Passes on a panic of `compare`; the group is then left as it was.
                #vis fn sort_group<G: ::sparse::ComponentSet>(
                    &mut self,
                    compare: impl FnMut(G::Refs<'_>, G::Refs<'_>) -> ::core::cmp::Ordering,
                ) where
                    Self: ::sparse::HasGroup<G>,
                {
                    <Self as ::sparse::HasGroup<G>>::sort_group(self, compare)
                }

                /// Sorts the storage of `T`, which no group owns.
                ///
                /// # Panics
                /// Passes on a panic of `compare`; the storage is then left as it was.
                #vis fn sort<T>(&mut self, compare: impl FnMut(&T, &T) -> ::core::cmp::Ordering)
                where
                    Self: ::sparse::Unowned<T>,
                {
                    <Self as ::sparse::Unowned<T>>::sort(self, compare)
                }

                /// A join over the storages of `G`, driven by the smallest.
                ///
                /// # Panics
                /// Panics if `G` names a type twice.
                #vis fn view<G: ::sparse::ViewOf<Self>>(&mut self) -> ::sparse::View<'_, G> {
                    G::view(self)
                }

                /// Checks every invariant of the world (storages, liveness, groups).
                ///
                /// # Errors
                /// A description of the first broken invariant.
                #vis fn check(&self) -> ::core::result::Result<(), ::std::string::String> {
                    let w = self.__sparse.get();
                    #checks
                    ::core::result::Result::Ok(())
                }

                #(#accessors)*
            }

            impl ::core::default::Default for #ident {
                fn default() -> Self {
                    Self::new()
                }
            }

            impl ::sparse::__private::WorldEntities for #ident {
                #[inline]
                fn spawn_entity(&mut self) -> ::sparse::Entity {
                    // SAFETY: spawning touches no storage.
                    unsafe { self.__sparse.get_mut() }.__sparse_entities.spawn()
                }

                #[inline]
                fn reserve_entities(&mut self, additional: usize) {
                    // SAFETY: reserving capacity changes no storage's structure.
                    unsafe { self.__sparse.get_mut() }.__sparse_entities.reserve(additional)
                }

                #[inline]
                fn enter_all_groups(&mut self, entity: ::sparse::Entity) {
                    // SAFETY: test-and-enter, outermost first in each chain, keeps every
                    // group packed.
                    let w = unsafe { self.__sparse.get_mut() };
                    #(#enter_all)*
                }
            }

            #(#component_impls)*
            #(#group_impls)*
        }
    }

    fn checks(&self) -> TokenStream {
        let storage_checks = self.world.storages.iter().map(|s| {
            let (field, name) = (&s.ident, s.ident.to_string());
            quote! {
                w.#field.check().map_err(|e| ::std::format!("{}: {}", #name, e))?;
                ::sparse::__private::check_alive(&w.__sparse_entities, w.#field.set(), #name)?;
            }
        });
        let group_checks = self.groups.iter().map(|&g| {
            let fields = self.world.groups[g]
                .types
                .iter()
                .map(|(_, key)| &self.world.storage(key).expect("stored").ident);
            let len = Self::len_field(g);
            let name = self.group_name(g);
            quote! {
                ::sparse::__private::check_group(&[#(w.#fields.set(),)*], w.#len)
                    .map_err(|e| ::std::format!("group {}: {}", #name, e))?;
            }
        });
        let nesting = self
            .layout
            .into_iter()
            .flat_map(|l| l.chains())
            .flat_map(|chain| chain.windows(2))
            .map(|pair| {
                let (outer, inner) = (Self::len_field(pair[0]), Self::len_field(pair[1]));
                let message = format!(
                    "group {} is longer than its outer group {}",
                    self.group_name(pair[1]),
                    self.group_name(pair[0])
                );
                quote! {
                    if w.#inner > w.#outer {
                        return ::core::result::Result::Err(::std::string::String::from(#message));
                    }
                }
            });
        quote!(#(#storage_checks)* #(#group_checks)* #(#nesting)*)
    }

    fn component_impl(&self, field: &Ident, ty: &Type, key: &str) -> TokenStream {
        let ident = &self.world.ident;
        let enter_order = self
            .layout
            .map(|l| l.enter_order(&key.to_owned()))
            .unwrap_or_default();
        let owned = !enter_order.is_empty();
        let enters = enter_order.iter().map(|&g| self.enter_tracked(g, key));
        let leaves = enter_order
            .iter()
            .rev()
            .map(|&g| self.leave_tracked(g, key));
        let span = ty.span();
        let unowned = (!owned || self.layout.is_none()).then(|| {
            quote_spanned! {span=>
                impl ::sparse::Unowned<#ty> for #ident {
                    fn sort(&mut self, compare: impl FnMut(&#ty, &#ty) -> ::core::cmp::Ordering) {
                        // SAFETY: no group owns this storage, so reordering it breaks none.
                        unsafe { self.__sparse.get_mut() }.#field.sort_by(compare)
                    }
                }
            }
        });
        quote_spanned! {span=>
            // SAFETY: `storage_ptr` projects the field of this type through raw pointers only,
            // and each stored type has its own field.
            unsafe impl ::sparse::HasComponent<#ty> for #ident {
                #[inline]
                fn storage(&self) -> &::sparse::Storage<#ty> {
                    &self.__sparse.get().#field
                }

                #[inline]
                fn get_mut(&mut self, entity: ::sparse::Entity) -> ::core::option::Option<&mut #ty> {
                    // SAFETY: hands out a value; the structure does not change.
                    unsafe { self.__sparse.get_mut() }.#field.get_mut(entity)
                }

                #[inline]
                fn components_mut(&mut self) -> (&[::sparse::Entity], &mut [#ty]) {
                    // SAFETY: hands out values; the structure does not change.
                    unsafe { self.__sparse.get_mut() }.#field.as_mut_slices()
                }

                #[inline]
                fn insert(&mut self, entity: ::sparse::Entity, value: #ty) -> ::core::result::Result<::core::option::Option<#ty>, ::sparse::EntityError> {
                    // SAFETY: the new component is appended past every group, then the
                    // groups owning it are entered outermost first, which keeps each one
                    // the packed prefix of its storages.
                    let w = unsafe { self.__sparse.get_mut() };
                    if !w.__sparse_entities.is_alive(entity) {
                        return ::core::result::Result::Err(::sparse::EntityError::Dead(entity));
                    }
                    // The new component goes at the end, at `position`, past every group.
                    let position = w.#field.len();
                    // SAFETY: no other version of the entity's index has such a component:
                    // `destroy` drops every component of the entities it destroys.
                    if let ::core::option::Option::Some(old) = unsafe { w.#field.insert_alive(entity, value) } {
                        return ::core::result::Result::Ok(::core::option::Option::Some(old));
                    }
                    #(#enters)*
                    let _ = position;
                    ::core::result::Result::Ok(::core::option::Option::None)
                }

                #[inline]
                fn remove(&mut self, entity: ::sparse::Entity) -> ::core::option::Option<#ty> {
                    // SAFETY: the entity leaves the groups owning this type innermost first
                    // before the component goes, so every group stays packed.
                    let w = unsafe { self.__sparse.get_mut() };
                    let position = w.#field.index_of(entity)?;
                    #(#leaves)*
                    // The tracked position is right whenever the groups are; verify it anyway
                    // so that nothing but this entity's component can ever be removed.
                    let position = if w.#field.entities().get(position) == ::core::option::Option::Some(&entity) {
                        position
                    } else {
                        w.#field.index_of(entity)?
                    };
                    ::core::option::Option::Some(w.#field.remove_at(position).1)
                }

                #[inline]
                fn reserve(&mut self, additional: usize) {
                    // SAFETY: reserving capacity changes no storage's structure.
                    unsafe { self.__sparse.get_mut() }.#field.reserve(additional)
                }

                #[inline]
                unsafe fn push_new(&mut self, entity: ::sparse::Entity, value: #ty) {
                    // SAFETY: the caller guarantees `entity` is alive and has no such
                    // component (so no version of its index is stored: worlds drop the
                    // components of destroyed entities), and enters the groups afterwards.
                    unsafe { self.__sparse.get_mut().#field.push_new(entity, value) }
                }

                #[inline]
                unsafe fn append_new(&mut self, entities: &[::sparse::Entity], values: &mut ::std::vec::Vec<#ty>) {
                    // SAFETY: the caller guarantees the entities are alive, distinct and have
                    // no such component, and enters the groups afterwards.
                    unsafe { self.__sparse.get_mut().#field.append_new(entities, values) }
                }

                unsafe fn storage_ptr(world: *mut Self) -> *mut ::sparse::Storage<#ty> {
                    // SAFETY: the caller guarantees `world` is valid; only fields are projected.
                    unsafe { &raw mut (*::sparse::__private::Sealed::as_mut_ptr(&raw mut (*world).__sparse)).#field }
                }
            }

            #unowned
        }
    }

    fn group_impl(&self, group: usize) -> TokenStream {
        let ident = &self.world.ident;
        let tuple = self.group_tuple(group);
        let owned = self.owned(group);
        let len = Self::len_field(group);
        let inner_groups: Vec<usize> = self
            .layout
            .map(|l| l.inner_groups(group).to_vec())
            .unwrap_or_default();
        let inner_lens = inner_groups.iter().rev().map(|&g| Self::len_field(g));
        // What to permute over which range: the same rule the runtime `World` uses.
        let targets = match self.layout {
            Some(layout) => layout.sort_targets(group),
            None => self.world.groups[group]
                .types
                .iter()
                .map(|(_, key)| (key.clone(), group))
                .collect(),
        };
        let applies = targets.iter().map(|(key, g)| {
            let field = &self.world.storage(key).expect("stored").ident;
            let g_len = Self::len_field(*g);
            quote!(::sparse::__private::apply_sources(&mut w.#field, &sources[..w.#g_len]);)
        });
        let attr = &self.world.groups[group].attr;
        let span = match &attr.meta {
            syn::Meta::List(list) => list.delimiter.span().join(),
            _ => attr.span(),
        };
        quote_spanned! {span=>
            impl ::sparse::HasGroup<#tuple> for #ident {
                #[inline]
                fn group(&mut self) -> ::sparse::GroupMut<'_, #tuple> {
                    // SAFETY: only the group's values are handed out; its structure cannot
                    // change while they are borrowed.
                    let w = unsafe { self.__sparse.get_mut() };
                    let (entities, slices) = <#tuple as ::sparse::ComponentSet>::prefixes(#owned, w.#len);
                    ::sparse::GroupMut::from_parts(entities, slices)
                }

                #[inline]
                fn group_len(&self) -> usize {
                    self.__sparse.get().#len
                }

                fn sort_group(
                    &mut self,
                    compare: impl FnMut(
                        <#tuple as ::sparse::ComponentSet>::Refs<'_>,
                        <#tuple as ::sparse::ComponentSet>::Refs<'_>,
                    ) -> ::core::cmp::Ordering,
                ) {
                    // SAFETY: the permutation moves entities only within layers between
                    // nested groups, and is applied to every storage those groups own.
                    let w = unsafe { self.__sparse.get_mut() };
                    let layer_ends = [#(w.#inner_lens,)* w.#len];
                    let sources = ::sparse::__private::group_sources::<#tuple>(#owned, &layer_ends, compare);
                    #(#applies)*
                }
            }
        }
    }
}
