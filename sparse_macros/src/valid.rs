//! Every rule of a `#[world]`: what its fields, derives and groups may be. Group layouts
//! are checked by the very `Layout` the run-time world uses. Each problem is reported at
//! the tokens to fix, and all of them at once.

use proc_macro2::{Span, TokenStream};
use quote::quote;
use sparse_core::{GroupDecl, HookEvent, Layout, LayoutError, Place, Role};
use syn::ext::IdentExt;
use syn::{Error, Path};

use crate::ast::{Field, Group, HookDecl, TypeKey, TypeRef, World};
use crate::derive_list;
use crate::method_names;

/// A world that passed the checks that let it be generated at all, with what generation
/// needs to know.
pub(crate) struct Model<'a> {
    pub world: &'a World,
    /// The fields that are storages, in declaration order.
    pub storages: Vec<StorageField<'a>>,
    /// The fields that are resources, in declaration order.
    pub resources: Vec<ResourceField<'a>>,
    /// The derives `#[world]` implements itself.
    pub derives: derive_list::Requested,
    /// Derives passed through to the struct.
    pub passthrough: Vec<&'a Path>,
    /// Errors that depend on the configuration: `compile_error!`s under a `#[cfg]`.
    pub cfg_errors: Vec<TokenStream>,
}

/// A storage: one component type, declared by one field, or by alternative fields under
/// `#[cfg]`s that must not hold together.
pub(crate) struct StorageField<'a> {
    /// The field declaring it (the first one, if there are alternatives).
    pub field: &'a Field,
    pub component: &'a TypeRef,
    /// Every field declaring it, with whether it gets its read accessor (not when it would
    /// shadow a method).
    pub fields: Vec<(&'a Field, bool)>,
    /// When the storage exists: `None` if always, else the predicate any of its fields
    /// needs.
    pub cfg: Option<TokenStream>,
}

/// A resource: one value of its type, declared by one field.
pub(crate) struct ResourceField<'a> {
    pub field: &'a Field,
    pub resource: &'a TypeRef,
    /// Whether the field gets its read accessor (not when it would shadow a method).
    pub accessor: bool,
}

impl Model<'_> {
    /// The index of the storage of `key`.
    pub(crate) fn storage(&self, key: &TypeKey) -> Option<usize> {
        self.storages.iter().position(|s| &s.component.key == key)
    }
}

/// The `#[cfg]` predicate of a field: all of its `#[cfg(...)]`s.
pub(crate) fn cfg_predicate(cfg: &[TokenStream]) -> Option<TokenStream> {
    match cfg {
        [] => None,
        [one] => Some(one.clone()),
        many => Some(quote!(all(#(#many),*))),
    }
}

/// A `compile_error!` that fires only when `predicate` holds.
fn cfg_error(predicate: TokenStream, span: Span, message: &str) -> TokenStream {
    let error = Error::new(span, message).into_compile_error();
    quote! {
        #[cfg(#predicate)]
        #error
    }
}

/// Checks the world's shape, fields and derives. Returns `None` if no world can be
/// generated from it (a generic struct).
pub(crate) fn fields<'a>(world: &'a World, errors: &mut Vec<Error>) -> Option<Model<'a>> {
    if !world.generics.params.is_empty() || world.generics.where_clause.is_some() {
        errors.push(Error::new_spanned(
            &world.generics,
            "`#[world]` does not support generic worlds",
        ));
        return None;
    }
    let mut storages: Vec<StorageField<'a>> = Vec::new();
    let mut resources: Vec<ResourceField<'a>> = Vec::new();
    let mut cfg_errors = Vec::new();
    for field in &world.fields {
        let name = field.ident.unraw().to_string();
        if name.starts_with("__sparse") {
            errors.push(Error::new_spanned(
                &field.ident,
                "field names starting with `__sparse` are reserved by `#[world]`; rename the field",
            ));
            continue;
        }
        let shadows =
            method_names::is_generated(&name) || derive_list::shadows(&world.derives, &name);
        if shadows {
            errors.push(Error::new_spanned(
                &field.ident,
                format!(
                    "field `{name}` would shadow the world method `{name}` (each field gets a read accessor of its name); rename the field"
                ),
            ));
        }
        if let Some(resource) = &field.resource {
            resource_field(field, resource, !shadows, &mut resources, errors);
            continue;
        }
        let Some(component) = &field.component else {
            errors.push(Error::new_spanned(
                &field.ty,
                "a world field must be a `Storage<T>` of a component type `T`, or a `Resource<R>`",
            ));
            continue;
        };
        if component.key.last_segment().starts_with("Resource<") {
            errors.push(Error::new_spanned(
                &field.ty,
                format!(
                    "`{}` declares a resource, not a component: write the field's type as `{}`, without `Storage<…>`",
                    component.key, component.key
                ),
            ));
            continue;
        }
        let Some(first) = storages
            .iter_mut()
            .find(|s| s.component.key == component.key)
        else {
            storages.push(StorageField {
                field,
                component,
                fields: vec![(field, !shadows)],
                cfg: cfg_predicate(&field.cfg),
            });
            continue;
        };
        let message = format!(
            "`{}` is already stored in field `{}`: a world stores each component type once",
            component.key, first.field.ident
        );
        let both = [&first.field.cfg[..], &field.cfg[..]].concat();
        match (&first.cfg, cfg_predicate(&field.cfg)) {
            // Fields under `#[cfg]`s may be alternatives: an error only if both exist.
            (Some(earlier), Some(this)) => {
                cfg_errors.push(cfg_error(
                    cfg_predicate(&both).expect("both fields have a `#[cfg]`"),
                    span_of(&component.ty),
                    &message,
                ));
                first.cfg = Some(quote!(any(#earlier, #this)));
                first.fields.push((field, !shadows));
            }
            (None, Some(this)) => {
                cfg_errors.push(cfg_error(this, span_of(&component.ty), &message));
            }
            (_, None) => errors.push(Error::new_spanned(&component.ty, message)),
        }
    }
    let (derives, passthrough) = derive_list::classify(&world.derives, errors);
    Some(Model {
        world,
        storages,
        resources,
        derives,
        passthrough,
        cfg_errors,
    })
}

/// Checks a `Resource<R>` field: not under `#[cfg]`, `R` held once.
fn resource_field<'a>(
    field: &'a Field,
    resource: &'a TypeRef,
    accessor: bool,
    resources: &mut Vec<ResourceField<'a>>,
    errors: &mut Vec<Error>,
) {
    if !field.cfg.is_empty() {
        errors.push(Error::new_spanned(
            &field.ident,
            "a resource field under `#[cfg]` is not supported: declare it in every configuration",
        ));
        return;
    }
    if let Some(first) = resources.iter().find(|r| r.resource.key == resource.key) {
        errors.push(Error::new_spanned(
            &resource.ty,
            format!(
                "`{}` is already a resource in field `{}`: a world holds one resource of each type",
                resource.key, first.field.ident
            ),
        ));
        return;
    }
    resources.push(ResourceField {
        field,
        resource,
        accessor,
    });
}

fn span_of(ty: &syn::Type) -> Span {
    syn::spanned::Spanned::span(ty)
}

/// A group whose types are all stored, as storage indices.
pub(crate) struct CheckedGroup {
    pub index: usize,
    pub decl: GroupDecl<usize>,
}

/// Checks that every group names stored types and that the groups satisfy the nesting
/// rule. Returns the groups whose types are all stored and, if every group is sound, the
/// layout (over type keys, in the order of the returned groups).
pub(crate) fn groups(
    model: &mut Model<'_>,
    errors: &mut Vec<Error>,
) -> (Vec<CheckedGroup>, Option<Layout<TypeKey>>) {
    // Errors about groups, keyed by declaration index so that they come out in source order.
    let mut group_errors: Vec<(usize, Error)> = Vec::new();
    let mut checked: Vec<CheckedGroup> = Vec::new();
    for (index, group) in model.world.groups.iter().enumerate() {
        let mut stored = true;
        let mut storages = |types: &[TypeRef], model: &mut Model<'_>| -> Vec<usize> {
            let mut found = Vec::new();
            for ty in types {
                match model.storage(&ty.key) {
                    Some(storage) => {
                        found.push(storage);
                        let field = model.storages[storage].field;
                        if let Some(predicate) = &model.storages[storage].cfg {
                            let message = format!(
                                "group {} names `{}`, whose field `{}` is configured out by its `#[cfg]`: \
                                 a group's types must all be stored",
                                display(group),
                                ty.key,
                                field.ident
                            );
                            model.cfg_errors.push(cfg_error(
                                quote!(not(#predicate)),
                                span_of(&ty.ty),
                                &message,
                            ));
                        }
                    }
                    None => {
                        stored = false;
                        group_errors.push((
                            index,
                            unstored(model, ty, &format!("remove `{}` from the group", ty.key)),
                        ));
                    }
                }
            }
            found
        };
        let decl = GroupDecl {
            owned: storages(&group.owned, model),
            observed: storages(group.observed(), model),
            excluded: storages(group.excluded(), model),
        };
        if stored {
            checked.push(CheckedGroup { index, decl });
        }
    }
    let sound = checked.len() == model.world.groups.len();
    let keys: Vec<GroupDecl<TypeKey>> = checked
        .iter()
        .map(|c| key_decl(&model.world.groups[c.index]))
        .collect();
    let layout = match Layout::new(keys) {
        Ok(layout) => Some(layout),
        Err(layout_errors) => {
            for error in layout_errors {
                let index = checked[error.group()].index;
                let group = &model.world.groups[index];
                let at = |place: &Place| {
                    let list = match place.role {
                        Role::Owned => &group.owned[..],
                        Role::Observed => group.observed(),
                        Role::Excluded => group.excluded(),
                    };
                    &list[place.index].ty
                };
                let spanned = match &error {
                    LayoutError::DuplicateType { second, .. } => {
                        Error::new_spanned(at(second), &error)
                    }
                    LayoutError::RequiredAndExcluded { excluded, .. } => {
                        Error::new_spanned(at(excluded), &error)
                    }
                    _ => Error::new_spanned(&group.attr, &error),
                };
                group_errors.push((index, spanned));
            }
            None
        }
    };
    group_errors.sort_by_key(|(index, _)| *index);
    errors.extend(group_errors.into_iter().map(|(_, error)| error));
    (checked, layout.filter(|_| sound))
}

/// A group's declaration over type keys.
pub(crate) fn key_decl(group: &Group) -> GroupDecl<TypeKey> {
    let keys = |types: &[TypeRef]| types.iter().map(|t| t.key.clone()).collect();
    GroupDecl {
        owned: keys(&group.owned),
        observed: keys(group.observed()),
        excluded: keys(group.excluded()),
    }
}

/// The error for a group type no field stores.
fn unstored(model: &Model<'_>, ty: &TypeRef, remedy: &str) -> Error {
    let key = &ty.key;
    let hint = match model
        .storages
        .iter()
        .find(|s| s.component.key.last_segment() == key.last_segment())
    {
        Some(s) => format!(
            "; the world stores `{}`: spell the type as in field `{}`",
            s.component.key, s.field.ident
        ),
        None => format!("; add a field of type `Storage<{key}>` or {remedy}"),
    };
    Error::new_spanned(&ty.ty, format!("the world stores no `{key}`{hint}"))
}

/// `<A, B, get(C), exclude(D)>`, as written.
pub(crate) fn display(group: &Group) -> String {
    let list = |types: &[TypeRef]| {
        types
            .iter()
            .map(|t| t.key.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut parts = Vec::new();
    if !group.owned.is_empty() {
        parts.push(list(&group.owned));
    }
    if !group.observed().is_empty() {
        parts.push(format!("get({})", list(group.observed())));
    }
    if !group.excluded().is_empty() {
        parts.push(format!("exclude({})", list(group.excluded())));
    }
    format!("<{}>", parts.join(", "))
}

/// The hooks of one storage, at each event's index (`HookEvent::index`).
#[derive(Default)]
pub(crate) struct StorageHooks<'a> {
    pub on: [Option<&'a HookDecl>; HookEvent::ALL.len()],
}

impl StorageHooks<'_> {
    /// Whether the storage has any hook.
    pub(crate) fn any(&self) -> bool {
        self.on.iter().any(Option::is_some)
    }
}

/// Checks every `#[on_…(T, f)]`: `T` stored (and not under `#[cfg]`), one hook per event
/// and type. Returns the hooks per storage; rejected ones are left out.
pub(crate) fn hooks<'a>(model: &Model<'a>, errors: &mut Vec<Error>) -> Vec<StorageHooks<'a>> {
    let mut per_storage: Vec<StorageHooks<'a>> = model
        .storages
        .iter()
        .map(|_| StorageHooks::default())
        .collect();
    for hook in &model.world.hooks {
        let ty = &hook.component;
        let Some(i) = model.storage(&ty.key) else {
            errors.push(unstored(model, ty, "remove the hook"));
            continue;
        };
        if model.storages[i].cfg.is_some() {
            errors.push(Error::new_spanned(
                &ty.ty,
                format!(
                    "the storage of `{}` is under `#[cfg]`: a hook on it is not supported; hook a type stored in every configuration",
                    ty.key
                ),
            ));
            continue;
        }
        let slot = &mut per_storage[i].on[hook.event.index()];
        if slot.is_some() {
            errors.push(Error::new_spanned(
                &hook.attr,
                format!(
                    "a second `#[{}({}, …)]`: a type has one hook per event; call both functions from one hook",
                    hook.event, ty.key
                ),
            ));
            continue;
        }
        *slot = Some(hook);
    }
    per_storage
}

/// Checks every type of `#[track(...)]`: stored. Returns whether each storage is tracked
/// (a type named twice is tracked once).
pub(crate) fn tracked(model: &Model<'_>, errors: &mut Vec<Error>) -> Vec<bool> {
    let mut tracked = vec![false; model.storages.len()];
    for ty in &model.world.tracked {
        match model.storage(&ty.key) {
            Some(i) => tracked[i] = true,
            None => errors.push(unstored(model, ty, "remove it from `#[track(...)]`")),
        }
    }
    tracked
}
