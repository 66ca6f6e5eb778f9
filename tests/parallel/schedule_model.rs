//! Schedules of systems drawn from a pool against a plain model: each of 38 schedules (the
//! pool in its order and reversed, two with `lift` beside the writers of the type it
//! filters by, then 22 drawn at random once, repeats included, then six
//! with sync points, then six with messages; each written chained) runs
//! frames over a random world, with random changes between frames, in a `#[world]` and
//! the run-time `World`; after every frame both worlds must equal the model, which runs
//! the same systems one after the other on plain maps, each system's `Added<T>` and
//! `Changed<T>` meaning "since this system last ran", the commands queued so far applied
//! in order at each sync point (`ApplyCommands`) and at the end.
//!
//! The pool's parts: an owning group, a view with a `Mut<T>` guard, a view with each
//! change filter, a view with a presence filter on a type other systems write (which
//! borrows nothing: it runs at once with them), `&Storage<T>`, `ValuesMut<T>`, `Res<R>`, `ResMut<R>`,
//! `&mut Commands<W>` (inserting, removing, spawning and sending a message),
//! `MessageWriter<E>` and `MessageReader<E>`. The model keeps the messages with a plain
//! cursor per reader, and checks that no message is dropped before every reader of the
//! schedule has read it: each reads each message exactly once. Entities are never destroyed, so
//! the model gives each spawned entity the next index. Each system's result depends on
//! the order it runs in relative to the systems it conflicts with, so a schedule that ran
//! conflicting systems at once, or in another order, would give another world.

use std::collections::BTreeMap;

use crate::common::cases_or;
use proptest::prelude::*;
use sparse_groups::prelude::*;
use sparse_groups::traits::{LendResource, Systems};

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct A(i64);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct B(i64);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct C(i64);

#[derive(Default)]
struct Total(i64);
/// What each run of `watch_b` saw: entity indices, sorted.
#[derive(Default)]
struct LogB(Vec<Vec<u32>>);
/// What each run of `watch_new` saw.
#[derive(Default)]
struct LogNew(Vec<Vec<u32>>);
/// A message.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Hit(i64);
/// What each run of `hear` read.
#[derive(Default)]
struct LogHits(Vec<Vec<i64>>);

#[world]
#[group(A, C)]
#[track(B)]
struct Game {
    a_values: Storage<A>,
    b_values: Storage<B>,
    c_values: Storage<C>,
    total: Resource<Total>,
    log_b: Resource<LogB>,
    log_new: Resource<LogNew>,
    hits: Resource<Messages<Hit>>,
    log_hits: Resource<LogHits>,
}

fn dynamic() -> World {
    let mut world = World::with_groups([GroupSpec::of::<(A, C)>()]).unwrap();
    world.track::<B>();
    world.insert_resource(Total::default());
    world.insert_resource(LogB::default());
    world.insert_resource(LogNew::default());
    world.insert_resource(Messages::<Hit>::new());
    world.insert_resource(LogHits::default());
    world
}

// The pool.

/// Writes `A` and `C` through the group.
fn mix(group: GroupMut<'_, (A, C)>) {
    group.for_each(|_, (a, c)| {
        a.0 = a.0.wrapping_mul(3).wrapping_add(c.0);
        c.0 = c.0.wrapping_add(1);
    });
}

/// Writes some `B`s through a guard: only those are changed.
fn bump(view: View<'_, (Mut<'_, B>, &A)>) {
    view.for_each(|_, (mut b, a)| {
        if a.0.rem_euclid(3) == 0 {
            b.0 = b.0.wrapping_add(a.0);
        }
    });
}

/// Reads `B` and `C` into the total.
fn total(b: &Storage<B>, c: &Storage<C>, mut total: ResMut<'_, Total>) {
    let sum = b
        .iter()
        .map(|(_, b)| b.0)
        .chain(c.iter().map(|(_, c)| c.0))
        .fold(0i64, i64::wrapping_add);
    total.0 = total.0.wrapping_mul(31).wrapping_add(sum);
}

/// Reads the total into every `C`.
fn spread(total: Res<'_, Total>, mut c: ValuesMut<'_, C>) {
    let add = total.0.rem_euclid(5);
    for (_, c) in c.iter_mut() {
        c.0 = c.0.wrapping_add(add);
    }
}

fn sorted(view: impl IntoIterator<Item = Entity>) -> Vec<u32> {
    let mut indices: Vec<u32> = view.into_iter().map(|e| e.index()).collect();
    indices.sort_unstable();
    indices
}

/// Adds one to each `B` of an entity without a `C` (which `mix` and `spread` write meanwhile).
fn lift(view: View<'_, &mut B, Without<C>>) {
    view.for_each(|_, b| b.0 = b.0.wrapping_add(1));
}

/// Logs the `B`s changed since it last ran.
fn watch_b(view: View<'_, &B, Changed<B>>, mut log: ResMut<'_, LogB>) {
    log.0.push(sorted(view.into_iter().map(|(e, _)| e)));
}

/// Logs the entities with an `A` whose `B` was added since it last ran.
fn watch_new(view: View<'_, &A, Added<B>>, mut log: ResMut<'_, LogNew>) {
    log.0.push(sorted(view.into_iter().map(|(e, _)| e)));
}

/// Queues changes from `A`: a `B` inserted (added or replaced), a `C` removed, an entity
/// spawned with one component or a tuple (no entity is destroyed, so each takes the next
/// index, in queue order), and a message: how many it spawned.
fn breed<W>(a: &Storage<A>, commands: &mut Commands<W>)
where
    W: Stores<A> + Stores<B> + Stores<C> + Stores<(A, C)> + LendResource<Messages<Hit>>,
{
    let mut spawns = Vec::new();
    for (e, a) in a.iter() {
        if a.0.rem_euclid(7) == 0 {
            commands.insert(e, B(a.0));
        }
        if a.0.rem_euclid(11) == 0 {
            commands.remove::<C>(e);
        }
        if a.0.rem_euclid(13) == 0 {
            spawns.push((e, a.0.rem_euclid(2) == 0));
        }
    }
    // In the order of the spawning entities' indices, as the model spawns: the storage's
    // order is the layout's, and the two shapes take different indices.
    spawns.sort_unstable();
    for &(_, one_component) in &spawns {
        if one_component {
            commands.spawn(A(2));
        } else {
            commands.spawn((A(1), C(0)));
        }
    }
    commands.send(Hit(spawns.len() as i64));
}

/// The sum of the `A`s, in whichever order the storage holds them.
fn sum_of_a(a: &Storage<A>) -> i64 {
    a.iter().map(|(_, a)| a.0).fold(0, i64::wrapping_add)
}

/// Sends the sum of the `A`s, and `-1` after it when the sum is even.
fn shout(a: &Storage<A>, mut hits: MessageWriter<'_, Hit>) {
    let sum = sum_of_a(a);
    hits.send(Hit(sum));
    if sum % 2 == 0 {
        hits.extend([Hit(-1)]);
    }
}

/// Logs the messages it had not read.
fn hear(mut hits: MessageReader<'_, Hit>, mut log: ResMut<'_, LogHits>) {
    assert_eq!(
        hits.missed(),
        0,
        "a reader that runs every frame misses nothing"
    );
    let unread = hits.len();
    let read: Vec<i64> = hits.read().map(|hit| hit.0).collect();
    assert_eq!(read.len(), unread);
    log.0.push(read);
}

#[derive(Clone, Copy, Debug, PartialEq)]
#[allow(non_camel_case_types)]
enum Sys {
    mix,
    bump,
    total,
    spread,
    lift,
    watch_b,
    watch_new,
    breed,
    shout,
    hear,
    /// `ApplyCommands`.
    sync,
}

/// One entity in the model: its values, and when its `B` was added and last changed.
#[derive(Clone, Copy, Debug, Default)]
struct Row {
    a: Option<i64>,
    b: Option<i64>,
    c: Option<i64>,
    b_added: u64,
    b_changed: u64,
}

/// A queued command of `breed`.
enum Queued {
    InsertB(u32, i64),
    RemoveC(u32),
    /// One component (`A(2)`) if true, else `(A(1), C(0))`.
    Spawn(bool),
    Send(i64),
}

/// The messages in the model: each with its number; a cursor per reader.
#[derive(Default)]
struct Mailbox {
    /// The messages kept, with their numbers.
    kept: Vec<(u64, i64)>,
    /// The number of the next message.
    next: u64,
    /// The first number sent after the end of the last frame that dropped messages.
    boundary: u64,
    /// Each element's cursor (`None`: it never read).
    cursors: BTreeMap<usize, u64>,
}

impl Mailbox {
    fn send(&mut self, value: i64) {
        self.kept.push((self.next, value));
        self.next += 1;
    }

    /// What element `k` had not read; it has now.
    fn read(&mut self, k: usize) -> Vec<i64> {
        let from = self.cursors.get(&k).copied().unwrap_or(0);
        self.cursors.insert(k, self.next);
        self.kept
            .iter()
            .filter(|(n, _)| *n >= from)
            .map(|&(_, v)| v)
            .collect()
    }

    /// The end of a frame of a schedule that names the messages: drops what was sent
    /// before the previous such frame ended, which every reader (`readers`) read.
    fn end_frame(&mut self, readers: &[usize]) -> Result<(), TestCaseError> {
        for &(n, _) in self.kept.iter().filter(|(n, _)| *n < self.boundary) {
            for k in readers {
                prop_assert!(
                    self.cursors.get(k).is_some_and(|&c| c > n),
                    "message {} dropped before reader {} read it",
                    n,
                    k
                );
            }
        }
        let boundary = self.boundary;
        self.kept.retain(|(n, _)| *n >= boundary);
        self.boundary = self.next;
        Ok(())
    }
}

/// The model: rows by entity index (no entity is destroyed, so spawning takes the next
/// index), a time that moves before each system's run and after the last (the world's
/// count moves at each stage: the same order), each system's last run.
struct Model {
    rows: BTreeMap<u32, Row>,
    time: u64,
    total: i64,
    log_b: Vec<Vec<u32>>,
    log_new: Vec<Vec<u32>>,
    log_hits: Vec<Vec<i64>>,
    mailbox: Mailbox,
    last_runs: Vec<Option<u64>>,
}

impl Model {
    fn new(systems: usize) -> Self {
        Model {
            rows: BTreeMap::new(),
            time: 1,
            total: 0,
            log_b: Vec::new(),
            log_new: Vec::new(),
            log_hits: Vec::new(),
            mailbox: Mailbox::default(),
            last_runs: vec![None; systems],
        }
    }

    fn spawn(&mut self, a: Option<i64>, b: Option<i64>, c: Option<i64>) {
        let index = u32::try_from(self.rows.len()).unwrap();
        let mut row = Row {
            a,
            c,
            ..Row::default()
        };
        if b.is_some() {
            (row.b, row.b_added, row.b_changed) = (b, self.time, self.time);
        }
        self.rows.insert(index, row);
    }

    fn insert_b(&mut self, index: u32, value: i64) {
        let time = self.time;
        let row = self.rows.get_mut(&index).unwrap();
        if row.b.is_none() {
            row.b_added = time;
        }
        row.b = Some(value);
        row.b_changed = time;
    }

    fn apply(&mut self, queued: Vec<Queued>) {
        for command in queued {
            match command {
                Queued::InsertB(i, value) => self.insert_b(i, value),
                Queued::RemoveC(i) => self.rows.get_mut(&i).unwrap().c = None,
                Queued::Spawn(true) => self.spawn(Some(2), None, None),
                Queued::Spawn(false) => self.spawn(Some(1), None, Some(0)),
                Queued::Send(value) => self.mailbox.send(value),
            }
        }
    }

    /// Runs the systems one after the other, the commands queued so far at each sync point,
    /// then the rest; then, if a system writes or reads the messages, drops those every
    /// reader had a whole frame to read.
    fn frame(&mut self, order: &[Sys]) -> Result<(), TestCaseError> {
        let mut queued = Vec::new();
        for (k, &system) in order.iter().enumerate() {
            self.time += 1;
            let since = self.last_runs[k];
            let new = |stamp: u64| since.is_none_or(|since| stamp > since);
            let time = self.time;
            let rows = self.rows.iter_mut();
            match system {
                Sys::mix => {
                    for (_, row) in rows {
                        if let (Some(a), Some(c)) = (&mut row.a, &mut row.c) {
                            *a = a.wrapping_mul(3).wrapping_add(*c);
                            *c = c.wrapping_add(1);
                        }
                    }
                }
                Sys::bump => {
                    for (_, row) in rows {
                        if let (Some(a), Some(b)) = (row.a, &mut row.b)
                            && a.rem_euclid(3) == 0
                        {
                            *b = b.wrapping_add(a);
                            row.b_changed = time;
                        }
                    }
                }
                Sys::total => {
                    let sum = self
                        .rows
                        .values()
                        .flat_map(|row| [row.b, row.c])
                        .flatten()
                        .fold(0i64, i64::wrapping_add);
                    self.total = self.total.wrapping_mul(31).wrapping_add(sum);
                }
                Sys::spread => {
                    let add = self.total.rem_euclid(5);
                    for (_, row) in rows {
                        if let Some(c) = &mut row.c {
                            *c = c.wrapping_add(add);
                        }
                    }
                }
                Sys::lift => {
                    for (_, row) in rows {
                        if let (Some(b), None) = (&mut row.b, row.c) {
                            *b = b.wrapping_add(1);
                            row.b_changed = time;
                        }
                    }
                }
                Sys::watch_b => {
                    let seen = rows
                        .filter(|(_, row)| row.b.is_some() && new(row.b_changed))
                        .map(|(&i, _)| i)
                        .collect();
                    self.log_b.push(seen);
                }
                Sys::watch_new => {
                    let seen = rows
                        .filter(|(_, row)| row.a.is_some() && row.b.is_some() && new(row.b_added))
                        .map(|(&i, _)| i)
                        .collect();
                    self.log_new.push(seen);
                }
                Sys::breed => {
                    let mut spawned = 0;
                    for (&i, row) in rows {
                        let Some(a) = row.a else { continue };
                        if a.rem_euclid(7) == 0 {
                            queued.push(Queued::InsertB(i, a));
                        }
                        if a.rem_euclid(11) == 0 {
                            queued.push(Queued::RemoveC(i));
                        }
                        if a.rem_euclid(13) == 0 {
                            queued.push(Queued::Spawn(a.rem_euclid(2) == 0));
                            spawned += 1;
                        }
                    }
                    queued.push(Queued::Send(spawned));
                }
                Sys::shout => {
                    let sum = rows.filter_map(|(_, row)| row.a).fold(0, i64::wrapping_add);
                    self.mailbox.send(sum);
                    if sum % 2 == 0 {
                        self.mailbox.send(-1);
                    }
                }
                Sys::hear => {
                    let read = self.mailbox.read(k);
                    self.log_hits.push(read);
                }
                Sys::sync => self.apply(std::mem::take(&mut queued)),
            }
            self.last_runs[k] = Some(self.time);
        }
        self.time += 1;
        self.apply(queued);
        if order.iter().any(|s| matches!(s, Sys::shout | Sys::hear)) {
            let readers: Vec<usize> = (0..order.len())
                .filter(|&k| order[k] == Sys::hear)
                .collect();
            self.mailbox.end_frame(&readers)?;
        }
        Ok(())
    }

    fn state(&self) -> State {
        let values = self
            .rows
            .iter()
            .map(|(&i, row)| (i, [row.a, row.b, row.c]))
            .filter(|(_, values)| values.iter().any(Option::is_some))
            .collect();
        let kept = self.mailbox.kept.iter().map(|&(_, v)| v).collect();
        (
            values,
            self.total,
            [self.log_b.clone(), self.log_new.clone()],
            (self.log_hits.clone(), kept),
        )
    }
}

/// What a world must give back: each entity's values by index (entities with none left
/// out), the total, both logs of entities, the log of messages read and the messages kept.
type State = (
    BTreeMap<u32, [Option<i64>; 3]>,
    i64,
    [Vec<Vec<u32>>; 2],
    (Vec<Vec<i64>>, Vec<i64>),
);

macro_rules! state {
    ($w:expr, $storage:ident, $resource:ident) => {{
        let w = $w;
        let mut values: BTreeMap<u32, [Option<i64>; 3]> = BTreeMap::new();
        for (e, a) in $storage!(w, A).iter() {
            values.entry(e.index()).or_default()[0] = Some(a.0);
        }
        for (e, b) in $storage!(w, B).iter() {
            values.entry(e.index()).or_default()[1] = Some(b.0);
        }
        for (e, c) in $storage!(w, C).iter() {
            values.entry(e.index()).or_default()[2] = Some(c.0);
        }
        (
            values,
            $resource!(w, Total).0,
            [
                $resource!(w, LogB).0.clone(),
                $resource!(w, LogNew).0.clone(),
            ],
            (
                $resource!(w, LogHits).0.clone(),
                $resource!(w, Messages<Hit>)
                    .iter()
                    .map(|hit| hit.0)
                    .collect(),
            ),
        )
    }};
}
macro_rules! static_storage {
    ($w:expr, $T:ty) => {
        $w.storage::<$T>()
    };
}
macro_rules! dynamic_storage {
    ($w:expr, $T:ty) => {
        $w.storage::<$T>().cloned().unwrap_or_default()
    };
}
macro_rules! static_send {
    ($w:expr, $hit:expr) => {
        $w.resource_mut::<Messages<Hit>>().send($hit)
    };
}
macro_rules! dynamic_send {
    ($w:expr, $hit:expr) => {
        $w.resource_mut::<Messages<Hit>>().unwrap().send($hit)
    };
}
macro_rules! static_resource {
    ($w:expr, $R:ty) => {
        $w.resource::<$R>()
    };
}
macro_rules! dynamic_resource {
    ($w:expr, $R:ty) => {
        $w.resource::<$R>().unwrap()
    };
}

/// A change between frames, or a frame.
#[derive(Clone, Debug)]
enum Op {
    Frame,
    Spawn(Option<i8>, Option<i8>, Option<i8>),
    InsertA(usize, i8),
    InsertB(usize, i8),
    InsertC(usize, i8),
    RemoveB(usize),
    RemoveC(usize),
    /// `B` written through `get_mut` (changed, whatever the value).
    WriteB(usize, i8),
    Tick,
    /// A message sent between frames.
    Send(i8),
}

fn op() -> impl Strategy<Value = Op> {
    let value = || prop::option::of(any::<i8>());
    prop_oneof![
        4 => Just(Op::Frame),
        3 => (value(), value(), value()).prop_map(|(a, b, c)| Op::Spawn(a, b, c)),
        1 => (any::<usize>(), any::<i8>()).prop_map(|(e, v)| Op::InsertA(e, v)),
        2 => (any::<usize>(), any::<i8>()).prop_map(|(e, v)| Op::InsertB(e, v)),
        1 => (any::<usize>(), any::<i8>()).prop_map(|(e, v)| Op::InsertC(e, v)),
        1 => any::<usize>().prop_map(Op::RemoveB),
        1 => any::<usize>().prop_map(Op::RemoveC),
        2 => (any::<usize>(), any::<i8>()).prop_map(|(e, v)| Op::WriteB(e, v)),
        1 => Just(Op::Tick),
        1 => any::<i8>().prop_map(Op::Send),
    ]
}

/// Applies one change between frames to a world (`handles`: the entities it spawned).
macro_rules! change {
    ($w:expr, $op:expr, $handles:expr, $send:ident) => {{
        let (w, handles) = ($w, $handles);
        let pick = |i: &usize| handles.get(i % handles.len().max(1)).copied();
        match $op {
            Op::Frame => unreachable!("frames run apart"),
            Op::Spawn(a, b, c) => {
                let e = w.spawn();
                if let Some(a) = a {
                    w.insert(e, A(i64::from(*a))).unwrap();
                }
                if let Some(b) = b {
                    w.insert(e, B(i64::from(*b))).unwrap();
                }
                if let Some(c) = c {
                    w.insert(e, C(i64::from(*c))).unwrap();
                }
                handles.push(e);
            }
            Op::InsertA(i, v) => drop(pick(i).map(|e| w.insert(e, A(i64::from(*v))))),
            Op::InsertB(i, v) => drop(pick(i).map(|e| w.insert(e, B(i64::from(*v))))),
            Op::InsertC(i, v) => drop(pick(i).map(|e| w.insert(e, C(i64::from(*v))))),
            Op::RemoveB(i) => drop(pick(i).map(|e| w.remove::<B>(e))),
            Op::RemoveC(i) => drop(pick(i).map(|e| w.remove::<C>(e))),
            Op::WriteB(i, v) => {
                if let Some(b) = pick(i).and_then(|e| w.get_mut::<B>(e)) {
                    b.0 = i64::from(*v);
                }
            }
            Op::Tick => w.tick(),
            Op::Send(v) => $send!(w, Hit(i64::from(*v))),
        }
    }};
}

/// The same change in the model (`handles`: the entities the test spawned, of which
/// `change!` picks).
fn change_model(model: &mut Model, op: &Op, handles: &[Entity]) {
    let pick = |i: &usize| handles.get(i % handles.len().max(1)).map(|e| e.index());
    let value = |v: &i8| i64::from(*v);
    match op {
        Op::Frame => unreachable!("frames run apart"),
        Op::Spawn(a, b, c) => model.spawn(a.map(i64::from), b.map(i64::from), c.map(i64::from)),
        Op::InsertA(i, v) => pick(i).into_iter().for_each(|i| {
            model.rows.get_mut(&i).unwrap().a = Some(value(v));
        }),
        Op::InsertB(i, v) => pick(i)
            .into_iter()
            .for_each(|i| model.insert_b(i, value(v))),
        Op::InsertC(i, v) => pick(i).into_iter().for_each(|i| {
            model.rows.get_mut(&i).unwrap().c = Some(value(v));
        }),
        Op::RemoveB(i) => pick(i).into_iter().for_each(|i| {
            model.rows.get_mut(&i).unwrap().b = None;
        }),
        Op::RemoveC(i) => pick(i).into_iter().for_each(|i| {
            model.rows.get_mut(&i).unwrap().c = None;
        }),
        Op::WriteB(i, v) => {
            let time = model.time;
            if let Some(row) = pick(i).and_then(|i| model.rows.get_mut(&i))
                && row.b.is_some()
            {
                row.b = Some(value(v));
                row.b_changed = time;
            }
        }
        Op::Tick => model.time += 1,
        Op::Send(v) => model.mailbox.send(value(v)),
    }
}

/// Runs `ops` with one schedule of `order` on each world, its stages run as `threads`
/// says, checking both against the model after every frame.
fn check<SS, MS, SD, MD>(
    order: &[Sys],
    mut static_schedule: Schedule<SS, MS>,
    mut dynamic_schedule: Schedule<SD, MD>,
    threads: Threads,
    ops: &[Op],
) -> Result<(), TestCaseError>
where
    SS: Systems<Game, MS>,
    SD: Systems<World, MD>,
{
    static_schedule.set_threads(threads);
    dynamic_schedule.set_threads(threads);
    let stages = [
        static_schedule.stages::<Game>(),
        dynamic_schedule.stages::<World>(),
    ];
    prop_assert_eq!(
        stages[0].of_systems(),
        stages[1].of_systems(),
        "both worlds place the systems alike"
    );
    let (mut s, mut d) = (Game::new(), dynamic());
    let (mut s_handles, mut d_handles) = (Vec::new(), Vec::new());
    let mut model = Model::new(order.len());
    for (i, op) in ops.iter().enumerate() {
        if let Op::Frame = op {
            static_schedule.run(&mut s);
            dynamic_schedule.run(&mut d).unwrap();
            model.frame(order)?;
            let want = model.state();
            prop_assert_eq!(
                &state!(&s, static_storage, static_resource),
                &want,
                "#[world] after op {}",
                i
            );
            prop_assert_eq!(
                &state!(&d, dynamic_storage, dynamic_resource),
                &want,
                "World after op {}",
                i
            );
            s.check().map_err(TestCaseError::fail)?;
            d.check().map_err(TestCaseError::fail)?;
        } else {
            change_model(&mut model, op, &s_handles);
            change!(&mut s, op, &mut s_handles, static_send);
            change!(&mut d, op, &mut d_handles, dynamic_send);
        }
    }
    Ok(())
}

/// A system of the pool for world `W`: `breed` names its world's commands.
macro_rules! system {
    (breed, $W:ty) => {
        breed::<$W>
    };
    (sync, $W:ty) => {
        ApplyCommands
    };
    ($s:ident, $W:ty) => {
        $s
    };
}

/// The schedules: one match arm each, the same list of systems for both worlds, written
/// chained (the first system, then the others with `then`), so that the flat positions of
/// a chained list are checked too.
macro_rules! schedules {
    ($([$first:ident, $($s:ident),+],)+) => {
        const SCHEDULES: usize = [$(stringify!($first)),+].len();

        fn check_schedule(which: usize, threads: Threads, ops: &[Op]) -> Result<(), TestCaseError> {
            let mut arms = 0..;
            $(
                if arms.next() == Some(which) {
                    return check(
                        &[Sys::$first, $(Sys::$s),+],
                        Schedule::new((system!($first, Game),)).then(($(system!($s, Game),)+)),
                        Schedule::new((system!($first, World),)).then(($(system!($s, World),)+)),
                        threads,
                        ops,
                    );
                }
            )+
            unreachable!("a schedule of the list")
        }
    };
}

schedules! {
    [mix, bump, total, spread, lift, watch_b, watch_new, breed, shout, hear],
    [hear, shout, breed, watch_new, watch_b, lift, spread, total, bump, mix],
    [mix, lift, watch_b, spread, lift],
    [lift, breed, sync, lift, watch_b, total],
    [mix, total, watch_b, breed, watch_b, total],
    [watch_b, total],
    [spread, mix, mix, mix, breed],
    [watch_new, bump, breed, total, mix],
    [total, watch_b, watch_b, spread, breed],
    [bump, spread, bump, bump, spread, breed, spread],
    [breed, watch_new, watch_b, watch_b, bump, watch_b, watch_new],
    [total, total, watch_b, breed, bump],
    [breed, spread, watch_b, bump, breed],
    [breed, total, watch_b, watch_new],
    [spread, spread, breed, watch_b, breed, breed, mix],
    [total, breed, bump, total, bump, watch_new, total],
    [watch_b, spread],
    [spread, watch_new, watch_new],
    [spread, total, watch_b, watch_new, bump],
    [watch_new, breed, breed, watch_new],
    [watch_new, watch_new, watch_new, bump, watch_new, total, mix],
    [spread, spread],
    [bump, spread, bump, total, mix, breed],
    [watch_new, mix],
    [total, mix, mix, watch_new, watch_b, mix, mix],
    [breed, mix, bump, bump, watch_new, spread],
    [breed, sync, watch_new, watch_b, total],
    [mix, breed, sync, bump, watch_b, sync, breed, watch_new, spread],
    [sync, breed, breed, sync, sync, watch_new, total],
    [breed, watch_b, spread, bump, sync],
    [watch_new, breed, sync, breed, mix, sync, watch_new, total, breed, sync, watch_b],
    [total, breed, sync, watch_new, spread, bump, mix, breed, watch_b, sync, watch_new, total, breed, mix],
    [hear, shout],
    [shout, hear, hear],
    [hear, mix, shout, breed, hear, shout],
    [breed, hear, sync, hear, shout, breed],
    [shout, shout, breed, sync, hear, mix, hear, sync, shout],
    [hear, breed, sync, breed, hear],
}

proptest! {
    #![proptest_config(cases_or(96))]

    #[test]
    fn a_random_schedule_equals_its_systems_run_one_after_the_other(
        which in 0..SCHEDULES,
        threads in prop_oneof![Just(Threads::Measured), Just(Threads::Many), Just(Threads::One)],
        ops in prop::collection::vec(op(), 1..48),
    ) {
        check_schedule(which, threads, &ops)?;
    }
}

/// Every schedule of the list, over one fixed sequence of changes and frames.
#[test]
fn every_schedule_of_the_list_runs_against_the_model() {
    let mut ops = Vec::new();
    for i in 0..12i8 {
        ops.push(Op::Spawn(Some(i * 7), (i % 2 == 0).then_some(i), Some(i)));
    }
    for i in 0..6 {
        ops.push(Op::Frame);
        ops.push(Op::InsertB(i * 5, 3));
        ops.push(Op::WriteB(i * 3 + 1, 9));
        ops.push(Op::Spawn(Some(21), Some(1), None));
        ops.push(Op::RemoveC(i * 2));
        if i % 3 == 2 {
            ops.push(Op::Tick);
        }
    }
    ops.push(Op::Frame);
    for which in 0..SCHEDULES {
        for threads in [Threads::Measured, Threads::Many, Threads::One] {
            check_schedule(which, threads, &ops)
                .unwrap_or_else(|e| panic!("schedule {which} ({threads:?}): {e}"));
        }
    }
}
