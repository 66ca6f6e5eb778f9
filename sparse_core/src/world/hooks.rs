//! The run-time world's user hooks: registered per type and event, found by `TypeId` on
//! each structural change (one length test when the world has none).

use core::any::{Any, TypeId, type_name};
use std::sync::Arc;

use super::World;
use crate::change::hooks::{ErasedHooks, Hook, HookError, HookEvent, ReplaceHook, TypeHooks, has};
use crate::component::Component;
use crate::entity::Entity;

/// Every hooked type's hooks, in the order the types got their first hook.
#[derive(Default)]
pub(super) struct WorldHooks {
    ids: Vec<TypeId>,
    /// Each type's hooks, typed: a `TypeHooks<World, T>` per entry of `ids`, `T` the
    /// type of that id.
    typed: Vec<Box<dyn Any + Send + Sync>>,
    /// The same without their replace hooks, shared, so that a change can hold them while
    /// the hooks borrow the world.
    erased: Arc<[ErasedHooks<World>]>,
    /// Whether some type has an insert hook (spawning must look) or a remove hook
    /// (destroying must look).
    any_insert: bool,
    any_remove: bool,
}

impl WorldHooks {
    /// The hooks of `T`, if it has any.
    #[inline]
    pub(super) fn of<T: 'static>(&self) -> Option<TypeHooks<World, T>> {
        if self.ids.is_empty() {
            return None;
        }
        let i = self.ids.iter().position(|&id| id == TypeId::of::<T>())?;
        self.typed[i].downcast_ref().copied()
    }

    /// Every hooked type's hooks, if one of them has an insert hook.
    #[inline]
    pub(super) fn inserting(&self) -> Option<Arc<[ErasedHooks<World>]>> {
        self.any_insert.then(|| Arc::clone(&self.erased))
    }

    /// Every hooked type's hooks, if one of them has a remove hook.
    #[inline]
    pub(super) fn removing(&self) -> Option<Arc<[ErasedHooks<World>]>> {
        self.any_remove.then(|| Arc::clone(&self.erased))
    }
}

fn holders<T: Component>(world: &World) -> Vec<Entity> {
    world
        .typed::<T>()
        .map_or_else(Vec::new, |storage| storage.entities().to_vec())
}

impl World {
    /// Calls `hook` after a `T` is added to an entity that had none (by `insert`, a
    /// bundle, `insert_many`, `spawn_with`, `spawn_batch` or commands): the entity is then
    /// in every group it now qualifies for. See [`Hook`] for what a hook may do and where
    /// it runs; register hooks when the world is made, before its first entity.
    ///
    /// # Errors
    /// [`HookError::AlreadySet`] if `T` has an insert hook; the first is kept.
    pub fn on_insert<T: Component>(&mut self, hook: Hook<World>) -> Result<(), HookError> {
        self.set_hook::<T, _>(HookEvent::Insert, |hooks| &mut hooks.on_insert, hook)
    }

    /// Calls `hook` after a `T` replaced another, with the value replaced (see
    /// [`on_insert`](World::on_insert) and [`ReplaceHook`]).
    ///
    /// # Errors
    /// [`HookError::AlreadySet`] if `T` has a replace hook; the first is kept.
    pub fn on_replace<T: Component>(
        &mut self,
        hook: ReplaceHook<World, T>,
    ) -> Result<(), HookError> {
        self.set_hook::<T, _>(HookEvent::Replace, |hooks| &mut hooks.on_replace, hook)
    }

    /// Calls `hook` before an entity loses its `T` (by `remove`, `remove_many`, `clear`,
    /// `destroy`, `destroy_many`, `retain` or commands): the entity has then left no group
    /// and its `T` is readable.
    ///
    /// # Errors
    /// [`HookError::AlreadySet`] if `T` has a remove hook; the first is kept.
    pub fn on_remove<T: Component>(&mut self, hook: Hook<World>) -> Result<(), HookError> {
        self.set_hook::<T, _>(HookEvent::Remove, |hooks| &mut hooks.on_remove, hook)
    }

    /// Sets `T`'s hook for `event`, the field `slot` picks, unless it has one.
    fn set_hook<T: Component, H>(
        &mut self,
        event: HookEvent,
        slot: impl FnOnce(&mut TypeHooks<World, T>) -> &mut Option<H>,
        hook: H,
    ) -> Result<(), HookError> {
        self.register_type::<T>();
        let table = &mut self.hooks;
        let i = match table.ids.iter().position(|&id| id == TypeId::of::<T>()) {
            Some(i) => i,
            None => {
                table.ids.push(TypeId::of::<T>());
                table.typed.push(Box::new(TypeHooks::<World, T>::none(
                    has::<World, T>,
                    holders::<T>,
                )));
                table.ids.len() - 1
            }
        };
        let hooks: &mut TypeHooks<World, T> = table.typed[i]
            .downcast_mut()
            .expect("each entry holds the hooks of its type");
        let taken = slot(hooks);
        if taken.is_some() {
            return Err(HookError::AlreadySet {
                event,
                component: type_name::<T>(),
            });
        }
        *taken = Some(hook);
        let erased = hooks.erased();
        let mut all = table.erased.to_vec();
        match all.get_mut(i) {
            Some(entry) => *entry = erased,
            None => all.push(erased),
        }
        table.any_insert |= erased.on_insert.is_some();
        table.any_remove |= erased.on_remove.is_some();
        table.erased = all.into();
        Ok(())
    }
}
