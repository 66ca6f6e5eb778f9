//! The paged sparse array that maps entity indices to dense positions.

use core::mem::size_of;

const PAGE_BITS: u32 = 10;
const PAGE_LEN: usize = 1 << PAGE_BITS;
const BLOCK_BITS: u32 = 10;
const BLOCK_LEN: usize = 1 << BLOCK_BITS;
/// Indices below this go through one table of pages; above it, through blocks of pages.
const NEAR_LIMIT: u32 = 1 << 22;

type Page = [u32; PAGE_LEN];
type Block = [Option<Box<Page>>; BLOCK_LEN];

/// Maps an entity index to a dense position, allocating memory lazily.
///
/// Indices below 2²² (what an allocator hands out in any world under four million
/// entities) take one table of pages: two dependent loads. Larger indices take two levels
/// of lazily allocated tables (blocks of pages), so a few entities with indices up to
/// `u32::MAX` cost kilobytes, not a table sized by the largest index.
///
/// Entries are *untrusted*: a fresh page reads zero and removed entities leave stale
/// positions behind. Callers validate a position against their dense array
/// (`dense[pos] == entity`), which is what makes removal and clearing O(1): nothing here
/// needs resetting.
#[derive(Clone, Default)]
pub(crate) struct SparseArray {
    near: Vec<Option<Box<Page>>>,
    far: Vec<Option<Box<Block>>>,
}

#[inline(always)]
fn split_far(index: u32) -> (usize, usize, usize) {
    let index = index as usize;
    (
        index >> (PAGE_BITS + BLOCK_BITS),
        (index >> PAGE_BITS) & (BLOCK_LEN - 1),
        index & (PAGE_LEN - 1),
    )
}

impl SparseArray {
    /// The stored position for `index`, if its page exists. Untrusted: validate it.
    #[inline(always)]
    pub(crate) fn get(&self, index: u32) -> Option<u32> {
        if index < NEAR_LIMIT {
            let page = self.near.get((index >> PAGE_BITS) as usize)?.as_ref()?;
            return Some(page[index as usize & (PAGE_LEN - 1)]);
        }
        let (block, page, slot) = split_far(index);
        let page = self.far.get(block)?.as_ref()?[page].as_ref()?;
        Some(page[slot])
    }

    /// The entry of `index`, if its page exists (no allocation).
    #[inline(always)]
    pub(crate) fn slot_mut(&mut self, index: u32) -> Option<&mut u32> {
        if index < NEAR_LIMIT {
            let page = self.near.get_mut((index >> PAGE_BITS) as usize)?.as_mut()?;
            return Some(&mut page[index as usize & (PAGE_LEN - 1)]);
        }
        let (block, page, slot) = split_far(index);
        let page = self.far.get_mut(block)?.as_mut()?[page].as_mut()?;
        Some(&mut page[slot])
    }

    /// Stores `position` for `index`, allocating its tables if needed.
    #[inline]
    pub(crate) fn set(&mut self, index: u32, position: u32) {
        match self.slot_mut(index) {
            Some(slot) => *slot = position,
            None => *self.allocate(index) = position,
        }
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
        let (block, page, slot) = split_far(index);
        if block >= self.far.len() {
            self.far.resize_with(block + 1, || None);
        }
        let block = self.far[block].get_or_insert_with(new_block);
        &mut block[page].get_or_insert_with(new_page)[slot]
    }

    /// Bytes of heap memory held by the tables.
    pub(crate) fn heap_bytes(&self) -> usize {
        let near_pages = self.near.iter().flatten().count();
        let blocks = self.far.iter().flatten();
        let far_pages: usize = blocks.clone().map(|b| b.iter().flatten().count()).sum();
        self.near.capacity() * size_of::<Option<Box<Page>>>()
            + self.far.capacity() * size_of::<Option<Box<Block>>>()
            + blocks.count() * size_of::<Block>()
            + (near_pages + far_pages) * size_of::<Page>()
    }
}

fn new_block() -> Box<Block> {
    let pages: Vec<Option<Box<Page>>> = (0..BLOCK_LEN).map(|_| None).collect();
    pages
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!())
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
            *sparse.slot_mut(base).unwrap() = 7;
            assert_eq!(sparse.get(base), Some(7));
        }
        sparse.set(u32::MAX - 1, 9);
        assert_eq!(sparse.get(u32::MAX - 1), Some(9));
        assert_eq!(sparse.get(NEAR_LIMIT - 1), None);
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
