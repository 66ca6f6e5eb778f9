//! Access to a group: its entities, aligned slices of its owned components, and lookups of
//! its observed ones.

use crate::component_set::ComponentSet;
use crate::component_set::sealed::Sealed as _;
use crate::entity::Entity;
use crate::group::GroupKey;

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
pub struct GroupMut<'a, K: GroupKey> {
    entities: &'a [Entity],
    owned: <K::Owned as ComponentSet>::SlicesMut<'a>,
    observed: <K::Observed as ComponentSet>::Columns<'a>,
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
        owned: <K::Owned as ComponentSet>::Storages<'a>,
        len: usize,
        observed: <K::Observed as ComponentSet>::Storages<'a>,
    ) -> Self {
        let (entities, owned) = K::Owned::prefixes(owned, len);
        GroupMut {
            entities,
            owned,
            observed: K::Observed::columns(observed),
        }
    }

    /// A non-owning group over its members (`owned` is the empty tuple of storages).
    pub(crate) fn over_members(
        members: &'a [Entity],
        owned: <K::Owned as ComponentSet>::Storages<'a>,
        observed: <K::Observed as ComponentSet>::Storages<'a>,
    ) -> Self {
        let (_, owned) = K::Owned::prefixes(owned, 0);
        GroupMut {
            entities: members,
            owned,
            observed: K::Observed::columns(observed),
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
    pub fn into_slices(self) -> (&'a [Entity], <K::Owned as ComponentSet>::SlicesMut<'a>) {
        (self.entities, self.owned)
    }

    /// Calls `f` with each entity and mutable references to its components: the owned
    /// ones, then the observed ones as the key's `Get<…>` holds them.
    ///
    /// # Panics
    /// Panics if a member lacks an observed component, which the world's invariant rules
    /// out.
    #[inline]
    pub fn for_each(self, mut f: impl FnMut(Entity, K::ItemMut<'_>)) {
        let GroupMut {
            entities,
            owned,
            mut observed,
        } = self;
        K::Owned::for_each_in(entities, owned, |entity, owned| {
            let Some(observed) = K::Observed::member_mut(&mut observed, entity) else {
                missing_observed(entity)
            };
            f(entity, K::item_mut(owned, observed));
        });
    }
}
