//! Messages on both worlds, beyond the model test of schedules: hooks and commands that
//! send, a reader listed twice, a reader in a schedule run less often (what it misses), a
//! run cut short by a panic, a run-time world without the queue, and snapshots.

use sparse_groups::AccessError;
use sparse_groups::prelude::*;
use sparse_groups::traits::LendResource;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Health(i32);

#[derive(Clone, Copy, Debug, PartialEq)]
struct Died(Entity);

/// What each reader read, in order: `(reader, entity)`.
#[derive(Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Heard(Vec<(u8, Entity)>);

/// A hook of both worlds: a removed `Health` is a death, sent at once.
fn mourn<W: Stores<Health> + LendResource<Messages<Died>>>(
    world: &mut HookWorld<'_, W>,
    entity: Entity,
) {
    world
        .try_borrow::<ResMut<'_, Messages<Died>>>()
        .expect("the world holds the queue")
        .send(Died(entity));
}

/// A hook of both worlds: an inserted `Health` of 0 is a death, sent by a command.
fn stillborn<W: Stores<Health> + LendResource<Messages<Died>>>(
    world: &mut HookWorld<'_, W>,
    entity: Entity,
) {
    if world.get::<Health>(entity).is_some_and(|h| h.0 == 0) {
        world.commands().send(Died(entity));
    }
}

#[world]
#[on_remove(Health, mourn)]
#[on_insert(Health, stillborn)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Arena {
    healths: Storage<Health>,
    deaths: Resource<Messages<Died>>,
    heard: Resource<Heard>,
}

fn dynamic() -> World {
    let mut world = World::new();
    world.insert_resource(Messages::<Died>::new());
    world.insert_resource(Heard::default());
    world.on_remove::<Health>(mourn::<World>).unwrap();
    world.on_insert::<Health>(stillborn::<World>).unwrap();
    world
}

/// Reader 1.
fn first(mut deaths: MessageReader<'_, Died>, mut heard: ResMut<'_, Heard>) {
    assert_eq!(deaths.missed(), 0);
    heard.0.extend(deaths.read().map(|d| (1, d.0)));
}

/// Reader 2, which may be run less often.
fn second(mut deaths: MessageReader<'_, Died>, mut heard: ResMut<'_, Heard>) {
    let missed = u8::try_from(deaths.missed()).unwrap();
    heard
        .0
        .extend(deaths.read().map(|d| (2 + 10 * missed, d.0)));
}

/// Destroys the entities whose health is negative (their hook sends), by command.
fn reap<W: EditEntities + 'static>(healths: &Storage<Health>, commands: &mut Commands<W>) {
    for (e, h) in healths.iter() {
        if h.0 < 0 {
            commands.destroy(e);
        }
    }
}

/// The world's queue (`static`: a `#[world]`; `dynamic`: the run-time `World`).
macro_rules! queue {
    ($w:expr, static) => {
        $w.resource::<Messages<Died>>()
    };
    ($w:expr, dynamic) => {
        $w.resource::<Messages<Died>>().unwrap()
    };
}

/// What the readers heard, taken out of the world.
macro_rules! heard {
    ($w:expr, static) => {
        std::mem::take(&mut $w.resource_mut::<Heard>().0)
    };
    ($w:expr, dynamic) => {
        std::mem::take(&mut $w.resource_mut::<Heard>().unwrap().0)
    };
}

macro_rules! hooks_and_commands_send {
    ($w:expr, $W:ty, $kind:tt) => {{
        let mut w = $w;
        let mut frame = Schedule::new((first, reap::<$W>, first));
        let a = w.spawn_with((Health(-1),));
        // Its insert hook queues a message, applied right after the insert.
        let b = w.spawn_with((Health(0),));
        assert_eq!(queue!(w, $kind).len(), 1);
        // Sent between runs: read in the next one, once by each listing of `first`.
        frame.try_run(&mut w).unwrap();
        assert_eq!(heard!(w, $kind), [(1, b), (1, b)]);
        // `reap` destroyed `a` after the last stage: its remove hook sent after both
        // readers ran, and they read it in the next run.
        frame.try_run(&mut w).unwrap();
        assert_eq!(heard!(w, $kind), [(1, a), (1, a)]);
        frame.try_run(&mut w).unwrap();
        assert_eq!(heard!(w, $kind), []);
        assert!(queue!(w, $kind).is_empty(), "dropped after a whole run");
        w.check().unwrap();
    }};
}

#[test]
fn hooks_and_commands_send_on_both_worlds() {
    hooks_and_commands_send!(Arena::new(), Arena, static);
    hooks_and_commands_send!(dynamic(), World, dynamic);
}

/// Hooks send on every bulk path too: `insert_many` (the insert hook's command, applied
/// after the batch), `remove_many`, `clear` and `destroy_many` (the remove hook, at once):
/// one message per entity, each read once.
macro_rules! bulk_paths_send {
    ($w:expr, $kind:tt) => {{
        let mut w = $w;
        let mut frame = Schedule::new((first,));
        let es: Vec<Entity> = (0..8).map(|_| w.spawn()).collect();
        let heard_of = |range: core::ops::Range<usize>| -> Vec<(u8, Entity)> {
            es[range].iter().map(|&e| (1, e)).collect()
        };
        let sorted = |mut heard: Vec<(u8, Entity)>| {
            heard.sort();
            heard
        };
        // Six stillborn and two alive: six messages from the insert hook's commands.
        let batch = es
            .iter()
            .enumerate()
            .map(|(i, &e)| (e, Health(i32::from(i >= 6))));
        assert_eq!(w.insert_many(batch.collect::<Vec<_>>()).unwrap(), 8);
        frame.try_run(&mut w).unwrap();
        assert_eq!(sorted(heard!(w, $kind)), heard_of(0..6));
        assert_eq!(w.remove_many::<Health>(&es[..2]), 2);
        frame.try_run(&mut w).unwrap();
        assert_eq!(sorted(heard!(w, $kind)), heard_of(0..2));
        assert_eq!(w.destroy_many(&es[2..4]), 2);
        frame.try_run(&mut w).unwrap();
        assert_eq!(sorted(heard!(w, $kind)), heard_of(2..4));
        w.clear::<Health>();
        frame.try_run(&mut w).unwrap();
        assert_eq!(sorted(heard!(w, $kind)), heard_of(4..8));
        frame.try_run(&mut w).unwrap();
        assert_eq!(heard!(w, $kind), []);
        w.check().unwrap();
    }};
}

#[test]
fn hooks_send_on_the_bulk_paths_of_both_worlds() {
    bulk_paths_send!(Arena::new(), static);
    bulk_paths_send!(dynamic(), dynamic);
}

/// A reader in a schedule run every third frame, beside one that runs every frame: it
/// reads what is kept, and counts what was dropped before it ran (the schedule run each
/// frame drops what its own readers have read).
macro_rules! a_rare_reader_misses {
    ($w:expr, $W:ty, $kind:tt) => {{
        let mut w = $w;
        let mut often = Schedule::new((first, reap::<$W>));
        let mut rarely = Schedule::new((second,));
        let mut dead = Vec::new();
        for frame in 0..6 {
            dead.push(w.spawn_with((Health(-1),)));
            often.try_run(&mut w).unwrap();
            if frame % 3 == 2 {
                rarely.try_run(&mut w).unwrap();
            }
        }
        let heard = heard!(w, $kind);
        let by = |reader: u8| -> Vec<Entity> {
            heard
                .iter()
                .filter(|(r, _)| *r == reader)
                .map(|(_, e)| *e)
                .collect()
        };
        // `first` read every death but the last (its hook sent after `first` ran).
        assert_eq!(by(1), dead[..5]);
        // `second`'s first run read what was kept; at its next, three frames later, two
        // messages had been dropped.
        assert_eq!(by(2), [dead[2]]);
        assert_eq!(by(2 + 10 * 2), [dead[5]]);
        w.check().unwrap();
    }};
}

#[test]
fn a_reader_in_a_schedule_run_less_often_counts_what_it_missed() {
    a_rare_reader_misses!(Arena::new(), Arena, static);
    a_rare_reader_misses!(dynamic(), World, dynamic);
}

static PANIC_AFTER_READING: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Panics when told to, after `first` read.
fn fail(_: &Storage<Health>) {
    if PANIC_AFTER_READING.load(std::sync::atomic::Ordering::Relaxed) {
        panic!("a system failed");
    }
}

/// A run cut short by a panic leaves the readers' cursors where they were, but for the
/// readers whose commands a sync point applied: the next run reads the same messages again
/// (as it reports the same changes again).
macro_rules! a_panic_reads_again {
    ($w:expr, $kind:tt) => {{
        let mut w = $w;
        let mut frame = Schedule::new((first, fail));
        let a = w.spawn_with((Health(1),));
        w.remove::<Health>(a).unwrap(); // its hook sends
        PANIC_AFTER_READING.store(true, std::sync::atomic::Ordering::Relaxed);
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            frame.try_run(&mut w).unwrap()
        }));
        PANIC_AFTER_READING.store(false, std::sync::atomic::Ordering::Relaxed);
        assert!(run.is_err());
        assert_eq!(heard!(w, $kind), [(1, a)]);
        frame.try_run(&mut w).unwrap();
        assert_eq!(heard!(w, $kind), [(1, a)], "read again");
        frame.try_run(&mut w).unwrap();
        assert_eq!(heard!(w, $kind), []);
        // A sync point between the reader and the panic completes the reader's run: its
        // cursor moves on there, and the next run does not read the message again.
        let mut frame = Schedule::new((first, ApplyCommands, fail));
        let b = w.spawn_with((Health(1),));
        w.remove::<Health>(b).unwrap();
        PANIC_AFTER_READING.store(true, std::sync::atomic::Ordering::Relaxed);
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            frame.try_run(&mut w).unwrap()
        }));
        PANIC_AFTER_READING.store(false, std::sync::atomic::Ordering::Relaxed);
        assert!(run.is_err());
        assert_eq!(heard!(w, $kind).last(), Some(&(1, b)));
        frame.try_run(&mut w).unwrap();
        assert_eq!(heard!(w, $kind), [], "read once, before the sync point");
    }};
}

#[test]
fn a_run_cut_short_by_a_panic_reads_its_messages_again() {
    a_panic_reads_again!(Arena::new(), static);
    a_panic_reads_again!(dynamic(), dynamic);
}

#[test]
fn a_run_time_world_without_the_queue_refuses_the_schedule_and_panics_on_a_send() {
    let mut world = World::new();
    world.insert_resource(Heard::default());
    let refused = Schedule::new((first,)).try_run(&mut world);
    let Err(AccessError::NoResource(name)) = refused else {
        panic!("refused for the queue, not {refused:?}");
    };
    assert!(
        name.contains("Messages<") && name.contains("Died"),
        "{name}"
    );
    let mut commands = Commands::<World>::new();
    let e = world.spawn();
    commands.send(Died(e));
    let applied = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        world.apply(&mut commands);
    }));
    let message = applied.unwrap_err();
    let message = message.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("Messages<") && message.contains("Died"),
        "{message}"
    );
}

/// Messages are not saved: a snapshot holds an empty queue, and a loaded one starts over.
#[cfg(feature = "serde")]
#[test]
fn snapshots_hold_no_messages() {
    let mut arena = Arena::new();
    let a = arena.spawn_with((Health(1),));
    arena.remove::<Health>(a).unwrap();
    assert_eq!(arena.deaths().len(), 1);
    let saved = serde_json::to_string(&arena).unwrap();
    assert!(saved.contains(r#""deaths":null"#), "{saved}");
    let mut loaded: Arena = serde_json::from_str(&saved).unwrap();
    assert!(loaded.deaths().is_empty());
    let mut frame = Schedule::new((first,));
    frame.run(&mut loaded);
    assert_eq!(heard!(loaded, static), []);
}
