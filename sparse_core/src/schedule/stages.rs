//! The stages of a schedule: each system goes in the first stage after every earlier
//! system it conflicts with (one writes what the other reads or writes), so conflicting
//! systems keep their written order and the rest run at once.
//!
//! ```text
//! systems:  movement (w Position, r Velocity)   decay (w Health)   collide (w Velocity, r Position)
//! stages:   0: movement, decay                  1: collide (it conflicts with movement)
//! ```
//!
//! A `#[world]` numbers its storages and resources at compile time (`Numbered`), so a
//! system's reads and writes are bit masks known to the compiler, and the stages of a
//! schedule are a constant: computed by the compiler, from the same numbers the borrow
//! rule compares. The run-time `World` knows its types by `TypeId` only, and computes the
//! same stages when the schedule first runs.

use core::any::TypeId;

use crate::lend::{Bits, Cons, Dynamic, End, I, Nil, Numbered, O};

/// A storage or resource number as a constant: `None` for the run-time world's, which are
/// not known at compile time.
pub trait Number {
    /// The number.
    const N: Option<u32>;
}

impl Number for End {
    const N: Option<u32> = Some(0);
}

impl<T: Number> Number for Bits<O, T> {
    const N: Option<u32> = match T::N {
        Some(n) => Some(n * 2),
        None => None,
    };
}

impl<T: Number> Number for Bits<I, T> {
    const N: Option<u32> = match T::N {
        Some(n) => Some(n * 2 + 1),
        None => None,
    };
}

impl Number for Dynamic {
    const N: Option<u32> = None;
}

/// A type-level list of a world's types as a bit mask of their numbers: `None` when a
/// number is not known at compile time or does not fit in 128 bits.
pub trait Mask<W> {
    /// The mask.
    const MASK: Option<u128>;
}

impl<W> Mask<W> for Nil {
    const MASK: Option<u128> = Some(0);
}

impl<W: Numbered<H>, H, T: Mask<W>> Mask<W> for Cons<H, T>
where
    <W as Numbered<H>>::Index: Number,
{
    const MASK: Option<u128> = match (<<W as Numbered<H>>::Index as Number>::N, T::MASK) {
        (Some(n), Some(rest)) if n < 128 => Some(rest | 1 << n),
        _ => None,
    };
}

/// A type-level list of `'static` types, as their `TypeId`s.
pub trait TypeIds {
    /// Appends the list's ids to `out`.
    fn push_ids(out: &mut Vec<TypeId>);
}

impl TypeIds for Nil {
    fn push_ids(_: &mut Vec<TypeId>) {}
}

impl<H: 'static, T: TypeIds> TypeIds for Cons<H, T> {
    fn push_ids(out: &mut Vec<TypeId>) {
        out.push(TypeId::of::<H>());
        T::push_ids(out);
    }
}

/// What one system borrows, as masks.
#[derive(Clone, Copy)]
pub struct Footprint {
    /// The types written.
    pub writes: u128,
    /// The types read.
    pub reads: u128,
    /// Whether it may reserve entities: two such systems conflict (their handles would
    /// come in either order).
    pub reserves: bool,
}

/// The stage of each system, from masks (see the module): evaluated by the compiler for a
/// `#[world]`. `N` systems.
pub const fn stages_of<const N: usize>(access: [Footprint; N]) -> [usize; N] {
    let mut stage = [0; N];
    let mut i = 0;
    while i < N {
        let mut j = 0;
        while j < i {
            let (a, b) = (access[i], access[j]);
            let conflict = a.writes & (b.writes | b.reads) != 0
                || b.writes & a.reads != 0
                || (a.reserves && b.reserves);
            if conflict && stage[j] + 1 > stage[i] {
                stage[i] = stage[j] + 1;
            }
            j += 1;
        }
        i += 1;
    }
    stage
}

/// The same stages from each system's written and read `TypeId`s (the run-time world; a
/// system that may reserve entities writes `Entities`).
pub fn stages_of_ids(access: &[(Vec<TypeId>, Vec<TypeId>)]) -> Vec<usize> {
    let meets = |a: &[TypeId], b: &[TypeId]| a.iter().any(|x| b.contains(x));
    let mut stage = vec![0; access.len()];
    for i in 0..access.len() {
        for j in 0..i {
            let ((wi, ri), (wj, rj)) = (&access[i], &access[j]);
            let conflict = meets(wi, wj) || meets(wi, rj) || meets(wj, ri);
            if conflict {
                stage[i] = stage[i].max(stage[j] + 1);
            }
        }
    }
    stage
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_two_ways_give_the_same_stages() {
        const fn access(writes: u128, reads: u128, reserves: bool) -> Footprint {
            Footprint {
                writes,
                reads,
                reserves,
            }
        }
        const MASKS: [Footprint; 5] = [
            access(0b001, 0b010, true),
            access(0b100, 0, false),
            access(0b010, 0b001, false),
            access(0, 0b100, false),
            access(0, 0, true),
        ];
        const STAGES: [usize; 5] = stages_of(MASKS);
        assert_eq!(STAGES, [0, 0, 1, 1, 1]);
        let ids = |mask: u128, reserves: bool| -> Vec<TypeId> {
            let all = [TypeId::of::<u8>(), TypeId::of::<u16>(), TypeId::of::<u32>()];
            let mut ids: Vec<TypeId> = (0..3)
                .filter(|b| mask >> b & 1 == 1)
                .map(|b| all[b])
                .collect();
            if reserves {
                ids.push(TypeId::of::<crate::Entities>());
            }
            ids
        };
        let by_ids: Vec<(Vec<TypeId>, Vec<TypeId>)> = MASKS
            .iter()
            .map(|a| (ids(a.writes, a.reserves), ids(a.reads, false)))
            .collect();
        assert_eq!(stages_of_ids(&by_ids), STAGES);
    }
}
