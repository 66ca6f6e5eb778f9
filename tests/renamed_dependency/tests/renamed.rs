//! `#[world]` and `#[derive(Component)]` work when the facade is renamed in `Cargo.toml`
//! (`sparse = { package = "sparse_groups", … }`): no path in the generated code names
//! `sparse_groups`.

use sparse::{Component, Storage, world};

#[derive(Component, Debug, Clone, PartialEq)]
struct A(u32);
#[derive(Component, Debug, Clone, PartialEq)]
struct B(u32);

#[world]
#[derive(Debug, Clone)]
#[group(A, B)]
struct Scene {
    a: Storage<A>,
    b: Storage<B>,
}

#[test]
fn a_renamed_facade_is_found() {
    let mut scene = Scene::new();
    let e = scene.spawn_with((A(1), B(2)));
    assert_eq!(scene.group_len::<(A, B)>(), 1);
    assert_eq!(scene.remove::<B>(e), Some(B(2)));
    assert_eq!(scene.group_len::<(A, B)>(), 0);
    scene.check().unwrap();
    let copy = scene.clone();
    assert_eq!(copy.get::<A>(e), Some(&A(1)));
}
