//! Compile-time validation of a world: every group names stored types, and the groups
//! satisfy the nesting rule, checked by the very `Layout` the runtime uses.

use sparse_core::layout::{Layout, LayoutError};
use syn::Error;

use crate::ast::World;

/// Methods every generated world has; a storage field must not shadow one.
const WORLD_METHODS: &[&str] = &[
    "new",
    "spawn",
    "spawn_with",
    "spawn_batch",
    "is_alive",
    "entities",
    "insert",
    "remove",
    "get",
    "get_mut",
    "contains",
    "storage",
    "components_mut",
    "destroy",
    "group",
    "group_len",
    "sort_group",
    "sort",
    "view",
    "check",
    "default",
];

/// Whether a field named `ident` would collide with a generated method.
pub(crate) fn shadows_method(ident: &syn::Ident) -> bool {
    WORLD_METHODS.iter().any(|m| ident == m)
}

/// Validates `world`. Returns its layout when every group is sound; errors are pushed
/// for every problem found, each at the span of what to fix.
pub(crate) fn validate(world: &World, errors: &mut Vec<Error>) -> Option<Layout<String>> {
    for field in &world.storages {
        if shadows_method(&field.ident) {
            errors.push(Error::new_spanned(
                &field.ident,
                format!(
                    "field `{0}` would shadow the world method `{0}` (each field gets a read accessor of its name); rename the field",
                    field.ident
                ),
            ));
        }
    }

    // Errors about groups, keyed by declaration index so that they come out in source order.
    let mut group_errors: Vec<(usize, Error)> = Vec::new();
    let mut groups_sound = true;
    let mut checked: Vec<usize> = Vec::new();
    for (index, group) in world.groups.iter().enumerate() {
        let mut stored = true;
        for (ty, key) in &group.types {
            if world.storage(key).is_some() {
                continue;
            }
            stored = false;
            let last = |k: &str| k.rsplit("::").next().map(str::to_owned);
            let hint = match world.storages.iter().find(|s| last(&s.key) == last(key)) {
                Some(s) => format!(
                    "; the world stores `{}`: spell the type as in field `{}`",
                    s.key, s.ident
                ),
                None => format!(
                    "; add a field of type `Storage<{key}>` or remove `{key}` from the group"
                ),
            };
            let error = Error::new_spanned(ty, format!("the world stores no `{key}`{hint}"));
            group_errors.push((index, error));
        }
        if stored {
            checked.push(index);
        } else {
            groups_sound = false;
        }
    }

    let keys: Vec<Vec<String>> = checked
        .iter()
        .map(|&g| {
            world.groups[g]
                .types
                .iter()
                .map(|(_, k)| k.clone())
                .collect()
        })
        .collect();
    let layout = match Layout::new(keys) {
        Ok(layout) => Some(layout),
        Err(layout_errors) => {
            for error in layout_errors {
                let index = checked[error.group()];
                let group = &world.groups[index];
                let spanned = match &error {
                    LayoutError::DuplicateType { second, .. } => {
                        Error::new_spanned(&group.types[*second].0, &error)
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
    layout.filter(|_| groups_sound)
}
