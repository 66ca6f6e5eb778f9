//! Access to a group: its entities, aligned slices of its owned components, and lookups of
//! its observed ones; mutable ([`GroupMut`]) or read-only ([`GroupRef`]), each with its
//! iterators.

use core::fmt;
use core::iter::FusedIterator;

use crate::component_set::ComponentSet;
use crate::component_set::sealed::Sealed as _;
use crate::entity::Entity;
use crate::group::GroupKey;
use crate::storage::SparseSet;

/// Mutable access to the group named by the key `K`: its entities and one slice per owned
/// component, all of the group's length and aligned (position `i` of every slice belongs to
/// `entities()[i]`), and its observed components by lookup.
///
/// ```text
/// entities : [e4|e8|e7]      the group's prefix of its first owned storage
/// A        : [A4|A8|A7]      &mut [A]            (owned)
/// B        : [B4|B8|B7]      &mut [B]            (owned)
/// P        : looked up       &mut P per entity   (observed, `Get<P>`)
/// ```
///
/// A non-owning group has no owned slices: its entities are its own packed set.
/// Values can be changed freely; the group's structure cannot change while this exists.
///
/// Invariant: every owned slice is exactly as long as the entities, which are distinct (a
/// storage's dense prefix, or a member set); the iterators index the slices without
/// bounds checks, and look each observed component up (checked) once per member.
/// Iterate it with `for` (by value, `&mut` or `&`), [`for_each`](GroupMut::for_each), or
/// over [`into_slices`](GroupMut::into_slices).
///
/// ```
/// use sparse_core::{Component, Get, GroupSpec, World};
/// struct Vel(f32);
/// struct Pos(f32);
/// struct Mass(f32);
/// impl Component for Vel {}
/// impl Component for Pos {}
/// impl Component for Mass {}
///
/// // `Vel` and `Pos` packed together; `Mass` required, looked up.
/// type Movers = (Vel, Pos, Get<Mass>);
/// let mut world = World::with_groups([GroupSpec::of::<Movers>()])?;
/// let a = world.spawn_with((Vel(1.0), Pos(0.0), Mass(2.0)));
/// world.spawn_with((Vel(1.0), Pos(0.0))); // no `Mass`: not a member
///
/// let mut group = world.group::<Movers>()?;
/// assert_eq!(group.len(), 1);
/// for (_, (v, p, m)) in &mut group {
///     p.0 += v.0 / m.0;
/// }
/// // The owned components as aligned slices: position `i` is `entities[i]`'s.
/// let (entities, (vels, poss)) = group.into_slices();
/// assert_eq!((entities, vels.len(), poss[0].0), (&[a][..], 1, 0.5));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct GroupMut<'a, K: GroupKey> {
    entities: &'a [Entity],
    owned: <K::Owned as ComponentSet>::SlicesMut<'a>,
    observed: <K::Observed as ComponentSet>::Columns<'a>,
    /// How to stamp the owned components changed, until they are handed out mutably
    /// (then `None`): borrowing a group stamps nothing, handing out its values does.
    /// The observed ones are stamped one by one, as they are handed out.
    unmarked: Option<<K::Owned as ComponentSet>::Marks<'a>>,
}

/// Read-only access to the group named by the key `K`: as [`GroupMut`], with shared
/// slices and references. Several can exist at once, next to any other read.
pub struct GroupRef<'a, K: GroupKey> {
    entities: &'a [Entity],
    owned: <K::Owned as ComponentSet>::Slices<'a>,
    observed: <K::Observed as ComponentSet>::ColumnsRef<'a>,
}

#[cold]
#[inline(never)]
fn missing_observed(entity: Entity) -> ! {
    panic!("group member {entity:?} lacks an observed component: the world's invariant is broken")
}

impl<'a, K: GroupKey> GroupMut<'a, K> {
    /// The group of length `len` over its owned storages (in key order) and its observed
    /// storages.
    ///
    /// # Panics
    /// Panics if an owned storage is shorter than `len`.
    pub(crate) fn new(
        owned: <K::Owned as ComponentSet>::Lent<'a>,
        len: usize,
        observed: <K::Observed as ComponentSet>::Lent<'a>,
    ) -> Self {
        let (entities, owned, marks) = K::Owned::prefixes(owned, len);
        GroupMut {
            entities,
            owned,
            observed: K::Observed::columns(observed),
            unmarked: Some(marks),
        }
    }

    /// A non-owning group over its members (`owned` is the empty tuple of storages). The
    /// owned slices are cut to the members' number all the same, so that the group's
    /// invariant (every owned slice as long as its entities) holds whatever the key.
    ///
    /// # Panics
    /// Panics if an owned storage is shorter than the member set.
    pub(crate) fn over_members(
        members: &'a SparseSet,
        owned: <K::Owned as ComponentSet>::Lent<'a>,
        observed: <K::Observed as ComponentSet>::Lent<'a>,
    ) -> Self {
        let (_, owned, marks) = K::Owned::prefixes(owned, members.len());
        GroupMut {
            entities: members.as_slice(),
            owned,
            observed: K::Observed::columns(observed),
            unmarked: Some(marks),
        }
    }

    /// Stamps the owned components changed, the first time they are handed out mutably.
    #[inline]
    fn mark_owned(&mut self) {
        if let Some(marks) = self.unmarked.take() {
            K::Owned::mark_prefixes(marks);
        }
    }

    /// The number of entities in the group.
    pub fn len(&self) -> usize {
        self.entities.len()
    }

    /// Whether the group is empty.
    pub fn is_empty(&self) -> bool {
        self.entities.is_empty()
    }

    /// The group's entities, in order.
    pub fn entities(&self) -> &'a [Entity] {
        self.entities
    }

    /// The entities and the owned component slices, e.g. `(entities, (a, b))` for a group
    /// owning `A` and `B`: plain slices, for loops that the compiler can vectorise.
    /// Observed components are reached by lookup ([`for_each`](Self::for_each)).
    pub fn into_slices(mut self) -> (&'a [Entity], <K::Owned as ComponentSet>::SlicesMut<'a>) {
        self.mark_owned();
        (self.entities, self.owned)
    }

    /// Calls `f` with each entity and mutable references to its components: the owned
    /// ones, then the observed ones as the key's `Get<…>` holds them.
    ///
    /// # Panics
    /// Panics if a member lacks an observed component, which the world's invariant rules
    /// out.
    #[inline]
    pub fn for_each(mut self, mut f: impl FnMut(Entity, K::ItemMut<'_>)) {
        self.mark_owned();
        let GroupMut {
            entities,
            owned,
            mut observed,
            ..
        } = self;
        K::Owned::for_each_in(entities, owned, |entity, owned| {
            // SAFETY: each member is visited once, so its observed components are handed
            // out once; the reference dies with this call of `f`.
            let Some(observed) = (unsafe { K::Observed::member_mut(&mut observed, entity) }) else {
                missing_observed(entity)
            };
            f(entity, K::item_mut(owned, observed));
        });
    }

    /// Calls `f` with each member and mutable references to its components, on rayon's
    /// thread pool: the group's owned slices are cut into chunks of consecutive members,
    /// each walked by one worker, so every component is reached by one worker only
    /// (feature `rayon`). Values change; the group's structure cannot.
    ///
    /// ```
    /// # use sparse_core::{Component, GroupSpec, World};
    /// # struct P(f32); impl Component for P {}
    /// # struct V(f32); impl Component for V {}
    /// let mut world = World::with_groups([GroupSpec::of::<(P, V)>()])?;
    /// let spawned = world.spawn_batch((0..10_000).map(|i| (P(i as f32), V(2.0))));
    /// world.group::<(P, V)>()?.par_for_each(|_, (p, v)| p.0 += v.0);
    /// assert_eq!(world.get::<P>(spawned[7]).unwrap().0, 9.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// If `f` panics, the panic reaches the caller once every worker has stopped; the
    /// values written so far stay, and the world stays consistent.
    #[cfg(feature = "rayon")]
    pub fn par_for_each(mut self, f: impl Fn(Entity, K::ItemMut<'_>) + Send + Sync) {
        self.mark_owned();
        let GroupMut {
            entities,
            owned,
            observed,
            ..
        } = self;
        let owned = K::Owned::raw(owned);
        crate::parallel::for_each_chunk(entities.len(), |range| {
            // The chunk as a group of its own, walked by the serial loop.
            let chunk = GroupMut::<K> {
                // SAFETY: the chunk is within the group's length, which every owned slice
                // has (cut to it by `prefixes`), and it is this worker's only.
                owned: unsafe { K::Owned::raw_range(&owned, range.start, range.len()) },
                // SAFETY: chunks are disjoint ranges of the members, which are distinct
                // entities: each worker's handles reach its own members only.
                observed: unsafe { K::Observed::share_columns(&observed) },
                entities: &entities[range],
                unmarked: None,
            };
            chunk.for_each(&f);
        });
    }

    /// Iterates over the members and their components, borrowing the group.
    pub fn iter_mut(&mut self) -> GroupIter<'_, K> {
        self.mark_owned();
        let owned = K::Owned::raw(K::Owned::reborrow_slices(&mut self.owned));
        GroupIter {
            entities: self.entities,
            owned,
            observed: K::Observed::reborrow_columns(&mut self.observed),
            position: 0,
        }
    }

    /// The group, read only, for as long as this borrow.
    pub fn as_ref(&self) -> GroupRef<'_, K> {
        GroupRef {
            entities: self.entities,
            owned: K::Owned::shared(&self.owned),
            // SAFETY: this group hands out references from its columns only to borrows of
            // itself (`iter_mut`) or by value (`for_each`, `into_iter`), so none is alive
            // while `self` is borrowed shared.
            observed: unsafe { K::Observed::shared_columns(&self.observed) },
        }
    }

    /// Iterates over the members and their components, read only.
    pub fn iter(&self) -> GroupRefIter<'_, K> {
        self.as_ref().into_iter()
    }
}

impl<'a, K: GroupKey> GroupRef<'a, K> {
    /// The group of length `len` over its owned storages (in key order) and its observed
    /// storages.
    ///
    /// # Panics
    /// Panics if an owned storage is shorter than `len`.
    pub(crate) fn new(
        owned: <K::Owned as ComponentSet>::StoragesRef<'a>,
        len: usize,
        observed: <K::Observed as ComponentSet>::StoragesRef<'a>,
    ) -> Self {
        let (entities, owned) = K::Owned::prefixes_ref(owned, len);
        GroupRef {
            entities,
            owned,
            observed: K::Observed::columns_ref(observed),
        }
    }

    /// A non-owning group over its members (`owned` is the empty tuple of storages); see
    /// [`GroupMut`]'s.
    ///
    /// # Panics
    /// Panics if an owned storage is shorter than the member set.
    pub(crate) fn over_members(
        members: &'a SparseSet,
        owned: <K::Owned as ComponentSet>::StoragesRef<'a>,
        observed: <K::Observed as ComponentSet>::StoragesRef<'a>,
    ) -> Self {
        let (_, owned) = K::Owned::prefixes_ref(owned, members.len());
        GroupRef {
            entities: members.as_slice(),
            owned,
            observed: K::Observed::columns_ref(observed),
        }
    }

    /// The number of entities in the group.
    pub fn len(&self) -> usize {
        self.entities.len()
    }

    /// Whether the group is empty.
    pub fn is_empty(&self) -> bool {
        self.entities.is_empty()
    }

    /// The group's entities, in order.
    pub fn entities(&self) -> &'a [Entity] {
        self.entities
    }

    /// The entities and the owned component slices, e.g. `(entities, (a, b))`.
    pub fn slices(&self) -> (&'a [Entity], <K::Owned as ComponentSet>::Slices<'a>) {
        (self.entities, self.owned)
    }

    /// Calls `f` with each entity and references to its components: the owned ones, then
    /// the observed ones as the key's `Get<…>` holds them.
    ///
    /// # Panics
    /// Panics if a member lacks an observed component, which the world's invariant rules
    /// out.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(Entity, K::Item<'a>)) {
        self.iter().for_each(|(entity, item)| f(entity, item));
    }

    /// Calls `f` with each member and its components, shared, on rayon's thread pool: the
    /// group's range is cut into chunks, each walked by one worker (feature `rayon`).
    ///
    /// ```
    /// # use sparse_core::{Component, GroupSpec, World};
    /// # #[derive(Debug)] struct P(f32); impl Component for P {}
    /// # #[derive(Debug)] struct V(f32); impl Component for V {}
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// let mut world = World::with_groups([GroupSpec::of::<(P, V)>()])?;
    /// world.spawn_batch((0..10_000).map(|i| (P(i as f32), V(1.0))));
    /// let fast = AtomicUsize::new(0);
    /// world.group_ref::<(P, V)>()?.par_for_each(|_, (p, _)| {
    ///     if p.0 >= 5_000.0 {
    ///         fast.fetch_add(1, Ordering::Relaxed);
    ///     }
    /// });
    /// assert_eq!(fast.into_inner(), 5_000);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Panics
    /// If `f` panics, the panic reaches the caller once every worker has stopped.
    #[cfg(feature = "rayon")]
    pub fn par_for_each(&self, f: impl Fn(Entity, K::Item<'a>) + Send + Sync) {
        let GroupRef {
            entities,
            owned,
            ref observed,
        } = *self;
        crate::parallel::for_each_chunk(entities.len(), |range| {
            // The group's iterator, from the chunk's first member to its last.
            let chunk = GroupRefIter::<K> {
                entities: &entities[..range.end],
                owned,
                observed: K::Observed::copy_columns(observed),
                position: range.start,
            };
            chunk.for_each(|(entity, item)| f(entity, item));
        });
    }

    /// Iterates over the members and their components.
    pub fn iter(&self) -> GroupRefIter<'a, K> {
        GroupRefIter {
            entities: self.entities,
            owned: self.owned,
            observed: K::Observed::copy_columns(&self.observed),
            position: 0,
        }
    }
}

impl<K: GroupKey> Clone for GroupRef<'_, K> {
    fn clone(&self) -> Self {
        GroupRef {
            entities: self.entities,
            owned: self.owned,
            observed: K::Observed::copy_columns(&self.observed),
        }
    }
}

impl<K: GroupKey> fmt::Debug for GroupMut<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GroupMut")
            .field("entities", &self.entities)
            .finish_non_exhaustive()
    }
}

impl<K: GroupKey> fmt::Debug for GroupRef<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GroupRef")
            .field("entities", &self.entities)
            .finish_non_exhaustive()
    }
}

/// An iterator over a group's members and their components, mutably: `(entity, item)`.
pub struct GroupIter<'a, K: GroupKey> {
    entities: &'a [Entity],
    owned: <K::Owned as ComponentSet>::RawSlices<'a>,
    observed: <K::Observed as ComponentSet>::Columns<'a>,
    position: usize,
}

impl<'a, K: GroupKey> Iterator for GroupIter<'a, K> {
    type Item = (Entity, K::ItemMut<'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let position = self.position;
        let &entity = self.entities.get(position)?;
        self.position = position + 1;
        // SAFETY: `position` is below the group's length, which every owned slice has
        // (cut to it by `prefixes`), and each position is handed out once.
        let owned = unsafe { K::Owned::raw_at(&self.owned, position) };
        // SAFETY: each member is visited once, so its observed components are handed out
        // once.
        let Some(observed) = (unsafe { K::Observed::member_mut(&mut self.observed, entity) })
        else {
            missing_observed(entity)
        };
        Some((entity, K::item_mut(owned, observed)))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.entities.len() - self.position;
        (left, Some(left))
    }
}

impl<K: GroupKey> ExactSizeIterator for GroupIter<'_, K> {}
impl<K: GroupKey> FusedIterator for GroupIter<'_, K> {}

/// An iterator over a group's members and their components: `(entity, item)`.
pub struct GroupRefIter<'a, K: GroupKey> {
    entities: &'a [Entity],
    owned: <K::Owned as ComponentSet>::Slices<'a>,
    observed: <K::Observed as ComponentSet>::ColumnsRef<'a>,
    position: usize,
}

impl<'a, K: GroupKey> Iterator for GroupRefIter<'a, K> {
    type Item = (Entity, K::Item<'a>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let position = self.position;
        let &entity = self.entities.get(position)?;
        self.position = position + 1;
        // SAFETY: `position` is below the group's length, which every owned slice has.
        let owned = unsafe { K::Owned::refs_at_unchecked(&self.owned, position) };
        let Some(observed) = K::Observed::member_ref(&mut self.observed, entity) else {
            missing_observed(entity)
        };
        Some((entity, K::item(owned, observed)))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.entities.len() - self.position;
        (left, Some(left))
    }
}

impl<K: GroupKey> ExactSizeIterator for GroupRefIter<'_, K> {}
impl<K: GroupKey> FusedIterator for GroupRefIter<'_, K> {}

impl<'a, K: GroupKey> IntoIterator for GroupMut<'a, K> {
    type Item = (Entity, K::ItemMut<'a>);
    type IntoIter = GroupIter<'a, K>;

    fn into_iter(mut self) -> Self::IntoIter {
        self.mark_owned();
        GroupIter {
            entities: self.entities,
            owned: K::Owned::raw(self.owned),
            observed: self.observed,
            position: 0,
        }
    }
}

impl<'b, K: GroupKey> IntoIterator for &'b mut GroupMut<'_, K> {
    type Item = (Entity, K::ItemMut<'b>);
    type IntoIter = GroupIter<'b, K>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl<'b, K: GroupKey> IntoIterator for &'b GroupMut<'_, K> {
    type Item = (Entity, K::Item<'b>);
    type IntoIter = GroupRefIter<'b, K>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, K: GroupKey> IntoIterator for GroupRef<'a, K> {
    type Item = (Entity, K::Item<'a>);
    type IntoIter = GroupRefIter<'a, K>;

    fn into_iter(self) -> Self::IntoIter {
        GroupRefIter {
            entities: self.entities,
            owned: self.owned,
            observed: self.observed,
            position: 0,
        }
    }
}

impl<'a, K: GroupKey> IntoIterator for &GroupRef<'a, K> {
    type Item = (Entity, K::Item<'a>);
    type IntoIter = GroupRefIter<'a, K>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
