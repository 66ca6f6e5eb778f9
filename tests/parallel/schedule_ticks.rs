//! Per-system change ticks: inside a schedule, a system's `Added<T>` and `Changed<T>` mean
//! "since this system last ran" (everything present at its first run); outside, "since
//! the world's last `tick()`". A property test draws frames and changes between them
//! (spawns, inserts over and under, removals, writes, ticks, `resume_on`) and checks what each of four
//! systems saw, and what a view outside the schedule sees, against a plain model of
//! times, in a `#[world]` and the run-time `World`.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};

use proptest::prelude::*;
use sparse_groups::prelude::*;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Position(i32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Health(i32);

/// What each watching system saw, one list per run.
#[derive(Default)]
struct AddedLog(Vec<Vec<Entity>>);
#[derive(Default)]
struct EarlyLog(Vec<Vec<Entity>>);
#[derive(Default)]
struct LateLog(Vec<Vec<Entity>>);

#[world]
#[track(Health)]
struct Game {
    positions: Storage<Position>,
    healths: Storage<Health>,
    added: Resource<AddedLog>,
    early: Resource<EarlyLog>,
    late: Resource<LateLog>,
}

fn dynamic() -> World {
    let mut world = World::new();
    world.track::<Health>();
    world.insert_resource(AddedLog::default());
    world.insert_resource(EarlyLog::default());
    world.insert_resource(LateLog::default());
    world
}

/// The entity indices (mod 64) `hurt` writes this frame (set by the test).
static HIT: AtomicU64 = AtomicU64::new(0);

fn sorted(mut entities: Vec<Entity>) -> Vec<Entity> {
    entities.sort_unstable();
    entities
}

fn saw_added(view: View<'_, &Position, Added<Health>>, mut log: ResMut<'_, AddedLog>) {
    log.0
        .push(sorted(view.into_iter().map(|(e, _)| e).collect()));
}

fn saw_early(view: View<'_, &Health, Changed<Health>>, mut log: ResMut<'_, EarlyLog>) {
    log.0
        .push(sorted(view.into_iter().map(|(e, _)| e).collect()));
}

fn hurt(view: View<'_, (Mut<'_, Health>, &Position)>) {
    let hit = HIT.load(Ordering::SeqCst);
    view.for_each(|e, (mut health, _)| {
        if hit >> (e.index() % 64) & 1 == 1 {
            health.0 -= 1;
        }
    });
}

fn saw_late(view: View<'_, &Health, Changed<Health>>, mut log: ResMut<'_, LateLog>) {
    log.0
        .push(sorted(view.into_iter().map(|(e, _)| e).collect()));
}

#[derive(Clone, Debug)]
enum Op {
    /// A frame of the schedule, `hurt` writing the indices of this mask.
    Frame(u64),
    Spawn(bool),
    /// `Health` inserted on entity `.0` (added where absent, replaced where present).
    Insert(usize),
    Remove(usize),
    /// `Health` written through `get_mut` outside the schedule.
    Write(usize),
    Tick,
    /// `Schedule::resume_on`: everything present counts as seen by every system.
    Resume,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => any::<u64>().prop_map(Op::Frame),
        3 => any::<bool>().prop_map(Op::Spawn),
        2 => any::<usize>().prop_map(Op::Insert),
        1 => any::<usize>().prop_map(Op::Remove),
        2 => any::<usize>().prop_map(Op::Write),
        1 => Just(Op::Tick),
        1 => Just(Op::Resume),
    ]
}

/// One entity's `Health` in the model: when it was added and last changed (model time).
#[derive(Clone, Copy, Debug)]
struct Stamps {
    added: u64,
    changed: u64,
}

/// The model: a time that moves as the world's change count does (each tick, each stage,
/// after the last stage), each entity's stamps, each system's last run.
#[derive(Default)]
struct Model {
    time: u64,
    tick_start: u64,
    healths: BTreeMap<Entity, Stamps>,
    /// `saw_added`, `saw_early`, `saw_late`: `None` until the first run.
    last_runs: [Option<u64>; 3],
    logs: [Vec<Vec<Entity>>; 3],
}

impl Model {
    fn watch(&mut self, system: usize, added: bool) {
        let since = self.last_runs[system];
        let seen = self
            .healths
            .iter()
            .filter(|(_, s)| {
                since.is_none_or(|since| if added { s.added } else { s.changed } > since)
            })
            .map(|(&e, _)| e)
            .collect();
        self.logs[system].push(seen);
        self.last_runs[system] = Some(self.time);
    }

    fn frame(&mut self, hit: u64, positions: &BTreeMap<Entity, ()>) {
        self.time += 1; // stage 0: saw_added, saw_early
        self.watch(0, true);
        self.watch(1, false);
        self.time += 1; // stage 1: hurt
        let time = self.time;
        for (e, s) in &mut self.healths {
            if positions.contains_key(e) && hit >> (e.index() % 64) & 1 == 1 {
                s.changed = time;
            }
        }
        self.time += 1; // stage 2: saw_late
        self.watch(2, false);
        self.time += 1; // after the last stage
    }

    /// `resume_on`: the count moves twice (the systems' last run, then a count for what
    /// comes after).
    fn resume(&mut self) {
        self.time += 1;
        self.last_runs = [Some(self.time); 3];
        self.time += 1;
    }

    /// The entities a view outside the schedule sees changed since the last tick.
    fn changed_since_tick(&self) -> Vec<Entity> {
        self.healths
            .iter()
            .filter(|(_, s)| s.changed >= self.tick_start)
            .map(|(&e, _)| e)
            .collect()
    }
}

macro_rules! logs {
    (static, $w:expr) => {
        [
            $w.resource::<AddedLog>().0.clone(),
            $w.resource::<EarlyLog>().0.clone(),
            $w.resource::<LateLog>().0.clone(),
        ]
    };
    (dynamic, $w:expr) => {
        [
            $w.resource::<AddedLog>().unwrap().0.clone(),
            $w.resource::<EarlyLog>().unwrap().0.clone(),
            $w.resource::<LateLog>().unwrap().0.clone(),
        ]
    };
}

fn run(ops: Vec<Op>) -> Result<(), TestCaseError> {
    let (mut s, mut d) = (Game::new(), dynamic());
    let mut model = Model {
        time: 1,
        tick_start: 1,
        ..Model::default()
    };
    let mut positions: BTreeMap<Entity, ()> = BTreeMap::new();
    let mut handles: Vec<Entity> = Vec::new();
    let mut s_frame = Schedule::new((saw_added, saw_early, hurt, saw_late));
    let mut d_frame = Schedule::new((saw_added, saw_early, hurt, saw_late));
    let stages = [s_frame.stages::<Game>(), d_frame.stages::<World>()];
    prop_assert_eq!(stages[0].of_systems(), [0, 0, 1, 2]);
    prop_assert_eq!(stages[1].of_systems(), [0, 0, 1, 2]);
    for op in ops {
        let pick = |i: usize| handles[i % handles.len()];
        match op {
            Op::Resume => {
                s_frame.resume_on(&mut s);
                d_frame.resume_on(&mut d);
                model.resume();
            }
            Op::Frame(hit) => {
                HIT.store(hit, Ordering::SeqCst);
                s_frame.run(&mut s);
                d_frame.run(&mut d).unwrap();
                model.frame(hit, &positions);
            }
            Op::Spawn(with_health) => {
                let (x, y) = if with_health {
                    (
                        s.spawn_with((Position(0), Health(10))),
                        d.spawn_with((Position(0), Health(10))),
                    )
                } else {
                    (s.spawn_with((Position(0),)), d.spawn_with((Position(0),)))
                };
                prop_assert_eq!(x, y);
                positions.insert(x, ());
                handles.push(x);
                if with_health {
                    let time = model.time;
                    model.healths.insert(
                        x,
                        Stamps {
                            added: time,
                            changed: time,
                        },
                    );
                }
            }
            Op::Insert(i) if !handles.is_empty() => {
                let e = pick(i);
                s.insert(e, Health(5)).unwrap();
                d.insert(e, Health(5)).unwrap();
                let time = model.time;
                model
                    .healths
                    .entry(e)
                    .and_modify(|s| s.changed = time)
                    .or_insert(Stamps {
                        added: time,
                        changed: time,
                    });
            }
            Op::Remove(i) if !handles.is_empty() => {
                let e = pick(i);
                let had = model.healths.remove(&e).is_some();
                prop_assert_eq!(s.remove::<Health>(e).is_some(), had);
                prop_assert_eq!(d.remove::<Health>(e).is_some(), had);
            }
            Op::Write(i) if !handles.is_empty() => {
                let e = pick(i);
                let time = model.time;
                let had = model
                    .healths
                    .get_mut(&e)
                    .map(|s| s.changed = time)
                    .is_some();
                prop_assert_eq!(s.get_mut::<Health>(e).map(|h| h.0 += 1).is_some(), had);
                prop_assert_eq!(d.get_mut::<Health>(e).map(|h| h.0 += 1).is_some(), had);
            }
            Op::Tick => {
                s.tick();
                d.tick();
                model.time += 1;
                model.tick_start = model.time;
            }
            _ => {}
        }
        prop_assert_eq!(
            &logs!(static, s),
            &model.logs,
            "what the systems saw, #[world]"
        );
        prop_assert_eq!(
            &logs!(dynamic, d),
            &model.logs,
            "what the systems saw, World"
        );
        let outside = model.changed_since_tick();
        let seen = |v: Vec<Entity>| sorted(v);
        prop_assert_eq!(
            seen(
                s.view::<(&Health, Changed<Health>)>()
                    .into_iter()
                    .map(|(e, _)| e)
                    .collect()
            ),
            outside.clone(),
            "outside the schedule, since the tick, #[world]"
        );
        prop_assert_eq!(
            seen(
                d.view::<(&Health, Changed<Health>)>()
                    .unwrap()
                    .into_iter()
                    .map(|(e, _)| e)
                    .collect()
            ),
            outside,
            "outside the schedule, since the tick, World"
        );
        s.check().map_err(TestCaseError::fail)?;
        d.check().map_err(TestCaseError::fail)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn each_system_sees_what_changed_since_it_last_ran(
        ops in prop::collection::vec(op(), 1..if cfg!(miri) { 12 } else { 60 }),
    ) {
        run(ops)?;
    }
}

static PANIC: AtomicU64 = AtomicU64::new(0);

fn panics_when_asked(_: &Storage<Position>) {
    assert_eq!(PANIC.load(Ordering::SeqCst), 0, "asked to panic");
}

#[test]
fn a_system_that_panics_leaves_its_stage_last_runs_as_they_were() {
    let mut game = Game::new();
    game.spawn_with((Position(0), Health(1)));
    game.spawn_with((Position(1), Health(2)));
    let mut frame = Schedule::new((saw_early, panics_when_asked));
    assert_eq!(frame.stages::<Game>().of_systems(), [0, 0]);
    PANIC.store(1, Ordering::SeqCst);
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| frame.run(&mut game)));
    assert!(panicked.is_err());
    PANIC.store(0, Ordering::SeqCst);
    frame.run(&mut game);
    let seen = &game.resource::<EarlyLog>().0;
    // The run that panicked may or may not have logged before the other system failed;
    // the next run is still a first run: it sees both entities.
    assert_eq!(seen.last().map(Vec::len), Some(2), "{seen:?}");
    frame.run(&mut game);
    assert_eq!(game.resource::<EarlyLog>().0.last().map(Vec::len), Some(0));
}

static PANIC_AFTER_SYNC: AtomicU64 = AtomicU64::new(0);

fn panics_after_the_sync_point_when_asked(_: &Storage<Position>) {
    assert_eq!(PANIC_AFTER_SYNC.load(Ordering::SeqCst), 0, "asked to panic");
}

/// A panic after a sync point: the systems before it, whose commands the sync point
/// applied, ran completely; their next run does not report again what they saw.
macro_rules! a_panic_after_a_sync_point_keeps_the_runs_before_it {
    ($world:expr $(, $unwrap:ident)?) => {{
        let mut w = $world;
        let e = w.spawn_with((Position(0), Health(1)));
        let mut frame = Schedule::new((saw_added, ApplyCommands, panics_after_the_sync_point_when_asked));
        PANIC_AFTER_SYNC.store(1, Ordering::SeqCst);
        let panicked =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| frame.run(&mut w)));
        PANIC_AFTER_SYNC.store(0, Ordering::SeqCst);
        assert!(panicked.is_err());
        frame.run(&mut w)$(.$unwrap())?;
        assert_eq!(w.resource::<AddedLog>()$(.$unwrap())?.0, [vec![e], vec![]]);
    }};
}

#[test]
fn a_panic_after_a_sync_point_keeps_the_runs_before_it_on_both_worlds() {
    a_panic_after_a_sync_point_keeps_the_runs_before_it!(Game::new());
    a_panic_after_a_sync_point_keeps_the_runs_before_it!(dynamic(), unwrap);
}

#[test]
fn a_schedule_run_on_a_new_world_starts_over() {
    let mut frame = Schedule::new((saw_added,));
    let mut first = Game::new();
    first.spawn_with((Position(0), Health(1)));
    for _ in 0..5 {
        frame.run(&mut first);
    }
    // A fresh world's count is lower than the old one's: every system's next run is a
    // first run, so nothing the new world holds is missed.
    let mut second = Game::new();
    let e = second.spawn_with((Position(0), Health(1)));
    frame.run(&mut second);
    assert_eq!(second.resource::<AddedLog>().0, [vec![e]]);
    frame.run(&mut second);
    assert_eq!(second.resource::<AddedLog>().0, [vec![e], vec![]]);
}

/// A schedule resumed on a world (as on one loaded from a snapshot) counts what the world
/// holds as seen: its first run reports nothing, its next the entity added in between.
macro_rules! a_resumed_schedule_reports_only_later_changes {
    ($world:expr $(, $unwrap:ident)?) => {{
        let mut w = $world;
        let old = w.spawn_with((Position(0), Health(1)));
        w.get_mut::<Health>(old).unwrap().0 = 2;
        let mut frame = Schedule::new((saw_added, saw_early));
        frame.resume_on(&mut w);
        frame.run(&mut w)$(.$unwrap())?;
        let new = w.spawn_with((Position(1), Health(1)));
        frame.run(&mut w)$(.$unwrap())?;
        w.get_mut::<Health>(old).unwrap().0 = 3;
        frame.run(&mut w)$(.$unwrap())?;
        assert_eq!(w.resource::<AddedLog>()$(.$unwrap())?.0, [vec![], vec![new], vec![]]);
        assert_eq!(
            w.resource::<EarlyLog>()$(.$unwrap())?.0,
            [vec![], vec![new], vec![old]]
        );
    }};
}

#[test]
fn a_resumed_schedule_reports_only_later_changes_on_both_worlds() {
    a_resumed_schedule_reports_only_later_changes!(Game::new());
    a_resumed_schedule_reports_only_later_changes!(dynamic(), unwrap);
}

/// The world's count after `jumps` to `now` (a hidden test hook: the count only moves
/// forward, so every stamp stays below it), on either kind of world.
fn jump<W: sparse_groups::__private::WorldParts>(world: &mut W, now: u32) {
    sparse_groups::__private::WorldParts::jump_change_count(world, now);
}

/// A change made after the world's count restarted (once in 2³² ticks or stages) is
/// reported to a system even when the count has climbed back above the system's last run
/// before it runs again: the schedule compares the count's restarts, not only its value.
macro_rules! a_change_across_a_restart_is_reported {
    ($world:expr, $log:ident $(, $unwrap:ident)?) => {{
        let mut w = $world;
        let e = w.spawn_with((Position(0), Health(1)));
        let f = w.spawn_with((Position(1), Health(1)));
        let mut frame = Schedule::new((saw_early,));
        jump(&mut w, u32::MAX - 10);
        frame.run(&mut w)$(.$unwrap())?;
        assert_eq!(w.resource::<EarlyLog>()$(.$unwrap())?.0.last(), Some(&vec![e, f]));
        for _ in 0..20 {
            w.tick(); // the count passes `u32::MAX` and restarts
        }
        w.get_mut::<Health>(f).unwrap().0 = 5;
        jump(&mut w, u32::MAX - 5); // above the system's last run again
        frame.run(&mut w)$(.$unwrap())?;
        // Reported (with `e`, reported twice: a restart makes every run a first run).
        assert_eq!(w.resource::<EarlyLog>()$(.$unwrap())?.0.last(), Some(&vec![e, f]));
        frame.run(&mut w)$(.$unwrap())?;
        assert_eq!(w.resource::<EarlyLog>()$(.$unwrap())?.0.last(), Some(&vec![]));
        w.check().unwrap();
    }};
}

#[test]
fn a_change_across_a_restart_of_the_count_is_reported() {
    a_change_across_a_restart_is_reported!(Game::new(), EarlyLog);
    a_change_across_a_restart_is_reported!(dynamic(), EarlyLog, unwrap);
}

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Marked;

#[world]
#[track(Health)]
struct Marking {
    healths: Storage<Health>,
    marked: Storage<Marked>,
}

fn dynamic_marking() -> World {
    let mut world = World::new();
    world.track::<Health>();
    world
}

/// Marks each entity whose health changed since the system last ran, by a command.
fn mark_changed<W: Stores<Marked>>(
    view: View<'_, &Health, Changed<Health>>,
    commands: &mut Commands<W>,
) {
    view.for_each(|e, _| commands.insert(e, Marked));
}

static LATER_PANIC: AtomicU64 = AtomicU64::new(0);

/// A later stage's system (it writes what `mark_changed` reads) that panics when asked;
/// it hands no value out, so it marks none changed.
fn panics_later(_: ValuesMut<'_, Health>) {
    assert_eq!(LATER_PANIC.load(Ordering::SeqCst), 0, "asked to panic");
}

/// A run cut short by a panic in a later stage drops the commands earlier stages queued,
/// and stores no system's last run: what those systems reacted to is reported to them
/// again at the next run, so their commands are queued again.
macro_rules! a_panic_in_a_later_stage_loses_no_change {
    ($world:expr, $W:ty $(, $unwrap:ident)?) => {{
        let mut w = $world;
        let e = w.spawn_with((Health(1),));
        let mut frame = Schedule::new((mark_changed::<$W>, panics_later));
        assert_eq!(frame.stages::<$W>().of_systems(), [0, 1]);
        frame.run(&mut w)$(.$unwrap())?;
        assert!(w.contains::<Marked>(e));
        w.remove::<Marked>(e);
        w.get_mut::<Health>(e).unwrap().0 = 2;
        LATER_PANIC.store(1, Ordering::SeqCst);
        let panicked =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| frame.run(&mut w)));
        LATER_PANIC.store(0, Ordering::SeqCst);
        assert!(panicked.is_err());
        assert!(!w.contains::<Marked>(e), "the commands of the cut run were dropped");
        frame.run(&mut w)$(.$unwrap())?;
        assert!(w.contains::<Marked>(e), "the change is reported again");
        w.check().unwrap();
    }};
}

#[test]
fn a_panic_in_a_later_stage_reports_the_changes_again() {
    a_panic_in_a_later_stage_loses_no_change!(Marking::new(), Marking);
    a_panic_in_a_later_stage_loses_no_change!(dynamic_marking(), World, unwrap);
}
