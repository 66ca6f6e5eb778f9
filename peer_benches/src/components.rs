//! Component types shared by every library under test.
//!
//! Each type is a plain `#[repr(C)]` `Copy` struct. sparsey and hecs accept any
//! `Send + Sync + 'static` type; shipyard and bevy_ecs need their `Component`
//! derive, and so does `sparse`, so every type derives all three (they do not
//! interfere: each derive only implements its own crate's trait).

/// Declares one component struct with the derives every library needs.
macro_rules! component {
    ($(#[$meta:meta])* pub struct $($rest:tt)*) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, bevy_ecs::component::Component, shipyard::Component, sparse_groups::Component)]
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
/// with `C` (the `C` ones all have `B`), in one of two [`Order`]s.
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
}
