//! The model of a `#[world]` struct: its storages and its groups.

use syn::spanned::Spanned;
use syn::{
    Attribute, Error, Fields, GenericArgument, Ident, Item, PathArguments, Type, Visibility,
};

use crate::attr;

/// A world as declared, with every piece that parsed; problems go to `errors`.
pub(crate) struct World {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub ident: Ident,
    pub storages: Vec<StorageField>,
    pub groups: Vec<Group>,
}

/// A field `name: Storage<T>`.
pub(crate) struct StorageField {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub ident: Ident,
    /// The field's type as written (`Storage<T>`, under whatever path).
    pub ty: Type,
    pub component: Type,
    pub key: String,
}

/// One `#[group(...)]`.
pub(crate) struct Group {
    pub attr: Attribute,
    pub types: Vec<(Type, String)>,
}

/// The key naming a component type: its tokens without spaces. Two spellings of one
/// type (`A`, `crate::A`) get two keys; the generated trait impls then conflict, so such
/// a world does not compile rather than holding two storages for one type.
pub(crate) fn type_key(ty: &Type) -> String {
    quote::quote!(#ty).to_string().replace(' ', "")
}

/// `T` in `Storage<T>` (the last path segment must be `Storage` with one type argument).
fn storage_component(ty: &Type) -> Option<&Type> {
    let Type::Path(path) = ty else { return None };
    let segment = path.path.segments.last()?;
    if path.qself.is_some() || segment.ident != "Storage" {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &segment.arguments else {
        return None;
    };
    match args.args.first() {
        Some(GenericArgument::Type(component)) if args.args.len() == 1 => Some(component),
        _ => None,
    }
}

impl World {
    /// Builds the model from the annotated item, collecting every error.
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
        if !item.generics.params.is_empty() || item.generics.where_clause.is_some() {
            errors.push(Error::new_spanned(
                &item.generics,
                "`#[world]` does not support generic worlds",
            ));
            return None;
        }
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
        let mut storages: Vec<StorageField> = Vec::new();
        for field in named {
            let ident = field.ident.expect("named field");
            if ident.to_string().starts_with("__sparse") {
                // Left out of the model: the generated struct uses such names itself.
                errors.push(Error::new_spanned(
                    &ident,
                    "field names starting with `__sparse` are reserved by `#[world]`; rename the field",
                ));
                continue;
            }
            let Some(component) = storage_component(&field.ty) else {
                errors.push(Error::new_spanned(
                    &field.ty,
                    "a world field must be a `Storage<T>` of a component type `T`",
                ));
                continue;
            };
            let key = type_key(component);
            if let Some(first) = storages.iter().find(|s| s.key == key) {
                errors.push(Error::new_spanned(
                    component,
                    format!(
                        "`{key}` is already stored in field `{}`: a world stores each component type once",
                        first.ident
                    ),
                ));
                continue;
            }
            let component = component.clone();
            storages.push(StorageField {
                attrs: field.attrs,
                vis: field.vis,
                ident,
                ty: field.ty,
                component,
                key,
            });
        }
        let mut attrs = Vec::new();
        let mut groups = Vec::new();
        for attr in item.attrs {
            if !attr.path().is_ident(attr::GROUP) {
                attrs.push(attr);
                continue;
            }
            match attr::group_types(&attr) {
                Ok(types) => {
                    let types = types
                        .into_iter()
                        .map(|t| (type_key(&t), t))
                        .map(|(k, t)| (t, k))
                        .collect();
                    groups.push(Group { attr, types });
                }
                Err(error) => errors.push(error),
            }
        }
        Some(World {
            attrs,
            vis: item.vis,
            ident: item.ident,
            storages,
            groups,
        })
    }

    /// The storage field of the component with `key`.
    pub(crate) fn storage(&self, key: &str) -> Option<&StorageField> {
        self.storages.iter().find(|s| s.key == key)
    }
}

fn unsupported(span: proc_macro2::Span, what: &str) -> Error {
    Error::new(
        span,
        format!("`#[world]` supports structs with named `Storage<T>` fields, not {what}"),
    )
}
