//! What `view::<…>()` takes: a query, optionally followed by one or two filters in the
//! same tuple, as a bevy user writes `Query<(&mut Position, &Velocity), Without<Frozen>>`:
//!
//! | written | query | filter | item |
//! | --- | --- | --- | --- |
//! | `(&mut P, &V)` | `(&mut P, &V)` | `()` | `(&mut P, &V)` |
//! | `(&mut P, &V, Without<F>)` | `(&mut P, &V)` | `Without<F>` | `(&mut P, &V)` |
//! | `(&mut P, With<A>, Without<F>)` | `&mut P` | `(With<A>, Without<F>)` | `&mut P` |
//! | `(&mut H, Changed<H>)` | `&mut H` | `Changed<H>` | `&mut H` |
//!
//! Filters trail the query: a filter in front of a query leaf is not a query (a method
//! cannot default a second type parameter, so `view::<Q, F>()` cannot sit beside
//! `view::<Q>()`; `borrow::<View<Q, F>>()` takes them apart as before).

use super::borrow::{Borrow, ReadOnly};
// Every filter type: the impls below are generated for each name `with_filter_names!` lists.
use super::filter::*;
use super::query::Query;
use super::view::View;
use crate::lend::{AccessError, WorldParts};

/// Keeps [`ViewQuery`] to this crate.
mod sealed {
    /// A filter written before or between the components a view yields: implemented for
    /// nothing. It gives `(Without<F>, &mut P)` a second impl that could apply (besides the
    /// query tuple's), so rustc reports the tuple as one error, `ViewQuery`'s, whose label says
    /// where filters go, instead of one error per trait the query tuple fails.
    #[diagnostic::on_unimplemented(
        message = "`{Self}` is a filter: filters go last in a view's tuple, after the components it yields",
        label = "move `{Self}` to the end of the tuple"
    )]
    pub trait FilterGoesLast {}

    /// Sealing [`ViewQuery`](super::ViewQuery).
    #[diagnostic::on_unimplemented(
        message = "`{Self}` cannot be what a view asks for: `ViewQuery` is sealed",
        label = "`ViewQuery` is implemented only by queries and queries followed by filters",
        note = "a view asks for `&T`, `&mut T`, `Option<…>` or a tuple of those, optionally followed by one or two filters: `view::<(&mut Position, &Velocity, Without<Frozen>)>()`"
    )]
    pub trait Sealed {}
}

/// What a view asks for: a [`Query`] alone, or a tuple of query leaves followed by one or
/// two filters (`With<T>`, `Without<T>`, `Added<T>`, `Changed<T>`), which the view tests
/// but does not yield.
/// Sealed.
///
/// ```
/// use sparse_core::{Component, World};
/// # #[derive(Debug, PartialEq)] struct Pos(f32);
/// # impl Component for Pos {}
/// # struct Vel(f32);
/// # impl Component for Vel {}
/// # struct Frozen;
/// # impl Component for Frozen {}
/// use sparse_core::Without;
///
/// let mut world = World::new();
/// let moving = world.spawn_with((Pos(0.0), Vel(1.0)));
/// let frozen = world.spawn_with((Pos(0.0), Vel(1.0), Frozen));
/// for (_, (p, v)) in world.view::<(&mut Pos, &Vel, Without<Frozen>)>()? {
///     p.0 += v.0;
/// }
/// assert_eq!(world.get::<Pos>(moving), Some(&Pos(1.0)));
/// assert_eq!(world.get::<Pos>(frozen), Some(&Pos(0.0)));
/// # Ok::<(), sparse_core::AccessError>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a view query",
    label = "not `&T`, `&mut T`, `Option<…>` or a tuple of those, filters last",
    note = "a view names the components it reads by reference, then optionally one or two filters: `view::<(&mut Position, &Velocity, Without<Frozen>)>()`"
)]
pub trait ViewQuery: sealed::Sealed {
    /// The components yielded.
    type Query: Query;
    /// The filters tested.
    type Filter: Filter;
}

#[diagnostic::do_not_recommend]
impl<Q: Query> sealed::Sealed for Q {}

impl<Q: Query> ViewQuery for Q {
    type Query = Q;
    type Filter = ();
}

/// What a view asks for, from a world `W` that can lend it: one bound in `view`'s
/// signature, so that a query the world cannot serve is one error, about the leaf at
/// fault.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be viewed in `{W}`",
    label = "not a view of this world's components",
    note = "a view names stored components by reference, each written at most once and never both written and read, then optionally one or two filters: `view::<(&mut Position, &Velocity, Without<Frozen>)>()`"
)]
pub trait ViewOf<'w, W: WorldParts + 'w>: ViewQuery {
    /// Makes sure the storages exist (the run-time world creates them on demand).
    #[doc(hidden)]
    fn prepare(world: &mut W);
    /// Takes the view from the world's parts.
    #[doc(hidden)]
    fn take(parts: &mut W::Parts<'w>) -> Result<View<'w, Self::Query, Self::Filter>, AccessError>;
}

impl<'w, W: WorldParts + 'w, Q: ViewQuery> ViewOf<'w, W> for Q
where
    View<'w, Q::Query, Q::Filter>: Borrow<'w, W>,
{
    #[doc(hidden)]
    #[inline]
    fn prepare(world: &mut W) {
        <View<'w, Q::Query, Q::Filter> as Borrow<'w, W>>::prepare(world);
    }

    #[doc(hidden)]
    #[inline(always)]
    fn take(parts: &mut W::Parts<'w>) -> Result<View<'w, Q::Query, Q::Filter>, AccessError> {
        <View<'w, Q::Query, Q::Filter> as Borrow<'w, W>>::take(parts)
    }
}

/// A view through a shared reference: [`ViewOf`] with a read-only query.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be viewed in `{W}` through a shared reference",
    label = "a read-only view takes `&T` and `Option<&T>` only",
    note = "read-only access (`view_ref`) takes `&T` and `Option<&T>`, then optionally filters; use `view` through `&mut` to write"
)]
pub trait ViewRefOf<'w, W: WorldParts + 'w>: ViewOf<'w, W> {}

impl<'w, W: WorldParts + 'w, Q: ViewOf<'w, W>> ViewRefOf<'w, W> for Q where
    View<'w, Q::Query, Q::Filter>: ReadOnly
{
}

/// The query part of a tuple whose filters were taken off: a lone leaf stays a leaf (so
/// `(&mut P, Without<F>)` yields `&mut P`, as `view::<&mut P>()` does).
macro_rules! query_part {
    ($Q:ident) => { $Q };
    ($($Q:ident),+) => { ($($Q,)+) };
}

macro_rules! trailing_filters {
    ($(($Q:ident, $q:ident, $i:tt)),+) => {
        with_filter_names!(trailing_filters!(@first [$($Q),+]));
    };
    (@first $qs:tt $($F:ident)+) => {
        trailing_filters!(@each $qs [$($F)+] $($F)+);
    };
    (@each $qs:tt $all:tt $($F:ident)+) => {
        $(
            trailing_filters!(@one $qs $F);
            trailing_filters!(@second $qs $F $all);
        )+
    };
    (@second $qs:tt $F:ident [$($G:ident)+]) => {
        $(trailing_filters!(@two $qs $F $G);)+
    };
    (@one [$($Q:ident),+] $F:ident) => {
        #[diagnostic::do_not_recommend]
        impl<$($Q: Query,)+ X> sealed::Sealed for ($($Q,)+ $F<X>,) where $F<X>: Filter {}

        impl<$($Q: Query,)+ X> ViewQuery for ($($Q,)+ $F<X>,) where $F<X>: Filter {
            type Query = query_part!($($Q),+);
            type Filter = $F<X>;
        }
    };
    (@two [$($Q:ident),+] $F:ident $G:ident) => {
        #[diagnostic::do_not_recommend]
        impl<$($Q: Query,)+ X, Y> sealed::Sealed for ($($Q,)+ $F<X>, $G<Y>)
        where
            ($F<X>, $G<Y>): Filter,
        {}

        impl<$($Q: Query,)+ X, Y> ViewQuery for ($($Q,)+ $F<X>, $G<Y>)
        where
            ($F<X>, $G<Y>): Filter,
        {
            type Query = query_part!($($Q),+);
            type Filter = ($F<X>, $G<Y>);
        }
    };
}

for_each_tuple!(trailing_filters);

/// A filter written before or between query items (`(Without<F>, &mut P)`,
/// `(&mut P, Without<F>, &V)`): a view query only if the filter were
/// [`FilterGoesLast`](sealed::FilterGoesLast), which nothing is, so it never compiles, and
/// is one error saying filters go last, not one per trait the tuple fails. One impl per
/// place of the filter before at least one query item; its parts are what the tuple would
/// mean in order, so that nothing else about it fails.
macro_rules! filter_between {
    ($(($Q:ident, $q:ident, $i:tt)),+) => {
        with_filter_names!(filter_between!(@each [$($Q),+]));
    };
    (@each $qs:tt $($F:ident)+) => {
        $(filter_between!(@split [] $qs $F);)+
    };
    (@split [$($P:ident),*] [$N:ident $(, $R:ident)*] $F:ident) => {
        filter_between!(@one [$($P),*] [$N $(, $R)*] $F);
        filter_between!(@split [$($P,)* $N] [$($R),*] $F);
    };
    (@split [$($P:ident),*] [] $F:ident) => {};
    (@one [$($P:ident),*] [$($R:ident),+] $F:ident) => {
        #[diagnostic::do_not_recommend]
        impl<X, $($P: Query,)* $($R: Query,)+> sealed::Sealed for ($($P,)* $F<X>, $($R,)+)
        where
            $F<X>: Filter + sealed::FilterGoesLast,
        {}

        #[doc(hidden)]
        #[diagnostic::do_not_recommend]
        impl<X, $($P: Query,)* $($R: Query,)+> ViewQuery for ($($P,)* $F<X>, $($R,)+)
        where
            $F<X>: Filter + sealed::FilterGoesLast,
        {
            type Query = query_part!($($P,)* $($R),+);
            type Filter = $F<X>;
        }
    };
}

for_each_tuple!(filter_between);
