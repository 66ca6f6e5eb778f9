//! The `Component` marker and the run-time name of a component type (as the user wrote
//! it, without module paths, in messages and diagrams).

use core::any::TypeId;
use core::fmt;
use core::hash::{Hash, Hasher};

/// A type that can be stored in a world. Derive it with `#[derive(Component)]` from the
/// `sparse_groups` crate, or implement it by hand: it has no methods.
///
/// Components are `Send + Sync + 'static`, as in bevy_ecs, hecs, sparsey and shipyard, so
/// that every world is `Send + Sync` and can be handed to other threads.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a component",
    label = "not a component",
    note = "add `#[derive(sparse_groups::Component)]` to the declaration of `{Self}`, or wrap a foreign type in a newtype that derives it"
)]
pub trait Component: Send + Sync + 'static {}

/// Names a component type at run time: its `TypeId`, displayed as its type name.
#[derive(Clone, Copy, Debug)]
pub struct ComponentKey {
    id: TypeId,
    name: &'static str,
}

impl ComponentKey {
    /// The key of `T`.
    pub fn of<T: Component>() -> Self {
        ComponentKey {
            id: TypeId::of::<T>(),
            name: core::any::type_name::<T>(),
        }
    }

    /// The key of any type (a storage's, whose type is a component wherever a world
    /// holds it).
    pub(crate) fn of_any<T: 'static>() -> Self {
        ComponentKey {
            id: TypeId::of::<T>(),
            name: core::any::type_name::<T>(),
        }
    }

    /// The `TypeId` of the component type.
    pub fn type_id(&self) -> TypeId {
        self.id
    }

    /// The type's name as given by `core::any::type_name`.
    pub fn name(&self) -> &'static str {
        self.name
    }
}

impl PartialEq for ComponentKey {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Eq for ComponentKey {}

impl Hash for ComponentKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}

impl fmt::Display for ComponentKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

/// A type name without its module paths: `game::Velocity` is `Velocity`,
/// `alloc::vec::Vec<game::Id>` is `Vec<Id>`.
pub(crate) fn short_name(name: &str) -> String {
    let mut short = String::with_capacity(name.len());
    let mut word = String::new();
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            word.clear();
        } else if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            short.push_str(&word);
            word.clear();
            short.push(c);
        }
    }
    short.push_str(&word);
    short
}

#[cfg(test)]
mod tests {
    use super::short_name;

    #[test]
    fn type_names_lose_their_paths() {
        assert_eq!(short_name("game::Velocity"), "Velocity");
        assert_eq!(short_name("alloc::vec::Vec<game::Id>"), "Vec<Id>");
        assert_eq!(short_name("<A, B, get(m::C)>"), "<A, B, get(C)>");
    }
}
