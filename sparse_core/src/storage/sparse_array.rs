//! The paged sparse array that maps entity indices to dense positions.

use core::hash::{BuildHasherDefault, Hasher};
use core::mem::size_of;
use std::collections::HashMap;

use crate::entity::Entity;

const PAGE_BITS: u32 = 10;
const PAGE_LEN: usize = 1 << PAGE_BITS;
/// Indices below this go through one table of pages; above it, through a map of small pages.
const NEAR_LIMIT: u32 = 1 << 22;
const FAR_PAGE_BITS: u32 = 6;
const FAR_PAGE_LEN: usize = 1 << FAR_PAGE_BITS;

type Page = [u32; PAGE_LEN];

/// A page of the map of far indices, with the clear it belongs to.
#[derive(Clone)]
struct FarPage {
    entries: [u32; FAR_PAGE_LEN],
    epoch: u32,
}

/// Maps an entity index to a dense position, allocating memory lazily.
///
/// ```text
/// index    :  0   1   2   3   4   5
/// entries  : [0 | 3 | 0 | 1 | 0 | 2 ]    position + 1 of the member with that index,
///                                         0 where no member has it
/// ```
///
/// Indices below 2²² (what an allocator hands out in any world under four million
/// entities) go through one table of 4 KiB pages: two dependent loads. Larger indices go
/// through a hash map of 256-byte pages, so memory follows the number of far entities,
/// not the largest index: a few entities with indices up to `u32::MAX` cost kilobytes.
///
/// Invariant (kept by [`SparseSet`](super::SparseSet), the only writer): the entries are
/// *exact*. An index's entry is its member's position plus one, or zero if no member has
/// the index; a page that does not exist, or was written before the last
/// [`clear`](SparseArray::clear), reads zero. So a lookup needs no dense read to know
/// that an index is absent, and two different indices never map to one position.
/// Clearing stays O(1): it starts a new *epoch*, and a page of an older one is zeroed the
/// next time it is written.
#[derive(Clone, Default)]
pub(crate) struct SparseArray {
    near: Vec<Option<Box<Page>>>,
    /// The epoch each near page was last written in.
    near_epochs: Vec<u32>,
    far: HashMap<u32, Box<FarPage>, BuildHasherDefault<PageNumberHasher>>,
    /// Bumped by every clear: pages of an older epoch read zero.
    epoch: u32,
}

/// Page numbers are small distinct integers: a multiplicative hash spreads them well.
#[derive(Default)]
pub(crate) struct PageNumberHasher(u64);

impl Hasher for PageNumberHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// The position an entry stands for (`None` for zero).
#[inline(always)]
fn position(entry: u32) -> Option<u32> {
    entry.checked_sub(1)
}

impl SparseArray {
    /// The raw entry of `index`: its member's position plus one, or zero.
    #[inline(always)]
    fn entry(&self, index: u32) -> u32 {
        if index < NEAR_LIMIT {
            let number = (index >> PAGE_BITS) as usize;
            return match self.near.get(number) {
                Some(Some(page)) if self.near_epochs[number] == self.epoch => {
                    page[index as usize & (PAGE_LEN - 1)]
                }
                _ => 0,
            };
        }
        self.far_entry(index)
    }

    #[inline(never)]
    fn far_entry(&self, index: u32) -> u32 {
        match self.far.get(&(index >> FAR_PAGE_BITS)) {
            Some(page) if page.epoch == self.epoch => {
                page.entries[index as usize & (FAR_PAGE_LEN - 1)]
            }
            _ => 0,
        }
    }

    /// The position of the member with `index`, if there is one.
    #[inline(always)]
    pub(crate) fn get(&self, index: u32) -> Option<u32> {
        position(self.entry(index))
    }

    /// A reader that keeps the last near page it used: lookups of nearby indices in a row
    /// (a group's members, usually) skip the page table.
    #[inline]
    pub(crate) fn cursor(&self) -> Cursor<'_> {
        Cursor {
            array: self,
            number: NO_PAGE,
            page: &EMPTY_PAGE,
        }
    }

    /// The entry of `index`, its page allocated (or zeroed, if of an older epoch) first.
    #[inline(always)]
    fn entry_mut(&mut self, index: u32) -> &mut u32 {
        if index < NEAR_LIMIT {
            let number = (index >> PAGE_BITS) as usize;
            return &mut self.near_page_current(number)[index as usize & (PAGE_LEN - 1)];
        }
        self.far_entry_mut(index)
    }

    /// Near page `number` of the current epoch: allocated, or zeroed if it is older.
    #[cold]
    fn near_page(&mut self, number: usize) -> &mut Page {
        if number >= self.near.len() {
            self.near.resize_with(number + 1, || None);
            self.near_epochs.resize(number + 1, 0);
        }
        let epoch = self.epoch;
        let stale = core::mem::replace(&mut self.near_epochs[number], epoch) != epoch;
        match &mut self.near[number] {
            Some(page) => {
                if stale {
                    page.fill(0);
                }
                page
            }
            slot @ None => slot.insert(new_page()),
        }
    }

    #[cold]
    fn far_entry_mut(&mut self, index: u32) -> &mut u32 {
        let epoch = self.epoch;
        let page = self.far.entry(index >> FAR_PAGE_BITS).or_insert_with(|| {
            Box::new(FarPage {
                entries: [0; FAR_PAGE_LEN],
                epoch,
            })
        });
        if page.epoch != epoch {
            page.entries = [0; FAR_PAGE_LEN];
            page.epoch = epoch;
        }
        &mut page.entries[index as usize & (FAR_PAGE_LEN - 1)]
    }

    /// Records that the member with `index` is at `position` (below `u32::MAX - 1`).
    #[inline(always)]
    pub(crate) fn set(&mut self, index: u32, position: u32) {
        *self.entry_mut(index) = position + 1;
    }

    /// Records that no member has `index` (a page that does not exist stays so).
    #[inline(always)]
    pub(crate) fn unset(&mut self, index: u32) {
        if self.entry(index) != 0 {
            *self.entry_mut(index) = 0;
        }
    }

    /// The raw entry of `index`, for a sort that keeps scratch values in the entries of
    /// its members (and re-points them all before it returns).
    #[inline]
    pub(crate) fn scratch(&self, index: u32) -> u32 {
        self.entry(index)
    }

    /// Writes a raw scratch value in `index`'s entry (see [`scratch`](Self::scratch)).
    #[inline]
    pub(crate) fn set_scratch(&mut self, index: u32, value: u32) {
        *self.entry_mut(index) = value;
    }

    /// Records positions `first`, `first + 1`, … for the indices of `entities` in order,
    /// a run of indices on one page at a time (an appended batch usually fills pages in
    /// order). An index that a member has already (one written earlier in the run
    /// included) stops the run there: the number of entries written is returned as `Err`,
    /// for the caller to unset.
    ///
    /// Where the indices go on one by one to the end of a page (or of the batch), as a
    /// batch of entities spawned together does, the page's entries for them are checked
    /// empty and written as two loops over a slice of the page, which the compiler
    /// vectorizes; other runs are written one entry at a time.
    pub(crate) fn set_consecutive(&mut self, entities: &[Entity], first: u32) -> Result<(), usize> {
        let mut done = 0;
        while let Some(entity) = entities.get(done) {
            let index = entity.index();
            let position = first + done as u32;
            if index >= NEAR_LIMIT {
                let entry = self.far_entry_mut(index);
                if *entry != 0 {
                    return Err(done);
                }
                *entry = position + 1;
                done += 1;
                continue;
            }
            let number = index >> PAGE_BITS;
            let offset = index as usize & (PAGE_LEN - 1);
            let page = self.near_page_current(number as usize);
            let span = (PAGE_LEN - offset).min(entities.len() - done);
            let run = &entities[done..done + span];
            // The last index decides cheaply for most runs that are not consecutive.
            let consecutive = run[span - 1].index() == index + span as u32 - 1
                && run
                    .iter()
                    .zip(index..)
                    .fold(true, |all, (entity, next)| all & (entity.index() == next));
            let entries = &mut page[offset..offset + span];
            if consecutive && entries.iter().fold(0, |any, &entry| any | entry) == 0 {
                for (entry, next) in entries.iter_mut().zip(position..) {
                    *entry = next + 1;
                }
                done += span;
                continue;
            }
            while let Some(entity) = entities.get(done)
                && entity.index() >> PAGE_BITS == number
            {
                let entry = &mut page[entity.index() as usize & (PAGE_LEN - 1)];
                if *entry != 0 {
                    return Err(done);
                }
                *entry = first + done as u32 + 1;
                done += 1;
            }
        }
        Ok(())
    }

    /// Near page `number` of the current epoch (see [`near_page`](Self::near_page)).
    #[inline(always)]
    fn near_page_current(&mut self, number: usize) -> &mut Page {
        let current = self.near_epochs.get(number) == Some(&self.epoch)
            && matches!(self.near.get(number), Some(Some(_)));
        if !current {
            return self.near_page(number);
        }
        self.near[number].as_mut().unwrap_or_else(|| unreachable!())
    }

    /// Forgets every entry in O(1): a new epoch starts, in which older pages read zero.
    pub(crate) fn clear(&mut self) {
        match self.epoch.checked_add(1) {
            Some(next) => self.epoch = next,
            None => {
                // Four billion clears later: zero everything for real and start over.
                for page in self.near.iter_mut().flatten() {
                    page.fill(0);
                }
                self.near_epochs.fill(0);
                self.far.clear();
                self.epoch = 0;
            }
        }
    }

    /// The number of non-zero entries: with exact entries, the number of members (what a
    /// set's check compares).
    pub(crate) fn present(&self) -> usize {
        let near = self
            .near
            .iter()
            .zip(&self.near_epochs)
            .filter(|&(_, &epoch)| epoch == self.epoch)
            .filter_map(|(page, _)| page.as_ref())
            .map(|page| page.iter().filter(|&&entry| entry != 0).count());
        let far = self
            .far
            .values()
            .filter(|page| page.epoch == self.epoch)
            .map(|page| page.entries.iter().filter(|&&entry| entry != 0).count());
        near.chain(far).sum()
    }

    /// Bytes of heap memory held by the tables (the map's table estimated from its
    /// capacity: one key, one pointer and one control byte per bucket).
    pub(crate) fn heap_bytes(&self) -> usize {
        let near_pages = self.near.iter().flatten().count();
        self.near.capacity() * size_of::<Option<Box<Page>>>()
            + self.near_epochs.capacity() * size_of::<u32>()
            + near_pages * size_of::<Page>()
            + self.far.capacity() * (size_of::<u32>() + size_of::<Box<FarPage>>() + 1)
            + self.far.len() * size_of::<FarPage>()
    }
}

/// See [`SparseArray::cursor`].
#[derive(Clone)]
pub(crate) struct Cursor<'a> {
    array: &'a SparseArray,
    /// The number of the cached near page ([`NO_PAGE`]: none).
    number: u32,
    /// The cached near page: [`EMPTY_PAGE`] for a page that does not exist or is of an
    /// older epoch (every entry absent).
    page: &'a Page,
}

/// A cursor's miss: the entry of `index`, and the page to cache for its near page (the
/// empty page when it has none of the current epoch).
#[inline(never)]
fn miss(array: &SparseArray, index: u32) -> (u32, Option<&Page>) {
    if index < NEAR_LIMIT {
        let number = (index >> PAGE_BITS) as usize;
        let page = match array.near.get(number) {
            Some(Some(page)) if array.near_epochs[number] == array.epoch => page,
            _ => &EMPTY_PAGE,
        };
        return (page[index as usize & (PAGE_LEN - 1)], Some(page));
    }
    (array.far_entry(index), None)
}

/// No page number: `index >> PAGE_BITS` never reaches it.
const NO_PAGE: u32 = u32::MAX;
/// What a cursor reads for a near page that does not exist: every entry absent.
static EMPTY_PAGE: Page = [0; PAGE_LEN];

impl<'a> Cursor<'a> {
    /// The position of the member with `index` as a `usize`, or `usize::MAX` if there is
    /// none: a lookup without an `Option`, for callers that bounds-check the position
    /// anyway (one compare then rules out both). Only near pages are cached (an empty one
    /// too), so the hot path is one compare and one load.
    #[inline(always)]
    pub(crate) fn position(&mut self, index: u32) -> usize {
        // An absent entry (zero) wraps to `u32::MAX`, which no position reaches.
        let position = |entry: u32| entry.wrapping_sub(1) as usize;
        if index >> PAGE_BITS == self.number {
            // A page holds exactly `PAGE_LEN` entries: the masked index needs no bounds check.
            return position(self.page[index as usize & (PAGE_LEN - 1)]);
        }
        // The miss takes no pointer to the cursor, so the cursor can live in registers.
        let (entry, page) = miss(self.array, index);
        if let Some(page) = page {
            self.number = index >> PAGE_BITS;
            self.page = page;
        }
        position(entry)
    }

    /// How many of `walked`, from the first, have their index in the cached near page
    /// while that page is empty: entities the set certainly lacks, known without a
    /// lookup each (a kind of entity spawned in a batch fills whole pages another storage
    /// never saw). Zero unless the cached page is the shared empty page: none cached yet,
    /// or a page that exists (even with every entry removed since), counts nothing.
    #[inline(always)]
    pub(crate) fn absent_prefix(&self, walked: &[Entity]) -> usize {
        if !core::ptr::eq(self.page, &EMPTY_PAGE) {
            return 0;
        }
        walked
            .iter()
            .take_while(|entity| entity.index() >> PAGE_BITS == self.number)
            .count()
    }
}

fn new_page() -> Box<Page> {
    // `vec!` of zeros goes through the zeroed allocator: untouched memory costs nothing.
    vec![0u32; PAGE_LEN]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_back_and_absent_ones_read_none() {
        let mut sparse = SparseArray::default();
        for base in [5, NEAR_LIMIT + 5] {
            assert_eq!(sparse.get(base), None);
            sparse.set(base, 42);
            assert_eq!(sparse.get(base), Some(42));
            assert_eq!(sparse.get(base + 1), None, "same page, no member");
            assert_eq!(sparse.get(base + PAGE_LEN as u32), None, "no page");
            sparse.set(base, 0);
            assert_eq!(sparse.get(base), Some(0), "position zero is a position");
            sparse.unset(base);
            assert_eq!(sparse.get(base), None);
        }
        sparse.set(u32::MAX - 1, 9);
        assert_eq!(sparse.get(u32::MAX - 1), Some(9));
        assert_eq!(sparse.get(NEAR_LIMIT - 1), None);
        let mut cursor = sparse.cursor();
        assert_eq!(cursor.position(u32::MAX - 1), 9);
        assert_eq!(cursor.position(7), u32::MAX as usize, "a page of no member");
        assert_eq!(cursor.position(8), u32::MAX as usize, "cached empty");
    }

    #[test]
    fn clearing_forgets_every_entry_and_pages_are_reused() {
        let mut sparse = SparseArray::default();
        for index in [3, 2000, NEAR_LIMIT + 3] {
            sparse.set(index, index);
        }
        sparse.clear();
        for index in [3, 2000, NEAR_LIMIT + 3] {
            assert_eq!(sparse.get(index), None);
            assert_eq!(sparse.cursor().position(index), u32::MAX as usize);
        }
        assert_eq!(sparse.present(), 0);
        sparse.set(4, 1);
        assert_eq!(
            (sparse.get(3), sparse.get(4)),
            (None, Some(1)),
            "page zeroed"
        );
        assert_eq!(sparse.present(), 1);
        sparse.epoch = u32::MAX;
        sparse.clear();
        assert_eq!(
            (sparse.epoch, sparse.present()),
            (0, 0),
            "wrapped: zeroed for real"
        );
    }

    fn entities(indices: &[u32]) -> Vec<Entity> {
        indices
            .iter()
            .map(|&index| Entity::from_raw_parts(index, 1).unwrap())
            .collect()
    }

    #[test]
    fn consecutive_positions_cross_pages_and_reach_far_indices() {
        let mut sparse = SparseArray::default();
        sparse.set(2, 99);
        let indices = [5, 1023, 1024, 3000, NEAR_LIMIT + 7, 6, NEAR_LIMIT - 1];
        sparse.set_consecutive(&entities(&indices), 10).unwrap();
        for (offset, index) in (10..).zip(indices) {
            assert_eq!(sparse.get(index), Some(offset), "index {index}");
        }
        assert_eq!(sparse.get(4), None, "untouched entry of a used page");
        assert_eq!(
            sparse.set_consecutive(&entities(&[8, 9, 2, 11]), 30),
            Err(2),
            "index 2 has a member"
        );
        assert_eq!(
            sparse.set_consecutive(&entities(&[12, 12]), 40),
            Err(1),
            "a repeat in the run"
        );
    }

    /// Runs of consecutive indices (the vectorized path) to a page's end, across pages,
    /// and stopped by a member inside the run: every entry as one by one would write it.
    #[test]
    fn consecutive_indices_are_written_or_refused_exactly() {
        let mut sparse = SparseArray::default();
        let run: Vec<u32> = (1000..3100).collect();
        sparse.set_consecutive(&entities(&run), 7).unwrap();
        for (position, &index) in (7..).zip(&run) {
            assert_eq!(sparse.get(index), Some(position), "index {index}");
        }
        assert_eq!((sparse.get(999), sparse.get(3100)), (None, None));
        // A member in the middle of a consecutive run: the entries before it are written
        // (for the caller to unset), the count says where it stopped.
        sparse.set(5000, 1);
        let blocked: Vec<u32> = (4500..5500).collect();
        assert_eq!(sparse.set_consecutive(&entities(&blocked), 0), Err(500));
        assert_eq!(sparse.get(4999), Some(499));
        assert_eq!(sparse.get(5000), Some(1), "the member keeps its entry");
        assert_eq!(sparse.get(5001), None);
    }

    #[test]
    fn far_apart_indices_cost_kilobytes() {
        let mut sparse = SparseArray::default();
        for (i, index) in [0u32, 1 << 20, 1 << 30, (1 << 31) - 1]
            .into_iter()
            .enumerate()
        {
            sparse.set(index, i as u32);
        }
        let bytes = sparse.heap_bytes();
        assert!(
            bytes < 100 * 1024,
            "four far-apart indices took {bytes} bytes"
        );
    }
}
