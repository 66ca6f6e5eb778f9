//! Systems: plain functions whose parameters are [`SystemParam`]s. The parameters' types
//! are read from the function's signature (a function `fn(GroupMut<'_, K>, Res<'_, R>)`
//! is `FnMut(GroupMut<'static, K>, Res<'static, R>)`, which names them, and
//! `FnMut(GroupMut<'w, K>, Res<'w, R>)` for every `'w`, which calls it), so nothing is
//! declared twice.

use super::param::{OneQueueAtMost, SystemParam, Taking};
use crate::access::cat;
use crate::advice::SystemShape;
use crate::change::Commands;
use crate::lend::{AccessError, List, NoAlias, WorldParts};
use crate::message::MessageCursor;

/// The parameter `P` of a system of `W` for the frame's lifetime `'w`.
pub type ParamItem<'w, W, P> = <P as SystemParam<W>>::Item<'w>;

/// A system of worlds `W`: a function whose parameters are [`SystemParam`]s (up to eight;
/// a tuple of parameters counts as one),
/// run by a [`Schedule`](super::Schedule). `Marker` tells the arities apart (it is
/// `fn(P1, P2, …)`); it is inferred. Implemented for functions and closures, and for the
/// sync point [`ApplyCommands`](super::ApplyCommands); not implementable outside this crate
/// (its hidden methods name this crate's own types), so its lists are what the
/// parameters declare.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a system of `{W}`",
    label = "not a function whose parameters are parts of this world",
    note = "a system is a function (or closure) whose parameters, at most eight (a tuple of them counts as one), are parts of a borrow (`GroupMut<'_, K>`, `GroupRef<'_, K>`, `View<'_, Q, F>`, `ValuesMut<'_, T>`, `&Storage<T>`, `Res<'_, R>`, `ResMut<'_, R>`, `&Entities`), `&mut Commands<W>`, `MessageWriter<'_, E>` or `MessageReader<'_, E>`, and which returns nothing"
)]
pub trait System<W: WorldParts + 'static, Marker>: Send {
    /// The types the system writes, as a type-level list.
    type Writes: List;
    /// The types the system reads, as a type-level list.
    type Reads: List;
    /// The types whose change stamps the system reads (for the stages only).
    type Watches: List;
    /// Its command queues, as a type-level list (see `SystemParam::Queues`).
    type Queues: List;
    /// Whether it may reserve entities (see `SystemParam::RESERVES`).
    #[doc(hidden)]
    const RESERVES: bool;
    /// Whether it is a sync point ([`ApplyCommands`](super::ApplyCommands)), which the
    /// schedule runs alone in its stage by applying the commands queued before it.
    #[doc(hidden)]
    const SYNC_POINT: bool = false;
    /// How many message cursors it keeps (one per `MessageReader`).
    #[doc(hidden)]
    const CURSORS: usize = 0;
    /// The system's parameters for the frame's lifetime `'w`.
    #[doc(hidden)]
    type Taken<'w>: Send;
    /// Makes sure the storages exist (the run-time world creates them on demand).
    #[doc(hidden)]
    fn prepare(world: &mut W);
    /// Adds the views and groups its parameters name, for layout advice.
    #[doc(hidden)]
    fn shape(shape: &mut SystemShape);
    /// Takes the parameters from the world's parts, the system's command queue and its
    /// message cursors (`CURSORS` of them); its views' `Added`/`Changed` pass the stamps
    /// after count `since` (its last run).
    #[doc(hidden)]
    fn take<'w>(
        parts: &mut W::Parts<'w>,
        commands: &'w mut Commands<W>,
        since: u32,
        cursors: &'w mut [MessageCursor],
    ) -> Result<Self::Taken<'w>, AccessError>;
    /// Runs the system with its parameters.
    #[doc(hidden)]
    fn run(&mut self, taken: Self::Taken<'_>);
    /// At the end of the run `run` of the schedule `schedule` (see `SystemParam::end_run`).
    #[doc(hidden)]
    fn end_run(_world: &mut W, _schedule: u64, _run: u64) {}
}

/// The system `Self`'s own parameters are apart: none writes a component type or resource
/// another one reads or writes (the borrow rule, for one system), and at most one is a
/// command queue. A wrapper around the world's `NoAlias` proof so that the error names the
/// system and its parameters.
#[diagnostic::on_unimplemented(
    message = "the parameters of the system `{Self}` overlap",
    label = "a system of this schedule borrows a type twice, at least once mutably, or takes two command queues",
    note = "its parameters are `{M}`: a system may read a type several times, but may write it only once and never read it while writing it, and it queues its commands in one `&mut Commands<W>`; split it into two systems"
)]
pub trait ParametersApart<W, M> {}

#[diagnostic::do_not_recommend]
impl<W, S, M> ParametersApart<W, M> for S
where
    W: WorldParts + NoAlias<S::Writes, S::Reads> + 'static,
    S: System<W, M>,
    S::Queues: OneQueueAtMost,
{
}

macro_rules! function_system {
    ($($P:ident $p:ident),+) => {
        impl<W, F, $($P: SystemParam<W>),+> System<W, fn($($P,)+)> for F
        where
            W: WorldParts + 'static,
            F: Send,
            for<'f> &'f mut F: FnMut($($P),+) + FnMut($(ParamItem<'_, W, $P>),+),
        {
            type Writes = cat!($($P::Writes),+);
            type Reads = cat!($($P::Reads),+);
            type Watches = cat!($($P::Watches),+);
            type Queues = cat!($($P::Queues),+);
            type Taken<'w> = ($(ParamItem<'w, W, $P>,)+);
            const RESERVES: bool = false $(|| $P::RESERVES)+;
            const CURSORS: usize = 0 $(+ $P::CURSORS)+;

            fn prepare(world: &mut W) {
                $($P::prepare(world);)+
            }

            fn shape(shape: &mut SystemShape) {
                $($P::shape(shape);)+
            }

            #[inline]
            fn take<'w>(
                parts: &mut W::Parts<'w>,
                commands: &'w mut Commands<W>,
                since: u32,
                cursors: &'w mut [MessageCursor],
            ) -> Result<Self::Taken<'w>, AccessError> {
                let mut taking = Taking {
                    commands: Some(commands),
                    since,
                    cursors,
                };
                Ok(($($P::take(parts, &mut taking)?,)+))
            }

            fn end_run(world: &mut W, schedule: u64, run: u64) {
                $($P::end_run(world, schedule, run);)+
            }

            #[inline]
            fn run(&mut self, ($($p,)+): Self::Taken<'_>) {
                // Through `&mut F`, whose `FnMut` takes the frame's parameters.
                #[allow(clippy::too_many_arguments)]
                fn call<$($P),+>(mut f: impl FnMut($($P),+), $($p: $P),+) {
                    f($($p),+)
                }
                call(&mut *self, $($p),+)
            }
        }
    };
}

function_system!(P1 p1);
function_system!(P1 p1, P2 p2);
function_system!(P1 p1, P2 p2, P3 p3);
function_system!(P1 p1, P2 p2, P3 p3, P4 p4);
function_system!(P1 p1, P2 p2, P3 p3, P4 p4, P5 p5);
function_system!(P1 p1, P2 p2, P3 p3, P4 p4, P5 p5, P6 p6);
function_system!(P1 p1, P2 p2, P3 p3, P4 p4, P5 p5, P6 p6, P7 p7);
function_system!(P1 p1, P2 p2, P3 p3, P4 p4, P5 p5, P6 p6, P7 p7, P8 p8);
