//! What a borrow request cannot be served with, as a value: what a `#[world]` rejects at
//! compile time and the run-time [`World`](crate::World) returns.

use core::fmt;

use crate::component::short_name;

/// A request the world cannot serve. A `#[world]` rejects each of these at compile time;
/// the run-time [`World`](crate::World) returns them, having changed nothing. Each holds
/// the type's full name (`core::any::type_name`); the message shows it as written in
/// code, without module paths.
///
/// ```
/// use sparse_core::{AccessError, Component, GroupSpec, World};
/// struct A(u32);
/// struct B(u32);
/// struct C(u32);
/// impl Component for A {}
/// impl Component for B {}
/// impl Component for C {}
/// let mut world = World::with_groups([GroupSpec::of::<(A, B)>()])?;
/// world.spawn_with((A(2), B(1)));
///
/// assert!(matches!(world.group::<(A, C)>(), Err(AccessError::NoSuchGroup(_))));
/// assert!(matches!(world.sort::<A>(|x, y| x.0.cmp(&y.0)), Err(AccessError::OwnedByGroup(_))));
/// assert!(matches!(world.view_ref::<&C>(), Err(AccessError::NotStored(_))));
/// assert!(matches!(
///     world.borrow::<(sparse_core::ValuesMut<A>, &sparse_core::Storage<A>)>(),
///     Err(AccessError::Conflict(_))
/// ));
/// // The group keeps its order: nothing was sorted.
/// assert_eq!(world.group_len::<(B, A)>()?, 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AccessError {
    /// No group of the world has this declaration (shown as `<A, B, get(C)>`).
    NoSuchGroup(String),
    /// The storage is owned by a group: sort the group instead, so it stays packed.
    OwnedByGroup(&'static str),
    /// The world has no storage of this type (a `#[world]` rejects this at compile time;
    /// the run-time world creates storages on `&mut` access).
    NotStored(&'static str),
    /// The request borrows this type mutably twice, or mutably and shared (a `#[world]`
    /// rejects this at compile time).
    Conflict(&'static str),
    /// An `Added<T>` or `Changed<T>` filter names a storage without change detection
    /// (a `#[world]` rejects this at compile time; the run-time world tracks a type once
    /// [`World::track`](crate::World::track) is called for it).
    NotTracked(&'static str),
    /// The world holds no resource of this type (a `#[world]` holds every resource it
    /// declares; the run-time world holds those inserted with
    /// [`World::insert_resource`](crate::World::insert_resource)).
    NoResource(&'static str),
}

impl fmt::Display for AccessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccessError::NoSuchGroup(group) => {
                write!(f, "this world has no group {}", short_name(group))
            }
            AccessError::OwnedByGroup(ty) => write!(
                f,
                "`{}` is owned by a group; sort the group with `sort_group` instead",
                short_name(ty)
            ),
            AccessError::NotStored(ty) => write!(f, "this world stores no `{}`", short_name(ty)),
            AccessError::Conflict(ty) => write!(
                f,
                "`{}` is borrowed twice, at least once mutably, in one request",
                short_name(ty)
            ),
            AccessError::NoResource(ty) => {
                let ty = short_name(ty);
                write!(
                    f,
                    "this world holds no resource `{ty}`: insert one first with `world.insert_resource(…)` (on a `#[world]`, declare a field of type `Resource<{ty}>`)"
                )
            }
            AccessError::NotTracked(ty) => {
                let ty = short_name(ty);
                write!(
                    f,
                    "`{ty}` is not tracked: `Added` and `Changed` need change detection on its storage; turn it on with `world.track::<{ty}>()` (on a `#[world]`: `#[track({ty})]`)"
                )
            }
        }
    }
}

impl std::error::Error for AccessError {}

#[cfg(test)]
mod tests {
    use super::AccessError;

    mod game {
        pub struct Health;
    }

    #[test]
    fn messages_name_types_as_written_and_not_tracked_names_the_call() {
        let health = core::any::type_name::<game::Health>();
        assert!(health.contains("::game::Health"), "{health}");
        let message = AccessError::NotTracked(health).to_string();
        assert!(message.starts_with("`Health` is not tracked"), "{message}");
        assert!(message.contains("world.track::<Health>()"), "{message}");
        assert!(!message.contains("::game"), "{message}");
        let vec = core::any::type_name::<Vec<game::Health>>();
        for error in [
            AccessError::OwnedByGroup(vec),
            AccessError::NotStored(vec),
            AccessError::Conflict(vec),
            AccessError::NoResource(vec),
        ] {
            let message = error.to_string();
            assert!(message.contains("`Vec<Health>`"), "{message}");
        }
        let group = AccessError::NoSuchGroup(format!("<{health}, get({vec})>")).to_string();
        assert_eq!(group, "this world has no group <Health, get(Vec<Health>)>");
    }
}
