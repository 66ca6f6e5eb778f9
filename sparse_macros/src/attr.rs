//! Parsing of the attributes `#[world]` reads: its own arguments, `#[group(A, B, …)]`,
//! `#[derive(...)]` and the `#[cfg(...)]` of fields.

use proc_macro2::{Span, TokenStream};
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Error, Meta, Path, Token, Type};

/// The name of the attribute declaring a group.
pub(crate) const GROUP: &str = "group";

/// `#[world]` takes no arguments.
pub(crate) fn world_args(args: &TokenStream) -> syn::Result<()> {
    if args.is_empty() {
        return Ok(());
    }
    Err(Error::new_spanned(
        args,
        "`#[world]` takes no arguments; declare groups with `#[group(A, B)]` below it",
    ))
}

struct ComponentType(Type);

impl Parse for ComponentType {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.peek(syn::Lit) {
            return Err(
                input.error("expected a component type in `#[group(...)]`, found a literal")
            );
        }
        input.parse().map(ComponentType).map_err(|e| {
            Error::new(
                e.span(),
                format!("expected a component type in `#[group(...)]`: {e}"),
            )
        })
    }
}

/// The types of a `#[group(...)]` attribute.
pub(crate) fn group_types(attr: &Attribute) -> syn::Result<Vec<Type>> {
    match &attr.meta {
        Meta::List(list) => {
            let types =
                list.parse_args_with(Punctuated::<ComponentType, Token![,]>::parse_terminated)?;
            Ok(types.into_iter().map(|t| t.0).collect())
        }
        _ => Err(Error::new_spanned(
            attr,
            "expected a parenthesized list of component types, e.g. `#[group(Position, Velocity)]`",
        )),
    }
}

/// The span of an attribute's arguments (its parentheses), or of the whole attribute.
pub(crate) fn args_span(attr: &Attribute) -> Span {
    match &attr.meta {
        Meta::List(list) => list.delimiter.span().join(),
        _ => attr.span(),
    }
}

/// The trait paths of a `#[derive(...)]`.
pub(crate) fn derive_paths(attr: &Attribute) -> syn::Result<Vec<Path>> {
    let list = attr.meta.require_list()?;
    let paths = Punctuated::<Path, Token![,]>::parse_terminated.parse2(list.tokens.clone())?;
    Ok(paths.into_iter().collect())
}

/// Splits a field's attributes into its `#[cfg(...)]` predicates and the others.
pub(crate) fn split_cfg(
    attrs: Vec<Attribute>,
    errors: &mut Vec<Error>,
) -> (Vec<TokenStream>, Vec<Attribute>) {
    let mut cfg = Vec::new();
    let mut rest = Vec::new();
    for attr in attrs {
        if !attr.path().is_ident("cfg") {
            rest.push(attr);
            continue;
        }
        match attr.meta.require_list() {
            Ok(list) => cfg.push(list.tokens.clone()),
            Err(error) => errors.push(error),
        }
    }
    (cfg, rest)
}
