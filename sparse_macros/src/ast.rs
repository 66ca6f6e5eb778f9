//! The model of a `#[world]` struct as written: its attributes, fields and groups. Only
//! structure lives here; what is allowed is decided in `valid.rs`.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::spanned::Spanned;
use syn::{
    Attribute, Error, Fields, GenericArgument, Generics, Ident, Item, Path, PathArguments, Type,
    Visibility,
};

use crate::attr;

/// A world as declared.
pub(crate) struct World {
    /// Attributes passed through to the struct (docs, `#[repr]`, …).
    pub attrs: Vec<Attribute>,
    /// The traits of its `#[derive(...)]` attributes, in order.
    pub derives: Vec<Path>,
    pub vis: Visibility,
    pub ident: Ident,
    pub generics: Generics,
    pub fields: Vec<Field>,
    pub groups: Vec<Group>,
    /// The user hooks, in declaration order.
    pub hooks: Vec<HookDecl>,
    /// The types of every `#[track(...)]`, in declaration order.
    pub tracked: Vec<TypeRef>,
}

/// One `#[on_insert(T, f)]`, `#[on_replace(T, f)]` or `#[on_remove(T, f)]`.
pub(crate) struct HookDecl {
    /// The attribute, where errors about the hook point.
    pub attr: Attribute,
    pub event: sparse_core::HookEvent,
    pub component: TypeRef,
    pub function: Path,
}

/// A named field, meant to be `name: Storage<T>` or `name: Resource<R>`.
pub(crate) struct Field {
    /// Attributes other than `#[cfg]`, passed to the field's accessor (docs, …).
    pub attrs: Vec<Attribute>,
    /// The predicates of the field's `#[cfg(...)]` attributes (all must hold).
    pub cfg: Vec<TokenStream>,
    pub vis: Visibility,
    pub ident: Ident,
    /// The field's type as written.
    pub ty: Type,
    /// `T` of `Storage<T>`, if the type has that shape.
    pub component: Option<TypeRef>,
    /// `R` of `Resource<R>`, if the type has that shape.
    pub resource: Option<TypeRef>,
}

/// One `#[group(...)]`.
pub(crate) struct Group {
    /// The attribute, where errors about the group point.
    pub attr: Attribute,
    /// The attribute's parentheses, where the group's impls are spanned.
    pub span: Span,
    /// Owned types, in declaration order.
    pub owned: Vec<TypeRef>,
    /// The `get(...)` clause, if any.
    pub observed: Option<ClauseRef>,
    /// The `exclude(...)` clause, if any.
    pub excluded: Option<ClauseRef>,
}

/// A `get(...)` or `exclude(...)` clause.
pub(crate) struct ClauseRef {
    pub types: Vec<TypeRef>,
}

impl Group {
    /// The observed types (empty without `get`).
    pub(crate) fn observed(&self) -> &[TypeRef] {
        self.observed.as_ref().map_or(&[], |c| &c.types)
    }

    /// The excluded types (empty without `exclude`).
    pub(crate) fn excluded(&self) -> &[TypeRef] {
        self.excluded.as_ref().map_or(&[], |c| &c.types)
    }
}

/// A component type as written, with the key that names it.
pub(crate) struct TypeRef {
    pub ty: Type,
    pub key: TypeKey,
}

/// The name of a component type: its tokens without spaces or invisible groups. Two
/// spellings of one type (`A`, `crate::A`) get two keys; the generated trait impls then
/// conflict, so such a world does not compile rather than holding two storages for one
/// type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TypeKey(String);

impl TypeKey {
    pub(crate) fn of(ty: &Type) -> TypeKey {
        let mut key = String::new();
        flatten(quote::quote!(#ty), &mut key);
        TypeKey(key)
    }

    /// The last path segment (`A` for `crate::a::A`).
    pub(crate) fn last_segment(&self) -> &str {
        self.0.rsplit("::").next().unwrap_or(&self.0)
    }
}

impl std::fmt::Display for TypeKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Writes `tokens` without spaces, looking through invisible groups (a type passed whole
/// through `macro_rules!` as `$t:ty` arrives wrapped in one).
fn flatten(tokens: TokenStream, out: &mut String) {
    for token in tokens {
        match token {
            TokenTree::Group(group) => {
                let (open, close) = match group.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::None => ("", ""),
                };
                out.push_str(open);
                flatten(group.stream(), out);
                out.push_str(close);
            }
            other => out.push_str(&other.to_string()),
        }
    }
}

/// The type inside invisible groups and parentheses.
pub(crate) fn unwrap_type(ty: &Type) -> &Type {
    match ty {
        Type::Group(group) => unwrap_type(&group.elem),
        Type::Paren(paren) => unwrap_type(&paren.elem),
        other => other,
    }
}

/// `T` in `Storage<T>`, or `R` in `Resource<R>` (`wrapper`: the last path segment must be
/// it, with one type argument).
fn wrapped<'t>(ty: &'t Type, wrapper: &str) -> Option<&'t Type> {
    let Type::Path(path) = unwrap_type(ty) else {
        return None;
    };
    let segment = path.path.segments.last()?;
    if path.qself.is_some() || segment.ident != wrapper {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &segment.arguments else {
        return None;
    };
    match args.args.first() {
        Some(GenericArgument::Type(component)) if args.args.len() == 1 => {
            Some(unwrap_type(component))
        }
        _ => None,
    }
}

impl TypeRef {
    fn new(ty: &Type) -> TypeRef {
        let ty = unwrap_type(ty).clone();
        TypeRef {
            key: TypeKey::of(&ty),
            ty,
        }
    }
}

impl World {
    /// Builds the model of a struct with named fields; anything else cannot be a world.
    /// Malformed `#[group]` attributes are reported in `errors` and left out.
    pub(crate) fn from_item(item: Item, errors: &mut Vec<Error>) -> Option<World> {
        let item = match item {
            Item::Struct(item) => item,
            Item::Enum(item) => {
                errors.push(unsupported(item.enum_token.span(), "an enum"));
                return None;
            }
            Item::Union(item) => {
                errors.push(unsupported(item.union_token.span(), "a union"));
                return None;
            }
            other => {
                errors.push(unsupported(other.span(), "this item"));
                return None;
            }
        };
        let named = match item.fields {
            Fields::Named(named) => named.named,
            Fields::Unnamed(fields) => {
                errors.push(Error::new_spanned(
                    fields,
                    "`#[world]` needs named fields, e.g. `positions: Storage<Position>`",
                ));
                return None;
            }
            Fields::Unit => {
                errors.push(Error::new_spanned(
                    &item.ident,
                    "`#[world]` needs a struct with named `Storage<T>` fields, e.g. `struct Scene { positions: Storage<Position> }`",
                ));
                return None;
            }
        };
        let fields = named
            .into_iter()
            .map(|field| {
                let (cfg, attrs) = attr::split_cfg(field.attrs, errors);
                Field {
                    attrs,
                    cfg,
                    vis: field.vis,
                    ident: field.ident.expect("named field"),
                    component: wrapped(&field.ty, "Storage").map(TypeRef::new),
                    resource: wrapped(&field.ty, "Resource").map(TypeRef::new),
                    ty: field.ty,
                }
            })
            .collect();
        let mut attrs = Vec::new();
        let mut derives = Vec::new();
        let mut groups = Vec::new();
        let mut hooks = Vec::new();
        let mut tracked = Vec::new();
        for attribute in item.attrs {
            if let Some(event) = attr::hook_event(&attribute) {
                match attr::hook_args(&attribute, event) {
                    Ok(args) => hooks.push(HookDecl {
                        event,
                        component: TypeRef::new(&args.ty),
                        function: args.function,
                        attr: attribute,
                    }),
                    Err(error) => errors.push(error),
                }
            } else if attribute.path().is_ident(attr::GROUP) {
                match attr::group_args(&attribute) {
                    Ok(args) => {
                        let clause = |clause: Option<attr::Clause>| {
                            clause.map(|c| ClauseRef {
                                types: c.types.iter().map(TypeRef::new).collect(),
                            })
                        };
                        groups.push(Group {
                            span: attr::args_span(&attribute),
                            owned: args.owned.iter().map(TypeRef::new).collect(),
                            observed: clause(args.get),
                            excluded: clause(args.exclude),
                            attr: attribute,
                        });
                    }
                    Err(error) => errors.push(error),
                }
            } else if attribute.path().is_ident(attr::TRACK) {
                match attr::track_args(&attribute) {
                    Ok(types) => tracked.extend(types.iter().map(TypeRef::new)),
                    Err(error) => errors.push(error),
                }
            } else if attr::is_world(&attribute) {
                errors.push(attr::world_twice(&attribute));
            } else if attribute.path().is_ident("derive") {
                match attr::derive_paths(&attribute) {
                    Ok(paths) => derives.extend(paths),
                    Err(error) => errors.push(error),
                }
            } else {
                attrs.push(attribute);
            }
        }
        Some(World {
            attrs,
            derives,
            vis: item.vis,
            ident: item.ident,
            generics: item.generics,
            fields,
            groups,
            hooks,
            tracked,
        })
    }
}

fn unsupported(span: Span, what: &str) -> Error {
    Error::new(
        span,
        format!("`#[world]` supports structs with named `Storage<T>` fields, not {what}"),
    )
}
