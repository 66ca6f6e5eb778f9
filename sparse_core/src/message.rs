//! Messages between systems: a system sends values of a type `E` with a
//! [`MessageWriter<E>`], and every system that takes a [`MessageReader<E>`] reads each of
//! them exactly once, whatever the order of writer and reader in the schedule.
//!
//! The messages live in a resource, [`Messages<E>`] (a `#[world]` field
//! `hits: Resource<Messages<Hit>>`, or `world.insert_resource(Messages::<Hit>::new())` on the
//! run-time `World`). Each message has a number, in the order sent; each reader keeps a
//! cursor, the number of the first message it has not read, stored by the schedule per
//! system (so two schedules' readers, or two readers in one schedule, never share one).
//!
//! ```text
//! run:          1                         2                        3
//! sent:     a b (writer)   c (after it)   d                        e
//! kept:     a b c                         a b c d                  c d e
//! reader:   reads a b      (c comes next) reads c d                reads e
//!                                          end of run 2: a b dropped (seen in a whole run)
//! ```
//!
//! A schedule with a reader or a writer of `E` drops, at the end of each of its runs, the
//! messages sent before its previous run ended: each was kept for a whole run of that
//! schedule after the one it was sent in (messages sent between runs count as sent in the
//! next), so every reader of that schedule has read it once. A reader that does not run in
//! that time (in a schedule run less often than another that names `E`) misses it, and its
//! [`missed`](MessageReader::missed) count says how many it missed.
//!
//! Messages are not saved in snapshots: a snapshot holds an empty `Messages<E>`, and one
//! loaded starts empty, its readers starting over.

use core::fmt;
use core::sync::atomic::{AtomicU64, Ordering};
use std::collections::VecDeque;

use crate::lend::{AccessError, LendResource};
use crate::resource::{Res, ResMut};

/// `world`'s queue of messages `E`, mutably (what sending from commands and dropping at the
/// end of a run both go through).
///
/// # Errors
/// [`AccessError::NoResource`] if the (run-time) world holds no `Messages<E>`.
pub(crate) fn queue_of<W: LendResource<Messages<E>>, E: 'static>(
    world: &mut W,
) -> Result<&mut Messages<E>, AccessError> {
    let mut parts = world.parts();
    W::resource_slot(&mut parts).and_then(|slot| slot.take_mut())
}

/// Numbers the queues, the schedules and their runs (one sequence: each number is used
/// once): a cursor knows the queue it read (a queue replaced by a snapshot load, or another
/// world's, is read from its start), and a queue the last run of each schedule that
/// dropped its messages.
static NUMBERS: AtomicU64 = AtomicU64::new(1);

/// A number never given before (and never 0).
pub(crate) fn fresh_number() -> u64 {
    NUMBERS.fetch_add(1, Ordering::Relaxed)
}

/// The messages of type `E` of a world: a resource, written through [`MessageWriter<E>`]
/// and read through [`MessageReader<E>`] by systems, or directly.
///
/// ```text
/// numbers:   first ............ a schedule's end ............ next
/// kept:     [ sent before its last run ended | sent since ]
///             dropped at the end of its next run
/// ```
pub struct Messages<E> {
    /// The messages kept, the first numbered `first`.
    kept: VecDeque<E>,
    /// The number of `kept[0]`.
    first: u64,
    /// Which queue this is, for the cursors.
    queue: u64,
    /// Each schedule that named `E` (and `update`'s own, schedule 0): the end of its last
    /// run.
    ends: Vec<RunEnd>,
}

/// Where a schedule's last run ended in a queue.
#[derive(Clone, Copy, Debug)]
struct RunEnd {
    schedule: u64,
    run: u64,
    /// The number of the first message sent after it.
    next: u64,
}

/// A reader's place in a [`Messages`] queue: the number of the first message it has not
/// read. The schedule keeps one per [`MessageReader`]; code outside a schedule keeps its own
/// to read with [`Messages::read`]. A new cursor reads every message kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MessageCursor {
    /// The queue read (0: none yet).
    queue: u64,
    /// The first message not read.
    next: u64,
}

impl<E> Messages<E> {
    /// An empty queue.
    pub fn new() -> Self {
        Messages {
            kept: VecDeque::new(),
            first: 0,
            queue: fresh_number(),
            ends: Vec::new(),
        }
    }

    /// Sends `message`: every reader reads it once.
    pub fn send(&mut self, message: E) {
        self.kept.push_back(message);
    }

    /// How many messages are kept (read or not).
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    /// Whether no message is kept.
    pub fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    /// Every message kept, oldest first.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &E> + '_ {
        self.kept.iter()
    }

    /// The number the next message sent will have.
    fn next(&self) -> u64 {
        self.first + self.kept.len() as u64
    }

    /// The messages `cursor` has not read, oldest first, and moves it past them: for a
    /// reader outside a schedule (a schedule's [`MessageReader`] does this for its system).
    pub fn read(&self, cursor: &mut MessageCursor) -> impl ExactSizeIterator<Item = &E> + '_ {
        let from = self.unread_from(cursor);
        *cursor = MessageCursor {
            queue: self.queue,
            next: self.next(),
        };
        self.kept.range(from..)
    }

    /// The index in `kept` of the first message `cursor` has not read.
    fn unread_from(&self, cursor: &MessageCursor) -> usize {
        if cursor.queue != self.queue {
            return 0; // a new reader, or another queue: everything kept is news
        }
        // A cursor is never past `next`: it only ever moves to it.
        usize::try_from(cursor.next.saturating_sub(self.first)).unwrap_or(usize::MAX)
    }

    /// How many messages `cursor` has not read.
    pub fn unread(&self, cursor: &MessageCursor) -> usize {
        self.kept.len().saturating_sub(self.unread_from(cursor))
    }

    /// How many messages were dropped before `cursor` read them (0 for a new cursor).
    pub fn missed(&self, cursor: &MessageCursor) -> u64 {
        if cursor.queue != self.queue {
            return 0;
        }
        self.first.saturating_sub(cursor.next)
    }

    /// Drops the messages sent before the previous call, keeping those sent since: what a
    /// schedule does at the end of each run. Call it once a frame for messages no schedule
    /// reads or writes.
    pub fn update(&mut self) {
        self.end_run(0, fresh_number());
    }

    /// At the end of the run `run` of the schedule `schedule`: drops the messages sent
    /// before its previous run ended, once however many of its systems name `E`.
    pub(crate) fn end_run(&mut self, schedule: u64, run: u64) {
        let end = RunEnd {
            schedule,
            run,
            next: self.next(),
        };
        let Some(last) = self.ends.iter_mut().find(|e| e.schedule == schedule) else {
            self.ends.push(end);
            return; // its first run: nothing sent before an earlier one
        };
        if last.run == run {
            return;
        }
        let keep_from = last.next;
        *last = end;
        while self.first < keep_from && self.kept.pop_front().is_some() {
            self.first += 1;
        }
    }

    /// Drops every message kept (readers count them as missed).
    pub fn clear(&mut self) {
        self.first = self.next();
        self.kept.clear();
    }
}

impl<E> Default for Messages<E> {
    fn default() -> Self {
        Messages::new()
    }
}

impl<E> Extend<E> for Messages<E> {
    fn extend<I: IntoIterator<Item = E>>(&mut self, messages: I) {
        self.kept.extend(messages);
    }
}

impl<E: fmt::Debug> fmt::Debug for Messages<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Messages")
            .field("kept", &self.kept)
            .field("first", &self.first)
            .finish()
    }
}

/// Messages are not saved: a snapshot writes a queue as `null`.
#[cfg(feature = "serde")]
impl<E> serde::Serialize for Messages<E> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_unit()
    }
}

/// A loaded queue starts empty, a queue of its own (its readers start over).
#[cfg(feature = "serde")]
impl<'de, E> serde::Deserialize<'de> for Messages<E> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        <()>::deserialize(deserializer)?;
        Ok(Messages::new())
    }
}

/// A system's writer of messages of type `E`: a parameter that writes the world's
/// [`Messages<E>`] (so two writers of `E` never share a stage, and their messages come in
/// system order).
pub struct MessageWriter<'w, E> {
    messages: ResMut<'w, Messages<E>>,
}

impl<'w, E> MessageWriter<'w, E> {
    pub(crate) fn new(messages: ResMut<'w, Messages<E>>) -> Self {
        MessageWriter { messages }
    }

    /// Sends `message`.
    pub fn send(&mut self, message: E) {
        self.messages.send(message);
    }
}

impl<E> Extend<E> for MessageWriter<'_, E> {
    fn extend<I: IntoIterator<Item = E>>(&mut self, messages: I) {
        self.messages.extend(messages);
    }
}

impl<E> fmt::Debug for MessageWriter<'_, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MessageWriter")
            .field("kept", &self.messages.len())
            .finish()
    }
}

/// A system's reader of messages of type `E`: a parameter that reads the world's
/// [`Messages<E>`] with the system's own cursor, so that it reads each message once.
pub struct MessageReader<'w, E> {
    messages: Res<'w, Messages<E>>,
    cursor: &'w mut MessageCursor,
}

impl<'w, E> MessageReader<'w, E> {
    pub(crate) fn new(messages: Res<'w, Messages<E>>, cursor: &'w mut MessageCursor) -> Self {
        MessageReader { messages, cursor }
    }

    /// The messages this system has not read yet, oldest first; they count as read.
    pub fn read(&mut self) -> impl ExactSizeIterator<Item = &E> + '_ {
        self.messages.read(self.cursor)
    }

    /// How many messages this system has not read yet.
    pub fn len(&self) -> usize {
        self.messages.unread(self.cursor)
    }

    /// Whether this system has read every message.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many messages were dropped before this system read them (it did not run in the
    /// run after they were sent).
    pub fn missed(&self) -> u64 {
        self.messages.missed(self.cursor)
    }
}

impl<E> fmt::Debug for MessageReader<'_, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MessageReader")
            .field("unread", &self.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_each_message_once() {
        let mut messages = Messages::new();
        let mut cursor = MessageCursor::default();
        messages.extend([1, 2]);
        assert_eq!(
            messages.read(&mut cursor).copied().collect::<Vec<_>>(),
            [1, 2]
        );
        assert_eq!(messages.read(&mut cursor).len(), 0);
        messages.send(3);
        assert_eq!(messages.unread(&cursor), 1);
        assert_eq!(messages.read(&mut cursor).copied().collect::<Vec<_>>(), [3]);
    }

    #[test]
    fn update_keeps_what_was_sent_since_the_previous_update() {
        let mut messages = Messages::new();
        let mut late = MessageCursor::default();
        messages.send(1);
        messages.update(); // 1 sent in this run: kept
        assert_eq!(messages.len(), 1);
        messages.send(2);
        messages.update(); // 1 dropped, 2 kept
        assert_eq!(messages.iter().copied().collect::<Vec<_>>(), [2]);
        // A new cursor reads what is kept and has missed nothing.
        assert_eq!(messages.missed(&late), 0);
        assert_eq!(messages.read(&mut late).copied().collect::<Vec<_>>(), [2]);
        messages.send(3);
        messages.update();
        messages.update(); // 3 dropped, unread by `late`
        assert_eq!(messages.missed(&late), 1);
        assert_eq!(messages.read(&mut late).len(), 0);
        assert_eq!(messages.missed(&late), 0);
    }

    #[test]
    fn another_queue_is_read_from_its_start() {
        let mut a = Messages::new();
        let mut b = Messages::new();
        let mut cursor = MessageCursor::default();
        a.extend([1, 2, 3]);
        assert_eq!(a.read(&mut cursor).len(), 3);
        b.send(9);
        assert_eq!(b.read(&mut cursor).copied().collect::<Vec<_>>(), [9]);
    }

    #[test]
    fn clear_counts_as_missed() {
        let mut messages = Messages::new();
        let mut cursor = MessageCursor::default();
        messages.send(1);
        assert_eq!(messages.read(&mut cursor).len(), 1);
        messages.extend([2, 3]);
        messages.clear();
        assert!(messages.is_empty());
        assert_eq!(messages.missed(&cursor), 2);
        messages.send(4);
        assert_eq!(messages.read(&mut cursor).copied().collect::<Vec<_>>(), [4]);
    }
}
