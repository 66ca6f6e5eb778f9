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
use crate::component_set::ComponentSet;
use crate::entity::{Entities, Entity, EntityError};
use crate::group::{self, DisplayGroup, GroupMut, Hint, Layout};
use crate::hooks::{self, ComponentPlan, EntityPlan, GroupInfo};
use crate::storage::{ErasedStorage, SparseSet, Storage, StorageInfo};
use crate::view::View;
use erased_owned::ErasedOwned;
pub use error::{AccessError, LayoutErrors};
pub use spec::GroupSpec;

/// One group of the world.
struct GroupState {
    /// Indices of the owned storages, in declaration order.
    storages: Vec<usize>,
    len: usize,
    /// `<A, B>`, for messages.
    name: String,
}

/// A world whose storages are created on demand and whose groups are given at run time.
///
/// Invariant: after every public call, every storage is consistent, every group is the
/// packed prefix of its owned storages holding exactly the entities having all its types,
/// and only alive entities have components. Structural changes to storages happen only
/// here, through the hooks; callers get read access and value mutation.
///
/// ```
/// use sparse_core::{Component, GroupSpec, World};
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
    /// Per storage: the groups owning it, outer groups first, each with the storage's
    /// slot among the group's owned storages.
    enter: Vec<Vec<(usize, usize)>>,
    /// Every group, innermost first.
    destroy: Vec<usize>,
    /// `(outer, inner)` pairs of directly nested groups.
    nesting: Vec<(usize, usize)>,
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

    fn after_add(&mut self, entity: Entity, mut position: usize) {
        let World {
            storages,
            groups,
            enter,
            ..
        } = &mut *self.world;
        for &(group, slot) in &enter[self.index] {
            let GroupState {
                storages: owned,
                len,
                ..
            } = &mut groups[group];
            let owned = ErasedOwned::new(storages, owned);
            position = group::enter(owned, len, entity, Hint::at(slot, position), || true);
        }
    }

    fn before_remove(&mut self, entity: Entity, mut position: usize) -> usize {
        let World {
            storages,
            groups,
            enter,
            ..
        } = &mut *self.world;
        for &(group, slot) in enter[self.index].iter().rev() {
            let GroupState {
                storages: owned,
                len,
                ..
            } = &mut groups[group];
            let owned = ErasedOwned::new(storages, owned);
            position = group::leave(owned, len, entity, Hint::at(slot, position));
        }
        position
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
        for &group in destroy.iter() {
            let GroupState {
                storages: owned,
                len,
                ..
            } = &mut groups[group];
            group::leave(ErasedOwned::new(storages, owned), len, entity, Hint::NONE);
        }
    }

    fn take_all(&mut self, entity: Entity) -> Self::Taken {
        self.storages
            .iter_mut()
            .filter_map(|s| s.take(entity))
            .collect()
    }
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
            Layout::new(specs.iter().map(|s| s.keys.clone()).collect()).map_err(LayoutErrors)?;
        let mut world = World::new();
        for spec in &specs {
            let storages: Vec<usize> = (spec.new_storages)()
                .into_iter()
                .zip(&spec.keys)
                .map(|(storage, key)| world.register(key.type_id(), storage))
                .collect();
            let name = DisplayGroup(&spec.keys).to_string();
            world.groups.push(GroupState {
                storages,
                len: 0,
                name,
            });
        }
        for key in specs.iter().flat_map(|s| &s.keys) {
            let index = world.by_type[&key.type_id()];
            world.enter[index] = layout
                .enter_order(key)
                .into_iter()
                .map(|g| (g, layout.slot(g, key).expect("the group owns the type")))
                .collect();
        }
        world.destroy = layout.destroy_order();
        world.nesting = layout.nesting();
        world.layout = Some(layout);
        Ok(world)
    }

    fn register(&mut self, id: TypeId, storage: Box<dyn ErasedStorage>) -> usize {
        *self.by_type.entry(id).or_insert_with(|| {
            self.storages.push(storage);
            self.enter.push(Vec::new());
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
        hooks::insert(self.plan::<T>(index), entity, value)
    }

    /// Removes `entity`'s `T`, leaving the groups that own `T` first (innermost first).
    /// Absent components, unknown types and dead entities give `None`.
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

    /// The typed storages of `keys` (registered), in order.
    fn typed_storages<G: ComponentSet>(&mut self, keys: &[ComponentKey]) -> G::Storages<'_> {
        let indices: Vec<usize> = keys.iter().map(|k| self.by_type[&k.type_id()]).collect();
        G::erased(&mut self.storages, &indices).expect("distinct storages of these types")
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
        Ok(GroupMut::new(self.typed_storages::<G>(&keys), len))
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
        for (key, storage) in keys.iter().zip(G::new_storages()) {
            self.register(key.type_id(), storage);
        }
        assert!(G::distinct(), "a view names a component type twice");
        View::new(self.typed_storages::<G>(&keys))
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
        if !self.enter[index].is_empty() {
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
        let mut layer_ends: Vec<usize> = layout
            .inner_groups(group)
            .iter()
            .rev()
            .map(|&g| self.groups[g].len)
            .collect();
        layer_ends.push(self.groups[group].len);
        let targets = layout.sort_targets(group);
        let sources =
            group::group_sources::<G>(self.typed_storages::<G>(&keys), &layer_ends, compare);
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
        let storages: Vec<(&str, &dyn StorageInfo)> = self
            .storages
            .iter()
            .map(|s| (s.type_name(), &**s as &dyn StorageInfo))
            .collect();
        let owned: Vec<Vec<&SparseSet>> = self
            .groups
            .iter()
            .map(|g| {
                g.storages
                    .iter()
                    .map(|&s| self.storages[s].entity_set())
                    .collect()
            })
            .collect();
        let groups: Vec<GroupInfo<'_>> = self
            .groups
            .iter()
            .zip(&owned)
            .map(|(g, owned)| GroupInfo {
                name: &g.name,
                owned,
                len: g.len,
            })
            .collect();
        hooks::check_world(&self.entities, &storages, &groups, &self.nesting)
    }
}
