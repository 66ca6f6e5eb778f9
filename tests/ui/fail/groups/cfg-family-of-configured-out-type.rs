use sparse_groups::{Component, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);
#[derive(Component)]
struct C(u32);

/// A family of nested groups, one of which names a configured-out type: one error, on
/// that group; the rest of the world still works.
#[world]
#[group(A, B)]
#[group(A, B, C)]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
    #[cfg(any())]
    c: Storage<C>,
}

fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn_with((A(1), B(2)));
    assert_eq!(scene.group_len::<(A, B)>(), 1);
    let _ = e;
}
