//! The paged sparse array that maps entity indices to dense positions.

use core::mem::size_of;

const PAGE_BITS: u32 = 10;
const PAGE_LEN: usize = 1 << PAGE_BITS;
const BLOCK_BITS: u32 = 10;
const BLOCK_LEN: usize = 1 << BLOCK_BITS;

type Page = [u32; PAGE_LEN];
type Block = [Option<Box<Page>>; BLOCK_LEN];

/// Maps an entity index to a dense position, allocating memory lazily.
///
/// Two levels of lazily allocated tables (blocks of pages of `u32`) keep a few entities
/// with indices up to `u32::MAX` down to kilobytes. Entries are *untrusted*: a fresh page
/// reads zero and removed entities leave stale positions behind. Callers validate a
/// position against their dense array (`dense[pos] == entity`), which is what makes
/// removal and clearing O(1): nothing here needs resetting.
#[derive(Clone, Default)]
pub(crate) struct SparseArray {
    blocks: Vec<Option<Box<Block>>>,
}

#[inline]
fn split(index: u32) -> (usize, usize, usize) {
    let index = index as usize;
    (
        index >> (PAGE_BITS + BLOCK_BITS),
        (index >> PAGE_BITS) & (BLOCK_LEN - 1),
        index & (PAGE_LEN - 1),
    )
}

impl SparseArray {
    /// The stored position for `index`, if its page exists. Untrusted: validate it.
    #[inline]
    pub(crate) fn get(&self, index: u32) -> Option<u32> {
        let (block, page, slot) = split(index);
        let page = self.blocks.get(block)?.as_ref()?[page].as_ref()?;
        Some(page[slot])
    }

    /// Stores `position` for `index`, allocating its block and page if needed.
    #[inline]
    pub(crate) fn set(&mut self, index: u32, position: u32) {
        let (block, page, slot) = split(index);
        if block >= self.blocks.len() {
            self.blocks.resize_with(block + 1, || None);
        }
        let block = self.blocks[block].get_or_insert_with(new_block);
        let page = block[page].get_or_insert_with(new_page);
        page[slot] = position;
    }

    /// Bytes of heap memory held by the tables.
    pub(crate) fn heap_bytes(&self) -> usize {
        let blocks = self.blocks.iter().flatten();
        let pages: usize = blocks.clone().map(|b| b.iter().flatten().count()).sum();
        self.blocks.capacity() * size_of::<Option<Box<Block>>>()
            + blocks.count() * size_of::<Block>()
            + pages * size_of::<Page>()
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
        assert_eq!(sparse.get(5), None);
        sparse.set(5, 42);
        assert_eq!(sparse.get(5), Some(42));
        assert_eq!(sparse.get(6), Some(0), "same page: untrusted zero");
        assert_eq!(sparse.get(5 + PAGE_LEN as u32), None);
        sparse.set(u32::MAX - 1, 9);
        assert_eq!(sparse.get(u32::MAX - 1), Some(9));
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
