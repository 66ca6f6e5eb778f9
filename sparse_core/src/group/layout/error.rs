//! What the nesting rule reports: a rejected declaration, with the declarations it names,
//! displayed on its own.

use core::fmt;

use super::{GroupDecl, Place, Role};
use crate::MAX_TUPLE;

/// A group declaration the nesting rule rejects. `group` is the index of the declaration
/// to blame; every variant carries the declarations it names so that it can be displayed
/// on its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError<K> {
    /// A group that names no type at all.
    Empty {
        /// The offending group.
        group: usize,
    },
    /// A group owning one type and filtering nothing: the storage is already packed.
    NothingFiltered {
        /// The offending group.
        group: usize,
        /// Its declaration.
        decl: GroupDecl<K>,
    },
    /// A group owning nothing and observing nothing (it only excludes).
    NothingObserved {
        /// The offending group.
        group: usize,
        /// Its declaration.
        decl: GroupDecl<K>,
    },
    /// A list with more types than the largest tuple a group can be named by.
    TooManyTypes {
        /// The offending group.
        group: usize,
        /// Its declaration.
        decl: GroupDecl<K>,
        /// The list that is too long.
        role: Role,
    },
    /// A type listed twice in a group (in one list or in two).
    DuplicateType {
        /// The offending group.
        group: usize,
        /// Its declaration.
        decl: GroupDecl<K>,
        /// The repeated type.
        ty: K,
        /// Its first occurrence.
        first: Place,
        /// Its second occurrence.
        second: Place,
    },
    /// A type both required (owned or observed) and excluded.
    RequiredAndExcluded {
        /// The offending group.
        group: usize,
        /// Its declaration.
        decl: GroupDecl<K>,
        /// The type.
        ty: K,
        /// Where it is required.
        required: Place,
        /// Where it is excluded.
        excluded: Place,
    },
    /// The same group declared twice (the order of types does not matter).
    DuplicateGroup {
        /// The later declaration.
        group: usize,
        /// Its declaration.
        decl: GroupDecl<K>,
        /// The earlier declaration.
        first: usize,
        /// The earlier declaration's types.
        first_decl: GroupDecl<K>,
    },
    /// A group shares owned types with others without being nested with them. Each
    /// conflicting pair is reported once, on the group that conflicts with the most others.
    Overlap {
        /// The group to blame.
        group: usize,
        /// Its declaration.
        decl: GroupDecl<K>,
        /// The groups it conflicts with, with an owned type each shares with it.
        others: Vec<Conflict<K>>,
        /// Declarations that the rule would accept in place of `group`, if any: the group
        /// observing the shared types instead of owning them, and a superset nested in
        /// every group it conflicts with.
        suggestions: Vec<GroupDecl<K>>,
    },
}

/// One group another group conflicts with (see [`LayoutError::Overlap`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict<K> {
    /// The other group's index.
    pub group: usize,
    /// Its declaration.
    pub decl: GroupDecl<K>,
    /// Every type both own, in the blamed group's order.
    pub shared: Vec<K>,
}

impl<K> LayoutError<K> {
    /// The index of the declaration this error blames.
    pub fn group(&self) -> usize {
        match *self {
            LayoutError::Empty { group }
            | LayoutError::NothingFiltered { group, .. }
            | LayoutError::NothingObserved { group, .. }
            | LayoutError::TooManyTypes { group, .. }
            | LayoutError::DuplicateType { group, .. }
            | LayoutError::RequiredAndExcluded { group, .. }
            | LayoutError::DuplicateGroup { group, .. }
            | LayoutError::Overlap { group, .. } => group,
        }
    }
}

/// Writes a type list as `A, B, C`.
struct List<'a, K>(&'a [K]);

impl<K: fmt::Display> fmt::Display for List<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, ty) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{ty}")?;
        }
        Ok(())
    }
}

/// Writes a declaration as `<A, B, get(C), exclude(D)>`.
pub(crate) struct DisplayGroup<'a, K>(pub &'a GroupDecl<K>);

impl<K: fmt::Display> fmt::Display for DisplayGroup<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let decl = self.0;
        let mut parts = Vec::new();
        if !decl.owned.is_empty() {
            parts.push(List(&decl.owned).to_string());
        }
        if !decl.observed.is_empty() {
            parts.push(format!("get({})", List(&decl.observed)));
        }
        if !decl.excluded.is_empty() {
            parts.push(format!("exclude({})", List(&decl.excluded)));
        }
        write!(f, "<{}>", parts.join(", "))
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Role::Owned => "owned",
            Role::Observed => "observed (`get`)",
            Role::Excluded => "excluded",
        })
    }
}

impl<K: fmt::Display + PartialEq + Clone> fmt::Display for LayoutError<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = DisplayGroup;
        match self {
            LayoutError::Empty { .. } => f.write_str(
                "group <> is empty: a group owns component types (and may observe or exclude others)",
            ),
            LayoutError::NothingFiltered { decl, .. } => write!(
                f,
                "group {} owns a single component type and filters nothing: a storage is already packed \
                 on its own, so a group needs a second type to own or observe, or a type to exclude; \
                 list the types to iterate together, or remove the group",
                g(decl)
            ),
            LayoutError::NothingObserved { decl, .. } => write!(
                f,
                "group {} owns and observes nothing: a group without owned types needs at least one \
                 observed type, e.g. `get(Position)`, whose entities it filters",
                g(decl)
            ),
            LayoutError::TooManyTypes { decl, role, .. } => write!(
                f,
                "group {} has more than {MAX_TUPLE} {role} types, more than a tuple can name; {}",
                g(decl),
                if *role == Role::Owned {
                    "own at most sixteen and observe the others with `get(...)`"
                } else {
                    "test the others with a view's `With<...>` / `Without<...>` filters"
                }
            ),
            LayoutError::DuplicateType {
                decl,
                ty,
                first,
                second,
                ..
            } => {
                if first.role == second.role {
                    write!(
                        f,
                        "`{ty}` appears twice in group {}: list each component type once",
                        g(decl)
                    )
                } else {
                    write!(
                        f,
                        "`{ty}` is both {} and {} in group {}: list each component type once",
                        first.role,
                        second.role,
                        g(decl)
                    )
                }
            }
            LayoutError::RequiredAndExcluded { decl, ty, .. } => write!(
                f,
                "`{ty}` is both required and excluded in group {}: no entity could ever be a member; \
                 remove it from one of the lists",
                g(decl)
            ),
            LayoutError::DuplicateGroup {
                decl, first_decl, ..
            } => write!(
                f,
                "group {} declares the same group as {} (the order of types does not matter): \
                 remove one of the two",
                g(decl),
                g(first_decl)
            ),
            LayoutError::Overlap {
                decl,
                others,
                suggestions,
                ..
            } => {
                if let [other] = &others[..] {
                    write!(
                        f,
                        "group {} shares {} with group {}, but neither contains the other",
                        g(decl),
                        listed(&other.shared),
                        g(&other.decl)
                    )?;
                } else {
                    write!(
                        f,
                        "group {} shares owned components with {} groups without being nested with any of them:",
                        g(decl),
                        others.len()
                    )?;
                    for (i, other) in others.iter().enumerate() {
                        let sep = if i == 0 { " " } else { ", " };
                        write!(f, "{sep}{} ({})", g(&other.decl), listed(&other.shared))?;
                    }
                }
                f.write_str(": groups that own a common component must be nested")?;
                let shared = if let [one] = &others[..] {
                    listed(&one.shared)
                } else {
                    "their components".to_string()
                };
                if suggestions.is_empty() {
                    write!(f, "; stop sharing {shared}, or remove this group")
                } else {
                    let fixes: Vec<String> = suggestions
                        .iter()
                        .map(|s| format!("{}", g(s)))
                        .collect();
                    write!(
                        f,
                        "; declare it as {} instead, or stop sharing {shared}",
                        fixes.join(" or as ")
                    )
                }
            }
        }
    }
}

impl<K: fmt::Display + fmt::Debug + PartialEq + Clone> std::error::Error for LayoutError<K> {}

/// "`A`", "`A` and `B`", "`A`, `B` and `C`".
fn listed<K: fmt::Display>(types: &[K]) -> String {
    let quoted: Vec<String> = types.iter().map(|t| format!("`{t}`")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}
