//! The list of a schedule: a tuple of up to sixteen elements, each a system or a sync
//! point ([`ApplyCommands`]), and lists chained after it ([`Schedule::then`]), so a
//! schedule holds any number of systems. The list is flat to the schedule: element `i`
//! counts the elements before it, whatever the chaining, and the stages are computed over
//! the flat list.
//!
//! ```text
//! Schedule::new((input, ApplyCommands, movement)).then((decay, collide))
//!   flat: 0 input   1 ApplyCommands   2 movement   3 decay   4 collide
//! ```
//!
//! On a `#[world]` each element's footprint is a constant and a list's is the concatenation
//! of its elements' (up to `MAX_COMPILED` elements): the compiler computes the stages. The
//! run-time `World` collects the same footprints as `TypeId`s.
//!
//! [`Schedule::then`]: super::Schedule::then

use core::any::{TypeId, type_name};

use super::stages::{ElementAccess, Footprint, Footprints, MAX_COMPILED, Mask, TypeIds};
use super::system::{ParametersApart, System};
use crate::advice::SystemShape;
use crate::change::{Commands, EditEntities};
use crate::lend::{AccessError, Nil, WorldParts};
use crate::message::MessageCursor;

/// Keeps [`Systems`] to this crate.
mod sealed {
    /// Sealing `Systems`.
    pub trait Sealed {}
}

/// A sync point: listed between systems, the commands the systems before it queued are
/// applied there, so that the systems after it see them in the same run.
///
/// ```text
/// Schedule::new((spawn_bullets, ApplyCommands, move_bullets))
///   stage 0: spawn_bullets
///   stage 1: the commands queued so far, applied
///   stage 2: move_bullets (sees this frame's bullets)
/// ```
///
/// It has a stage of its own: every system listed before it runs in an earlier stage,
/// every system after it in a later one. A run equals the systems called in order, with
/// the commands queued so far applied at each sync point and the rest at the end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ApplyCommands;

/// Marks a sync point as a [`System`].
#[doc(hidden)]
pub struct SyncPoint;

/// A list chained after another ([`Schedule::then`](super::Schedule::then)).
#[doc(hidden)]
pub struct Chain<A, B>(pub(super) A, pub(super) B);

/// Marks a chain of lists.
#[doc(hidden)]
pub struct Then<A, B>(A, B);

/// One system of a span, ready to run: given the parts to take its parameters from (it
/// takes them for as long as it runs, so the parts lend them again afterwards) and the
/// count its change filters pass the stamps after, it takes them and runs.
#[doc(hidden)]
pub type Runner<'w, W> = Box<
    dyn for<'p> FnOnce(&mut <W as WorldParts>::Parts<'p>, u32) -> Result<(), AccessError>
        + Send
        + 'w,
>;

/// A runner from a closure (where the closure's type takes the higher-ranked signature).
fn runner<'w, W, F>(run: F) -> Runner<'w, W>
where
    W: WorldParts,
    F: for<'p> FnOnce(&mut W::Parts<'p>, u32) -> Result<(), AccessError> + Send + 'w,
{
    Box::new(run)
}

/// A list of systems of worlds `W`, as a [`Schedule`](super::Schedule) runs them: a tuple of
/// up to sixteen systems and sync points ([`ApplyCommands`]), and the lists chained after
/// it ([`Schedule::then`](super::Schedule::then)). `M` tells the systems' arities apart; it
/// is inferred. Sealed.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a list of systems of `{W}`",
    label = "a schedule takes a tuple of up to sixteen systems (chain more with `then`)",
    note = "each system is a function whose parameters are parts of the world (or `&mut Commands<W>`), and no function names one type twice, at least once mutably"
)]
pub trait Systems<W: WorldParts + 'static, M>: sealed::Sealed + Send {
    /// How many elements, flat.
    #[doc(hidden)]
    const COUNT: usize;
    /// How many message cursors its systems keep, in all.
    #[doc(hidden)]
    const CURSORS: usize;
    /// Each element's footprint, when the compiler knows them (a `#[world]`).
    #[doc(hidden)]
    const FOOTPRINTS: Option<Footprints>;
    /// Each element's stage and how many elements, computed by the compiler from the
    /// footprints when it knows them.
    #[doc(hidden)]
    const STAGES: Option<([usize; MAX_COMPILED], usize)> = match Self::FOOTPRINTS {
        Some(footprints) => Some(footprints.stages()),
        None => None,
    };
    /// Each element's written and read types, for the stages of the run-time world.
    #[doc(hidden)]
    fn push_access(out: &mut Vec<ElementAccess>);
    /// Each element's name.
    #[doc(hidden)]
    fn push_names(out: &mut Vec<&'static str>);
    /// Takes and drops each system's parameters, one system at a time: whether the world
    /// serves them all.
    #[doc(hidden)]
    fn check(world: &mut W) -> Result<(), AccessError>;
    /// Makes sure every storage a system names exists.
    #[doc(hidden)]
    fn prepare(world: &mut W);
    /// Each system's name with the views and groups it names, for layout advice.
    #[doc(hidden)]
    fn push_shapes(out: &mut Vec<(&'static str, SystemShape)>);
    /// Pushes the runner of each system of this list (the first being element `first`)
    /// that `wanted` names (by flat element), with its command queue (`queues`, one per
    /// element) and its message cursors (`cursors`, `CURSORS` in all, in element order),
    /// as `(element, runner)`.
    #[doc(hidden)]
    fn runners<'w>(
        &'w mut self,
        queues: &'w mut [Commands<W>],
        cursors: &'w mut [MessageCursor],
        wanted: &[bool],
        first: usize,
        out: &mut Vec<(usize, Runner<'w, W>)>,
    );
    /// At the end of the run `run` of the schedule `schedule`: drops the messages of its
    /// run before.
    #[doc(hidden)]
    fn end_run(world: &mut W, schedule: u64, run: u64);
}

/// A sync point is a system without parameters that the schedule runs alone in its stage,
/// applying the queues of the systems before it instead. Not suggested to a function that is
/// not a system.
#[diagnostic::do_not_recommend]
impl<W: WorldParts + 'static> System<W, SyncPoint> for ApplyCommands {
    type Writes = Nil;
    type Reads = Nil;
    type Watches = Nil;
    type Queues = Nil;
    const RESERVES: bool = false;
    const SYNC_POINT: bool = true;
    type Taken<'w> = ();

    fn prepare(_: &mut W) {}

    fn shape(_: &mut SystemShape) {}

    fn take<'w>(
        _: &mut W::Parts<'w>,
        _: &'w mut Commands<W>,
        _: u32,
        _: &'w mut [MessageCursor],
    ) -> Result<(), AccessError> {
        Ok(())
    }

    fn run(&mut self, (): ()) {}
}

/// `Self` is a system of `W` whose parts the world has: what a schedule's list asks of each
/// element, so that whatever is missing (a resource the world does not hold, a type it
/// does not store, a group it does not declare, a parameter that is no part at all) is
/// reported as this, naming the system and its parameters.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a system of `{W}`",
    label = "a system of this schedule is not a function whose parameters are parts of this world",
    note = "its parameters are `{M}`: each must be a part of this world — `Res<'_, R>`, `ResMut<'_, R>` need a `Resource<R>` field, `MessageWriter<'_, E>`, `MessageReader<'_, E>` a `Resource<Messages<E>>` field, `&Storage<T>`, `ValuesMut<'_, T>` and views a `Storage<T>` field of each type, `GroupMut<'_, K>`, `GroupRef<'_, K>` a `#[group]`; or `&Entities`, `&mut Commands<W>`, or a tuple of them",
    note = "a system is a function (or closure) of at most eight such parameters (a tuple of them counts as one) that returns nothing"
)]
pub trait SystemOf<W: WorldParts + 'static, M>:
    System<W, M, Writes: Mask<W> + TypeIds, Reads: Mask<W> + TypeIds, Watches: Mask<W> + TypeIds>
{
}

#[diagnostic::do_not_recommend]
impl<W: WorldParts + 'static, M, S> SystemOf<W, M> for S
where
    S: System<W, M>,
    S::Writes: Mask<W> + TypeIds,
    S::Reads: Mask<W> + TypeIds,
    S::Watches: Mask<W> + TypeIds,
{
}

/// Each element's footprint in a tuple: a sync point's, or the system's masks.
const fn footprint<W, S, M>() -> Option<Footprint>
where
    W: WorldParts + 'static,
    S: SystemOf<W, M>,
{
    if S::SYNC_POINT {
        return Some(Footprint::BARRIER);
    }
    match (
        <S::Writes as Mask<W>>::MASK,
        <S::Reads as Mask<W>>::MASK,
        <S::Watches as Mask<W>>::MASK,
    ) {
        (Some(writes), Some(reads), Some(watches)) => Some(Footprint {
            writes,
            reads: reads | watches,
            reserves: S::RESERVES,
            barrier: false,
        }),
        _ => None,
    }
}

/// Each element's `TypeId`s in a tuple.
fn access<W, S, M>() -> ElementAccess
where
    W: WorldParts + 'static,
    S: SystemOf<W, M>,
{
    let mut access = ElementAccess {
        barrier: S::SYNC_POINT,
        cursors: S::CURSORS,
        ..ElementAccess::default()
    };
    <S::Writes as TypeIds>::push_ids(&mut access.writes);
    <S::Reads as TypeIds>::push_ids(&mut access.reads);
    <S::Watches as TypeIds>::push_ids(&mut access.reads);
    if S::RESERVES {
        access.writes.push(TypeId::of::<crate::entity::Entities>());
    }
    access
}

impl<A, B> sealed::Sealed for Chain<A, B> {}

impl<W, A, B, MA, MB> Systems<W, Then<MA, MB>> for Chain<A, B>
where
    W: EditEntities + 'static,
    A: Systems<W, MA>,
    B: Systems<W, MB>,
{
    const COUNT: usize = A::COUNT + B::COUNT;
    const CURSORS: usize = A::CURSORS + B::CURSORS;
    const FOOTPRINTS: Option<Footprints> = Footprints::concat(A::FOOTPRINTS, B::FOOTPRINTS);

    fn push_access(out: &mut Vec<ElementAccess>) {
        A::push_access(out);
        B::push_access(out);
    }

    fn push_names(out: &mut Vec<&'static str>) {
        A::push_names(out);
        B::push_names(out);
    }

    fn check(world: &mut W) -> Result<(), AccessError> {
        A::check(world)?;
        B::check(world)
    }

    fn prepare(world: &mut W) {
        A::prepare(world);
        B::prepare(world);
    }

    fn push_shapes(out: &mut Vec<(&'static str, SystemShape)>) {
        A::push_shapes(out);
        B::push_shapes(out);
    }

    #[inline]
    fn runners<'w>(
        &'w mut self,
        queues: &'w mut [Commands<W>],
        cursors: &'w mut [MessageCursor],
        wanted: &[bool],
        first: usize,
        out: &mut Vec<(usize, Runner<'w, W>)>,
    ) {
        let Chain(a, b) = self;
        let (a_queues, b_queues) = queues.split_at_mut(A::COUNT);
        let (a_cursors, b_cursors) = cursors.split_at_mut(A::CURSORS);
        a.runners(a_queues, a_cursors, wanted, first, out);
        b.runners(b_queues, b_cursors, wanted, first + A::COUNT, out);
    }

    fn end_run(world: &mut W, schedule: u64, run: u64) {
        A::end_run(world, schedule, run);
        B::end_run(world, schedule, run);
    }
}

macro_rules! systems_tuple {
    ($N:literal: $($S:ident $M:ident $s:ident $q:ident $i:tt),+) => {
        impl<$($S),+> sealed::Sealed for ($($S,)+) {}

        impl<W, $($S, $M: 'static),+> Systems<W, ($($M,)+)> for ($($S,)+)
        where
            W: EditEntities + 'static,
            $(
                $S: SystemOf<W, $M> + ParametersApart<W, $M>,
            )+
        {
            const COUNT: usize = $N;
            const CURSORS: usize = 0 $(+ $S::CURSORS)+;
            const FOOTPRINTS: Option<Footprints> = {
                let all = Footprints::EMPTY;
                $(let all = Footprints::concat(all, Footprints::one(footprint::<W, $S, $M>()));)+
                all
            };

            fn push_access(out: &mut Vec<ElementAccess>) {
                $(out.push(access::<W, $S, $M>());)+
            }

            fn push_names(out: &mut Vec<&'static str>) {
                $(out.push(type_name::<$S>());)+
            }

            fn check(world: &mut W) -> Result<(), AccessError> {
                $({
                    let mut queue = Commands::new();
                    let mut cursors = vec![MessageCursor::default(); $S::CURSORS];
                    $S::take(&mut world.parts(), &mut queue, 0, &mut cursors).map(drop)?;
                })+
                Ok(())
            }

            fn prepare(world: &mut W) {
                $($S::prepare(world);)+
            }

            fn push_shapes(out: &mut Vec<(&'static str, SystemShape)>) {
                $(if !$S::SYNC_POINT {
                    let mut shape = SystemShape::default();
                    $S::shape(&mut shape);
                    out.push((type_name::<$S>(), shape));
                })+
            }

            #[inline]
            fn runners<'w>(
                &'w mut self,
                queues: &'w mut [Commands<W>],
                cursors: &'w mut [MessageCursor],
                wanted: &[bool],
                first: usize,
                out: &mut Vec<(usize, Runner<'w, W>)>,
            ) {
                let ($($s,)+) = self;
                let Ok([$($q,)+]) = <&mut [Commands<W>; $N]>::try_from(queues) else {
                    unreachable!("one queue per element");
                };
                let mut cursors = cursors;
                $({
                    let (own, rest) = core::mem::take(&mut cursors).split_at_mut($S::CURSORS);
                    cursors = rest;
                    let element = first + $i;
                    if !$S::SYNC_POINT && wanted[element] {
                        out.push((element, runner::<W, _>(move |parts, since| {
                            let mut parts = W::reborrow_parts(parts);
                            let taken = $S::take(&mut parts, $q, since, own)?;
                            $s.run(taken);
                            Ok(())
                        })));
                    }
                })+
                debug_assert!(cursors.is_empty(), "each element's cursors, no more");
            }

            fn end_run(world: &mut W, schedule: u64, run: u64) {
                $($S::end_run(world, schedule, run);)+
            }
        }
    };
}

systems_tuple!(1: S1 M1 s1 q1 0);
systems_tuple!(2: S1 M1 s1 q1 0, S2 M2 s2 q2 1);
systems_tuple!(3: S1 M1 s1 q1 0, S2 M2 s2 q2 1, S3 M3 s3 q3 2);
systems_tuple!(4: S1 M1 s1 q1 0, S2 M2 s2 q2 1, S3 M3 s3 q3 2, S4 M4 s4 q4 3);
systems_tuple!(5: S1 M1 s1 q1 0, S2 M2 s2 q2 1, S3 M3 s3 q3 2, S4 M4 s4 q4 3,
    S5 M5 s5 q5 4);
systems_tuple!(6: S1 M1 s1 q1 0, S2 M2 s2 q2 1, S3 M3 s3 q3 2, S4 M4 s4 q4 3,
    S5 M5 s5 q5 4, S6 M6 s6 q6 5);
systems_tuple!(7: S1 M1 s1 q1 0, S2 M2 s2 q2 1, S3 M3 s3 q3 2, S4 M4 s4 q4 3,
    S5 M5 s5 q5 4, S6 M6 s6 q6 5, S7 M7 s7 q7 6);
systems_tuple!(8: S1 M1 s1 q1 0, S2 M2 s2 q2 1, S3 M3 s3 q3 2, S4 M4 s4 q4 3,
    S5 M5 s5 q5 4, S6 M6 s6 q6 5, S7 M7 s7 q7 6, S8 M8 s8 q8 7);
systems_tuple!(9: S1 M1 s1 q1 0, S2 M2 s2 q2 1, S3 M3 s3 q3 2, S4 M4 s4 q4 3,
    S5 M5 s5 q5 4, S6 M6 s6 q6 5, S7 M7 s7 q7 6, S8 M8 s8 q8 7,
    S9 M9 s9 q9 8);
systems_tuple!(10: S1 M1 s1 q1 0, S2 M2 s2 q2 1, S3 M3 s3 q3 2, S4 M4 s4 q4 3,
    S5 M5 s5 q5 4, S6 M6 s6 q6 5, S7 M7 s7 q7 6, S8 M8 s8 q8 7,
    S9 M9 s9 q9 8, S10 M10 s10 q10 9);
systems_tuple!(11: S1 M1 s1 q1 0, S2 M2 s2 q2 1, S3 M3 s3 q3 2, S4 M4 s4 q4 3,
    S5 M5 s5 q5 4, S6 M6 s6 q6 5, S7 M7 s7 q7 6, S8 M8 s8 q8 7,
    S9 M9 s9 q9 8, S10 M10 s10 q10 9, S11 M11 s11 q11 10);
systems_tuple!(12: S1 M1 s1 q1 0, S2 M2 s2 q2 1, S3 M3 s3 q3 2, S4 M4 s4 q4 3,
    S5 M5 s5 q5 4, S6 M6 s6 q6 5, S7 M7 s7 q7 6, S8 M8 s8 q8 7,
    S9 M9 s9 q9 8, S10 M10 s10 q10 9, S11 M11 s11 q11 10, S12 M12 s12 q12 11);
systems_tuple!(13: S1 M1 s1 q1 0, S2 M2 s2 q2 1, S3 M3 s3 q3 2, S4 M4 s4 q4 3,
    S5 M5 s5 q5 4, S6 M6 s6 q6 5, S7 M7 s7 q7 6, S8 M8 s8 q8 7,
    S9 M9 s9 q9 8, S10 M10 s10 q10 9, S11 M11 s11 q11 10, S12 M12 s12 q12 11,
    S13 M13 s13 q13 12);
systems_tuple!(14: S1 M1 s1 q1 0, S2 M2 s2 q2 1, S3 M3 s3 q3 2, S4 M4 s4 q4 3,
    S5 M5 s5 q5 4, S6 M6 s6 q6 5, S7 M7 s7 q7 6, S8 M8 s8 q8 7,
    S9 M9 s9 q9 8, S10 M10 s10 q10 9, S11 M11 s11 q11 10, S12 M12 s12 q12 11,
    S13 M13 s13 q13 12, S14 M14 s14 q14 13);
systems_tuple!(15: S1 M1 s1 q1 0, S2 M2 s2 q2 1, S3 M3 s3 q3 2, S4 M4 s4 q4 3,
    S5 M5 s5 q5 4, S6 M6 s6 q6 5, S7 M7 s7 q7 6, S8 M8 s8 q8 7,
    S9 M9 s9 q9 8, S10 M10 s10 q10 9, S11 M11 s11 q11 10, S12 M12 s12 q12 11,
    S13 M13 s13 q13 12, S14 M14 s14 q14 13, S15 M15 s15 q15 14);
systems_tuple!(16: S1 M1 s1 q1 0, S2 M2 s2 q2 1, S3 M3 s3 q3 2, S4 M4 s4 q4 3,
    S5 M5 s5 q5 4, S6 M6 s6 q6 5, S7 M7 s7 q7 6, S8 M8 s8 q8 7,
    S9 M9 s9 q9 8, S10 M10 s10 q10 9, S11 M11 s11 q11 10, S12 M12 s12 q12 11,
    S13 M13 s13 q13 12, S14 M14 s14 q14 13, S15 M15 s15 q15 14, S16 M16 s16 q16 15);
