//! The storages module: the storages struct, whose fields no code outside the module can
//! reach, its access methods, and (from `steps.rs` and `parts.rs`) the steps that change
//! its structure and the parts borrows take.
//!
//! The struct is generic over the component types (`T0`, `T1`, …) so that the module
//! names nothing of the user's: a world declared in a function body, or with types under
//! `self::`/`super::` paths, needs no path rewriting.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::steps::{self, len_of, observed, owned};
use super::{Cx, module_name, parts};

/// `mod __sparse { … }`.
pub(super) fn module(cx: &Cx<'_>) -> TokenStream {
    let krate_alias = &cx.krate_alias;
    let name = module_name();
    let params = cx.params();
    let fields = (0..cx.model.storages.len()).map(|i| {
        let (cfg, field, param) = (cx.cfg_storage(i), Cx::storage_field(i), Cx::param(i));
        quote!(#cfg #field: __sg::Storage<#param>,)
    });
    let lens = (0..cx.plan.groups.len()).map(|g| {
        let (cfg, len) = (cx.cfg_group(g), Cx::len_field(g));
        if cx.plan.groups[g].is_non_owning() {
            quote!(#cfg #len: __p::SparseSet,)
        } else {
            quote!(#cfg #len: usize,)
        }
    });
    let inits = (0..cx.model.storages.len()).map(|i| {
        let (cfg, field) = (cx.cfg_storage(i), Cx::storage_field(i));
        if cx.tracked[i] {
            quote!(#cfg #field: __sg::Storage::tracked(),)
        } else {
            quote!(#cfg #field: __sg::Storage::new(),)
        }
    });
    let ticks = (0..cx.model.storages.len())
        .filter(|&i| cx.tracked[i])
        .map(|i| {
            let (cfg, field) = (cx.cfg_storage(i), Cx::storage_field(i));
            quote!(#cfg self.#field.tick();)
        });
    let steps = (0..cx.model.storages.len())
        .filter(|&i| cx.tracked[i])
        .map(|i| {
            let (cfg, field) = (cx.cfg_storage(i), Cx::storage_field(i));
            quote!(#cfg __p::step_changes(&mut self.#field),)
        });
    let jumps = (0..cx.model.storages.len())
        .filter(|&i| cx.tracked[i])
        .map(|i| {
            let (cfg, field) = (cx.cfg_storage(i), Cx::storage_field(i));
            quote!(#cfg __p::jump_change_count(&mut self.#field, now);)
        });
    let holds = (0..cx.model.storages.len()).map(|i| {
        let (cfg, field) = (cx.cfg_storage(i), Cx::storage_field(i));
        quote!(#cfg if self.#field.contains(entity) { return false; })
    });
    let len_inits = (0..cx.plan.groups.len()).map(|g| {
        let (cfg, len) = (cx.cfg_group(g), Cx::len_field(g));
        if cx.plan.groups[g].is_non_owning() {
            quote!(#cfg #len: __p::SparseSet::new(),)
        } else {
            quote!(#cfg #len: 0,)
        }
    });
    let resources = 0..cx.model.resources.len();
    let resource_fields = resources.clone().map(|j| {
        let (field, param) = (Cx::resource_field(j), Cx::resource_param(j));
        quote!(#field: #param,)
    });
    let resource_args = resources.clone().map(|j| {
        let (field, param) = (Cx::resource_field(j), Cx::resource_param(j));
        quote!(#field: #param)
    });
    let resource_inits = resources.clone().map(|j| {
        let field = Cx::resource_field(j);
        quote!(#field,)
    });
    let resource_methods = resources.map(|j| {
        let (field, param) = (Cx::resource_field(j), Cx::resource_param(j));
        let [shared, mutable, _] = Cx::resource_methods(j);
        quote! {
            /// The resource.
            #[inline(always)]
            pub fn #shared(&self) -> &#param {
                &self.#field
            }

            /// The resource, mutably.
            #[inline(always)]
            pub fn #mutable(&mut self) -> &mut #param {
                &mut self.#field
            }
        }
    });
    let storage_methods = (0..cx.model.storages.len()).map(|i| storage_methods(cx, i));
    let group_methods = (0..cx.plan.groups.len()).map(|g| group_methods(cx, g));
    let plans = (0..cx.model.storages.len()).map(|i| steps::component_plan(cx, i));
    let entity_plan = steps::entity_plan(cx);
    let parts = parts::emit(cx);
    let check = check(cx);
    let debug = debug(cx);
    let clone = clone(cx);
    let serde = serde(cx);
    let enter_all = steps::steps_enter_all(cx);
    quote! {
        #[allow(dead_code)]
        mod #name {
            #krate_alias
            use __sg::__private as __p;

            /// The world's key (see `sparse_core`'s `Internals`): its field is private to
            /// this module, which no code outside the expansion can name, so the one
            /// value below is all there is.
            pub struct Key(());

            /// The key, for the expansion's own impls.
            pub(super) const KEY: Key = Key(());

            /// The storages of a world, the lengths of its owning groups and the member
            /// sets of its non-owning groups. The fields are private to this module: only
            /// the steps below change their structure, and what reaches a storage or the
            /// allocator mutably takes the key.
            pub struct Storages<#(#params),*> {
                entities: __sg::Entities,
                #(#fields)*
                #(#resource_fields)*
                #(#lens)*
                marker: ::core::marker::PhantomData<fn() -> (#(#params,)*)>,
            }

            #[automatically_derived]
            impl<#(#params),*> Storages<#(#params),*> {
                /// Empty storages and groups, and the resources.
                pub fn new(#(#resource_args),*) -> Self {
                    Storages {
                        entities: __p::entities(),
                        #(#inits)*
                        #(#resource_inits)*
                        #(#len_inits)*
                        marker: ::core::marker::PhantomData,
                    }
                }

                #(#resource_methods)*

                /// Starts a new tick of change detection in every tracked storage.
                #[inline]
                pub fn tick(&mut self) {
                    #(#ticks)*
                }

                /// Moves the change count of every tracked storage on within the tick (a
                /// schedule's stage); the new count.
                #[inline]
                pub fn step_changes(&mut self) -> __p::ChangeCount {
                    __p::change_count(&[#(#steps)*])
                }

                /// Moves the change count of every tracked storage forward to `now` if
                /// it is behind (tests of the count's restart).
                #[inline]
                pub fn jump_change_count(&mut self, now: u32) {
                    let _ = now;
                    #(#jumps)*
                }

                /// The entity allocator.
                #[inline]
                pub fn entities(&self) -> &__sg::Entities {
                    &self.entities
                }

                /// Creates an entity.
                #[inline]
                pub fn spawn(&mut self) -> __sg::Entity {
                    self.entities.spawn()
                }

                /// Whether `entity` has no component at all.
                pub fn holds_nothing(&self, entity: __sg::Entity) -> bool {
                    #(#holds)*
                    let _ = entity;
                    true
                }

                /// Reserves room for `additional` entities.
                pub fn reserve_entities(&mut self, additional: usize) {
                    self.entities.reserve_capacity(additional);
                }

                /// Makes the entities reserved through `&Entities` alive.
                #[inline]
                pub fn flush_entities(&mut self) {
                    self.entities.flush();
                }

                /// The entity allocator, mutably, for the key's holder.
                #[inline]
                pub fn raw_entities(&mut self, _: &Key) -> &mut __sg::Entities {
                    &mut self.entities
                }

                /// Destroys `entity`, leaving every group innermost first.
                #[inline]
                pub fn destroy(&mut self, entity: __sg::Entity) -> ::core::result::Result<(), __sg::EntityError> {
                    __p::destroy(Destroy(self), entity)
                }

                /// Destroys every alive entity of `entities` in one pass over each storage.
                pub fn destroy_many(&mut self, entities: &[__sg::Entity]) -> usize {
                    __p::destroy_many(Destroy(self), entities)
                }

                /// Test-and-enters every group, outer groups first.
                #[inline]
                pub fn enter_all(&mut self, entity: __sg::Entity) {
                    #enter_all
                }

                #check
                #debug

                #(#storage_methods)*
                #(#group_methods)*
            }

            #clone
            #serde
            #(#plans)*
            #entity_plan
            #parts
        }
    }
}

/// The methods of one storage: access, and the steps that add and remove its component.
fn storage_methods(cx: &Cx<'_>, i: usize) -> TokenStream {
    let cfg = cx.cfg_storage(i);
    let (field, param) = (Cx::storage_field(i), Cx::param(i));
    let m = Cx::storage_methods(i);
    let (storage, get_mut, values_mut, insert, remove) =
        (&m.storage, &m.get_mut, &m.values_mut, &m.insert, &m.remove);
    let (insert_many, remove_many, clear, reserve, sort) = (
        &m.insert_many,
        &m.remove_many,
        &m.clear,
        &m.reserve,
        &m.sort,
    );
    let raw = &m.raw;
    let plan = format_ident!("Plan{}", i);
    let sort = cx.plan.storages[i].sortable.then(|| {
        quote! {
            #cfg
            /// Sorts the storage, which no group owns.
            pub fn #sort(&mut self, order: impl __sg::__private::StorageOrder<#param>) {
                __p::sort_storage(&mut self.#field, order);
            }
        }
    });
    quote! {
        #cfg
        #[inline]
        pub fn #storage(&self) -> &__sg::Storage<#param> {
            &self.#field
        }

        #cfg
        #[inline]
        pub fn #get_mut(&mut self, entity: __sg::Entity) -> ::core::option::Option<&mut #param> {
            self.#field.get_mut(entity)
        }

        #cfg
        #[inline]
        pub fn #values_mut(&mut self) -> __sg::ValuesMut<'_, #param> {
            __p::values_mut(&mut self.#field)
        }

        #cfg
        #[inline]
        pub fn #insert(&mut self, entity: __sg::Entity, value: #param) -> ::core::result::Result<::core::option::Option<#param>, __sg::EntityError> {
            __p::insert(#plan(self), entity, value)
        }

        #cfg
        #[inline]
        pub fn #remove(&mut self, entity: __sg::Entity) -> ::core::option::Option<#param> {
            __p::remove(#plan(self), entity)
        }

        #cfg
        pub fn #insert_many(
            &mut self,
            items: ::std::vec::Vec<(__sg::Entity, #param)>,
        ) -> ::core::result::Result<(usize, ::std::vec::Vec<#param>), __sg::InsertManyError<#param>> {
            __p::insert_many(#plan(self), items)
        }

        #cfg
        pub fn #remove_many(&mut self, entities: &[__sg::Entity]) -> usize {
            __p::remove_many(#plan(self), entities)
        }

        #cfg
        pub fn #clear(&mut self) {
            __p::clear(#plan(self));
        }

        #cfg
        pub fn #reserve(&mut self, additional: usize) {
            self.#field.reserve(additional);
        }

        #cfg
        #[inline]
        pub fn #raw(&mut self, _: &Key) -> &mut __sg::Storage<#param> {
            &mut self.#field
        }

        #sort
    }
}

/// The methods of one group: access, length, and sorting.
fn group_methods(cx: &Cx<'_>, g: usize) -> TokenStream {
    let cfg = cx.cfg_group(g);
    let plan = &cx.plan.groups[g];
    let key = cx.group_params(g);
    let len = len_of(cx, g, &quote!(w));
    let self_len = len_of(cx, g, &quote!(self));
    let (owned, observed) = (owned(cx, g), observed(cx, g));
    let (owned_ref, observed_ref) = (
        steps::storages_ref(&plan.decl.owned),
        steps::storages_ref(&plan.decl.observed),
    );
    let m = Cx::group_methods(g);
    let (group, group_ref, group_len, sort_group) =
        (&m.group, &m.group_ref, &m.group_len, &m.sort_group);
    // The inner groups' lengths, innermost first, then this group's: the layers a sort
    // keeps. An inner group configured out by a `#[cfg]` of its types is no layer (its
    // error is reported on the group; the rest of the world still compiles).
    let inner_cfgs: Vec<TokenStream> = plan
        .inner
        .iter()
        .rev()
        .map(|&inner| cx.cfg_group(inner))
        .collect();
    let inner_lens = plan
        .inner
        .iter()
        .rev()
        .map(|&inner| len_of(cx, inner, &quote!(w)));
    let layer_ends = if inner_cfgs.iter().all(TokenStream::is_empty) {
        quote!(let layer_ends = [#(#inner_lens,)* #len];)
    } else {
        quote! {
            let mut layer_ends = ::std::vec::Vec::new();
            #(#inner_cfgs layer_ends.push(#inner_lens);)*
            layer_ends.push(#len);
        }
    };
    // Bounds on the component types, not on the key: a bound on the key would keep its
    // associated types from being normalized through the impl.
    let bounds = plan.storages().map(|i| {
        let param = Cx::param(i);
        quote!(#param: __sg::Component)
    });
    let bounds = quote!(#(#bounds,)*);
    let (access, access_ref, sort) = if plan.is_non_owning() {
        let members = Cx::len_field(g);
        (
            quote!(__p::group_over::<#key>(&w.#members, (), #observed)),
            quote!(__p::group_ref_over::<#key>(&w.#members, (), #observed_ref)),
            quote!(__p::sort_members::<#key>(&mut w.#members, (), #observed, order);),
        )
    } else {
        let applies = plan.sort_targets.iter().map(|&(i, owner)| {
            let (field, owner_len) = (Cx::storage_field(i), len_of(cx, owner, &quote!(w)));
            // The owner names `i`: its `#[cfg]` covers the storage's.
            let owner_cfg = cx.cfg_group(owner);
            quote!(#owner_cfg __p::apply_sources(&mut w.#field, &sources[..#owner_len]);)
        });
        (
            quote!(__p::group_mut::<#key>(#owned, #len, #observed)),
            quote!(__p::group_ref::<#key>(#owned_ref, #len, #observed_ref)),
            quote! {
                #layer_ends
                let sources = __p::group_sources::<#key>(#owned, #observed, &layer_ends, order);
                #(#applies)*
            },
        )
    };
    quote! {
        #cfg
        #[inline]
        pub fn #group(&mut self) -> __p::GroupMut<'_, #key>
        where
            #bounds
        {
            let w = self;
            #access
        }

        #cfg
        #[inline]
        pub fn #group_ref(&self) -> __p::GroupRef<'_, #key>
        where
            #bounds
        {
            let w = self;
            #access_ref
        }

        #cfg
        #[inline]
        pub fn #group_len(&self) -> usize {
            #self_len
        }

        #cfg
        pub fn #sort_group(&mut self, order: impl __sg::__private::GroupOrder<#key>)
        where
            #bounds
        {
            let w = self;
            #sort
        }
    }
}

/// `inspect`: the storages and groups, handed to the shared check or diagram.
fn check(cx: &Cx<'_>) -> TokenStream {
    let storages = (0..cx.model.storages.len()).map(|i| {
        let (cfg, field) = (cx.cfg_storage(i), Cx::storage_field(i));
        let name = cx.model.storages[i].field.ident.to_string();
        quote! {
            #cfg
            storages.push((#name, &self.#field));
        }
    });
    let groups = (0..cx.plan.groups.len()).map(|g| {
        let cfg = cx.cfg_group(g);
        let plan = &cx.plan.groups[g];
        let sets = |storages: &[usize]| {
            let fields = storages.iter().map(|&i| Cx::storage_field(i));
            quote!([#(self.#fields.set()),*])
        };
        let (owned, observed, excluded) = (
            sets(&plan.decl.owned),
            sets(&plan.decl.observed),
            sets(&plan.decl.excluded),
        );
        let vars = ["owned", "observed", "excluded"].map(|name| format_ident!("{}{}", name, g));
        let [owned_var, observed_var, excluded_var] = &vars;
        let len = len_of(cx, g, &quote!(self));
        let members = if plan.is_non_owning() {
            let field = Cx::len_field(g);
            quote!(::core::option::Option::Some(&self.#field))
        } else {
            quote!(::core::option::Option::None)
        };
        let name = &plan.name;
        quote! {
            #cfg
            let #owned_var: [&__p::SparseSet; _] = #owned;
            #cfg
            let #observed_var: [&__p::SparseSet; _] = #observed;
            #cfg
            let #excluded_var: [&__p::SparseSet; _] = #excluded;
            #cfg
            groups.push(__p::GroupInfo {
                name: #name,
                owned: &#owned_var,
                observed: &#observed_var,
                excluded: &#excluded_var,
                len: #len,
                members: #members,
            });
        }
    });
    let nesting = cx
        .plan
        .nesting
        .iter()
        .map(|(outer, inner)| quote!((#outer, #inner)));
    // A storage names its component type by `TypeId`.
    let statics = (0..cx.model.storages.len()).map(|i| {
        let param = Cx::param(i);
        quote!(#param: 'static)
    });
    quote! {
        /// Hands the world, as its check and its diagram read it, to `f`.
        pub fn inspect<R>(&self, f: impl ::core::ops::FnOnce(&__p::WorldInfo<'_>) -> R) -> R
        where
            #(#statics,)*
        {
            let mut storages: ::std::vec::Vec<(&str, &dyn __p::StorageInfo)> = ::std::vec::Vec::new();
            #(#storages)*
            let mut groups: ::std::vec::Vec<__p::GroupInfo<'_>> = ::std::vec::Vec::new();
            #(#groups)*
            f(&__p::WorldInfo {
                entities: &self.entities,
                storages: &storages,
                groups: &groups,
                nesting: &[#(#nesting),*],
            })
        }
    }
}

/// `debug`: the storages by field name and the groups' lengths.
fn debug(cx: &Cx<'_>) -> TokenStream {
    if !cx.model.derives.debug {
        return TokenStream::new();
    }
    let params = cx.params();
    let storages = (0..cx.model.storages.len()).map(|i| {
        let (cfg, field) = (cx.cfg_storage(i), Cx::storage_field(i));
        let name = cx.model.storages[i].field.ident.to_string();
        quote! {
            #cfg
            s.field(#name, &self.#field);
        }
    });
    let resources = cx.model.resources.iter().enumerate().map(|(j, r)| {
        let (field, name) = (Cx::resource_field(j), r.field.ident.to_string());
        quote!(s.field(#name, &self.#field);)
    });
    let groups = (0..cx.plan.groups.len()).map(|g| {
        let (cfg, len, name) = (
            cx.cfg_group(g),
            len_of(cx, g, &quote!(self)),
            &cx.plan.groups[g].name,
        );
        quote! {
            #cfg
            groups.push((#name, #len));
        }
    });
    quote! {
        /// Writes the storages and resources by field name, then each group's length.
        pub fn debug(&self, f: &mut ::core::fmt::Formatter<'_>, name: &str) -> ::core::fmt::Result
        where
            #(#params: ::core::fmt::Debug,)*
        {
            let mut s = f.debug_struct(name);
            #(#storages)*
            #(#resources)*
            let mut groups: ::std::vec::Vec<(&str, usize)> = ::std::vec::Vec::new();
            #(#groups)*
            s.field("groups", &__p::GroupLens(&groups));
            s.finish()
        }
    }
}

/// `Clone` for the storages, when the world derives it.
fn clone(cx: &Cx<'_>) -> TokenStream {
    if !cx.model.derives.clone {
        return TokenStream::new();
    }
    let params = cx.params();
    let fields = (0..cx.model.storages.len()).map(|i| {
        let (cfg, field) = (cx.cfg_storage(i), Cx::storage_field(i));
        quote!(#cfg #field: ::core::clone::Clone::clone(&self.#field),)
    });
    let resources = (0..cx.model.resources.len()).map(|j| {
        let field = Cx::resource_field(j);
        quote!(#field: ::core::clone::Clone::clone(&self.#field),)
    });
    let lens = (0..cx.plan.groups.len()).map(|g| {
        let (cfg, len) = (cx.cfg_group(g), Cx::len_field(g));
        quote!(#cfg #len: ::core::clone::Clone::clone(&self.#len),)
    });
    quote! {
        #[automatically_derived]
        impl<#(#params: ::core::clone::Clone),*> ::core::clone::Clone for Storages<#(#params),*> {
            fn clone(&self) -> Self {
                Storages {
                    entities: ::core::clone::Clone::clone(&self.entities),
                    #(#fields)*
                    #(#resources)*
                    #(#lens)*
                    marker: ::core::marker::PhantomData,
                }
            }
        }
    }
}

/// The snapshot methods, when the world derives `Serialize` or `Deserialize`: storages
/// written as a map from field name to columns, and read back through a loader holding
/// each storage's columns until all are validated.
fn serde(cx: &Cx<'_>) -> TokenStream {
    let derives = &cx.model.derives;
    if derives.serialize.is_none() && derives.deserialize.is_none() {
        return TokenStream::new();
    }
    let params = cx.params();
    let component_params: Vec<_> = (0..cx.model.storages.len()).map(Cx::param).collect();
    let resource_params: Vec<_> = (0..cx.model.resources.len())
        .map(Cx::resource_param)
        .collect();
    let storages: Vec<_> = (0..cx.model.storages.len())
        .map(|i| {
            let (cfg, field, param) = (cx.cfg_storage(i), Cx::storage_field(i), Cx::param(i));
            let name = cx.model.storages[i].field.ident.to_string();
            (cfg, field, param, name)
        })
        .collect();
    let resources: Vec<_> = (0..cx.model.resources.len())
        .map(|j| {
            let (field, param) = (Cx::resource_field(j), Cx::resource_param(j));
            (field, param, cx.model.resources[j].field.ident.to_string())
        })
        .collect();
    let resource_count = resources.len();
    let resource_entries = resources.iter().map(|(field, _, name)| {
        quote! {
            __p::serde::ser::SerializeMap::serialize_entry(&mut map, #name, &self.0.#field)?;
        }
    });
    let resource_slots = resources
        .iter()
        .map(|(field, param, _)| quote!(#field: ::core::option::Option<#param>,));
    let resource_slot_inits = resources
        .iter()
        .map(|(field, ..)| quote!(#field: ::core::option::Option::None,));
    let resource_names = resources
        .iter()
        .map(|(.., name)| name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let resource_reads = resources.iter().map(|(field, _, name)| {
        quote! {
            if name == #name {
                return __p::snapshot::read_resource(map, #name, &mut self.#field);
            }
        }
    });
    let resource_inserts = resources.iter().map(|(field, ..)| {
        quote! {
            if let ::core::option::Option::Some(value) = self.#field {
                world.#field = value;
            }
        }
    });
    let count = storages
        .iter()
        .map(|(cfg, ..)| quote!(#cfg let count = count + 1;));
    let entries = storages.iter().map(|(cfg, field, _, name)| {
        quote! {
            #cfg
            {
                __p::serde::ser::SerializeMap::serialize_entry(
                    &mut map,
                    #name,
                    &__p::snapshot::SharedColumns::new(previous, &self.0.#field),
                )?;
                previous = self.0.#field.entities();
            }
        }
    });
    let slots = storages
        .iter()
        .map(|(cfg, field, param, ..)| quote!(#cfg #field: ::core::option::Option<__p::snapshot::Columns<#param>>,));
    let slot_inits = storages
        .iter()
        .map(|(cfg, field, ..)| quote!(#cfg #field: ::core::option::Option::None,));
    let all_names = storages
        .iter()
        .map(|(.., name)| name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let reads = storages.iter().map(|(cfg, field, _, name)| {
        quote! {
            #cfg
            if name == #name {
                return __p::snapshot::read_columns(map, #name, &mut self.#field, reading);
            }
        }
    });
    let validates = storages.iter().map(|(cfg, field, _, name)| {
        quote! {
            #cfg
            if let ::core::option::Option::Some(columns) = &self.#field {
                __p::snapshot::validate_columns(entities, #name, columns)?;
            }
        }
    });
    // Observed and excluded storages before owned ones: valid snapshots load with no move.
    let decls: Vec<_> = cx.plan.groups.iter().map(|g| g.decl.clone()).collect();
    let order = sparse_core::__private::load_order(storages.len(), &decls);
    let inserts = order.iter().map(|&i| {
        let (cfg, field, ..) = &storages[i];
        let plan = format_ident!("Plan{}", i);
        quote! {
            #cfg
            if let ::core::option::Option::Some(columns) = self.#field {
                __p::append_many(#plan(&mut *world), &columns.entities, columns.components);
            }
        }
    });
    // The non-owning groups' member sets, in declaration order: a snapshot keeps their order.
    let member_sets: Vec<_> = cx
        .plan
        .groups
        .iter()
        .enumerate()
        .filter(|(_, g)| g.is_non_owning())
        .map(|(g, _)| (cx.cfg_group(g), Cx::len_field(g)))
        .collect();
    let shared_sets = member_sets
        .iter()
        .map(|(cfg, len)| quote!(#cfg sets.push(&self.#len);));
    let mut_sets = member_sets
        .iter()
        .map(|(cfg, len)| quote!(#cfg sets.push(&mut world.#len);));
    quote! {
        __p::if_serde! {
            #[automatically_derived]
            impl<#(#component_params: __sg::Component,)* #(#resource_params,)*> Storages<#(#params),*> {
                /// Writes the world's snapshot.
                #[allow(clippy::vec_init_then_push)]
                pub fn serialize_world<__S: __p::serde::Serializer>(
                    &self,
                    serializer: __S,
                    name: &'static str,
                ) -> ::core::result::Result<__S::Ok, __S::Error>
                where
                    #(#params: __p::serde::Serialize,)*
                {
                    #[allow(unused_mut)]
                    let mut sets: ::std::vec::Vec<&__p::SparseSet> = ::std::vec::Vec::new();
                    #(#shared_sets)*
                    __p::snapshot::serialize_world(serializer, name, __p::snapshot::WorldWritten {
                        entities: &self.entities,
                        storages: &StorageMap(self),
                        member_sets: &sets,
                        resources: &ResourceMap(self),
                    })
                }

                /// Reads a snapshot into these storages, which are empty (the key's holder
                /// only: loading files entities without the group steps).
                pub fn deserialize_world<'de, __D: __p::serde::Deserializer<'de>>(
                    &mut self,
                    key: &Key,
                    deserializer: __D,
                    name: &'static str,
                ) -> ::core::result::Result<(), __D::Error>
                where
                    #(#params: __p::serde::Deserialize<'de>,)*
                {
                    __p::snapshot::deserialize_world(deserializer, name, self, key, Loader {
                        #(#slot_inits)*
                        #(#resource_slot_inits)*
                        marker: ::core::marker::PhantomData,
                    })
                }
            }

            /// The storages as a map from field name to columns.
            pub struct StorageMap<'a, #(#params),*>(&'a Storages<#(#params),*>);

            #[automatically_derived]
            impl<#(#params: __p::serde::Serialize),*> __p::serde::Serialize for StorageMap<'_, #(#params),*> {
                fn serialize<__S: __p::serde::Serializer>(
                    &self,
                    serializer: __S,
                ) -> ::core::result::Result<__S::Ok, __S::Error> {
                    let count = 0usize;
                    #(#count)*
                    let mut map = __p::serde::Serializer::serialize_map(serializer, ::core::option::Option::Some(count))?;
                    // Each storage leaves out the entities it begins with that the one
                    // written before it begins with too.
                    let mut previous: &[__sg::Entity] = &[];
                    #(#entries)*
                    let _ = previous;
                    __p::serde::ser::SerializeMap::end(map)
                }
            }

            /// The resources as a map from field name to value.
            pub struct ResourceMap<'a, #(#params),*>(&'a Storages<#(#params),*>);

            #[automatically_derived]
            impl<#(#params: __p::serde::Serialize),*> __p::serde::Serialize for ResourceMap<'_, #(#params),*> {
                fn serialize<__S: __p::serde::Serializer>(
                    &self,
                    serializer: __S,
                ) -> ::core::result::Result<__S::Ok, __S::Error> {
                    #[allow(unused_mut)]
                    let mut map = __p::serde::Serializer::serialize_map(serializer, ::core::option::Option::Some(#resource_count))?;
                    #(#resource_entries)*
                    __p::serde::ser::SerializeMap::end(map)
                }
            }

            /// Each storage's columns and each resource's value, once read.
            pub struct Loader<#(#params),*> {
                #(#slots)*
                #(#resource_slots)*
                marker: ::core::marker::PhantomData<fn() -> (#(#params,)*)>,
            }

            #[automatically_derived]
            impl<'de, #(#component_params: __sg::Component + __p::serde::Deserialize<'de>,)* #(#resource_params: __p::serde::Deserialize<'de>,)*> __p::snapshot::LoadStorages<'de> for Loader<#(#params),*> {
                type World = Storages<#(#params),*>;
                type Key = Key;

                fn entities<'w>(world: &'w mut Self::World, _: &Key) -> &'w mut __sg::Entities {
                    &mut world.entities
                }

                #[allow(clippy::vec_init_then_push)]
                fn member_sets<'w>(world: &'w mut Self::World, _: &Key) -> ::std::vec::Vec<&'w mut __p::SparseSet> {
                    #[allow(unused_mut)]
                    let mut sets = ::std::vec::Vec::new();
                    #(#mut_sets)*
                    sets
                }

                fn names(&self) -> ::std::string::String {
                    ::std::string::String::from(#all_names)
                }

                fn resource_names(&self) -> ::std::string::String {
                    ::std::string::String::from(#resource_names)
                }

                fn read_resource<__A: __p::serde::de::MapAccess<'de>>(
                    &mut self,
                    name: &str,
                    map: &mut __A,
                ) -> ::core::result::Result<bool, __A::Error> {
                    #(#resource_reads)*
                    let _ = (name, map);
                    ::core::result::Result::Ok(false)
                }

                fn read<__A: __p::serde::de::MapAccess<'de>>(
                    &mut self,
                    name: &str,
                    map: &mut __A,
                    reading: &mut __p::snapshot::Reading<'_>,
                ) -> ::core::result::Result<bool, __A::Error> {
                    #(#reads)*
                    ::core::result::Result::Ok(false)
                }

                fn validate(&self, entities: &__sg::Entities) -> ::core::result::Result<(), ::std::string::String> {
                    #(#validates)*
                    ::core::result::Result::Ok(())
                }

                fn insert(self, world: &mut Self::World, _: &Key) {
                    #(#inserts)*
                    #(#resource_inserts)*
                }
            }
        }
    }
}
