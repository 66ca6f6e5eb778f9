//! A world and its components declared inside a function body, as tests and doctests do:
//! the generated code names nothing outside the function.
// The case is that this compiles: its components' values are never read.
#![allow(dead_code)]

pub fn main() {
    use sparse_groups::{Component, Storage, world};

    #[derive(Component)]
    struct A(u32);
    #[derive(Component)]
    struct B(u32);

    #[world]
    #[group(A, B)]
    struct Scene {
        a: Storage<A>,
        b: Storage<B>,
    }

    let mut scene = Scene::new();
    scene.spawn_with((A(1), B(2)));
    assert_eq!(scene.group_len::<(A, B)>(), 1);
}
