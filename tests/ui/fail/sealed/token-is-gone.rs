//! Hole 4 of the soundness issue: a hand-made `Edit<T>` received the crate's `Token` in
//! `push_pending` and kept it, then filed one entity twice in a real world. No trait
//! method a user can implement receives a capability any more: the pending rows of a
//! spawn are only reached with the world's own key, and `Edit` has no `push_pending`.
use sparse_groups::{Component, Edit, Entity, EntityError, InsertManyError, Storage, world};

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

#[world]
struct Scene {
    a: Storage<A>,
}

impl Edit<B> for Scene {
    fn insert(&mut self, _: Entity, _: B) -> Result<Option<B>, EntityError> {
        Ok(None)
    }
    fn remove(&mut self, _: Entity) -> Option<B> {
        None
    }
    fn insert_many(&mut self, _: Vec<(Entity, B)>) -> Result<usize, InsertManyError<B>> {
        Ok(0)
    }
    fn remove_many(&mut self, _: &[Entity]) -> usize {
        0
    }
    fn clear(&mut self) {}
    fn push_pending(&mut self, _: B) {}
}

fn main() {}
