//! Only `sparse::` paths, no `use`: the macros must not rely on names in scope.

#[derive(sparse::Component, Debug, PartialEq)]
struct A(u32);
#[derive(sparse::Component, Debug, PartialEq)]
struct B(u32);

#[sparse::world]
#[group(A, B)]
struct Scene {
    a: sparse::Storage<A>,
    b: sparse::Storage<B>,
}

fn main() {
    let mut scene = Scene::new();
    let e: sparse::Entity = scene.spawn();
    scene.insert(e, A(1)).unwrap();
    scene.insert(e, B(2)).unwrap();
    assert_eq!(scene.group_len::<(A, B)>(), 1);
    let group: sparse::GroupMut<'_, (A, B)> = scene.group::<(A, B)>();
    assert_eq!(group.entities(), &[e]);
    scene.destroy(e).unwrap();
    assert_eq!(scene.destroy(e), Err(sparse::EntityError::Dead(e)));
    assert_eq!(scene.group_len::<(A, B)>(), 0);
    scene.check().unwrap();
}
