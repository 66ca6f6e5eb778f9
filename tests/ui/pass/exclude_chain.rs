//! An exclude chain: the inner group excludes more. Adding an excluded type leaves the
//! inner group before the outer one; removing it enters them outer first.
// The case is that this compiles: its components' values are never read.
#![allow(dead_code)]

use sparse_groups::{Component, Exclude, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);
#[derive(Component)]
struct Hidden;
#[derive(Component)]
struct Dead;

#[world]
#[group(A, B, exclude(Dead))]
#[group(A, B, exclude(Dead, Hidden))]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
    hidden: Storage<Hidden>,
    dead: Storage<Dead>,
}

type Alive = (A, B, Exclude<Dead>);
type Shown = (A, B, Exclude<(Dead, Hidden)>);

pub fn main() {
    let mut scene = Scene::new();
    let x = scene.spawn_with((A(0), B(0)));
    let y = scene.spawn_with((A(1), B(1)));
    assert_eq!(
        (scene.group_len::<Alive>(), scene.group_len::<Shown>()),
        (2, 2)
    );
    scene.insert(x, Hidden).unwrap();
    assert_eq!(
        (scene.group_len::<Alive>(), scene.group_len::<Shown>()),
        (2, 1)
    );
    scene.insert(y, Dead).unwrap();
    assert_eq!(
        (scene.group_len::<Alive>(), scene.group_len::<Shown>()),
        (1, 0)
    );
    scene.remove::<Dead>(y);
    scene.remove::<Hidden>(x);
    assert_eq!(
        (scene.group_len::<Alive>(), scene.group_len::<Shown>()),
        (2, 2)
    );
    scene.check().unwrap();
}
