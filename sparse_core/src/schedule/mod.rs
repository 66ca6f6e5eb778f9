//! Systems and schedules: plain functions whose parameters are parts of a world
//! ([`SystemParam`]), listed in order in a [`Schedule`], which runs at once the systems
//! whose parts are apart and keeps the written order of those that conflict. The result
//! equals running the systems one after the other (their `Added`/`Changed` filters
//! meaning "since this system last ran", see below).
//!
//! ```text
//! Schedule::new((movement, decay, collide))
//!   stage 0: movement ‖ decay      (apart: run on two threads)
//!   stage 1: collide               (conflicts with movement: after it)
//!   then every system's commands, in system order
//! ```
//!
//! On a `#[world]` the stages are a constant the compiler computes from the numbers of
//! the world's storages and resources (see `stages.rs`), and every system's own parameters
//! are proven apart by the borrow rule; on the run-time `World` the same stages are
//! computed when the schedule first runs.
//!
//! Change detection per system: the world's change count moves on before each stage and
//! after the last (see `storage/ticks.rs`), so what a stage writes is stamped with a count
//! of its own, and the schedule keeps each system's count of its last run (stored once
//! the whole run is done, its commands applied: a run cut short by a panic leaves every
//! system's count as it was, so what they reacted to is reported again); a system's
//! `Added<T>` / `Changed<T>` pass what was stamped after it (bevy's meaning: "since this
//! system last ran"; at its first run, everything present). A count that restarted since
//! a system's last run (the world counts its restarts), or that is lower than it (another
//! world), makes that system's next run a first run again: changes are reported twice
//! rather than lost.
//!
//! ```text
//! count:      5        6          7        8    (tick)  9 …
//!          (before) stage 0    stage 1  (after)
//!                   hurt       watch              watch's next run sees stamps > 7:
//!                   stamps 6   last run 7         what hurt wrote at 6 it saw already;
//!                                                 what anything wrote from 8 on it sees
//! ```
//!
//! # Safety
//! There is no `unsafe` here. The systems of a stage take their parameters one after the
//! other from one split world (`WorldParts::parts`), whose slots lend each storage or
//! resource mutably once or shared many times; the stages only decide which systems ask
//! together, so a wrong stage could at worst be refused (an `AccessError`), never alias.

mod param;
mod stages;
mod system;

use core::any::{TypeId, type_name};
use core::fmt;
use core::marker::PhantomData;

use crate::advice::{Advice, SystemShape};
use crate::change::{Commands, EditEntities};
use crate::component::short_name;
use crate::lend::{AccessError, NoAlias, WorldParts};
use crate::storage::ChangeCount;
use param::OneQueueAtMost;
pub use param::SystemParam;
use stages::{Footprint, Mask, TypeIds, stages_of, stages_of_ids};
pub use system::{ParamItem, System};

/// Keeps [`SystemParam`] and [`Systems`] to this crate.
mod sealed {
    /// Sealing the parameter and schedule traits.
    pub trait Sealed {}
}

/// Systems listed in order, run stage by stage (see the module documentation).
///
/// `S` is a tuple of one to eight systems, each with one to eight parameters; `M` tells
/// their arities apart and is inferred.
pub struct Schedule<S, M> {
    systems: S,
    /// The stages computed at run time, for worlds whose numbers the compiler does not
    /// know (the run-time `World`).
    stages: Option<Vec<usize>>,
    /// Each system's change count at its last complete run (`NEVER`: everything present
    /// is news to it).
    last_runs: Vec<ChangeCount>,
    marker: PhantomData<fn() -> M>,
}

impl<S, M> Schedule<S, M> {
    /// A schedule of `systems`, a tuple of functions, in the order they are written.
    pub fn new(systems: S) -> Self {
        Schedule {
            systems,
            stages: None,
            last_runs: Vec::new(),
            marker: PhantomData,
        }
    }

    /// Runs every system once, stage by stage, then the commands the systems queued, in
    /// system order (so the result equals running the systems one after the other, then
    /// their commands, each system's change filters passing what changed since its last
    /// run). Returns what the world's `borrow` returns: nothing
    /// on a `#[world]`, whose schedules cannot be refused, a `Result` on the run-time
    /// `World`.
    ///
    /// # Errors
    /// On the run-time `World`, what its `borrow` refuses for a system's parameters (a
    /// group it does not have, a resource it does not hold, a type twice in one system),
    /// checked for every system before any runs: a refused run changes nothing.
    pub fn run<W>(&mut self, world: &mut W) -> W::Lent<()>
    where
        W: EditEntities + 'static,
        S: Systems<W, M>,
    {
        W::lent(self.try_run(world))
    }

    /// Runs every system once, as [`run`](Schedule::run), with a `Result` on every world.
    ///
    /// # Errors
    /// As [`run`](Schedule::run).
    pub fn try_run<W>(&mut self, world: &mut W) -> Result<(), AccessError>
    where
        W: EditEntities + 'static,
        S: Systems<W, M>,
    {
        let held = world.storage_count();
        S::prepare(world);
        let Schedule {
            systems,
            stages,
            last_runs,
            ..
        } = self;
        let stages: &[usize] = match S::STAGES {
            Some(stages) => stages,
            None => stages.get_or_insert_with(|| stages_of_ids(&S::ids())),
        };
        // A world whose borrows are checked at run time may refuse a system: find out
        // before any runs, so that a refused run changes nothing (checking stamps nothing:
        // parts stamp what they hand out, not what is taken; the storages made for the
        // systems' types are dropped again).
        if !W::PROVEN
            && let Err(refused) = S::check(world)
        {
            world.forget_storages_from(held);
            return Err(refused);
        }
        let count = stages.iter().max().map_or(0, |last| last + 1);
        last_runs.resize(stages.len(), ChangeCount::NEVER);
        // Each system's count in this run, stored as its last run only once the run is
        // complete, its commands applied: a run cut short by a panic leaves every system's
        // last run where it was, so what they reacted to is reported to them again.
        let mut runs = last_runs.clone();
        let mut queues = S::queues();
        for stage in 0..count {
            let now = world.step_changes();
            systems.run_stage(world, stages, stage, &mut queues, last_runs, now)?;
            for (run, _) in runs
                .iter_mut()
                .zip(stages.iter())
                .filter(|(_, s)| **s == stage)
            {
                *run = now;
            }
        }
        // What is written after the last stage (the commands, code outside the schedule)
        // gets a count of its own, newer than every system's run.
        world.step_changes();
        for queue in queues.as_mut() {
            if !queue.is_empty() {
                queue.apply(world);
            }
        }
        *last_runs = runs;
        Ok(())
    }

    /// Layout advice for this schedule on `world`'s entities: the groups that make its
    /// walks cheapest (valid under the nesting rule), the types its views should name with
    /// `With` to use them, the sorts to run after spawning, and each view's walk now and
    /// under the advice. Printed, it is what to paste; see [`Advice`].
    ///
    /// It reads the world as it is now (which component types occur together on its
    /// entities) and changes nothing: call it once the world holds a typical frame's
    /// entities.
    pub fn advise<W>(&self, world: &W) -> Advice
    where
        W: EditEntities + 'static,
        S: Systems<W, M>,
    {
        let systems = S::shapes();
        let mut advice = None;
        world.inspect_world(&mut |info| advice = Some(Advice::of(&systems, info)));
        // A world that never calls back describes nothing: the advice over no entities.
        advice.unwrap_or_else(|| {
            Advice::of(
                &systems,
                &crate::change::steps::WorldInfo {
                    entities: world.entities(),
                    storages: &[],
                    groups: &[],
                    nesting: &[],
                },
            )
        })
    }

    /// The stages of this schedule on worlds `W`, with each system's name: what
    /// [`run`](Schedule::run) runs at once. Printed, one line per stage.
    pub fn stages<W>(&self) -> Stages
    where
        W: WorldParts + 'static,
        S: Systems<W, M>,
    {
        let stages = match S::STAGES {
            Some(stages) => stages.to_vec(),
            None => stages_of_ids(&S::ids()),
        };
        Stages {
            names: S::names(),
            stages,
            decided_at_compile_time: S::STAGES.is_some(),
        }
    }
}

impl<S, M> fmt::Debug for Schedule<S, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Schedule")
            .field("systems", &type_name::<S>())
            .finish()
    }
}

/// A schedule's stages, with its systems' names: see [`Schedule::stages`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stages {
    names: Vec<&'static str>,
    stages: Vec<usize>,
    decided_at_compile_time: bool,
}

impl Stages {
    /// The stage of each system, in the order they are listed.
    pub fn of_systems(&self) -> &[usize] {
        &self.stages
    }

    /// Whether the compiler computed them (a `#[world]`), rather than the first run (the
    /// run-time `World`).
    pub fn decided_at_compile_time(&self) -> bool {
        self.decided_at_compile_time
    }
}

impl fmt::Display for Stages {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = self.stages.iter().max().map_or(0, |last| last + 1);
        for stage in 0..count {
            let names: Vec<String> = self
                .stages
                .iter()
                .zip(&self.names)
                .filter(|(s, _)| **s == stage)
                .map(|(_, name)| short_name(name))
                .collect();
            writeln!(f, "stage {stage}: {}", names.join(", "))?;
        }
        Ok(())
    }
}

/// A tuple of systems of worlds `W` (up to eight), as a [`Schedule`] runs them. Sealed.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a list of systems of `{W}`",
    label = "a schedule takes a tuple of systems",
    note = "each element is a function whose parameters are parts of the world (or `&mut Commands<W>`), and no function names one type twice, at least once mutably"
)]
pub trait Systems<W: WorldParts + 'static, M>: sealed::Sealed + Send {
    /// The stages, when the compiler can compute them (a `#[world]`).
    #[doc(hidden)]
    const STAGES: Option<&'static [usize]>;
    /// Each system's written and read types, for the stages of the run-time world.
    #[doc(hidden)]
    fn ids() -> Vec<(Vec<TypeId>, Vec<TypeId>)>;
    /// Each system's name.
    #[doc(hidden)]
    fn names() -> Vec<&'static str>;
    /// Takes and drops each system's parameters, one system at a time: whether the world
    /// serves them all.
    #[doc(hidden)]
    fn check(world: &mut W) -> Result<(), AccessError>;
    /// One command queue per system.
    #[doc(hidden)]
    type Queues: AsMut<[Commands<W>]>;
    /// Empty queues.
    #[doc(hidden)]
    fn queues() -> Self::Queues;
    /// Makes sure every storage a system names exists.
    #[doc(hidden)]
    fn prepare(world: &mut W);
    /// Each system's name with the views and groups it names, for layout advice.
    #[doc(hidden)]
    fn shapes() -> Vec<(&'static str, SystemShape)>;
    /// Runs the systems of `stage`, each queuing its commands in its queue, its views'
    /// change filters passing the stamps after its last run (`last_runs`), the world's
    /// count being `now`.
    #[doc(hidden)]
    fn run_stage(
        &mut self,
        world: &mut W,
        stages: &[usize],
        stage: usize,
        queues: &mut Self::Queues,
        last_runs: &[ChangeCount],
        now: ChangeCount,
    ) -> Result<(), AccessError>;
}

/// Runs `a` and `b` at once: `a` on the calling thread, `b` spawned on rayon's pool with
/// the `rayon` feature (not `rayon::join`, which from outside the pool blocks the caller
/// and runs both on one worker until another wakes to steal `b`: slower than running them
/// in order on a 2-core machine, `docs/performance.md`), on a scoped thread without it.
#[inline]
fn join(a: impl FnOnce() + Send, b: impl FnOnce() + Send) {
    #[cfg(feature = "rayon")]
    rayon::in_place_scope(|scope| {
        scope.spawn(|_| b());
        a();
    });
    #[cfg(not(feature = "rayon"))]
    std::thread::scope(|scope| {
        let other = scope.spawn(b);
        a();
        // The other system's panic, with its own message (the scope's would say only
        // that a scoped thread panicked).
        if let Err(panic) = other.join() {
            std::panic::resume_unwind(panic);
        }
    });
}

/// Runs the systems of a stage that are ready (`Some`), at once: nested joins (one job or
/// thread per extra system), a system alone in its stage run on the calling thread.
macro_rules! run_ready {
    ($only:ident) => {
        if let Some(job) = $only {
            job();
        }
    };
    ($first:ident, $($rest:ident),+) => {{
        let rest_runs = false $(|| $rest.is_some())+;
        match ($first, rest_runs) {
            (Some(first), true) => join(first, move || run_ready!($($rest),+)),
            (Some(first), false) => first(),
            (None, _) => run_ready!($($rest),+),
        }
    }};
}

macro_rules! systems_tuple {
    ($N:literal: $($S:ident $M:ident $s:ident $c:ident $v:ident $i:tt),+) => {
        impl<$($S),+> sealed::Sealed for ($($S,)+) {}

        impl<W, $($S, $M),+> Systems<W, ($($M,)+)> for ($($S,)+)
        where
            W: EditEntities + 'static,
            $(
                $S: System<W, $M>,
                $S::Writes: Mask<W> + TypeIds,
                $S::Reads: Mask<W> + TypeIds,
                $S::Watches: Mask<W> + TypeIds,
                $S::Queues: OneQueueAtMost,
                W: NoAlias<$S::Writes, $S::Reads>,
            )+
        {
            const STAGES: Option<&'static [usize]> = match [$(
                (
                    <$S::Writes as Mask<W>>::MASK,
                    <$S::Reads as Mask<W>>::MASK,
                    <$S::Watches as Mask<W>>::MASK,
                )
            ),+] {
                [$((Some($s), Some($c), Some($v))),+] => Some(&stages_of([$(Footprint {
                    writes: $s,
                    reads: $c | $v,
                    reserves: $S::RESERVES,
                }),+])),
                _ => None,
            };

            fn ids() -> Vec<(Vec<TypeId>, Vec<TypeId>)> {
                vec![$({
                    let (mut writes, mut reads) = (Vec::new(), Vec::new());
                    <$S::Writes as TypeIds>::push_ids(&mut writes);
                    <$S::Reads as TypeIds>::push_ids(&mut reads);
                    <$S::Watches as TypeIds>::push_ids(&mut reads);
                    if $S::RESERVES {
                        writes.push(TypeId::of::<crate::entity::Entities>());
                    }
                    (writes, reads)
                }),+]
            }

            fn names() -> Vec<&'static str> {
                vec![$(type_name::<$S>()),+]
            }

            fn check(world: &mut W) -> Result<(), AccessError> {
                $({
                    let mut queue = Commands::new();
                    $S::take(&mut world.parts(), &mut queue, 0).map(drop)?;
                })+
                Ok(())
            }

            type Queues = [Commands<W>; $N];

            fn queues() -> Self::Queues {
                core::array::from_fn(|_| Commands::new())
            }

            fn prepare(world: &mut W) {
                $($S::prepare(world);)+
            }

            fn shapes() -> Vec<(&'static str, SystemShape)> {
                vec![$({
                    let mut shape = SystemShape::default();
                    $S::shape(&mut shape);
                    (type_name::<$S>(), shape)
                }),+]
            }

            fn run_stage(
                &mut self,
                world: &mut W,
                stages: &[usize],
                stage: usize,
                queues: &mut Self::Queues,
                last_runs: &[ChangeCount],
                now: ChangeCount,
            ) -> Result<(), AccessError> {
                let ($($s,)+) = self;
                {
                    let mut parts = world.parts();
                    let [$($c,)+] = queues;
                    $(
                        let $c = if stages[$i] == stage {
                            let taken = $S::take(&mut parts, $c, last_runs[$i].since(now))?;
                            Some(move || $s.run(taken))
                        } else {
                            None
                        };
                    )+
                    run_ready!($($c),+);
                }
                Ok(())
            }
        }
    };
}

systems_tuple!(1: S1 M1 s1 c1 v1 0);
systems_tuple!(2: S1 M1 s1 c1 v1 0, S2 M2 s2 c2 v2 1);
systems_tuple!(3: S1 M1 s1 c1 v1 0, S2 M2 s2 c2 v2 1, S3 M3 s3 c3 v3 2);
systems_tuple!(4: S1 M1 s1 c1 v1 0, S2 M2 s2 c2 v2 1, S3 M3 s3 c3 v3 2, S4 M4 s4 c4 v4 3);
systems_tuple!(5: S1 M1 s1 c1 v1 0, S2 M2 s2 c2 v2 1, S3 M3 s3 c3 v3 2, S4 M4 s4 c4 v4 3, S5 M5 s5 c5 v5 4);
systems_tuple!(6: S1 M1 s1 c1 v1 0, S2 M2 s2 c2 v2 1, S3 M3 s3 c3 v3 2, S4 M4 s4 c4 v4 3, S5 M5 s5 c5 v5 4,
    S6 M6 s6 c6 v6 5);
systems_tuple!(7: S1 M1 s1 c1 v1 0, S2 M2 s2 c2 v2 1, S3 M3 s3 c3 v3 2, S4 M4 s4 c4 v4 3, S5 M5 s5 c5 v5 4,
    S6 M6 s6 c6 v6 5, S7 M7 s7 c7 v7 6);
systems_tuple!(8: S1 M1 s1 c1 v1 0, S2 M2 s2 c2 v2 1, S3 M3 s3 c3 v3 2, S4 M4 s4 c4 v4 3, S5 M5 s5 c5 v5 4,
    S6 M6 s6 c6 v6 5, S7 M7 s7 c7 v7 6, S8 M8 s8 c8 v8 7);
