//! Parallel loops (feature `rayon`): a walk cut into chunks of consecutive positions, run
//! on rayon's thread pool. Each chunk is one worker's, so the items it yields are its own.

use core::ops::Range;

/// The most positions per chunk: enough for a worker to stream through its slices, few
/// enough that the pool balances a loop of a million entities over many chunks.
const MAX_CHUNK: usize = 4096;
/// The fewest positions per chunk of a short walk: below this, handing a chunk to a
/// worker costs more than most bodies. Debug builds cut small chunks, so that the tests'
/// small worlds cross chunk boundaries too.
const MIN_CHUNK: usize = if cfg!(debug_assertions) { 8 } else { 64 };
/// Chunks per worker a short walk is cut into, so that a worker finishing early takes
/// another one (bodies of uneven cost).
const CHUNKS_PER_WORKER: usize = 4;

/// The chunk length for a walk of `len` positions on `workers` threads: a short walk with
/// a heavy body (a thousand matrix inversions) is spread over every worker instead of
/// fitting in one chunk.
fn chunk_len(len: usize, workers: usize) -> usize {
    (len / (workers.max(1) * CHUNKS_PER_WORKER)).clamp(MIN_CHUNK, MAX_CHUNK)
}

/// Calls `body` once per chunk of `0..len`, on the thread pool (inline when one chunk
/// covers everything). Returns when every chunk is done; a panic in `body` reaches the
/// caller once the other chunks have finished.
pub(crate) fn for_each_chunk(len: usize, body: impl Fn(Range<usize>) + Send + Sync) {
    use rayon::prelude::*;
    let chunk = chunk_len(len, rayon::current_num_threads());
    if len <= chunk {
        body(0..len);
        return;
    }
    (0..len.div_ceil(chunk))
        .into_par_iter()
        .for_each(|i| body(i * chunk..((i + 1) * chunk).min(len)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_heavy_walks_reach_every_worker_and_long_ones_stream() {
        // 1,000 entities on 2 workers: 8 chunks of 125.
        assert_eq!(chunk_len(1000, 2), 125);
        assert_eq!(chunk_len(1_000_000, 2), MAX_CHUNK);
        assert_eq!(chunk_len(10, 16), MIN_CHUNK);
        assert_eq!(chunk_len(1000, 0), 1000 / CHUNKS_PER_WORKER);
    }
}
