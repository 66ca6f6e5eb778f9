//! The run-time world's group steps: the group engine over its storages (each group's owned
//! ones typed by the moves its spec chose, the filters read type-erased), in the orders
//! its layout gives, one entity at a time or step by step for many. A type whose step list is
//! one step of a group owning it runs that step through the function made for the type's
//! slot in the group ([`OneStep`]), as a `#[world]`'s straight-line steps do.

use core::marker::PhantomData;

use super::{GroupState, TypePlan, World};
use crate::change::steps::{ComponentPlan, EntityPlan};
use crate::component::Component;
use crate::entity::{Entities, Entity};
use crate::group::{self, Action, Aligned, OwnedTypes, PerSlot, PositionHint, Step};
use crate::storage::{AnyStorage, Marks, SameChange, Storage};

/// An entity going through group steps, with the positions the steps track for it (as a
/// `#[world]`'s straight-line steps do): `position`, its changed component's position in its
/// storage, and `at`, where the previous step left it in its group's storages. Both are
/// hints, checked before they are trusted.
#[derive(Clone, Copy, Debug)]
pub(super) struct Moving {
    /// The entity.
    pub(super) entity: Entity,
    /// Its changed component's position (a hint).
    pub(super) position: usize,
    /// Its position after the previous step (a hint).
    pub(super) at: usize,
}

impl Moving {
    /// An entity whose changed component is at `position`, the previous step's position
    /// being the same guess.
    pub(super) fn at(entity: Entity, position: usize) -> Moving {
        Moving {
            entity,
            position,
            at: position,
        }
    }
}

/// Whether `entity` passes a group's filters: every observed storage holds it, no
/// excluded one does. The storage `changed` (whose component the change adds or removes) is
/// left out: a group requiring it sees it, a group excluding it does not.
fn passes(
    storages: &[AnyStorage],
    observed: &[usize],
    excluded: &[usize],
    changed: Option<usize>,
    entity: Entity,
) -> bool {
    let has = |s: usize| storages[s].entity_set().contains(entity);
    observed.iter().all(|&s| Some(s) == changed || has(s))
        && !excluded.iter().any(|&s| Some(s) != changed && has(s))
}

/// Whether a group's filters are all the changed storage: then [`passes`] admits every
/// entity, and a batch needs no test per entity (a snapshot's load of owning groups).
fn admits_all(observed: &[usize], excluded: &[usize], changed: Option<usize>) -> bool {
    let only_changed = |storages: &[usize]| storages.iter().all(|&s| Some(s) == changed);
    only_changed(observed) && only_changed(excluded)
}

/// [`passes`] for one entity entering an owning group. Most owning groups filter on
/// nothing but their owned types, which the move itself finds: no call of the test. A
/// filter on the changed type alone (what [`admits_all`] also skips) is left to `passes`,
/// which admits it: for one entity, walking the lists first would cost more than it
/// saves.
#[inline(always)]
fn admits(
    storages: &[AnyStorage],
    observed: &[usize],
    excluded: &[usize],
    changed: Option<usize>,
    entity: Entity,
) -> bool {
    (observed.is_empty() && excluded.is_empty())
        || passes(storages, observed, excluded, changed, entity)
}

/// Runs one step of an owning group whose owned types are `O` for `m`, updating its
/// tracked positions: the hint, the filter and the typed move in one function per group,
/// chosen when the group is declared (see [`OwnedMoves`](super::spec::OwnedMoves)).
pub(super) fn owning_step<O: OwnedTypes>(
    storages: &mut [AnyStorage],
    group: &mut GroupState,
    step: &Step,
    changed: Option<usize>,
    m: &mut Moving,
) {
    let GroupState {
        owned,
        observed,
        excluded,
        len,
        ..
    } = group;
    let hint = step.slot.map_or(PositionHint::anywhere(m.at), |slot| {
        PositionHint::at(slot, m.position)
    });
    m.at = match step.action {
        Action::Enter => {
            let admitted = admits(storages, observed, excluded, changed, m.entity);
            O::enter_erased(storages, owned, len, m.entity, hint, admitted)
        }
        Action::Leave => O::leave_erased(storages, owned, len, m.entity, hint),
    };
    if step.slot.is_some() {
        m.position = m.at;
    }
}

/// The steps of one owned type of one owning group, its slot a constant: a type whose
/// step list is one step of a group owning it runs that step with neither the step list nor
/// the hint's slot read at run time (as a `#[world]`'s straight-line steps).
#[derive(Clone, Copy)]
pub(super) struct SlotSteps {
    /// Test-and-enters the entity whose changed component is at the given position.
    pub(super) enter: SlotStep,
    /// Leaves; returns the changed component's position afterwards.
    pub(super) leave: SlotStep,
}

/// One step of one group for one entity: the storages, the group, the changed storage,
/// the entity and its changed component's position; returns that position afterwards.
pub(super) type SlotStep = fn(&mut [AnyStorage], &mut GroupState, usize, Entity, usize) -> usize;

impl PerSlot for SlotSteps {
    type Output = SlotSteps;

    fn make<O: OwnedTypes, const SLOT: usize>() -> SlotSteps {
        SlotSteps {
            enter: enter_at::<O, SLOT>,
            leave: leave_at::<O, SLOT>,
        }
    }
}

/// A step list that is one step of a group owning the changed type, through the step made for
/// the type's slot in the group.
#[derive(Clone, Copy)]
pub(super) struct OneStep {
    group: usize,
    step: SlotStep,
}

impl OneStep {
    /// Runs the step for `entity`, whose component in storage `changed` is at `position`;
    /// returns that position afterwards.
    #[inline(always)]
    fn run(
        self,
        storages: &mut [AnyStorage],
        groups: &mut [GroupState],
        changed: usize,
        entity: Entity,
        position: usize,
    ) -> usize {
        (self.step)(storages, &mut groups[self.group], changed, entity, position)
    }

    /// `steps` (a step list of the type whose storage is `changed`) as one step, if they are
    /// one step of a group owning the type.
    pub(super) fn of(groups: &[GroupState], changed: usize, steps: &[Step]) -> Option<OneStep> {
        let [only] = steps else { return None };
        let group = &groups[only.group];
        if group.members.is_some() {
            return None;
        }
        let slot = only.slot?;
        debug_assert_eq!(
            group.owned[slot], changed,
            "the slot of the changed storage"
        );
        let slots = (group.moves.at_slot)(slot)?;
        let step = match only.action {
            Action::Enter => slots.enter,
            Action::Leave => slots.leave,
        };
        Some(OneStep {
            group: only.group,
            step,
        })
    }

    /// The group the step moves through (test helper).
    #[cfg(test)]
    pub(super) fn group(self) -> usize {
        self.group
    }
}

/// [`owning_step`]'s entering for an entity whose changed component is owned type number
/// `SLOT`.
fn enter_at<O: OwnedTypes, const SLOT: usize>(
    storages: &mut [AnyStorage],
    group: &mut GroupState,
    changed: usize,
    entity: Entity,
    position: usize,
) -> usize {
    let GroupState {
        owned,
        observed,
        excluded,
        len,
        ..
    } = group;
    let admitted = admits(storages, observed, excluded, Some(changed), entity);
    O::enter_erased(
        storages,
        owned,
        len,
        entity,
        PositionHint::at(SLOT, position),
        admitted,
    )
}

/// [`owning_step`]'s leaving for an entity whose changed component is owned type number
/// `SLOT`.
fn leave_at<O: OwnedTypes, const SLOT: usize>(
    storages: &mut [AnyStorage],
    group: &mut GroupState,
    _: usize,
    entity: Entity,
    position: usize,
) -> usize {
    let GroupState { owned, len, .. } = group;
    O::leave_erased(
        storages,
        owned,
        len,
        entity,
        PositionHint::at(SLOT, position),
    )
}

/// Runs one group step for `m`, updating its tracked positions (see [`passes`] for the
/// changed storage).
#[inline(always)]
fn run_step(
    storages: &mut [AnyStorage],
    groups: &mut [GroupState],
    step: &Step,
    changed: Option<usize>,
    m: &mut Moving,
) {
    let group = &mut groups[step.group];
    let entity = m.entity;
    match (step.action, &mut group.members) {
        (_, None) => {
            let owning_step = group.moves.step;
            owning_step(storages, group, step, changed, m);
        }
        (Action::Enter, Some(set)) => {
            let (observed, excluded) = (&group.observed, &group.excluded);
            group::enter_set(set, entity, || {
                passes(storages, observed, excluded, changed, entity)
            });
            group.len = set.len();
        }
        (Action::Leave, Some(set)) => {
            group::leave_set(set, entity);
            group.len = set.len();
        }
    }
}

/// Runs `steps` for one entity, in order.
#[inline(always)]
fn run_steps(
    storages: &mut [AnyStorage],
    groups: &mut [GroupState],
    steps: &[Step],
    changed: Option<usize>,
    m: &mut Moving,
) {
    for step in steps {
        run_step(storages, groups, step, changed, m);
    }
}

/// Runs `steps` for many entities (marked in `marks`): each step for all of them before
/// the next; an owning group is left by every marked member at once, or one by one when
/// they are few, and entered in order.
fn run_steps_many(
    storages: &mut [AnyStorage],
    groups: &mut [GroupState],
    steps: &[Step],
    changed: Option<usize>,
    entities: &[Entity],
    marks: &Marks,
) {
    for step in steps {
        let owning = groups[step.group].members.is_none();
        match (step.action, owning) {
            (Action::Enter, true) => {
                let aligned = groups[step.group]
                    .aligned
                    .map_or(Aligned::NONE, |(outer, skip)| {
                        Aligned::within(groups[outer].len, skip)
                    });
                let GroupState {
                    owned,
                    observed,
                    excluded,
                    len,
                    moves,
                    ..
                } = &mut groups[step.group];
                // Test every filter first: the moves need the storages mutably (a
                // snapshot's load of owning groups: no test per entity).
                let admitted: Vec<bool> = if admits_all(observed, excluded, changed) {
                    vec![true; entities.len()]
                } else {
                    let passes = |&e: &Entity| passes(storages, observed, excluded, changed, e);
                    entities.iter().map(passes).collect()
                };
                (moves.enter_each)(storages, owned, len, entities, aligned, &admitted);
            }
            (Action::Leave, true) => {
                let GroupState {
                    owned, len, moves, ..
                } = &mut groups[step.group];
                (moves.leave_many)(storages, owned, len, entities, marks);
            }
            _ => {
                for &entity in entities {
                    run_step(storages, groups, step, changed, &mut Moving::at(entity, 0));
                }
            }
        }
    }
}

/// The plan of one component type: the engine over the world's storages, in the orders
/// the layout gives. Holds the world's parts apart, the type's plan found once.
pub(super) struct TypedPlan<'w, T> {
    entities: &'w mut Entities,
    storages: &'w mut [AnyStorage],
    groups: &'w mut [GroupState],
    plan: &'w TypePlan,
    index: usize,
    component: PhantomData<fn() -> T>,
}

/// The phase of a change: which of a type's step lists it runs.
#[derive(Clone, Copy)]
pub(super) enum Phase {
    OnAdd,
    BeforeRemove,
    AfterRemove,
}

impl<'w, T> TypedPlan<'w, T> {
    /// The plan of the type whose storage is `world.storages[index]`.
    ///
    /// # Panics
    /// Panics if `index` is not a storage of the world.
    #[inline]
    pub(super) fn new(world: &'w mut World, index: usize) -> Self {
        let World {
            entities,
            storages,
            groups,
            plans,
            ..
        } = world;
        TypedPlan {
            entities,
            storages,
            groups,
            plan: &plans[index],
            index,
            component: PhantomData,
        }
    }

    /// Runs one of the type's step lists for one entity.
    #[inline(always)]
    fn run(&mut self, phase: Phase, m: &mut Moving) {
        let steps = self.plan.steps(phase);
        // Most types have no step in some phase (no group excludes them, say): no call.
        if !steps.is_empty() {
            run_steps(self.storages, self.groups, steps, Some(self.index), m);
        }
    }

    /// Runs one of the type's step lists for many entities (marked in `marks`).
    fn run_many(&mut self, phase: Phase, entities: &[Entity], marks: &Marks) {
        let steps = self.plan.steps(phase);
        run_steps_many(
            self.storages,
            self.groups,
            steps,
            Some(self.index),
            entities,
            marks,
        );
    }
}

impl<T: Component> ComponentPlan for TypedPlan<'_, T> {
    type Component = T;

    fn entities(&self) -> &Entities {
        self.entities
    }

    fn entities_mut(&mut self) -> &mut Entities {
        self.entities
    }

    #[inline]
    fn storage(&mut self) -> &mut Storage<T> {
        self.storages[self.index]
            .storage_of_mut()
            .expect("storage index registered for this type")
    }

    #[inline]
    fn after_add(&mut self, entity: Entity, position: usize) {
        match self.plan.on_add_step {
            Some(one) => {
                one.run(self.storages, self.groups, self.index, entity, position);
            }
            None => self.run(Phase::OnAdd, &mut Moving::at(entity, position)),
        }
    }

    #[inline]
    fn before_remove(&mut self, entity: Entity, position: usize) -> usize {
        if let Some(one) = self.plan.before_remove_step {
            return one.run(self.storages, self.groups, self.index, entity, position);
        }
        let mut m = Moving::at(entity, position);
        self.run(Phase::BeforeRemove, &mut m);
        m.position
    }

    #[inline]
    fn after_remove(&mut self, entity: Entity) {
        self.run(Phase::AfterRemove, &mut Moving::at(entity, 0));
    }

    fn after_add_many(&mut self, entities: &[Entity], marks: &Marks) {
        self.run_many(Phase::OnAdd, entities, marks);
    }

    fn leaves_on_add(&self) -> bool {
        let steps = &self.plan.on_add;
        steps.iter().any(|step| step.action == Action::Leave)
    }

    fn before_remove_many(&mut self, entities: &[Entity], marks: &Marks) {
        self.run_many(Phase::BeforeRemove, entities, marks);
    }

    fn after_remove_many(&mut self, entities: &[Entity]) {
        self.run_many(Phase::AfterRemove, entities, &Marks::new());
    }

    fn before_clear(&mut self) {
        for step in &self.plan.before_remove {
            let group = &mut self.groups[step.group];
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
        let mut change = SameChange::new();
        self.storages
            .iter_mut()
            .filter_map(|s| s.take(entity, &mut change))
            .collect()
    }

    fn take_marked(&mut self, marks: &Marks, listed: &[Entity]) -> Self::TakenMany {
        let World {
            storages, groups, ..
        } = &mut **self;
        for group in groups.iter_mut() {
            if let Some(members) = &mut group.members {
                members.compact(marks);
                group.len = members.len();
            }
        }
        let mut taken = Vec::with_capacity(storages.len());
        let mut change = SameChange::new();
        for (index, storage) in storages.iter_mut().enumerate() {
            // The owning groups whose lengths this storage's compaction counts.
            let counted: Vec<usize> = (0..groups.len())
                .filter(|&g| groups[g].members.is_none() && groups[g].owned[0] == index)
                .collect();
            let mut lens: Vec<usize> = counted.iter().map(|&g| groups[g].len).collect();
            taken.push(storage.compact(marks, listed, &mut lens, &mut change));
            for (&g, len) in counted.iter().zip(lens) {
                groups[g].len = len;
            }
        }
        taken
    }
}

/// Test-and-enters every group, outer groups first: a new entity's components were
/// appended without group steps.
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

#[cfg(test)]
mod tests {
    use crate::component::Component;
    use crate::world::{GroupSpec, World};
    use core::any::TypeId;

    struct A;
    struct B;
    struct C;
    impl Component for A {}
    impl Component for B {}
    impl Component for C {}

    /// The groups of each type's one-step lists, `(on add, before removal)`.
    fn one_steps<T: Component>(world: &World) -> (Option<usize>, Option<usize>) {
        let plan = &world.plans[world.by_type[&TypeId::of::<T>()]];
        let group = |one: Option<super::OneStep>| one.map(super::OneStep::group);
        (group(plan.on_add_step), group(plan.before_remove_step))
    }

    #[test]
    fn one_step_of_a_group_owning_the_type_runs_through_the_step_made_for_its_slot() {
        // `<A, B>` ⊂ `<C, B, A>`: `C` enters and leaves the inner group (number 1) alone;
        // `A` and `B` enter and leave both groups, which takes the step list.
        let groups = [GroupSpec::of::<(A, B)>(), GroupSpec::of::<(C, B, A)>()];
        let world = World::with_groups(groups).expect("nested");
        assert_eq!(one_steps::<C>(&world), (Some(1), Some(1)));
        assert_eq!(one_steps::<A>(&world), (None, None));
        assert_eq!(one_steps::<B>(&world), (None, None));
    }

    #[test]
    fn a_step_of_a_non_owning_group_or_for_an_observed_type_walks_the_step_list() {
        use crate::group::Get;
        // `C` is observed by `<A, get(C)>`; `B` and `C` make up a non-owning group.
        let groups = [
            GroupSpec::of::<(A, Get<C>)>(),
            GroupSpec::of::<Get<(B, C)>>(),
        ];
        let world = World::with_groups(groups).expect("disjoint owners");
        assert_eq!(one_steps::<A>(&world), (Some(0), Some(0)));
        assert_eq!(one_steps::<B>(&world), (None, None));
        assert_eq!(one_steps::<C>(&world), (None, None));
    }
}
