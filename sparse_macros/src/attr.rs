//! Parsing of the attributes `#[world]` reads: its own arguments, `#[group(A, B, …)]`,
//! `#[derive(...)]` and the `#[cfg(...)]` of fields.

use proc_macro2::{Span, TokenStream};
use sparse_core::HookEvent;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Error, Ident, Meta, Path, Token, Type};

/// The name of the attribute declaring a group.
pub(crate) const GROUP: &str = "group";

/// The name of the attribute turning change detection on for storages.
pub(crate) const TRACK: &str = "track";

/// Whether `attr` is `#[world]` again (`#[world]`, `#[sparse_groups::world]`, under any
/// path): the struct's first `#[world]` is the one expanding, so this one is written twice.
pub(crate) fn is_world(attr: &Attribute) -> bool {
    attr.path()
        .segments
        .last()
        .is_some_and(|s| s.ident == "world")
}

/// The error on a second `#[world]` (see [`is_world`]).
pub(crate) fn world_twice(attr: &Attribute) -> Error {
    Error::new_spanned(
        attr,
        "`#[world]` is written twice on this struct: remove this one",
    )
}

/// The types of `#[track(A, B, …)]`: at least one.
pub(crate) fn track_args(attr: &Attribute) -> syn::Result<Vec<Type>> {
    let parse = |input: ParseStream<'_>| {
        let types = Punctuated::<Type, Token![,]>::parse_terminated(input)?;
        if types.is_empty() {
            return Err(
                input.error("`#[track]` names the stored types to track, e.g. `#[track(Health)]`")
            );
        }
        Ok(types.into_iter().collect())
    };
    match &attr.meta {
        Meta::List(list) => list.parse_args_with(parse).map_err(|e| {
            Error::new(
                e.span(),
                format!("`#[track]` takes stored component types, e.g. `#[track(Health, Position)]`: {e}"),
            )
        }),
        _ => Err(Error::new_spanned(
            attr,
            "`#[track]` names the stored types to track, e.g. `#[track(Health)]`",
        )),
    }
}

/// The event of a hook attribute (`#[on_insert(…)]`, … : the runtime's list of events),
/// if `attr` is one.
pub(crate) fn hook_event(attr: &Attribute) -> Option<HookEvent> {
    HookEvent::ALL
        .iter()
        .copied()
        .find(|event| attr.path().is_ident(event.attribute()))
}

/// The arguments of `#[on_insert(Type, path::to::function)]`.
pub(crate) struct HookArgs {
    pub ty: Type,
    pub function: Path,
}

impl Parse for HookArgs {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.peek(syn::Lit) {
            return Err(
                input.error("expected the component type the hook reacts to, found a literal")
            );
        }
        let ty: Type = input.parse().map_err(|e| {
            Error::new(
                e.span(),
                format!("expected the component type the hook reacts to: {e}"),
            )
        })?;
        if input.is_empty() {
            return Err(input.error(
                "expected `, path::to::function` after the component type: a hook names its type and its function",
            ));
        }
        input.parse::<Token![,]>()?;
        let function: Path = input.parse().map_err(|e| {
            Error::new(
                e.span(),
                format!("expected the path of the hook function: {e}"),
            )
        })?;
        input.parse::<Option<Token![,]>>()?;
        if !input.is_empty() {
            return Err(
                input.error("a hook takes two arguments: the component type and one function")
            );
        }
        Ok(HookArgs { ty, function })
    }
}

/// The arguments of a hook attribute.
pub(crate) fn hook_args(attr: &Attribute, event: HookEvent) -> syn::Result<HookArgs> {
    match &attr.meta {
        Meta::List(list) => list.parse_args_with(HookArgs::parse),
        _ => Err(Error::new_spanned(
            attr,
            format!(
                "expected the component type and the hook function, e.g. `#[{event}(Health, on_health)]`"
            ),
        )),
    }
}

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

/// One item of a `#[group(...)]`: an owned type, or a `get(...)`/`exclude(...)` clause.
enum Item {
    Owned(Box<Type>),
    Clause(Clause),
}

/// A `get(A, B)` or `exclude(C)` clause.
pub(crate) struct Clause {
    /// `get` or `exclude`.
    pub keyword: Ident,
    pub types: Vec<Type>,
}

/// The lists of a `#[group(...)]`, as written.
pub(crate) struct GroupArgs {
    pub owned: Vec<Type>,
    pub get: Option<Clause>,
    pub exclude: Option<Clause>,
}

/// A component type in `#[group(...)]` (not a literal, not a clause).
fn component_type(input: ParseStream<'_>) -> syn::Result<Type> {
    if input.peek(syn::Lit) {
        return Err(input.error("expected a component type in `#[group(...)]`, found a literal"));
    }
    input.parse().map_err(|e| {
        Error::new(
            e.span(),
            format!("expected a component type in `#[group(...)]`: {e}"),
        )
    })
}

impl Parse for Item {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let fork = input.fork();
        if let Ok(keyword) = fork.parse::<Ident>()
            && (keyword == GET || keyword == EXCLUDE)
            && fork.peek(syn::token::Paren)
        {
            let keyword: Ident = input.parse()?;
            let content;
            syn::parenthesized!(content in input);
            let types = Punctuated::<TypeArg, Token![,]>::parse_terminated(&content)?;
            if types.is_empty() {
                return Err(Error::new_spanned(
                    &keyword,
                    format!("`{keyword}()` lists no type: name at least one, or remove it"),
                ));
            }
            return Ok(Item::Clause(Clause {
                keyword,
                types: types.into_iter().map(|t| t.0).collect(),
            }));
        }
        component_type(input).map(|ty| Item::Owned(Box::new(ty)))
    }
}

struct TypeArg(Type);

impl Parse for TypeArg {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        component_type(input).map(TypeArg)
    }
}

/// The keyword of the clause of observed types.
pub(crate) const GET: &str = "get";
/// The keyword of the clause of excluded types.
pub(crate) const EXCLUDE: &str = "exclude";

impl Parse for GroupArgs {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let items = Punctuated::<Item, Token![,]>::parse_terminated(input)?;
        let mut args = GroupArgs {
            owned: Vec::new(),
            get: None,
            exclude: None,
        };
        for item in items {
            match item {
                Item::Owned(ty) => args.owned.push(*ty),
                Item::Clause(clause) => {
                    let slot = if clause.keyword == GET {
                        &mut args.get
                    } else {
                        &mut args.exclude
                    };
                    if slot.is_some() {
                        return Err(Error::new_spanned(
                            &clause.keyword,
                            format!(
                                "a second `{0}(...)` in one group: list all its types in one `{0}(...)`",
                                clause.keyword
                            ),
                        ));
                    }
                    *slot = Some(clause);
                }
            }
        }
        Ok(args)
    }
}

/// The lists of a `#[group(...)]` attribute.
pub(crate) fn group_args(attr: &Attribute) -> syn::Result<GroupArgs> {
    match &attr.meta {
        Meta::List(list) => list.parse_args_with(GroupArgs::parse),
        _ => Err(Error::new_spanned(
            attr,
            "expected a parenthesized list of component types, e.g. `#[group(Position, Velocity)]` \
             or `#[group(Velocity, get(Position), exclude(Frozen))]`",
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
