use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);
#[derive(Component)]
struct C(u32);
#[derive(Component)]
struct D(u32);
#[derive(Component)]
struct E(u32);
#[derive(Component)]
struct F(u32);
#[derive(Component)]
struct G(u32);

#[world]
#[group(A, B)]
#[group(C, D)]
#[group(C, E)]
#[group(F)]
#[group(A, B, G, X)]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
    d: Storage<D>,
    e: Storage<E>,
    f: Storage<F>,
    g: Storage<G>,
}

fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn();
    scene.insert(e, A(1)).unwrap();
    scene.insert(e, B(1)).unwrap();
    let _ = scene.group::<(A, B)>();
    let _ = scene.group_len::<(A, B)>();
    scene.check().unwrap();
}
