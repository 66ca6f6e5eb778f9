//! Running one span of a schedule (see `plan.rs`): its systems one after the other on the
//! calling thread, in stage order, or its chains at once, each on a part of the world split
//! off for it, running its systems one after the other.
//!
//! ```text
//! span of stages 0..3, counts 7 8 9          on threads:
//!   chain A: movement(0) data(0) more(1)     calling thread: parts A  movement data more
//!   chain B: health(0) damage(1) sprite(2)   pool:           parts B  health damage sprite
//!                                            (each stamps with its stage's count: 7, 7,
//!                                             8 | 7, 8, 9)
//! ```
//!
//! Each system stamps what it writes with its own stage's count, as if the stages ran one
//! after the other (the count moved once per stage before the span; see
//! `storage/ticks.rs`), so its `Added`/`Changed` and those of the systems after it see
//! what they would in order.

use std::time::Instant;

use super::plan::SystemSpan;
use super::systems::{Runner, Systems};
use super::threads::{Clock, Job, Way, run_at_once};
use crate::change::{Commands, EditEntities};
use crate::lend::{AccessError, SendParts, WorldParts};
use crate::message::MessageCursor;
use crate::storage::ChangeCount;

/// What a span's systems need to know of the run: each element's stage and last run, and
/// the count of each stage of the span.
pub(super) struct At<'a> {
    /// Each element's stage, flat.
    pub(super) stages: &'a [usize],
    /// Each element's change count at its last complete run.
    pub(super) last_runs: &'a [ChangeCount],
    /// The count of each stage of the span, the first being `span.stages.start`.
    pub(super) counts: &'a [ChangeCount],
    /// The span's first stage.
    pub(super) first: usize,
}

impl At<'_> {
    /// Element `k`'s count in this run.
    pub(super) fn count_of(&self, k: usize) -> ChangeCount {
        self.counts[self.stages[k] - self.first]
    }
}

/// A part of the world whose systems stamp with their stage's count, back to the
/// storages' own count when it goes (a chain's end, or a panic in it).
struct Stamping<'w, W: WorldParts + 'w> {
    parts: W::Parts<'w>,
    /// Whether the span covers several stages (one stage's count is the storages' own).
    several: bool,
}

impl<'w, W: WorldParts + 'w> Stamping<'w, W> {
    /// Runs `runner` on these parts, its writes stamped with `count`.
    fn run(
        &mut self,
        runner: Runner<'_, W>,
        since: u32,
        count: ChangeCount,
    ) -> Result<(), AccessError> {
        if self.several {
            W::stamp_parts_at(&self.parts, count.value());
        }
        runner(&mut self.parts, since)
    }
}

impl<'w, W: WorldParts + 'w> Drop for Stamping<'w, W> {
    fn drop(&mut self) {
        if self.several {
            W::stamp_parts_at(&self.parts, 0);
        }
    }
}

/// Runs the systems of `run` with the parts of the world (`way` says whether its chains
/// go on threads, and whether each system is timed into `clock`). A refused system stops
/// its chain (the span's other chains end first) with the error.
#[allow(clippy::too_many_arguments)]
pub(super) fn run_span<'w, W, S, M>(
    systems: &'w mut S,
    queues: &'w mut [Commands<W>],
    cursors: &'w mut [MessageCursor],
    mut parts: W::Parts<'w>,
    span: &SystemSpan,
    at: &At<'_>,
    way: Way,
    clock: &mut Clock,
) -> Result<(), AccessError>
where
    W: EditEntities + SendParts,
    S: Systems<W, M>,
{
    let mut wanted = vec![false; S::COUNT];
    for chain in &span.chains {
        for &k in &chain.elements {
            wanted[k] = true;
        }
    }
    let mut listed = Vec::new();
    systems.runners(queues, cursors, &wanted, 0, &mut listed);
    let mut runners: Vec<Option<Runner<'w, W>>> = (0..S::COUNT).map(|_| None).collect();
    for (k, runner) in listed {
        runners[k] = Some(runner);
    }
    let mut runner_of = |k: usize| runners[k].take().expect("a runner per system of the span");
    let several = span.stages.len() > 1;
    if !way.on_threads || span.chains.len() == 1 {
        let mut stamping = Stamping::<W> { parts, several };
        for k in span.in_stage_order(at.stages) {
            let (runner, count) = (runner_of(k), at.count_of(k));
            let since = at.last_runs[k].since(count);
            if way.times_systems {
                let started = Instant::now();
                stamping.run(runner, since, count)?;
                clock.system_took(k, started.elapsed());
            } else {
                stamping.run(runner, since, count)?;
            }
        }
        return Ok(());
    }
    let mut jobs: Vec<Job<'w, AccessError>> = Vec::with_capacity(span.chains.len());
    for chain in &span.chains {
        let part = W::sendable(W::split_parts(&mut parts, &chain.writes, &chain.reads));
        let systems: Vec<_> = chain
            .elements
            .iter()
            .map(|&k| {
                let count = at.count_of(k);
                (runner_of(k), at.last_runs[k].since(count), count)
            })
            .collect();
        jobs.push(Box::new(move || {
            // The whole of `part` moves here (a closure would capture its field alone).
            let part = part;
            let mut stamping = Stamping::<W> {
                parts: part.0,
                several,
            };
            for (runner, since, count) in systems {
                stamping.run(runner, since, count)?;
            }
            Ok(())
        }));
    }
    run_at_once(jobs)
}

/// Moves the world's change count on once per stage of a span of `stages` stages: each
/// stage's count, in order. Again if the count restarted among them, so that the counts
/// rise through the span (each before the storages' own, which is the last).
pub(super) fn span_counts<W: WorldParts>(world: &mut W, stages: usize) -> Vec<ChangeCount> {
    let mut counts: Vec<ChangeCount> = (0..stages).map(|_| world.step_changes()).collect();
    if counts
        .first()
        .zip(counts.last())
        .is_some_and(|(first, last)| first.restarted_before(*last))
    {
        counts = (0..stages).map(|_| world.step_changes()).collect();
    }
    counts
}
