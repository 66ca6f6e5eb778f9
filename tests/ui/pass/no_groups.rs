//! A world without groups: plain storages, each sortable on its own.

use sparse_groups::{Component, Storage, world};

#[derive(Component, Debug, PartialEq)]
struct A(u32);
#[derive(Component, Debug, PartialEq)]
struct B(u32);

#[world]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
}

pub fn main() {
    let mut scene = Scene::new();
    let es: Vec<_> = (0..4).map(|_| scene.spawn()).collect();
    for (i, &e) in es.iter().enumerate() {
        scene.insert(e, A(i as u32)).unwrap();
        if i % 2 == 0 {
            scene.insert(e, B(i as u32)).unwrap();
        }
    }
    assert_eq!(scene.a().len(), 4);
    assert_eq!(scene.b().len(), 2);
    assert!(scene.contains::<B>(es[2]) && !scene.contains::<B>(es[1]));
    scene.sort::<A>(|x, y| y.0.cmp(&x.0));
    assert_eq!(scene.storage::<A>().components(), &[A(3), A(2), A(1), A(0)]);
    let mut seen = 0;
    scene.view::<(&mut A, &B)>().for_each(|_, (a, b)| {
        a.0 += b.0;
        seen += 1;
    });
    assert_eq!(seen, 2);
    assert_eq!(scene.get::<A>(es[2]), Some(&A(4)));
    if let Some(b) = scene.get_mut::<B>(es[0]) {
        b.0 = 7;
    }
    assert_eq!(scene.remove::<B>(es[0]), Some(B(7)));
    scene.destroy(es[1]).unwrap();
    assert_eq!(scene.a().len(), 3);
    scene.check().unwrap();
}
