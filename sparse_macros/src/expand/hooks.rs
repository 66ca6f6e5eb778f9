//! The user hooks of a world: one constant per hooked type (its hooks, and how to ask
//! whether an entity has the type), and the list of them all, without their replace hooks,
//! for destroying and spawning.
//! The `Edit` and `EditEntities` impls call `sparse_core`'s user-hook functions with
//! them; a world without hooks emits nothing here and calls nothing there.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use sparse_core::HookEvent;
use syn::Ident;
use syn::spanned::Spanned;

use super::Cx;

/// The constant holding storage `i`'s hooks.
pub(super) fn hooks_const(i: usize) -> Ident {
    format_ident!("__HOOKS_{}", i)
}

/// The constant listing every hooked type's hooks.
pub(super) fn all_const() -> Ident {
    format_ident!("__HOOKS_ALL")
}

impl Cx<'_> {
    /// Whether storage `i` has a hook.
    pub(super) fn hooked(&self, i: usize) -> bool {
        self.hooks[i].any()
    }

    /// Whether some type has a hook for `event`.
    pub(super) fn any_hook(&self, event: HookEvent) -> bool {
        self.hooks.iter().any(|h| h.on[event.index()].is_some())
    }
}

/// The hook constants.
pub(super) fn consts(cx: &Cx<'_>) -> TokenStream {
    let ident = cx.ident();
    // In the order the types first appear in the hook attributes: the order destruction
    // and spawning run their hooks, as the run-time world runs them in registration order.
    let mut hooked: Vec<usize> = Vec::new();
    for hook in &cx.model.world.hooks {
        if let Some(i) = cx.model.storage(&hook.component.key)
            && cx.hooked(i)
            && !hooked.contains(&i)
        {
            hooked.push(i);
        }
    }
    if hooked.is_empty() {
        return TokenStream::new();
    }
    let per_type = hooked.iter().map(|&i| {
        let ty = cx.storage_type(i);
        let name = hooks_const(i);
        let [on_insert, on_replace, on_remove] =
            [HookEvent::Insert, HookEvent::Replace, HookEvent::Remove].map(|event| {
                let Some(decl) = cx.hooks[i].on[event.index()] else {
                    return quote!(::core::option::Option::None);
                };
                let function = &decl.function;
                let hook = format_ident!("__HOOK_{}_{}", i, event.index());
                let signature = match event {
                    HookEvent::Replace => quote!(__sg::ReplaceHook<#ident, #ty>),
                    HookEvent::Insert | HookEvent::Remove => quote!(__sg::Hook<#ident>),
                };
                // Spanned at the user's path: a function of the wrong signature (a replace
                // hook's value of another type included) is one mismatched-types error there.
                let span = function.span();
                quote_spanned! {span=>
                    {
                        const #hook: #signature = #function;
                        ::core::option::Option::Some(#hook)
                    }
                }
            });
        quote_spanned! {Span::call_site()=>
            const #name: __sg::__private::hooks::TypeHooks<#ident, #ty> =
                __sg::__private::hooks::TypeHooks {
                    has: __sg::__private::hooks::has::<#ident, #ty>,
                    holders: __sg::__private::hooks::holders::<#ident, #ty>,
                    on_insert: #on_insert,
                    on_replace: #on_replace,
                    on_remove: #on_remove,
                };
        }
    });
    let names = hooked.iter().map(|&i| hooks_const(i));
    let all = all_const();
    quote! {
        #(#per_type)*
        const #all: &[__sg::__private::hooks::ErasedHooks<#ident>] = &[#(#names.erased()),*];
    }
}
