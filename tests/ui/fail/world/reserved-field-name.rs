use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

#[world]
struct Scene {
    a: Storage<A>,
    __sparse_entities: Storage<B>,
}

fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn();
    scene.insert(e, A(1)).unwrap();
}
