//! Versioned entity handles and the allocator that recycles their indices.

use core::fmt;
use core::num::NonZeroU32;
use core::sync::atomic::{AtomicIsize, Ordering};

/// A handle to an entity: an index into sparse arrays plus a version.
///
/// Invariant: a handle is *alive* in an [`Entities`] allocator only while the slot at its
/// index carries the same version. Destroying an entity bumps the slot's version, so a stale
/// handle is never taken for the entity that later reuses its index.
///
/// `Entity` is 8 bytes and, thanks to the non-zero version, so is `Option<Entity>`.
///
/// ```
/// use sparse_core::Entity;
/// assert_eq!(core::mem::size_of::<Option<Entity>>(), 8);
/// let e = Entity::from_raw_parts(7, 1).unwrap();
/// assert_eq!((e.index(), e.version()), (7, 1));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entity {
    index: u32,
    version: NonZeroU32,
}

// `as_bytes` relies on it: two `u32`s and no padding.
const _: () = assert!(size_of::<Entity>() == 2 * size_of::<u32>());

impl Entity {
    /// The handles' bytes, to compare runs of them at once: two handles are equal exactly
    /// when their bytes are.
    #[inline(always)]
    pub(crate) fn as_bytes(entities: &[Entity]) -> &[u8] {
        // SAFETY: an `Entity` is two `u32`s with no padding (asserted above), so every one
        // of its `size_of::<Entity>()` bytes is initialized; the slice covers exactly the
        // entities' memory, borrowed for as long as they are.
        unsafe {
            core::slice::from_raw_parts(entities.as_ptr().cast::<u8>(), size_of_val(entities))
        }
    }

    /// The largest index an entity may have: `u32::MAX - 1`.
    pub const MAX_INDEX: u32 = u32::MAX - 1;

    /// Builds a handle from its parts, or `None` if `version` is zero or `index` is above
    /// [`Entity::MAX_INDEX`]. Useful for tests and serialization; worlds hand out handles
    /// through `spawn`.
    pub const fn from_raw_parts(index: u32, version: u32) -> Option<Entity> {
        match NonZeroU32::new(version) {
            Some(version) if index <= Self::MAX_INDEX => Some(Entity { index, version }),
            _ => None,
        }
    }

    /// The index of this entity in sparse arrays.
    #[inline]
    pub const fn index(self) -> u32 {
        self.index
    }

    /// The same index with another version. Used by sorting, which parks positions in
    /// the version field while it runs.
    #[inline]
    pub(crate) const fn with_version(self, version: NonZeroU32) -> Entity {
        Entity {
            index: self.index,
            version,
        }
    }

    /// The version (generation) of this handle, never zero.
    #[inline]
    pub const fn version(self) -> u32 {
        self.version.get()
    }
}

impl fmt::Debug for Entity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "e{}v{}", self.index, self.version)
    }
}

/// Why an operation refused an entity handle.
///
/// ```
/// use sparse_core::{Component, EntityError, World};
/// #[derive(Debug, PartialEq)]
/// struct Pos(f32);
/// impl Component for Pos {}
/// let mut world = World::new();
/// let e = world.spawn();
/// world.destroy(e)?;
/// // A stale handle is refused, and nothing is written.
/// assert_eq!(world.insert(e, Pos(1.0)), Err(EntityError::Dead(e)));
/// assert_eq!(world.destroy(e), Err(EntityError::Dead(e)));
/// // Its index is reused with a new version, never taken for the old handle.
/// let f = world.spawn();
/// assert_eq!(f.index(), e.index());
/// assert!(world.insert(f, Pos(1.0)).is_ok() && world.get::<Pos>(e).is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntityError {
    /// The handle was never alive in this world, or its entity has been destroyed (the
    /// index may now belong to a newer entity).
    Dead(Entity),
}

impl fmt::Display for EntityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntityError::Dead(e) => write!(f, "entity {e:?} is not alive in this world"),
        }
    }
}

impl std::error::Error for EntityError {}

#[cold]
#[inline(never)]
fn exhausted() -> ! {
    panic!("entity index space exhausted")
}

#[derive(Clone, Copy)]
pub(crate) struct Slot {
    version: NonZeroU32,
    alive: bool,
}

#[cfg(feature = "serde")]
impl Slot {
    /// The slot of an index a snapshot lists with `version`, alive until the free and
    /// retired lists say otherwise. Version 0, which no handle has, reads as a dead slot,
    /// which [`Entities::from_parts`] refuses before the lists mark any slot dead.
    pub(crate) fn loaded(version: u32) -> Slot {
        Slot {
            version: NonZeroU32::new(version).unwrap_or(NonZeroU32::MIN),
            alive: version != 0,
        }
    }
}

/// Allocates entity handles, recycling the indices of destroyed entities.
///
/// Invariant: every index in the free list belongs to a dead slot; a slot whose version
/// would overflow is retired (never recycled) so that versions never repeat.
///
/// Handles can also be *reserved* through a shared reference ([`reserve`](Entities::reserve)),
/// while the world is borrowed: a reserved entity becomes alive, with no component, at the
/// allocator's next change (its world's next structural change, or applying commands).
/// Reservations take the free list from its end, then fresh indices, through one atomic
/// cursor:
///
/// ```text
/// free   : [ 7 | 2 | 9 | 4 ]     cursor = 2: 9 and 4 are reserved,
///                  ^ cursor      7 and 2 are still free for `spawn`
/// cursor < 0                     every free index and -cursor fresh ones are reserved
/// ```
///
/// ```
/// use sparse_core::Entities;
/// let mut entities = Entities::new();
/// let a = entities.spawn();
/// assert!(entities.destroy(a));
/// let b = entities.spawn();
/// assert_eq!(a.index(), b.index());
/// assert!(!entities.is_alive(a) && entities.is_alive(b));
///
/// let c = entities.reserve(); // through `&self`
/// assert!(!entities.is_alive(c));
/// entities.flush();
/// assert!(entities.is_alive(c));
/// ```
#[derive(Default)]
pub struct Entities {
    slots: Vec<Slot>,
    free: Vec<u32>,
    alive: usize,
    /// The number of free-list entries not reserved; negative: fresh indices reserved.
    cursor: AtomicIsize,
}

impl Clone for Entities {
    fn clone(&self) -> Self {
        Entities {
            slots: self.slots.clone(),
            free: self.free.clone(),
            alive: self.alive,
            cursor: AtomicIsize::new(self.cursor.load(Ordering::Relaxed)),
        }
    }
}

impl Entities {
    /// An allocator with no entity.
    pub fn new() -> Self {
        Self::default()
    }

    /// Creates an entity, reusing the index of a destroyed one when there is one.
    ///
    /// # Panics
    /// Panics if all `u32::MAX` indices are in use (or retired).
    #[inline]
    pub fn spawn(&mut self) -> Entity {
        self.flush();
        if let Some(index) = self.free.pop() {
            *self.cursor.get_mut() -= 1;
            self.alive += 1;
            let slot = &mut self.slots[index as usize];
            slot.alive = true;
            return Entity {
                index,
                version: slot.version,
            };
        }
        let index = self.slots.len();
        if index > Entity::MAX_INDEX as usize {
            exhausted();
        }
        let index = index as u32;
        self.alive += 1;
        let version = NonZeroU32::MIN;
        self.slots.push(Slot {
            version,
            alive: true,
        });
        Entity { index, version }
    }

    /// Reserves an entity through a shared reference: the handle is final, and the
    /// entity becomes alive (with no component) at the allocator's next change, or
    /// [`flush`](Entities::flush). Safe to call from several threads at once.
    ///
    /// # Panics
    /// Panics if all `u32::MAX` indices are in use (or retired).
    pub fn reserve(&self) -> Entity {
        let left = self.cursor.fetch_sub(1, Ordering::Relaxed);
        if left > 0 {
            let index = self.free[left as usize - 1];
            return Entity {
                index,
                version: self.slots[index as usize].version,
            };
        }
        let index = self.slots.len() + left.unsigned_abs();
        if index > Entity::MAX_INDEX as usize {
            exhausted();
        }
        Entity {
            index: index as u32,
            version: NonZeroU32::MIN,
        }
    }

    /// Makes every reserved entity alive. Every other change calls it first.
    #[inline]
    pub fn flush(&mut self) {
        let free = self.free.len() as isize;
        if *self.cursor.get_mut() != free {
            self.flush_reserved();
        }
    }

    #[cold]
    #[inline(never)]
    fn flush_reserved(&mut self) {
        let cursor = *self.cursor.get_mut();
        let kept = usize::try_from(cursor).unwrap_or(0).min(self.free.len());
        for index in self.free.drain(kept..) {
            self.slots[index as usize].alive = true;
            self.alive += 1;
        }
        for _ in 0..cursor.min(0).unsigned_abs() {
            self.slots.push(Slot {
                version: NonZeroU32::MIN,
                alive: true,
            });
            self.alive += 1;
        }
        *self.cursor.get_mut() = self.free.len() as isize;
    }

    /// Whether `entity` is alive once reservations are flushed (flushing them if it is
    /// reserved): what a world checks before writing a component for a handle.
    #[inline]
    pub fn flush_is_alive(&mut self, entity: Entity) -> bool {
        self.is_alive(entity) || self.flush_then_is_alive(entity)
    }

    /// [`flush_is_alive`](Entities::flush_is_alive) for an entity not alive before the
    /// flush: out of line, so that the common case inlines into every write.
    #[cold]
    #[inline(never)]
    fn flush_then_is_alive(&mut self, entity: Entity) -> bool {
        self.flush();
        self.is_alive(entity)
    }

    /// Whether `entity` is alive: spawned and not destroyed since.
    #[inline]
    pub fn is_alive(&self, entity: Entity) -> bool {
        self.slots
            .get(entity.index as usize)
            .is_some_and(|slot| slot.alive && slot.version == entity.version)
    }

    /// The alive entity of `index`, if there is one (what a snapshot's entity index
    /// names).
    #[cfg(feature = "serde")]
    #[inline]
    pub(crate) fn alive_at(&self, index: u32) -> Option<Entity> {
        self.slots
            .get(index as usize)
            .filter(|slot| slot.alive)
            .map(|slot| Entity {
                index,
                version: slot.version,
            })
    }

    /// Destroys `entity`, returning `false` (and doing nothing) if it was not alive.
    pub fn destroy(&mut self, entity: Entity) -> bool {
        self.flush();
        if !self.is_alive(entity) {
            return false;
        }
        self.alive -= 1;
        let slot = &mut self.slots[entity.index as usize];
        slot.alive = false;
        // An index whose version would overflow is retired: reusing it would repeat a version.
        if let Some(next) = slot.version.checked_add(1) {
            slot.version = next;
            self.free.push(entity.index);
            *self.cursor.get_mut() += 1;
        }
        true
    }

    /// One past the largest index ever handed out (by `spawn`; reserved ones excluded).
    pub fn index_bound(&self) -> usize {
        self.slots.len()
    }

    /// Whether no entity was ever spawned or reserved: what a snapshot loads into (a
    /// handle reserved before a load would name one of the loaded entities).
    pub fn is_unused(&self) -> bool {
        self.slots.is_empty() && self.cursor.load(Ordering::Relaxed) == 0
    }

    /// The number of alive entities.
    pub fn len(&self) -> usize {
        self.alive
    }

    /// Whether no entity is alive.
    pub fn is_empty(&self) -> bool {
        self.alive == 0
    }

    /// Iterates over the alive entities in index order.
    pub fn iter(&self) -> impl Iterator<Item = Entity> + '_ {
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.alive)
            .map(|(i, s)| Entity {
                index: i as u32,
                version: s.version,
            })
    }

    /// Reserves room for `additional` more entities.
    pub fn reserve_capacity(&mut self, additional: usize) {
        self.flush();
        self.slots
            .reserve(additional.saturating_sub(self.free.len()));
    }
}

/// An allocator as a snapshot holds it (see the `serde` feature): the version of every
/// index ever handed out, the free list in the order `spawn` takes it from (last first),
/// and the retired indices (whose version would overflow). Every other index is alive.
/// Borrowed from the allocator: a save writes its versions from the slots.
#[cfg(feature = "serde")]
#[derive(serde::Serialize)]
#[serde(rename = "Entities")]
pub(crate) struct EntitiesParts<'a> {
    versions: Versions<'a>,
    free: &'a [u32],
    retired: Vec<u32>,
}

/// The versions of `slots`, then version 1 for each of `reserved` indices past them.
#[cfg(feature = "serde")]
struct Versions<'a> {
    slots: &'a [Slot],
    reserved: usize,
}

#[cfg(feature = "serde")]
impl serde::Serialize for Versions<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let versions = self.slots.iter().map(|slot| slot.version.get());
        serializer.collect_seq(versions.chain(core::iter::repeat_n(1, self.reserved)))
    }
}

#[cfg(feature = "serde")]
impl Entities {
    /// The allocator's parts, reserved entities counted as alive (as the next change would
    /// make them).
    pub(crate) fn to_parts(&self) -> EntitiesParts<'_> {
        let cursor = self.cursor.load(Ordering::Relaxed);
        let kept = usize::try_from(cursor).unwrap_or(0).min(self.free.len());
        // A dead slot is free (reserved or not) or retired: with none (`alive` counts the
        // alive slots), nothing is.
        let retired = if self.alive == self.slots.len() {
            Vec::new()
        } else {
            let mut in_free = vec![false; self.slots.len()];
            for &index in &self.free {
                in_free[index as usize] = true;
            }
            (0..self.slots.len())
                .filter(|&i| !self.slots[i].alive && !in_free[i])
                .map(|i| i as u32)
                .collect()
        };
        EntitiesParts {
            versions: Versions {
                slots: &self.slots,
                reserved: cursor.min(0).unsigned_abs(),
            },
            free: &self.free[..kept],
            retired,
        }
    }

    /// An allocator from its parts as a snapshot reads them: each index's slot as
    /// [`Slot::loaded`] made it from its version, the free list and the retired indices.
    ///
    /// # Errors
    /// What is inconsistent: a zero version, more indices than an `Entity` can have, a
    /// free or retired index out of range or listed twice, a retired index whose version
    /// could still grow.
    pub(crate) fn from_parts(
        mut slots: Vec<Slot>,
        free: Vec<u32>,
        retired: Vec<u32>,
    ) -> Result<Entities, String> {
        let handed_out = slots.len();
        if handed_out > Entity::MAX_INDEX as usize + 1 {
            return Err(format!(
                "{handed_out} entity indices, more than an entity can have"
            ));
        }
        // Every loaded slot is alive but those of version 0.
        if let Some(index) = slots.iter().position(|slot| !slot.alive) {
            return Err(format!("entity index {index} has version 0"));
        }
        for (&index, list) in free
            .iter()
            .map(|i| (i, "free"))
            .chain(retired.iter().map(|i| (i, "retired")))
        {
            let Some(slot) = slots.get_mut(index as usize) else {
                return Err(format!(
                    "{list} entity index {index} was never handed out ({handed_out} were)"
                ));
            };
            if !slot.alive {
                return Err(format!(
                    "entity index {index} is listed twice as free or retired"
                ));
            }
            slot.alive = false;
            if list == "retired" && slot.version != NonZeroU32::MAX {
                return Err(format!(
                    "retired entity index {index} has version {}, which could still grow",
                    slot.version
                ));
            }
        }
        Ok(Entities {
            alive: slots.len() - free.len() - retired.len(),
            slots,
            cursor: AtomicIsize::new(free.len() as isize),
            free,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_are_eight_bytes() {
        assert_eq!(size_of::<Entity>(), 8);
        assert_eq!(size_of::<Option<Entity>>(), 8);
    }

    #[test]
    fn raw_parts_reject_zero_version_and_max_index() {
        assert!(Entity::from_raw_parts(0, 0).is_none());
        assert!(Entity::from_raw_parts(u32::MAX, 1).is_none());
        assert!(Entity::from_raw_parts(Entity::MAX_INDEX, 1).is_some());
    }

    #[test]
    fn recycled_index_gets_new_version() {
        let mut entities = Entities::new();
        let a = entities.spawn();
        let b = entities.spawn();
        assert!(entities.destroy(a));
        assert!(!entities.destroy(a), "double destroy is refused");
        let c = entities.spawn();
        assert_eq!(c.index(), a.index());
        assert_ne!(c.version(), a.version());
        assert!(!entities.is_alive(a));
        assert!(entities.is_alive(b) && entities.is_alive(c));
        assert_eq!(entities.len(), 2);
        assert_eq!(entities.iter().collect::<Vec<_>>(), vec![c, b]);
    }

    #[test]
    fn reserved_entities_come_alive_at_the_next_change() {
        let mut entities = Entities::new();
        let [a, b, c] = [(); 3].map(|()| entities.spawn());
        assert!(entities.destroy(a) && entities.destroy(b));
        let reserved = [(); 4].map(|()| entities.reserve());
        // The free list is taken from its end (b, then a), then fresh indices.
        assert_eq!(reserved.map(|e| e.index()), [b.index(), a.index(), 3, 4]);
        assert!(reserved.iter().all(|&e| !entities.is_alive(e)));
        assert_eq!(entities.len(), 1);
        let d = entities.spawn(); // flushes first: no reserved index is handed out twice
        assert!(reserved.iter().all(|&e| entities.is_alive(e)));
        assert!(!reserved.contains(&d) && entities.is_alive(c));
        assert_eq!(entities.len(), 6);
        assert!(
            !entities.is_alive(a) && !entities.is_alive(b),
            "old versions stay dead"
        );
    }

    #[test]
    fn destroying_an_alive_entity_flushes_reservations() {
        let mut entities = Entities::new();
        let a = entities.spawn();
        let reserved = entities.reserve();
        assert!(entities.destroy(a), "a change of the allocator");
        assert!(entities.is_alive(reserved));
        assert_eq!(entities.len(), 1);
    }

    #[test]
    fn flushing_without_reservations_changes_nothing() {
        let mut entities = Entities::new();
        let a = entities.spawn();
        entities.flush();
        assert_eq!(entities.len(), 1);
        assert!(entities.destroy(a));
        entities.flush();
        assert_eq!(entities.len(), 0);
        assert_eq!(entities.spawn().index(), a.index());
    }

    #[test]
    fn foreign_handles_are_dead() {
        let entities = Entities::new();
        assert!(!entities.is_alive(Entity::from_raw_parts(3, 1).unwrap()));
    }

    #[test]
    fn exhausted_versions_retire_the_index() {
        let mut entities = Entities::new();
        let a = entities.spawn();
        entities.slots[0].version = NonZeroU32::MAX;
        let a_max = Entity {
            index: a.index,
            version: NonZeroU32::MAX,
        };
        assert!(entities.destroy(a_max));
        let b = entities.spawn();
        assert_ne!(b.index(), a.index(), "a retired index is never reused");
    }
}
