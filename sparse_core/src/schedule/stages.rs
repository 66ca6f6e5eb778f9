//! The stages of a schedule: each system goes in the first stage after every earlier
//! system it conflicts with (one writes what the other reads or writes), so conflicting
//! systems keep their written order and the rest run at once.
//!
//! ```text
//! systems:  movement (w Position, r Velocity)   decay (w Health)   collide (w Velocity, r Position)
//! stages:   0: movement, decay                  1: collide (it conflicts with movement)
//! ```
//!
//! A sync point (`ApplyCommands`) conflicts with every system: it has a stage of its own,
//! after every system listed before it and before every system listed after it.
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

/// The most systems whose stages the compiler computes; a longer schedule's stages are
/// computed when it first runs (the same stages).
pub const MAX_COMPILED: usize = 256;

/// What one element of a schedule borrows, as masks.
#[derive(Clone, Copy)]
pub struct Footprint {
    /// The types written.
    pub writes: u128,
    /// The types read.
    pub reads: u128,
    /// Whether it may reserve entities: two such systems conflict (their handles would
    /// come in either order).
    pub reserves: bool,
    /// Whether it is a sync point (`ApplyCommands`), which conflicts with every system.
    pub barrier: bool,
}

impl Footprint {
    /// A sync point's.
    pub const BARRIER: Footprint = Footprint {
        writes: 0,
        reads: 0,
        reserves: false,
        barrier: true,
    };

    /// Whether the two may not share a stage: one writes what the other reads or writes,
    /// both may reserve entities, or one is a sync point.
    const fn conflicts(self, other: Footprint) -> bool {
        self.barrier
            || other.barrier
            || self.writes & (other.writes | other.reads) != 0
            || other.writes & self.reads != 0
            || (self.reserves && other.reserves)
    }
}

/// The footprints of a list of systems, as the compiler knows them: at most
/// [`MAX_COMPILED`].
#[derive(Clone, Copy)]
pub struct Footprints {
    list: [Footprint; MAX_COMPILED],
    len: usize,
}

impl Footprints {
    /// One element's, `None` when the compiler does not know it.
    pub const fn one(footprint: Option<Footprint>) -> Option<Footprints> {
        match footprint {
            Some(footprint) => {
                let mut list = [Footprint::BARRIER; MAX_COMPILED];
                list[0] = footprint;
                Some(Footprints { list, len: 1 })
            }
            None => None,
        }
    }

    /// `a` then `b`: `None` when either is unknown or the two are too many.
    pub const fn concat(a: Option<Footprints>, b: Option<Footprints>) -> Option<Footprints> {
        match (a, b) {
            (Some(mut a), Some(b)) if a.len + b.len <= MAX_COMPILED => {
                let mut i = 0;
                while i < b.len {
                    a.list[a.len + i] = b.list[i];
                    i += 1;
                }
                a.len += b.len;
                Some(a)
            }
            _ => None,
        }
    }

    /// An empty list, what `concat` starts from.
    pub const EMPTY: Option<Footprints> = Some(Footprints {
        list: [Footprint::BARRIER; MAX_COMPILED],
        len: 0,
    });

    /// The stage of each system (see the module), and how many systems: evaluated by the
    /// compiler for a `#[world]`.
    pub const fn stages(&self) -> ([usize; MAX_COMPILED], usize) {
        let mut stage = [0; MAX_COMPILED];
        let mut i = 0;
        while i < self.len {
            let mut j = 0;
            while j < i {
                if self.list[i].conflicts(self.list[j]) && stage[j] + 1 > stage[i] {
                    stage[i] = stage[j] + 1;
                }
                j += 1;
            }
            i += 1;
        }
        (stage, self.len)
    }
}

/// What one element of a schedule borrows, as `TypeId`s (the run-time world).
#[derive(Clone, Debug, Default)]
pub struct ElementAccess {
    /// The types written (`Entities` for a system that may reserve entities).
    pub writes: Vec<TypeId>,
    /// The types read, or whose change stamps it reads.
    pub reads: Vec<TypeId>,
    /// Whether it is a sync point.
    pub barrier: bool,
    /// How many message cursors it keeps (not for the stages: where its cursors are).
    pub cursors: usize,
}

/// The same stages from each element's written and read `TypeId`s (the run-time world; a
/// system that may reserve entities writes `Entities`).
pub fn stages_of_ids(access: &[ElementAccess]) -> Vec<usize> {
    let meets = |a: &[TypeId], b: &[TypeId]| a.iter().any(|x| b.contains(x));
    let mut stage = vec![0; access.len()];
    for i in 0..access.len() {
        for j in 0..i {
            let (a, b) = (&access[i], &access[j]);
            let conflict = a.barrier
                || b.barrier
                || meets(&a.writes, &b.writes)
                || meets(&a.writes, &b.reads)
                || meets(&b.writes, &a.reads);
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
                barrier: false,
            }
        }
        const LIST: [Footprint; 7] = [
            access(0b001, 0b010, true),
            access(0b100, 0, false),
            access(0b010, 0b001, false),
            access(0, 0b100, false),
            access(0, 0, true),
            Footprint::BARRIER,
            access(0, 0, false),
        ];
        const STAGES: ([usize; MAX_COMPILED], usize) = {
            let mut all = Footprints::EMPTY;
            let mut i = 0;
            while i < LIST.len() {
                all = Footprints::concat(all, Footprints::one(Some(LIST[i])));
                i += 1;
            }
            match all {
                Some(all) => all.stages(),
                None => panic!("seven fit"),
            }
        };
        assert_eq!(STAGES.0[..STAGES.1], [0, 0, 1, 1, 1, 2, 3]);
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
        let by_ids: Vec<ElementAccess> = LIST
            .iter()
            .map(|a| ElementAccess {
                writes: ids(a.writes, a.reserves),
                reads: ids(a.reads, false),
                barrier: a.barrier,
                cursors: 0,
            })
            .collect();
        assert_eq!(stages_of_ids(&by_ids), STAGES.0[..STAGES.1]);
    }

    #[test]
    fn too_many_for_the_compiler_is_unknown() {
        let one = Footprints::one(Some(Footprint::BARRIER));
        let mut all = Footprints::EMPTY;
        for _ in 0..MAX_COMPILED {
            all = Footprints::concat(all, one);
        }
        assert!(all.is_some());
        assert!(Footprints::concat(all, one).is_none());
        assert!(Footprints::concat(Footprints::EMPTY, Footprints::one(None)).is_none());
    }
}
