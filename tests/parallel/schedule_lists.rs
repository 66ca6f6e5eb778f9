//! Schedules of any length, and sync points, on both kinds of world: sixty-four systems in
//! chained lists (on a `#[world]` the stages still the compiler's constant), a system of
//! more than eight parts (a tuple of parts is one parameter), and `ApplyCommands`, where
//! the commands queued so far are applied so that the systems after it see them in the
//! same run. Each result is checked against the same steps on plain maps.

use std::collections::BTreeMap;

use sparse_groups::prelude::*;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct W0(i64);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct W1(i64);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct W2(i64);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct W3(i64);

/// What each run of `count_w0` saw.
#[derive(Default, Debug, PartialEq)]
struct Seen(Vec<usize>);

#[world]
struct Lists {
    w0: Storage<W0>,
    w1: Storage<W1>,
    w2: Storage<W2>,
    w3: Storage<W3>,
    seen: Resource<Seen>,
}

fn dynamic() -> World {
    let mut world = World::new();
    world.insert_resource(Seen::default());
    world
}

/// The four component types as numbers, for the model.
trait Value: Component + Copy {
    const INDEX: usize;
    fn get(self) -> i64;
    fn set(&mut self, value: i64);
}

macro_rules! value {
    ($($T:ident $i:literal),+) => {$(
        impl Value for $T {
            const INDEX: usize = $i;
            fn get(self) -> i64 {
                self.0
            }
            fn set(&mut self, value: i64) {
                self.0 = value;
            }
        }
    )+};
}
value!(W0 0, W1 1, W2 2, W3 3);

/// System `I`: each `X` of an entity that has a `Y` becomes `3x + y + I`.
fn step<const I: i64, X: Value, Y: Value>(mut x: ValuesMut<'_, X>, y: &Storage<Y>) {
    for (e, value) in x.iter_mut() {
        if let Some(y) = y.get(e) {
            let next = value
                .get()
                .wrapping_mul(3)
                .wrapping_add(y.get())
                .wrapping_add(I);
            value.set(next);
        }
    }
}

/// Sixteen systems, from four runs of four: system `i` writes `W(i % 4)` and reads
/// `W((i + 2) % 4)`, so that two neighbours share a stage and a system runs after the one
/// two before it.
macro_rules! sixteen {
    ($($a:literal $b:literal $c:literal $d:literal),+) => {
        ($(step::<$a, W0, W2>, step::<$b, W1, W3>, step::<$c, W2, W0>, step::<$d, W3, W1>,)+)
    };
}

/// Sixty-four systems: four lists of sixteen, chained.
macro_rules! sixty_four {
    () => {
        Schedule::new(sixteen!(0 1 2 3, 4 5 6 7, 8 9 10 11, 12 13 14 15))
            .then(sixteen!(16 17 18 19, 20 21 22 23, 24 25 26 27, 28 29 30 31))
            .then(sixteen!(32 33 34 35, 36 37 38 39, 40 41 42 43, 44 45 46 47))
            .then(sixteen!(48 49 50 51, 52 53 54 55, 56 57 58 59, 60 61 62 63))
    };
}

/// The model: each entity's four values.
type Rows = BTreeMap<u32, [Option<i64>; 4]>;

/// The sixty-four steps one after the other on plain maps.
fn sixty_four_in_order(rows: &mut Rows) {
    for i in 0..64usize {
        let (x, y) = (i % 4, (i + 2) % 4);
        for values in rows.values_mut() {
            if let (Some(v), Some(w)) = (values[x], values[y]) {
                values[x] = Some(v.wrapping_mul(3).wrapping_add(w).wrapping_add(i as i64));
            }
        }
    }
}

macro_rules! populate {
    ($world:expr) => {{
        let mut rows = Rows::new();
        for i in 0..40i64 {
            let e = $world.spawn();
            let mut values = [None; 4];
            // Each entity has the types of the bits of `i % 16`, with values from `i`.
            if i & 1 != 0 {
                $world.insert(e, W0(i)).unwrap();
                values[0] = Some(i);
            }
            if i & 2 != 0 {
                $world.insert(e, W1(i + 1)).unwrap();
                values[1] = Some(i + 1);
            }
            if i & 4 != 0 {
                $world.insert(e, W2(i + 2)).unwrap();
                values[2] = Some(i + 2);
            }
            if i & 8 != 0 {
                $world.insert(e, W3(i + 3)).unwrap();
                values[3] = Some(i + 3);
            }
            rows.insert(e.index(), values);
        }
        rows
    }};
}

/// A world's four storages as the model's rows.
fn rows_of(w0: &Storage<W0>, w1: &Storage<W1>, w2: &Storage<W2>, w3: &Storage<W3>) -> Rows {
    fn add<T: Value>(rows: &mut Rows, storage: &Storage<T>) {
        for (e, value) in storage.iter() {
            rows.entry(e.index()).or_default()[T::INDEX] = Some(value.get());
        }
    }
    let mut rows = Rows::new();
    add(&mut rows, w0);
    add(&mut rows, w1);
    add(&mut rows, w2);
    add(&mut rows, w3);
    rows
}

/// A run-time world's storage, or an empty one.
fn owned<T: Component + Clone>(storage: Option<&Storage<T>>) -> Storage<T> {
    storage.cloned().unwrap_or_default()
}

/// `rows` without the entities that hold nothing (a world does not list them).
fn held(rows: &Rows) -> Rows {
    rows.iter()
        .filter(|(_, values)| values.iter().any(Option::is_some))
        .map(|(&e, values)| (e, *values))
        .collect()
}

#[test]
fn sixty_four_systems_in_chained_lists_run_like_the_systems_in_order() {
    let mut schedule = sixty_four!();
    let mut dynamic_schedule = sixty_four!();
    let stages = schedule.stages::<Lists>();
    assert!(
        stages.decided_at_compile_time(),
        "64 systems are within the compiler's reach"
    );
    assert_eq!(stages.of_systems().len(), 64);
    // Neighbours share a stage; a system runs after the one two before it.
    let want: Vec<usize> = (0..64).map(|i| i / 2).collect();
    assert_eq!(stages.of_systems(), want);
    let dynamic_stages = dynamic_schedule.stages::<World>();
    assert!(!dynamic_stages.decided_at_compile_time());
    assert_eq!(
        dynamic_stages.of_systems(),
        want,
        "both worlds place them alike"
    );

    let (mut s, mut d) = (Lists::new(), dynamic());
    let mut model = populate!(s);
    let dynamic_model = populate!(d);
    assert_eq!(model, dynamic_model);
    for frame in 0..3 {
        schedule.run(&mut s);
        dynamic_schedule.run(&mut d).unwrap();
        sixty_four_in_order(&mut model);
        let want = held(&model);
        assert_eq!(
            rows_of(
                s.storage::<W0>(),
                s.storage::<W1>(),
                s.storage::<W2>(),
                s.storage::<W3>()
            ),
            want,
            "#[world], frame {frame}"
        );
        assert_eq!(
            rows_of(
                &owned(d.storage::<W0>()),
                &owned(d.storage::<W1>()),
                &owned(d.storage::<W2>()),
                &owned(d.storage::<W3>())
            ),
            want,
            "World, frame {frame}"
        );
    }
}

/// Ten parts in three tuples (reads may repeat): each `W0` becomes the sum of the
/// entity's other values, counted twice, plus the number of runs `count_w0` recorded.
#[allow(clippy::type_complexity)]
fn ten_parts(
    (mut w0, w1, w2): (ValuesMut<'_, W0>, &Storage<W1>, &Storage<W2>),
    (w3, seen): (&Storage<W3>, Res<'_, Seen>),
    (w1_again, w2_again, w3_again, entities): (&Storage<W1>, &Storage<W2>, &Storage<W3>, &Entities),
) {
    for (e, value) in w0.iter_mut() {
        assert!(entities.is_alive(e));
        let once = [
            w1.get(e).map(|v| v.0),
            w2.get(e).map(|v| v.0),
            w3.get(e).map(|v| v.0),
        ];
        let twice = [
            w1_again.get(e).map(|v| v.0),
            w2_again.get(e).map(|v| v.0),
            w3_again.get(e).map(|v| v.0),
        ];
        let sum: i64 = once.into_iter().chain(twice).flatten().sum();
        value.0 = sum + seen.0.len() as i64;
    }
}

#[test]
fn a_tuple_of_parts_is_one_parameter() {
    let mut schedule = Schedule::new((ten_parts, count_w0));
    let mut dynamic_schedule = Schedule::new((ten_parts, count_w0));
    let (mut s, mut d) = (Lists::new(), dynamic());
    let mut model = populate!(s);
    populate!(d);
    for frame in 0..2 {
        schedule.run(&mut s);
        dynamic_schedule.run(&mut d).unwrap();
        for values in model.values_mut() {
            if values[0].is_some() {
                let others: i64 = values[1..].iter().flatten().sum();
                values[0] = Some(2 * others + frame);
            }
        }
        let want: Vec<(u32, i64)> = model
            .iter()
            .filter_map(|(&e, values)| Some((e, values[0]?)))
            .collect();
        let got = |w0: &Storage<W0>| -> Vec<(u32, i64)> {
            let mut got: Vec<(u32, i64)> = w0.iter().map(|(e, v)| (e.index(), v.0)).collect();
            got.sort_unstable();
            got
        };
        assert_eq!(got(s.storage::<W0>()), want, "#[world], frame {frame}");
        assert_eq!(
            got(d.storage::<W0>().unwrap()),
            want,
            "World, frame {frame}"
        );
    }
}

/// Queues an entity with a `W0`.
fn queue_spawn<W>(commands: &mut Commands<W>)
where
    W: Stores<(W0,)>,
{
    commands.spawn((W0(7),));
}

/// Records how many `W0`s there are.
fn count_w0(w0: &Storage<W0>, mut seen: ResMut<'_, Seen>) {
    seen.0.push(w0.len());
}

#[test]
fn a_sync_point_applies_the_commands_queued_before_it() {
    // Without a sync point, the counter sees the spawn only at the next run; with one, in
    // the same run, in a stage after the sync point's.
    let mut without = Schedule::new((queue_spawn::<Lists>, count_w0));
    let mut with = Schedule::new((queue_spawn::<Lists>, ApplyCommands, count_w0));
    let mut with_dynamic = Schedule::new((queue_spawn::<World>, ApplyCommands, count_w0));
    assert_eq!(
        with.stages::<Lists>().to_string(),
        "stage 0: queue_spawn<Lists>\nstage 1: ApplyCommands\nstage 2: count_w0\n"
    );
    assert_eq!(
        with.stages::<Lists>().of_systems(),
        with_dynamic.stages::<World>().of_systems()
    );

    let mut s = Lists::new();
    for _ in 0..2 {
        without.run(&mut s);
    }
    assert_eq!(s.resource::<Seen>().0, [0, 1]);

    let (mut s, mut d) = (Lists::new(), dynamic());
    for _ in 0..2 {
        with.run(&mut s);
        with_dynamic.run(&mut d).unwrap();
    }
    assert_eq!(s.resource::<Seen>().0, [1, 2]);
    assert_eq!(d.resource::<Seen>().unwrap().0, [1, 2]);
}
