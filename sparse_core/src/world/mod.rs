//! A world built at run time: storages looked up by `TypeId`, groups from a layout
//! validated when the world is made, maintained by the same engine and plan as a
//! `#[world]`.

mod erased_owned;
mod error;
mod spec;

use core::any::TypeId;
use core::cmp::Ordering;
use core::marker::PhantomData;
use std::collections::HashMap;

use crate::component::{Component, ComponentKey};
use crate::component_set::sealed::Sealed as _;
use crate::component_set::{ComponentSet, borrow_all};
use crate::entity::{Entities, Entity, EntityError};
use crate::group::{
    self, Action, DisplayGroup, GroupDecl, GroupInfo, GroupKey, GroupMut, Hint, Layout, Step,
};
use crate::hooks::{self, ComponentPlan, EntityPlan};
use crate::storage::{ErasedStorage, SparseSet, Storage, StorageInfo};
use crate::view::View;
use erased_owned::ErasedOwned;
pub use error::{AccessError, LayoutErrors};
pub use spec::GroupSpec;

/// One group of the world.
struct GroupState {
    /// Indices of the owned, observed and excluded storages, in declaration order.
    owned: Vec<usize>,
    observed: Vec<usize>,
    excluded: Vec<usize>,
    /// The number of members.
    len: usize,
    /// The members of a non-owning group.
    members: Option<SparseSet>,
    /// The declaration's types, each list sorted: how a key finds the group.
    ids: [Vec<TypeId>; 3],
    /// `<A, B, get(C)>`, for messages.
    name: String,
}

/// What adding and removing one component type does to the groups.
#[derive(Default)]
struct TypePlan {
    on_add: Vec<Step>,
    before_remove: Vec<Step>,
    after_remove: Vec<Step>,
}

/// A world whose storages are created on demand and whose groups are given at run time.
///
/// Invariant: after every public call, every storage is consistent, every group holds
/// exactly the entities passing its filter (as the packed prefix of its owned storages, or
/// in its member set), and only alive entities have components. Structural changes to
/// storages happen only here, through the hooks; callers get read access and value
/// mutation. Where a `#[world]` has compile errors (a group it does not have, sorting an
/// owned storage), this world returns [`AccessError`]s.
///
/// ```
/// use sparse_core::{Component, Exclude, Get, GroupSpec, World};
/// struct Pos(f32);
/// struct Vel(f32);
/// struct Frozen;
/// impl Component for Pos {}
/// impl Component for Vel {}
/// impl Component for Frozen {}
///
/// type Movers = (Vel, Get<Pos>, Exclude<Frozen>);
/// // Nested in `Movers`: it owns what `Movers` observes.
/// type Packed = (Vel, Pos, Exclude<Frozen>);
/// let mut world = World::with_groups([GroupSpec::of::<Packed>(), GroupSpec::of::<Movers>()])?;
/// let e = world.spawn();
/// world.insert(e, Pos(0.0))?;
/// world.insert(e, Vel(2.0))?;
/// world.group::<Movers>()?.for_each(|_, (v, p)| p.0 += v.0);
/// assert_eq!(world.get::<Pos>(e).unwrap().0, 2.0);
/// let (_, (vel, pos)) = world.group::<Packed>()?.into_slices();
/// assert_eq!((vel[0].0, pos[0].0), (2.0, 2.0));
/// world.insert(e, Frozen)?; // leaves both groups, the inner one first
/// assert_eq!((world.group_len::<Movers>()?, world.group_len::<Packed>()?), (0, 0));
/// world.check()?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct World {
    entities: Entities,
    storages: Vec<Box<dyn ErasedStorage>>,
    by_type: HashMap<TypeId, usize>,
    groups: Vec<GroupState>,
    layout: Option<Layout<ComponentKey>>,
    /// Per storage.
    plans: Vec<TypePlan>,
    /// Every group, innermost first.
    destroy: Vec<usize>,
    /// `(outer, inner)` pairs of nested groups.
    nesting: Vec<(usize, usize)>,
}

/// Runs hook steps on the world's groups; returns the tracked position of the component
/// that changed. The storage `changed` (whose component the hook adds or removes) is left
/// out of the filters: a group requiring it sees it, a group excluding it does not.
fn run_steps(
    storages: &mut [Box<dyn ErasedStorage>],
    groups: &mut [GroupState],
    steps: &[Step],
    changed: Option<usize>,
    entity: Entity,
    mut position: usize,
) -> usize {
    // Where the previous step left the entity in its group's storages: a guess for the
    // next group, checked before it is trusted.
    let mut at = position;
    for step in steps {
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
            .map_or(Hint::anywhere(at), |slot| Hint::at(slot, position));
        let has = |storages: &[Box<dyn ErasedStorage>], s: usize| {
            storages[s].entity_set().contains(entity)
        };
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
                at = group::enter(ErasedOwned::new(storages, owned), len, entity, hint, || {
                    filter
                });
                if step.slot.is_some() {
                    position = at;
                }
            }
            (Action::Leave, None) => {
                at = group::leave(ErasedOwned::new(storages, owned), len, entity, hint);
                if step.slot.is_some() {
                    position = at;
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
    position
}

/// The plan of one component type: the engine over the world's erased storages, in the
/// orders the layout gives.
struct TypedPlan<'w, T> {
    world: &'w mut World,
    index: usize,
    component: PhantomData<fn() -> T>,
}

impl<T: Component> ComponentPlan for TypedPlan<'_, T> {
    type Component = T;

    fn entities(&self) -> &Entities {
        &self.world.entities
    }

    fn storage(&mut self) -> &mut Storage<T> {
        self.world.typed_mut(self.index)
    }

    fn after_add(&mut self, entity: Entity, position: usize) {
        let World {
            storages,
            groups,
            plans,
            ..
        } = &mut *self.world;
        let steps = &plans[self.index].on_add;
        run_steps(storages, groups, steps, Some(self.index), entity, position);
    }

    fn before_remove(&mut self, entity: Entity, position: usize) -> usize {
        let World {
            storages,
            groups,
            plans,
            ..
        } = &mut *self.world;
        let steps = &plans[self.index].before_remove;
        run_steps(storages, groups, steps, Some(self.index), entity, position)
    }

    fn after_remove(&mut self, entity: Entity) {
        let World {
            storages,
            groups,
            plans,
            ..
        } = &mut *self.world;
        let steps = &plans[self.index].after_remove;
        run_steps(storages, groups, steps, Some(self.index), entity, 0);
    }
}

impl EntityPlan for &mut World {
    type Taken = Vec<Box<dyn core::any::Any + Send>>;

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
        let steps: Vec<Step> = destroy
            .iter()
            .map(|&group| Step {
                group,
                action: Action::Leave,
                slot: None,
            })
            .collect();
        run_steps(storages, groups, &steps, None, entity, 0);
    }

    fn take_all(&mut self, entity: Entity) -> Self::Taken {
        self.storages
            .iter_mut()
            .filter_map(|s| s.take(entity))
            .collect()
    }
}

/// A declaration's types, each list sorted: equal for every spelling of one group's key.
fn sorted_ids(decl: &GroupDecl<ComponentKey>) -> [Vec<TypeId>; 3] {
    [&decl.owned, &decl.observed, &decl.excluded].map(|keys| {
        let mut ids: Vec<TypeId> = keys.iter().map(ComponentKey::type_id).collect();
        ids.sort_unstable();
        ids
    })
}

impl World {
    /// A world with no group.
    pub fn new() -> Self {
        Self::default()
    }

    /// A world with the given groups, validated by [`Layout`]: every error is returned,
    /// nothing panics.
    ///
    /// # Errors
    /// Every [`LayoutError`](crate::LayoutError) of the declarations, in [`LayoutErrors`].
    pub fn with_groups(groups: impl IntoIterator<Item = GroupSpec>) -> Result<World, LayoutErrors> {
        let specs: Vec<GroupSpec> = groups.into_iter().collect();
        let layout =
            Layout::new(specs.iter().map(|s| s.decl.clone()).collect()).map_err(LayoutErrors)?;
        let mut world = World::new();
        for spec in &specs {
            let decl = &spec.decl;
            let keys = decl
                .owned
                .iter()
                .chain(&decl.observed)
                .chain(&decl.excluded);
            let mut indices: Vec<usize> = (spec.new_storages)()
                .into_iter()
                .zip(keys)
                .map(|(storage, key)| world.register(key.type_id(), storage))
                .collect();
            let excluded = indices.split_off(decl.owned.len() + decl.observed.len());
            let observed = indices.split_off(decl.owned.len());
            world.groups.push(GroupState {
                owned: indices,
                observed,
                excluded,
                len: 0,
                members: decl.is_non_owning().then(SparseSet::new),
                ids: sorted_ids(decl),
                name: DisplayGroup(decl).to_string(),
            });
        }
        let keys: Vec<&ComponentKey> = specs
            .iter()
            .flat_map(|s| {
                s.decl
                    .owned
                    .iter()
                    .chain(&s.decl.observed)
                    .chain(&s.decl.excluded)
            })
            .collect();
        for key in keys {
            let index = world.by_type[&key.type_id()];
            world.plans[index] = TypePlan {
                on_add: layout.on_add(key),
                before_remove: layout.before_remove(key),
                after_remove: layout.after_remove(key),
            };
        }
        world.destroy = layout.destroy_order();
        world.nesting = layout.nesting();
        world.layout = Some(layout);
        Ok(world)
    }

    fn register(&mut self, id: TypeId, storage: Box<dyn ErasedStorage>) -> usize {
        *self.by_type.entry(id).or_insert_with(|| {
            self.storages.push(storage);
            self.plans.push(TypePlan::default());
            self.storages.len() - 1
        })
    }

    fn index_or_register<T: Component>(&mut self) -> usize {
        match self.by_type.get(&TypeId::of::<T>()) {
            Some(&index) => index,
            None => self.register(TypeId::of::<T>(), Box::new(Storage::<T>::new())),
        }
    }

    fn typed<T: Component>(&self) -> Option<&Storage<T>> {
        let index = *self.by_type.get(&TypeId::of::<T>())?;
        self.storages[index].as_any().downcast_ref()
    }

    fn typed_mut<T: Component>(&mut self, index: usize) -> &mut Storage<T> {
        self.storages[index]
            .as_any_mut()
            .downcast_mut()
            .expect("storage index registered for this type")
    }

    fn plan<T: Component>(&mut self, index: usize) -> TypedPlan<'_, T> {
        TypedPlan {
            world: self,
            index,
            component: PhantomData,
        }
    }

    /// Creates an entity.
    ///
    /// # Panics
    /// Panics if every entity index is in use (or retired).
    pub fn spawn(&mut self) -> Entity {
        self.entities.spawn()
    }

    /// Whether `entity` is alive.
    pub fn is_alive(&self, entity: Entity) -> bool {
        self.entities.is_alive(entity)
    }

    /// The entity allocator (read only).
    pub fn entities(&self) -> &Entities {
        &self.entities
    }

    /// Stores `value` for `entity`: leaves the groups excluding `T` (innermost first), then
    /// enters the groups it now completes (outermost first). Returns the replaced value,
    /// if any (a replaced value changes no group).
    ///
    /// # Errors
    /// [`EntityError::Dead`] if `entity` is not alive; nothing is written.
    ///
    /// # Panics
    /// Panics if the storage already holds `u32::MAX` components.
    pub fn insert<T: Component>(
        &mut self,
        entity: Entity,
        value: T,
    ) -> Result<Option<T>, EntityError> {
        if !self.entities.is_alive(entity) {
            return Err(EntityError::Dead(entity));
        }
        let index = self.index_or_register::<T>();
        hooks::insert(self.plan::<T>(index), entity, value)
    }

    /// Removes `entity`'s `T`: leaves the groups requiring `T` (innermost first), removes
    /// it, then enters the groups excluding `T` that the entity now passes (outermost
    /// first). Absent components, unknown types and dead entities give `None`.
    pub fn remove<T: Component>(&mut self, entity: Entity) -> Option<T> {
        let index = *self.by_type.get(&TypeId::of::<T>())?;
        hooks::remove(self.plan::<T>(index), entity)
    }

    /// Destroys `entity`: leaves all its groups innermost first, drops its components,
    /// then frees its index (with a new version for the next user).
    ///
    /// # Errors
    /// [`EntityError::Dead`] if `entity` is not alive; nothing changes.
    pub fn destroy(&mut self, entity: Entity) -> Result<(), EntityError> {
        hooks::destroy(self, entity)
    }

    /// `entity`'s `T`.
    pub fn get<T: Component>(&self, entity: Entity) -> Option<&T> {
        self.typed::<T>()?.get(entity)
    }

    /// `entity`'s `T`, mutably.
    pub fn get_mut<T: Component>(&mut self, entity: Entity) -> Option<&mut T> {
        let index = *self.by_type.get(&TypeId::of::<T>())?;
        self.typed_mut::<T>(index).get_mut(entity)
    }

    /// Whether `entity` has a `T`.
    pub fn contains<T: Component>(&self, entity: Entity) -> bool {
        self.typed::<T>().is_some_and(|s| s.contains(entity))
    }

    /// The storage of `T`, read only (`None` if no `T` was ever stored).
    pub fn storage<T: Component>(&self) -> Option<&Storage<T>> {
        self.typed::<T>()
    }

    /// The entities and components of `T`, the components mutably: values can change,
    /// the structure cannot.
    pub fn components_mut<T: Component>(&mut self) -> (&[Entity], &mut [T]) {
        let index = self.index_or_register::<T>();
        self.typed_mut::<T>(index).as_mut_slices()
    }

    fn group_index<K: GroupKey>(&self) -> Result<usize, AccessError> {
        let decl = K::decl();
        let ids = sorted_ids(&decl);
        self.groups
            .iter()
            .position(|g| g.ids == ids)
            .ok_or_else(|| AccessError::NoSuchGroup(DisplayGroup(&decl).to_string()))
    }

    /// The indices of the storages of `keys` (all registered by the group's spec).
    fn indices(&self, keys: &[ComponentKey]) -> Vec<usize> {
        keys.iter().map(|k| self.by_type[&k.type_id()]).collect()
    }

    /// The group named by `K` (each list of its key in any order): aligned slices of its
    /// owned components, lookups of its observed ones.
    ///
    /// # Errors
    /// [`AccessError::NoSuchGroup`] if the world has no such group.
    pub fn group<K: GroupKey>(&mut self) -> Result<GroupMut<'_, K>, AccessError> {
        let group = self.group_index::<K>()?;
        let owned = self.indices(&K::Owned::keys());
        let observed = self.indices(&K::Observed::keys());
        let World {
            storages, groups, ..
        } = self;
        let mut all = borrow_all(storages);
        let owned = K::Owned::erased(&mut all, &owned).expect("distinct typed storages");
        let observed = K::Observed::erased(&mut all, &observed).expect("distinct typed storages");
        let state = &groups[group];
        Ok(match &state.members {
            None => GroupMut::new(owned, state.len, observed),
            Some(members) => GroupMut::over_members(members.as_slice(), owned, observed),
        })
    }

    /// The number of entities in the group named by `K`.
    ///
    /// # Errors
    /// [`AccessError::NoSuchGroup`] if the world has no such group.
    pub fn group_len<K: GroupKey>(&self) -> Result<usize, AccessError> {
        Ok(self.groups[self.group_index::<K>()?].len)
    }

    /// A join over the storages of `G`, driven by the smallest.
    ///
    /// # Panics
    /// Panics if `G` names a type twice.
    pub fn view<G: ComponentSet>(&mut self) -> View<'_, G> {
        let keys = G::keys();
        for (key, storage) in keys.iter().zip(G::new_storages()) {
            self.register(key.type_id(), storage);
        }
        assert!(G::distinct(), "a view names a component type twice");
        let indices = self.indices(&keys);
        let mut all = borrow_all(&mut self.storages);
        View::new(G::erased(&mut all, &indices).expect("distinct typed storages"))
    }

    /// Sorts the storage of `T` with `compare` (the mixed strategy).
    ///
    /// # Errors
    /// [`AccessError::OwnedByGroup`] if a group owns `T`: sorting the storage alone would
    /// break the group; use [`sort_group`](World::sort_group).
    pub fn sort<T: Component>(
        &mut self,
        compare: impl FnMut(&T, &T) -> Ordering,
    ) -> Result<(), AccessError> {
        let index = self.index_or_register::<T>();
        if self.groups.iter().any(|g| g.owned.contains(&index)) {
            return Err(AccessError::OwnedByGroup(core::any::type_name::<T>()));
        }
        self.typed_mut::<T>(index).sort_by(compare);
        Ok(())
    }

    /// Sorts the group named by `K` with a comparator over its members' items (owned and
    /// observed components). An owning group is sorted layer by layer so that the groups
    /// nested in it stay valid: their entities stay in front, and each layer between two
    /// nested groups is sorted on its own (the innermost group fully). A non-owning group
    /// sorts its member set.
    ///
    /// # Errors
    /// [`AccessError::NoSuchGroup`] if the world has no such group.
    pub fn sort_group<K: GroupKey>(
        &mut self,
        compare: impl FnMut(K::Item<'_>, K::Item<'_>) -> Ordering,
    ) -> Result<(), AccessError> {
        let group = self.group_index::<K>()?;
        let owned = self.indices(&K::Owned::keys());
        let observed = self.indices(&K::Observed::keys());
        let World {
            storages,
            groups,
            layout,
            by_type,
            ..
        } = self;
        let layout = layout.as_ref().expect("a group implies a layout");
        let mut all = borrow_all(storages);
        let owned = K::Owned::erased(&mut all, &owned).expect("distinct typed storages");
        let observed = K::Observed::erased(&mut all, &observed).expect("distinct typed storages");
        if let Some(members) = &mut groups[group].members {
            group::sort_members::<K>(members, owned, observed, compare);
            return Ok(());
        }
        let mut layer_ends: Vec<usize> = layout
            .inner_groups(group)
            .iter()
            .rev()
            .map(|&g| groups[g].len)
            .collect();
        layer_ends.push(groups[group].len);
        let sources = group::group_sources::<K>(owned, observed, &layer_ends, compare);
        drop(all);
        for (key, g) in layout.sort_targets(group) {
            let len = groups[g].len;
            storages[by_type[&key.type_id()]].apply_sources(&sources[..len]);
        }
        Ok(())
    }

    /// Checks every invariant: storages consistent, only alive entities stored, every
    /// group exactly the entities passing its filter (packed, or in its set), nested groups
    /// inside their outer groups.
    ///
    /// # Errors
    /// A description of the first broken invariant.
    pub fn check(&self) -> Result<(), String> {
        let storages: Vec<(&str, &dyn StorageInfo)> = self
            .storages
            .iter()
            .map(|s| (s.type_name(), &**s as &dyn StorageInfo))
            .collect();
        let sets = |indices: &[usize]| -> Vec<&SparseSet> {
            indices
                .iter()
                .map(|&s| self.storages[s].entity_set())
                .collect()
        };
        let lists: Vec<[Vec<&SparseSet>; 3]> = self
            .groups
            .iter()
            .map(|g| [sets(&g.owned), sets(&g.observed), sets(&g.excluded)])
            .collect();
        let groups: Vec<GroupInfo<'_>> = self
            .groups
            .iter()
            .zip(&lists)
            .map(|(g, [owned, observed, excluded])| GroupInfo {
                name: &g.name,
                owned,
                observed,
                excluded,
                len: g.len,
                members: g.members.as_ref(),
            })
            .collect();
        hooks::check_world(&self.entities, &storages, &groups, &self.nesting)
    }
}
