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
    // Even in the world's own module, the storages are private to the module `#[world]`
    // generates for them: no safe code can change their structure behind the group steps.
    scene.__sparse.s0.insert(e, A(1));
}
