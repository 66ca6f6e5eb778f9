//! Running the chains of one span at once: the first on the calling thread, each other
//! on rayon's pool with the `rayon` feature (spawned into a scope, not `rayon::join`,
//! which from outside the pool blocks the caller and runs both on one worker until another
//! wakes to steal: slower than running them in order on a 2-core machine,
//! `docs/performance.md`), on a scoped thread of its own without it. A span of one chain
//! runs on the calling thread.
//!
//! ```text
//! span: chains [movement → collide], [decay]
//!   calling thread: movement → collide ─┐
//!   pool / thread:  decay ──────────────┴─ the span ends when both have
//!                                          (a panic is raised again, its message kept)
//! ```
//!
//! Threads cost a wake-up, and data written on one core is read from another's cache by
//! the next span: a schedule of short systems runs faster on the calling thread, one
//! system after the other. Which is faster depends on the machine and on how many entities
//! the systems walk, so by default ([`Threads::Measured`]) the schedule's runs are timed
//! both ways, whole (what threads cost a span shows in the next), a few of each, and
//! threads are kept for the next [`MEASURE_EVERY`] runs if their median run is at least 5%
//! shorter, the calling thread otherwise; then measured again (the entities change as a
//! game goes on). The runs on the calling thread
//! also time each system, and the spans of the runs on threads are planned from those
//! times (see `plan.rs`).
//!
//! ```text
//! runs:  0 1 2 3 4 5 6 7 8 9 | 10 … 511                   | 512 …
//!        O T O T O T O T O T | the way the medians chose     | measured again
//!        (O: every system on the calling thread, timed one by one;
//!         T: the spans planned from those times, their chains on threads)
//! ```

use std::time::{Duration, Instant};

/// How a [`Schedule`](super::Schedule) runs a stage of several systems (see
/// [`Schedule::set_threads`](super::Schedule::set_threads)). The results are the same
/// either way: the chains of a span are apart, so their order does not matter, and each
/// system stamps with its stage's count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Threads {
    /// The faster of threads and the calling thread, as measured on the schedule's own
    /// runs: a few runs each way (those on the calling thread timing each system, from
    /// which the spans on threads are planned), then threads if clearly faster, for the
    /// next [`MEASURE_EVERY`] runs, then measured again.
    #[default]
    Measured,
    /// Every span's chains at once, on threads, the spans planned as if every system cost
    /// as much.
    Many,
    /// Every system on the calling thread, in stage order: no thread is woken.
    One,
}

/// How many runs of a schedule one measurement decides.
pub const MEASURE_EVERY: u32 = 512;

/// How many runs each way a measurement times (the median of each counts).
const TRIES: usize = 5;

/// How much faster runs on threads must be to be chosen: their median times this is below
/// the calling thread's (5% faster).
const THREADS_BY: f64 = 1.05;

/// How much slower than the calling thread's median the first two runs on threads must
/// both be to end a measurement early, for the calling thread.
const FAR_SLOWER: f64 = 1.5;

/// A schedule's measurement of its runs, for [`Threads::Measured`].
#[derive(Clone, Debug, Default)]
pub(super) struct Clock {
    /// The runs since the last measurement began.
    runs: u32,
    /// The current measurement's run times on threads, and on the calling thread.
    took: [Vec<Duration>; 2],
    /// What the last measurement decided.
    on_threads: bool,
    /// Each element's times in the current measurement's runs on the calling thread.
    systems: Vec<Vec<Duration>>,
    /// Whether a run added to `systems` since [`costs`](Self::costs) last read them.
    fresh: bool,
}

/// How one run of a schedule goes: on threads or not, when it started if timed, and
/// whether its systems are timed one by one (a run of a measurement on the calling thread).
#[derive(Clone, Copy, Debug)]
pub(super) struct Way {
    pub(super) on_threads: bool,
    started: Option<Instant>,
    pub(super) times_systems: bool,
}

impl Clock {
    /// The way of the next run, as `threads` says.
    pub(super) fn next_run(&mut self, threads: Threads) -> Way {
        let fixed = |on_threads| Way {
            on_threads,
            started: None,
            times_systems: false,
        };
        match threads {
            Threads::Many => fixed(true),
            Threads::One => fixed(false),
            Threads::Measured => {
                let run = self.runs;
                self.runs = (run + 1) % MEASURE_EVERY;
                if run == 0 {
                    self.took = [Vec::new(), Vec::new()];
                    self.systems.clear();
                }
                if self.took[0].len() + self.took[1].len() >= 2 * TRIES {
                    return fixed(self.on_threads);
                }
                // The calling thread first: its systems' times plan the runs on threads.
                let on_threads = !run.is_multiple_of(2);
                Way {
                    on_threads,
                    started: Some(Instant::now()),
                    times_systems: !on_threads,
                }
            }
        }
    }

    /// Element `element` took `took` in a run that times its systems.
    pub(super) fn system_took(&mut self, element: usize, took: Duration) {
        if self.systems.len() <= element {
            self.systems.resize_with(element + 1, Vec::new);
        }
        self.systems[element].push(took);
        self.fresh = true;
    }

    /// Each element's median time in this measurement, in nanoseconds (`0` for one never
    /// timed), if a run timed its systems since the last call.
    pub(super) fn costs(&mut self, elements: usize) -> Option<Vec<f64>> {
        if !core::mem::take(&mut self.fresh) {
            return None;
        }
        Some(
            (0..elements)
                .map(|k| {
                    let took = self.systems.get(k).cloned().unwrap_or_default();
                    median(took).as_secs_f64() * 1e9
                })
                .collect(),
        )
    }

    /// The run `way` has ended (a run cut short by an error or a panic is not counted).
    pub(super) fn ran(&mut self, way: Way) {
        if let Some(started) = way.started {
            self.took(way.on_threads, started.elapsed());
        }
    }

    /// Notes that a run `on_threads` (or not) took `took`; the last of a measurement
    /// decides.
    fn took(&mut self, on_threads: bool, took: Duration) {
        self.took[usize::from(!on_threads)].push(took);
        let [threads, one] = self.took.clone().map(median);
        // Two runs on threads each far slower than the calling thread's median: the
        // measurement ends there (the runs on threads it would still make cost the most).
        let far_slower = |t: &Duration| t.as_secs_f64() > one.as_secs_f64() * FAR_SLOWER;
        let lost = self.took[0].len() >= 2 && self.took[0].iter().all(far_slower);
        if lost || self.took.iter().all(|took| took.len() >= TRIES) {
            // Threads only for a clear gain: a near tie goes to the calling thread, whose
            // runs do not vary with how soon the pool's threads wake.
            self.on_threads = !lost && threads.mul_f64(THREADS_BY) < one;
            // Decided: the runs left until `MEASURE_EVERY` follow it.
            self.took[0].resize(TRIES, Duration::ZERO);
            self.took[1].resize(TRIES, Duration::ZERO);
        }
    }

    /// Whether the last measurement chose threads (before one: `false`).
    #[cfg(test)]
    pub(super) fn on_threads(&self) -> bool {
        self.on_threads
    }
}

/// The middle one of `took` (its upper middle if even; zero if empty).
fn median(mut took: Vec<Duration>) -> Duration {
    took.sort_unstable();
    took.get(took.len() / 2).copied().unwrap_or_default()
}

/// One chain of a span, its part of the world split off, ready to run: its first refusal
/// (a part lacking what a system takes) is its result.
pub(super) type Job<'w, E> = Box<dyn FnOnce() -> Result<(), E> + Send + 'w>;

/// How many threads run jobs at once: rayon's pool's with the `rayon` feature, the
/// machine's cores without it.
pub(super) fn threads() -> usize {
    #[cfg(feature = "rayon")]
    return rayon::current_num_threads();
    #[cfg(not(feature = "rayon"))]
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Runs `jobs` at once and returns when all have run, with the first job's refusal (in
/// job order); a job's panic is raised again here once every job has ended.
pub(super) fn run_at_once<E: Send>(mut jobs: Vec<Job<'_, E>>) -> Result<(), E> {
    match jobs.len() {
        0 => Ok(()),
        1 => jobs.pop().map_or(Ok(()), |job| job()),
        _ => {
            #[cfg(feature = "rayon")]
            return on_the_pool(jobs);
            #[cfg(not(feature = "rayon"))]
            on_scoped_threads(jobs)
        }
    }
}

/// The first job on the calling thread, the others spawned on rayon's pool.
#[cfg(feature = "rayon")]
fn on_the_pool<E: Send>(jobs: Vec<Job<'_, E>>) -> Result<(), E> {
    let mut jobs = jobs.into_iter();
    let first = jobs.next();
    let mut results: Vec<Option<Result<(), E>>> = (0..jobs.len()).map(|_| None).collect();
    let mut first_result = Ok(());
    rayon::in_place_scope(|scope| {
        for (job, result) in jobs.zip(&mut results) {
            scope.spawn(move |_| *result = Some(job()));
        }
        if let Some(first) = first {
            first_result = first();
        }
    });
    first_result?;
    results.into_iter().flatten().collect()
}

/// The first job on the calling thread, each other on a scoped thread of its own. Compiled
/// with every feature too, so that the tests of every build run it.
#[cfg_attr(feature = "rayon", allow(dead_code))]
fn on_scoped_threads<E: Send>(jobs: Vec<Job<'_, E>>) -> Result<(), E> {
    let mut jobs = jobs.into_iter();
    let first = jobs.next();
    std::thread::scope(|scope| {
        let others: Vec<_> = jobs.map(|job| scope.spawn(job)).collect();
        let first = first.map_or(Ok(()), |first| first());
        // Another job's panic, with its own message (the scope's would say only that a
        // scoped thread panicked).
        let mut results = vec![first];
        for other in others {
            match other.join() {
                Ok(result) => results.push(result),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        results.into_iter().collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Barrier;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Three jobs that can only finish if they run at the same time (each waits for the
    /// others at a barrier), through `run`; then the first refusal in job order, though
    /// every job ran; then a panicking job's message.
    fn runs_jobs_at_once(run: fn(Vec<Job<'_, u8>>) -> Result<(), u8>) {
        let barrier = Barrier::new(3);
        let done = AtomicUsize::new(0);
        let jobs: Vec<Job<'_, u8>> = (0..3)
            .map(|_| {
                Box::new(|| {
                    barrier.wait();
                    done.fetch_add(1, Ordering::Relaxed);
                    Ok(())
                }) as Job<'_, u8>
            })
            .collect();
        assert_eq!(run(jobs), Ok(()));
        assert_eq!(done.load(Ordering::Relaxed), 3);

        let done = &done;
        let refusing = |code: u8| -> Job<'_, u8> {
            Box::new(move || {
                done.fetch_add(1, Ordering::Relaxed);
                if code == 0 { Ok(()) } else { Err(code) }
            })
        };
        let jobs = vec![refusing(0), refusing(2), refusing(3)];
        assert_eq!(run(jobs), Err(2));
        assert_eq!(done.load(Ordering::Relaxed), 6, "every job ran");

        let jobs: Vec<Job<'_, u8>> =
            vec![Box::new(|| Ok(())), Box::new(|| panic!("the second job"))];
        let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(jobs)))
            .expect_err("the panic is raised again");
        assert_eq!(panic.downcast_ref::<&str>(), Some(&"the second job"));
    }

    /// Takes `runs` runs of `clock`'s measurement, each taking `on_threads` or `one`;
    /// returns the ways they took.
    fn measure(clock: &mut Clock, runs: u32, on_threads: u64, one: u64) -> Vec<bool> {
        (0..runs)
            .map(|_| {
                let way = clock.next_run(Threads::Measured);
                assert!(way.started.is_some(), "a run of a measurement is timed");
                let took = if way.on_threads { on_threads } else { one };
                clock.took(way.on_threads, Duration::from_micros(took));
                way.on_threads
            })
            .collect()
    }

    #[test]
    fn a_measured_schedule_keeps_the_way_of_the_shorter_median_and_measures_again() {
        let tries = TRIES as u32;
        let mut clock = Clock::default();
        // On threads is slower: the calling thread wins. The measurement alternates, the
        // calling thread first (it times the systems that plan the runs on threads).
        let ways = measure(&mut clock, 2 * tries, 300, 200);
        assert_eq!(ways, [false, true].repeat(TRIES));
        assert!(!clock.on_threads());
        for _ in 2 * tries..MEASURE_EVERY {
            let way = clock.next_run(Threads::Measured);
            assert!(!way.on_threads && way.started.is_none());
            clock.ran(way);
        }
        // Measured again: now threads are faster in the median, though one run on the
        // calling thread was the fastest of all (a lucky run does not decide).
        let mut clock_again = clock.clone();
        for (k, way) in measure(&mut clock, 2 * tries, 100, 200)
            .into_iter()
            .enumerate()
        {
            assert_eq!(way, k % 2 == 1);
        }
        assert!(clock.on_threads());
        let ways: Vec<bool> = (0..2 * tries)
            .map(|k| {
                let way = clock_again.next_run(Threads::Measured);
                let took = match (way.on_threads, k) {
                    (true, _) => 100,
                    (false, 2) => 1,
                    (false, _) => 200,
                };
                clock_again.took(way.on_threads, Duration::from_micros(took));
                way.on_threads
            })
            .collect();
        assert_eq!(ways, [false, true].repeat(TRIES));
        assert!(clock_again.on_threads());
        assert!(clock.next_run(Threads::Measured).on_threads);
        // The fixed ways ignore the measurement and are not timed.
        let mut fresh = Clock::default();
        let (many, one) = (fresh.next_run(Threads::Many), fresh.next_run(Threads::One));
        assert!(many.on_threads && many.started.is_none());
        assert!(!one.on_threads && one.started.is_none());
        assert_eq!(fresh.runs, 0);
    }

    #[test]
    fn threads_are_kept_only_for_a_clear_gain() {
        let tries = TRIES as u32;
        let mut clock = Clock::default();
        measure(&mut clock, 2 * tries, 97, 100);
        assert!(!clock.on_threads(), "3% faster on threads: a near tie");
        let mut clock = Clock::default();
        measure(&mut clock, 2 * tries, 90, 100);
        assert!(clock.on_threads(), "10% faster on threads");
        // Far slower on threads: decided after the second run on threads, for the
        // calling thread, the rest of the runs untimed.
        let mut clock = Clock::default();
        measure(&mut clock, 4, 200, 100);
        assert!(!clock.on_threads());
        let way = clock.next_run(Threads::Measured);
        assert!(!way.on_threads && way.started.is_none(), "decided");
    }

    #[test]
    fn a_run_cut_short_is_not_counted() {
        let mut clock = Clock::default();
        let _cut_short = clock.next_run(Threads::Measured);
        let way = clock.next_run(Threads::Measured);
        clock.ran(way);
        assert_eq!(clock.took.each_ref().map(Vec::len), [1, 0]);
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
