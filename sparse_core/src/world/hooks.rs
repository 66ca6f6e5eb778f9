//! The run-time world's user hooks: registered per type and event, found by `TypeId` on
//! each structural change (one length test when the world has none).

use core::any::{TypeId, type_name};
use std::sync::Arc;

use super::World;
use crate::change::hooks::{Hook, HookError, HookEvent, TypeHooks, has};
use crate::component::Component;
use crate::entity::Entity;

/// Every hooked type's hooks, in the order the types got their first hook.
#[derive(Default)]
pub(super) struct WorldHooks {
    ids: Vec<TypeId>,
    /// Shared, so that a change can hold them while the hooks borrow the world.
    hooks: Arc<[TypeHooks<World>]>,
    /// Whether some type has an insert hook (spawning must look) or a remove hook
    /// (destroying must look).
    any_insert: bool,
    any_remove: bool,
}

impl WorldHooks {
    /// The hooks of `T`, if it has any.
    #[inline]
    pub(super) fn of<T: 'static>(&self) -> Option<TypeHooks<World>> {
        if self.ids.is_empty() {
            return None;
        }
        let i = self.ids.iter().position(|&id| id == TypeId::of::<T>())?;
        Some(self.hooks[i])
    }

    /// Every hooked type's hooks, if one of them has an insert hook.
    #[inline]
    pub(super) fn inserting(&self) -> Option<Arc<[TypeHooks<World>]>> {
        self.any_insert.then(|| Arc::clone(&self.hooks))
    }

    /// Every hooked type's hooks, if one of them has a remove hook.
    #[inline]
    pub(super) fn removing(&self) -> Option<Arc<[TypeHooks<World>]>> {
        self.any_remove.then(|| Arc::clone(&self.hooks))
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
        self.set_hook::<T>(HookEvent::Insert, hook)
    }

    /// Calls `hook` after a `T` replaced another (see [`on_insert`](World::on_insert)).
    ///
    /// # Errors
    /// [`HookError::AlreadySet`] if `T` has a replace hook; the first is kept.
    pub fn on_replace<T: Component>(&mut self, hook: Hook<World>) -> Result<(), HookError> {
        self.set_hook::<T>(HookEvent::Replace, hook)
    }

    /// Calls `hook` before an entity loses its `T` (by `remove`, `remove_many`, `clear`,
    /// `destroy`, `destroy_many`, `retain` or commands): the entity has then left no group
    /// and its `T` is readable.
    ///
    /// # Errors
    /// [`HookError::AlreadySet`] if `T` has a remove hook; the first is kept.
    pub fn on_remove<T: Component>(&mut self, hook: Hook<World>) -> Result<(), HookError> {
        self.set_hook::<T>(HookEvent::Remove, hook)
    }

    fn set_hook<T: Component>(
        &mut self,
        event: HookEvent,
        hook: Hook<World>,
    ) -> Result<(), HookError> {
        self.register_type::<T>();
        let table = &mut self.hooks;
        let mut hooks = table.hooks.to_vec();
        let i = match table.ids.iter().position(|&id| id == TypeId::of::<T>()) {
            Some(i) => i,
            None => {
                table.ids.push(TypeId::of::<T>());
                hooks.push(TypeHooks::none(has::<World, T>, holders::<T>));
                hooks.len() - 1
            }
        };
        let result = hooks[i].set(event, hook, type_name::<T>());
        table.any_insert |= hooks[i].hook(HookEvent::Insert).is_some();
        table.any_remove |= hooks[i].hook(HookEvent::Remove).is_some();
        table.hooks = hooks.into();
        result
    }
}
