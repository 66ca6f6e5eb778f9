//! What a run-time world refuses, as values.

use core::fmt;

use crate::component::ComponentKey;
use crate::group::LayoutError;

/// A request the world cannot serve. A `#[world]` rejects each of these at compile time;
/// the run-time [`World`](crate::World) returns them, having changed nothing.
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
}

impl fmt::Display for AccessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccessError::NoSuchGroup(group) => write!(f, "this world has no group {group}"),
            AccessError::OwnedByGroup(ty) => {
                write!(
                    f,
                    "`{ty}` is owned by a group; sort the group with `sort_group` instead"
                )
            }
            AccessError::NotStored(ty) => write!(f, "this world stores no `{ty}`"),
            AccessError::Conflict(ty) => write!(
                f,
                "`{ty}` is borrowed twice, at least once mutably, in one request"
            ),
        }
    }
}

impl std::error::Error for AccessError {}

/// Every error of a rejected run-time layout, displayed one per line.
///
/// ```
/// use sparse_core::{Component, GroupSpec, LayoutError, World};
/// struct A;
/// struct B;
/// struct C;
/// impl Component for A {}
/// impl Component for B {}
/// impl Component for C {}
/// // `<A, B>` and `<A, C>` share `A` but neither contains the other; `<B>` is listed twice.
/// let errors = World::with_groups([
///     GroupSpec::of::<(A, B)>(),
///     GroupSpec::of::<(A, C)>(),
///     GroupSpec::of::<(B, A)>(),
/// ])
/// .err()
/// .expect("a layout that cannot be kept");
/// assert_eq!(errors.0.len(), 2);
/// assert!(matches!(errors.0[0], LayoutError::Overlap { .. }));
/// assert!(errors.to_string().lines().count() >= 2, "one line per error:\n{errors}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutErrors(pub Vec<LayoutError<ComponentKey>>);

impl fmt::Display for LayoutErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, error) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

impl std::error::Error for LayoutErrors {}
