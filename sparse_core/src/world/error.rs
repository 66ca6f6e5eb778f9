//! A run-time layout that cannot be kept, as a value.

use core::fmt;

use crate::component::ComponentKey;
use crate::group::LayoutError;

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
