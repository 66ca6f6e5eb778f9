//! Parsing of the `#[group(A, B, …)]` attributes of a world.

use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Attribute, Error, Meta, Token, Type};

/// The name of the attribute declaring a group.
pub(crate) const GROUP: &str = "group";

/// The types listed by one `#[group(...)]`.
pub(crate) struct GroupArgs(pub Vec<Type>);

impl Parse for GroupArgs {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let types = Punctuated::<ComponentType, Token![,]>::parse_terminated(input)?;
        Ok(GroupArgs(types.into_iter().map(|t| t.0).collect()))
    }
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

/// Parses the types of a `#[group(...)]` attribute.
pub(crate) fn group_types(attr: &Attribute) -> syn::Result<Vec<Type>> {
    match &attr.meta {
        Meta::List(list) => list.parse_args_with(GroupArgs::parse).map(|args| args.0),
        _ => Err(Error::new_spanned(
            attr,
            "expected a parenthesized list of component types, e.g. `#[group(Position, Velocity)]`",
        )),
    }
}
