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
