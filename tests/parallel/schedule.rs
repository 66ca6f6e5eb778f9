//! Systems and schedules on both kinds of world: stages decided by the compiler on a
//! `#[world]` and at the first run on the run-time `World`, the same; systems of one stage
//! on different threads; commands applied after the last stage in system order; the result
//! equal to running the systems one after the other, then their commands (a property test
//! against the systems called by hand, on both worlds).

use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::common::cases_or;
use proptest::prelude::*;
use sparse_groups::prelude::*;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Position(f32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Velocity(f32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Health(i32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Dead;

#[derive(Default, Debug, PartialEq)]
struct Frames(u32);

#[world]
#[group(Position, Velocity)]
struct Scene {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
    healths: Storage<Health>,
    dead: Storage<Dead>,
    frames: Resource<Frames>,
}

fn movement(group: GroupMut<'_, (Position, Velocity)>) {
    group.for_each(|_, (p, v)| p.0 += v.0);
}

fn decay(mut healths: ValuesMut<'_, Health>, mut frames: ResMut<'_, Frames>) {
    for (_, h) in healths.iter_mut() {
        h.0 -= 1;
    }
    frames.0 += 1;
}

fn brake(mut velocities: ValuesMut<'_, Velocity>, positions: &Storage<Position>) {
    for (e, v) in velocities.iter_mut() {
        if positions.get(e).is_some_and(|p| p.0 > 2.0) {
            v.0 = 0.0;
        }
    }
}

fn reap<W: Stores<Dead>>(healths: &Storage<Health>, commands: &mut Commands<W>) {
    for (e, h) in healths.iter() {
        if h.0 <= 0 {
            commands.insert(e, Dead);
        }
    }
}

/// Four entities moving right, with health 0 to 3.
macro_rules! setup {
    ($world:expr) => {
        (0..4)
            .map(|i| {
                let e = $world.spawn_with((Position(i as f32), Velocity(1.0)));
                $world.insert(e, Health(i)).unwrap();
                e
            })
            .collect::<Vec<Entity>>()
    };
}

#[test]
fn a_world_schedule_is_staged_by_the_compiler_and_runs_like_the_systems_in_order() {
    let mut scene = Scene::new();
    let entities = setup!(scene);
    let mut frame = Schedule::new((movement, decay, brake, reap::<Scene>));
    let stages = frame.stages::<Scene>();
    assert!(stages.decided_at_compile_time());
    // movement and decay are apart; brake writes velocities movement reads; reap reads
    // healths decay writes.
    assert_eq!(stages.of_systems(), [0, 0, 1, 1]);
    assert_eq!(
        stages.to_string(),
        "stage 0: movement, decay\nstage 1: brake, reap<Scene>\n"
    );
    frame.run(&mut scene);

    // The same systems one after the other.
    let mut alone = Scene::new();
    let _ = setup!(alone);
    let mut commands = Commands::new();
    movement(alone.group());
    {
        let (h, f) = alone.borrow::<(ValuesMut<Health>, ResMut<Frames>)>();
        decay(h, f);
    }
    {
        let (v, p) = alone.borrow::<(ValuesMut<Velocity>, &Storage<Position>)>();
        brake(v, p);
    }
    reap(alone.storage(), &mut commands);
    alone.apply(&mut commands);
    for &e in &entities {
        assert_eq!(scene.get::<Position>(e), alone.get::<Position>(e));
        assert_eq!(scene.get::<Velocity>(e), alone.get::<Velocity>(e));
        assert_eq!(scene.get::<Health>(e), alone.get::<Health>(e));
        assert_eq!(scene.contains::<Dead>(e), alone.contains::<Dead>(e));
    }
    assert_eq!(scene.resource::<Frames>(), &Frames(1));
    assert_eq!(
        scene.storage::<Dead>().len(),
        2,
        "health 0 and 1 reached 0 or below"
    );
}

#[test]
fn the_run_time_world_computes_the_same_stages_and_refuses_what_it_lacks() {
    let mut world = World::with_groups([GroupSpec::of::<(Position, Velocity)>()]).unwrap();
    world.insert_resource(Frames::default());
    let entities = setup!(world);
    let mut frame = Schedule::new((movement, decay, brake, reap::<World>));
    let stages = frame.stages::<World>();
    assert!(!stages.decided_at_compile_time());
    assert_eq!(stages.of_systems(), [0, 0, 1, 1]);
    frame.run(&mut world).unwrap();
    assert_eq!(world.resource::<Frames>(), Ok(&Frames(1)));
    assert_eq!(world.get::<Position>(entities[3]), Some(&Position(4.0)));
    assert_eq!(world.storage::<Dead>().map(|s| s.len()), Some(2));

    let mut bare = World::new();
    let refused = Schedule::new((movement,)).run(&mut bare);
    assert!(matches!(
        refused,
        Err(sparse_groups::AccessError::NoSuchGroup(_))
    ));
}

/// Systems that wait for each other: they finish only if they run at once.
static MET: AtomicUsize = AtomicUsize::new(0);

fn meet() -> bool {
    meet_at(&MET)
}

/// Whether a second system came to `met` within ten seconds of this one.
fn meet_at(met: &AtomicUsize) -> bool {
    met.fetch_add(1, Ordering::SeqCst);
    let deadline = Instant::now() + Duration::from_secs(10);
    while met.load(Ordering::SeqCst) < 2 {
        if Instant::now() > deadline {
            return false;
        }
        std::hint::spin_loop();
    }
    true
}

fn meet_healths(mut healths: ValuesMut<'_, Health>) {
    assert!(
        meet(),
        "the other system of the stage did not run meanwhile"
    );
    assert_eq!(healths.iter_mut().count(), 0);
}

fn meet_positions(positions: &Storage<Position>) {
    assert!(
        meet(),
        "the other system of the stage did not run meanwhile"
    );
    let _ = positions.len();
}

#[test]
fn the_systems_of_one_stage_run_at_once() {
    let mut scene = Scene::new();
    let mut frame = Schedule::new((meet_healths, meet_positions));
    // On threads always: measured, a run of the schedule may go on one thread.
    frame.set_threads(Threads::Many);
    assert_eq!(frame.stages::<Scene>().of_systems(), [0, 0]);
    frame.run(&mut scene);
    assert_eq!(MET.load(Ordering::SeqCst), 2);
}

/// A system filtering by `Health` and one writing `Health`, which meet: a filter borrows
/// nothing, so they share a stage (both worlds) and run at once, each reading and writing
/// what it should meanwhile (ThreadSanitizer runs this).
static MET_FILTER: AtomicUsize = AtomicUsize::new(0);

fn push_the_healthy(view: View<'_, &mut Velocity, With<Health>>) {
    let met = meet_at(&MET_FILTER);
    view.for_each(|_, v| v.0 += 1.0);
    assert!(met, "the writer of `Health` did not run meanwhile");
}

fn wound_all(view: View<'_, &mut Health>) {
    let met = meet_at(&MET_FILTER);
    view.for_each(|_, h| h.0 -= 1);
    assert!(
        met,
        "the system filtering by `Health` did not run meanwhile"
    );
}

#[test]
fn a_filter_and_a_writer_of_its_type_share_a_stage() {
    let mut scene = Scene::new();
    let healthy = scene.spawn_with((Position(0.0), Velocity(0.0), Health(3)));
    let other = scene.spawn_with((Position(0.0), Velocity(0.0)));
    let mut frame = Schedule::new((push_the_healthy, wound_all));
    frame.set_threads(Threads::Many);
    assert_eq!(frame.stages::<Scene>().of_systems(), [0, 0]);
    frame.run(&mut scene);
    assert_eq!(scene.get::<Velocity>(healthy), Some(&Velocity(1.0)));
    assert_eq!(scene.get::<Velocity>(other), Some(&Velocity(0.0)));
    assert_eq!(scene.get::<Health>(healthy), Some(&Health(2)));

    MET_FILTER.store(0, Ordering::SeqCst);
    let mut world = World::new();
    let healthy = world.spawn_with((Position(0.0), Velocity(0.0), Health(3)));
    world.spawn_with((Velocity(0.0),));
    let mut frame = Schedule::new((push_the_healthy, wound_all));
    frame.set_threads(Threads::Many);
    assert_eq!(frame.stages::<World>().of_systems(), [0, 0]);
    frame.run(&mut world).unwrap();
    assert_eq!(world.get::<Velocity>(healthy), Some(&Velocity(1.0)));
    assert_eq!(world.get::<Health>(healthy), Some(&Health(2)));
}

/// Two chains of two stages each: `first_p` then `then_p` write `Position`, `first_v`
/// then `then_v` write `Velocity`. Planned in one span (a unit cost each: two chains at
/// once beat two stages), `then_p` (stage 1) meets `first_v` (stage 0): it can only if the
/// chains cross the stages.
static MET_CHAINS: AtomicUsize = AtomicUsize::new(0);

fn first_p(view: View<'_, &mut Position>) {
    view.for_each(|_, p| p.0 += 1.0);
}

fn then_p(view: View<'_, &mut Position>) {
    let met = meet_at(&MET_CHAINS);
    view.for_each(|_, p| p.0 *= 10.0);
    assert!(met, "the other chain's first system did not run meanwhile");
}

fn first_v(view: View<'_, &mut Velocity>) {
    let met = meet_at(&MET_CHAINS);
    view.for_each(|_, v| v.0 += 1.0);
    assert!(met, "the first chain's second system did not run meanwhile");
}

fn then_v(view: View<'_, &mut Velocity>) {
    view.for_each(|_, v| v.0 *= 10.0);
}

#[test]
fn chains_of_one_span_run_across_its_stages() {
    let mut scene = Scene::new();
    let e = scene.spawn_with((Position(1.0), Velocity(2.0)));
    let mut frame = Schedule::new((first_p, then_p, first_v, then_v));
    frame.set_threads(Threads::Many);
    assert_eq!(frame.stages::<Scene>().of_systems(), [0, 1, 0, 1]);
    assert!(frame.spans::<Scene>().is_none(), "planned at the first run");
    frame.run(&mut scene);
    let spans = frame.spans::<Scene>().unwrap();
    assert_eq!(spans.chains(), [vec![vec![0, 1], vec![2, 3]]]);
    assert_eq!(spans.stages(), [Some(0..2)]);
    assert_eq!(
        spans.to_string(),
        "stages 0..2: first_p → then_p | first_v → then_v\n"
    );
    assert_eq!(scene.get::<Position>(e), Some(&Position(20.0)));
    assert_eq!(scene.get::<Velocity>(e), Some(&Velocity(30.0)));

    MET_CHAINS.store(0, Ordering::SeqCst);
    let mut world = World::new();
    let e = world.spawn_with((Position(1.0), Velocity(2.0)));
    let mut frame = Schedule::new((first_p, then_p, first_v, then_v));
    frame.set_threads(Threads::Many);
    frame.run(&mut world).unwrap();
    assert_eq!(
        frame.spans::<World>().unwrap().chains(),
        [vec![vec![0, 1], vec![2, 3]]]
    );
    assert_eq!(world.get::<Position>(e), Some(&Position(20.0)));
    assert_eq!(world.get::<Velocity>(e), Some(&Velocity(30.0)));
}

thread_local! {
    /// Whether this is the thread the test runs its schedule on.
    static CALLER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}
static ON_THE_CALLER: AtomicUsize = AtomicUsize::new(0);

/// Counts a system run on the test's thread; panics on another.
fn on_the_caller() {
    assert!(
        CALLER.with(std::cell::Cell::get),
        "a system of a schedule on one thread ran on another"
    );
    ON_THE_CALLER.fetch_add(1, Ordering::SeqCst);
}

fn reads_healths(_: &Storage<Health>) {
    on_the_caller();
}

fn reads_positions(_: &Storage<Position>) {
    on_the_caller();
}

fn reads_velocities(_: &Storage<Velocity>) {
    on_the_caller();
}

/// `Threads::One`: every system of a stage of several runs on the calling thread, frame
/// after frame.
#[test]
fn a_schedule_on_one_thread_runs_every_system_on_the_calling_thread() {
    let mut scene = Scene::new();
    CALLER.with(|c| c.set(true));
    let mut frame = Schedule::new((reads_healths, reads_positions, reads_velocities));
    frame.set_threads(Threads::One);
    assert_eq!(frame.stages::<Scene>().of_systems(), [0, 0, 0]);
    for _ in 0..3 {
        frame.run(&mut scene);
    }
    assert_eq!(ON_THE_CALLER.load(Ordering::SeqCst), 9);
}

fn speed_of_movers(view: View<'_, (&Position, &mut Velocity), With<Health>>) {
    view.for_each(|_, (p, v)| v.0 += p.0);
}

fn count_positions(view: View<'_, &Position>, mut frames: ResMut<'_, Frames>) {
    frames.0 += view.into_iter().count() as u32;
}

#[test]
fn views_with_filters_are_parameters_too() {
    let mut scene = Scene::new();
    let e = scene.spawn_with((Position(2.0), Velocity(1.0), Health(5)));
    scene.spawn_with((Position(2.0), Velocity(1.0)));
    let mut frame = Schedule::new((speed_of_movers, count_positions));
    // Both read `Position`; one writes `Velocity`, the other a resource: one stage.
    assert_eq!(frame.stages::<Scene>().of_systems(), [0, 0]);
    frame.run(&mut scene);
    assert_eq!(scene.get::<Velocity>(e), Some(&Velocity(3.0)));
    assert_eq!(scene.resource::<Frames>(), &Frames(2));
}

/// How hard `hurt` hits this run (set by the property test before each frame).
static HIT: AtomicI32 = AtomicI32::new(1);

fn s_move(group: GroupMut<'_, (Position, Velocity)>) {
    group.for_each(|_, (p, v)| p.0 += v.0);
}

fn s_push(view: View<'_, (&mut Velocity, &Health)>) {
    view.for_each(|_, (v, h)| v.0 += h.0 as f32);
}

fn s_hurt(mut healths: ValuesMut<'_, Health>, frames: Res<'_, Frames>) {
    let hit = HIT.load(Ordering::SeqCst) + frames.0 as i32 % 3;
    healths.iter_mut().for_each(|(_, h)| h.0 -= hit);
}

fn s_count(view: View<'_, &Position>, mut frames: ResMut<'_, Frames>) {
    frames.0 += view.into_iter().filter(|(_, p)| p.0 > 0.0).count() as u32;
}

fn reap_below<W: EditEntities + 'static>(healths: &Storage<Health>, commands: &mut Commands<W>) {
    for (e, h) in healths.iter() {
        if h.0 < -3 {
            commands.destroy(e);
        }
    }
}

fn s_reap(healths: &Storage<Health>, commands: &mut Commands<Scene>) {
    reap_below(healths, commands);
}

fn s_reap_world(healths: &Storage<Health>, commands: &mut Commands<World>) {
    reap_below(healths, commands);
}

/// Every entity's components, by spawn order, and the frame count: what the worlds hold.
macro_rules! snapshot {
    ($world:expr, $entities:expr, $frames:expr) => {{
        let rows = $entities
            .iter()
            .map(|&e| {
                $world.is_alive(e).then(|| {
                    (
                        $world.get::<Position>(e).map(|p| p.0),
                        $world.get::<Velocity>(e).map(|v| v.0),
                        $world.get::<Health>(e).map(|h| h.0),
                    )
                })
            })
            .collect::<Vec<_>>();
        (rows, $frames)
    }};
}

/// Calls one system of the pool by hand, through the world's `borrow` (`$lent` turns what
/// it returns into the parts: the parts themselves on a `#[world]`, unwrapped on the
/// run-time `World`), its commands into `$queue`.
macro_rules! by_hand {
    ($w:expr, $lent:ident, $queue:expr, s_move) => {
        s_move($lent!($w.borrow::<GroupMut<(Position, Velocity)>>()))
    };
    ($w:expr, $lent:ident, $queue:expr, s_push) => {
        s_push($lent!($w.borrow::<View<(&mut Velocity, &Health)>>()))
    };
    ($w:expr, $lent:ident, $queue:expr, s_hurt) => {{
        let (healths, frames) = $lent!($w.borrow::<(ValuesMut<Health>, Res<Frames>)>());
        s_hurt(healths, frames)
    }};
    ($w:expr, $lent:ident, $queue:expr, s_count) => {{
        let (positions, frames) = $lent!($w.borrow::<(View<&Position>, ResMut<Frames>)>());
        s_count(positions, frames)
    }};
    ($w:expr, $lent:ident, $queue:expr, s_reap) => {
        reap_below($lent!($w.borrow::<&Storage<Health>>()), &mut $queue)
    };
    ($w:expr, $lent:ident, $queue:expr, s_reap_world) => {
        reap_below($lent!($w.borrow::<&Storage<Health>>()), &mut $queue)
    };
}

macro_rules! parts {
    ($parts:expr) => {
        $parts
    };
}

macro_rules! unwrapped {
    ($parts:expr) => {
        $parts.unwrap()
    };
}

/// Runs a schedule on a `#[world]` and on the run-time `World`, and its systems by hand in
/// the written order (then their commands) on two more, frame after frame: all four end
/// alike.
macro_rules! agree {
    ($population:expr, $frames:expr, ($($s:ident),+), ($($w:ident),+)) => {{
        let mut scene = Scene::new();
        let mut alone = Scene::new();
        let mut world = World::with_groups([GroupSpec::of::<(Position, Velocity)>()]).unwrap();
        world.insert_resource(Frames::default());
        let mut world_alone = World::with_groups([GroupSpec::of::<(Position, Velocity)>()]).unwrap();
        world_alone.insert_resource(Frames::default());
        let mut entities = Vec::new();
        for &(p, v, h) in &$population {
            macro_rules! spawn {
                ($target:expr) => {{
                    let e = $target.spawn_with((Position(p),));
                    if let Some(v) = v {
                        $target.insert(e, Velocity(v)).unwrap();
                    }
                    if let Some(h) = h {
                        $target.insert(e, Health(h)).unwrap();
                    }
                    e
                }};
            }
            let e = spawn!(scene);
            prop_assert_eq!(e, spawn!(alone));
            prop_assert_eq!(e, spawn!(world));
            prop_assert_eq!(e, spawn!(world_alone));
            entities.push(e);
        }
        let mut frame = Schedule::new(($($s,)+));
        let mut frame_world = Schedule::new(($($w,)+));
        let (stages, stages_world) = (frame.stages::<Scene>(), frame_world.stages::<World>());
        prop_assert_eq!(stages.of_systems(), stages_world.of_systems());
        for &hit in &$frames {
            HIT.store(hit, Ordering::SeqCst);
            frame.run(&mut scene);
            frame_world.run(&mut world).unwrap();
            let mut queue = Commands::new();
            $(by_hand!(alone, parts, queue, $s);)+
            alone.apply(&mut queue);
            let mut queue = Commands::new();
            $(by_hand!(world_alone, unwrapped, queue, $w);)+
            world_alone.apply(&mut queue);
            let expected = snapshot!(alone, entities, alone.resource::<Frames>().0);
            prop_assert_eq!(&snapshot!(scene, entities, scene.resource::<Frames>().0), &expected);
            prop_assert_eq!(&snapshot!(world, entities, world.resource::<Frames>().unwrap().0), &expected);
            prop_assert_eq!(
                &snapshot!(world_alone, entities, world_alone.resource::<Frames>().unwrap().0),
                &expected
            );
            scene.check().unwrap();
            world.check().unwrap();
        }
    }};
}

fn population() -> impl Strategy<Value = Vec<(f32, Option<f32>, Option<i32>)>> {
    prop::collection::vec(
        (
            (-4..4i32).prop_map(|x| x as f32),
            prop::option::of((-2..3i32).prop_map(|v| v as f32)),
            prop::option::of(-2..6i32),
        ),
        0..24,
    )
}

proptest! {
    #![proptest_config(cases_or(48))]

    /// Random entities and frames, three orders of five systems: the schedule ends like
    /// its systems run one after the other, on both worlds, with the same stages.
    #[test]
    fn schedules_agree_with_their_systems_in_order(
        population in population(),
        frames in prop::collection::vec(0..4i32, 1..4),
        order in 0..3usize,
    ) {
        match order {
            0 => agree!(population, frames, (s_move, s_push, s_hurt, s_count, s_reap),
                (s_move, s_push, s_hurt, s_count, s_reap_world)),
            1 => agree!(population, frames, (s_hurt, s_reap, s_move, s_count, s_push),
                (s_hurt, s_reap_world, s_move, s_count, s_push)),
            _ => agree!(population, frames, (s_count, s_push, s_move, s_reap, s_hurt),
                (s_count, s_push, s_move, s_reap_world, s_hurt)),
        }
    }
}

#[derive(Default)]
struct Seen(usize);

#[world]
#[track(Velocity)]
struct Watched {
    positions: Storage<Position>,
    velocities: Storage<Velocity>,
    seen: Resource<Seen>,
}

fn speed_up(mut velocities: ValuesMut<'_, Velocity>) {
    velocities.iter_mut().for_each(|(_, v)| v.0 += 1.0);
}

fn watch(view: View<'_, &Position, Changed<Velocity>>, mut seen: ResMut<'_, Seen>) {
    seen.0 += view.into_iter().count();
}

#[test]
fn a_change_filter_orders_its_system_after_the_writer() {
    let mut watched = Watched::new();
    watched.spawn_with((Position(0.0), Velocity(0.0)));
    watched.tick();
    let mut frame = Schedule::new((speed_up, watch));
    // `watch` borrows no `Velocity`, but reads its stamps: after the writer.
    assert_eq!(frame.stages::<Watched>().of_systems(), [0, 1]);
    frame.run(&mut watched);
    assert_eq!(watched.resource::<Seen>().0, 1);
}

/// Speeds up the movers left of the origin only, through a guard: only they are changed.
fn speed_up_left(view: View<'_, (Mut<'_, Velocity>, &Position)>) {
    view.for_each(|_, (mut v, p)| {
        if p.0 < 0.0 {
            v.0 += 1.0;
        }
    });
}

#[test]
fn a_guard_in_a_system_marks_what_it_writes() {
    let mut watched = Watched::new();
    for x in [-2.0, -1.0, 1.0, 2.0, 3.0] {
        watched.spawn_with((Position(x), Velocity(0.0)));
    }
    watched.tick();
    let mut frame = Schedule::new((speed_up_left, watch));
    assert_eq!(frame.stages::<Watched>().of_systems(), [0, 1]);
    frame.run(&mut watched);
    // At its first run, everything present is news to `watch`.
    assert_eq!(watched.resource::<Seen>().0, 5);
    frame.run(&mut watched);
    assert_eq!(
        watched.resource::<Seen>().0,
        7,
        "the two written, of five walked"
    );
}

#[derive(Default)]
struct Reserved(Vec<Entity>);

fn reserve_one(entities: &Entities, mut reserved: ResMut<'_, Reserved>) {
    reserved.0.push(entities.reserve());
}

fn reserve_another(entities: &Entities, _: &Storage<Position>) {
    let _ = entities.reserve();
}

#[test]
fn systems_that_may_reserve_entities_never_share_a_stage() {
    let mut world = World::new();
    world.insert_resource(Reserved::default());
    // Apart but for `&Entities`: the reservations come in system order.
    let mut frame = Schedule::new((reserve_another, reserve_one));
    assert_eq!(frame.stages::<World>().of_systems(), [0, 1]);
    for _ in 0..3 {
        frame.run(&mut world).unwrap();
    }
    let reserved = &world.resource::<Reserved>().unwrap().0;
    let indices: Vec<u32> = reserved.iter().map(|e| e.index()).collect();
    assert_eq!(indices, [1, 3, 5], "the second reservation of each run");
}

#[derive(Default)]
struct Spawned(u32);

fn spawn_one(mut spawned: ResMut<'_, Spawned>, commands: &mut Commands<World>) {
    spawned.0 += 1;
    commands.spawn((Position(9.0),));
}

fn needs_frames(_: Res<'_, Frames>) {}

#[test]
fn a_refused_run_on_the_run_time_world_changes_nothing() {
    let mut world = World::new();
    world.insert_resource(Spawned::default());
    let refused = Schedule::new((spawn_one, needs_frames)).run(&mut world);
    assert_eq!(
        refused,
        Err(sparse_groups::AccessError::NoResource(
            "parallel::schedule::Frames"
        ))
    );
    assert_eq!(world.resource::<Spawned>().unwrap().0, 0, "no system ran");
    assert!(world.entities().is_empty(), "no command was applied");
}

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Unseen;

fn packs(group: GroupMut<'_, (Position, Velocity)>) {
    group.for_each(|_, (p, v)| p.0 += v.0);
}

fn reads_unseen(_: &Storage<Unseen>) {}

/// A run refused before any system runs leaves no trace: no stamp (a `GroupMut` taken
/// to check the request marks nothing), no storage made for the types its systems name.
#[test]
fn a_refused_run_stamps_nothing_and_makes_no_storage() {
    let mut world = World::with_groups([GroupSpec::of::<(Position, Velocity)>()]).unwrap();
    world.track::<Position>();
    let e = world.spawn_with((Position(0.0), Velocity(1.0)));
    world.tick();
    let mut frame = Schedule::new((packs, reads_unseen, needs_frames));
    assert_eq!(
        frame.run(&mut world),
        Err(sparse_groups::AccessError::NoResource(
            "parallel::schedule::Frames"
        ))
    );
    let changed: Vec<Entity> = world
        .view::<(&Position, Changed<Position>)>()
        .unwrap()
        .into_iter()
        .map(|(e, _)| e)
        .collect();
    assert_eq!(changed, [], "nobody wrote a position");
    assert!(world.storage::<Unseen>().is_none(), "no storage was made");
    assert_eq!(world.get::<Position>(e), Some(&Position(0.0)));
    // Once the resource is there, the same schedule runs.
    world.insert_resource(Frames::default());
    frame.run(&mut world).unwrap();
    assert_eq!(world.get::<Position>(e), Some(&Position(1.0)));
    assert!(world.storage::<Unseen>().is_some());
    world.check().unwrap();
}

fn panics_here(_: ValuesMut<'_, Health>) {
    panic!("the system's own message");
}

fn quiet(_: &Storage<Position>) {}

#[test]
fn a_panic_in_a_system_keeps_its_message() {
    let mut scene = Scene::new();
    let mut frame = Schedule::new((quiet, panics_here));
    assert_eq!(frame.stages::<Scene>().of_systems(), [0, 0]);
    let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| frame.run(&mut scene)))
        .expect_err("the system panicked");
    let message = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or_default();
    assert_eq!(message, "the system's own message");
    scene.check().unwrap();
}
