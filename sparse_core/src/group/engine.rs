//! Test-and-enter and test-and-leave: the two moves of group maintenance, written once for
//! both kinds of world, and the check of a group's invariant.
//!
//! A group owning `A, B` with length `len` is the prefix `[0, len)` of each owned storage:
//! the same entities, in the same order, exactly those having every owned type.
//!
//! ```text
//! A entities : [e4|e7|e3|e8|e6]        entering e8: swap it to position len (2) in
//! B entities : [e4|e7|e8|e5]           every owned storage, then len = 3;
//!   <A,B> ________^ len = 2            leaving e7: swap it with len - 1, then len -= 1
//! ```
//!
//! A nested (inner) group is a prefix of its outer group, so a move of the inner group
//! swaps two positions inside the outer group and never pushes one of its members out:
//! that is why adding a component enters outer groups before inner ones, and removing one
//! leaves inner groups before outer ones (the callers' plans, see `Layout`).

use crate::entity::Entity;
use crate::storage::{Marks, SparseSet, Storage};

/// Where the moving entity probably is, so that it need not be looked up: the position of
/// the component just added (or about to be removed) in its storage, or the position the
/// previous step left the entity at in the storages of a group nested with this one. A
/// hint is only ever trusted after checking that the storage holds the entity there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionHint {
    /// The storage's index among the group's owned storages; [`NOWHERE`] or [`ANYWHERE`].
    slot: usize,
    /// The entity's (claimed) position.
    position: usize,
}

/// A hint for no storage.
const NOWHERE: usize = usize::MAX;
/// A hint for every owned storage.
const ANYWHERE: usize = usize::MAX - 1;

impl PositionHint {
    /// No storage of the group knows the entity's position.
    pub const NONE: PositionHint = PositionHint {
        slot: NOWHERE,
        position: usize::MAX,
    };

    /// The entity is (claimed to be) at `position` in the owned storage number `slot`.
    #[inline(always)]
    pub fn at(slot: usize, position: usize) -> PositionHint {
        PositionHint { slot, position }
    }

    /// The entity is (claimed to be) at `position` in each owned storage: after a step
    /// that moved it in a group nested with this one, in the storages both own.
    #[inline(always)]
    pub fn anywhere(position: usize) -> PositionHint {
        PositionHint {
            slot: ANYWHERE,
            position,
        }
    }

    /// Whether the hint is for owned storage number `slot`.
    #[inline(always)]
    fn covers(self, slot: usize) -> bool {
        self.slot == slot || self.slot == ANYWHERE
    }

    /// The storage whose position the moves report: the hinted one, or the first.
    #[inline(always)]
    fn tracked(self) -> usize {
        if self.slot == ANYWHERE { 0 } else { self.slot }
    }

    /// The claimed position.
    pub(crate) fn position(self) -> usize {
        self.position
    }
}

/// Keeps [`OwnedStorages`] to this crate: its implementations decide which positions
/// the engine swaps without bounds checks.
pub(crate) mod sealed {
    pub trait Sealed {}
}

/// The storages a group owns, as the engine sees them: implemented for tuples
/// `(&mut Storage<A>, &mut Storage<B>, …)`, a generated world's fields or a run-time
/// world's storages picked by index and typed (by the group's owned types, chosen when
/// the group is declared). Sealed.
pub trait OwnedStorages: sealed::Sealed {
    /// The entity's position in every owned storage.
    type Positions;
    /// The entity's position in every owned storage, if it is in all of them. The hinted
    /// storage is trusted only after checking that it holds the entity there.
    fn find(&self, entity: Entity, hint: PositionHint) -> Option<Self::Positions>;
    /// Whether a position is below `len` (the entity is in the group, or the group is
    /// broken): then it must not move.
    fn any_below(positions: &Self::Positions, len: usize) -> bool;
    /// The position in storage number `slot`.
    fn slot_position(positions: &Self::Positions, slot: usize) -> Option<usize>;
    /// The position of a member: the hinted one if it holds the entity, else looked up in
    /// the first owned storage.
    fn locate(&self, entity: Entity, hint: PositionHint) -> Option<usize>;
    /// The length of the shortest owned storage, counting the positions that hold both
    /// an entity and its component (what unchecked moves may reach).
    fn min_len(&self) -> usize;
    /// Whether every owned storage holds the same entity at `position` (which is below
    /// every storage's length).
    fn aligned_at(&self, position: usize) -> bool;
    /// Swaps each storage's entry at its own position with its entry at `target`.
    ///
    /// # Safety
    /// Every position of `positions` and `target` are below their storage's length.
    unsafe fn gather_to(&mut self, positions: &Self::Positions, target: usize);
    /// Swaps `a` and `b` in every owned storage.
    ///
    /// # Safety
    /// `a` and `b` are below every owned storage's length.
    unsafe fn swap_aligned(&mut self, a: usize, b: usize);
    /// The length of the longest prefix of `entities` that every owned storage holds from
    /// `position` on, in order.
    /// Storages whose bit is set in `skip` are not compared.
    fn run_at(&self, position: usize, entities: &[Entity], skip: u32) -> usize;
    /// The first owned storage's entities.
    fn first_entities(&self) -> &[Entity];
    /// Rearranges the prefix `[0, sources.len())` of every owned storage: position `i`
    /// receives what was at `sources[i]` (a permutation).
    fn permute_prefix(&mut self, sources: &[u32]);
}

/// Owned storages of a group that an outer group keeps aligned with another of them:
/// within the outer group's range (`[0, within)`), the storages of the slots in `skip` hold
/// the entities the group's other storage owned by the outer group holds, position by
/// position. A run of entities found in that one storage, inside the range, is found in
/// them too, so bulk entering compares it alone (see
/// [`Layout::aligned_with_outer`](crate::Layout::aligned_with_outer)).
///
/// ```text
/// outer <A,B,C>: A [e1|e2|e3|e4|e5]    within = 4: A, B and C agree on [0, 4)
///                B [e1|e2|e3|e4|e7]
///                C [e1|e2|e3|e4|e9]
/// inner <A,B,C,D> (len 2), entering e3, e4: compare A[2..4] and D only (skip B and C)
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aligned {
    skip: u32,
    within: usize,
}

impl Aligned {
    /// Nothing known: every owned storage is compared.
    pub const NONE: Aligned = Aligned {
        skip: 0,
        within: usize::MAX,
    };

    /// The storages of `skip` (a bit per slot) are aligned with another owned one in
    /// `[0, within)`, the range of the outer group owning them all. The caller keeps one
    /// storage the outer group owns out of `skip`.
    #[inline(always)]
    pub fn within(within: usize, skip: u32) -> Aligned {
        Aligned { skip, within }
    }

    /// A mask of `slots`.
    pub fn mask(slots: &[usize]) -> u32 {
        slots.iter().fold(0, |mask, &slot| mask | 1 << slot)
    }
}

/// Moves `entity` into the group of length `*len` if it completes it: it has every owned
/// component (looked up in `owned`, except where `hint` holds), passes `filter`, and is not
/// a member yet. Groups it is nested in must be up to date.
///
/// Returns the entity's position afterwards in the hinted storage (the first owned one for
/// [`PositionHint::anywhere`]): after it entered, its position in every owned storage. Meaningless
/// for [`PositionHint::NONE`].
#[inline(always)]
pub fn enter<O: OwnedStorages>(
    mut owned: O,
    len: &mut usize,
    entity: Entity,
    hint: PositionHint,
    filter: impl FnOnce() -> bool,
) -> usize {
    let Some(positions) = owned.find(entity, hint) else {
        return hint.position;
    };
    let at = O::slot_position(&positions, hint.tracked()).unwrap_or(hint.position);
    if O::any_below(&positions, *len) || !filter() {
        return at;
    }
    debug_assert!(
        *len == 0 || owned.aligned_at(*len - 1),
        "the group's prefix is aligned"
    );
    // SAFETY: `find` returns positions that are in bounds of their storages, and each is at
    // least `len` (checked above), so `len` is in bounds of every owned storage as well.
    unsafe { owned.gather_to(&positions, *len) };
    *len += 1;
    debug_assert!(owned.aligned_at(*len - 1), "the entity entered everywhere");
    if O::slot_position(&positions, hint.tracked()).is_some() {
        *len - 1
    } else {
        at
    }
}

/// Moves `entity` out of the group of length `*len` if it is a member. Groups nested in
/// it must have been left already.
///
/// Returns the entity's position afterwards in the hinted storage (or the first owned
/// one): after it left, its position in every owned storage.
#[inline(always)]
pub fn leave<O: OwnedStorages>(
    mut owned: O,
    len: &mut usize,
    entity: Entity,
    hint: PositionHint,
) -> usize {
    let Some(position) = owned.locate(entity, hint) else {
        return hint.position;
    };
    if position >= *len || *len > owned.min_len() {
        return position;
    }
    let last = *len - 1;
    debug_assert!(owned.aligned_at(position), "a member is aligned");
    debug_assert!(owned.aligned_at(last), "the group's prefix is aligned");
    // SAFETY: `position < len` and `last < len`, and `len` is at most every owned
    // storage's length (checked above).
    unsafe { owned.swap_aligned(position, last) };
    *len = last;
    last
}

/// Test-and-enters each of `entities` (whose groups nested with this one are up to date)
/// in order, as [`enter`] would one by one (`filter(i, entity)` tests `entities[i]`).
/// Entities found where they would go — a run of them at the group's end in every owned
/// storage, as when they enter in the order of an outer group or of their appending —
/// enter with neither a move nor a lookup: the run is found by comparing slices.
///
/// `aligned` names the owned storages an outer group keeps in step with another owned one
/// (see [`Aligned`]): those are not compared. Once an owned storage holds nothing past the
/// group, no entity can enter and the rest is skipped without a lookup (appending a
/// storage whose partners in the group are still empty, as a snapshot load does first).
#[inline(always)]
pub fn enter_each<O: OwnedStorages>(
    mut owned: O,
    len: &mut usize,
    entities: &[Entity],
    aligned: Aligned,
    mut filter: impl FnMut(usize, Entity) -> bool,
) {
    let mut i = 0;
    // A non-member sits past the group in every owned storage: none can enter once one
    // of them has no position there holding an entity and its component. Entering only
    // swaps, so the storages keep their lengths through the loop.
    let filed = owned.min_len();
    while i < entities.len() && *len < filed {
        let rest = &entities[i..];
        let candidates = &rest[..rest.len().min(aligned.within.saturating_sub(*len))];
        let run = owned.run_at(*len, candidates, aligned.skip);
        let admitted = (0..run)
            .position(|j| !filter(i + j, entities[i + j]))
            .unwrap_or(run);
        *len += admitted;
        i += admitted;
        if let Some(&entity) = entities.get(i) {
            enter(&mut owned, len, entity, PositionHint::NONE, || {
                filter(i, entity)
            });
            i += 1;
        }
    }
}

/// Moves each of the `count` `entities` (marked in `marks`) out of the group of length
/// `*len`, if a member: one swap each when they are few next to the group, else every
/// marked member at once by a stable partition. Groups nested in it must have been left
/// already.
#[inline(always)]
pub fn leave_many<O: OwnedStorages>(
    mut owned: O,
    len: &mut usize,
    count: usize,
    entities: impl IntoIterator<Item = Entity>,
    marks: &Marks,
) {
    if count.saturating_mul(8) < *len {
        for entity in entities {
            leave(&mut owned, len, entity, PositionHint::NONE);
        }
    } else {
        leave_marked(owned, len, marks);
    }
}

/// Moves every marked member out of the group of length `*len` at once: the prefix is
/// split, stably, into the members that stay and those that leave, in every owned
/// storage, and the group shrinks to the first part. Groups nested in it must have been
/// left already (their members, none marked, stay in front). Nothing moves when the
/// leavers already follow the others (when every member leaves, for one).
fn leave_marked<O: OwnedStorages>(mut owned: O, len: &mut usize, marks: &Marks) {
    let members = &owned.first_entities()[..(*len).min(owned.min_len())];
    let stay = members
        .iter()
        .position(|&e| marks.contains(e))
        .unwrap_or(members.len());
    let Some(moves) = members[stay..].iter().position(|&e| !marks.contains(e)) else {
        *len = stay; // every member from `stay` on leaves: already in place
        return;
    };
    let first_move = stay + moves;
    let mut sources: Vec<u32> = (0..stay as u32).collect();
    sources.reserve(members.len() - stay);
    let later = members[first_move..].iter().enumerate();
    sources.extend(
        later
            .clone()
            .filter(|(_, e)| !marks.contains(**e))
            .map(|(i, _)| (first_move + i) as u32),
    );
    let kept = sources.len();
    sources.extend((stay..first_move).map(|p| p as u32));
    sources.extend(
        later
            .filter(|(_, e)| marks.contains(**e))
            .map(|(i, _)| (first_move + i) as u32),
    );
    owned.permute_prefix(&sources);
    *len = kept;
}

/// The length of the common prefix of `a` and `b`, compared a block of bytes at a time.
#[inline]
pub(crate) fn common_prefix(a: &[Entity], b: &[Entity]) -> usize {
    const BLOCK: usize = 32;
    /// Compared one by one first: a short prefix is found without a block compare.
    const FIRST: usize = 16;
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let first = n.min(FIRST);
    let same = a[..first]
        .iter()
        .zip(&b[..first])
        .take_while(|(x, y)| x == y)
        .count();
    if same < FIRST {
        return same;
    }
    let mut start = FIRST;
    while start + BLOCK <= n
        && Entity::as_bytes(&a[start..start + BLOCK]) == Entity::as_bytes(&b[start..start + BLOCK])
    {
        start += BLOCK;
    }
    start
        + a[start..]
            .iter()
            .zip(&b[start..])
            .take_while(|(x, y)| x == y)
            .count()
}

/// The type of a position, once per owned storage.
macro_rules! position_of {
    ($T:ident) => {
        usize
    };
}

macro_rules! owned_storages {
    ($(($T:ident, $t:ident, $i:tt)),+) => {
        impl<$($T),+> sealed::Sealed for ($(&mut Storage<$T>,)+) {}

        impl<$($T),+> OwnedStorages for ($(&mut Storage<$T>,)+) {
            type Positions = ($(position_of!($T),)+);

            #[inline(always)]
            fn find(&self, entity: Entity, hint: PositionHint) -> Option<Self::Positions> {
                Some(($({
                    let storage = &self.$i;
                    if hint.covers($i) && storage.entities().get(hint.position) == Some(&entity) {
                        hint.position
                    } else {
                        storage.index_of(entity)?
                    }
                },)+))
            }

            #[inline(always)]
            fn any_below(positions: &Self::Positions, len: usize) -> bool {
                $(positions.$i < len)||+
            }

            #[inline(always)]
            fn slot_position(positions: &Self::Positions, slot: usize) -> Option<usize> {
                $(
                    if slot == $i {
                        return Some(positions.$i);
                    }
                )+
                None
            }

            #[inline(always)]
            fn locate(&self, entity: Entity, hint: PositionHint) -> Option<usize> {
                $(
                    if hint.covers($i) && self.$i.entities().get(hint.position) == Some(&entity) {
                        return Some(hint.position);
                    }
                )+
                self.0.index_of(entity)
            }

            #[inline(always)]
            fn min_len(&self) -> usize {
                let mut min = usize::MAX;
                // Positions holding an entity and its component: a storage with pending
                // rows (which only a hand-made world can leave behind) has more
                // components than entities.
                $(min = min.min(self.$i.filed_len());)+
                min
            }

            fn aligned_at(&self, position: usize) -> bool {
                let entity = self.0.entities()[position];
                $(self.$i.entities()[position] == entity)&&+
            }

            #[inline(always)]
            unsafe fn gather_to(&mut self, positions: &Self::Positions, target: usize) {
                // SAFETY: forwarded from the caller: every position and `target` are in
                // bounds of their storage.
                unsafe {
                    $(self.$i.swap_unchecked(positions.$i, target);)+
                }
            }

            #[inline(always)]
            unsafe fn swap_aligned(&mut self, a: usize, b: usize) {
                // SAFETY: forwarded from the caller: `a` and `b` are in bounds of every
                // owned storage.
                unsafe {
                    $(self.$i.swap_unchecked(a, b);)+
                }
            }

            #[inline(always)]
            fn run_at(&self, position: usize, entities: &[Entity], skip: u32) -> usize {
                let mut run = entities.len();
                $(if skip >> $i & 1 == 0 {
                    run = common_prefix(self.$i.entities().get(position..).unwrap_or(&[]), &entities[..run]);
                })+
                run
            }

            #[inline]
            fn first_entities(&self) -> &[Entity] {
                self.0.entities()
            }

            fn permute_prefix(&mut self, sources: &[u32]) {
                $(crate::group::apply_sources(self.$i, sources);)+
            }
        }
    };
}

for_each_tuple!(owned_storages);

impl<O: OwnedStorages> sealed::Sealed for &mut O {}

/// The same storages, reborrowed: what the bulk moves hand to the one-entity moves.
impl<O: OwnedStorages> OwnedStorages for &mut O {
    type Positions = O::Positions;

    #[inline(always)]
    fn find(&self, entity: Entity, hint: PositionHint) -> Option<Self::Positions> {
        (**self).find(entity, hint)
    }

    #[inline(always)]
    fn any_below(positions: &Self::Positions, len: usize) -> bool {
        O::any_below(positions, len)
    }

    #[inline(always)]
    fn slot_position(positions: &Self::Positions, slot: usize) -> Option<usize> {
        O::slot_position(positions, slot)
    }

    #[inline(always)]
    fn locate(&self, entity: Entity, hint: PositionHint) -> Option<usize> {
        (**self).locate(entity, hint)
    }

    #[inline(always)]
    fn min_len(&self) -> usize {
        (**self).min_len()
    }

    fn aligned_at(&self, position: usize) -> bool {
        (**self).aligned_at(position)
    }

    #[inline(always)]
    unsafe fn gather_to(&mut self, positions: &Self::Positions, target: usize) {
        // SAFETY: forwarded from the caller.
        unsafe { (**self).gather_to(positions, target) }
    }

    #[inline(always)]
    unsafe fn swap_aligned(&mut self, a: usize, b: usize) {
        // SAFETY: forwarded from the caller.
        unsafe { (**self).swap_aligned(a, b) }
    }

    #[inline(always)]
    fn run_at(&self, position: usize, entities: &[Entity], skip: u32) -> usize {
        (**self).run_at(position, entities, skip)
    }

    fn first_entities(&self) -> &[Entity] {
        (**self).first_entities()
    }

    fn permute_prefix(&mut self, sources: &[u32]) {
        (**self).permute_prefix(sources);
    }
}

/// Moves `entity` into a non-owning group's member set if it passes `filter` (every
/// observed type present, every excluded one absent) and is not a member yet.
#[inline(always)]
pub fn enter_set(members: &mut SparseSet, entity: Entity, filter: impl FnOnce() -> bool) {
    if !members.contains(entity) && filter() {
        members.insert(entity);
    }
}

/// Moves `entity` out of a non-owning group's member set, if it is a member.
#[inline(always)]
pub fn leave_set(members: &mut SparseSet, entity: Entity) {
    members.remove(entity);
}

/// A group as the invariant check sees it.
pub struct GroupInfo<'a> {
    /// How the group is displayed in messages, e.g. `<A, B, get(C)>`.
    pub name: &'a str,
    /// The entity sets of its owned storages (none for a non-owning group).
    pub owned: &'a [&'a SparseSet],
    /// The entity sets of its observed storages.
    pub observed: &'a [&'a SparseSet],
    /// The entity sets of its excluded storages.
    pub excluded: &'a [&'a SparseSet],
    /// Its length (the number of members).
    pub len: usize,
    /// Its member set, for a non-owning group.
    pub members: Option<&'a SparseSet>,
}

impl GroupInfo<'_> {
    /// Whether `entity` passes the filter: every owned and observed type, no excluded one.
    fn matches(&self, entity: Entity) -> bool {
        self.owned
            .iter()
            .chain(self.observed)
            .all(|s| s.contains(entity))
            && !self.excluded.iter().any(|s| s.contains(entity))
    }
}

/// Checks a group: its members are exactly the entities passing its filter; an owning
/// group keeps them as the prefix `[0, len)` of every owned storage, the same entities in
/// the same order; a non-owning group keeps them in its member set.
///
/// # Errors
/// A description of the first broken invariant.
pub fn check_group(group: &GroupInfo<'_>) -> Result<(), String> {
    let candidates: &[Entity] = match (group.owned.first(), group.members) {
        (Some(first), _) => {
            for set in group.owned {
                if set.len() < group.len {
                    return Err(format!(
                        "group length {} exceeds a storage of {} entities",
                        group.len,
                        set.len()
                    ));
                }
                if set.as_slice()[..group.len] != first.as_slice()[..group.len] {
                    return Err("group prefixes differ between owned storages".to_string());
                }
            }
            first.as_slice()
        }
        (None, Some(members)) => {
            members.check()?;
            if members.len() != group.len {
                return Err(format!(
                    "{} members but length {}",
                    members.len(),
                    group.len
                ));
            }
            if let Some(&outsider) = members.iter().find(|&&e| !group.matches(e)) {
                return Err(format!(
                    "{outsider:?} is a member but does not pass the group's filter"
                ));
            }
            group
                .observed
                .iter()
                .min_by_key(|s| s.len())
                .map_or(&[][..], |s| s.as_slice())
        }
        (None, None) => return Err("a non-owning group without a member set".to_string()),
    };
    let (inside, outside) = match group.members {
        Some(_) => (&[][..], candidates),
        None => candidates.split_at(group.len),
    };
    if let Some(&outsider) = inside.iter().find(|&&e| !group.matches(e)) {
        return Err(format!(
            "{outsider:?} is in the group but does not pass its filter"
        ));
    }
    let members = group.members;
    if let Some(&missing) = outside
        .iter()
        .find(|&&e| group.matches(e) && members.is_none_or(|m| !m.contains(e)))
    {
        return Err(format!(
            "{missing:?} passes the group's filter but is outside the group"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(i: u32) -> Entity {
        Entity::from_raw_parts(i, 1).unwrap()
    }

    type Article = (
        Storage<&'static str>,
        Storage<&'static str>,
        Storage<&'static str>,
        usize,
        usize,
    );

    /// Storages laid out as in the article's e8/e4 example, with `<A,B>` holding e4 and
    /// e7 and `<A,B,C>` empty.
    fn article() -> Article {
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

    fn owning<'a>(name: &'a str, owned: &'a [&'a SparseSet], len: usize) -> GroupInfo<'a> {
        GroupInfo {
            name,
            owned,
            observed: &[],
            excluded: &[],
            len,
            members: None,
        }
    }

    fn check(
        a: &Storage<&str>,
        b: &Storage<&str>,
        c: &Storage<&str>,
        ab: usize,
        abc: usize,
    ) -> Result<(), String> {
        check_group(&owning("<A, B>", &[a.set(), b.set()], ab))?;
        check_group(&owning("<A, B, C>", &[a.set(), b.set(), c.set()], abc))?;
        if abc > ab {
            return Err("inner group longer than outer".into());
        }
        Ok(())
    }

    fn enter_untracked<O: OwnedStorages>(owned: O, len: &mut usize, entity: Entity) -> bool {
        let before = *len;
        enter(owned, len, entity, PositionHint::NONE, || true);
        *len != before
    }

    fn leave_untracked<O: OwnedStorages>(owned: O, len: &mut usize, entity: Entity) -> bool {
        let before = *len;
        leave(owned, len, entity, PositionHint::NONE);
        *len != before
    }

    #[test]
    fn article_example_outer_first_keeps_e4_in_ab() {
        let (mut a, mut b, mut c, mut ab, mut abc) = article();
        check(&a, &b, &c, ab, abc).unwrap();
        b.insert(e(8), "B3");
        assert!(enter_untracked((&mut a, &mut b), &mut ab, e(8)));
        assert!(enter_untracked((&mut a, &mut b, &mut c), &mut abc, e(8)));
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
        assert!(enter_untracked((&mut a, &mut b, &mut c), &mut abc, e(8)));
        enter_untracked((&mut a, &mut b), &mut ab, e(8));
        assert!(
            !a.entities()[..ab].contains(&e(4)),
            "e4 was pushed out of <A,B>"
        );
        assert!(
            check(&a, &b, &c, ab, abc).is_err(),
            "the checker sees the corruption"
        );
    }

    #[test]
    fn leave_inner_then_outer() {
        let (mut a, mut b, mut c, mut ab, mut abc) = article();
        b.insert(e(8), "B3");
        enter_untracked((&mut a, &mut b), &mut ab, e(8));
        enter_untracked((&mut a, &mut b, &mut c), &mut abc, e(8));
        assert!(leave_untracked((&mut a, &mut b, &mut c), &mut abc, e(8)));
        assert!(leave_untracked((&mut a, &mut b), &mut ab, e(8)));
        assert!(
            !leave_untracked((&mut a, &mut b), &mut ab, e(8)),
            "already out"
        );
        assert_eq!(b.remove(e(8)), Some("B3"));
        check(&a, &b, &c, ab, abc).unwrap();
        assert_eq!((ab, abc), (2, 0));
    }

    #[test]
    fn hints_are_followed_and_wrong_hints_looked_up() {
        let (mut a, mut b, mut c, mut ab, mut abc) = article();
        // e8's B is appended at position 3 of B: the hint for slot 1 of <A,B>.
        b.insert(e(8), "B3");
        let at = enter(
            (&mut a, &mut b),
            &mut ab,
            e(8),
            PositionHint::at(1, 3),
            || true,
        );
        assert_eq!((at, ab), (2, 3), "e8 now sits at <A,B>'s old length");
        // A wrong hint (position 0 holds e4) is detected and looked up instead.
        let at = enter(
            (&mut a, &mut b, &mut c),
            &mut abc,
            e(8),
            PositionHint::at(1, 0),
            || true,
        );
        assert_eq!((at, abc), (0, 1));
        check(&a, &b, &c, ab, abc).unwrap();
        let at = leave(
            (&mut a, &mut b, &mut c),
            &mut abc,
            e(8),
            PositionHint::at(2, 0),
        );
        assert_eq!((at, abc), (0, 0));
        let at = leave((&mut a, &mut b), &mut ab, e(8), PositionHint::at(1, 0));
        assert_eq!((at, ab), (2, 2));
        assert_eq!(
            b.remove_at(at),
            (e(8), "B3"),
            "the tracked position holds e8"
        );
        check(&a, &b, &c, ab, abc).unwrap();
    }

    /// `<A, B, exclude(X)>` (outer) and `<A, B, exclude(X, Y)>` (inner): e1 is in both,
    /// e2 only in the outer group (it has `Y`), e3 in neither (it has `X`). Giving e1 an
    /// `X` must make it leave the inner group first: leaving the outer one first swaps e2
    /// into the inner group's prefix.
    fn excluded_family() -> (Storage<u8>, Storage<u8>, SparseSet, SparseSet, usize, usize) {
        let a: Storage<u8> = [(1, 1), (2, 2), (3, 3)]
            .map(|(i, v)| (e(i), v))
            .into_iter()
            .collect();
        let b = a.clone();
        let x: SparseSet = [e(3)].into_iter().collect();
        let y: SparseSet = [e(2)].into_iter().collect();
        (a, b, x, y, 2, 1)
    }

    fn check_excluded_family(
        a: &Storage<u8>,
        b: &Storage<u8>,
        x: &SparseSet,
        y: &SparseSet,
        outer: usize,
        inner: usize,
    ) -> Result<(), String> {
        let owned = [a.set(), b.set()];
        let only_x = [x];
        let both = [x, y];
        let group = |name, excluded, len| GroupInfo {
            name,
            owned: &owned,
            observed: &[],
            excluded,
            len,
            members: None,
        };
        check_group(&group("<A, B, exclude(X)>", &only_x, outer))?;
        check_group(&group("<A, B, exclude(X, Y)>", &both, inner))
    }

    #[test]
    fn adding_an_excluded_type_leaves_inner_groups_first() {
        let (mut a, mut b, mut x, y, mut outer, mut inner) = excluded_family();
        check_excluded_family(&a, &b, &x, &y, outer, inner).unwrap();
        x.insert(e(1));
        leave((&mut a, &mut b), &mut inner, e(1), PositionHint::NONE);
        leave((&mut a, &mut b), &mut outer, e(1), PositionHint::NONE);
        assert_eq!((outer, inner), (1, 0));
        check_excluded_family(&a, &b, &x, &y, outer, inner).unwrap();
        // Removing it enters them again, outer group first.
        x.remove(e(1));
        enter(
            (&mut a, &mut b),
            &mut outer,
            e(1),
            PositionHint::NONE,
            || !x.contains(e(1)),
        );
        let filter = || !x.contains(e(1)) && !y.contains(e(1));
        enter(
            (&mut a, &mut b),
            &mut inner,
            e(1),
            PositionHint::NONE,
            filter,
        );
        assert_eq!((outer, inner), (2, 1));
        check_excluded_family(&a, &b, &x, &y, outer, inner).unwrap();
    }

    #[test]
    fn leaving_the_outer_group_first_breaks_the_inner_one() {
        let (mut a, mut b, mut x, y, mut outer, mut inner) = excluded_family();
        x.insert(e(1));
        // The wrong order: leave <A, B, exclude(X)> first, then <A, B, exclude(X, Y)>.
        leave((&mut a, &mut b), &mut outer, e(1), PositionHint::NONE);
        leave((&mut a, &mut b), &mut inner, e(1), PositionHint::NONE);
        assert_eq!(
            &a.entities()[..inner],
            &[e(2)],
            "e2, which has `Y`, is in the inner group"
        );
        assert!(
            check_excluded_family(&a, &b, &x, &y, outer, inner).is_err(),
            "the checker sees the corruption"
        );
    }

    #[test]
    fn a_failing_filter_keeps_the_entity_out() {
        let (mut a, mut b, _, mut ab, _) = article();
        b.insert(e(8), "B3");
        enter((&mut a, &mut b), &mut ab, e(8), PositionHint::NONE, || {
            false
        });
        assert_eq!(ab, 2);
        assert_eq!(a.index_of(e(8)), Some(3), "nothing moved");
    }
}
