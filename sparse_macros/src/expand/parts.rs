//! The parts of a world, for borrows: one slot per storage and per resource, the groups'
//! lengths and member sets, the entities; and how each group is lent from them.

use proc_macro2::TokenStream;
use quote::quote;

use super::Cx;
use super::steps::len_of;

/// `struct Parts` and its methods, inside the storages module.
pub(super) fn emit(cx: &Cx<'_>) -> TokenStream {
    let params = cx.params();
    let storages = 0..cx.model.storages.len();
    let slot_fields = storages.clone().map(|i| {
        let (cfg, field, param) = (cx.cfg_storage(i), Cx::storage_field(i), Cx::param(i));
        quote!(#cfg #field: __p::Slot<'w, #param>,)
    });
    let len_fields = (0..cx.plan.groups.len()).map(|g| {
        let (cfg, len) = (cx.cfg_group(g), Cx::len_field(g));
        if cx.plan.groups[g].is_non_owning() {
            quote!(#cfg #len: &'w __p::SparseSet,)
        } else {
            quote!(#cfg #len: usize,)
        }
    });
    let slots_mut = storages.clone().map(|i| {
        let (cfg, field) = (cx.cfg_storage(i), Cx::storage_field(i));
        quote!(#cfg #field: __p::Slot::new(&mut self.#field),)
    });
    let slots_ref = storages.clone().map(|i| {
        let (cfg, field) = (cx.cfg_storage(i), Cx::storage_field(i));
        quote!(#cfg #field: __p::Slot::shared(&self.#field),)
    });
    let resources = 0..cx.model.resources.len();
    let resource_slot_fields = resources.clone().map(|j| {
        let (field, param) = (Cx::resource_field(j), Cx::resource_param(j));
        quote!(#field: __p::ResourceSlot<'w, #param>,)
    });
    let resource_slots_mut = resources.clone().map(|j| {
        let field = Cx::resource_field(j);
        quote!(#field: __p::ResourceSlot::new(&mut self.#field),)
    });
    let resource_slots_ref = resources.clone().map(|j| {
        let field = Cx::resource_field(j);
        quote!(#field: __p::ResourceSlot::shared(&self.#field),)
    });
    let resource_slot_methods = resources.map(|j| {
        let (field, param) = (Cx::resource_field(j), Cx::resource_param(j));
        let [.., slot] = Cx::resource_methods(j);
        quote! {
            #[inline(always)]
            pub fn #slot(&mut self, _: &Key) -> &mut __p::ResourceSlot<'w, #param> {
                &mut self.#field
            }
        }
    });
    let lens = (0..cx.plan.groups.len())
        .map(|g| {
            let (cfg, len) = (cx.cfg_group(g), Cx::len_field(g));
            if cx.plan.groups[g].is_non_owning() {
                quote!(#cfg #len: &self.#len,)
            } else {
                quote!(#cfg #len: self.#len,)
            }
        })
        .collect::<Vec<_>>();
    let reborrowed = storages.clone().map(|i| {
        let (cfg, field) = (cx.cfg_storage(i), Cx::storage_field(i));
        quote!(#cfg #field: self.#field.reborrow(),)
    });
    let split = storages.clone().map(|i| {
        let (cfg, field, param) = (cx.cfg_storage(i), Cx::storage_field(i), Cx::param(i));
        quote! {
            #cfg #field: {
                let id = ::core::any::TypeId::of::<#param>();
                self.#field.split(writes.contains(&id), reads.contains(&id))
            },
        }
    });
    let stamped = storages.clone().map(|i| {
        let (cfg, field) = (cx.cfg_storage(i), Cx::storage_field(i));
        quote!(#cfg self.#field.stamp_at(at);)
    });
    let resources = 0..cx.model.resources.len();
    let resources_reborrowed = resources.clone().map(|j| {
        let field = Cx::resource_field(j);
        quote!(#field: self.#field.reborrow(),)
    });
    let resources_split = resources.map(|j| {
        let (field, param) = (Cx::resource_field(j), Cx::resource_param(j));
        quote! {
            #field: {
                let id = ::core::any::TypeId::of::<__sg::Resource<#param>>();
                self.#field.split(writes.contains(&id), reads.contains(&id))
            },
        }
    });
    let lens_copied = (0..cx.plan.groups.len())
        .map(|g| {
            let (cfg, len) = (cx.cfg_group(g), Cx::len_field(g));
            quote!(#cfg #len: self.#len,)
        })
        .collect::<Vec<_>>();
    let slot_methods = storages.map(|i| {
        let (cfg, field, param) = (cx.cfg_storage(i), Cx::storage_field(i), Cx::param(i));
        let slot = Cx::storage_methods(i).slot;
        quote! {
            #cfg
            #[inline(always)]
            pub fn #slot(&mut self, _: &Key) -> &mut __p::Slot<'w, #param> {
                &mut self.#field
            }
        }
    });
    let lend_methods = (0..cx.plan.groups.len()).map(|g| lend_group(cx, g));
    let shapes = shapes(cx);
    quote! {
        /// The world split into parts: what borrows take from.
        pub struct Parts<'w, #(#params),*> {
            entities: &'w __sg::Entities,
            #(#slot_fields)*
            #(#resource_slot_fields)*
            #(#len_fields)*
            marker: ::core::marker::PhantomData<fn() -> (#(#params,)*)>,
        }

        #[automatically_derived]
        impl<#(#params),*> Storages<#(#params),*> {
            /// Every storage available mutably.
            #[inline(always)]
            pub fn parts(&mut self) -> Parts<'_, #(#params),*> {
                Parts {
                    entities: &self.entities,
                    #(#slots_mut)*
                    #(#resource_slots_mut)*
                    #(#lens)*
                    marker: ::core::marker::PhantomData,
                }
            }

            /// Every storage available shared.
            #[inline(always)]
            pub fn parts_ref(&self) -> Parts<'_, #(#params),*> {
                Parts {
                    entities: &self.entities,
                    #(#slots_ref)*
                    #(#resource_slots_ref)*
                    #(#lens)*
                    marker: ::core::marker::PhantomData,
                }
            }
        }

        #[automatically_derived]
        impl<'w, #(#params),*> Parts<'w, #(#params),*> {
            /// The entities.
            #[inline]
            pub fn entities(&self) -> &'w __sg::Entities {
                self.entities
            }

            /// The same parts for a shorter borrow.
            #[inline]
            pub fn reborrow(&mut self) -> Parts<'_, #(#params),*> {
                Parts {
                    entities: self.entities,
                    #(#reborrowed)*
                    #(#resources_reborrowed)*
                    #(#lens_copied)*
                    marker: ::core::marker::PhantomData,
                }
            }

            /// Another part split off these for what writes `writes` and reads `reads`.
            pub fn split(
                &mut self,
                writes: &[::core::any::TypeId],
                reads: &[::core::any::TypeId],
            ) -> Parts<'w, #(#params),*>
            where
                #(#params: 'static,)*
            {
                Parts {
                    entities: self.entities,
                    #(#split)*
                    #(#resources_split)*
                    #(#lens_copied)*
                    marker: ::core::marker::PhantomData,
                }
            }

            /// Stamps what the storages still lent mutably hand out with count `at`.
            pub fn stamp_at(&self, at: u32) {
                let _ = at;
                #(#stamped)*
            }

            /// Calls `f` with the shape of every group.
            pub fn with_groups<R>(&self, f: impl FnOnce(&[__p::GroupShape<'_, 'w>]) -> R) -> R
            where
                #(#params: 'static,)*
            {
                #shapes
            }

            #(#slot_methods)*
            #(#resource_slot_methods)*
            #(#lend_methods)*
        }
    }
}

/// The shapes of the groups, built on the stack, handed to `f`.
fn shapes(cx: &Cx<'_>) -> TokenStream {
    let groups = 0..cx.plan.groups.len();
    let pushes = groups.map(|g| {
        let plan = &cx.plan.groups[g];
        let cfg = cx.cfg_group(g);
        let ids = |storages: &[usize]| {
            let params = storages.iter().map(|&i| Cx::param(i));
            quote!(&[#(::core::any::TypeId::of::<#params>()),*])
        };
        let (owned, observed, excluded) = (
            ids(&plan.decl.owned),
            ids(&plan.decl.observed),
            ids(&plan.decl.excluded),
        );
        let len = len_of(cx, g, &quote!(self));
        let members = if plan.is_non_owning() {
            let field = Cx::len_field(g);
            quote!(::core::option::Option::Some(self.#field))
        } else {
            quote!(::core::option::Option::None)
        };
        let ids = quote::format_ident!("ids{}", g);
        quote! {
            #cfg
            let #ids: [&[::core::any::TypeId]; 3] = [#owned, #observed, #excluded];
            #cfg
            shapes.push(__p::GroupShape {
                owned: #ids[0],
                observed: #ids[1],
                excluded: #ids[2],
                len: #len,
                members: #members,
            });
        }
    });
    let count = cx.plan.groups.len();
    quote! {
        let mut shapes: ::std::vec::Vec<__p::GroupShape<'_, 'w>> = ::std::vec::Vec::with_capacity(#count);
        #(#pushes)*
        f(&shapes)
    }
}

/// The methods lending group `g` from the parts, mutably and shared.
fn lend_group(cx: &Cx<'_>, g: usize) -> TokenStream {
    let plan = &cx.plan.groups[g];
    let cfg = cx.cfg_group(g);
    let key = cx.group_params(g);
    let m = Cx::group_methods(g);
    let (lend, lend_ref) = (&m.lend, &m.lend_ref);
    let bounds = plan.storages().map(|i| {
        let param = Cx::param(i);
        quote!(#param: __sg::Component)
    });
    let bounds = quote!(#(#bounds,)*);
    let slots = |storages: &[usize]| {
        let fields = storages.iter().map(|&i| Cx::storage_field(i));
        quote!((#(&mut self.#fields,)*))
    };
    let (owned, observed) = (slots(&plan.decl.owned), slots(&plan.decl.observed));
    let len = Cx::len_field(g);
    let (group, group_ref) = if plan.is_non_owning() {
        (
            quote!(__p::lend_group_over::<#key>(self.#len, (), #observed)),
            quote!(__p::lend_group_ref_over::<#key>(self.#len, (), #observed)),
        )
    } else {
        (
            quote!(__p::lend_group::<#key>(#owned, self.#len, #observed)),
            quote!(__p::lend_group_ref::<#key>(#owned, self.#len, #observed)),
        )
    };
    // Inlined always, as the slots are: a borrow's lending then folds into the caller and
    // the check that nothing is lent twice is decided at compile time.
    quote! {
        #cfg
        #[inline(always)]
        pub fn #lend(&mut self) -> ::core::result::Result<__p::GroupMut<'w, #key>, __p::AccessError>
        where
            #bounds
        {
            #group
        }

        #cfg
        #[inline(always)]
        pub fn #lend_ref(&mut self) -> ::core::result::Result<__p::GroupRef<'w, #key>, __p::AccessError>
        where
            #bounds
        {
            #group_ref
        }
    }
}
