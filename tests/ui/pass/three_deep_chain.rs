//! A chain <A, B> ⊂ <A, B, C> ⊂ <A, B, C, D>: inserts, removes and destroys keep every
//! group the packed prefix of its storages.

use sparse_groups::{Component, Entity, Storage, world};

#[derive(Component, Debug, PartialEq)]
struct A(u32);
#[derive(Component, Debug, PartialEq)]
struct B(u32);
#[derive(Component, Debug, PartialEq)]
struct C(u32);
#[derive(Component, Debug, PartialEq)]
struct D(u32);

#[world]
#[group(A, B)]
#[group(A, B, C)]
#[group(A, B, C, D)]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
    d: Storage<D>,
}

fn lens(scene: &Scene) -> (usize, usize, usize) {
    (
        scene.group_len::<(A, B)>(),
        scene.group_len::<(A, B, C)>(),
        scene.group_len::<(A, B, C, D)>(),
    )
}

pub fn main() {
    let mut scene = Scene::new();
    let es: Vec<Entity> = (0..6).map(|_| scene.spawn()).collect();
    for (i, &e) in es.iter().enumerate() {
        let i = i as u32;
        // Inserted innermost type first, so each entity enters the chain all at once.
        if i >= 3 {
            scene.insert(e, D(i)).unwrap();
        }
        if i >= 2 {
            scene.insert(e, C(i)).unwrap();
        }
        scene.insert(e, B(i)).unwrap();
        scene.insert(e, A(i)).unwrap();
        scene.check().unwrap();
    }
    assert_eq!(lens(&scene), (6, 4, 3));

    // Leaving the middle group leaves the innermost one too.
    assert_eq!(scene.remove::<C>(es[4]), Some(C(4)));
    assert_eq!(lens(&scene), (6, 3, 2));
    scene.check().unwrap();

    // Leaving the outermost group leaves every group.
    assert_eq!(scene.remove::<A>(es[5]), Some(A(5)));
    assert_eq!(lens(&scene), (5, 2, 1));
    scene.check().unwrap();

    // Destroying leaves every group innermost first.
    scene.destroy(es[3]).unwrap();
    assert_eq!(lens(&scene), (4, 1, 0));
    assert!(!scene.is_alive(es[3]));
    scene.check().unwrap();

    // Re-entering: D alone completes the innermost group again.
    scene.insert(es[2], D(20)).unwrap();
    assert_eq!(lens(&scene), (4, 1, 1));
    assert_eq!(scene.group::<(A, B, C, D)>().entities(), &[es[2]]);
    let (entities, (a, b, c)) = scene.group::<(A, B, C)>().into_slices();
    assert_eq!(entities, &[es[2]]);
    assert_eq!((&a[0], &b[0], &c[0]), (&A(2), &B(2), &C(2)));
    assert_eq!(scene.get::<D>(es[2]), Some(&D(20)));
    scene.check().unwrap();

    for &e in &es {
        if scene.is_alive(e) {
            scene.destroy(e).unwrap();
        }
    }
    assert_eq!(lens(&scene), (0, 0, 0));
    assert!(scene.a().is_empty() && scene.d().is_empty());
    scene.check().unwrap();
}
