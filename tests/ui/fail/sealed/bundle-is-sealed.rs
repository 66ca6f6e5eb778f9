//! A spawn stores every component of its bundle, then enters the entity's groups: a
//! hand-made `Bundle` could leave a storage or a group behind. `Bundle` is sealed, and so
//! is `ComponentSet`, which a bundle must also be.
use sparse_groups::__private::Internals;
use sparse_groups::{Bundle, Component, Entity, Storage, world};

#[derive(Component)]
struct A(u32);

#[world]
struct Scene {
    a: Storage<A>,
}

struct Loose(A);

type Key = <Scene as Internals>::Key;

impl Bundle<Scene> for Loose {
    type Batch = ();
    fn batch(_: usize) {}
    fn push_row(self, _: &mut ()) {}
    fn append_columns(_: (), _: &mut Scene, _: &Key, _: &[Entity]) {}
    fn reserve_new(_: &mut Scene, _: &Key, _: usize) {}
    fn push_pending(self, _: &mut Scene, _: &Key) {}
    fn file_pending(_: &mut Scene, _: &Key, _: &[Entity]) {}
    fn drop_pending(_: &mut Scene, _: &Key) {}
    fn push_pending_at(self, _: &mut Scene, _: &Key, _: &mut [usize]) {}
    fn file_pending_at(_: &mut Scene, _: &Key, _: &[usize], _: &[Entity]) {}
    fn insert_each(self, _: &mut Scene, _: Entity) {}
}

fn main() {}
