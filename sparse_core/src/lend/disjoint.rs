//! The compile-time rule behind every borrow: a request may read a component type any
//! number of times, but may write it only once, and never read it while writing it.
//!
//! Each request (a view, a group, a tuple of parts) states the types it writes and reads
//! as type-level lists; the world then has to prove that the writes are pairwise distinct
//! and distinct from every read. To tell two types apart, a `#[world]` numbers its stored
//! types: `Numbered<T>::Index` is the number of `T`'s storage, in binary, as a type
//! (`Bits<O, Bits<I, End>>` for 2, the lowest bit outermost). Two types are apart when
//! their numbers differ, which the compiler evaluates bit by bit; an overlapping request is then an unsatisfied bound,
//! reported on the user's tokens with the overlapping type's name. That takes one
//! associated type per stored type, not one impl per pair. Code generic over its world
//! cannot compute the numbers: it states [`Apart`] for the pairs it borrows together.
//!
//! | name | what it says |
//! | --- | --- |
//! | [`Apart<A, B>`](Apart) | `A` and `B` are different types: the bound generic code states |
//! | [`NoAlias<Writes, Reads>`](NoAlias) | a borrow's rule: the writes apart from each other and from the reads |
//! | [`AllApart<L>`](AllApart) | a bundle's rule: its types apart from each other |
//! | [`NotIn<X, L>`](NotIn), [`NotInBundle<X, L>`](NotInBundle) | `X` apart from each type of `L`: a step of each rule |
//! | [`BorrowApart<A, B>`](BorrowApart), [`BundleApart<A, B>`](BundleApart) | one pair of each rule: the error names the type in the request's terms |
//! | [`NumberedApart<A, B>`](NumberedApart) | the world numbers `A` and `B` differently: what `Apart` implies and the rules ask |
//! | `SameBit`, `SameNumber`, `Both`, `Yes`, `No`, `IsNo` | the comparison of two numbers, bit by bit, and its answer |
//!
//! The run-time [`World`](crate::World), whose types are only known at run time, numbers
//! every type [`Dynamic`] (apart from everything) and checks each borrow instead: an
//! overlapping request is an [`AccessError`](crate::AccessError).

use core::marker::PhantomData;

/// A world's number for `X`, a type it stores (a component type) or a resource it holds
/// (`Resource<R>`): what tells two of them apart at compile time. `LendStorage<T>` and
/// `LendResource<R>` require it; a `#[world]` numbers each of its storages and resources
/// (`Bits<…>`), the run-time [`World`](crate::World) numbers everything [`Dynamic`].
#[doc(hidden)]
pub trait Numbered<X> {
    /// The number, in binary, as a type.
    type Index;
}

/// The empty list of types (a unit, so that messages show lists as nested pairs).
pub type Nil = ();

/// A list of types: `H`, then the types of `T` (a pair: `(A, (B, ()))`).
pub type Cons<H, T> = (H, T);

/// A type-level list of types: [`Nil`] or [`Cons`].
pub trait List {
    /// `Self`, then the types of `L`.
    type Then<L: List>: List;
}

impl List for Nil {
    type Then<L: List> = L;
}

impl<H, T: List> List for Cons<H, T> {
    type Then<L: List> = Cons<H, T::Then<L>>;
}

/// A zero bit of a storage number.
pub struct O;
/// A one bit of a storage number.
pub struct I;
/// The end of a storage number.
pub struct End;
/// A storage number: bit `H`, then the bits of `T`.
pub struct Bits<H, T>(PhantomData<fn() -> (H, T)>);
/// The number of every storage of the run-time world: apart from every other.
pub struct Dynamic;

/// The type-level answer yes (the numbers are the same).
pub struct Yes;
/// The type-level answer no.
pub struct No;

/// Whether two bits are the same.
pub trait SameBit<R> {
    /// [`Yes`] or [`No`].
    type Out;
}

impl SameBit<O> for O {
    type Out = Yes;
}

impl SameBit<I> for O {
    type Out = No;
}

impl SameBit<O> for I {
    type Out = No;
}

impl SameBit<I> for I {
    type Out = Yes;
}

/// Both the same.
pub trait Both<R> {
    /// [`Yes`] if both are.
    type Out;
}

impl Both<Yes> for Yes {
    type Out = Yes;
}

impl Both<No> for Yes {
    type Out = No;
}

impl<R> Both<R> for No {
    type Out = No;
}

/// Whether two storage numbers are the same.
pub trait SameNumber<R> {
    /// [`Yes`] or [`No`].
    type Out;
}

impl SameNumber<End> for End {
    type Out = Yes;
}

impl<A: SameBit<B>, B, TA: SameNumber<TB>, TB> SameNumber<Bits<B, TB>> for Bits<A, TA>
where
    A::Out: Both<TA::Out>,
{
    type Out = <A::Out as Both<TA::Out>>::Out;
}

impl<R> SameNumber<R> for Dynamic {
    type Out = No;
}

/// `A` and `B` are different types: what code generic over its world states as a bound
/// when one request writes `A` and borrows `B` too (or spawns a bundle of both), e.g.
/// `where W: Access + HasComponent<Health> + HasComponent<Position> + Apart<Health, Position>`.
///
/// Every `#[world]` and the run-time [`World`](crate::World) implement it for each pair of
/// distinct types they store; nothing else can (the trait is implemented once, for every
/// world, from the storages' numbers).
#[diagnostic::on_unimplemented(
    message = "this code, generic over its world, needs `Apart<{A}, {B}>`: nothing proves `{A}` and `{B}` are different types",
    label = "`{A}` and `{B}` are used together here",
    note = "a world proves it for every two different types it stores, but code generic over its world has to state it: add the bound `{Self}: Apart<{A}, {B}>` (if `{A}` and `{B}` are one type, the request borrows it twice, at least once mutably, which no world allows)"
)]
pub trait Apart<A, B>: NumberedApart<A, B> {}

// Why `Apart`, `NumberedApart` and the request checks (`BorrowApart`, `BundleApart`) all
// say the same thing: rustc reports an unsatisfied bound under a `do_not_recommend` impl as the
// bound that impl was used for, and the headline comes from that bound's trait. A generic
// world fails while *computing* the comparison (its storage numbers are unknown): the error
// is `Apart`'s, with rustc's suggestion to add it as a bound. A concrete world computes
// `Yes` and fails the comparison's *result*, which a request asks for first through
// `BorrowApart` (or `BundleApart`) and only then through `Apart` (the same obligation,
// proven once): the error names the overlapping type in the request's terms.
#[diagnostic::do_not_recommend]
impl<W, A, B> Apart<A, B> for W
where
    W: Numbered<A> + Numbered<B>,
    <W as Numbered<A>>::Index: SameNumber<<W as Numbered<B>>::Index>,
    W: NumberedApart<A, B>,
{
}

/// The world `Self` numbers `A` and `B` differently: the comparison behind [`Apart`] (its
/// supertrait, so that generic code stating `Apart` proves the request checks) and the
/// request checks.
pub trait NumberedApart<A, B> {}

impl<W, A, B> NumberedApart<A, B> for W
where
    W: Numbered<A> + Numbered<B>,
    <W as Numbered<A>>::Index: SameNumber<<W as Numbered<B>>::Index>,
    <<W as Numbered<A>>::Index as SameNumber<<W as Numbered<B>>::Index>>::Out: IsNo,
{
}

/// The comparison's verdict is [`No`]. A bound on the verdict rather than an
/// associated-type equality: when the verdict cannot be computed (a generic world), this
/// bound stays undecided instead of failing a second time.
pub trait IsNo {}

impl IsNo for No {}

/// Not borrowed twice: `A` and `B`, one of which a request writes, are different types.
#[diagnostic::on_unimplemented(
    message = "`{A}` is requested twice in this borrow, at least once mutably",
    label = "this request writes `{A}` and borrows it again",
    note = "a request may read a component type or a resource several times, but may write it only once and never read it while writing it; split the work into two requests, one after the other"
)]
pub trait BorrowApart<A, B> {}

#[diagnostic::do_not_recommend]
impl<W: NumberedApart<A, B>, A, B> BorrowApart<A, B> for W {}

/// Not named twice in a bundle: `A` and `B` are different types.
#[diagnostic::on_unimplemented(
    message = "the bundle names `{A}` twice",
    label = "`{A}` appears twice in this bundle",
    note = "an entity has at most one component of each type: name each type once"
)]
#[doc(hidden)]
pub trait BundleApart<A, B> {}

#[diagnostic::do_not_recommend]
impl<W: NumberedApart<A, B>, A, B> BundleApart<A, B> for W {}

/// The world `Self` proves that `X` is none of the types of the list `L` (for borrows).
/// `BorrowApart` comes before `Apart`: see the note on `Apart`'s impl.
#[doc(hidden)]
pub trait NotIn<X, L> {}

impl<W, X> NotIn<X, Nil> for W {}

impl<W: BorrowApart<X, H> + Apart<X, H> + NotIn<X, T>, X, H, T> NotIn<X, Cons<H, T>> for W {}

/// The world `Self` proves that a request writing the list `Writes` and reading the list
/// `Reads` aliases nothing: the writes are pairwise distinct and none is read.
#[doc(hidden)]
pub trait NoAlias<Writes, Reads> {}

impl<W, R> NoAlias<Nil, R> for W {}

impl<W, H, T, R> NoAlias<Cons<H, T>, R> for W where W: NotIn<H, T> + NotIn<H, R> + NoAlias<T, R> {}

/// The world `Self` proves that `X` is none of the types of the list `L` (for bundles).
/// `BundleApart` comes before `Apart`: see the note on `Apart`'s impl.
#[doc(hidden)]
pub trait NotInBundle<X, L> {}

impl<W, X> NotInBundle<X, Nil> for W {}

impl<W: BundleApart<X, H> + Apart<X, H> + NotInBundle<X, T>, X, H, T> NotInBundle<X, Cons<H, T>>
    for W
{
}

/// The world `Self` proves that the types of the list `L` are pairwise distinct (bundles).
#[doc(hidden)]
pub trait AllApart<L> {}

impl<W> AllApart<Nil> for W {}

impl<W, H, T> AllApart<Cons<H, T>> for W where W: NotInBundle<H, T> + AllApart<T> {}

/// A list with at least one type: a view needs a required component to be driven by.
#[diagnostic::on_unimplemented(
    message = "this view requires no component type",
    label = "every element is optional",
    note = "a view is driven by the entities of a component it requires: add `&T`, `&mut T` or a `With<T>` filter"
)]
#[doc(hidden)]
pub trait NonEmpty {}

impl<H, T> NonEmpty for Cons<H, T> {}
