mod game {
    use sparse_groups::{Component, Storage, world};

    #[derive(Component)]
    pub struct A(pub u32);
    #[derive(Component)]
    pub struct B(pub u32);

    #[world]
    #[group(A, B)]
    pub struct Scene {
        pub a: Storage<A>,
        pub b: Storage<B>,
    }
}

use game::{A, Scene};

fn main() {
    let mut scene = Scene::new();
    let e = scene.spawn();
    // The storages are not fields of the world.
    scene.a.insert(e, A(1));
    // Their accessors are read only.
    scene.a().insert(e, A(1));
    scene.storage::<A>().remove(e);
    // The sealed storages are private to the world's module.
    let _ = &mut scene.__sparse;
}
