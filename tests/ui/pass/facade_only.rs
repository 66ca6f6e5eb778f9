//! Only `sparse_groups::` paths, no `use`: the macros must not rely on names in scope.

#[derive(sparse_groups::Component, Debug, PartialEq)]
struct A(u32);
#[derive(sparse_groups::Component, Debug, PartialEq)]
struct B(u32);

#[sparse_groups::world]
#[group(A, B)]
struct Scene {
    a: sparse_groups::Storage<A>,
    b: sparse_groups::Storage<B>,
}

pub fn main() {
    let mut scene = Scene::new();
    let e: sparse_groups::Entity = scene.spawn();
    scene.insert(e, A(1)).unwrap();
    scene.insert(e, B(2)).unwrap();
    assert_eq!(scene.group_len::<(A, B)>(), 1);
    let group: sparse_groups::GroupMut<'_, (A, B)> = scene.group::<(A, B)>();
    assert_eq!(group.entities(), &[e]);
    scene.destroy(e).unwrap();
    assert_eq!(scene.destroy(e), Err(sparse_groups::EntityError::Dead(e)));
    assert_eq!(scene.group_len::<(A, B)>(), 0);
    scene.check().unwrap();
}
