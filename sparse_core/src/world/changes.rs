//! Change detection on the run-time world: which storages are tracked, the world's tick,
//! and what views and callers read of it (`Added<T>`, `Changed<T>`, `removed`).

use super::World;
use crate::component::Component;
use crate::entity::Entity;
use crate::lend::TrackChanges;
use crate::storage::ChangeCount;

/// Every type may be tracked: the view checks that it is ([`AccessError::NotTracked`]).
///
/// [`AccessError::NotTracked`]: crate::AccessError::NotTracked
#[diagnostic::do_not_recommend]
impl<T: Component> TrackChanges<T> for World {}

impl World {
    /// Turns change detection on for `T` (a no-op if it is on): from now on its storage
    /// stamps each component when it is added, replaced or handed out mutably (`get_mut`,
    /// a view's or a group's `&mut T`), and records the entities that lose theirs, so that
    /// views can filter with [`Added<T>`](crate::Added) and [`Changed<T>`](crate::Changed)
    /// and [`removed`](World::removed) lists them, until the next [`tick`](World::tick).
    /// The `T`s already stored count as added now. An untracked type pays one test per
    /// structural change.
    ///
    /// ```
    /// use sparse_core::{Changed, Component, World};
    /// # #[derive(Debug, PartialEq)] struct Health(u32);
    /// # impl Component for Health {}
    /// let mut world = World::new();
    /// world.track::<Health>();
    /// let [a, b] = [world.spawn_with((Health(10),)), world.spawn_with((Health(10),))];
    /// world.tick();
    /// world.get_mut::<Health>(b).unwrap().0 -= 3;
    /// let changed: Vec<_> = world.view::<(&Health, Changed<Health>)>()?.into_iter().collect();
    /// assert_eq!(changed, vec![(b, &Health(7))]);
    /// # let _ = a;
    /// # Ok::<(), sparse_core::AccessError>(())
    /// ```
    pub fn track<T: Component>(&mut self) {
        let index = self.index_or_register::<T>();
        let clock = self.clock;
        self.storages[index].track_at(clock);
    }

    #[doc = crate::__method_doc!(tick)]
    pub fn tick(&mut self) {
        self.clock.tick();
        for storage in &mut self.storages {
            storage.tick();
        }
    }

    /// Moves the change count on within the tick in every tracked storage (a schedule's
    /// stage); the new count.
    pub(crate) fn step_changes(&mut self) -> ChangeCount {
        for storage in &mut self.storages {
            storage.step();
        }
        self.clock.step()
    }

    /// Moves the change count forward to `now` if it is behind, in every tracked storage
    /// (tests of the count's restart).
    pub(crate) fn jump_change_count(&mut self, now: u32) {
        for storage in &mut self.storages {
            storage.jump_change_count(now);
        }
        self.clock.jump_to(now);
    }

    #[doc = crate::__method_doc!(removed)]
    ///
    /// Empty if `T` is not tracked (see [`track`](World::track)).
    pub fn removed<T: Component>(&self) -> &[Entity] {
        self.typed::<T>().map_or(&[], |storage| storage.removed())
    }
}
