use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

// One error, on the second `#[world]`: the first expands, the second is dropped.
#[world]
#[world]
#[group(A, B)]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
}

fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn_with((A(1), B(2)));
    assert_eq!(scene.group_len::<(A, B)>(), 1);
    scene.destroy(e).unwrap();
}
