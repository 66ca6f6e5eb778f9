//! Systems and schedules: plain functions whose parameters are parts of a world
//! ([`SystemParam`]), listed in order in a [`Schedule`] (any number: tuples of up to
//! sixteen, chained with `then`), which runs at once the systems whose parts are apart and keeps the
//! written order of those that conflict. The result equals running the systems one after
//! the other (their `Added`/`Changed` filters meaning "since this system last ran", see
//! below), with the commands they queued applied at each sync point ([`ApplyCommands`])
//! and at the end.
//!
//! ```text
//! Schedule::new((movement, decay, collide, ApplyCommands)).then((spawn, aim))
//!   stage 0: movement ‖ decay      (apart: run on two threads)
//!   stage 1: collide               (conflicts with movement: after it)
//!   stage 2: the commands of movement, decay and collide, in system order
//!   stage 3: spawn ‖ aim           (they see those commands applied)
//!   then the commands of spawn and aim
//! ```
//!
//! On a `#[world]` the stages are a constant the compiler computes from the numbers of
//! the world's storages and resources (see `stages.rs`; up to 256 elements and 128
//! numbered types, past which they are computed at the first run, the same), and every
//! system's own parameters are proven apart by the borrow rule; on the run-time `World`
//! the same stages are computed when the schedule first runs. A stage is no barrier: the
//! schedule runs *spans* of consecutive stages, each span's systems in *chains* of the
//! systems that conflict with each other, run one after the other, the chains at once
//! (`plan.rs`, planned from the systems' measured costs; `span.rs`).
//!
//! ```text
//! stages: 0: movement, decay   1: collide            spans: movement → collide | decay
//! ```
//!
//! Change detection per system: the world's change count moves on once for each stage
//! (before the span that holds it) and after the last (see `storage/ticks.rs`), and each
//! system stamps with its own stage's count, so what a stage writes is stamped with a count
//! of its own, and the schedule keeps each system's count of its last run (stored once
//! its commands are applied, at the next sync point or after the last stage: a run cut
//! short by a panic leaves the count of every system whose commands were not applied as
//! it was, so what they reacted to is reported again; what sync points applied before the
//! panic stays applied); a system's
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
//! There is no `unsafe` here. Each chain of a span takes a part of one split world
//! (`WorldParts::parts`, then `split_parts`), whose slots lend each storage or resource
//! mutably once or shared many times, and a part split off takes out of the world's parts
//! what it writes; a chain's systems take their parameters from its part one after the
//! other, each through a reborrow that ends with its run. The plan only decides which
//! systems ask together, so a wrong plan could at worst be refused (an `AccessError`), never
//! alias.

mod param;
mod plan;
mod span;
mod stages;
mod system;
mod systems;
mod threads;

use core::any::type_name;
use core::fmt;
use core::marker::PhantomData;

use crate::advice::Advice;
use crate::change::{Commands, EditEntities};
use crate::component::short_name;
use crate::lend::{AccessError, SendParts, WorldParts};
use crate::message::{MessageCursor, fresh_number};
use crate::storage::ChangeCount;
pub use param::SystemParam;
use plan::{Span, planned, stage_by_stage};
use span::{At, run_span, span_counts};
use stages::{ElementAccess, stages_of_ids};
pub use system::{ParamItem, ParametersApart, System};
pub use systems::{ApplyCommands, SystemOf, Systems};
use systems::{Chain, Then};
use threads::Clock;
pub use threads::{MEASURE_EVERY, Threads};

/// Keeps [`SystemParam`] to this crate.
mod sealed {
    /// Sealing the parameter trait.
    pub trait Sealed {}
}

/// Systems listed in order, run span by span, the chains of a span at once (see the module
/// documentation).
///
/// `S` is a list of systems ([`Systems`]): a tuple of up to sixteen systems and sync points
/// ([`ApplyCommands`]), with more chained by [`then`](Schedule::then); each system has up
/// to eight parameters, and a tuple of parameters counts as one. `M` tells the systems'
/// arities apart and is inferred.
pub struct Schedule<S, M> {
    systems: S,
    /// The plan, made at the first run: each element's stage (from the compiler's constant
    /// on a `#[world]`), and where the sync points are.
    plan: Option<Plan>,
    /// Each element's change count at its last complete run (`NEVER`: everything present
    /// is news to it).
    last_runs: Vec<ChangeCount>,
    /// The message cursors of the systems' readers, in element order, as of each system's
    /// last complete run (new: every message kept is news).
    cursors: Vec<MessageCursor>,
    /// This schedule's number, for the queues of messages (kept by `then`).
    id: u64,
    /// How a stage of several systems runs (kept by `then`).
    threads: Threads,
    /// The measurement of its runs on threads and on the calling thread (made anew by
    /// `then`: the systems change).
    clock: Clock,
    marker: PhantomData<fn() -> M>,
}

/// What a schedule runs in which stage, and in which spans.
#[derive(Clone, Debug)]
struct Plan {
    /// Each element's stage, flat.
    stages: Vec<usize>,
    /// What each element writes and reads.
    access: Vec<ElementAccess>,
    /// The spans: one per stage until planned from costs.
    spans: Vec<Span>,
    /// What the spans were planned from.
    planned: Planned,
    /// Whether the compiler computed the stages.
    decided_at_compile_time: bool,
    /// Where each element's message cursors start, and the end of the last element's.
    cursor_starts: Vec<usize>,
}

/// What a plan's spans were made from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Planned {
    /// The stages, one span each.
    Stages,
    /// A cost of one for every system ([`Threads::Many`]).
    UnitCosts,
    /// The systems' times measured on the calling thread ([`Threads::Measured`]).
    Measured,
}

/// What starting a span's chains on threads costs, in the units of a system's cost, when
/// every system costs one ([`Threads::Many`]): little, so that of two plans as fast the
/// one with fewer starts is chosen.
const UNIT_START: f64 = 0.01;

/// What starting a span's chains on threads costs when the systems' costs are measured
/// (nanoseconds): a wake-up of the pool's threads and the wait for the last chain, on
/// the order of what the 2-core VM of docs/performance.md shows; the measurement of whole
/// runs then decides between threads and the calling thread.
const MEASURED_START_NS: f64 = 5_000.0;

impl Plan {
    fn of<W, S, M>() -> Plan
    where
        W: WorldParts + 'static,
        S: Systems<W, M>,
    {
        let mut access = Vec::with_capacity(S::COUNT);
        S::push_access(&mut access);
        let compiled = S::STAGES;
        let stages = match &compiled {
            Some((stages, len)) => stages[..*len].to_vec(),
            None => stages_of_ids(&access),
        };
        let mut cursor_starts = Vec::with_capacity(access.len() + 1);
        cursor_starts.push(0);
        for (element, access) in access.iter().enumerate() {
            cursor_starts.push(cursor_starts[element] + access.cursors);
        }
        Plan {
            spans: stage_by_stage(&stages, &access),
            planned: Planned::Stages,
            stages,
            access,
            decided_at_compile_time: compiled.is_some(),
            cursor_starts,
        }
    }

    /// Plans the spans for `threads`: from a unit cost each for `Many`, from the systems'
    /// times `clock` measured (when it has new ones) for `Measured`; `One` runs every
    /// span's systems in stage order on the calling thread, whatever the spans.
    fn plan_for(&mut self, threads: Threads, clock: &mut Clock) {
        let costs = match threads {
            Threads::One => return,
            Threads::Many if self.planned == Planned::UnitCosts => return,
            Threads::Many => (vec![1.0; self.stages.len()], UNIT_START, Planned::UnitCosts),
            Threads::Measured => match clock.costs(self.stages.len()) {
                Some(costs) => (costs, MEASURED_START_NS, Planned::Measured),
                None => return,
            },
        };
        let (costs, start, planned_from) = costs;
        self.spans = planned(
            &self.stages,
            &self.access,
            &costs,
            threads::threads(),
            start,
        );
        self.planned = planned_from;
    }
}

impl<S, M> Schedule<S, M> {
    /// A schedule of `systems`, a tuple of functions, in the order they are written.
    pub fn new(systems: S) -> Self {
        Schedule {
            systems,
            plan: None,
            last_runs: Vec::new(),
            cursors: Vec::new(),
            id: fresh_number(),
            threads: Threads::default(),
            clock: Clock::default(),
            marker: PhantomData,
        }
    }

    /// This schedule with `more` systems listed after its own: a tuple of up to sixteen
    /// systems and sync points, as [`new`](Schedule::new) takes. Chain as many as needed;
    /// the stages are computed over the whole list (on a `#[world]`, by the compiler for up
    /// to 256 elements).
    pub fn then<T, MT>(self, more: T) -> Schedule<Chain<S, T>, Then<M, MT>> {
        Schedule {
            systems: Chain(self.systems, more),
            plan: None,
            last_runs: self.last_runs,
            cursors: self.cursors,
            id: self.id,
            threads: self.threads,
            clock: Clock::default(),
            marker: PhantomData,
        }
    }

    /// Counts everything `world` holds now as seen by every system of this schedule: their
    /// next run's `Added`/`Changed` filters pass only what changes after this call. For a
    /// schedule made anew on a world loaded from a snapshot (a saved game resumed), whose
    /// systems would otherwise see every entity as added at their first run; a change made
    /// after the call, outside the schedule or in it, is reported as usual.
    pub fn resume_on<W>(&mut self, world: &mut W)
    where
        W: WorldParts + 'static,
        S: Systems<W, M>,
    {
        let seen = world.step_changes();
        // What is written from now on gets a count of its own, newer than `seen`.
        world.step_changes();
        self.last_runs = vec![seen; S::COUNT];
    }

    /// Runs every system once, span by span, then the commands the systems queued, in
    /// system order (so the result equals running the systems one after the other, then
    /// their commands, each system's change filters passing what changed since its last
    /// run). Returns what the world's `borrow` returns: nothing
    /// on a `#[world]`, whose schedules cannot be refused, a `Result` on the run-time
    /// `World`.
    ///
    /// With sync points ([`ApplyCommands`]), the commands queued before each are applied
    /// there, in system order.
    ///
    /// # Errors
    /// On the run-time `World`, what its `borrow` refuses for a system's parameters (a
    /// group it does not have, a resource it does not hold, a type twice in one system),
    /// checked for every system before any runs: a refused run changes nothing. (A
    /// resource a later system needs must be there before the run, even if a sync point's
    /// commands would insert it; and if a sync point's commands take away what a later
    /// system needs, the run stops at that system with the error, the spans before it done,
    /// and in its own the systems its chain ran before it and the other chains.)
    pub fn run<W>(&mut self, world: &mut W) -> W::Lent<()>
    where
        W: EditEntities + SendParts,
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
        W: EditEntities + SendParts,
        S: Systems<W, M>,
    {
        let held = world.storage_count();
        S::prepare(world);
        let Schedule {
            systems,
            plan,
            last_runs,
            cursors,
            id,
            threads,
            clock,
            ..
        } = self;
        let plan = plan.get_or_insert_with(Plan::of::<W, S, M>);
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
        last_runs.resize(S::COUNT, ChangeCount::NEVER);
        cursors.resize(S::CURSORS, MessageCursor::default());
        let run = fresh_number();
        let way = clock.next_run(*threads);
        plan.plan_for(*threads, clock);
        // Each system's count in this run, stored as its last run only once the run is
        // complete, its commands applied: a run cut short by a panic leaves every system's
        // last run where it was, so what they reacted to is reported to them again. Its
        // message cursors likewise: it reads again what it read in a run cut short.
        let mut runs = last_runs.clone();
        let mut run_cursors = cursors.clone();
        let mut queues: Vec<Commands<W>> = (0..S::COUNT).map(|_| Commands::new()).collect();
        // The queues before this element are applied.
        let mut applied = 0;
        for span in &plan.spans {
            let span = match span {
                Span::Sync(sync) => {
                    let sync = *sync;
                    world.step_changes();
                    apply(world, &mut queues[applied..sync]);
                    // Those systems' commands are applied: their runs are complete (a later
                    // panic will not report to them again what they reacted to).
                    last_runs[applied..sync].copy_from_slice(&runs[applied..sync]);
                    let read = plan.cursor_starts[applied]..plan.cursor_starts[sync];
                    cursors[read.clone()].copy_from_slice(&run_cursors[read]);
                    applied = sync;
                    continue;
                }
                Span::Systems(span) => span,
            };
            let counts = span_counts(world, span.stages.len());
            let at = At {
                stages: &plan.stages,
                last_runs,
                counts: &counts,
                first: span.stages.start,
            };
            run_span(
                systems,
                &mut queues,
                &mut run_cursors,
                world.parts(),
                span,
                &at,
                way,
                clock,
            )?;
            for chain in &span.chains {
                for &k in &chain.elements {
                    runs[k] = at.count_of(k);
                }
            }
        }
        // What is written after the last stage (the commands, code outside the schedule)
        // gets a count of its own, newer than every system's run.
        world.step_changes();
        apply(world, &mut queues[applied..]);
        *last_runs = runs;
        *cursors = run_cursors;
        // Every reader of this schedule has read what was sent before its previous run
        // ended: it goes.
        S::end_run(world, *id, run);
        clock.ran(way);
        Ok(())
    }

    /// How the schedule runs a stage of several systems: by default
    /// [`Threads::Measured`], the faster of its stages on threads and every system on the
    /// calling thread, as measured on its own runs; [`Threads::Many`] always on threads,
    /// [`Threads::One`] always on the calling thread. The results are the same.
    ///
    /// ```
    /// use sparse_core::{Schedule, Storage, Threads, View, World};
    /// # struct Hp(u32); impl sparse_core::Component for Hp {}
    /// # struct Mana(u32); impl sparse_core::Component for Mana {}
    /// fn heal(view: View<'_, &mut Hp>) { view.for_each(|_, hp| hp.0 += 1); }
    /// fn rest(view: View<'_, &mut Mana>) { view.for_each(|_, m| m.0 += 2); }
    ///
    /// let mut world = World::new();
    /// let e = world.spawn_with((Hp(1), Mana(0)));
    /// let mut schedule = Schedule::new((heal, rest));
    /// schedule.set_threads(Threads::One);
    /// schedule.run(&mut world)?;
    /// assert_eq!((world.get::<Hp>(e).unwrap().0, world.get::<Mana>(e).unwrap().0), (2, 2));
    /// # Ok::<(), sparse_core::AccessError>(())
    /// ```
    pub fn set_threads(&mut self, threads: Threads) {
        self.threads = threads;
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
        let mut systems = Vec::with_capacity(S::COUNT);
        S::push_shapes(&mut systems);
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
        let plan = Plan::of::<W, S, M>();
        let mut names = Vec::with_capacity(S::COUNT);
        S::push_names(&mut names);
        Stages {
            names,
            stages: plan.stages,
            decided_at_compile_time: plan.decided_at_compile_time,
        }
    }

    /// The spans this schedule runs on worlds `W`, as it last planned them: sync points,
    /// and runs of consecutive stages whose systems go in chains that run at once, each
    /// chain's systems one after the other (see [`Spans`]). `None` before its first run
    /// (the plan is made then, and again as [`Threads::Measured`] measures its systems).
    pub fn spans<W>(&self) -> Option<Spans>
    where
        W: WorldParts + 'static,
        S: Systems<W, M>,
    {
        let plan = self.plan.as_ref()?;
        let mut names = Vec::with_capacity(S::COUNT);
        S::push_names(&mut names);
        Some(Spans {
            names,
            spans: plan
                .spans
                .iter()
                .map(|span| match span {
                    Span::Sync(k) => (None, vec![vec![*k]]),
                    Span::Systems(run) => (
                        Some(run.stages.clone()),
                        run.chains.iter().map(|c| c.elements.clone()).collect(),
                    ),
                })
                .collect(),
        })
    }
}

/// Applies `queues` in order (each system's commands, in system order).
fn apply<W: EditEntities + 'static>(world: &mut W, queues: &mut [Commands<W>]) {
    for queue in queues {
        if !queue.is_empty() {
            queue.apply(world);
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

    /// Whether the compiler computed them (a `#[world]`, for up to 256 elements over at
    /// most 128 storages and resources), rather than the first run (the run-time `World`,
    /// or a longer schedule or larger world).
    pub fn decided_at_compile_time(&self) -> bool {
        self.decided_at_compile_time
    }
}

/// A schedule's spans, with its systems' names: see [`Schedule::spans`]. Printed, one line
/// per span, chains apart by `|`, each chain's systems in the order they run:
///
/// ```text
/// stages 0..3: movement → data → more_complex | health → damage → sprite
/// stage 3: render
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spans {
    names: Vec<&'static str>,
    /// Each span's stages (`None`: a sync point) and chains of elements.
    spans: Vec<(Option<core::ops::Range<usize>>, Chains)>,
}

/// A span's chains, each as the elements it runs in order.
type Chains = Vec<Vec<usize>>;

impl Spans {
    /// Each span's chains, each chain as the elements (their places in the list) it runs in
    /// order; a sync point as one chain of itself.
    pub fn chains(&self) -> Vec<Vec<Vec<usize>>> {
        self.spans
            .iter()
            .map(|(_, chains)| chains.clone())
            .collect()
    }

    /// Each span's stages (`None` for a sync point).
    pub fn stages(&self) -> Vec<Option<core::ops::Range<usize>>> {
        self.spans
            .iter()
            .map(|(stages, _)| stages.clone())
            .collect()
    }
}

impl fmt::Display for Spans {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (stages, chains) in &self.spans {
            let chains: Vec<String> = chains
                .iter()
                .map(|chain| {
                    let names: Vec<String> =
                        chain.iter().map(|&k| short_name(self.names[k])).collect();
                    names.join(" → ")
                })
                .collect();
            match stages {
                None => writeln!(f, "sync point: {}", chains.join(""))?,
                Some(stages) if stages.len() == 1 => {
                    writeln!(f, "stage {}: {}", stages.start, chains.join(" | "))?;
                }
                Some(stages) => writeln!(f, "stages {stages:?}: {}", chains.join(" | "))?,
            }
        }
        Ok(())
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
