//! A world built at run time: storages looked up by `TypeId`, groups from a layout
//! validated when the world is made.

use core::any::{Any, TypeId};
use core::cmp::Ordering;
use core::fmt;
use std::collections::HashMap;

use crate::__private::check_alive;
use crate::component::{Component, ComponentKey, ComponentSet};
use crate::entity::{Entities, Entity, EntityError};
use crate::group::{GroupMut, apply_sources, check_group, group_sources};
use crate::layout::{Layout, LayoutError};
use crate::sparse_set::SparseSet;
use crate::storage::Storage;
use crate::view::View;

/// The type-erased operations a world needs from a storage.
#[doc(hidden)]
pub trait ErasedStorage: Any {
    fn set(&self) -> &SparseSet;
    fn swap(&mut self, a: usize, b: usize);
    fn take_entity(&mut self, entity: Entity) -> Option<Box<dyn Any>>;
    fn apply_sources(&mut self, sources: &[u32]);
    fn check(&self) -> Result<(), String>;
    fn type_name(&self) -> &'static str;
}

impl<T: Component> ErasedStorage for Storage<T> {
    fn set(&self) -> &SparseSet {
        &self.set
    }
    fn swap(&mut self, a: usize, b: usize) {
        Storage::swap(self, a, b);
    }
    fn take_entity(&mut self, entity: Entity) -> Option<Box<dyn Any>> {
        self.remove(entity)
            .map(|value| Box::new(value) as Box<dyn Any>)
    }
    fn apply_sources(&mut self, sources: &[u32]) {
        apply_sources(self, sources);
    }
    fn check(&self) -> Result<(), String> {
        Storage::check(self)
    }
    fn type_name(&self) -> &'static str {
        core::any::type_name::<T>()
    }
}

/// How to declare a group of a run-time [`World`]: `GroupSpec::of::<(A, B)>()`.
pub struct GroupSpec {
    keys: Vec<ComponentKey>,
    new_storages: fn() -> Vec<Box<dyn ErasedStorage>>,
}

impl GroupSpec {
    /// The group owning the types of the tuple `G`.
    pub fn of<G: ComponentSet>() -> Self {
        GroupSpec {
            keys: G::keys(),
            new_storages: G::new_storages,
        }
    }
}

/// A request the world cannot serve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccessError {
    /// No group of the world owns exactly these types.
    NoSuchGroup(Vec<&'static str>),
    /// The storage is owned by a group: sort the group instead, so it stays packed.
    OwnedByGroup(&'static str),
}

impl fmt::Display for AccessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccessError::NoSuchGroup(types) => {
                write!(f, "this world has no group of <{}>", types.join(", "))
            }
            AccessError::OwnedByGroup(ty) => {
                write!(
                    f,
                    "`{ty}` is owned by a group; sort the group with `sort_group` instead"
                )
            }
        }
    }
}

impl std::error::Error for AccessError {}

/// Every error of a rejected run-time layout, displayed one per line.
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

struct GroupState {
    /// Indices of the owned storages, in declaration order.
    storages: Vec<usize>,
    len: usize,
}

/// A world whose storages are created on demand and whose groups are given at run time.
///
/// Invariant: after every public call, every storage is consistent, every group is the
/// packed prefix of its owned storages holding exactly the entities having all its types,
/// and only alive entities have components. Structural changes to storages happen only
/// here, through the hooks; callers get read access and value mutation.
///
/// ```
/// use sparse_core::{Component, World, world::GroupSpec};
/// struct Pos(f32);
/// struct Vel(f32);
/// struct Tag;
/// impl Component for Pos {}
/// impl Component for Vel {}
/// impl Component for Tag {}
///
/// let mut world = World::with_groups([GroupSpec::of::<(Pos, Vel)>(), GroupSpec::of::<(Pos, Vel, Tag)>()])?;
/// let e = world.spawn();
/// world.insert(e, Pos(0.0))?;
/// world.insert(e, Vel(2.0))?;
/// let (entities, (pos, vel)) = world.group::<(Pos, Vel)>()?.into_slices();
/// for (p, v) in pos.iter_mut().zip(vel.iter()) {
///     p.0 += v.0;
/// }
/// assert_eq!(entities, &[e]);
/// assert_eq!(world.get::<Pos>(e).unwrap().0, 2.0);
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
    /// Per storage: the groups owning it, outermost first.
    enter_order: Vec<Vec<usize>>,
    destroy_order: Vec<usize>,
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
    /// Every [`LayoutError`] of the declarations, in [`LayoutErrors`].
    pub fn with_groups(groups: impl IntoIterator<Item = GroupSpec>) -> Result<World, LayoutErrors> {
        let specs: Vec<GroupSpec> = groups.into_iter().collect();
        let layout =
            Layout::new(specs.iter().map(|s| s.keys.clone()).collect()).map_err(LayoutErrors)?;
        let mut world = World::new();
        for spec in &specs {
            let storages: Vec<usize> = (spec.new_storages)()
                .into_iter()
                .zip(&spec.keys)
                .map(|(storage, key)| world.register(key.type_id(), storage))
                .collect();
            world.groups.push(GroupState { storages, len: 0 });
        }
        for key in specs.iter().flat_map(|s| &s.keys) {
            let index = world.by_type[&key.type_id()];
            world.enter_order[index] = layout.enter_order(key);
        }
        world.destroy_order = layout.destroy_order();
        world.layout = Some(layout);
        Ok(world)
    }

    fn register(&mut self, id: TypeId, storage: Box<dyn ErasedStorage>) -> usize {
        *self.by_type.entry(id).or_insert_with(|| {
            self.storages.push(storage);
            self.enter_order.push(Vec::new());
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
        let storage: &dyn Any = self.storages[*self.by_type.get(&TypeId::of::<T>())?].as_ref();
        storage.downcast_ref()
    }

    fn typed_mut<T: Component>(&mut self, index: usize) -> &mut Storage<T> {
        let storage: &mut dyn Any = self.storages[index].as_mut();
        storage
            .downcast_mut()
            .expect("storage index registered for this type")
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

    /// Stores `value` for `entity`, entering the groups it now completes (outermost
    /// first). Returns the replaced value, if any.
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
        // SAFETY: a world never keeps components of dead entities, so no other version
        // of this alive entity's index has a `T`.
        if let Some(old) = unsafe { self.typed_mut::<T>(index).insert_alive(entity, value) } {
            return Ok(Some(old));
        }
        for position in 0..self.enter_order[index].len() {
            let group = self.enter_order[index][position];
            self.try_enter(group, entity);
        }
        Ok(None)
    }

    /// Removes `entity`'s `T`, leaving the groups that own `T` first (innermost first).
    /// Absent components, unknown types and dead entities give `None`.
    pub fn remove<T: Component>(&mut self, entity: Entity) -> Option<T> {
        let index = *self.by_type.get(&TypeId::of::<T>())?;
        if !self.storages[index].set().contains(entity) {
            return None;
        }
        for position in (0..self.enter_order[index].len()).rev() {
            let group = self.enter_order[index][position];
            self.try_leave(group, entity);
        }
        self.typed_mut::<T>(index).remove(entity)
    }

    /// Destroys `entity`: leaves all its groups innermost first, drops its components,
    /// then frees its index (with a new version for the next user).
    ///
    /// # Errors
    /// [`EntityError::Dead`] if `entity` is not alive; nothing changes.
    pub fn destroy(&mut self, entity: Entity) -> Result<(), EntityError> {
        if !self.entities.is_alive(entity) {
            return Err(EntityError::Dead(entity));
        }
        for position in 0..self.destroy_order.len() {
            let group = self.destroy_order[position];
            self.try_leave(group, entity);
        }
        // Take every component out before dropping any, so that a panicking `Drop` finds
        // the world consistent (the entity already destroyed).
        let components: Vec<Box<dyn Any>> = self
            .storages
            .iter_mut()
            .filter_map(|s| s.take_entity(entity))
            .collect();
        self.entities.destroy(entity);
        drop(components);
        Ok(())
    }

    fn try_enter(&mut self, group: usize, entity: Entity) -> bool {
        let state = &mut self.groups[group];
        let storages = &mut self.storages;
        if !state
            .storages
            .iter()
            .all(|&s| storages[s].set().contains(entity))
        {
            return false;
        }
        if storages[state.storages[0]]
            .set()
            .index_of(entity)
            .is_some_and(|p| p < state.len)
        {
            return false;
        }
        for &s in &state.storages {
            let position = storages[s].set().index_of(entity).unwrap_or(state.len);
            storages[s].swap(position, state.len);
        }
        state.len += 1;
        true
    }

    fn try_leave(&mut self, group: usize, entity: Entity) -> bool {
        let state = &mut self.groups[group];
        match self.storages[state.storages[0]].set().index_of(entity) {
            Some(position) if position < state.len => {
                let last = state.len - 1;
                for &s in &state.storages {
                    self.storages[s].swap(position, last);
                }
                state.len = last;
                true
            }
            _ => false,
        }
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

    fn group_index(&self, keys: &[ComponentKey]) -> Result<usize, AccessError> {
        let ids: Vec<TypeId> = keys.iter().map(ComponentKey::type_id).collect();
        let layout = self.layout.as_ref();
        layout
            .and_then(|l| {
                l.groups().iter().position(|g| {
                    g.len() == ids.len() && g.iter().all(|k| ids.contains(&k.type_id()))
                })
            })
            .ok_or_else(|| AccessError::NoSuchGroup(keys.iter().map(ComponentKey::name).collect()))
    }

    /// The group owning exactly the types of `G` (in any order): aligned slices of its
    /// packed range.
    ///
    /// # Errors
    /// [`AccessError::NoSuchGroup`] if the world has no such group.
    pub fn group<G: ComponentSet>(&mut self) -> Result<GroupMut<'_, G>, AccessError> {
        let keys = G::keys();
        let group = self.group_index(&keys)?;
        let len = self.groups[group].len;
        let indices: Vec<usize> = keys.iter().map(|k| self.by_type[&k.type_id()]).collect();
        let storages =
            G::erased(&mut self.storages, &indices).expect("group storages are distinct and typed");
        let (entities, slices) = G::prefixes(storages, len);
        Ok(GroupMut::from_parts(entities, slices))
    }

    /// The number of entities in the group of `G`.
    ///
    /// # Errors
    /// [`AccessError::NoSuchGroup`] if the world has no such group.
    pub fn group_len<G: ComponentSet>(&self) -> Result<usize, AccessError> {
        Ok(self.groups[self.group_index(&G::keys())?].len)
    }

    /// A join over the storages of `G`, driven by the smallest.
    ///
    /// # Panics
    /// Panics if `G` names a type twice.
    pub fn view<G: ComponentSet>(&mut self) -> View<'_, G> {
        let keys = G::keys();
        let indices: Vec<usize> = keys
            .iter()
            .zip(G::new_storages())
            .map(|(k, s)| self.register(k.type_id(), s))
            .collect();
        View::from_storages(
            G::erased(&mut self.storages, &indices).expect("a view names each type once"),
        )
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
        if !self.enter_order[index].is_empty() {
            return Err(AccessError::OwnedByGroup(core::any::type_name::<T>()));
        }
        self.typed_mut::<T>(index).sort_by(compare);
        Ok(())
    }

    /// Sorts the group of `G` with a comparator over its components. Inner nested groups
    /// stay valid: their entities stay in front, and each layer between two nested groups
    /// is sorted on its own (so the innermost group is fully sorted, and an outer group is
    /// sorted layer by layer).
    ///
    /// # Errors
    /// [`AccessError::NoSuchGroup`] if the world has no such group.
    pub fn sort_group<G: ComponentSet>(
        &mut self,
        compare: impl FnMut(G::Refs<'_>, G::Refs<'_>) -> Ordering,
    ) -> Result<(), AccessError> {
        let keys = G::keys();
        let group = self.group_index(&keys)?;
        let layout = self.layout.as_ref().expect("a group implies a layout");
        let inner = layout.inner_groups(group);
        let mut layer_ends: Vec<usize> = inner.iter().rev().map(|&g| self.groups[g].len).collect();
        layer_ends.push(self.groups[group].len);
        let targets = layout.sort_targets(group);
        let indices: Vec<usize> = keys.iter().map(|k| self.by_type[&k.type_id()]).collect();
        let storages =
            G::erased(&mut self.storages, &indices).expect("group storages are distinct and typed");
        let sources = group_sources::<G>(storages, &layer_ends, compare);
        for (key, g) in targets {
            let len = self.groups[g].len;
            self.storages[self.by_type[&key.type_id()]].apply_sources(&sources[..len]);
        }
        Ok(())
    }

    /// Checks every invariant: storages consistent, only alive entities stored, every
    /// group exactly the packed set of entities having its types, nested groups prefixes
    /// of their outer group.
    ///
    /// # Errors
    /// A description of the first broken invariant.
    pub fn check(&self) -> Result<(), String> {
        for storage in &self.storages {
            storage
                .check()
                .map_err(|e| format!("{}: {e}", storage.type_name()))?;
            check_alive(&self.entities, storage.set(), storage.type_name())?;
        }
        for (g, state) in self.groups.iter().enumerate() {
            let sets: Vec<&SparseSet> = state
                .storages
                .iter()
                .map(|&s| self.storages[s].set())
                .collect();
            check_group(&sets, state.len).map_err(|e| format!("group {g}: {e}"))?;
        }
        if let Some(layout) = &self.layout {
            for chain in layout.chains() {
                for pair in chain.windows(2) {
                    if self.groups[pair[1]].len > self.groups[pair[0]].len {
                        return Err(format!(
                            "group {} is longer than its outer group {}",
                            pair[1], pair[0]
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}
