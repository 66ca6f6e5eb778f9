//! Running the systems of one stage at once: the first on the calling thread, each other
//! on rayon's pool with the `rayon` feature (spawned into a scope, not `rayon::join`,
//! which from outside the pool blocks the caller and runs both on one worker until another
//! wakes to steal: slower than running them in order on a 2-core machine,
//! `docs/performance.md`), on a scoped thread of its own without it. A system alone in its
//! stage runs on the calling thread.
//!
//! ```text
//! stage: [movement, decay, collide]
//!   calling thread: movement ─────────┐
//!   pool / thread:  decay ─────┐      ├─ the stage ends when all three have
//!   pool / thread:  collide ───┴──────┘  (a panic is raised again, its message kept)
//! ```

/// One system of a stage with its parameters taken, ready to run.
pub(super) type Job<'w> = Box<dyn FnOnce() + Send + 'w>;

/// Runs `jobs` at once and returns when all have run; a job's panic is raised again here
/// once every job has ended.
pub(super) fn run_at_once(mut jobs: Vec<Job<'_>>) {
    match jobs.len() {
        0 => {}
        1 => {
            if let Some(job) = jobs.pop() {
                job();
            }
        }
        _ => {
            #[cfg(feature = "rayon")]
            on_the_pool(jobs);
            #[cfg(not(feature = "rayon"))]
            on_scoped_threads(jobs);
        }
    }
}

/// The first job on the calling thread, the others spawned on rayon's pool.
#[cfg(feature = "rayon")]
fn on_the_pool(jobs: Vec<Job<'_>>) {
    let mut jobs = jobs.into_iter();
    let first = jobs.next();
    rayon::in_place_scope(|scope| {
        for job in jobs {
            scope.spawn(move |_| job());
        }
        if let Some(first) = first {
            first();
        }
    });
}

/// The first job on the calling thread, each other on a scoped thread of its own. Compiled
/// with every feature too, so that the tests of every build run it.
#[cfg_attr(feature = "rayon", allow(dead_code))]
fn on_scoped_threads(jobs: Vec<Job<'_>>) {
    let mut jobs = jobs.into_iter();
    let first = jobs.next();
    std::thread::scope(|scope| {
        let others: Vec<_> = jobs.map(|job| scope.spawn(job)).collect();
        if let Some(first) = first {
            first();
        }
        // Another job's panic, with its own message (the scope's would say only that a
        // scoped thread panicked).
        for other in others {
            if let Err(panic) = other.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Barrier;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Three jobs that can only finish if they run at the same time (each waits for the
    /// others at a barrier), through `run`; then a panicking job's message.
    fn runs_jobs_at_once(run: fn(Vec<Job<'_>>)) {
        let barrier = Barrier::new(3);
        let done = AtomicUsize::new(0);
        let jobs: Vec<Job<'_>> = (0..3)
            .map(|_| {
                Box::new(|| {
                    barrier.wait();
                    done.fetch_add(1, Ordering::Relaxed);
                }) as Job<'_>
            })
            .collect();
        run(jobs);
        assert_eq!(done.load(Ordering::Relaxed), 3);

        let jobs: Vec<Job<'_>> = vec![Box::new(|| {}), Box::new(|| panic!("the second job"))];
        let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(jobs)))
            .expect_err("the panic is raised again");
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"the second job"));
    }

    #[test]
    fn scoped_threads_run_jobs_at_once_and_keep_a_panic_message() {
        runs_jobs_at_once(on_scoped_threads);
    }

    #[cfg(feature = "rayon")]
    #[test]
    // rayon's crossbeam-epoch casts integers to pointers, which the units' strict
    // provenance refuses; the integration tests run the pool under Miri (scripts/miri.sh).
    #[cfg_attr(miri, ignore)]
    fn the_pool_runs_jobs_at_once_and_keeps_a_panic_message() {
        // The pool may have a single thread on a one-core machine: the barrier needs three.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .expect("a pool");
        pool.install(|| runs_jobs_at_once(on_the_pool));
    }
}
