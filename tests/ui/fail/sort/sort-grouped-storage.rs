use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);
#[derive(Component)]
struct C(u32);

#[world]
#[group(A, B)]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
    c: Storage<C>,
}

fn main() {
    let mut scene = Scene::new();
    scene.sort::<C>(|x, y| x.0.cmp(&y.0));
    scene.sort::<A>(|x, y| x.0.cmp(&y.0));
}
