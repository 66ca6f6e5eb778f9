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

fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn();
    // The accessors hand out shared references only, even in the world's own module.
    scene.a().insert(e, A(1));
    scene.storage::<A>().remove(e);
    scene.b().swap(0, 1);
    scene.storage::<B>().sort_by(|x, y| x.0.cmp(&y.0));
}
