//! The run-time world's hooks: the group engine over its type-erased storages, in the
//! orders its layout gives, one entity at a time or step by step for many.

use core::marker::PhantomData;

use super::erased_owned::ErasedOwned;
use super::{GroupState, World};
use crate::component::Component;
use crate::entity::{Entities, Entity};
use crate::group::{self, Action, Hint, Step};
use crate::hooks::{ComponentPlan, EntityPlan, Moving};
use crate::storage::{ErasedStorage, Marks, Storage, survivors};

/// Runs one hook step for `m`, updating its tracked positions. The storage `changed`
/// (whose component the hook adds or removes) is left out of the filters: a group
/// requiring it sees it, a group excluding it does not.
fn run_step(
    storages: &mut [Box<dyn ErasedStorage>],
    groups: &mut [GroupState],
    step: &Step,
    changed: Option<usize>,
    m: &mut Moving,
) {
    let entity = m.entity;
    let GroupState {
        owned,
        observed,
        excluded,
        len,
        members,
        ..
    } = &mut groups[step.group];
    let hint = step
        .slot
        .map_or(Hint::anywhere(m.at), |slot| Hint::at(slot, m.position));
    let has =
        |storages: &[Box<dyn ErasedStorage>], s: usize| storages[s].entity_set().contains(entity);
    let passes = |storages: &[Box<dyn ErasedStorage>]| {
        observed
            .iter()
            .all(|&s| Some(s) == changed || has(storages, s))
            && !excluded
                .iter()
                .any(|&s| Some(s) != changed && has(storages, s))
    };
    match (step.action, members) {
        (Action::Enter, None) => {
            let filter = passes(storages);
            m.at = group::enter(ErasedOwned::new(storages, owned), len, entity, hint, || {
                filter
            });
            if step.slot.is_some() {
                m.position = m.at;
            }
        }
        (Action::Leave, None) => {
            m.at = group::leave(ErasedOwned::new(storages, owned), len, entity, hint);
            if step.slot.is_some() {
                m.position = m.at;
            }
        }
        (Action::Enter, Some(set)) => {
            group::enter_set(set, entity, || passes(storages));
            *len = set.len();
        }
        (Action::Leave, Some(set)) => {
            group::leave_set(set, entity);
            *len = set.len();
        }
    }
}

/// Runs `steps` for one entity, in order.
fn run_steps(
    storages: &mut [Box<dyn ErasedStorage>],
    groups: &mut [GroupState],
    steps: &[Step],
    changed: Option<usize>,
    m: &mut Moving,
) {
    for step in steps {
        run_step(storages, groups, step, changed, m);
    }
}

/// Runs `steps` for many entities: each step for all of them before the next.
fn run_steps_many(
    storages: &mut [Box<dyn ErasedStorage>],
    groups: &mut [GroupState],
    steps: &[Step],
    changed: Option<usize>,
    moving: &mut [Moving],
) {
    for step in steps {
        for m in moving.iter_mut() {
            run_step(storages, groups, step, changed, m);
        }
    }
}

/// The plan of one component type: the engine over the world's erased storages, in the
/// orders the layout gives.
pub(super) struct TypedPlan<'w, T> {
    pub(super) world: &'w mut World,
    pub(super) index: usize,
    pub(super) component: PhantomData<fn() -> T>,
}

/// Which of a type's step lists a hook runs.
#[derive(Clone, Copy)]
enum Hook {
    OnAdd,
    BeforeRemove,
    AfterRemove,
}

impl<T> TypedPlan<'_, T> {
    /// Runs one of the type's step lists for every entity of `moving`.
    fn run(&mut self, hook: Hook, moving: &mut [Moving]) {
        let World {
            storages,
            groups,
            plans,
            ..
        } = &mut *self.world;
        let plan = &plans[self.index];
        let steps = match hook {
            Hook::OnAdd => &plan.on_add,
            Hook::BeforeRemove => &plan.before_remove,
            Hook::AfterRemove => &plan.after_remove,
        };
        if let [m] = moving {
            run_steps(storages, groups, steps, Some(self.index), m);
        } else {
            run_steps_many(storages, groups, steps, Some(self.index), moving);
        }
    }
}

impl<T: Component> ComponentPlan for TypedPlan<'_, T> {
    type Component = T;

    fn entities(&self) -> &Entities {
        &self.world.entities
    }

    fn entities_mut(&mut self) -> &mut Entities {
        &mut self.world.entities
    }

    fn storage(&mut self) -> &mut Storage<T> {
        self.world.typed_mut(self.index)
    }

    fn after_add(&mut self, entity: Entity, position: usize) {
        self.run(Hook::OnAdd, &mut [Moving::at(entity, position)]);
    }

    fn before_remove(&mut self, entity: Entity, position: usize) -> usize {
        let mut m = [Moving::at(entity, position)];
        self.run(Hook::BeforeRemove, &mut m);
        m[0].position
    }

    fn after_remove(&mut self, entity: Entity) {
        self.run(Hook::AfterRemove, &mut [Moving::at(entity, 0)]);
    }

    fn after_add_many(&mut self, moving: &mut [Moving]) {
        self.run(Hook::OnAdd, moving);
    }

    fn before_remove_many(&mut self, moving: &mut [Moving]) {
        self.run(Hook::BeforeRemove, moving);
    }

    fn after_remove_many(&mut self, moving: &mut [Moving]) {
        self.run(Hook::AfterRemove, moving);
    }

    fn before_clear(&mut self) {
        let World { groups, plans, .. } = &mut *self.world;
        for step in &plans[self.index].before_remove {
            let group = &mut groups[step.group];
            group.len = 0;
            if let Some(members) = &mut group.members {
                members.clear();
            }
        }
    }
}

impl EntityPlan for &mut World {
    type Taken = Vec<Box<dyn core::any::Any + Send>>;
    type TakenMany = Vec<Box<dyn core::any::Any + Send>>;

    fn entities(&mut self) -> &mut Entities {
        &mut self.entities
    }

    fn leave_all(&mut self, entity: Entity) {
        let World {
            storages,
            groups,
            destroy,
            ..
        } = &mut **self;
        let mut m = Moving::at(entity, 0);
        for &group in destroy.iter() {
            let step = Step {
                group,
                action: Action::Leave,
                slot: None,
            };
            run_step(storages, groups, &step, None, &mut m);
        }
    }

    fn take_all(&mut self, entity: Entity) -> Self::Taken {
        self.storages
            .iter_mut()
            .filter_map(|s| s.take(entity))
            .collect()
    }

    fn take_marked(&mut self, marks: &Marks) -> Self::TakenMany {
        let World {
            storages, groups, ..
        } = &mut **self;
        for group in groups.iter_mut() {
            match &mut group.members {
                Some(members) => {
                    members.compact(marks);
                    group.len = members.len();
                }
                None => {
                    let first = storages[group.owned[0]].entity_set().as_slice();
                    group.len = survivors(&first[..group.len], marks);
                }
            }
        }
        storages.iter_mut().map(|s| s.compact(marks)).collect()
    }
}

/// Test-and-enters every group, outer groups first: a new entity's components were
/// appended without hooks.
pub(super) fn enter_all(world: &mut World, entity: Entity) {
    let World {
        storages,
        groups,
        spawn,
        ..
    } = world;
    let mut m = Moving::at(entity, usize::MAX);
    for &group in spawn.iter() {
        let step = Step {
            group,
            action: Action::Enter,
            slot: None,
        };
        run_step(storages, groups, &step, None, &mut m);
    }
}
