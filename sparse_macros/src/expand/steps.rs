//! The group steps: what adding and removing each component type, and destroying entities, do
//! to the groups, as straight-line calls of the group engine in the order the plan gives
//! (for one entity), or as one loop per step (for many).

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use sparse_core::__private::Aligned;
use sparse_core::{Action, Step};

use super::Cx;

/// `(&mut w.s0, &mut w.s1, …)`: the owned storages of group `g`, through `w`.
pub(super) fn owned(cx: &Cx<'_>, g: usize) -> TokenStream {
    storages_of(&cx.plan.groups[g].decl.owned)
}

/// `(&mut w.s2, …)`: the observed storages of group `g`, through `w`.
pub(super) fn observed(cx: &Cx<'_>, g: usize) -> TokenStream {
    storages_of(&cx.plan.groups[g].decl.observed)
}

fn storages_of(storages: &[usize]) -> TokenStream {
    let fields = storages.iter().map(|&i| Cx::storage_field(i));
    quote!((#(&mut w.#fields,)*))
}

/// `(&w.s0, &w.s1, …)`: storages through `w`, shared.
pub(super) fn storages_ref(storages: &[usize]) -> TokenStream {
    let fields = storages.iter().map(|&i| Cx::storage_field(i));
    quote!((#(&w.#fields,)*))
}

/// Group `g`'s length through `w`: its length field, or its member set's length.
pub(super) fn len_of(cx: &Cx<'_>, g: usize, w: &TokenStream) -> TokenStream {
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
    let test = filter_test(cx, g, changed);
    quote!(|| #test)
}

/// The test of [`filter`], as an expression of `entity`.
fn filter_test(cx: &Cx<'_>, g: usize, changed: Option<usize>) -> TokenStream {
    let decl = &cx.plan.groups[g].decl;
    let field = |&i: &usize| (Some(i) != changed).then(|| Cx::storage_field(i));
    let observed = decl.observed.iter().filter_map(field);
    let excluded = decl.excluded.iter().filter_map(field);
    quote!(#(w.#observed.contains(entity) &&)* #(!w.#excluded.contains(entity) &&)* true)
}

/// One group step: its `#[cfg]` and its statements. Two positions are tracked from step to
/// step: `position`, the changed component's in its storage (for the steps of groups
/// owning it), and `at`, where the previous step left the entity in its group's storages
/// (a guess for the next group, which the engine checks before trusting); `changed` is
/// the storage whose component the change adds or removes, if any.
fn step(cx: &Cx<'_>, step: &Step, changed: Option<usize>) -> (TokenStream, Vec<TokenStream>) {
    let g = step.group;
    let (cfg, len) = (cx.cfg_group(g), Cx::len_field(g));
    let (hint, tracked) = match step.slot {
        Some(slot) => (
            quote!(__p::PositionHint::at(#slot, position)),
            quote!(let position =),
        ),
        None => (quote!(__p::PositionHint::anywhere(at)), quote!(let at =)),
    };
    let resync = step.slot.map(|_| quote!(let at = position;));
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
            quote!(__p::enter_set(&mut w.#len, entity, #filter);)
        }
        (Action::Leave, true) => quote!(__p::leave_set(&mut w.#len, entity);),
    };
    (cfg, core::iter::once(call).chain(resync).collect())
}

/// Steps in order for one entity, through `w` (bound only if there is a step); `at`
/// starts as `start`.
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
    let body = steps.iter().flat_map(|s| {
        let (cfg, statements) = step(cx, s, changed);
        statements.into_iter().map(move |s| quote!(#cfg #s))
    });
    quote! {
        let w = #w;
        let at: usize = #start;
        #(#body)*
        let _ = at;
    }
}

/// Steps for many entities (`entities`, marked in `marks` when the steps leave a group):
/// each step for all of them before the next. An owning group is left by the marked
/// members at once (or one by one when they are few) and entered in order, runs of
/// entities already in place with neither a move nor a lookup (see `enter_each` and
/// `leave_many`).
fn steps_many(cx: &Cx<'_>, steps: &[Step], changed: Option<usize>, marks: bool) -> TokenStream {
    let unused = if marks {
        quote!(let _ = (entities, marks);)
    } else {
        quote!(let _ = entities;)
    };
    if steps.is_empty() {
        return unused;
    }
    let body = steps.iter().map(|step| {
        let g = step.group;
        let (cfg, len) = (cx.cfg_group(g), Cx::len_field(g));
        let filter = filter(cx, g, changed);
        match (step.action, cx.plan.groups[g].is_non_owning()) {
            (Action::Enter, false) => {
                let (owned, test) = (owned(cx, g), filter_test(cx, g, changed));
                let aligned = aligned(cx, g);
                quote! {
                    #cfg
                    __p::enter_each(#owned, &mut w.#len, entities, #aligned, |_, entity| #test);
                }
            }
            (Action::Leave, false) => {
                let owned = owned(cx, g);
                quote! {
                    #cfg
                    __p::leave_many(#owned, &mut w.#len, entities.len(), entities.iter().copied(), marks);
                }
            }
            (Action::Enter, true) => quote! {
                #cfg
                for &entity in entities {
                    __p::enter_set(&mut w.#len, entity, #filter);
                }
            },
            (Action::Leave, true) => quote! {
                #cfg
                for &entity in entities {
                    __p::leave_set(&mut w.#len, entity);
                }
            },
        }
    });
    quote! {
        let w = &mut *self.0;
        #(#body)*
        #unused
    }
}

/// What group `g`'s outer group keeps aligned for bulk entering (`__p::Aligned`): the
/// outer group's length and the skipped slots as a mask. The outer group's `#[cfg]` holds
/// wherever `g`'s does, since `g` names every type it names.
fn aligned(cx: &Cx<'_>, g: usize) -> TokenStream {
    match &cx.plan.groups[g].aligned {
        Some((outer, slots)) => {
            let len = Cx::len_field(*outer);
            let mask = Literal::u32_unsuffixed(Aligned::mask(slots));
            quote!(__p::Aligned::within(w.#len, #mask))
        }
        None => quote!(__p::Aligned::NONE),
    }
}

/// How a per-entity sequence of `steps` group steps is inlined. One step (or none) is inlined
/// into every `insert` / `remove`, as straight-line code. Deeper families get one
/// out-of-line copy per component type: every call site inlining every step multiplied
/// the code LLVM optimises by the families' depth.
fn steps_inline(steps: usize) -> TokenStream {
    if steps <= 1 {
        quote!(#[inline(always)])
    } else {
        quote!(#[inline(never)])
    }
}

/// The plan of storage `i`'s component: what adding and removing it does to the groups.
pub(super) fn component_plan(cx: &Cx<'_>, i: usize) -> TokenStream {
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
    let after_add_many = steps_many(cx, &storage.on_add, Some(i), true);
    let before_remove_many = steps_many(cx, &storage.before_remove, Some(i), true);
    let after_remove_many = steps_many(cx, &storage.after_remove, Some(i), false);
    let leaves_on_add = storage.on_add.iter().any(|s| s.action == Action::Leave);
    let (add_inline, remove_inline) = (
        steps_inline(storage.on_add.len()),
        steps_inline(storage.before_remove.len().max(storage.after_remove.len())),
    );
    let clears = storage.before_remove.iter().map(|step| {
        let g = step.group;
        let (cfg, len) = (cx.cfg_group(g), Cx::len_field(g));
        if cx.plan.groups[g].is_non_owning() {
            quote!(#cfg self.0.#len.clear();)
        } else {
            quote!(#cfg { self.0.#len = 0; })
        }
    });
    quote! {
        #cfg
        /// The plan of one component type (a private type: only the sequences above make one).
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
            fn entities_mut(&mut self) -> &mut __sg::Entities {
                &mut self.0.entities
            }

            #[inline(always)]
            fn storage(&mut self) -> &mut __sg::Storage<#param> {
                &mut self.0.#field
            }

            #add_inline
            fn after_add(&mut self, entity: __sg::Entity, position: usize) {
                #after_add
                let _ = (entity, position);
            }

            #remove_inline
            fn before_remove(&mut self, entity: __sg::Entity, position: usize) -> usize {
                #before_remove
                let _ = entity;
                position
            }

            #remove_inline
            fn after_remove(&mut self, entity: __sg::Entity) {
                #after_remove
                let _ = entity;
            }

            fn after_add_many(&mut self, entities: &[__sg::Entity], marks: &__p::Marks) {
                #after_add_many
            }

            #[inline(always)]
            fn leaves_on_add(&self) -> bool {
                #leaves_on_add
            }

            fn before_remove_many(&mut self, entities: &[__sg::Entity], marks: &__p::Marks) {
                #before_remove_many
            }

            fn after_remove_many(&mut self, entities: &[__sg::Entity]) {
                #after_remove_many
            }

            fn before_clear(&mut self) {
                #(#clears)*
            }
        }
    }
}

/// `enter_all`: test-and-enter every group in spawn order.
pub(super) fn steps_enter_all(cx: &Cx<'_>) -> TokenStream {
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

/// The plan of `destroy` and `destroy_many`: leave every group innermost first and take
/// every component; or compact every storage and group at once.
pub(super) fn entity_plan(cx: &Cx<'_>) -> TokenStream {
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
    let storages = 0..cx.model.storages.len();
    let taken_fields = storages.clone().map(|i| {
        let (cfg, field, param) = (cx.cfg_storage(i), Cx::storage_field(i), Cx::param(i));
        quote!(#cfg #field: ::core::option::Option<#param>,)
    });
    let takes = storages.clone().map(|i| {
        let (cfg, field) = (cx.cfg_storage(i), Cx::storage_field(i));
        quote!(#cfg #field: __p::take_for_destroy(&mut self.0.#field, entity, &mut change),)
    });
    let taken_many_fields = storages.clone().map(|i| {
        let (cfg, field, param) = (cx.cfg_storage(i), Cx::storage_field(i), Cx::param(i));
        quote!(#cfg #field: ::std::vec::Vec<#param>,)
    });
    // Each storage's compaction counts the new lengths of the owning groups it is the
    // first owned storage of.
    let counted = |i: usize| -> Vec<usize> {
        (0..cx.plan.groups.len())
            .filter(|&g| cx.plan.groups[g].decl.owned.first() == Some(&i))
            .collect()
    };
    let compacts = storages.clone().map(|i| {
        let (cfg, field) = (cx.cfg_storage(i), Cx::storage_field(i));
        let lens = format_ident!("lens{}", i);
        let groups = counted(i);
        let (cfgs, fields): (Vec<_>, Vec<_>) = groups
            .iter()
            .map(|&g| (cx.cfg_group(g), Cx::len_field(g)))
            .unzip();
        if cfgs.iter().all(TokenStream::is_empty) {
            let indices = 0..groups.len();
            return quote! {
                #cfg
                let #field = {
                    let mut #lens = [#(w.#fields,)*];
                    let taken = __p::compact(&mut w.#field, marks, listed, &mut #lens, &mut change);
                    #({ w.#fields = #lens[#indices]; })*
                    taken
                };
            };
        }
        // Some of the groups are configured out: fill the lengths of those that are not.
        let count = groups.len();
        quote! {
            #cfg
            let #field = {
                let mut #lens = [0_usize; #count];
                let mut filled = 0;
                #(#cfgs { #lens[filled] = w.#fields; filled += 1; })*
                let taken = __p::compact(&mut w.#field, marks, listed, &mut #lens[..filled], &mut change);
                let mut read = 0;
                #(#cfgs { w.#fields = #lens[read]; read += 1; })*
                let _ = read;
                taken
            };
        }
    });
    let fields = storages.map(|i| {
        let (cfg, field) = (cx.cfg_storage(i), Cx::storage_field(i));
        quote!(#cfg #field,)
    });
    let sets = (0..cx.plan.groups.len())
        .filter(|&g| cx.plan.groups[g].is_non_owning())
        .map(|g| {
            let (cfg, len) = (cx.cfg_group(g), Cx::len_field(g));
            quote!(#cfg __p::compact_set(&mut w.#len, marks);)
        });
    quote! {
        /// The plan of `destroy` (a private type: only `Storages::destroy` makes one).
        struct Destroy<'w, #(#params),*>(&'w mut Storages<#(#params),*>);

        /// An entity's components, taken out of their storages.
        struct Taken<#(#params),*> {
            #(#taken_fields)*
            marker: ::core::marker::PhantomData<fn() -> (#(#params,)*)>,
        }

        /// Many entities' components, taken out of their storages.
        struct TakenMany<#(#params),*> {
            #(#taken_many_fields)*
            marker: ::core::marker::PhantomData<fn() -> (#(#params,)*)>,
        }

        #[automatically_derived]
        impl<#(#params),*> __p::EntityPlan for Destroy<'_, #(#params),*> {
            type Taken = Taken<#(#params),*>;
            type TakenMany = TakenMany<#(#params),*>;

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
                let mut change = __p::SameChange::new();
                let _ = &mut change;
                Taken {
                    #(#takes)*
                    marker: ::core::marker::PhantomData,
                }
            }

            fn take_marked(&mut self, marks: &__p::Marks, listed: &[__sg::Entity]) -> Self::TakenMany {
                let w = &mut *self.0;
                let mut change = __p::SameChange::new();
                let _ = &mut change;
                #(#sets)*
                #(#compacts)*
                TakenMany {
                    #(#fields)*
                    marker: ::core::marker::PhantomData,
                }
            }
        }
    }
}
