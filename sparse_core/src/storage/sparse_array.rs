//! The paged sparse array that maps entity indices to dense positions.

use core::hash::{BuildHasherDefault, Hasher};
use core::mem::size_of;
use std::collections::HashMap;

const PAGE_BITS: u32 = 10;
const PAGE_LEN: usize = 1 << PAGE_BITS;
/// Indices below this go through one table of pages; above it, through a map of small pages.
const NEAR_LIMIT: u32 = 1 << 22;
const FAR_PAGE_BITS: u32 = 6;
const FAR_PAGE_LEN: usize = 1 << FAR_PAGE_BITS;

type Page = [u32; PAGE_LEN];
type FarPage = [u32; FAR_PAGE_LEN];

/// Maps an entity index to a dense position, allocating memory lazily.
///
/// Indices below 2²² (what an allocator hands out in any world under four million
/// entities) go through one table of 4 KiB pages: two dependent loads. Larger indices go
/// through a hash map of 256-byte pages, so memory follows the number of far entities,
/// not the largest index: a few entities with indices up to `u32::MAX` cost kilobytes.
///
/// Entries are *untrusted*: a fresh page reads zero and removed entities leave stale
/// positions behind. Callers validate a position against their dense array
/// (`dense[pos] == entity`), which is what makes removal and clearing O(1): nothing here
/// needs resetting.
#[derive(Clone, Default)]
pub(crate) struct SparseArray {
    near: Vec<Option<Box<Page>>>,
    far: HashMap<u32, Box<FarPage>, BuildHasherDefault<PageNumberHasher>>,
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

impl SparseArray {
    /// The stored position for `index`, if its page exists. Untrusted: validate it.
    #[inline(always)]
    pub(crate) fn get(&self, index: u32) -> Option<u32> {
        if index < NEAR_LIMIT {
            let page = self.near.get((index >> PAGE_BITS) as usize)?.as_ref()?;
            return Some(page[index as usize & (PAGE_LEN - 1)]);
        }
        self.far_get(index)
    }

    #[inline(never)]
    fn far_get(&self, index: u32) -> Option<u32> {
        let page = self.far.get(&(index >> FAR_PAGE_BITS))?;
        Some(page[index as usize & (FAR_PAGE_LEN - 1)])
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

    /// The entry of `index`, if its page exists (no allocation).
    #[inline(always)]
    pub(crate) fn slot_mut(&mut self, index: u32) -> Option<&mut u32> {
        if index < NEAR_LIMIT {
            let page = self.near.get_mut((index >> PAGE_BITS) as usize)?.as_mut()?;
            return Some(&mut page[index as usize & (PAGE_LEN - 1)]);
        }
        let page = self.far.get_mut(&(index >> FAR_PAGE_BITS))?;
        Some(&mut page[index as usize & (FAR_PAGE_LEN - 1)])
    }

    /// Stores `position` for `index`, allocating its page if needed.
    #[inline]
    pub(crate) fn set(&mut self, index: u32, position: u32) {
        match self.slot_mut(index) {
            Some(slot) => *slot = position,
            None => *self.allocate(index) = position,
        }
    }

    /// Stores positions `first`, `first + 1`, … for `indices` in order, a run of indices
    /// on one page at a time (an appended batch usually fills pages in order). Before each
    /// entry is overwritten, `keep(old, index, position)` is asked whether its old value
    /// must stay (it is a member's); the first `true` stops the run there, and the number
    /// of entries written is returned as `Err`.
    pub(crate) fn set_consecutive(
        &mut self,
        indices: impl Iterator<Item = u32>,
        first: u32,
        mut keep: impl FnMut(u32, u32, u32) -> bool,
    ) -> Result<(), usize> {
        let mut position = first;
        let written = |position: u32| (position - first) as usize;
        let mut indices = indices.peekable();
        while let Some(&index) = indices.peek() {
            if index >= NEAR_LIMIT {
                if let Some(&mut old) = self.slot_mut(index)
                    && keep(old, index, position)
                {
                    return Err(written(position));
                }
                self.set(index, position);
                indices.next();
                position += 1;
                continue;
            }
            let number = index >> PAGE_BITS;
            let page: &mut Page = match self.near.get_mut(number as usize) {
                Some(Some(page)) => page,
                _ => {
                    self.allocate(index);
                    self.near[number as usize]
                        .as_mut()
                        .unwrap_or_else(|| unreachable!())
                }
            };
            while let Some(index) = indices.next_if(|&next| next >> PAGE_BITS == number) {
                let entry = &mut page[index as usize & (PAGE_LEN - 1)];
                if keep(*entry, index, position) {
                    return Err(written(position));
                }
                *entry = position;
                position += 1;
            }
        }
        Ok(())
    }

    #[cold]
    fn allocate(&mut self, index: u32) -> &mut u32 {
        if index < NEAR_LIMIT {
            let page = (index >> PAGE_BITS) as usize;
            if page >= self.near.len() {
                self.near.resize_with(page + 1, || None);
            }
            let page = self.near[page].get_or_insert_with(new_page);
            return &mut page[index as usize & (PAGE_LEN - 1)];
        }
        let page = self
            .far
            .entry(index >> FAR_PAGE_BITS)
            .or_insert_with(|| Box::new([0; FAR_PAGE_LEN]));
        &mut page[index as usize & (FAR_PAGE_LEN - 1)]
    }

    /// Bytes of heap memory held by the tables (the map's table estimated from its
    /// capacity: one key, one pointer and one control byte per bucket).
    pub(crate) fn heap_bytes(&self) -> usize {
        let near_pages = self.near.iter().flatten().count();
        self.near.capacity() * size_of::<Option<Box<Page>>>()
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
    /// The cached near page ([`EMPTY_PAGE`] when none).
    page: &'a Page,
}

/// A cursor's miss: the entry of `index` ([`ABSENT`] without a page), and its page if it
/// is an existing near page (which the cursor then caches).
#[inline(never)]
fn miss(array: &SparseArray, index: u32) -> (u32, Option<&Page>) {
    if index < NEAR_LIMIT
        && let Some(Some(page)) = array.near.get((index >> PAGE_BITS) as usize)
    {
        return (page[index as usize & (PAGE_LEN - 1)], Some(page));
    }
    (array.get(index).unwrap_or(ABSENT), None)
}

/// What [`Cursor::entry`] reads for an index without a page: no set holds `u32::MAX`
/// members, so it is never a valid position.
pub(crate) const ABSENT: u32 = u32::MAX;

/// No page number: `index >> PAGE_BITS` never reaches it.
const NO_PAGE: u32 = u32::MAX;
/// What a cursor holds before it caches a page.
static EMPTY_PAGE: Page = [0; PAGE_LEN];

impl<'a> Cursor<'a> {
    /// The stored position for `index`, or [`ABSENT`] if its page does not exist: a
    /// lookup without an `Option`, for callers that bounds-check the result anyway. Only
    /// existing near pages are cached, so the hot path is one compare and one load.
    #[inline(always)]
    pub(crate) fn entry(&mut self, index: u32) -> u32 {
        if index >> PAGE_BITS == self.number {
            // A page holds exactly `PAGE_LEN` entries: the masked index needs no bounds check.
            return self.page[index as usize & (PAGE_LEN - 1)];
        }
        // The miss takes no pointer to the cursor, so the cursor can live in registers.
        let (entry, page) = miss(self.array, index);
        if let Some(page) = page {
            self.number = index >> PAGE_BITS;
            self.page = page;
        }
        entry
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
    fn absent_pages_read_none_and_present_ones_read_back() {
        let mut sparse = SparseArray::default();
        for base in [5, NEAR_LIMIT + 5] {
            assert_eq!(sparse.get(base), None);
            sparse.set(base, 42);
            assert_eq!(sparse.get(base), Some(42));
            assert_eq!(sparse.get(base + 1), Some(0), "same page: untrusted zero");
            assert_eq!(sparse.get(base + PAGE_LEN as u32), None);
            assert_eq!(
                sparse.get(base + FAR_PAGE_LEN as u32),
                if base < NEAR_LIMIT { Some(0) } else { None }
            );
            *sparse.slot_mut(base).unwrap() = 7;
            assert_eq!(sparse.get(base), Some(7));
        }
        sparse.set(u32::MAX - 1, 9);
        assert_eq!(sparse.get(u32::MAX - 1), Some(9));
        assert_eq!(sparse.get(NEAR_LIMIT - 1), None);
    }

    #[test]
    fn consecutive_positions_cross_pages_and_reach_far_indices() {
        let mut sparse = SparseArray::default();
        sparse.set(2, 99);
        let indices = [5, 1023, 1024, 3000, NEAR_LIMIT + 7, 6, NEAR_LIMIT - 1, 2];
        sparse
            .set_consecutive(indices.into_iter(), 10, |_, _, _| false)
            .unwrap();
        for (offset, index) in (10..).zip(indices) {
            assert_eq!(sparse.get(index), Some(offset), "index {index}");
        }
        assert_eq!(sparse.get(4), Some(0), "untouched entry of a used page");
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
