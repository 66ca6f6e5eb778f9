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
    let _ = scene.group_len::<(A, B)>();
    let _ = scene.group::<(B, A)>();
}
