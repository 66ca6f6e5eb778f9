//! Procedural macros of `sparse_groups`. Use them through `sparse_groups`:
//! `#[sparse_groups::world]` declares a world whose groups are checked at compile time,
//! and `#[derive(sparse_groups::Component)]` marks a component type.
//!
//! The pipeline follows `serde_derive` and `thiserror`: the item is parsed into a model
//! (`ast`, with `attr` for attributes, `derive_list` for the derives written on it), every
//! rule is checked with all errors collected (`valid`, with `method_names` for the names a
//! field must not shadow), the step order is computed once from the validated layout
//! (`plan`, or `fallback` when the layout is rejected), then code is generated (`expand`).
//! Each module uses only the ones before it in this order (`tests/module_circles.rs`).
#![forbid(unsafe_code)]

mod ast;
mod attr;
mod component;
mod derive_list;
mod expand;
mod fallback;
mod krate;
mod method_names;
mod plan;
mod valid;

use proc_macro::TokenStream;
use proc_macro2::TokenStream as TokenStream2;
use quote::quote;
use syn::{Error, Item};

use crate::ast::World;
use crate::expand::Cx;
use crate::plan::Plan;

/// Declares a world: see the `sparse_groups` crate's documentation.
#[proc_macro_attribute]
pub fn world(args: TokenStream, input: TokenStream) -> TokenStream {
    expand_world(args.into(), input.into()).into()
}

/// Implements `sparse_groups::Component` for a type.
#[proc_macro_derive(Component)]
pub fn derive_component(input: TokenStream) -> TokenStream {
    component::derive(input.into()).into()
}

fn expand_world(args: TokenStream2, input: TokenStream2) -> TokenStream2 {
    let mut errors = Vec::new();
    if let Err(error) = attr::world_args(&args) {
        errors.push(error);
    }
    let item: Item = match syn::parse2(input) {
        Ok(item) => item,
        Err(error) => return error.into_compile_error(),
    };
    let unexpanded = without_groups(item.clone());
    let id = expansion_id(&unexpanded);
    let Some(world) = World::from_item(item, &mut errors) else {
        return with_errors(unexpanded, errors);
    };
    let Some(mut model) = valid::fields(&world, &mut errors) else {
        return with_errors(unexpanded, errors);
    };
    let (checked, layout) = valid::groups(&mut model, &mut errors);
    let hooks = valid::hooks(&model, &mut errors);
    let tracked = valid::tracked(&model, &mut errors);
    let plan = match &layout {
        Some(layout) => Plan::new(&model, &checked, layout),
        None => fallback::plan(&model, &checked),
    };
    let cx = Cx {
        model: &model,
        plan: &plan,
        hooks: &hooks,
        tracked: &tracked,
        krate: krate::path(),
        krate_alias: krate::alias(),
        id,
    };
    with_errors(cx.expand(), errors)
}

/// A number unique to this expansion: a hash of the item and of where it is written, so
/// that two declarations of one world (by mistake) get different numbers.
fn expansion_id(item: &TokenStream2) -> u64 {
    let site = proc_macro::Span::call_site();
    let text = format!("{}:{}:{}:{item}", site.file(), site.line(), site.column());
    // FNV-1a: deterministic across builds, unlike `std`'s randomly seeded hasher.
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The item as written minus its `#[group]`, `#[track]`, hook attributes and a second
/// `#[world]`, for shapes
/// `#[world]` rejects.
fn without_groups(mut item: Item) -> TokenStream2 {
    if let Item::Struct(s) = &mut item {
        s.attrs.retain(|a| {
            !a.path().is_ident(attr::GROUP)
                && !a.path().is_ident(attr::TRACK)
                && attr::hook_event(a).is_none()
                && !attr::is_world(a)
        });
    }
    quote!(#item)
}

fn with_errors(tokens: TokenStream2, errors: Vec<Error>) -> TokenStream2 {
    let errors = errors.into_iter().map(Error::into_compile_error);
    quote!(#tokens #(#errors)*)
}
