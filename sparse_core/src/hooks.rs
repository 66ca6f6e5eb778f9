//! The sequence of every structural change and the assembly of the invariant check,
//! written once for both kinds of world.
//!
//! A world supplies its *plan*: which groups a component type's arrival or departure
//! makes an entity enter or leave, in the order its [`Layout`](crate::Layout) gives. A
//! `#[world]` emits each plan as straight-line calls of the group engine; the run-time
//! [`World`](crate::World) walks the same orders in vectors. What happens around the
//! plan (liveness, the storage change, the return value, the order of drops) is here.

use crate::entity::{Entities, Entity, EntityError};
use crate::group::{GroupInfo, check_group};
use crate::storage::{Storage, StorageInfo};

/// One world's plan for one component type.
pub trait ComponentPlan {
    /// The component type.
    type Component;
    /// The world's entities.
    fn entities(&self) -> &Entities;
    /// The storage of the component type.
    fn storage(&mut self) -> &mut Storage<Self::Component>;
    /// After a new component was appended at `position` for `entity`: leave the groups
    /// excluding it (innermost first), then test-and-enter the groups requiring it (outer
    /// groups first).
    fn after_add(&mut self, entity: Entity, position: usize);
    /// Before `entity`'s component at `position` is removed: leave the groups requiring
    /// it, innermost first. Returns the component's position afterwards.
    fn before_remove(&mut self, entity: Entity, position: usize) -> usize;
    /// After the component was removed: test-and-enter the groups excluding it, outer
    /// groups first.
    fn after_remove(&mut self, entity: Entity);
}

/// Stores `value` for `entity` and runs the plan; returns the replaced value, if any (a
/// replaced value changes no group).
///
/// # Errors
/// [`EntityError::Dead`] if `entity` is not alive; nothing is written.
///
/// # Panics
/// Panics if the storage already holds `u32::MAX` components.
#[inline(always)]
pub fn insert<P: ComponentPlan>(
    mut plan: P,
    entity: Entity,
    value: P::Component,
) -> Result<Option<P::Component>, EntityError> {
    if !plan.entities().is_alive(entity) {
        return Err(EntityError::Dead(entity));
    }
    let storage = plan.storage();
    if let Some(old) = storage.insert_alive(entity, value) {
        return Ok(Some(old));
    }
    let position = storage.len() - 1;
    plan.after_add(entity, position);
    Ok(None)
}

/// Runs the plan, then removes `entity`'s component. Absent components and dead
/// entities give `None` and change nothing.
#[inline(always)]
pub fn remove<P: ComponentPlan>(mut plan: P, entity: Entity) -> Option<P::Component> {
    let position = plan.storage().index_of(entity)?;
    let position = plan.before_remove(entity, position);
    let storage = plan.storage();
    // The tracked position is right whenever the groups are; verify it anyway so that
    // nothing but this entity's component can ever be removed.
    let position = if storage.entities().get(position) == Some(&entity) {
        position
    } else {
        storage.index_of(entity)?
    };
    let (_, value) = storage.remove_at(position);
    plan.after_remove(entity);
    Some(value)
}

/// One world's plan for destroying entities.
pub trait EntityPlan {
    /// Every component of an entity, taken out of its storage.
    type Taken;
    /// The world's entities.
    fn entities(&mut self) -> &mut Entities;
    /// Leave every group, innermost first.
    fn leave_all(&mut self, entity: Entity);
    /// Takes every component of `entity` out of its storage (without dropping them).
    fn take_all(&mut self, entity: Entity) -> Self::Taken;
}

/// Destroys `entity`: leaves every group innermost first, takes every component out, frees
/// the index, and only then drops the components, so that a panicking `Drop` finds the
/// world consistent (the entity already destroyed).
///
/// # Errors
/// [`EntityError::Dead`] if `entity` is not alive; nothing changes.
#[inline]
pub fn destroy<P: EntityPlan>(mut plan: P, entity: Entity) -> Result<(), EntityError> {
    if !plan.entities().is_alive(entity) {
        return Err(EntityError::Dead(entity));
    }
    plan.leave_all(entity);
    let taken = plan.take_all(entity);
    plan.entities().destroy(entity);
    drop(taken);
    Ok(())
}

/// Checks every invariant of a world: every storage consistent and holding only alive
/// entities, every group exactly the packed set of entities having its types, and each
/// group of `nesting`'s `(outer, inner)` pairs no shorter than the inner one.
///
/// # Errors
/// A description of the first broken invariant.
pub fn check_world(
    entities: &Entities,
    storages: &[(&str, &dyn StorageInfo)],
    groups: &[GroupInfo<'_>],
    nesting: &[(usize, usize)],
) -> Result<(), String> {
    for &(name, storage) in storages {
        storage
            .check_storage()
            .map_err(|e| format!("{name}: {e}"))?;
        if let Some(dead) = storage
            .entity_set()
            .iter()
            .find(|&&e| !entities.is_alive(e))
        {
            return Err(format!(
                "{name}: dead entity {dead:?} still has a component"
            ));
        }
    }
    for group in groups {
        check_group(group).map_err(|e| format!("group {}: {e}", group.name))?;
    }
    for &(outer, inner) in nesting {
        let (outer, inner) = (&groups[outer], &groups[inner]);
        if inner.len > outer.len {
            return Err(format!(
                "group {} is longer than its outer group {}",
                inner.name, outer.name
            ));
        }
    }
    Ok(())
}
