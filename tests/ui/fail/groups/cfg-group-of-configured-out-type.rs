use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);
#[derive(Component)]
struct C(u32);
#[derive(Component)]
struct D(u32);

#[world]
#[group(A, B)]
struct Scene {
    a: Storage<A>,
    #[cfg(any())]
    b: Storage<B>,
    #[cfg(any())]
    c: Storage<C>,
    d: Storage<D>,
}

fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn();
    // The storage of `C` is configured out: it does not exist.
    scene.insert(e, C(1)).unwrap();
}
