//! Raw-`Vec` baselines: one `Vec` per component, no entities, no lookups.
//!
//! These are lower bounds, not ECS implementations. There is no raw version of
//! the add/remove workloads (W3, `add_remove_component`): without entity
//! bookkeeping there is nothing to add or remove.

use crate::components::frag::Data;
use crate::components::*;

// `add_flat` relies on these layouts.
const _: () = assert!(size_of::<Position>() == 12 && align_of::<Position>() == 4);
const _: () = assert!(size_of::<Velocity>() == 12 && align_of::<Velocity>() == 4);

/// `pos[i] += vel[i]` over the columns viewed as flat `f32` slices, which the
/// compiler vectorises (four lanes with the baseline SSE2 target); a loop over
/// the 12-byte structs themselves is only partly vectorised.
pub fn add_flat(pos: &mut [Position], vel: &[Velocity]) {
    let n = pos.len().min(vel.len());
    // SAFETY: `Position` and `Velocity` are `#[repr(C)]` structs of three
    // `f32`s: size 12, align 4, no padding, every bit pattern valid. So `n` of
    // them are exactly `3 * n` initialised `f32`s; `pos` is borrowed mutably
    // and `vel` shared, so the two slices do not alias.
    let (pos, vel) = unsafe {
        (
            std::slice::from_raw_parts_mut(pos.as_mut_ptr().cast::<f32>(), 3 * n),
            std::slice::from_raw_parts(vel.as_ptr().cast::<f32>(), 3 * n),
        )
    };
    for (p, v) in pos.iter_mut().zip(vel) {
        *p += *v;
    }
}

/// W1: `pos += vel` over `n` entities.
pub mod w1 {
    use super::*;

    /// Two equal-length columns.
    pub struct State {
        /// Positions.
        pub pos: Vec<Position>,
        /// Velocities, same length as `pos`.
        pub vel: Vec<Velocity>,
    }

    /// `n` zero positions and `n` copies of [`VEL`].
    pub fn setup(n: usize) -> State {
        State {
            pos: vec![Position::default(); n],
            vel: vec![VEL; n],
        }
    }

    /// The baseline: [`add_flat`], the fastest of the three loops in the
    /// smoke runs (over flat `f32`s the compiler emits only packed adds; over
    /// 12-byte structs it mixes packed and scalar ones).
    pub fn run(s: &mut State) {
        add_flat(&mut s.pos, &s.vel);
    }

    /// Index loop over equal-length slices of structs.
    pub fn run_index(s: &mut State) {
        index_loop(&mut s.pos, &s.vel);
    }

    /// Zipped `iter_mut` over the slices of structs.
    pub fn run_zip(s: &mut State) {
        zip_loop(&mut s.pos, &s.vel);
    }

    /// rayon over the two columns (`par_iter_mut().zip(par_iter())`, the global pool),
    /// the body of [`run_zip`] per element.
    pub fn run_par(s: &mut State) {
        use rayon::prelude::*;
        s.pos
            .par_iter_mut()
            .zip(s.vel.par_iter())
            .for_each(|(p, v)| p.add_velocity(v));
    }

    // The loops take the columns as slice arguments rather than reading them
    // from `State` in place: reference arguments tell the compiler the
    // columns do not alias, without which it cannot reorder loads and stores.
    fn index_loop(pos: &mut [Position], vel: &[Velocity]) {
        // Re-slicing to `pos.len()` lets the compiler drop the bounds checks.
        let vel = &vel[..pos.len()];
        for i in 0..pos.len() {
            pos[i].add_velocity(&vel[i]);
        }
    }

    fn zip_loop(pos: &mut [Position], vel: &[Velocity]) {
        for (p, v) in pos.iter_mut().zip(vel) {
            p.add_velocity(v);
        }
    }

    /// Sum of every position coordinate (test helper).
    pub fn checksum(s: &mut State) -> f64 {
        s.pos
            .iter()
            .map(|p| f64::from(p.x) + f64::from(p.y) + f64::from(p.z))
            .sum()
    }
}

/// W2: `a = b + c` over the `<A, B, C>` entities only.
pub mod w2 {
    use super::*;

    /// Three equal-length columns holding only the matched entities.
    pub struct State {
        /// `A` of every matched entity.
        pub a: Vec<A>,
        /// `B` of every matched entity.
        pub b: Vec<B>,
        /// `C` of every matched entity.
        pub c: Vec<C>,
    }

    /// The `<A, B, C>` subset of `n` W2 entities (see [`w2_has_c`]).
    pub fn setup(n: usize) -> State {
        let m = (0..n).filter(|&i| w2_has_c(i, n)).count();
        State {
            a: vec![A::default(); m],
            b: vec![W2_B; m],
            c: vec![W2_C; m],
        }
    }

    /// Zipped loop over the three columns.
    pub fn run(s: &mut State) {
        // Slice arguments of a non-inlined function, so the compiler knows
        // the columns do not alias: this is what lets it use one packed add
        // per entity. Once inlined into `run` (which reads the columns out of
        // `State`) the loop compiled to scalar adds and ran slower than
        // hecs' query in the smoke runs.
        #[inline(never)]
        fn kernel(a: &mut [A], b: &[B], c: &[C]) {
            for ((a, b), c) in a.iter_mut().zip(b).zip(c) {
                a_eq_b_plus_c(a, b, c);
            }
        }
        kernel(&mut s.a, &s.b, &s.c);
    }

    /// rayon over the three columns (`par_iter_mut().zip(..).zip(..)`, the global pool).
    pub fn run_par(s: &mut State) {
        use rayon::prelude::*;
        s.a.par_iter_mut()
            .zip(s.b.par_iter())
            .zip(s.c.par_iter())
            .for_each(|((a, b), c)| a_eq_b_plus_c(a, b, c));
    }

    /// Entities whose `A` holds [`W2_A_AFTER`] (test helper).
    pub fn count_updated(s: &mut State) -> usize {
        s.a.iter().filter(|a| **a == W2_A_AFTER).count()
    }
}

/// W4 (`simple_insert`): push `n` four-component rows into empty columns.
pub mod w4 {
    use super::*;

    /// Four empty columns.
    pub struct State {
        n: usize,
        transforms: Vec<Transform>,
        positions: Vec<Position>,
        rotations: Vec<Rotation>,
        velocities: Vec<Velocity>,
    }

    /// Empty columns (no capacity), `n` rows to insert.
    pub fn setup(n: usize) -> State {
        State {
            n,
            transforms: Vec::new(),
            positions: Vec::new(),
            rotations: Vec::new(),
            velocities: Vec::new(),
        }
    }

    /// Reserve once, then push every row (what a batch spawn does at best).
    pub fn run(s: &mut State) {
        s.transforms.reserve(s.n);
        s.positions.reserve(s.n);
        s.rotations.reserve(s.n);
        s.velocities.reserve(s.n);
        for _ in 0..s.n {
            let (t, p, r, v) = transform_bundle();
            s.transforms.push(t);
            s.positions.push(p);
            s.rotations.push(r);
            s.velocities.push(v);
        }
    }

    /// Rows inserted (test helper).
    pub fn len(s: &mut State) -> usize {
        s.positions.len()
    }
}

/// ecs_bench_suite `simple_iter`: `pos += vel` over `n` entities.
pub mod simple_iter {
    use super::*;

    /// Only the two iterated columns; the transform and rotation columns of
    /// the ECS versions are never touched by the loop.
    pub struct State {
        pos: Vec<Position>,
        vel: Vec<Velocity>,
    }

    /// `n` rows of [`transform_bundle`]'s position and velocity.
    pub fn setup(n: usize) -> State {
        let (_, p, _, v) = transform_bundle();
        State {
            pos: vec![p; n],
            vel: vec![v; n],
        }
    }

    /// [`add_flat`], as W1's baseline.
    pub fn run(s: &mut State) {
        add_flat(&mut s.pos, &s.vel);
    }
}

/// ecs_bench_suite `fragmented_iter`: `data *= 2` over 26 × 20 values.
pub mod fragmented_iter {
    use super::*;
    use crate::components::frag::{PER_TYPE, TYPES};

    /// One contiguous column: a raw layout has no fragmentation.
    pub struct State {
        data: Vec<Data>,
    }

    /// 520 `Data(1.0)`.
    pub fn setup() -> State {
        State {
            data: vec![Data(1.0); TYPES * PER_TYPE],
        }
    }

    /// Double every value.
    pub fn run(s: &mut State) {
        for d in &mut s.data {
            d.0 *= 2.0;
        }
    }
}

/// `view_overlap`: `a += b` over only the `n / 2` entities that have both (what the
/// archetype libraries iterate: one table of the matched entities).
pub mod view_overlap {
    use super::*;

    /// Two equal-length columns of the matched entities.
    pub struct State {
        a: Vec<A>,
        b: Vec<B>,
    }

    /// The `n / 2` matched entities of the `view_overlap` population.
    pub fn setup(n: usize) -> State {
        let m = (0..overlap_total(n))
            .filter(|&i| overlap_has_a(i, n) && overlap_has_b(i, n))
            .count();
        State {
            a: vec![A::default(); m],
            b: vec![OVERLAP_B; m],
        }
    }

    /// Zipped loop over the two columns (slice arguments of a non-inlined kernel, as W2's).
    pub fn run(s: &mut State) {
        #[inline(never)]
        fn kernel(a: &mut [A], b: &[B]) {
            for (a, b) in a.iter_mut().zip(b) {
                a_plus_eq_b(a, b);
            }
        }
        kernel(&mut s.a, &s.b);
    }

    /// Sum of lane 0 of every `A` (test helper).
    pub fn a_sum(s: &mut State) -> f64 {
        s.a.iter().map(|a| f64::from(a.0[0])).sum()
    }
}

/// The floor of a `for` loop over `view_overlap`'s view with no group: the same walk
/// over two paged sparse sets laid out as ours (dense entities and values, a sparse page
/// of 1,024 entries per index range, an entry being a dense position plus one), stripped
/// of everything but the lookup, by the smallest external iterator that writes through
/// its items. `run_for` looks every walked entity up; `run_for_skip` also skips, in its
/// own loop, the walked entities whose sparse page the looked-up set never had;
/// `run_for_runs` reads by position, with no lookup, the walked entities that follow a
/// match in both sets' dense order (compared a window of 64 at a time), as `for_each`
/// does.
pub mod view_overlap_sparse {
    use super::*;

    const PAGE_BITS: u32 = 10;
    const PAGE_LEN: usize = 1 << PAGE_BITS;

    /// One sparse set: entity `e` (its index) is at `dense[sparse[e >> 10][e & 1023] - 1]`.
    struct Set<T> {
        sparse: Vec<Option<Box<[u32; PAGE_LEN]>>>,
        dense: Vec<u32>,
        values: Vec<T>,
    }

    impl<T> Set<T> {
        fn new() -> Self {
            Set {
                sparse: Vec::new(),
                dense: Vec::new(),
                values: Vec::new(),
            }
        }

        fn push(&mut self, index: u32, value: T) {
            let page = (index >> PAGE_BITS) as usize;
            if self.sparse.len() <= page {
                self.sparse.resize_with(page + 1, || None);
            }
            let entries = self.sparse[page].get_or_insert_with(|| Box::new([0; PAGE_LEN]));
            self.dense.push(index);
            self.values.push(value);
            entries[index as usize & (PAGE_LEN - 1)] = self.dense.len() as u32;
        }
    }

    /// `A` and `B` as sparse sets, filled in index order as `view_overlap`'s batches.
    pub struct State {
        a: Set<A>,
        b: Set<B>,
    }

    /// The `view_overlap` population.
    pub fn setup(n: usize) -> State {
        let (mut a, mut b) = (Set::new(), Set::new());
        for i in 0..overlap_total(n) {
            if overlap_has_a(i, n) {
                a.push(i as u32, A::default());
            }
            if overlap_has_b(i, n) {
                b.push(i as u32, OVERLAP_B);
            }
        }
        State { a, b }
    }

    /// Walks `A`'s entities and looks each up in `B`.
    struct Iter<'s, const SKIP: bool> {
        walked: &'s [u32],
        next: usize,
        a: *mut A,
        sparse: &'s [Option<Box<[u32; PAGE_LEN]>>],
        dense: &'s [u32],
        values: &'s [B],
        _items: core::marker::PhantomData<&'s mut A>,
    }

    impl<'s, const SKIP: bool> Iterator for Iter<'s, SKIP> {
        type Item = (&'s mut A, &'s B);

        #[inline]
        fn next(&mut self) -> Option<Self::Item> {
            loop {
                let i = self.next;
                let &index = self.walked.get(i)?;
                self.next = i + 1;
                let page = (index >> PAGE_BITS) as usize;
                match self.sparse.get(page) {
                    Some(Some(entries)) => {
                        let entry = entries[index as usize & (PAGE_LEN - 1)] as usize;
                        if entry != 0 && self.dense[entry - 1] == index {
                            // SAFETY: `i` is below `walked.len()`, the length of `A`'s
                            // values, and each `i` is yielded once.
                            let a = unsafe { &mut *self.a.add(i) };
                            return Some((a, &self.values[entry - 1]));
                        }
                    }
                    _ if SKIP => {
                        let same_page = |&&e: &&u32| e >> PAGE_BITS == index >> PAGE_BITS;
                        self.next += self.walked[i + 1..].iter().take_while(same_page).count();
                    }
                    _ => {}
                }
            }
        }
    }

    /// [`Iter`] that also reads runs: `left` walked entities after `next` are known to sit
    /// in `B` from `at` on, in order.
    struct Runs<'s> {
        lookups: Iter<'s, false>,
        left: usize,
        at: usize,
    }

    impl<'s> Iterator for Runs<'s> {
        type Item = (&'s mut A, &'s B);

        #[inline]
        fn next(&mut self) -> Option<Self::Item> {
            let it = &mut self.lookups;
            if self.left > 0 {
                self.left -= 1;
                let (i, at) = (it.next, self.at);
                it.next = i + 1;
                self.at = at + 1;
                // SAFETY: the run was compared within both sets' lengths; `i` is yielded
                // once.
                return Some(unsafe { (&mut *it.a.add(i), it.values.get_unchecked(at)) });
            }
            let (a, b) = it.next()?;
            // The match's position in `B`, and how many walked entities after it follow
            // it there.
            let at = (b as *const B as usize - it.values.as_ptr() as usize) / size_of::<B>() + 1;
            let (walked, dense) = (&it.walked[it.next..], &it.dense[at.min(it.dense.len())..]);
            let window = walked.len().min(dense.len()).min(64);
            self.left = walked[..window]
                .iter()
                .zip(&dense[..window])
                .take_while(|(w, d)| w == d)
                .count();
            self.at = at;
            Some((a, b))
        }
    }

    /// `a += b` by a `for` loop that reads runs by position.
    pub fn run_for_runs(s: &mut State) {
        let lookups = iter::<false>(s);
        for (a, b) in (Runs {
            lookups,
            left: 0,
            at: 0,
        }) {
            a_plus_eq_b(a, b);
        }
    }

    fn iter<const SKIP: bool>(s: &mut State) -> Iter<'_, SKIP> {
        Iter {
            walked: &s.a.dense,
            next: 0,
            a: s.a.values.as_mut_ptr(),
            sparse: &s.b.sparse,
            dense: &s.b.dense,
            values: &s.b.values,
            _items: core::marker::PhantomData,
        }
    }

    /// `a += b` by a `for` loop, a lookup per walked entity.
    pub fn run_for(s: &mut State) {
        for (a, b) in iter::<false>(s) {
            a_plus_eq_b(a, b);
        }
    }

    /// `a += b` by a `for` loop that skips the pages `B` lacks.
    pub fn run_for_skip(s: &mut State) {
        for (a, b) in iter::<true>(s) {
            a_plus_eq_b(a, b);
        }
    }

    /// Sum of lane 0 of every `A` (test helper).
    pub fn a_sum(s: &mut State) -> f64 {
        s.a.values.iter().map(|a| f64::from(a.0[0])).sum()
    }
}

/// ecs_bench_suite `heavy_compute` over two plain columns with rayon
/// (`par_iter_mut().zip(..)`, the global pool, default splitting).
pub mod heavy_compute {
    use super::*;

    /// The two columns the loop writes.
    pub struct State {
        pos: Vec<Position>,
        transforms: Vec<Transform>,
    }

    /// `n` rows of [`heavy_bundle`]'s position and matrix.
    pub fn setup(n: usize) -> State {
        let (t, p, _, _) = heavy_bundle();
        State {
            pos: vec![p; n],
            transforms: vec![t; n],
        }
    }

    /// [`heavy_compute()`] on every row in parallel.
    pub fn run(s: &mut State) {
        use rayon::prelude::*;
        s.pos
            .par_iter_mut()
            .zip(s.transforms.par_iter_mut())
            .for_each(|(p, t)| heavy_compute(p, t));
    }

    /// Every row's `(Position, Transform)` (test helper).
    pub fn results(s: &mut State) -> Vec<(Position, Transform)> {
        s.pos
            .iter()
            .copied()
            .zip(s.transforms.iter().copied())
            .collect()
    }
}

/// STREAM's "add" in place, `a[i] += b[i]`: the access pattern of W1.
#[inline(never)]
pub fn stream_add_in_place(a: &mut [f64], b: &[f64]) {
    for (a, b) in a.iter_mut().zip(b) {
        *a += b;
    }
}

/// STREAM's triad, `a[i] = b[i] + s * c[i]`: the access pattern of W2.
#[inline(never)]
pub fn stream_triad(a: &mut [f64], b: &[f64], c: &[f64]) {
    const S: f64 = 3.0;
    for ((a, b), c) in a.iter_mut().zip(b).zip(c) {
        *a = b + S * c;
    }
}

/// The realistic frame ([`crate::components::frame`]) over plain `Vec`s: one table per
/// kind of entity, one `Vec` per component the kind has (empty where it has none), the
/// layout a hand-written engine with four fixed kinds would use. Each system zips the
/// columns it needs over every table; a table lacking one of them yields nothing.
pub mod frame {
    use crate::components::frame::*;

    /// One kind's columns.
    #[derive(Default)]
    struct Table {
        pos: Vec<Pos>,
        vel: Vec<Vel>,
        data: Vec<Data>,
        health: Vec<Health>,
        damage: Vec<Damage>,
        sprite: Vec<Sprite>,
        player: Vec<Player>,
    }

    /// The four tables and the frame buffer.
    pub struct State {
        tables: [Table; 4],
        /// What the last frame drew.
        pub fb: FrameBuffer,
    }

    /// Creates the `n` entities in order, each into its kind's table.
    pub fn setup(n: usize) -> State {
        let mut tables: [Table; 4] = Default::default();
        for i in 0..n {
            let r = spawn_row(i);
            let t = &mut tables[kind(i) as usize];
            t.pos.extend(r.pos);
            t.vel.extend(r.vel);
            t.data.extend(r.data);
            t.health.extend(r.health);
            t.damage.extend(r.damage);
            t.sprite.extend(r.sprite);
            t.player.extend(r.player);
        }
        State {
            tables,
            fb: FrameBuffer::default(),
        }
    }

    /// The systems in frame order (a frame runs each once).
    pub const SYSTEMS: [fn(&mut State); 7] = [
        |s| {
            for t in &mut s.tables {
                for (p, v) in t.pos.iter_mut().zip(&t.vel) {
                    movement(p, v);
                }
            }
        },
        |s| {
            for t in &mut s.tables {
                t.data.iter_mut().for_each(data);
            }
        },
        |s| {
            for t in &mut s.tables {
                for ((v, p), d) in t.vel.iter_mut().zip(&t.pos).zip(&t.data) {
                    more_complex(v, p, d);
                }
            }
        },
        |s| {
            for t in &mut s.tables {
                t.health.iter_mut().for_each(health);
            }
        },
        |s| {
            for t in &mut s.tables {
                for (h, d) in t.health.iter_mut().zip(&t.damage) {
                    damage(h, d);
                }
            }
        },
        |s| {
            for t in &mut s.tables {
                for ((sp, p), h) in t.sprite.iter_mut().zip(&t.player).zip(&t.health) {
                    sprite(sp, p, h);
                }
            }
        },
        |s| render_system(s, render),
    ];

    /// The render system, drawing each entity with `draw` ([`render`], or
    /// [`render_branch_free`] in [`RENDER_BRANCH_FREE`]).
    #[inline(always)]
    fn render_system(s: &mut State, draw: impl Fn(&mut FrameBuffer, &Pos, &Sprite)) {
        s.fb.clear();
        for t in &s.tables {
            for (p, sp) in t.pos.iter().zip(&t.sprite) {
                draw(&mut s.fb, p, sp);
            }
        }
    }

    /// One frame: the seven systems in order.
    pub fn run(s: &mut State) {
        run_systems(s, &SYSTEMS);
    }

    /// The render system with [`render_branch_free`] (`frame_systems branch-free`).
    pub const RENDER_BRANCH_FREE: fn(&mut State) = |s| render_system(s, render_branch_free);

    /// Every entity's components (test helper).
    pub fn rows(s: &State) -> Vec<Row> {
        let mut rows = Vec::new();
        for t in &s.tables {
            let at = |i| Row {
                pos: t.pos.get(i).copied(),
                vel: t.vel.get(i).copied(),
                data: t.data.get(i).copied(),
                health: t.health.get(i).copied(),
                damage: t.damage.get(i).copied(),
                sprite: t.sprite.get(i).copied(),
                player: t.player.get(i).copied(),
            };
            rows.extend((0..t.pos.len()).map(at));
        }
        rows
    }
}
