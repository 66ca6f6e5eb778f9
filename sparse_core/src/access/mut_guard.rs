//! `Mut<T>`: a component borrowed mutably that counts as changed only once it is written.
//!
//! ```text
//! view::<&mut Health>()   every value handed out is stamped changed
//! view::<Mut<Health>>()   a value is stamped when the walk writes through it:
//!
//!   for (_, mut health) in view {        health: Mut<Health>
//!       if health.0 < 10 {               Deref:    a read, no stamp
//!           health.0 += 1;               DerefMut: one relaxed store of the tick
//!       }
//!   }
//! ```
//!
//! On a storage without change detection the guard holds no stamp and writing through it
//! is writing through `&mut T` after one test; `&mut T` stays the plain reference.

use core::fmt;
use core::ops::{Deref, DerefMut};

use crate::storage::Stamp;

/// A component borrowed mutably from a view, stamped changed (for
/// [`Changed<T>`](crate::Changed)) when it is written through [`DerefMut`], not when it is
/// handed out.
///
/// Ask for it in a view where `&mut T` would go: `view::<(Mut<Health>, &Poison)>()`, or
/// `Option<Mut<T>>`. It borrows `T` as `&mut T` does (the borrow rule counts it as a
/// write) and walks the same way; only the stamping differs. Reads go through [`Deref`]
/// and leave the component unchanged; [`bypass_change_detection`](Mut::bypass_change_detection)
/// writes without a stamp.
///
/// Choose `&mut T` when a pass writes (nearly) every value it visits: its stamps cost one
/// store per entity, or one for the whole storage when the walk covers all of it. Choose
/// `Mut<T>` when a pass writes a few of the values it visits and later passes filter with
/// `Changed<T>`: they then see only what was written. On an untracked storage the two mark
/// nothing.
///
/// ```
/// use sparse_core::{Changed, Component, Mut, World};
/// # #[derive(Debug, PartialEq)]
/// struct Health(u32);
/// impl Component for Health {}
///
/// let mut world = World::new();
/// world.track::<Health>();
/// let hurt = world.spawn_with((Health(5),));
/// let fine = world.spawn_with((Health(100),));
/// world.tick();
/// for (_, mut health) in world.view::<Mut<Health>>()? {
///     if health.0 < 10 {
///         health.0 += 10;
///     }
/// }
/// let changed: Vec<_> = world.view::<(&Health, Changed<Health>)>()?.iter().map(|(e, _)| e).collect();
/// assert_eq!(changed, [hurt]);
/// # let _ = fine;
/// # Ok::<(), sparse_core::AccessError>(())
/// ```
pub struct Mut<'w, T> {
    value: &'w mut T,
    stamp: Option<Stamp<'w>>,
}

impl<'w, T> Mut<'w, T> {
    /// Wraps a value handed out by a column with the stamp to mark on write (`None` for an
    /// untracked storage).
    #[inline(always)]
    pub(crate) fn new(value: &'w mut T, stamp: Option<Stamp<'w>>) -> Self {
        Mut { value, stamp }
    }

    /// Stamps the component changed without writing it.
    #[inline]
    pub fn set_changed(&mut self) {
        if let Some(stamp) = self.stamp {
            stamp.mark();
        }
    }

    /// The component, to write without stamping it changed: a later `Changed<T>` does
    /// not see this write.
    #[inline]
    pub fn bypass_change_detection(&mut self) -> &mut T {
        self.value
    }

    /// The component for the rest of the borrow, stamped changed (handing it out
    /// mutably counts as a write, as `&mut T` does).
    #[inline]
    pub fn into_inner(mut self) -> &'w mut T {
        self.set_changed();
        self.value
    }
}

impl<T> Deref for Mut<'_, T> {
    type Target = T;

    #[inline(always)]
    fn deref(&self) -> &T {
        self.value
    }
}

impl<T> DerefMut for Mut<'_, T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut T {
        self.set_changed();
        self.value
    }
}

impl<T> AsRef<T> for Mut<'_, T> {
    #[inline]
    fn as_ref(&self) -> &T {
        self.value
    }
}

impl<T: fmt::Debug> fmt::Debug for Mut<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Mut").field(&self.value).finish()
    }
}
