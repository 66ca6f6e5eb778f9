//! Compile-time validation of a world: every group names stored types, and the groups
//! satisfy the nesting rule, checked by the very `Layout` the runtime uses.

use sparse_core::layout::{Layout, LayoutError};
use syn::Error;

use crate::ast::World;

/// Methods every generated world has; a storage field must not shadow one.
const WORLD_METHODS: &[&str] = &[
    "new",
    "spawn",
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

/// Validates `world`. Returns its layout when every group is sound; errors are pushed
/// for every problem found, each at the span of what to fix.
pub(crate) fn validate(world: &World, errors: &mut Vec<Error>) -> Option<Layout<String>> {
    for field in &world.storages {
        if WORLD_METHODS.iter().any(|m| field.ident == m) {
            errors.push(Error::new_spanned(
                &field.ident,
                format!(
                    "field `{0}` would shadow the world method `{0}` (each field gets a read accessor of its name); rename the field",
                    field.ident
                ),
            ));
        }
    }

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
            errors.push(Error::new_spanned(
                ty,
                format!("the world stores no `{key}`{hint}"),
            ));
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
    match Layout::new(keys) {
        Ok(layout) if groups_sound => return Some(layout),
        Ok(_) => {}
        Err(layout_errors) => {
            for error in layout_errors {
                let group = &world.groups[checked[error.group()]];
                let spanned = match &error {
                    LayoutError::DuplicateType { second, .. } => {
                        Error::new_spanned(&group.types[*second].0, &error)
                    }
                    _ => Error::new_spanned(&group.attr, &error),
                };
                errors.push(spanned);
            }
        }
    }
    None
}
