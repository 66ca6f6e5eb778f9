//! Owning groups: the packed prefix shared by several storages, and its maintenance.
//!
//! A group owning `A, B, …` with length `len` is the prefix `[0, len)` of each owned
//! storage: the same entities, in the same order, exactly those having every owned type.
//! Entering swaps the entity to position `len` in every owned storage and increments;
//! leaving swaps it with `len - 1` and decrements. A nested (inner) group is a prefix of
//! its outer group, which is why adding a component enters groups from the outermost to
//! the innermost and removing one leaves them from the innermost to the outermost.

use core::cmp::Ordering;

use crate::component::ComponentSet;
use crate::entity::Entity;
use crate::sparse_set::SparseSet;
use crate::storage::Storage;

/// Mutable access to a group: its entities and one slice per owned component, all of the
/// group's length and aligned (position `i` of every slice belongs to `entities()[i]`).
///
/// Values can be changed freely; the group's structure cannot change while this exists.
pub struct GroupMut<'a, G: ComponentSet> {
    entities: &'a [Entity],
    slices: G::SlicesMut<'a>,
}

impl<'a, G: ComponentSet> GroupMut<'a, G> {
    /// Bundles the aligned slices of a group. Used by worlds (and generated worlds).
    #[doc(hidden)]
    pub fn from_parts(entities: &'a [Entity], slices: G::SlicesMut<'a>) -> Self {
        GroupMut { entities, slices }
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

    /// The entities and the component slices, e.g. `(entities, (a, b))` for a group of
    /// `(A, B)`: plain slices, for loops that the compiler can vectorise.
    pub fn into_slices(self) -> (&'a [Entity], G::SlicesMut<'a>) {
        (self.entities, self.slices)
    }

    /// Calls `f` with each entity and mutable references to its components.
    pub fn for_each(self, f: impl FnMut(Entity, G::RefsMut<'_>)) {
        G::for_each_in(self.entities, self.slices, f);
    }
}

/// The owned storages of a group, as a tuple `(&mut Storage<A>, &mut Storage<B>, …)`:
/// the static test-and-enter / test-and-leave used by generated worlds.
pub trait GroupStorages {
    /// Moves `entity` into the group if it has every owned component and is not in it
    /// yet. Returns whether it entered. Outer groups must already be up to date.
    fn try_enter(self, len: &mut usize, entity: Entity) -> bool;
    /// Moves `entity` out of the group if it is in it. Returns whether it left. Inner
    /// groups must already have been left.
    fn try_leave(self, len: &mut usize, entity: Entity) -> bool;
    /// [`try_enter`](Self::try_enter) when `entity`'s position in the owned storage number
    /// `known` (its index in the tuple) is already known, as it is for the component just
    /// added. Returns the entity's position in that storage afterwards. A wrong hint is
    /// detected and looked up instead.
    fn enter_tracked(self, len: &mut usize, entity: Entity, known: usize, position: usize)
    -> usize;
    /// [`try_leave`](Self::try_leave) given `entity`'s position in the owned storage number
    /// `known`: inside a group every owned storage has the entity at the same position,
    /// so no lookup is needed. Returns the entity's position in that storage afterwards.
    fn leave_tracked(self, len: &mut usize, entity: Entity, known: usize, position: usize)
    -> usize;
}

macro_rules! group_storages {
    ($(($T:ident, $t:ident, $i:tt)),+) => {
        impl<$($T),+> GroupStorages for ($(&mut Storage<$T>,)+) {
            #[inline]
            fn try_enter(self, len: &mut usize, entity: Entity) -> bool {
                // No storage's position is known: `enter_tracked` looks every one up.
                let before = *len;
                self.enter_tracked(len, entity, usize::MAX, 0);
                *len != before
            }

            #[inline]
            fn try_leave(self, len: &mut usize, entity: Entity) -> bool {
                let ($($t,)+) = self;
                match first!($($t),+).index_of(entity) {
                    Some(position) if position < *len && $(*len <= $t.len())&&+ => {
                        // Inside the group every owned storage has the entity at `position`.
                        let last = *len - 1;
                        // SAFETY: `position < len` and `last < len`, and `len` is at most
                        // every owned storage's length (checked above).
                        unsafe {
                            $($t.swap_unchecked(position, last);)+
                        }
                        *len = last;
                        true
                    }
                    _ => false,
                }
            }

            #[inline(always)]
            fn enter_tracked(self, len: &mut usize, entity: Entity, known: usize, position: usize) -> usize {
                let ($($t,)+) = self;
                // The hinted position is trusted only after checking it holds `entity`.
                let ($(Some($t),)+) = ($({
                    let hint = ($i == known && $t.entities().get(position) == Some(&entity)).then_some(position);
                    hint.or_else(|| $t.index_of(entity)).map(|p| ($t, p))
                },)+) else {
                    return position;
                };
                let mut after = position;
                $(
                    if $i == known {
                        after = $t.1;
                    }
                )+
                if $($t.1 < *len)||+ {
                    return after;
                }
                // SAFETY: each position is below its storage's length (checked against the
                // storage's entities or found by `index_of`), and `len <= position` was
                // checked: both swapped positions are in bounds.
                unsafe {
                    $($t.0.swap_unchecked($t.1, *len);)+
                }
                *len += 1;
                *len - 1
            }

            #[inline(always)]
            fn leave_tracked(self, len: &mut usize, entity: Entity, known: usize, position: usize) -> usize {
                let ($($t,)+) = self;
                let mut holds = false;
                $(
                    if $i == known {
                        holds = $t.entities().get(position) == Some(&entity);
                    }
                )+
                if !holds {
                    // A wrong hint: fall back to the lookup.
                    let left = ($($t,)+).try_leave(len, entity);
                    return if left { *len } else { position };
                }
                if position < *len && $(*len <= $t.len())&&+ {
                    let last = *len - 1;
                    // SAFETY: `position < len`, `last < len`, and `len` is at most every owned
                    // storage's length (checked above).
                    unsafe {
                        $($t.swap_unchecked(position, last);)+
                    }
                    *len = last;
                    last
                } else {
                    position
                }
            }
        }
    };
}

for_each_tuple!(group_storages);

/// The permutation that sorts a group of length `*layer_ends.last()` layer by layer.
///
/// `layer_ends` are the lengths of the group's inner groups from the innermost out,
/// followed by the group's own length (ascending). Each layer `[end[k-1], end[k])` is
/// sorted on its own, so every inner group stays a prefix: inner groups stay valid. The
/// result is a gather permutation: position `i` receives what was at `result[i]`.
pub fn layered_sources(
    layer_ends: &[usize],
    mut compare: impl FnMut(usize, usize) -> Ordering,
) -> Vec<u32> {
    let len = layer_ends.last().copied().unwrap_or(0);
    let mut sources: Vec<u32> = (0..len as u32).collect();
    let mut start = 0;
    for &end in layer_ends {
        sources[start..end].sort_unstable_by(|&a, &b| compare(a as usize, b as usize));
        start = end;
    }
    sources
}

/// The permutation sorting a group's range layer by layer (see [`layered_sources`]).
pub fn group_sources<G: ComponentSet>(
    storages: G::Storages<'_>,
    layer_ends: &[usize],
    mut compare: impl FnMut(G::Refs<'_>, G::Refs<'_>) -> Ordering,
) -> Vec<u32> {
    let len = layer_ends.last().copied().unwrap_or(0);
    let (_, slices) = G::prefixes(storages, len);
    let slices = G::shared(&slices);
    layered_sources(layer_ends, |a, b| {
        compare(G::refs_at(&slices, a), G::refs_at(&slices, b))
    })
}

/// Permutes the prefix `[0, sources.len())` of one storage with a group-sort permutation.
/// `sources` comes from [`group_sources`], a permutation by construction, so it is not
/// validated again for every storage it is applied to (a malformed one would leave the
/// storage consistent, in some order).
pub fn apply_sources<T>(storage: &mut Storage<T>, sources: &[u32]) {
    storage.apply_gather_unchecked(&mut sources.to_vec());
}

/// Checks a group given the entity sets of its owned storages: the prefix `[0, len)`
/// holds the same entities in the same order everywhere, and no entity having every
/// owned component is left outside it.
pub fn check_group(sets: &[&SparseSet], len: usize) -> Result<(), String> {
    let Some(first) = sets.first() else {
        return Ok(());
    };
    for set in sets {
        if set.len() < len {
            return Err(format!(
                "group length {len} exceeds a storage of {} entities",
                set.len()
            ));
        }
        if set.as_slice()[..len] != first.as_slice()[..len] {
            return Err("group prefixes differ between owned storages".to_string());
        }
    }
    for &entity in &first.as_slice()[len..] {
        if sets.iter().all(|set| set.contains(entity)) {
            return Err(format!(
                "{entity:?} has every owned component but is outside the group"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(i: u32) -> Entity {
        Entity::from_raw_parts(i, 1).unwrap()
    }

    /// Storages laid out as in the article's e8/e4 example, with `<A,B>` holding e4 and
    /// e7 and `<A,B,C>` empty.
    fn article() -> (
        Storage<&'static str>,
        Storage<&'static str>,
        Storage<&'static str>,
        usize,
        usize,
    ) {
        let a = [(4, "A4"), (7, "A1"), (3, "A0"), (8, "A2"), (6, "A3")]
            .map(|(i, v)| (e(i), v))
            .into_iter()
            .collect();
        let b = [(4, "B0"), (7, "B2"), (5, "B1")]
            .map(|(i, v)| (e(i), v))
            .into_iter()
            .collect();
        let c = [(6, "C2"), (8, "C0"), (5, "C1")]
            .map(|(i, v)| (e(i), v))
            .into_iter()
            .collect();
        (a, b, c, 2, 0)
    }

    fn check(
        a: &Storage<&str>,
        b: &Storage<&str>,
        c: &Storage<&str>,
        ab: usize,
        abc: usize,
    ) -> Result<(), String> {
        check_group(&[a.set(), b.set()], ab)?;
        check_group(&[a.set(), b.set(), c.set()], abc)?;
        if abc > ab {
            return Err("inner group longer than outer".into());
        }
        Ok(())
    }

    #[test]
    fn article_example_outer_first_keeps_e4_in_ab() {
        let (mut a, mut b, mut c, mut ab, mut abc) = article();
        check(&a, &b, &c, ab, abc).unwrap();
        b.insert(e(8), "B3");
        assert!((&mut a, &mut b).try_enter(&mut ab, e(8)));
        assert!((&mut a, &mut b, &mut c).try_enter(&mut abc, e(8)));
        assert_eq!((ab, abc), (3, 1));
        assert_eq!(&a.entities()[..3], &[e(8), e(7), e(4)]);
        assert!(a.entities()[..ab].contains(&e(4)), "e4 stays in <A,B>");
        check(&a, &b, &c, ab, abc).unwrap();
    }

    #[test]
    fn article_example_inner_first_breaks_the_group() {
        let (mut a, mut b, mut c, mut ab, mut abc) = article();
        b.insert(e(8), "B3");
        // The wrong order: enter <A,B,C> first, then <A,B>.
        assert!((&mut a, &mut b, &mut c).try_enter(&mut abc, e(8)));
        (&mut a, &mut b).try_enter(&mut ab, e(8));
        assert!(!a.entities()[..ab].contains(&e(4)) || check(&a, &b, &c, ab, abc).is_err());
        assert!(
            check(&a, &b, &c, ab, abc).is_err(),
            "the checker sees the corruption"
        );
    }

    #[test]
    fn leave_inner_then_outer() {
        let (mut a, mut b, mut c, mut ab, mut abc) = article();
        b.insert(e(8), "B3");
        (&mut a, &mut b).try_enter(&mut ab, e(8));
        (&mut a, &mut b, &mut c).try_enter(&mut abc, e(8));
        assert!((&mut a, &mut b, &mut c).try_leave(&mut abc, e(8)));
        assert!((&mut a, &mut b).try_leave(&mut ab, e(8)));
        assert!(!(&mut a, &mut b).try_leave(&mut ab, e(8)), "already out");
        assert_eq!(b.remove(e(8)), Some("B3"));
        check(&a, &b, &c, ab, abc).unwrap();
        assert_eq!((ab, abc), (2, 0));
    }

    #[test]
    fn layers_sort_independently() {
        let keys = [5, 1, 9, 3, 2, 8];
        let sources = layered_sources(&[2, 6], |x, y| keys[x].cmp(&keys[y]));
        assert_eq!(sources, vec![1, 0, 4, 3, 5, 2]);
    }
}
