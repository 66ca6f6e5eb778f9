//! The sequence of every structural change and the assembly of the invariant check,
//! written once for both kinds of world.
//!
//! A world supplies its *plan*: which groups a component type's arrival or departure
//! makes an entity enter or leave, in the order its [`Layout`](crate::Layout) gives. A
//! `#[world]` emits each plan as straight-line calls of the group engine; the run-time
//! [`World`](crate::World) walks the same orders in vectors. What happens around the
//! plan (liveness, the storage change, the return value, the order of drops) is here.

use crate::change::InsertManyError;
use crate::entity::{Entities, Entity, EntityError};
use crate::group::{GroupInfo, check_group};
use crate::storage::{Marks, Storage, StorageInfo};

/// One world's plan for one component type.
pub trait ComponentPlan {
    /// The component type.
    type Component;
    /// The world's entities.
    fn entities(&self) -> &Entities;
    /// The world's entities, mutably (to flush reserved ones).
    fn entities_mut(&mut self) -> &mut Entities;
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
    /// [`after_add`](ComponentPlan::after_add) for many entities (`marks` marks them if
    /// [`leaves_on_add`](ComponentPlan::leaves_on_add)): each step for all of them before
    /// the next step, so each entity still sees the steps in order. A group is left by
    /// every marked member at once, or one by one when they are few
    /// ([`leave_many`](crate::group::leave_many)), and entered in order
    /// ([`enter_each`](crate::group::enter_each)).
    fn after_add_many(&mut self, entities: &[Entity], marks: &Marks);
    /// Whether adding the component leaves a group (one excluding it): only then do the
    /// bulk steps need the entities marked.
    fn leaves_on_add(&self) -> bool;
    /// [`before_remove`](ComponentPlan::before_remove) for many entities (`marks` marks
    /// them), step by step; entities without the component are left alone.
    fn before_remove_many(&mut self, entities: &[Entity], marks: &Marks);
    /// [`after_remove`](ComponentPlan::after_remove) for many entities, step by step.
    fn after_remove_many(&mut self, entities: &[Entity]);
    /// Before every component is removed: empties the groups requiring the type.
    fn before_clear(&mut self);
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
    if !plan.entities().is_alive(entity) && !plan.entities_mut().flush_is_alive(entity) {
        return Err(EntityError::Dead(entity));
    }
    Ok(insert_alive(plan, entity, value))
}

/// [`insert`] for an entity its caller found alive (the run-time `World` checks before it
/// registers a storage).
///
/// # Panics
/// As for [`insert`]; in debug builds, also if `entity` is not alive.
#[inline(always)]
pub(crate) fn insert_alive<P: ComponentPlan>(
    mut plan: P,
    entity: Entity,
    value: P::Component,
) -> Option<P::Component> {
    debug_assert!(
        plan.entities().is_alive(entity),
        "inserting for a dead entity"
    );
    let storage = plan.storage();
    if let Some(old) = storage.insert_alive(entity, value) {
        return Some(old);
    }
    let position = storage.len() - 1;
    plan.after_add(entity, position);
    None
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

/// How many entities a bulk insertion appends before running the group steps for them:
/// small enough for its scratch to stay in cache, large enough to amortize each step.
const CHUNK: usize = 4096;

/// What a bulk insertion gives back: how many entities gained the component, and the
/// values its items replaced, in the items' order.
pub type Inserted<T> = (usize, Vec<T>);

/// Inserts every item (see [`Edit::insert_many`](crate::Edit::insert_many)): appends the
/// new components a chunk at a time, then runs each step of the plan for the whole chunk.
/// Returns how many entities gained the component and the values the items replaced, in
/// the items' order (for `on_replace` hooks; otherwise dropped once the world is
/// consistent).
///
/// # Errors
/// [`InsertManyError`] if an entity is not alive; nothing is written.
pub fn insert_many<P: ComponentPlan>(
    mut plan: P,
    items: Vec<(Entity, P::Component)>,
) -> Result<Inserted<P::Component>, InsertManyError<P::Component>> {
    let entities = plan.entities_mut();
    entities.flush();
    if let Some(&(dead, _)) = items.iter().find(|(e, _)| !entities.is_alive(*e)) {
        return Err(InsertManyError { dead, items });
    }
    let mut marks = if plan.leaves_on_add() {
        Marks::with_indices(plan.entities().index_bound())
    } else {
        Marks::new()
    };
    plan.storage().reserve(items.len());
    let mut replaced = Vec::new();
    let mut added = Vec::with_capacity(items.len().min(CHUNK));
    let mut count = 0;
    let mut items = items.into_iter();
    while items.len() > 0 {
        added.clear();
        let storage = plan.storage();
        for (entity, value) in items.by_ref().take(CHUNK) {
            match storage.insert_alive(entity, value) {
                Some(old) => replaced.push(old),
                None => added.push(entity),
            }
        }
        if plan.leaves_on_add() {
            for &entity in &added {
                marks.mark(entity);
            }
        }
        plan.after_add_many(&added, &marks);
        if plan.leaves_on_add() {
            for &entity in &added {
                marks.unmark(entity);
            }
        }
        count += added.len();
    }
    Ok((count, replaced))
}

/// Appends `values` for `entities`, which are alive, distinct and have no component of the
/// type yet (a snapshot's checked columns, loaded into a fresh world), in one copy, then
/// runs the plan for all of them at once: groups are entered step by step, each step for
/// every entity, finding runs already in place where the columns are in group order.
///
/// # Panics
/// Panics if the slices differ in length.
pub fn append_many<P: ComponentPlan>(
    mut plan: P,
    entities: &[Entity],
    mut values: Vec<P::Component>,
) {
    debug_assert!(entities.iter().all(|&e| plan.entities().is_alive(e)));
    plan.storage().append_new(entities, &mut values);
    let mut marks = Marks::new();
    if plan.leaves_on_add() {
        marks = Marks::with_indices(plan.entities().index_bound());
        for &entity in entities {
            marks.mark(entity);
        }
    }
    plan.after_add_many(entities, &marks);
}

/// Removes the components of `entities` (see [`Edit::remove_many`](crate::Edit::remove_many)):
/// each leave step for all of them, then the removals, then each enter step; the values
/// are dropped last.
pub fn remove_many<P: ComponentPlan>(mut plan: P, entities: &[Entity]) -> usize {
    let bound = plan.entities().index_bound();
    let storage = plan.storage();
    let before = storage.len();
    if before == 0 || entities.is_empty() {
        return 0;
    }
    // Marks are by index: only the entities holding the component (with their current
    // version) are marked, each once, so a stale handle never marks a live entity.
    // The sequences below take every handle as given: per entity they look it up, and at
    // once they go by the marks.
    let mut marks = Marks::with_indices(bound);
    let mut listed = Vec::new();
    for &entity in entities {
        if storage.contains(entity) && marks.mark(entity) {
            listed.push(entity);
        }
    }
    plan.before_remove_many(entities, &marks);
    let storage = plan.storage();
    // Many removals: one stable pass over the storage; few: one swap-remove each.
    let removed = if marks.len().saturating_mul(4) >= storage.len() {
        storage.compact(&marks, &listed, &mut [])
    } else {
        entities
            .iter()
            .filter_map(|&e| Some(storage.remove_at(storage.index_of(e)?).1))
            .collect()
    };
    let count = before - plan.storage().len();
    debug_assert_eq!(count, marks.len(), "every marked entity is removed once");
    plan.after_remove_many(entities);
    drop(removed);
    count
}

/// Removes every component of the plan's type (see [`Edit::clear`](crate::Edit::clear)):
/// the groups requiring it are emptied, the storage cleared, then the groups excluding it
/// entered; the values are dropped last.
pub fn clear<P: ComponentPlan>(mut plan: P) {
    let entities = plan.storage().entities().to_vec();
    plan.before_clear();
    let values = plan.storage().take_all();
    plan.after_remove_many(&entities);
    drop(values);
}

/// One world's plan for destroying entities.
pub trait EntityPlan {
    /// Every component of an entity, taken out of its storage.
    type Taken;
    /// The components of many entities, taken out of their storages.
    type TakenMany;
    /// Removes the marked entities' components from every storage, keeping the others in
    /// order, and gives every group its new length (or compacts its member set). `listed`
    /// names the marked entities, each once, in the order tracked storages record their
    /// removal.
    fn take_marked(&mut self, marks: &Marks, listed: &[Entity]) -> Self::TakenMany;
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
    if !plan.entities().flush_is_alive(entity) {
        return Err(EntityError::Dead(entity));
    }
    plan.leave_all(entity);
    let taken = plan.take_all(entity);
    plan.entities().destroy(entity);
    drop(taken);
    Ok(())
}

/// Destroys every alive entity of `entities` (see
/// [`EditEntities::destroy_many`](crate::EditEntities::destroy_many)): compacts every
/// storage and group once, frees the indices, and only then drops the components.
pub fn destroy_many<P: EntityPlan>(mut plan: P, entities: &[Entity]) -> usize {
    let mut marks = Marks::new();
    let allocator = plan.entities();
    allocator.flush();
    let doomed: Vec<Entity> = entities
        .iter()
        .copied()
        .filter(|&e| allocator.is_alive(e) && marks.mark(e))
        .collect();
    if doomed.is_empty() {
        return 0;
    }
    let taken = plan.take_marked(&marks, &doomed);
    let allocator = plan.entities();
    for &entity in &doomed {
        allocator.destroy(entity);
    }
    drop(taken);
    doomed.len()
}

/// A world as its check and its diagram read it: the allocator, every storage by name, every
/// group, and the `(outer, inner)` pairs of nested groups (indices into `groups`).
#[derive(Clone, Copy)]
pub struct WorldInfo<'a> {
    /// The entity allocator.
    pub entities: &'a Entities,
    /// Every storage, with the name it is shown by.
    pub storages: &'a [(&'a str, &'a dyn StorageInfo)],
    /// Every group.
    pub groups: &'a [GroupInfo<'a>],
    /// The `(outer, inner)` pairs of nested groups.
    pub nesting: &'a [(usize, usize)],
}

/// Checks every invariant of a world: every storage consistent and holding only alive
/// entities, every group exactly the packed set of entities having its types, and each
/// group of `nesting`'s `(outer, inner)` pairs no shorter than the inner one.
///
/// # Errors
/// A description of the first broken invariant.
pub fn check_world(world: &WorldInfo<'_>) -> Result<(), String> {
    let WorldInfo {
        entities,
        storages,
        groups,
        nesting,
    } = *world;
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
