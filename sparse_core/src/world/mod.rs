//! A world built at run time: storages looked up by `TypeId`, groups from a layout
//! validated when the world is made, maintained by the same engine and plan as a
//! `#[world]`.

mod changes;
mod error;
mod hooks;
mod parts;
mod plan;
mod resources;
#[cfg(feature = "serde")]
mod snapshot;
#[cfg(feature = "serde")]
pub use snapshot::{LoadItem, LoadTypes, SaveItem, Snapshot, SnapshotItem, SnapshotTypes};
mod sort;
mod spec;
mod type_map;

use core::any::TypeId;
use core::cmp::Ordering;

use crate::access::{Borrow, Query, ReadOnly, ValuesMut, View, ViewOf, ViewRefOf};
use crate::change::bundle::{AppendColumn, Bundle};
use crate::change::hooks::TypeHooks;
use crate::change::steps::{self, WorldInfo};
use crate::change::{
    Applied, Commands, Components, Edit, EditEntities, GetMut, InsertManyError, Lookup,
    ReadComponents,
};
use crate::component::{Component, ComponentKey};
use crate::diagram::Diagram;
use crate::entity::{Entities, Entity, EntityError};
use crate::group::{
    Aligned, DisplayGroup, GroupDecl, GroupInfo, GroupKey, GroupMut, GroupRef, Layout, Step,
};
use crate::group::{ByComparator, ByEntity, ByKey, ByRadixKey, EntityOrder, InOrderOf};
use crate::internals::{IndexedStorages, InternalStorage, Internals, WORLD_KEY, WorldKey};
use crate::lend::{AccessError, WorldParts};
use crate::storage::{AnyStorage, Clock, OrdKey, RadixKey, SparseSet, Storage, StorageInfo};
pub use error::LayoutErrors;
use plan::TypedPlan;
pub use spec::GroupSpec;
use type_map::TypeMap;

/// One group of the world.
struct GroupState {
    /// Indices of the owned, observed and excluded storages, in declaration order.
    owned: Vec<usize>,
    observed: Vec<usize>,
    excluded: Vec<usize>,
    /// The number of members.
    len: usize,
    /// The closest outer group keeping owned storages aligned, and their slots as a mask
    /// (see [`Aligned`](crate::group::Aligned)).
    aligned: Option<(usize, u32)>,
    /// The members of a non-owning group.
    members: Option<SparseSet>,
    /// The moves over the owned storages, typed.
    moves: spec::OwnedMoves,
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
    /// `on_add` when it is one step of a group owning the type, made for its slot.
    on_add_step: Option<plan::OneStep>,
    /// `before_remove` when it is one step of a group owning the type, the same way.
    before_remove_step: Option<plan::OneStep>,
}

impl TypePlan {
    /// The steps of one phase.
    fn steps(&self, phase: plan::Phase) -> &[Step] {
        match phase {
            plan::Phase::OnAdd => &self.on_add,
            plan::Phase::BeforeRemove => &self.before_remove,
            plan::Phase::AfterRemove => &self.after_remove,
        }
    }
}

/// A world whose storages are created on demand and whose groups are given at run time.
///
/// Invariant: after every public call, every storage is consistent, every group holds
/// exactly the entities passing its filter (as the packed prefix of its owned storages, or
/// in its member set), and only alive entities have components. Structural changes to
/// storages happen only here, through the group steps; callers get read access and value
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
    storages: Vec<AnyStorage>,
    by_type: TypeMap,
    groups: Vec<GroupState>,
    layout: Option<Layout<ComponentKey>>,
    /// Per storage.
    plans: Vec<TypePlan>,
    /// Every group, innermost first.
    destroy: Vec<usize>,
    /// Every group, outer groups first.
    spawn: Vec<usize>,
    /// `(outer, inner)` pairs of nested groups.
    nesting: Vec<(usize, usize)>,
    /// The user hooks.
    hooks: hooks::WorldHooks,
    /// The resources.
    resources: resources::Resources,
    /// The tick of change detection (see `changes.rs`).
    clock: Clock,
}

/// A declaration's types, each list sorted: equal for every spelling of one group's key.
pub(crate) fn sorted_ids(decl: &GroupDecl<ComponentKey>) -> [Vec<TypeId>; 3] {
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
    /// Every error of the declarations, in [`LayoutErrors`].
    pub fn with_groups(groups: impl IntoIterator<Item = GroupSpec>) -> Result<World, LayoutErrors> {
        let mut world = World::new();
        world.regroup(groups)?;
        Ok(world)
    }

    /// Replaces the world's groups with `groups`, keeping every entity and component: the
    /// layout a run-time world adopts without spawning anew, such as the `GroupSpec` lines
    /// [`Schedule::advise`](crate::Schedule::advise) prints. The new groups are validated
    /// by [`Layout`] first (on an error nothing changes), then every entity enters them,
    /// outer groups first, as on a spawn. No hook runs and no component is stamped changed:
    /// the components move within their storages, their values and stamps with them.
    ///
    /// ```
    /// use sparse_core::{Component, GroupSpec, World};
    /// # struct A(u32); impl Component for A {}
    /// # struct B(u32); impl Component for B {}
    /// let mut world = World::new();
    /// let both = world.spawn_batch((0..4).map(|i| (A(i), B(i))));
    /// world.spawn_batch((0..3).map(|i| (A(i),)));
    /// world.regroup([GroupSpec::of::<(A, B)>()])?;
    /// let view = world.borrow::<sparse_core::View<(&A, &B)>>()?;
    /// assert!(view.is_dense());
    /// assert_eq!(view.len_hint(), both.len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// Every error of the declarations, in [`LayoutErrors`]; the world is left as it was.
    pub fn regroup(
        &mut self,
        groups: impl IntoIterator<Item = GroupSpec>,
    ) -> Result<(), LayoutErrors> {
        let specs: Vec<GroupSpec> = groups.into_iter().collect();
        let layout =
            Layout::new(specs.iter().map(|s| s.decl.clone()).collect()).map_err(LayoutErrors)?;
        self.groups.clear();
        for plan in &mut self.plans {
            *plan = TypePlan::default();
        }
        let world = self;
        for spec in &specs {
            let decl = &spec.decl;
            let mut indices: Vec<usize> = (spec.new_storages)()
                .into_iter()
                .map(|storage| world.register_storage(storage))
                .collect();
            let excluded = indices.split_off(decl.owned.len() + decl.observed.len());
            let observed = indices.split_off(decl.owned.len());
            world.groups.push(GroupState {
                owned: indices,
                observed,
                excluded,
                len: 0,
                aligned: None,
                members: decl.is_non_owning().then(SparseSet::new),
                moves: spec.moves,
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
            let on_add = layout.on_add(key);
            let before_remove = layout.before_remove(key);
            world.plans[index] = TypePlan {
                on_add_step: plan::OneStep::of(&world.groups, index, &on_add),
                before_remove_step: plan::OneStep::of(&world.groups, index, &before_remove),
                on_add,
                before_remove,
                after_remove: layout.after_remove(key),
            };
        }
        for (g, group) in world.groups.iter_mut().enumerate() {
            group.aligned = layout
                .aligned_with_outer(g)
                .map(|(outer, slots)| (outer, Aligned::mask(&slots)));
        }
        world.destroy = layout.destroy_order();
        world.spawn = layout.spawn_order();
        world.nesting = layout.nesting();
        world.layout = Some(layout);
        let entities: Vec<Entity> = world.entities.iter().collect();
        for entity in entities {
            plan::enter_all(world, entity);
        }
        Ok(())
    }

    /// Drops the storages registered since the world held `count` (made on demand for a
    /// request that was then refused).
    ///
    /// # Panics
    /// If one of them holds a component, is tracked, or is named by a group: only what a
    /// request made on demand is forgotten, so that nothing the world relies on goes.
    fn forget_storages_from(&mut self, count: usize) {
        let named = self.groups.iter().any(|g| {
            g.owned
                .iter()
                .chain(&g.observed)
                .chain(&g.excluded)
                .any(|&s| s >= count)
        });
        let fresh = self.storages[count.min(self.storages.len())..]
            .iter()
            .all(|s| s.entity_set().is_empty() && s.change_ticks().is_none());
        assert!(
            !named && fresh,
            "only the empty, untracked storages made on demand for a refused request are forgotten"
        );
        if count < self.storages.len() {
            self.storages.truncate(count);
            self.plans.truncate(count);
            self.by_type.forget_from(count);
        }
    }

    fn register_storage(&mut self, storage: AnyStorage) -> usize {
        self.by_type.get_or_insert_with(storage.component(), || {
            self.storages.push(storage);
            self.plans.push(TypePlan::default());
            self.storages.len() - 1
        })
    }

    /// The storage index of `T`, registering an empty storage the first time. Inlined
    /// (the front table's hit is a load and a compare); registering is out of line.
    #[inline]
    fn index_or_register<T: Component>(&mut self) -> usize {
        match self.by_type.get(&TypeId::of::<T>()) {
            Some(&index) => index,
            None => self.register_new::<T>(),
        }
    }

    #[cold]
    #[inline(never)]
    fn register_new<T: Component>(&mut self) -> usize {
        self.register_storage(AnyStorage::new(Storage::<T>::new()))
    }

    fn typed<T: Component>(&self) -> Option<&Storage<T>> {
        let index = *self.by_type.get(&TypeId::of::<T>())?;
        self.storages[index].storage_of()
    }

    fn typed_mut<T: Component>(&mut self, index: usize) -> &mut Storage<T> {
        self.storages[index]
            .storage_of_mut()
            .expect("storage index registered for this type")
    }

    fn plan<T: Component>(&mut self, index: usize) -> TypedPlan<'_, T> {
        TypedPlan::new(self, index)
    }

    #[doc = crate::__method_doc!(spawn)]
    pub fn spawn(&mut self) -> Entity {
        self.entities.spawn()
    }

    #[doc = crate::__method_doc!(is_alive)]
    pub fn is_alive(&self, entity: Entity) -> bool {
        self.entities.is_alive(entity)
    }

    #[doc = crate::__method_doc!(entities)]
    pub fn entities(&self) -> &Entities {
        &self.entities
    }

    #[doc = crate::__method_doc!(insert)]
    ///
    /// Also panics if a tuple names a type twice (what a `#[world]` refuses at compile time).
    pub fn insert<C: Components<World>>(
        &mut self,
        entity: Entity,
        components: C,
    ) -> Result<C::Previous, EntityError> {
        components.insert(self, entity)
    }

    /// Stores one `value` for `entity` (see [`insert`](World::insert)).
    fn insert_one<T: Component>(
        &mut self,
        entity: Entity,
        value: T,
    ) -> Result<Option<T>, EntityError> {
        match self.hooks.of::<T>() {
            Some(hooks) => self.insert_hooked(&hooks, entity, value),
            None => self.store_one(entity, value),
        }
    }

    /// [`insert_one`](World::insert_one) through `T`'s user hooks: out of line, so that
    /// the call with no hook keeps a small frame.
    #[inline(never)]
    fn insert_hooked<T: Component>(
        &mut self,
        hooks: &TypeHooks<World, T>,
        entity: Entity,
        value: T,
    ) -> Result<Option<T>, EntityError> {
        crate::change::hooks::insert(self, hooks, entity, value, World::store_one)
    }

    /// Stores one `value` for `entity`, with no user hook.
    #[inline]
    fn store_one<T: Component>(
        &mut self,
        entity: Entity,
        value: T,
    ) -> Result<Option<T>, EntityError> {
        if !self.entities.flush_is_alive(entity) {
            return Err(EntityError::Dead(entity));
        }
        let index = self.index_or_register::<T>();
        Ok(steps::insert_alive(self.plan::<T>(index), entity, value))
    }

    #[doc = crate::__method_doc!(remove)]
    ///
    /// # Panics
    /// Panics if a tuple names a type twice (what a `#[world]` refuses at compile time).
    pub fn remove<C: Components<World>>(&mut self, entity: Entity) -> C::Previous {
        C::remove(self, entity)
    }

    /// Removes `entity`'s `T` (see [`remove`](World::remove)).
    fn remove_one<T: Component>(&mut self, entity: Entity) -> Option<T> {
        match self.hooks.of::<T>() {
            Some(hooks) => self.remove_hooked(&hooks, entity),
            None => self.take_one(entity),
        }
    }

    /// [`remove_one`](World::remove_one) through `T`'s user hooks, out of line.
    #[inline(never)]
    fn remove_hooked<T: Component>(
        &mut self,
        hooks: &TypeHooks<World, T>,
        entity: Entity,
    ) -> Option<T> {
        crate::change::hooks::remove(self, hooks, entity, World::take_one)
    }

    /// Removes `entity`'s `T`, with no user hook.
    #[inline]
    fn take_one<T: Component>(&mut self, entity: Entity) -> Option<T> {
        let index = *self.by_type.get(&TypeId::of::<T>())?;
        steps::remove(self.plan::<T>(index), entity)
    }

    #[doc = crate::__method_doc!(destroy)]
    #[doc(alias = "despawn")]
    pub fn destroy(&mut self, entity: Entity) -> Result<(), EntityError> {
        match self.hooks.removing() {
            Some(all) => {
                crate::change::hooks::destroy(self, &all, entity, |w, e| steps::destroy(w, e))
            }
            None => steps::destroy(self, entity),
        }
    }

    #[doc = crate::__method_doc!(despawn)]
    #[doc(hidden)]
    #[deprecated(note = "this crate calls it `destroy`: `world.destroy(entity)`")]
    pub fn despawn(&mut self, entity: Entity) -> Result<(), EntityError> {
        self.destroy(entity)
    }

    #[doc = crate::__method_doc!(get)]
    pub fn get<C: ReadComponents<World>>(&self, entity: Entity) -> Option<C::Refs<'_>> {
        C::get(self, entity)
    }

    #[doc = crate::__method_doc!(get_mut)]
    ///
    /// # Panics
    /// Panics if the query writes a type twice, or writes and reads it (what a `#[world]`
    /// refuses at compile time).
    pub fn get_mut<'w, G: GetMut<'w, World>>(&'w mut self, entity: Entity) -> Option<G::Item> {
        G::get_mut(self, entity)
    }

    #[doc = crate::__method_doc!(contains)]
    pub fn contains<C: ReadComponents<World>>(&self, entity: Entity) -> bool {
        C::contains(self, entity)
    }

    #[doc = crate::__method_doc!(storage)]
    ///
    /// `None` if no `T` was ever stored.
    pub fn storage<T: Component>(&self) -> Option<&Storage<T>> {
        self.typed::<T>()
    }

    #[doc = crate::__method_doc!(values_mut)]
    pub fn values_mut<T: Component>(&mut self) -> ValuesMut<'_, T> {
        let index = self.index_or_register::<T>();
        ValuesMut::new(self.typed_mut::<T>(index).lend_mut())
    }

    /// Registers an empty storage of `T` if there is none, so that read-only views and
    /// borrows through `&self` find one.
    pub fn register<T: Component>(&mut self) {
        self.index_or_register::<T>();
    }

    fn register_type<T: Component>(&mut self) {
        self.index_or_register::<T>();
    }

    #[doc = crate::__method_doc!(spawn_with)]
    ///
    /// # Panics
    /// Panics if the bundle names a type twice (what a `#[world]` refuses at compile time).
    pub fn spawn_with<B: Bundle<World>>(&mut self, bundle: B) -> Entity {
        crate::change::bundle::spawn_with_indexed(self, &WORLD_KEY, bundle)
    }

    #[doc = crate::__method_doc!(spawn_batch)]
    ///
    /// # Panics
    /// Panics if the bundle type names a component type twice (what a `#[world]` refuses at
    /// compile time).
    pub fn spawn_batch<B: Bundle<World>>(
        &mut self,
        bundles: impl IntoIterator<Item = B>,
    ) -> Vec<Entity> {
        crate::change::bundle::spawn_batch_by_columns(self, &WORLD_KEY, bundles)
    }

    #[doc = crate::__method_doc!(borrow)]
    ///
    /// See [`Borrow`]; storages never stored are created empty first.
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if the request borrows a type mutably twice (or mutably
    /// and shared), [`AccessError::NoSuchGroup`] for a group the world does not have:
    /// what a `#[world]` rejects at compile time.
    pub fn borrow<'w, R: Borrow<'w, World>>(&'w mut self) -> Result<R, AccessError> {
        R::prepare(self);
        R::take(&mut self.parts())
    }

    #[doc = crate::__method_doc!(borrow_ref)]
    ///
    /// # Errors
    /// As [`borrow`](World::borrow), and [`AccessError::NotStored`] for a type the world
    /// never stored (see [`register`](World::register)).
    pub fn borrow_ref<'w, R: Borrow<'w, World> + ReadOnly>(&'w self) -> Result<R, AccessError> {
        R::take(&mut self.parts_ref())
    }

    #[doc = crate::__method_doc!(group)]
    ///
    /// Each list of the key may be written in any order.
    ///
    /// # Errors
    /// [`AccessError::NoSuchGroup`] if the world has no such group.
    pub fn group<K: GroupKey>(&mut self) -> Result<GroupMut<'_, K>, AccessError> {
        self.borrow()
    }

    #[doc = crate::__method_doc!(group_ref)]
    ///
    /// # Errors
    /// [`AccessError::NoSuchGroup`] if the world has no such group.
    pub fn group_ref<K: GroupKey>(&self) -> Result<GroupRef<'_, K>, AccessError> {
        self.borrow_ref()
    }

    #[doc = crate::__method_doc!(group_len)]
    ///
    /// # Errors
    /// [`AccessError::NoSuchGroup`] if the world has no such group.
    pub fn group_len<K: GroupKey>(&self) -> Result<usize, AccessError> {
        Ok(self.groups[self.group_index::<K>()?].len)
    }

    #[doc = crate::__method_doc!(view)]
    ///
    /// See [`View`] and [`ViewQuery`](crate::ViewQuery).
    ///
    /// # Errors
    /// [`AccessError::Conflict`] if `Q` writes a type twice, or writes and reads it.
    #[doc(alias("query", "query_mut", "query_filtered"))]
    pub fn view<'w, Q: ViewOf<'w, World>>(
        &'w mut self,
    ) -> Result<View<'w, Q::Query, Q::Filter>, AccessError> {
        Q::prepare(self);
        Q::take(&mut self.parts())
    }

    #[doc = crate::__method_doc!(view_ref)]
    ///
    /// # Errors
    /// [`AccessError::NotStored`] for a type the world never stored.
    #[doc(alias = "query")]
    pub fn view_ref<'w, Q: ViewRefOf<'w, World>>(
        &'w self,
    ) -> Result<View<'w, Q::Query, Q::Filter>, AccessError> {
        Q::take(&mut self.parts_ref())
    }

    #[doc = crate::__method_doc!(retain)]
    ///
    /// # Errors
    /// As [`view`](World::view); nothing is destroyed.
    pub fn retain<Q: Query>(
        &mut self,
        mut keep: impl FnMut(Entity, Q::Item<'_>) -> bool,
    ) -> Result<usize, AccessError>
    where
        for<'w> View<'w, Q>: Borrow<'w, World>,
    {
        let mut doomed = Vec::new();
        for (entity, item) in self.view::<Q>()? {
            if !keep(entity, item) {
                doomed.push(entity);
            }
        }
        Ok(self.destroy_many(&doomed))
    }

    #[doc = crate::__method_doc!(retain_component)]
    ///
    /// # Errors
    /// As [`view`](World::view); nothing is removed.
    pub fn retain_component<T: Component, Q: Query>(
        &mut self,
        mut keep: impl FnMut(Entity, Q::Item<'_>) -> bool,
    ) -> Result<usize, AccessError>
    where
        for<'w> View<'w, Q>: Borrow<'w, World>,
    {
        let mut stripped = Vec::new();
        for (entity, item) in self.view::<Q>()? {
            if !keep(entity, item) {
                stripped.push(entity);
            }
        }
        Ok(Edit::<T>::remove_many(self, &stripped))
    }

    #[doc = crate::__method_doc!(destroy_many)]
    pub fn destroy_many(&mut self, entities: &[Entity]) -> usize {
        match self.hooks.removing() {
            Some(all) => crate::change::hooks::destroy_many(self, &all, entities, |w, e| {
                steps::destroy_many(w, e)
            }),
            None => steps::destroy_many(self, entities),
        }
    }

    #[doc = crate::__method_doc!(insert_many)]
    pub fn insert_many<T: Component>(
        &mut self,
        items: impl IntoIterator<Item = (Entity, T)>,
    ) -> Result<usize, InsertManyError<T>> {
        Edit::insert_many(self, crate::size_hint::collect(items))
    }

    #[doc = crate::__method_doc!(remove_many)]
    pub fn remove_many<T: Component>(&mut self, entities: &[Entity]) -> usize {
        Edit::<T>::remove_many(self, entities)
    }

    #[doc = crate::__method_doc!(clear)]
    pub fn clear<T: Component>(&mut self) {
        Edit::<T>::clear(self);
    }

    #[doc = crate::__method_doc!(apply)]
    ///
    /// See [`Commands`].
    pub fn apply(&mut self, commands: &mut Commands<World>) -> Applied {
        commands.apply(self)
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

    #[doc = crate::__method_doc!(sort)]
    ///
    /// # Errors
    /// [`AccessError::OwnedByGroup`] if a group owns `T`: sorting the storage alone would
    /// break the group; use [`sort_group`](World::sort_group). Nothing moves.
    pub fn sort<T: Component>(
        &mut self,
        compare: impl FnMut(&T, &T) -> Ordering,
    ) -> Result<(), AccessError> {
        self.sort_with(ByComparator(compare))
    }

    #[doc = crate::__method_doc!(sort_by_key)]
    ///
    /// # Errors
    /// [`AccessError::OwnedByGroup`] if a group owns `T` (see [`sort`](World::sort)); nothing moves.
    pub fn sort_by_key<T: Component, Key: OrdKey>(
        &mut self,
        key: impl FnMut(&T) -> Key,
    ) -> Result<(), AccessError> {
        self.sort_with(ByKey(key))
    }

    #[doc = crate::__method_doc!(sort_by_radix_key)]
    ///
    /// # Errors
    /// [`AccessError::OwnedByGroup`] if a group owns `T` (see [`sort`](World::sort)); nothing moves.
    pub fn sort_by_radix_key<T: Component, Key: RadixKey>(
        &mut self,
        key: impl FnMut(&T) -> Key,
    ) -> Result<(), AccessError> {
        self.sort_with(ByRadixKey(key))
    }

    #[doc = crate::__method_doc!(sort_as)]
    ///
    /// A `U` the world has never stored is an empty storage.
    ///
    /// # Errors
    /// [`AccessError::OwnedByGroup`] if a group owns `T` (see [`sort`](World::sort)); nothing moves.
    pub fn sort_as<T: Component, U: Component>(&mut self) -> Result<(), AccessError> {
        let order = self
            .storage::<U>()
            .map_or_else(Vec::new, |s| s.entities().to_vec());
        self.sort_with::<T>(EntityOrder(order))
    }

    #[doc = crate::__method_doc!(sort_group)]
    ///
    /// # Errors
    /// [`AccessError::NoSuchGroup`] if the world has no such group; nothing moves.
    pub fn sort_group<K: GroupKey>(
        &mut self,
        compare: impl FnMut(K::Item<'_>, K::Item<'_>) -> Ordering,
    ) -> Result<(), AccessError> {
        self.sort_group_with::<K>(ByComparator(compare))
    }

    #[doc = crate::__method_doc!(sort_group_by_key)]
    ///
    /// # Errors
    /// [`AccessError::NoSuchGroup`] if the world has no such group; nothing moves.
    pub fn sort_group_by_key<K: GroupKey, Key: OrdKey>(
        &mut self,
        key: impl FnMut(K::Item<'_>) -> Key,
    ) -> Result<(), AccessError> {
        self.sort_group_with::<K>(ByKey(key))
    }

    #[doc = crate::__method_doc!(sort_group_by_radix_key)]
    ///
    /// # Errors
    /// [`AccessError::NoSuchGroup`] if the world has no such group; nothing moves.
    pub fn sort_group_by_radix_key<K: GroupKey, Key: RadixKey>(
        &mut self,
        key: impl FnMut(K::Item<'_>) -> Key,
    ) -> Result<(), AccessError> {
        self.sort_group_with::<K>(ByRadixKey(key))
    }

    #[doc = crate::__method_doc!(sort_group_by_entity)]
    ///
    /// # Errors
    /// [`AccessError::NoSuchGroup`] if the world has no such group; nothing moves.
    pub fn sort_group_by_entity<K: GroupKey>(&mut self) -> Result<(), AccessError> {
        self.sort_group_with::<K>(ByEntity)
    }

    #[doc = crate::__method_doc!(sort_group_as)]
    ///
    /// A `T` the world has never stored is an empty storage: the group keeps its order.
    ///
    /// # Errors
    /// [`AccessError::NoSuchGroup`] if the world has no such group; nothing moves.
    pub fn sort_group_as<K: GroupKey, T: Component>(&mut self) -> Result<(), AccessError> {
        self.group_index::<K>()?;
        let order = InOrderOf::new(self.storage::<T>().map_or(&[], |s| s.entities()));
        self.sort_group_with::<K>(order)
    }

    /// The world as a value to serialize, with the storages of the component types `T`
    /// and its resources `T` lists as `Resource<R>` (a tuple, see
    /// [`SnapshotTypes`](SnapshotTypes)): its entities with their ids, versions and
    /// free list, each storage's columns in packed order, each resource's value (see
    /// [`Snapshot`](Snapshot)). Serializing fails if the world holds components of a
    /// type `T` does not list, or a resource it does not list.
    ///
    /// ```
    /// use sparse_core::{Component, GroupSpec, World};
    /// #[derive(serde::Serialize, serde::Deserialize)]
    /// struct Pos(f32);
    /// #[derive(serde::Serialize, serde::Deserialize)]
    /// struct Vel(f32);
    /// impl Component for Pos {}
    /// impl Component for Vel {}
    /// let groups = || [GroupSpec::of::<(Pos, Vel)>()];
    ///
    /// let mut world = World::with_groups(groups())?;
    /// let e = world.spawn_with((Pos(1.0), Vel(2.0)));
    /// let json = serde_json::to_string(&world.snapshot::<(Pos, Vel)>())?;
    ///
    /// let mut loaded = World::with_groups(groups())?;
    /// loaded.load::<(Pos, Vel), _>(&mut serde_json::Deserializer::from_str(&json))?;
    /// assert_eq!(loaded.get::<Vel>(e).map(|v| v.0), Some(2.0)); // same entity id
    /// assert_eq!(loaded.group_len::<(Pos, Vel)>()?, 1);
    /// loaded.check()?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "serde")]
    pub fn snapshot<T: SnapshotTypes>(&self) -> Snapshot<'_, T> {
        Snapshot::new(self)
    }

    /// Loads a snapshot written by [`snapshot`](World::snapshot) into this world, in which
    /// no entity may have been spawned or reserved yet (a reserved handle, such as a
    /// queued `spawn_reserved` command's, would name a loaded entity). Its groups may
    /// differ from the saved world's: they are entered as the storages are appended.
    /// Entity ids, versions and the free list are the saved ones. Each resource the
    /// snapshot holds is inserted (replacing the world's); the world's other resources
    /// keep their values.
    ///
    /// # Errors
    /// The format's error, or what is wrong with the snapshot, naming the storage and the
    /// entity (see [`Snapshot`](Snapshot)). On error the world is unchanged.
    #[cfg(feature = "serde")]
    pub fn load<'de, T, D>(&mut self, deserializer: D) -> Result<(), D::Error>
    where
        T: LoadTypes<'de>,
        D: serde::Deserializer<'de>,
    {
        T::load(self, &WORLD_KEY, deserializer)
    }

    #[doc = crate::__method_doc!(check)]
    pub fn check(&self) -> Result<(), String> {
        self.inspect(steps::check_world)
    }

    #[doc = crate::__method_doc!(diagram)]
    ///
    /// See [`Diagram`].
    pub fn diagram(&self) -> Diagram {
        self.inspect(Diagram::of)
    }

    /// Hands the world, as its check and its diagram read it, to `f`.
    fn inspect<R>(&self, f: impl FnOnce(&WorldInfo<'_>) -> R) -> R {
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
        f(&WorldInfo {
            entities: &self.entities,
            storages: &storages,
            groups: &groups,
            nesting: &self.nesting,
        })
    }
}

impl EditEntities for World {
    fn entities(&self) -> &Entities {
        &self.entities
    }

    fn flush_entities(&mut self) {
        self.entities.flush();
    }

    fn spawn_entity(&mut self) -> Entity {
        self.entities.spawn()
    }

    fn inspect_world(&self, f: &mut dyn FnMut(&WorldInfo<'_>)) {
        self.inspect(f);
    }

    fn spawn_with<B: Bundle<Self>>(&mut self, bundle: B) -> Entity {
        World::spawn_with(self, bundle)
    }

    fn spawn_reserved<B: Bundle<Self>>(
        &mut self,
        entity: Entity,
        bundle: B,
    ) -> Result<(), EntityError> {
        crate::change::bundle::spawn_reserved(self, &WORLD_KEY, entity, bundle)
    }

    fn spawn_batch<B: Bundle<Self>>(
        &mut self,
        bundles: impl IntoIterator<Item = B>,
    ) -> Vec<Entity> {
        World::spawn_batch(self, bundles)
    }

    fn reserve_entities(&mut self, additional: usize) {
        self.entities.reserve_capacity(additional);
    }

    fn destroy(&mut self, entity: Entity) -> Result<(), EntityError> {
        World::destroy(self, entity)
    }

    fn destroy_many(&mut self, entities: &[Entity]) -> usize {
        World::destroy_many(self, entities)
    }

    #[inline]
    fn spawned(&mut self, entities: &[Entity]) {
        if let Some(all) = self.hooks.inserting() {
            crate::change::hooks::spawned(self, &all, entities);
        }
    }
}

#[doc(hidden)]
impl Internals for World {
    type Key = WorldKey;

    fn entities_mut(&mut self, _: &WorldKey) -> &mut Entities {
        &mut self.entities
    }

    fn enter_all_groups(&mut self, _: &WorldKey, entity: Entity) {
        plan::enter_all(self, entity);
    }

    fn holds_nothing(&self, entity: Entity) -> bool {
        self.storages
            .iter()
            .all(|storage| !storage.entity_set().contains(entity))
    }
}

#[doc(hidden)]
impl<T: Component> InternalStorage<T> for World {
    fn storage_mut(&mut self, _: &WorldKey) -> &mut Storage<T> {
        let index = self.index_or_register::<T>();
        self.typed_mut::<T>(index)
    }
}

#[doc(hidden)]
impl IndexedStorages for World {
    #[inline]
    fn storage_index<T: Component>(&mut self, _: &WorldKey) -> usize {
        self.index_or_register::<T>()
    }

    #[inline]
    fn storage_at<T: Component>(&mut self, _: &WorldKey, index: usize) -> &mut Storage<T> {
        self.typed_mut::<T>(index)
    }
}

impl<T: Component> Lookup<T> for World {
    #[inline]
    fn lookup(&self, entity: Entity) -> Option<&T> {
        self.typed::<T>()?.get(entity)
    }

    #[inline]
    fn lookup_mut(&mut self, entity: Entity) -> Option<&mut T> {
        let index = *self.by_type.get(&TypeId::of::<T>())?;
        self.typed_mut::<T>(index).get_mut(entity)
    }
}

impl AppendColumn for World {
    fn append_new<T: Component>(&mut self, _: &WorldKey, entities: &[Entity], values: &mut Vec<T>) {
        let index = self.index_or_register::<T>();
        self.typed_mut::<T>(index).append_new(entities, values);
    }
}

impl<T: Component> Edit<T> for World {
    fn insert(&mut self, entity: Entity, value: T) -> Result<Option<T>, EntityError> {
        self.insert_one(entity, value)
    }

    fn remove(&mut self, entity: Entity) -> Option<T> {
        self.remove_one(entity)
    }

    fn insert_many(&mut self, items: Vec<(Entity, T)>) -> Result<usize, InsertManyError<T>> {
        fn store<T: Component>(
            world: &mut World,
            items: Vec<(Entity, T)>,
        ) -> Result<steps::Inserted<T>, InsertManyError<T>> {
            let index = world.index_or_register::<T>();
            steps::insert_many(world.plan::<T>(index), items)
        }
        match self.hooks.of::<T>() {
            Some(type_hooks) => crate::change::hooks::insert_many(self, &type_hooks, items, store),
            None => store(self, items).map(|(added, _)| added),
        }
    }

    fn remove_many(&mut self, entities: &[Entity]) -> usize {
        fn take<T: Component>(world: &mut World, entities: &[Entity]) -> usize {
            match world.by_type.get(&TypeId::of::<T>()) {
                Some(&index) => steps::remove_many(world.plan::<T>(index), entities),
                None => 0,
            }
        }
        match self.hooks.of::<T>() {
            Some(type_hooks) => {
                crate::change::hooks::remove_many(self, &type_hooks, entities, take::<T>)
            }
            None => take::<T>(self, entities),
        }
    }

    fn clear(&mut self) {
        fn clear<T: Component>(world: &mut World) {
            if let Some(&index) = world.by_type.get(&TypeId::of::<T>()) {
                steps::clear(world.plan::<T>(index));
            }
        }
        match self.hooks.of::<T>() {
            Some(type_hooks) => crate::change::hooks::clear(self, &type_hooks, clear::<T>),
            None => clear::<T>(self),
        }
    }
}
