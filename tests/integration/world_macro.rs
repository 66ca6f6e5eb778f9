//! Integration tests of `#[world]` worlds.

use sparse_groups::{Component, Entity, EntityError, Storage, world};

#[derive(Component, Debug, PartialEq, Clone, Copy)]
struct A(u32);
#[derive(Component, Debug, PartialEq, Clone, Copy)]
struct B(u32);
#[derive(Component, Debug, PartialEq, Clone, Copy)]
struct C(u32);
#[derive(Component, Debug, PartialEq, Clone, Copy)]
struct D(u32);

#[world]
#[group(A, B, C)]
#[group(A, B)]
struct Abc {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
    d: Storage<D>,
}

/// The article's example: e8 has A and C, then gets B. Entering `<A,B>` before
/// `<A,B,C>` keeps e4 in `<A,B>`.
#[test]
fn article_e8_e4_example() {
    let mut w = Abc::new();
    let e: Vec<Entity> = (0..9).map(|_| w.spawn()).collect();
    for (i, v) in [(4, 4), (7, 1), (3, 0), (8, 2), (6, 3)] {
        w.insert(e[i], A(v)).unwrap();
    }
    for (i, v) in [(4, 0), (7, 2), (5, 1)] {
        w.insert(e[i], B(v)).unwrap();
    }
    for (i, v) in [(6, 2), (8, 0), (5, 1)] {
        w.insert(e[i], C(v)).unwrap();
    }
    assert_eq!(w.group_len::<(A, B)>(), 2);
    assert_eq!(w.group_len::<(A, B, C)>(), 0);
    w.insert(e[8], B(3)).unwrap();
    assert_eq!(w.group_len::<(A, B)>(), 3);
    assert_eq!(w.group_len::<(A, B, C)>(), 1);
    assert!(w.group::<(A, B)>().entities().contains(&e[4]));
    assert_eq!(w.group::<(A, B, C)>().entities(), &[e[8]]);
    w.check().unwrap();
}

#[test]
fn bad_input_is_refused_and_loses_nothing() {
    let mut w = Abc::new();
    let x = w.spawn();
    w.insert(x, A(1)).unwrap();
    assert_eq!(
        w.insert(x, A(2)),
        Ok(Some(A(1))),
        "double insert replaces and returns the old value"
    );
    w.destroy(x).unwrap();
    assert_eq!(w.destroy(x), Err(EntityError::Dead(x)));
    assert_eq!(w.insert(x, B(1)), Err(EntityError::Dead(x)));
    assert_eq!(w.remove::<A>(x), None);
    assert_eq!(w.get::<A>(x), None);
    let y = w.spawn();
    assert_eq!(y.index(), x.index());
    assert_eq!(
        w.get::<A>(y),
        None,
        "the new entity does not inherit the stale one's data"
    );
    assert_eq!(w.remove::<B>(y), None, "absent component");
    w.check().unwrap();
}

#[test]
fn group_slices_views_and_sorting() {
    let mut w = Abc::new();
    let es: Vec<Entity> = (0..10).map(|_| w.spawn()).collect();
    for (i, &e) in es.iter().enumerate() {
        let i = i as u32;
        w.insert(e, A(10 - i)).unwrap();
        w.insert(e, B(i)).unwrap();
        if i.is_multiple_of(2) {
            w.insert(e, C(i)).unwrap();
        }
        if i.is_multiple_of(3) {
            w.insert(e, D(i)).unwrap();
        }
    }
    let (entities, (a, b)) = w.group::<(A, B)>().into_slices();
    assert_eq!(entities.len(), 10);
    for (a, b) in a.iter_mut().zip(b.iter()) {
        a.0 += b.0;
    }
    assert!(w.values_mut::<A>().values().iter().all(|a| a.0 == 10));
    w.sort_group::<(A, B)>(|(_, x), (_, y)| y.0.cmp(&x.0));
    w.check().unwrap();
    let inner = w.group_len::<(A, B, C)>();
    assert_eq!(inner, 5);
    let (_, (_, b)) = w.group::<(A, B)>().into_slices();
    assert!(b[..inner].windows(2).all(|p| p[0].0 >= p[1].0));
    assert!(b[inner..].windows(2).all(|p| p[0].0 >= p[1].0));
    let mut seen = 0;
    w.view::<(&mut A, &D)>().for_each(|_, (a, d)| {
        a.0 = d.0;
        seen += 1;
    });
    assert_eq!(seen, 4);
    w.sort::<D>(|x, y| y.0.cmp(&x.0));
    assert_eq!(w.storage::<D>().components(), &[D(9), D(6), D(3), D(0)]);
    w.check().unwrap();
}

#[test]
fn spawning_with_bundles_enters_groups() {
    let mut w = Abc::new();
    let e = w.spawn_with((A(1), B(2), C(3)));
    assert_eq!(w.group::<(A, B, C)>().entities(), &[e]);
    let batch = w.spawn_batch((0..100).map(|i| (D(i), B(i), A(i))));
    assert_eq!(batch.len(), 100);
    assert_eq!(w.group_len::<(A, B)>(), 101);
    assert_eq!(w.group_len::<(A, B, C)>(), 1);
    assert_eq!(w.get::<D>(batch[7]), Some(&D(7)));
    w.insert(batch[7], C(0)).unwrap();
    assert_eq!(w.group_len::<(A, B, C)>(), 2);
    w.check().unwrap();
}

/// A component whose `Drop` panics when told to.
#[derive(Component)]
struct Fragile(bool);

impl Drop for Fragile {
    fn drop(&mut self) {
        if self.0 && !std::thread::panicking() {
            panic!("fragile component dropped");
        }
    }
}

#[world]
#[group(B, C)]
struct WithFragile {
    fragile: Storage<Fragile>,
    b: Storage<B>,
    c: Storage<C>,
}

#[test]
fn a_panicking_drop_during_destroy_leaves_the_world_consistent() {
    let mut w = WithFragile::new();
    let e = w.spawn();
    let other = w.spawn_with((B(2), C(2)));
    w.insert(e, Fragile(true)).unwrap();
    w.insert(e, B(1)).unwrap();
    w.insert(e, C(1)).unwrap();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| w.destroy(e)));
    assert!(result.is_err());
    assert!(!w.is_alive(e));
    assert_eq!(w.group::<(B, C)>().entities(), &[other]);
    w.check().unwrap();
}

/// `#[derive(Component)]` on a generic type with a where clause.
#[derive(Component)]
struct Tagged<T>
where
    T: Clone,
{
    value: T,
}

#[test]
fn generic_components_derive() {
    let mut s = Storage::new();
    s.insert(Entity::from_raw_parts(0, 1).unwrap(), Tagged { value: 3u8 });
    fn assert_component<T: Component>() {}
    assert_component::<Tagged<u8>>();
    assert_eq!(s.components()[0].value, 3);
}

/// An iterator whose lower size bound is absurd: `spawn_batch` must neither panic nor
/// abort on it (every reservation from the hint is fallible).
struct LyingHint(u32);

impl Iterator for LyingHint {
    type Item = (A, B);
    fn next(&mut self) -> Option<(A, B)> {
        (self.0 > 0).then(|| {
            self.0 -= 1;
            (A(self.0), B(self.0))
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (usize::MAX / 2, None)
    }
}

#[test]
fn spawn_batch_survives_an_absurd_size_hint() {
    let mut w = Abc::new();
    let spawned = w.spawn_batch(LyingHint(3));
    assert_eq!(spawned.len(), 3);
    assert_eq!(w.group_len::<(A, B)>(), 3);
    w.check().unwrap();
}

/// Components are `Send + Sync`, so both kinds of world can be handed to other threads.
#[test]
fn worlds_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Abc>();
    assert_send_sync::<WithFragile>();
    assert_send_sync::<sparse_groups::World>();
    let mut world = Abc::new();
    let e = world.spawn_with((A(1), B(2)));
    let world = std::thread::spawn(move || {
        world.insert(e, C(3)).unwrap();
        world
    })
    .join()
    .unwrap();
    assert_eq!(world.group_len::<(A, B, C)>(), 1);
}

/// A batch whose iterator panics half-way: the entities spawned so far stay alive with no
/// component, and every storage is consistent again (the pending rows are dropped).
#[test]
fn a_panicking_spawn_batch_leaves_the_world_consistent() {
    let mut w = Abc::new();
    let kept = w.spawn_with((A(0), B(0)));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        w.spawn_batch((1..=3).map(|i| {
            assert!(i < 3, "the iterator fails");
            (A(i), B(i))
        }))
    }));
    assert!(result.is_err());
    assert_eq!(w.entities().len(), 3);
    assert_eq!(w.group::<(A, B)>().entities(), &[kept]);
    w.check().unwrap();
    // The storages take new rows after the failed batch.
    let spawned = w.spawn_batch((4..6).map(|i| (A(i), B(i))));
    assert_eq!(w.group_len::<(A, B)>(), 3);
    assert_eq!(w.get::<A>(spawned[1]), Some(&A(5)));
    w.check().unwrap();
}
