//! Resources: one value of a type per world, beside its storages (a spatial grid, a
//! clock, a score), borrowed like a storage: [`Res<R>`] shared, [`ResMut<R>`] mutable,
//! as parts of a `borrow` request beside groups, views and storages, with the same
//! borrow rule (a resource is written by one part at a time and never read while it is
//! written).
//!
//! ```text
//! world: [ entities | Storage<Position> | Storage<Velocity> | Resource<Grid> | Resource<Score> ]
//! borrow::<(GroupMut<(Position, Velocity)>, ResMut<Grid>, Res<Score>)>()
//!              └ both storages, mutably      └ Grid, mutably └ Score, shared
//! ```
//!
//! A `#[world]` declares its resources as fields, `grid: Resource<Grid>`, and always holds
//! them (its `new()` starts each at `R::default()`); the run-time
//! [`World`](crate::World) holds the resources inserted into it, and refuses a request for
//! one it does not hold with [`AccessError::NoResource`](crate::AccessError::NoResource).

use core::fmt;
use core::marker::PhantomData;
use core::ops::{Deref, DerefMut};

/// A resource of type `R` in a world's declaration: `grid: Resource<Grid>` in a `#[world]`
/// struct holds one `Grid`. Never a value of its own: the field declares the resource, and
/// the world stores the `R`. It also names the resource in the compile-time borrow rule,
/// apart from every component type.
pub struct Resource<R>(PhantomData<fn() -> R>);

/// A resource, shared: a part of a `borrow` request (any number of `Res<R>` together, but
/// none beside a [`ResMut<R>`]). Dereferences to `R`.
pub struct Res<'w, R> {
    value: &'w R,
}

/// A resource, mutable: a part of a `borrow` request (alone among the request's parts to
/// name `R`). Dereferences to `R`, mutably.
pub struct ResMut<'w, R> {
    value: &'w mut R,
}

impl<'w, R> Res<'w, R> {
    /// The lent resource.
    pub(crate) fn new(value: &'w R) -> Self {
        Res { value }
    }

    /// The resource, for as long as the borrow it came from.
    pub fn into_inner(self) -> &'w R {
        self.value
    }
}

impl<'w, R> ResMut<'w, R> {
    /// The lent resource.
    pub(crate) fn new(value: &'w mut R) -> Self {
        ResMut { value }
    }

    /// The resource, mutably, for as long as the borrow it came from.
    pub fn into_inner(self) -> &'w mut R {
        self.value
    }
}

impl<R> Deref for Res<'_, R> {
    type Target = R;

    #[inline(always)]
    fn deref(&self) -> &R {
        self.value
    }
}

impl<R> Deref for ResMut<'_, R> {
    type Target = R;

    #[inline(always)]
    fn deref(&self) -> &R {
        self.value
    }
}

impl<R> DerefMut for ResMut<'_, R> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut R {
        self.value
    }
}

impl<R: fmt::Debug> fmt::Debug for Res<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}

impl<R: fmt::Debug> fmt::Debug for ResMut<'_, R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.value.fmt(f)
    }
}
