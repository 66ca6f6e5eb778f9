//! Parallel loops (feature `rayon`): a walk cut into chunks of consecutive positions, run
//! on rayon's thread pool. Each chunk is one worker's, so the items it yields are its own.

use core::ops::Range;

/// Positions per chunk: enough for a worker to stream through its slices, few enough
/// that the pool balances a loop of a million entities over many chunks. Debug builds
/// cut small chunks, so that the tests' small worlds cross chunk boundaries too.
const CHUNK: usize = if cfg!(debug_assertions) { 8 } else { 4096 };

/// Calls `body` once per chunk of `0..len`, on the thread pool (inline when one chunk
/// covers everything). Returns when every chunk is done; a panic in `body` reaches the
/// caller once the other chunks have finished.
pub(crate) fn for_each_chunk(len: usize, body: impl Fn(Range<usize>) + Send + Sync) {
    use rayon::prelude::*;
    if len <= CHUNK {
        body(0..len);
        return;
    }
    (0..len.div_ceil(CHUNK))
        .into_par_iter()
        .for_each(|chunk| body(chunk * CHUNK..((chunk + 1) * CHUNK).min(len)));
}
