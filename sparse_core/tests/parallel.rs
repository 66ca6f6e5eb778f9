//! Parallel loops give what the serial ones give, for every group kind and for views, and a
//! panicking closure leaves the world consistent.
#![cfg(feature = "rayon")]

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use sparse_core::{Component, Entity, Exclude, Get, GroupSpec, View, With, Without, World};

#[derive(Debug, Clone, Copy, PartialEq)]
struct A(u64);
#[derive(Debug, Clone, Copy, PartialEq)]
struct B(u64);
#[derive(Debug, Clone, Copy, PartialEq)]
struct C(u64);
#[derive(Debug, Clone, Copy, PartialEq)]
struct D(u64);
#[derive(Debug, Clone, Copy, PartialEq)]
struct X;
impl Component for A {}
impl Component for B {}
impl Component for C {}
impl Component for D {}
impl Component for X {}

type Ab = (A, B);
type Abc = (A, B, C);
type DgetAnotX = (D, Get<A>, Exclude<X>);
type GetBc = Get<(B, C)>;

/// 50,000 entities (many chunks): all have `A`, 2/3 `B`, 1/2 `C`, 1/4 `D`, 1/5 `X`.
fn world() -> (World, Vec<Entity>) {
    let mut w = World::with_groups([
        GroupSpec::of::<Ab>(),
        GroupSpec::of::<Abc>(),
        GroupSpec::of::<DgetAnotX>(),
        GroupSpec::of::<GetBc>(),
    ])
    .unwrap();
    let mut entities = Vec::new();
    for i in 0..50_000u64 {
        let e = w.spawn_with((A(i),));
        if i % 3 != 0 {
            w.insert(e, B(i * 2)).unwrap();
        }
        if i % 2 == 0 {
            w.insert(e, C(i * 3)).unwrap();
        }
        if i % 4 == 1 {
            w.insert(e, D(i)).unwrap();
        }
        if i % 5 == 0 {
            w.insert(e, X).unwrap();
        }
        entities.push(e);
    }
    (w, entities)
}

fn values<T: Component + Copy>(w: &World) -> Vec<(Entity, T)> {
    w.storage::<T>()
        .unwrap()
        .iter()
        .map(|(e, v)| (e, *v))
        .collect()
}

#[test]
fn parallel_group_loops_write_what_serial_ones_write() {
    let (mut serial, _) = world();
    let (mut parallel, _) = world();
    serial.group::<Abc>().unwrap().for_each(|_, (a, b, c)| {
        a.0 += b.0 + c.0;
    });
    parallel
        .group::<Abc>()
        .unwrap()
        .par_for_each(|_, (a, b, c)| {
            a.0 += b.0 + c.0;
        });
    // A partial-owning group writes its observed type too.
    serial.group::<DgetAnotX>().unwrap().for_each(|_, (d, a)| {
        d.0 += 1;
        a.0 *= 3;
    });
    parallel
        .group::<DgetAnotX>()
        .unwrap()
        .par_for_each(|_, (d, a)| {
            d.0 += 1;
            a.0 *= 3;
        });
    assert_eq!(values::<A>(&serial), values::<A>(&parallel));
    assert_eq!(values::<D>(&serial), values::<D>(&parallel));
    parallel.check().unwrap();
}

#[test]
fn parallel_read_only_groups_see_every_member_once() {
    let (w, _) = world();
    for_each_kind(&w);
}

fn for_each_kind(w: &World) {
    macro_rules! same {
        ($K:ty, |$e:ident, $item:pat_param| $value:expr) => {{
            let mut serial = Vec::new();
            w.group_ref::<$K>()
                .unwrap()
                .for_each(|$e, $item| serial.push(($e, $value)));
            let parallel = Mutex::new(Vec::new());
            w.group_ref::<$K>()
                .unwrap()
                .par_for_each(|$e, $item| parallel.lock().unwrap().push(($e, $value)));
            let mut parallel = parallel.into_inner().unwrap();
            parallel.sort_unstable();
            serial.sort_unstable();
            assert!(!serial.is_empty());
            assert_eq!(serial, parallel);
        }};
    }
    same!(Ab, |e, (a, b)| a.0 + b.0);
    same!(Abc, |e, (a, _, c)| a.0 * c.0);
    same!(DgetAnotX, |e, (d, a)| d.0 + a.0);
    same!(GetBc, |e, (b, c)| b.0 ^ c.0);
}

#[test]
fn parallel_views_match_serial_views_dense_or_not() {
    let (mut serial, _) = world();
    let (mut parallel, _) = world();
    macro_rules! both {
        ($V:ty, |$e:pat_param, $item:pat_param| $body:expr) => {{
            let view = serial.borrow::<$V>().unwrap();
            let dense = view.is_dense();
            view.for_each(|$e, $item| $body);
            let view = parallel.borrow::<$V>().unwrap();
            assert_eq!(view.is_dense(), dense);
            view.par_for_each(|$e, $item| $body);
            dense
        }};
    }
    // Dense: `<A, B>` owns both leaves.
    assert!(both!(View<(&mut A, &B)>, |_, (a, b)| a.0 += b.0));
    // Looked up, with filters and an optional leaf.
    both!(View<(&mut C, Option<&B>), (With<A>, Without<X>)>, |_,
                                                              (
        c,
        b,
    )| {
        c.0 += b.map_or(7, |b| b.0);
    });
    both!(View<(&mut B, &C)>, |e, (b, c)| b.0 =
        b.0 * 5 + c.0 + u64::from(e.index()));
    assert_eq!(values::<A>(&serial), values::<A>(&parallel));
    assert_eq!(values::<B>(&serial), values::<B>(&parallel));
    assert_eq!(values::<C>(&serial), values::<C>(&parallel));
    // Read-only views too.
    let sum = AtomicU64::new(0);
    parallel
        .view_ref::<(&A, &C)>()
        .unwrap()
        .par_for_each(|_, (a, c)| {
            sum.fetch_add(a.0 ^ c.0, Ordering::Relaxed);
        });
    let mut expected = 0;
    serial
        .view_ref::<(&A, &C)>()
        .unwrap()
        .for_each(|_, (a, c)| expected += a.0 ^ c.0);
    assert_eq!(sum.into_inner(), expected);
}

#[test]
fn a_panicking_parallel_closure_leaves_the_world_consistent() {
    let (mut w, entities) = world();
    let victim = entities[31_336];
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        w.group::<Ab>().unwrap().par_for_each(|e, (a, _)| {
            assert!(e != victim, "a failing system");
            a.0 += 1;
        });
    }));
    assert!(outcome.is_err());
    w.check().unwrap();
    // Every value is either untouched or written once.
    for (i, &e) in entities.iter().enumerate() {
        let a = w.get::<A>(e).unwrap().0;
        assert!(a == i as u64 || a == i as u64 + 1, "{e:?}: {a}");
    }
    assert_eq!(w.get::<A>(victim), Some(&A(31_336)));
    // And the world goes on.
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        w.view::<(&mut C, &A)>().unwrap().par_for_each(|e, (c, _)| {
            assert!(e != victim, "again");
            c.0 = 0;
        });
    }));
    assert!(outcome.is_err());
    w.destroy(victim).unwrap();
    w.check().unwrap();
    for_each_kind(&w);
}
