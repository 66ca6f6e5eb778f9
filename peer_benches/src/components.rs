//! Component types shared by every library under test.
//!
//! Each type is a plain `#[repr(C)]` `Copy` struct. sparsey and hecs accept any
//! `Send + Sync + 'static` type; shipyard and bevy_ecs need their `Component`
//! derive, and so does `sparse`, so every type derives all three (they do not
//! interfere: each derive only implements its own crate's trait). Each also derives
//! serde's `Serialize` and `Deserialize`, which only the `serialize_binary` group uses.

/// Declares one component struct with the derives every library needs.
macro_rules! component {
    ($(#[$meta:meta])* pub struct $($rest:tt)*) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, bevy_ecs::component::Component, shipyard::Component, sparse_groups::Component, serde::Serialize, serde::Deserialize)]
        #[repr(C)]
        pub struct $($rest)*
    };
}

// ---------------------------------------------------------------------------
// W1 / W4 / simple_iter: 12-byte vectors and a 64-byte transform.
// ---------------------------------------------------------------------------

component! {
    /// 12-byte position (W1, W4, simple_iter).
    pub struct Position {
        pub x: f32,
        pub y: f32,
        pub z: f32,
    }
}

component! {
    /// 12-byte velocity (W1, W4, simple_iter).
    pub struct Velocity {
        pub x: f32,
        pub y: f32,
        pub z: f32,
    }
}

component! {
    /// 12-byte rotation (W4, simple_iter).
    pub struct Rotation {
        pub x: f32,
        pub y: f32,
        pub z: f32,
    }
}

component! {
    /// 64-byte 4x4 matrix (W4, simple_iter). ecs_bench_suite used cgmath's
    /// `Matrix4<f32>`; this has the same size and alignment.
    pub struct Transform(pub [[f32; 4]; 4]);
}

impl Position {
    /// `self += v`, component-wise.
    #[inline(always)]
    pub fn add_velocity(&mut self, v: &Velocity) {
        self.x += v.x;
        self.y += v.y;
        self.z += v.z;
    }
}

/// The value every W1/simple_iter entity's velocity starts with.
pub const VEL: Velocity = Velocity {
    x: 1.0,
    y: 2.0,
    z: 3.0,
};

/// The four components spawned by W4 (ecs_bench_suite `simple_insert`) and
/// `simple_iter`; ecs_bench_suite used `Matrix4::from_scale(1.0)` and
/// `Vector3::unit_x()`.
#[inline(always)]
pub fn transform_bundle() -> (Transform, Position, Rotation, Velocity) {
    let mut m = [[0.0; 4]; 4];
    for (i, row) in m.iter_mut().enumerate() {
        row[i] = 1.0;
    }
    (
        Transform(m),
        Position {
            x: 1.0,
            y: 0.0,
            z: 0.0,
        },
        Rotation {
            x: 1.0,
            y: 0.0,
            z: 0.0,
        },
        Velocity {
            x: 1.0,
            y: 0.0,
            z: 0.0,
        },
    )
}

// ---------------------------------------------------------------------------
// W2 / W3: 16-byte components.
// ---------------------------------------------------------------------------

component! {
    /// 16-byte component, on every W2/W3 entity.
    pub struct A(pub [f32; 4]);
}
component! {
    /// 16-byte component, on every W2/W3 entity.
    pub struct B(pub [f32; 4]);
}
component! {
    /// 16-byte component: the first half of W2's entities; added and removed by W3.
    pub struct C(pub [f32; 4]);
}
component! {
    /// 16-byte component: the first quarter of W2's entities (all of which also have C).
    pub struct D(pub [f32; 4]);
}

/// `a = b + c`, element-wise (W2).
#[inline(always)]
pub fn a_eq_b_plus_c(a: &mut A, b: &B, c: &C) {
    for i in 0..4 {
        a.0[i] = b.0[i] + c.0[i];
    }
}

/// W2 initial values: `A` zero, `B` = 1, `C` = 2, so a matched entity ends with `A` = 3.
pub const W2_B: B = B([1.0; 4]);
/// See [`W2_B`].
pub const W2_C: C = C([2.0; 4]);
/// W2's `D` value (never read).
pub const W2_D: D = D([4.0; 4]);
/// Value every `A` of a matched W2 entity holds after one run.
pub const W2_A_AFTER: A = A([3.0; 4]);

/// W2 population for entity `i` of `n`: every entity has A and B, the first
/// half (`i < n / 2`) also C, the first quarter (`i < n / 4`) also D — so the
/// entities with D are a subset of those with C, and `<A, B, C>` matches
/// `n / 2` entities (500,000 of 1,000,000).
#[inline]
pub fn w2_has_c(i: usize, n: usize) -> bool {
    i < n / 2
}
/// See [`w2_has_c`].
#[inline]
pub fn w2_has_d(i: usize, n: usize) -> bool {
    i < n / 4
}

// ---------------------------------------------------------------------------
// W5 / W6: zero-sized tags that groups exclude.
// ---------------------------------------------------------------------------

component! {
    /// Zero-sized tag on every other W5 entity (the odd ones): the movement system skips
    /// frozen entities.
    pub struct Frozen;
}

component! {
    /// Zero-sized tag that every W6 group excludes; W6 adds it to every entity and removes
    /// it again.
    pub struct T;
}

/// W5 population: entity `i` is frozen iff `i` is odd, so `n / 2` of `n` (even) entities
/// move.
#[inline]
pub fn w5_is_frozen(i: usize) -> bool {
    i % 2 == 1
}

/// Sum of a position's coordinates, as `f64` (test helpers).
#[inline]
pub fn position_sum(p: &Position) -> f64 {
    f64::from(p.x) + f64::from(p.y) + f64::from(p.z)
}

/// Sum of the coordinates of [`VEL`]: what one W1/W5 run adds to a moving entity's
/// [`position_sum`].
pub const VEL_SUM: f64 = 6.0;

// ---------------------------------------------------------------------------
// serde_3deep: 8-byte components that serde can save and load.
// ---------------------------------------------------------------------------

/// Components of `serde_3deep` (save and load a world with postcard) and their population:
/// a 3-deep nested family, every entity with `A`, three quarters also with `B`, half also
/// with `C` (the `C` ones all have `B`), in one of two [`Order`](saved::Order)s.
pub mod saved {
    /// Declares one component struct with the derives `sparse` and serde need (hecs takes
    /// any `Send + Sync + 'static` type).
    macro_rules! saved_component {
        ($(#[$meta:meta])* pub struct $($rest:tt)*) => {
            $(#[$meta])*
            #[derive(Clone, Copy, Debug, Default, PartialEq, sparse_groups::Component, serde::Serialize, serde::Deserialize)]
            #[repr(C)]
            pub struct $($rest)*
        };
    }

    saved_component! {
        /// On every entity.
        pub struct A {
            pub x: f32,
            pub y: f32,
        }
    }
    saved_component! {
        /// On three entities out of four.
        pub struct B {
            pub x: f32,
            pub y: f32,
        }
    }
    saved_component! {
        /// On every other entity (all of which have `B`).
        pub struct C {
            pub x: f32,
            pub y: f32,
        }
    }

    /// Which of the `n` entities (spawned in index order) get `B` and `C`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Order {
        /// Contiguous runs: `(A, B, C)` for `i < n / 2`, `(A, B)` up to `3n / 4`, then
        /// `(A)` — each archetype's entity ids form one ascending run (`serde_3deep`).
        Blocks,
        /// Mixed: `(A, B, C)` for even `i`, `(A, B)` for `i % 4 == 1`, `(A)` for
        /// `i % 4 == 3` — each archetype's ids are spread over the whole range
        /// (`serde_3deep_interleaved`).
        Interleaved,
    }

    /// Whether entity `i` of `n` has `B`.
    #[inline]
    pub fn has_b(order: Order, n: usize, i: usize) -> bool {
        match order {
            Order::Blocks => i < 3 * n / 4,
            Order::Interleaved => i % 4 != 3,
        }
    }

    /// Whether entity `i` of `n` has `C` (only entities with `B` do).
    #[inline]
    pub fn has_c(order: Order, n: usize, i: usize) -> bool {
        match order {
            Order::Blocks => i < n / 2,
            Order::Interleaved => i.is_multiple_of(2),
        }
    }

    /// The components of entity `i` of `n`, distinct per entity (exact in `f32` below
    /// 2^24) so a round trip that mixed entities up would show.
    #[inline]
    pub fn components(order: Order, n: usize, i: usize) -> (A, Option<B>, Option<C>) {
        let f = i as f32;
        let a = A { x: f, y: -f };
        let b = has_b(order, n, i).then_some(B { x: f + 0.5, y: 1.0 });
        let c = has_c(order, n, i).then_some(C { x: 2.0, y: f - 0.5 });
        (a, b, c)
    }

    /// Entities with `B` among `n` (3/4 of them when `n` is a multiple of 4).
    pub fn count_b(order: Order, n: usize) -> usize {
        (0..n).filter(|&i| has_b(order, n, i)).count()
    }

    /// Entities with `C` among `n`.
    pub fn count_c(order: Order, n: usize) -> usize {
        (0..n).filter(|&i| has_c(order, n, i)).count()
    }
}

// ---------------------------------------------------------------------------
// ecs_bench_suite `add_remove_component` / `fragmented_iter`.
// ---------------------------------------------------------------------------

/// Components of ecs_bench_suite's `add_remove_component` (`A(f32)`, `B(f32)`).
pub mod suite {
    component! {
        /// On every entity.
        pub struct SA(pub f32);
    }
    component! {
        /// Added to and removed from every entity.
        pub struct SB(pub f32);
    }
}

/// Components of ecs_bench_suite's `fragmented_iter`: 26 marker types `A`..`Z`
/// holding an `f32`, and `Data(f32)` on every entity.
pub mod frag {
    component! {
        /// On every `fragmented_iter` entity; the only type iterated.
        pub struct Data(pub f32);
    }

    /// Calls `$m!(A, B, ..., Z)`; used to declare, register and spawn the 26 types.
    macro_rules! for_each_frag_type {
        ($m:ident) => {
            $m!(
                A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X, Y, Z
            );
        };
    }
    pub(crate) use for_each_frag_type;

    macro_rules! declare {
        ($($t:ident),*) => {
            $(
                component! {
                    /// A `fragmented_iter` archetype marker.
                    pub struct $t(pub f32);
                }
            )*
        };
    }
    for_each_frag_type!(declare);

    /// Entities per marker type (ecs_bench_suite: 20).
    pub const PER_TYPE: usize = 20;
    /// Number of marker types.
    pub const TYPES: usize = 26;
}

// ---------------------------------------------------------------------------
// Read-only loops (the `*_iter` functions): what each one sums.
// ---------------------------------------------------------------------------

/// `p · v`: what the read-only W1 / W5 loops (`sparse_iter`, …) sum over their entities.
#[inline(always)]
pub fn dot(p: &Position, v: &Velocity) -> f32 {
    p.x * v.x + p.y * v.y + p.z * v.z
}

/// `Σ a[i] + b[i] * c[i]`: what the read-only W2 loops sum over the `<A, B, C>` entities.
#[inline(always)]
pub fn abc_read(a: &A, b: &B, c: &C) -> f32 {
    let mut sum = 0.0;
    for i in 0..4 {
        sum += a.0[i] + b.0[i] * c.0[i];
    }
    sum
}

// ---------------------------------------------------------------------------
// view_overlap: two 1M storages that share half of their entities.
// ---------------------------------------------------------------------------

/// `view_overlap` population for entity `i` (spawned in index order, `0..3n/2`): entities
/// `0..n` have `A`, entities `n/2..3n/2` have `B`, so the `n / 2` in the middle have both.
#[inline]
pub fn overlap_has_a(i: usize, n: usize) -> bool {
    i < n
}
/// See [`overlap_has_a`].
#[inline]
pub fn overlap_has_b(i: usize, n: usize) -> bool {
    i >= n / 2
}
/// Entities spawned by `view_overlap` for `n` of each component.
#[inline]
pub fn overlap_total(n: usize) -> usize {
    n + n / 2
}

/// `a += b`, element-wise (`view_overlap`).
#[inline(always)]
pub fn a_plus_eq_b(a: &mut A, b: &B) {
    for i in 0..4 {
        a.0[i] += b.0[i];
    }
}

/// `a · b`: what the read-only `view_overlap` loop sums.
#[inline(always)]
pub fn ab_dot(a: &A, b: &B) -> f32 {
    let mut sum = 0.0;
    for i in 0..4 {
        sum += a.0[i] * b.0[i];
    }
    sum
}

/// `view_overlap` initial values: `A` zero, `B` = [`W2_B`] (1 in every lane), so each run
/// adds 1 to every lane of a matched entity's `A`.
pub const OVERLAP_B: B = W2_B;

// ---------------------------------------------------------------------------
// heavy_compute (ecs_bench_suite): invert a 4x4 matrix 100 times per entity.
// ---------------------------------------------------------------------------

/// How many times `heavy_compute` inverts each entity's matrix per run (ecs_bench_suite:
/// 100).
pub const HEAVY_INVERSIONS: usize = 100;

/// The inverse of the 4x4 matrix `m` (any storage order: the inverse of the transpose is
/// the transpose of the inverse), by cofactors (the MESA `gluInvertMatrix` expansion, as
/// cgmath's `Matrix4::invert` computes it); `None` if the determinant is zero. Plain `f32`
/// code without intrinsics: every library runs this same function.
#[allow(clippy::too_many_lines)]
pub fn invert4(m: &[[f32; 4]; 4]) -> Option<[[f32; 4]; 4]> {
    let mut a = [0.0f32; 16];
    for (i, x) in a.iter_mut().enumerate() {
        *x = m[i / 4][i % 4];
    }
    let mut inv = [0.0f32; 16];
    inv[0] = a[5] * a[10] * a[15] - a[5] * a[11] * a[14] - a[9] * a[6] * a[15]
        + a[9] * a[7] * a[14]
        + a[13] * a[6] * a[11]
        - a[13] * a[7] * a[10];
    inv[4] = -a[4] * a[10] * a[15] + a[4] * a[11] * a[14] + a[8] * a[6] * a[15]
        - a[8] * a[7] * a[14]
        - a[12] * a[6] * a[11]
        + a[12] * a[7] * a[10];
    inv[8] = a[4] * a[9] * a[15] - a[4] * a[11] * a[13] - a[8] * a[5] * a[15]
        + a[8] * a[7] * a[13]
        + a[12] * a[5] * a[11]
        - a[12] * a[7] * a[9];
    inv[12] = -a[4] * a[9] * a[14] + a[4] * a[10] * a[13] + a[8] * a[5] * a[14]
        - a[8] * a[6] * a[13]
        - a[12] * a[5] * a[10]
        + a[12] * a[6] * a[9];
    inv[1] = -a[1] * a[10] * a[15] + a[1] * a[11] * a[14] + a[9] * a[2] * a[15]
        - a[9] * a[3] * a[14]
        - a[13] * a[2] * a[11]
        + a[13] * a[3] * a[10];
    inv[5] = a[0] * a[10] * a[15] - a[0] * a[11] * a[14] - a[8] * a[2] * a[15]
        + a[8] * a[3] * a[14]
        + a[12] * a[2] * a[11]
        - a[12] * a[3] * a[10];
    inv[9] = -a[0] * a[9] * a[15] + a[0] * a[11] * a[13] + a[8] * a[1] * a[15]
        - a[8] * a[3] * a[13]
        - a[12] * a[1] * a[11]
        + a[12] * a[3] * a[9];
    inv[13] = a[0] * a[9] * a[14] - a[0] * a[10] * a[13] - a[8] * a[1] * a[14]
        + a[8] * a[2] * a[13]
        + a[12] * a[1] * a[10]
        - a[12] * a[2] * a[9];
    inv[2] = a[1] * a[6] * a[15] - a[1] * a[7] * a[14] - a[5] * a[2] * a[15]
        + a[5] * a[3] * a[14]
        + a[13] * a[2] * a[7]
        - a[13] * a[3] * a[6];
    inv[6] = -a[0] * a[6] * a[15] + a[0] * a[7] * a[14] + a[4] * a[2] * a[15]
        - a[4] * a[3] * a[14]
        - a[12] * a[2] * a[7]
        + a[12] * a[3] * a[6];
    inv[10] = a[0] * a[5] * a[15] - a[0] * a[7] * a[13] - a[4] * a[1] * a[15]
        + a[4] * a[3] * a[13]
        + a[12] * a[1] * a[7]
        - a[12] * a[3] * a[5];
    inv[14] = -a[0] * a[5] * a[14] + a[0] * a[6] * a[13] + a[4] * a[1] * a[14]
        - a[4] * a[2] * a[13]
        - a[12] * a[1] * a[6]
        + a[12] * a[2] * a[5];
    inv[3] = -a[1] * a[6] * a[11] + a[1] * a[7] * a[10] + a[5] * a[2] * a[11]
        - a[5] * a[3] * a[10]
        - a[9] * a[2] * a[7]
        + a[9] * a[3] * a[6];
    inv[7] = a[0] * a[6] * a[11] - a[0] * a[7] * a[10] - a[4] * a[2] * a[11]
        + a[4] * a[3] * a[10]
        + a[8] * a[2] * a[7]
        - a[8] * a[3] * a[6];
    inv[11] = -a[0] * a[5] * a[11] + a[0] * a[7] * a[9] + a[4] * a[1] * a[11]
        - a[4] * a[3] * a[9]
        - a[8] * a[1] * a[7]
        + a[8] * a[3] * a[5];
    inv[15] = a[0] * a[5] * a[10] - a[0] * a[6] * a[9] - a[4] * a[1] * a[10]
        + a[4] * a[2] * a[9]
        + a[8] * a[1] * a[6]
        - a[8] * a[2] * a[5];
    let det = a[0] * inv[0] + a[1] * inv[4] + a[2] * inv[8] + a[3] * inv[12];
    if det == 0.0 {
        return None;
    }
    let inv_det = 1.0 / det;
    let mut out = [[0.0f32; 4]; 4];
    for (i, x) in inv.iter().enumerate() {
        out[i / 4][i % 4] = x * inv_det;
    }
    Some(out)
}

/// `m · (v, 0)` truncated to three lanes, `m` column-major (`m[column][row]`), as cgmath's
/// `Matrix4::transform_vector`.
#[inline]
pub fn transform_vector(m: &[[f32; 4]; 4], v: &Position) -> Position {
    let row = |r: usize| m[0][r] * v.x + m[1][r] * v.y + m[2][r] * v.z;
    Position {
        x: row(0),
        y: row(1),
        z: row(2),
    }
}

/// The `heavy_compute` body, the same for every library: invert the matrix
/// [`HEAVY_INVERSIONS`] times, then transform the position by the result (ecs_bench_suite:
/// `*mat = mat.invert().unwrap()` 100 times, then `pos.0 = mat.transform_vector(pos.0)`).
#[inline(never)]
pub fn heavy_compute(pos: &mut Position, transform: &mut Transform) {
    // An even number of inversions of a rotation gives back the very same bits, and the
    // rotation leaves `unit_x` where it is: the tests count the calls instead.
    #[cfg(test)]
    HEAVY_CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    for _ in 0..HEAVY_INVERSIONS {
        transform.0 = invert4(&transform.0).expect("a rotation is invertible");
    }
    *pos = transform_vector(&transform.0, pos);
}

/// Calls of [`heavy_compute`] so far (test builds only).
#[cfg(test)]
pub static HEAVY_CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// A `heavy_compute` entity: ecs_bench_suite's `(Matrix4::from_angle_x(Rad(1.2)),
/// Position(unit_x), Rotation(unit_x), Velocity(unit_x))`, the matrix column-major.
pub fn heavy_bundle() -> (Transform, Position, Rotation, Velocity) {
    let (s, c) = 1.2f32.sin_cos();
    let m = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, c, s, 0.0],
        [0.0, -s, c, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ];
    let (_, p, r, v) = transform_bundle();
    (Transform(m), p, r, v)
}

// ---------------------------------------------------------------------------
// schedule (ecs_bench_suite): three systems over (A, B), (C, D), (C, E).
// ---------------------------------------------------------------------------

/// Components of ecs_bench_suite's `schedule` (`A(f32)` .. `E(f32)`), its population and
/// its three systems.
///
/// ecs_bench_suite's systems swapped the two values (`ab`: `swap(a, b)`, `cd`, `ce`), so
/// `cd` and `ce` both wrote `C` and could not run at once. Here each system reads the
/// first component and adds it to the second (`b += a`, `d += c`, `e += c`): the three
/// write `B`, `D`, `E` and only read `A` and `C`, so they are disjoint and all three can
/// run at the same time (every library's scheduler finds that, and `sparse` borrows the
/// three parts with one `borrow`).
pub mod sched {
    component! {
        /// On every entity.
        pub struct A(pub f32);
    }
    component! {
        /// On every entity; written by `ab`.
        pub struct B(pub f32);
    }
    component! {
        /// On three kinds of entity out of four; read by `cd` and `ce`.
        pub struct C(pub f32);
    }
    component! {
        /// On a quarter of the entities; written by `cd`.
        pub struct D(pub f32);
    }
    component! {
        /// On a quarter of the entities; written by `ce`.
        pub struct E(pub f32);
    }

    /// Entities of each of the four kinds: `(A, B)`, `(A, B, C)`, `(A, B, C, D)`,
    /// `(A, B, C, E)` (ecs_bench_suite: 10,000 each).
    pub const PER_KIND: usize = 10_000;

    /// Initial `A` (and what each run adds to every `B`).
    pub const A0: A = A(1.0);
    /// Initial `C` (and what each run adds to every `D` and `E`).
    pub const C0: C = C(2.0);

    /// `(A, B)` entities.
    pub fn ab_bundle() -> (A, B) {
        (A0, B(0.0))
    }
    /// `(A, B, C)` entities.
    pub fn abc_bundle() -> (A, B, C) {
        (A0, B(0.0), C0)
    }
    /// `(A, B, C, D)` entities.
    pub fn abcd_bundle() -> (A, B, C, D) {
        (A0, B(0.0), C0, D(0.0))
    }
    /// `(A, B, C, E)` entities.
    pub fn abce_bundle() -> (A, B, C, E) {
        (A0, B(0.0), C0, E(0.0))
    }

    /// System `ab`: `b += a`.
    #[inline(always)]
    pub fn ab(a: &A, b: &mut B) {
        b.0 += a.0;
    }
    /// System `cd`: `d += c`.
    #[inline(always)]
    pub fn cd(c: &C, d: &mut D) {
        d.0 += c.0;
    }
    /// System `ce`: `e += c`.
    #[inline(always)]
    pub fn ce(c: &C, e: &mut E) {
        e.0 += c.0;
    }

    /// `Σ value(x)` over `values`, in `f64` (test helper).
    pub fn total<T>(values: impl IntoIterator<Item = T>, value: impl Fn(T) -> f32) -> f64 {
        values.into_iter().map(|x| f64::from(value(x))).sum()
    }

    /// `(Σ B, Σ D, Σ E)` after `runs` runs: every `B` grows by `A0` a run, every `D` and
    /// `E` by `C0`.
    pub fn expected_sums(runs: usize) -> (f64, f64, f64) {
        let k = runs as f64;
        let per = PER_KIND as f64;
        (
            4.0 * per * k * f64::from(A0.0),
            per * k * f64::from(C0.0),
            per * k * f64::from(C0.0),
        )
    }
}

/// The realistic frame (`frame` group): seven systems, run in order, over entities of four
/// kinds with mixed component sets, created interleaved (`i % 16`) as a game spawns them.
///
/// ```text
///   kind      share  Pos Vel Data Health Damage Sprite Player
///   hero       1/16   x   x   x     x      x      x      x
///   monster    7/16   x   x         x      x      x      x
///   npc        4/16   x       x     x             x      x
///   particle   4/16   x   x   x                   x
/// ```
///
/// | system | reads and writes | share of entities |
/// | --- | --- | --- |
/// | [`movement`](frame::movement) | `&mut Pos, &Vel` | 12/16 |
/// | [`data`](frame::data) | `&mut Data` (a xorshift step per entity) | 9/16 |
/// | [`more_complex`](frame::more_complex) | `&mut Vel, &Pos, &Data` | 5/16 |
/// | [`health`](frame::health) | `&mut Health` (spawn → alive → dead → spawn) | 12/16 |
/// | [`damage`](frame::damage) | `&mut Health, &Damage` | 8/16 |
/// | [`sprite`](frame::sprite) | `&mut Sprite, &Player, &Health` | 12/16 |
/// | [`render`](frame::render) | `&Pos, &Sprite` into a [`FrameBuffer`](frame::FrameBuffer) | 16/16 |
///
/// Every library's port calls these same functions per entity: each entity's result is the
/// same whatever order a library visits it in, and [`render`](frame::render) keeps the
/// highest glyph per cell, so the frame buffer does not depend on that order either.
/// [`Row`](frame::Row) is one entity's components, compared between ports as a sorted list.
pub mod frame {
    component! {
        /// 8-byte position.
        pub struct Pos {
            pub x: f32,
            pub y: f32,
        }
    }
    component! {
        /// 8-byte velocity.
        pub struct Vel {
            pub x: f32,
            pub y: f32,
        }
    }
    component! {
        /// 24-byte state of an entity that thinks: a xorshift seed and what it drew.
        pub struct Data {
            pub dingy: f64,
            pub thingy: i32,
            pub mingy: u32,
            pub seed: u32,
            pub numgy: u32,
        }
    }
    component! {
        /// Hit points and the life state ([`SPAWN`], [`ALIVE`], [`DEAD`]).
        pub struct Health {
            pub hp: i32,
            pub max_hp: i32,
            pub status: u32,
        }
    }
    component! {
        /// Attack and defence: `atk - def` (at least 0) is taken from the entity's own
        /// health each frame it is alive.
        pub struct Damage {
            pub atk: i32,
            pub def: i32,
        }
    }
    component! {
        /// The glyph [`render`] draws.
        pub struct Sprite {
            pub glyph: u32,
        }
    }
    component! {
        /// Which kind of character ([`HERO`], [`MONSTER`], [`NPC`]).
        pub struct Player {
            pub kind: u32,
        }
    }

    /// Life states of [`Health::status`].
    pub const SPAWN: u32 = 0;
    /// See [`SPAWN`].
    pub const ALIVE: u32 = 1;
    /// See [`SPAWN`].
    pub const DEAD: u32 = 2;
    /// Kinds of [`Player::kind`].
    pub const HERO: u32 = 0;
    /// See [`HERO`].
    pub const MONSTER: u32 = 1;
    /// See [`HERO`].
    pub const NPC: u32 = 2;

    /// Entity counts of the frame's rows.
    pub const SIZES: [usize; 4] = [1 << 14, 1 << 16, 1 << 18, 1 << 20];
    /// Seconds per frame.
    pub const DT: f32 = 1.0 / 60.0;
    /// Width of the frame buffer in cells.
    pub const WIDTH: usize = 256;
    /// Height of the frame buffer in cells.
    pub const HEIGHT: usize = 144;

    /// The kinds of entity, by what they hold.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Kind {
        /// Every component.
        Hero,
        /// No `Data`.
        Monster,
        /// No `Vel`, no `Damage`.
        Npc,
        /// No `Health`, `Damage` or `Player`.
        Particle,
        /// `Pos`, `Vel` and `Sprite` only.
        Shard,
    }

    /// Which kinds of entity a frame holds, and how many of each.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Mix {
        /// The realistic frame: of every 16 entities 1 hero, 7 monsters, 4 NPCs and 4
        /// particles (7, 6, 5 and 4 components).
        Realistic,
        /// The second frame, with another mix: half the entities with all seven
        /// components, the rest with three, a few missing one — of every 32, 15 heroes,
        /// 1 monster (no `Data`) and 16 shards (`Pos`, `Vel`, `Sprite`).
        Halves,
    }

    /// The kind of the `i`-th entity created in the realistic frame.
    #[inline]
    pub fn kind(i: usize) -> Kind {
        kind_in(Mix::Realistic, i)
    }

    /// The kind of the `i`-th entity created in a frame of `mix`.
    #[inline]
    pub fn kind_in(mix: Mix, i: usize) -> Kind {
        match mix {
            Mix::Realistic => match i % 16 {
                0 => Kind::Hero,
                1..=7 => Kind::Monster,
                8..=11 => Kind::Npc,
                _ => Kind::Particle,
            },
            Mix::Halves => match i % 32 {
                0..=14 => Kind::Hero,
                15 => Kind::Monster,
                _ => Kind::Shard,
            },
        }
    }

    /// The `i`-th entity's starting components in the realistic frame.
    #[inline]
    pub fn spawn_row(i: usize) -> Row {
        spawn_row_in(Mix::Realistic, i)
    }

    /// The `i`-th entity's starting components in a frame of `mix` (`None` where its kind
    /// lacks one).
    #[inline]
    pub fn spawn_row_in(mix: Mix, i: usize) -> Row {
        let k = kind_in(mix, i);
        let f = i as f32;
        let pos = Pos {
            x: (i % 1000) as f32,
            y: (i / 1000 % 1000) as f32,
        };
        let vel = Vel {
            x: ((i % 7) as f32 - 3.0) * 0.5 + f * 1e-7,
            y: ((i % 5) as f32 - 2.0) * 0.5,
        };
        let data = Data {
            dingy: 0.0,
            thingy: (i % 1000) as i32,
            mingy: 0,
            seed: (i as u32).wrapping_mul(2_654_435_761) | 1,
            numgy: 0,
        };
        let health = Health {
            hp: 50 + (i % 51) as i32,
            max_hp: 100,
            status: SPAWN,
        };
        let damage = Damage {
            atk: 1 + (i % 5) as i32,
            def: (i % 3) as i32,
        };
        let sprite = Sprite { glyph: b' ' as u32 };
        let player = |kind| Some(Player { kind });
        match k {
            Kind::Hero => Row {
                pos: Some(pos),
                vel: Some(vel),
                data: Some(data),
                health: Some(health),
                damage: Some(damage),
                sprite: Some(sprite),
                player: player(HERO),
            },
            Kind::Monster => Row {
                pos: Some(pos),
                vel: Some(vel),
                data: None,
                health: Some(health),
                damage: Some(damage),
                sprite: Some(sprite),
                player: player(MONSTER),
            },
            Kind::Npc => Row {
                pos: Some(pos),
                vel: None,
                data: Some(data),
                health: Some(health),
                damage: None,
                sprite: Some(sprite),
                player: player(NPC),
            },
            Kind::Particle => Row {
                pos: Some(pos),
                vel: Some(vel),
                data: Some(data),
                health: None,
                damage: None,
                sprite: Some(sprite),
                player: None,
            },
            Kind::Shard => Row {
                pos: Some(pos),
                vel: Some(vel),
                sprite: Some(sprite),
                ..Row::default()
            },
        }
    }

    /// Creates entities `0..n` in order, each with its kind's components: evaluates `body`
    /// once per entity with `bundle` bound to a tuple of them (a different tuple type per
    /// kind, hence a macro), in the order `(Pos, Vel, Data, Health, Damage, Sprite, Player)`
    /// less what the kind lacks.
    /// `spawn_each!(n, mix, |bundle| body)`: the entities of a frame of `mix` (without
    /// it, the realistic frame's).
    macro_rules! spawn_each {
        ($n:expr, |$bundle:ident| $body:expr) => {
            spawn_each!($n, $crate::components::frame::Mix::Realistic, |$bundle| {
                $body
            })
        };
        ($n:expr, $mix:expr, |$bundle:ident| $body:expr) => {
            let mix = $mix;
            for i in 0..$n {
                let r = $crate::components::frame::spawn_row_in(mix, i);
                let some = "its kind has it";
                let (pos, sprite) = (r.pos.expect(some), r.sprite.expect(some));
                match $crate::components::frame::kind_in(mix, i) {
                    $crate::components::frame::Kind::Hero => {
                        let $bundle = (
                            pos,
                            r.vel.expect(some),
                            r.data.expect(some),
                            r.health.expect(some),
                            r.damage.expect(some),
                            sprite,
                            r.player.expect(some),
                        );
                        $body
                    }
                    $crate::components::frame::Kind::Monster => {
                        let $bundle = (
                            pos,
                            r.vel.expect(some),
                            r.health.expect(some),
                            r.damage.expect(some),
                            sprite,
                            r.player.expect(some),
                        );
                        $body
                    }
                    $crate::components::frame::Kind::Npc => {
                        let $bundle = (
                            pos,
                            r.data.expect(some),
                            r.health.expect(some),
                            sprite,
                            r.player.expect(some),
                        );
                        $body
                    }
                    $crate::components::frame::Kind::Particle => {
                        let $bundle = (pos, r.vel.expect(some), r.data.expect(some), sprite);
                        $body
                    }
                    $crate::components::frame::Kind::Shard => {
                        let $bundle = (pos, r.vel.expect(some), sprite);
                        $body
                    }
                }
            }
        };
    }
    pub(crate) use spawn_each;

    /// One entity's components, as every port reports them for the check.
    #[derive(Clone, Copy, Debug, Default, PartialEq)]
    pub struct Row {
        pub pos: Option<Pos>,
        pub vel: Option<Vel>,
        pub data: Option<Data>,
        pub health: Option<Health>,
        pub damage: Option<Damage>,
        pub sprite: Option<Sprite>,
        pub player: Option<Player>,
    }

    impl Row {
        /// The row of an entity's components as a query of seven options yields them.
        #[allow(clippy::type_complexity)]
        pub fn of(
            (pos, vel, data, health, damage, sprite, player): (
                Option<&Pos>,
                Option<&Vel>,
                Option<&Data>,
                Option<&Health>,
                Option<&Damage>,
                Option<&Sprite>,
                Option<&Player>,
            ),
        ) -> Row {
            Row {
                pos: pos.copied(),
                vel: vel.copied(),
                data: data.copied(),
                health: health.copied(),
                damage: damage.copied(),
                sprite: sprite.copied(),
                player: player.copied(),
            }
        }

        /// The row's bits, for sorting rows into one order whatever order a port listed
        /// them in.
        pub fn key(&self) -> Vec<u64> {
            let mut k = Vec::with_capacity(20);
            let mut opt = |present: bool, fields: &[u64]| {
                k.push(u64::from(present));
                if present {
                    k.extend_from_slice(fields);
                }
            };
            let p = self.pos.unwrap_or_default();
            opt(
                self.pos.is_some(),
                &[p.x.to_bits().into(), p.y.to_bits().into()],
            );
            let v = self.vel.unwrap_or_default();
            opt(
                self.vel.is_some(),
                &[v.x.to_bits().into(), v.y.to_bits().into()],
            );
            let d = self.data.unwrap_or_default();
            opt(
                self.data.is_some(),
                &[
                    d.dingy.to_bits(),
                    d.thingy as u32 as u64,
                    d.mingy.into(),
                    d.seed.into(),
                    d.numgy.into(),
                ],
            );
            let h = self.health.unwrap_or_default();
            opt(
                self.health.is_some(),
                &[h.hp as u32 as u64, h.max_hp as u32 as u64, h.status.into()],
            );
            let g = self.damage.unwrap_or_default();
            opt(
                self.damage.is_some(),
                &[g.atk as u32 as u64, g.def as u32 as u64],
            );
            opt(
                self.sprite.is_some(),
                &[self.sprite.unwrap_or_default().glyph.into()],
            );
            opt(
                self.player.is_some(),
                &[self.player.unwrap_or_default().kind.into()],
            );
            k
        }
    }

    /// The cells [`render`] draws into, cleared at the start of each render.
    pub struct FrameBuffer {
        pub cells: Vec<u32>,
    }

    impl Default for FrameBuffer {
        fn default() -> Self {
            FrameBuffer {
                cells: vec![0; WIDTH * HEIGHT],
            }
        }
    }

    impl FrameBuffer {
        /// Blanks every cell (the start of [`render`]).
        #[inline]
        pub fn clear(&mut self) {
            self.cells.fill(0);
        }
    }

    /// Runs one frame: each of a port's seven systems once, in order.
    pub fn run_systems<S>(s: &mut S, systems: &[fn(&mut S); 7]) {
        for system in systems {
            system(s);
        }
    }

    /// A port's `systems` with `render` in place of its render system (a port's
    /// `RENDER_BRANCH_FREE`).
    pub fn with_render<S>(mut systems: [fn(&mut S); 7], render: fn(&mut S)) -> [fn(&mut S); 7] {
        systems[6] = render;
        systems
    }

    /// System 1: `pos += vel * DT`.
    #[inline(always)]
    pub fn movement(p: &mut Pos, v: &Vel) {
        p.x += v.x * DT;
        p.y += v.y * DT;
    }

    /// System 2: one xorshift32 step and what the entity makes of the number it drew.
    #[inline(always)]
    pub fn data(d: &mut Data) {
        let mut s = d.seed;
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        d.seed = s;
        d.numgy = s % 100;
        d.thingy = (d.thingy + 1) % 1_000_000;
        d.mingy ^= 1;
        d.dingy += 0.0001 * f64::from(d.thingy);
    }

    /// System 3: an entity that thinks turns when it drew a low number and bounces off the
    /// edges of a 1000 × 1000 field.
    #[inline(always)]
    pub fn more_complex(v: &mut Vel, p: &Pos, d: &Data) {
        if d.numgy < 5 {
            core::mem::swap(&mut v.x, &mut v.y);
        }
        if (p.x < 0.0 && v.x < 0.0) || (p.x > 1000.0 && v.x > 0.0) {
            v.x = -v.x;
        }
        if (p.y < 0.0 && v.y < 0.0) || (p.y > 1000.0 && v.y > 0.0) {
            v.y = -v.y;
        }
    }

    /// System 4: the life state machine.
    #[inline(always)]
    pub fn health(h: &mut Health) {
        match h.status {
            SPAWN => h.status = ALIVE,
            ALIVE => {
                if h.hp <= 0 {
                    h.status = DEAD;
                }
            }
            _ => {
                h.hp = h.max_hp;
                h.status = SPAWN;
            }
        }
    }

    /// System 5: a living entity takes `atk - def` (at least 0) off its hit points.
    #[inline(always)]
    pub fn damage(h: &mut Health, d: &Damage) {
        if h.status == ALIVE {
            h.hp -= (d.atk - d.def).max(0);
        }
    }

    /// System 6: the glyph from the kind and the life state.
    #[inline(always)]
    pub fn sprite(s: &mut Sprite, p: &Player, h: &Health) {
        s.glyph = match h.status {
            SPAWN => u32::from(b'_'),
            DEAD => u32::from(b'x'),
            _ => match p.kind {
                HERO => u32::from(b'@'),
                MONSTER => u32::from(b'M'),
                _ => u32::from(b'N'),
            },
        };
    }

    /// System 7: draws the glyph into the cell under the position, keeping the highest
    /// glyph of a cell (so that the picture does not depend on the order of the walk).
    #[inline(always)]
    pub fn render(fb: &mut FrameBuffer, p: &Pos, s: &Sprite) {
        let cell = &mut fb.cells[cell_index(p)];
        *cell = (*cell).max(s.glyph);
    }

    /// [`render`] with the cell's maximum taken without a branch: what `render` costs when
    /// the order of the walk cannot matter to it. LLVM compiles `render`'s `max` (and
    /// `core::hint::select_unpredictable`) into a conditional jump in every port, whose
    /// prediction depends on which glyphs reach a cell in which order, that is on the
    /// walk's order of kinds (docs/performance.md, "The render system's branch").
    #[inline(always)]
    pub fn render_branch_free(fb: &mut FrameBuffer, p: &Pos, s: &Sprite) {
        let cell = &mut fb.cells[cell_index(p)];
        *cell = max_branch_free(*cell, s.glyph);
    }

    /// The cell under `p`.
    #[inline(always)]
    fn cell_index(p: &Pos) -> usize {
        let x = (p.x as i32).rem_euclid(WIDTH as i32) as usize;
        let y = (p.y as i32).rem_euclid(HEIGHT as i32) as usize;
        y * WIDTH + x
    }

    /// `a.max(b)` by a conditional move, which no optimiser turns into a jump.
    #[inline(always)]
    fn max_branch_free(a: u32, b: u32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            let mut a = a;
            // SAFETY: two register instructions: no memory, no stack, flags only.
            unsafe {
                core::arch::asm!(
                    "cmp {a:e}, {b:e}",
                    "cmovb {a:e}, {b:e}",
                    a = inout(reg) a,
                    b = in(reg) b,
                    options(pure, nomem, nostack),
                );
            }
            a
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            a.max(b)
        }
    }
}

/// Entity counts for each workload.
pub mod sizes {
    /// W1 and W2.
    pub const W1: usize = 1_000_000;
    /// W1 10M variant.
    pub const W1_10M: usize = 10_000_000;
    /// W2.
    pub const W2: usize = 1_000_000;
    /// W2 10M variant.
    pub const W2_10M: usize = 10_000_000;
    /// Elements of each `f64` array of the bandwidth kernels (128 MiB an array: far
    /// beyond any cache).
    pub const STREAM: usize = 1 << 24;
    /// W3.
    pub const W3: usize = 10_000;
    /// W4 (`simple_insert`).
    pub const W4: usize = 10_000;
    /// ecs_bench_suite `simple_iter`.
    pub const SIMPLE_ITER: usize = 10_000;
    /// ecs_bench_suite `add_remove_component`.
    pub const ADD_REMOVE: usize = 10_000;
    /// W5 (half of them frozen).
    pub const W5: usize = 1_000_000;
    /// W6.
    pub const W6: usize = 10_000;
    /// `serde_3deep`.
    pub const SERDE: usize = 1_000_000;
    /// `serde_3deep_interleaved`: smaller, because hecs' load of it is quadratic in it.
    pub const SERDE_INTERLEAVED: usize = 250_000;
    /// `view_overlap`: entities with `A`, and entities with `B` (half of each shared).
    pub const VIEW_OVERLAP: usize = 1_000_000;
    /// ecs_bench_suite `heavy_compute`.
    pub const HEAVY_COMPUTE: usize = 1_000;
    /// ecs_bench_suite `serialize_binary`.
    pub const SERIALIZE: usize = 1_000;
}
