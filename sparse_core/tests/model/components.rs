//! The component types and the dispatch from a type index to a type, and the traits that
//! read items and slices as `Comps`.

use sparse_core::Component;

/// Number of component types.
pub(crate) const TYPES: usize = 15;

/// Component values of an entity, indexed by `Val::IDX`.
pub(crate) type Comps = [Option<u32>; TYPES];

/// A test component: a `u32` with a fixed index into `Comps`.
pub(crate) trait Val: Component + Copy + core::fmt::Debug {
    const IDX: usize;
    fn new(value: u32) -> Self;
    fn get(self) -> u32;
    fn slot(&mut self) -> &mut u32;
}

macro_rules! components {
    ($($T:ident = $i:expr),+ $(,)?) => {$(
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        pub(crate) struct $T(pub(crate) u32);
        impl Component for $T {}
        impl Val for $T {
            const IDX: usize = $i;
            fn new(value: u32) -> Self {
                $T(value)
            }
            fn get(self) -> u32 {
                self.0
            }
            fn slot(&mut self) -> &mut u32 {
                &mut self.0
            }
        }
    )+};
}

components!(
    A = 0,
    B = 1,
    C = 2,
    D = 3,
    E = 4,
    F = 5,
    G = 6,
    H = 7,
    I = 8,
    J = 9,
    K = 10,
    L = 11,
    M = 12,
    N = 13,
    O = 14,
);

/// A component type the world never stores (read-only access to it is refused).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Z;
impl Component for Z {}

pub(crate) const NAMES: [&str; TYPES] = [
    "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O",
];

/// Runs `$body` with `$T` the component type of index `$ty`.
macro_rules! with_type {
    ($ty:expr, $T:ident => $body:expr) => {
        match $ty {
            0 => {
                type $T = A;
                $body
            }
            1 => {
                type $T = B;
                $body
            }
            2 => {
                type $T = C;
                $body
            }
            3 => {
                type $T = D;
                $body
            }
            4 => {
                type $T = E;
                $body
            }
            5 => {
                type $T = F;
                $body
            }
            6 => {
                type $T = G;
                $body
            }
            7 => {
                type $T = H;
                $body
            }
            8 => {
                type $T = I;
                $body
            }
            9 => {
                type $T = J;
                $body
            }
            10 => {
                type $T = K;
                $body
            }
            11 => {
                type $T = L;
                $body
            }
            12 => {
                type $T = M;
                $body
            }
            13 => {
                type $T = N;
                $body
            }
            14 => {
                type $T = O;
                $body
            }
            ty => unreachable!("no component type {ty}"),
        }
    };
}

/// Calls `$f::<T>(args)` with the component type of index `$ty`.
macro_rules! dispatch {
    ($ty:expr, $f:ident($($arg:expr),* $(,)?)) => {
        with_type!($ty, T => $f::<T>($($arg),*))
    };
}

/// References to test components, in any nesting of tuples: what group items hold.
pub(crate) trait Read {
    /// Writes the referenced values into `comps`.
    fn read(&self, comps: &mut Comps);
}

/// Mutable references to test components, in any nesting of tuples.
pub(crate) trait Write: Read {
    /// Adds `delta` to the component of index `ty`, if referenced.
    fn bump(&mut self, ty: usize, delta: u32);
}

impl<T: Val> Read for &T {
    fn read(&self, comps: &mut Comps) {
        comps[T::IDX] = Some((**self).get());
    }
}

impl<T: Val> Read for &mut T {
    fn read(&self, comps: &mut Comps) {
        comps[T::IDX] = Some((**self).get());
    }
}

impl<T: Val> Write for &mut T {
    fn bump(&mut self, ty: usize, delta: u32) {
        if T::IDX == ty {
            let slot = self.slot();
            *slot = slot.wrapping_add(delta);
        }
    }
}

impl<T: Val> Read for Option<&T> {
    fn read(&self, comps: &mut Comps) {
        comps[T::IDX] = self.map(|v| v.get());
    }
}

impl<T: Val> Read for Option<&mut T> {
    fn read(&self, comps: &mut Comps) {
        comps[T::IDX] = self.as_ref().map(|v| v.get());
    }
}

/// Shared leaves of a view item: nothing to change.
impl<T: Val> Write for &T {
    fn bump(&mut self, _: usize, _: u32) {}
}

impl<T: Val> Write for Option<&T> {
    fn bump(&mut self, _: usize, _: u32) {}
}

impl<T: Val> Write for Option<&mut T> {
    fn bump(&mut self, ty: usize, delta: u32) {
        if let Some(value) = self {
            value.bump(ty, delta);
        }
    }
}

/// The values an item holds.
pub(crate) fn comps_of<R: Read>(item: &R) -> Comps {
    let mut comps = [None; TYPES];
    item.read(&mut comps);
    comps
}

/// Adds `delta` to each of the `writes` leaves of `item`; returns its values afterwards.
pub(crate) fn touch<W: Write>(mut item: W, writes: &[usize], delta: u32) -> Comps {
    for &ty in writes {
        item.bump(ty, delta);
    }
    comps_of(&item)
}

/// Which types a `Comps` has, as bits.
pub(crate) fn mask(comps: &Comps) -> u32 {
    (0..TYPES)
        .filter(|&t| comps[t].is_some())
        .map(|t| 1 << t)
        .sum()
}

/// `comps` restricted to the types of `types`.
pub(crate) fn only(comps: &Comps, types: &[usize]) -> Comps {
    let mut only = [None; TYPES];
    for &t in types {
        only[t] = comps[t];
    }
    only
}

/// Owned component slices, as `GroupMut::into_slices` gives them.
pub(crate) trait Columns {
    /// The lengths of the slices.
    fn lens(&self, lens: &mut Vec<usize>);
    /// Writes the values at `position` into `comps`.
    fn read_at(&self, position: usize, comps: &mut Comps);
}

impl<T: Val> Columns for &mut [T] {
    fn lens(&self, lens: &mut Vec<usize>) {
        lens.push(self.len());
    }
    fn read_at(&self, position: usize, comps: &mut Comps) {
        comps[T::IDX] = Some(self[position].get());
    }
}

impl<T: Val> Columns for &[T] {
    fn lens(&self, lens: &mut Vec<usize>) {
        lens.push(self.len());
    }
    fn read_at(&self, position: usize, comps: &mut Comps) {
        comps[T::IDX] = Some(self[position].get());
    }
}

impl Read for () {
    fn read(&self, _: &mut Comps) {}
}

impl Write for () {
    fn bump(&mut self, _: usize, _: u32) {}
}

impl Columns for () {
    fn lens(&self, _: &mut Vec<usize>) {}
    fn read_at(&self, _: usize, _: &mut Comps) {}
}

macro_rules! tuple_impls {
    ($(($T:ident, $i:tt)),+) => {
        impl<$($T: Read),+> Read for ($($T,)+) {
            fn read(&self, comps: &mut Comps) {
                $(self.$i.read(comps);)+
            }
        }

        impl<$($T: Write),+> Write for ($($T,)+) {
            fn bump(&mut self, ty: usize, delta: u32) {
                $(self.$i.bump(ty, delta);)+
            }
        }

        impl<$($T: Columns),+> Columns for ($($T,)+) {
            fn lens(&self, lens: &mut Vec<usize>) {
                $(self.$i.lens(lens);)+
            }
            fn read_at(&self, position: usize, comps: &mut Comps) {
                $(self.$i.read_at(position, comps);)+
            }
        }
    };
}

tuple_impls!((T0, 0));
tuple_impls!((T0, 0), (T1, 1));
tuple_impls!((T0, 0), (T1, 1), (T2, 2));
tuple_impls!((T0, 0), (T1, 1), (T2, 2), (T3, 3));
