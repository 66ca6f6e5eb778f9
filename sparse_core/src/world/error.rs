//! What a run-time world refuses, as values.

use core::fmt;

use crate::component::ComponentKey;
use crate::group::LayoutError;

/// A request the world cannot serve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccessError {
    /// No group of the world has this declaration (shown as `<A, B, get(C)>`).
    NoSuchGroup(String),
    /// The storage is owned by a group: sort the group instead, so it stays packed.
    OwnedByGroup(&'static str),
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
        }
    }
}

impl std::error::Error for AccessError {}

/// Every error of a rejected run-time layout, displayed one per line.
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
