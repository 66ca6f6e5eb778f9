//! What a system's parameters may be: the parts of a borrow (groups, views, storages,
//! values, resources, the entities), the system's own command queue, and its message
//! writers and readers. Each part is
//! named by the type the function writes (`GroupMut<'_, K>`); [`SystemParam::Item`] is
//! that type for the frame's lifetime.

use super::sealed::Sealed;
use crate::access::{Borrow, Filter, Query, ValuesMut, View, cat};
use crate::advice::SystemShape;
use crate::change::Commands;
use crate::component::Component;
use crate::entity::Entities;
use crate::group::{GroupKey, GroupMut, GroupRef};
use crate::lend::{AccessError, Cons, LendResource, List, Nil, WorldParts};
use crate::message::{MessageCursor, MessageReader, MessageWriter, Messages, queue_of};
use crate::resource::{Res, ResMut};
use crate::storage::Storage;

/// What a system's parameters are taken with besides the world's parts: the system's
/// command queue (taken by its `&mut Commands<W>`), the change count of its last run, and
/// its message cursors (one per [`MessageReader`], taken in parameter order).
#[doc(hidden)]
pub struct Taking<'w, W> {
    pub(crate) commands: Option<&'w mut Commands<W>>,
    pub(crate) since: u32,
    pub(crate) cursors: &'w mut [MessageCursor],
}

/// A parameter of a system: a part of a borrow, `&mut Commands<W>`, a
/// [`MessageWriter`] or a [`MessageReader`]. Sealed: a parameter takes from the world
/// exactly what its lists declare.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a parameter of a system of `{W}`",
    label = "not a part of this world",
    note = "a system's parameters are parts of a borrow (`GroupMut<'_, K>`, `GroupRef<'_, K>`, `View<'_, Q, F>`, `ValuesMut<'_, T>`, `&Storage<T>`, `Res<'_, R>`, `ResMut<'_, R>`, `&Entities`), its command queue `&mut Commands<W>`, `MessageWriter<'_, E>`, `MessageReader<'_, E>`, or a tuple of them"
)]
pub trait SystemParam<W: WorldParts + 'static>: Sealed {
    /// The parameter for the frame's lifetime `'w`.
    type Item<'w>: Send;
    /// The types written, as a type-level list.
    type Writes: List;
    /// The types read, as a type-level list.
    type Reads: List;
    /// The types whose change stamps it reads (a view's `Added`/`Changed` filters): for the
    /// stages only (see `Filter::Watches`).
    type Watches: List;
    /// The command queues it is, as a type-level list (`&mut Commands<W>`: one; a system
    /// takes at most one, see `OneQueueAtMost`).
    type Queues: List;
    /// Whether it may reserve entities (`&Entities`): two systems that may never share a
    /// stage, so that their handles come in system order.
    #[doc(hidden)]
    const RESERVES: bool = false;
    /// How many message cursors it keeps (one per [`MessageReader`]).
    #[doc(hidden)]
    const CURSORS: usize = 0;
    /// Makes sure the storages exist (the run-time world creates them on demand).
    #[doc(hidden)]
    fn prepare(_world: &mut W) {}
    /// Adds the views and groups it names, for layout advice.
    #[doc(hidden)]
    fn shape(_shape: &mut SystemShape) {}
    /// Takes the parameter from the world's parts, or from what the system is run with
    /// (its command queue, its message cursors); a view's `Added`/`Changed` pass the stamps
    /// after count `taking.since` (the system's last run).
    #[doc(hidden)]
    fn take<'w>(
        parts: &mut W::Parts<'w>,
        taking: &mut Taking<'w, W>,
    ) -> Result<Self::Item<'w>, AccessError>;
    /// At the end of the run `run` of the schedule `schedule`: drops the messages of the
    /// run before (see [`Messages::update`]).
    #[doc(hidden)]
    fn end_run(_world: &mut W, _schedule: u64, _run: u64) {}
}

/// Implements [`SystemParam`] for a part of a borrow: its lists and its taking are the
/// part's own ([`Borrow`]).
macro_rules! borrow_param {
    ([$($bounds:tt)*] $part:ty => $item:ty) => {
        borrow_param!([$($bounds)*] $part => $item, shape |_shape| {});
    };
    ([$($bounds:tt)*] $part:ty => $item:ty, shape |$shape:ident| $add:block) => {
        borrow_param!(
            [$($bounds)*] $part => $item,
            watches Nil,
            reserves false,
            since |_item, _since| {},
            shape |$shape| $add
        );
    };
    (
        [$($bounds:tt)*] $part:ty => $item:ty,
        watches $watches:ty,
        reserves $reserves:literal,
        since |$item_:ident, $since:ident| $set:block,
        shape |$shape:ident| $add:block
    ) => {
        impl<'x, $($bounds)*> Sealed for $part {}

        impl<'x, W: WorldParts + 'static, $($bounds)*> SystemParam<W> for $part
        where
            for<'w> $item: Borrow<'w, W> + Send,
        {
            type Item<'w> = $item;
            type Writes = <Self::Item<'static> as Borrow<'static, W>>::Writes;
            type Reads = <Self::Item<'static> as Borrow<'static, W>>::Reads;
            type Watches = $watches;
            type Queues = Nil;
            const RESERVES: bool = $reserves;

            fn prepare(world: &mut W) {
                <Self::Item<'static> as Borrow<'static, W>>::prepare(world);
            }

            fn shape($shape: &mut SystemShape) {
                $add
            }

            #[inline(always)]
            fn take<'w>(
                parts: &mut W::Parts<'w>,
                taking: &mut Taking<'w, W>,
            ) -> Result<$item, AccessError> {
                #[allow(unused_variables)]
                let $since = taking.since;
                #[allow(unused_mut)]
                let mut $item_ = <$item as Borrow<'w, W>>::take(parts)?;
                $set
                Ok($item_)
            }
        }
    };
}

borrow_param!([K: GroupKey] GroupMut<'x, K> => GroupMut<'w, K>, shape |shape| {
    shape.group(K::decl());
});
borrow_param!([K: GroupKey] GroupRef<'x, K> => GroupRef<'w, K>, shape |shape| {
    shape.group(K::decl());
});
borrow_param!(
    [Q: Query, F: Filter] View<'x, Q, F> => View<'w, Q, F>,
    watches F::Watches,
    reserves false,
    since |view, since| { view.since(since); },
    shape |shape| { shape.view::<Q, F>(); }
);
borrow_param!([T: Component] ValuesMut<'x, T> => ValuesMut<'w, T>);
borrow_param!([T: Component] &'x Storage<T> => &'w Storage<T>);
borrow_param!(
    [] &'x Entities => &'w Entities,
    watches Nil,
    reserves true,
    since |_entities, _since| {},
    shape |_shape| {}
);
borrow_param!([R: Send + Sync + 'static] Res<'x, R> => Res<'w, R>);
borrow_param!([R: Send + Sync + 'static] ResMut<'x, R> => ResMut<'w, R>);

impl<W: 'static> Sealed for &mut Commands<W> {}

impl<W: WorldParts + 'static> SystemParam<W> for &mut Commands<W> {
    type Item<'w> = &'w mut Commands<W>;
    type Writes = Nil;
    type Reads = Nil;
    type Watches = Nil;
    type Queues = Cons<Commands<W>, Nil>;

    fn take<'w>(
        _: &mut W::Parts<'w>,
        taking: &mut Taking<'w, W>,
    ) -> Result<&'w mut Commands<W>, AccessError> {
        taking
            .commands
            .take()
            .ok_or(AccessError::Conflict(core::any::type_name::<Commands<W>>()))
    }
}

impl<E> Sealed for MessageWriter<'_, E> {}

/// Writes the resource `Messages<E>`: two writers never share a stage.
impl<W, E> SystemParam<W> for MessageWriter<'_, E>
where
    W: LendResource<Messages<E>> + 'static,
    E: Send + Sync + 'static,
{
    type Item<'w> = MessageWriter<'w, E>;
    type Writes = <ResMut<'static, Messages<E>> as Borrow<'static, W>>::Writes;
    type Reads = <ResMut<'static, Messages<E>> as Borrow<'static, W>>::Reads;
    type Watches = Nil;
    type Queues = Nil;

    fn take<'w>(
        parts: &mut W::Parts<'w>,
        _: &mut Taking<'w, W>,
    ) -> Result<MessageWriter<'w, E>, AccessError> {
        Ok(MessageWriter::new(<ResMut<'w, Messages<E>> as Borrow<
            'w,
            W,
        >>::take(parts)?))
    }

    fn end_run(world: &mut W, schedule: u64, run: u64) {
        end_run::<W, E>(world, schedule, run);
    }
}

impl<E> Sealed for MessageReader<'_, E> {}

/// Reads the resource `Messages<E>` with a cursor of its own.
impl<W, E> SystemParam<W> for MessageReader<'_, E>
where
    W: LendResource<Messages<E>> + 'static,
    E: Send + Sync + 'static,
{
    type Item<'w> = MessageReader<'w, E>;
    type Writes = <Res<'static, Messages<E>> as Borrow<'static, W>>::Writes;
    type Reads = <Res<'static, Messages<E>> as Borrow<'static, W>>::Reads;
    type Watches = Nil;
    type Queues = Nil;
    const CURSORS: usize = 1;

    fn take<'w>(
        parts: &mut W::Parts<'w>,
        taking: &mut Taking<'w, W>,
    ) -> Result<MessageReader<'w, E>, AccessError> {
        let messages = <Res<'w, Messages<E>> as Borrow<'w, W>>::take(parts)?;
        let (cursor, rest) = core::mem::take(&mut taking.cursors)
            .split_first_mut()
            .expect("one cursor per message reader");
        taking.cursors = rest;
        Ok(MessageReader::new(messages, cursor))
    }

    fn end_run(world: &mut W, schedule: u64, run: u64) {
        end_run::<W, E>(world, schedule, run);
    }
}

/// Drops `world`'s messages of type `E` sent before the schedule's previous run ended, once
/// in the run `run`.
fn end_run<W: LendResource<Messages<E>> + 'static, E: Send + Sync + 'static>(
    world: &mut W,
    schedule: u64,
    run: u64,
) {
    // The schedule checked that the world holds the queue before the run; a sync point's
    // commands may have taken it away since, leaving nothing to drop.
    if let Ok(messages) = queue_of(world) {
        messages.end_run(schedule, run);
    }
}

/// A tuple of parameters is one parameter: its lists are its elements' lists one after
/// the other, and it takes its elements in order. A system with more than eight parts
/// groups them: `fn update((position, velocity): (ValuesMut<'_, P>, &Storage<V>), …)`.
macro_rules! tuple_param {
    ($($P:ident),+) => {
        impl<$($P: Sealed),+> Sealed for ($($P,)+) {}

        impl<W: WorldParts + 'static, $($P: SystemParam<W>),+> SystemParam<W> for ($($P,)+) {
            type Item<'w> = ($($P::Item<'w>,)+);
            type Writes = cat!($($P::Writes),+);
            type Reads = cat!($($P::Reads),+);
            type Watches = cat!($($P::Watches),+);
            type Queues = cat!($($P::Queues),+);
            const RESERVES: bool = false $(|| $P::RESERVES)+;
            const CURSORS: usize = 0 $(+ $P::CURSORS)+;

            fn prepare(world: &mut W) {
                $($P::prepare(world);)+
            }

            fn shape(shape: &mut SystemShape) {
                $($P::shape(shape);)+
            }

            #[inline(always)]
            fn take<'w>(
                parts: &mut W::Parts<'w>,
                taking: &mut Taking<'w, W>,
            ) -> Result<Self::Item<'w>, AccessError> {
                Ok(($($P::take(parts, taking)?,)+))
            }

            fn end_run(world: &mut W, schedule: u64, run: u64) {
                $($P::end_run(world, schedule, run);)+
            }
        }
    };
}

tuple_param!(P1);
tuple_param!(P1, P2);
tuple_param!(P1, P2, P3);
tuple_param!(P1, P2, P3, P4);
tuple_param!(P1, P2, P3, P4, P5);
tuple_param!(P1, P2, P3, P4, P5, P6);
tuple_param!(P1, P2, P3, P4, P5, P6, P7);
tuple_param!(P1, P2, P3, P4, P5, P6, P7, P8);

/// The command queues of one system's parameters: none or one. A system with two would
/// split its commands in two queues applied in an order it cannot see; the compiler
/// refuses it, naming the fix.
#[diagnostic::on_unimplemented(
    message = "a system takes at most one `&mut Commands<W>`",
    label = "a system of this schedule has more than one command queue",
    note = "queue every command of a system in one `&mut Commands<W>` parameter"
)]
pub trait OneQueueAtMost {}

impl OneQueueAtMost for Nil {}

impl<Q> OneQueueAtMost for Cons<Q, Nil> {}
