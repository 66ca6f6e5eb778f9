//! The storages module: the storages struct, whose fields no code outside the module can
//! reach, and the hooks that change their structure, as straight-line calls of the group
//! engine in the order the plan gives.
//!
//! The struct is generic over the component types (`T0`, `T1`, …) so that the module
//! names nothing of the user's: a world declared in a function body, or with types under
//! `self::`/`super::` paths, needs no path rewriting.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use sparse_core::{Action, Step};

use super::{Cx, module_name};

/// `mod __sparse { … }`.
pub(super) fn module(cx: &Cx<'_>) -> TokenStream {
    let krate = &cx.krate;
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
        quote!(#cfg #field: __sg::Storage::new(),)
    });
    let len_inits = (0..cx.plan.groups.len()).map(|g| {
        let (cfg, len) = (cx.cfg_group(g), Cx::len_field(g));
        if cx.plan.groups[g].is_non_owning() {
            quote!(#cfg #len: __p::SparseSet::new(),)
        } else {
            quote!(#cfg #len: 0,)
        }
    });
    let storage_methods = (0..cx.model.storages.len()).map(|i| storage_methods(cx, i));
    let columns = columns(cx);
    let group_methods = (0..cx.plan.groups.len()).map(|g| group_methods(cx, g));
    let plans = (0..cx.model.storages.len()).map(|i| component_plan(cx, i));
    let entity_plan = entity_plan(cx);
    let check = check(cx);
    let debug = debug(cx);
    let clone = clone(cx);
    let enter_all = steps_enter_all(cx);
    quote! {
        #[allow(dead_code)]
        mod #name {
            use #krate as __sg;
            use __sg::__private as __p;

            /// The storages of a world, the lengths of its owning groups and the member
            /// sets of its non-owning groups. The fields are private to this module: only
            /// the hooks below change their structure.
            pub struct Storages<#(#params),*> {
                entities: __sg::Entities,
                #(#fields)*
                #(#lens)*
                marker: ::core::marker::PhantomData<fn() -> (#(#params,)*)>,
            }

            #[automatically_derived]
            impl<#(#params),*> Storages<#(#params),*> {
                /// Empty storages and groups.
                pub fn new() -> Self {
                    Storages {
                        entities: __p::entities(),
                        #(#inits)*
                        #(#len_inits)*
                        marker: ::core::marker::PhantomData,
                    }
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

                /// Reserves room for `additional` entities.
                pub fn reserve_entities(&mut self, additional: usize) {
                    self.entities.reserve(additional);
                }

                /// Destroys `entity`, leaving every group innermost first.
                #[inline]
                pub fn destroy(&mut self, entity: __sg::Entity) -> ::core::result::Result<(), __sg::EntityError> {
                    __p::destroy(Destroy(self), entity)
                }

                #columns

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

            #[automatically_derived]
            impl<#(#params),*> ::core::default::Default for Storages<#(#params),*> {
                fn default() -> Self {
                    Self::new()
                }
            }

            #clone
            #(#plans)*
            #entity_plan
        }
    }
}

/// The methods of one storage: access, and the hooks that add and remove its component.
fn storage_methods(cx: &Cx<'_>, i: usize) -> TokenStream {
    let cfg = cx.cfg_storage(i);
    let (field, param) = (Cx::storage_field(i), Cx::param(i));
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
    let plan = format_ident!("Plan{}", i);
    let sort = cx.plan.storages[i].sortable.then(|| {
        quote! {
            #cfg
            /// Sorts the storage, which no group owns.
            pub fn #sort(&mut self, compare: impl FnMut(&#param, &#param) -> ::core::cmp::Ordering) {
                self.#field.sort_by(compare);
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
        pub fn #components_mut(&mut self) -> (&[__sg::Entity], &mut [#param]) {
            self.#field.as_mut_slices()
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
        pub fn #reserve(&mut self, additional: usize) {
            self.#field.reserve(additional);
        }

        #cfg
        #[inline]
        pub fn #append(&mut self, token: __p::Token, entities: &[__sg::Entity], values: &mut ::std::vec::Vec<#param>) {
            __p::append_new(&mut self.#field, token, entities, values);
        }

        #sort
    }
}

/// `(&mut w.s0, &mut w.s1, …)`: the owned storages of group `g`, through `w`.
fn owned(cx: &Cx<'_>, g: usize) -> TokenStream {
    storages_of(&cx.plan.groups[g].decl.owned)
}

/// `(&mut w.s2, …)`: the observed storages of group `g`, through `w`.
fn observed(cx: &Cx<'_>, g: usize) -> TokenStream {
    storages_of(&cx.plan.groups[g].decl.observed)
}

fn storages_of(storages: &[usize]) -> TokenStream {
    let fields = storages.iter().map(|&i| Cx::storage_field(i));
    quote!((#(&mut w.#fields,)*))
}

/// Group `g`'s length through `w`: its length field, or its member set's length.
fn len_of(cx: &Cx<'_>, g: usize, w: &TokenStream) -> TokenStream {
    let len = Cx::len_field(g);
    if cx.plan.groups[g].is_non_owning() {
        quote!(#w.#len.len())
    } else {
        quote!(#w.#len)
    }
}

/// Whether `entity` passes group `g`'s filter on its observed and excluded types (the
/// engine checks the owned ones). The storage `changed` is left out: its type was just
/// added (a group requiring it sees it) or removed (a group excluding it does not).
fn filter(cx: &Cx<'_>, g: usize, changed: Option<usize>) -> TokenStream {
    let decl = &cx.plan.groups[g].decl;
    let field = |&i: &usize| (Some(i) != changed).then(|| Cx::storage_field(i));
    let observed = decl.observed.iter().filter_map(field);
    let excluded = decl.excluded.iter().filter_map(field);
    quote!(|| #(w.#observed.contains(entity) &&)* #(!w.#excluded.contains(entity) &&)* true)
}

/// One hook step as straight-line code. Two positions are tracked from step to step:
/// `position`, the changed component's in its storage (for the steps of groups owning
/// it), and `at`, where the previous step left the entity in its group's storages (a guess
/// for the next group, which the engine checks before trusting); `changed` is the storage
/// whose component the hook adds or removes, if any.
fn step(cx: &Cx<'_>, step: &Step, changed: Option<usize>) -> TokenStream {
    let g = step.group;
    let (cfg, len) = (cx.cfg_group(g), Cx::len_field(g));
    let (hint, tracked) = match step.slot {
        Some(slot) => (
            quote!(__p::Hint::at(#slot, position)),
            quote!(let position =),
        ),
        None => (quote!(__p::Hint::anywhere(at)), quote!(let at =)),
    };
    let resync = step.slot.map(|_| quote!(#cfg let at = position;));
    let call = match (step.action, cx.plan.groups[g].is_non_owning()) {
        (Action::Enter, false) => {
            let (owned, filter) = (owned(cx, g), filter(cx, g, changed));
            quote!(#tracked __p::enter(#owned, &mut w.#len, entity, #hint, #filter);)
        }
        (Action::Leave, false) => {
            let owned = owned(cx, g);
            quote!(#tracked __p::leave(#owned, &mut w.#len, entity, #hint);)
        }
        (Action::Enter, true) => {
            let filter = filter(cx, g, changed);
            return quote!(#cfg __p::enter_set(&mut w.#len, entity, #filter););
        }
        (Action::Leave, true) => return quote!(#cfg __p::leave_set(&mut w.#len, entity);),
    };
    quote!(#cfg #call #resync)
}

/// Steps in order, through `w` (bound only if there is a step); `at` starts as `start`.
fn steps(
    cx: &Cx<'_>,
    steps: &[Step],
    changed: Option<usize>,
    w: TokenStream,
    start: TokenStream,
) -> TokenStream {
    if steps.is_empty() {
        return TokenStream::new();
    }
    let body = steps.iter().map(|s| step(cx, s, changed));
    quote! {
        let w = #w;
        let at: usize = #start;
        #(#body)*
        let _ = at;
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
    let [group, group_len, sort_group] = Cx::group_methods(g);
    let inner_lens = plan
        .inner
        .iter()
        .rev()
        .map(|&inner| len_of(cx, inner, &quote!(w)));
    // Bounds on the component types, not on the key: a bound on the key would keep its
    // associated types from being normalized through the impl.
    let bounds = plan.storages().map(|i| {
        let param = Cx::param(i);
        quote!(#param: __sg::Component)
    });
    let bounds = quote!(#(#bounds,)*);
    let (access, sort) = if plan.is_non_owning() {
        let members = Cx::len_field(g);
        (
            quote!(__p::group_over::<#key>(&w.#members, (), #observed)),
            quote!(__p::sort_members::<#key>(&mut w.#members, (), #observed, compare);),
        )
    } else {
        let applies = plan.sort_targets.iter().map(|&(i, owner)| {
            let (field, owner_len) = (Cx::storage_field(i), len_of(cx, owner, &quote!(w)));
            quote!(__p::apply_sources(&mut w.#field, &sources[..#owner_len]);)
        });
        (
            quote!(__p::group_mut::<#key>(#owned, #len, #observed)),
            quote! {
                let layer_ends = [#(#inner_lens,)* #len];
                let sources = __p::group_sources::<#key>(#owned, #observed, &layer_ends, compare);
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
        pub fn #group_len(&self) -> usize {
            #self_len
        }

        #cfg
        pub fn #sort_group(
            &mut self,
            compare: impl FnMut(
                <#key as __sg::GroupKey>::Item<'_>,
                <#key as __sg::GroupKey>::Item<'_>,
            ) -> ::core::cmp::Ordering,
        ) where
            #bounds
        {
            let w = self;
            #sort
        }
    }
}

/// The plan of storage `i`'s component: what adding and removing it does to the groups.
fn component_plan(cx: &Cx<'_>, i: usize) -> TokenStream {
    let cfg = cx.cfg_storage(i);
    let params = cx.params();
    let (field, param, plan) = (
        Cx::storage_field(i),
        Cx::param(i),
        format_ident!("Plan{}", i),
    );
    let storage = &cx.plan.storages[i];
    let this = quote!(&mut *self.0);
    let (known, unknown) = (quote!(position), quote!(usize::MAX));
    let after_add = steps(cx, &storage.on_add, Some(i), this.clone(), known.clone());
    let before_remove = steps(cx, &storage.before_remove, Some(i), this.clone(), known);
    let after_remove = steps(cx, &storage.after_remove, Some(i), this, unknown);
    quote! {
        #cfg
        /// The plan of one component type (a private type: only the hooks above make one).
        struct #plan<'w, #(#params),*>(&'w mut Storages<#(#params),*>);

        #cfg
        #[automatically_derived]
        impl<#(#params),*> __p::ComponentPlan for #plan<'_, #(#params),*> {
            type Component = #param;

            #[inline(always)]
            fn entities(&self) -> &__sg::Entities {
                &self.0.entities
            }

            #[inline(always)]
            fn storage(&mut self) -> &mut __sg::Storage<#param> {
                &mut self.0.#field
            }

            #[inline(always)]
            fn after_add(&mut self, entity: __sg::Entity, position: usize) {
                #after_add
                let _ = (entity, position);
            }

            #[inline(always)]
            fn before_remove(&mut self, entity: __sg::Entity, position: usize) -> usize {
                #before_remove
                let _ = entity;
                position
            }

            #[inline(always)]
            fn after_remove(&mut self, entity: __sg::Entity) {
                #after_remove
                let _ = entity;
            }
        }
    }
}

/// `enter_all`: test-and-enter every group in spawn order.
fn steps_enter_all(cx: &Cx<'_>) -> TokenStream {
    let all: Vec<Step> = cx
        .plan
        .spawn_order
        .iter()
        .map(|&group| Step {
            group,
            action: Action::Enter,
            slot: None,
        })
        .collect();
    let steps = steps(cx, &all, None, quote!(self), quote!(usize::MAX));
    quote! {
        #steps
        let _ = entity;
    }
}

/// The plan of `destroy`: leave every group innermost first, take every component.
fn entity_plan(cx: &Cx<'_>) -> TokenStream {
    let params = cx.params();
    let all: Vec<Step> = cx
        .plan
        .destroy_order
        .iter()
        .map(|&group| Step {
            group,
            action: Action::Leave,
            slot: None,
        })
        .collect();
    let leaves = steps(cx, &all, None, quote!(&mut *self.0), quote!(usize::MAX));
    let taken_fields = (0..cx.model.storages.len()).map(|i| {
        let (cfg, field, param) = (cx.cfg_storage(i), Cx::storage_field(i), Cx::param(i));
        quote!(#cfg #field: ::core::option::Option<#param>,)
    });
    let takes = (0..cx.model.storages.len()).map(|i| {
        let (cfg, field) = (cx.cfg_storage(i), Cx::storage_field(i));
        quote!(#cfg #field: self.0.#field.remove(entity),)
    });
    quote! {
        /// The plan of `destroy` (a private type: only `Storages::destroy` makes one).
        struct Destroy<'w, #(#params),*>(&'w mut Storages<#(#params),*>);

        /// An entity's components, taken out of their storages.
        struct Taken<#(#params),*> {
            #(#taken_fields)*
            marker: ::core::marker::PhantomData<fn() -> (#(#params,)*)>,
        }

        #[automatically_derived]
        impl<#(#params),*> __p::EntityPlan for Destroy<'_, #(#params),*> {
            type Taken = Taken<#(#params),*>;

            #[inline(always)]
            fn entities(&mut self) -> &mut __sg::Entities {
                &mut self.0.entities
            }

            #[inline(always)]
            fn leave_all(&mut self, entity: __sg::Entity) {
                #leaves
                let _ = entity;
            }

            #[inline(always)]
            fn take_all(&mut self, entity: __sg::Entity) -> Self::Taken {
                Taken {
                    #(#takes)*
                    marker: ::core::marker::PhantomData,
                }
            }
        }
    }
}

/// `check`: the storages and groups, handed to the shared check.
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
    quote! {
        /// Checks every invariant of the world.
        pub fn check(&self) -> ::core::result::Result<(), ::std::string::String> {
            let mut storages: ::std::vec::Vec<(&str, &dyn __p::StorageInfo)> = ::std::vec::Vec::new();
            #(#storages)*
            let mut groups: ::std::vec::Vec<__p::GroupInfo<'_>> = ::std::vec::Vec::new();
            #(#groups)*
            __p::check_world(&self.entities, &storages, &groups, &[#(#nesting),*])
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
        /// Writes the storages by field name, then each group's length.
        pub fn debug(&self, f: &mut ::core::fmt::Formatter<'_>, name: &str) -> ::core::fmt::Result
        where
            #(#params: ::core::fmt::Debug,)*
        {
            let mut s = f.debug_struct(name);
            #(#storages)*
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
                    #(#lens)*
                    marker: ::core::marker::PhantomData,
                }
            }
        }
    }
}

/// `columns`: every storage as a value-only column (`None` where configured out), for
/// views. Borrow-checked: no `unsafe` in generated code.
fn columns(cx: &Cx<'_>) -> TokenStream {
    let params = cx.params();
    if params.is_empty() {
        return quote! {
            /// A world without storages has no columns.
            #[inline]
            pub fn columns(&mut self) {}
        };
    }
    let columns = (0..cx.model.storages.len()).map(|i| {
        let field = Cx::storage_field(i);
        match &cx.model.storages[i].cfg {
            None => quote!(::core::option::Option::Some(__p::Column::new(&mut self.#field))),
            Some(predicate) => quote!({
                #[cfg(#predicate)]
                let column = ::core::option::Option::Some(__p::Column::new(&mut self.#field));
                #[cfg(not(#predicate))]
                let column = ::core::option::Option::None;
                column
            }),
        }
    });
    quote! {
        /// Every storage as a value-only column (`None` where configured out).
        #[inline]
        pub fn columns(&mut self) -> (#(::core::option::Option<__p::Column<'_, #params>>,)*) {
            (#(#columns,)*)
        }
    }
}
